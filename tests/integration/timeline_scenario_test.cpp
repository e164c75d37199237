// The Triage timeline against three simulators at once, through one Engine: a StorageGRID alert
// fires and resolves, the Kubernetes scheduler preempts an over-quota train job when an in-quota
// job arrives, and an ANF volume moves to another capacity pool. The merged timeline must hold
// each step once, with its category, title and object, in the order it happened.

#include "demo/demoscenario.h"
#include "models/core/domain/clock.h"
#include "models/core/runtime/engine.h"
#include "models/core/runtime/timeline.h"
#include "models/core/services/historyservice.h"
#include "models/core/sources/source.h"
#include "models/core/store/credentialstore.h"
#include "simulators/azure/azuresimulator.h"
#include "simulators/common/serverthread.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "simulators/storagegrid/storagegridsimulator.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <algorithm>

using namespace strata;
using namespace std::chrono_literals;

namespace {

constexpr std::int64_t kCycleMs = 10 * 60 * 1000; // the grid simulator's alert model
constexpr std::int64_t kFiresAtMs = 2 * 60 * 1000;
constexpr std::int64_t kLastsMs = 4 * 60 * 1000;

bool waitForTimeline(const std::function<bool()> &done, int timeoutMs = 30000)
{
    return QTest::qWaitFor(done, timeoutMs);
}

QString writeCa(const QTemporaryDir &dir, const QString &name, const QByteArray &pem)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(pem);
    return path;
}

const core::TimelineEntry *findEntry(const std::vector<core::TimelineEntry> &entries,
                                     const std::function<bool(const core::TimelineEntry &)> &match)
{
    for (const core::TimelineEntry &e : entries) {
        if (match(e)) {
            return &e;
        }
    }
    return nullptr;
}

} // namespace

