#include "models/core/domain/estate.h"
#include "models/core/services/historyservice.h"
#include "models/core/services/servicelevels.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QMap>

#include <gtest/gtest.h>

#include <random>

using namespace strata::core;
using strata::testsupport::ManualClock;
using strata::testsupport::valueOf;

namespace {

constexpr qint64 kGiB = 1024LL * 1024 * 1024;
constexpr double kMiB = 1024.0 * 1024.0;
const QDateTime kNow(QDate(2026, 3, 2), QTime(8, 36), Qt::UTC);

template <class Pred> bool waitForServicelevels(Pred pred)
{
    // Generous: thousands of rows are recomputed on a worker, which under ASan on a loaded
    // machine takes seconds; a condition that holds returns at once.
    QDeadlineTimer deadline(30000);
    while (!pred() && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return pred();
}

Ptr<Volume> anfVolume(
    const QString &id, const QString &name, const QString &level, const QString &pool, qint64 gib, double throughput)
{
    Volume v;
    v.source = QStringLiteral("azure");
    v.id = id;
    v.name = name;
    v.svm = QStringLiteral("anf-ai-lab");
    v.aggregate = pool;
    v.state = QStringLiteral("online");
    v.style = QStringLiteral("anf");
    v.sizeBytes = gib * kGiB;
    v.serviceLevel = level;
    v.armId = QStringLiteral("/subscriptions/s/resourceGroups/ai-lab-rg/providers/Microsoft.NetApp/netAppAccounts/"
                             "anf-ai-lab/capacityPools/%1/volumes/%2")
                  .arg(pool, name);
    v.qosType = QStringLiteral("Auto");
    v.throughputMibps = throughput;
    return std::make_shared<const Volume>(v);
}

Ptr<CapacityPool> pool(const QString &name, const QString &level, qint64 tib, qint64 allocatedGib)
{
    CapacityPool p;
    p.source = QStringLiteral("azure");
    p.id = name;
    p.name = name;
    p.account = QStringLiteral("anf-ai-lab");
    p.serviceLevel = level;
    p.qosType = QStringLiteral("Auto");
    p.sizeBytes = tib * 1024 * kGiB;
    p.allocatedBytes = allocatedGib * kGiB;
    return std::make_shared<const CapacityPool>(p);
}

Ptr<Volume> ontapVolume(const QString &id, const QString &name, const QString &policy, qint64 gib)
{
    Volume v;
    v.source = QStringLiteral("ontap");
    v.id = id;
    v.name = name;
    v.svm = QStringLiteral("svm_ai");
    v.state = QStringLiteral("online");
    v.sizeBytes = gib * kGiB;
    v.qosPolicy = policy;
    return std::make_shared<const Volume>(v);
}

Ptr<QosPolicy> policy(const QString &name, bool adaptive, qint64 maxMbps, qint64 maxIops, qint64 peakPerTb)
{
    QosPolicy q;
    q.source = QStringLiteral("ontap");
    q.id = name + QStringLiteral("-uuid");
    q.name = name;
    q.svm = QStringLiteral("svm_ai");
    q.adaptive = adaptive;
    q.maxMbps = maxMbps;
    q.maxIops = maxIops;
    q.peakIopsPerTb = peakPerTb;
    return std::make_shared<const QosPolicy>(q);
}

template <class T> std::shared_ptr<const KeyedList<T>> listServicelevels(std::vector<Ptr<T>> items)
{
    return std::make_shared<const KeyedList<T>>(std::move(items));
}

class ServiceLevelsTest : public ::testing::Test
{
protected:
    ManualClock clock{kNow};
    Estate estate;
    HistoryService history{std::make_unique<SqlHistoryStore>(QStringLiteral(":memory:"), clock)};
    std::unique_ptr<ServiceLevels> levels;

    void SetUp() override
    {
        ASSERT_TRUE(history.openError().isEmpty());
        estate.publishVolumes(QStringLiteral("azure"),
                              listServicelevels<Volume>({anfVolume(QStringLiteral("fs-criteo"),
                                                                   QStringLiteral("criteo-data"),
                                                                   QStringLiteral("Standard"),
                                                                   QStringLiteral("pool-standard"),
                                                                   1000,
                                                                   15.625),
                                                         anfVolume(QStringLiteral("fs-tusimple"),
                                                                   QStringLiteral("tusimple"),
                                                                   QStringLiteral("Premium"),
                                                                   QStringLiteral("pool-premium"),
                                                                   500,
                                                                   -1),
                                                         anfVolume(QStringLiteral("fs-new"),
                                                                   QStringLiteral("new-data"),
                                                                   QStringLiteral("Premium"),
                                                                   QStringLiteral("pool-premium"),
                                                                   500,
                                                                   31.25)}));
        estate.publishAzure(
            QStringLiteral("azure"),
            listServicelevels<CapacityPool>({pool(QStringLiteral("pool-standard"), QStringLiteral("Standard"), 4, 1500),
                                             pool(QStringLiteral("pool-premium"), QStringLiteral("Premium"), 4, 1000)}),
            nullptr);
        estate.publishVolumes(
            QStringLiteral("ontap"),
            listServicelevels<Volume>(
                {ontapVolume(QStringLiteral("u-fixed"), QStringLiteral("train"), QStringLiteral("gold"), 1024),
                 ontapVolume(QStringLiteral("u-adaptive"), QStringLiteral("scratch"), QStringLiteral("extreme"), 2048),
                 ontapVolume(QStringLiteral("u-none"), QStringLiteral("home"), QString(), 100)}));
        estate.publishInventory(QStringLiteral("ontap"),
                                listServicelevels<Svm>({}),
                                listServicelevels<Aggregate>({}),
                                listServicelevels<QosPolicy>({policy(QStringLiteral("gold"), false, 100, 5000, 0),
                                                              policy(QStringLiteral("extreme"), true, 0, 0, 4096)}),
                                listServicelevels<FlexCache>({}));
        levels = std::make_unique<ServiceLevels>(estate, clock, &history);
    }

    /// Perf samples every 5 minutes from `hours` ago until now at `mibps`.
    void recordFlat(const QString &source, const QString &volume, double hours, double mibps)
    {
        for (QDateTime t = kNow.addSecs(qint64(-hours * 3600)); t <= kNow; t = t.addSecs(300)) {
            VolumePerfSample s;
            s.volumeId = volume;
            s.throughputBps = mibps * kMiB;
            s.iops = 100;
            history.recordVolumePerf(source, {s}, t);
        }
    }

    /// Refreshes statistics and waits until both answers arrived.
    void refresh()
    {
        int changes = 0;
        auto c = QObject::connect(levels.get(), &ServiceLevels::changed, [&changes] {
            ++changes;
        });
        levels->refreshStatistics();
        EXPECT_TRUE(waitForServicelevels([&] {
            return changes >= 2;
        }));
        QObject::disconnect(c);
    }

    ServiceLevelRow row(const QString &source, const QString &id) const
    {
        auto r = levels->row(source, id);
        EXPECT_TRUE(r.has_value());
        return r.value_or(ServiceLevelRow{});
    }
};

ActionRequest change(const QString &source, const QString &volume, const QString &level)
{
    ActionRequest r(ActionKind::ServiceLevelChange, source, volume);
    r.targetLevel = level;
    return r;
}

} // namespace

TEST_F(ServiceLevelsTest, CapsFromAnfThroughputQuotaAndOntapPolicies)
{
    EXPECT_DOUBLE_EQ(row(QStringLiteral("azure"), QStringLiteral("fs-criteo")).capMibps, 15.625);
    // No throughput reported: quota 500 GiB x 64 MiB/s per TiB.
    const ServiceLevelRow tusimple = row(QStringLiteral("azure"), QStringLiteral("fs-tusimple"));
    EXPECT_DOUBLE_EQ(tusimple.capMibps, 31.25);
    EXPECT_EQ(tusimple.levelDetail, QStringLiteral("64 MiB/s per TiB (auto QoS)"));
    EXPECT_EQ(tusimple.container, QStringLiteral("anf-ai-lab/pool-premium"));
    EXPECT_EQ(tusimple.kind, SourceKind::Azure);

    const ServiceLevelRow fixed = row(QStringLiteral("ontap"), QStringLiteral("u-fixed"));
    EXPECT_NEAR(fixed.capMibps, 100e6 / kMiB, 1e-9) << "MB/s converted to MiB/s";
    EXPECT_DOUBLE_EQ(fixed.capIops, 5000);
    EXPECT_EQ(fixed.levelDetail, QStringLiteral("fixed: 100 MB/s (95.4 MiB/s), 5,000 IOPS"));
    const ServiceLevelRow adaptive = row(QStringLiteral("ontap"), QStringLiteral("u-adaptive"));
    EXPECT_DOUBLE_EQ(adaptive.capMibps, -1);
    EXPECT_DOUBLE_EQ(adaptive.capIops, 4096.0 * 2) << "peak IOPS per TB x 2 TB";
    EXPECT_TRUE(adaptive.adaptive);
    const ServiceLevelRow none = row(QStringLiteral("ontap"), QStringLiteral("u-none"));
    EXPECT_DOUBLE_EQ(none.capMibps, -1);
    EXPECT_EQ(none.levelDetail, QStringLiteral("no QoS policy"));

    const QList<ServiceLevelRow> all = levels->rows();
    ASSERT_EQ(all.size(), 6);
    EXPECT_EQ(all.first().volumeName, QStringLiteral("criteo-data")) << "sorted by source, then name";
    EXPECT_EQ(all.last().volumeName, QStringLiteral("train"));
}

TEST_F(ServiceLevelsTest, CostFromTheRateCard)
{
    EXPECT_NEAR(row(QStringLiteral("azure"), QStringLiteral("fs-criteo")).costPerMonth, 147.5, 1e-9);
    EXPECT_DOUBLE_EQ(row(QStringLiteral("ontap"), QStringLiteral("u-fixed")).costPerMonth, -1) << "no ONTAP default";
    RateCard card = RateCard::defaults();
    card.ontapPerGibMonth.insert(QStringLiteral("gold"), 0.05);
    levels->setRateCard(card);
    EXPECT_NEAR(row(QStringLiteral("ontap"), QStringLiteral("u-fixed")).costPerMonth, 51.2, 1e-9);
}

TEST_F(ServiceLevelsTest, P95AndFlagsFromTheLastDay)
{
    recordFlat(QStringLiteral("azure"), QStringLiteral("fs-criteo"), 25, 15.5);  // at its cap
    recordFlat(QStringLiteral("azure"), QStringLiteral("fs-tusimple"), 25, 1.0); // far below, a day long
    recordFlat(QStringLiteral("azure"), QStringLiteral("fs-new"), 2, 1.0);       // far below, but only 2 h
    refresh();

    const ServiceLevelRow criteo = row(QStringLiteral("azure"), QStringLiteral("fs-criteo"));
    EXPECT_NEAR(criteo.p95Mibps, 15.5, 1e-9);
    EXPECT_EQ(criteo.flag, LevelFlag::AtCap);
    EXPECT_EQ(criteo.flagReason, QStringLiteral("p95 15.5 MiB/s of 15.6 MiB/s for the last day"));
    EXPECT_EQ(levelFlagName(criteo.flag), QStringLiteral("at_cap"));

    const ServiceLevelRow tusimple = row(QStringLiteral("azure"), QStringLiteral("fs-tusimple"));
    EXPECT_EQ(tusimple.flag, LevelFlag::FarBelow);
    EXPECT_TRUE(tusimple.flagReason.contains(QLatin1String("Standard costs less")))
        << tusimple.flagReason.toStdString();

    EXPECT_EQ(row(QStringLiteral("azure"), QStringLiteral("fs-new")).flag, LevelFlag::None)
        << "not a full day of samples yet";

    // The latest sample alone flags a volume at its cap, before any history exists.
    VolumePerf p;
    p.source = QStringLiteral("ontap");
    p.id = QStringLiteral("u-fixed");
    p.throughputBps = 95 * kMiB;
    estate.publishVolumePerf(QStringLiteral("ontap"),
                             listServicelevels<VolumePerf>({std::make_shared<const VolumePerf>(p)}));
    const ServiceLevelRow fixed = row(QStringLiteral("ontap"), QStringLiteral("u-fixed"));
    EXPECT_EQ(fixed.flag, LevelFlag::AtCap);
    EXPECT_DOUBLE_EQ(fixed.observedMibps, 95);
    EXPECT_DOUBLE_EQ(fixed.p95Mibps, -1);
}

// "At cap" and the cap use come from one figure: a volume flagged at its cap always shows the
// percentage that put it there, whether its cap is in MiB/s or in IOPS.
TEST_F(ServiceLevelsTest, AtCapAndCapUseComeFromOneFigure)
{
    recordFlat(QStringLiteral("azure"), QStringLiteral("fs-criteo"), 25, 15.5);
    refresh();
    const ServiceLevelRow criteo = row(QStringLiteral("azure"), QStringLiteral("fs-criteo"));
    EXPECT_EQ(criteo.flag, LevelFlag::AtCap);
    EXPECT_NEAR(criteo.capUsedPercent, 100.0 * criteo.p95Mibps / criteo.capMibps, 1e-9);
    EXPECT_GT(criteo.capUsedPercent, 90.0);

    // An adaptive ONTAP policy caps IOPS only (no MiB/s cap): at 95 % of its peak IOPS it is
    // at its cap, and its cap use says 95 %, not "unknown".
    VolumePerf p;
    p.source = QStringLiteral("ontap");
    p.id = QStringLiteral("u-adaptive");
    p.throughputBps = 20 * kMiB;
    p.totalIops = 0.95 * 4096.0 * 2;
    estate.publishVolumePerf(QStringLiteral("ontap"),
                             listServicelevels<VolumePerf>({std::make_shared<const VolumePerf>(p)}));
    const ServiceLevelRow adaptive = row(QStringLiteral("ontap"), QStringLiteral("u-adaptive"));
    ASSERT_DOUBLE_EQ(adaptive.capMibps, -1);
    EXPECT_EQ(adaptive.flag, LevelFlag::AtCap);
    EXPECT_NEAR(adaptive.capUsedPercent, 95.0, 0.01);

    // Not flagged: the cap use is below 90 % on every basis, and unknown without a cap.
    for (const ServiceLevelRow &r : levels->rows()) {
        EXPECT_EQ(r.flag == LevelFlag::AtCap, r.capUsedPercent >= 90.0) << r.volumeName.toStdString();
        if (r.capMibps < 0 && r.capIops < 0) {
            EXPECT_DOUBLE_EQ(r.capUsedPercent, -1) << r.volumeName.toStdString();
        }
    }
}

TEST_F(ServiceLevelsTest, OptionsNameAPoolWithRoom)
{
    const QList<LevelOption> options = levels->options(QStringLiteral("azure"), QStringLiteral("fs-criteo"));
    ASSERT_EQ(options.size(), 3);
    EXPECT_TRUE(options[0].current);
    EXPECT_EQ(options[1].level, QStringLiteral("Premium"));
    EXPECT_EQ(options[1].pool, QStringLiteral("pool-premium"));
    EXPECT_TRUE(options[1].poolHasRoom);
    EXPECT_DOUBLE_EQ(options[1].capMibps, 62.5);
    EXPECT_NEAR(options[1].costPerMonth, 294.2, 1e-9);
    EXPECT_FALSE(options[2].poolExists) << "no Ultra pool";
    EXPECT_TRUE(options[2].pool.isEmpty());

    const QList<LevelOption> ontap = levels->options(QStringLiteral("ontap"), QStringLiteral("u-fixed"));
    ASSERT_EQ(ontap.size(), 3);
    EXPECT_TRUE(ontap[0].level.isEmpty()) << "no policy first";
    EXPECT_EQ(ontap[1].level, QStringLiteral("extreme"));
    EXPECT_TRUE(ontap[2].current);
}

TEST_F(ServiceLevelsTest, PreviewShowsCapAgainstP95AndCost)
{
    recordFlat(QStringLiteral("azure"), QStringLiteral("fs-criteo"), 25, 15.5);
    refresh();
    ActionPreview p;
    p.target = QStringLiteral("anf-ai-lab/criteo-data");
    levels->annotatePreview(change(QStringLiteral("azure"), QStringLiteral("fs-criteo"), QStringLiteral("Premium")),
                            &p);
    EXPECT_TRUE(p.effects.contains(
        QStringLiteral("Throughput cap 15.6 MiB/s → 62.5 MiB/s (observed p95 over the last 24 h: 15.5 MiB/s)")))
        << p.effects.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(p.effects.contains(QStringLiteral("Cost per month $147.50 → $294.20 (rate card)")))
        << p.effects.join(QLatin1Char('\n')).toStdString();
    EXPECT_EQ(p.target, QStringLiteral("anf-ai-lab/criteo-data [volume fs-criteo]"));
    EXPECT_EQ(volumeIdFromAuditTarget(p.target), QStringLiteral("fs-criteo"));
    EXPECT_TRUE(p.allowed());
    EXPECT_EQ(p.fromState, QStringLiteral("Standard"));
    EXPECT_EQ(p.toState, QStringLiteral("Premium"));
}

TEST_F(ServiceLevelsTest, CoolDownFromTheAuditLogBlocksUntilItEnds)
{
    AuditEntry e;
    e.time = kNow.addSecs(-12 * 60);
    e.user = QStringLiteral("alice");
    e.actionId = QStringLiteral("a1");
    e.source = QStringLiteral("azure");
    e.kind = QStringLiteral("volume.service_level");
    e.target = serviceLevelAuditTarget(QStringLiteral("anf-ai-lab/criteo-data"), QStringLiteral("fs-criteo"));
    e.outcome = QStringLiteral("succeeded");
    history.appendAudit(e);
    e.outcome = QStringLiteral("failed");
    e.target = serviceLevelAuditTarget(QStringLiteral("anf-ai-lab/tusimple"), QStringLiteral("fs-tusimple"));
    history.appendAudit(e);
    refresh();

    EXPECT_EQ(row(QStringLiteral("azure"), QStringLiteral("fs-criteo")).lastChange, e.time);
    ActionPreview p;
    levels->annotatePreview(change(QStringLiteral("azure"), QStringLiteral("fs-criteo"), QStringLiteral("Premium")),
                            &p);
    EXPECT_EQ(p.blockedReason,
              QStringLiteral("criteo-data was changed 12 min ago; the rate card's cool-down is 60 min: possible from "
                             "09:24 UTC."));
    ActionPreview other;
    levels->annotatePreview(change(QStringLiteral("azure"), QStringLiteral("fs-tusimple"), QStringLiteral("Standard")),
                            &other);
    EXPECT_TRUE(other.allowed()) << "a failed change starts no cool-down";

    clock.advance(std::chrono::minutes(48));
    ActionPreview later;
    levels->annotatePreview(change(QStringLiteral("azure"), QStringLiteral("fs-criteo"), QStringLiteral("Premium")),
                            &later);
    EXPECT_TRUE(later.allowed()) << later.blockedReason.toStdString();

    // A change that just succeeded in this process holds at once.
    levels->noteLevelChange(QStringLiteral("azure"), QStringLiteral("fs-tusimple"), clock.now());
    ActionPreview now;
    levels->annotatePreview(change(QStringLiteral("azure"), QStringLiteral("fs-tusimple"), QStringLiteral("Standard")),
                            &now);
    EXPECT_FALSE(now.allowed());
    RateCard card = RateCard::defaults();
    card.coolDownMinutes = 0;
    levels->setRateCard(card);
    ActionPreview off;
    levels->annotatePreview(change(QStringLiteral("azure"), QStringLiteral("fs-tusimple"), QStringLiteral("Standard")),
                            &off);
    EXPECT_TRUE(off.allowed());
}

TEST_F(ServiceLevelsTest, ThroughputHistoryConvertsToMibps)
{
    VolumePerfSample s;
    s.volumeId = QStringLiteral("fs-criteo");
    s.throughputBps = 10 * kMiB;
    s.capBps = 15.625 * kMiB;
    history.recordVolumePerf(QStringLiteral("azure"), {s}, kNow);
    std::vector<ThroughputPoint> points;
    bool done = false;
    QObject context;
    levels->throughputHistory(QStringLiteral("azure"),
                              QStringLiteral("fs-criteo"),
                              kNow.addDays(-1),
                              kNow,
                              &context,
                              [&](Result<std::vector<ThroughputPoint>> p) {
                                  points = valueOf(std::move(p));
                                  done = true;
                              });
    ASSERT_TRUE(waitForServicelevels([&] {
        return done;
    }));
    ASSERT_EQ(points.size(), 1U);
    EXPECT_DOUBLE_EQ(points[0].mibps, 10);
    EXPECT_DOUBLE_EQ(points[0].capMibps, 15.625);
    EXPECT_EQ(points[0].time, kNow);
}

TEST_F(ServiceLevelsTest, PreviewAgreesWithTheCliDryRunOnceSamplesArrive)
{
    // The desktop's ServiceLevels exists from start-up, before any sample; then a poll lands: its
    // samples go to the history store and the volume's perf to the estate.
    recordFlat(QStringLiteral("azure"), QStringLiteral("fs-criteo"), 25, 15.5);
    VolumePerf perf;
    perf.source = QStringLiteral("azure");
    perf.id = QStringLiteral("fs-criteo");
    perf.throughputBps = 15.5 * kMiB;
    estate.publishVolumePerf(QStringLiteral("azure"),
                             listServicelevels<VolumePerf>({std::make_shared<const VolumePerf>(perf)}));

    // `strata set service-level --dry-run` builds its own ServiceLevels on the same store and
    // reads the statistics once before previewing (app/cli/cli.cpp).
    ServiceLevels cli(estate, clock, &history);
    bool cliRead = false;
    QObject::connect(&cli, &ServiceLevels::changed, [&cliRead] {
        cliRead = true;
    });
    cli.refreshStatistics();
    ASSERT_TRUE(waitForServicelevels([&] {
        return cliRead && cli.row(QStringLiteral("azure"), QStringLiteral("fs-criteo"))->p95Mibps >= 0;
    }));

    const ActionRequest request =
        change(QStringLiteral("azure"), QStringLiteral("fs-criteo"), QStringLiteral("Premium"));
    ActionPreview fromCli;
    cli.annotatePreview(request, &fromCli);
    // The desktop reads the same history without waiting for its 5-minute refresh.
    ActionPreview fromDesktop;
    waitForServicelevels([&] {
        fromDesktop = ActionPreview{};
        levels->annotatePreview(request, &fromDesktop);
        return fromDesktop.effects == fromCli.effects;
    });
    EXPECT_EQ(fromDesktop.effects.join(QLatin1Char('\n')).toStdString(),
              fromCli.effects.join(QLatin1Char('\n')).toStdString());
    EXPECT_TRUE(
        fromDesktop.effects.join(QLatin1Char('\n')).contains(QLatin1String("p95 over the last 24 h: 15.5 MiB/s")))
        << fromDesktop.effects.join(QLatin1Char('\n')).toStdString();
}

namespace {

QString levelRowKey(const ServiceLevelRow &r)
{
    return r.source + QLatin1Char('/') + r.volumeId;
}

// Applies ServiceLevels::rowsUpdated() the way a view must: complete ones replace, others
// remove, then replace or add by volume.
void applyLevelUpdate(QMap<QString, ServiceLevelRow> &shown, const ServiceLevelUpdate &u)
{
    if (u.complete) {
        shown.clear();
    }
    for (const QString &k : u.removed) {
        shown.remove(k);
    }
    for (const ServiceLevelRow &r : u.rows) {
        shown.insert(levelRowKey(r), r);
    }
}

// The first volume whose row differs, for the failure message.
std::string firstLevelDifference(const QMap<QString, ServiceLevelRow> &shown,
                                 const QMap<QString, ServiceLevelRow> &full)
{
    for (auto it = full.cbegin(); it != full.cend(); ++it) {
        const ServiceLevelRow s = shown.value(it.key());
        if (!(s == *it)) {
            return QStringLiteral("%1: shown %2 %3 %4 %5 flag %6, full %7 %8 %9 %10 flag %11")
                .arg(it.key(), s.level, s.levelDetail)
                .arg(s.observedMibps)
                .arg(s.costPerMonth)
                .arg(int(s.flag))
                .arg(it->level, it->levelDetail)
                .arg(it->observedMibps)
                .arg(it->costPerMonth)
                .arg(int(it->flag))
                .toStdString();
        }
    }
    return {};
}

QMap<QString, ServiceLevelRow> levelRowsByKey(const QList<ServiceLevelRow> &rows)
{
    QMap<QString, ServiceLevelRow> out;
    for (const ServiceLevelRow &r : rows) {
        out.insert(levelRowKey(r), r);
    }
    return out;
}

} // namespace

TEST_F(ServiceLevelsTest, UpdatesFollowRandomPublishesToWhatAFullRecomputeGives)
{
    QMap<QString, ServiceLevelRow> shown = levelRowsByKey(levels->rows());
    int updates = 0;
    int offThread = 0;
    QObject::connect(levels.get(), &ServiceLevels::rowsUpdated, [&](const ServiceLevelUpdate &u) {
        applyLevelUpdate(shown, u);
        ++updates;
        offThread += u.rows.size() >= ServiceLevels::kInlineRows ? 1 : 0;
    });
    // A day of low samples for some volumes, so their far-below flag turns while the clock runs.
    for (int i = 0; i < 40; i += 3) {
        recordFlat(QStringLiteral("ontap"), QStringLiteral("u-%1").arg(i), 23.8, 0.5);
    }
    refresh();

    std::mt19937 rng(1828);
    const auto pick = [&rng](int n) {
        return int(rng() % unsigned(n));
    };
    const QStringList policies{QStringLiteral("gold"), QStringLiteral("extreme"), QString(), QStringLiteral("silver")};
    std::vector<Ptr<VolumePerf>> perf;
    bool farBelowSeen = false;
    for (int step = 0; step < 40; ++step) {
        SCOPED_TRACE(step);
        const int what = pick(7);
        if (what == 0 || step == 5 || step == 20) {
            // The ONTAP volumes: a random subset, sometimes thousands (computed off the thread).
            const int count = (step == 5 || step == 20) ? 2600 + pick(400) : 20 + pick(40);
            std::vector<Ptr<Volume>> volumes;
            for (int i = 0; i < count; ++i) {
                if (pick(10) == 0) {
                    continue;
                }
                volumes.push_back(ontapVolume(QStringLiteral("u-%1").arg(i),
                                              QStringLiteral("vol_%1").arg(pick(3) == 0 ? i + step : i),
                                              policies[pick(int(policies.size()))],
                                              64 + 64 * pick(8)));
            }
            estate.publishVolumes(QStringLiteral("ontap"), listServicelevels<Volume>(std::move(volumes)));
        } else if (what == 1 || what == 2) {
            // Performance of some volumes (and not of others any more).
            perf.clear();
            const int count = pick(3) == 0 ? 3000 : 60;
            for (int i = 0; i < count; ++i) {
                if (pick(4) == 0) {
                    continue;
                }
                VolumePerf p;
                p.source = QStringLiteral("ontap");
                p.id = QStringLiteral("u-%1").arg(i);
                p.time = clock.now();
                p.throughputBps = double(pick(200)) * kMiB;
                p.totalIops = double(pick(8000));
                perf.push_back(std::make_shared<const VolumePerf>(p));
            }
            estate.publishVolumePerf(QStringLiteral("ontap"), listServicelevels<VolumePerf>(perf));
        } else if (what == 3) {
            // The policies: the same again (aggregates moved) or new limits.
            const qint64 gold = pick(2) == 0 ? 100 : 50 + pick(200);
            estate.publishInventory(QStringLiteral("ontap"),
                                    listServicelevels<Svm>({}),
                                    listServicelevels<Aggregate>({}),
                                    listServicelevels<QosPolicy>({policy(QStringLiteral("gold"), false, gold, 5000, 0),
                                                                  policy(QStringLiteral("extreme"), true, 0, 0, 4096),
                                                                  policy(QStringLiteral("silver"), false, 20, 0, 0)}),
                                    listServicelevels<FlexCache>({}));
        } else if (what == 4) {
            RateCard card = levels->rateCard();
            card.ontapPerGibMonth.insert(QStringLiteral("gold"), 0.01 * (1 + pick(20)));
            levels->setRateCard(card);
        } else if (what == 5) {
            levels->noteLevelChange(QStringLiteral("ontap"), QStringLiteral("u-%1").arg(pick(60)), clock.now());
        } else {
            // Time passes: a day of samples completes for some volumes. Rows follow at the next
            // update (as before, at the next change): the statistics are re-read.
            clock.advance(std::chrono::minutes(3 + pick(10)));
            refresh();
        }
        ASSERT_TRUE(waitForServicelevels([&] {
            return shown == levelRowsByKey(levels->rows());
        })) << "shown "
            << shown.size() << " rows, a full recompute " << levels->rows().size() << "; "
            << firstLevelDifference(shown, levelRowsByKey(levels->rows()));
        for (const ServiceLevelRow &r : std::as_const(shown)) {
            farBelowSeen = farBelowSeen || r.flag == LevelFlag::FarBelow;
        }
    }
    EXPECT_GT(updates, 20);
    EXPECT_GE(offThread, 2);
    // Some far-below flags turned on the way (a day of samples completing), as the full
    // recompute says.
    EXPECT_TRUE(farBelowSeen);
}
