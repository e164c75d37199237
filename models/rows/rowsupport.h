#pragma once

#include "models/core/domain/format.h"
#include "models/core/domain/keyed.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QStringList>
#include <QVariant>

#include <optional>
#include <vector>

namespace strata::rows {

/// GPUs as a JSON number with decimals (0.6), from milli-GPUs.
inline QVariant gpuNumber(core::MilliGpu milli)
{
    return double(milli) / 1000.0;
}

/// Every record of `table` from the given sources (all sources when `sources` is empty), scope
/// by scope in the order the systems returned them.
template <class T> std::vector<core::Ptr<T>> collectRows(const core::Table<T> &table, const QStringList &sources)
{
    std::vector<core::Ptr<T>> out;
    for (const QString &source : table.scopes()) {
        if (!sources.isEmpty() && !sources.contains(source)) {
            continue;
        }
        if (const auto list = table.scope(source)) {
            out.insert(out.end(), list->items().begin(), list->items().end());
        }
    }
    return out;
}

/// The seconds a relative time names when `pattern` matches `text`: capture 1 is a count, capture
/// 2 its unit (s, m, h or d); nullopt when it does not match.
inline std::optional<qint64> relativeSeconds(const QRegularExpression &pattern, const QString &text)
{
    const QRegularExpressionMatch m = pattern.match(text);
    if (!m.hasMatch()) {
        return std::nullopt;
    }
    const qint64 n = m.captured(1).toLongLong();
    const QChar unit = m.captured(2).at(0);
    return unit == QLatin1Char('s')   ? n
           : unit == QLatin1Char('m') ? n * 60
           : unit == QLatin1Char('h') ? n * 3600
                                      : n * 86400;
}

/// An ISO 8601 time with or without milliseconds as Qt reads it (an invalid QDateTime when it is
/// none); the caller decides what a time without an offset means.
inline QDateTime parseIsoTime(const QString &text)
{
    const QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    return t.isValid() ? t : QDateTime::fromString(text, Qt::ISODate);
}

} // namespace strata::rows
