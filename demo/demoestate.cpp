#include "demo/demoestate.h"

#include "connectors/dataset/datasetstore.h"
#include "connectors/http/curltransport.h"
#include "connectors/s3/s3client.h"
#include "demo/demohistory.h"
#include "models/core/domain/clock.h"
#include "models/core/planning/cachepolicy.h"
#include "models/core/store/credentialstore.h"
#include "models/core/store/historystore.h"
#include "simulators/azure/azuresimulator.h"
#include "simulators/common/serverthread.h"
#include "simulators/datalake/datalakewiring.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "simulators/ontap/ontapsimulator.h"
#include "simulators/sentiment/sentimentstream.h"
#include "simulators/storagegrid/storagegridsimulator.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <map>

namespace strata::demo {

namespace {

// What the sources keep: ONTAP perf about every 5 minutes (OntapSource::recordPerf).
constexpr int kHistoryStepSeconds = 300;

QString randomPassword()
{
    static const QString alphabet = QStringLiteral("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789");
    QString out;
    for (int i = 0; i < 24; ++i) {
        out += alphabet.at(int(QRandomGenerator::system()->bounded(quint32(alphabet.size()))));
    }
    return out;
}

std::string ss(const QString &s)
{
    return s.toStdString();
}

bool writeCa(const QString &path, const QByteArray &pem, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(pem) < 0) {
        *error = QStringLiteral("cannot write %1").arg(path);
        return false;
    }
    return true;
}

/// Who committed what in the demo's history (TR-4841's data scientists at work).
struct Revision
{
    const char *author;
    const char *message;
};

const std::vector<Revision> &revisionNotes(const QString &dataset)
{
    static const std::map<QString, std::vector<Revision>> notes{
        {QStringLiteral("fraud_jun"),
         {{"maya.chen", "June transactions, first export"},
          {"maya.chen", "Drop duplicated card-present rows"},
          {"arjun.patel", "Add chargeback labels from the disputes feed"},
          {"maya.chen", "Re-split train/validation 80/20 by customer"}}},
        {QStringLiteral("fraud_may"),
         {{"arjun.patel", "May transactions, first export"}, {"arjun.patel", "Mask PANs in the raw parts"}}},
        {QStringLiteral("consumer_img1"),
         {{"lena.fischer", "Product photos, batch 1"},
          {"lena.fischer", "Remove blurred images (score < 0.3)"},
          {"tom.okafor", "Add batch 2 from the March shoot"},
          {"lena.fischer", "Relabel 'outdoor' class"}}},
        {QStringLiteral("public_set12"),
         {{"tom.okafor", "Import public set v12"},
          {"tom.okafor", "Convert annotations to COCO"},
          {"maya.chen", "Drop images with licence issues"},
          {"tom.okafor", "Add validation split"},
          {"lena.fischer", "Fix bounding boxes of class 17"},
          {"tom.okafor", "Deduplicate near-identical frames"},
          {"maya.chen", "Add test split for the leaderboard"}}},
        {QStringLiteral("fraud_sim_base"),
         {{"arjun.patel", "Simulated fraud base, seed 7"}, {"arjun.patel", "Regenerate with merchant categories"}}},
        {QStringLiteral("misc_base1"), {{"lena.fischer", "Baseline misc features"}}},
    };
    static const std::vector<Revision> none;
    const auto it = notes.find(dataset);
    return it == notes.end() ? none : it->second;
}

} // namespace

struct DemoEstate::Private
{
    // The simulated estate's time: its simulators serve wall-clock time, so the past history,
    // the clusters' start and the datasets' commits are dated by the system clock.
    core::SystemClock clock;
    QTemporaryDir dir{QDir::tempPath() + QStringLiteral("/strata-demo-XXXXXX")};
    sim::ServerThread thread;
    sim::ontap::OntapSimulator *ontap = nullptr;
    // `datalake`: StorageGRID's management API and S3 endpoint. Declared before the clusters so
    // it stops after them: a cache loader running on a cluster's thread reads its S3 store.
    sim::ServerThread gridThread;
    sim::storagegrid::StorageGridSimulator *grid = nullptr;
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
    // TR-4910's support-center calls, written into the grid's bucket `sentiment`.
    std::unique_ptr<sim::sentiment::SentimentStream> sentiment;
    // Last: it unhooks the Kubernetes simulator's loader runner before the simulators stop.
    std::unique_ptr<sim::datalake::DatalakeWiring> wiring;
};

