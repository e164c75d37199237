// The compute records of a Kubernetes source are kept between publishes: a watch event rebuilds
// the records it touches, and the result always equals a build from scratch.

#include "models/core/domain/estate.h"
#include "models/core/sources/kubernetes/kubecompute.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <set>
#include <unordered_map>

using namespace strata;

namespace {

const QString kIncSource = QStringLiteral("k8s");

kubernetes::PodDto incPod(const std::string &ns, const std::string &name, const std::string &jobName)
{
    kubernetes::PodDto pod;
    pod.namespace_ = ns;
    pod.name = name;
    pod.jobName = jobName;
    pod.phase = "Running";
    pod.nodeName = "node-0";
    pod.gpuLimitMilli = 1000;
    pod.creationTimestamp = "2026-03-02T11:00:00Z";
    pod.startTime = "2026-03-02T11:00:05Z";
    return pod;
}

kubernetes::JobDto incJob(const std::string &ns, const std::string &name)
{
    kubernetes::JobDto job;
    job.namespace_ = ns;
    job.name = name;
    job.gpuMilli = 1000;
    job.creationTimestamp = "2026-03-02T10:59:00Z";
    return job;
}

kubernetes::NodeDto incNode(const std::string &name)
{
    kubernetes::NodeDto node;
    node.name = name;
    node.gpuCapacityMilli = node.gpuAllocatableMilli = 8000;
    node.gpuProduct = "NVIDIA-H100-80GB-HBM3";
    node.ready = true;
    return node;
}

// The pods as the watch delivers them (the cache keeps a CachedPod of each), by key.
using IncPods = std::unordered_map<std::string, kubernetes::PodDto>;

// A KAI cluster: three project queues (and the empty built-in default queue), their
// namespaces, four 8-GPU nodes, `jobs` Jobs with one running pod each, and one bare GPU pod;
// its pods also in `pods` when given.
core::kube::ClusterCache incCluster(int jobs, IncPods *pods = nullptr)
{
    core::kube::ClusterCache cache;
    cache.hasKai = true;
    cache.version = "v1.34.1";
    for (const std::string team : {"team-a", "team-b", "team-c", "default-queue"}) {
        kubernetes::QueueDto queue;
        queue.name = team;
        queue.gpuQuotaMilli = team == "default-queue" ? 0 : 8000;
        cache.queues.emplace(queue.key(), queue);
        kubernetes::NamespaceDto ns;
        ns.name = "runai-" + team;
        cache.namespaces.emplace(ns.key(), ns);
    }
    for (int i = 0; i < 4; ++i) {
        const kubernetes::NodeDto node = incNode("node-" + std::to_string(i));
        cache.nodes.emplace(node.key(), node);
    }
    for (int i = 0; i < jobs; ++i) {
        const std::string ns = "runai-team-" + std::string(1, char('a' + i % 3));
        const std::string name = "job-" + std::to_string(i);
        const kubernetes::JobDto job = incJob(ns, name);
        cache.jobs.emplace(job.key(), job);
        kubernetes::PodDto pod = incPod(ns, name + "-pod", name);
        pod.nodeName = "node-" + std::to_string(i % 4);
        cache.putPod(pod);
        if (pods) {
            pods->emplace(pod.key(), pod);
        }
    }
    kubernetes::PodDto bare = incPod("runai-team-a", "bare", "");
    cache.putPod(bare);
    if (pods) {
        pods->emplace(bare.key(), bare);
    }
    return cache;
}

template <class T>
void expectSameList(const std::shared_ptr<const core::KeyedList<T>> &incremental,
                    const std::shared_ptr<const core::KeyedList<T>> &full,
                    const char *what,
                    int step)
{
    ASSERT_TRUE(incremental) << what << " at step " << step;
    ASSERT_TRUE(full) << what << " at step " << step;
    ASSERT_EQ(incremental->size(), full->size()) << what << " at step " << step;
    for (std::size_t i = 0; i < full->size(); ++i) {
        EXPECT_TRUE(*incremental->items()[i] == *full->items()[i])
            << what << " #" << i << " (" << qPrintable(core::estateKey(*full->items()[i])) << ") at step " << step;
    }
}

std::set<QString> incKeys(const std::vector<core::Ptr<core::Job>> &jobs)
{
    std::set<QString> out;
    for (const auto &job : jobs) {
        out.insert(core::estateKey(*job));
    }
    return out;
}

} // namespace

