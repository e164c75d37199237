// The Azure source against the Azure simulator over real HTTPS, through the Engine: the ANF
// and AKS inventory, a service-level change that moves a volume to another pool (same
// Volume.id, new ARM id), snapshots, a rejected client secret, a malformed ARM answer, and an
// AKS cluster's kubeconfig turned into a Kubernetes source.

#include "models/core/domain/estate.h"
#include "models/core/services/capacityforecast.h"
#include "models/core/services/historyservice.h"
#include "models/core/sources/azure/azuresource.h"
#include "models/core/store/historystore.h"
#include "models/rows/forecastrows.h"
#include "models/rows/resources.h"
#include "simulators/azure/azuresimulator.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "tests/integration/simfixture.h"
#include "tests/support/qt/corestatus.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>

using namespace strata;
using namespace std::chrono_literals;

namespace {

constexpr qint64 kGiB = 1024LL * 1024 * 1024;

class AzureSourceTest : public ::testing::Test
{
protected:
    sim::ServerThread thread;
    sim::azure::AzureSimulator *simulator = nullptr;
    QTemporaryDir dir;
    QString caFile;
    core::InMemoryCredentialStore credentials;
    core::SystemClock clock;
    std::unique_ptr<core::HistoryService> history;
    std::unique_ptr<core::Engine> engine;
    const QString name = QStringLiteral("azure-ai");

    void startSimulator(sim::azure::AzureSimulatorOptions options = {})
    {
        options.lroDuration = 100ms;
        QString error;
        simulator = sim::azure::AzureSimulator::startOnThread(thread, options, &error);
        ASSERT_NE(simulator, nullptr) << error.toStdString();
        caFile = dir.filePath(QStringLiteral("ca.pem"));
        QFile f(caFile);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(simulator->caPem());
        credentials.set(core::credentialKey(name), options.clientSecret);
        history = std::make_unique<core::HistoryService>(
            std::make_unique<core::SqlHistoryStore>(dir.filePath(QStringLiteral("h.sqlite")), clock));
        engine = std::make_unique<core::Engine>(
            core::Engine::Deps{clock, credentials, history.get(), QStringLiteral("tester")});
    }

    void TearDown() override
    {
        engine.reset();
        history.reset();
    }

    core::SourceConfig config() const
    {
        core::SourceConfig s;
        s.name = name;
        s.kind = core::SourceKind::Azure;
        s.url = simulator->baseUrl();
        s.authorityUrl = simulator->baseUrl();
        s.tenantId = simulator->options().tenantId;
        s.clientId = simulator->options().clientId;
        s.subscriptionId = simulator->options().subscriptionId;
        s.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(name)};
        s.caFile = caFile;
        s.configIntervalSeconds = 3600;
        s.perfIntervalSeconds = 3600;
        return s;
    }

    static bool waitFor(const std::function<bool()> &done, int timeoutMs = 20000)
    {
        return QTest::qWaitFor(done, timeoutMs);
    }

    void startAndWait(const QList<core::SourceConfig> &extra = {})
    {
        engine->setSources(QList<core::SourceConfig>{config()} + extra);
        ASSERT_TRUE(waitFor([&] {
            return engine->allPolledOnce();
        })) << "first poll never finished";
    }

    core::SourceStatus status() { return *engine->status(name); }

    core::Ptr<core::Volume> volumeNamed(const QString &volumeName)
    {
        const auto list = engine->estate().volumes().scope(name);
        if (list) {
            for (const auto &v : list->items()) {
                if (v->name == volumeName) {
                    return v;
                }
            }
        }
        return nullptr;
    }

    core::Ptr<core::CapacityPool> poolNamed(const QString &poolName)
    {
        for (const auto &p : engine->estate().capacityPools().all(name)) {
            if (p->name == poolName) {
                return p;
            }
        }
        return nullptr;
    }

    void loadSnapshots(const core::Volume &v)
    {
        bool done = false;
        engine->source(name)->snapshotProvider()->fetchSnapshots(v.id, [&](const QString &error) {
            EXPECT_TRUE(error.isEmpty()) << error.toStdString();
            done = true;
        });
        ASSERT_TRUE(waitFor([&] {
            return done;
        }));
    }

