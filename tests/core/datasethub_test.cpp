// The dataset hub's summary (TR-4841 header, per-dataset rows) and lineage over a hand-built
// estate: TR-4841's six datasets, three cache targets, cached commits in every state, jobs
// mounting cached commits by subPath, and an ONTAP file dataset cached as a FlexClone.

#include "models/core/domain/estate.h"
#include "models/core/planning/datasethub.h"

#include <gtest/gtest.h>

using namespace strata::core;

namespace {

constexpr qint64 kMB = 1000 * 1000;

template <class T> std::shared_ptr<const KeyedList<T>> listOf(std::vector<T> items)
{
    std::vector<Ptr<T>> out;
    for (T &item : items) {
        out.push_back(std::make_shared<const T>(std::move(item)));
    }
    return std::make_shared<const KeyedList<T>>(std::move(out));
}

QDateTime atDatasethub(const char *iso)
{
    return QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODate).toUTC();
}

Dataset s3Dataset(const QString &name, qint64 bytes, int commits)
{
    Dataset d;
    d.source = QStringLiteral("datalake");
    d.id = QStringLiteral("datasets/") + name + QLatin1Char('/');
    d.name = name;
    d.bucket = QStringLiteral("datasets");
    d.prefix = name + QLatin1Char('/');
    d.commitCount = commits;
    d.headCommit = name + QStringLiteral("-head");
    d.sizeBytes = bytes;
    d.objectCount = 10;
    d.lastActivity = atDatasethub("2026-06-01T10:00:00Z");
    return d;
}

CacheTarget targetDatasethub(const QString &name, qint64 capacity, qint64 cached, const QString &problem = {})
{
    CacheTarget t;
    t.source = QStringLiteral("dgx");
    t.id = name;
    t.namespaceName = QStringLiteral("ml-cache");
    t.pvc = name + QStringLiteral("-pvc");
    t.pvcPhase = problem.isEmpty() ? QStringLiteral("Bound") : QString();
    t.storageSource = QStringLiteral("ontap-ai");
    t.volumeName = QStringLiteral("svm_cache/") + name;
    t.capacityBytes = capacity;
    t.cachedBytes = cached;
    t.problem = problem;
    return t;
}

CachedCommit
cached(const QString &target, const QString &dataset, const QString &commit, CacheState state, qint64 bytes)
{
    CachedCommit c;
    c.source = QStringLiteral("dgx");
    c.id = target + QLatin1Char('/') + commit;
    c.target = target;
    c.commitId = commit;
    c.datasetSource = QStringLiteral("datalake");
    c.datasetId = QStringLiteral("datasets/") + dataset + QLatin1Char('/');
    c.datasetName = dataset;
    c.state = state;
    c.bytesTotal = bytes;
    c.bytesDone = state == CacheState::Ready ? bytes : bytes / 2;
    c.path = dataset + QLatin1Char('/') + commit.left(16);
    c.requested = atDatasethub("2026-06-02T09:00:00Z");
    return c;
}

Job job(const QString &name, const QString &project, const QString &pvc, const QString &subPath, const char *started)
{
    Job j;
    j.source = QStringLiteral("dgx");
    j.namespaceName = QStringLiteral("ml-cache");
    j.name = name;
    j.id = j.namespaceName + QLatin1Char('/') + name;
    j.project = project;
    j.status = JobStatus::Running;
    j.pvcs = {pvc};
    j.pvcSubPaths = {subPath};
    j.started = atDatasethub(started);
    return j;
}

class DatasetHubTest : public ::testing::Test
{
protected:
    Estate estate;

