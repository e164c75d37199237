// kubeconfig parsing and merging, exec credential plugins (tests/fixtures/kubeconfig).
#include "connectors/kubernetes/kubeconfig.h"
#include "tests/connectors/kubernetes/kubetestsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sys/stat.h>

using namespace strata;
using namespace strata::kubernetes;
using namespace strata::kubernetes::test;
using http::CancelToken;
using nlohmann::json;

namespace {

const std::string kDir = std::string(STRATA_FIXTURES_DIR) + "/kubeconfig";

std::string readText(const std::string &path)
{
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// Sets an environment variable for one test and restores it afterwards.
class ScopedEnv
{
public:
    ScopedEnv(const char *name, const std::string &value)
        : m_name(name)
    {
        if (const char *old = std::getenv(name)) {
            m_old = old;
        }
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv()
    {
        if (m_old) {
            ::setenv(m_name, m_old->c_str(), 1);
        } else {
            ::unsetenv(m_name);
        }
    }
    ScopedEnv(const ScopedEnv &) = delete;
    ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
    const char *m_name;
    std::optional<std::string> m_old;
};

Kubeconfig multi()
{
    auto config = loadKubeconfig({kDir + "/multi.yaml"});
    EXPECT_TRUE(config) << (config ? "" : config.error().message);
    return config ? *config : Kubeconfig{};
}

} // namespace

TEST(KubeConfig, MultiContext_CurrentContextTokenAndCaData)
{
    const Kubeconfig config = multi();
    EXPECT_EQ(config.currentContext, "dev");
    EXPECT_EQ(config.contexts, (std::vector<std::string>{"dev", "prod", "files", "exec", "legacy", "broken"}));

    const auto dev = config.endpoint();
    ASSERT_TRUE(dev) << dev.error().message;
    EXPECT_EQ(dev->contextName, "dev");
    EXPECT_EQ(dev->server, "https://dev.example.com:6443"); // trailing slash dropped
    EXPECT_EQ(dev->defaultNamespace, "runai-team-a");
    EXPECT_EQ(dev->token, "dev-token");
    EXPECT_EQ(dev->caPem, "-----BEGIN CERTIFICATE-----\nZGV2LWNhLWRhdGE=\n-----END CERTIFICATE-----\n");
    EXPECT_FALSE(dev->insecureSkipTlsVerify);
    EXPECT_FALSE(dev->exec);
}

TEST(KubeConfig, CaFileAndClientCertificateData)
{
    const auto prod = multi().endpoint("prod");
    ASSERT_TRUE(prod) << prod.error().message;
    EXPECT_EQ(prod->caPem, readText(kDir + "/ca.pem"));
    EXPECT_EQ(prod->tlsServerName, "kubernetes.default");
    EXPECT_EQ(prod->clientCertPem,
              "-----BEGIN CERTIFICATE-----\nY2xpZW50LWNlcnQtZGF0YQ==\n-----END CERTIFICATE-----\n");
    EXPECT_EQ(prod->clientKeyPem, "-----BEGIN PRIVATE KEY-----\nY2xpZW50LWtleS1kYXRh\n-----END PRIVATE KEY-----\n");
    EXPECT_TRUE(prod->token.empty());

    const auto options = transportOptions(*prod);
    EXPECT_EQ(options.caPem, prod->caPem);
    EXPECT_EQ(options.clientCertPem, prod->clientCertPem);
    EXPECT_EQ(options.clientKeyPem, prod->clientKeyPem);
}

TEST(KubeConfig, TokenFileAndCertificateFilesRelativeToConfig)
{
    const auto files = multi().endpoint("files");
    ASSERT_TRUE(files) << files.error().message;
    EXPECT_EQ(files->token, "file-token"); // newline trimmed
    EXPECT_EQ(files->clientCertPem, readText(kDir + "/client.crt"));
    EXPECT_EQ(files->clientKeyPem, readText(kDir + "/client.key"));
}

TEST(KubeConfig, ExecEntryParsed)
{
    const auto exec = multi().endpoint("exec");
    ASSERT_TRUE(exec) << exec.error().message;
    EXPECT_TRUE(exec->insecureSkipTlsVerify);
    ASSERT_TRUE(exec->exec);
    EXPECT_EQ(exec->exec->command, "./exec-plugin.sh");
    EXPECT_EQ(exec->exec->args, (std::vector<std::string>{"get-token", "--cluster", "lab"}));
    ASSERT_EQ(exec->exec->env.size(), 1u);
    EXPECT_EQ(exec->exec->env[0], (std::pair<std::string, std::string>{"STRATA_EXEC_GREETING", "hello"}));
    EXPECT_EQ(exec->exec->apiVersion, "client.authentication.k8s.io/v1");
    EXPECT_EQ(exec->exec->installHint, "Install the test plugin.");
    EXPECT_TRUE(exec->exec->provideClusterInfo);
    EXPECT_EQ(exec->baseDir, kDir);
}

TEST(KubeConfig, Errors_NameFileAndEntry)
{
    const Kubeconfig config = multi();
    const auto missing = config.endpoint("foo");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().message, "kubeconfig " + kDir + "/multi.yaml: context \"foo\" not found");

    const auto broken = config.endpoint("broken");
    ASSERT_FALSE(broken);
    EXPECT_EQ(broken.error().message,
              "kubeconfig " + kDir
                  + "/multi.yaml: context \"broken\" refers to cluster \"nowhere\", which is not defined");

    const auto legacy = config.endpoint("legacy");
    ASSERT_FALSE(legacy);
    EXPECT_EQ(legacy.error().kind, connectors::Error::Kind::Auth);
    EXPECT_NE(legacy.error().message.find("auth-provider \"gcp\""), std::string::npos) << legacy.error().message;

    auto noCurrent = parseKubeconfig("apiVersion: v1\nkind: Config\n", "/tmp", "/tmp/empty");
    ASSERT_TRUE(noCurrent);
    EXPECT_NE(noCurrent->endpoint().error().message.find("no current-context"), std::string::npos);

    const auto bad = parseKubeconfig("clusters: [\n  - name: x\n", "/tmp", "/tmp/bad.yaml");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message.rfind("kubeconfig /tmp/bad.yaml: not valid YAML", 0), 0u) << bad.error().message;

