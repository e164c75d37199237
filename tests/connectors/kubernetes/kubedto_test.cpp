// DTO parsing against the kubernetes/api schema examples and KAI-Scheduler examples (see
// tests/fixtures/kubernetes-objects/README.md), plus realistic objects for the GPU fields.
#include "connectors/kubernetes/dto.h"
#include "tests/support/fixtures.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace strata::kubernetes;
using nlohmann::json;

namespace {

json objectFixture(const std::string &name)
{
    return json::parse(strata::testsupport::fixture("kubernetes-objects/" + name));
}

} // namespace

TEST(KubeQuantity, ParsesSuffixesAndExponents)
{
    EXPECT_EQ(quantityMilli("8"), 8000);
    EXPECT_EQ(quantityMilli("500m"), 500);
    EXPECT_EQ(quantityMilli("0.5"), 500);
    EXPECT_EQ(quantityMilli("0.6"), 600);
    EXPECT_EQ(quantityMilli("1e3"), 1'000'000);
    EXPECT_EQ(quantityMilli("1.5k"), 1'500'000);
    EXPECT_EQ(quantityMilli(".25"), 250);
    EXPECT_EQ(quantityValue("1Gi"), 1073741824);
    EXPECT_EQ(quantityValue("100Mi"), 104857600);
    EXPECT_EQ(quantityValue("2Ti"), 2199023255552LL);
    EXPECT_EQ(quantityValue("10G"), 10'000'000'000LL);
    EXPECT_EQ(quantityValue("1.5"), 2); // rounds up, as Kubernetes' Value()
    EXPECT_EQ(quantityValue("-1"), -1);
    EXPECT_EQ(quantityMilli("1n"), 1); // rounds up
}

TEST(KubeQuantity, RejectsGarbage)
{
    for (const char *bad : {"", "abc", "1Qi", "1.2.3", "Gi", "1e", "1ee3", "5 m", "0x10", "1mm"}) {
        EXPECT_FALSE(parseQuantity(bad).has_value()) << bad;
    }
}

TEST(KubeQuantity, JsonNumbersAndStrings)
{
    EXPECT_EQ(quantityMilliOf(json(2)), 2000);
    EXPECT_EQ(quantityMilliOf(json(0.5)), 500);
    EXPECT_EQ(quantityMilliOf(json("1.5")), 1500);
    EXPECT_FALSE(quantityMilliOf(json::object()).has_value());
    EXPECT_FALSE(quantityMilliOf(json(nullptr)).has_value());
}

TEST(KubeDto, SchemaExamplePod_MapsEveryField)
{
    const auto pod = parsePod(objectFixture("schema-example.core.v1.Pod.json"));
    ASSERT_TRUE(pod) << pod.error().message;
    EXPECT_EQ(pod->name, "nameValue");
    EXPECT_EQ(pod->namespace_, "namespaceValue");
    EXPECT_EQ(pod->uid, "uidValue");
    EXPECT_EQ(pod->resourceVersion, "resourceVersionValue");
    EXPECT_EQ(pod->creationTimestamp, "2008-01-01T01:01:01Z");
    EXPECT_EQ(pod->deletionTimestamp, "2009-01-01T01:01:01Z");
    EXPECT_EQ(pod->labels.at("labelsKey"), "labelsValue");
    EXPECT_EQ(pod->annotations.at("annotationsKey"), "annotationsValue");
    EXPECT_EQ(pod->phase, "phaseValue");
    EXPECT_EQ(pod->nodeName, "nodeNameValue");
    EXPECT_EQ(pod->priorityClassName, "priorityClassNameValue");
    EXPECT_EQ(pod->startTime, "2007-01-01T01:01:01Z");
    ASSERT_FALSE(pod->images.empty());
    EXPECT_EQ(pod->images.front(), "imageValue");
    ASSERT_FALSE(pod->pvcClaims.empty());
    EXPECT_EQ(pod->pvcClaims.front(), "claimNameValue");
    EXPECT_EQ(pod->waitingReason, "reasonValue");
    EXPECT_EQ(pod->gpuLimitMilli, 0);
    EXPECT_TRUE(pod->jobName.empty()); // the owner is a "kindValue", not a Job
    EXPECT_EQ(pod->key(), "namespaceValue/nameValue");
}

TEST(KubeDto, SchemaExamples_AllKindsParse)
{
    const auto node = parseNode(objectFixture("schema-example.core.v1.Node.json"));
    ASSERT_TRUE(node) << node.error().message;
    EXPECT_TRUE(node->unschedulable);
    EXPECT_FALSE(node->ready);
    EXPECT_EQ(node->gpuCapacityMilli, 0);

    const auto job = parseJob(objectFixture("schema-example.batch.v1.Job.json"));
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_EQ(job->active, 4);
    EXPECT_EQ(job->succeeded, 5);
    EXPECT_EQ(job->failed, 6);
    EXPECT_EQ(job->completions, 2);
    EXPECT_TRUE(job->suspended);
    EXPECT_EQ(job->startTime, "2002-01-01T01:01:01Z");
    EXPECT_EQ(job->completionTime, "2003-01-01T01:01:01Z");
    ASSERT_EQ(job->conditions.size(), 1u);
    EXPECT_EQ(job->conditions[0].type, "typeValue");

    const auto event = parseEvent(objectFixture("schema-example.core.v1.Event.json"));
    ASSERT_TRUE(event) << event.error().message;
    EXPECT_EQ(event->involvedKind, "kindValue");
    EXPECT_EQ(event->involvedNamespace, "namespaceValue");
    EXPECT_EQ(event->involvedName, "nameValue");
    EXPECT_EQ(event->reason, "reasonValue");
    EXPECT_EQ(event->count, 8);
    EXPECT_EQ(event->lastTimestamp, "2007-01-01T01:01:01Z");
    EXPECT_EQ(event->timestamp, "2010-01-01T01:01:01.000010Z"); // eventTime wins
    EXPECT_EQ(event->reportingComponent, "reportingComponentValue");

    const auto ns = parseNamespace(objectFixture("schema-example.core.v1.Namespace.json"));
    ASSERT_TRUE(ns) << ns.error().message;
    EXPECT_EQ(ns->phase, "phaseValue");

    const auto quota = parseResourceQuota(objectFixture("schema-example.core.v1.ResourceQuota.json"));
    ASSERT_TRUE(quota) << quota.error().message;
    EXPECT_EQ(quota->hardGpuMilli, -1);

    const auto pvc = parsePvc(objectFixture("schema-example.core.v1.PersistentVolumeClaim.json"));
    ASSERT_TRUE(pvc) << pvc.error().message;
    EXPECT_EQ(pvc->phase, "phaseValue");
    EXPECT_EQ(pvc->storageClass, "storageClassNameValue");
    EXPECT_EQ(pvc->volumeName, "volumeNameValue");
    EXPECT_EQ(pvc->accessModes, std::vector<std::string>{"accessModesValue"});
    EXPECT_EQ(pvc->dataSourceKind, "kindValue");

    const auto pv = parsePv(objectFixture("schema-example.core.v1.PersistentVolume.json"));
    ASSERT_TRUE(pv) << pv.error().message;
    EXPECT_EQ(pv->nfsServer, "serverValue");
    EXPECT_EQ(pv->nfsPath, "pathValue");
    EXPECT_EQ(pv->csiDriver, "driverValue");
    EXPECT_EQ(pv->volumeHandle, "volumeHandleValue");
    EXPECT_EQ(pv->claimName, "nameValue");
    EXPECT_EQ(pv->storageClass, "storageClassNameValue");
}

TEST(KubeDto, StatusExample_IsNotAnObjectWithName)
{
    const auto parsed = parsePod(objectFixture("schema-example.core.v1.Status.json"));
    ASSERT_FALSE(parsed);
    EXPECT_EQ(parsed.error().kind, strata::connectors::Error::Kind::Parse);
    EXPECT_NE(parsed.error().message.find("metadata.name"), std::string::npos) << parsed.error().message;
}

TEST(KubeDto, KaiExamples_QueuesJobAndFractionPod)
{
    const json queues = objectFixture("kai-default-queues.json");
    ASSERT_EQ(queues.size(), 2u);
    const auto parent = parseQueue(queues[0]);
    const auto leaf = parseQueue(queues[1]);
    ASSERT_TRUE(parent && leaf);
    EXPECT_EQ(parent->name, "default-parent-queue");
    EXPECT_EQ(leaf->parentQueue, "default-parent-queue");
    EXPECT_EQ(leaf->gpuQuotaMilli, 0);
    EXPECT_EQ(leaf->gpuLimitMilli, -1);
    EXPECT_DOUBLE_EQ(leaf->overQuotaWeight, 1.0);

    const auto job = parseJob(objectFixture("kai-example-batch_batch-job.json"));
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_EQ(job->queue, "default-queue"); // from the pod template's labels
    EXPECT_EQ(job->gpuMilli, 1000);
    EXPECT_EQ(job->image, "ubuntu");
    EXPECT_EQ(job->args, (std::vector<std::string>{"sleep", "infinity"}));

    const auto pod = parsePod(objectFixture("kai-example-gpu-sharing_gpu-sharing.json"));
    ASSERT_TRUE(pod) << pod.error().message;
    EXPECT_EQ(pod->gpuLimitMilli, 500);
    EXPECT_EQ(pod->queue, "default-queue");
    EXPECT_EQ(pod->schedulerName, "kai-scheduler");
    EXPECT_EQ(pod->command, std::vector<std::string>{"nvidia-smi"});
    EXPECT_EQ(pod->namespace_, "");
}

TEST(KubeDto, GpuNode)
{
    const json node = json::parse(R"j({
      "metadata": {"name": "dgx-01", "labels": {"nvidia.com/gpu.product": "Tesla-V100-SXM2-32GB",
                                                "nvidia.com/gpu.memory": "32768", "nvidia.com/gpu.count": "8"}},
      "spec": {},
      "status": {"capacity": {"nvidia.com/gpu": "8", "cpu": "80"}, "allocatable": {"nvidia.com/gpu": "7"},
                 "conditions": [{"type": "MemoryPressure", "status": "False"}, {"type": "Ready", "status": "True"}]}})j");
    const auto parsed = parseNode(node);
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ(parsed->gpuCapacityMilli, 8000);
    EXPECT_EQ(parsed->gpuAllocatableMilli, 7000);
    EXPECT_EQ(parsed->gpuProduct, "Tesla-V100-SXM2-32GB");
    EXPECT_EQ(parsed->gpuMemoryMiB, 32768);
    EXPECT_TRUE(parsed->ready);
    EXPECT_FALSE(parsed->unschedulable);
    EXPECT_EQ(parsed->key(), "dgx-01");
}

