// Shared settings in the history store (SQLite and PostgreSQL): writes compare and set
// on the revision, so two concurrent edits never silently overwrite each other; every audited
// write names who and which replica; and the start-up precedence rule (store/settingstore.h) seeds
// the store from the config file, keeps an edit made through the store while the config file is
// unchanged, and applies a config value again once it changed.

#include "models/core/store/historystore.h"
#include "models/core/store/settingstore.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"
#include "tests/support/qt/pgfixture.h"

#include <QJsonDocument>

#include <gtest/gtest.h>

using strata::testsupport::succeeded;
using strata::testsupport::valueOf;
using namespace strata::core;

namespace {

strata::testsupport::ManualClock &settingTestClock()
{
    static strata::testsupport::ManualClock clock;
    return clock;
}

RateCard cardIn(const QString &currency, int coolDown = 60)
{
    RateCard card = RateCard::defaults();
    card.currency = currency;
    card.coolDownMinutes = coolDown;
    return card;
}

const SettingWriter kAlice{QStringLiteral("alice"), QStringLiteral("replica-a")};
const SettingWriter kBob{QStringLiteral("bob"), QStringLiteral("replica-b")};

class SharedSettingDialects : public ::testing::TestWithParam<strata::testsupport::StoreBackend>
{
protected:
    void SetUp() override
    {
        ASSERT_FALSE(m_scratch.location().isEmpty());
        store = std::make_unique<SqlHistoryStore>(m_scratch.location(), settingTestClock());
        ASSERT_TRUE(succeeded(store->open()));
    }

    /// Another process on the same database: a second connection on PostgreSQL; the same store
    /// on SQLite's in-memory database (which one connection owns).
    IHistoryStore &other()
    {
        if (GetParam() == strata::testsupport::StoreBackend::Sqlite) {
            return *store;
        }
        if (!m_other) {
            m_other = std::make_unique<SqlHistoryStore>(m_scratch.location(), settingTestClock());
            EXPECT_TRUE(succeeded(m_other->open()));
        }
        return *m_other;
    }

    std::optional<SharedSetting> stored(const QString &name)
    {
        const auto all = store->sharedSettings();
        EXPECT_TRUE(all) << all.error().message.toStdString();
        for (const SharedSetting &s : all ? *all : std::vector<SharedSetting>{}) {
            if (s.name == name) {
                return s;
            }
        }
        return std::nullopt;
    }

    std::unique_ptr<SqlHistoryStore> store;

private:
    strata::testsupport::ScratchStore m_scratch{GetParam()};
    std::unique_ptr<SqlHistoryStore> m_other;
};

INSTANTIATE_TEST_SUITE_P(Dialects,
                         SharedSettingDialects,
                         ::testing::Values(strata::testsupport::StoreBackend::Sqlite,
                                           strata::testsupport::StoreBackend::Postgres),
                         strata::testsupport::storeBackendName);

TEST_P(SharedSettingDialects, WritesCompareAndSetTheRevisionAndAuditWhoAndWhere)
{
    EXPECT_TRUE(store->sharedSettings()->empty());
    const QByteArray eur = rateCardSettingBody(cardIn(QStringLiteral("EUR")));
    const auto first = writeSharedSetting(*store,
                                          {QString(kRateCardSetting),
                                           eur,
                                           0,
                                           QStringLiteral("hash-1"),
                                           kAlice,
                                           QStringLiteral("desktop rate card dialog")});
    ASSERT_TRUE(first) << first.error().message.toStdString();
    EXPECT_EQ(first->revision, 1);
    EXPECT_EQ(first->body, eur);
    EXPECT_EQ(first->updatedBy, QStringLiteral("alice on replica-a"));
    EXPECT_EQ(first->configHash, QStringLiteral("hash-1"));
    EXPECT_TRUE(first->updated.isValid());
    EXPECT_EQ(first->updated.timeSpec(), Qt::UTC);
    EXPECT_LT(std::abs(first->updated.secsTo(QDateTime::currentDateTimeUtc())), 120) << "the database's clock";
    EXPECT_EQ(stored(QString(kRateCardSetting)), *first);

    // Two editors both read revision 1: the first write wins, the second is refused and
    // changes nothing, whichever connection it comes from.
    const QByteArray gbp = rateCardSettingBody(cardIn(QStringLiteral("GBP")));
    const QByteArray chf = rateCardSettingBody(cardIn(QStringLiteral("CHF")));
    const auto won = writeSharedSetting(
        *store, {QString(kRateCardSetting), gbp, 1, QStringLiteral("hash-1"), kAlice, QStringLiteral("first")});
    ASSERT_TRUE(won) << won.error().message.toStdString();
    EXPECT_EQ(won->revision, 2);
    const auto lost = writeSharedSetting(
        other(), {QString(kRateCardSetting), chf, 1, QStringLiteral("hash-1"), kBob, QStringLiteral("second")});
    ASSERT_FALSE(lost);
    EXPECT_EQ(lost.error().kind, Error::Kind::Conflict);
    EXPECT_TRUE(lost.error().message.contains(QStringLiteral("revision 2 by alice on replica-a")))
        << lost.error().message.toStdString();
    EXPECT_EQ(stored(QString(kRateCardSetting))->body, gbp);
    // A second first write (revision 0) of an existing setting is a conflict too.
    const auto again =
        writeSharedSetting(other(), {QString(kRateCardSetting), chf, 0, QString(), kBob, QStringLiteral("seed")});
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().kind, Error::Kind::Conflict);

