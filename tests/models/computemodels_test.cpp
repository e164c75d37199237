#include "models/core/domain/estate.h"
#include "models/item/jobtablemodel.h"
#include "models/item/projecttablemodel.h"
#include "models/item/roles.h"
#include "tests/models/computefixture.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include <gtest/gtest.h>

using namespace strata;
using models::JobTableModel;
using models::ProjectTableModel;
using testsupport::computeNow;

namespace {

constexpr auto Fatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

int rowNamed(const QAbstractItemModel &model, const QString &name)
{
    for (int r = 0; r < model.rowCount(); ++r) {
        if (model.index(r, 0).data().toString() == name) {
            return r;
        }
    }
    return -1;
}

QString cell(const QAbstractItemModel &model, const QString &name, int column, int role = Qt::DisplayRole)
{
    const int row = rowNamed(model, name);
    return row < 0 ? QStringLiteral("<no row %1>").arg(name) : model.index(row, column).data(role).toString();
}

} // namespace

TEST(JobTableModel, PublishesApplyAsRowDiffsNeverAReset)
{
    core::Estate estate;
    QDateTime now = computeNow();
    JobTableModel model(estate, [&now] {
        return now;
    });
    QAbstractItemModelTester tester(&model, Fatal);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);

    testsupport::state48().publish(estate);
    EXPECT_EQ(model.rowCount(), 13);
    EXPECT_EQ(inserted.count(), 1);

    // §4.9: c-4-gg preempted, d-2-gg added; §4.10: d jobs deleted, a-3/a-4 run, b-5/c-6 queue.
    testsupport::state49().publish(estate);
    EXPECT_EQ(model.rowCount(), 14);
    testsupport::state410().publish(estate);
    EXPECT_EQ(model.rowCount(), 16);
    EXPECT_GE(removed.count(), 1);
    EXPECT_EQ(reset.count(), 0);
    EXPECT_EQ(rowNamed(model, QStringLiteral("d-1-gggg")), -1);
}

TEST(JobTableModel, ShowsDocumentColumnsWithFractionsAndPreemptedDistinctly)
{
    core::Estate estate;
    JobTableModel model(estate, [] {
        return computeNow();
    });
    testsupport::state49().publish(estate);

    EXPECT_EQ(cell(model, QStringLiteral("b-1-g06"), JobTableModel::Gpus), QStringLiteral("0.6"));
    EXPECT_EQ(cell(model, QStringLiteral("b-1-g06"), JobTableModel::Gpus, models::RawValueRole).toDouble(), 0.6);
    EXPECT_EQ(cell(model, QStringLiteral("b-1-g06"), JobTableModel::Type), QStringLiteral("Interactive"));
    EXPECT_EQ(cell(model, QStringLiteral("b-1-g06"), JobTableModel::Node), QStringLiteral("dgx1-1"));
    EXPECT_EQ(cell(model, QStringLiteral("b-1-g06"), JobTableModel::CreatedByCli), QStringLiteral("yes"));
    EXPECT_EQ(cell(model, QStringLiteral("b-1-g06"), JobTableModel::Status), QStringLiteral("Running"));
    EXPECT_EQ(cell(model, QStringLiteral("b-1-g06"), JobTableModel::Status, models::StatusRole),
              QStringLiteral("running"));

    EXPECT_EQ(cell(model, QStringLiteral("c-4-gg"), JobTableModel::Status), QStringLiteral("Preempted"));
    EXPECT_EQ(cell(model, QStringLiteral("c-4-gg"), JobTableModel::Status, models::StatusRole),
              QStringLiteral("preempted"));
    EXPECT_EQ(cell(model, QStringLiteral("c-4-gg"), JobTableModel::PendingReason),
              QStringLiteral("preempted by team-d reclaiming its quota"));
    EXPECT_EQ(cell(model, QStringLiteral("c-4-gg"), JobTableModel::QueuePosition), QStringLiteral("1"));
    EXPECT_EQ(cell(model, QStringLiteral("c-4-gg"), JobTableModel::RunTime), QString::fromUtf16(core::kUnknownText));
    // Created 50 minutes before now (10th submit of the fixture, one a minute from -60 min).
    EXPECT_EQ(cell(model, QStringLiteral("c-4-gg"), JobTableModel::WaitTime), QStringLiteral("50m 00s"));
    EXPECT_EQ(cell(model, QStringLiteral("b-1-g06"), JobTableModel::WaitTime), QString::fromUtf16(core::kUnknownText));
    EXPECT_EQ(model.queuedCounts().value(QStringLiteral("k8s-ai/team-c")), 1);
}