DemoEstate::DemoEstate()
    : d(std::make_unique<Private>())
{}

DemoEstate::~DemoEstate() = default;

core::Result<std::unique_ptr<DemoEstate>> DemoEstate::start(const Options &options)
{
    // The start steps below fill `error` (the simulators' calls take an out-parameter).
    QString message;
    QString *error = &message;
    std::unique_ptr<DemoEstate> demo(new DemoEstate);
    Private &p = *demo->d;
    if (!p.dir.isValid()) {
        *error = QStringLiteral("cannot create a temporary directory: %1").arg(p.dir.errorString());
        return core::fail(message);
    }
    const core::DemoScope &scope = options.scope;
    // Kubernetes' `dgx` mounts cache volumes of ONTAP and loads them from the grid's store.
    const bool kubeWanted = scope.wants(core::SourceKind::Kubernetes);
    const bool gridWanted = scope.wants(core::SourceKind::StorageGrid);
    const bool ontapWanted = scope.wants(core::SourceKind::Ontap) || kubeWanted;
    const bool azureWanted = scope.wants(core::SourceKind::Azure);
    // Every demo source is named in the config; one out of scope has no simulator behind it.
    const auto named = [](const QString &name, core::SourceKind kind) {
        core::SourceConfig c;
        c.name = name;
        c.kind = kind;
        c.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(name)};
        return c;
    };
    core::SourceConfig source = named(QStringLiteral("ontap-ai"), core::SourceKind::Ontap);
    core::SourceConfig dgx = named(QStringLiteral("dgx"), core::SourceKind::Kubernetes);
    core::SourceConfig aiLab = named(QStringLiteral("ai-lab"), core::SourceKind::Azure);
    const QDateTime historyTo = p.clock.now();
    const QDateTime historyFrom = historyTo.addSecs(-3600 * qint64(std::max(0, options.historyHours)));
    if (ontapWanted && !demo->startOntap(options, &source, error)) {
        return core::fail(message);
    }
    p.config.sources = {source};
    sim::kube::KubeSimulatorOptions kube;
    kube.tickInterval = std::chrono::milliseconds(qint64(1000 / std::max(0.1, options.speed)));
    // The estate ships with days of history: its clusters have been running since then.
    if (options.historyHours > 0) {
        kube.startTime = historyFrom;
    }
    if (kubeWanted && !demo->startDgx(kube, &dgx, error)) {
        return core::fail(message);
    }
    p.config.sources.append(dgx);
    if (azureWanted && !demo->startAzure(&aiLab, error)) {
        return core::fail(message);
    }
    p.config.sources.append(aiLab);

    p.config.historyPath = p.dir.filePath(QStringLiteral("history.sqlite"));
    const QString historyLocation = options.store.isEmpty() ? p.config.historyPath : options.store;
    HistorySimulators simulators;
    simulators.ontapSource = source.name;
    // A generated scale estate (50,000 volumes) would write millions of samples: GPUs only.
    simulators.ontap = options.generatedVolumes > 0 || !scope.history ? nullptr : p.ontap;
    simulators.azureSource = aiLab.name;
    simulators.azure = scope.history ? p.azure : nullptr;
    if (kubeWanted) {
        simulators.clusters = {{dgx.name, p.kube}, {QStringLiteral("aks-gpu"), p.aks}};
    }
    if (options.historyHours > 0 && (simulators.ontap || simulators.azure || !simulators.clusters.empty())) {
        // Before the datasets, caches and triage workloads: those start now, on a running estate.
        core::SqlHistoryStore store(historyLocation, p.clock);
        core::Status history = store.open();
        if (history) {
            history = backfillHistory(store, simulators, historyFrom, historyTo, kHistoryStepSeconds);
        }
        if (!history) {
            *error = QStringLiteral("demo history: %1").arg(history.error().message);
            return core::fail(message);
        }
    }

    if (!demo->startDatalake(gridWanted, kubeWanted, error)) {
        return core::fail(message);
    }
    if (!demo->startTriage(kubeWanted, error)) {
        return core::fail(message);
    }
    if (options.historyHours > 0 && simulators.ontap) {
        // After the caches and workloads exist: their volumes get a past too, so the forecasts
        // have days of history from the start.
        QList<CacheVolume> caches;
        if (kubeWanted) {
            for (qsizetype i = 0; i < p.config.cacheTargets.size(); ++i) {
                const core::CacheTargetConfig &t = p.config.cacheTargets.at(i);
                caches.append(CacheVolume{
                    t.kubernetesSource, t.name, QStringLiteral("svm_cache"), QStringLiteral("cache_0%1").arg(i + 1)});
            }
        }
        core::SqlHistoryStore store(historyLocation, p.clock);
        core::Status history = store.open();
        if (history) {
            history = backfillCapacity(
                store, source.name, *simulators.ontap, caches, historyFrom, historyTo, kHistoryStepSeconds);
        }
        if (!history) {
            *error = QStringLiteral("demo history: %1").arg(history.error().message);
            return core::fail(message);
        }
    }

    return demo;
}

