// The crash-safe action journal in the history store (SQLite and PostgreSQL): an entry moves intended -> sent ->
// accepted, is claimed by exactly one process after its owner died, and is closed together with
// exactly one outcome audit entry however often it is finished.

#include "models/core/services/actions.h"
#include "models/core/store/historystore.h"
#include "tests/store/journalentries.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"
#include "tests/support/qt/pgfixture.h"

#include <QTemporaryDir>

#include <gtest/gtest.h>

using strata::testsupport::journalIntentEntry;
using strata::testsupport::kJournalT0;
using strata::testsupport::succeeded;
using strata::testsupport::valueOf;
using namespace strata::core;

namespace {

/// Stamps what a test writes without a time; every writer here passes one.
strata::testsupport::ManualClock &journalTestClock()
{
    static strata::testsupport::ManualClock clock;
    return clock;
}

AuditEntry journalOutcome(const QString &id, const QString &outcome)
{
    AuditEntry a;
    a.time = kJournalT0.addSecs(60);
    a.user = QStringLiteral("alice");
    a.actionId = id;
    a.source = QStringLiteral("ontap-ai");
    a.kind = QStringLiteral("volume.service_level");
    a.outcome = outcome;
    return a;
}

} // namespace

/// Runs a test on both dialects of the store: SQLite in memory and a scratch PostgreSQL database.
class ActionJournalDialects : public ::testing::TestWithParam<strata::testsupport::StoreBackend>
{
protected:
    [[nodiscard]] QString location() const { return m_scratch.location(); }

private:
    strata::testsupport::ScratchStore m_scratch{GetParam()};
};

INSTANTIATE_TEST_SUITE_P(Dialects,
                         ActionJournalDialects,
                         ::testing::Values(strata::testsupport::StoreBackend::Sqlite,
                                           strata::testsupport::StoreBackend::Postgres),
                         strata::testsupport::storeBackendName);

TEST(ActionJournal, PhasesHandleAndOwnerPersistAcrossReopen)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.sqlite"));
    {
        SqlHistoryStore store(path, journalTestClock());
        ASSERT_TRUE(succeeded(store.open()));
        ASSERT_TRUE(store.journalIntent(journalIntentEntry(QStringLiteral("a1"))));
        EXPECT_TRUE(
            valueOf(store.journalProgress(QStringLiteral("a1"), QStringLiteral("sent"), {}, kJournalT0.addSecs(1))));
        EXPECT_TRUE(valueOf(store.journalProgress(
            QStringLiteral("a1"), QStringLiteral("accepted"), QStringLiteral("job-1"), kJournalT0)));
        // An empty handle keeps the stored one.
        EXPECT_TRUE(valueOf(
            store.journalProgress(QStringLiteral("a1"), QStringLiteral("accepted"), {}, kJournalT0.addSecs(5))));
        EXPECT_FALSE(valueOf(store.journalProgress(QStringLiteral("nope"), QStringLiteral("sent"), {}, kJournalT0)));
    }
    SqlHistoryStore store(path, journalTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    const std::vector<JournalEntry> open = valueOf(store.openJournal());
    ASSERT_EQ(open.size(), 1U);
    EXPECT_EQ(open[0].phase, QStringLiteral("accepted"));
    EXPECT_EQ(open[0].handle, QStringLiteral("job-1"));
    EXPECT_EQ(open[0].idempotencyKey, QStringLiteral("key-a1"));
    EXPECT_EQ(open[0].owner, QStringLiteral("host/100"));
    EXPECT_EQ(open[0].heartbeat, kJournalT0.addSecs(5));
    EXPECT_EQ(open[0].submitted, kJournalT0);
}

