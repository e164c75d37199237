// Service levels on the desktop: the page over ServiceLevels (ANF and ONTAP rows, caps, flags,
// keyed updates), the change and schedule dialogs, the rate card editor, Azure in the Sources
// dialog and AKS clusters on the Sources page.

#include "models/core/domain/estate.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/servicelevels.h"
#include "models/core/store/config.h"
#include "models/core/store/credentialstore.h"
#include "models/item/aksclustermodel.h"
#include "models/item/roles.h"
#include "models/item/servicelevelmodel.h"
#include "models/item/sourcetablemodel.h"
#include "tests/support/qt/manualclock.h"
#include "views/actiondialog.h"
#include "views/levelchangedialog.h"
#include "views/ratecarddialog.h"
#include "views/scheduledialog.h"
#include "views/servicelevelspage.h"
#include "views/sourcedialog.h"
#include "views/sourcespage.h"
#include "views/throughputchart.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMap>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTreeWidget>

#include <gtest/gtest.h>

#include <random>

using namespace strata;

namespace {

constexpr qint64 kGiB = 1024LL * 1024 * 1024;
constexpr qint64 kTiB = 1024 * kGiB;

template <class W> W *child(QWidget &parent, const char *name)
{
    return parent.findChild<W *>(QString::fromLatin1(name));
}

QPushButton *okButtonServicelevelsViews(QDialog &dialog)
{
    return dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
}

core::Ptr<core::Volume>
anfVolume(const QString &name, const QString &pool, const QString &level, qint64 size, double cap)
{
    core::Volume v;
    v.source = QStringLiteral("azure-lab");
    v.id = QStringLiteral("fsid-") + name;
    v.name = name;
    v.svm = QStringLiteral("anf-ai-lab");
    v.aggregate = pool;
    v.state = QStringLiteral("online");
    v.style = QStringLiteral("anf");
    v.type = QStringLiteral("rw");
    v.sizeBytes = size;
    v.serviceLevel = level;
    v.armId = QStringLiteral("/subscriptions/s/resourceGroups/ai-lab-rg/providers/Microsoft.NetApp/netAppAccounts/"
                             "anf-ai-lab/capacityPools/%1/volumes/%2")
                  .arg(pool, name);
    v.resourceGroup = QStringLiteral("ai-lab-rg");
    v.location = QStringLiteral("eastus");
    v.qosType = QStringLiteral("Auto");
    v.throughputMibps = cap;
    v.provisioningState = QStringLiteral("Succeeded");
    return std::make_shared<const core::Volume>(std::move(v));
}

core::Ptr<core::Volume> ontapVolume(const QString &name, const QString &policy)
{
    core::Volume v;
    v.source = QStringLiteral("ontap-ai");
    v.id = QStringLiteral("uuid-") + name;
    v.name = name;
    v.svm = QStringLiteral("svm_ai");
    v.state = QStringLiteral("online");
    v.style = QStringLiteral("flexvol");
    v.type = QStringLiteral("rw");
    v.sizeBytes = 2 * kTiB;
    v.qosPolicy = policy;
    return std::make_shared<const core::Volume>(std::move(v));
}

/// The demo's ANF account (criteo-data and tusimple in a 4 TiB Standard pool, an empty Premium
/// pool) and an ONTAP volume under a fixed 500 MB/s policy.
void publishEstate(core::Estate &estate)
{
    estate.publishVolumes(QStringLiteral("azure-lab"),
                          std::make_shared<const core::KeyedList<core::Volume>>(
                              std::vector<core::Ptr<core::Volume>>{anfVolume(QStringLiteral("criteo-data"),
                                                                             QStringLiteral("pool-standard"),
                                                                             QStringLiteral("Standard"),
                                                                             1000 * kGiB,
                                                                             15.625),
                                                                   anfVolume(QStringLiteral("tusimple"),
                                                                             QStringLiteral("pool-standard"),
                                                                             QStringLiteral("Standard"),
                                                                             500 * kGiB,
                                                                             7.8125)}));
    auto pool = [](const QString &name, const QString &level, qint64 allocated, int volumes) {
        core::CapacityPool p;
        p.source = QStringLiteral("azure-lab");
        p.name = name;
        p.account = QStringLiteral("anf-ai-lab");
        p.armId = QStringLiteral("/subscriptions/s/resourceGroups/ai-lab-rg/providers/Microsoft.NetApp/"
                                 "netAppAccounts/anf-ai-lab/capacityPools/")
                  + name;
        p.id = p.armId.toLower();
        p.resourceGroup = QStringLiteral("ai-lab-rg");
        p.location = QStringLiteral("eastus");
        p.serviceLevel = level;
        p.qosType = QStringLiteral("Auto");
        p.sizeBytes = 4 * kTiB;
        p.allocatedBytes = allocated;
        p.volumeCount = volumes;
        p.provisioningState = QStringLiteral("Succeeded");
        return std::make_shared<const core::CapacityPool>(std::move(p));
    };
    estate.publishAzure(
        QStringLiteral("azure-lab"),
        std::make_shared<const core::KeyedList<core::CapacityPool>>(std::vector<core::Ptr<core::CapacityPool>>{
            pool(QStringLiteral("pool-standard"), QStringLiteral("Standard"), 1500 * kGiB, 2),
            pool(QStringLiteral("pool-premium"), QStringLiteral("Premium"), 0, 0)}),
        nullptr);
    estate.publishVolumes(QStringLiteral("ontap-ai"),
                          std::make_shared<const core::KeyedList<core::Volume>>(std::vector<core::Ptr<core::Volume>>{
                              ontapVolume(QStringLiteral("chest_xray"), QStringLiteral("fixed-500"))}));
    core::QosPolicy fixed;
    fixed.source = QStringLiteral("ontap-ai");
    fixed.id = QStringLiteral("qos-1");
    fixed.name = QStringLiteral("fixed-500");
    fixed.svm = QStringLiteral("svm_ai");
    fixed.maxMbps = 500;
    estate.publishInventory(
        QStringLiteral("ontap-ai"),
        std::make_shared<const core::KeyedList<core::Svm>>(),
        std::make_shared<const core::KeyedList<core::Aggregate>>(),
        std::make_shared<const core::KeyedList<core::QosPolicy>>(
            std::vector<core::Ptr<core::QosPolicy>>{std::make_shared<const core::QosPolicy>(fixed)}),
        std::make_shared<const core::KeyedList<core::FlexCache>>());
}

core::ServiceLevelRow makeRow(const QString &name, core::LevelFlag flag, double cap, double p95)
{
    core::ServiceLevelRow r;
    r.source = QStringLiteral("azure-lab");
    r.kind = core::SourceKind::Azure;
    r.volumeId = QStringLiteral("fsid-") + name;
    r.volumeName = name;
    r.container = QStringLiteral("anf-ai-lab/pool-standard");
    r.level = QStringLiteral("Standard");
    r.levelDetail = QStringLiteral("16 MiB/s per TiB (auto QoS)");
    r.sizeBytes = 1000 * kGiB;
    r.capMibps = cap;
    r.observedMibps = p95;
    r.p95Mibps = p95;
    r.costPerMonth = 147.5;
    r.capUsedPercent = cap > 0 ? 100.0 * p95 / cap : -1; // as core::ServiceLevels computes it
    r.flag = flag;
    if (flag == core::LevelFlag::AtCap) {
        r.flagReason = QStringLiteral("p95 15.5 of 15.6 MiB/s for the last day");
    } else if (flag == core::LevelFlag::FarBelow) {
        r.flagReason = QStringLiteral("p95 0.4 of 7.8 MiB/s for the last day");
    }
    return r;
}

int rowNamedServicelevelsViews(const QAbstractItemModel &model, const QString &name)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row, models::ServiceLevelTableModel::Volume).data().toString() == name) {
            return row;
        }
    }
    return -1;
}

} // namespace

