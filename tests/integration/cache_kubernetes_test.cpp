// Cached commits through the model layer: a KubernetesSource with a cache target against the
// Kubernetes simulator over HTTPS, whose loader and evictor Jobs run as DatalakeWiring workloads
// reading the StorageGRID simulator's object store and filling the ONTAP simulator's cache
// volume. CacheCommit and CacheEvict go through the ActionManager; the state record lives in the
// simulator's ConfigMap and the estate shows progress, readiness, failures and evictions.

#include "models/core/domain/clock.h"
#include "models/core/domain/estate.h"
#include "models/core/planning/cachepolicy.h"
#include "models/core/services/actions.h"
#include "models/core/services/cacheservice.h"
#include "models/core/sources/kubernetes/kubernetessource.h"
#include "simulators/common/serverthread.h"
#include "simulators/datalake/datalakewiring.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "simulators/ontap/ontapsimulator.h"
#include "simulators/storagegrid/s3store.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace strata;
using nlohmann::json;

namespace {

constexpr const char *kSource = "dgx";
constexpr const char *kNs = "runai-team-a";
constexpr const char *kTarget = "dgx-cache-1";
constexpr std::int64_t kObjectBytes = 400'000;
constexpr int kObjects = 5;

QString q(const char *text)
{
    return QString::fromLatin1(text);
}

/// The system clock moved by an offset (eviction "days later" without waiting days).
class OffsetClock final : public core::IClock
{
public:
    QDateTime now() const override { return m_real.now().addSecs(m_offsetSeconds); }
    TimerId callAfter(std::chrono::milliseconds delay, QObject *context, std::function<void()> fn) override
    {
        return m_real.callAfter(delay, context, std::move(fn));
    }
    void cancel(TimerId id) override { m_real.cancel(id); }
    void advanceDays(int days) { m_offsetSeconds += qint64(days) * 86400; }

private:
    core::SystemClock m_real;
    qint64 m_offsetSeconds = 0;
};

struct MadeCommit
{
    QString id;
    core::CommitLocation location;
    std::vector<std::string> keys;
};

class CacheKubernetes : public ::testing::Test
{
protected:
    void SetUp() override
    {
        sim::kube::KubeSimulator::Options kubeOptions;
        kubeOptions.preset = sim::kube::KubeSimulator::Options::Preset::Dgx;
        kubeOptions.tickInterval = std::chrono::milliseconds(0);
        kubeOptions.submitDemoJobs = false;
        kubeOptions.gpuMetrics = false;
        QString error;
        kube = sim::kube::KubeSimulator::startOnThread(kubeThread, kubeOptions, &error);
        ASSERT_NE(kube, nullptr) << error.toStdString();
        sim::ontap::OntapSimulatorOptions ontapOptions;
        ontapOptions.tickInterval = std::chrono::milliseconds(0);
        ontap = sim::ontap::OntapSimulator::startOnThread(ontapThread, ontapOptions, &error);
        ASSERT_NE(ontap, nullptr) << error.toStdString();
        ASSERT_EQ(store.createBucket("datasets", "27310562318400963145"), sim::storagegrid::StoreError::None);
        sim::datalake::DatalakeWiring::Options wiringOptions;
        wiringOptions.loaderBytesPerSecond = 1'000'000; // 2 MB commits take two simulated seconds
        wiring = std::make_unique<sim::datalake::DatalakeWiring>(*kube, *ontap, store, wiringOptions);
        wiring->install();
        ASSERT_TRUE(wiring->addCacheVolume(q(kNs), q(kTarget), q("svm_cache"), q("cache_01"), &error))
            << error.toStdString();
        usedBefore = used();

        caFile = dir.filePath(QStringLiteral("ca.pem"));
        QFile f(caFile);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(kube->caPem());
        f.close();

        actions = std::make_unique<core::ActionManager>(clock, pool, nullptr, QStringLiteral("tester"));
        core::SourceConfig config;
        config.name = q(kSource);
        config.kind = core::SourceKind::Kubernetes;
        config.url = kube->baseUrl();
        config.caFile = caFile;
        source = std::make_unique<core::KubernetesSource>(
            config,
            kube->token(),
            core::KubernetesSource::Deps{
                estate,
                clock,
                pool,
                nullptr,
                [this](const QString &datasetSource, const QString &, const QString &commitId)
                    -> core::Result<core::CommitLocation> {
                    const auto it = commits.find(commitId);
                    if (datasetSource != QLatin1String("datalake") || it == commits.end()) {
                        return core::fail(
                            QStringLiteral("Commit %1 is not known to %2.").arg(commitId.left(8), datasetSource));
                    }
                    return it->second;
                }});
        source->setPublishInterval(std::chrono::milliseconds(50));
        // The simulator runs loaders natively; the script only has to reach the ConfigMap.
        source->setLoaderScript(QByteArrayLiteral("# loader under test\n"));
        source->setCachePollInterval(std::chrono::milliseconds(150));
        core::CacheTargetConfig target;
        target.name = q(kTarget);
        target.kubernetesSource = q(kSource);
        target.namespaceName = q(kNs);
        target.pvc = q(kTarget);
        target.evictAfterDays = 3;
        source->setCacheTargets({target});
        actions->setExecutor(q(kSource), source.get());
        source->start();
        ASSERT_TRUE(waitFor([&] {
            return source->hasPolledOnce() && targetRecord() && targetRecord()->capacityBytes > 0;
        })) << source->status().lastError.toStdString();
    }

