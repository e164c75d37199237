// The StorageGRID source's dataset hub against the StorageGRID simulator's S3 endpoint (real
// SigV4), through the Engine: TR-4841's six datasets discovered under "datasets/*", commits
// written by the DatasetCommit action (manifest id = its SHA-256, parent chain, versions pinned),
// the hub's numbers, diffs between commits, the header cache, a rejected signature, a bucket
// that disappears, a corrupt manifest and a retried commit that is not written twice.

#include "connectors/dataset/manifest.h"
#include "connectors/http/curltransport.h"
#include "connectors/s3/s3client.h"
#include "models/core/domain/estate.h"
#include "models/core/planning/datasethub.h"
#include "models/core/sources/storagegrid/storagegridsource.h"
#include "simulators/storagegrid/storagegridsimulator.h"
#include "tests/integration/simfixture.h"

#include <QSet>
#include <QThreadPool>
#include <QTimeZone>

using namespace strata;
using namespace std::chrono_literals;

namespace {

constexpr qint64 kMB = 1000 * 1000;

class StorageGridSourceTest : public ::testing::Test
{
protected:
    sim::ServerThread thread;
    sim::storagegrid::StorageGridSimulator *simulator = nullptr;
    QTemporaryDir dir;
    QString caFile;
    core::InMemoryCredentialStore credentials;
    core::SystemClock clock;
    std::unique_ptr<core::Engine> engine;
    const QString name = QStringLiteral("datalake");

    void SetUp() override
    {
        QString error;
        simulator = sim::storagegrid::StorageGridSimulator::startOnThread(thread, {}, &error);
        ASSERT_NE(simulator, nullptr) << error.toStdString();
        caFile = dir.filePath(QStringLiteral("ca.pem"));
        QFile f(caFile);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(simulator->caPem());
        credentials.set(core::credentialKey(name), simulator->options().rootPassword);
        credentials.set(core::credentialKey(name, QStringLiteral("s3_secret")), simulator->options().s3SecretKey);
        engine =
            std::make_unique<core::Engine>(core::Engine::Deps{clock, credentials, nullptr, QStringLiteral("alice")});
    }

    void TearDown() override { engine.reset(); }

