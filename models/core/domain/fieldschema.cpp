#include "models/core/domain/fieldschema.h"

#include "models/core/domain/format.h"

#include <QCoreApplication>

namespace strata::core {

QString fieldText(FieldKind kind, const QVariant &value)
{
    if (value.isNull()) {
        return kind == FieldKind::Text ? QString() : QString::fromUtf16(kUnknownText);
    }
    switch (kind) {
    case FieldKind::Text:
        return value.typeId() == QMetaType::QStringList ? value.toStringList().join(QStringLiteral(", "))
                                                        : value.toString();
    case FieldKind::Flag:
        return value.toBool() ? QStringLiteral("yes") : QStringLiteral("no");
    case FieldKind::Count:
        return formatCount(value.toLongLong());
    case FieldKind::Bytes:
        return formatBytes(value.toLongLong());
    case FieldKind::Percent:
        return formatPercent(value.toDouble());
    case FieldKind::Rate:
        return formatRate(value.toDouble());
    case FieldKind::Iops:
        return formatCount(qRound64(value.toDouble()));
    case FieldKind::Latency:
        return QLocale().toString(value.toDouble() / 1000.0, 'f', 2) + QStringLiteral(" ms");
    case FieldKind::Time:
        return value.toDateTime().toUTC().toString(Qt::ISODate);
    case FieldKind::Duration:
        return formatDuration(value.toLongLong());
    case FieldKind::Gpus:
        return formatGpus(qRound64(value.toDouble() * 1000.0));
    }
    return value.toString();
}

int compareFieldValues(const QVariant &a, const QVariant &b)
{
    if (a.isNull() || b.isNull()) {
        return a.isNull() == b.isNull() ? 0 : (a.isNull() ? -1 : 1);
    }
    const int ta = a.typeId();
    const int tb = b.typeId();
    if (ta == QMetaType::QString && tb == QMetaType::QString) {
        const QString x = a.toString();
        const QString y = b.toString();
        int c = x.compare(y, Qt::CaseInsensitive);
        if (c == 0) {
            c = x.compare(y);
        }
        return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    if (ta == QMetaType::QDateTime && tb == QMetaType::QDateTime) {
        const QDateTime x = a.toDateTime();
        const QDateTime y = b.toDateTime();
        return x < y ? -1 : (y < x ? 1 : 0);
    }
    if (ta == QMetaType::LongLong && tb == QMetaType::LongLong) {
        const qint64 x = a.toLongLong();
        const qint64 y = b.toLongLong();
        return x < y ? -1 : (y < x ? 1 : 0);
    }
    const double x = a.toDouble();
    const double y = b.toDouble();
    return x < y ? -1 : (y < x ? 1 : 0);
}

QString fieldKindName(FieldKind kind)
{
    switch (kind) {
    case FieldKind::Text:
        return QStringLiteral("text");
    case FieldKind::Flag:
        return QStringLiteral("flag");
    case FieldKind::Count:
        return QStringLiteral("count");
    case FieldKind::Bytes:
        return QStringLiteral("bytes");
    case FieldKind::Percent:
        return QStringLiteral("percent");
    case FieldKind::Rate:
        return QStringLiteral("rate");
    case FieldKind::Iops:
        return QStringLiteral("iops");
    case FieldKind::Latency:
        return QStringLiteral("latency");
    case FieldKind::Time:
        return QStringLiteral("time");
    case FieldKind::Duration:
        return QStringLiteral("duration");
    case FieldKind::Gpus:
        return QStringLiteral("gpus");
    }
    return QStringLiteral("text");
}

QString fieldTitle(const char *title)
{
    return QCoreApplication::translate("strata::fields", title);
}

} // namespace strata::core