TEST(KubeDto, JobPod_WholeGpusIndicesAndConditions)
{
    const json pod = json::parse(R"j({
      "metadata": {"name": "train-1-abcde", "namespace": "runai-team-a",
                   "labels": {"batch.kubernetes.io/job-name": "train-1", "kai.scheduler/queue": "team-a",
                              "user": "alice", "strata.io/created-by": "cli"},
                   "annotations": {"runai-gpu": "0,1"},
                   "ownerReferences": [{"kind": "Job", "name": "train-1"}]},
      "spec": {"nodeName": "dgx-02", "schedulerName": "kai-scheduler", "priorityClassName": "train",
               "containers": [{"name": "main", "image": "nvcr.io/nvidia/pytorch:24.01", "command": ["python"],
                               "args": ["train.py"], "resources": {"limits": {"nvidia.com/gpu": "2"}}},
                              {"name": "side", "image": "busybox"}],
               "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "datasets"}}, {"name": "tmp", "emptyDir": {}}]},
      "status": {"phase": "Pending",
                 "conditions": [{"type": "PodScheduled", "status": "True"},
                                {"type": "DisruptionTarget", "status": "True", "reason": "PreemptionByScheduler"}],
                 "containerStatuses": [{"name": "main", "state": {"waiting": {"reason": "ContainerCreating"}}}]}})j");
    const auto parsed = parsePod(pod);
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ(parsed->jobName, "train-1");
    EXPECT_EQ(parsed->queue, "team-a");
    EXPECT_EQ(parsed->user, "alice");
    EXPECT_EQ(parsed->createdBy, "cli");
    EXPECT_EQ(parsed->priorityClassName, "train");
    EXPECT_EQ(parsed->gpuLimitMilli, 2000);
    EXPECT_EQ(parsed->gpuIndices, (std::vector<int>{0, 1}));
    EXPECT_EQ(parsed->images, (std::vector<std::string>{"nvcr.io/nvidia/pytorch:24.01", "busybox"}));
    EXPECT_EQ(parsed->pvcClaims, std::vector<std::string>{"datasets"});
    EXPECT_EQ(parsed->waitingReason, "ContainerCreating");
    EXPECT_EQ(parsed->scheduledCondition.status, "True");
    EXPECT_TRUE(parsed->disruptionTarget);
    EXPECT_EQ(parsed->disruptionReason, "PreemptionByScheduler");
}

