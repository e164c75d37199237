#include "connectors/error.h"
#include "models/core/domain/error.h"
#include "models/core/sources/connectorerror.h"

#include <gtest/gtest.h>

using strata::core::Error;
using strata::core::toError;
namespace connectors = strata::connectors;

TEST(CoreError, FromConnectorKeepsTheMessageAndMapsTheKind)
{
    const Error timeout = toError(connectors::Error::make(connectors::Error::Kind::Timeout, "ontap-ai timed out"));
    EXPECT_EQ(timeout.kind, Error::Kind::Unavailable);
    EXPECT_EQ(timeout.message, QStringLiteral("ontap-ai timed out"));
    EXPECT_TRUE(timeout.field.isEmpty());

    EXPECT_EQ(toError(connectors::Error::make(connectors::Error::Kind::Api, "no such volume", 404)).kind,
              Error::Kind::NotFound);
    EXPECT_EQ(toError(connectors::Error::make(connectors::Error::Kind::Http, "busy", 409)).kind, Error::Kind::Conflict);
    EXPECT_EQ(toError(connectors::Error::make(connectors::Error::Kind::Http, "boom", 500)).kind, Error::Kind::Failed);
    EXPECT_EQ(toError(connectors::Error::make(connectors::Error::Kind::Parse, "bad manifest")).kind,
              Error::Kind::Failed);
    EXPECT_EQ(toError(connectors::Error::make(connectors::Error::Kind::Cancelled, "cancelled")).kind,
              Error::Kind::Cancelled);
}

TEST(CoreError, InvalidNamesTheFieldAndComparesByValue)
{
    const Error e = Error::invalid(QStringLiteral("url"), QStringLiteral("Enter the URL."));
    EXPECT_EQ(e.kind, Error::Kind::Invalid);
    EXPECT_EQ(e.field, QStringLiteral("url"));
    EXPECT_EQ(e, Error::invalid(QStringLiteral("url"), QStringLiteral("Enter the URL.")));
    EXPECT_NE(e, Error::failed(QStringLiteral("Enter the URL.")));
}
