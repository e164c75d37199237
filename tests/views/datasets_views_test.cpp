// The dataset hub on the desktop: the Datasets page (TR-4841 header, rows, a dataset's commits,
// cached copies with progress, lineage, Commit/Cache/Clear/Compare), the Cache targets page, the
// StorageGRID page, the action dialog for dataset and cache actions, and their navigation entries.
// The estate is published by hand (tests/models/datasetfixture.h).

#include "app/desktop/desktopcontroller.h"
#include "models/core/domain/estate.h"
#include "models/core/domain/format.h"
#include "models/core/planning/datasethub.h"
#include "models/core/runtime/engine.h"
#include "models/core/store/config.h"
#include "models/core/store/credentialstore.h"
#include "models/item/activitymodel.h"
#include "models/item/cachemodels.h"
#include "models/item/commitmodel.h"
#include "models/item/datasetmodel.h"
#include "models/item/gridmodels.h"
#include "models/item/jobtablemodel.h"
#include "models/item/projecttablemodel.h"
#include "models/item/roles.h"
#include "models/item/snapshotlistmodel.h"
#include "models/item/sourcetablemodel.h"
#include "models/item/timelinemodel.h"
#include "models/item/volumetablemodel.h"
#include "tests/models/datasetfixture.h"
#include "tests/support/qt/manualclock.h"
#include "views/actiondialog.h"
#include "views/cachetargetspage.h"
#include "views/datasetspage.h"
#include "views/mainwindow.h"
#include "views/sourcedialog.h"
#include "views/storagegridpage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <gtest/gtest.h>

using namespace strata;
using testsupport::HubFixture;

namespace {

struct Hub
{
    core::Estate estate;
    QDateTime now = HubFixture::now();
    models::DatasetModel datasets{estate};
    models::CommitModel commits{estate};
    models::CachedCommitModel cached{estate, [this] {
                                         return now;
                                     }};
    models::CacheTargetModel targets{estate};
};

QString datasetKey(const char *name)
{
    return QStringLiteral("datalake/") + HubFixture::datasetId(name);
}

core::Commit head(int dataset = 0)
{
    const auto spec = HubFixture::specs()[std::size_t(dataset)];
    return HubFixture::commit(spec, spec.commits - 1);
}

/// A job in the cache namespace that trains from `path` on dgx-cache-1's claim.
void publishJob(core::Estate &estate, const QString &path)
{
    core::Job job;
    job.source = QStringLiteral("dgx");
    job.namespaceName = QStringLiteral("ml-cache");
    job.name = QStringLiteral("train-fraud-7");
    job.id = job.namespaceName + QLatin1Char('/') + job.name;
    job.project = QStringLiteral("team-a");
    job.status = core::JobStatus::Running;
    job.pvcs = {QStringLiteral("dgx-cache-1-pvc")};
    job.pvcSubPaths = {path};
    job.created = HubFixture::now().addSecs(-600);
    job.started = HubFixture::now().addSecs(-500);
    core::ComputePublish p;
    p.jobs = std::make_shared<const core::KeyedList<core::Job>>(
        std::vector<core::Ptr<core::Job>>{std::make_shared<const core::Job>(job)});
    estate.publishCompute(QStringLiteral("dgx"), std::move(p));
}

} // namespace