TEST(KubeDto, PendingFractionPod_FromOwnerReference)
{
    const json pod = json::parse(R"j({
      "metadata": {"name": "nb-xyz", "namespace": "runai-team-b", "annotations": {"gpu-fraction": "0.6"},
                   "ownerReferences": [{"kind": "Job", "name": "notebook"}]},
      "spec": {"containers": [{"name": "c", "image": "jupyter"}]},
      "status": {"phase": "Pending",
                 "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                                 "message": "no node has 0.6 of a free GPU"}]}})j");
    const auto parsed = parsePod(pod);
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ(parsed->jobName, "notebook");
    EXPECT_EQ(parsed->gpuLimitMilli, 600);
    EXPECT_TRUE(parsed->gpuIndices.empty());
    EXPECT_EQ(parsed->scheduledCondition.reason, "Unschedulable");
    EXPECT_EQ(parsed->scheduledCondition.message, "no node has 0.6 of a free GPU");
    EXPECT_FALSE(parsed->disruptionTarget);
}

// The container status of the Kubernetes docs' OOM example (kubernetes/website,
// content/en/docs/tasks/configure-pod-container/assign-memory-resource.md, "Exceed a Container's
// memory limit": memory-demo-2, `kubectl get pod --output=yaml`): lastState.terminated with reason
// OOMKilled and exitCode 137, and kubectl's STATUS "OOMKilled" while the container is terminated.
TEST(KubeDto, OomKilledContainer_TerminatedAndLastStateReasons)
{
    const json restarted = json::parse(R"j({
      "metadata": {"name": "memory-demo-2", "namespace": "mem-example"},
      "spec": {"containers": [{"name": "memory-demo-2-ctr", "image": "polinux/stress",
                               "resources": {"requests": {"memory": "50Mi"}, "limits": {"memory": "100Mi"}}}]},
      "status": {"phase": "Running",
                 "containerStatuses": [{"name": "memory-demo-2-ctr", "restartCount": 2,
                   "state": {"running": {"startedAt": "2017-06-20T20:52:21Z"}},
                   "lastState": {"terminated": {
                     "containerID": "docker://65183c1877aaec2e8427bc95609cc52677a454b56fcb24340dbd22917c23b10f",
                     "exitCode": 137, "finishedAt": "2017-06-20T20:52:19Z", "reason": "OOMKilled",
                     "startedAt": null}}}]}})j");
    const auto parsed = parsePod(restarted);
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ(parsed->lastTerminatedReason, "OOMKilled");
    EXPECT_EQ(parsed->lastExitCode, 137);
    EXPECT_TRUE(parsed->terminatedReason.empty());
    EXPECT_TRUE(parsed->waitingReason.empty());

    json killed = restarted;
    killed["status"]["containerStatuses"][0]["state"] =
        json{{"terminated", {{"exitCode", 137}, {"reason", "OOMKilled"}}}};
    killed["status"]["containerStatuses"][0].erase("lastState");
    const auto now = parsePod(killed);
    ASSERT_TRUE(now);
    EXPECT_EQ(now->terminatedReason, "OOMKilled");
    EXPECT_EQ(now->lastExitCode, -1);

    json done = restarted;
    done["status"]["containerStatuses"][0]["state"] = json{{"terminated", {{"exitCode", 0}, {"reason", "Completed"}}}};
    done["status"]["containerStatuses"][0]["lastState"]["terminated"]["exitCode"] = "137";
    const auto completed = parsePod(done);
    ASSERT_TRUE(completed);
    EXPECT_TRUE(completed->terminatedReason.empty()) << "Completed is not a failure";
    EXPECT_EQ(completed->lastExitCode, -1) << "an exit code of another type counts as absent";
}