bool DemoEstate::startOntap(const Options &options, core::SourceConfig *source, QString *error)
{
    Private &p = *d;
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
        return false;
    }
    const QString caFile = p.dir.filePath(QStringLiteral("ontap-ai-ca.pem"));
    QFile ca(caFile);
    if (!ca.open(QIODevice::WriteOnly) || ca.write(p.ontap->certificatePem()) < 0) {
        *error = QStringLiteral("cannot write %1").arg(caFile);
        return false;
    }
    ca.close();

    source->url = p.ontap->baseUrl();
    source->username = ontap.username;
    source->caFile = caFile;
    source->configIntervalSeconds = 15;
    source->perfIntervalSeconds = 10;
    // chest_xray is a file dataset: its snapshots are commits, its FlexClones cached commits.
    source->datasetRoots = {QStringLiteral("svm_ai/chest_xray")};
    p.credentials.set(source->password.value, ontap.password);
    return true;
}

bool DemoEstate::startDgx(sim::kube::KubeSimulatorOptions kube, core::SourceConfig *dgx, QString *error)
{
    Private &p = *d;
    // `dgx`: TR-4858's two DGX-1 nodes, four team queues and the 13 jobs of section 4.8.
    kube.preset = sim::kube::KubeSimulatorOptions::Preset::Dgx;
    kube.token = randomPassword();
    QString simError;
    p.kube = sim::kube::KubeSimulator::startOnThread(p.kubeThread, kube, &simError);
    if (!p.kube) {
        *error = QStringLiteral("Kubernetes simulator: %1").arg(simError);
        return false;
    }
    const QString kubeCaFile = p.dir.filePath(QStringLiteral("dgx-ca.pem"));
    QFile kubeCa(kubeCaFile);
    if (!kubeCa.open(QIODevice::WriteOnly) || kubeCa.write(p.kube->caPem()) < 0) {
        *error = QStringLiteral("cannot write %1").arg(kubeCaFile);
        return false;
    }
    kubeCa.close();
    dgx->url = p.kube->baseUrl();
    dgx->caFile = kubeCaFile;
    dgx->prometheusUrl = p.kube->prometheusUrl();
    dgx->perfIntervalSeconds = 5;
    p.credentials.set(dgx->password.value, kube.token);

    // The AKS cluster `aks-gpu` of `ai-lab`, whose user kubeconfig leads to a second Kubernetes
    // simulator (startTriage adds it as a source).
    sim::kube::KubeSimulatorOptions aks;
    aks.preset = sim::kube::KubeSimulatorOptions::Preset::Aks;
    aks.token = randomPassword();
    aks.tickInterval = kube.tickInterval;
    aks.startTime = kube.startTime;
    // An NGC tag that was never published: bert-serve's pod waits in ImagePullBackOff.
    aks.unpullableImages = {QStringLiteral("nvcr.io/nvidia/pytorch:24.13-py3")};
    p.aks = sim::kube::KubeSimulator::startOnThread(p.aksThread, aks, &simError);
    if (!p.aks) {
        *error = QStringLiteral("AKS Kubernetes simulator: %1").arg(simError);
        return false;
    }
    return true;
}

