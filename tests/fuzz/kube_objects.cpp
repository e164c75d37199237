// Kubernetes API objects: every DTO parser (Node, Pod, Job, Event, PVC, PV, StorageClass,
// VolumeSnapshot, KAI Queue and PodGroup, ConfigMap, ...) on the input as one object or as an
// array of objects, and KubeClient's readers of lists (items, continue tokens), single
// objects, /version, discovery documents and Status error bodies (see fuzztransport.h).
#include "connectors/kubernetes/client.h"
#include "connectors/kubernetes/dto.h"
#include "tests/fuzz/fuzztransport.h"

#include <cstddef>
#include <cstdint>

using namespace strata;
namespace k8s = strata::kubernetes;

namespace {

void parseEveryKind(const nlohmann::json &object)
{
    (void)k8s::parseMeta(object, "Fuzz");
    (void)k8s::parseNode(object);
    (void)k8s::parseNamespace(object);
    (void)k8s::parsePod(object);
    (void)k8s::parseJob(object);
    (void)k8s::parseEvent(object);
    (void)k8s::parseResourceQuota(object);
    (void)k8s::parsePvc(object);
    (void)k8s::parsePv(object);
    (void)k8s::parseStorageClass(object);
    (void)k8s::parseVolumeSnapshot(object);
    (void)k8s::parseQueue(object);
    (void)k8s::parsePodGroup(object);
    (void)k8s::parseConfigMap(object);
    (void)k8s::objectKey(object);
    (void)k8s::quantityMilliOf(object);
}

template <class Call> void withKubeClient(std::string_view data, Call call)
{
    fuzz::ScriptedTransport transport(data);
    k8s::ClusterEndpoint endpoint;
    endpoint.server = "https://kube.example:6443";
    endpoint.token = "token";
    k8s::KubeClientOptions options;
    options.retry.maxAttempts = 2;
    options.sleeper = fuzz::fuzzNoSleep;
    k8s::KubeClient client(transport, endpoint, options);
    (void)call(client);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view input = fuzz::fuzzBytes(data, size);
    const nlohmann::json parsed = nlohmann::json::parse(input, nullptr, false);
    if (!parsed.is_discarded()) {
        if (parsed.is_array()) {
            for (const nlohmann::json &item : parsed) {
                parseEveryKind(item);
            }
        } else {
            parseEveryKind(parsed);
        }
    }
    if (size < 64) {
        const std::string_view quantity = input;
        (void)k8s::parseQuantity(quantity);
        (void)k8s::quantityMilli(quantity);
        (void)k8s::quantityValue(quantity);
    }
    (void)k8s::parseApiResourceList(std::string(input), "fuzz");
    (void)k8s::statusError(http::HttpResponse::withStatus(409, std::string(input)), "fuzz");
    using C = k8s::KubeClient;
    withKubeClient(input, [](C &c) {
        return c.version({});
    });
    withKubeClient(input, [](C &c) {
        return c.discover({}, {k8s::kQueues, k8s::kPodGroups, k8s::kVolumeSnapshots});
    });
    withKubeClient(input, [](C &c) {
        return c.listAll(k8s::kPods, k8s::ListOptions{}, {});
    });
    withKubeClient(input, [](C &c) {
        return c.listAll(k8s::kQueues, k8s::ListOptions{}, {});
    });
    withKubeClient(input, [](C &c) {
        return c.get(k8s::kNodes, {}, "n1", {});
    });
    withKubeClient(input, [](C &c) {
        return c.remove(k8s::kJobs, "ns", "j1", {});
    });
    withKubeClient(input, [](C &c) {
        return c.podLog("ns", "p1", 20, {});
    });
    return 0;
}
