#include "models/core/planning/chargeback.h"
#include "models/core/services/actions.h"
#include "models/core/services/servicelevels.h"
#include "models/core/store/historystore.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <cmath>
#include <map>

using namespace strata::core;
using strata::testsupport::ManualClock;
using strata::testsupport::succeeded;
using strata::testsupport::valueOf;

namespace {

const QDateTime kChargeDay(QDate(2026, 11, 10), QTime(0, 0), Qt::UTC);
constexpr qint64 kGiBBytes = 1024LL * 1024 * 1024;

QDateTime chargeAt(int hour, int minute = 0)
{
    return kChargeDay.addSecs(qint64(hour) * 3600 + qint64(minute) * 60);
}

Volume chargeVolume(const QString &source, const QString &id, const QString &level, bool anf)
{
    Volume v;
    v.source = source;
    v.id = id;
    v.name = id;
    v.svm = anf ? QStringLiteral("acct") : QStringLiteral("svm1");
    if (anf) {
        v.armId = QStringLiteral("/subscriptions/x/") + id;
        v.serviceLevel = level;
    } else {
        v.qosPolicy = level;
    }
    return v;
}

Pvc chargePvc(const QString &ns, const QString &claim, const QString &storageSource, const QString &volumeId)
{
    Pvc p;
    p.source = QStringLiteral("dgx");
    p.namespaceName = ns;
    p.name = claim;
    p.id = ns + QLatin1Char('/') + claim;
    p.phase = QStringLiteral("Bound");
    p.storageSource = storageSource;
    p.storageVolumeId = volumeId;
    return p;
}

Project chargeProject(const QString &name, const QString &ns)
{
    Project p;
    p.source = QStringLiteral("dgx");
    p.id = name;
    p.name = name;
    p.namespaceName = ns;
    return p;
}

const ChargebackLine *lineOf(const Chargeback &cb, const QString &project)
{
    for (const ChargebackLine &l : cb.lines) {
        if (!l.unattributed && l.project == project) {
            return &l;
        }
    }
    return nullptr;
}

const ChargebackLine *unattributedLine(const Chargeback &cb)
{
    for (const ChargebackLine &l : cb.lines) {
        if (l.unattributed) {
            return &l;
        }
    }
    return nullptr;
}

class ChargebackTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("history.db"));
        m_store = std::make_unique<SqlHistoryStore>(m_path, m_clock);
        ASSERT_TRUE(succeeded(m_store->open()));
    }

    /// Polls every 5 minutes from `from` up to (excluding) `to`, each project at `alloc`/`util`.
    void pollProjects(const QDateTime &from, const QDateTime &to, const std::vector<ProjectSample> &samples)
    {
        for (QDateTime t = from; t < to; t = t.addSecs(300)) {
            ASSERT_TRUE(m_store->recordProjectSamples(QStringLiteral("dgx"), samples, t));
        }
    }

    void pollVolumes(const QString &source, const QDateTime &from, const QDateTime &to, std::vector<VolumeUsage> usage)
    {
        for (QDateTime t = from; t < to; t = t.addSecs(180)) {
            ASSERT_TRUE(m_store->recordVolumeUsage(source, usage, t));
        }
    }

    Chargeback dayChargeback(const ChargebackInput &in, const RateCard &card = RateCard::defaults())
    {
        const auto period = chargebackRange(kChargeDay, kChargeDay.addDays(1));
        EXPECT_TRUE(period.hasValue());
        auto cb = computeChargeback(*m_store, in, *period, card, kChargeDay.addDays(2));
        EXPECT_TRUE(cb.hasValue());
        return cb ? *cb : Chargeback{};
    }

    QTemporaryDir m_dir;
    QString m_path;
    ManualClock m_clock{kChargeDay};
    std::unique_ptr<SqlHistoryStore> m_store;
};