bool DemoEstate::startAzure(core::SourceConfig *aiLab, QString *error)
{
    Private &p = *d;
    // `ai-lab` (TR-4896/TR-4904): ANF account with a Standard and a Premium 4 TiB pool, and the
    // AKS cluster `aks-gpu` (its kubeconfig leads to the AKS simulator when that runs).
    sim::azure::AzureSimulatorOptions azure;
    azure.clientSecret = randomPassword();
    if (p.aks) {
        azure.aksKubeconfig = p.aks->kubeconfig(QStringLiteral("aks-gpu"));
    }
    QString simError;
    p.azure = sim::azure::AzureSimulator::startOnThread(p.azureThread, azure, &simError);
    if (!p.azure) {
        *error = QStringLiteral("Azure simulator: %1").arg(simError);
        return false;
    }
    const QString azureCaFile = p.dir.filePath(QStringLiteral("ai-lab-ca.pem"));
    QFile azureCa(azureCaFile);
    if (!azureCa.open(QIODevice::WriteOnly) || azureCa.write(p.azure->caPem()) < 0) {
        *error = QStringLiteral("cannot write %1").arg(azureCaFile);
        return false;
    }
    azureCa.close();
    aiLab->url = p.azure->baseUrl();
    aiLab->authorityUrl = p.azure->baseUrl();
    aiLab->tenantId = azure.tenantId;
    aiLab->clientId = azure.clientId;
    aiLab->subscriptionId = azure.subscriptionId;
    aiLab->caFile = azureCaFile;
    aiLab->configIntervalSeconds = 15;
    aiLab->perfIntervalSeconds = 60;
    p.credentials.set(aiLab->password.value, azure.clientSecret);
    return true;
}

