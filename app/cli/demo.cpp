#include "app/cli/demo.h"

#include "models/core/credentialstore.h"
#include "simulators/azure/azuresimulator.h"
#include "simulators/common/serverthread.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "simulators/ontap/ontapsimulator.h"

#include <QDir>
#include <QRandomGenerator>
#include <QTemporaryDir>

namespace strata::cli {

namespace {

QString randomPassword()
{
    static const QString alphabet = QStringLiteral("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789");
    QString out;
    for (int i = 0; i < 24; ++i) {
        out += alphabet.at(int(QRandomGenerator::system()->bounded(quint32(alphabet.size()))));
    }
    return out;
}

} // namespace

struct DemoEstate::Private
{
    QTemporaryDir dir{QDir::tempPath() + QStringLiteral("/strata-demo-XXXXXX")};
    sim::ServerThread thread;
    sim::ontap::OntapSimulator *ontap = nullptr;
    // The Kubernetes simulator ticks every second and schedules; its own thread keeps it from
    // delaying ONTAP answers.
    sim::ServerThread kubeThread;
    sim::kube::KubeSimulator *kube = nullptr;
    // `ai-lab`: Azure (Entra ID + ARM) and the AKS cluster `aks-gpu` behind it.
    sim::ServerThread azureThread;
    sim::azure::AzureSimulator *azure = nullptr;
    sim::ServerThread aksThread;
    sim::kube::KubeSimulator *aks = nullptr;
    core::InMemoryCredentialStore credentials;
    core::AppConfig config;
};

DemoEstate::DemoEstate()
    : d(std::make_unique<Private>())
{}

DemoEstate::~DemoEstate() = default;

std::unique_ptr<DemoEstate> DemoEstate::start(const Options &options, QString *error)
{
    std::unique_ptr<DemoEstate> demo(new DemoEstate);
    Private &p = *demo->d;
    if (!p.dir.isValid()) {
        *error = QStringLiteral("cannot create a temporary directory: %1").arg(p.dir.errorString());
        return nullptr;
    }

    sim::ontap::OntapSimulatorOptions ontap;
    ontap.clusterName = QStringLiteral("ontap-ai");
    ontap.username = QStringLiteral("admin");
    ontap.password = randomPassword();
    if (options.generatedVolumes > 0) {
        ontap.preset = sim::ontap::OntapSimulatorOptions::Preset::Generated;
        ontap.volumeCount = options.generatedVolumes;
    }
    // Demo time runs fast: volumes grow and snapshots rotate every couple of seconds.
    ontap.tickInterval = std::chrono::milliseconds(qint64(2000 / std::max(0.1, options.speed)));
    QString simError;
    p.ontap = sim::ontap::OntapSimulator::startOnThread(p.thread, ontap, &simError);
    if (!p.ontap) {
        *error = QStringLiteral("ONTAP simulator: %1").arg(simError);
        return nullptr;
    }
    const QString caFile = p.dir.filePath(QStringLiteral("ontap-ai-ca.pem"));
    QFile ca(caFile);
    if (!ca.open(QIODevice::WriteOnly) || ca.write(p.ontap->certificatePem()) < 0) {
        *error = QStringLiteral("cannot write %1").arg(caFile);
        return nullptr;
    }
    ca.close();

    core::SourceConfig source;
    source.name = QStringLiteral("ontap-ai");
    source.kind = core::SourceKind::Ontap;
    source.url = p.ontap->baseUrl();
    source.username = ontap.username;
    source.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(source.name)};
    source.caFile = caFile;
    source.configIntervalSeconds = 15;
    source.perfIntervalSeconds = 10;
    p.credentials.set(source.password.value, ontap.password);
    p.config.sources = {source};