    core::SourceConfig config(const QStringList &roots = {QStringLiteral("datasets/*")}) const
    {
        core::SourceConfig s;
        s.name = name;
        s.kind = core::SourceKind::StorageGrid;
        s.url = simulator->managementUrl();
        s.username = QStringLiteral("root");
        s.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(name)};
        s.caFile = caFile;
        s.s3Url = simulator->s3Url();
        s.s3AccessKey = simulator->options().s3AccessKey;
        s.s3Secret =
            core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(name, QStringLiteral("s3_secret"))};
        s.datasetRoots = roots;
        s.configIntervalSeconds = 3600;
        s.perfIntervalSeconds = 3600;
        return s;
    }

    static bool waitFor(const std::function<bool()> &done, int timeoutMs = 30000)
    {
        return QTest::qWaitFor(done, timeoutMs);
    }

    void startAndWait(const core::SourceConfig &c)
    {
        engine->setSources({c});
        ASSERT_TRUE(waitFor([&] {
            return engine->allPolledOnce();
        })) << "first hub poll never finished";
    }

    core::SourceStatus status() { return *engine->status(name); }

    /// Polls now and waits for both the grid and the hub poll to finish.
    void repoll()
    {
        int polled = 0;
        auto connection = QObject::connect(engine->source(name), &core::Source::inventoryPolled, [&] {
            ++polled;
        });
        engine->refresh(name);
        EXPECT_TRUE(waitFor([&] {
            return polled >= 2;
        }));
        QObject::disconnect(connection);
    }

    core::Ptr<core::Dataset> dataset(const QString &datasetName)
    {
        return engine->estate().datasets().find(name,
                                                name + QStringLiteral("/datasets/") + datasetName + QLatin1Char('/'));
    }

    std::vector<core::Ptr<core::Commit>> commitsOf(const QString &datasetName)
    {
        std::vector<core::Ptr<core::Commit>> out;
        for (const auto &c : engine->estate().commits().all(name)) {
            if (c->datasetName == datasetName) {
                out.push_back(c);
            }
        }
        return out;
    }

    const core::ActionRecord *commit(const QString &datasetName, const QString &message)
    {
        core::ActionRequest request;
        request.kind = core::ActionKind::DatasetCommit;
        request.source = name;
        request.datasetId = QStringLiteral("datasets/") + datasetName + QLatin1Char('/');
        request.comment = message;
        const core::ActionPreview preview = engine->actions().preview(request);
        EXPECT_TRUE(preview.allowed()) << preview.blockedReason.toStdString();
        QString error;
        const auto idSubmitted = engine->actions().submit(request);
        const QString id = idSubmitted ? *idSubmitted : QString();
        if (!idSubmitted) {
            error = idSubmitted.error().message;
        }
        EXPECT_FALSE(id.isEmpty()) << error.toStdString();
        EXPECT_TRUE(waitFor([&] {
            return engine->actions().find(id)->state != core::ActionState::Running;
        }));
        // afterSuccess refreshes the hub; wait for the new commit to show.
        return engine->actions().find(id);
    }

    /// Commits and waits until the hub shows `count` commits of the dataset.
    void commitAndWait(const QString &datasetName, const QString &message, int count)
    {
        const core::ActionRecord *record = commit(datasetName, message);
        ASSERT_NE(record, nullptr);
        ASSERT_EQ(record->state, core::ActionState::Succeeded) << record->message.toStdString();
        ASSERT_TRUE(waitFor([&] {
            const auto d = dataset(datasetName);
            return d && d->commitCount == count;
        })) << "commit "
            << count << " of " << datasetName.toStdString() << " never showed";
    }

    s3::S3Client directClient() const
    {
        s3::S3Config c;
        c.endpoint = simulator->s3Url().toStdString();
        c.accessKey = simulator->options().s3AccessKey.toStdString();
        c.secretKey = simulator->options().s3SecretKey.toStdString();
        return s3::S3Client(c, std::make_shared<http::CurlTransport>());
    }
};

} // namespace

TEST_F(StorageGridSourceTest, DiscoversTheSixDatasetsWithoutCommits)
{
    startAndWait(config());
    EXPECT_EQ(status().health, core::Health::Ok) << status().lastError.toStdString();
    const auto all = engine->estate().datasets().all(name);
    ASSERT_EQ(all.size(), 6u);
    QStringList names;
    for (const auto &d : all) {
        names << d->name;
        EXPECT_EQ(d->kind, core::DatasetKind::S3Prefix);
        EXPECT_EQ(d->bucket, QStringLiteral("datasets"));
        EXPECT_EQ(d->commitCount, 0);
        EXPECT_EQ(d->sizeBytes, 0);
    }
    names.sort();
    EXPECT_EQ(names,
              (QStringList{QStringLiteral("consumer_img1"),
                           QStringLiteral("fraud_jun"),
                           QStringLiteral("fraud_may"),
                           QStringLiteral("fraud_sim_base"),
                           QStringLiteral("misc_base1"),
                           QStringLiteral("public_set12")}));
}