bool DemoEstate::startDatalake(bool gridWanted, bool kubeWanted, QString *error)
{
    Private &p = *d;
    core::SourceConfig lake;
    lake.name = QStringLiteral("datalake");
    lake.kind = core::SourceKind::StorageGrid;
    lake.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(lake.name)};
    static const char *const namespaces[] = {"runai-team-a", "runai-team-b", "runai-team-d"};
    for (int i = 0; i < 3; ++i) {
        core::CacheTargetConfig target;
        target.name = QStringLiteral("dgx-cache-%1").arg(i + 1);
        target.kubernetesSource = QStringLiteral("dgx");
        target.namespaceName = QLatin1String(namespaces[i]);
        target.pvc = QStringLiteral("dataset-cache");
        p.config.cacheTargets.append(target);
    }
    if (!gridWanted && !kubeWanted) {
        p.config.sources.append(lake);
        return true;
    }
    sim::storagegrid::StorageGridSimulatorOptions options;
    options.preset = sim::storagegrid::StorageGridSimulatorOptions::Preset::Datalake;
    options.rootPassword = randomPassword();
    options.s3SecretKey = randomPassword();
    options.s3SecretKey2 = randomPassword();
    options.s3Tls = true;
    QString simError;
    p.grid = sim::storagegrid::StorageGridSimulator::startOnThread(p.gridThread, options, &simError);
    if (!p.grid) {
        *error = QStringLiteral("StorageGRID simulator: %1").arg(simError);
        return false;
    }
    const QString caFile = p.dir.filePath(QStringLiteral("datalake-ca.pem"));
    if (!writeCa(caFile, p.grid->caPem(), error)) {
        return false;
    }

    // The datasets' history, committed with Strata's own manifest code so every commit id is
    // the SHA-256 of a real manifest in the bucket: each revision is applied, then committed.
    http::TransportOptions transport;
    transport.caFile = ss(caFile);
    s3::S3Config s3config;
    s3config.endpoint = ss(p.grid->s3Url());
    s3config.region = ss(options.s3Region);
    s3config.accessKey = ss(options.s3AccessKey);
    s3config.secretKey = ss(options.s3SecretKey);
    s3::S3Client client(s3config, std::make_shared<http::CurlTransport>(transport));
    const QDateTime now = p.clock.now();
    QHash<QString, QStringList> commits; // dataset -> ids, oldest first
    int datasetIndex = 0;
    // Only a scope with StorageGRID reads the datasets (Kubernetes needs the grid's store alone).
    for (const sim::storagegrid::DatasetSpec &spec :
         gridWanted ? sim::storagegrid::datalakeDatasets() : std::vector<sim::storagegrid::DatasetSpec>{}) {
        const std::vector<Revision> &notes = revisionNotes(spec.name);
        std::string parent;
        for (int revision = 1; revision <= spec.revisions; ++revision) {
            if (!p.grid->applyDatasetRevision(spec.name, revision)) {
                *error = QStringLiteral("StorageGRID simulator: no revision %1 of %2").arg(revision).arg(spec.name);
                return false;
            }
            const Revision note = std::size_t(revision - 1) < notes.size() ? notes[std::size_t(revision - 1)]
                                                                           : Revision{"maya.chen", "Refresh"};
            // Newest revisions a few days back, older ones a week apart, datasets staggered.
            const QDateTime when =
                now.addDays(-(2 + 7 * (spec.revisions - revision))).addSecs(-3600 * (3 + 5 * datasetIndex));
            auto created = dataset::createCommit(client,
                                                 "datasets",
                                                 ss(spec.name) + '/',
                                                 ss(spec.name),
                                                 parent,
                                                 note.author,
                                                 note.message,
                                                 ss(when.toString(Qt::ISODate)));
            if (!created) {
                *error =
                    QStringLiteral("committing %1: %2").arg(spec.name, QString::fromStdString(created.error().message));
                return false;
            }
            parent = created->first;
            commits[spec.name] << QString::fromStdString(created->first);
        }
        ++datasetIndex;
    }

    lake.url = p.grid->managementUrl();
    lake.username = QStringLiteral("root");
    lake.caFile = caFile;
    lake.s3Url = p.grid->s3Url();
    lake.s3Region = options.s3Region;
    lake.s3AccessKey = options.s3AccessKey;
    lake.s3Secret =
        core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(lake.name, QStringLiteral("s3_secret"))};
    lake.datasetRoots = {QStringLiteral("datasets/*")};
    lake.configIntervalSeconds = 15;
    lake.perfIntervalSeconds = 10;
    p.credentials.set(lake.password.value, options.rootPassword);
    p.credentials.set(lake.s3Secret.value, options.s3SecretKey);
    p.config.sources.append(lake);

    // The support-center sentiment stream (TR-4910): 560 calls over the last 30 days, then live
    // calls whose sentences arrive every 1-3 s; read with tenant support-center's own S3 key.
    if (gridWanted) {
        p.sentiment =
            std::make_unique<sim::sentiment::SentimentStream>(p.grid->store(), sim::sentiment::StreamOptions{});
        p.sentiment->writeHistory();
        p.sentiment->start();
        core::SentimentConfig sentiment;
        sentiment.source = lake.name;
        sentiment.s3AccessKey = options.s3AccessKey2;
        sentiment.s3Secret = core::SecretRef{core::SecretRef::Kind::Keychain,
                                             core::credentialKey(lake.name, QStringLiteral("sentiment_s3_secret"))};
        p.credentials.set(sentiment.s3Secret.value, options.s3SecretKey2);
        p.config.sentiment = sentiment;
    }
    if (!kubeWanted) {
        return true;
    }

    // Three NFS caches next to dgx (svm_cache/cache_01..03), one per team namespace, each
    // mounted through claim "dataset-cache"; loader pods read the grid with the keys in Secret
    // "strata-s3" of that namespace.
    p.wiring = std::make_unique<sim::datalake::DatalakeWiring>(*p.kube, *p.ontap, p.grid->store());
    p.wiring->install();
    for (int i = 0; i < 3; ++i) {
        const QString ns = QLatin1String(namespaces[i]);
        const QString volume = QStringLiteral("cache_0%1").arg(i + 1);
        if (!p.wiring->addCacheVolume(
                ns, QStringLiteral("dataset-cache"), QStringLiteral("svm_cache"), volume, error)) {
            return false;
        }
        const QJsonObject secret{
            {QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("Secret")},
            {QStringLiteral("metadata"),
             QJsonObject{{QStringLiteral("name"), QStringLiteral("strata-s3")}, {QStringLiteral("namespace"), ns}}},
            {QStringLiteral("type"), QStringLiteral("Opaque")},
            {QStringLiteral("stringData"),
             QJsonObject{{QStringLiteral("AWS_ACCESS_KEY_ID"), options.s3AccessKey},
                         {QStringLiteral("AWS_SECRET_ACCESS_KEY"), options.s3SecretKey}}}};
        if (!p.kube->createObject(QStringLiteral("secrets"), secret, error)) {
            return false;
        }
    }

    // TR-4841's cached commits (fraud_jun 2, public_set12 1, fraud_sim_base 1), loaded earlier:
    // their state records say ready, used by jobs of the last days, so the policy's countdown
    // ("evicts in 2 days") shows at once. Caching anything else loads it live.
    struct Seed
    {
        const char *dataset;
        int fromHead; ///< 0 = head commit
        int target;   ///< index into the targets
        int lastUsedHoursAgo;
        const char *job;
    };
    static const Seed seeds[] = {{"fraud_jun", 0, 0, 20, "runai-team-a/fraud-xgb-train"},
                                 {"fraud_jun", 1, 1, 47, "runai-team-b/fraud-baseline"},
                                 {"public_set12", 0, 0, 5, "runai-team-a/detector-finetune"},
                                 {"fraud_sim_base", 0, 2, 30, "runai-team-d/sim-pretrain"}};
    QHash<int, QJsonObject> records; // target index -> ConfigMap data
    for (const Seed &seed : seeds) {
        const QString name = QLatin1String(seed.dataset);
        const QStringList ids = commits.value(name);
        if (ids.size() <= seed.fromHead) {
            continue;
        }
        const QString commitId = ids.at(ids.size() - 1 - seed.fromHead);
        const sim::storagegrid::DatasetSpec *spec = nullptr;
        for (const auto &s : sim::storagegrid::datalakeDatasets()) {
            if (s.name == name) {
                spec = &s;
            }
        }
        core::CachedCommit record;
        record.commitId = commitId;
        record.datasetSource = lake.name;
        record.datasetId = QStringLiteral("datasets/%1/").arg(name);
        record.datasetName = name;
        record.state = core::CacheState::Ready;
        record.bytesTotal = record.bytesDone = spec ? spec->totalBytes : 0;
        record.path = core::cachePath(name, commitId);
        record.requested = now.addDays(-3);
        record.readyAt = record.requested.addSecs(90);
        record.lastUsed = now.addSecs(-3600 * seed.lastUsedHoursAgo);
        record.usedBy = {QLatin1String(seed.job)};
        records[seed.target].insert(commitId, QString::fromUtf8(core::cacheRecordToJson(record)));
    }
    for (auto it = records.cbegin(); it != records.cend(); ++it) {
        const core::CacheTargetConfig &target = p.config.cacheTargets.at(it.key());
        const QJsonObject configMap{
            {QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
            {QStringLiteral("metadata"),
             QJsonObject{
                 {QStringLiteral("name"), core::cacheConfigMapName(target.name)},
                 {QStringLiteral("namespace"), target.namespaceName},
                 {QStringLiteral("labels"), QJsonObject{{QStringLiteral("strata.io/cache-target"), target.name}}}}},
            {QStringLiteral("data"), it.value()}};
        if (!p.kube->createObject(QStringLiteral("configmaps"), configMap, error)) {
            return false;
        }
    }
    return true;
}

