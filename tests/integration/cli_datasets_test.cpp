// The dataset verbs of the CLI on the demo estate (`--demo`): TR-4841's hub as `get datasets`
// prints it (its six S3 datasets plus the ONTAP file dataset chest_xray), a commit, a cache load
// through the simulated cluster's loader Job, a FlexClone of a snapshot commit, and usage errors.

#include "app/cli/cli.h"
#include "demo/demoestate.h"
#include "models/core/store/config.h"
#include "models/core/store/credentialstore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
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

/// One demo estate per test process, written to a config file: every run of a test talks to
/// the same simulators through `--config`, as a user's successive commands would, instead of
/// starting a fresh demo (half a minute under ASan) per command.
class SharedDemo
{
public:
    /// The process's demo, started on first use; ended by CliDatasets::TearDownTestSuite while
    /// the QCoreApplication still runs (its simulators own threads and sockets).
    static SharedDemo &instance()
    {
        if (!s_demo) {
            s_demo.reset(new SharedDemo);
        }
        return *s_demo;
    }
    static void end() { s_demo.reset(); }

    CliRun run(QStringList args)
    {
        CliRun r;
        if (!m_demo) {
            r.err = m_error;
            return r;
        }
        QTextStream out(&r.out);
        QTextStream err(&r.err);
        args.prepend(m_configPath);
        args.prepend(QStringLiteral("--config"));
        r.code = cli::run(
            args, m_demo->credentials(), cli::Console{QStringLiteral("strata"), QStringLiteral("cli-test"), out, err});
        out.flush();
        err.flush();
        return r;
    }

private:
    SharedDemo()
    {
        if (auto started = demo::DemoEstate::start({}); started) {
            m_demo = std::move(*started);
        } else {
            m_error = started.error().message;
        }
        if (!m_demo || !m_dir.isValid()) {
            m_demo.reset();
            m_error = QStringLiteral("demo estate did not start: ") + m_error;
            return;
        }
        core::AppConfig config = m_demo->config();
        config.historyPath = m_dir.filePath(QStringLiteral("history.sqlite"));
        m_configPath = m_dir.filePath(QStringLiteral("strata.json"));
        if (const core::Status saved = config.save(m_configPath); !saved) {
            m_demo.reset();
            m_error = saved.error().message;
        }
    }

    static inline std::unique_ptr<SharedDemo> s_demo;
    QTemporaryDir m_dir;
    std::unique_ptr<demo::DemoEstate> m_demo;
    QString m_configPath;
    QString m_error;
};

CliRun runDemo(const QStringList &args)
{
    return SharedDemo::instance().run(args);
}

class CliDatasets : public ::testing::Test
{
protected:
    static void TearDownTestSuite() { SharedDemo::end(); }
};

QJsonDocument parse(const QString &text)
{
    QJsonParseError error{};
    QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
    EXPECT_EQ(error.error, QJsonParseError::NoError) << text.left(300).toStdString();
    return doc;
}

} // namespace

TEST_F(CliDatasets, GetDatasets_ShowsTr4841sSixDatasetsCommitsAndCachedCommits)
{
    const CliRun table = runDemo({QStringLiteral("get"), QStringLiteral("datasets")});
    ASSERT_EQ(table.code, 0) << table.err.toStdString();
    EXPECT_TRUE(table.out.startsWith(QStringLiteral("7 Datasets | "))
                && table.out.contains(QStringLiteral(" | 3 NFS Connected | ")))
        << table.out.left(200).toStdString();

    const CliRun json =
        runDemo({QStringLiteral("get"), QStringLiteral("datasets"), QStringLiteral("-o"), QStringLiteral("json")});
    ASSERT_EQ(json.code, 0) << json.err.toStdString();
    QJsonArray rows = parse(json.out).array();
    ASSERT_EQ(rows.size(), 7);
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const QJsonObject d = rows.at(i).toObject();
        if (d.value(QStringLiteral("name")).toString() == QStringLiteral("chest_xray")) {
            // The file dataset: snapshots are its commits, the experiment FlexClone its cached commit.
            EXPECT_EQ(d.value(QStringLiteral("kind")).toString(), QStringLiteral("ontap_volume"));
            EXPECT_GE(d.value(QStringLiteral("commits")).toInt(), 2);
            EXPECT_EQ(d.value(QStringLiteral("cached_commits")).toInt(), 1);
            rows.removeAt(i);
            break;
        }
    }
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

TEST_F(CliDatasets, CommitWritesAManifestAndCacheLoadsItOntoATarget)
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

TEST_F(CliDatasets, UnknownNamesAndMissingMessageAreUsageErrors)
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

