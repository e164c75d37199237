// ONTAP REST bodies through OntapClient: collections (records, _links.next), single objects,
// EMS events, jobs and their polling, mutation answers, and error bodies (see fuzztransport.h
// for the input format). The whole input is also one volume page for the streaming decoder,
// checked against the DOM decoder.
#include "connectors/http/jsonparse.h"
#include "connectors/ontap/ontapclient.h"
#include "connectors/ontap/volumestream.h"
#include "tests/fuzz/fuzztransport.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>

using namespace strata;

namespace {

template <class Call> void withOntapClient(std::string_view data, Call call)
{
    fuzz::ScriptedTransport transport(data);
    ontap::OntapClientOptions options;
    options.http.baseUrl = "https://cluster.example";
    options.http.retry.maxAttempts = 2;
    options.http.sleeper = fuzz::fuzzNoSleep;
    options.jobPollInterval = std::chrono::milliseconds(1);
    options.jobTimeout = std::chrono::milliseconds(4);
    ontap::OntapClient client(transport, options);
    (void)call(client);
}

// The streaming volume decoder may give a page up, never accept one the DOM route rejects or
// decodes differently: anything it takes must come out of parse + from_json the same.
void checkVolumeStreamAgreesWithDom(std::string_view input)
{
    std::string body(input);
    ontap::VolumePageDecoder decoder;
    std::vector<ontap::Volume> streamed;
    std::string next;
    if (!decoder.decode(body, streamed, next)) {
        return;
    }
    const nlohmann::json page = http::parseJsonBounded(input);
    if (page.is_discarded() || !page.is_object()) {
        __builtin_trap();
    }
    std::vector<ontap::Volume> dom;
    std::string domNext;
    try {
        if (auto records = page.find("records"); records != page.end()) {
            dom = records->get<std::vector<ontap::Volume>>();
        }
        if (auto links = page.find("_links"); links != page.end() && links->is_object()) {
            if (auto n = links->find("next"); n != links->end() && n->is_object()) {
                domNext = n->value("href", std::string());
            }
        }
    } catch (const std::exception &) {
        __builtin_trap();
    }
    if (!(dom == streamed) || domNext != next) {
        __builtin_trap();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view input = fuzz::fuzzBytes(data, size);
    checkVolumeStreamAgreesWithDom(input);
    withOntapClient(input, [](ontap::OntapClient &c) {
        return c.cluster();
    });
    withOntapClient(input, [](ontap::OntapClient &c) {
        return c.listSvms();
    });
    withOntapClient(input, [](ontap::OntapClient &c) {
        return c.listAggregates();
    });
    withOntapClient(input, [](ontap::OntapClient &c) {
        return c.listVolumes(true);
    });
    withOntapClient(input, [](ontap::OntapClient &c) {
        return c.listVolumeMetrics();
    });
    withOntapClient(input, [](ontap::OntapClient &c) {
        return c.volume("v1");
    });
    withOntapClient(input, [](ontap::OntapClient &c) {
        return c.findVolumesByName("svm1", "vol1");
    });
    withOntapClient(input, [](ontap::OntapClient &c) {
        return c.listSnapshots("v1");
    });
    withOntapClient(input, [](ontap::OntapClient &c) {
        return c.listFlexCaches();
    });
    withOntapClient(input, [](ontap::OntapClient &c) {
        return c.listQosPolicies();
    });
    withOntapClient(input, [](ontap::OntapClient &c) {
        return c.listEmsEvents();
    });
    withOntapClient(input, [](ontap::OntapClient &c) {
        return c.job("j1");
    });
    withOntapClient(input, [](ontap::OntapClient &c) {
        return c.findJobs("*");
    });
    withOntapClient(input, [](ontap::OntapClient &c) {
        return c.createSnapshot("v1", "s1", "c");
    });
    withOntapClient(input, [](ontap::OntapClient &c) {
        return c.createClone("svm1", "c1", "v1", "s1");
    });
    http::HttpResponse error = http::HttpResponse::withStatus(400, std::string(input));
    (void)ontap::ontapError(error, "fuzz");
    return 0;
}
