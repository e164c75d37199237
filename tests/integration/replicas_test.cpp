// strata-server replicas in one process: two engines with their ReplicaCoordinators
// share one PostgreSQL database and an ONTAP simulator behind two sources. Each source is polled
// by one of them, both show both sources, a change polled by one reaches the other through the
// store (a lone change at once, not after shareEvery, and not held back by another source of the
// same replica), an action submitted on the replica that does not poll the source still runs
// once, and a replica that stops hands its sources over.

#include "models/core/runtime/bundle.h"
#include "models/core/runtime/replicas.h"
#include "models/core/services/historyservice.h"
#include "tests/integration/simfixture.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/pgfixture.h"

#include <QElapsedTimer>
#include <QSignalSpy>

using namespace strata;
using namespace strata::testsupport;

namespace {

struct Replica
{
    std::unique_ptr<core::HistoryService> history;
    std::unique_ptr<core::Engine> engine;
    std::unique_ptr<core::ReplicaCoordinator> coordinator;
};

class ReplicasTest : public SimFixture
{
protected:
    core::SystemClock clock;
    std::unique_ptr<ScratchPostgresDatabase> database;
    std::vector<std::unique_ptr<Replica>> replicas;

    void SetUp() override
    {
        SimFixture::SetUp();
        database = std::make_unique<ScratchPostgresDatabase>();
        ASSERT_FALSE(database->url().isEmpty());
    }

    void TearDown() override
    {
        replicas.clear();
        database.reset();
    }

    QStringList sourceNames{QStringLiteral("ontap-a"), QStringLiteral("ontap-b")};

    QList<core::SourceConfig> sources() const
    {
        QList<core::SourceConfig> list;
        for (const QString &name : sourceNames) {
            list << sourceConfig(name);
        }
        return list;
    }

    static qint64 usedOf(core::Engine &engine, const QString &source, const QString &volume)
    {
        const auto list = engine.estate().volumes().scope(source);
        for (const auto &v : list ? list->items() : decltype(list->items()){}) {
            if (v->name == volume) {
                return v->usedBytes.value_or(-1);
            }
        }
        return -1;
    }

    Replica &addReplica(const QString &id, std::chrono::milliseconds shareEvery = std::chrono::milliseconds(100))
    {
        auto r = std::make_unique<Replica>();
        r->history =
            std::make_unique<core::HistoryService>(std::make_unique<core::SqlHistoryStore>(database->url(), clock));
        EXPECT_TRUE(r->history->openError().isEmpty()) << r->history->openError().toStdString();
        r->engine = std::make_unique<core::Engine>(core::Engine::Deps{clock, credentials, r->history.get(), id});
        r->engine->setLeased(true);
        core::ReplicaCoordinator::Options options;
        options.replicaId = id;
        options.leaseTime = std::chrono::milliseconds(2000);
        options.renewEvery = std::chrono::milliseconds(300);
        options.shareEvery = shareEvery;
        options.readEvery = std::chrono::milliseconds(500);
        r->coordinator = std::make_unique<core::ReplicaCoordinator>(*r->engine, *r->history, options);
        r->engine->setSources(sources());
        r->coordinator->start();
        replicas.push_back(std::move(r));
        return *replicas.back();
    }