TEST_F(StorageGridSourceTest, CommitWritesAManifestNamedByItsSha256AndTheHubAddsUp)
{
    startAndWait(config());
    for (const auto &spec : sim::storagegrid::datalakeDatasets()) {
        commitAndWait(spec.name, QStringLiteral("Import of ") + spec.name, 1);
    }
    const core::HubSummary hub = core::summarize(engine->estate());
    EXPECT_EQ(hub.datasets, 6);
    EXPECT_EQ(hub.totalBytes, 290'200'000) << core::formatBytes(hub.totalBytes).toStdString();
    EXPECT_TRUE(hub.headerText().startsWith(QStringLiteral("6 Datasets | 277 MiB | ")))
        << hub.headerText().toStdString();

    const auto jun = dataset(QStringLiteral("fraud_jun"));
    ASSERT_TRUE(jun);
    EXPECT_EQ(jun->sizeBytes, 32'400'000);
    const auto commits = commitsOf(QStringLiteral("fraud_jun"));
    ASSERT_EQ(commits.size(), 1u);
    const core::Commit &c = *commits.front();
    EXPECT_EQ(c.id, jun->headCommit);
    EXPECT_EQ(c.author, QStringLiteral("alice"));
    EXPECT_EQ(c.message, QStringLiteral("Import of fraud_jun"));
    EXPECT_TRUE(c.parent.isEmpty());
    EXPECT_EQ(c.manifestKey, QStringLiteral("fraud_jun/.strata/commits/") + c.id + QStringLiteral(".jsonl"));
    EXPECT_EQ(c.objectCount, jun->objectCount);
    EXPECT_GT(c.objectCount, 1);

    // The manifest's bytes hash to its id, and every entry pins a version of a real object.
    auto client = directClient();
    auto bytes = client.getObject("datasets", c.manifestKey.toStdString());
    ASSERT_TRUE(bytes) << bytes.error().message;
    EXPECT_EQ(dataset::commitId(*bytes), c.id.toStdString());
    auto manifest = dataset::parseManifest(*bytes);
    ASSERT_TRUE(manifest) << manifest.error().message;
    EXPECT_EQ(std::int64_t(manifest->entries.size()), c.objectCount);
    for (const auto &e : manifest->entries) {
        EXPECT_FALSE(e.versionId.empty()) << e.key; // the bucket is versioned
        EXPECT_EQ(e.key.rfind("fraud_jun/", 0), 0u);
        EXPECT_EQ(e.key.find(".strata/"), std::string::npos);
    }
}

TEST_F(StorageGridSourceTest, RevisionsMakeAParentChainAndDiffsShowTheChanges)
{
    startAndWait(config());
    ASSERT_TRUE(simulator->applyDatasetRevision(QStringLiteral("fraud_jun"), 1));
    commitAndWait(QStringLiteral("fraud_jun"), QStringLiteral("v1"), 1);
    const QString first = dataset(QStringLiteral("fraud_jun"))->headCommit;
    const qint64 firstBytes = dataset(QStringLiteral("fraud_jun"))->sizeBytes;
    for (int revision = 2; revision <= 4; ++revision) {
        ASSERT_TRUE(simulator->applyDatasetRevision(QStringLiteral("fraud_jun"), revision));
        commitAndWait(QStringLiteral("fraud_jun"), QStringLiteral("v%1").arg(revision), revision);
    }
    const auto jun = dataset(QStringLiteral("fraud_jun"));
    EXPECT_EQ(jun->sizeBytes, 32'400'000);
    // Every commit names the previous one; the head is the last.
    const auto commits = commitsOf(QStringLiteral("fraud_jun"));
    ASSERT_EQ(commits.size(), 4u);
    EXPECT_EQ(commits.front()->id, jun->headCommit); // newest first
    EXPECT_EQ(commits.front()->message, QStringLiteral("v4"));
    for (std::size_t i = 0; i + 1 < commits.size(); ++i) {
        EXPECT_EQ(commits[i]->parent, commits[i + 1]->id);
    }
    EXPECT_EQ(commits.back()->id, first);

    auto *grid = qobject_cast<core::StorageGridSource *>(engine->source(name));
    ASSERT_NE(grid, nullptr);
    core::CommitComparison diff;
    QString error;
    bool done = false;
    grid->diffCommits(jun->id, first, jun->headCommit, engine.get(), [&](core::CommitComparison c, QString e) {
        diff = std::move(c);
        error = e;
        done = true;
    });
    ASSERT_TRUE(waitFor([&] {
        return done;
    }));
    ASSERT_TRUE(error.isEmpty()) << error.toStdString();
    EXPECT_FALSE(diff.added.isEmpty());
    EXPECT_FALSE(diff.changed.isEmpty());
    EXPECT_GT(diff.unchanged, 0);
    EXPECT_EQ(
        firstBytes + diff.bytesAdded - diff.bytesRemoved + diff.bytesChanged -
            [&] {
                qint64 before = 0;
                for (const auto &e : diff.changed) {
                    before += e.fromSize;
                }
                return before;
            }(),
        jun->sizeBytes);

    // A commit of another dataset cannot be compared with this one.
    done = false;
    grid->diffCommits(
        jun->id, first, QStringLiteral("0").repeated(64), engine.get(), [&](core::CommitComparison, QString e) {
            error = e;
            done = true;
        });
    ASSERT_TRUE(waitFor([&] {
        return done;
    }));
    EXPECT_FALSE(error.isEmpty());
}

