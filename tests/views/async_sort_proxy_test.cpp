// The Jobs tables' sort and filter computed on a worker thread (AsyncSortFilterProxy):
// the order and match set it applies, the selection and current row it keeps, the requests it
// drops when a newer one or a poll supersedes them, and a poll's diff applied while one is
// pending. Behaviour, not timing: each proxy is forced onto the worker (setAsyncRows(0)).
#include "models/core/domain/estate.h"
#include "models/item/jobtablemodel.h"
#include "tests/models/computefixture.h"
#include "views/jobfilterproxy.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include <algorithm>

using namespace strata;
using models::JobTableModel;

namespace {

/// `count` jobs of cluster kCluster in scrambled name order, every seventh queued, projects
/// team-0..team-4, GPUs 0.5 to 8; `edit` may change one before it is published.
std::vector<core::Ptr<core::Job>> asyncJobs(int count, const std::function<void(core::Job &)> &edit = {})
{
    std::vector<core::Ptr<core::Job>> jobs;
    const QDateTime now = testsupport::computeNow();
    for (int i = 0; i < count; ++i) {
        core::Job j;
        j.source = testsupport::kCluster;
        const int scrambled = (i * 7919) % 100003;
        j.name = QStringLiteral("job-%1").arg(scrambled, 6, 10, QLatin1Char('0'));
        j.project = QStringLiteral("team-%1").arg(i % 5);
        j.namespaceName = QStringLiteral("runai-") + j.project;
        j.id = j.namespaceName + QLatin1Char('/') + j.name;
        j.user = i % 3 == 0 ? QStringLiteral("marie") : QStringLiteral("john");
        j.status = i % 7 == 0 ? core::JobStatus::Pending : core::JobStatus::Running;
        j.gpusRequested = 500 * (1 + i % 16);
        j.image = QStringLiteral("nvcr.io/nvidia/pytorch:24.%1").arg(i % 12);
        j.created = now.addSecs(-100000 + 13 * i);
        if (j.status == core::JobStatus::Running) {
            j.node = QStringLiteral("dgx-%1").arg(i % 40);
            j.gpusAllocated = j.gpusRequested;
            j.started = j.created.addSecs(5);
        }
        if (edit) {
            edit(j);
        }
        jobs.push_back(std::make_shared<const core::Job>(std::move(j)));
    }
    return jobs;
}

void asyncPublish(core::Estate &estate, std::vector<core::Ptr<core::Job>> jobs)
{
    core::ComputePublish p = testsupport::state48().build();
    p.jobs = std::make_shared<const core::KeyedList<core::Job>>(std::move(jobs));
    estate.publishCompute(testsupport::kCluster, std::move(p));
}

/// Replaces the job named `name` in `jobs` by an edited copy.
std::vector<core::Ptr<core::Job>>
asyncEdited(std::vector<core::Ptr<core::Job>> jobs, const QString &name, const std::function<void(core::Job &)> &edit)
{
    for (core::Ptr<core::Job> &job : jobs) {
        if (job->name == name) {
            core::Job copy = *job;
            edit(copy);
            job = std::make_shared<const core::Job>(std::move(copy));
        }
    }
    return jobs;
}

QStringList asyncNames(const QAbstractItemModel &proxy)
{
    QStringList names;
    for (int row = 0; row < proxy.rowCount(); ++row) {
        names << proxy.index(row, JobTableModel::Name).data().toString();
    }
    return names;
}

/// Spins the event loop until `proxy` has no request pending.
bool asyncSettled(const views::AsyncSortFilterProxy &proxy)
{
    return QTest::qWaitFor(
        [&proxy] {
            return !proxy.isPending();
        },
        10000);
}

constexpr int kAsyncJobs = 3000;

struct AsyncUi
{
    AsyncUi()
    {
        jobs = asyncJobs(kAsyncJobs);
        asyncPublish(estate, jobs);
        // The same proxy computed at once on the GUI thread: the reference order.
        reference.setSourceModel(&model);
        reference.setAsyncRows(INT_MAX);
        proxy.setAsyncRows(0);
        proxy.setSourceModel(&model);
    }
    std::vector<core::Ptr<core::Job>> jobs;
    core::Estate estate;
    JobTableModel model{estate, [] {
                            return testsupport::computeNow();
                        }};
    views::JobFilterProxy reference{views::JobFilterProxy::Scope::All};
    views::JobFilterProxy proxy{views::JobFilterProxy::Scope::All};
};

} // namespace