TEST(KubeComputeIncremental, AStatusOnlyPodUpdateRebuildsOneJobAndPublishesNothing)
{
    IncPods pods;
    core::kube::ClusterCache cache = incCluster(200, &pods);
    core::kube::ComputeBuilder builder(kIncSource);
    core::Estate estate;
    estate.publishCompute(kIncSource, builder.update(cache, cache.changes, {}, true));
    cache.changes.clear();
    ASSERT_EQ(estate.jobs().all().size(), 201u);

    int signals = 0;
    QObject::connect(&estate, &core::Estate::jobsChanged, [&signals] {
        ++signals;
    });
    QObject::connect(&estate, &core::Estate::computeChanged, [&signals] {
        ++signals;
    });
    // A kubelet heartbeat: a condition's probe time and an annotation move, nothing a job shows.
    kubernetes::PodDto &pod = pods.at("runai-team-b/job-7-pod");
    pod.annotations["strata.io/churn"] = "1";
    pod.conditions.push_back(kubernetes::Condition{});
    pod.resourceVersion = "9999";
    EXPECT_FALSE(cache.putPod(pod)); // the cache keeps nothing that moved
    cache.changes.pods.insert(pod.key());
    const core::ComputePublish publish = builder.update(cache, cache.changes, {}, false);

    EXPECT_EQ(builder.lastRebuilt(), 1u); // the pod's job, not the cluster's 201
    EXPECT_FALSE(publish.jobs);
    EXPECT_FALSE(publish.nodes);
    EXPECT_FALSE(publish.projects);
    EXPECT_FALSE(publish.clusters);
    EXPECT_FALSE(publish.pvcs);
    estate.publishCompute(kIncSource, publish);
    EXPECT_EQ(signals, 0);
}

TEST(KubeComputeIncremental, APodMovedToAnotherJobUpdatesBothJobs)
{
    IncPods pods;
    core::kube::ClusterCache cache = incCluster(4, &pods);
    const kubernetes::JobDto waiting = incJob("runai-team-a", "waiting"); // no pod yet: Pending
    cache.jobs.emplace(waiting.key(), waiting);
    core::kube::ComputeBuilder builder(kIncSource);
    core::Estate estate;
    estate.publishCompute(kIncSource, builder.update(cache, cache.changes, {}, true));
    cache.changes.clear();
    ASSERT_EQ(estate.jobs().find(kIncSource, QStringLiteral("k8s/runai-team-a/waiting"))->status,
              core::JobStatus::Pending);

    std::vector<core::JobDiff> diffs;
    QObject::connect(&estate, &core::Estate::jobsChanged, [&diffs](const core::JobDiff &d) {
        diffs.push_back(d);
    });
    kubernetes::PodDto &pod = pods.at("runai-team-a/job-0-pod");
    pod.jobName = "waiting";
    EXPECT_TRUE(cache.putPod(pod));
    cache.changes.pods.insert(pod.key());
    const core::ComputePublish publish = builder.update(cache, cache.changes, {}, false);
    ASSERT_TRUE(publish.jobsDiff);
    estate.publishCompute(kIncSource, publish);

    ASSERT_EQ(diffs.size(), 1u);
    EXPECT_TRUE(diffs[0].added.empty());
    EXPECT_TRUE(diffs[0].removed.isEmpty());
    EXPECT_EQ(
        incKeys(diffs[0].changed),
        (std::set<QString>{QStringLiteral("k8s/runai-team-a/job-0"), QStringLiteral("k8s/runai-team-a/waiting")}));
    EXPECT_EQ(estate.jobs().find(kIncSource, QStringLiteral("k8s/runai-team-a/waiting"))->status,
              core::JobStatus::Running);
    EXPECT_EQ(estate.jobs().find(kIncSource, QStringLiteral("k8s/runai-team-a/job-0"))->status,
              core::JobStatus::Pending);
    // The project still holds one GPU for the job that now has the pod: as a full build says.
    const core::ComputePublish full = core::kube::build(kIncSource, cache, {}, QDateTime());
    expectSameList(builder.current().projects, full.projects, "projects", 0);
    expectSameList(builder.current().nodes, full.nodes, "nodes", 0);
}

