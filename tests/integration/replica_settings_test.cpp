// The rate card shared by strata-server replicas on one PostgreSQL database: set on one
// replica, it reaches the other's Engine and ServiceLevels within seconds (on the store's NOTIFY,
// or on the coordinator's fallback read when nothing was signalled); two edits made at once on
// two replicas do not silently overwrite each other; and a replica starting with an unchanged
// config file keeps the store's value while one whose config file changed applies it to all.

#include "models/core/domain/clock.h"
#include "models/core/runtime/engine.h"
#include "models/core/runtime/replicas.h"
#include "models/core/runtime/sharedsettings.h"
#include "models/core/services/historyservice.h"
#include "models/core/services/servicelevels.h"
#include "models/core/store/credentialstore.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/pgfixture.h"

#include <QElapsedTimer>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>
#include <QUrl>

#include <gtest/gtest.h>

using namespace strata;
using namespace strata::testsupport;

namespace {

const QString kSettingsConfigPath = QStringLiteral("/etc/strata/config.json");

struct SettingsReplica
{
    std::unique_ptr<core::HistoryService> history;
    std::unique_ptr<core::Engine> engine;
    std::unique_ptr<core::ReplicaCoordinator> coordinator;
    std::unique_ptr<core::SharedSettings> settings; ///< last: goes first

    [[nodiscard]] core::RateCard card() const { return engine->serviceLevels().rateCard(); }
};

core::RateCard settingsCard(const QString &currency)
{
    core::RateCard card = core::RateCard::defaults();
    card.currency = currency;
    card.ontapPerGibMonth.insert(QStringLiteral("Bronze"), 0.02);
    return card;
}

class ReplicaSettingsTest : public ::testing::Test
{
protected:
    core::SystemClock clock;
    core::InMemoryCredentialStore credentials;
    std::unique_ptr<ScratchPostgresDatabase> database;
    std::vector<std::unique_ptr<SettingsReplica>> replicas;

    void SetUp() override
    {
        database = std::make_unique<ScratchPostgresDatabase>();
        ASSERT_FALSE(database->url().isEmpty());
    }

    void TearDown() override
    {
        replicas.clear();
        database.reset();
    }

    /// A replica started as strata-server does: the config's values adopted, then following its
    /// coordinator. `readEvery` is the coordinator's fallback read.
    SettingsReplica &addReplica(const QString &id,
                                const core::AppConfig &config,
                                std::chrono::milliseconds readEvery = std::chrono::milliseconds(10'000))
    {
        auto r = std::make_unique<SettingsReplica>();
        r->history =
            std::make_unique<core::HistoryService>(std::make_unique<core::SqlHistoryStore>(database->url(), clock));
        EXPECT_TRUE(r->history->openError().isEmpty()) << r->history->openError().toStdString();
        r->engine = std::make_unique<core::Engine>(
            core::Engine::Deps{clock, credentials, r->history.get(), QStringLiteral("strata-server")});
        r->engine->setLeased(true);
        core::ReplicaCoordinator::Options options;
        options.replicaId = id;
        options.leaseTime = std::chrono::milliseconds(2000);
        options.renewEvery = std::chrono::milliseconds(300);
        options.readEvery = readEvery;
        r->coordinator = std::make_unique<core::ReplicaCoordinator>(*r->engine, *r->history, options);
        r->settings = std::make_unique<core::SharedSettings>(
            *r->engine, *r->history, core::SettingWriter{QStringLiteral("strata-server"), id});
        const core::Status adopted = r->settings->adopt(config, kSettingsConfigPath);
        EXPECT_TRUE(adopted) << (adopted ? std::string() : adopted.error().message.toStdString());
        r->settings->follow(*r->coordinator);
        r->engine->setSources({});
        r->coordinator->start();
        // Up: its LISTEN (queued on the history thread by start()) is in place.
        r->history->flush();
        replicas.push_back(std::move(r));
        return *replicas.back();
    }

    static core::AppConfig configWith(const core::RateCard &card)
    {
        core::AppConfig config;
        config.rateCard = card;
        return config;
    }

    /// Sets the rate card through `replica` and waits for the store's answer.
    static core::Status setCard(SettingsReplica &replica, const core::RateCard &card)
    {
        std::optional<core::Status> result;
        replica.settings->setRateCard(card, QStringLiteral("test"), replica.engine.get(), [&](core::Status s) {
            result = std::move(s);
        });
        EXPECT_TRUE(QTest::qWaitFor(
            [&] {
                return result.has_value();
            },
            10000));
        return result.value_or(core::fail(QStringLiteral("no answer")));
    }
};

TEST_F(ReplicaSettingsTest, ARateCardSetOnOneReplicaReachesTheOthersEngineAndServiceLevelsWithinSeconds)
{
    SettingsReplica &a = addReplica(QStringLiteral("replica-a"), configWith(core::RateCard::defaults()));
    SettingsReplica &b = addReplica(QStringLiteral("replica-b"), configWith(core::RateCard::defaults()));
    const core::RateCard eur = settingsCard(QStringLiteral("EUR"));
    QElapsedTimer elapsed;
    elapsed.start();
    const core::Status written = setCard(a, eur);
    ASSERT_TRUE(written) << written.error().message.toStdString();
    EXPECT_EQ(a.card(), eur);
    // The fallback read is 10 s away: the store's notification brings it.
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return b.card() == eur;
        },
        8000))
        << b.card().currency.toStdString();
    EXPECT_LT(elapsed.elapsed(), 3000);
    EXPECT_EQ(b.engine->serviceLevels().rateCard().ontapPerGibMonth.value(QStringLiteral("Bronze")), 0.02);
    EXPECT_EQ(b.settings->stored(QString(core::kRateCardSetting))->revision, 2);