TEST(KubeDto, MalformedFields_IgnoredNotFatal)
{
    const json pod = json::parse(R"j({
      "metadata": {"name": "odd", "namespace": "x", "labels": ["not", "a", "map"], "annotations": {"runai-gpu": "a,1,,2"}},
      "spec": {"containers": "nope", "volumes": [17, {"persistentVolumeClaim": "bad"}]},
      "status": {"phase": 5, "conditions": {"type": "Ready"}, "containerStatuses": [null]}})j");
    const auto parsed = parsePod(pod);
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_TRUE(parsed->labels.empty());
    EXPECT_TRUE(parsed->phase.empty());
    EXPECT_TRUE(parsed->images.empty());
    EXPECT_EQ(parsed->gpuIndices, (std::vector<int>{1, 2}));

    const json node =
        json::parse(R"j({"metadata": {"name": "n"}, "status": {"capacity": {"nvidia.com/gpu": "eight"}}})j");
    const auto parsedNode = parseNode(node);
    ASSERT_TRUE(parsedNode);
    EXPECT_EQ(parsedNode->gpuCapacityMilli, 0);
}

TEST(KubeDto, NotAnObjectOrNoName_ErrorNamesKind)
{
    for (const json &bad : {json(42),
                            json::array(),
                            json::object(),
                            json::parse(R"j({"metadata": {"namespace": "a"}})j"),
                            json::parse(R"j({"metadata": "x"})j")}) {
        const auto parsed = parseJob(bad);
        ASSERT_FALSE(parsed) << bad.dump();
        EXPECT_EQ(parsed.error().kind, strata::connectors::Error::Kind::Parse);
        EXPECT_EQ(parsed.error().message.rfind("Job: ", 0), 0u) << parsed.error().message;
    }
    std::vector<std::string> skipped;
    const auto pods = parseAll<PodDto>(
        {json::parse(R"j({"metadata": {"name": "a"}})j"), json(1), json::parse(R"j({"metadata": {"name": "b"}})j")},
        parsePod,
        &skipped);
    ASSERT_EQ(pods.size(), 2u);
    EXPECT_EQ(pods[1].name, "b");
    ASSERT_EQ(skipped.size(), 1u);
}