TEST(ChargebackPeriodTest, MonthIsACalendarMonthInUtcAndBadTextIsRefusedWithTheField)
{
    const auto nov = chargebackMonth(QStringLiteral("2026-11"));
    ASSERT_TRUE(nov.hasValue());
    EXPECT_EQ(nov->from, QDateTime(QDate(2026, 11, 1), QTime(0, 0), Qt::UTC));
    EXPECT_EQ(nov->to, QDateTime(QDate(2026, 12, 1), QTime(0, 0), Qt::UTC));
    EXPECT_EQ(nov->label, QStringLiteral("2026-11"));
    const auto dec = chargebackMonth(QStringLiteral("2026-12"));
    ASSERT_TRUE(dec.hasValue());
    EXPECT_EQ(dec->to, QDateTime(QDate(2027, 1, 1), QTime(0, 0), Qt::UTC));
    for (const QString &bad : {QStringLiteral("2026-13"),
                               QStringLiteral("2026-00"),
                               QStringLiteral("11/2026"),
                               QStringLiteral("2026-1"),
                               QString()}) {
        const auto p = chargebackMonth(bad);
        ASSERT_FALSE(p.hasValue()) << bad.toStdString();
        EXPECT_EQ(p.error().kind, Error::Kind::Invalid);
        EXPECT_EQ(p.error().field, QStringLiteral("month"));
        EXPECT_TRUE(p.error().message.contains(QStringLiteral("YYYY-MM"))) << p.error().message.toStdString();
    }
    EXPECT_FALSE(chargebackRange(kChargeDay, kChargeDay).hasValue());
}

TEST(ChargebackPeriodTest, TierColumnsAreStableLowerCaseNames)
{
    EXPECT_EQ(chargebackTierColumn(chargebackTierKey(true, QStringLiteral("Premium"))),
              QStringLiteral("storage_gib_hours_anf_premium"));
    EXPECT_EQ(chargebackTierColumn(chargebackTierKey(false, QStringLiteral("gold-Tier 2"))),
              QStringLiteral("storage_gib_hours_ontap_gold_tier_2"));
    EXPECT_EQ(chargebackTierColumn(chargebackTierKey(false, QString())),
              QStringLiteral("storage_gib_hours_ontap_none"));
}

// Samples are step values: 2 GPUs at 50 % for 12 h, then 1 GPU with unknown utilization until
// the polls stop at 18:00. The store keeps a sample every 10 minutes (heartbeat), the last at
// 17:50, which holds 25 minutes: 6 h 15 min of the second step, then 5 h 45 min missing.
TEST_F(ChargebackTest, GpuHoursAreStepIntegralsAndUnknownUtilizationIsNotZero)
{
    pollProjects(chargeAt(0), chargeAt(12), {ProjectSample{QStringLiteral("team-a"), {}, 2000, 2000, 0, 50}});
    pollProjects(chargeAt(12), chargeAt(18), {ProjectSample{QStringLiteral("team-a"), {}, 1000, 2000, 0, -1}});
    ChargebackInput in;
    in.clusters = {QStringLiteral("dgx")};
    in.projects = {chargeProject(QStringLiteral("team-a"), QStringLiteral("runai-team-a")),
                   chargeProject(QStringLiteral("team-quiet"), QStringLiteral("runai-team-quiet"))};
    GpuNode node;
    node.source = QStringLiteral("dgx");
    node.gpuProduct = QStringLiteral("Tesla-V100-SXM2-32GB");
    node.gpuCount = 8;
    in.nodes = {node};
    RateCard card = RateCard::defaults();
    card.gpuPerHour.insert(QStringLiteral("Tesla-V100-SXM2-32GB"), 2.0);

    const Chargeback cb = dayChargeback(in, card);
    const ChargebackLine *a = lineOf(cb, QStringLiteral("team-a"));
    ASSERT_NE(a, nullptr);
    EXPECT_DOUBLE_EQ(a->gpuHoursAllocated, 2.0 * 12 + 1.0 * 6.25);
    EXPECT_NEAR(a->gpuHoursUsed, 2.0 * 12 * 0.5, 1e-9);
    EXPECT_DOUBLE_EQ(a->gpuHoursUtilizationUnknown, 6.25);
    EXPECT_DOUBLE_EQ(a->gpuMissingHours, 5.75);
    EXPECT_DOUBLE_EQ(a->missingHours, 5.75);
    EXPECT_DOUBLE_EQ(a->gpuPricePerHour, 2.0);
    EXPECT_NEAR(a->gpuCost, 30.25 * 2.0, 1e-9);
    EXPECT_DOUBLE_EQ(a->cost, a->gpuCost);
    // A project with no samples at all: every hour is missing, none is charged as zero use.
    const ChargebackLine *quiet = lineOf(cb, QStringLiteral("team-quiet"));
    ASSERT_NE(quiet, nullptr);
    EXPECT_DOUBLE_EQ(quiet->gpuHoursAllocated, 0);
    EXPECT_DOUBLE_EQ(quiet->gpuMissingHours, 24);
    EXPECT_DOUBLE_EQ(cb.hours, 24);
}