bool DemoEstate::startTriage(bool kubeWanted, QString *error)
{
    Private &p = *d;
    core::SourceConfig aksSource;
    aksSource.name = QStringLiteral("aks-gpu");
    aksSource.kind = core::SourceKind::Kubernetes;
    aksSource.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(aksSource.name)};
    if (!kubeWanted) {
        p.config.sources.append(aksSource);
        return true;
    }
    const QString caFile = p.dir.filePath(QStringLiteral("aks-gpu-ca.pem"));
    if (!writeCa(caFile, p.aks->caPem(), error)) {
        return false;
    }
    aksSource.url = p.aks->baseUrl();
    aksSource.caFile = caFile;
    aksSource.prometheusUrl = p.aks->prometheusUrl();
    aksSource.perfIntervalSeconds = 5;
    p.credentials.set(aksSource.password.value, p.aks->token());
    p.config.sources.append(aksSource);

    const QString ns = QStringLiteral("ml-team");
    const QJsonArray rwx{QStringLiteral("ReadWriteMany")};
    // A static NFS PV bound to its claim; `server:/path` names where the data lives (the
    // criteo-data PV is the ANF volume of ai-lab's Standard pool, so Strata joins them).
    const auto nfsClaim = [&](const QString &claim, const QString &server, const QString &path, const QString &size) {
        const QString pvName = QStringLiteral("nfs-") + claim;
        const QJsonObject pv{
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), pvName}}},
            {QStringLiteral("spec"),
             QJsonObject{{QStringLiteral("capacity"), QJsonObject{{QStringLiteral("storage"), size}}},
                         {QStringLiteral("accessModes"), rwx},
                         {QStringLiteral("persistentVolumeReclaimPolicy"), QStringLiteral("Retain")},
                         {QStringLiteral("storageClassName"), QString()},
                         {QStringLiteral("nfs"),
                          QJsonObject{{QStringLiteral("server"), server}, {QStringLiteral("path"), path}}},
                         {QStringLiteral("claimRef"),
                          QJsonObject{{QStringLiteral("kind"), QStringLiteral("PersistentVolumeClaim")},
                                      {QStringLiteral("namespace"), ns},
                                      {QStringLiteral("name"), claim}}}}},
            {QStringLiteral("status"), QJsonObject{{QStringLiteral("phase"), QStringLiteral("Bound")}}}};
        const QJsonObject pvc{
            {QStringLiteral("metadata"),
             QJsonObject{{QStringLiteral("name"), claim}, {QStringLiteral("namespace"), ns}}},
            {QStringLiteral("spec"),
             QJsonObject{{QStringLiteral("accessModes"), rwx},
                         {QStringLiteral("resources"),
                          QJsonObject{{QStringLiteral("requests"), QJsonObject{{QStringLiteral("storage"), size}}}}},
                         {QStringLiteral("storageClassName"), QString()},
                         {QStringLiteral("volumeName"), pvName}}},
            {QStringLiteral("status"),
             QJsonObject{{QStringLiteral("phase"), QStringLiteral("Bound")},
                         {QStringLiteral("accessModes"), rwx},
                         {QStringLiteral("capacity"), QJsonObject{{QStringLiteral("storage"), size}}}}}};
        return p.aks->createObject(QStringLiteral("persistentvolumes"), pv, error)
               && p.aks->createObject(QStringLiteral("persistentvolumeclaims"), pvc, error);
    };
    if (!nfsClaim(QStringLiteral("criteo-data"),
                  QStringLiteral("10.0.1.4"),
                  QStringLiteral("/criteo-data"),
                  QStringLiteral("1000Gi"))
        || !nfsClaim(QStringLiteral("criteo-cache"),
                     QStringLiteral("10.224.0.50"),
                     QStringLiteral("/cache/criteo"),
                     QStringLiteral("500Gi"))) {
        return false;
    }
    // A claim of a class no provisioner serves: it stays Pending, and so does its job.
    const QJsonObject scratch{
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("name"), QStringLiteral("scratch-ultra")}, {QStringLiteral("namespace"), ns}}},
        {QStringLiteral("spec"),
         QJsonObject{{QStringLiteral("accessModes"), rwx},
                     {QStringLiteral("resources"),
                      QJsonObject{{QStringLiteral("requests"),
                                   QJsonObject{{QStringLiteral("storage"), QStringLiteral("2Ti")}}}}},
                     {QStringLiteral("storageClassName"), QStringLiteral("azure-netapp-ultra")}}}};
    if (!p.aks->createObject(QStringLiteral("persistentvolumeclaims"), scratch, error)) {
        return false;
    }

    // allegro.ai's pair (seed 001): the same training reading a cached, pre-decoded copy runs
    // its GPU at 97.3 %; decoding criteo-data on the fly from the capped ANF volume, 58.1 %.
    struct Workload
    {
        const char *name;
        const char *image;
        qint64 gpuMilli;
        bool interactive;
        const char *claim; ///< nullptr = none
        int utilTenths;    ///< DCGM utilization x 10, -1 = by kind
    };
    static const Workload workloads[] = {
        {kCachedTrainJob, "nvcr.io/nvidia/pytorch:24.05-py3", 1000, false, "criteo-cache", 973},
        {kUncachedTrainJob, "nvcr.io/nvidia/pytorch:24.05-py3", 1000, false, "criteo-data", 581},
        {kIdleNotebook, "jupyter/base-notebook", 500, true, nullptr, 0},
        {kImagePullJob, "nvcr.io/nvidia/pytorch:24.13-py3", 500, true, nullptr, -1},
        {kFairShareJob, "nvcr.io/nvidia/pytorch:24.05-py3", 1000, false, "criteo-data", -1},
        {kUnboundPvcJob, "nvcr.io/nvidia/pytorch:24.05-py3", 1000, false, "scratch-ultra", -1},
    };
    for (const Workload &w : workloads) {
        sim::kube::KubeJobSpec spec;
        spec.namespace_ = ns;
        spec.name = QLatin1String(w.name);
        spec.queue = ns;
        spec.user = w.interactive ? QStringLiteral("maya.chen") : QStringLiteral("arjun.patel");
        spec.createdBy = QString();
        spec.image = QLatin1String(w.image);
        spec.gpuMilli = w.gpuMilli;
        spec.interactive = w.interactive;
        if (w.claim) {
            spec.pvcClaims = {QLatin1String(w.claim)};
        }
        spec.gpuUtilPct = w.utilTenths / 10.0;
        const QJsonObject job = sim::kube::KubeSimulator::jobManifest(spec);
        if (!p.aks->createObject(QStringLiteral("jobs"), job, error)) {
            return false;
        }
        // Submission order decides who gets the GPUs: let each one be scheduled before the next.
        p.aks->tick();
    }
    p.aks->tick(5);
    return true;
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

