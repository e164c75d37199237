#pragma once

#include "models/core/domain/error.h"

#include <QString>

#include <gtest/gtest.h>

namespace strata::testsupport {

/// For gtest: success, or a failure whose text is the error's message.
/// `ASSERT_TRUE(succeeded(core::AppConfig::parse(json, &config)));`
template <class T>::testing::AssertionResult succeeded(const Expected<T, core::Error> &result)
{
    if (result) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << result.error().message.toStdString();
}

/// The error's message, or an empty string on success (every core::Error has a message).
template <class T> QString errorText(const Expected<T, core::Error> &result)
{
    return result ? QString() : result.error().message;
}

} // namespace strata::testsupport