TEST(KubeComputeIncremental, ADeletedPodRemovesItsJobRecord)
{
    core::kube::ClusterCache cache = incCluster(3);
    core::kube::ComputeBuilder builder(kIncSource);
    core::Estate estate;
    estate.publishCompute(kIncSource, builder.update(cache, cache.changes, {}, true));
    cache.changes.clear();
    ASSERT_TRUE(estate.jobs().find(kIncSource, QStringLiteral("k8s/runai-team-a/bare")));

    std::vector<core::JobDiff> diffs;
    QObject::connect(&estate, &core::Estate::jobsChanged, [&diffs](const core::JobDiff &d) {
        diffs.push_back(d);
    });
    cache.pods.erase("runai-team-a/bare");
    cache.changes.pods.insert("runai-team-a/bare");
    estate.publishCompute(kIncSource, builder.update(cache, cache.changes, {}, false));

    ASSERT_EQ(diffs.size(), 1u);
    EXPECT_EQ(diffs[0].removed, QStringList{QStringLiteral("k8s/runai-team-a/bare")});
    EXPECT_TRUE(diffs[0].added.empty());
    EXPECT_TRUE(diffs[0].changed.empty());
    EXPECT_FALSE(estate.jobs().find(kIncSource, QStringLiteral("k8s/runai-team-a/bare")));
    EXPECT_EQ(estate.jobs().all().size(), 3u);
    EXPECT_EQ(estate.gpuClusters().all().front()->gpuAllocated, 3000);
}

// The builder lists only the groups pods name explicitly: a job's own group ("pg-<name>") is
// found from the group's key, for a Job and for a bare pod alike.
TEST(KubeComputeIncremental, AJobsOwnPodGroupRebuildsItWithoutAJoin)
{
    core::kube::ClusterCache cache = incCluster(3);
    core::kube::ComputeBuilder builder(kIncSource);
    builder.update(cache, cache.changes, {}, true);
    cache.changes.clear();
    for (const std::string name : {"pg-bare", "pg-job-0"}) {
        kubernetes::PodGroupDto group;
        group.namespace_ = "runai-team-a";
        group.name = name;
        group.preemptibility = "non-preemptible";
        cache.podGroups.emplace(group.key(), group);
        cache.changes.podGroups.insert(group.key());
    }
    const core::ComputePublish publish = builder.update(cache, cache.changes, {}, false);

    EXPECT_EQ(builder.lastRebuilt(), 2u);
    ASSERT_TRUE(publish.jobsDiff);
    EXPECT_EQ(incKeys(publish.jobsDiff->changed),
              (std::set<QString>{QStringLiteral("k8s/runai-team-a/bare"), QStringLiteral("k8s/runai-team-a/job-0")}));
    for (const auto &job : publish.jobsDiff->changed) {
        EXPECT_EQ(job->type, core::JobType::Interactive) << qPrintable(job->id);
    }
    const core::ComputePublish full = core::kube::build(kIncSource, cache, {}, QDateTime());
    expectSameList(builder.current().jobs, full.jobs, "jobs", 0);
}

