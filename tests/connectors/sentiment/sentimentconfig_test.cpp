// Config key "sentiment": parsed with errors that name the problem, saved and read back.

#include "models/core/store/config.h"
#include "tests/support/qt/corestatus.h"

#include <gtest/gtest.h>

using strata::testsupport::errorText;
using strata::testsupport::succeeded;
using namespace strata::core;

namespace {

QByteArray withSentiment(const QByteArray &sentiment)
{
    return R"({"sources":[{"name":"datalake","kind":"storagegrid","url":"https://admin.example",)"
           R"("username":"root","password":{"env":"GRID_PW"},"s3_url":"https://s3.example",)"
           R"("s3_access_key":"AK","s3_secret":{"env":"S3_SECRET"}},)"
           R"({"name":"ontap-ai","kind":"ontap","url":"https://ontap.example","username":"admin",)"
           R"("password":{"env":"ONTAP_PW"}}],"sentiment":)"
           + sentiment + "}";
}

} // namespace

TEST(SentimentConfig, ParsesDefaultsAndSavesRoundTrip)
{
    AppConfig config;
    ASSERT_TRUE(succeeded(AppConfig::parse(withSentiment(R"({"source":"datalake"})"), &config)));
    ASSERT_TRUE(config.sentiment);
    EXPECT_EQ(config.sentiment->bucket, QStringLiteral("sentiment"));
    EXPECT_EQ(config.sentiment->prefix, QStringLiteral("calls/"));
    EXPECT_EQ(config.sentiment->pollMilliseconds, 500);
    EXPECT_EQ(config.sentiment->s3Secret.kind, SecretRef::Kind::None);

    ASSERT_TRUE(
        succeeded(AppConfig::parse(withSentiment(R"({"source":"datalake","bucket":"calls-2026","prefix":"",)"
                                                 R"("s3_access_key":"SC","s3_secret":{"keychain":"strata/x/y"},)"
                                                 R"("poll_ms":250})"),
                                   &config)));
    AppConfig again;
    ASSERT_TRUE(succeeded(AppConfig::parse(config.toJson(), &again)));
    ASSERT_TRUE(again.sentiment);
    EXPECT_EQ(*again.sentiment, *config.sentiment);
    EXPECT_EQ(again.sentiment->s3Secret.value, QStringLiteral("strata/x/y"));
    EXPECT_FALSE(config.toJson().contains("\"sentiment\":null"));

    AppConfig none;
    ASSERT_TRUE(succeeded(AppConfig::parse(R"({"sources":[]})", &none)));
    EXPECT_FALSE(none.sentiment);
    EXPECT_FALSE(none.toJson().contains("sentiment"));
}

TEST(SentimentConfig, ErrorsNameTheProblem)
{
    const std::pair<QByteArray, QString> cases[] = {
        {R"("calls")", QStringLiteral("\"sentiment\" must be an object")},
        {R"({})", QStringLiteral("\"source\" (a StorageGRID source name) is required")},
        {R"({"source":"nowhere"})", QStringLiteral("source \"nowhere\" is not configured")},
        {R"({"source":"ontap-ai"})", QStringLiteral("must be a StorageGRID source")},
        {R"({"source":"datalake","bucket":"Bad_Bucket"})", QStringLiteral("not a valid bucket name")},
        {R"({"source":"datalake","s3_secret":"plain"})", QStringLiteral("secrets are not stored in the config file")},
        {R"({"source":"datalake","s3_access_key":"SC"})", QStringLiteral("go together")},
        {R"({"source":"datalake","poll_ms":5})", QStringLiteral("poll_ms")},
        {R"({"source":"datalake","poll_ms":600000})", QStringLiteral("at most 60000")},
    };
    for (const auto &[json, expected] : cases) {
        AppConfig config;
        QString error = errorText(AppConfig::parse(withSentiment(json), &config));
        EXPECT_FALSE(error.isEmpty()) << json.toStdString();
        EXPECT_TRUE(error.startsWith(QStringLiteral("sentiment: "))
                    || error.startsWith(QStringLiteral("\"sentiment\"")))
            << error.toStdString();
        EXPECT_TRUE(error.contains(expected)) << json.toStdString() << " -> " << error.toStdString();
        EXPECT_FALSE(error.contains(QStringLiteral("plain")));
    }
}
