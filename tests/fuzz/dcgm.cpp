// dcgm-exporter metrics as Prometheus returns them, through the DCGM readers: the per-GPU join
// of the instant query, the client-side aggregation of utilisation history, and the
// per-project usage (see fuzztransport.h for the input format).
#include "connectors/prometheus/dcgm.h"

#include "tests/fuzz/fuzztransport.h"

#include <cstddef>
#include <cstdint>

using namespace strata;

namespace {

template <class Call> void withDcgmClient(std::string_view data, Call call)
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
    withDcgmClient(input, [](prometheus::PrometheusClient &c) {
        auto gpus = prometheus::queryGpuMetrics(c, {}, 1700000000.0);
        if (gpus) {
            (void)prometheus::usageByProject(*gpus, [](const std::string &ns, const std::string &) {
                return prometheus::runaiProjectOfNamespace(ns);
            });
        }
        return gpus;
    });
    withDcgmClient(input, [](prometheus::PrometheusClient &c) {
        return prometheus::utilizationHistory(c, {"namespace", "Hostname"}, 1700000000.0, 1700003600.0, 300.0);
    });
    withDcgmClient(input, [](prometheus::PrometheusClient &c) {
        auto result = c.rangeQuery("DCGM_FI_DEV_GPU_UTIL", 1700000000.0, 1700003600.0, 300.0);
        if (result) {
            (void)prometheus::aggregateSeries(result->series, {"pod"}, prometheus::Aggregation::Max);
            (void)prometheus::aggregateSeries(result->series, {}, prometheus::Aggregation::Count);
        }
        return result;
    });
    return 0;
}
