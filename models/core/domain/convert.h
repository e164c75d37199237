#pragma once

#include "models/core/domain/action.h"
#include "models/core/domain/keyed.h"

#include <QDateTime>
#include <QObject>
#include <QString>

#include <memory>
#include <string>
#include <vector>

/// Small conversions the model layer's sources share when they translate connector DTOs
/// (std::string, UTF-8) into domain records (QString) and publish keyed lists.
namespace strata::core {

/// A time as an action preview names it: ISO 8601, or "an unknown time".
inline QString previewTimeText(const QDateTime &t)
{
    return t.isValid() ? t.toString(Qt::ISODate) : QObject::tr("an unknown time");
}

inline QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

inline std::string ss(const QString &s)
{
    return s.toStdString();
}

template <class T> std::shared_ptr<const KeyedList<T>> keyed(std::vector<Ptr<T>> items)
{
    return std::make_shared<const KeyedList<T>>(std::move(items));
}

/// A failed, not reconciled action result with `message`.
inline ActionResult actionFailed(const QString &message)
{
    return ActionResult{false, false, message};
}

/// A successful action result that found its effect already applied (reconciled).
inline ActionResult actionReconciled(const QString &message)
{
    return ActionResult{true, true, message};
}

} // namespace strata::core