    void TearDown() override
    {
        if (source) {
            actions->removeExecutor(q(kSource));
            source->stop();
        }
        pool.waitForDone();
        wiring.reset();
    }

    static bool waitFor(const std::function<bool()> &done, int timeoutMs = 20000)
    {
        return QTest::qWaitFor(done, timeoutMs);
    }

    qint64 used() const
    {
        const auto v = ontap->volumeByName(QStringLiteral("svm_cache"), QStringLiteral("cache_01"));
        return v ? v->used : -1;
    }

    /// Puts kObjects objects under `dataset`/ and writes the manifest of their current state.
    MadeCommit makeCommit(const std::string &dataset, char fill = 'a')
    {
        MadeCommit commit;
        std::vector<json> entries;
        std::int64_t bytes = 0;
        for (int i = 1; i <= kObjects; ++i) {
            char key[96];
            std::snprintf(key, sizeof key, "%s/part-%04d.csv", dataset.c_str(), i);
            const auto put = store.putObject("datasets", key, std::string(std::size_t(kObjectBytes), char(fill + i)));
            EXPECT_TRUE(put);
            entries.push_back(json{{"key", key}, {"size", kObjectBytes}, {"etag", put->etag}, {"version", ""}});
            commit.keys.push_back(key);
            bytes += kObjectBytes;
        }
        std::string manifest = json{{"format", "strata.commit/1"},
                                    {"dataset", dataset},
                                    {"bucket", "datasets"},
                                    {"prefix", dataset + "/"},
                                    {"parent", ""},
                                    {"author", "alice"},
                                    {"message", "June transactions"},
                                    {"time", "2026-06-01T10:00:00Z"},
                                    {"objects", kObjects},
                                    {"bytes", bytes}}
                                   .dump()
                               + "\n";
        for (const json &e : entries) {
            manifest += e.dump() + "\n";
        }
        commit.id = QString::fromStdString(sim::datalake::sha256Hex(manifest));
        const std::string manifestKey = dataset + "/.strata/commits/" + commit.id.toStdString() + ".jsonl";
        EXPECT_TRUE(store.putObject("datasets", manifestKey, manifest, "application/x-ndjson"));
        commit.location.s3Endpoint = QStringLiteral("http://127.0.0.1:18082");
        commit.location.bucket = QStringLiteral("datasets");
        commit.location.prefix = QString::fromStdString(dataset + "/");
        commit.location.manifestKey = QString::fromStdString(manifestKey);
        commit.location.datasetName = QString::fromStdString(dataset);
        commit.location.objects = kObjects;
        commit.location.bytes = bytes;
        commits[commit.id] = commit.location;
        return commit;
    }

