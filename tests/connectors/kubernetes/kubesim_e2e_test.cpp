// End to end: KubeClient and Reflector against the Kubernetes simulator's dgx preset over HTTPS,
// configured only through the kubeconfig the simulator hands out.
#include "connectors/kubernetes/dto.h"
#include "connectors/kubernetes/reflector.h"
#include "simulators/common/serverthread.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "tests/connectors/kubernetes/kubetestsupport.h"

#include <QJsonDocument>

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <thread>

using namespace strata;
using namespace strata::kubernetes;
using namespace strata::kubernetes::test;
using http::CancelToken;
using http::CurlTransport;
using nlohmann::json;
using sim::kube::KubeSimulator;

namespace {

class KubeEndToEnd : public ::testing::Test
{
protected:
    void SetUp() override
    {
        KubeSimulator::Options options;
        options.preset = KubeSimulator::Options::Preset::Dgx;
        options.tickInterval = std::chrono::milliseconds{0}; // time moves only when the test ticks
        options.bookmarkInterval = std::chrono::milliseconds{0};
        options.gpuMetrics = false;
        QString error;
        m_sim = KubeSimulator::startOnThread(m_thread, options, &error);
        ASSERT_NE(m_sim, nullptr) << error.toStdString();
        const std::string yaml = m_sim->kubeconfig().toStdString();
        auto config = parseKubeconfig(yaml, "/nonexistent", "simulator kubeconfig");
        ASSERT_TRUE(config) << config.error().message;
        auto endpoint = config->endpoint();
        ASSERT_TRUE(endpoint) << endpoint.error().message;
        m_endpoint = *endpoint;
        m_transport = std::make_unique<CurlTransport>(transportOptions(m_endpoint, fastTransport()));
        m_client = std::make_unique<KubeClient>(*m_transport, m_endpoint, fastRetry());
    }

    sim::ServerThread m_thread;
    KubeSimulator *m_sim = nullptr;
    ClusterEndpoint m_endpoint;
    std::unique_ptr<CurlTransport> m_transport;
    std::unique_ptr<KubeClient> m_client;
};

json toJson(const QJsonObject &object)
{
    return json::parse(QJsonDocument(object).toJson(QJsonDocument::Compact).toStdString());
}

} // namespace

TEST_F(KubeEndToEnd, DgxPreset_ListsTypedObjectsThroughKubeconfig)
{
    EXPECT_FALSE(m_endpoint.caPem.empty());
    EXPECT_FALSE(m_endpoint.token.empty());
    const auto version = m_client->version(CancelToken{});
    ASSERT_TRUE(version) << version.error().message;
    EXPECT_EQ(version->major, "1");

    const auto discovery = m_client->discover(CancelToken{}, {kQueues, kPodGroups, kVolumeSnapshots, kStorageClasses});
    ASSERT_TRUE(discovery) << discovery.error().message;
    EXPECT_TRUE(discovery->serves(kQueues)) << discovery->explain(kQueues);
    EXPECT_TRUE(discovery->serves(kPodGroups)) << discovery->explain(kPodGroups);
    EXPECT_TRUE(discovery->serves(kVolumeSnapshots)) << discovery->explain(kVolumeSnapshots);
    EXPECT_TRUE(discovery->serves(kStorageClasses)) << discovery->explain(kStorageClasses);
    // As KAI's CRDs: podgroups in v2alpha2 only, though the group prefers v2 (its queues).
    EXPECT_EQ(discovery->resolve(kPodGroups)->version, "v2alpha2");
    EXPECT_EQ(discovery->resolve(kQueues)->version, "v2");

    ListOptions paged;
    paged.limit = 1; // one node per page: exercises continue tokens
    const auto nodes = m_client->listAll(kNodes, paged, CancelToken{});
    ASSERT_TRUE(nodes) << nodes.error().message;
    std::vector<std::string> skipped;
    const auto nodeDtos = parseAll<NodeDto>(nodes->items, parseNode, &skipped);
    ASSERT_EQ(nodeDtos.size(), 2u);
    EXPECT_TRUE(skipped.empty());
    for (const auto &node : nodeDtos) {
        EXPECT_EQ(node.gpuCapacityMilli, 8000) << node.name;
        EXPECT_TRUE(node.ready) << node.name;
        EXPECT_FALSE(node.gpuProduct.empty());
    }

    const auto queues = m_client->listAll(kQueues, ListOptions{}, CancelToken{});
    ASSERT_TRUE(queues) << queues.error().message;
    const auto queueDtos = parseAll<QueueDto>(queues->items, parseQueue, &skipped);
    EXPECT_GE(queueDtos.size(), 4u);

    const auto pods = m_client->listAll(kPods, ListOptions{.limit = 5}, CancelToken{});
    ASSERT_TRUE(pods) << pods.error().message;
    const auto podDtos = parseAll<PodDto>(pods->items, parsePod, &skipped);
    EXPECT_TRUE(skipped.empty());
    int running = 0;
    for (const auto &pod : podDtos) {
        if (pod.phase == "Running" && !pod.queue.empty()) {
            ++running;
            EXPECT_GT(pod.gpuLimitMilli, 0) << pod.key();
            EXPECT_FALSE(pod.gpuIndices.empty()) << pod.key();
            EXPECT_FALSE(pod.jobName.empty()) << pod.key();
        }
    }
    EXPECT_GT(running, 0);

    const auto groups = m_client->listAll(kPodGroups, ListOptions{}, CancelToken{});
    ASSERT_TRUE(groups) << groups.error().message;
    const auto groupDtos = parseAll<PodGroupDto>(groups->items, parsePodGroup, &skipped);
    EXPECT_FALSE(groupDtos.empty());
    EXPECT_TRUE(skipped.empty());

    const auto missing = m_client->get(kPods, "runai-team-a", "no-such-pod", CancelToken{});
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().apiCode, "NotFound");
}