    const auto notList = parseKubeconfig("clusters: 5\n", "/tmp", "/tmp/odd.yaml");
    ASSERT_FALSE(notList);
    EXPECT_NE(notList.error().message.find("\"clusters\" is not a list"), std::string::npos);

    const auto missingFile = parseKubeconfig(
        "current-context: c\nclusters: [{name: k, cluster: {server: https://x, certificate-authority: nope.pem}}]\n"
        "contexts: [{name: c, context: {cluster: k}}]\n",
        "/nonexistent",
        "/nonexistent/config");
    ASSERT_TRUE(missingFile);
    const auto endpoint = missingFile->endpoint();
    ASSERT_FALSE(endpoint);
    EXPECT_EQ(endpoint.error().kind, connectors::Error::Kind::Tls);
    EXPECT_NE(endpoint.error().message.find("/nonexistent/nope.pem"), std::string::npos) << endpoint.error().message;

    EXPECT_FALSE(loadKubeconfig({"/nonexistent/a", "/nonexistent/b"}));
}

TEST(KubeConfig, FilesItNamesAreReadOnlyWhenRegularAndSmall)
{
    // A kubeconfig may name any path; /dev/zero used to be read until memory ran out, and a FIFO
    // blocked the poll forever.
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const std::string big = dir.filePath(QStringLiteral("big-token")).toStdString();
    {
        std::ofstream out(big, std::ios::binary);
        out << std::string((1u << 20) + 1, 'x');
    }
    const std::string fifo = dir.filePath(QStringLiteral("fifo")).toStdString();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto configWith = [&](const std::string &caFile, const std::string &tokenFile) {
        return parseKubeconfig("current-context: c\nclusters: [{name: k, cluster: {server: https://x"
                                   + (caFile.empty() ? std::string() : ", certificate-authority: " + caFile)
                                   + "}}]\nusers: [{name: u, user: {tokenFile: " + tokenFile
                                   + "}}]\ncontexts: [{name: c, context: {cluster: k, user: u}}]\n",
                               dir.path().toStdString(),
                               dir.path().toStdString() + "/config");
    };

    const auto zero = configWith("/dev/zero", big);
    ASSERT_TRUE(zero);
    const auto zeroEndpoint = zero->endpoint();
    ASSERT_FALSE(zeroEndpoint);
    EXPECT_EQ(zeroEndpoint.error().kind, connectors::Error::Kind::Tls);
    EXPECT_NE(zeroEndpoint.error().message.find("\"/dev/zero\" cannot be read: is not a regular file"),
              std::string::npos)
        << zeroEndpoint.error().message;

    const auto large = configWith({}, big);
    ASSERT_TRUE(large);
    const auto largeEndpoint = large->endpoint();
    ASSERT_FALSE(largeEndpoint);
    EXPECT_EQ(largeEndpoint.error().kind, connectors::Error::Kind::Auth);
    EXPECT_NE(largeEndpoint.error().message.find("cannot be read: is larger than 1 MiB"), std::string::npos)
        << largeEndpoint.error().message;

    const auto pipe = configWith({}, fifo);
    ASSERT_TRUE(pipe);
    const auto pipeEndpoint = pipe->endpoint();
    ASSERT_FALSE(pipeEndpoint);
    EXPECT_NE(pipeEndpoint.error().message.find("is not a regular file"), std::string::npos)
        << pipeEndpoint.error().message;

    ScopedEnv env("KUBECONFIG", "/dev/zero");
    const auto loaded = loadKubeconfig({"/dev/zero"});
    ASSERT_FALSE(loaded);
    EXPECT_NE(loaded.error().message.find("is not a regular file"), std::string::npos) << loaded.error().message;
}