TEST(KubeDto, QuotaPvcPvStorageClassSnapshot)
{
    const auto quota = parseResourceQuota(json::parse(R"j({"metadata": {"name": "gpu", "namespace": "runai-team-a"},
      "spec": {"hard": {"requests.nvidia.com/gpu": "4"}}, "status": {"used": {"requests.nvidia.com/gpu": "1500m"}}})j"));
    ASSERT_TRUE(quota);
    EXPECT_EQ(quota->hardGpuMilli, 4000);
    EXPECT_EQ(quota->usedGpuMilli, 1500);

    const auto pvc = parsePvc(json::parse(R"j({"metadata": {"name": "datasets", "namespace": "runai-team-a"},
      "spec": {"storageClassName": "ontap-nas", "volumeName": "pvc-1", "accessModes": ["ReadWriteMany"],
               "resources": {"requests": {"storage": "100Gi"}}},
      "status": {"phase": "Bound", "capacity": {"storage": "100Gi"}}})j"));
    ASSERT_TRUE(pvc);
    EXPECT_EQ(pvc->requestBytes, 107374182400LL);
    EXPECT_EQ(pvc->capacityBytes, 107374182400LL);

    const auto pv = parsePv(json::parse(R"j({"metadata": {"name": "pvc-1"},
      "spec": {"capacity": {"storage": "100Gi"}, "storageClassName": "ontap-nas",
               "csi": {"driver": "csi.trident.netapp.io", "volumeHandle": "pvc-1",
                       "volumeAttributes": {"internalName": "trident_pvc_1", "backendUUID": "b-1"}},
               "claimRef": {"namespace": "runai-team-a", "name": "datasets"}, "persistentVolumeReclaimPolicy": "Delete"},
      "status": {"phase": "Bound"}})j"));
    ASSERT_TRUE(pv);
    EXPECT_EQ(pv->volumeAttributes.at("internalName"), "trident_pvc_1");
    EXPECT_EQ(pv->claimNamespace, "runai-team-a");
    EXPECT_EQ(pv->capacityBytes, 107374182400LL);
    EXPECT_EQ(pv->reclaimPolicy, "Delete");

    const auto sc = parseStorageClass(json::parse(R"j({"metadata": {"name": "ontap-nas",
      "annotations": {"storageclass.kubernetes.io/is-default-class": "true"}},
      "provisioner": "csi.trident.netapp.io", "parameters": {"backendType": "ontap-nas"}, "allowVolumeExpansion": true})j"));
    ASSERT_TRUE(sc);
    EXPECT_TRUE(sc->isDefault);
    EXPECT_TRUE(sc->allowVolumeExpansion);
    EXPECT_EQ(sc->parameters.at("backendType"), "ontap-nas");

    const auto snap = parseVolumeSnapshot(json::parse(R"j({"metadata": {"name": "s1", "namespace": "runai-team-a"},
      "spec": {"source": {"persistentVolumeClaimName": "datasets"}, "volumeSnapshotClassName": "trident"},
      "status": {"readyToUse": true, "restoreSize": "100Gi", "boundVolumeSnapshotContentName": "snapcontent-1",
                 "creationTime": "2025-01-01T00:00:00Z"}})j"));
    ASSERT_TRUE(snap);
    EXPECT_EQ(snap->pvcName, "datasets");
    EXPECT_TRUE(snap->readyToUse);
    EXPECT_EQ(snap->restoreSizeBytes, 107374182400LL);
    EXPECT_EQ(snap->snapshotContentName, "snapcontent-1");
}