    core::Ptr<core::Snapshot> snapshotNamed(const core::Volume &v, const QString &snapshotName)
    {
        const auto list = engine->estate().snapshots().scope(core::Estate::snapshotScope(v.source, v.id));
        if (list) {
            for (const auto &s : list->items()) {
                if (s->name == snapshotName) {
                    return s;
                }
            }
        }
        return nullptr;
    }

    const core::ActionRecord *runAction(const core::ActionRequest &request)
    {
        const core::ActionPreview preview = engine->actions().preview(request);
        EXPECT_TRUE(preview.allowed()) << preview.blockedReason.toStdString();
        QString error;
        const auto idSubmitted = engine->actions().submit(request);
        const QString id = idSubmitted ? *idSubmitted : QString();
        if (!idSubmitted) {
            error = idSubmitted.error().message;
        }
        EXPECT_FALSE(id.isEmpty()) << error.toStdString();
        EXPECT_TRUE(waitFor(
            [&] {
                return engine->actions().find(id)->state != core::ActionState::Running;
            },
            30000));
        return engine->actions().find(id);
    }

    /// Perf samples of a volume in the history store (flushed first).
    std::vector<core::VolumePerfSample> perfHistory(const QString &volumeId)
    {
        history->flush();
        std::vector<core::VolumePerfSample> out;
        bool done = false;
        history->volumePerfHistory(name,
                                   volumeId,
                                   clock.now().addSecs(-86400),
                                   clock.now().addSecs(3600),
                                   engine.get(),
                                   [&](core::Result<std::vector<core::VolumePerfSample>> samples) {
                                       out = testsupport::valueOf(std::move(samples));
                                       done = true;
                                   });
        EXPECT_TRUE(waitFor([&] {
            return done;
        }));
        return out;
    }
};

} // namespace

TEST_F(AzureSourceTest, InventoryPublishesAnfVolumesPoolsAndAksClusters)
{
    startSimulator();
    startAndWait();
    const core::SourceStatus s = status();
    EXPECT_EQ(s.health, core::Health::Ok) << s.lastError.toStdString();
    EXPECT_EQ(s.kind, core::SourceKind::Azure);
    EXPECT_EQ(s.systemName, QStringLiteral("ai-lab"));

    const auto criteo = volumeNamed(QStringLiteral("criteo-data"));
    ASSERT_TRUE(criteo);
    const QString armId = simulator->volumeId(
        QStringLiteral("anf-ai-lab"), QStringLiteral("pool-standard"), QStringLiteral("criteo-data"));
    const auto simVolume = simulator->volume(armId);
    ASSERT_TRUE(simVolume);
    EXPECT_EQ(
        criteo->id,
        simVolume->value(QStringLiteral("properties")).toObject().value(QStringLiteral("fileSystemId")).toString());
    EXPECT_EQ(criteo->armId.toLower(), armId.toLower());
    EXPECT_TRUE(criteo->isAnf());
    EXPECT_EQ(criteo->svm, QStringLiteral("anf-ai-lab"));
    EXPECT_EQ(criteo->aggregate, QStringLiteral("pool-standard"));
    EXPECT_EQ(criteo->serviceLevel, QStringLiteral("Standard"));
    EXPECT_EQ(criteo->resourceGroup, QStringLiteral("ai-lab-rg"));
    EXPECT_EQ(criteo->location, QStringLiteral("eastus"));
    EXPECT_EQ(criteo->style, QStringLiteral("anf"));
    EXPECT_EQ(criteo->state, QStringLiteral("online"));
    EXPECT_EQ(criteo->sizeBytes, 1000 * kGiB);
    EXPECT_TRUE(criteo->protocols.contains(QStringLiteral("NFSv3"))) << criteo->protocols.toStdString();
    EXPECT_EQ(criteo->nasPath, QStringLiteral("10.0.1.4:/criteo-data"));
    EXPECT_EQ(criteo->qosType, QStringLiteral("Auto"));
    EXPECT_NEAR(criteo->throughputMibps, 1000.0 / 1024.0 * 16.0, 0.1);
    ASSERT_TRUE(volumeNamed(QStringLiteral("tusimple")));
    EXPECT_EQ(engine->estate().volumes().scope(name)->size(), 2u);

    const auto standard = poolNamed(QStringLiteral("pool-standard"));
    const auto premium = poolNamed(QStringLiteral("pool-premium"));
    ASSERT_TRUE(standard);
    ASSERT_TRUE(premium);
    EXPECT_EQ(standard->serviceLevel, QStringLiteral("Standard"));
    EXPECT_EQ(standard->account, QStringLiteral("anf-ai-lab"));
    EXPECT_EQ(standard->sizeBytes, 4 * 1024 * kGiB);
    EXPECT_EQ(standard->allocatedBytes, 1500 * kGiB);
    EXPECT_EQ(standard->volumeCount, 2);
    EXPECT_EQ(premium->serviceLevel, QStringLiteral("Premium"));
    EXPECT_EQ(premium->volumeCount, 0);
    EXPECT_EQ(standard->id, standard->armId.toLower());

    const auto clusters = engine->estate().aksClusters().all(name);
    ASSERT_EQ(clusters.size(), 1u);
    EXPECT_EQ(clusters[0]->name, QStringLiteral("aks-gpu"));
    EXPECT_EQ(clusters[0]->resourceGroup, QStringLiteral("ai-lab-rg"));
    EXPECT_EQ(clusters[0]->nodeCount, 4);
    EXPECT_TRUE(clusters[0]->agentPools.contains(QStringLiteral("gpupool: 3 x Standard_NC6s_v3")))
        << clusters[0]->agentPools.join(QStringLiteral("; ")).toStdString();

    // Azure Monitor: criteo-data sits at its Standard cap; used bytes arrive with the metrics.
    ASSERT_TRUE(waitFor([&] {
        return engine->estate().volumePerf().find(name, name + QLatin1Char('/') + criteo->id) != nullptr;
    })) << status().lastError.toStdString();
    const auto perf = engine->estate().volumePerf().find(name, name + QLatin1Char('/') + criteo->id);
    EXPECT_NEAR(perf->throughputBps / (1024.0 * 1024.0), criteo->throughputMibps, 1.0);
    EXPECT_GT(perf->totalIops, 0);
    EXPECT_TRUE(waitFor([&] {
        const auto v = volumeNamed(QStringLiteral("criteo-data"));
        return v && v->usedBytes > 0;
    }));
}