TEST(KubeComputeIncremental, RandomWatchEventsKeepEveryRecordEqualToAFullRebuild)
{
    IncPods pods;
    core::kube::ClusterCache cache = incCluster(30, &pods);
    for (const std::string name : {"data-a", "data-b"}) {
        kubernetes::PvcDto pvc;
        pvc.namespace_ = "runai-team-a";
        pvc.name = name;
        pvc.phase = "Bound";
        cache.pvcs.emplace(pvc.key(), pvc);
    }
    core::kube::ComputeBuilder builder(kIncSource);
    core::Estate incrementalEstate;
    core::Estate fullEstate;
    incrementalEstate.publishCompute(kIncSource, builder.update(cache, cache.changes, {}, true));
    fullEstate.publishCompute(kIncSource, core::kube::build(kIncSource, cache, {}, QDateTime()));
    cache.changes.clear();

    core::JobDiff incrementalDiff;
    core::JobDiff fullDiff;
    QObject::connect(&incrementalEstate, &core::Estate::jobsChanged, [&incrementalDiff](const core::JobDiff &d) {
        incrementalDiff = d;
    });
    QObject::connect(&fullEstate, &core::Estate::jobsChanged, [&fullDiff](const core::JobDiff &d) {
        fullDiff = d;
    });

    std::mt19937 rng(18);
    auto pick = [&rng](int n) {
        return std::uniform_int_distribution<int>(0, n - 1)(rng);
    };
    const std::vector<std::string> times{
        "2026-03-02T11:00:00Z", "2026-03-02T11:05:00Z", "2026-03-02T11:05:00Z", "bad", ""};
    auto anyPodKey = [&]() -> std::string {
        if (cache.pods.empty()) {
            return {};
        }
        auto it = cache.pods.begin();
        std::advance(it, pick(static_cast<int>(cache.pods.size())));
        return it->first;
    };
    int nextName = 0;
    for (int step = 1; step <= 300; ++step) {
        const int events = 1 + pick(4);
        for (int e = 0; e < events; ++e) {
            const std::string ns = "runai-team-" + std::string(1, char('a' + pick(3)));
            switch (pick(12)) {
            case 0: { // heartbeat: nothing a record shows
                const std::string key = anyPodKey();
                if (!key.empty()) {
                    pods.at(key).annotations["strata.io/churn"] = std::to_string(step);
                    cache.putPod(pods.at(key));
                    cache.changes.pods.insert(key);
                }
                break;
            }
            case 1: { // phase, binding and placement
                const std::string key = anyPodKey();
                if (!key.empty()) {
                    kubernetes::PodDto &pod = pods.at(key);
                    static const char *const phases[] = {"Pending", "Running", "Succeeded", "Failed"};
                    pod.phase = phases[pick(4)];
                    pod.nodeName = pick(4) == 0 ? std::string() : "node-" + std::to_string(pick(5));
                    pod.gpuIndices = pick(2) ? std::vector<int>{} : std::vector<int>{pick(8)};
                    pod.gpuLimitMilli = pick(3) == 0 ? 500 : 1000 * (1 + pick(2));
                    pod.creationTimestamp = times[static_cast<std::size_t>(pick(5))];
                    pod.pvcClaims = pick(3) == 0 ? std::vector<std::string>{"data-a"} : std::vector<std::string>{};
                    pod.pvcSubPaths.assign(pod.pvcClaims.size(), std::string());
                    cache.putPod(pod);
                    cache.changes.pods.insert(key);
                }
                break;
            }
            case 2: { // a pod moves to another Job, or becomes bare, or queued in the default queue
                const std::string key = anyPodKey();
                if (!key.empty()) {
                    kubernetes::PodDto &pod = pods.at(key);
                    const int choice = pick(4);
                    pod.jobName = choice == 0 ? std::string() : "job-" + std::to_string(pick(34));
                    pod.queue = choice == 1 ? "default-queue" : std::string();
                    cache.putPod(pod);
                    cache.changes.pods.insert(key);
                }
                break;
            }
            case 3: { // a pod goes
                const std::string key = anyPodKey();
                if (!key.empty()) {
                    cache.pods.erase(key);
                    pods.erase(key);
                    cache.changes.pods.insert(key);
                }
                break;
            }
            case 4: { // a pod comes
                kubernetes::PodDto pod =
                    incPod(ns, "p" + std::to_string(nextName++), pick(3) ? "job-" + std::to_string(pick(34)) : "");
                pod.nodeName = "node-" + std::to_string(pick(5));
                pod.creationTimestamp = times[static_cast<std::size_t>(pick(5))];
                if (const int group = pick(3); group < 2) { // else its own group, unnamed
                    pod.annotations["pod-group-name"] = group == 0 ? "pg-shared" : "pg-" + pod.name;
                }
                cache.changes.pods.insert(pod.key());
                cache.putPod(pod);
                pods[pod.key()] = pod;
                break;
            }
            case 5: { // a Job completes, fails, changes queue, or goes
                if (cache.jobs.empty()) {
                    break;
                }
                auto it = cache.jobs.begin();
                std::advance(it, pick(static_cast<int>(cache.jobs.size())));
                const std::string key = it->first;
                const int choice = pick(5);
                if (choice == 0) {
                    cache.jobs.erase(it);
                } else if (choice == 1) {
                    it->second.complete = !it->second.complete;
                } else if (choice == 2) {
                    it->second.failedCondition = !it->second.failedCondition;
                } else if (choice == 3) {
                    it->second.queue = pick(2) ? "default-queue" : "team-" + std::string(1, char('a' + pick(3)));
                } else {
                    it->second.pvcClaims = {pick(2) ? "data-b" : "missing"};
                    it->second.pvcSubPaths = {""};
                }
                cache.changes.jobs.insert(key);
                break;
            }
            case 6: { // a Job comes (maybe with pods already waiting for it)
                const kubernetes::JobDto job = incJob(ns, "job-" + std::to_string(30 + pick(4)));
                cache.changes.jobs.insert(job.key());
                cache.jobs[job.key()] = job;
                break;
            }
            case 7: { // the scheduler's view of a job
                kubernetes::PodGroupDto group;
                group.namespace_ = ns;
                // A group pods name (pg-shared), a Job's own, a bare pod's own (not listed by the
                // builder: found from the group's name).
                const int which = pick(4);
                group.name = which == 0   ? "pg-shared"
                             : which == 1 ? "pg-job-" + std::to_string(pick(34))
                             : which == 2 ? "pg-p" + std::to_string(pick(std::max(1, nextName)))
                                          : std::string("pg-bare");
                for (const auto &[podKey, pod] : pods) { // a bare pod's group: in its namespace
                    if (which >= 2 && "pg-" + pod.name == group.name) {
                        group.namespace_ = pod.namespace_;
                    }
                }
                group.evicted = pick(2) == 0;
                group.evictedMessage = group.evicted ? "reclaimed by team-b" : "";
                group.pendingMessage = pick(3) == 0 ? "not enough GPUs" : "";
                group.preemptibility = pick(2) ? "preemptible" : "non-preemptible";
                cache.changes.podGroups.insert(group.key());
                if (pick(4) == 0) {
                    cache.podGroups.erase(group.key());
                } else {
                    cache.podGroups[group.key()] = group;
                }
                break;
            }
            case 8: { // a node turns unready, cordoned, goes or comes
                const std::string name = "node-" + std::to_string(pick(5));
                const int choice = pick(4);
                if (choice == 0) {
                    cache.nodes.erase(name);
                } else {
                    kubernetes::NodeDto node = cache.nodes.count(name) ? cache.nodes.at(name) : incNode(name);
                    node.ready = choice != 1;
                    node.unschedulable = choice == 2;
                    cache.nodes[name] = node;
                }
                cache.changes.nodes.insert(name);
                break;
            }
            case 9: { // a claim binds, unbinds or goes
                kubernetes::PvcDto pvc;
                pvc.namespace_ = "runai-team-a";
                pvc.name = pick(2) ? "data-a" : "data-b";
                pvc.phase = pick(2) ? "Bound" : "Pending";
                if (pick(4) == 0) {
                    cache.pvcs.erase(pvc.key());
                } else {
                    cache.pvcs[pvc.key()] = pvc;
                }
                cache.changes.pvcs.insert(pvc.key());
                break;
            }
            case 10: { // a quota edit: every project may move
                kubernetes::QueueDto &queue = cache.queues.at("team-" + std::string(1, char('a' + pick(3))));
                queue.gpuQuotaMilli = 1000 * pick(12);
                cache.changes.all = true;
                break;
            }
            default: { // DCGM readings: every job's utilization
                cache.gpuMetrics.clear();
                for (int n = 0; n < 4; ++n) {
                    for (int g = 0; g < 8; g += 1 + pick(3)) {
                        prometheus::GpuMetrics m;
                        m.node = "node-" + std::to_string(n);
                        m.gpu = g;
                        m.utilPct = pick(100);
                        cache.gpuMetrics.push_back(m);
                    }
                }
                cache.metricsAvailable = true;
                cache.changes.all = true;
                break;
            }
            }
        }
        const core::ComputePublish incremental = builder.update(cache, cache.changes, {}, false);
        cache.changes.clear();
        const core::ComputePublish full = core::kube::build(kIncSource, cache, {}, QDateTime());
        expectSameList(builder.current().jobs, full.jobs, "jobs", step);
        expectSameList(builder.current().nodes, full.nodes, "nodes", step);
        expectSameList(builder.current().projects, full.projects, "projects", step);
        expectSameList(builder.current().clusters, full.clusters, "clusters", step);
        expectSameList(builder.current().pvcs, full.pvcs, "pvcs", step);

        // The diff handed to the estate is the one a full comparison finds.
        incrementalDiff = {};
        fullDiff = {};
        incrementalEstate.publishCompute(kIncSource, incremental);
        fullEstate.publishCompute(kIncSource, full);
        EXPECT_EQ(incKeys(incrementalDiff.added), incKeys(fullDiff.added)) << "step " << step;
        EXPECT_EQ(incKeys(incrementalDiff.changed), incKeys(fullDiff.changed)) << "step " << step;
        EXPECT_EQ(std::set<QString>(incrementalDiff.removed.begin(), incrementalDiff.removed.end()),
                  std::set<QString>(fullDiff.removed.begin(), fullDiff.removed.end()))
            << "step " << step;
        if (::testing::Test::HasFailure()) {
            break;
        }
    }
    const auto incrementalJobs = incrementalEstate.jobs().all();
    const auto fullJobs = fullEstate.jobs().all();
    ASSERT_EQ(incrementalJobs.size(), fullJobs.size());
    for (std::size_t i = 0; i < fullJobs.size(); ++i) {
        EXPECT_TRUE(*incrementalJobs[i] == *fullJobs[i]);
    }
}

