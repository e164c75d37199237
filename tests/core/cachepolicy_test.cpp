#include "models/core/planning/cachepolicy.h"
#include "models/core/sources/kubernetes/kubernetessource.h"
#include "models/core/store/config.h"
#include "tests/support/qt/corestatus.h"

#include <gtest/gtest.h>

using strata::testsupport::errorText;
using strata::testsupport::succeeded;
using namespace strata::core;

namespace {

const QString kCommitA = QStringLiteral("3f2a9c01d4e5b6a7") + QString(48, QLatin1Char('a'));
const QString kCommitB = QStringLiteral("bbbbbbbbbbbbbbbb") + QString(48, QLatin1Char('b'));
const QString kCommitC = QStringLiteral("cccccccccccccccc") + QString(48, QLatin1Char('c'));

QDateTime at(const char *iso)
{
    return QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODate).toUTC();
}

CachedCommit readyCommit(const QString &id, qint64 bytes, const QDateTime &readyAt, const QDateTime &lastUsed = {})
{
    CachedCommit c;
    c.target = QStringLiteral("dgx-cache-1");
    c.commitId = id;
    c.id = c.target + QLatin1Char('/') + id;
    c.datasetName = QStringLiteral("fraud_jun");
    c.path = cachePath(c.datasetName, id);
    c.state = CacheState::Ready;
    c.bytesTotal = c.bytesDone = bytes;
    c.requested = readyAt.addSecs(-60);
    c.readyAt = readyAt;
    c.lastUsed = lastUsed;
    return c;
}

CacheTarget target(qint64 capacity, qint64 used, int days = 3, int watermark = 90)
{
    CacheTarget t;
    t.id = QStringLiteral("dgx-cache-1");
    t.capacityBytes = capacity;
    t.usedBytes = used;
    t.cachedBytes = used;
    t.storageVolumeId = QStringLiteral("vol-uuid");
    t.evictAfterDays = days;
    t.highWatermarkPercent = watermark;
    return t;
}

Job trainingJob(const QString &name, JobStatus status, const QStringList &pvcs, const QStringList &subPaths)
{
    Job j;
    j.name = name;
    j.namespaceName = QStringLiteral("runai-team-a");
    j.id = j.namespaceName + QLatin1Char('/') + name;
    j.status = status;
    j.pvcs = pvcs;
    j.pvcSubPaths = subPaths;
    return j;
}

} // namespace

TEST(CacheNames, FollowTheSharedLayout)
{
    EXPECT_EQ(commitShort(kCommitA), QStringLiteral("3f2a9c01d4e5b6a7"));
    EXPECT_EQ(cachePath(QStringLiteral("fraud_jun"), kCommitA), QStringLiteral("fraud_jun/3f2a9c01d4e5b6a7"));
    EXPECT_EQ(cacheConfigMapName(QStringLiteral("dgx-cache-1")), QStringLiteral("strata-cache-dgx-cache-1"));
    EXPECT_EQ(loaderJobName(kCommitA, QStringLiteral("dgx-cache-1")),
              QStringLiteral("strata-load-3f2a9c01d4e5b6a7-dgx-cache-1"));
    EXPECT_EQ(evictorJobName(kCommitA, QStringLiteral("dgx-cache-1")),
              QStringLiteral("strata-evict-3f2a9c01d4e5b6a7-dgx-cache-1"));
    // A long target name is cut to a DNS label, without a trailing '-'.
    const QString longName = loaderJobName(kCommitA, QStringLiteral("a-very-long-target-name-that-is-way-too-long-x"));
    EXPECT_LE(longName.size(), 63);
    EXPECT_FALSE(longName.endsWith(QLatin1Char('-')));
}