// The current month counts up to now only; the hours of it before the history began (here all
// but the last 72 h) are missing, not zero.
TEST_F(ChargebackTest, HoursBeforeTheHistoryBeganAreMissing)
{
    const QDateTime now(QDate(2026, 11, 26), QTime(18, 0), Qt::UTC);
    pollProjects(now.addSecs(-72 * 3600), now, {ProjectSample{QStringLiteral("team-a"), {}, 1000, 1000, 0, 80}});
    ChargebackInput in;
    in.clusters = {QStringLiteral("dgx")};
    in.projects = {chargeProject(QStringLiteral("team-a"), QStringLiteral("runai-team-a"))};
    // Storage with a day of capacity samples: its coverage is stated apart from the GPUs'.
    in.volumes = {chargeVolume(QStringLiteral("anf"), QStringLiteral("vol-day"), QStringLiteral("Premium"), true)};
    pollVolumes(
        QStringLiteral("anf"), now.addSecs(-24 * 3600), now, {VolumeUsage{QStringLiteral("vol-day"), 0, kGiBBytes}});
    const auto month = chargebackMonth(QStringLiteral("2026-11"));
    ASSERT_TRUE(month.hasValue());
    const auto cb = computeChargeback(*m_store, in, *month, RateCard::defaults(), now);
    ASSERT_TRUE(cb.hasValue());
    EXPECT_EQ(cb->accountedTo, now);
    EXPECT_DOUBLE_EQ(cb->hours, 25 * 24 + 18);
    const ChargebackLine *a = lineOf(*cb, QStringLiteral("team-a"));
    ASSERT_NE(a, nullptr);
    EXPECT_DOUBLE_EQ(a->gpuHoursAllocated, 72);
    EXPECT_DOUBLE_EQ(a->gpuMissingHours, 25 * 24 + 18 - 72);
    EXPECT_DOUBLE_EQ(a->storageMissingHours, 0);
    const ChargebackLine *none = unattributedLine(*cb);
    ASSERT_NE(none, nullptr);
    EXPECT_NEAR(none->storageMissingHours, 25 * 24 + 18 - 24, 0.1);
    EXPECT_DOUBLE_EQ(none->gpuMissingHours, 0);
    EXPECT_DOUBLE_EQ(cb->total.gpuMissingHours, a->gpuMissingHours);
    EXPECT_DOUBLE_EQ(cb->total.storageMissingHours, none->storageMissingHours);
    EXPECT_DOUBLE_EQ(cb->total.missingHours, none->storageMissingHours);
    // Where the store's history begins is said, so a store that reaches less far back (a fresh
    // one-shot demo) does not pass its larger missing hours off as the estate's.
    EXPECT_EQ(cb->historyFrom, now.addSecs(-72 * 3600));
    EXPECT_TRUE(cb->notes.join(QLatin1Char(' ')).contains(QStringLiteral("begins at 2026-11-23 18:00 UTC")))
        << cb->notes.join(QLatin1Char(' ')).toStdString();

    const auto future = chargebackMonth(QStringLiteral("2026-12"));
    const auto notYet = computeChargeback(*m_store, in, *future, RateCard::defaults(), now);
    ASSERT_FALSE(notYet.hasValue());
    EXPECT_EQ(notYet.error().kind, Error::Kind::Invalid);
}

