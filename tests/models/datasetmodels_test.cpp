#include "models/core/domain/estate.h"
#include "models/item/cachemodels.h"
#include "models/item/commitmodel.h"
#include "models/item/datasetmodel.h"
#include "models/item/gridmodels.h"
#include "models/item/roles.h"
#include "tests/models/datasetfixture.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include <gtest/gtest.h>

using namespace strata;
using testsupport::HubFixture;

namespace {

constexpr auto FatalDatasetmodels = QAbstractItemModelTester::FailureReportingMode::Fatal;

int rowNamedDatasetmodels(const QAbstractItemModel &model, const QString &name, int column = 0)
{
    for (int r = 0; r < model.rowCount(); ++r) {
        if (model.index(r, column).data().toString() == name) {
            return r;
        }
    }
    return -1;
}

} // namespace

TEST(DatasetModel, HubHeaderMatchesTr4841)
{
    core::Estate estate;
    models::DatasetModel model(estate);
    QAbstractItemModelTester tester(&model, FatalDatasetmodels);
    QSignalSpy header(&model, &models::DatasetModel::headerChanged);
    HubFixture::publishDatasets(estate);
    HubFixture::publishCaches(estate, {});
    EXPECT_EQ(header.count(), 2);

    const core::HubSummary h = model.summary();
    EXPECT_EQ(h.datasets, 6);
    EXPECT_EQ(h.totalBytes, 290'200'000);
    EXPECT_EQ(h.targetsConnected, 3);
    EXPECT_EQ(h.cachedBytes, 1'070'000'000);
    EXPECT_EQ(h.capacityBytes, 360'770'000'000);
    EXPECT_EQ(h.headerText(),
              QStringLiteral("6 Datasets | 277 MiB | 3 NFS Connected | %1 / 336 GiB Used by cached commits")
                  .arg(core::formatBytes(qint64(1'070'000'000))));
}

TEST(DatasetModel, HeaderCountsOnlyTargetsWithoutAProblem)
{
    core::Estate estate;
    models::DatasetModel model(estate);
    HubFixture::publishDatasets(estate);
    auto targets = HubFixture::targets();
    core::CacheTarget broken = *targets[2];
    broken.problem = QStringLiteral("PVC not found");
    targets[2] = std::make_shared<const core::CacheTarget>(broken);
    core::CachePublish p;
    p.targets = std::make_shared<const core::KeyedList<core::CacheTarget>>(std::move(targets));
    estate.publishCaches(QStringLiteral("dgx"), std::move(p));
    EXPECT_EQ(model.summary().targets, 3);
    EXPECT_EQ(model.summary().targetsConnected, 2);
    EXPECT_TRUE(model.summary().headerText().contains(QStringLiteral("| 2 NFS Connected |")));
}

TEST(DatasetModel, RowsShowSizeCommitsAndCachedCounts)
{
    core::Estate estate;
    models::DatasetModel model(estate);
    QAbstractItemModelTester tester(&model, FatalDatasetmodels);
    HubFixture::publishDatasets(estate);
    ASSERT_EQ(model.rowCount(), 6);
    const int fraud = rowNamedDatasetmodels(model, QStringLiteral("fraud_jun"));
    ASSERT_GE(fraud, 0);
    EXPECT_EQ(model.index(fraud, models::DatasetModel::Size).data().toString(), QStringLiteral("30.9 MiB"));
    EXPECT_EQ(model.index(fraud, models::DatasetModel::Size).data(models::RawValueRole).toLongLong(), 32'400'000);
    EXPECT_EQ(model.index(fraud, models::DatasetModel::Commits).data().toString(), QStringLiteral("4"));
    EXPECT_EQ(model.index(fraud, models::DatasetModel::Location).data().toString(),
              QStringLiteral("datasets/fraud_jun/"));
    EXPECT_EQ(model.index(fraud, models::DatasetModel::CachedCommits).data().toString(), QStringLiteral("0"));

    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    HubFixture::publishCaches(
        estate,
        {HubFixture::cached(QStringLiteral("dgx-cache-1"), core::CacheState::Ready, 32'400'000),
         HubFixture::cached(QStringLiteral("dgx-cache-2"), core::CacheState::Loading, 1'000'000, 2)});
    EXPECT_EQ(reset.count(), 0);
    EXPECT_GE(changed.count(), 1);
    EXPECT_EQ(model.index(fraud, models::DatasetModel::CachedCommits).data().toString(),
              QStringLiteral("1 (+1 loading)"));
    EXPECT_EQ(model.index(fraud, models::DatasetModel::CachedCommits).data(models::RawValueRole).toInt(), 1);
    EXPECT_EQ(model.index(fraud, models::DatasetModel::CachedCommits).data(models::StatusRole).toString(),
              QStringLiteral("running"));
    // Cache use (yesterday) is newer than the last commit (more than a day ago).
    EXPECT_EQ(model.index(fraud, models::DatasetModel::LastActive).data(models::RawValueRole).toDateTime(),
              HubFixture::now().addDays(-1));
    const int other = rowNamedDatasetmodels(model, QStringLiteral("misc_base1"));
    EXPECT_EQ(model.index(other, models::DatasetModel::CachedCommits).data().toString(), QStringLiteral("0"));
}

TEST(DatasetModel, RemovedDatasetLeavesWithoutReset)
{
    core::Estate estate;
    models::DatasetModel model(estate);
    QAbstractItemModelTester tester(&model, FatalDatasetmodels);
    HubFixture::publishDatasets(estate);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    auto current = estate.datasets().scope(QStringLiteral("datalake"));
    std::vector<core::Ptr<core::Dataset>> kept(current->items().begin() + 1, current->items().end());
    core::DatasetPublish p;
    p.datasets = std::make_shared<const core::KeyedList<core::Dataset>>(std::move(kept));
    estate.publishDatasets(QStringLiteral("datalake"), std::move(p));
    EXPECT_EQ(model.rowCount(), 5);
    EXPECT_EQ(removed.count(), 1);
    EXPECT_EQ(reset.count(), 0);
    EXPECT_EQ(rowNamedDatasetmodels(model, QStringLiteral("fraud_jun")), -1);
}

TEST(CommitModel, ScopedToOneDatasetAndFollowsCaches)
{
    core::Estate estate;
    HubFixture::publishDatasets(estate);
    models::CommitModel model(estate);
    QAbstractItemModelTester tester(&model, FatalDatasetmodels);
    EXPECT_EQ(model.rowCount(), 0);
    model.setDataset(QStringLiteral("datalake"), HubFixture::datasetId("fraud_jun"));
    ASSERT_EQ(model.rowCount(), 4);
    const core::Commit head = HubFixture::commit(HubFixture::specs()[0], 3);
    const int row = model.rowOf(core::estateKey(head));
    ASSERT_GE(row, 0);
    EXPECT_EQ(model.index(row, models::CommitModel::Id).data().toString(), head.id.left(12));
    EXPECT_EQ(model.index(row, models::CommitModel::Id).data(models::IdRole).toString(), head.id);
    EXPECT_EQ(model.index(row, models::CommitModel::Parent).data().toString(), head.parent.left(12));
    EXPECT_EQ(model.index(row, models::CommitModel::Size).data().toString(), QStringLiteral("30.9 MiB"));
    EXPECT_EQ(model.index(row, models::CommitModel::Author).data().toString(), QStringLiteral("bob"));
    EXPECT_TRUE(model.index(row, models::CommitModel::Cached).data().toString().isEmpty());
    // Not cached anywhere: no status dot (a green one read as "cached").
    EXPECT_EQ(model.index(row, models::CommitModel::Cached).data(models::StatusRole).toString(),
              QStringLiteral("none"));

    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    HubFixture::publishCaches(
        estate, {HubFixture::cached(QStringLiteral("dgx-cache-1"), core::CacheState::Loading, 16'200'000)});
    EXPECT_EQ(reset.count(), 0);
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(changed.first().at(0).toModelIndex().row(), row);
    EXPECT_EQ(changed.first().at(0).toModelIndex().column(), int(models::CommitModel::Cached));
    EXPECT_EQ(model.index(row, models::CommitModel::Cached).data().toString(),
              QStringLiteral("loading 50 % on dgx-cache-1"));
    EXPECT_EQ(model.index(row, models::CommitModel::Cached).data(models::StatusRole).toString(),
              QStringLiteral("running"));

    // A new commit of another dataset does not show; one of this dataset is appended.
    HubFixture::publishCaches(
        estate, {HubFixture::cached(QStringLiteral("dgx-cache-1"), core::CacheState::Failed, 16'200'000)});
    EXPECT_EQ(model.index(row, models::CommitModel::Cached).data(models::StatusRole).toString(),
              QStringLiteral("failed"));
    model.setDataset(QStringLiteral("datalake"), HubFixture::datasetId("public_set12"));
    EXPECT_EQ(model.rowCount(), 7);
}

TEST(CachedCommitModel, ProgressUpdatesAreRowChangesNotResets)
{
    core::Estate estate;
    QDateTime now = HubFixture::now();
    models::CachedCommitModel model(estate, [&now] {
        return now;
    });
    QAbstractItemModelTester tester(&model, FatalDatasetmodels);
    HubFixture::publishCaches(
        estate,
        {HubFixture::cached(QStringLiteral("dgx-cache-1"), core::CacheState::Ready, 32'400'000),
         HubFixture::cached(QStringLiteral("dgx-cache-2"), core::CacheState::Loading, 8'100'000)});
    ASSERT_EQ(model.rowCount(), 2);
    const int loading = rowNamedDatasetmodels(model, QStringLiteral("dgx-cache-2"), models::CachedCommitModel::Target);
    ASSERT_GE(loading, 0);
    EXPECT_DOUBLE_EQ(model.index(loading, models::CachedCommitModel::Progress).data(models::RawValueRole).toDouble(),
                     25.0);
    EXPECT_EQ(model.index(loading, models::CachedCommitModel::Progress).data().toString(),
              QStringLiteral("25 % · 10/43 objects · 7.7 MiB/30.9 MiB"));

    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    HubFixture::publishCaches(
        estate,
        {HubFixture::cached(QStringLiteral("dgx-cache-1"), core::CacheState::Ready, 32'400'000),
         HubFixture::cached(QStringLiteral("dgx-cache-2"), core::CacheState::Loading, 24'300'000)});
    EXPECT_EQ(reset.count(), 0);
    EXPECT_EQ(inserted.count(), 0);
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(changed.first().at(0).toModelIndex().row(), loading);
    EXPECT_DOUBLE_EQ(model.index(loading, models::CachedCommitModel::Progress).data(models::RawValueRole).toDouble(),
                     75.0);

    const int ready = rowNamedDatasetmodels(model, QStringLiteral("dgx-cache-1"), models::CachedCommitModel::Target);
    EXPECT_EQ(model.index(ready, models::CachedCommitModel::Eviction).data().toString(),
              QStringLiteral("evicts in 2 days (unused for 3 days)"));
    EXPECT_EQ(model.index(ready, models::CachedCommitModel::State).data(models::StatusRole).toString(),
              QStringLiteral("ok"));
    now = now.addDays(1).addSecs(7200);
    model.tick();
    EXPECT_EQ(model.index(ready, models::CachedCommitModel::Eviction).data().toString(),
              QStringLiteral("evicts in 22 hours (unused for 3 days)"));
    EXPECT_EQ(model.index(ready, models::CachedCommitModel::Eviction).data(models::StatusRole).toString(),
              QStringLiteral("warning"));
}

TEST(CachedCommitModel, EvictionTexts)
{
    core::CachedCommit c;
    const QDateTime now = HubFixture::now();
    c.state = core::CacheState::Ready;
    EXPECT_EQ(models::CachedCommitModel::evictionText(c, now), QString());
    c.evictAt = now.addSecs(-5);
    EXPECT_EQ(models::CachedCommitModel::evictionText(c, now), QStringLiteral("evicts now"));
    c.evictAt = now.addSecs(90);
    EXPECT_EQ(models::CachedCommitModel::evictionText(c, now), QStringLiteral("evicts in 2 minutes"));
    c.evictAt = now.addDays(1);
    EXPECT_EQ(models::CachedCommitModel::evictionText(c, now), QStringLiteral("evicts in 1 day"));
    c.state = core::CacheState::Evicting;
    EXPECT_EQ(models::CachedCommitModel::evictionText(c, now), QStringLiteral("evicting"));
    c.state = core::CacheState::Loading;
    EXPECT_EQ(models::CachedCommitModel::evictionText(c, now), QString());
}

TEST(CacheTargetModel, UsageWatermarkAndCommitCounts)
{
    core::Estate estate;
    models::CacheTargetModel model(estate);
    QAbstractItemModelTester tester(&model, FatalDatasetmodels);
    HubFixture::publishCaches(estate,
                              {HubFixture::cached(QStringLiteral("dgx-cache-1"), core::CacheState::Ready, 32'400'000),
                               HubFixture::cached(QStringLiteral("dgx-cache-1"), core::CacheState::Failed, 0, 2)});
    ASSERT_EQ(model.rowCount(), 3);
    const int row = rowNamedDatasetmodels(model, QStringLiteral("dgx-cache-1"));
    ASSERT_GE(row, 0);
    EXPECT_EQ(model.index(row, models::CacheTargetModel::Usage).data(models::LimitRole).toDouble(), 90.0);
    EXPECT_NEAR(model.index(row, models::CacheTargetModel::Usage).data(models::RawValueRole).toDouble(), 0.4166, 0.001);
    // The failed load does not occupy the target.
    EXPECT_EQ(model.index(row, models::CacheTargetModel::Commits).data().toInt(), 1);
    EXPECT_EQ(model.index(row, models::CacheTargetModel::Cached).data().toString(), QStringLiteral("477 MiB"));
    EXPECT_EQ(model.index(row, models::CacheTargetModel::Policy).data().toString(),
              QStringLiteral("evict after 3 days unused, LRU above 90 %"));
    EXPECT_EQ(model.index(row, models::CacheTargetModel::Usage).data(models::StatusRole).toString(),
              QStringLiteral("ok"));
}

TEST(GridModels, NodesAlertsTenantsBuckets)
{
    core::Estate estate;
    models::GridNodeModel nodes(estate);
    models::GridAlertModel alerts(estate);
    models::TenantModel tenants(estate);
    models::BucketModel buckets(estate);
    QAbstractItemModelTester t1(&nodes, FatalDatasetmodels);
    QAbstractItemModelTester t2(&alerts, FatalDatasetmodels);
    QAbstractItemModelTester t3(&tenants, FatalDatasetmodels);
    QAbstractItemModelTester t4(&buckets, FatalDatasetmodels);
    HubFixture::publishGrid(estate, 1);
    EXPECT_EQ(nodes.rowCount(), 5);
    EXPECT_EQ(nodes.index(0, models::GridNodeModel::Type).data().toString(), QStringLiteral("Admin node (primary)"));
    EXPECT_EQ(nodes.index(1, models::GridNodeModel::Severity).data(models::StatusRole).toString(),
              QStringLiteral("warning"));
    EXPECT_EQ(alerts.rowCount(), 2);
    const int active =
        rowNamedDatasetmodels(alerts, QStringLiteral("Low object data storage"), models::GridAlertModel::Name);
    ASSERT_GE(active, 0);
    EXPECT_EQ(alerts.index(active, models::GridAlertModel::Resolved).data().toString(), QStringLiteral("active"));
    const int old =
        rowNamedDatasetmodels(alerts, QStringLiteral("Low installed node memory"), models::GridAlertModel::Name);
    EXPECT_EQ(alerts.index(old, models::GridAlertModel::Severity).data(models::StatusRole).toString(),
              QStringLiteral("succeeded"));

    const int ds = rowNamedDatasetmodels(tenants, QStringLiteral("data-science"));
    ASSERT_GE(ds, 0);
    EXPECT_EQ(tenants.index(ds, models::TenantModel::Data).data().toString(), QStringLiteral("277 MiB"));
    EXPECT_EQ(tenants.index(ds, models::TenantModel::QuotaUse).data().toString(), QStringLiteral("29.0 %"));
    EXPECT_EQ(tenants.index(ds, models::TenantModel::Growth).data().toString(), QStringLiteral("+46.3 MiB"));
    const int sc = rowNamedDatasetmodels(tenants, QStringLiteral("support-center"));
    EXPECT_EQ(tenants.index(sc, models::TenantModel::Quota).data().toString(), QStringLiteral("–"));
    EXPECT_EQ(tenants.index(sc, models::TenantModel::Growth).data().toString(), QString());
    EXPECT_EQ(buckets.rowCount(), 2);
    EXPECT_EQ(buckets.index(rowNamedDatasetmodels(buckets, QStringLiteral("datasets")), models::BucketModel::Versioning)
                  .data()
                  .toString(),
              QStringLiteral("Enabled"));

    // The alert resolves: a change of one row, no reset.
    QSignalSpy reset(&alerts, &QAbstractItemModel::modelReset);
    QSignalSpy removed(&alerts, &QAbstractItemModel::rowsRemoved);
    HubFixture::publishGrid(estate, 0);
    EXPECT_EQ(reset.count(), 0);
    EXPECT_EQ(removed.count(), 1);
    EXPECT_EQ(alerts.rowCount(), 1);
    EXPECT_EQ(models::TenantModel::growthText(std::optional<qint64>(-300'000'000)), QStringLiteral("−286 MiB"));
    EXPECT_EQ(models::TenantModel::growthText(std::optional<qint64>(0)), QStringLiteral("0 B"));
}

TEST(CachedCommitModel, CopyWithoutObjectCountsShowsNoZeroOfZero)
{
    core::Estate estate;
    models::CachedCommitModel model(estate, [] {
        return HubFixture::now();
    });
    // A file dataset's copy (an NFS path, not S3 objects) reports bytes only.
    core::CachedCommit files = HubFixture::cached(QStringLiteral("dgx-cache-1"), core::CacheState::Loading, 8'100'000);
    files.objectsTotal = 0;
    files.objectsDone = 0;
    HubFixture::publishCaches(estate, {files});
    ASSERT_EQ(model.rowCount(), 1);
    const QString progress = model.index(0, models::CachedCommitModel::Progress).data().toString();
    EXPECT_EQ(progress, QStringLiteral("25 % · 7.7 MiB/30.9 MiB"));
    EXPECT_FALSE(progress.contains(QStringLiteral("0/0"))) << progress.toStdString();
}

TEST(DatasetModel, AVolumeDatasetsLocationIsItsVolumesNameAsSoonAsTheVolumeIsListed)
{
    core::Estate estate;
    models::DatasetModel model(estate);
    QAbstractItemModelTester tester(&model, FatalDatasetmodels);
    core::Dataset xray;
    xray.source = QStringLiteral("ontap-ai");
    xray.id = QStringLiteral("4f6c1e2a-9b7d-4c3e-8a21-5d0f9e7b6c11");
    xray.name = QStringLiteral("chest_xray");
    xray.kind = core::DatasetKind::OntapVolume;
    xray.volumeId = xray.id;
    estate.publishDatasets(
        xray.source,
        core::DatasetPublish{std::make_shared<const core::KeyedList<core::Dataset>>(
                                 std::vector<core::Ptr<core::Dataset>>{std::make_shared<const core::Dataset>(xray)}),
                             std::make_shared<const core::KeyedList<core::Commit>>()});
    ASSERT_EQ(model.rowCount(), 1);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    core::Volume volume;
    volume.source = xray.source;
    volume.id = xray.id;
    volume.name = QStringLiteral("chest_xray");
    volume.svm = QStringLiteral("svm_ai");
    estate.publishVolumes(volume.source,
                          std::make_shared<const core::KeyedList<core::Volume>>(
                              std::vector<core::Ptr<core::Volume>>{std::make_shared<const core::Volume>(volume)}));
    EXPECT_EQ(model.index(0, models::DatasetModel::Location).data().toString(), QStringLiteral("svm_ai/chest_xray"));
    EXPECT_GE(changed.count(), 1);
}