TEST_F(StorageGridSourceTest, HeadersAreReadOnceAndCached)
{
    startAndWait(config());
    commitAndWait(QStringLiteral("misc_base1"), QStringLiteral("one"), 1);
    commitAndWait(QStringLiteral("misc_base1"), QStringLiteral("two"), 2);
    const auto count = [this](const char *op) {
        const auto m = simulator->store().operationCounts();
        const auto it = m.find(op);
        return it == m.end() ? 0 : it->second;
    };
    // A new source instance starts cold: it reads both headers once ...
    engine->setSources({});
    const int coldBefore = count("GetObject");
    startAndWait(config());
    EXPECT_EQ(dataset(QStringLiteral("misc_base1"))->commitCount, 2);
    EXPECT_EQ(count("GetObject") - coldBefore, 2);
    // ... and a warm poll lists but reads no header again.
    const int warmBefore = count("GetObject");
    repoll();
    EXPECT_EQ(count("GetObject"), warmBefore) << "a warm poll re-read manifest headers";
    EXPECT_EQ(dataset(QStringLiteral("misc_base1"))->commitCount, 2);
}

TEST_F(StorageGridSourceTest, RejectedSignatureIsAuthRequiredWithTheS3Code)
{
    credentials.set(core::credentialKey(name, QStringLiteral("s3_secret")), QStringLiteral("not-the-secret"));
    startAndWait(config());
    ASSERT_TRUE(waitFor([&] {
        return status().health == core::Health::AuthRequired;
    })) << status().lastError.toStdString();
    EXPECT_TRUE(status().lastError.contains(QStringLiteral("SignatureDoesNotMatch")))
        << status().lastError.toStdString();
    EXPECT_TRUE(engine->estate().datasets().all(name).empty());

    // The right secret resumes the hub.
    credentials.set(core::credentialKey(name, QStringLiteral("s3_secret")), simulator->options().s3SecretKey);
    engine->reloadCredentials(name);
    ASSERT_TRUE(waitFor([&] {
        return status().health == core::Health::Ok;
    })) << status().lastError.toStdString();
    EXPECT_EQ(engine->estate().datasets().all(name).size(), 6u);
}

TEST_F(StorageGridSourceTest, MissingS3SecretIsAuthRequired)
{
    credentials.remove(core::credentialKey(name, QStringLiteral("s3_secret")), {});
    startAndWait(config());
    EXPECT_EQ(status().health, core::Health::AuthRequired);
    EXPECT_TRUE(status().lastError.contains(QStringLiteral("S3 secret"))) << status().lastError.toStdString();
}

TEST_F(StorageGridSourceTest, BucketGoneIsDegradedWithNoSuchBucketAndKeepsStaleData)
{
    // A second bucket of the same tenant, as a whole-bucket dataset.
    std::string owner;
    for (const auto &t : simulator->tenants()) {
        if (t.name == QLatin1String("data-science")) {
            owner = t.id.toStdString();
        }
    }
    ASSERT_FALSE(owner.empty());
    ASSERT_EQ(simulator->store().createBucket("scratch", owner), sim::storagegrid::StoreError::None);
    ASSERT_TRUE(simulator->store().putObject("scratch", "a.csv", "1,2,3\n"));
    startAndWait(config({QStringLiteral("datasets/*"), QStringLiteral("scratch")}));
    EXPECT_EQ(engine->estate().datasets().all(name).size(), 7u);
    const auto scratch = engine->estate().datasets().find(name, name + QStringLiteral("/scratch/"));
    ASSERT_TRUE(scratch);
    EXPECT_EQ(scratch->kind, core::DatasetKind::S3Bucket);
    EXPECT_EQ(scratch->name, QStringLiteral("scratch"));
    ASSERT_EQ(simulator->store().deleteBucket("scratch", true), sim::storagegrid::StoreError::None);
    repoll();
    const core::SourceStatus s = status();
    EXPECT_EQ(s.health, core::Health::Degraded) << s.lastError.toStdString();
    EXPECT_TRUE(s.lastError.contains(QStringLiteral("NoSuchBucket"))) << s.lastError.toStdString();
    EXPECT_TRUE(s.stale);
    EXPECT_EQ(engine->estate().datasets().all(name).size(), 7u); // last good data stays, shown stale
}

