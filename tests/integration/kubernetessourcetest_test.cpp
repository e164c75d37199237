// What the Sources dialog relies on for a Kubernetes cluster: the contexts of a kubeconfig (read
// off the GUI thread by the controller) and the Test button's check against the Kubernetes
// simulator over real HTTPS, by URL + token and by kubeconfig, with and without Prometheus.

#include "models/core/sources/kubernetes/kubernetessource.h"
#include "simulators/common/serverthread.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "tests/support/qt/corestatus.h"

#include <QCoreApplication>
#include <QFile>
#include <QObject>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <gtest/gtest.h>

#include <optional>

using strata::testsupport::errorText;
using namespace strata;

namespace {

bool writeFile(const QString &path, const QByteArray &text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        return false;
    }
    return f.write(text) == text.size();
}

QByteArray twoContextKubeconfig(const QString &server, const QString &caFile, const QString &token)
{
    return QStringLiteral("apiVersion: v1\n"
                          "kind: Config\n"
                          "current-context: dgx\n"
                          "clusters:\n"
                          "- name: sim\n"
                          "  cluster:\n"
                          "    server: %1\n"
                          "    certificate-authority: %2\n"
                          "- name: lab\n"
                          "  cluster:\n"
                          "    server: https://127.0.0.1:1\n"
                          "users:\n"
                          "- name: admin\n"
                          "  user:\n"
                          "    token: %3\n"
                          "contexts:\n"
                          "- name: lab\n"
                          "  context:\n"
                          "    cluster: lab\n"
                          "    user: admin\n"
                          "- name: dgx\n"
                          "  context:\n"
                          "    cluster: sim\n"
                          "    user: admin\n"
                          "    namespace: team-a\n")
        .arg(server, caFile, token)
        .toUtf8();
}

struct Outcome
{
    bool ok = false;
    QString message;
};

class KubernetesSourceTestConnection : public ::testing::Test
{
protected:
    sim::ServerThread thread;
    sim::kube::KubeSimulator *simulator = nullptr;
    QTemporaryDir dir;
    QString caFile;
    QThreadPool pool;
    QObject context;

    void startSimulator()
    {
        sim::kube::KubeSimulatorOptions options;
        options.tickInterval = std::chrono::milliseconds(0);
        QString error;
        simulator = sim::kube::KubeSimulator::startOnThread(thread, options, &error);
        ASSERT_NE(simulator, nullptr) << error.toStdString();
        caFile = dir.filePath(QStringLiteral("ca.pem"));
        ASSERT_TRUE(writeFile(caFile, simulator->caPem()));
    }

    core::SourceConfig urlConfig() const
    {
        core::SourceConfig s;
        s.name = QStringLiteral("dgx");
        s.kind = core::SourceKind::Kubernetes;
        s.url = simulator->baseUrl();
        s.caFile = caFile;
        return s;
    }

    std::optional<Outcome> test(const core::SourceConfig &config, const QString &token)
    {
        std::optional<Outcome> outcome;
        core::KubernetesSource::testConnection(config, token, pool, &context, [&](bool ok, QString message) {
            outcome = Outcome{ok, std::move(message)};
        });
        // Deadline only: the answer comes as soon as the requests finish.
        (void)QTest::qWaitFor(
            [&] {
                return outcome.has_value();
            },
            60000);
        return outcome;
    }
};

} // namespace

TEST(KubeconfigContexts, ListsContextsInFileOrderWithTheCurrentOne)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("config"));
    ASSERT_TRUE(
        writeFile(path, twoContextKubeconfig(QStringLiteral("https://10.0.0.1:6443"), {}, QStringLiteral("t"))));
    const auto contexts = core::KubernetesSource::kubeconfigContexts(path);
    ASSERT_TRUE(contexts) << contexts.error().message.toStdString();
    EXPECT_EQ(contexts->names, (QStringList{QStringLiteral("lab"), QStringLiteral("dgx")}));
    EXPECT_EQ(contexts->current, QStringLiteral("dgx"));
}

TEST(KubeconfigContexts, MissingOrBrokenFileIsAnErrorNamingIt)
{
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("nope"));
    QString error = errorText(core::KubernetesSource::kubeconfigContexts(missing));
    EXPECT_TRUE(error.contains(missing)) << error.toStdString();

    const QString broken = dir.filePath(QStringLiteral("broken"));
    ASSERT_TRUE(writeFile(broken, "contexts: [unclosed\n"));
    error = errorText(core::KubernetesSource::kubeconfigContexts(broken));
    EXPECT_TRUE(error.contains(broken)) << error.toStdString();

    const QString empty = dir.filePath(QStringLiteral("empty"));
    ASSERT_TRUE(writeFile(empty, "apiVersion: v1\nkind: Config\n"));
    error = errorText(core::KubernetesSource::kubeconfigContexts(empty));
    EXPECT_TRUE(error.endsWith(QStringLiteral(" defines no contexts."))) << error.toStdString();
}

TEST_F(KubernetesSourceTestConnection, UrlAndTokenConnectsAndNamesVersionAndKai)
{
    startSimulator();
    core::SourceConfig config = urlConfig();
    config.prometheusUrl = simulator->prometheusUrl();
    const auto outcome = test(config, simulator->token());
    ASSERT_TRUE(outcome);
    EXPECT_TRUE(outcome->ok) << outcome->message.toStdString();
    EXPECT_TRUE(outcome->message.startsWith(QStringLiteral("Connected to v"))) << outcome->message.toStdString();
    EXPECT_TRUE(outcome->message.contains(QStringLiteral("KAI queues found"))) << outcome->message.toStdString();
    EXPECT_TRUE(outcome->message.contains(QStringLiteral("Prometheus"))) << outcome->message.toStdString();
    EXPECT_TRUE(outcome->message.contains(QStringLiteral("reachable"))) << outcome->message.toStdString();
}