TEST(JobTableModel, QueueIsFifoWithinEachProject)
{
    core::Estate estate;
    JobTableModel model(estate, [] {
        return computeNow();
    });
    auto s = testsupport::state410();
    s.jobs.push_back(
        testsupport::queuedJob(QStringLiteral("b-6-g"), QStringLiteral("team-b"), 1000, core::JobType::Train));
    s.publish(estate);
    EXPECT_EQ(cell(model, QStringLiteral("b-5-gg"), JobTableModel::QueuePosition), QStringLiteral("1"));
    EXPECT_EQ(cell(model, QStringLiteral("b-6-g"), JobTableModel::QueuePosition), QStringLiteral("2"));
    EXPECT_EQ(cell(model, QStringLiteral("c-6-gg"), JobTableModel::QueuePosition), QStringLiteral("1"));

    // b-5-gg starts: b-6-g moves up, and only the queue column of the affected rows changes.
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    for (auto &j : s.jobs) {
        if (j.name == QLatin1String("b-5-gg")) {
            j.node = QStringLiteral("dgx1-2");
            j.gpuIndices = {4, 5};
            j.status = core::JobStatus::Running;
        }
    }
    s.publish(estate);
    EXPECT_EQ(cell(model, QStringLiteral("b-6-g"), JobTableModel::QueuePosition), QStringLiteral("1"));
    EXPECT_EQ(cell(model, QStringLiteral("b-5-gg"), JobTableModel::QueuePosition),
              QString::fromUtf16(core::kUnknownText));
    bool queueColumnSignalled = false;
    for (const QList<QVariant> &args : changed) {
        const auto from = args[0].value<QModelIndex>();
        const auto to = args[1].value<QModelIndex>();
        queueColumnSignalled =
            queueColumnSignalled
            || (from.column() <= JobTableModel::QueuePosition && to.column() >= JobTableModel::QueuePosition);
    }
    EXPECT_TRUE(queueColumnSignalled);
}

TEST(JobTableModel, TickUpdatesOnlyTimeColumns)
{
    core::Estate estate;
    QDateTime now = computeNow();
    JobTableModel model(estate, [&now] {
        return now;
    });
    QAbstractItemModelTester tester(&model, Fatal);
    testsupport::state48().publish(estate);
    const QString before = cell(model, QStringLiteral("a-1-g"), JobTableModel::Age);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    now = now.addSecs(61);
    model.tick();
    EXPECT_EQ(reset.count(), 0);
    ASSERT_EQ(changed.count(), 3);
    for (const QList<QVariant> &args : changed) {
        const auto from = args[0].value<QModelIndex>();
        const auto to = args[1].value<QModelIndex>();
        EXPECT_EQ(from.column(), to.column());
        EXPECT_TRUE(from.column() == JobTableModel::Age || from.column() == JobTableModel::RunTime
                    || from.column() == JobTableModel::WaitTime);
        EXPECT_EQ(from.row(), 0);
        EXPECT_EQ(to.row(), model.rowCount() - 1);
    }
    EXPECT_NE(cell(model, QStringLiteral("a-1-g"), JobTableModel::Age), before);
}

TEST(JobTableModel, FormatsDurationsLikeKubectl)
{
    EXPECT_EQ(JobTableModel::formatDuration(45), QStringLiteral("45s"));
    EXPECT_EQ(JobTableModel::formatDuration(192), QStringLiteral("3m 12s"));
    EXPECT_EQ(JobTableModel::formatDuration(2 * 3600 + 5 * 60), QStringLiteral("2h 05m"));
    EXPECT_EQ(JobTableModel::formatDuration(3 * 86400 + 4 * 3600), QStringLiteral("3d 04h"));
    EXPECT_EQ(JobTableModel::formatDuration(-1), QString());
}

TEST(ProjectTableModel, ShowsAllocatedSlashQuotaForTheDocumentStates)
{
    core::Estate estate;
    ProjectTableModel model(estate);
    QAbstractItemModelTester tester(&model, Fatal);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

    testsupport::state48().publish(estate);
    ASSERT_EQ(model.rowCount(), 4);
    EXPECT_EQ(cell(model, QStringLiteral("team-a"), ProjectTableModel::Allocation), QStringLiteral("4/4"));
    EXPECT_EQ(cell(model, QStringLiteral("team-b"), ProjectTableModel::Allocation), QStringLiteral("4/2"));
    EXPECT_EQ(cell(model, QStringLiteral("team-c"), ProjectTableModel::Allocation), QStringLiteral("4/2"));
    EXPECT_EQ(cell(model, QStringLiteral("team-d"), ProjectTableModel::Allocation), QStringLiteral("4/8"));
    EXPECT_EQ(cell(model, QStringLiteral("team-b"), ProjectTableModel::OverQuota), QStringLiteral("2"));
    EXPECT_EQ(cell(model, QStringLiteral("team-b"), ProjectTableModel::OverQuota, models::StatusRole),
              QStringLiteral("warning"));
    EXPECT_EQ(cell(model, QStringLiteral("team-b"), ProjectTableModel::FairShare), QStringLiteral("4"));

    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    testsupport::state410().publish(estate);
    EXPECT_EQ(reset.count(), 0);
    EXPECT_GE(changed.count(), 1);
    EXPECT_EQ(cell(model, QStringLiteral("team-a"), ProjectTableModel::Allocation), QStringLiteral("8/4"));
    EXPECT_EQ(cell(model, QStringLiteral("team-b"), ProjectTableModel::Allocation), QStringLiteral("4/2"));
    EXPECT_EQ(cell(model, QStringLiteral("team-c"), ProjectTableModel::Allocation), QStringLiteral("4/2"));
    EXPECT_EQ(cell(model, QStringLiteral("team-d"), ProjectTableModel::Allocation), QStringLiteral("0/8"));
    EXPECT_EQ(cell(model, QStringLiteral("team-b"), ProjectTableModel::Queued), QStringLiteral("1"));
    EXPECT_EQ(cell(model, QStringLiteral("team-b"), ProjectTableModel::Pending), QStringLiteral("2"));
}

TEST(ProjectTableModel, FractionalAllocationKeepsDecimals)
{
    core::Project p;
    p.allocated = 600;
    p.quota = 2000;
    EXPECT_EQ(ProjectTableModel::allocationText(p), QStringLiteral("0.6/2"));
    p.quota = -1;
    EXPECT_EQ(ProjectTableModel::allocationText(p), QStringLiteral("0.6/none"));
}
