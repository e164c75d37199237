// The model layer against the ONTAP simulator over real HTTPS: polling, health, staleness and
// the snapshot/clone actions, including a failing ONTAP job and a lost response.

#include "models/core/domain/estate.h"
#include "models/core/services/historyservice.h"
#include "models/core/sources/ontap/ontapsource.h"
#include "models/core/sources/source.h"
#include "tests/integration/simfixture.h"
#include "tests/support/qt/corestatus.h"

#include <QElapsedTimer>
#include <QThreadPool>

using namespace strata;
using namespace strata::testsupport;
using FaultRule = sim::ontap::FaultRule;

namespace {

class OntapSourceTest : public SimFixture
{
protected:
    core::SystemClock clock;
    std::unique_ptr<core::HistoryService> history;
    std::unique_ptr<core::Engine> engine;

    void SetUp() override
    {
        SimFixture::SetUp();
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

    core::SourceStatus status() { return *engine->status(QStringLiteral("ontap-ai")); }

    void startAndWait()
    {
        engine->setSources({sourceConfig()});
        ASSERT_TRUE(waitFor([&] {
            return engine->allPolledOnce();
        })) << "first poll never finished";
    }

    core::Ptr<core::Volume> volumeNamed(const QString &name)
    {
        for (const auto &v : engine->estate().volumes().all()) {
            if (v->name == name) {
                return v;
            }
        }
        return nullptr;
    }

    /// Loads a volume's snapshots into the estate (what the detail panel does).
    void loadSnapshots(const core::Volume &v)
    {
        bool done = false;
        engine->source(v.source)->snapshotProvider()->fetchSnapshots(v.id, [&](const QString &error) {
            EXPECT_TRUE(error.isEmpty()) << error.toStdString();
            done = true;
        });
        ASSERT_TRUE(waitFor([&] {
            return done;
        }));
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

    std::vector<core::AuditEntry> audit()
    {
        std::vector<core::AuditEntry> out;
        bool done = false;
        history->auditLog(100, {}, engine.get(), [&](core::Result<std::vector<core::AuditEntry>> e) {
            out = testsupport::valueOf(std::move(e));
            done = true;
        });
        EXPECT_TRUE(waitFor([&] {
            return done;
        }));
        return out;
    }
};

} // namespace

TEST_F(OntapSourceTest, FirstPoll_PublishesEveryVolumeWithHealthAndIdentity)
{
    startAndWait();
    const core::SourceStatus s = status();
    EXPECT_EQ(s.health, core::Health::Ok) << s.lastError.toStdString();
    EXPECT_FALSE(s.stale);
    EXPECT_EQ(s.systemName, QStringLiteral("ontap-ai"));
    EXPECT_EQ(s.systemVersion, QStringLiteral("9.14.1"));
    EXPECT_EQ(int(engine->estate().volumes().all().size()), simulator->volumeCount());
    const auto v = volumeNamed(QStringLiteral("chest_xray"));
    ASSERT_TRUE(v);
    const auto simVolume = simulator->volume(v->id);
    ASSERT_TRUE(simVolume);
    EXPECT_EQ(v->svm, QStringLiteral("svm_ai"));
    EXPECT_GT(v->sizeBytes, 0);
    EXPECT_GT(v->usedBytes, 0);
    EXPECT_EQ(v->snapshotCount, simulator->snapshotCount(v->id));
    EXPECT_FALSE(engine->estate().svms().all().empty());
    EXPECT_FALSE(engine->estate().aggregates().all().empty());
    EXPECT_FALSE(engine->estate().qosPolicies().all().empty());
    // The FlexCache list is read after the volumes: the cache volumes are still marked as such.
    const auto cache = volumeNamed(QStringLiteral("chest_xray_cache"));
    ASSERT_TRUE(cache);
    EXPECT_TRUE(cache->isFlexCache);
    EXPECT_FALSE(v->isFlexCache);
    EXPECT_EQ(cache->style, QStringLiteral("flexgroup"));
}

TEST_F(OntapSourceTest, CreateSnapshot_RunsTheJobAndAudits)
{
    startAndWait();
    const auto v = volumeNamed(QStringLiteral("chest_xray"));
    ASSERT_TRUE(v);
    loadSnapshots(*v);
    const int before = simulator->snapshotCount(v->id);
    core::ActionRequest r{core::ActionKind::SnapshotCreate,
                          v->source,
                          v->id,
                          {},
                          QStringLiteral("strata_it_1"),
                          QStringLiteral("from test")};
    const core::ActionRecord *rec = runAction(r);
    ASSERT_EQ(rec->state, core::ActionState::Succeeded) << rec->message.toStdString();
    EXPECT_FALSE(rec->reconciled);
    EXPECT_EQ(simulator->snapshotCount(v->id), before + 1);
    EXPECT_TRUE(simulator->snapshotNames(v->id).contains(QStringLiteral("strata_it_1")));
    // The snapshot list refreshes after success.
    EXPECT_TRUE(waitFor([&] {
        const auto list = engine->estate().snapshots().scope(core::Estate::snapshotScope(v->source, v->id));
        return list && int(list->size()) == before + 1;
    }));
    const auto entries = audit();
    ASSERT_GE(entries.size(), 2u);
    EXPECT_EQ(entries[0].outcome, QStringLiteral("succeeded"));
    EXPECT_EQ(entries[0].user, QStringLiteral("tester"));
    EXPECT_EQ(entries[0].kind, QStringLiteral("snapshot.create"));
    EXPECT_TRUE(entries[0].target.contains(QStringLiteral("chest_xray@strata_it_1")));
    // The same name again is refused at preview time.
    EXPECT_FALSE(engine->actions().preview(r).allowed());
}

TEST_F(OntapSourceTest, FailingOntapJob_FailsTheActionWithOntapsMessage)
{
    startAndWait();
    const auto v = volumeNamed(QStringLiteral("chest_xray"));
    ASSERT_TRUE(v);
    loadSnapshots(*v);
    FaultRule rule;
    rule.method = QStringLiteral("POST");
    rule.path = QStringLiteral("/snapshots$");
    rule.kind = FaultRule::Kind::JobFailure;
    rule.message = QStringLiteral("Failed to create snapshot: the aggregate is out of space");
    rule.count = 1;
    simulator->addFaultRule(rule);
    const int before = simulator->snapshotCount(v->id);
    const core::ActionRecord *rec =
        runAction({core::ActionKind::SnapshotCreate, v->source, v->id, {}, QStringLiteral("doomed"), {}});
    ASSERT_EQ(rec->state, core::ActionState::Failed);
    EXPECT_TRUE(rec->message.contains(QStringLiteral("out of space"))) << rec->message.toStdString();
    EXPECT_EQ(simulator->snapshotCount(v->id), before);
    EXPECT_EQ(audit()[0].outcome, QStringLiteral("failed"));
}

TEST_F(OntapSourceTest, LostResponse_IsReconciledAndNeverAppliedTwice)
{
    startAndWait();
    const auto v = volumeNamed(QStringLiteral("chest_xray"));
    ASSERT_TRUE(v);
    loadSnapshots(*v);
    FaultRule rule;
    rule.method = QStringLiteral("POST");
    rule.path = QStringLiteral("/snapshots$");
    rule.kind = FaultRule::Kind::ApplyThenReset;
    rule.count = 1;
    simulator->addFaultRule(rule);
    const core::ActionRecord *rec =
        runAction({core::ActionKind::SnapshotCreate, v->source, v->id, {}, QStringLiteral("once_only"), {}});
    ASSERT_EQ(rec->state, core::ActionState::Succeeded) << rec->message.toStdString();
    EXPECT_TRUE(rec->reconciled);
    EXPECT_EQ(simulator->snapshotNames(v->id).count(QStringLiteral("once_only")), 1);
    // A user retry of the same request is refused by preview (the name exists now), and the
    // executor would reconcile anyway.
    EXPECT_FALSE(engine->actions().retry(rec->id));
}

TEST_F(OntapSourceTest, DeleteRestoreAndClone_ApplyOnTheCluster)
{
    startAndWait();
    const auto v = volumeNamed(QStringLiteral("tusimple"));
    ASSERT_TRUE(v);
    loadSnapshots(*v);
    const auto list = engine->estate().snapshots().scope(core::Estate::snapshotScope(v->source, v->id));
    ASSERT_TRUE(list);
    ASSERT_GE(list->size(), 2u);
    // Oldest snapshot: restore warns about the newer ones it deletes.
    core::Ptr<core::Snapshot> oldest = list->items().front();
    core::Ptr<core::Snapshot> newest = list->items().front();
    for (const auto &s : list->items()) {
        oldest = s->created < oldest->created ? s : oldest;
        newest = s->created > newest->created ? s : newest;
    }

    const core::ActionRecord *clone = runAction(
        {core::ActionKind::VolumeClone, v->source, v->id, newest->id, QStringLiteral("tusimple_clone_it"), {}});
    ASSERT_EQ(clone->state, core::ActionState::Succeeded) << clone->message.toStdString();
    EXPECT_TRUE(simulator->volumeByName(v->svm, QStringLiteral("tusimple_clone_it")).has_value());

    // The clone now depends on the newest snapshot: ONTAP cannot restore past it, and the
    // preview says so before anything is sent.
    ASSERT_TRUE(waitFor([&] {
        return volumeNamed(QStringLiteral("tusimple_clone_it")) != nullptr;
    }));
    const core::ActionPreview blocked =
        engine->actions().preview({core::ActionKind::SnapshotRestore, v->source, v->id, oldest->id, {}, {}});
    EXPECT_FALSE(blocked.allowed());
    EXPECT_TRUE(blocked.blockedReason.contains(QStringLiteral("tusimple_clone_it")))
        << blocked.blockedReason.toStdString();

    const core::ActionPreview restorePreview =
        engine->actions().preview({core::ActionKind::SnapshotRestore, v->source, v->id, newest->id, {}, {}});
    EXPECT_TRUE(restorePreview.destructive);
    EXPECT_FALSE(restorePreview.warnings.isEmpty());
    const core::ActionRecord *restore =
        runAction({core::ActionKind::SnapshotRestore, v->source, v->id, newest->id, {}, {}});
    ASSERT_EQ(restore->state, core::ActionState::Succeeded) << restore->message.toStdString();

    loadSnapshots(*v);
    const auto after = engine->estate().snapshots().scope(core::Estate::snapshotScope(v->source, v->id));
    ASSERT_TRUE(after);
    core::Ptr<core::Snapshot> victim;
    for (const auto &s : after->items()) {
        if (s->name != newest->name) { // the clone's parent cannot be deleted
            victim = s;
        }
    }
    ASSERT_TRUE(victim);
    const core::ActionRecord *del = runAction({core::ActionKind::SnapshotDelete, v->source, v->id, victim->id, {}, {}});
    ASSERT_EQ(del->state, core::ActionState::Succeeded) << del->message.toStdString();
    EXPECT_FALSE(simulator->snapshotNames(v->id).contains(victim->name));
}

TEST_F(OntapSourceTest, ServerErrors_KeepDataVisibleAndMarkItStale_ThenRecover)
{
    startAndWait();
    const std::size_t count = engine->estate().volumes().all().size();
    FaultRule rule;
    rule.method = QStringLiteral("GET");
    rule.path = QStringLiteral("^/api/storage/volumes$");
    rule.kind = FaultRule::Kind::Status;
    rule.status = 500;
    rule.message = QStringLiteral("internal error from test");
    const int id = simulator->addFaultRule(rule);
    engine->refresh();
    ASSERT_TRUE(waitFor(
        [&] {
            return status().health == core::Health::Degraded;
        },
        30000))
        << status().lastError.toStdString();
    EXPECT_TRUE(status().stale);
    EXPECT_TRUE(status().lastError.contains(QStringLiteral("internal error from test")))
        << status().lastError.toStdString();
    EXPECT_EQ(engine->estate().volumes().all().size(), count) << "stale data stays visible";
    simulator->removeFaultRule(id);
    engine->refresh();
    ASSERT_TRUE(waitFor(
        [&] {
            return status().health == core::Health::Ok;
        },
        30000));
    EXPECT_FALSE(status().stale);
}

TEST_F(OntapSourceTest, TruncatedAndMalformedBodies_GiveClearErrorsWithoutLosingData)
{
    startAndWait();
    const std::size_t count = engine->estate().volumes().all().size();
    for (FaultRule::Kind kind : {FaultRule::Kind::Truncate, FaultRule::Kind::Malformed}) {
        FaultRule rule;
        rule.method = QStringLiteral("GET");
        rule.path = QStringLiteral("^/api/storage/volumes$");
        rule.kind = kind;
        const int id = simulator->addFaultRule(rule);
        engine->refresh();
        ASSERT_TRUE(waitFor(
            [&] {
                return status().health != core::Health::Ok;
            },
            30000))
            << FaultRule::kindName(kind).toStdString();
        EXPECT_FALSE(status().lastError.isEmpty());
        EXPECT_EQ(engine->estate().volumes().all().size(), count);
        simulator->removeFaultRule(id);
        engine->refresh();
        ASSERT_TRUE(waitFor(
            [&] {
                return status().health == core::Health::Ok;
            },
            30000));
    }
}

TEST_F(OntapSourceTest, WrongPassword_PausesInAuthRequiredUntilFixed)
{
    credentials.set(core::credentialKey(QStringLiteral("ontap-ai")), QStringLiteral("wrong"));
    engine->setSources({sourceConfig()});
    ASSERT_TRUE(waitFor([&] {
        return status().health == core::Health::AuthRequired;
    }));
    // Bounded on purpose: pollers already in flight when the first one was refused finish
    // first, then no request may follow.
    QTest::qWait(300);
    const int requests = simulator->requestCount();
    QTest::qWait(500);
    EXPECT_EQ(simulator->requestCount(), requests) << "no retries with bad credentials";
    credentials.set(core::credentialKey(QStringLiteral("ontap-ai")), simulator->options().password);
    engine->reloadCredentials(QStringLiteral("ontap-ai"));
    ASSERT_TRUE(waitFor([&] {
        return status().health == core::Health::Ok;
    }));
    EXPECT_FALSE(engine->estate().volumes().all().empty());
}

TEST_F(OntapSourceTest, UntrustedCertificate_IsRefusedWithATlsError)
{
    core::SourceConfig s = sourceConfig();
    s.caFile.clear(); // the system store does not know the simulator's certificate
    engine->setSources({s});
    ASSERT_TRUE(waitFor([&] {
        return engine->allPolledOnce();
    }));
    EXPECT_NE(status().health, core::Health::Ok);
    EXPECT_TRUE(status().lastError.contains(QStringLiteral("TLS"), Qt::CaseInsensitive)
                || status().lastError.contains(QStringLiteral("certificate"), Qt::CaseInsensitive))
        << status().lastError.toStdString();
    EXPECT_TRUE(engine->estate().volumes().all().empty());
}

TEST_F(OntapSourceTest, MissingSecret_IsReportedAsAuthRequired)
{
    core::SourceConfig s = sourceConfig();
    s.password = core::SecretRef{core::SecretRef::Kind::Keychain, QStringLiteral("strata/nobody/password")};
    engine->setSources({s});
    ASSERT_TRUE(waitFor([&] {
        return engine->allPolledOnce();
    }));
    EXPECT_EQ(status().health, core::Health::AuthRequired);
    EXPECT_FALSE(status().lastError.isEmpty());
}

TEST_F(OntapSourceTest, PerformanceIsPolledOnlyWhileSomeoneWatches)
{
    startAndWait();
    QTest::qWait(200); // bounded on purpose: checks that no performance poll happens
    EXPECT_TRUE(engine->estate().volumePerf().all().empty()) << "no subscriber, no performance poll";
    engine->subscribePerformance();
    ASSERT_TRUE(waitFor([&] {
        return !engine->estate().volumePerf().all().empty();
    }));
    const auto perf = engine->estate().volumePerf().all();
    const auto online = std::count_if(perf.begin(), perf.end(), [](const core::Ptr<core::VolumePerf> &p) {
        return p->totalIops > 0;
    });
    EXPECT_GT(online, 0);
    engine->unsubscribePerformance();
}

// The offline volume (ONTAP sends no `space` for it) has unknown used/available/%used
// and gets no capacity sample: its history does not drop to 0 while it is offline.
TEST_F(OntapSourceTest, OfflineVolume_HasUnknownSpaceAndRecordsNoCapacitySample)
{
    startAndWait();
    const auto offline = volumeNamed(QStringLiteral("mnist_legacy"));
    const auto online = volumeNamed(QStringLiteral("chest_xray"));
    ASSERT_TRUE(offline && online);
    EXPECT_EQ(offline->state, QStringLiteral("offline"));
    EXPECT_FALSE(offline->usedBytes.has_value());
    EXPECT_FALSE(offline->availableBytes.has_value());
    EXPECT_FALSE(offline->percentUsed.has_value());
    EXPECT_GT(offline->sizeBytes, 0);
    ASSERT_TRUE(online->usedBytes.has_value());

    const QDateTime from = QDateTime::currentDateTimeUtc().addDays(-1);
    const QDateTime to = QDateTime::currentDateTimeUtc().addDays(1);
    auto samplesOf = [&](const core::Volume &v) {
        std::optional<std::vector<core::UsageSample>> out;
        history->volumeUsage(
            v.source, v.id, from, to, engine.get(), [&](core::Result<std::vector<core::UsageSample>> s) {
                out = valueOf(std::move(s));
            });
        EXPECT_TRUE(waitFor([&] {
            return out.has_value();
        }));
        return out.value_or(std::vector<core::UsageSample>{});
    };
    ASSERT_TRUE(waitFor([&] {
        return !samplesOf(*online).empty();
    })) << "the online volume's sample is recorded";
    EXPECT_TRUE(samplesOf(*offline).empty()) << "no 0 sample for a volume without space figures";
}

// A cluster that sends the headers and part of the JSON, then goes silent,
// fails the poll with a timeout within the request timeout (and its retries), names the source,
// does not hang, and the last good data stays visible, marked stale.
TEST_F(OntapSourceTest, BodyThatStallsMidway_FailsThePollInTimeAndKeepsTheDataStale)
{
    using namespace std::chrono_literals;
    core::Estate estate;
    QThreadPool pool;
    core::OntapSource::Deps deps{estate, clock, pool, nullptr, nullptr};
    deps.requestTimeout = 1s;
    core::OntapSource source(sourceConfig(), simulator->options().password, deps);
    source.start();
    ASSERT_TRUE(waitFor([&] {
        return source.status().lastSuccess.isValid();
    })) << source.status().lastError.toStdString();
    const std::size_t count = estate.volumes().all().size();
    ASSERT_GT(count, 0u);

    FaultRule rule;
    rule.method = QStringLiteral("GET");
    rule.path = QStringLiteral("^/api/storage/volumes$");
    rule.kind = FaultRule::Kind::StallBody;
    const int id = simulator->addFaultRule(rule);
    QElapsedTimer timer;
    timer.start();
    source.refresh();
    ASSERT_TRUE(waitFor(
        [&] {
            return source.status().health != core::Health::Ok;
        },
        20000))
        << "the poll hangs";
    // 3 attempts of 1 s plus the 0.5 s and 1 s back-off, with slack for a loaded machine.
    EXPECT_LT(timer.elapsed(), 9000);
    const core::SourceStatus s = source.status();
    EXPECT_EQ(s.health, core::Health::Degraded);
    EXPECT_TRUE(s.stale);
    EXPECT_EQ(s.name, QStringLiteral("ontap-ai"));
    EXPECT_TRUE(s.lastError.contains(QStringLiteral("ontap-ai")) || s.lastError.contains(simulator->baseUrl()))
        << "the error names the source: " << s.lastError.toStdString();
    EXPECT_TRUE(s.lastError.contains(QStringLiteral("time"), Qt::CaseInsensitive)) << s.lastError.toStdString();
    EXPECT_EQ(estate.volumes().all().size(), count) << "the last good data stays visible";
    EXPECT_GT(simulator->faultRules().front().fired, 0);

    simulator->removeFaultRule(id);
    source.refresh();
    ASSERT_TRUE(waitFor(
        [&] {
            return source.status().health == core::Health::Ok;
        },
        20000))
        << source.status().lastError.toStdString();
    EXPECT_FALSE(source.status().stale);
}