TEST(KubeConfig, KubeconfigMerge_FirstFileWinsAndCurrentContextFromFirstSetter)
{
    const ScopedEnv env("KUBECONFIG", kDir + "/merge-a.yaml::/nonexistent/skipped:" + kDir + "/merge-b.yaml");
    const auto paths = kubeconfigPaths();
    ASSERT_EQ(paths.size(), 3u);

    const auto config = loadKubeconfig(paths);

    ASSERT_TRUE(config) << config.error().message;
    EXPECT_EQ(config->currentContext, "only-b");
    EXPECT_EQ(config->contexts, (std::vector<std::string>{"shared", "only-a", "only-b"}));
    const auto shared = config->endpoint("shared");
    ASSERT_TRUE(shared) << shared.error().message;
    EXPECT_EQ(shared->server, "https://from-a.example.com");
    EXPECT_EQ(shared->token, "token-from-a");
    const auto current = config->endpoint();
    ASSERT_TRUE(current) << current.error().message;
    EXPECT_EQ(current->server, "https://b.example.com");
    EXPECT_EQ(current->token, "token-from-a"); // user "shared" comes from the first file
}

TEST(KubeConfig, DefaultPathIsHomeKubeConfig)
{
    const ScopedEnv kubeconfig("KUBECONFIG", "");
    const ScopedEnv home("HOME", "/home/someone");
    EXPECT_EQ(kubeconfigPaths(), std::vector<std::string>{"/home/someone/.kube/config"});
}

class KubeExec : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_countFile = m_dir.filePath(QStringLiteral("count")).toStdString();
        m_infoFile = m_dir.filePath(QStringLiteral("info")).toStdString();
        m_count = std::make_unique<ScopedEnv>("STRATA_EXEC_COUNT_FILE", m_countFile);
        m_info = std::make_unique<ScopedEnv>("STRATA_EXEC_INFO_FILE", m_infoFile);
        m_mode = std::make_unique<ScopedEnv>("STRATA_EXEC_MODE", "");
    }

    ClusterEndpoint execEndpoint()
    {
        auto endpoint = multi().endpoint("exec");
        EXPECT_TRUE(endpoint);
        return endpoint ? *endpoint : ClusterEndpoint{};
    }

    int runs() const
    {
        const std::string text = readText(m_countFile);
        return text.empty() ? 0 : std::stoi(text);
    }

    QTemporaryDir m_dir;
    std::string m_countFile, m_infoFile;
    std::unique_ptr<ScopedEnv> m_count, m_info, m_mode;
};