// Job -> PVC -> volume joins a volume to its project; a volume two projects use is split; a
// volume no project uses is its own line; an ONTAP volume's policy and an ANF volume's level
// are priced per GiB-month of 730 h.
TEST_F(ChargebackTest, StorageJoinsProjectsThroughPvcsAndUnattributedIsItsOwnLine)
{
    ChargebackInput in;
    in.clusters = {QStringLiteral("dgx")};
    in.projects = {chargeProject(QStringLiteral("team-a"), QStringLiteral("runai-team-a")),
                   chargeProject(QStringLiteral("team-b"), QStringLiteral("runai-team-b"))};
    in.volumes = {chargeVolume(QStringLiteral("ontap-ai"), QStringLiteral("vol-a"), QStringLiteral("gold"), false),
                  chargeVolume(QStringLiteral("anf"), QStringLiteral("vol-shared"), QStringLiteral("Premium"), true),
                  chargeVolume(QStringLiteral("ontap-ai"), QStringLiteral("vol-orphan"), QString(), false)};
    in.pvcs = {
        chargePvc(QStringLiteral("runai-team-a"),
                  QStringLiteral("data"),
                  QStringLiteral("ontap-ai"),
                  QStringLiteral("vol-a")),
        chargePvc(
            QStringLiteral("shared"), QStringLiteral("set"), QStringLiteral("anf"), QStringLiteral("vol-shared"))};
    // Both teams' jobs mount the shared claim (in a namespace of no project).
    for (const QString &team : {QStringLiteral("team-a"), QStringLiteral("team-b")}) {
        Job j;
        j.source = QStringLiteral("dgx");
        j.namespaceName = QStringLiteral("shared");
        j.name = team + QStringLiteral("-train");
        j.id = j.namespaceName + QLatin1Char('/') + j.name;
        j.project = team;
        j.pvcs = {QStringLiteral("set")};
        j.created = chargeAt(1);
        j.status = JobStatus::Running;
        in.jobs.append(j);
    }
    pollVolumes(QStringLiteral("ontap-ai"),
                chargeAt(0),
                chargeAt(24),
                {VolumeUsage{QStringLiteral("vol-a"), 0, 100 * kGiBBytes},
                 VolumeUsage{QStringLiteral("vol-orphan"), 0, 50 * kGiBBytes}});
    pollVolumes(QStringLiteral("anf"),
                chargeAt(0),
                chargeAt(24),
                {VolumeUsage{QStringLiteral("vol-shared"), 0, 730 * kGiBBytes}});
    RateCard card = RateCard::defaults();
    card.ontapPerGibMonth.insert(QStringLiteral("gold"), 0.73);

    const Chargeback cb = dayChargeback(in, card);
    const ChargebackLine *a = lineOf(cb, QStringLiteral("team-a"));
    const ChargebackLine *b = lineOf(cb, QStringLiteral("team-b"));
    const ChargebackLine *none = unattributedLine(cb);
    ASSERT_TRUE(a && b && none);
    EXPECT_DOUBLE_EQ(a->storageGibHours.value(QStringLiteral("ontap/gold")), 100 * 24.0);
    EXPECT_DOUBLE_EQ(a->storageGibHours.value(QStringLiteral("anf/Premium")), 730 * 24.0 / 2);
    EXPECT_DOUBLE_EQ(b->storageGibHours.value(QStringLiteral("anf/Premium")), 730 * 24.0 / 2);
    EXPECT_FALSE(b->storageGibHours.contains(QStringLiteral("ontap/gold")));
    EXPECT_NEAR(a->storageCost, 100 * 24.0 / 730 * 0.73 + 365 * 24.0 / 730 * 0.2942, 1e-9);
    EXPECT_EQ(cb.lines.constLast().unattributed, true);
    ASSERT_EQ(none->volumes.size(), 1);
    EXPECT_EQ(none->volumes.constFirst().volumeId, QStringLiteral("vol-orphan"));
    EXPECT_DOUBLE_EQ(none->storageGibHours.value(QStringLiteral("ontap/")), 50 * 24.0);
    // No price for volumes without a policy: said, not hidden as 0.
    EXPECT_TRUE(none->unpriced.contains(QStringLiteral("ontap/")));
    EXPECT_DOUBLE_EQ(none->storageCost, 0);
    EXPECT_EQ(a->jobs.size(), 1);
    EXPECT_DOUBLE_EQ(cb.total.storageGibHours.value(QStringLiteral("anf/Premium")), 730 * 24.0);
}

// A level change in the audit log splits the volume's hours: Premium before 06:00, Standard after.
TEST_F(ChargebackTest, AuditedLevelChangesMoveHoursBetweenTiers)
{
    ChargebackInput in;
    in.volumes = {chargeVolume(QStringLiteral("anf"), QStringLiteral("vol-1"), QStringLiteral("Standard"), true)};
    pollVolumes(
        QStringLiteral("anf"), chargeAt(0), chargeAt(24), {VolumeUsage{QStringLiteral("vol-1"), 0, 10 * kGiBBytes}});
    AuditEntry e;
    e.time = chargeAt(6);
    e.user = QStringLiteral("ops");
    e.actionId = QStringLiteral("a1");
    e.source = QStringLiteral("anf");
    e.kind = actionKindName(ActionKind::ServiceLevelChange);
    e.target = serviceLevelAuditTarget(QStringLiteral("acct/vol-1"), QStringLiteral("vol-1"));
    e.fromState = QStringLiteral("Premium");
    e.toState = QStringLiteral("Standard");
    e.outcome = QStringLiteral("succeeded");
    ASSERT_GT(valueOf(m_store->appendAudit(e)), 0);
    e.time = chargeAt(3); // a failed change moves nothing
    e.fromState = QStringLiteral("Ultra");
    e.outcome = QStringLiteral("failed");
    ASSERT_GT(valueOf(m_store->appendAudit(e)), 0);

    const Chargeback cb = dayChargeback(in);
    const ChargebackLine *none = unattributedLine(cb);
    ASSERT_NE(none, nullptr);
    EXPECT_DOUBLE_EQ(none->storageGibHours.value(QStringLiteral("anf/Premium")), 10 * 6.0);
    EXPECT_DOUBLE_EQ(none->storageGibHours.value(QStringLiteral("anf/Standard")), 10 * 18.0);
    EXPECT_FALSE(none->storageGibHours.contains(QStringLiteral("anf/Ultra")));
}