    static int volumesOf(core::Engine &engine, const QString &source)
    {
        const auto list = engine.estate().volumes().scope(source);
        return list ? int(list->items().size()) : 0;
    }
};

TEST_F(ReplicasTest, EachSourceIsPolledByOneReplicaAndBothShowBoth)
{
    Replica &a = addReplica(QStringLiteral("replica-a"));
    Replica &b = addReplica(QStringLiteral("replica-b"));
    const int expected = simulator->volumeCount();
    ASSERT_GT(expected, 0);
    ASSERT_TRUE(waitFor(
        [&] {
            return a.engine->heldSources().size() == 1 && b.engine->heldSources().size() == 1
                   && a.engine->heldSources() != b.engine->heldSources();
        },
        20000))
        << a.coordinator->stats().held.join(QLatin1Char(',')).toStdString() << " / "
        << b.coordinator->stats().held.join(QLatin1Char(',')).toStdString();
    ASSERT_TRUE(waitFor(
        [&] {
            for (Replica *r : {&a, &b}) {
                for (const QString &s : {QStringLiteral("ontap-a"), QStringLiteral("ontap-b")}) {
                    if (volumesOf(*r->engine, s) != expected) {
                        return false;
                    }
                }
            }
            return true;
        },
        20000));
    // The same records on both sides, and each replica names the other as the poller of its source.
    const QString ofA = *a.engine->heldSources().cbegin();
    const QString ofB = *b.engine->heldSources().cbegin();
    EXPECT_EQ(core::sourceRecords(a.engine->estate(), ofA).volumes,
              core::sourceRecords(b.engine->estate(), ofA).volumes);
    ASSERT_TRUE(waitFor([&] {
        const auto s = b.engine->status(ofA);
        const auto t = a.engine->status(ofB);
        return s && s->polledBy == QStringLiteral("replica-a") && s->lastSuccess.isValid() && t
               && t->polledBy == QStringLiteral("replica-b") && t->lastSuccess.isValid();
    }));
    EXPECT_EQ(a.engine->status(ofB)->polledBy, QStringLiteral("replica-b"))
        << "b shared " << b.coordinator->stats().statesShared << ", a applied " << a.coordinator->stats().statesApplied
        << ", b failures " << b.coordinator->stats().leaseFailures << ", a shared "
        << a.coordinator->stats().statesShared << ", b applied " << b.coordinator->stats().statesApplied;
    EXPECT_EQ(a.engine->status(ofB)->health, b.engine->status(ofB)->health);
    EXPECT_TRUE(a.engine->allPolledOnce());
    EXPECT_TRUE(b.engine->allPolledOnce());

    // Polls reach the simulator from the owner only: refreshing on the follower asks nothing.
    const int before = simulator->requestCount();
    b.engine->refresh(ofA);
    // Bounded on purpose: what is checked is that nothing happens, which no condition can await.
    QTest::qWait(500);
    EXPECT_EQ(simulator->requestCount(), before);
    EXPECT_GE(a.coordinator->stats().statesShared, 1);
    EXPECT_GE(b.coordinator->stats().statesApplied, 1);
    EXPECT_GE(b.coordinator->stats().lastNotifyLagSeconds, 0.0);
}

TEST_F(ReplicasTest, AChangeAfterAQuietSpellReachesTheOtherReplicaWithoutWaitingForShareEvery)
{
    // shareEvery coalesces a busy source's writes; a lone change goes out at once (the viewers
    // of the other replicas waited a whole shareEvery for it: 1 s of every follower's delay).
    const auto shareEvery = std::chrono::milliseconds(5000);
    Replica &a = addReplica(QStringLiteral("replica-a"), shareEvery);
    Replica &b = addReplica(QStringLiteral("replica-b"), shareEvery);
    const int expected = simulator->volumeCount();
    ASSERT_TRUE(waitFor(
        [&] {
            return a.engine->heldSources().size() == 1 && b.engine->heldSources().size() == 1
                   && volumesOf(*b.engine, *a.engine->heldSources().cbegin()) == expected;
        },
        30000));
    const QString ofA = *a.engine->heldSources().cbegin();
    // The quiet spell is what is tested: real time longer than shareEvery must pass with no change,
    // so there is nothing to await but the time itself.
    QTest::qWait(int(shareEvery.count()) + 500);

    qint64 used = 0;
    ASSERT_EQ(simulator->changeVolumeUsed(QStringLiteral("svm_ai"), QStringLiteral("chest_xray"), 1 << 20, &used),
              sim::ontap::OntapSimulator::SpaceChange::Changed);
    QElapsedTimer sinceRefresh;
    sinceRefresh.start();
    a.engine->refresh(ofA);
    ASSERT_TRUE(waitFor(
        [&] {
            return usedOf(*b.engine, ofA, QStringLiteral("chest_xray")) == used;
        },
        20000));
    EXPECT_LT(sinceRefresh.elapsed(), 3000) << "the poll's records waited for the share timer";
}

TEST_F(ReplicasTest, OneSourcesSharedChangeDoesNotHoldBackAnotherSourceOfTheSameReplica)
{
    // Three sources over two replicas: one polls two. Right after one of its sources shared its
    // records, a change of its other source still goes out at once.
    sourceNames << QStringLiteral("ontap-c");
    const auto shareEvery = std::chrono::milliseconds(5000);
    Replica &a = addReplica(QStringLiteral("replica-a"), shareEvery);
    Replica &b = addReplica(QStringLiteral("replica-b"), shareEvery);
    const int expected = simulator->volumeCount();
    Replica *two = nullptr;
    Replica *other = nullptr;
    ASSERT_TRUE(waitFor(
        [&] {
            two = a.engine->heldSources().size() == 2 ? &a : &b;
            other = two == &a ? &b : &a;
            if (two->engine->heldSources().size() != 2 || other->engine->heldSources().size() != 1) {
                return false;
            }
            for (const QString &s : two->engine->heldSources()) {
                if (volumesOf(*other->engine, s) != expected) {
                    return false;
                }
            }
            return true;
        },
        30000));
    QStringList held(two->engine->heldSources().cbegin(), two->engine->heldSources().cend());
    held.sort();
    QTest::qWait(int(shareEvery.count()) + 500); // the quiet spell under test, as above

    qint64 used = 0;
    ASSERT_EQ(simulator->changeVolumeUsed(QStringLiteral("svm_ai"), QStringLiteral("chest_xray"), 1 << 20, &used),
              sim::ontap::OntapSimulator::SpaceChange::Changed);
    two->engine->refresh(held.at(0));
    ASSERT_TRUE(waitFor(
        [&] {
            return usedOf(*other->engine, held.at(0), QStringLiteral("chest_xray")) == used;
        },
        20000));
    QElapsedTimer sinceRefresh;
    sinceRefresh.start();
    two->engine->refresh(held.at(1));
    ASSERT_TRUE(waitFor(
        [&] {
            return usedOf(*other->engine, held.at(1), QStringLiteral("chest_xray")) == used;
        },
        20000));
    EXPECT_LT(sinceRefresh.elapsed(), 3000) << held.at(1).toStdString() << " waited for " << held.at(0).toStdString();
}

TEST_F(ReplicasTest, AnActionOnTheOtherReplicaRunsOnceAndItsResultReachesBoth)
{
    Replica &a = addReplica(QStringLiteral("replica-a"));
    Replica &b = addReplica(QStringLiteral("replica-b"));
    ASSERT_TRUE(waitFor(
        [&] {
            return a.engine->heldSources().size() == 1 && b.engine->heldSources().size() == 1
                   && volumesOf(*b.engine, QStringLiteral("ontap-a")) > 0
                   && volumesOf(*b.engine, QStringLiteral("ontap-b")) > 0
                   && volumesOf(*a.engine, QStringLiteral("ontap-a")) > 0
                   && volumesOf(*a.engine, QStringLiteral("ontap-b")) > 0;
        },
        20000));
    const QString ofA = *a.engine->heldSources().cbegin();
    core::Ptr<core::Volume> volume;
    for (const auto &v : b.engine->estate().volumes().scope(ofA)->items()) {
        if (v->name == QStringLiteral("chest_xray")) {
            volume = v;
        }
    }
    ASSERT_TRUE(volume);
    ASSERT_NE(volume->qosPolicy, QStringLiteral("ai-training"));

    // Submitted on b, which does not poll ofA: b's standing-by source runs it against the system.
    core::ActionRequest request(core::ActionKind::ServiceLevelChange, ofA, volume->id);
    request.targetLevel = QStringLiteral("ai-training");
    const auto submitted = b.engine->actions().submit(request);
    ASSERT_TRUE(submitted.hasValue()) << submitted.error().message.toStdString();
    ASSERT_TRUE(waitFor(
        [&] {
            return b.engine->actions().find(*submitted)->state != core::ActionState::Running;
        },
        30000));
    EXPECT_EQ(b.engine->actions().find(*submitted)->state, core::ActionState::Succeeded)
        << b.engine->actions().find(*submitted)->message.toStdString();
    EXPECT_EQ(simulator->volume(volume->id)->qosPolicy.name, QStringLiteral("ai-training"));

    // The owner's next poll carries the change to both estates.
    a.engine->refresh(ofA);
    ASSERT_TRUE(waitFor(
        [&] {
            const auto onB = b.engine->estate().volume(ofA, volume->id);
            const auto onA = a.engine->estate().volume(ofA, volume->id);
            return onA && onB && onA->qosPolicy == QStringLiteral("ai-training")
                   && onB->qosPolicy == QStringLiteral("ai-training");
        },
        20000));
}

TEST_F(ReplicasTest, AReplicaThatStopsHandsItsSourcesToTheOther)
{
    Replica &a = addReplica(QStringLiteral("replica-a"));
    Replica &b = addReplica(QStringLiteral("replica-b"));
    ASSERT_TRUE(waitFor(
        [&] {
            return a.engine->heldSources().size() == 1 && b.engine->heldSources().size() == 1;
        },
        20000));
    const QString ofA = *a.engine->heldSources().cbegin();
    a.coordinator->stop();
    EXPECT_TRUE(a.engine->heldSources().isEmpty());
    ASSERT_TRUE(waitFor(
        [&] {
            return b.engine->heldSources().size() == 2;
        },
        10000));
    EXPECT_EQ(b.coordinator->stats().takeovers, 0) << "released, not expired";
    // b polls it now: its own status, naming itself.
    ASSERT_TRUE(waitFor([&] {
        const auto s = b.engine->status(ofA);
        return s && s->polledBy == QStringLiteral("replica-b") && s->lastSuccess.isValid();
    }));
}

} // namespace