TEST_F(KubeExec, RunsPluginWithExecInfoArgsAndEnv)
{
    const ClusterEndpoint endpoint = execEndpoint();

    const auto credential = runExecPlugin(*endpoint.exec, endpoint, 10s, CancelToken{});

    ASSERT_TRUE(credential) << credential.error().message;
    EXPECT_EQ(credential->token, "exec-token-1");
    EXPECT_FALSE(credential->expiry);
    std::ifstream info(m_infoFile);
    std::string execInfo, args, greeting;
    std::getline(info, execInfo);
    std::getline(info, args);
    std::getline(info, greeting);
    const json parsed = json::parse(execInfo);
    EXPECT_EQ(parsed["apiVersion"], "client.authentication.k8s.io/v1");
    EXPECT_EQ(parsed["kind"], "ExecCredential");
    EXPECT_EQ(parsed["spec"]["interactive"], false);
    EXPECT_EQ(parsed["spec"]["cluster"]["server"], "https://10.0.0.5:6443");
    EXPECT_EQ(args, "get-token --cluster lab");
    EXPECT_EQ(greeting, "hello");
}

TEST_F(KubeExec, FailingPlugin_AuthErrorWithStderr)
{
    const ScopedEnv mode("STRATA_EXEC_MODE", "fail");
    const ClusterEndpoint endpoint = execEndpoint();

    const auto credential = runExecPlugin(*endpoint.exec, endpoint, 10s, CancelToken{});

    ASSERT_FALSE(credential);
    EXPECT_EQ(credential.error().kind, connectors::Error::Kind::Auth);
    EXPECT_EQ(credential.error().message,
              "exec credential plugin \"./exec-plugin.sh\" of user \"exec-user\" exited with status 3: error: you must "
              "log in first (kubelogin)");
}

TEST_F(KubeExec, GarbageOutput_AuthError)
{
    const ScopedEnv mode("STRATA_EXEC_MODE", "garbage");
    const ClusterEndpoint endpoint = execEndpoint();

    const auto credential = runExecPlugin(*endpoint.exec, endpoint, 10s, CancelToken{});

    ASSERT_FALSE(credential);
    EXPECT_NE(credential.error().message.find("printed no ExecCredential JSON"), std::string::npos);
}

TEST_F(KubeExec, HangingPlugin_KilledAfterTimeout)
{
    const ScopedEnv mode("STRATA_EXEC_MODE", "hang");
    const ClusterEndpoint endpoint = execEndpoint();

    const auto started = std::chrono::steady_clock::now();
    const auto credential = runExecPlugin(*endpoint.exec, endpoint, 300ms, CancelToken{});

    ASSERT_FALSE(credential);
    EXPECT_NE(credential.error().message.find("produced no credential within"), std::string::npos)
        << credential.error().message;
    EXPECT_LT(std::chrono::steady_clock::now() - started, 10s);
}

TEST_F(KubeExec, MissingCommand_ShowsInstallHint)
{
    ClusterEndpoint endpoint = execEndpoint();
    endpoint.exec->command = "strata-no-such-plugin";

    const auto credential = runExecPlugin(*endpoint.exec, endpoint, 10s, CancelToken{});

    ASSERT_FALSE(credential);
    EXPECT_NE(credential.error().message.find("cannot be started"), std::string::npos) << credential.error().message;
    EXPECT_NE(credential.error().message.find("Install the test plugin."), std::string::npos);
}

