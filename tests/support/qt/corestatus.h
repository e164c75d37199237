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

/// The result's value. A failed result fails the current test (ADD_FAILURE, naming the error)
/// and gives a default T, so the test goes on to report what else differs.
/// `EXPECT_EQ(valueOf(store.auditLog()).size(), 3U);`
template <class T> T valueOf(Expected<T, core::Error> result)
{
    if (!result) {
        ADD_FAILURE() << "unexpected error: " << result.error().message.toStdString();
        return T{};
    }
    return std::move(result).value();
}

/// The error's message, or an empty string on success (every core::Error has a message).
template <class T> QString errorText(const Expected<T, core::Error> &result)
{
    return result ? QString() : result.error().message;
}

} // namespace strata::testsupport