    // Only the two writes that happened are in the audit log, newest first, with who and where.
    const std::vector<AuditEntry> audit = valueOf(store->auditLogOfKind(QStringLiteral("setting.rate_card"), {}));
    ASSERT_EQ(audit.size(), 2U);
    EXPECT_EQ(audit[0].user, QStringLiteral("alice"));
    EXPECT_EQ(audit[0].replica, QStringLiteral("replica-a"));
    EXPECT_EQ(audit[0].target, QStringLiteral("rate card"));
    EXPECT_EQ(audit[0].fromState, QStringLiteral("revision 1"));
    EXPECT_EQ(audit[0].toState, QStringLiteral("revision 2"));
    EXPECT_EQ(audit[0].outcome, QStringLiteral("succeeded"));
    EXPECT_EQ(audit[0].message, QStringLiteral("first"));
    EXPECT_EQ(audit[1].message, QStringLiteral("desktop rate card dialog"));
    EXPECT_TRUE(audit[1].fromState.isEmpty());
}

TEST_P(SharedSettingDialects, TheConfigSeedsTheStoreAnEditSurvivesAndAChangedConfigIsAppliedAgain)
{
    const QString config = QStringLiteral("/etc/strata/config.json");
    const QByteArray usd = rateCardSettingBody(cardIn(QStringLiteral("USD")));
    const SettingSeed seedUsd{QString(kRateCardSetting), usd, config};

    // First start: the store has none, the config's value seeds it (not audited: nothing changed).
    const auto seeded = adoptConfigSetting(*store, seedUsd, kAlice);
    ASSERT_TRUE(seeded) << seeded.error().message.toStdString();
    EXPECT_EQ(seeded->origin, SettingOrigin::Seeded);
    EXPECT_EQ(seeded->setting.body, usd);
    EXPECT_EQ(seeded->setting.revision, 1);
    EXPECT_EQ(seeded->setting.configHash, settingBodyHash(usd));
    EXPECT_TRUE(valueOf(store->auditLogOfKind(QStringLiteral("setting.rate_card"), {})).empty());

    // An admin edits it through the store; a restart with the unchanged config keeps the edit.
    const QByteArray eur = rateCardSettingBody(cardIn(QStringLiteral("EUR"), 15));
    ASSERT_TRUE(writeSharedSetting(
        other(), {QString(kRateCardSetting), eur, 1, seeded->setting.configHash, kBob, QStringLiteral("cli")}));
    const auto restarted = adoptConfigSetting(*store, seedUsd, kAlice);
    ASSERT_TRUE(restarted);
    EXPECT_EQ(restarted->origin, SettingOrigin::Store);
    EXPECT_EQ(restarted->setting.body, eur);
    EXPECT_EQ(restarted->setting.revision, 2);
    const auto parsed = rateCardFromSetting(restarted->setting.body);
    ASSERT_TRUE(parsed);
    EXPECT_EQ(*parsed, cardIn(QStringLiteral("EUR"), 15));

    // The config file (a Helm ConfigMap) changes: its value is applied again, audited.
    const QByteArray jpy = rateCardSettingBody(cardIn(QStringLiteral("JPY")));
    const auto changed = adoptConfigSetting(*store, SettingSeed{QString(kRateCardSetting), jpy, config}, kAlice);
    ASSERT_TRUE(changed);
    EXPECT_EQ(changed->origin, SettingOrigin::ConfigChanged);
    EXPECT_EQ(changed->setting.body, jpy);
    EXPECT_EQ(changed->setting.revision, 3);
    EXPECT_EQ(changed->setting.configHash, settingBodyHash(jpy));
    const auto audit = valueOf(store->auditLogOfKind(QStringLiteral("setting.rate_card"), {}));
    ASSERT_EQ(audit.size(), 2U);
    EXPECT_EQ(audit[0].user, QStringLiteral("alice"));
    EXPECT_EQ(audit[0].replica, QStringLiteral("replica-a"));
    EXPECT_TRUE(audit[0].message.contains(config)) << audit[0].message.toStdString();

    // Every other replica starting with that config afterwards just takes the store's value.
    const auto next = adoptConfigSetting(other(), SettingSeed{QString(kRateCardSetting), jpy, config}, kBob);
    ASSERT_TRUE(next);
    EXPECT_EQ(next->origin, SettingOrigin::Store);
    EXPECT_EQ(next->setting.revision, 3);
}