TEST_F(CliDatasets, CachingAnOntapSnapshotCommitIsAFlexClone)
{
    // The commit the experiment clone was made from lists that clone where it is cached.
    const CliRun commits = runDemo({QStringLiteral("get"),
                                    QStringLiteral("commits"),
                                    QStringLiteral("--dataset"),
                                    QStringLiteral("chest_xray"),
                                    QStringLiteral("-o"),
                                    QStringLiteral("json")});
    ASSERT_EQ(commits.code, 0) << commits.err.toStdString();
    int cloned = 0;
    const QJsonArray commitList = parse(commits.out).array();
    ASSERT_FALSE(commitList.isEmpty());
    // The simulator takes hourly, daily and weekly snapshots on the wall clock, so which kind is newest depends on the
    // time of day: the cache preview must name the newest commit whatever its kind.
    const QString newest = commitList.first().toObject().value(QStringLiteral("manifest_key")).toString();
    for (const QJsonValue &v : commitList) {
        cloned += v.toObject().value(QStringLiteral("cached_on")).toArray()
                  == QJsonArray{QStringLiteral("svm_ai/chest_xray_exp42")};
    }
    EXPECT_EQ(cloned, 1) << commits.out.left(400).toStdString();

    const CliRun preview = runDemo({QStringLiteral("cache"),
                                    QStringLiteral("chest_xray"),
                                    QStringLiteral("--dry-run"),
                                    QStringLiteral("-o"),
                                    QStringLiteral("json")});
    ASSERT_EQ(preview.code, 0) << preview.err.toStdString() << preview.out.toStdString();
    EXPECT_TRUE(preview.out.contains(QStringLiteral("svm_ai/chest_xray@") + newest)) << preview.out.toStdString();

    const CliRun clone = runDemo({QStringLiteral("cache"),
                                  QStringLiteral("chest_xray"),
                                  QStringLiteral("--target"),
                                  QStringLiteral("chest_xray_cli_clone"),
                                  QStringLiteral("-o"),
                                  QStringLiteral("json")});
    ASSERT_EQ(clone.code, 0) << clone.err.toStdString() << clone.out.toStdString();
    const QJsonObject result = parse(clone.out).object();
    EXPECT_EQ(result.value(QStringLiteral("state")).toString(), QStringLiteral("succeeded"));
    EXPECT_TRUE(result.value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("FlexClone svm_ai/chest_xray_cli_clone")))
        << result.value(QStringLiteral("message")).toString().toStdString();

    // Evicting a snapshot commit is refused with the reason, not attempted.
    const CliRun evict = runDemo({QStringLiteral("evict"), QStringLiteral("chest_xray")});
    EXPECT_EQ(evict.code, 2);
    EXPECT_TRUE(evict.err.contains(QStringLiteral("FlexClones are volumes of ontap-ai"))) << evict.err.toStdString();
}

// One figure, one value. The AKS cluster's Kubernetes version as ARM reports it
// is the version its API server answers; a tenant with one bucket grew as much as that bucket.
TEST_F(CliDatasets, TheDemoAgreesWithItselfAcrossSystems)
{
    auto rowsOf = [](const QString &resource) {
        const CliRun run = runDemo({QStringLiteral("get"), resource, QStringLiteral("-o"), QStringLiteral("json")});
        EXPECT_EQ(run.code, 0) << resource.toStdString() << ": " << run.err.toStdString();
        QHash<QString, QJsonObject> byName;
        for (const QJsonValue &v : parse(run.out).array()) {
            byName.insert(v.toObject().value(QStringLiteral("name")).toString(), v.toObject());
        }
        return byName;
    };
    const auto aks = rowsOf(QStringLiteral("aks"));
    const auto clusters = rowsOf(QStringLiteral("clusters"));
    ASSERT_TRUE(aks.contains(QStringLiteral("aks-gpu")));
    ASSERT_TRUE(clusters.contains(QStringLiteral("aks-gpu")));
    EXPECT_EQ(QLatin1Char('v') + aks[QStringLiteral("aks-gpu")].value(QStringLiteral("version")).toString(),
              clusters[QStringLiteral("aks-gpu")].value(QStringLiteral("version")).toString());

    const auto tenants = rowsOf(QStringLiteral("tenants"));
    const auto buckets = rowsOf(QStringLiteral("buckets"));
    ASSERT_TRUE(tenants.contains(QStringLiteral("data-science")));
    ASSERT_TRUE(buckets.contains(QStringLiteral("datasets")));
    const double tenantGrowth =
        tenants[QStringLiteral("data-science")].value(QStringLiteral("growth_7d_bytes")).toDouble();
    const double bucketGrowth = buckets[QStringLiteral("datasets")].value(QStringLiteral("growth_7d_bytes")).toDouble();
    EXPECT_GT(bucketGrowth, 0);
    // Each is read at its own instant, a moment apart: a byte of rounding, never a different rate.
    EXPECT_NEAR(tenantGrowth, bucketGrowth, 16.0);
}
