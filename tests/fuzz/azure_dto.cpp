// Azure Resource Manager bodies through AzureClient: lists (value[], nextLink), single
// resources, LRO answers and status documents, Monitor metrics, AKS credentials, ARM error
// bodies; Entra ID token answers (client credentials) and the Azure CLI's token document
// (see fuzztransport.h for the input format).
#include "connectors/azure/azureclient.h"
#include "tests/fuzz/fuzztransport.h"

#include <cstddef>
#include <cstdint>

using namespace strata;

namespace {

class FuzzTokens final : public azure::ITokenProvider
{
public:
    connectors::Result<azure::AccessToken> token(const std::string &, const http::CancelToken &, bool) override
    {
        return azure::AccessToken{"token", std::chrono::system_clock::now() + std::chrono::hours(1)};
    }
};

const std::string kFuzzAccount = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.NetApp/netAppAccounts/a";
const std::string kFuzzPool = kFuzzAccount + "/capacityPools/p";
const std::string kFuzzVolume = kFuzzPool + "/volumes/v";

template <class Call> void withAzureClient(std::string_view data, Call call)
{
    fuzz::ScriptedTransport transport(data);
    FuzzTokens tokens;
    azure::AzureClientOptions options;
    options.http.baseUrl = "https://management.example";
    options.http.retry.maxAttempts = 2;
    options.http.sleeper = fuzz::fuzzNoSleep;
    options.subscriptionId = "s";
    options.lroPollInterval = std::chrono::milliseconds(1);
    options.lroTimeout = std::chrono::milliseconds(4);
    azure::AzureClient client(transport, tokens, options);
    (void)call(client);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view input = fuzz::fuzzBytes(data, size);
    using C = azure::AzureClient;
    withAzureClient(input, [](C &c) {
        return c.listAccounts();
    });
    withAzureClient(input, [](C &c) {
        return c.listPools(kFuzzAccount);
    });
    withAzureClient(input, [](C &c) {
        return c.pool(kFuzzPool);
    });
    withAzureClient(input, [](C &c) {
        return c.listVolumes(kFuzzPool);
    });
    withAzureClient(input, [](C &c) {
        return c.volume(kFuzzVolume);
    });
    withAzureClient(input, [](C &c) {
        return c.listSnapshots(kFuzzVolume);
    });
    withAzureClient(input, [](C &c) {
        return c.createSnapshot(kFuzzVolume, "s1", "westeurope");
    });
    withAzureClient(input, [](C &c) {
        return c.deleteSnapshot(kFuzzVolume + "/snapshots/s1");
    });
    withAzureClient(input, [](C &c) {
        return c.poolChange(kFuzzVolume, kFuzzAccount + "/capacityPools/q");
    });
    withAzureClient(input, [](C &c) {
        return c.createPool(kFuzzAccount, "q", "westeurope", "Premium", 1LL << 42);
    });
    withAzureClient(input, [](C &c) {
        const auto now = std::chrono::system_clock::now();
        return c.volumeMetrics(kFuzzVolume, now - std::chrono::hours(1), now);
    });
    withAzureClient(input, [](C &c) {
        return c.listManagedClusters();
    });
    withAzureClient(input, [](C &c) {
        return c.clusterUserKubeconfig("/subscriptions/s/resourceGroups/rg/providers/"
                                       "Microsoft.ContainerService/managedClusters/k");
    });
    withAzureClient(input, [](C &c) {
        return c.subscriptions();
    });
    withAzureClient(input, [](C &c) {
        return c.subscription();
    });
    (void)azure::parseCliToken(std::string(input));
    {
        fuzz::ScriptedTransport transport(input);
        azure::ClientSecretOptions options;
        options.authorityUrl = "https://login.example";
        options.tenantId = "t";
        options.clientId = "c";
        options.clientSecret = "s";
        options.retry.maxAttempts = 2;
        options.sleeper = fuzz::fuzzNoSleep;
        azure::ClientSecretCredential credential(transport, options);
        (void)credential.token("https://management.azure.com/.default", {});
    }
    return 0;
}