TEST_P(SharedSettingDialects, AValueNoConfigWroteIsKeptAndRemembersTheConfigsHash)
{
    // `strata-server settings set` on a fresh store, before any server started.
    const QByteArray set = cacheTargetsSettingBody({CacheTargetConfig{
        QStringLiteral("scratch"), QStringLiteral("dgx"), QStringLiteral("ml"), QStringLiteral("cache-pvc")}});
    ASSERT_TRUE(
        writeSharedSetting(*store, {QString(kCacheTargetsSetting), set, 0, QString(), kBob, QStringLiteral("cli")}));
    const QByteArray none = cacheTargetsSettingBody({});
    const auto adopted = adoptConfigSetting(*store, SettingSeed{QString(kCacheTargetsSetting), none, {}}, kAlice);
    ASSERT_TRUE(adopted) << adopted.error().message.toStdString();
    EXPECT_EQ(adopted->origin, SettingOrigin::Store);
    EXPECT_EQ(adopted->setting.body, set);
    EXPECT_EQ(adopted->setting.configHash, settingBodyHash(none));
    EXPECT_EQ(adopted->setting.updatedBy, QStringLiteral("bob on replica-b"));
    const auto targets = cacheTargetsFromSetting(adopted->setting.body, nullptr);
    ASSERT_TRUE(targets) << targets.error().message.toStdString();
    ASSERT_EQ(targets->size(), 1);
    EXPECT_EQ(targets->first().pvc, QStringLiteral("cache-pvc"));
    // Checked against the sources when given: "dgx" is not a Kubernetes source here.
    const QList<SourceConfig> noClusters;
    EXPECT_FALSE(cacheTargetsFromSetting(adopted->setting.body, &noClusters));
    // The next start with the same config: nothing written.
    const auto again = adoptConfigSetting(*store, SettingSeed{QString(kCacheTargetsSetting), none, {}}, kAlice);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->setting.revision, adopted->setting.revision);
}

TEST(SharedSettingBodies, AreCanonicalAndBadBodiesAreClearErrors)
{
    // Equal cards, equal bodies and hashes, whatever order the keys were written in.
    const RateCard card = cardIn(QStringLiteral("EUR"));
    const QByteArray body = rateCardSettingBody(card);
    const QJsonObject reordered = QJsonDocument::fromJson(body).object();
    EXPECT_EQ(rateCardSettingBody(*RateCard::fromJson(reordered)), body);
    EXPECT_EQ(settingBodyHash(body).size(), 64);
    EXPECT_NE(settingBodyHash(body), settingBodyHash(rateCardSettingBody(cardIn(QStringLiteral("USD")))));

    const auto truncated = rateCardFromSetting(body.left(body.size() / 2));
    ASSERT_FALSE(truncated);
    EXPECT_EQ(truncated.error().kind, Error::Kind::Invalid);
    EXPECT_TRUE(truncated.error().message.contains(QStringLiteral("rate card")));
    const auto negative = rateCardFromSetting(QByteArrayLiteral("{\"gpu_default_per_hour\": -1}"));
    EXPECT_FALSE(negative);
    const auto notArray = cacheTargetsFromSetting(QByteArrayLiteral("{}"), nullptr);
    ASSERT_FALSE(notArray);
    EXPECT_TRUE(notArray.error().message.contains(QStringLiteral("cache targets")));
    const auto duplicate = cacheTargetsFromSetting(
        QByteArrayLiteral("[{\"name\":\"a\",\"kubernetes_source\":\"k\",\"namespace\":\"n\",\"pvc\":\"p\"},"
                          "{\"name\":\"a\",\"kubernetes_source\":\"k\",\"namespace\":\"n\",\"pvc\":\"q\"}]"),
        nullptr);
    ASSERT_FALSE(duplicate);
    EXPECT_TRUE(duplicate.error().message.contains(QStringLiteral("duplicate")))
        << duplicate.error().message.toStdString();
}

} // namespace
