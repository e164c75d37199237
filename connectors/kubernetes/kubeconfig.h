#pragma once

#include "connectors/error.h"
#include "connectors/http/canceltoken.h"

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata::kubernetes {

template <class T> using Result = connectors::Result<T>;

/// users[].user.exec of a kubeconfig: a credential plugin (kubelogin, aws, gke-gcloud-auth-plugin)
/// that prints a client.authentication.k8s.io ExecCredential on stdout.
struct ExecConfig
{
    /// Program to run: an absolute path, a path relative to the kubeconfig's directory (when it
    /// contains a '/'), or a bare name looked up in PATH.
    std::string command;
    std::vector<std::string> args;
    /// Added to (and overriding) the inherited environment.
    std::vector<std::pair<std::string, std::string>> env;
    /// "client.authentication.k8s.io/v1" or ".../v1beta1"; empty is taken as v1beta1.
    std::string apiVersion;
    /// Shown to the user when the command cannot be started (may be empty).
    std::string installHint;
    /// provideClusterInfo: the plugin gets spec.cluster (server, CA data) in KUBERNETES_EXEC_INFO.
    bool provideClusterInfo = false;
};

/// One resolved context: everything a client needs to reach and authenticate to its cluster.
/// Files named by the kubeconfig (CA, client cert/key, token file) are already read.
struct ClusterEndpoint
{
    std::string contextName, clusterName, userName;
    /// "https://host:6443", possibly with a path prefix (proxies); no trailing slash.
    std::string server;
    /// The context's namespace; empty when the kubeconfig sets none ("default" is implied).
    std::string defaultNamespace;
    /// certificate-authority-data decoded, or the certificate-authority file's contents; empty =
    /// the system store.
    std::string caPem;
    bool insecureSkipTlsVerify = false;
    /// tls-server-name (hostname verified instead of the server URL's); empty when unset.
    /// Informational: the transport verifies against the URL's host.
    std::string tlsServerName;
    /// token, or the tokenFile's contents (trailing whitespace removed).
    std::string token;
    /// client-certificate(-data) and client-key(-data), PEM text.
    std::string clientCertPem, clientKeyPem;
    std::optional<ExecConfig> exec;
    /// Directory of the kubeconfig file that defined the user (resolves exec.command).
    std::string baseDir;
};

/// Raw entries of a (merged) kubeconfig, paths already made absolute against their file's directory.
struct KubeconfigCluster
{
    std::string server;
    std::string certificateAuthority;     ///< file path
    std::string certificateAuthorityData; ///< base64 as in the file
    bool insecureSkipTlsVerify = false;
    std::string tlsServerName;
    std::string sourceFile;
};

struct KubeconfigUser
{
    std::string token;
    std::string tokenFile;
    std::string clientCertificate, clientCertificateData; ///< path / base64
    std::string clientKey, clientKeyData;                 ///< path / base64
    std::optional<ExecConfig> exec;
    /// An auth-provider entry (legacy gcp/azure/oidc plugins) that Strata does not support.
    std::string authProvider;
    std::string sourceFile;
};

struct KubeconfigContext
{
    std::string cluster, user, namespace_;
    std::string sourceFile;
};

/// A kubeconfig after kubectl's merge rules. Cheap to copy.
struct Kubeconfig
{
    /// current-context, possibly empty.
    std::string currentContext;
    /// Context names in file order (first file first).
    std::vector<std::string> contexts;
    std::map<std::string, KubeconfigContext> contextEntries;
    std::map<std::string, KubeconfigCluster> clusters;
    std::map<std::string, KubeconfigUser> users;
    /// The file(s) this came from, ':'-joined, for messages.
    std::string source;

    /// Resolves `context` (empty = currentContext) to an endpoint, reading the files it names.
    /// Errors name the file and the entry (`kubeconfig /x: context "foo" not found`): Kind::Tls
    /// for an unreadable CA, Kind::Auth for unreadable credentials or an unsupported
    /// auth-provider, Kind::Parse otherwise.
    [[nodiscard]] Result<ClusterEndpoint> endpoint(const std::string &context = {}) const;
};

/// $KUBECONFIG split on ':' (empty entries dropped) when set and non-empty, else ~/.kube/config.
std::vector<std::string> kubeconfigPaths();

/// Loads and merges `paths` like kubectl: for contexts, clusters and users the first file that
/// defines a name wins; current-context comes from the first file that sets it. Missing files
/// are skipped (as kubectl does) unless none of them exists; a file that exists but does not
/// parse is an error naming it.
Result<Kubeconfig> loadKubeconfig(const std::vector<std::string> &paths);

/// Parses one kubeconfig document. `baseDir` resolves relative file paths; `sourceName` (the
/// file path) appears in error messages (defaults to baseDir).
Result<Kubeconfig>
parseKubeconfig(std::string_view yaml, const std::string &baseDir, const std::string &sourceName = {});

/// What a credential plugin returned (status of an ExecCredential).
struct ExecCredential
{
    std::string token;
    std::string clientCertPem, clientKeyPem;
    /// status.expirationTimestamp; nullopt = valid until the server rejects it.
    std::optional<std::chrono::system_clock::time_point> expiry;
};

/// Runs `exec` (fork + exec with pipes, KUBERNETES_EXEC_INFO set, stdin closed) and parses its
/// ExecCredential. Fails with Kind::Auth naming the command: cannot start (plus installHint),
/// non-zero exit (with the last lines of stderr), no output within `timeout` (the process is
/// killed), malformed JSON, or neither token nor client certificate in status. `cluster`
/// supplies spec.cluster when provideClusterInfo is set. Kills the plugin when `cancel` fires.
Result<ExecCredential> runExecPlugin(const ExecConfig &exec,
                                     const ClusterEndpoint &cluster,
                                     std::chrono::milliseconds timeout,
                                     const http::CancelToken &cancel);

/// Parses an ExecCredential JSON document (for tests and runExecPlugin).
Result<ExecCredential> parseExecCredential(std::string_view json, const std::string &what);

/// The credentials to present on a request: a bearer token and/or a TLS client identity.
struct Credentials
{
    std::string token;
    std::string clientCertPem, clientKeyPem;
};

/// Hands out the endpoint's credentials. Static ones (token, token file, client certificate)
/// never change; an exec plugin's are cached until 30 s before expirationTimestamp (or until
/// invalidate(), which the client calls after a 401) and fetched again then. Thread-safe: one
/// plugin run at a time, concurrent callers wait for it.
class CredentialProvider
{
public:
    using Clock = std::function<std::chrono::system_clock::time_point()>;
    using Runner = std::function<Result<ExecCredential>(
        const ExecConfig &, const ClusterEndpoint &, std::chrono::milliseconds, const http::CancelToken &)>;

    /// `runner` defaults to runExecPlugin, `now` to the system clock.
    explicit CredentialProvider(ClusterEndpoint endpoint, Runner runner = {}, Clock now = {});

    Result<Credentials> credentials(const http::CancelToken &cancel);
    /// Forgets cached exec credentials. Returns true when a retry can get different ones (exec).
    bool invalidate();
    [[nodiscard]] bool usesExec() const { return m_endpoint.exec.has_value(); }
    /// Plugin runs so far (tests).
    [[nodiscard]] int execRuns() const;

    /// Plugin timeout (kubectl has none; a hung plugin would stall every refresh).
    std::chrono::milliseconds execTimeout{60'000};

private:
    ClusterEndpoint m_endpoint;
    Runner m_runner;
    Clock m_now;
    mutable std::mutex m_mutex;
    std::optional<ExecCredential> m_cached;
    int m_runs = 0;
};

} // namespace strata::kubernetes