// A sort runs on the worker: the rows keep their order until it lands, then follow the same
// order as the synchronous proxy, on every column the Jobs tables sort by and both directions.
TEST(AsyncJobSort, WorkerOrderIsTheSynchronousOrderOnEveryColumn)
{
    AsyncUi ui;
    QAbstractItemModelTester tester(&ui.proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_TRUE(asyncSettled(ui.proxy));
    ASSERT_EQ(ui.proxy.rowCount(), kAsyncJobs);
    for (int column = 0; column < JobTableModel::ColumnCount; ++column) {
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            const QStringList before = asyncNames(ui.proxy);
            ui.proxy.sort(column, order);
            ASSERT_TRUE(ui.proxy.isPending());
            EXPECT_EQ(asyncNames(ui.proxy), before) << "applied before the worker finished";
            ASSERT_TRUE(asyncSettled(ui.proxy));
            ui.reference.sort(column, order);
            EXPECT_EQ(asyncNames(ui.proxy), asyncNames(ui.reference)) << "column " << column << " order " << int(order);
        }
    }
    ui.proxy.sort(JobTableModel::Name, Qt::AscendingOrder);
    ASSERT_TRUE(asyncSettled(ui.proxy));
    QStringList sorted = asyncNames(ui.proxy);
    EXPECT_TRUE(std::is_sorted(sorted.cbegin(), sorted.cend()));
}