    void publishTr4841()
    {
        // TR-4841's hub: 32.4 + 57.6 + 27.3 + 102.7 + 45.1 + 25.1 = 290.2 MB.
        estate.publishDatasets(
            QStringLiteral("datalake"),
            DatasetPublish{listOf<Dataset>({s3Dataset(QStringLiteral("fraud_jun"), 32'400'000, 4),
                                            s3Dataset(QStringLiteral("fraud_may"), 57'600'000, 2),
                                            s3Dataset(QStringLiteral("consumer_img1"), 27'300'000, 4),
                                            s3Dataset(QStringLiteral("public_set12"), 102'700'000, 7),
                                            s3Dataset(QStringLiteral("fraud_sim_base"), 45'100'000, 2),
                                            s3Dataset(QStringLiteral("misc_base1"), 25'100'000, 1)}),
                           nullptr});
        // 360.77 GB of cache capacity over three NFS volumes, 1.07 GB of cached commits.
        estate.publishCaches(
            QStringLiteral("dgx"),
            CachePublish{listOf<CacheTarget>({targetDatasethub(QStringLiteral("cache-1"), 120'000'000'000, 700'000'000),
                                              targetDatasethub(QStringLiteral("cache-2"), 120'000'000'000, 370'000'000),
                                              targetDatasethub(QStringLiteral("cache-3"), 120'770'000'000, 0)}),
                         listOf<CachedCommit>({
                             cached(QStringLiteral("cache-1"),
                                    QStringLiteral("fraud_jun"),
                                    QStringLiteral("c1"),
                                    CacheState::Ready,
                                    32 * kMB),
                             cached(QStringLiteral("cache-2"),
                                    QStringLiteral("fraud_jun"),
                                    QStringLiteral("c1"),
                                    CacheState::Ready,
                                    32 * kMB),
                             cached(QStringLiteral("cache-1"),
                                    QStringLiteral("fraud_jun"),
                                    QStringLiteral("c2"),
                                    CacheState::Loading,
                                    30 * kMB),
                             cached(QStringLiteral("cache-2"),
                                    QStringLiteral("fraud_jun"),
                                    QStringLiteral("c3"),
                                    CacheState::Loading,
                                    10 * kMB),
                             cached(QStringLiteral("cache-3"),
                                    QStringLiteral("fraud_jun"),
                                    QStringLiteral("c3"),
                                    CacheState::Ready,
                                    10 * kMB),
                             cached(QStringLiteral("cache-1"),
                                    QStringLiteral("public_set12"),
                                    QStringLiteral("p7"),
                                    CacheState::Failed,
                                    100 * kMB),
                             cached(QStringLiteral("cache-2"),
                                    QStringLiteral("public_set12"),
                                    QStringLiteral("p6"),
                                    CacheState::Evicted,
                                    100 * kMB),
                             cached(QStringLiteral("cache-3"),
                                    QStringLiteral("gone"),
                                    QStringLiteral("g1"),
                                    CacheState::Ready,
                                    5 * kMB),
                         })});
    }
};

} // namespace

TEST_F(DatasetHubTest, HeaderMatchesTr4841)
{
    publishTr4841();
    const HubSummary s = summarize(estate);
    EXPECT_EQ(s.datasets, 6);
    EXPECT_EQ(s.totalBytes, 290'200'000);
    EXPECT_EQ(s.commits, 20);
    EXPECT_EQ(s.targets, 3);
    EXPECT_EQ(s.targetsConnected, 3);
    EXPECT_EQ(s.cachedBytes, 1'070'000'000);
    EXPECT_EQ(s.capacityBytes, 360'770'000'000);
    // TR-4841's layout in Strata's binary units (format.h), each figure in its own unit.
    EXPECT_EQ(s.headerText(),
              QStringLiteral("6 Datasets | 277 MiB | 3 NFS Connected | %1 / 336 GiB Used by cached commits")
                  .arg(formatBytes(qint64(1'070'000'000))));
    EXPECT_EQ(formatBytes(qint64(1'070'000'000), QLocale(QLocale::English)), QStringLiteral("1,020 MiB"));
    EXPECT_EQ(s.readyCommits, 4);
    EXPECT_EQ(s.loadingCommits, 2);
    EXPECT_EQ(s.failedCommits, 1);
}

TEST_F(DatasetHubTest, TargetWithAProblemIsNotConnected)
{
    estate.publishCaches(
        QStringLiteral("dgx"),
        CachePublish{
            listOf<CacheTarget>({targetDatasethub(QStringLiteral("a"), 1000, 10),
                                 targetDatasethub(QStringLiteral("b"), 2000, 0, QStringLiteral("PVC not found"))}),
            nullptr});
    const HubSummary s = summarize(estate);
    EXPECT_EQ(s.targets, 2);
    EXPECT_EQ(s.targetsConnected, 1);
    EXPECT_EQ(s.headerText(),
              QStringLiteral("0 Datasets | 0 B | 1 NFS Connected | 10 B / 2.9 KiB Used by cached commits"));
}

// Issues 14 #8 and 17 #3: megabytes cached on terabytes of targets read "0.00/6.60 TB", as if
// nothing were cached; each figure has its own unit.
TEST_F(DatasetHubTest, HeaderGivesEachFigureItsOwnUnitWhenTheyDiffer)
{
    estate.publishCaches(
        QStringLiteral("dgx"),
        CachePublish{listOf<CacheTarget>({targetDatasethub(QStringLiteral("a"), 3'300'000'000'000, 222'298'112),
                                          targetDatasethub(QStringLiteral("b"), 3'300'000'000'000, 0)}),
                     nullptr});
    const HubSummary s = summarize(estate);
    EXPECT_EQ(s.headerText(),
              QStringLiteral("0 Datasets | 0 B | 2 NFS Connected | 212 MiB / 6.0 TiB Used by cached commits"));
}

TEST_F(DatasetHubTest, PerDatasetRowsCountDistinctCommits)
{
    publishTr4841();
    const HubSummary s = summarize(estate);
    ASSERT_EQ(s.rows.size(), 6);
    const DatasetHubRow &jun = s.rows.value(QStringLiteral("datalake/datasets/fraud_jun/"));
    ASSERT_TRUE(jun.dataset);
    // c1 ready twice counts once; c3 loading on one target but ready on another is cached.
    EXPECT_EQ(jun.cachedCommits, 2);
    EXPECT_EQ(jun.loadingCommits, 1); // c2
    EXPECT_EQ(jun.failedCommits, 0);
    EXPECT_EQ(jun.cachedBytes, 32 * kMB + 32 * kMB + 15 * kMB + 5 * kMB + 10 * kMB);
    EXPECT_EQ(jun.targets,
              (QStringList{QStringLiteral("cache-1"), QStringLiteral("cache-2"), QStringLiteral("cache-3")}));
    EXPECT_EQ(jun.lastActivity, atDatasethub("2026-06-02T09:00:00Z"));

    const DatasetHubRow &pub = s.rows.value(QStringLiteral("datalake/datasets/public_set12/"));
    EXPECT_EQ(pub.cachedCommits, 0);
    EXPECT_EQ(pub.failedCommits, 1);
    EXPECT_EQ(pub.targets, QStringList{QStringLiteral("cache-1")}); // evicted p6 not listed

    const DatasetHubRow &misc = s.rows.value(QStringLiteral("datalake/datasets/misc_base1/"));
    EXPECT_EQ(misc.cachedCommits, 0);
    EXPECT_TRUE(misc.targets.isEmpty());
    EXPECT_EQ(misc.lastActivity, atDatasethub("2026-06-01T10:00:00Z"));
}

TEST_F(DatasetHubTest, LineageFollowsSubPathsThroughTheTargetPvc)
{
    publishTr4841();
    ComputePublish compute;
    Job other = job(QStringLiteral("other-ns"),
                    QStringLiteral("team-b"),
                    QStringLiteral("cache-1-pvc"),
                    QStringLiteral("fraud_jun/c1"),
                    "2026-06-03T11:00:00Z");
    other.namespaceName = QStringLiteral("elsewhere");
    other.id = QStringLiteral("elsewhere/other-ns");
    compute.jobs = listOf<Job>({
        job(QStringLiteral("train-a"),
            QStringLiteral("team-a"),
            QStringLiteral("cache-1-pvc"),
            QStringLiteral("fraud_jun/c1"),
            "2026-06-03T10:00:00Z"),
        job(QStringLiteral("train-b"),
            QStringLiteral("team-b"),
            QStringLiteral("cache-1-pvc"),
            QStringLiteral("fraud_jun/c1/train"),
            "2026-06-03T12:00:00Z"),
        job(QStringLiteral("whole"),
            QStringLiteral("team-a"),
            QStringLiteral("cache-1-pvc"),
            QString(),
            "2026-06-03T12:00:00Z"),
        job(QStringLiteral("prefix-trap"),
            QStringLiteral("team-a"),
            QStringLiteral("cache-1-pvc"),
            QStringLiteral("fraud_jun/c10"),
            "2026-06-03T12:00:00Z"),
        job(QStringLiteral("other-target"),
            QStringLiteral("team-a"),
            QStringLiteral("cache-2-pvc"),
            QStringLiteral("fraud_jun/c1"),
            "2026-06-03T12:00:00Z"),
        other,
    });
    estate.publishCompute(QStringLiteral("dgx"), compute);

    CachedCommit c = *estate.cachedCommits().find(QStringLiteral("dgx"), QStringLiteral("dgx/cache-1/c1"));
    c.usedBy = {QStringLiteral("ml-cache/train-a"), QStringLiteral("ml-cache/finished-long-ago")};
    const QList<LineageEntry> entries = lineage(estate, c);
    ASSERT_EQ(entries.size(), 3);
    EXPECT_EQ(entries.at(0).job, QStringLiteral("ml-cache/train-b"));
    EXPECT_EQ(entries.at(0).project, QStringLiteral("team-b"));
    EXPECT_EQ(entries.at(0).subPath, QStringLiteral("fraud_jun/c1/train"));
    EXPECT_EQ(entries.at(0).pvc, QStringLiteral("ml-cache/cache-1-pvc"));
    EXPECT_EQ(entries.at(0).volumeName, QStringLiteral("svm_cache/cache-1"));
    EXPECT_EQ(entries.at(0).datasetName, QStringLiteral("fraud_jun"));
    EXPECT_EQ(entries.at(0).commitId, QStringLiteral("c1"));
    EXPECT_TRUE(entries.at(0).inEstate);
    EXPECT_EQ(entries.at(1).job, QStringLiteral("ml-cache/train-a"));
    EXPECT_EQ(entries.at(2).job, QStringLiteral("ml-cache/finished-long-ago"));
    EXPECT_FALSE(entries.at(2).inEstate);
    EXPECT_TRUE(entries.at(2).project.isEmpty());

    const QList<LineageEntry> all =
        datasetLineage(estate, QStringLiteral("datalake"), QStringLiteral("datasets/fraud_jun/"));
    QStringList jobs;
    for (const LineageEntry &e : all) {
        jobs << e.target + QLatin1Char(':') + e.job;
    }
    EXPECT_TRUE(jobs.contains(QStringLiteral("cache-2:ml-cache/other-target")))
        << jobs.join(QLatin1Char(' ')).toStdString();
    EXPECT_TRUE(jobs.contains(QStringLiteral("cache-1:ml-cache/train-a")));
    EXPECT_FALSE(jobs.contains(QStringLiteral("cache-1:ml-cache/whole")));
    EXPECT_FALSE(jobs.contains(QStringLiteral("cache-1:ml-cache/prefix-trap")));
}

TEST_F(DatasetHubTest, OntapFileDatasetCachedAsFlexClone)
{
    Volume xray;
    xray.source = QStringLiteral("ontap-ai");
    xray.id = QStringLiteral("uuid-xray");
    xray.name = QStringLiteral("chest_xray");
    xray.svm = QStringLiteral("svm_ai");
    Volume clone;
    clone.source = QStringLiteral("ontap-ai");
    clone.id = QStringLiteral("uuid-clone");
    clone.name = QStringLiteral("chest_xray_clone");
    clone.svm = QStringLiteral("svm_ai");
    clone.cloneParent = QStringLiteral("chest_xray@v2");
    clone.usedBytes = 4 * kMB;
    clone.created = atDatasethub("2026-06-05T08:00:00Z");
    Volume unrelated = clone;
    unrelated.id = QStringLiteral("uuid-other");
    unrelated.name = QStringLiteral("other_clone");
    unrelated.cloneParent = QStringLiteral("chest_xray_old@v2");
    estate.publishVolumes(QStringLiteral("ontap-ai"), listOf<Volume>({xray, clone, unrelated}));

    Dataset d;
    d.source = QStringLiteral("ontap-ai");
    d.id = xray.id;
    d.name = xray.name;
    d.kind = DatasetKind::OntapVolume;
    d.volumeId = xray.id;
    d.commitCount = 2;
    d.sizeBytes = 9 * kMB;
    Commit v2;
    v2.source = QStringLiteral("ontap-ai");
    v2.id = QStringLiteral("snap-uuid-2");
    v2.datasetId = xray.id;
    v2.manifestKey = QStringLiteral("v2");
    estate.publishDatasets(QStringLiteral("ontap-ai"), DatasetPublish{listOf<Dataset>({d}), listOf<Commit>({v2})});

    Pvc pvc;
    pvc.source = QStringLiteral("dgx");
    pvc.namespaceName = QStringLiteral("team-a");
    pvc.name = QStringLiteral("xray-v2");
    pvc.id = QStringLiteral("team-a/xray-v2");
    pvc.storageSource = QStringLiteral("ontap-ai");
    pvc.storageVolumeId = QStringLiteral("uuid-clone");
    Job j;
    j.source = QStringLiteral("dgx");
    j.namespaceName = QStringLiteral("team-a");
    j.name = QStringLiteral("xray-train");
    j.id = QStringLiteral("team-a/xray-train");
    j.project = QStringLiteral("team-a");
    j.pvcs = {QStringLiteral("xray-v2")};
    j.pvcSubPaths = {QString()};
    ComputePublish compute;
    compute.pvcs = listOf<Pvc>({pvc});
    compute.jobs = listOf<Job>({j});
    estate.publishCompute(QStringLiteral("dgx"), compute);

    const HubSummary s = summarize(estate);
    const DatasetHubRow row = s.rows.value(QStringLiteral("ontap-ai/uuid-xray"));
    EXPECT_EQ(row.cachedCommits, 1);
    EXPECT_EQ(row.cachedBytes, 4 * kMB);
    EXPECT_EQ(row.targets, QStringList{QStringLiteral("svm_ai/chest_xray_clone")});
    EXPECT_EQ(row.lastActivity, atDatasethub("2026-06-05T08:00:00Z"));

    const QList<LineageEntry> entries = datasetLineage(estate, QStringLiteral("ontap-ai"), QStringLiteral("uuid-xray"));
    ASSERT_EQ(entries.size(), 1);
    EXPECT_EQ(entries.first().commitId, QStringLiteral("snap-uuid-2"));
    EXPECT_EQ(entries.first().target, QStringLiteral("chest_xray_clone"));
    EXPECT_EQ(entries.first().pvc, QStringLiteral("team-a/xray-v2"));
    EXPECT_EQ(entries.first().project, QStringLiteral("team-a"));
}