TEST_F(StorageGridSourceTest, CorruptManifestIsSkippedNotFatal)
{
    startAndWait(config());
    commitAndWait(QStringLiteral("fraud_may"), QStringLiteral("good"), 1);
    // Someone drops a file with a commit-shaped name but no valid header into the commits prefix.
    const std::string bogus = "fraud_may/.strata/commits/" + std::string(64, 'a') + ".jsonl";
    ASSERT_TRUE(simulator->store().putObject("datasets", bogus, "{\"format\":\"nope\"}\n"));
    repoll();
    EXPECT_EQ(status().health, core::Health::Ok) << status().lastError.toStdString();
    EXPECT_EQ(dataset(QStringLiteral("fraud_may"))->commitCount, 1);

    // Its contents are checked against the id when compared.
    auto *grid = qobject_cast<core::StorageGridSource *>(engine->source(name));
    const QString good = dataset(QStringLiteral("fraud_may"))->headCommit;
    const auto commits = commitsOf(QStringLiteral("fraud_may"));
    ASSERT_EQ(commits.size(), 1u);
    // Tamper with the good manifest: the diff refuses it.
    auto client = directClient();
    auto bytes = client.getObject("datasets", commits.front()->manifestKey.toStdString());
    ASSERT_TRUE(bytes);
    ASSERT_TRUE(simulator->store().putObject("datasets", commits.front()->manifestKey.toStdString(), *bytes + "x"));
    QString error;
    bool done = false;
    grid->diffCommits(
        QStringLiteral("datasets/fraud_may/"), good, good, engine.get(), [&](core::CommitComparison, QString e) {
            error = e;
            done = true;
        });
    ASSERT_TRUE(waitFor([&] {
        return done;
    }));
    EXPECT_TRUE(error.contains(QStringLiteral("SHA-256"))) << error.toStdString();
}

TEST_F(StorageGridSourceTest, RetriedCommitIsNotWrittenTwice)
{
    startAndWait(config());
    auto *grid = qobject_cast<core::StorageGridSource *>(engine->source(name));
    core::ActionRequest request;
    request.kind = core::ActionKind::DatasetCommit;
    request.source = name;
    request.datasetId = QStringLiteral("datasets/consumer_img1/");
    request.comment = QStringLiteral("nightly");
    core::ActionContext ctx;
    ctx.submitted = clock.now().addSecs(-1);
    const auto work = grid->prepare(request);
    const core::ActionResult first = work(ctx);
    ASSERT_TRUE(first.ok) << first.message.toStdString();
    EXPECT_FALSE(first.reconciled);
    // The answer was lost; the manager retries with attempt 2 from the same preparation.
    ctx.attempt = 2;
    const core::ActionResult second = work(ctx);
    EXPECT_TRUE(second.ok) << second.message.toStdString();
    EXPECT_TRUE(second.reconciled) << second.message.toStdString();
    repoll();
    EXPECT_EQ(dataset(QStringLiteral("consumer_img1"))->commitCount, 1);

    // Blocked previews: empty message, unknown dataset.
    request.comment.clear();
    EXPECT_FALSE(grid->preview(request).allowed());
    request.comment = QStringLiteral("x");
    request.datasetId = QStringLiteral("datasets/nope/");
    EXPECT_FALSE(grid->preview(request).allowed());
}