TEST_P(ActionJournalDialects, OnlyTheFirstClaimOfADeadOwnersEntryWins)
{
    SqlHistoryStore store(location(), journalTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    ASSERT_TRUE(store.journalIntent(journalIntentEntry(QStringLiteral("a1"))));
    EXPECT_TRUE(valueOf(
        store.journalClaim(QStringLiteral("a1"), QStringLiteral("host/100"), QStringLiteral("host/200"), kJournalT0)));
    EXPECT_FALSE(valueOf(
        store.journalClaim(QStringLiteral("a1"), QStringLiteral("host/100"), QStringLiteral("host/300"), kJournalT0)));
    EXPECT_EQ(valueOf(store.journalEntry(QStringLiteral("a1")))->owner, QStringLiteral("host/200"));
}

TEST_P(ActionJournalDialects, FinishWritesExactlyOneOutcomeAndClosesTheEntry)
{
    SqlHistoryStore store(location(), journalTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    ASSERT_TRUE(store.journalIntent(journalIntentEntry(QStringLiteral("a1"))));
    EXPECT_GT(valueOf(store.journalFinish(journalOutcome(QStringLiteral("a1"), QStringLiteral("succeeded")))), 0);
    // A second process recovering the same action (or a replay) records nothing more.
    EXPECT_EQ(valueOf(store.journalFinish(journalOutcome(QStringLiteral("a1"), QStringLiteral("failed")))), 0);
    EXPECT_TRUE(valueOf(store.openJournal()).empty());
    const auto entry = valueOf(store.journalEntry(QStringLiteral("a1")));
    ASSERT_TRUE(entry.has_value());
    EXPECT_EQ(entry->phase, QStringLiteral("finished"));
    EXPECT_EQ(entry->outcome, QStringLiteral("succeeded"));
    EXPECT_FALSE(valueOf(
        store.journalClaim(QStringLiteral("a1"), QStringLiteral("host/100"), QStringLiteral("h/2"), kJournalT0)));
    const std::vector<AuditEntry> audit = valueOf(store.auditLog(0));
    ASSERT_EQ(audit.size(), 1U);
    EXPECT_EQ(audit[0].outcome, QStringLiteral("succeeded"));
    // An action that was never journaled (no store at submit) still gets its entry.
    EXPECT_GT(valueOf(store.journalFinish(journalOutcome(QStringLiteral("b2"), QStringLiteral("failed")))), 0);
    EXPECT_EQ(valueOf(store.auditLog(0)).size(), 2U);
    // A retry of the same action reopens its entry.
    ASSERT_TRUE(store.journalIntent(journalIntentEntry(QStringLiteral("a1"))));
    EXPECT_EQ(valueOf(store.openJournal()).size(), 1U);
}

TEST(ActionJournal, RequestJsonRoundTripsEveryField)
{
    ActionRequest r(ActionKind::CacheCommit, QStringLiteral("dgx"), QStringLiteral("v1"), QStringLiteral("s1"));
    r.name = QStringLiteral("n");
    r.comment = QStringLiteral("c");
    r.job.name = QStringLiteral("train-1");
    r.job.project = QStringLiteral("team-a");
    r.job.image = QStringLiteral("nvcr.io/x:1");
    r.job.gpus = 500;
    r.job.type = JobType::Interactive;
    r.job.command = {QStringLiteral("python")};
    r.job.args = {QStringLiteral("a"), QStringLiteral("b")};
    r.job.pvcs = {PvcMount{QStringLiteral("data"), QStringLiteral("/mnt/data"), true}};
    r.job.user = QStringLiteral("bob");
    r.job.durationSeconds = 30;
    r.jobIds = {QStringLiteral("ns/j")};
    r.project = QStringLiteral("p");
    r.quota = 3000;
    r.targetLevel = QStringLiteral("Premium");
    r.targetPool = QStringLiteral("pool-premium");
    r.createPool = true;
    r.poolSizeBytes = 4398046511104;
    r.scheduleId = 7;
    r.scheduleEdge = QDateTime(QDate(2026, 11, 27), QTime(8, 0), Qt::UTC);
    r.datasetId = QStringLiteral("d");
    r.datasetSource = QStringLiteral("grid");
    r.commitId = QStringLiteral("abc");
    r.cacheTarget = QStringLiteral("t");
    r.evictReason = QStringLiteral("why");
    const auto back = actionRequestFromJson(actionRequestToJson(r));
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, r);
    EXPECT_FALSE(actionRequestFromJson(QStringLiteral("{\"kind\":\"no.such\"}")).has_value());
    EXPECT_FALSE(actionRequestFromJson(QStringLiteral("not json")).has_value());
}