TEST_F(KubeExec, ProviderCachesUntilExpiry)
{
    using Clock = std::chrono::system_clock;
    auto now = Clock::now();
    int calls = 0;
    ExecCredential issued;
    issued.token = "short-lived";
    issued.expiry = now + std::chrono::minutes{10};
    CredentialProvider provider(
        execEndpoint(),
        [&](const ExecConfig &, const ClusterEndpoint &, std::chrono::milliseconds, const CancelToken &) {
            ++calls;
            return Result<ExecCredential>(issued);
        },
        [&now] {
            return now;
        });

    ASSERT_TRUE(provider.credentials(CancelToken{}));
    ASSERT_TRUE(provider.credentials(CancelToken{}));
    EXPECT_EQ(calls, 1);
    now += std::chrono::minutes{9} + std::chrono::seconds{45}; // within the refresh margin
    const auto refreshed = provider.credentials(CancelToken{});
    ASSERT_TRUE(refreshed);
    EXPECT_EQ(refreshed->token, "short-lived");
    EXPECT_EQ(calls, 2);
    EXPECT_TRUE(provider.invalidate());
    ASSERT_TRUE(provider.credentials(CancelToken{}));
    EXPECT_EQ(calls, 3);
    EXPECT_EQ(provider.execRuns(), 3);
}

TEST_F(KubeExec, ParsesExpirationTimestampAndCertificates)
{
    const auto credential = parseExecCredential(
        R"({"kind":"ExecCredential","status":{"clientCertificateData":"CERT","clientKeyData":"KEY",
            "expirationTimestamp":"2030-01-02T03:04:05+01:00"}})",
        "plugin");
    ASSERT_TRUE(credential) << credential.error().message;
    EXPECT_EQ(credential->clientCertPem, "CERT");
    ASSERT_TRUE(credential->expiry);
    EXPECT_EQ(std::chrono::duration_cast<std::chrono::seconds>(credential->expiry->time_since_epoch()).count(),
              1893549845LL);
    EXPECT_FALSE(parseExecCredential(R"({"status":{"token":"x","expirationTimestamp":"tomorrow"}})", "p"));
    EXPECT_FALSE(parseExecCredential(R"({"status":{}})", "p"));
}

TEST_F(KubeExec, TokenRejected_PluginRunAgainAndRequestRepeated)
{
    std::atomic<int> rejected{0};
    testsupport::LoopbackServer server([&rejected](const sim::Request &request, const sim::Responder &responder) {
        if (request.header("authorization") == "Bearer exec-token-2") {
            responder.send(sim::Response::json(200, R"({"gitVersion":"v1.34.0"})"));
        } else {
            ++rejected;
            responder.send(sim::Response::json(401, toBytes(status(401, "Unauthorized", "Unauthorized"))));
        }
    });
    ClusterEndpoint endpoint = execEndpoint();
    endpoint.server = server.url();
    http::CurlTransport transport(fastTransport());
    KubeClient client(transport, endpoint, fastRetry());

    const auto version = client.version(CancelToken{});

    ASSERT_TRUE(version) << version.error().message;
    EXPECT_EQ(version->gitVersion, "v1.34.0");
    EXPECT_EQ(rejected.load(), 1);
    EXPECT_EQ(runs(), 2);
    // Cached now: no further run.
    ASSERT_TRUE(client.version(CancelToken{}));
    EXPECT_EQ(runs(), 2);
    EXPECT_EQ(client.credentials().execRuns(), 2);
}

TEST_F(KubeExec, TokenRejectedTwice_AuthErrorAfterOneRerun)
{
    testsupport::LoopbackServer server([](const sim::Request &, const sim::Responder &responder) {
        responder.send(sim::Response::json(401, toBytes(status(401, "Unauthorized", "Unauthorized"))));
    });
    ClusterEndpoint endpoint = execEndpoint();
    endpoint.server = server.url();
    http::CurlTransport transport(fastTransport());
    KubeClient client(transport, endpoint, fastRetry());

    const auto list = client.listAll(kPods, ListOptions{}, CancelToken{});

    ASSERT_FALSE(list);
    EXPECT_EQ(list.error().kind, connectors::Error::Kind::Auth);
    EXPECT_EQ(runs(), 2);
}