TEST_F(StorageGridSourceTest, TestButtonCountsBucketsAndDatasets)
{
    bool done = false;
    bool ok = false;
    QString message;
    QObject context;
    QThreadPool pool;
    core::StorageGridSource::testConnection(config(),
                                            simulator->options().rootPassword,
                                            simulator->options().s3SecretKey,
                                            pool,
                                            &context,
                                            [&](bool o, QString m) {
                                                ok = o;
                                                message = m;
                                                done = true;
                                            });
    ASSERT_TRUE(waitFor([&] {
        return done;
    }));
    EXPECT_TRUE(ok) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("6 datasets"))) << message.toStdString();
    pool.waitForDone();
    EXPECT_EQ(simulator->logouts(), 1) << "the test leaves no grid session open";

    done = false;
    core::StorageGridSource::testConnection(
        config(), simulator->options().rootPassword, QStringLiteral("wrong"), pool, &context, [&](bool o, QString m) {
            ok = o;
            message = m;
            done = true;
        });
    ASSERT_TRUE(waitFor([&] {
        return done;
    }));
    EXPECT_FALSE(ok);
    EXPECT_TRUE(message.contains(QStringLiteral("SignatureDoesNotMatch"))) << message.toStdString();
}

TEST_F(StorageGridSourceTest, GridPollPublishesHealthNodesAlertsTenantsAndBuckets)
{
    startAndWait(config());
    const core::Estate &estate = engine->estate();
    const auto summary = estate.gridSummaries().find(name, name + QLatin1Char('/') + name);
    ASSERT_TRUE(summary) << status().lastError.toStdString();
    EXPECT_EQ(summary->gridName, QStringLiteral("datalake"));
    EXPECT_TRUE(summary->productVersion.startsWith(QStringLiteral("11.8"))) << summary->productVersion.toStdString();
    EXPECT_EQ(summary->apiVersion, QStringLiteral("v4"));
    EXPECT_EQ(summary->nodesConnected, 5);
    EXPECT_FALSE(summary->activeIlmPolicy.isEmpty());
    EXPECT_GT(summary->usedBytes, 0);
    EXPECT_GT(summary->usableBytes, 0);
    EXPECT_EQ(status().systemName, QStringLiteral("datalake"));
    EXPECT_TRUE(status().systemVersion.startsWith(QStringLiteral("StorageGRID 11.8")))
        << status().systemVersion.toStdString();

    EXPECT_EQ(estate.gridNodes().all(name).size(), 5u);
    QHash<QString, core::Ptr<core::Tenant>> tenants;
    for (const auto &t : estate.tenants().all(name)) {
        tenants.insert(t->name, t);
    }
    ASSERT_TRUE(tenants.contains(QStringLiteral("data-science")));
    ASSERT_TRUE(tenants.contains(QStringLiteral("support-center")));
    const auto science = tenants.value(QStringLiteral("data-science"));
    EXPECT_GE(science->dataBytes, 290'200'000);
    EXPECT_EQ(science->bucketCount, 1);
    ASSERT_TRUE(science->growth7dBytes.has_value());
    EXPECT_GT(*science->growth7dBytes, 0);
    const auto datasets =
        estate.buckets().find(name, name + QLatin1Char('/') + science->id + QStringLiteral("/datasets"));
    ASSERT_TRUE(datasets);
    EXPECT_TRUE(datasets->versioning);
    EXPECT_EQ(datasets->tenantName, QStringLiteral("data-science"));
    EXPECT_GE(datasets->dataBytes, 290'200'000);
    EXPECT_TRUE(datasets->growth7dBytes.has_value());

    // Alerts: whatever is active, and the simulator's history resolves some over time.
    for (const auto &a : estate.gridAlerts().all(name)) {
        EXPECT_FALSE(a->name.isEmpty());
        EXPECT_TRUE(a->startsAt.isValid());
        EXPECT_EQ(a->resolved, a->endsAt.isValid());
    }
}

