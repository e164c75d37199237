#include "connectors/kubernetes/kubeconfig.h"

namespace strata::kubernetes {

namespace {
http::HttpError notYet(const std::string &what)
{
    return http::HttpError::make(http::HttpError::Kind::Parse, what + " is not implemented yet");
}
} // namespace

Result<ClusterEndpoint> Kubeconfig::endpoint(const std::string &) const
{
    return http::fail(notYet("Kubeconfig::endpoint"));
}

std::vector<std::string> kubeconfigPaths()
{
    return {};
}

Result<Kubeconfig> loadKubeconfig(const std::vector<std::string> &)
{
    return http::fail(notYet("loadKubeconfig"));
}

Result<Kubeconfig> parseKubeconfig(std::string_view, const std::string &, const std::string &)
{
    return http::fail(notYet("parseKubeconfig"));
}

Result<ExecCredential>
runExecPlugin(const ExecConfig &, const ClusterEndpoint &, std::chrono::milliseconds, const http::CancelToken &)
{
    return http::fail(notYet("runExecPlugin"));
}

Result<ExecCredential> parseExecCredential(std::string_view, const std::string &)
{
    return http::fail(notYet("parseExecCredential"));
}

CredentialProvider::CredentialProvider(ClusterEndpoint endpoint, Runner runner, Clock now)
    : m_endpoint(std::move(endpoint))
    , m_runner(std::move(runner))
    , m_now(std::move(now))
{}

Result<Credentials> CredentialProvider::credentials(const http::CancelToken &)
{
    return Credentials{m_endpoint.token, m_endpoint.clientCertPem, m_endpoint.clientKeyPem};
}

bool CredentialProvider::invalidate()
{
    return false;
}

int CredentialProvider::execRuns() const
{
    std::lock_guard lock(m_mutex);
    return m_runs;
}

} // namespace strata::kubernetes
