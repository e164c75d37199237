// The per-object figures behind Strata's shipped alert rules (models/core/planning/alertsignals.h): which
// jobs count as waiting and for how long, a volume's throughput cap in bytes per second, failed
// cache loads, and when a schedule's last change counts as failed.
#include "models/core/domain/estate.h"
#include "models/core/planning/alertsignals.h"

#include <gtest/gtest.h>

namespace strata::core {
namespace {

const QDateTime kAlertNow = QDateTime(QDate(2026, 11, 20), QTime(12, 0), Qt::UTC);

template <class T> std::shared_ptr<const KeyedList<T>> alertSignalsListOf(std::vector<T> items)
{
    std::vector<Ptr<T>> ptrs;
    for (T &item : items) {
        ptrs.push_back(std::make_shared<const T>(std::move(item)));
    }
    return std::make_shared<const KeyedList<T>>(std::move(ptrs));
}

Job alertJob(const QString &project, const QString &name, JobStatus status, const QDateTime &created)
{
    Job j;
    j.source = QStringLiteral("gpu-east");
    j.project = project;
    j.namespaceName = QStringLiteral("runai-") + project;
    j.name = name;
    j.id = j.namespaceName + QLatin1Char('/') + name;
    j.status = status;
    j.created = created;
    j.gpusRequested = 2000;
    return j;
}

} // namespace

TEST(AlertSignals, PendingJobs_OnlyWaitingJobsWithAKnownCreationTime_AgeInSeconds_Sorted)
{
    Estate estate;
    ComputePublish compute;
    compute.jobs = alertSignalsListOf<Job>({
        alertJob(QStringLiteral("team-b"), QStringLiteral("b1"), JobStatus::Pending, kAlertNow.addSecs(-2400)),
        alertJob(QStringLiteral("team-a"), QStringLiteral("a2"), JobStatus::Preempted, kAlertNow.addSecs(-7200)),
        alertJob(QStringLiteral("team-a"), QStringLiteral("a1"), JobStatus::Running, kAlertNow.addSecs(-9000)),
        alertJob(QStringLiteral("team-a"), QStringLiteral("a3"), JobStatus::ContainerCreating, kAlertNow.addSecs(-60)),
        alertJob(QStringLiteral("team-a"), QStringLiteral("a4"), JobStatus::Failed, kAlertNow.addSecs(-60)),
        alertJob(QStringLiteral("team-a"), QStringLiteral("a5"), JobStatus::Pending, QDateTime()),
        // Created "in the future" (this clock behind the API server's): 0, never negative.
        alertJob(QStringLiteral("team-c"), QStringLiteral("c1"), JobStatus::Pending, kAlertNow.addSecs(30)),
    });
    estate.publishCompute(QStringLiteral("gpu-east"), compute);

    const QList<PendingJobSignal> pending = pendingJobSignals(estate, kAlertNow);
    ASSERT_EQ(pending.size(), 3);
    EXPECT_EQ(pending[0].job, QStringLiteral("runai-team-a/a2"));
    EXPECT_EQ(pending[0].project, QStringLiteral("team-a"));
    EXPECT_EQ(pending[0].pendingSeconds, 7200);
    EXPECT_EQ(pending[0].gpusRequested, 2000);
    EXPECT_EQ(pending[1].job, QStringLiteral("runai-team-b/b1"));
    EXPECT_EQ(pending[1].pendingSeconds, 2400);
    EXPECT_EQ(pending[1].source, QStringLiteral("gpu-east"));
    EXPECT_EQ(pending[2].job, QStringLiteral("runai-team-c/c1"));
    EXPECT_EQ(pending[2].pendingSeconds, 0);
}

TEST(AlertSignals, ThroughputCap_AnfQosAndOntapFixedPolicyInBytesPerSecond_NoneOtherwise)
{
    Estate estate;
    Volume anf;
    anf.source = QStringLiteral("anf");
    anf.id = QStringLiteral("fs-1");
    anf.name = QStringLiteral("train-data");
    anf.armId = QStringLiteral("/subscriptions/s/resourceGroups/rg/providers/Microsoft.NetApp/netAppAccounts/a/"
                               "capacityPools/p/volumes/train-data");
    anf.serviceLevel = QStringLiteral("Premium");
    anf.qosType = QStringLiteral("Manual");
    anf.throughputMibps = 64;
    EXPECT_EQ(throughputCapBytesPerSecond(estate, anf), std::optional<double>(64.0 * 1048576.0));

    QosPolicy fixed;
    fixed.source = QStringLiteral("ontap-ai");
    fixed.id = QStringLiteral("q-1");
    fixed.name = QStringLiteral("gold");
    fixed.svm = QStringLiteral("svm1");
    fixed.maxMbps = 100; // ONTAP's MB/s: 10^6 bytes
    QosPolicy adaptive = fixed;
    adaptive.id = QStringLiteral("q-2");
    adaptive.name = QStringLiteral("extreme");
    adaptive.adaptive = true;
    adaptive.maxMbps = 0;
    adaptive.peakIopsPerTb = 12288;
    estate.publishInventory(QStringLiteral("ontap-ai"),
                            alertSignalsListOf<Svm>({}),
                            alertSignalsListOf<Aggregate>({}),
                            alertSignalsListOf<QosPolicy>({fixed, adaptive}),
                            alertSignalsListOf<FlexCache>({}));

    Volume ontap;
    ontap.source = QStringLiteral("ontap-ai");
    ontap.id = QStringLiteral("u-1");
    ontap.svm = QStringLiteral("svm1");
    ontap.name = QStringLiteral("imagenet");
    ontap.sizeBytes = 1099511627776;
    ontap.qosPolicy = QStringLiteral("gold");
    const std::optional<double> cap = throughputCapBytesPerSecond(estate, ontap);
    ASSERT_TRUE(cap.has_value());
    EXPECT_NEAR(*cap, 100e6, 1e-3);

    ontap.qosPolicy = QStringLiteral("extreme"); // an IOPS cap only
    EXPECT_FALSE(throughputCapBytesPerSecond(estate, ontap).has_value());
    ontap.qosPolicy.clear();
    EXPECT_FALSE(throughputCapBytesPerSecond(estate, ontap).has_value());
}

TEST(AlertSignals, FailedCacheLoads_OnlyFailedCommits_DatasetNameElseId)
{
    Estate estate;
    std::vector<CachedCommit> commits;
    for (const auto &[commit, state, datasetName] : {std::tuple{"c2", CacheState::Failed, ""},
                                                     std::tuple{"c1", CacheState::Failed, "fraud_jun"},
                                                     std::tuple{"c3", CacheState::Ready, "fraud_jun"},
                                                     std::tuple{"c4", CacheState::Loading, "fraud_jun"}}) {
        CachedCommit cc;
        cc.source = QStringLiteral("gpu-east");
        cc.target = QStringLiteral("dgx-cache-1");
        cc.commitId = QString::fromLatin1(commit);
        cc.id = cc.target + QLatin1Char('/') + cc.commitId;
        cc.datasetId = QStringLiteral("ds-7");
        cc.datasetName = QString::fromLatin1(datasetName);
        cc.state = state;
        commits.push_back(cc);
    }
    CachePublish caches;
    caches.cachedCommits = alertSignalsListOf<CachedCommit>(std::move(commits));
    estate.publishCaches(QStringLiteral("gpu-east"), caches);

    const QList<FailedCacheLoadSignal> failed = failedCacheLoadSignals(estate);
    ASSERT_EQ(failed.size(), 2);
    EXPECT_EQ(failed[0].commit, QStringLiteral("c1"));
    EXPECT_EQ(failed[0].dataset, QStringLiteral("fraud_jun"));
    EXPECT_EQ(failed[0].target, QStringLiteral("dgx-cache-1"));
    EXPECT_EQ(failed[0].source, QStringLiteral("gpu-east"));
    EXPECT_EQ(failed[1].commit, QStringLiteral("c2"));
    EXPECT_EQ(failed[1].dataset, QStringLiteral("ds-7"));
}

TEST(AlertSignals, ScheduleLastRunFailed_FailedOrMissedWhileEnabled)
{
    ServiceLevelSchedule s;
    for (const auto &[outcome, failed] : {std::pair{"failed: pool has no room", true},
                                          std::pair{"missed", true},
                                          std::pair{"succeeded", false},
                                          std::pair{"submitted", false},
                                          std::pair{"", false}}) {
        s.lastOutcome = QString::fromLatin1(outcome);
        s.enabled = true;
        EXPECT_EQ(scheduleLastRunFailed(s), failed) << outcome;
        s.enabled = false;
        EXPECT_FALSE(scheduleLastRunFailed(s)) << outcome;
    }
}

} // namespace strata::core