TEST(CacheRecord, RoundTripsEveryStoredField)
{
    CachedCommit r = readyCommit(kCommitA, 32'400'000, at("2026-06-01T10:05:00Z"), at("2026-06-02T08:00:00Z"));
    r.datasetSource = QStringLiteral("datalake");
    r.datasetId = QStringLiteral("datasets/fraud_jun/");
    r.objectsDone = r.objectsTotal = 12;
    r.job = QStringLiteral("ai-cache/strata-load-3f2a9c01d4e5b6a7-dgx-cache-1");
    r.usedBy = {QStringLiteral("runai-team-a/train-1"), QStringLiteral("runai-team-b/eval")};
    const QByteArray json = cacheRecordToJson(r);
    EXPECT_TRUE(json.contains("\"state\":\"ready\""));
    EXPECT_TRUE(json.contains("\"path\":\"fraud_jun/3f2a9c01d4e5b6a7\""));
    const auto back = cacheRecordFromJson(json);
    ASSERT_TRUE(back) << back.error().message.toStdString();
    EXPECT_EQ(back->state, CacheState::Ready);
    EXPECT_EQ(back->datasetName, r.datasetName);
    EXPECT_EQ(back->datasetSource, r.datasetSource);
    EXPECT_EQ(back->datasetId, r.datasetId);
    EXPECT_EQ(back->bytesTotal, 32'400'000);
    EXPECT_EQ(back->objectsDone, 12);
    EXPECT_EQ(back->path, r.path);
    EXPECT_EQ(back->job, r.job);
    EXPECT_EQ(back->requested, r.requested);
    EXPECT_EQ(back->readyAt, r.readyAt);
    EXPECT_EQ(back->lastUsed, r.lastUsed);
    EXPECT_EQ(back->usedBy, r.usedBy);
}

TEST(CacheRecord, RejectsBadInput)
{
    QString error = errorText(cacheRecordFromJson("{\"state\":\"loading\""));
    EXPECT_TRUE(error.contains(QLatin1String("invalid JSON"))) << error.toStdString();
    EXPECT_EQ(errorText(cacheRecordFromJson("[1,2]")), QStringLiteral("not a JSON object"));
    EXPECT_EQ(errorText(cacheRecordFromJson("{\"dataset\":\"x\"}")), QStringLiteral("missing \"state\""));
    EXPECT_EQ(errorText(cacheRecordFromJson("{\"state\":\"frozen\"}")), QStringLiteral("unknown state \"frozen\""));
    // Missing numbers and times are zero / invalid, not an error; negative numbers are clamped.
    const auto sparse = cacheRecordFromJson("{\"state\":\"requested\",\"bytesDone\":-5,\"readyAt\":\"garbage\"}");
    ASSERT_TRUE(sparse);
    EXPECT_EQ(sparse->bytesDone, 0);
    EXPECT_FALSE(sparse->readyAt.isValid());
}

TEST(LoaderLog, TakesTheNewestProtocolLine)
{
    const QByteArray log = "starting loader\n"
                           "{\"event\":\"progress\",\"objects_done\":1,\"objects_total\":4,\"bytes_done\":10,"
                           "\"bytes_total\":40}\n"
                           "{\"event\":\"progress\",\"objects_done\":2,\"objects_total\":4,\"bytes_done\":20,"
                           "\"bytes_total\":40}\n"
                           "Traceback (most recent call last):\n"
                           "\n";
    const auto event = lastLoaderEvent(log);
    ASSERT_TRUE(event);
    EXPECT_EQ(event->kind, LoaderEvent::Kind::Progress);
    EXPECT_EQ(event->objectsDone, 2);
    EXPECT_EQ(event->bytesTotal, 40);

    const auto failed = lastLoaderEvent(
        "{\"event\":\"failed\",\"reason\":\"ETag of fraud_jun/a.csv changed since the commit (expected 1, got 2)\"}\n"
        "{\"event\":\"progr"); // truncated last line
    ASSERT_TRUE(failed);
    EXPECT_EQ(failed->kind, LoaderEvent::Kind::Failed);
    EXPECT_TRUE(failed->reason.startsWith(QLatin1String("ETag of fraud_jun/a.csv")));

    EXPECT_FALSE(lastLoaderEvent(""));
    EXPECT_FALSE(lastLoaderEvent("not json\n{\"event\":\"unknown\"}\n[1]\n"));
}

TEST(Reconcile, LoadingProgressThenReady)
{
    CachedCommit r;
    r.state = CacheState::Requested;
    r.requested = at("2026-06-01T10:00:00Z");
    r.job = QStringLiteral("ai-cache/strata-load-x");
    CacheJobView job;
    job.name = QStringLiteral("strata-load-x");
    job.active = 1;
    const QDateTime now = at("2026-06-01T10:00:10Z");

    auto step = reconcileCacheRecord(r, &job, std::nullopt, nullptr, now);
    EXPECT_EQ(step.record.state, CacheState::Loading); // pod running, no line yet

    LoaderEvent progress{LoaderEvent::Kind::Progress, 3, 10, 300, 1000, {}};
    step = reconcileCacheRecord(step.record, &job, progress, nullptr, now);
    EXPECT_EQ(step.record.state, CacheState::Loading);
    EXPECT_EQ(step.record.objectsDone, 3);
    EXPECT_EQ(step.record.bytesTotal, 1000);

    job.active = 0;
    job.complete = true;
    job.completionTime = at("2026-06-01T10:01:00Z");
    LoaderEvent ready{LoaderEvent::Kind::Ready, 10, 10, 1000, 1000, {}};
    step = reconcileCacheRecord(step.record, &job, ready, nullptr, now);
    EXPECT_EQ(step.record.state, CacheState::Ready);
    EXPECT_EQ(step.record.readyAt, job.completionTime);
    EXPECT_EQ(step.record.bytesDone, 1000);
    EXPECT_FALSE(step.remove);
}

