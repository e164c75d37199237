// Kubernetes watch streams: newline-delimited watch events handed over in chunks of any size
// (the first input byte picks the chunk size), through KubeClient::watchBatches' line
// splitter and event decoder (ADDED/MODIFIED/DELETED/BOOKMARK/ERROR, 410 Expired).
#include "connectors/kubernetes/client.h"
#include "tests/fuzz/fuzztransport.h"

#include <cstddef>
#include <cstdint>

using namespace strata;
namespace k8s = strata::kubernetes;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0) {
        return 0;
    }
    const std::size_t chunk = data[0] == 0 ? 0 : data[0];
    const std::string_view input = fuzz::fuzzBytes(data + 1, size - 1);
    for (const k8s::ResourceType *type : {&k8s::kPods, &k8s::kQueues}) {
        fuzz::ScriptedTransport transport(input, 2, chunk);
        k8s::ClusterEndpoint endpoint;
        endpoint.server = "https://kube.example:6443";
        endpoint.token = "token";
        k8s::KubeClientOptions options;
        options.retry.maxAttempts = 1;
        options.sleeper = fuzz::fuzzNoSleep;
        k8s::KubeClient client(transport, endpoint, options);
        k8s::WatchOptions watch;
        std::size_t skipped = 0;
        watch.onSkipped = [&skipped](const connectors::Error &) {
            ++skipped;
        };
        std::size_t events = 0;
        (void)client.watchBatches(*type,
                                  watch,
                                  [&events](std::vector<k8s::WatchEvent> &batch) {
                                      events += batch.size();
                                      return events < 10000;
                                  },
                                  {});
    }
    return 0;
}