TEST(KubeComputeIncremental, TheEstateTakesAnIncrementalJobDiffOnlyAgainstItsCurrentList)
{
    IncPods pods;
    core::kube::ClusterCache cache = incCluster(5, &pods);
    core::kube::ComputeBuilder builder(kIncSource);
    core::Estate estate;
    estate.publishCompute(kIncSource, builder.update(cache, cache.changes, {}, true));
    cache.changes.clear();

    std::vector<core::JobDiff> diffs;
    QObject::connect(&estate, &core::Estate::jobsChanged, [&diffs](const core::JobDiff &d) {
        diffs.push_back(d);
    });
    pods.at("runai-team-b/job-1-pod").phase = "Failed";
    cache.putPod(pods.at("runai-team-b/job-1-pod"));
    cache.changes.pods.insert("runai-team-b/job-1-pod");
    core::ComputePublish publish = builder.update(cache, cache.changes, {}, false);
    cache.changes.clear();
    ASSERT_TRUE(publish.jobsDiff);
    ASSERT_EQ(publish.jobsDiff->changed.size(), 1u);
    const core::Ptr<core::Job> failed = publish.jobsDiff->changed.front();

    // Another writer replaced the source's jobs meanwhile: the given diff no longer applies
    // and the estate compares the lists itself.
    estate.removeSource(kIncSource);
    diffs.clear();
    estate.publishCompute(kIncSource, publish);
    ASSERT_EQ(diffs.size(), 1u);
    EXPECT_EQ(diffs[0].added.size(), 6u);
    EXPECT_TRUE(diffs[0].changed.empty());
    EXPECT_EQ(estate.jobs().find(kIncSource, core::estateKey(*failed)), failed);
}