TEST_F(StorageGridSourceTest, ExpiredTokenIsRenewedWithoutAFailedPoll)
{
    startAndWait(config());
    const int before = simulator->authorizations();
    simulator->revokeTokens();
    repoll();
    EXPECT_EQ(status().health, core::Health::Ok) << status().lastError.toStdString();
    EXPECT_GT(simulator->authorizations(), before);
}

TEST_F(StorageGridSourceTest, MalformedManagementJsonIsDegradedAndKeepsTheLastGoodData)
{
    startAndWait(config());
    ASSERT_EQ(engine->estate().tenants().all(name).size(), 2u);
    simulator->addManagementFault(QStringLiteral("grid/accounts-cache"), QStringLiteral("malformed"), 200, 100);
    repoll();
    const core::SourceStatus s = status();
    EXPECT_EQ(s.health, core::Health::Degraded) << s.lastError.toStdString();
    EXPECT_TRUE(s.stale);
    EXPECT_FALSE(s.lastError.isEmpty());
    EXPECT_EQ(engine->estate().tenants().all(name).size(), 2u);
}

TEST_F(StorageGridSourceTest, WrongGridPasswordIsAuthRequired)
{
    credentials.set(core::credentialKey(name), QStringLiteral("wrong"));
    startAndWait(config());
    ASSERT_TRUE(waitFor([&] {
        return status().health == core::Health::AuthRequired;
    })) << status().lastError.toStdString();
    EXPECT_TRUE(engine->estate().gridSummaries().all(name).empty());
}

TEST_F(StorageGridSourceTest, GridPollListsEveryTenantBeyondTheApisDefaultPage)
{
    for (int i = 0; i < 28; ++i) {
        simulator->addTenant({{}, QStringLiteral("bulk-%1").arg(i), {}, {}, -1});
    }
    startAndWait(config());
    ASSERT_EQ(status().health, core::Health::Ok) << status().lastError.toStdString();
    const auto tenants = engine->estate().tenants().all(name);
    EXPECT_EQ(tenants.size(), 30u);
    QSet<QString> names;
    for (const auto &t : tenants) {
        names.insert(t->name);
    }
    EXPECT_TRUE(names.contains(QStringLiteral("bulk-27")));
    EXPECT_TRUE(names.contains(QStringLiteral("data-science")));
}

TEST_F(StorageGridSourceTest, ResolvedAlertsKeepTheirTimesAndOlderThanAWeekAreNotKept)
{
    startAndWait(config());
    // The source asked for the week before its request; the grid's clock has run on since, so an
    // alert triggered just inside that window may be a few seconds older than a week by now.
    const QDateTime weekAgo = QDateTime::fromMSecsSinceEpoch(simulator->nowMs(), QTimeZone::utc())
                                  .addDays(-core::StorageGridSource::kHistoryDays)
                                  .addSecs(-120);
    int resolved = 0;
    QSet<QString> ids;
    for (const auto &a : engine->estate().gridAlerts().all(name)) {
        EXPECT_FALSE(ids.contains(a->id)) << a->id.toStdString();
        ids.insert(a->id);
        if (!a->resolved) {
            continue;
        }
        ++resolved;
        ASSERT_TRUE(a->startsAt.isValid()) << a->name.toStdString();
        ASSERT_TRUE(a->endsAt.isValid()) << a->name.toStdString();
        EXPECT_LE(a->startsAt, a->endsAt);
        EXPECT_GE(a->startsAt, weekAgo) << a->name.toStdString();
        EXPECT_NE(a->name, QStringLiteral("Low object data storage")) << "triggered nine days ago";
    }
    // The memory alert resolves every ten minutes (one record each) and the network one two days ago.
    EXPECT_GT(resolved, 100);
}

TEST_F(StorageGridSourceTest, OneShotPollThenTeardownLogsOutOnce)
{
    startAndWait(config());
    EXPECT_EQ(simulator->logouts(), 0);
    const int authorized = simulator->authorizations();
    EXPECT_GE(authorized, 1);
    engine.reset(); // what a one-shot CLI run does at its end: stop, delete, wait for the pool
    EXPECT_EQ(simulator->logouts(), 1);
    EXPECT_EQ(simulator->authorizations(), authorized);
}
