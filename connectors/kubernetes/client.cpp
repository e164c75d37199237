#include "connectors/kubernetes/client.h"

#include <nlohmann/json.hpp>

namespace strata::kubernetes {

namespace {
http::HttpError notYet(const std::string &what)
{
    return http::HttpError::make(http::HttpError::Kind::Http, what + " is not implemented yet");
}
} // namespace

std::string ResourceType::apiVersion() const
{
    return group.empty() ? version : group + "/" + version;
}

std::string ResourceType::displayName() const
{
    return group.empty() ? plural : plural + "." + group;
}

Discovery::Support Discovery::support(const ResourceType &) const
{
    return Support::GroupMissing;
}

std::string Discovery::explain(const ResourceType &) const
{
    return {};
}

const ApiGroupInfo *Discovery::group(const std::string &) const
{
    return nullptr;
}

KubeClient::KubeClient(http::IHttpTransport &transport,
                       ClusterEndpoint endpoint,
                       http::RetryPolicy retry,
                       http::Sleeper sleeper)
    : KubeClient(transport, std::move(endpoint), KubeClientOptions{std::move(retry), std::move(sleeper), {}})
{}

KubeClient::KubeClient(http::IHttpTransport &transport, ClusterEndpoint endpoint, KubeClientOptions options)
    : m_transport(transport)
    , m_endpoint(std::move(endpoint))
    , m_options(std::move(options))
    , m_credentials(std::make_unique<CredentialProvider>(m_endpoint, m_options.execRunner))
{}

KubeClient::~KubeClient() = default;

Result<VersionInfo> KubeClient::version(const http::CancelToken &)
{
    return http::fail(notYet("version"));
}

Result<Discovery> KubeClient::discover(const http::CancelToken &)
{
    return http::fail(notYet("discover"));
}

Result<ListPage> KubeClient::listPage(const ResourceType &, const ListOptions &, const http::CancelToken &)
{
    return http::fail(notYet("listPage"));
}

Result<ListPage> KubeClient::listAll(const ResourceType &, const ListOptions &, const http::CancelToken &)
{
    return http::fail(notYet("listAll"));
}

Result<WatchEnd> KubeClient::watch(const ResourceType &,
                                   const WatchOptions &,
                                   const std::function<bool(WatchEvent)> &,
                                   const http::CancelToken &)
{
    return http::fail(notYet("watch"));
}

Result<WatchEnd> KubeClient::watchBatches(const ResourceType &,
                                          const WatchOptions &,
                                          const WatchBatchHandler &,
                                          const http::CancelToken &)
{
    return http::fail(notYet("watch"));
}

Result<nlohmann::json>
KubeClient::get(const ResourceType &, const std::string &, const std::string &, const http::CancelToken &)
{
    return http::fail(notYet("get"));
}

Result<nlohmann::json>
KubeClient::create(const ResourceType &, const std::string &, const nlohmann::json &, const http::CancelToken &)
{
    return http::fail(notYet("create"));
}

Result<void>
KubeClient::remove(const ResourceType &, const std::string &, const std::string &, const http::CancelToken &)
{
    return http::fail(notYet("remove"));
}

Result<nlohmann::json> KubeClient::mergePatch(
    const ResourceType &, const std::string &, const std::string &, const nlohmann::json &, const http::CancelToken &)
{
    return http::fail(notYet("mergePatch"));
}

std::string KubeClient::path(const ResourceType &, const std::string &, const std::string &)
{
    return {};
}

http::TransportOptions transportOptions(const ClusterEndpoint &endpoint, http::TransportOptions base)
{
    base.caPem = endpoint.caPem;
    base.insecureSkipTlsVerify = endpoint.insecureSkipTlsVerify;
    base.clientCertPem = endpoint.clientCertPem;
    base.clientKeyPem = endpoint.clientKeyPem;
    return base;
}

http::HttpError statusError(const http::HttpResponse &response, const std::string &what)
{
    return http::HttpError::make(http::HttpError::Kind::Http, what + " failed", response.status);
}

std::string objectKey(const nlohmann::json &)
{
    return {};
}

} // namespace strata::kubernetes
