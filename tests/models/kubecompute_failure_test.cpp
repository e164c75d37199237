// A job whose container cannot start (the kubelet's ImagePullBackOff, CrashLoopBackOff, ...) is
// marked failing once, in the compute build, for desktop, CLI and web to show alike.

#include "models/core/sources/kubernetes/kubecompute.h"

#include <gtest/gtest.h>

using namespace strata;

namespace {

kubernetes::PodDto failureTestPod(const std::string &name, const std::string &phase, const std::string &waiting)
{
    kubernetes::PodDto pod;
    pod.namespace_ = "runai-team-a";
    pod.name = name;
    // A bare GPU pod (no owning Job): a job of its own, named after it.
    pod.phase = phase;
    pod.nodeName = "dgx1-1";
    pod.gpuLimitMilli = 500;
    pod.images = {"nvcr.io/nvidia/pytorch:24.99-py3"};
    pod.creationTimestamp = "2026-03-02T11:00:00Z";
    pod.waitingReason = waiting;
    pod.waitingMessage = waiting.empty() ? std::string() : "Back-off pulling image";
    return pod;
}

const core::Job *failureTestJob(const core::ComputePublish &publish, const QString &name)
{
    for (const auto &job : publish.jobs->items()) {
        if (job->name == name) {
            return job.get();
        }
    }
    return nullptr;
}

} // namespace

TEST(KubeComputeFailure, WaitingReasonsThatNeedSomeoneToActAreFailures)
{
    core::kube::ClusterCache cache;
    for (const auto &[name, phase, waiting] : {std::tuple{"pull", "Pending", "ImagePullBackOff"},
                                               std::tuple{"err", "Pending", "ErrImagePull"},
                                               std::tuple{"loop", "Running", "CrashLoopBackOff"},
                                               std::tuple{"creating", "Pending", "ContainerCreating"},
                                               std::tuple{"fine", "Running", ""}}) {
        kubernetes::PodDto pod = failureTestPod(name, phase, waiting);
        cache.putPod(pod);
    }
    const core::ComputePublish publish =
        core::kube::build(QStringLiteral("k8s"), cache, {}, QDateTime(QDate(2026, 3, 2), QTime(12, 0), Qt::UTC));
    ASSERT_EQ(publish.jobs->size(), 5U);
    const core::Job *pull = failureTestJob(publish, QStringLiteral("pull"));
    ASSERT_TRUE(pull);
    EXPECT_EQ(pull->status, core::JobStatus::ContainerCreating);
    EXPECT_EQ(pull->failureReason, QStringLiteral("ImagePullBackOff"));
    EXPECT_TRUE(pull->pendingReason.startsWith(QStringLiteral("ImagePullBackOff: Back-off")));
    EXPECT_EQ(failureTestJob(publish, QStringLiteral("err"))->failureReason, QStringLiteral("ErrImagePull"));
    const core::Job *loop = failureTestJob(publish, QStringLiteral("loop"));
    EXPECT_EQ(loop->status, core::JobStatus::Running);
    EXPECT_EQ(loop->failureReason, QStringLiteral("CrashLoopBackOff"));
    EXPECT_TRUE(failureTestJob(publish, QStringLiteral("creating"))->failureReason.isEmpty());
    EXPECT_TRUE(failureTestJob(publish, QStringLiteral("fine"))->failureReason.isEmpty());
}

TEST(KubeComputeFailure, AnOomKilledContainerIsAFailureWithItsLastExit)
{
    core::kube::ClusterCache cache;
    kubernetes::PodDto killed = failureTestPod("oom", "Running", "");
    killed.terminatedReason = "OOMKilled";
    cache.putPod(killed);
    kubernetes::PodDto looping = failureTestPod("oomloop", "Running", "CrashLoopBackOff");
    looping.lastTerminatedReason = "OOMKilled";
    looping.lastExitCode = 137;
    cache.putPod(looping);
    kubernetes::PodDto restarted = failureTestPod("restarted", "Running", "");
    restarted.lastTerminatedReason = "OOMKilled";
    restarted.lastExitCode = 137;
    cache.putPod(restarted);
    const core::ComputePublish publish =
        core::kube::build(QStringLiteral("k8s"), cache, {}, QDateTime(QDate(2026, 3, 2), QTime(12, 0), Qt::UTC));

    const core::Job *oom = failureTestJob(publish, QStringLiteral("oom"));
    ASSERT_TRUE(oom);
    EXPECT_EQ(oom->failureReason, QStringLiteral("OOMKilled"));
    const core::Job *loop = failureTestJob(publish, QStringLiteral("oomloop"));
    ASSERT_TRUE(loop);
    EXPECT_EQ(loop->failureReason, QStringLiteral("CrashLoopBackOff"));
    EXPECT_TRUE(loop->pendingReason.endsWith(QStringLiteral("(last exit: OOMKilled, code 137)")))
        << qPrintable(loop->pendingReason);
    // Running again after one OOM kill: not failing now, as kubectl's STATUS says Running.
    EXPECT_TRUE(failureTestJob(publish, QStringLiteral("restarted"))->failureReason.isEmpty());
}