    core::ActionRequest request(core::ActionKind kind, const MadeCommit &commit) const
    {
        core::ActionRequest r;
        r.kind = kind;
        r.source = q(kSource);
        r.cacheTarget = q(kTarget);
        r.commitId = commit.id;
        r.datasetSource = QStringLiteral("datalake");
        r.datasetId = QStringLiteral("datasets/") + commit.location.prefix;
        return r;
    }

    /// Submits and waits for the action; returns its record's message, fails the test on error.
    QString run(const core::ActionRequest &r)
    {
        const core::Result<QString> submitted = actions->submit(r);
        EXPECT_TRUE(submitted) << submitted.error().message.toStdString();
        if (!submitted) {
            return submitted.error().message;
        }
        const QString id = *submitted;
        EXPECT_TRUE(waitFor([&] {
            return actions->find(id)->state != core::ActionState::Running;
        }));
        const core::ActionRecord *record = actions->find(id);
        EXPECT_EQ(record->state, core::ActionState::Succeeded) << record->message.toStdString();
        return record->message;
    }

    core::Ptr<core::CachedCommit> cached(const MadeCommit &commit) const
    {
        return estate.cachedCommits().find(q(kSource),
                                           q(kSource) + QLatin1Char('/') + q(kTarget) + QLatin1Char('/') + commit.id);
    }

    core::Ptr<core::CacheTarget> targetRecord() const
    {
        return estate.cacheTargets().find(q(kSource), q(kSource) + QLatin1Char('/') + q(kTarget));
    }

    /// The stored state record of `commit` in the simulator's ConfigMap ("" when absent).
    QString storedState(const MadeCommit &commit) const
    {
        const auto cm = kube->object(QStringLiteral("configmaps"), q(kNs), core::cacheConfigMapName(q(kTarget)));
        if (!cm) {
            return {};
        }
        const QString value = cm->value(QStringLiteral("data")).toObject().value(commit.id).toString();
        if (value.isEmpty()) {
            return {};
        }
        return QJsonDocument::fromJson(value.toUtf8()).object().value(QStringLiteral("state")).toString();
    }

    /// Ticks the simulated cluster a second at a time, letting the source poll in between, until
    /// `done` or `limit` ticks.
    bool tickUntil(const std::function<bool()> &done, int limit = 60)
    {
        for (int i = 0; i < limit; ++i) {
            if (done()) {
                return true;
            }
            kube->tick();
            // Paces simulated seconds against the source's 150 ms cache poll; done ends it early.
            if (waitFor(done, 200)) {
                return true;
            }
        }
        return waitFor(done, 2000);
    }

    bool stateIs(const MadeCommit &commit, core::CacheState state) const
    {
        const auto c = cached(commit);
        return c && c->state == state;
    }

    sim::ServerThread kubeThread;
    sim::ServerThread ontapThread;
    sim::kube::KubeSimulator *kube = nullptr;
    sim::ontap::OntapSimulator *ontap = nullptr;
    sim::storagegrid::S3Store store;
    std::unique_ptr<sim::datalake::DatalakeWiring> wiring;
    qint64 usedBefore = 0;
    QTemporaryDir dir;
    QString caFile;
    OffsetClock clock;
    QThreadPool pool;
    core::Estate estate;
    std::unique_ptr<core::ActionManager> actions;
    std::unique_ptr<core::KubernetesSource> source;
    std::map<QString, core::CommitLocation> commits;
};

} // namespace