// A search and the scope, cluster, project and status filters: the match set the worker applies
// is every job that matches and no other.
TEST(AsyncJobSort, WorkerMatchSetIsExactlyTheMatchingJobs)
{
    AsyncUi ui;
    QAbstractItemModelTester tester(&ui.proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    ui.proxy.sort(JobTableModel::Name, Qt::AscendingOrder);
    ui.proxy.setText(QStringLiteral("PYTORCH:24.3 "));
    ASSERT_TRUE(asyncSettled(ui.proxy));
    QStringList expected;
    for (const core::Ptr<core::Job> &job : ui.jobs) {
        if (job->image.endsWith(QStringLiteral(":24.3"))) {
            expected << job->name;
        }
    }
    expected.sort();
    EXPECT_EQ(asyncNames(ui.proxy), expected);
    EXPECT_EQ(ui.proxy.cachedTextRows(), kAsyncJobs) << "the folded texts are kept for the next search";

    ui.proxy.setText(QStringLiteral("marie"));
    ui.proxy.setProject(QStringLiteral("team-2"));
    ui.proxy.setScope(views::JobFilterProxy::Scope::Queued);
    ASSERT_TRUE(asyncSettled(ui.proxy));
    expected.clear();
    for (const core::Ptr<core::Job> &job : ui.jobs) {
        if (job->user == QStringLiteral("marie") && job->project == QStringLiteral("team-2")
            && job->status == core::JobStatus::Pending) {
            expected << job->name;
        }
    }
    expected.sort();
    ASSERT_FALSE(expected.isEmpty());
    EXPECT_EQ(asyncNames(ui.proxy), expected);

    ui.proxy.setText(QString());
    ui.proxy.setProject(QString());
    ui.proxy.setScope(views::JobFilterProxy::Scope::All);
    ASSERT_TRUE(asyncSettled(ui.proxy));
    EXPECT_EQ(ui.proxy.rowCount(), kAsyncJobs);
}

// The selected rows and the current row follow their jobs through a worker's sort and a search
// that keeps them; a search that hides the current job clears it.
TEST(AsyncJobSort, SelectionAndCurrentRowFollowTheirJobs)
{
    AsyncUi ui;
    ASSERT_TRUE(asyncSettled(ui.proxy));
    QItemSelectionModel selection(&ui.proxy);
    const auto rowOfName = [&ui](const QString &name) {
        return int(asyncNames(ui.proxy).indexOf(name));
    };
    const QString current = ui.proxy.index(17, JobTableModel::Name).data().toString();
    const QString other = ui.proxy.index(1200, JobTableModel::Name).data().toString();
    selection.setCurrentIndex(ui.proxy.index(17, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    selection.select(ui.proxy.index(1200, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);

    ui.proxy.sort(JobTableModel::Name, Qt::DescendingOrder);
    ASSERT_TRUE(asyncSettled(ui.proxy));
    ASSERT_NE(rowOfName(current), 17);
    EXPECT_EQ(selection.currentIndex().row(), rowOfName(current));
    EXPECT_EQ(selection.currentIndex().data().toString(), current);
    EXPECT_TRUE(selection.isRowSelected(rowOfName(current)));
    EXPECT_TRUE(selection.isRowSelected(rowOfName(other)));
    EXPECT_EQ(selection.selectedRows().size(), 2);

    ui.proxy.setText(current); // keeps the current job, hides the other
    ASSERT_TRUE(asyncSettled(ui.proxy));
    ASSERT_GE(rowOfName(current), 0);
    EXPECT_EQ(selection.currentIndex().data().toString(), current);
    EXPECT_EQ(selection.selectedRows().size(), 1);

    ui.proxy.setText(QStringLiteral("no-such-job"));
    ASSERT_TRUE(asyncSettled(ui.proxy));
    EXPECT_EQ(ui.proxy.rowCount(), 0);
    EXPECT_FALSE(selection.currentIndex().isValid());
}

// Requests made before the worker's result lands supersede it: only the newest is applied, and
// settle() applies a pending one at once.
TEST(AsyncJobSort, ANewerRequestDropsThePendingOne)
{
    AsyncUi ui;
    ASSERT_TRUE(asyncSettled(ui.proxy));
    const int applied = ui.proxy.appliedRequests();
    QSignalSpy layouts(&ui.proxy, &QAbstractItemModel::layoutChanged);
    ui.proxy.sort(JobTableModel::Name, Qt::AscendingOrder);
    ui.proxy.sort(JobTableModel::Gpus, Qt::DescendingOrder);
    ui.proxy.setText(QStringLiteral("team-4"));
    ASSERT_TRUE(asyncSettled(ui.proxy));
    QTest::qWait(50); // a dropped result would land by now
    EXPECT_EQ(ui.proxy.appliedRequests(), applied + 1);
    EXPECT_EQ(ui.proxy.droppedRequests(), 2);
    EXPECT_EQ(layouts.count(), 1);
    ui.reference.sort(JobTableModel::Gpus, Qt::DescendingOrder);
    ui.reference.setText(QStringLiteral("team-4"));
    EXPECT_EQ(asyncNames(ui.proxy), asyncNames(ui.reference));

    ui.proxy.sort(JobTableModel::Image, Qt::AscendingOrder);
    ASSERT_TRUE(ui.proxy.isPending());
    ui.proxy.settle();
    EXPECT_FALSE(ui.proxy.isPending());
    ui.reference.sort(JobTableModel::Image, Qt::AscendingOrder);
    EXPECT_EQ(asyncNames(ui.proxy), asyncNames(ui.reference));
    QTest::qWait(50);
    EXPECT_EQ(asyncNames(ui.proxy), asyncNames(ui.reference)) << "the worker's late result was applied over it";
}

// A poll lands while a sort is pending: a renamed job (a changed row) is put where its new name
// belongs once the sort lands; a poll that adds and removes jobs starts the request over from
// the rows as they are. No reset, and the result is the synchronous proxy's.
TEST(AsyncJobSort, APollWhileASortIsPendingEndsInTheRightOrder)
{
    AsyncUi ui;
    QAbstractItemModelTester tester(&ui.proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_TRUE(asyncSettled(ui.proxy));
    QSignalSpy resets(&ui.proxy, &QAbstractItemModel::modelReset);
    const QString renamed = ui.jobs[10]->name;

    ui.proxy.sort(JobTableModel::User, Qt::AscendingOrder);
    ui.reference.sort(JobTableModel::User, Qt::AscendingOrder);
    ASSERT_TRUE(ui.proxy.isPending());
    // The worker may already be done: its result waits for the event loop, after this poll.
    ui.jobs = asyncEdited(ui.jobs, renamed, [](core::Job &job) {
        job.user = QStringLiteral("aaa-first");
    });
    asyncPublish(ui.estate, ui.jobs);
    ASSERT_TRUE(asyncSettled(ui.proxy));
    EXPECT_EQ(ui.proxy.index(0, JobTableModel::Name).data().toString(), renamed);
    EXPECT_EQ(asyncNames(ui.proxy), asyncNames(ui.reference));

    const int dropped = ui.proxy.droppedRequests();
    ui.proxy.sort(JobTableModel::Name, Qt::DescendingOrder);
    ui.reference.sort(JobTableModel::Name, Qt::DescendingOrder);
    ASSERT_TRUE(ui.proxy.isPending());
    std::vector<core::Ptr<core::Job>> next(ui.jobs.begin() + 5, ui.jobs.end());
    next.push_back(asyncJobs(1, [](core::Job &job) {
                       job.name = QStringLiteral("job-zzz-new");
                       job.id = job.namespaceName + QStringLiteral("/job-zzz-new");
                   }).front());
    asyncPublish(ui.estate, next);
    ASSERT_TRUE(asyncSettled(ui.proxy));
    EXPECT_GT(ui.proxy.droppedRequests(), dropped) << "the snapshot without the new job was applied";
    EXPECT_EQ(ui.proxy.rowCount(), kAsyncJobs - 4);
    EXPECT_EQ(ui.proxy.index(0, JobTableModel::Name).data().toString(), QStringLiteral("job-zzz-new"));
    EXPECT_EQ(asyncNames(ui.proxy), asyncNames(ui.reference));
    EXPECT_EQ(resets.count(), 0);
}

// Once applied, a poll's few changed jobs are put in place on the GUI thread (no full request,
// never a reset): a job that starts waiting leaves the running scope, one that runs joins it at
// its place, and the current row stays on a job that moves.
TEST(AsyncJobSort, APollAfterwardsIsAppliedInPlace)
{
    AsyncUi ui;
    ui.proxy.setScope(views::JobFilterProxy::Scope::Running);
    ui.reference.setScope(views::JobFilterProxy::Scope::Running);
    ui.proxy.sort(JobTableModel::Gpus, Qt::AscendingOrder);
    ui.reference.sort(JobTableModel::Gpus, Qt::AscendingOrder);
    ASSERT_TRUE(asyncSettled(ui.proxy));
    QAbstractItemModelTester tester(&ui.proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QItemSelectionModel selection(&ui.proxy);
    const QString moving = ui.proxy.index(3, JobTableModel::Name).data().toString();
    selection.setCurrentIndex(ui.proxy.index(3, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QSignalSpy resets(&ui.proxy, &QAbstractItemModel::modelReset);
    const int applied = ui.proxy.appliedRequests();

    const QString waiting = ui.jobs[1]->name;
    const QString running = ui.jobs[7]->name; // queued until now
    ASSERT_EQ(ui.jobs[7]->status, core::JobStatus::Pending);
    ui.jobs = asyncEdited(ui.jobs, moving, [](core::Job &job) {
        job.gpusAllocated = job.gpusRequested = 64000;
    });
    ui.jobs = asyncEdited(ui.jobs, waiting, [](core::Job &job) {
        job.status = core::JobStatus::Preempted;
    });
    ui.jobs = asyncEdited(ui.jobs, running, [](core::Job &job) {
        job.status = core::JobStatus::Running;
        job.node = QStringLiteral("dgx-1");
        job.gpusAllocated = job.gpusRequested;
    });
    asyncPublish(ui.estate, ui.jobs);
    EXPECT_FALSE(ui.proxy.isPending());
    EXPECT_EQ(ui.proxy.appliedRequests(), applied);
    EXPECT_EQ(resets.count(), 0);
    const QStringList names = asyncNames(ui.proxy);
    EXPECT_EQ(names, asyncNames(ui.reference));
    EXPECT_FALSE(names.contains(waiting));
    EXPECT_TRUE(names.contains(running));
    EXPECT_EQ(names.back(), moving);
    EXPECT_EQ(selection.currentIndex().row(), names.size() - 1);
}
