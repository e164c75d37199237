#include "models/core/domain/severity.h"

namespace strata::core {

QString timelineSeverityName(TimelineSeverity severity)
{
    switch (severity) {
    case TimelineSeverity::Critical:
        return QStringLiteral("critical");
    case TimelineSeverity::Error:
        return QStringLiteral("error");
    case TimelineSeverity::Warning:
        return QStringLiteral("warning");
    case TimelineSeverity::Info:
        return QStringLiteral("info");
    }
    return {};
}

std::optional<TimelineSeverity> timelineSeverityFromName(const QString &name)
{
    for (const TimelineSeverity s :
         {TimelineSeverity::Critical, TimelineSeverity::Error, TimelineSeverity::Warning, TimelineSeverity::Info}) {
        if (timelineSeverityName(s) == name) {
            return s;
        }
    }
    return std::nullopt;
}

TimelineSeverity severityFromSystem(const QString &system, const QString &severity)
{
    const QString s = severity.toLower();
    if (system == QLatin1String("storagegrid")) {
        if (s == QLatin1String("critical")) {
            return TimelineSeverity::Critical;
        }
        if (s == QLatin1String("major")) {
            return TimelineSeverity::Error;
        }
        if (s == QLatin1String("minor")) {
            return TimelineSeverity::Warning;
        }
    }
    if (s == QLatin1String("emergency") || s == QLatin1String("alert") || s == QLatin1String("critical")) {
        return TimelineSeverity::Critical;
    }
    if (s == QLatin1String("error")) {
        return TimelineSeverity::Error;
    }
    if (s == QLatin1String("warning") || s == QLatin1String("notice")) {
        return TimelineSeverity::Warning;
    }
    return TimelineSeverity::Info;
}

} // namespace strata::core