TEST_F(CacheKubernetes, CacheLoadsWithProgressToReadyAndIsNotAppliedTwice)
{
    const MadeCommit commit = makeCommit("fraud_jun");
    const core::ActionRequest load = request(core::ActionKind::CacheCommit, commit);
    const core::ActionPreview preview = actions->preview(load);
    ASSERT_TRUE(preview.allowed()) << preview.blockedReason.toStdString();
    EXPECT_EQ(preview.target, QStringLiteral("fraud_jun@%1 on dgx-cache-1").arg(commit.id.left(16)));
    EXPECT_TRUE(preview.effects.join(QLatin1Char('\n')).contains(core::loaderJobName(commit.id, q(kTarget))));
    EXPECT_TRUE(preview.effects.join(QLatin1Char('\n')).contains(QStringLiteral("Copies 5 object(s)")));

    run(load);
    ASSERT_TRUE(waitFor([&] {
        return cached(commit) != nullptr;
    }));
    const auto script = kube->object(QStringLiteral("configmaps"), q(kNs), QStringLiteral("strata-cache-loader"));
    ASSERT_TRUE(script) << "the loader script is installed next to the Job";
    EXPECT_EQ(script->value(QStringLiteral("data")).toObject().value(QStringLiteral("loader.py")).toString(),
              QStringLiteral("# loader under test\n"));

    bool sawProgress = false;
    ASSERT_TRUE(tickUntil([&] {
        const auto c = cached(commit);
        if (c && c->state == core::CacheState::Loading && c->bytesDone > 0 && c->bytesDone < c->bytesTotal) {
            sawProgress = true;
        }
        return c && c->state == core::CacheState::Ready;
    })) << "state "
        << (cached(commit) ? core::cacheStateName(cached(commit)->state).toStdString() : "none");
    EXPECT_TRUE(sawProgress) << "loading with objects/bytes done of total was published";
    const auto ready = cached(commit);
    EXPECT_EQ(ready->bytesDone, kObjects * kObjectBytes);
    EXPECT_EQ(ready->objectsDone, kObjects);
    EXPECT_TRUE(ready->readyAt.isValid());
    EXPECT_EQ(ready->path, QStringLiteral("fraud_jun/") + commit.id.left(16));
    EXPECT_EQ(ready->evictReason, QStringLiteral("unused for 3 days"));
    EXPECT_EQ(ready->evictAt, ready->readyAt.addDays(3));
    EXPECT_EQ(storedState(commit), QStringLiteral("ready"));
    EXPECT_EQ(used(), usedBefore + kObjects * kObjectBytes);
    ASSERT_TRUE(waitFor([&] {
        return targetRecord()->cachedBytes == kObjects * kObjectBytes;
    }));

    // Again: the preview refuses, and a retried attempt of the first action reconciles.
    EXPECT_TRUE(actions->preview(load).blockedReason.contains(QLatin1String("already cached")));
    core::ActionContext ctx;
    ctx.attempt = 2;
    ctx.submitted = clock.now();
    ctx.progress = [](const core::ActionProgress &) {};
    ctx.isCancelled = [] {
        return false;
    };
    const core::ActionResult again = source->prepare(load)(ctx);
    EXPECT_TRUE(again.ok) << again.message.toStdString();
    EXPECT_TRUE(again.reconciled);
    EXPECT_EQ(wiring->loaderPods(), 1) << "no second loader";
}

TEST_F(CacheKubernetes, LoaderFailingHalfwayIsNotReadyThenResumes)
{
    const MadeCommit commit = makeCommit("fraud_may", 'k');
    wiring->failNextLoaderAfter(commit.id, 2);
    run(request(core::ActionKind::CacheCommit, commit));
    bool readyTooEarly = false;
    ASSERT_TRUE(tickUntil([&] {
        const auto c = cached(commit);
        if (c && c->state == core::CacheState::Ready && wiring->loaderPods() < 2) {
            readyTooEarly = true;
        }
        return c && c->state == core::CacheState::Ready;
    }));
    EXPECT_FALSE(readyTooEarly);
    EXPECT_EQ(wiring->loaderPods(), 2) << "the failed pod was retried by the Job";
    EXPECT_EQ(cached(commit)->bytesDone, kObjects * kObjectBytes);
    EXPECT_EQ(used(), usedBefore + kObjects * kObjectBytes) << "resumed: nothing counted twice";
}