sim::storagegrid::StorageGridSimulator *DemoEstate::grid() const
{
    return d->grid;
}

sim::datalake::DatalakeWiring *DemoEstate::datalake() const
{
    return d->wiring.get();
}

QString DemoEstate::ontapUrl() const
{
    return d->ontap ? d->ontap->baseUrl() : QString();
}

core::DemoStarter starter(const DemoEstate::Options &options)
{
    return [options](core::AppConfig *config,
                     core::ICredentialStore **credentials) -> core::Result<std::shared_ptr<void>> {
        core::Result<std::unique_ptr<DemoEstate>> started = DemoEstate::start(options);
        if (!started) {
            return core::fail(started.error());
        }
        std::shared_ptr<DemoEstate> estate = std::move(*started);
        *config = estate->config();
        *credentials = &estate->credentials();
        return std::shared_ptr<void>(estate);
    };
}

core::Result<std::shared_ptr<void>> startForCommand(core::AppConfig *config, core::ICredentialStore **credentials)
{
    return startScopedForCommand(core::DemoScope{}, config, credentials);
}

core::Result<std::shared_ptr<void>>
startScopedForCommand(const core::DemoScope &scope, core::AppConfig *config, core::ICredentialStore **credentials)
{
    // A day of history and a little more keeps a one-shot `--demo` quick.
    DemoEstate::Options options;
    options.historyHours = scope.historyHours();
    options.scope = scope;
    return starter(options)(config, credentials);
}

} // namespace strata::demo