TEST(Reconcile, FailedAttemptIsRetriedThenJobFailureGivesTheReason)
{
    CachedCommit r;
    r.state = CacheState::Loading;
    r.requested = at("2026-06-01T10:00:00Z");
    CacheJobView job;
    job.name = QStringLiteral("strata-load-x");
    job.failedPods = 1; // first pod died; Kubernetes starts another
    const LoaderEvent failedLine{
        LoaderEvent::Kind::Failed, 2, 10, 200, 1000, QStringLiteral("fraud_jun/b.csv is gone from the bucket")};
    auto step = reconcileCacheRecord(r, &job, failedLine, nullptr, at("2026-06-01T10:00:30Z"));
    EXPECT_EQ(step.record.state, CacheState::Loading) << "not failed while the Job retries";
    EXPECT_EQ(step.record.bytesDone, 200);

    job.failed = true;
    job.failureMessage = QStringLiteral("BackoffLimitExceeded: Job has reached the specified backoff limit");
    step = reconcileCacheRecord(step.record, &job, failedLine, nullptr, at("2026-06-01T10:02:00Z"));
    EXPECT_EQ(step.record.state, CacheState::Failed);
    EXPECT_EQ(step.record.reason, QStringLiteral("fraud_jun/b.csv is gone from the bucket"));

    // Without a loader line the Job's own failure is the reason.
    step = reconcileCacheRecord(r, &job, std::nullopt, nullptr, at("2026-06-01T10:02:00Z"));
    EXPECT_EQ(step.record.reason, job.failureMessage);

    // A retry of the cache action starts a new pod: loading again.
    CacheJobView again;
    again.name = job.name;
    again.active = 1;
    step = reconcileCacheRecord(step.record, &again, std::nullopt, nullptr, at("2026-06-01T10:03:00Z"));
    EXPECT_EQ(step.record.state, CacheState::Loading);
    EXPECT_TRUE(step.record.reason.isEmpty());
}

TEST(Reconcile, MissingLoaderFailsOnlyAfterTheGrace)
{
    CachedCommit r;
    r.state = CacheState::Requested;
    r.requested = at("2026-06-01T10:00:00Z");
    r.job = QStringLiteral("ai-cache/strata-load-x");
    EXPECT_EQ(reconcileCacheRecord(r, nullptr, std::nullopt, nullptr, at("2026-06-01T10:00:30Z")).record.state,
              CacheState::Requested);
    const auto late = reconcileCacheRecord(r, nullptr, std::nullopt, nullptr, at("2026-06-01T10:05:00Z"));
    EXPECT_EQ(late.record.state, CacheState::Failed);
    EXPECT_EQ(late.record.reason, QStringLiteral("the loader Job ai-cache/strata-load-x is gone"));
    // A ready commit whose loader was cleaned up stays ready.
    CachedCommit ready = readyCommit(kCommitA, 1, at("2026-06-01T10:00:00Z"));
    EXPECT_EQ(reconcileCacheRecord(ready, nullptr, std::nullopt, nullptr, at("2026-06-09T10:00:00Z")).record.state,
              CacheState::Ready);
}

