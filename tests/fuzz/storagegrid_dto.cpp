// StorageGRID Grid and Tenant Management API bodies through StorageGridClient: the versions
// document, authorize, the `data` envelope, limit/marker pages, health, alerts, accounts,
// usage, ILM, metric queries, and error envelopes. Calls authorize first, so a seed is
// `{"data":"token"}`, a "%%" line, then the body (see fuzztransport.h for the input format).
#include "connectors/storagegrid/storagegridclient.h"
#include "tests/fuzz/fuzztransport.h"

#include <cstddef>
#include <cstdint>
#include <memory>

using namespace strata;

namespace {

template <class Call> void withGridClient(std::string_view data, const std::string &version, Call call)
{
    auto transport = std::make_shared<fuzz::ScriptedTransport>(data);
    storagegrid::StorageGridOptions options;
    options.http.baseUrl = "https://admin.example";
    options.http.retry.maxAttempts = 2;
    options.http.sleeper = fuzz::fuzzNoSleep;
    options.username = "root";
    options.password = "secret";
    options.apiVersion = version;
    options.pageSize = 2;
    storagegrid::StorageGridClient client(transport, options);
    (void)call(client);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view input = fuzz::fuzzBytes(data, size);
    using C = storagegrid::StorageGridClient;
    withGridClient(input, "", [](C &c) {
        return c.discoverApiVersion();
    });
    withGridClient(input, "v4", [](C &c) {
        return c.productVersion();
    });
    withGridClient(input, "v4", [](C &c) {
        return c.health();
    });
    withGridClient(input, "v4", [](C &c) {
        return c.topologyGridName();
    });
    withGridClient(input, "v4", [](C &c) {
        return c.nodeHealth();
    });
    withGridClient(input, "v4", [](C &c) {
        return c.alerts();
    });
    withGridClient(input, "v4", [](C &c) {
        return c.alertHistory();
    });
    withGridClient(input, "v4", [](C &c) {
        return c.accounts();
    });
    withGridClient(input, "v4", [](C &c) {
        return c.accountsCache();
    });
    withGridClient(input, "v4", [](C &c) {
        return c.accountUsage("12345678901234567890", true);
    });
    withGridClient(input, "v4", [](C &c) {
        return c.ilmPolicies();
    });
    withGridClient(input, "v4", [](C &c) {
        return c.metricQuery("storagegrid_node_cpu_utilization_percentage");
    });
    withGridClient(input, "v4", [](C &c) {
        const auto now = std::chrono::system_clock::now();
        return c.metricQueryRange("up", now - std::chrono::hours(1), now, 60);
    });
    withGridClient(input, "v4", [](C &c) {
        return c.containers();
    });
    withGridClient(input, "v4", [](C &c) {
        return c.tenantUsage();
    });
    return 0;
}