TEST_F(AzureSourceTest, ForecastRowsOfAnfVolumesAndPoolsCarryTheirOwnRowsFigures)
{
    // Used bytes come from Azure Monitor only, after the inventory: until then a volume's level
    // is unknown, and the forecasts (`strata get forecasts`, the web's and the desktop's) show
    // the level its volume row shows, never the 0 B of a level not yet known.
    startSimulator();
    startAndWait();
    ASSERT_TRUE(waitFor([&] {
        const auto v = volumeNamed(QStringLiteral("criteo-data"));
        return v && v->usedBytes.value_or(0) > 0;
    }));
    QSignalSpy computed(&engine->forecasts(), &core::ForecastService::changed);
    engine->forecasts().refresh();
    ASSERT_TRUE(computed.wait(20000));

    const QDateTime now = clock.now();
    const QJsonArray volumes = rows::toJson(rows::volumeRows(engine->estate().volumes().all(name)));
    const QJsonArray forecasts = rows::toJson(rows::forecastRows(engine->forecasts().forecasts(), now));
    const auto forecastOf = [&](const QString &kind, const QString &id) {
        for (const QJsonValue &f : forecasts) {
            if (f[QStringLiteral("kind")].toString() == kind && f[QStringLiteral("id")].toString() == id) {
                return f.toObject();
            }
        }
        return QJsonObject();
    };
    ASSERT_EQ(volumes.size(), 2);
    for (const QJsonValue &v : volumes) {
        const QJsonObject f = forecastOf(QStringLiteral("volume"), v[QStringLiteral("id")].toString());
        ASSERT_FALSE(f.isEmpty()) << v[QStringLiteral("name")].toString().toStdString();
        EXPECT_GT(v[QStringLiteral("used_bytes")].toDouble(), 0.0);
        EXPECT_EQ(f[QStringLiteral("used_bytes")], v[QStringLiteral("used_bytes")])
            << v[QStringLiteral("name")].toString().toStdString();
        EXPECT_EQ(f[QStringLiteral("capacity_bytes")], v[QStringLiteral("usable_bytes")]);
        EXPECT_EQ(f[QStringLiteral("percent_used")], v[QStringLiteral("percent_used")]);
    }
    for (const auto &pool : engine->estate().capacityPools().all(name)) {
        const QJsonObject f = forecastOf(QStringLiteral("pool"), pool->id);
        ASSERT_FALSE(f.isEmpty()) << pool->name.toStdString();
        EXPECT_EQ(f[QStringLiteral("used_bytes")].toDouble(), double(pool->allocatedBytes)) << pool->name.toStdString();
        EXPECT_EQ(f[QStringLiteral("capacity_bytes")].toDouble(), double(pool->sizeBytes));
    }
}

