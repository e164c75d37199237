#pragma once

#include <QCoreApplication>
#include <QString>

namespace strata::core {

/// `text` translated in the context lupdate gives free functions of this namespace
/// ("strata::core"); lupdate finds the strings through the `tr(` calls.
inline QString tr(const char *text)
{
    return QCoreApplication::translate("strata::core", text);
}

} // namespace strata::core