TEST_F(CacheKubernetes, ConcurrentStateWriteConflictIsReReadNotLost)
{
    const MadeCommit first = makeCommit("fraud_jun", 'a');
    run(request(core::ActionKind::CacheCommit, first));
    ASSERT_TRUE(tickUntil([&] {
        return stateIs(first, core::CacheState::Ready);
    }));

    // Another writer updates the state ConfigMap between Strata's read and its write: the next
    // two replaces answer 409 Conflict, so Strata re-reads and re-applies.
    QJsonObject rule{
        {QStringLiteral("method"), QStringLiteral("PUT")},
        {QStringLiteral("path"),
         QStringLiteral("^/api/v1/namespaces/%1/configmaps/%2$").arg(q(kNs), core::cacheConfigMapName(q(kTarget)))},
        {QStringLiteral("kind"), QStringLiteral("status")},
        {QStringLiteral("status"), 409},
        {QStringLiteral("message"), QStringLiteral("the object has been modified")},
        {QStringLiteral("count"), 2}};
    QString error;
    ASSERT_GE(kube->addFaultRule(rule, &error), 0) << error.toStdString();

    const MadeCommit second = makeCommit("misc_base1", 'm');
    run(request(core::ActionKind::CacheCommit, second));
    ASSERT_TRUE(tickUntil([&] {
        return stateIs(second, core::CacheState::Ready);
    }));
    // Neither record was lost to the race, and the load ran once.
    EXPECT_EQ(storedState(first), QStringLiteral("ready"));
    EXPECT_EQ(storedState(second), QStringLiteral("ready"));
    EXPECT_EQ(used(), usedBefore + 2 * kObjects * kObjectBytes);
}

TEST_F(CacheKubernetes, ObjectChangedAfterTheCommitFailsWithTheReason)
{
    const MadeCommit commit = makeCommit("consumer_img1", 'p');
    ASSERT_TRUE(store.putObject("datasets", commit.keys[2], std::string(std::size_t(kObjectBytes), 'Z')));
    run(request(core::ActionKind::CacheCommit, commit));
    ASSERT_TRUE(tickUntil(
        [&] {
            return stateIs(commit, core::CacheState::Failed);
        },
        90));
    const auto c = cached(commit);
    EXPECT_TRUE(c->reason.startsWith(
        QStringLiteral("ETag of %1 changed since the commit").arg(QString::fromStdString(commit.keys[2]))))
        << c->reason.toStdString();
    EXPECT_EQ(storedState(commit), QStringLiteral("failed"));
    // A failed cache may be loaded again (the preview says so), not a ready one.
    const core::ActionPreview retry = actions->preview(request(core::ActionKind::CacheCommit, commit));
    EXPECT_TRUE(retry.allowed()) << retry.blockedReason.toStdString();
    EXPECT_TRUE(retry.fromState.startsWith(QLatin1String("failed: ETag of")));
}

TEST_F(CacheKubernetes, TargetTooSmallIsRefusedInThePreview)
{
    const MadeCommit commit = makeCommit("public_set12", 'u');
    core::CommitLocation huge = commit.location;
    huge.bytes = qint64(1) << 50; // 1 PiB
    commits[commit.id] = huge;
    const core::ActionPreview preview = actions->preview(request(core::ActionKind::CacheCommit, commit));
    EXPECT_FALSE(preview.allowed());
    EXPECT_TRUE(preview.blockedReason.contains(QLatin1String("needs "))
                && preview.blockedReason.contains(QLatin1String(" free")))
        << preview.blockedReason.toStdString();
}

// A target published from the configuration before its claim was listed has unknown room, not
// 0 B free: the preview says it has not been read yet instead of refusing for lack of space.
TEST_F(CacheKubernetes, TargetWhoseClaimIsNotListedYetIsNotZeroBytesFree)
{
    const MadeCommit commit = makeCommit("public_set12", 'u');
    ASSERT_TRUE(targetRecord());
    core::CacheTarget unread = *targetRecord();
    unread.pvcPhase.clear();
    unread.problem.clear();
    unread.capacityBytes = 0;
    unread.usedBytes = 0;
    core::CachePublish publish;
    publish.targets = std::make_shared<const core::KeyedList<core::CacheTarget>>(
        std::vector<core::Ptr<core::CacheTarget>>{std::make_shared<const core::CacheTarget>(unread)});
    estate.publishCaches(q(kSource), publish);
    const core::ActionPreview preview = actions->preview(request(core::ActionKind::CacheCommit, commit));
    EXPECT_FALSE(preview.allowed());
    EXPECT_TRUE(preview.blockedReason.contains(QLatin1String("has not been read yet")))
        << preview.blockedReason.toStdString();
    EXPECT_FALSE(preview.blockedReason.contains(QLatin1String(" free"))) << preview.blockedReason.toStdString();
}

