// Config file: StorageGRID sources (admin API + S3 dataset hub keys) and dataset roots.

#include "models/core/store/config.h"
#include "tests/support/qt/corestatus.h"

#include <gtest/gtest.h>

using strata::testsupport::errorText;
using strata::testsupport::succeeded;
using namespace strata::core;

namespace {

QByteArray withSource(const QByteArray &sourceJson)
{
    return QByteArray("{\"sources\": [") + sourceJson + QByteArray("]}");
}

QString parseError(const QByteArray &sourceJson)
{
    AppConfig config;
    QString error = errorText(AppConfig::parse(withSource(sourceJson), &config));
    EXPECT_FALSE(error.isEmpty()) << sourceJson.constData();
    return error;
}

const QByteArray kGrid = R"({"name": "datalake", "kind": "storagegrid", "url": "https://admin.datalake:9443",
    "username": "root", "password": {"keychain": "strata/datalake/password"},
    "s3_url": "https://s3.datalake:10443", "s3_region": "eu-west-1", "s3_access_key": "AKIADATALAKE",
    "s3_secret": {"keychain": "strata/datalake/s3_secret"}, "s3_path_style": false,
    "dataset_roots": ["datasets/*", "sentiment", "models/bert/"]})";

} // namespace

TEST(ConfigStorageGrid, ParsesEveryKey)
{
    AppConfig config;
    ASSERT_TRUE(succeeded(AppConfig::parse(withSource(kGrid), &config)));
    ASSERT_EQ(config.sources.size(), 1);
    const SourceConfig &s = config.sources.first();
    EXPECT_EQ(s.kind, SourceKind::StorageGrid);
    EXPECT_EQ(s.url, QStringLiteral("https://admin.datalake:9443"));
    EXPECT_EQ(s.s3Url, QStringLiteral("https://s3.datalake:10443"));
    EXPECT_EQ(s.s3Region, QStringLiteral("eu-west-1"));
    EXPECT_EQ(s.s3AccessKey, QStringLiteral("AKIADATALAKE"));
    EXPECT_EQ(s.s3Secret.kind, SecretRef::Kind::Keychain);
    EXPECT_EQ(s.s3Secret.value, QStringLiteral("strata/datalake/s3_secret"));
    EXPECT_FALSE(s.s3PathStyle);
    EXPECT_EQ(s.datasetRoots,
              (QStringList{QStringLiteral("datasets/*"), QStringLiteral("sentiment"), QStringLiteral("models/bert/")}));
}

TEST(ConfigStorageGrid, RoundTripsThroughToJson)
{
    AppConfig config;
    ASSERT_TRUE(succeeded(AppConfig::parse(withSource(kGrid), &config)));
    const QByteArray json = config.toJson();
    EXPECT_FALSE(json.contains("AKIADATALAKE-secret"));
    AppConfig again;
    ASSERT_TRUE(succeeded(AppConfig::parse(json, &again)));
    EXPECT_EQ(again.sources, config.sources);
}

TEST(ConfigStorageGrid, PathStyleDefaultsToTrueAndGridWithoutS3IsFine)
{
    AppConfig config;
    ASSERT_TRUE(succeeded(AppConfig::parse(withSource(R"({"name": "g", "kind": "storagegrid", "url": "https://a:9443",
        "username": "root", "password": {"env": "GRID_PW"}})"),
                                           &config)));
    EXPECT_TRUE(config.sources.first().s3PathStyle);
    EXPECT_TRUE(config.sources.first().s3Url.isEmpty());
}