TEST_F(AzureSourceTest, ServiceLevelChangeMovesTheVolumeAndStrataFollowsIt)
{
    startSimulator();
    startAndWait();
    const auto before = volumeNamed(QStringLiteral("criteo-data"));
    ASSERT_TRUE(before);
    core::ActionRequest request;
    request.kind = core::ActionKind::ServiceLevelChange;
    request.source = name;
    request.volumeId = before->id;
    request.targetLevel = QStringLiteral("Premium");

    const core::ActionPreview preview = engine->actions().preview(request);
    ASSERT_TRUE(preview.allowed()) << preview.blockedReason.toStdString();
    EXPECT_TRUE(preview.toState.contains(QStringLiteral("pool-premium"))) << preview.toState.toStdString();
    EXPECT_TRUE(preview.effects.join(QLatin1Char('\n')).contains(QStringLiteral("no data is copied")));
    EXPECT_TRUE(preview.effects.join(QLatin1Char('\n')).contains(QStringLiteral("pool-premium/volumes/criteo-data")));

    const core::ActionRecord *rec = runAction(request);
    ASSERT_EQ(rec->state, core::ActionState::Succeeded) << rec->message.toStdString();
    EXPECT_FALSE(rec->reconciled);
    EXPECT_TRUE(rec->message.contains(QStringLiteral("pool-premium"))) << rec->message.toStdString();

    // Same Volume.id, new ARM id, the new level and cap, nothing duplicated or dropped.
    ASSERT_TRUE(waitFor([&] {
        const auto v = engine->estate().volume(name, before->id);
        return v && v->serviceLevel == QLatin1String("Premium");
    }));
    const auto after = engine->estate().volume(name, before->id);
    EXPECT_EQ(after->aggregate, QStringLiteral("pool-premium"));
    EXPECT_NE(after->armId, before->armId);
    EXPECT_TRUE(
        after->armId.contains(QStringLiteral("/capacityPools/pool-premium/volumes/criteo-data"), Qt::CaseInsensitive))
        << after->armId.toStdString();
    EXPECT_NEAR(after->throughputMibps, 1000.0 / 1024.0 * 64.0, 0.1);
    EXPECT_EQ(engine->estate().volumes().scope(name)->size(), 2u);
    EXPECT_EQ(poolNamed(QStringLiteral("pool-premium"))->volumeCount, 1);
    const auto simVolume = simulator->volume(before->id);
    ASSERT_TRUE(simVolume);
    EXPECT_EQ(simVolume->value(QStringLiteral("id")).toString().toLower(), after->armId.toLower());

    // History continues under the same id: perf samples at the old cap, then at the new one:
    // the source polls the metrics under the new ARM id right after the move (not 5 min later).
    const double mib = 1024.0 * 1024.0;
    auto hasCap = [&](double capMibps) {
        for (const core::VolumePerfSample &sample : perfHistory(before->id)) {
            if (std::abs(sample.capBps / mib - capMibps) < 0.1) {
                return true;
            }
        }
        return false;
    };
    EXPECT_TRUE(waitFor([&] {
        return hasCap(before->throughputMibps);
    }));
    EXPECT_TRUE(waitFor([&] {
        return hasCap(after->throughputMibps);
    })) << status().lastError.toStdString();

    // Asked again, it is already there: the preview says so, and a retried attempt reconciles.
    EXPECT_FALSE(engine->actions().preview(request).allowed());
    auto work = engine->source(name)->actionExecutor()->prepare(request);
    core::ActionContext ctx;
    ctx.attempt = 2;
    const core::ActionResult again = work(ctx);
    EXPECT_TRUE(again.ok) << again.message.toStdString();
    EXPECT_TRUE(again.reconciled) << again.message.toStdString();
}