TEST(ServiceLevelsPage, ListsAnfAndOntapVolumesWithTheirCaps)
{
    core::Estate estate;
    testsupport::ManualClock clock;
    publishEstate(estate);
    core::ServiceLevels levels(estate, clock, nullptr);
    models::ServiceLevelTableModel model(&levels);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    views::ServiceLevelsPage page(&model);
    page.show();

    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(page.countText(), QStringLiteral("3 volumes"));
    const int criteo = rowNamedServicelevelsViews(model, QStringLiteral("criteo-data"));
    const int xray = rowNamedServicelevelsViews(model, QStringLiteral("chest_xray"));
    ASSERT_GE(criteo, 0);
    ASSERT_GE(xray, 0);
    using M = models::ServiceLevelTableModel;
    EXPECT_EQ(model.index(criteo, M::Level).data().toString(), QStringLiteral("Standard"));
    EXPECT_NEAR(model.index(criteo, M::Cap).data(models::RawValueRole).toDouble(), 15.625, 0.01);
    EXPECT_EQ(model.index(criteo, M::Container).data().toString(), QStringLiteral("anf-ai-lab/pool-standard"));
    // A price from the default rate card (ANF Standard has a list price).
    EXPECT_GT(model.index(criteo, M::Cost).data(models::RawValueRole).toDouble(), 0);
    EXPECT_TRUE(model.index(criteo, M::Cost).data().toString().startsWith(QLatin1Char('$')));
    EXPECT_EQ(model.index(xray, M::Level).data().toString(), QStringLiteral("fixed-500"));
    // 500 MB/s = 476.8 MiB/s.
    EXPECT_NEAR(model.index(xray, M::Cap).data(models::RawValueRole).toDouble(), 500e6 / 1048576.0, 0.5);
    EXPECT_EQ(model.index(xray, M::Container).data().toString(), QStringLiteral("svm_ai"));

    // Filtering by text and by source.
    page.proxy()->setTextFilter(QStringLiteral("criteo"));
    EXPECT_EQ(page.proxy()->rowCount(), 1);
    page.proxy()->setTextFilter(QString());
    page.proxy()->setSourceFilter(QStringLiteral("ontap-ai"));
    EXPECT_EQ(page.proxy()->rowCount(), 1);
    page.proxy()->setSourceFilter(QString());

    // The options of criteo-data: the three ANF levels, Standard current, Premium's pool has room.
    const QList<core::LevelOption> options =
        levels.options(QStringLiteral("azure-lab"), QStringLiteral("fsid-criteo-data"));
    ASSERT_EQ(options.size(), 3);
    bool premiumWithRoom = false;
    for (const core::LevelOption &o : options) {
        EXPECT_EQ(o.current, o.level == QLatin1String("Standard"));
        premiumWithRoom |=
            o.level == QLatin1String("Premium") && o.pool == QLatin1String("pool-premium") && o.poolHasRoom;
    }
    EXPECT_TRUE(premiumWithRoom);
}

