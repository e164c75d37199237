#pragma once

#include <QCoreApplication>
#include <QString>

namespace strata::cli {

/// `text` translated in the context lupdate gives free functions of this namespace
/// ("strata::cli"); lupdate finds the strings through the `tr(` calls.
inline QString tr(const char *text)
{
    return QCoreApplication::translate("strata::cli", text);
}

} // namespace strata::cli
