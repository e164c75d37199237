#include "app/cli/demo.h"

#include "models/core/credentialstore.h"
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

QString DemoEstate::ontapUrl() const
{
    return d->ontap ? d->ontap->baseUrl() : QString();
}

} // namespace strata::cli