TEST_F(AzureSourceTest, SnapshotsAreCreatedDeletedAndRevertedTo)
{
    startSimulator();
    startAndWait();
    const auto v = volumeNamed(QStringLiteral("tusimple"));
    ASSERT_TRUE(v);
    loadSnapshots(*v);
    const auto existing = engine->estate().snapshots().scope(core::Estate::snapshotScope(name, v->id));
    ASSERT_TRUE(existing);
    const size_t count = existing->size();
    ASSERT_GE(count, 1u);

    core::ActionRequest create{core::ActionKind::SnapshotCreate, name, v->id, {}, QStringLiteral("strata-it-1"), {}};
    const core::ActionRecord *rec = runAction(create);
    ASSERT_EQ(rec->state, core::ActionState::Succeeded) << rec->message.toStdString();
    ASSERT_TRUE(waitFor([&] {
        return snapshotNamed(*v, QStringLiteral("strata-it-1")) != nullptr;
    }));
    EXPECT_FALSE(engine->actions().preview(create).allowed()) << "same name twice";

    const auto created = snapshotNamed(*v, QStringLiteral("strata-it-1"));
    core::ActionRequest remove{core::ActionKind::SnapshotDelete, name, v->id, created->id, {}, {}};
    rec = runAction(remove);
    ASSERT_EQ(rec->state, core::ActionState::Succeeded) << rec->message.toStdString();
    ASSERT_TRUE(waitFor([&] {
        return snapshotNamed(*v, QStringLiteral("strata-it-1")) == nullptr;
    }));
    EXPECT_EQ(engine->estate().snapshots().scope(core::Estate::snapshotScope(name, v->id))->size(), count);

    const auto first = existing->items().front();
    core::ActionRequest revert{core::ActionKind::SnapshotRestore, name, v->id, first->id, {}, {}};
    const core::ActionPreview preview = engine->actions().preview(revert);
    EXPECT_TRUE(preview.destructive);
    rec = runAction(revert);
    ASSERT_EQ(rec->state, core::ActionState::Succeeded) << rec->message.toStdString();
    EXPECT_TRUE(rec->message.contains(first->name)) << rec->message.toStdString();
}

TEST_F(AzureSourceTest, RejectedClientSecretIsAuthRequiredNamingEntraIdsReason)
{
    startSimulator();
    credentials.set(core::credentialKey(name), QStringLiteral("not-the-secret"));
    startAndWait();
    const core::SourceStatus s = status();
    EXPECT_EQ(s.health, core::Health::AuthRequired) << s.lastError.toStdString();
    EXPECT_TRUE(s.lastError.contains(QStringLiteral("AADSTS7000215"))) << s.lastError.toStdString();
    EXPECT_FALSE(s.lastError.contains(QStringLiteral("not-the-secret")));
    EXPECT_TRUE(engine->estate().volumes().all(name).empty());
}

TEST_F(AzureSourceTest, MalformedAnswerIsDegradedAndKeepsTheLastGoodData)
{
    startSimulator();
    startAndWait();
    ASSERT_EQ(status().health, core::Health::Ok);
    ASSERT_EQ(engine->estate().volumes().scope(name)->size(), 2u);
    QString error;
    ASSERT_GE(simulator->addFaultRule(QJsonObject{{QStringLiteral("method"), QStringLiteral("GET")},
                                                  {QStringLiteral("path"), QStringLiteral("/volumes$")},
                                                  {QStringLiteral("kind"), QStringLiteral("malformed")}},
                                      &error),
              0)
        << error.toStdString();
    engine->source(name)->refresh();
    ASSERT_TRUE(waitFor([&] {
        return status().health == core::Health::Degraded;
    })) << status().lastError.toStdString();
    const core::SourceStatus s = status();
    EXPECT_TRUE(s.stale);
    EXPECT_FALSE(s.lastError.isEmpty());
    EXPECT_EQ(engine->estate().volumes().scope(name)->size(), 2u);

    simulator->clearFaultRules();
    engine->source(name)->refresh();
    EXPECT_TRUE(waitFor([&] {
        return status().health == core::Health::Ok;
    })) << status().lastError.toStdString();
}

