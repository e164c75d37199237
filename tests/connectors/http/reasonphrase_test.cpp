#include "connectors/http/reasonphrase.h"

#include <gtest/gtest.h>

using strata::http::reasonPhrase;

TEST(ReasonPhrase, KnownStatusesHaveTheirStandardPhrase)
{
    EXPECT_EQ(reasonPhrase(200), "OK");
    EXPECT_EQ(reasonPhrase(404), "Not Found");
    EXPECT_EQ(reasonPhrase(412), "Precondition Failed");
    EXPECT_EQ(reasonPhrase(413), "Payload Too Large");
    EXPECT_EQ(reasonPhrase(421), "Misdirected Request");
    EXPECT_EQ(reasonPhrase(431), "Request Header Fields Too Large");
    EXPECT_EQ(reasonPhrase(503), "Service Unavailable");
}

TEST(ReasonPhrase, UnknownStatusIsEmptySoCallersPickTheirFallback)
{
    EXPECT_TRUE(reasonPhrase(299).empty());
    EXPECT_TRUE(reasonPhrase(0).empty());
    EXPECT_TRUE(reasonPhrase(-1).empty());
    static_assert(reasonPhrase(401) == "Unauthorized", "usable at compile time");
}
