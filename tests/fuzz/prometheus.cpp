// Prometheus HTTP API v1 bodies: query and query_range results (vector, matrix, scalar,
// string), error envelopes and buildinfo, through parseQueryResponse and PrometheusClient
// (see fuzztransport.h for the input format).
#include "connectors/prometheus/client.h"
#include "tests/fuzz/fuzztransport.h"

#include <cstddef>
#include <cstdint>

using namespace strata;

namespace {

template <class Call> void withPromClient(std::string_view data, Call call)
{
    fuzz::ScriptedTransport transport(data);
    prometheus::PrometheusOptions options;
    options.http.baseUrl = "http://prometheus.example:9090";
    options.http.retry.maxAttempts = 2;
    options.http.sleeper = fuzz::fuzzNoSleep;
    prometheus::PrometheusClient client(transport, options);
    (void)call(client);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view input = fuzz::fuzzBytes(data, size);
    const std::string body(input);
    (void)prometheus::parseQueryResponse(body);
    (void)prometheus::parseQueryResponse(body, 422);
    (void)prometheus::prometheusError(http::HttpResponse::withStatus(400, body));
    using C = prometheus::PrometheusClient;
    withPromClient(input, [](C &c) {
        return c.instantQuery("up", 1700000000.0);
    });
    withPromClient(input, [](C &c) {
        return c.rangeQuery("up", 1700000000.0, 1700003600.0, 60.0);
    });
    withPromClient(input, [](C &c) {
        return c.buildInfo();
    });
    return 0;
}