TEST(Reconcile, EvictionEndsInRemoval)
{
    CachedCommit r = readyCommit(kCommitA, 100, at("2026-06-01T10:00:00Z"));
    r.state = CacheState::Evicting;
    r.job = QStringLiteral("ai-cache/strata-evict-x");
    CacheJobView evictor;
    evictor.name = QStringLiteral("strata-evict-x");
    evictor.active = 1;
    auto step = reconcileCacheRecord(r, nullptr, std::nullopt, &evictor, at("2026-06-05T10:00:00Z"));
    EXPECT_EQ(step.record.state, CacheState::Evicting);
    EXPECT_FALSE(step.remove);
    evictor.active = 0;
    evictor.complete = true;
    step = reconcileCacheRecord(r, nullptr, std::nullopt, &evictor, at("2026-06-05T10:00:10Z"));
    EXPECT_EQ(step.record.state, CacheState::Evicted);
    EXPECT_TRUE(step.remove);
    evictor.complete = false;
    evictor.failed = true;
    evictor.failureMessage = QStringLiteral("BackoffLimitExceeded");
    step = reconcileCacheRecord(r, nullptr, std::nullopt, &evictor, at("2026-06-05T10:00:10Z"));
    EXPECT_EQ(step.record.state, CacheState::Failed);
    EXPECT_EQ(step.record.reason, QStringLiteral("clearing failed: BackoffLimitExceeded"));
}

TEST(Usage, JobsMountingThePathSetLastUsedAndUsedBy)
{
    CachedCommit r = readyCommit(kCommitA, 100, at("2026-06-01T10:00:00Z"));
    r.usedBy = {QStringLiteral("runai-team-a/old-job")};
    const QDateTime now = at("2026-06-03T12:00:00Z");
    Job finished = trainingJob(QStringLiteral("train-1"),
                               JobStatus::Succeeded,
                               {QStringLiteral("cache-pvc")},
                               {QStringLiteral("fraud_jun/3f2a9c01d4e5b6a7")});
    finished.finished = at("2026-06-02T09:00:00Z");
    Job other = trainingJob(QStringLiteral("other"),
                            JobStatus::Running,
                            {QStringLiteral("cache-pvc")},
                            {QStringLiteral("fraud_jun/bbbbbbbbbbbbbbbb")});
    Job queued = trainingJob(QStringLiteral("queued"),
                             JobStatus::Pending,
                             {QStringLiteral("cache-pvc")},
                             {QStringLiteral("fraud_jun/3f2a9c01d4e5b6a7")});
    Job wholeVolume =
        trainingJob(QStringLiteral("loader"), JobStatus::Running, {QStringLiteral("cache-pvc")}, {QString()});

    ASSERT_TRUE(applyUsage(
        r, {finished, other, queued, wholeVolume}, QStringLiteral("runai-team-a"), QStringLiteral("cache-pvc"), now));
    EXPECT_EQ(r.lastUsed, finished.finished);
    EXPECT_EQ(r.usedBy, (QStringList{QStringLiteral("runai-team-a/train-1"), QStringLiteral("runai-team-a/old-job")}));

    // A running job mounting a directory below the commit counts as used now.
    Job running = trainingJob(QStringLiteral("train-2"),
                              JobStatus::Running,
                              {QStringLiteral("scratch"), QStringLiteral("cache-pvc")},
                              {QString(), QStringLiteral("fraud_jun/3f2a9c01d4e5b6a7/images/")});
    ASSERT_TRUE(applyUsage(r, {finished, running}, QStringLiteral("runai-team-a"), QStringLiteral("cache-pvc"), now));
    EXPECT_EQ(r.lastUsed, now);
    EXPECT_EQ(r.usedBy.front(), QStringLiteral("runai-team-a/train-2"));
    // Same jobs again: nothing changes. Other namespace or claim: not a use.
    EXPECT_FALSE(applyUsage(r, {finished, running}, QStringLiteral("runai-team-a"), QStringLiteral("cache-pvc"), now));
    CachedCommit fresh = readyCommit(kCommitA, 100, at("2026-06-01T10:00:00Z"));
    EXPECT_FALSE(applyUsage(fresh, {running}, QStringLiteral("other-ns"), QStringLiteral("cache-pvc"), now));
    EXPECT_FALSE(applyUsage(fresh, {running}, QStringLiteral("runai-team-a"), QStringLiteral("other-pvc"), now));
}

TEST(Policy, UnusedForNDays)
{
    const QDateTime now = at("2026-06-04T00:00:00Z");
    QList<CachedCommit> commits{
        readyCommit(kCommitA, 100, at("2026-06-01T10:00:00Z")),
        readyCommit(kCommitB, 100, at("2026-06-01T10:00:00Z"), at("2026-06-03T08:00:00Z")),
    };
    CachedCommit loading = readyCommit(kCommitC, 100, at("2026-05-01T10:00:00Z"));
    loading.state = CacheState::Loading;
    commits.append(loading);
    applyEvictionPolicy(target(1'000'000, 300), commits, now);
    EXPECT_EQ(commits[0].evictAt, at("2026-06-04T10:00:00Z"));
    EXPECT_EQ(commits[0].evictReason, QStringLiteral("unused for 3 days"));
    EXPECT_EQ(commits[1].evictAt, at("2026-06-06T08:00:00Z")) << "last use, not readiness, counts";
    EXPECT_FALSE(commits[2].evictAt.isValid()) << "loading commits are never evicted";

    applyEvictionPolicy(target(1'000'000, 300, 1), commits, now);
    EXPECT_EQ(commits[0].evictReason, QStringLiteral("unused for 1 day"));
    EXPECT_EQ(commits[0].evictAt, at("2026-06-02T10:00:00Z"));
}