    // The audit log says who changed it, on which replica.
    core::SqlHistoryStore reader(database->url(), clock);
    ASSERT_TRUE(succeeded(reader.open()));
    const auto audit = valueOf(reader.auditLogOfKind(QStringLiteral("setting.rate_card"), {}));
    ASSERT_EQ(audit.size(), 1U);
    EXPECT_EQ(audit[0].user, QStringLiteral("strata-server"));
    EXPECT_EQ(audit[0].replica, QStringLiteral("replica-a"));
    EXPECT_EQ(audit[0].toState, QStringLiteral("revision 2"));
}

TEST_F(ReplicaSettingsTest, TwoEditsAtOnceOnTwoReplicasConflictInsteadOfOverwriting)
{
    SettingsReplica &a = addReplica(QStringLiteral("replica-a"), configWith(core::RateCard::defaults()));
    SettingsReplica &b = addReplica(QStringLiteral("replica-b"), configWith(core::RateCard::defaults()));
    const core::RateCard eur = settingsCard(QStringLiteral("EUR"));
    const core::RateCard gbp = settingsCard(QStringLiteral("GBP"));
    // Both edit revision 1 before either hears of the other's.
    std::optional<core::Status> ofA;
    std::optional<core::Status> ofB;
    a.settings->setRateCard(eur, QStringLiteral("test"), a.engine.get(), [&](core::Status s) {
        ofA = std::move(s);
    });
    b.settings->setRateCard(gbp, QStringLiteral("test"), b.engine.get(), [&](core::Status s) {
        ofB = std::move(s);
    });
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return ofA && ofB;
        },
        10000));
    ASSERT_NE(bool(*ofA), bool(*ofB)) << "exactly one of the two writes is stored";
    const core::Status &lost = *ofA ? *ofB : *ofA;
    EXPECT_EQ(lost.error().kind, core::Error::Kind::Conflict);
    EXPECT_TRUE(lost.error().message.contains(QStringLiteral("changed meanwhile")))
        << lost.error().message.toStdString();
    const core::RateCard winner = *ofA ? eur : gbp;
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return a.card() == winner && b.card() == winner;
        },
        8000));

    // The loser, now up to date, can apply its edit over the winner's.
    SettingsReplica &loser = *ofA ? b : a;
    const core::RateCard retry = settingsCard(QStringLiteral("CHF"));
    ASSERT_TRUE(setCard(loser, retry));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return a.card() == retry && b.card() == retry;
        },
        8000));
}

TEST_F(ReplicaSettingsTest, AChangeNobodySignalledArrivesWithTheCoordinatorsFallbackRead)
{
    SettingsReplica &a =
        addReplica(QStringLiteral("replica-a"), configWith(core::RateCard::defaults()), std::chrono::milliseconds(500));
    const QByteArray body = core::rateCardSettingBody(settingsCard(QStringLiteral("NOK")));
    // Written behind the store's back (no NOTIFY), as a restored backup would.
    {
        const QString name = QStringLiteral("replica-settings-raw");
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
            const QUrl u(database->url());
            db.setHostName(u.host());
            db.setPort(u.port());
            db.setUserName(u.userName());
            db.setPassword(u.password());
            db.setDatabaseName(u.path().mid(1));
            ASSERT_TRUE(db.open()) << db.lastError().text().toStdString();
            {
                QSqlQuery q(db);
                q.prepare(
                    QStringLiteral("UPDATE setting SET body = ?, revision = revision + 1 WHERE name = 'rate_card'"));
                q.addBindValue(QString::fromUtf8(body));
                ASSERT_TRUE(q.exec()) << q.lastError().text().toStdString();
                ASSERT_EQ(q.numRowsAffected(), 1);
            }
            db.close();
        }
        QSqlDatabase::removeDatabase(name);
    }
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            return a.card().currency == QStringLiteral("NOK");
        },
        5000));
}

TEST_F(ReplicaSettingsTest, AnUnchangedConfigKeepsTheStoresValueAndAChangedOneIsAppliedToAll)
{
    const core::AppConfig shipped = configWith(settingsCard(QStringLiteral("USD")));
    SettingsReplica &a = addReplica(QStringLiteral("replica-a"), shipped);
    EXPECT_EQ(a.card(), settingsCard(QStringLiteral("USD"))) << "seeded from the config";
    const core::RateCard eur = settingsCard(QStringLiteral("EUR"));
    ASSERT_TRUE(setCard(a, eur));

    // A replica (re)starting with the same config file takes the edit, not its config's value.
    SettingsReplica &b = addReplica(QStringLiteral("replica-b"), shipped);
    EXPECT_EQ(b.card(), eur);

    // The ConfigMap changes: the next replica to start applies it, and the running ones follow.
    const core::RateCard jpy = settingsCard(QStringLiteral("JPY"));
    SettingsReplica &c = addReplica(QStringLiteral("replica-c"), configWith(jpy));
    EXPECT_EQ(c.card(), jpy);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return a.card() == jpy && b.card() == jpy;
        },
        8000));
    core::SqlHistoryStore reader(database->url(), clock);
    ASSERT_TRUE(succeeded(reader.open()));
    const auto audit = valueOf(reader.auditLogOfKind(QStringLiteral("setting.rate_card"), {}));
    ASSERT_EQ(audit.size(), 2U);
    EXPECT_EQ(audit[0].replica, QStringLiteral("replica-c"));
    EXPECT_TRUE(audit[0].message.contains(kSettingsConfigPath)) << audit[0].message.toStdString();
}

} // namespace
