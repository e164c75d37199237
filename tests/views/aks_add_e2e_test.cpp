// "Add as Kubernetes source…" end to end: an Azure source polls the Azure simulator over HTTPS,
// its AKS cluster shows on the Sources page, and adding it fetches the user kubeconfig into the
// credential store as the new Kubernetes source's secret (never into the config file).

#include "app/desktop/desktopcontroller.h"
#include "models/core/runtime/engine.h"
#include "models/core/store/credentialstore.h"
#include "models/item/aksclustermodel.h"
#include "simulators/azure/azuresimulator.h"
#include "simulators/common/serverthread.h"
#include "views/mainwindow.h"
#include "views/sourcespage.h"

#include <QFile>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using namespace strata;
using namespace std::chrono_literals;

TEST(AksAddEndToEnd, AddsTheClusterWithItsKubeconfigInTheKeychain)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    sim::ServerThread thread;
    sim::azure::AzureSimulatorOptions simOptions;
    simOptions.aksKubeconfig = QByteArrayLiteral("apiVersion: v1\nkind: Config\nclusters: []\n# aks-gpu e2e\n");
    QString error;
    sim::azure::AzureSimulator *simulator = sim::azure::AzureSimulator::startOnThread(thread, simOptions, &error);
    ASSERT_NE(simulator, nullptr) << error.toStdString();
    const QString caFile = dir.filePath(QStringLiteral("ca.pem"));
    {
        QFile f(caFile);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(simulator->caPem());
    }
    core::SystemClock clock;
    core::InMemoryCredentialStore store;
    store.set(core::credentialKey(QStringLiteral("ai-lab")), simulator->options().clientSecret);
    core::Engine engine{{clock, store, nullptr, QStringLiteral("tester")}};

    core::AppConfig config;
    core::SourceConfig azure;
    azure.name = QStringLiteral("ai-lab");
    azure.kind = core::SourceKind::Azure;
    azure.url = simulator->baseUrl();
    azure.authorityUrl = simulator->baseUrl();
    azure.tenantId = simulator->options().tenantId;
    azure.clientId = simulator->options().clientId;
    azure.subscriptionId = simulator->options().subscriptionId;
    azure.credentialSource = QStringLiteral("client_secret");
    azure.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(azure.name)};
    azure.caFile = caFile;
    azure.configIntervalSeconds = 3600;
    azure.perfIntervalSeconds = 3600;
    config.sources.append(azure);
    engine.setSources(config.sources);

    desktop::DesktopController::Options options;
    options.configPath = dir.filePath(QStringLiteral("config.json"));
    options.settingsPath = dir.filePath(QStringLiteral("ui.ini"));
    desktop::DesktopController controller(engine, config, options);
    views::SourcesPage *page = controller.window().sourcesPage();
    ASSERT_TRUE(page->aksView());
    QAbstractItemModel *aks = page->aksView()->model();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return aks->rowCount() == 1;
        },
        20000))
        << "AKS clusters listed: " << aks->rowCount();
    EXPECT_EQ(aks->index(0, models::AksClusterModel::Name).data().toString(), QStringLiteral("aks-gpu"));
    page->aksView()->selectRow(0);
    auto *add = page->findChild<QPushButton *>(QStringLiteral("aksAddButton"));
    ASSERT_TRUE(add->isEnabled());
    QTest::mouseClick(add, Qt::LeftButton);

    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return controller.config().source(QStringLiteral("aks-gpu")) != nullptr;
        },
        20000))
        << controller.window().notificationText().toStdString();
    const core::SourceConfig *added = controller.config().source(QStringLiteral("aks-gpu"));
    EXPECT_EQ(added->kind, core::SourceKind::Kubernetes);
    EXPECT_TRUE(added->kubeconfigInSecret);
    EXPECT_EQ(added->password.kind, core::SecretRef::Kind::Keychain);
    std::optional<QString> secret;
    bool read = false;
    store.read(core::credentialKey(QStringLiteral("aks-gpu")), [&](std::optional<QString> value, const QString &) {
        secret = std::move(value);
        read = true;
    });
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return read;
        },
        5000));
    EXPECT_EQ(secret.value_or(QString()), QString::fromUtf8(simOptions.aksKubeconfig));
    QFile file(options.configPath);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_FALSE(file.readAll().contains("aks-gpu e2e")); // the kubeconfig stays out of the config
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            return aks->index(0, models::AksClusterModel::KubernetesSource).data().toString()
                   == QLatin1String("aks-gpu");
        },
        5000));
    EXPECT_FALSE(add->isEnabled());
}