TEST(Policy, OverTheWatermarkEvictsLeastRecentlyUsedFirst)
{
    const QDateTime now = at("2026-06-02T00:00:00Z");
    QList<CachedCommit> commits{
        readyCommit(kCommitA, 300, at("2026-06-01T10:00:00Z"), at("2026-06-01T20:00:00Z")),
        readyCommit(kCommitB, 300, at("2026-06-01T09:00:00Z")), // least recently used
        readyCommit(kCommitC, 300, at("2026-06-01T11:00:00Z"), at("2026-06-01T23:00:00Z")),
    };
    // 950 of 1000 used, watermark 90 % = 900: evicting B (300) is enough.
    applyEvictionPolicy(target(1000, 950), commits, now);
    EXPECT_EQ(commits[1].evictAt, now);
    EXPECT_EQ(commits[1].evictReason, QStringLiteral("over the 90 % high watermark (LRU)"));
    EXPECT_EQ(commits[0].evictReason, QStringLiteral("unused for 3 days"));
    EXPECT_EQ(commits[2].evictReason, QStringLiteral("unused for 3 days"));

    // 990 used, watermark 50 % = 500: B leaves 690, so A goes too (390); C stays.
    applyEvictionPolicy(target(1000, 990, 3, 50), commits, now);
    EXPECT_EQ(commits[1].evictAt, now);
    EXPECT_EQ(commits[0].evictAt, now);
    EXPECT_NE(commits[2].evictAt, now);

    // An eviction already running counts as freed: no second victim.
    commits[1].state = CacheState::Evicting;
    applyEvictionPolicy(target(1000, 950), commits, now);
    EXPECT_FALSE(commits[1].evictAt.isValid());
    EXPECT_NE(commits[0].evictAt, now);

    // Under the watermark nothing is due early.
    commits[1].state = CacheState::Ready;
    applyEvictionPolicy(target(1000, 900), commits, now);
    for (const CachedCommit &c : commits) {
        EXPECT_NE(c.evictAt, now);
    }
}

TEST(Policy, PlanRoomForANewCommit)
{
    QList<CachedCommit> commits{
        readyCommit(kCommitA, 300, at("2026-06-01T10:00:00Z"), at("2026-06-01T20:00:00Z")),
        readyCommit(kCommitB, 200, at("2026-06-01T09:00:00Z")),
    };
    CachedCommit loading = readyCommit(kCommitC, 400, at("2026-06-01T12:00:00Z"));
    loading.state = CacheState::Loading;
    loading.bytesDone = 100; // 300 still to come
    commits.append(loading);
    const CacheTarget t = target(1500, 600); // 900 free, 300 reserved by the load: 600

    RoomPlan plan = planRoom(t, commits, 500);
    EXPECT_TRUE(plan.fits);
    EXPECT_EQ(plan.freeBytes, 600);
    EXPECT_TRUE(plan.evict.isEmpty());

    plan = planRoom(t, commits, 750); // needs B (LRU, 200)
    EXPECT_TRUE(plan.fits);
    EXPECT_EQ(plan.evict, QStringList{kCommitB});
    EXPECT_EQ(plan.freedBytes, 200);

    plan = planRoom(t, commits, 1000); // B and A
    EXPECT_TRUE(plan.fits);
    EXPECT_EQ(plan.evict, (QStringList{kCommitB, kCommitA}));

    plan = planRoom(t, commits, 1200); // the loading commit is never touched
    EXPECT_FALSE(plan.fits);
    EXPECT_TRUE(plan.evict.isEmpty());
    EXPECT_EQ(plan.evictableBytes, 500);

    CacheTarget unknown = t;
    unknown.capacityBytes = 0;
    EXPECT_FALSE(planRoom(unknown, commits, 1).fits);
}