    // `dgx`: TR-4858's two DGX-1 nodes, four team queues and the 13 jobs of section 4.8.
    sim::kube::KubeSimulatorOptions kube;
    kube.preset = sim::kube::KubeSimulatorOptions::Preset::Dgx;
    kube.token = randomPassword();
    kube.tickInterval = std::chrono::milliseconds(qint64(1000 / std::max(0.1, options.speed)));
    p.kube = sim::kube::KubeSimulator::startOnThread(p.kubeThread, kube, &simError);
    if (!p.kube) {
        *error = QStringLiteral("Kubernetes simulator: %1").arg(simError);
        return nullptr;
    }
    const QString kubeCaFile = p.dir.filePath(QStringLiteral("dgx-ca.pem"));
    QFile kubeCa(kubeCaFile);
    if (!kubeCa.open(QIODevice::WriteOnly) || kubeCa.write(p.kube->caPem()) < 0) {
        *error = QStringLiteral("cannot write %1").arg(kubeCaFile);
        return nullptr;
    }
    kubeCa.close();
    core::SourceConfig dgx;
    dgx.name = QStringLiteral("dgx");
    dgx.kind = core::SourceKind::Kubernetes;
    dgx.url = p.kube->baseUrl();
    dgx.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(dgx.name)};
    dgx.caFile = kubeCaFile;
    dgx.prometheusUrl = p.kube->prometheusUrl();
    dgx.perfIntervalSeconds = 5;
    p.credentials.set(dgx.password.value, kube.token);
    p.config.sources.append(dgx);

    // `ai-lab` (TR-4896/TR-4904): ANF account with a Standard and a Premium 4 TiB pool, and the
    // AKS cluster `aks-gpu` whose user kubeconfig leads to a second Kubernetes simulator.
    sim::kube::KubeSimulatorOptions aks;
    aks.preset = sim::kube::KubeSimulatorOptions::Preset::Aks;
    aks.token = randomPassword();
    aks.tickInterval = kube.tickInterval;
    p.aks = sim::kube::KubeSimulator::startOnThread(p.aksThread, aks, &simError);
    if (!p.aks) {
        *error = QStringLiteral("AKS Kubernetes simulator: %1").arg(simError);
        return nullptr;
    }
    sim::azure::AzureSimulatorOptions azure;
    azure.clientSecret = randomPassword();
    azure.aksKubeconfig = p.aks->kubeconfig(QStringLiteral("aks-gpu"));
    p.azure = sim::azure::AzureSimulator::startOnThread(p.azureThread, azure, &simError);
    if (!p.azure) {
        *error = QStringLiteral("Azure simulator: %1").arg(simError);
        return nullptr;
    }
    const QString azureCaFile = p.dir.filePath(QStringLiteral("ai-lab-ca.pem"));
    QFile azureCa(azureCaFile);
    if (!azureCa.open(QIODevice::WriteOnly) || azureCa.write(p.azure->caPem()) < 0) {
        *error = QStringLiteral("cannot write %1").arg(azureCaFile);
        return nullptr;
    }
    azureCa.close();
    core::SourceConfig aiLab;
    aiLab.name = QStringLiteral("ai-lab");
    aiLab.kind = core::SourceKind::Azure;
    aiLab.url = p.azure->baseUrl();
    aiLab.authorityUrl = p.azure->baseUrl();
    aiLab.tenantId = azure.tenantId;
    aiLab.clientId = azure.clientId;
    aiLab.subscriptionId = azure.subscriptionId;
    aiLab.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(aiLab.name)};
    aiLab.caFile = azureCaFile;
    aiLab.configIntervalSeconds = 15;
    aiLab.perfIntervalSeconds = 60;
    p.credentials.set(aiLab.password.value, azure.clientSecret);
    p.config.sources.append(aiLab);

    p.config.historyPath = p.dir.filePath(QStringLiteral("history.sqlite"));
    return demo;
}

core::AppConfig DemoEstate::config() const
{
    return d->config;
}

core::InMemoryCredentialStore &DemoEstate::credentials()
{
    return d->credentials;
}

sim::kube::KubeSimulator *DemoEstate::kubernetes() const
{
    return d->kube;
}

sim::azure::AzureSimulator *DemoEstate::azure() const
{
    return d->azure;
}

sim::kube::KubeSimulator *DemoEstate::aks() const
{
    return d->aks;
}

QString DemoEstate::ontapUrl() const
{
    return d->ontap ? d->ontap->baseUrl() : QString();
}

} // namespace strata::cli