TEST_F(CacheKubernetes, ClearAndPolicyEvictionAfterNDays)
{
    const MadeCommit first = makeCommit("fraud_jun", 'a');
    const MadeCommit second = makeCommit("misc_base1", 'm');
    run(request(core::ActionKind::CacheCommit, first));
    run(request(core::ActionKind::CacheCommit, second));
    ASSERT_TRUE(tickUntil([&] {
        return stateIs(first, core::CacheState::Ready) && stateIs(second, core::CacheState::Ready);
    }));
    EXPECT_EQ(used(), usedBefore + 2 * kObjects * kObjectBytes);

    // Clear by hand.
    const core::ActionPreview clear = actions->preview(request(core::ActionKind::CacheEvict, first));
    ASSERT_TRUE(clear.allowed()) << clear.blockedReason.toStdString();
    EXPECT_TRUE(clear.toState.contains(QLatin1String("freed")));
    run(request(core::ActionKind::CacheEvict, first));
    ASSERT_TRUE(tickUntil([&] {
        return cached(first) == nullptr;
    })) << "evicted commits leave the map after the evictor succeeded";
    EXPECT_EQ(storedState(first), QString());
    EXPECT_EQ(used(), usedBefore + kObjects * kObjectBytes);
    EXPECT_FALSE(kube->object(QStringLiteral("jobs"), q(kNs), core::loaderJobName(first.id, q(kTarget))))
        << "the finished loader and evictor Jobs are cleaned up";

    // Four days later the policy evicts the other one through an audited action.
    core::CacheService service(*actions, estate, clock);
    EXPECT_TRUE(service.runOnce().isEmpty()) << "nothing is due yet";
    clock.advanceDays(4);
    source->refreshCaches();
    ASSERT_TRUE(waitFor([&] {
        const auto c = cached(second);
        return c && c->evictAt.isValid() && c->evictAt <= clock.now();
    }));
    // A replica that does not poll this cluster leaves the eviction to the one that does.
    core::CacheService otherReplica(*actions, estate, clock);
    otherReplica.setSourceFilter([](const QString &) {
        return false;
    });
    EXPECT_TRUE(otherReplica.runOnce().isEmpty());
    const QStringList submitted = service.runOnce();
    ASSERT_EQ(submitted.size(), 1);
    EXPECT_EQ(actions->find(submitted.front())->request.evictReason, QStringLiteral("unused for 3 days"));
    EXPECT_TRUE(service.runOnce().isEmpty() || actions->find(submitted.front())->state != core::ActionState::Running)
        << "never twice while one runs";
    ASSERT_TRUE(tickUntil([&] {
        return cached(second) == nullptr;
    }));
    EXPECT_EQ(used(), usedBefore);
}

namespace {

// A source reads its cache targets as soon as the cluster connects, not a poll interval later:
// a one-shot CLI answer waits for that first read (hasPolledOnce), so it used to take the whole
// interval (5 s by default; here one minute) when the first round ran before the connection.
TEST_F(CacheKubernetes, FirstCacheReadFollowsTheConnection_NotAPollIntervalLater)
{
    core::Estate otherEstate;
    core::SourceConfig config;
    config.name = QStringLiteral("dgx-again");
    config.kind = core::SourceKind::Kubernetes;
    config.url = kube->baseUrl();
    config.caFile = caFile;
    core::KubernetesSource again(
        config, kube->token(), core::KubernetesSource::Deps{otherEstate, clock, pool, nullptr, nullptr});
    again.setPublishInterval(std::chrono::milliseconds(50));
    again.setCachePollInterval(std::chrono::minutes(1));
    core::CacheTargetConfig target;
    target.name = QStringLiteral("dgx-again-cache");
    target.kubernetesSource = config.name;
    target.namespaceName = q(kNs);
    target.pvc = q(kTarget);
    again.setCacheTargets({target});
    again.start();
    EXPECT_TRUE(waitFor(
        [&] {
            return again.hasPolledOnce();
        },
        15000))
        << again.status().lastError.toStdString();
    again.stop();
}

} // namespace
