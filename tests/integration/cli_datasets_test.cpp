// The dataset verbs of the CLI on the demo estate (`--demo`): TR-4841's hub as `get datasets`
// prints it, a commit, a cache load through the simulated cluster's loader Job, and usage errors.

#include "app/cli/cli.h"
#include "models/core/credentialstore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <gtest/gtest.h>

using namespace strata;

namespace {

struct CliRun
{
    int code = -1;
    QString out;
    QString err;
};

CliRun runDemo(QStringList args)
{
    core::InMemoryCredentialStore unused; // --demo brings its own in-memory secrets
    CliRun r;
    QTextStream out(&r.out);
    QTextStream err(&r.err);
    args.prepend(QStringLiteral("--demo"));
    r.code = cli::run(args, QStringLiteral("strata"), unused, QStringLiteral("cli-test"), out, err);
    out.flush();
    err.flush();
    return r;
}

QJsonDocument parse(const QString &text)
{
    QJsonParseError error{};
    QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
    EXPECT_EQ(error.error, QJsonParseError::NoError) << text.left(300).toStdString();
    return doc;
}

} // namespace

TEST(CliDatasets, GetDatasets_ShowsTr4841sSixDatasetsCommitsAndCachedCommits)
{
    const CliRun table = runDemo({QStringLiteral("get"), QStringLiteral("datasets")});
    ASSERT_EQ(table.code, 0) << table.err.toStdString();
    EXPECT_TRUE(table.out.startsWith(QStringLiteral("6 Datasets | 290.2 MB | 3 NFS Connected | ")))
        << table.out.left(200).toStdString();

    const CliRun json =
        runDemo({QStringLiteral("get"), QStringLiteral("datasets"), QStringLiteral("-o"), QStringLiteral("json")});
    ASSERT_EQ(json.code, 0) << json.err.toStdString();
    const QJsonArray rows = parse(json.out).array();
    ASSERT_EQ(rows.size(), 6);
    // name -> {commits, cached commits, size in bytes}: ARCHITECTURE.md's demo estate.
    const QHash<QString, std::tuple<int, int, qint64>> expected{{QStringLiteral("fraud_jun"), {4, 2, 32'400'000}},
                                                                {QStringLiteral("fraud_may"), {2, 0, 57'600'000}},
                                                                {QStringLiteral("consumer_img1"), {4, 0, 27'300'000}},
                                                                {QStringLiteral("public_set12"), {7, 1, 102'700'000}},
                                                                {QStringLiteral("fraud_sim_base"), {2, 1, 45'100'000}},
                                                                {QStringLiteral("misc_base1"), {1, 0, 25'100'000}}};
    for (const QJsonValue &v : rows) {
        const QJsonObject d = v.toObject();
        const QString name = d.value(QStringLiteral("name")).toString();
        ASSERT_TRUE(expected.contains(name)) << name.toStdString();
        const auto [commits, cached, bytes] = expected.value(name);
        EXPECT_EQ(d.value(QStringLiteral("commits")).toInt(), commits) << name.toStdString();
        EXPECT_EQ(d.value(QStringLiteral("cached_commits")).toInt(), cached) << name.toStdString();
        EXPECT_EQ(qint64(d.value(QStringLiteral("size_bytes")).toDouble()), bytes) << name.toStdString();
        EXPECT_EQ(d.value(QStringLiteral("head_commit")).toString().size(), 64) << name.toStdString();
    }
}

TEST(CliDatasets, CommitWritesAManifestAndCacheLoadsItOntoATarget)
{
    const CliRun commit = runDemo({QStringLiteral("commit"),
                                   QStringLiteral("fraud_may"),
                                   QStringLiteral("-m"),
                                   QStringLiteral("Add June chargebacks"),
                                   QStringLiteral("-o"),
                                   QStringLiteral("json")});
    ASSERT_EQ(commit.code, 0) << commit.err.toStdString() << commit.out.toStdString();
    EXPECT_EQ(parse(commit.out).object().value(QStringLiteral("state")).toString(), QStringLiteral("succeeded"));

    const CliRun cache = runDemo({QStringLiteral("cache"),
                                  QStringLiteral("consumer_img1"),
                                  QStringLiteral("--target"),
                                  QStringLiteral("dgx-cache-2"),
                                  QStringLiteral("-o"),
                                  QStringLiteral("json")});
    ASSERT_EQ(cache.code, 0) << cache.err.toStdString() << cache.out.toStdString();
    const QJsonObject result = parse(cache.out).object();
    EXPECT_EQ(result.value(QStringLiteral("state")).toString(), QStringLiteral("succeeded"));
    EXPECT_TRUE(result.value(QStringLiteral("message")).toString().contains(QStringLiteral("strata-load-")))
        << result.value(QStringLiteral("message")).toString().toStdString();
}

TEST(CliDatasets, UnknownNamesAndMissingMessageAreUsageErrors)
{
    const CliRun noMessage = runDemo({QStringLiteral("commit"), QStringLiteral("fraud_jun")});
    EXPECT_EQ(noMessage.code, 2);
    const CliRun unknown = runDemo({QStringLiteral("cache"), QStringLiteral("no_such_dataset")});
    EXPECT_EQ(unknown.code, 2);
    EXPECT_TRUE(unknown.err.contains(QStringLiteral("no_such_dataset"))) << unknown.err.toStdString();
    const CliRun target = runDemo(
        {QStringLiteral("cache"), QStringLiteral("fraud_jun"), QStringLiteral("--target"), QStringLiteral("nowhere")});
    EXPECT_EQ(target.code, 2);
    EXPECT_TRUE(target.err.contains(QStringLiteral("dgx-cache-1"))) << target.err.toStdString();
}