TEST_F(AzureSourceTest, TestButtonNamesTheSubscriptionAndCounts)
{
    startSimulator();
    QThreadPool pool;
    QObject context;
    std::optional<std::pair<bool, QString>> outcome;
    core::AzureSource::testConnection(
        config(), simulator->options().clientSecret, pool, &context, [&](bool ok, QString m) {
            outcome = std::make_pair(ok, m);
        });
    ASSERT_TRUE(waitFor([&] {
        return outcome.has_value();
    }));
    EXPECT_TRUE(outcome->first) << outcome->second.toStdString();
    EXPECT_TRUE(outcome->second.contains(QStringLiteral("ai-lab (Enabled)"))) << outcome->second.toStdString();
    EXPECT_TRUE(outcome->second.contains(QStringLiteral("1 NetApp account"))) << outcome->second.toStdString();
    EXPECT_TRUE(outcome->second.contains(QStringLiteral("1 AKS cluster"))) << outcome->second.toStdString();

    outcome.reset();
    core::AzureSource::testConnection(config(), QStringLiteral("wrong"), pool, &context, [&](bool ok, QString m) {
        outcome = std::make_pair(ok, m);
    });
    ASSERT_TRUE(waitFor([&] {
        return outcome.has_value();
    }));
    EXPECT_FALSE(outcome->first);
    EXPECT_TRUE(outcome->second.contains(QStringLiteral("AADSTS7000215"))) << outcome->second.toStdString();
}

TEST_F(AzureSourceTest, AksKubeconfigBecomesAKubernetesSourceThatReachesTheCluster)
{
    sim::ServerThread kubeThread;
    sim::kube::KubeSimulatorOptions kubeOptions;
    kubeOptions.preset = sim::kube::KubeSimulatorOptions::Preset::Aks;
    kubeOptions.tickInterval = std::chrono::milliseconds(0);
    QString error;
    auto *kube = sim::kube::KubeSimulator::startOnThread(kubeThread, kubeOptions, &error);
    ASSERT_NE(kube, nullptr) << error.toStdString();
    sim::azure::AzureSimulatorOptions options;
    options.aksKubeconfig = kube->kubeconfig(QStringLiteral("aks-gpu"));
    startSimulator(options);
    startAndWait();

    auto *azure = qobject_cast<core::AzureSource *>(engine->source(name));
    ASSERT_NE(azure, nullptr);
    const auto clusters = engine->estate().aksClusters().all(name);
    ASSERT_EQ(clusters.size(), 1u);
    std::optional<std::pair<QString, QString>> got;
    QObject context;
    azure->fetchAksKubeconfig(clusters[0]->armId, &context, [&](QString yaml, QString fetchError) {
        got = std::make_pair(yaml, fetchError);
    });
    ASSERT_TRUE(waitFor([&] {
        return got.has_value();
    }));
    ASSERT_TRUE(got->second.isEmpty()) << got->second.toStdString();
    ASSERT_TRUE(got->first.contains(QStringLiteral("aks-gpu"))) << got->first.toStdString();

    // What "Add as Kubernetes source" does: the YAML becomes the new source's secret.
    const QString kubeName = QStringLiteral("aks-gpu");
    credentials.set(core::credentialKey(kubeName), got->first);
    core::SourceConfig k;
    k.name = kubeName;
    k.kind = core::SourceKind::Kubernetes;
    k.kubeconfigInSecret = true;
    k.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(kubeName)};
    engine->setSources({config(), k});
    ASSERT_TRUE(waitFor(
        [&] {
            return !engine->estate().gpuNodes().all(kubeName).empty();
        },
        30000))
        << engine->status(kubeName)->lastError.toStdString();
    EXPECT_EQ(engine->status(kubeName)->url, QStringLiteral("kubeconfig (stored secret)"));
    // The three gpupool nodes, one V100 each (the system node has no GPU).
    ASSERT_TRUE(waitFor([&] {
        return engine->estate().gpuNodes().all(kubeName).size() == 3u;
    }));
    for (const auto &node : engine->estate().gpuNodes().all(kubeName)) {
        EXPECT_TRUE(node->name.startsWith(QStringLiteral("aks-gpupool-"))) << node->name.toStdString();
        EXPECT_EQ(node->gpuCount, 1);
        EXPECT_TRUE(node->gpuProduct.contains(QStringLiteral("V100"))) << node->gpuProduct.toStdString();
    }
}

