#include "models/core/domain.h"

namespace strata::core {

QString sourceKindName(SourceKind kind)
{
    switch (kind) {
    case SourceKind::Ontap:
        return QStringLiteral("ontap");
    }
    return {};
}

std::optional<SourceKind> sourceKindFromName(const QString &name)
{
    if (name == QLatin1String("ontap")) {
        return SourceKind::Ontap;
    }
    return std::nullopt;
}

QString healthName(Health health)
{
    switch (health) {
    case Health::Unknown:
        return QStringLiteral("unknown");
    case Health::Ok:
        return QStringLiteral("ok");
    case Health::Degraded:
        return QStringLiteral("degraded");
    case Health::Unreachable:
        return QStringLiteral("unreachable");
    case Health::AuthRequired:
        return QStringLiteral("auth_required");
    }
    return {};
}

QString formatBytes(qint64 bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (std::abs(value) >= 1024.0 && unit < 5) {
        value /= 1024.0;
        ++unit;
    }
    if (unit == 0) {
        return QString::number(bytes) + QStringLiteral(" B");
    }
    return QString::number(value, 'f', 1) + QLatin1Char(' ') + QLatin1String(units[unit]);
}

} // namespace strata::core
