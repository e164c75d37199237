#pragma once

#include "models/core/keyed.h"

#include <QStringList>

#include <vector>

namespace strata::rows {

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

} // namespace strata::rows