TEST_F(AzureSourceTest, ServiceLevelChangeCreatesTheTargetPoolWhenAskedTo)
{
    startSimulator();
    startAndWait();
    const auto v = volumeNamed(QStringLiteral("tusimple"));
    ASSERT_TRUE(v);
    core::ActionRequest request;
    request.kind = core::ActionKind::ServiceLevelChange;
    request.source = name;
    request.volumeId = v->id;
    request.targetLevel = QStringLiteral("Ultra");

    // No Ultra pool: the preview says what to do instead of failing later.
    core::ActionPreview preview = engine->actions().preview(request);
    EXPECT_FALSE(preview.allowed());
    EXPECT_TRUE(preview.blockedReason.contains(QStringLiteral("No Ultra capacity pool")))
        << preview.blockedReason.toStdString();
    EXPECT_TRUE(preview.blockedReason.contains(QStringLiteral("pool-ultra of 1 TiB")))
        << preview.blockedReason.toStdString();

    request.createPool = true;
    preview = engine->actions().preview(request);
    ASSERT_TRUE(preview.allowed()) << preview.blockedReason.toStdString();
    EXPECT_TRUE(preview.effects.join(QLatin1Char('\n')).contains(QStringLiteral("creates capacity pool pool-ultra")))
        << preview.effects.join(QLatin1Char('\n')).toStdString();

    const core::ActionRecord *rec = runAction(request);
    ASSERT_EQ(rec->state, core::ActionState::Succeeded) << rec->message.toStdString();
    const auto pool = simulator->pool(simulator->poolId(QStringLiteral("anf-ai-lab"), QStringLiteral("pool-ultra")));
    ASSERT_TRUE(pool);
    EXPECT_EQ(pool->value(QStringLiteral("properties")).toObject().value(QStringLiteral("serviceLevel")).toString(),
              QStringLiteral("Ultra"));
    EXPECT_TRUE(waitFor([&] {
        const auto moved = engine->estate().volume(name, v->id);
        const auto ultra = poolNamed(QStringLiteral("pool-ultra"));
        return moved && moved->serviceLevel == QLatin1String("Ultra") && ultra && ultra->volumeCount == 1;
    }));
}

TEST_F(AzureSourceTest, FailedOrVanishedPoolChangeFailsWithAzuresReasonAndMovesNothing)
{
    startSimulator();
    startAndWait();
    const auto v = volumeNamed(QStringLiteral("criteo-data"));
    ASSERT_TRUE(v);
    core::ActionRequest request;
    request.kind = core::ActionKind::ServiceLevelChange;
    request.source = name;
    request.volumeId = v->id;
    request.targetLevel = QStringLiteral("Premium");

    QString error;
    ASSERT_GE(simulator->addFaultRule(QJsonObject{{QStringLiteral("method"), QStringLiteral("POST")},
                                                  {QStringLiteral("path"), QStringLiteral("/poolChange$")},
                                                  {QStringLiteral("kind"), QStringLiteral("lroFail")},
                                                  {QStringLiteral("code"), QStringLiteral("InternalServerError")},
                                                  {QStringLiteral("message"), QStringLiteral("Pool change aborted")},
                                                  {QStringLiteral("count"), 1}},
                                      &error),
              0)
        << error.toStdString();
    const core::ActionRecord *rec = runAction(request);
    ASSERT_EQ(rec->state, core::ActionState::Failed);
    EXPECT_TRUE(rec->message.contains(QStringLiteral("Pool change aborted"))) << rec->message.toStdString();
    EXPECT_EQ(simulator->volume(v->id)->value(QStringLiteral("id")).toString().toLower(), v->armId.toLower());

    // Deleted elsewhere while Strata is about to move it.
    const auto submitted = engine->actions().submit(request);
    ASSERT_TRUE(submitted) << submitted.error().message.toStdString();
    const QString id = *submitted;
    ASSERT_TRUE(simulator->deleteVolume(v->id));
    ASSERT_TRUE(waitFor([&] {
        return engine->actions().find(id)->state != core::ActionState::Running;
    }));
    EXPECT_EQ(engine->actions().find(id)->state, core::ActionState::Failed);
    EXPECT_TRUE(engine->actions().find(id)->message.contains(QStringLiteral("deleted")))
        << engine->actions().find(id)->message.toStdString();
}