TEST(DatasetsPage, HeaderAndOneRowPerDataset)
{
    Hub hub;
    views::DatasetsPage page(&hub.estate, &hub.datasets, &hub.commits, &hub.cached, &hub.targets);
    EXPECT_EQ(page.headerText(),
              QStringLiteral("0 Datasets | 0 B | 0 NFS Connected | 0 B / 0 B Used by cached commits"));
    HubFixture::publishDatasets(hub.estate);
    HubFixture::publishCaches(hub.estate, {});
    EXPECT_EQ(page.headerText(),
              QStringLiteral("6 Datasets | 277 MiB | 3 NFS Connected | %1 / 336 GiB Used by cached commits")
                  .arg(core::formatBytes(qint64(1'070'000'000))));
    EXPECT_EQ(page.datasetView()->model()->rowCount(), 6);
    // Sorted by name.
    EXPECT_EQ(page.datasetView()->model()->index(0, models::DatasetModel::Name).data().toString(),
              QStringLiteral("consumer_img1"));
    // Nothing selected: no dataset actions.
    EXPECT_FALSE(page.commitButton()->isEnabled());
    EXPECT_FALSE(page.cacheButton()->isEnabled());
    EXPECT_FALSE(page.clearButton()->isEnabled());
}

TEST(DatasetsPage, SelectingADatasetShowsItsCommitsNewestFirst)
{
    Hub hub;
    HubFixture::publishDatasets(hub.estate);
    HubFixture::publishCaches(hub.estate, {});
    views::DatasetsPage page(&hub.estate, &hub.datasets, &hub.commits, &hub.cached, &hub.targets);
    ASSERT_TRUE(page.selectDataset(datasetKey("public_set12")));
    QAbstractItemModel *commits = page.commitView()->model();
    ASSERT_EQ(commits->rowCount(), 7);
    EXPECT_EQ(commits->index(0, models::CommitModel::Id).data(models::IdRole).toString(), head(3).id);
    EXPECT_EQ(commits->index(0, models::CommitModel::Size).data().toString(), QStringLiteral("97.9 MiB"));
    EXPECT_EQ(page.selectedCommitIds(), QStringList{head(3).id});
    EXPECT_TRUE(page.commitButton()->isEnabled());
    EXPECT_TRUE(page.cacheButton()->isEnabled());
    EXPECT_TRUE(page.compareButton()->isEnabled()); // the head has a parent

    ASSERT_TRUE(page.selectDataset(datasetKey("consumer_img1")));
    EXPECT_EQ(commits->rowCount(), 1);
    EXPECT_FALSE(page.compareButton()->isEnabled()); // one commit, no parent
}

TEST(DatasetsPage, CachedCopiesFollowProgressWithoutReset)
{
    Hub hub;
    HubFixture::publishDatasets(hub.estate);
    HubFixture::publishCaches(
        hub.estate, {HubFixture::cached(QStringLiteral("dgx-cache-2"), core::CacheState::Loading, 8'100'000)});
    views::DatasetsPage page(&hub.estate, &hub.datasets, &hub.commits, &hub.cached, &hub.targets);
    ASSERT_TRUE(page.selectDataset(datasetKey("fraud_jun")));
    QAbstractItemModel *copies = page.cachedView()->model();
    ASSERT_EQ(copies->rowCount(), 1);
    EXPECT_EQ(copies->index(0, models::CachedCommitModel::Target).data().toString(), QStringLiteral("dgx-cache-2"));
    EXPECT_DOUBLE_EQ(copies->index(0, models::CachedCommitModel::Progress).data(models::RawValueRole).toDouble(), 25.0);
    EXPECT_TRUE(page.clearButton()->isEnabled());

    QSignalSpy reset(copies, &QAbstractItemModel::modelReset);
    QSignalSpy removed(copies, &QAbstractItemModel::rowsRemoved);
    HubFixture::publishCaches(
        hub.estate, {HubFixture::cached(QStringLiteral("dgx-cache-2"), core::CacheState::Loading, 24'300'000)});
    EXPECT_EQ(reset.count(), 0);
    EXPECT_EQ(removed.count(), 0);
    EXPECT_DOUBLE_EQ(copies->index(0, models::CachedCommitModel::Progress).data(models::RawValueRole).toDouble(), 75.0);
    EXPECT_EQ(page.commitView()->model()->index(0, models::CommitModel::Cached).data().toString(),
              QStringLiteral("loading 75 % on dgx-cache-2"));
    // The selection survives the update.
    EXPECT_EQ(page.cachedView()->selectionModel()->currentIndex().row(), 0);

    // Evicting: Clear is no longer offered.
    HubFixture::publishCaches(
        hub.estate, {HubFixture::cached(QStringLiteral("dgx-cache-2"), core::CacheState::Evicting, 32'400'000)});
    EXPECT_FALSE(page.clearButton()->isEnabled());

    // Another commit of the dataset: its (absent) copies, not this one's.
    ASSERT_TRUE(page.selectCommit(HubFixture::commit(HubFixture::specs()[0], 0).id));
    EXPECT_EQ(copies->rowCount(), 0);
}

TEST(DatasetsPage, ButtonsAskForTheActions)
{
    Hub hub;
    HubFixture::publishDatasets(hub.estate);
    HubFixture::publishCaches(hub.estate,
                              {HubFixture::cached(QStringLiteral("dgx-cache-1"), core::CacheState::Ready, 32'400'000)});
    views::DatasetsPage page(&hub.estate, &hub.datasets, &hub.commits, &hub.cached, &hub.targets);
    ASSERT_TRUE(page.selectDataset(datasetKey("fraud_jun")));
    QSignalSpy actions(&page, &views::DatasetsPage::actionRequested);
    QSignalSpy compares(&page, &views::DatasetsPage::compareRequested);

    page.commitButton()->click();
    ASSERT_EQ(actions.count(), 1);
    auto request = actions.takeFirst().at(0).value<core::ActionRequest>();
    EXPECT_EQ(request.kind, core::ActionKind::DatasetCommit);
    EXPECT_EQ(request.source, QStringLiteral("datalake"));
    EXPECT_EQ(request.datasetId, QStringLiteral("datasets/fraud_jun/"));

    const auto cache = page.cacheRequest(QStringLiteral("dgx"), QStringLiteral("dgx-cache-3"));
    ASSERT_TRUE(cache.has_value());
    EXPECT_EQ(cache->kind, core::ActionKind::CacheCommit);
    EXPECT_EQ(cache->source, QStringLiteral("dgx"));
    EXPECT_EQ(cache->cacheTarget, QStringLiteral("dgx-cache-3"));
    EXPECT_EQ(cache->commitId, head().id);
    EXPECT_EQ(cache->datasetSource, QStringLiteral("datalake"));
    EXPECT_EQ(cache->datasetId, QStringLiteral("datasets/fraud_jun/"));

    ASSERT_TRUE(page.selectCachedCopy(QStringLiteral("dgx-cache-1")));
    page.clearButton()->click();
    ASSERT_EQ(actions.count(), 1);
    request = actions.takeFirst().at(0).value<core::ActionRequest>();
    EXPECT_EQ(request.kind, core::ActionKind::CacheEvict);
    EXPECT_EQ(request.source, QStringLiteral("dgx"));
    EXPECT_EQ(request.cacheTarget, QStringLiteral("dgx-cache-1"));
    EXPECT_EQ(request.commitId, head().id);
    EXPECT_TRUE(request.evictReason.isEmpty()); // a user's request

    page.compareButton()->click();
    ASSERT_EQ(compares.count(), 1);
    const QList<QVariant> args = compares.takeFirst();
    EXPECT_EQ(args.at(0).toString(), QStringLiteral("datalake"));
    EXPECT_EQ(args.at(1).toString(), QStringLiteral("datasets/fraud_jun/"));
    EXPECT_EQ(args.at(2).toString(), head().parent);
    EXPECT_EQ(args.at(3).toString(), head().id);

    // The answer opens the comparison; a stale answer is ignored.
    core::CommitComparison stale;
    stale.fromId = QStringLiteral("x");
    stale.toId = head().id;
    page.showComparison(stale);
    EXPECT_EQ(page.comparisonDialog(), nullptr);
    core::CommitComparison diff;
    diff.datasetId = QStringLiteral("datasets/fraud_jun/");
    diff.fromId = head().parent;
    diff.toId = head().id;
    diff.added = {
        core::CommitDiffEntry{QStringLiteral("fraud_jun/part-0041.csv"), -1, 1'000'000, {}, QStringLiteral("e1")}};
    diff.changed = {core::CommitDiffEntry{
        QStringLiteral("fraud_jun/part-0001.csv"), 700'000, 800'000, QStringLiteral("a"), QStringLiteral("b")}};
    diff.bytesAdded = 1'000'000;
    diff.bytesChanged = 800'000;
    diff.unchanged = 40;
    page.showComparison(diff);
    ASSERT_NE(page.comparisonDialog(), nullptr);
    EXPECT_EQ(
        page.comparisonDialog()->findChild<QTreeWidget *>(QStringLiteral("comparisonTreeWidget"))->topLevelItemCount(),
        2);
    EXPECT_EQ(page.comparisonDialog()->findChild<QLabel *>(QStringLiteral("comparisonSummaryLabel"))->text(),
              QStringLiteral("1 added (977 KiB), 0 removed (0 B), 1 changed (781 KiB), 40 unchanged"));
    page.showComparison(diff, QStringLiteral("the manifest of 3f2a does not match its id"));
    EXPECT_TRUE(page.comparisonDialog()
                    ->findChild<QLabel *>(QStringLiteral("comparisonSummaryLabel"))
                    ->text()
                    .contains(QStringLiteral("does not match its id")));
}

/// An ONTAP file dataset (volume "chest_xray" of ontap-ai) with one snapshot as its commit, as
/// the ONTAP source publishes it: no object count, no snapshot size (both left 0). Returns the commit.
core::Commit publishFileDataset(core::Estate &estate)
{
    core::Dataset d;
    d.source = QStringLiteral("ontap-ai");
    d.id = QStringLiteral("vol-uuid-1");
    d.name = QStringLiteral("chest_xray");
    d.kind = core::DatasetKind::OntapVolume;
    d.volumeId = d.id;
    d.commitCount = 1;
    d.sizeBytes = 52'000'000;
    d.headCommit = QStringLiteral("snap-uuid-1");
    core::Commit c;
    c.source = d.source;
    c.id = d.headCommit;
    c.datasetId = d.id;
    c.datasetName = d.name;
    c.time = HubFixture::now();
    c.manifestKey = QStringLiteral("daily.2026-06-10_0010");
    core::DatasetPublish p;
    p.datasets = std::make_shared<const core::KeyedList<core::Dataset>>(
        std::vector<core::Ptr<core::Dataset>>{std::make_shared<const core::Dataset>(d)});
    p.commits = std::make_shared<const core::KeyedList<core::Commit>>(
        std::vector<core::Ptr<core::Commit>>{std::make_shared<const core::Commit>(c)});
    estate.publishDatasets(d.source, std::move(p));
    return c;
}

TEST(DatasetsPage, AFileDatasetCachesAsAFlexCloneOfItsSnapshot)
{
    Hub hub;
    const core::Commit c = publishFileDataset(hub.estate);

    views::DatasetsPage page(&hub.estate, &hub.datasets, &hub.commits, &hub.cached, &hub.targets);
    ASSERT_TRUE(page.selectDataset(QStringLiteral("ontap-ai/vol-uuid-1")));
    ASSERT_TRUE(page.selectCommit(c.id));
    // No Kubernetes cache target is configured: the clone needs none.
    EXPECT_EQ(hub.targets.rowCount(), 0);
    EXPECT_TRUE(page.cacheButton()->isEnabled());
    EXPECT_FALSE(page.commitButton()->isEnabled()); // snapshots are taken on the Volumes page
    EXPECT_FALSE(page.compareButton()->isEnabled());
    const auto clone = page.cloneRequest();
    ASSERT_TRUE(clone.has_value());
    EXPECT_EQ(clone->kind, core::ActionKind::VolumeClone);
    EXPECT_EQ(clone->source, QStringLiteral("ontap-ai"));
    EXPECT_EQ(clone->volumeId, QStringLiteral("vol-uuid-1"));
    EXPECT_EQ(clone->snapshotId, QStringLiteral("snap-uuid-1"));

    // An S3 dataset never offers a clone.
    HubFixture::publishDatasets(hub.estate);
    ASSERT_TRUE(page.selectDataset(datasetKey("fraud_jun")));
    ASSERT_TRUE(page.selectCommit(head().id));
    EXPECT_FALSE(page.cloneRequest().has_value());
}

TEST(DatasetsPage, AFileDatasetShowsUnknownObjectsNotZero)
{
    // ONTAP reports a volume's used bytes but no objects, and neither objects nor bytes for a
    // snapshot: "—" as the web console and the CLI show it, never "0" or "0 B".
    Hub hub;
    const core::Commit c = publishFileDataset(hub.estate);
    HubFixture::publishDatasets(hub.estate);
    views::DatasetsPage page(&hub.estate, &hub.datasets, &hub.commits, &hub.cached, &hub.targets);
    const QString unknown = QString::fromUtf16(core::kUnknownText);

    ASSERT_TRUE(page.selectDataset(QStringLiteral("ontap-ai/vol-uuid-1")));
    const QModelIndex dataset = page.datasetView()->selectionModel()->currentIndex();
    const QModelIndex objects = dataset.siblingAtColumn(models::DatasetModel::Objects);
    EXPECT_EQ(objects.data().toString(), unknown);
    EXPECT_FALSE(objects.data(models::RawValueRole).isValid()); // sorts as unknown, not as 0
    EXPECT_FALSE(objects.data(Qt::ToolTipRole).toString().isEmpty());
    EXPECT_EQ(dataset.siblingAtColumn(models::DatasetModel::Size).data().toString(),
              core::formatBytes(qint64(52'000'000)));

    ASSERT_TRUE(page.selectCommit(c.id));
    QAbstractItemModel *commits = page.commitView()->model();
    ASSERT_EQ(commits->rowCount(), 1);
    EXPECT_EQ(commits->index(0, models::CommitModel::Objects).data().toString(), unknown);
    EXPECT_EQ(commits->index(0, models::CommitModel::Size).data().toString(), unknown);
    EXPECT_FALSE(commits->index(0, models::CommitModel::Size).data(models::RawValueRole).isValid());

    // An S3 dataset's figures are counted: its rows keep their numbers.
    ASSERT_TRUE(page.selectDataset(datasetKey("public_set12")));
    const QModelIndex s3 = page.datasetView()->selectionModel()->currentIndex();
    EXPECT_EQ(s3.siblingAtColumn(models::DatasetModel::Objects).data().toString(),
              QLocale().toString(qint64(
                  hub.estate.datasets().find(QStringLiteral("datalake"), datasetKey("public_set12"))->objectCount)));
    EXPECT_EQ(commits->index(0, models::CommitModel::Size).data().toString(), QStringLiteral("97.9 MiB"));
}

TEST(DatasetsPage, LineageFromDatasetToProject)
{
    Hub hub;
    HubFixture::publishDatasets(hub.estate);
    const core::CachedCommit ready =
        HubFixture::cached(QStringLiteral("dgx-cache-1"), core::CacheState::Ready, 32'400'000);
    HubFixture::publishCaches(hub.estate, {ready});
    publishJob(hub.estate, ready.path);
    views::DatasetsPage page(&hub.estate, &hub.datasets, &hub.commits, &hub.cached, &hub.targets);
    ASSERT_TRUE(page.selectDataset(datasetKey("fraud_jun")));
    ASSERT_TRUE(page.selectCachedCopy(QStringLiteral("dgx-cache-1")));
    const QStringList lines = page.lineageTexts();
    ASSERT_GE(lines.size(), 6) << lines.join(QLatin1Char('\n')).toStdString();
    EXPECT_EQ(lines[0], QStringLiteral("fraud_jun"));
    EXPECT_EQ(lines[1], QStringLiteral("  ") + head().id.left(12));
    EXPECT_EQ(lines[2], QStringLiteral("    svm_cache/dgx-cache-1"));
    EXPECT_EQ(lines[3], QStringLiteral("      ml-cache/dgx-cache-1-pvc"));
    EXPECT_TRUE(lines.contains(QStringLiteral("        ml-cache/train-fraud-7")));
    EXPECT_TRUE(lines.contains(QStringLiteral("          team-a")));
    // Jobs known only from the state record (gone from the cluster) are listed too.
    EXPECT_TRUE(lines.contains(QStringLiteral("        team-a/train-fraud-2")));
}

TEST(ActionDialog, DatasetCommitAsksForTheMessage)
{
    core::ActionRequest request;
    request.kind = core::ActionKind::DatasetCommit;
    request.source = QStringLiteral("datalake");
    request.datasetId = QStringLiteral("datasets/fraud_jun/");
    QStringList seen;
    views::ActionDialog dialog(request, [&seen](const core::ActionRequest &r) {
        seen << r.comment;
        core::ActionPreview p;
        p.title = QStringLiteral("Commit fraud_jun");
        if (r.comment.trimmed().isEmpty()) {
            p.blockedReason = QStringLiteral("A commit needs a message.");
        }
        return p;
    });
    auto *message = dialog.findChild<QLineEdit *>(QStringLiteral("commitMessageLineEdit"));
    ASSERT_NE(message, nullptr);
    EXPECT_FALSE(dialog.canConfirm());
    message->setText(QStringLiteral("June fraud labels fixed"));
    EXPECT_TRUE(dialog.canConfirm());
    EXPECT_EQ(seen.last(), QStringLiteral("June fraud labels fixed"));
    QSignalSpy confirmed(&dialog, &views::ActionDialog::confirmed);
    dialog.accept();
    ASSERT_EQ(confirmed.count(), 1);
    EXPECT_EQ(confirmed.first().at(0).value<core::ActionRequest>().comment, QStringLiteral("June fraud labels fixed"));
}

TEST(ActionDialog, CacheAndClearArePreviewed)
{
    for (core::ActionKind kind : {core::ActionKind::CacheCommit, core::ActionKind::CacheEvict}) {
        core::ActionRequest request;
        request.kind = kind;
        request.source = QStringLiteral("dgx");
        request.cacheTarget = QStringLiteral("dgx-cache-1");
        int previews = 0;
        views::ActionDialog dialog(request, [&previews](const core::ActionRequest &) {
            ++previews;
            core::ActionPreview p;
            p.title = QStringLiteral("Cache");
            p.blockedReason = QStringLiteral("needs 30.9 MiB, 0 B free even after evicting what the policy allows");
            return p;
        });
        EXPECT_GE(previews, 1);
        EXPECT_FALSE(dialog.canConfirm());
        EXPECT_EQ(dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->text(),
                  kind == core::ActionKind::CacheCommit ? QStringLiteral("Cache") : QStringLiteral("Clear"));
        EXPECT_TRUE(dialog.findChild<QLabel *>(QStringLiteral("actionBlockedLabel"))
                        ->text()
                        .contains(QStringLiteral("30.9 MiB")));
    }
}

TEST(CacheTargetsPage, TargetsAndWhatFillsThem)
{
    Hub hub;
    views::CacheTargetsPage page(&hub.targets, &hub.cached);
    EXPECT_TRUE(page.summaryText().contains(QStringLiteral("No cache targets")));
    HubFixture::publishDatasets(hub.estate);
    HubFixture::publishCaches(
        hub.estate,
        {HubFixture::cached(QStringLiteral("dgx-cache-1"), core::CacheState::Ready, 32'400'000),
         HubFixture::cached(QStringLiteral("dgx-cache-2"), core::CacheState::Loading, 8'100'000)});
    EXPECT_EQ(page.summaryText(),
              QStringLiteral("3 of 3 targets connected · %1 of 336 GiB used by cached commits")
                  .arg(core::formatBytes(qint64(1'070'000'000))));
    EXPECT_EQ(page.targetView()->model()->rowCount(), 3);
    EXPECT_EQ(page.cachedView()->model()->rowCount(), 0); // nothing selected
    ASSERT_TRUE(page.selectTarget(QStringLiteral("dgx"), QStringLiteral("dgx-cache-1")));
    QAbstractItemModel *cached = page.cachedView()->model();
    ASSERT_EQ(cached->rowCount(), 1);
    EXPECT_EQ(cached->index(0, models::CachedCommitModel::Eviction).data().toString(),
              QStringLiteral("evicts in 2 days (unused for 3 days)"));
    EXPECT_EQ(cached->index(0, models::CachedCommitModel::Dataset).data().toString(), QStringLiteral("fraud_jun"));

    ASSERT_TRUE(page.selectCachedCommit(head().id));
    QSignalSpy actions(&page, &views::CacheTargetsPage::actionRequested);
    page.clearButton()->click();
    ASSERT_EQ(actions.count(), 1);
    const auto request = actions.first().at(0).value<core::ActionRequest>();
    EXPECT_EQ(request.kind, core::ActionKind::CacheEvict);
    EXPECT_EQ(request.cacheTarget, QStringLiteral("dgx-cache-1"));
    EXPECT_EQ(request.commitId, head().id);

    ASSERT_TRUE(page.selectTarget(QStringLiteral("dgx"), QStringLiteral("dgx-cache-2")));
    EXPECT_EQ(cached->rowCount(), 1);
    EXPECT_EQ(cached->index(0, models::CachedCommitModel::State).data().toString(), QStringLiteral("loading 25 %"));
    // The target's first cached commit is current: a load in progress can be cleared too.
    EXPECT_EQ(page.cachedView()->selectionModel()->currentIndex().row(), 0);
    EXPECT_TRUE(page.clearButton()->isEnabled());
    ASSERT_TRUE(page.selectTarget(QStringLiteral("dgx"), QStringLiteral("dgx-cache-3")));
    EXPECT_EQ(cached->rowCount(), 0);
    EXPECT_FALSE(page.clearButton()->isEnabled());
}

TEST(StorageGridPage, HealthAlertsTenantsAndBuckets)
{
    core::Estate estate;
    models::GridNodeModel nodes(estate);
    models::GridAlertModel alerts(estate);
    models::TenantModel tenants(estate);
    models::BucketModel buckets(estate);
    views::StorageGridPage page(&estate, &nodes, &alerts, &tenants, &buckets);
    EXPECT_EQ(page.healthText(), QStringLiteral("No StorageGRID source has reported yet."));
    HubFixture::publishGrid(estate, 1);
    EXPECT_EQ(
        page.healthText(),
        QStringLiteral("datalake: StorageGRID 11.8.0.2 (API v4) · 5 nodes connected, 0 down · alerts: 0 critical, "
                       "0 major, 1 minor · ILM: 2 copies, 1 site · 401 MiB of 2.7 TiB used"));
    EXPECT_EQ(page.nodeView()->model()->rowCount(), 5);
    EXPECT_EQ(page.alertView()->model()->rowCount(), 1); // active only
    page.setAlertFilter(views::StorageGridPage::AlertFilter::Resolved);
    ASSERT_EQ(page.alertView()->model()->rowCount(), 1);
    EXPECT_EQ(page.alertView()->model()->index(0, models::GridAlertModel::Name).data().toString(),
              QStringLiteral("Low installed node memory"));
    page.setAlertFilter(views::StorageGridPage::AlertFilter::All);
    EXPECT_EQ(page.alertView()->model()->rowCount(), 2);

    // The alert resolves on the next poll.
    page.setAlertFilter(views::StorageGridPage::AlertFilter::Active);
    HubFixture::publishGrid(estate, 0);
    EXPECT_EQ(page.alertView()->model()->rowCount(), 0);
    EXPECT_TRUE(page.healthText().contains(QStringLiteral("0 minor")));

    EXPECT_EQ(page.bucketView()->model()->rowCount(), 2);
    ASSERT_TRUE(page.selectTenant(QStringLiteral("datalake/27002611756890000001")));
    ASSERT_EQ(page.bucketView()->model()->rowCount(), 1);
    EXPECT_EQ(page.bucketView()->model()->index(0, models::BucketModel::Name).data().toString(),
              QStringLiteral("sentiment"));
}

TEST(MainWindowDatasets, HubPagesAreInTheNavigation)
{
    testsupport::ManualClock clock;
    core::InMemoryCredentialStore credentials;
    core::Engine engine{{clock, credentials, nullptr, QStringLiteral("tester")}};
    core::Estate &estate = engine.estate();
    HubFixture::publishDatasets(estate);
    HubFixture::publishCaches(estate, {});
    HubFixture::publishGrid(estate);
    models::VolumeTableModel volumes{estate};
    models::SnapshotListModel snapshots{estate};
    models::SourceTableModel sources{engine};
    models::ActivityModel activity{engine.actions()};
    models::TimelineModel timeline{engine.timeline()};
    models::JobTableModel jobs{estate, [&clock] {
                                   return clock.now();
                               }};
    models::ProjectTableModel projects{estate};
    models::DatasetModel datasets{estate};
    models::CommitModel commits{estate};
    models::CachedCommitModel cached{estate, [&clock] {
                                         return clock.now();
                                     }};
    models::CacheTargetModel targets{estate};
    models::GridNodeModel nodes{estate};
    models::GridAlertModel alerts{estate};
    models::TenantModel tenants{estate};
    models::BucketModel buckets{estate};
    views::MainWindow window({&volumes,
                              &snapshots,
                              &sources,
                              &activity,
                              &timeline,
                              &estate,
                              &jobs,
                              &projects,
                              nullptr,
                              nullptr,
                              &datasets,
                              &commits,
                              &cached,
                              &targets,
                              &nodes,
                              &alerts,
                              &tenants,
                              &buckets},
                             clock);
    using Page = views::MainWindow::Page;
    const QList<Page> order = window.pageOrder();
    EXPECT_EQ(order.indexOf(Page::Datasets), order.indexOf(Page::Jobs) + 1);
    EXPECT_EQ(order.indexOf(Page::CacheTargets), order.indexOf(Page::Datasets) + 1);
    EXPECT_GT(order.indexOf(Page::StorageGrid), order.indexOf(Page::Volumes));
    ASSERT_NE(window.datasetsPage(), nullptr);
    ASSERT_NE(window.cacheTargetsPage(), nullptr);
    ASSERT_NE(window.storageGridPage(), nullptr);
    window.showPage(Page::Datasets);
    EXPECT_EQ(window.currentPage(), Page::Datasets);
    EXPECT_EQ(window.datasetsPage()->headerText(),
              QStringLiteral("6 Datasets | 277 MiB | 3 NFS Connected | %1 / 336 GiB Used by cached commits")
                  .arg(core::formatBytes(qint64(1'070'000'000))));
    const QVariantMap state = window.layoutState();
    EXPECT_TRUE(state.contains(QStringLiteral("datasets/header")));
    EXPECT_TRUE(state.contains(QStringLiteral("grid/header")));
    window.showPage(Page::StorageGrid);
    EXPECT_EQ(window.currentPage(), Page::StorageGrid);
}

TEST(SourceDialogStorageGrid, GridAndDatasetHubSettings)
{
    views::SourceDialog dialog({});
    auto edit = [&dialog](const char *name) {
        return dialog.findChild<QLineEdit *>(QString::fromLatin1(name));
    };
    auto *kind = dialog.findChild<QComboBox *>(QStringLiteral("sourceKindComboBox"));
    kind->setCurrentIndex(kind->findData(QStringLiteral("storagegrid")));
    edit("sourceNameLineEdit")->setText(QStringLiteral("datalake"));
    EXPECT_EQ(dialog.validationError(), QStringLiteral("Enter the URL of the grid's admin node."));
    edit("sourceUrlLineEdit")->setText(QStringLiteral("https://admin.datalake.example/"));
    EXPECT_EQ(dialog.validationError(), QStringLiteral("Enter the grid administrator's username."));
    edit("sourceUsernameLineEdit")->setText(QStringLiteral("root"));
    edit("sourcePasswordLineEdit")->setText(QStringLiteral("grid-pw"));
    EXPECT_EQ(dialog.validationError(), QString()); // grid pages only
    EXPECT_TRUE(dialog.s3Secret().isEmpty());

    edit("sourceS3UrlLineEdit")->setText(QStringLiteral("https://s3.datalake.example:10443"));
    EXPECT_EQ(dialog.validationError(), QStringLiteral("Enter the S3 access key."));
    edit("sourceS3AccessKeyLineEdit")->setText(QStringLiteral("SGKIAEXAMPLE"));
    EXPECT_EQ(dialog.validationError(), QStringLiteral("Enter the S3 secret key."));
    edit("sourceS3SecretLineEdit")->setText(QStringLiteral("s3-very-secret"));
    EXPECT_EQ(dialog.validationError(), QStringLiteral("Enter at least one dataset root, e.g. datasets/*."));
    edit("sourceDatasetRootsLineEdit")->setText(QStringLiteral("datasets/*, Bad_Bucket"));
    EXPECT_EQ(dialog.validationError(),
              QStringLiteral("Bad_Bucket is not a dataset root: use bucket/*, bucket or bucket/prefix/."));
    edit("sourceDatasetRootsLineEdit")->setText(QStringLiteral("datasets/*, sentiment, lake/images/2024/"));
    EXPECT_EQ(dialog.validationError(), QString());
    dialog.findChild<QCheckBox *>(QStringLiteral("sourceS3PathStyleCheckBox"))->setChecked(false);

    const core::SourceConfig c = dialog.config();
    EXPECT_EQ(c.kind, core::SourceKind::StorageGrid);
    EXPECT_EQ(c.url, QStringLiteral("https://admin.datalake.example"));
    EXPECT_EQ(c.username, QStringLiteral("root"));
    EXPECT_EQ(c.s3Url, QStringLiteral("https://s3.datalake.example:10443"));
    EXPECT_EQ(c.s3AccessKey, QStringLiteral("SGKIAEXAMPLE"));
    EXPECT_FALSE(c.s3PathStyle);
    EXPECT_EQ(
        c.datasetRoots,
        (QStringList{QStringLiteral("datasets/*"), QStringLiteral("sentiment"), QStringLiteral("lake/images/2024/")}));
    EXPECT_EQ(c.s3Secret.kind, core::SecretRef::Kind::None); // the secret itself never enters the config
    EXPECT_EQ(dialog.s3Secret(), QStringLiteral("s3-very-secret"));
    EXPECT_EQ(dialog.password(), QStringLiteral("grid-pw"));

    // Editing keeps the stored secrets when the fields stay empty.
    core::SourceConfig stored = c;
    stored.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(c.name)};
    stored.s3Secret =
        core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(c.name, QStringLiteral("s3_secret"))};
    views::SourceDialog editDialog({QStringLiteral("datalake")});
    editDialog.setSource(stored);
    EXPECT_EQ(editDialog.validationError(), QString());
    EXPECT_TRUE(editDialog.s3Secret().isEmpty());
    EXPECT_EQ(editDialog.config().s3Secret, stored.s3Secret);
    EXPECT_EQ(editDialog.config().datasetRoots, stored.datasetRoots);
}

TEST(ControllerStorageGrid, S3SecretGoesToTheKeychainNotTheConfig)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    testsupport::ManualClock clock;
    core::InMemoryCredentialStore store;
    core::Engine engine{{clock, store, nullptr, QStringLiteral("tester")}};
    desktop::DesktopController::Options options;
    options.configPath = dir.filePath(QStringLiteral("config.json"));
    options.settingsPath = dir.filePath(QStringLiteral("ui.ini"));
    desktop::DesktopController controller(engine, {}, options);
    ASSERT_NE(controller.window().datasetsPage(), nullptr);
    ASSERT_NE(controller.window().storageGridPage(), nullptr);

    core::SourceConfig grid;
    grid.name = QStringLiteral("datalake");
    grid.kind = core::SourceKind::StorageGrid;
    grid.url = QStringLiteral("https://127.0.0.1:9"); // refused at once
    grid.username = QStringLiteral("root");
    grid.s3Url = QStringLiteral("https://127.0.0.1:9");
    grid.s3AccessKey = QStringLiteral("SGKIAEXAMPLE");
    grid.datasetRoots = {QStringLiteral("datasets/*")};
    QString result = QStringLiteral("pending");
    controller.applySource(
        grid,
        QStringLiteral("grid-pw"),
        [&result](const QString &error) {
            result = error;
        },
        QStringLiteral("s3-very-secret"));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return result != QLatin1String("pending");
        },
        5000));
    EXPECT_TRUE(result.isEmpty()) << result.toStdString();
    const QString s3Key = core::credentialKey(QStringLiteral("datalake"), QStringLiteral("s3_secret"));
    EXPECT_TRUE(store.contains(s3Key));
    EXPECT_TRUE(store.contains(core::credentialKey(QStringLiteral("datalake"))));
    ASSERT_EQ(engine.sourceConfigs().size(), 1);
    EXPECT_EQ(engine.sourceConfigs().first().s3Secret.value, s3Key);
    QFile file(options.configPath);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray json = file.readAll();
    EXPECT_FALSE(json.contains("s3-very-secret"));
    EXPECT_FALSE(json.contains("grid-pw"));
    EXPECT_TRUE(json.contains("strata/datalake/s3_secret"));

    controller.removeSource(QStringLiteral("datalake"));
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            return !store.contains(s3Key);
        },
        5000));
}