TEST(KubeDto, QueueWithFractionalQuotaAndPodGroupStates)
{
    const auto queue = parseQueue(json::parse(R"j({"metadata": {"name": "team-a"},
      "spec": {"parentQueue": "research", "resources": {"gpu": {"quota": 2.5, "limit": 8, "overQuotaWeight": 2}}},
      "status": {"allocated": {"nvidia.com/gpu": "3"}, "requested": {"nvidia.com/gpu": "4"}}})j"));
    ASSERT_TRUE(queue);
    EXPECT_EQ(queue->gpuQuotaMilli, 2500);
    EXPECT_EQ(queue->gpuLimitMilli, 8000);
    EXPECT_DOUBLE_EQ(queue->overQuotaWeight, 2.0);
    EXPECT_EQ(queue->allocatedGpuMilli, 3000);
    EXPECT_EQ(queue->requestedGpuMilli, 4000);

    const auto pending = parsePodGroup(json::parse(R"j({"metadata": {"name": "pg-train-1", "namespace": "runai-team-b"},
      "spec": {"queue": "team-b", "minMember": 1, "priorityClassName": "train", "preemptibility": "preemptible"},
      "status": {"phase": "Pending", "schedulingConditions": [{"type": "Unschedulable", "reason": "OverQuota",
        "message": "project team-b is at or over its fair share (2/2 GPUs)", "transitionID": "1"
}]
}
})j"));
    ASSERT_TRUE(pending);
    EXPECT_EQ(pending->queue, "team-b");
    EXPECT_EQ(pending->preemptibility, "preemptible");
    EXPECT_EQ(pending->phase, "Pending");
    EXPECT_EQ(pending->pendingMessage, "project team-b is at or over its fair share (2/2 GPUs)");
    EXPECT_FALSE(pending->evicted);

    const auto evicted = parsePodGroup(json::parse(R"j({"metadata": {"name": "pg-train-2", "namespace": "runai-team-b"},
      "spec": {"queue": "team-b"},
      "status": {"phase": "Pending", "conditions": [{"type": "Evicted", "status": "True", "reason": "Preempted",
                                                     "message": "Preempted by team-d reclaiming its quota"}]}})j"));
    ASSERT_TRUE(evicted);
    EXPECT_TRUE(evicted->evicted);
    EXPECT_EQ(evicted->evictedMessage, "Preempted by team-d reclaiming its quota");
}
