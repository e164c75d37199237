// The streaming Pod decoder (connectors/kubernetes/podstream.h): the input as one PodList page
// and as one watch line. Aborts when the decoder accepts what the DOM route (parseJsonBounded +
// parsePod) rejects or reads differently: it may only be stricter.
#include "connectors/http/httpresponse.h"
#include "connectors/http/jsonparse.h"
#include "connectors/kubernetes/client.h"
#include "connectors/kubernetes/podstream.h"
#include "tests/fuzz/fuzztransport.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace strata;
namespace k8s = strata::kubernetes;

namespace {

std::vector<k8s::PodDto> fuzzDomPods(const std::string &body, std::string *resourceVersion)
{
    auto page = k8s::KubeClient::listPageFrom(k8s::kPods, {}, http::HttpResponse::withStatus(200, body));
    if (!page || !page->skipped.empty()) {
        std::abort(); // the streaming decoder accepted a page the DOM route refuses
    }
    *resourceVersion = page->resourceVersion;
    std::vector<k8s::PodDto> out;
    for (const auto &item : page->items) {
        auto pod = k8s::parsePod(item);
        if (!pod) {
            std::abort();
        }
        out.push_back(std::move(*pod));
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string input(fuzz::fuzzBytes(data, size));
    k8s::PodStreamDecoder decoder;

    std::string body = input;
    std::vector<k8s::PodDto> pods;
    std::string resourceVersion, continueToken;
    if (decoder.decodeList(body, pods, resourceVersion, continueToken)) {
        std::string domVersion;
        if (body != input || fuzzDomPods(input, &domVersion) != pods || domVersion != resourceVersion) {
            std::abort();
        }
    }

    k8s::PodStreamDecoder::EventType type{};
    k8s::PodDto pod;
    if (input.find('\n') == std::string::npos && decoder.decodeEvent(input, type, pod)) {
        const auto parsed = http::parseJsonBounded(input);
        if (!parsed.is_object() || !parsed.contains("object")) {
            std::abort();
        }
        if (type != k8s::PodStreamDecoder::EventType::Bookmark) {
            const auto dom = k8s::parsePod(parsed["object"]);
            if (!dom || *dom != pod) {
                std::abort();
            }
        }
    }
    return 0;
}