TEST_F(KubernetesSourceTestConnection, WrongTokenFails)
{
    startSimulator();
    const auto outcome = test(urlConfig(), QStringLiteral("wrong-token"));
    ASSERT_TRUE(outcome);
    EXPECT_FALSE(outcome->ok);
    EXPECT_TRUE(outcome->message.contains(simulator->baseUrl())) << outcome->message.toStdString();
    EXPECT_FALSE(outcome->message.contains(QStringLiteral("Connected"))) << outcome->message.toStdString();
}

TEST_F(KubernetesSourceTestConnection, UnreachablePrometheusFailsTheTestButReportsTheCluster)
{
    startSimulator();
    core::SourceConfig config = urlConfig();
    config.prometheusUrl = QStringLiteral("http://127.0.0.1:1");
    const auto outcome = test(config, simulator->token());
    ASSERT_TRUE(outcome);
    EXPECT_FALSE(outcome->ok);
    EXPECT_TRUE(outcome->message.startsWith(QStringLiteral("Connected to v"))) << outcome->message.toStdString();
    EXPECT_TRUE(outcome->message.contains(QStringLiteral("unreachable"))) << outcome->message.toStdString();
}

TEST_F(KubernetesSourceTestConnection, KubeconfigContextIsUsedAndNamed)
{
    startSimulator();
    const QString path = dir.filePath(QStringLiteral("kubeconfig"));
    ASSERT_TRUE(writeFile(path, twoContextKubeconfig(simulator->baseUrl(), caFile, simulator->token())));
    core::SourceConfig config;
    config.name = QStringLiteral("dgx");
    config.kind = core::SourceKind::Kubernetes;
    config.kubeconfig = path;
    config.kubeContext = QStringLiteral("dgx");
    auto outcome = test(config, QStringLiteral("ignored with a kubeconfig"));
    ASSERT_TRUE(outcome);
    EXPECT_TRUE(outcome->ok) << outcome->message.toStdString();
    EXPECT_TRUE(outcome->message.contains(QStringLiteral("(context dgx)"))) << outcome->message.toStdString();

    config.kubeContext = QStringLiteral("lab"); // nothing listens there
    outcome = test(config, {});
    ASSERT_TRUE(outcome);
    EXPECT_FALSE(outcome->ok);
    EXPECT_TRUE(outcome->message.contains(QStringLiteral("https://127.0.0.1:1"))) << outcome->message.toStdString();

    config.kubeContext = QStringLiteral("nope");
    outcome = test(config, {});
    ASSERT_TRUE(outcome);
    EXPECT_FALSE(outcome->ok);
    EXPECT_TRUE(outcome->message.contains(QStringLiteral("nope"))) << outcome->message.toStdString();
}

TEST_F(KubernetesSourceTestConnection, NoAnswerOnceTheContextIsGone)
{
    startSimulator();
    bool called = false;
    {
        QObject gone;
        core::KubernetesSource::testConnection(urlConfig(), simulator->token(), pool, &gone, [&](bool, QString) {
            called = true;
        });
    }
    pool.waitForDone(60000);
    QCoreApplication::processEvents();
    EXPECT_FALSE(called);
}

TEST_F(KubernetesSourceTestConnection, KubeconfigInSecretIsTheWholeYamlAndNeverEchoed)
{
    startSimulator();
    // What AKS's listClusterUserCredential hands out: CA and token inline, no files.
    const QByteArray yaml =
        QStringLiteral("apiVersion: v1\n"
                       "kind: Config\n"
                       "current-context: aks-gpu\n"
                       "clusters:\n"
                       "- name: aks-gpu\n"
                       "  cluster:\n"
                       "    server: %1\n"
                       "    certificate-authority-data: %2\n"
                       "users:\n"
                       "- name: clusterUser_ai-lab-rg_aks-gpu\n"
                       "  user:\n"
                       "    token: %3\n"
                       "contexts:\n"
                       "- name: aks-gpu\n"
                       "  context:\n"
                       "    cluster: aks-gpu\n"
                       "    user: clusterUser_ai-lab-rg_aks-gpu\n")
            .arg(simulator->baseUrl(), QString::fromLatin1(simulator->caPem().toBase64()), simulator->token())
            .toUtf8();
    core::SourceConfig config;
    config.name = QStringLiteral("aks-gpu");
    config.kind = core::SourceKind::Kubernetes;
    config.kubeconfigInSecret = true;
    auto outcome = test(config, QString::fromUtf8(yaml));
    ASSERT_TRUE(outcome);
    EXPECT_TRUE(outcome->ok) << outcome->message.toStdString();
    EXPECT_TRUE(outcome->message.contains(QStringLiteral("(context aks-gpu)"))) << outcome->message.toStdString();

    outcome = test(config, QString());
    ASSERT_TRUE(outcome);
    EXPECT_FALSE(outcome->ok);
    EXPECT_TRUE(outcome->message.contains(QStringLiteral("is empty"))) << outcome->message.toStdString();

    const QString garbage = QStringLiteral("s3cr3t-not-yaml: [unclosed");
    outcome = test(config, garbage);
    ASSERT_TRUE(outcome);
    EXPECT_FALSE(outcome->ok);
    EXPECT_TRUE(outcome->message.contains(QStringLiteral("aks-gpu"))) << outcome->message.toStdString();
    EXPECT_FALSE(outcome->message.contains(QStringLiteral("s3cr3t"))) << outcome->message.toStdString();
}
