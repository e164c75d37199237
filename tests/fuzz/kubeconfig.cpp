// kubeconfig YAML (yaml-cpp) through parseKubeconfig and endpoint resolution (base64 CA,
// client certificate and key data), and the ExecCredential JSON a credential plugin prints.
// A kubeconfig can arrive from another system (AKS listClusterUserCredential). File references
// are cleared before endpoint() so the target never reads local files.
#include "connectors/kubernetes/kubeconfig.h"

#include "tests/fuzz/fuzztransport.h"

#include <cstddef>
#include <cstdint>

using namespace strata;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view input = fuzz::fuzzBytes(data, size);
    auto config = kubernetes::parseKubeconfig(input, "/nonexistent-fuzz-dir", "fuzz.yaml");
    if (config) {
        for (auto &[name, cluster] : config->clusters) {
            cluster.certificateAuthority.clear();
        }
        for (auto &[name, user] : config->users) {
            user.tokenFile.clear();
            user.clientCertificate.clear();
            user.clientKey.clear();
        }
        (void)config->endpoint();
        for (const std::string &context : config->contexts) {
            (void)config->endpoint(context);
        }
    }
    (void)kubernetes::parseExecCredential(input, "fuzz plugin");
    return 0;
}