// The cache keeps a CachedPod, not the PodDto: every field a job record reads must move it (or
// a change would be lost), and nothing else may (or every heartbeat would rebuild a job).
TEST(KubeCachedPod, EveryFieldAJobReadsMovesTheRecordAndNothingElseDoes)
{
    kubernetes::PodDto base = incPod("runai-team-a", "p", "");
    base.images = {"nvcr.io/nvidia/pytorch:24.05-py3", "sidecar:1"};
    base.command = {"python"};
    base.args = {"train.py"};
    base.annotations["pod-group-name"] = "pg-p";
    using Edit = std::function<void(kubernetes::PodDto &)>;
    const std::vector<std::pair<const char *, Edit>> read{
        {"phase",
         [](auto &p) {
             p.phase = "Pending";
         }},
        {"nodeName",
         [](auto &p) {
             p.nodeName = "node-9";
         }},
        {"jobName",
         [](auto &p) {
             p.jobName = "job-1";
         }},
        {"queue",
         [](auto &p) {
             p.queue = "team-b";
         }},
        {"user",
         [](auto &p) {
             p.user = "alice";
         }},
        {"createdBy",
         [](auto &p) {
             p.createdBy = "cli";
         }},
        {"priorityClassName",
         [](auto &p) {
             p.priorityClassName = "build";
         }},
        {"gpuLimitMilli",
         [](auto &p) {
             p.gpuLimitMilli = 500;
         }},
        {"gpuIndices",
         [](auto &p) {
             p.gpuIndices = {3};
         }},
        {"first image",
         [](auto &p) {
             p.images[0] = "other:1";
         }},
        {"command",
         [](auto &p) {
             p.command = {"bash"};
         }},
        {"args",
         [](auto &p) {
             p.args = {"eval.py"};
         }},
        {"pvcClaims",
         [](auto &p) {
             p.pvcClaims = {"data"}, p.pvcSubPaths = {""};
         }},
        {"creationTimestamp",
         [](auto &p) {
             p.creationTimestamp = "2026-03-02T11:30:00Z";
         }},
        {"startTime",
         [](auto &p) {
             p.startTime = "2026-03-02T11:30:00Z";
         }},
        {"deletionTimestamp",
         [](auto &p) {
             p.deletionTimestamp = "2026-03-02T12:00:00Z";
         }},
        {"waitingReason",
         [](auto &p) {
             p.waitingReason = "ImagePullBackOff";
         }},
        {"waitingMessage",
         [](auto &p) {
             p.waitingMessage = "Back-off";
         }},
        {"terminatedReason",
         [](auto &p) {
             p.terminatedReason = "OOMKilled";
         }},
        {"lastTerminatedReason",
         [](auto &p) {
             p.lastTerminatedReason = "OOMKilled";
         }},
        {"lastExitCode",
         [](auto &p) {
             p.lastExitCode = 137;
         }},
        {"PodScheduled False",
         [](auto &p) {
             p.scheduledCondition.status = "False", p.scheduledCondition.reason = "Unschedulable";
         }},
        {"pod-group-name",
         [](auto &p) {
             p.annotations["pod-group-name"] = "pg-shared";
         }},
        {"pod-group-name gone",
         [](auto &p) {
             p.annotations.erase("pod-group-name");
         }},
    };
    const std::vector<std::pair<const char *, Edit>> unread{
        {"resourceVersion",
         [](auto &p) {
             p.resourceVersion = "42";
         }},
        {"uid",
         [](auto &p) {
             p.uid = "0b5a";
         }},
        {"labels",
         [](auto &p) {
             p.labels["app"] = "x";
         }},
        {"other annotation",
         [](auto &p) {
             p.annotations["strata.io/churn"] = "1";
         }},
        {"conditions",
         [](auto &p) {
             p.conditions.push_back(kubernetes::Condition{"Ready", "True", "", "", "t"});
         }},
        {"PodScheduled True",
         [](auto &p) {
             p.scheduledCondition.status = "True";
         }},
        {"schedulerName",
         [](auto &p) {
             p.schedulerName = "kai-scheduler";
         }},
        {"second image",
         [](auto &p) {
             p.images[1] = "sidecar:2";
         }},
        // The job shows command then args as one list.
        {"command/args split",
         [](auto &p) {
             p.command = {"python", "train.py"}, p.args = {};
         }},
        {"disruption",
         [](auto &p) {
             p.disruptionTarget = true, p.disruptionReason = "PreemptionByScheduler";
         }},
    };
    for (const auto &[what, edit] : read) {
        core::kube::ClusterCache cache;
        ASSERT_TRUE(cache.putPod(base));
        kubernetes::PodDto pod = base;
        edit(pod);
        EXPECT_TRUE(cache.putPod(pod)) << what;
        EXPECT_FALSE(cache.putPod(pod)) << what;
    }
    for (const auto &[what, edit] : unread) {
        core::kube::ClusterCache cache;
        ASSERT_TRUE(cache.putPod(base));
        kubernetes::PodDto pod = base;
        edit(pod);
        EXPECT_FALSE(cache.putPod(pod)) << what;
    }
    // Shared texts are one QString: the job records built from them copy no text.
    core::kube::ClusterCache cache;
    kubernetes::PodDto other = base;
    other.name = "q";
    cache.putPod(base);
    cache.putPod(other);
    const core::kube::CachedPod &p = cache.pods.at("runai-team-a/p");
    const core::kube::CachedPod &q = cache.pods.at("runai-team-a/q");
    EXPECT_TRUE(p.namespaceName.isSharedWith(q.namespaceName));
    EXPECT_TRUE(p.nodeName.isSharedWith(q.nodeName));
    EXPECT_TRUE(p.image.isSharedWith(q.image));
    EXPECT_EQ(p.command, (QStringList{QStringLiteral("python"), QStringLiteral("train.py")}));
}

TEST(KubeCachedPod, TheStringPoolStopsSharingAtItsBound)
{
    core::kube::StringPool pool;
    for (std::size_t i = 0; i < core::kube::StringPool::kMaxEntries + 10; ++i) {
        const std::string text = "user-" + std::to_string(i);
        ASSERT_EQ(pool.intern(text), QString::fromStdString(text));
    }
    EXPECT_EQ(pool.size(), core::kube::StringPool::kMaxEntries);
    EXPECT_TRUE(pool.intern("user-1").isSharedWith(pool.intern("user-1")));
    const std::string past = "user-" + std::to_string(core::kube::StringPool::kMaxEntries + 5);
    EXPECT_EQ(pool.intern(past), QString::fromStdString(past));
    EXPECT_FALSE(pool.intern(past).isSharedWith(pool.intern(past)));
    EXPECT_TRUE(pool.intern("").isNull());
}