// The audit log records a change's from-state as the preview words it ("Standard (pool
// pool-standard, cap 15.6 MiB/s)", "QoS policy \"silver\""): the hours before the change count
// at the rate card's tier (the level or policy alone), priced, and the tier set stays the card's.
TEST_F(ChargebackTest, HoursBeforeALevelChangeCountAtTheCardTierNamedByTheAuditedState)
{
    ChargebackInput in;
    in.volumes = {chargeVolume(QStringLiteral("anf"), QStringLiteral("criteo-data"), QStringLiteral("Premium"), true),
                  chargeVolume(QStringLiteral("ontap-ai"), QStringLiteral("vol-q"), QStringLiteral("gold"), false)};
    QosPolicy silver;
    silver.source = QStringLiteral("ontap-ai");
    silver.name = QStringLiteral("silver");
    QosPolicy gold = silver;
    gold.name = QStringLiteral("gold");
    in.policies = {silver, gold};
    pollVolumes(QStringLiteral("anf"),
                chargeAt(0),
                chargeAt(24),
                {VolumeUsage{QStringLiteral("criteo-data"), 0, 100 * kGiBBytes}});
    pollVolumes(QStringLiteral("ontap-ai"),
                chargeAt(0),
                chargeAt(24),
                {VolumeUsage{QStringLiteral("vol-q"), 0, 10 * kGiBBytes}});
    AuditEntry e;
    e.time = chargeAt(6);
    e.user = QStringLiteral("ops");
    e.actionId = QStringLiteral("level-1");
    e.source = QStringLiteral("anf");
    e.kind = actionKindName(ActionKind::ServiceLevelChange);
    e.target = serviceLevelAuditTarget(QStringLiteral("ai-lab/criteo-data"), QStringLiteral("criteo-data"));
    e.fromState = QStringLiteral("Standard (pool pool-standard, cap 15.6 MiB/s)");
    e.toState = QStringLiteral("Premium (pool pool-premium, cap 62.5 MiB/s)");
    e.outcome = QStringLiteral("succeeded");
    ASSERT_GT(valueOf(m_store->appendAudit(e)), 0);
    e.actionId = QStringLiteral("level-2");
    e.source = QStringLiteral("ontap-ai");
    e.target = serviceLevelAuditTarget(QStringLiteral("svm1/vol-q"), QStringLiteral("vol-q"));
    e.fromState = QStringLiteral("QoS policy \"silver\"");
    e.toState = QStringLiteral("QoS policy \"gold\"");
    ASSERT_GT(valueOf(m_store->appendAudit(e)), 0);
    RateCard card = RateCard::defaults();
    card.ontapPerGibMonth.insert(QStringLiteral("gold"), 0.5);
    card.ontapPerGibMonth.insert(QStringLiteral("silver"), 0.25);

    const Chargeback cb = dayChargeback(in, card);
    const ChargebackLine *none = unattributedLine(cb);
    ASSERT_NE(none, nullptr);
    const QMap<QString, double> expected{{QStringLiteral("anf/Standard"), 100 * 6.0},
                                         {QStringLiteral("anf/Premium"), 100 * 18.0},
                                         {QStringLiteral("ontap/silver"), 10 * 6.0},
                                         {QStringLiteral("ontap/gold"), 10 * 18.0}};
    EXPECT_TRUE(none->storageGibHours == expected)
        << none->storageGibHours.keys().join(QStringLiteral(", ")).toStdString();
    EXPECT_TRUE(none->unpriced.isEmpty()) << none->unpriced.join(QStringLiteral(", ")).toStdString();
    EXPECT_NEAR(none->storageCost,
                (100 * 6.0 * card.anfPerGibMonth.value(QStringLiteral("Standard"))
                 + 100 * 18.0 * card.anfPerGibMonth.value(QStringLiteral("Premium")) + 10 * 6.0 * 0.25
                 + 10 * 18.0 * 0.5)
                    / 730,
                1e-9);
    EXPECT_EQ(cb.tiers, chargebackCardTiers(card));
    for (const QString &tier : cb.tiers) {
        EXPECT_FALSE(tier.contains(QLatin1Char('('))) << tier.toStdString();
    }
}