TEST(CacheTargetsConfig, ParsesValidatesAndSaves)
{
    const QByteArray good = R"({
        "sources": [{"name": "dgx", "kind": "kubernetes", "url": "https://k8s.example:6443",
                     "password": {"env": "TOKEN"}}],
        "cache_targets": [{"name": "dgx-cache-1", "kubernetes_source": "dgx", "namespace": "ai-cache",
                           "pvc": "cache-pvc", "evict_after_days": 5, "high_watermark_percent": 85}]
    })";
    AppConfig config;
    QString error;
    ASSERT_TRUE(succeeded(AppConfig::parse(good, &config)));
    ASSERT_EQ(config.cacheTargets.size(), 1);
    const CacheTargetConfig &t = config.cacheTargets.front();
    EXPECT_EQ(t.name, QStringLiteral("dgx-cache-1"));
    EXPECT_EQ(t.kubernetesSource, QStringLiteral("dgx"));
    EXPECT_EQ(t.namespaceName, QStringLiteral("ai-cache"));
    EXPECT_EQ(t.pvc, QStringLiteral("cache-pvc"));
    EXPECT_EQ(t.s3CredentialsSecret, QStringLiteral("strata-s3"));
    EXPECT_EQ(t.loaderImage, QStringLiteral("python:3.12-alpine"));
    EXPECT_EQ(t.evictAfterDays, 5);
    EXPECT_EQ(t.highWatermarkPercent, 85);

    AppConfig again;
    ASSERT_TRUE(succeeded(AppConfig::parse(config.toJson(), &again)));
    EXPECT_EQ(again.cacheTargets, config.cacheTargets);

    const auto rejects = [](const QByteArray &targets, const char *expected) {
        const QByteArray json = R"({"sources": [{"name": "dgx", "kind": "kubernetes"},
                                               {"name": "ontap", "kind": "ontap", "url": "https://o.example"}],
                                   "cache_targets": )"
                                + targets + "}";
        QString error;
        AppConfig c;
        error = errorText(AppConfig::parse(json, &c));
        EXPECT_FALSE(error.isEmpty()) << targets.constData();
        EXPECT_TRUE(error.contains(QLatin1String(expected))) << error.toStdString();
    };
    rejects(R"({})", "\"cache_targets\" must be an array");
    rejects(R"([7])", "cache_targets[0]: must be an object");
    rejects(R"([{"kubernetes_source": "dgx"}])", "missing \"name\"");
    rejects(R"([{"name": "Cache_1"}])", "invalid name \"Cache_1\"");
    rejects(R"([{"name": "c1", "namespace": "n", "pvc": "p"}])", "missing \"kubernetes_source\"");
    rejects(R"([{"name": "c1", "kubernetes_source": "ontap", "namespace": "n", "pvc": "p"}])",
            "kubernetes_source \"ontap\" is not a configured kubernetes source");
    rejects(R"([{"name": "c1", "kubernetes_source": "dgx", "namespace": "n"}])", "missing \"namespace\" or \"pvc\"");
    rejects(R"([{"name": "c1", "kubernetes_source": "dgx", "namespace": "n", "pvc": "p", "evict_after_days": 0}])",
            "evict_after_days must be a whole number >= 1");
    rejects(R"([{"name": "c1", "kubernetes_source": "dgx", "namespace": "n", "pvc": "p", "evict_after_days": 400}])",
            "evict_after_days must be at most 365");
    rejects(
        R"([{"name": "c1", "kubernetes_source": "dgx", "namespace": "n", "pvc": "p", "high_watermark_percent": 101}])",
        "high_watermark_percent must be at most 100");
    rejects(R"([{"name": "c1", "kubernetes_source": "dgx", "namespace": "n", "pvc": "p", "loader_image": 3}])",
            "\"loader_image\" must be a string");
    rejects(R"([{"name": "c1", "kubernetes_source": "dgx", "namespace": "n", "pvc": "p"},
               {"name": "c1", "kubernetes_source": "dgx", "namespace": "n", "pvc": "q"}])",
            "cache target \"c1\": duplicate name");
}

TEST(CacheLoaderScript, IsBuiltIntoTheBinary)
{
    // packaging/cache-loader/loader.py, embedded as a Qt resource: CacheCommit installs it as
    // the ConfigMap strata-cache-loader.
    const QByteArray script = KubernetesSource::loaderScript();
    ASSERT_FALSE(script.isEmpty());
    EXPECT_TRUE(script.contains("COMMIT_ID"));
    EXPECT_TRUE(script.contains("MANIFEST_KEY"));
}
