#include "app/cli/demo.h"

#include "models/core/credentialstore.h"
#include "simulators/common/serverthread.h"
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

QString DemoEstate::ontapUrl() const
{
    return d->ontap ? d->ontap->baseUrl() : QString();
}

} // namespace strata::cli