TEST(TimelineScenario, AlertPreemptionAndPoolChangeAppearInOrder)
{
    sim::ServerThread gridThread, kubeThread, azureThread;
    QString error;
    auto *grid = sim::storagegrid::StorageGridSimulator::startOnThread(gridThread, {}, &error);
    ASSERT_NE(grid, nullptr) << error.toStdString();
    sim::kube::KubeSimulatorOptions kubeOptions;
    kubeOptions.tickInterval = 0ms; // the test drives simulated time
    auto *kube = sim::kube::KubeSimulator::startOnThread(kubeThread, kubeOptions, &error);
    ASSERT_NE(kube, nullptr) << error.toStdString();
    sim::azure::AzureSimulatorOptions azureOptions;
    azureOptions.lroDuration = 100ms;
    auto *azure = sim::azure::AzureSimulator::startOnThread(azureThread, azureOptions, &error);
    ASSERT_NE(azure, nullptr) << error.toStdString();

    // Put the grid's clock 30 s into the alert window of the previous cycle: the alert is firing
    // and began well before everything else in this test.
    const std::int64_t realMs = grid->nowMs();
    const std::int64_t windowStart = (realMs / kCycleMs - 1) * kCycleMs + kFiresAtMs;
    grid->advanceClock(std::chrono::milliseconds(windowStart + 30'000 - realMs));

    QTemporaryDir dir;
    core::InMemoryCredentialStore credentials;
    core::SystemClock clock;
    core::HistoryService history(
        std::make_unique<core::SqlHistoryStore>(dir.filePath(QStringLiteral("h.sqlite")), clock));
    core::Engine engine({clock, credentials, &history, QStringLiteral("tester")});

    core::SourceConfig g;
    g.name = QStringLiteral("datalake");
    g.kind = core::SourceKind::StorageGrid;
    g.url = grid->managementUrl();
    g.username = QStringLiteral("root");
    credentials.set(core::credentialKey(g.name), grid->options().rootPassword);
    g.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(g.name)};
    g.caFile = writeCa(dir, QStringLiteral("grid.pem"), grid->caPem());
    g.configIntervalSeconds = 3600;
    g.perfIntervalSeconds = 3600;

    core::SourceConfig k;
    k.name = QStringLiteral("dgx");
    k.kind = core::SourceKind::Kubernetes;
    k.url = kube->baseUrl();
    credentials.set(core::credentialKey(k.name), kube->token());
    k.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(k.name)};
    k.caFile = writeCa(dir, QStringLiteral("kube.pem"), kube->caPem());
    k.perfIntervalSeconds = 5;

    core::SourceConfig a;
    a.name = QStringLiteral("azure-ai");
    a.kind = core::SourceKind::Azure;
    a.url = azure->baseUrl();
    a.authorityUrl = azure->baseUrl();
    a.tenantId = azure->options().tenantId;
    a.clientId = azure->options().clientId;
    a.subscriptionId = azure->options().subscriptionId;
    credentials.set(core::credentialKey(a.name), azureOptions.clientSecret);
    a.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(a.name)};
    a.caFile = writeCa(dir, QStringLiteral("azure.pem"), azure->caPem());
    a.configIntervalSeconds = 3600;
    a.perfIntervalSeconds = 3600;

    engine.setSources({g, k, a});
    ASSERT_TRUE(waitForTimeline([&] {
        return engine.allPolledOnce();
    }));
    core::Timeline &timeline = engine.timeline();
    ASSERT_TRUE(waitForTimeline([&] {
        return timeline.auditLoaded();
    }));

    // 1. The alert is firing.
    QString alertId;
    ASSERT_TRUE(waitForTimeline([&] {
        for (const auto &alert : engine.estate().gridAlerts().all(g.name)) {
            if (alert->startsAt.toMSecsSinceEpoch() == windowStart && !alert->resolved) {
                alertId = alert->id;
            }
        }
        return !alertId.isEmpty();
    }));
    // 2. Four minutes later on the grid it is resolved.
    grid->advanceClock(std::chrono::milliseconds(kLastsMs));
    engine.refresh(g.name);
    ASSERT_TRUE(waitForTimeline([&] {
        const auto alert = engine.estate().gridAlerts().find(g.name, g.name + QLatin1Char('/') + alertId);
        return alert && alert->resolved;
    }));

    // 3. d-2-gg arrives in team-d's quota: the scheduler preempts team-c's over-quota c-4-gg.
    const core::ActionRequest submit = demo::DemoScenario().nextRequest();
    const auto submittedSubmitted = engine.actions().submit(submit);
    const QString submitted = submittedSubmitted ? *submittedSubmitted : QString();
    if (!submittedSubmitted) {
        error = submittedSubmitted.error().message;
    }
    ASSERT_FALSE(submitted.isEmpty()) << error.toStdString();
    ASSERT_TRUE(waitForTimeline([&] {
        return engine.actions().find(submitted)->state != core::ActionState::Running;
    }));
    kube->tick(5);
    ASSERT_TRUE(waitForTimeline([&] {
        const auto c4 = engine.estate().jobs().find(k.name, k.name + QStringLiteral("/runai-team-c/c-4-gg"));
        return c4 && c4->status == core::JobStatus::Preempted;
    }));
    // The timeline's entry follows the scheduler's event, which a busy machine can deliver after
    // the job's status: wait for the entry itself.
    ASSERT_TRUE(waitForTimeline([&] {
        const std::vector<core::TimelineEntry> all = timeline.entries();
        return std::any_of(all.cbegin(), all.cend(), [](const core::TimelineEntry &e) {
            return e.category == core::TimelineCategory::Scheduler && e.title == QLatin1String("Job preempted")
                   && e.objectId == QLatin1String("runai-team-c/c-4-gg");
        });
    }));

    // 4. criteo-data moves from its Standard pool to pool-premium.
    core::Ptr<core::Volume> criteo;
    for (const auto &v : engine.estate().volumes().scope(a.name)->items()) {
        if (v->name == QLatin1String("criteo-data")) {
            criteo = v;
        }
    }
    ASSERT_TRUE(criteo);
    const QString oldPool = criteo->aggregate;
    core::ActionRequest move;
    move.kind = core::ActionKind::ServiceLevelChange;
    move.source = a.name;
    move.volumeId = criteo->id;
    move.targetLevel = QStringLiteral("Premium");
    const auto movedSubmitted = engine.actions().submit(move);
    const QString moved = movedSubmitted ? *movedSubmitted : QString();
    if (!movedSubmitted) {
        error = movedSubmitted.error().message;
    }
    ASSERT_FALSE(moved.isEmpty()) << error.toStdString();
    ASSERT_TRUE(waitForTimeline([&] {
        return engine.actions().find(moved)->state != core::ActionState::Running;
    }));
    ASSERT_EQ(engine.actions().find(moved)->state, core::ActionState::Succeeded)
        << engine.actions().find(moved)->message.toStdString();
    // Wait for criteo-data's own entry: another volume's service-level entry can come first, and
    // criteo's follows the next Azure poll (slow under ASan on a busy machine).
    ASSERT_TRUE(waitForTimeline([&] {
        core::TimelineFilter f;
        f.categories = {QStringLiteral("service_level")};
        const std::vector<core::TimelineEntry> levels = timeline.entries(f);
        return std::any_of(levels.cbegin(), levels.cend(), [&](const core::TimelineEntry &e) {
            return e.objectId == criteo->id;
        });
    }));

    const std::vector<core::TimelineEntry> entries = timeline.entries();
    const auto *fired = findEntry(entries, [&](const core::TimelineEntry &e) {
        return e.id == QStringLiteral("alert:datalake:%1:fired").arg(alertId);
    });
    const auto *resolved = findEntry(entries, [&](const core::TimelineEntry &e) {
        return e.id == QStringLiteral("alert:datalake:%1:resolved").arg(alertId);
    });
    const auto *preempted = findEntry(entries, [&](const core::TimelineEntry &e) {
        return e.category == core::TimelineCategory::Scheduler && e.title == QLatin1String("Job preempted")
               && e.objectId == QLatin1String("runai-team-c/c-4-gg");
    });
    const auto *moveStarted = findEntry(entries, [&](const core::TimelineEntry &e) {
        return e.category == core::TimelineCategory::Operation && e.id.contains(moved)
               && e.title == QLatin1String("Change service level started");
    });
    const auto *moveDone = findEntry(entries, [&](const core::TimelineEntry &e) {
        return e.category == core::TimelineCategory::Operation && e.id.contains(moved)
               && e.title == QLatin1String("Change service level succeeded");
    });
    const auto *poolChanged = findEntry(entries, [&](const core::TimelineEntry &e) {
        return e.category == core::TimelineCategory::ServiceLevel && e.objectId == criteo->id;
    });
    ASSERT_TRUE(fired && resolved && preempted && moveStarted && moveDone && poolChanged)
        << "fired " << bool(fired) << ", resolved " << bool(resolved) << ", preempted " << bool(preempted)
        << ", move started " << bool(moveStarted) << ", move done " << bool(moveDone) << ", pool changed "
        << bool(poolChanged);

    EXPECT_EQ(fired->category, core::TimelineCategory::Alert);
    EXPECT_EQ(fired->system, QStringLiteral("storagegrid"));
    EXPECT_EQ(fired->severity, core::TimelineSeverity::Error); // a major alert
    EXPECT_EQ(fired->title, QStringLiteral("Alert fired: Low installed node memory"));
    EXPECT_EQ(fired->time.toMSecsSinceEpoch(), windowStart);
    EXPECT_EQ(resolved->title, QStringLiteral("Alert resolved: Low installed node memory"));
    EXPECT_EQ(resolved->time.toMSecsSinceEpoch(), windowStart + kLastsMs);

    EXPECT_EQ(preempted->system, QStringLiteral("kubernetes"));
    EXPECT_EQ(preempted->source, QStringLiteral("dgx"));
    EXPECT_EQ(preempted->objectKind, QStringLiteral("job"));
    EXPECT_EQ(preempted->project, QStringLiteral("team-c"));
    EXPECT_EQ(preempted->severity, core::TimelineSeverity::Warning);
    EXPECT_TRUE(preempted->message.contains(QStringLiteral("team-d"))) << preempted->message.toStdString();

    EXPECT_EQ(moveStarted->system, QStringLiteral("azure"));
    EXPECT_EQ(moveDone->objectKind, QStringLiteral("volume"));
    EXPECT_EQ(moveDone->objectId, criteo->id);
    EXPECT_EQ(moveDone->user, QStringLiteral("tester"));
    EXPECT_EQ(poolChanged->system, QStringLiteral("azure"));
    EXPECT_EQ(poolChanged->volume, QStringLiteral("criteo-data"));
    EXPECT_TRUE(poolChanged->message.contains(QStringLiteral("%1 → pool-premium").arg(oldPool)))
        << poolChanged->message.toStdString();

    // On one time axis, in the order the steps happened.
    EXPECT_LT(fired->time, resolved->time);
    EXPECT_LT(resolved->time, preempted->time);
    EXPECT_LE(preempted->time, moveStarted->time);
    EXPECT_LE(moveStarted->time, moveDone->time);
    EXPECT_LE(moveStarted->time, poolChanged->time);

    // Other systems' entries are there too (the preempted job's Kubernetes events, the
    // reconstructed queue of the cluster), and nothing is duplicated by another poll.
    const int before = timeline.size();
    const QDateTime refreshed = clock.now();
    engine.refresh();
    // Every source has read its system again since the refresh (Kubernetes: its lists).
    ASSERT_TRUE(waitForTimeline([&] {
        const auto statuses = engine.statuses();
        return std::all_of(statuses.begin(), statuses.end(), [&](const core::SourceStatus &s) {
            return s.lastSuccess.isValid() && s.lastSuccess >= refreshed;
        });
    }));
    core::TimelineFilter scheduler;
    scheduler.categories = {QStringLiteral("scheduler")};
    scheduler.jobs = {QStringLiteral("c-4-gg")};
    int preemptions = 0;
    for (const core::TimelineEntry &e : timeline.entries(scheduler)) {
        preemptions += e.title == QLatin1String("Job preempted") ? 1 : 0;
    }
    EXPECT_EQ(preemptions, 1);
    EXPECT_GE(timeline.size(), before);
    core::TimelineFilter kubeEvents;
    kubeEvents.systems = {QStringLiteral("kubernetes")};
    kubeEvents.categories = {QStringLiteral("event")};
    EXPECT_FALSE(timeline.entries(kubeEvents).empty());
}