TEST(ServiceLevelsPage, RepublishUpdatesRowsInPlaceWithoutReset)
{
    models::ServiceLevelTableModel model(nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    views::ServiceLevelsPage page(&model);
    page.show();
    QList<core::ServiceLevelRow> rows{makeRow(QStringLiteral("a"), core::LevelFlag::None, 15.6, 3),
                                      makeRow(QStringLiteral("b"), core::LevelFlag::None, 15.6, 4),
                                      makeRow(QStringLiteral("c"), core::LevelFlag::None, 15.6, 5)};
    model.setRows(rows);
    ASSERT_EQ(model.rowCount(), 3);
    ASSERT_TRUE(page.selectVolume(QStringLiteral("azure-lab/fsid-b")));
    const QPersistentModelIndex b = model.index(1, 0);

    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

    // The same rows again: nothing at all.
    model.setRows(rows);
    EXPECT_EQ(changed.count(), 0);

    // b's observed throughput moves, a disappears, d arrives.
    rows[1].observedMibps = 15.5;
    rows[1].p95Mibps = 15.4;
    rows.removeFirst();
    rows.append(makeRow(QStringLiteral("d"), core::LevelFlag::None, 62.5, 1));
    model.setRows(rows);
    EXPECT_EQ(reset.count(), 0);
    EXPECT_EQ(removed.count(), 1);
    EXPECT_EQ(inserted.count(), 1);
    ASSERT_GE(changed.count(), 1);
    ASSERT_TRUE(b.isValid());
    EXPECT_EQ(b.row(), 0);
    EXPECT_EQ(model.rowCount(), 3);
    EXPECT_NEAR(
        model.index(b.row(), models::ServiceLevelTableModel::P95).data(models::RawValueRole).toDouble(), 15.4, 1e-9);
    // The selection stayed on b.
    ASSERT_TRUE(page.currentRow());
    EXPECT_EQ(page.currentRow()->volumeName, QStringLiteral("b"));
}

TEST(ServiceLevelsPage, FlagsShowAsBadgesWithTheirReasonAndFilter)
{
    models::ServiceLevelTableModel model(nullptr);
    views::ServiceLevelsPage page(&model);
    page.show();
    model.setRows({makeRow(QStringLiteral("criteo-data"), core::LevelFlag::AtCap, 15.625, 15.5),
                   makeRow(QStringLiteral("tusimple"), core::LevelFlag::FarBelow, 7.8, 0.4),
                   makeRow(QStringLiteral("quiet"), core::LevelFlag::None, 7.8, 3)});
    using M = models::ServiceLevelTableModel;
    const int criteo = rowNamedServicelevelsViews(model, QStringLiteral("criteo-data"));
    const int tusimple = rowNamedServicelevelsViews(model, QStringLiteral("tusimple"));
    EXPECT_EQ(model.index(criteo, M::Flag).data().toString(), QStringLiteral("At cap – raise?"));
    EXPECT_EQ(model.index(criteo, M::Flag).data(Qt::ToolTipRole).toString(),
              QStringLiteral("p95 15.5 of 15.6 MiB/s for the last day"));
    EXPECT_EQ(model.index(criteo, M::Flag).data(models::StatusRole).toString(), QStringLiteral("warning"));
    EXPECT_EQ(model.index(criteo, M::CapUse).data().toString(), QStringLiteral("99 %"));
    EXPECT_EQ(model.index(tusimple, M::Flag).data().toString(), QStringLiteral("Far below – lower?"));
    EXPECT_EQ(model.index(rowNamedServicelevelsViews(model, QStringLiteral("quiet")), M::Flag).data().toString(),
              QString());

    auto *flags = child<QComboBox>(page, "levelFlagComboBox");
    flags->setCurrentIndex(flags->findData(int(views::ServiceLevelFilterProxy::FlagFilter::Flagged)));
    EXPECT_EQ(page.proxy()->rowCount(), 2);
    flags->setCurrentIndex(flags->findData(int(views::ServiceLevelFilterProxy::FlagFilter::AtCap)));
    ASSERT_EQ(page.proxy()->rowCount(), 1);
    EXPECT_EQ(page.proxy()->index(0, M::Volume).data().toString(), QStringLiteral("criteo-data"));
    EXPECT_EQ(page.countText(), QStringLiteral("1 of 3 volumes"));
}

// A volume flagged "At cap" shows the cap use that put it there, also when its cap is in IOPS;
// the throughput cap and the IOPS cap are columns of their own (one unit each).
TEST(ServiceLevelsPage, AtCapShowsItsCapUseAndEachCapColumnHasOneUnit)
{
    models::ServiceLevelTableModel model(nullptr);
    views::ServiceLevelsPage page(&model);
    page.show();
    core::ServiceLevelRow iopsOnly = makeRow(QStringLiteral("scratch"), core::LevelFlag::AtCap, -1, 20);
    iopsOnly.kind = core::SourceKind::Ontap;
    iopsOnly.capIops = 8192;
    iopsOnly.capUsedPercent = 95;
    iopsOnly.flagReason = QStringLiteral("now 7,782 of 8,192 IOPS");
    model.setRows({makeRow(QStringLiteral("criteo-data"), core::LevelFlag::AtCap, 15.625, 15.5), iopsOnly});
    using M = models::ServiceLevelTableModel;
    const int scratch = rowNamedServicelevelsViews(model, QStringLiteral("scratch"));
    const int criteo = rowNamedServicelevelsViews(model, QStringLiteral("criteo-data"));
    EXPECT_EQ(model.index(scratch, M::Flag).data().toString(), QStringLiteral("At cap – raise?"));
    EXPECT_EQ(model.index(scratch, M::CapUse).data().toString(), QStringLiteral("95 %"));
    EXPECT_EQ(model.index(criteo, M::CapUse).data().toString(), QStringLiteral("99 %"));
    for (int row = 0; row < model.rowCount(); ++row) {
        const bool atCap = model.index(row, M::Flag).data(models::RawValueRole).toInt() == int(core::LevelFlag::AtCap);
        if (atCap) {
            EXPECT_GE(model.index(row, M::CapUse).data(models::RawValueRole).toDouble(), 90.0) << row;
        }
    }
    EXPECT_EQ(model.headerData(M::Cap, Qt::Horizontal).toString(), QStringLiteral("Throughput cap"));
    EXPECT_EQ(model.headerData(M::CapIops, Qt::Horizontal).toString(), QStringLiteral("IOPS cap"));
    EXPECT_EQ(model.index(scratch, M::Cap).data().toString(), QStringLiteral("–"));
    EXPECT_EQ(model.index(scratch, M::CapIops).data().toString(), QStringLiteral("8,192"));
    EXPECT_EQ(model.index(criteo, M::Cap).data().toString(), QStringLiteral("15.6 MiB/s"));
    EXPECT_EQ(model.index(criteo, M::CapIops).data().toString(), QStringLiteral("–"));
    for (int row = 0; row < model.rowCount(); ++row) {
        EXPECT_FALSE(model.index(row, M::Cap).data().toString().contains(QLatin1String("IOPS"))) << row;
    }
    // On screen the IOPS cap follows the throughput cap.
    auto *view = child<QTableView>(page, "levelTableView");
    EXPECT_EQ(view->horizontalHeader()->visualIndex(M::CapIops), view->horizontalHeader()->visualIndex(M::Cap) + 1);
}

TEST(ServiceLevelsPage, DetailShowsThroughputAgainstCapAndUpcomingChanges)
{
    models::ServiceLevelTableModel model(nullptr);
    views::ServiceLevelsPage page(&model);
    page.show();
    model.setRows({makeRow(QStringLiteral("criteo-data"), core::LevelFlag::AtCap, 15.625, 15.5),
                   makeRow(QStringLiteral("tusimple"), core::LevelFlag::FarBelow, 7.8, 0.4)});
    QSignalSpy wanted(&page, &views::ServiceLevelsPage::throughputHistoryWanted);
    QSignalSpy change(&page, &views::ServiceLevelsPage::changeLevelRequested);
    ASSERT_TRUE(page.selectVolume(QStringLiteral("azure-lab/fsid-criteo-data")));
    ASSERT_EQ(wanted.count(), 1);
    EXPECT_EQ(wanted.at(0).at(1).toString(), QStringLiteral("fsid-criteo-data"));
    EXPECT_EQ(wanted.at(0).at(2).toLongLong(), 86400);
    auto *range = child<QComboBox>(page, "levelRangeComboBox");
    range->setCurrentIndex(1);
    ASSERT_EQ(wanted.count(), 2);
    EXPECT_EQ(wanted.at(1).at(2).toLongLong(), 7 * 86400);

    const QDateTime to(QDate(2026, 11, 22), QTime(12, 0), Qt::UTC);
    std::vector<core::ThroughputPoint> points{{to.addSecs(-3600), 15.5, 15.625}, {to.addSecs(-1800), 62.0, 62.5}};
    // An answer for another volume is ignored.
    page.setThroughputHistory(QStringLiteral("azure-lab"), QStringLiteral("fsid-tusimple"), points, to.addDays(-7), to);
    EXPECT_FALSE(page.chart()->showsChart());
    page.setThroughputHistory(
        QStringLiteral("azure-lab"), QStringLiteral("fsid-criteo-data"), points, to.addDays(-7), to);
    EXPECT_TRUE(page.chart()->showsChart());
    ASSERT_EQ(page.chart()->observedPoints().size(), 2);
    EXPECT_EQ(page.chart()->observedPoints().at(1).y(), 62.0);
    // The cap steps from 15.6 to 62.5 at the pool change and is held to the right edge.
    const QList<QPointF> cap = page.chart()->capPoints();
    ASSERT_EQ(cap.size(), 4);
    EXPECT_EQ(cap.at(1).y(), 15.625);
    EXPECT_EQ(cap.at(2).y(), 62.5);
    EXPECT_EQ(cap.last().x(), double(to.toMSecsSinceEpoch()));

    core::UpcomingChange up{7,
                            to.addDays(1),
                            QStringLiteral("azure-lab"),
                            QStringLiteral("fsid-criteo-data"),
                            QStringLiteral("criteo-data"),
                            QStringLiteral("Premium"),
                            false};
    core::UpcomingChange other{8,
                               to.addDays(1),
                               QStringLiteral("azure-lab"),
                               QStringLiteral("fsid-tusimple"),
                               QStringLiteral("tusimple"),
                               QStringLiteral("Ultra"),
                               false};
    page.setUpcoming({up, other});
    ASSERT_EQ(page.upcomingTexts().size(), 1);
    EXPECT_TRUE(page.upcomingTexts().first().endsWith(QStringLiteral("→ Premium")));

    QTest::mouseClick(child<QPushButton>(page, "levelChangeButton"), Qt::LeftButton);
    ASSERT_EQ(change.count(), 1);
    EXPECT_EQ(change.at(0).at(1).toString(), QStringLiteral("fsid-criteo-data"));
}

TEST(LevelChangeDialog, ProducesTheServiceLevelChangeRequest)
{
    core::ServiceLevelRow row = makeRow(QStringLiteral("criteo-data"), core::LevelFlag::AtCap, 15.625, 15.5);
    QList<core::LevelOption> options{
        {QStringLiteral("Standard"), 15.625, -1, 147.5, QStringLiteral("pool-standard"), true, true, true},
        {QStringLiteral("Premium"), 62.5, -1, 294.2, QStringLiteral("pool-premium"), true, true, false},
        {QStringLiteral("Ultra"), 125, -1, 392.3, QString(), false, false, false}};
    views::LevelChangeDialog dialog(
        row, options, QStringLiteral("USD"), {QStringLiteral("pool-standard"), QStringLiteral("pool-premium")});
    dialog.show();
    auto *list = child<QTreeWidget>(dialog, "levelOptionsTreeWidget");
    ASSERT_EQ(list->topLevelItemCount(), 3);
    EXPECT_EQ(list->topLevelItem(0)->text(0), QStringLiteral("Standard (current)"));
    EXPECT_FALSE(list->topLevelItem(0)->flags() & Qt::ItemIsEnabled);
    EXPECT_EQ(list->topLevelItem(1)->text(2), QStringLiteral("$294.20"));
    // At cap: the next level up is preselected.
    EXPECT_FALSE(dialog.offersNewPool());
    core::ActionRequest r = dialog.request();
    EXPECT_EQ(r.kind, core::ActionKind::ServiceLevelChange);
    EXPECT_EQ(r.source, QStringLiteral("azure-lab"));
    EXPECT_EQ(r.volumeId, QStringLiteral("fsid-criteo-data"));
    EXPECT_EQ(r.targetLevel, QStringLiteral("Premium"));
    EXPECT_EQ(r.targetPool, QStringLiteral("pool-premium"));
    EXPECT_FALSE(r.createPool);
    EXPECT_EQ(r.poolSizeBytes, 0);
    EXPECT_FALSE(dialog.selectLevel(QStringLiteral("Standard")));

    // Ultra has no pool: a new one is offered, sized in whole TiB for the volume.
    ASSERT_TRUE(dialog.selectLevel(QStringLiteral("Ultra")));
    EXPECT_TRUE(dialog.offersNewPool());
    EXPECT_TRUE(child<QLabel>(dialog, "levelNewPoolLabel")->isVisible());
    r = dialog.request();
    EXPECT_EQ(r.targetLevel, QStringLiteral("Ultra"));
    EXPECT_EQ(r.targetPool, QStringLiteral("pool-ultra"));
    EXPECT_EQ(r.poolSizeBytes, kTiB);
    child<QSpinBox>(dialog, "levelNewPoolSizeSpinBox")->setValue(2);
    EXPECT_EQ(dialog.request().poolSizeBytes, 2 * kTiB);
    EXPECT_FALSE(dialog.request().createPool);

    // The preview step: the check box turns createPool on, the preview sees it, OK sends it.
    core::ActionRequest seen;
    auto previewer = [&seen](const core::ActionRequest &req) {
        seen = req;
        core::ActionPreview p;
        p.title = QStringLiteral("Change service level");
        p.target = QStringLiteral("anf-ai-lab/criteo-data");
        p.fromState = QStringLiteral("Standard");
        p.toState = QStringLiteral("Ultra");
        if (!req.createPool) {
            p.blockedReason = QStringLiteral("No Ultra pool has room; create one.");
        }
        return p;
    };
    views::ActionDialog preview(dialog.request(), previewer);
    preview.show();
    auto *create = child<QCheckBox>(preview, "createPoolCheckBox");
    ASSERT_TRUE(create);
    EXPECT_EQ(create->text(), QStringLiteral("Create pool pool-ultra of 2 TiB (Ultra) first"));
    EXPECT_FALSE(okButtonServicelevelsViews(preview)->isEnabled());
    create->setChecked(true);
    EXPECT_TRUE(seen.createPool);
    ASSERT_TRUE(okButtonServicelevelsViews(preview)->isEnabled());
    QSignalSpy confirmed(&preview, &views::ActionDialog::confirmed);
    QTest::mouseClick(okButtonServicelevelsViews(preview), Qt::LeftButton);
    ASSERT_EQ(confirmed.count(), 1);
    const auto sent = confirmed.at(0).at(0).value<core::ActionRequest>();
    EXPECT_TRUE(sent.createPool);
    EXPECT_EQ(sent.targetPool, QStringLiteral("pool-ultra"));
    EXPECT_EQ(sent.poolSizeBytes, 2 * kTiB);
}

TEST(ScheduleDialog, ProducesTheSchedule)
{
    const QDateTime now(QDate(2026, 11, 22), QTime(10, 17), Qt::UTC);
    core::ServiceLevelRow row = makeRow(QStringLiteral("criteo-data"), core::LevelFlag::AtCap, 15.625, 15.5);
    views::ScheduleDialog dialog(
        row, {QStringLiteral("Standard"), QStringLiteral("Premium"), QStringLiteral("Ultra")}, now);
    dialog.show();
    // Defaults: at the next full hour, one level up, once.
    core::ServiceLevelSchedule s = dialog.schedule();
    EXPECT_EQ(s.source, QStringLiteral("azure-lab"));
    EXPECT_EQ(s.volumeId, QStringLiteral("fsid-criteo-data"));
    EXPECT_EQ(s.volumeName, QStringLiteral("criteo-data"));
    EXPECT_EQ(s.level, QStringLiteral("Premium"));
    EXPECT_EQ(s.start, QDateTime(QDate(2026, 11, 22), QTime(11, 0), Qt::UTC));
    EXPECT_FALSE(s.isWindow());
    EXPECT_EQ(s.recurrence, core::Recurrence::Once);
    EXPECT_TRUE(okButtonServicelevelsViews(dialog)->isEnabled());

    // A weekday window: Ultra from 06:00 to 18:00 UTC, back to Standard.
    dialog.setMode(views::ScheduleDialog::Mode::Window);
    dialog.setLevel(QStringLiteral("Ultra"));
    dialog.setStart(QDateTime(QDate(2026, 11, 23), QTime(6, 0), Qt::UTC));
    dialog.setEnd(QDateTime(QDate(2026, 11, 23), QTime(18, 0), Qt::UTC));
    dialog.setRecurrence(core::Recurrence::Weekdays);
    s = dialog.schedule();
    EXPECT_TRUE(s.isWindow());
    EXPECT_EQ(s.level, QStringLiteral("Ultra"));
    EXPECT_EQ(s.revertLevel, QStringLiteral("Standard"));
    EXPECT_EQ(s.start, QDateTime(QDate(2026, 11, 23), QTime(6, 0), Qt::UTC));
    EXPECT_EQ(s.end, QDateTime(QDate(2026, 11, 23), QTime(18, 0), Qt::UTC));
    EXPECT_EQ(s.recurrence, core::Recurrence::Weekdays);
    EXPECT_TRUE(s.enabled);
    EXPECT_EQ(dialog.validationError(), QString());

    QSignalSpy save(&dialog, &views::ScheduleDialog::saveRequested);
    QTest::mouseClick(okButtonServicelevelsViews(dialog), Qt::LeftButton);
    ASSERT_EQ(save.count(), 1);
    EXPECT_EQ(save.at(0).at(0).value<core::ServiceLevelSchedule>(), s);
    dialog.setSaveError(QStringLiteral("database is locked"));
    EXPECT_TRUE(
        child<QLabel>(dialog, "scheduleValidationLabel")->text().contains(QStringLiteral("database is locked")));

    // Bad input is refused as the user types.
    dialog.setEnd(QDateTime(QDate(2026, 11, 23), QTime(5, 0), Qt::UTC));
    EXPECT_EQ(dialog.validationError(), QStringLiteral("The end must be after the start."));
    EXPECT_FALSE(okButtonServicelevelsViews(dialog)->isEnabled());
    dialog.setEnd(QDateTime(QDate(2026, 11, 23), QTime(18, 0), Qt::UTC));
    dialog.setRevertLevel(QStringLiteral("Ultra"));
    EXPECT_FALSE(dialog.validationError().isEmpty());
    dialog.setRevertLevel(QStringLiteral("Standard"));
    dialog.setStart(QDateTime(QDate(2026, 11, 22), QTime(9, 0), Qt::UTC));
    EXPECT_EQ(dialog.validationError(), QStringLiteral("The start must be in the future."));
}

TEST(ScheduleDialog, UpcomingChangesListRemovesASchedule)
{
    views::UpcomingChangesDialog dialog;
    dialog.show();
    const QDateTime t(QDate(2026, 11, 23), QTime(6, 0), Qt::UTC);
    dialog.setUpcoming({{4,
                         t,
                         QStringLiteral("azure-lab"),
                         QStringLiteral("fsid-a"),
                         QStringLiteral("criteo-data"),
                         QStringLiteral("Ultra"),
                         false},
                        {4,
                         t.addSecs(12 * 3600),
                         QStringLiteral("azure-lab"),
                         QStringLiteral("fsid-a"),
                         QStringLiteral("criteo-data"),
                         QStringLiteral("Standard"),
                         true}});
    ASSERT_EQ(dialog.list()->topLevelItemCount(), 2);
    EXPECT_TRUE(dialog.list()->topLevelItem(1)->text(3).contains(QStringLiteral("end of window")));
    dialog.list()->setCurrentItem(dialog.list()->topLevelItem(1));
    EXPECT_EQ(dialog.currentScheduleId(), 4);
    QSignalSpy removed(&dialog, &views::UpcomingChangesDialog::removeRequested);
    QTest::mouseClick(child<QPushButton>(dialog, "upcomingRemoveButton"), Qt::LeftButton);
    auto *box = dialog.findChild<QMessageBox *>(QStringLiteral("upcomingRemoveMessageBox"));
    ASSERT_TRUE(box);
    QAbstractButton *remove = nullptr;
    for (QAbstractButton *b : box->buttons()) {
        if (box->buttonRole(b) == QMessageBox::DestructiveRole) {
            remove = b;
        }
    }
    ASSERT_TRUE(remove);
    remove->click();
    ASSERT_EQ(removed.count(), 1);
    EXPECT_EQ(removed.at(0).at(0).toLongLong(), 4);
}

TEST(RateCardDialog, RoundTrip)
{
    core::RateCard card = core::RateCard::defaults();
    card.currency = QStringLiteral("EUR");
    card.ontapPerGibMonth.insert(QStringLiteral("Gold"), 0.25);
    card.ontapPerGibMonth.insert(QString(), 0.05);
    card.coolDownMinutes = 90;
    {
        views::RateCardDialog dialog(card, {QStringLiteral("Gold"), QStringLiteral("Silver")});
        // Unchanged in, unchanged out (Silver is listed but has no price).
        EXPECT_EQ(dialog.rateCard(), card);
        EXPECT_EQ(dialog.ontapTable()->rowCount(), 3);
    }
    views::RateCardDialog dialog(card, {QStringLiteral("Gold"), QStringLiteral("Silver")});
    dialog.show();
    child<QLineEdit>(dialog, "rateCurrencyLineEdit")->setText(QStringLiteral("chf"));
    child<QDoubleSpinBox>(dialog, "rateAnfPremiumSpinBox")->setValue(0.3);
    child<QSpinBox>(dialog, "rateCoolDownSpinBox")->setValue(0);
    QTableWidget *ontap = dialog.ontapTable();
    for (int row = 0; row < ontap->rowCount(); ++row) {
        if (ontap->item(row, 0)->text() == QLatin1String("Silver")) {
            ontap->item(row, 1)->setText(QStringLiteral("0.125"));
        }
    }
    const core::RateCard edited = dialog.rateCard();
    EXPECT_EQ(edited.currency, QStringLiteral("CHF"));
    EXPECT_DOUBLE_EQ(edited.anfPerGibMonth.value(QStringLiteral("Premium")), 0.3);
    EXPECT_DOUBLE_EQ(edited.anfPerGibMonth.value(QStringLiteral("Standard")),
                     card.anfPerGibMonth.value(QStringLiteral("Standard")));
    EXPECT_DOUBLE_EQ(edited.ontapPerGibMonth.value(QStringLiteral("Silver")), 0.125);
    EXPECT_DOUBLE_EQ(edited.ontapPerGibMonth.value(QString()), 0.05);
    EXPECT_EQ(edited.coolDownMinutes, 0);
    // What the config stores reads back the same.
    const core::Result<core::RateCard> parsed = core::RateCard::fromJson(edited.toJson());
    ASSERT_TRUE(parsed) << parsed.error().message.toStdString();
    EXPECT_EQ(*parsed, edited);

    // A bad price keeps Save disabled.
    for (int row = 0; row < ontap->rowCount(); ++row) {
        if (ontap->item(row, 0)->text() == QLatin1String("Gold")) {
            ontap->item(row, 1)->setText(QStringLiteral("-1"));
        }
    }
    EXPECT_FALSE(dialog.validationError().isEmpty());
    EXPECT_FALSE(okButtonServicelevelsViews(dialog)->isEnabled());
}

TEST(SourceDialogAzure, FieldsBecomeTheSourceConfig)
{
    views::SourceDialog dialog({});
    dialog.show();
    auto *kind = child<QComboBox>(dialog, "sourceKindComboBox");
    ASSERT_GE(kind->findData(QStringLiteral("azure")), 0);
    kind->setCurrentIndex(kind->findData(QStringLiteral("azure")));
    auto *subscription = child<QLineEdit>(dialog, "sourceSubscriptionLineEdit");
    auto *tenant = child<QLineEdit>(dialog, "sourceTenantLineEdit");
    auto *client = child<QLineEdit>(dialog, "sourceClientIdLineEdit");
    auto *secret = child<QLineEdit>(dialog, "sourcePasswordLineEdit");
    auto *advanced = child<QCheckBox>(dialog, "sourceAdvancedCheckBox");
    auto *authority = child<QLineEdit>(dialog, "sourceAuthorityLineEdit");
    auto *url = child<QLineEdit>(dialog, "sourceUrlLineEdit");
    auto *user = child<QLineEdit>(dialog, "sourceUsernameLineEdit");
    auto *credential = child<QComboBox>(dialog, "sourceCredentialComboBox");
    ASSERT_TRUE(subscription && tenant && client && secret && advanced && authority && url && user && credential);
    EXPECT_TRUE(subscription->isVisible());
    EXPECT_TRUE(client->isVisible());
    EXPECT_FALSE(user->isVisible());
    EXPECT_FALSE(authority->isVisible());
    EXPECT_FALSE(url->isVisible());

    child<QLineEdit>(dialog, "sourceNameLineEdit")->setText(QStringLiteral("azure-lab"));
    EXPECT_EQ(dialog.validationError(), QStringLiteral("Enter the subscription id."));
    subscription->setText(QStringLiteral("not-a-guid"));
    EXPECT_FALSE(dialog.validationError().isEmpty());
    subscription->setText(QStringLiteral("8e2c1b9a-0f4d-4c3e-9a57-1d2e3f4a5b6c"));
    EXPECT_EQ(dialog.validationError(), QStringLiteral("Enter the tenant id."));
    tenant->setText(QStringLiteral("72f988bf-86f1-41af-91ab-2d7cd011db47"));
    client->setText(QStringLiteral("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"));
    EXPECT_EQ(dialog.validationError(), QStringLiteral("Enter the client secret."));
    secret->setText(QStringLiteral("s3cr3t~value"));
    EXPECT_EQ(dialog.validationError(), QString());
    advanced->setChecked(true);
    EXPECT_TRUE(authority->isVisible());
    EXPECT_TRUE(url->isVisible());
    authority->setText(QStringLiteral("https://127.0.0.1:8443/"));
    url->setText(QStringLiteral("https://127.0.0.1:8443"));
    child<QLineEdit>(dialog, "sourceCaFileLineEdit")->setText(QStringLiteral("/tmp/sim-ca.pem"));
    EXPECT_EQ(dialog.validationError(), QString());
    EXPECT_TRUE(okButtonServicelevelsViews(dialog)->isEnabled());

    core::SourceConfig c = dialog.config();
    EXPECT_EQ(c.name, QStringLiteral("azure-lab"));
    EXPECT_EQ(c.kind, core::SourceKind::Azure);
    EXPECT_EQ(c.subscriptionId, QStringLiteral("8e2c1b9a-0f4d-4c3e-9a57-1d2e3f4a5b6c"));
    EXPECT_EQ(c.tenantId, QStringLiteral("72f988bf-86f1-41af-91ab-2d7cd011db47"));
    EXPECT_EQ(c.clientId, QStringLiteral("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"));
    EXPECT_EQ(c.credentialSource, QStringLiteral("client_secret"));
    EXPECT_EQ(c.authorityUrl, QStringLiteral("https://127.0.0.1:8443"));
    EXPECT_EQ(c.url, QStringLiteral("https://127.0.0.1:8443"));
    EXPECT_EQ(c.caFile, QStringLiteral("/tmp/sim-ca.pem"));
    EXPECT_TRUE(c.username.isEmpty());
    EXPECT_EQ(c.password.kind, core::SecretRef::Kind::None); // the secret goes to the keychain, not the config
    EXPECT_EQ(dialog.password(), QStringLiteral("s3cr3t~value"));
    QSignalSpy test(&dialog, &views::SourceDialog::testRequested);
    QTest::mouseClick(child<QPushButton>(dialog, "sourceTestButton"), Qt::LeftButton);
    ASSERT_EQ(test.count(), 1);
    EXPECT_EQ(test.at(0).at(0).value<core::SourceConfig>().subscriptionId, c.subscriptionId);

    // Azure CLI: no client id or secret.
    credential->setCurrentIndex(credential->findData(QStringLiteral("azure_cli")));
    EXPECT_FALSE(client->isVisible());
    EXPECT_FALSE(secret->isVisible());
    tenant->clear();
    EXPECT_EQ(dialog.validationError(), QString());
    c = dialog.config();
    EXPECT_EQ(c.credentialSource, QStringLiteral("azure_cli"));
    EXPECT_TRUE(c.clientId.isEmpty());
    EXPECT_TRUE(dialog.password().isEmpty());

    // Editing keeps the stored secret when the field stays empty.
    core::SourceConfig stored;
    stored.name = QStringLiteral("azure-lab");
    stored.kind = core::SourceKind::Azure;
    stored.subscriptionId = QStringLiteral("8e2c1b9a-0f4d-4c3e-9a57-1d2e3f4a5b6c");
    stored.tenantId = QStringLiteral("t");
    stored.clientId = QStringLiteral("c");
    stored.credentialSource = QStringLiteral("client_secret");
    stored.password = core::SecretRef{core::SecretRef::Kind::Keychain, QStringLiteral("strata/source/azure-lab")};
    views::SourceDialog edit({QStringLiteral("azure-lab")});
    edit.setSource(stored);
    edit.show();
    EXPECT_EQ(edit.validationError(), QString());
    EXPECT_EQ(edit.config(), stored);
}

TEST(SourcesPageAks, ListsClustersAndAsksToAddOne)
{
    testsupport::ManualClock clock;
    core::InMemoryCredentialStore credentials;
    core::Engine engine{{clock, credentials, nullptr, QStringLiteral("tester")}};
    models::SourceTableModel sources(engine);
    models::AksClusterModel aks(engine.estate());
    QAbstractItemModelTester tester(&aks, QAbstractItemModelTester::FailureReportingMode::Fatal);
    views::SourcesPage page(&sources, &aks);
    page.show();
    ASSERT_TRUE(page.aksSection());
    EXPECT_FALSE(page.aksSection()->isVisible()); // no Azure clusters: no section

    core::AksCluster c;
    c.source = QStringLiteral("azure-lab");
    c.armId = QStringLiteral("/subscriptions/s/resourceGroups/ai-lab-rg/providers/Microsoft.ContainerService/"
                             "managedClusters/aks-gpu");
    c.id = c.armId.toLower();
    c.name = QStringLiteral("aks-gpu");
    c.resourceGroup = QStringLiteral("ai-lab-rg");
    c.location = QStringLiteral("eastus");
    c.kubernetesVersion = QStringLiteral("1.33.2");
    c.powerState = QStringLiteral("Running");
    c.provisioningState = QStringLiteral("Succeeded");
    c.nodeCount = 4;
    c.agentPools = {QStringLiteral("system: 1 x Standard_D4s_v5"), QStringLiteral("gpupool: 3 x Standard_NC6s_v3")};
    auto publish = [&engine](const core::AksCluster &cluster) {
        engine.estate().publishAzure(
            QStringLiteral("azure-lab"),
            nullptr,
            std::make_shared<const core::KeyedList<core::AksCluster>>(
                std::vector<core::Ptr<core::AksCluster>>{std::make_shared<const core::AksCluster>(cluster)}));
    };
    publish(c);
    ASSERT_EQ(aks.rowCount(), 1);
    EXPECT_TRUE(page.aksSection()->isVisible());
    EXPECT_EQ(aks.index(0, models::AksClusterModel::AgentPools).data().toString(),
              QStringLiteral("system: 1 x Standard_D4s_v5; gpupool: 3 x Standard_NC6s_v3"));
    EXPECT_EQ(aks.index(0, models::AksClusterModel::State).data(models::StatusRole).toString(), QStringLiteral("ok"));

    auto *add = child<QPushButton>(page, "aksAddButton");
    EXPECT_FALSE(add->isEnabled()); // nothing selected
    ASSERT_TRUE(page.selectAksCluster(QStringLiteral("azure-lab/") + c.id));
    ASSERT_TRUE(add->isEnabled());
    QSignalSpy requested(&page, &views::SourcesPage::addAksClusterRequested);
    QTest::mouseClick(add, Qt::LeftButton);
    ASSERT_EQ(requested.count(), 1);
    EXPECT_EQ(requested.at(0).at(0).toString(), QStringLiteral("azure-lab"));
    EXPECT_EQ(requested.at(0).at(1).toString(), c.id);

    // Once added, the cluster says so and cannot be added twice.
    c.kubernetesSource = QStringLiteral("aks-gpu");
    publish(c);
    EXPECT_EQ(aks.index(0, models::AksClusterModel::KubernetesSource).data().toString(), QStringLiteral("aks-gpu"));
    EXPECT_FALSE(add->isEnabled());
}

TEST(ServiceLevelsPage, UpdatesApplyLikeTheFullRowsWithoutReset)
{
    models::ServiceLevelTableModel model(nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QMap<QString, core::ServiceLevelRow> expected;
    std::mt19937 rng(2818);
    const auto pick = [&rng](int n) {
        return int(rng() % unsigned(n));
    };
    for (int step = 0; step < 60; ++step) {
        SCOPED_TRACE(step);
        core::ServiceLevelUpdate u;
        u.complete = step % 15 == 0;
        if (u.complete) {
            expected.clear();
        }
        const int touched = step % 7 == 3 ? 600 : 1 + pick(30);
        QSet<QString> used; // a volume appears once per update, as ServiceLevels sends it
        for (int i = 0; i < touched; ++i) {
            const QString name = QStringLiteral("v%1").arg(pick(800));
            if (used.contains(name)) {
                continue;
            }
            used.insert(name);
            if (!u.complete && pick(4) == 0) {
                u.removed << QStringLiteral("azure-lab/fsid-") + name;
                expected.remove(QStringLiteral("azure-lab/fsid-") + name);
                continue;
            }
            core::ServiceLevelRow r = makeRow(name, core::LevelFlag::None, 15.6, double(pick(20)));
            u.rows.append(r);
            expected.insert(models::ServiceLevelTableModel::key(r), r);
        }
        changed.clear();
        model.applyUpdate(u);
        QMap<QString, core::ServiceLevelRow> shown;
        for (int row = 0; row < model.rowCount(); ++row) {
            const core::ServiceLevelRow *r = model.rowAt(row);
            ASSERT_TRUE(r);
            EXPECT_EQ(model.rowOf(models::ServiceLevelTableModel::key(*r)), row);
            shown.insert(models::ServiceLevelTableModel::key(*r), *r);
        }
        ASSERT_EQ(shown.size(), model.rowCount()) << "a volume shown twice";
        ASSERT_EQ(shown, expected);
        // Scattered changes are one signal over their span, not one per run.
        EXPECT_LE(changed.count(), 64);
    }
    EXPECT_EQ(reset.count(), 0);
}