// The chargeback's totals equal sums computed here straight from the SQLite tables (a second
// connection, its own integration), over three projects with gaps, changes and unknown
// utilization, and three volumes that grow.
TEST_F(ChargebackTest, TotalsReconcileWithTheRawSamples)
{
    const QStringList teams = {QStringLiteral("team-a"), QStringLiteral("team-b"), QStringLiteral("team-c")};
    quint32 seed = 7;
    const auto next = [&seed](int n) {
        seed = seed * 1103515245u + 12345u;
        return int((seed >> 16) % quint32(n));
    };
    std::map<QString, std::pair<MilliGpu, double>> state;
    // Two days of polls with an outage (no polls 30:00-33:00) and random steps.
    for (int minute = -60; minute < 48 * 60; minute += 5) {
        if (minute >= 30 * 60 && minute < 33 * 60) {
            continue;
        }
        std::vector<ProjectSample> samples;
        for (const QString &t : teams) {
            const bool change = next(10) == 0;
            auto &[alloc, util] = state[t];
            if (change || alloc == 0) {
                alloc = MilliGpu(next(9) * 500);
                util = next(4) == 0 ? -1.0 : double(next(101));
            }
            samples.push_back(ProjectSample{t, {}, alloc, 4000, 0, util});
        }
        ASSERT_TRUE(m_store->recordProjectSamples(QStringLiteral("dgx"), samples, chargeAt(0, minute)));
        std::vector<VolumeUsage> usage;
        for (int v = 0; v < 3; ++v) {
            usage.push_back(VolumeUsage{QStringLiteral("vol-%1").arg(v), 0, (10 + v + minute / 600) * kGiBBytes});
        }
        ASSERT_TRUE(m_store->recordVolumeUsage(QStringLiteral("ontap-ai"), usage, chargeAt(0, minute)));
    }
    ChargebackInput in;
    in.clusters = {QStringLiteral("dgx")};
    for (const QString &t : teams) {
        in.projects.append(chargeProject(t, QStringLiteral("ns-") + t));
    }
    for (int v = 0; v < 3; ++v) {
        in.volumes.append(
            chargeVolume(QStringLiteral("ontap-ai"), QStringLiteral("vol-%1").arg(v), QStringLiteral("gold"), false));
    }
    in.pvcs = {chargePvc(
        QStringLiteral("ns-team-a"), QStringLiteral("d"), QStringLiteral("ontap-ai"), QStringLiteral("vol-0"))};
    const auto period = chargebackRange(chargeAt(0), chargeAt(40));
    ASSERT_TRUE(period.hasValue());
    const auto cb = computeChargeback(*m_store, in, *period, RateCard::defaults(), chargeAt(40));
    ASSERT_TRUE(cb.hasValue());

    // Independent sums from the tables.
    const qint64 a = chargeAt(0).toMSecsSinceEpoch();
    const qint64 b = chargeAt(40).toMSecsSinceEpoch();
    const auto stepSum = [a, b](const std::vector<std::pair<qint64, std::vector<double>>> &rows, qint64 holdMs) {
        std::vector<double> sums(rows.empty() ? 0 : rows.front().second.size() + 1, 0.0);
        for (size_t i = 0; i < rows.size(); ++i) {
            const qint64 t = rows[i].first;
            qint64 end = t + holdMs;
            if (i + 1 < rows.size() && rows[i + 1].first < end) {
                end = rows[i + 1].first;
            }
            const qint64 s = std::max(t, a);
            end = std::min(end, b);
            if (end <= s) {
                continue;
            }
            const double hours = double(end - s) / 3600000.0;
            for (size_t k = 0; k < rows[i].second.size(); ++k) {
                sums[k] += rows[i].second[k] * hours;
            }
            sums.back() += hours;
        }
        return sums;
    };
    double allocated = 0, used = 0, unknown = 0, gibHours = 0;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("chargeback-reconcile"));
        db.setDatabaseName(m_path);
        ASSERT_TRUE(db.open());
        for (const QString &t : teams) {
            QSqlQuery q(db);
            ASSERT_TRUE(q.prepare(QStringLiteral("SELECT t, allocated, utilization FROM project_sample WHERE source = "
                                                 "'dgx' AND project = ? ORDER BY t")));
            q.addBindValue(t);
            ASSERT_TRUE(q.exec());
            std::vector<std::pair<qint64, std::vector<double>>> rows;
            while (q.next()) {
                const double gpus = q.value(1).toDouble() / 1000.0;
                const bool known = !q.value(2).isNull();
                rows.push_back({q.value(0).toLongLong(),
                                {gpus, known ? gpus * q.value(2).toDouble() / 100.0 : 0.0, known ? 0.0 : gpus}});
            }
            const std::vector<double> s = stepSum(rows, kChargebackProjectHoldSeconds * 1000);
            const ChargebackLine *line = lineOf(*cb, t);
            ASSERT_NE(line, nullptr);
            EXPECT_NEAR(line->gpuHoursAllocated, s[0], 1e-9) << t.toStdString();
            EXPECT_NEAR(line->gpuHoursUsed, s[1], 1e-9) << t.toStdString();
            EXPECT_NEAR(line->gpuMissingHours, 40.0 - s[3], 1e-9) << t.toStdString();
            allocated += s[0];
            used += s[1];
            unknown += s[2];
        }
        for (int v = 0; v < 3; ++v) {
            QSqlQuery q(db);
            ASSERT_TRUE(q.prepare(QStringLiteral(
                "SELECT t, size FROM volume_usage WHERE source = 'ontap-ai' AND volume_id = ? ORDER BY t")));
            q.addBindValue(QStringLiteral("vol-%1").arg(v));
            ASSERT_TRUE(q.exec());
            std::vector<std::pair<qint64, std::vector<double>>> rows;
            while (q.next()) {
                rows.push_back({q.value(0).toLongLong(), {q.value(1).toDouble() / double(kGiBBytes)}});
            }
            gibHours += stepSum(rows, kChargebackVolumeHoldSeconds * 1000)[0];
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("chargeback-reconcile"));
    EXPECT_GT(allocated, 0);
    EXPECT_GT(unknown, 0);
    EXPECT_NEAR(cb->total.gpuHoursAllocated, allocated, 1e-9);
    EXPECT_EQ(qint64(std::llround(cb->total.gpuHoursAllocated * 3600000.0)),
              qint64(std::llround(allocated * 3600000.0)));
    EXPECT_NEAR(cb->total.gpuHoursUsed, used, 1e-9);
    EXPECT_NEAR(cb->total.gpuHoursUtilizationUnknown, unknown, 1e-9);
    EXPECT_NEAR(cb->total.storageGibHours.value(QStringLiteral("ontap/gold")), gibHours, 1e-9);
    // Every hour of every volume is in exactly one line: team-a's and the unattributed one.
    const ChargebackLine *none = unattributedLine(*cb);
    ASSERT_NE(none, nullptr);
    EXPECT_EQ(none->volumes.size(), 2);
    EXPECT_EQ(lineOf(*cb, QStringLiteral("team-a"))->volumes.size(), 1);
}