TEST(ConfigStorageGrid, RejectsBadInputNamingTheKey)
{
    const QString literal = parseError(R"({"name": "g", "kind": "storagegrid", "url": "https://a", "username": "root",
        "password": {"env": "P"}, "s3_url": "https://s3", "s3_access_key": "AK", "s3_secret": "hunter2"})");
    EXPECT_TRUE(literal.contains(QStringLiteral("s3_secret"))) << literal.toStdString();
    EXPECT_FALSE(literal.contains(QStringLiteral("hunter2")));

    EXPECT_TRUE(parseError(R"({"name": "g", "kind": "storagegrid", "url": "https://a", "username": "root",
        "password": {"env": "P"}, "s3_url": "ftp://s3", "s3_access_key": "AK", "s3_secret": {"env": "S"}})")
                    .contains(QStringLiteral("s3_url")));
    EXPECT_TRUE(parseError(R"({"name": "g", "kind": "storagegrid", "url": "https://a", "username": "root",
        "password": {"env": "P"}, "s3_url": "https://s3"})")
                    .contains(QStringLiteral("s3_access_key")));
    EXPECT_TRUE(parseError(R"({"name": "g", "kind": "storagegrid", "url": "https://a", "username": "root",
        "password": {"env": "P"}, "s3_url": "https://s3", "s3_access_key": "AK", "s3_secret": {"env": "S"},
        "s3_path_style": "yes"})")
                    .contains(QStringLiteral("s3_path_style")));
    EXPECT_TRUE(parseError(R"({"name": "g", "kind": "storagegrid", "url": "https://a", "username": "root",
        "password": {"env": "P"}, "s3_url": "https://s3", "s3_access_key": "AK", "s3_secret": {"env": "S"},
        "dataset_roots": ["Bad_Bucket/*"]})")
                    .contains(QStringLiteral("Bad_Bucket/*")));
    EXPECT_TRUE(parseError(R"({"name": "g", "kind": "storagegrid", "url": "https://a", "username": "root",
        "password": {"env": "P"}, "s3_url": "https://s3", "s3_access_key": "AK", "s3_secret": {"env": "S"},
        "dataset_roots": ["datasets/no-trailing-slash"]})")
                    .contains(QStringLiteral("dataset root")));
    EXPECT_TRUE(parseError(R"({"name": "g", "kind": "storagegrid", "url": "https://a", "username": "root",
        "password": {"env": "P"}, "s3_url": "https://s3", "s3_access_key": "AK", "s3_secret": {"env": "S"},
        "dataset_roots": "datasets/*"})")
                    .contains(QStringLiteral("dataset_roots")));
    EXPECT_TRUE(parseError(R"({"name": "g", "kind": "storagegrid", "url": "https://a", "username": "root",
        "password": {"env": "P"}, "dataset_roots": ["datasets/*"]})")
                    .contains(QStringLiteral("s3_url")));
    EXPECT_TRUE(parseError(R"({"name": "g", "kind": "storagegrid", "url": "https://a", "username": "root"})")
                    .contains(QStringLiteral("password")));
    EXPECT_TRUE(parseError(R"({"name": "g", "kind": "storagegrid", "password": {"env": "P"}, "username": "root"})")
                    .contains(QStringLiteral("url")));
}

TEST(ConfigStorageGrid, S3KeysOnlyForStorageGridAndRootsAlsoForOntap)
{
    EXPECT_TRUE(parseError(R"({"name": "o", "kind": "ontap", "url": "https://c", "s3_url": "https://s3"})")
                    .contains(QStringLiteral("storagegrid")));
    EXPECT_TRUE(parseError(R"({"name": "k", "kind": "kubernetes", "dataset_roots": ["svm/vol"]})")
                    .contains(QStringLiteral("dataset_roots")));
    AppConfig config;
    ASSERT_TRUE(succeeded(AppConfig::parse(withSource(R"({"name": "o", "kind": "ontap", "url": "https://c",
        "dataset_roots": ["svm_ai/chest_xray"]})"),
                                           &config)));
    EXPECT_EQ(config.sources.first().datasetRoots, QStringList{QStringLiteral("svm_ai/chest_xray")});
}

TEST(ConfigStorageGrid, UnknownKindListsStorageGrid)
{
    EXPECT_TRUE(
        parseError(R"({"name": "x", "kind": "s3", "url": "https://a"})").contains(QStringLiteral("storagegrid")));
}