TEST_F(KubeEndToEnd, Reflector_FollowsNewJobPodsAndRelistsAfterExpiry)
{
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<Reflector::Batch> batches;
    std::vector<std::string> errors;
    Reflector::Options options;
    options.list.limit = 10;
    options.sleeper = [](std::chrono::milliseconds, const CancelToken &cancel) {
        // Backoffs end at once but stay cancellable.
        return !cancel.isCancelled();
    };
    Reflector reflector(
        *m_client,
        kPods,
        options,
        [&](Reflector::Batch &&batch) {
            std::lock_guard lock(mutex);
            batches.push_back(std::move(batch));
            changed.notify_all();
        },
        [&](const connectors::Error &error) {
            std::lock_guard lock(mutex);
            errors.push_back(error.message);
        });
    CancelToken cancel;
    std::thread runner([&] {
        reflector.run(cancel);
    });
    const auto waitFor = [&](const std::function<bool()> &done) {
        std::unique_lock lock(mutex);
        return changed.wait_for(lock, std::chrono::seconds{20}, done);
    };

    ASSERT_TRUE(waitFor([&] {
        return !batches.empty();
    }));
    std::size_t initialPods = 0;
    {
        std::lock_guard lock(mutex);
        ASSERT_TRUE(batches[0].replace);
        initialPods = batches[0].upserts.size();
    }
    EXPECT_GT(initialPods, 0u);

    sim::kube::KubeJobSpec spec;
    spec.namespace_ = QStringLiteral("runai-team-a");
    spec.name = QStringLiteral("e2e-job");
    spec.queue = QStringLiteral("team-a");
    spec.createdBy = QStringLiteral("strata");
    const auto created =
        m_client->create(kJobs, "runai-team-a", toJson(KubeSimulator::jobManifest(spec)), CancelToken{});
    ASSERT_TRUE(created) << created.error().message;
    m_sim->tick(2);

    const auto hasJobPod = [&] {
        for (std::size_t i = 1; i < batches.size(); ++i) {
            for (const auto &object : batches[i].upserts) {
                const auto pod = parsePod(object);
                if (pod && pod->jobName == "e2e-job") {
                    return true;
                }
            }
        }
        return false;
    };
    EXPECT_TRUE(waitFor(hasJobPod));

    std::size_t before = 0;
    {
        std::lock_guard lock(mutex);
        before = batches.size();
    }
    m_sim->expireWatches(); // ERROR 410 on the open watch: the reflector must list again
    EXPECT_TRUE(waitFor([&] {
        for (std::size_t i = before; i < batches.size(); ++i) {
            if (batches[i].replace) {
                return true;
            }
        }
        return false;
    }));
    {
        std::lock_guard lock(mutex);
        const auto relist =
            std::find_if(batches.begin() + static_cast<std::ptrdiff_t>(before), batches.end(), [](const auto &b) {
                return b.replace;
            });
        ASSERT_NE(relist, batches.end());
        EXPECT_GT(relist->upserts.size(), initialPods); // the new job's pod is in the fresh list
    }

    cancel.cancel();
    runner.join();
    EXPECT_GE(reflector.stats().lists, 2);
    std::lock_guard lock(mutex);
    EXPECT_TRUE(errors.empty()) << errors.front();
}