// A StorageGRID bucket belongs to the projects whose jobs mounted cached commits of a dataset in
// it (dataset -> cached commit -> job -> project); a bucket no job used is unattributed. Data
// stored is charged per GiB-month when the card has a StorageGRID price.
TEST_F(ChargebackTest, BucketsJoinProjectsThroughTheCachedCommitsOfTheirDatasets)
{
    ChargebackInput in;
    in.clusters = {QStringLiteral("dgx")};
    in.projects = {chargeProject(QStringLiteral("team-a"), QStringLiteral("runai-team-a"))};
    Job job;
    job.source = QStringLiteral("dgx");
    job.namespaceName = QStringLiteral("runai-team-a");
    job.name = QStringLiteral("fraud-train");
    job.id = job.namespaceName + QLatin1Char('/') + job.name;
    job.project = QStringLiteral("team-a");
    job.created = chargeAt(2);
    in.jobs = {job};
    for (const QString &name : {QStringLiteral("datasets"), QStringLiteral("archive")}) {
        Bucket bucket;
        bucket.source = QStringLiteral("grid");
        bucket.tenantId = QStringLiteral("42");
        bucket.tenantName = QStringLiteral("data-science");
        bucket.name = name;
        bucket.id = bucket.tenantId + QLatin1Char('/') + name;
        in.buckets.append(bucket);
    }
    Dataset dataset;
    dataset.source = QStringLiteral("grid");
    dataset.id = QStringLiteral("datasets/fraud_jun/");
    dataset.name = QStringLiteral("fraud_jun");
    dataset.bucket = QStringLiteral("datasets");
    in.datasets = {dataset};
    CachedCommit cached;
    cached.source = QStringLiteral("dgx");
    cached.target = QStringLiteral("dgx-cache-1");
    cached.commitId = QStringLiteral("5dfa0f6ded0b7dcc1b2ee904c4b7");
    cached.id = cached.target + QLatin1Char('/') + cached.commitId;
    cached.datasetSource = dataset.source;
    cached.datasetId = dataset.id;
    cached.datasetName = dataset.name;
    cached.usedBy = {job.id};
    cached.lastUsed = chargeAt(3);
    in.cachedCommits = {cached};
    for (QDateTime t = chargeAt(0); t < chargeAt(24); t = t.addSecs(600)) {
        ASSERT_TRUE(m_store->recordCapacity(QStringLiteral("grid"),
                                            ContainerKind::Bucket,
                                            {VolumeUsage{QStringLiteral("42/datasets"), 73 * kGiBBytes, 0},
                                             VolumeUsage{QStringLiteral("42/archive"), 10 * kGiBBytes, 0}},
                                            t));
    }
    RateCard card = RateCard::defaults();
    card.storageGridPerGibMonth = 0.01;

    const Chargeback cb = dayChargeback(in, card);
    const ChargebackLine *a = lineOf(cb, QStringLiteral("team-a"));
    const ChargebackLine *none = unattributedLine(cb);
    ASSERT_TRUE(a && none);
    EXPECT_DOUBLE_EQ(a->storageGibHours.value(chargebackBucketTierKey()), 73 * 24.0);
    EXPECT_NEAR(a->storageCost, 73 * 24.0 / 730 * 0.01, 1e-12);
    ASSERT_EQ(a->volumes.size(), 1);
    EXPECT_EQ(a->volumes.constFirst().name, QStringLiteral("data-science/datasets"));
    EXPECT_TRUE(a->volumes.constFirst().via.contains(QStringLiteral("fraud_jun")));
    EXPECT_EQ(a->cachedCommits.size(), 1);
    EXPECT_DOUBLE_EQ(none->storageGibHours.value(chargebackBucketTierKey()), 10 * 24.0);
    EXPECT_TRUE(cb.tiers.contains(chargebackBucketTierKey()));
    EXPECT_EQ(chargebackTierColumn(chargebackBucketTierKey()), QStringLiteral("storage_gib_hours_storagegrid"));
    // Without a StorageGRID price the hours are there, the cost is not, and that is said.
    const Chargeback unpriced = dayChargeback(in);
    EXPECT_TRUE(unattributedLine(unpriced)->unpriced.contains(chargebackBucketTierKey()));
}

TEST(ChargebackRateCardTest, GpuPricesRoundTripAndRefuseNegatives)
{
    RateCard card = RateCard::defaults();
    EXPECT_DOUBLE_EQ(card.gpuPrice(QStringLiteral("anything")), card.gpuDefaultPerHour);
    card.gpuPerHour.insert(QStringLiteral("NVIDIA-A100-SXM4-80GB"), 4.1);
    card.gpuDefaultPerHour = 1.5;
    const auto back = RateCard::fromJson(card.toJson());
    ASSERT_TRUE(back.hasValue());
    EXPECT_EQ(*back, card);
    EXPECT_DOUBLE_EQ(back->gpuPrice(QStringLiteral("NVIDIA-A100-SXM4-80GB")), 4.1);
    EXPECT_DOUBLE_EQ(back->gpuPrice(QStringLiteral("Tesla-T4")), 1.5);
    const auto negative =
        RateCard::fromJson(QJsonObject{{QStringLiteral("gpu_per_hour"), QJsonObject{{QStringLiteral("x"), -1}}}});
    ASSERT_FALSE(negative.hasValue());
    EXPECT_TRUE(negative.error().message.contains(QStringLiteral("gpu_per_hour")))
        << negative.error().message.toStdString();
    const auto wrongType =
        RateCard::fromJson(QJsonObject{{QStringLiteral("gpu_default_per_hour"), QStringLiteral("3")}});
    ASSERT_FALSE(wrongType.hasValue());
    EXPECT_TRUE(wrongType.error().message.contains(QStringLiteral("gpu_default_per_hour")));
    card.storageGridPerGibMonth = 0.02;
    const auto withGrid = RateCard::fromJson(card.toJson());
    ASSERT_TRUE(withGrid.hasValue());
    EXPECT_DOUBLE_EQ(withGrid->storageGridPerGibMonth, 0.02);
    EXPECT_FALSE(RateCard::fromJson(QJsonObject{{QStringLiteral("storagegrid_per_gib_month"), -0.5}}).hasValue());
    // A card saved before GPU prices existed gets the default.
    const auto old = RateCard::fromJson(QJsonObject{{QStringLiteral("currency"), QStringLiteral("EUR")}});
    ASSERT_TRUE(old.hasValue());
    EXPECT_DOUBLE_EQ(old->gpuDefaultPerHour, RateCard::defaults().gpuDefaultPerHour);
    EXPECT_LT(old->storageGridPerGibMonth, 0);
}

} // namespace
