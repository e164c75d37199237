// The Jobs search, the job and volume proxies' cached filter text and typed sort, and
// the Overview that does not recompute while hidden.
#include "models/core/domain/estate.h"
#include "models/core/runtime/engine.h"
#include "models/core/store/credentialstore.h"
#include "models/item/jobtablemodel.h"
#include "models/item/roles.h"
#include "models/item/servicelevelmodel.h"
#include "models/item/sourcetablemodel.h"
#include "models/item/volumetablemodel.h"
#include "tests/models/computefixture.h"
#include "tests/support/qt/manualclock.h"
#include "tests/views/viewtestutil.h"
#include "views/jobfilterproxy.h"
#include "views/jobspage.h"
#include "views/overviewpage.h"
#include "views/volumefilterproxy.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

#include <gtest/gtest.h>

using namespace strata;
using models::JobTableModel;

namespace {

struct StallUi
{
    core::Estate estate;
    JobTableModel jobs{estate, [] {
                           return testsupport::computeNow();
                       }};
};

/// Publishes §4.8's jobs with `edit` applied to the job named `name`.
void publishEditedJob(core::Estate &estate, const QString &name, const std::function<void(core::Job &)> &edit)
{
    core::ComputePublish p = testsupport::state48().build();
    std::vector<core::Ptr<core::Job>> jobs;
    for (const core::Ptr<core::Job> &job : p.jobs->items()) {
        if (job->name == name) {
            core::Job copy = *job;
            edit(copy);
            jobs.push_back(std::make_shared<const core::Job>(std::move(copy)));
        } else {
            jobs.push_back(job);
        }
    }
    p.jobs = std::make_shared<const core::KeyedList<core::Job>>(std::move(jobs));
    estate.publishCompute(testsupport::kCluster, std::move(p));
}

QStringList proxyNames(const QAbstractItemModel &proxy)
{
    QStringList names;
    for (int row = 0; row < proxy.rowCount(); ++row) {
        names << proxy.index(row, JobTableModel::Name).data().toString();
    }
    return names;
}

} // namespace

// Typing a search re-filters 100,000 jobs once, when typing pauses, not on every key.
TEST(JobSearch, AppliesOnceTypingSettles)
{
    StallUi ui;
    testsupport::state48().publish(ui.estate);
    views::JobsPage page(&ui.estate, &ui.jobs);
    const int all = page.runningProxy()->rowCount();
    ASSERT_EQ(all, 13);
    int filterRuns = 0;
    QObject::connect(page.runningProxy(), &QAbstractItemModel::rowsRemoved, [&filterRuns] {
        ++filterRuns;
    });
    for (const QChar c : QStringLiteral("jupyter")) {
        QTest::keyClick(page.filterEdit(), c.toLatin1());
        EXPECT_EQ(page.runningProxy()->rowCount(), all) << "re-filtered on '" << c.toLatin1() << "'";
    }
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return page.runningProxy()->rowCount() == 1;
        },
        2000));
    EXPECT_EQ(page.runningProxy()->index(0, JobTableModel::Name).data().toString(), QStringLiteral("a-1-1-jupyter"));
    // Bounded on purpose: a late second filter pass is what this looks for, and its absence
    // cannot be awaited.
    QTest::qWait(300);
    // One filter pass removes the 12 other rows in a handful of contiguous ranges, never 7 passes.
    EXPECT_LE(filterRuns, 12);
    EXPECT_EQ(page.runningProxy()->rowCount(), 1);
}

// The cached text follows a job's change: the proxy finds it by a substring of each searchable
// column's new value, and no longer by the old one.
TEST(JobSearch, FindsAChangedJobByEverySearchableColumn)
{
    StallUi ui;
    testsupport::state48().publish(ui.estate);
    views::JobFilterProxy proxy(views::JobFilterProxy::Scope::All);
    proxy.setSourceModel(&ui.jobs);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    proxy.setText(QStringLiteral("QUICKSTART"));
    ASSERT_EQ(proxy.rowCount(), 13);
    EXPECT_EQ(proxy.cachedTextRows(), 13);

    publishEditedJob(ui.estate, QStringLiteral("b-3-g"), [](core::Job &job) {
        job.image = QStringLiteral("nvcr.io/nvidia/pytorch:24.05");
        job.user = QStringLiteral("Marie.Curie");
        job.node = QStringLiteral("dgx-h100-07");
    });
    EXPECT_EQ(proxy.rowCount(), 12) << "the old image still matched";
    for (const QString &needle : {QStringLiteral("PyTorch:24"),
                                  QStringLiteral("marie.c"),
                                  QStringLiteral("h100-07"),
                                  QStringLiteral("b-3-"),
                                  QStringLiteral("runai-team-b"),
                                  QStringLiteral("k8s-AI")}) {
        proxy.setText(needle);
        EXPECT_TRUE(proxyNames(proxy).contains(QStringLiteral("b-3-g"))) << needle.toStdString();
    }
    proxy.setText(QStringLiteral("team-b john"));
    EXPECT_FALSE(proxyNames(proxy).contains(QStringLiteral("b-3-g")));

    // A change of the time columns alone (the clock's tick) keeps the cache.
    proxy.setText(QStringLiteral("team"));
    const int cached = proxy.cachedTextRows();
    ui.jobs.tick();
    EXPECT_EQ(proxy.cachedTextRows(), cached);
}

/// The order the Jobs tables had through QVariant roles (the reference the typed sort keeps):
/// RawValueRole through QVariant::compare, the queue by project first, ties by name.
class RoleJobSort final : public QSortFilterProxyModel
{
protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override
    {
        if (left.column() == JobTableModel::QueuePosition) {
            const QString lp = left.data(models::ProjectRole).toString();
            const QString rp = right.data(models::ProjectRole).toString();
            if (lp != rp) {
                return lp < rp;
            }
        }
        // The field list's order of values: unknown first, figures by value, text without case.
        const int order = core::compareFieldValues(left.data(models::RawValueRole), right.data(models::RawValueRole));
        if (order != 0) {
            return order < 0;
        }
        return left.sibling(left.row(), JobTableModel::Name).data().toString()
               < right.sibling(right.row(), JobTableModel::Name).data().toString();
    }
};

// The typed comparison sorts every column as RawValueRole through the field list's comparison (names as text,
// figures and times as numbers, the queue by project then place), ties by name.
TEST(JobSearch, TypedSortMatchesTheRoleSortOnEveryColumn)
{
    StallUi ui;
    auto state = testsupport::state410();
    state.jobs.push_back(
        testsupport::queuedJob(QStringLiteral("b-6-g"), QStringLiteral("team-b"), 1000, core::JobType::Train));
    state.publish(ui.estate);
    ui.jobs.tick();
    views::JobFilterProxy typed(views::JobFilterProxy::Scope::All);
    typed.setSourceModel(&ui.jobs);
    RoleJobSort roles;
    roles.setSourceModel(&ui.jobs);
    for (int column = 0; column < JobTableModel::ColumnCount; ++column) {
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            typed.sort(column, order);
            roles.sort(column, order);
            EXPECT_EQ(proxyNames(typed), proxyNames(roles)) << "column " << column << " order " << int(order);
        }
    }
    typed.sort(JobTableModel::Gpus, Qt::AscendingOrder);
    EXPECT_DOUBLE_EQ(typed.index(0, JobTableModel::Gpus).data(models::RawValueRole).toDouble(), 0.2);
}

// Hidden, the Overview only notes an estate change; showing it brings the figures up to date.
TEST(OverviewPageHidden, DoesNotRecomputeWhileHiddenAndIsCurrentOnceShown)
{
    core::Estate estate;
    testsupport::state48().publish(estate);
    views::OverviewPage page(&estate);
    EXPECT_TRUE(page.tileValues().contains(QStringLiteral("tile_k8s-ai_pending=0")))
        << page.tileValues().join(QLatin1Char(' ')).toStdString();
    const int refreshes = page.refreshCount();

    testsupport::state410().publish(estate);
    QTest::qWait(400); // past the 200 ms coalescing
    EXPECT_EQ(page.refreshCount(), refreshes);
    EXPECT_TRUE(page.isStale());

    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    EXPECT_FALSE(page.isStale());
    EXPECT_EQ(page.refreshCount(), refreshes + 1);
    EXPECT_TRUE(page.tileValues().contains(QStringLiteral("tile_k8s-ai_pending=2")))
        << page.tileValues().join(QLatin1Char(' ')).toStdString();

    // Shown, a change refreshes after the coalescing delay, once.
    testsupport::state48().publish(estate);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return page.refreshCount() == refreshes + 2;
        },
        2000));
    EXPECT_TRUE(page.tileValues().contains(QStringLiteral("tile_k8s-ai_pending=0")));
}

// The volume filter's cached text follows a renamed volume.
TEST(VolumeSearch, FindsARenamedVolumeAndSortsSizesAsBytes)
{
    core::Estate estate;
    estate.publishVolumes(QStringLiteral("east"), viewtests::syntheticVolumes(QStringLiteral("east"), 200));
    models::VolumeTableModel model(estate);
    views::VolumeFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    proxy.setTextFilter(QStringLiteral("VOL_0001"));
    ASSERT_EQ(proxy.rowCount(), 10);
    EXPECT_GT(proxy.cachedTextRows(), 0);

    auto renamed = viewtests::syntheticVolumes(QStringLiteral("east"), 200)->items();
    core::Volume v = *renamed[15];
    v.name = QStringLiteral("Scratch_Genomics");
    v.nasPath = QStringLiteral("/scratch/genomics");
    renamed[15] = std::make_shared<const core::Volume>(std::move(v));
    estate.publishVolumes(QStringLiteral("east"), std::make_shared<const core::KeyedList<core::Volume>>(renamed));
    EXPECT_EQ(proxy.rowCount(), 9);
    proxy.setTextFilter(QStringLiteral("genomics"));
    ASSERT_EQ(proxy.rowCount(), 1);
    EXPECT_EQ(proxy.index(0, models::VolumeTableModel::Name).data().toString(), QStringLiteral("Scratch_Genomics"));
    proxy.setTextFilter(QStringLiteral("/SCRATCH/"));
    EXPECT_EQ(proxy.rowCount(), 1);
    proxy.setTextFilter(QStringLiteral("/vol_00015"));
    EXPECT_EQ(proxy.rowCount(), 0);

    proxy.setTextFilter(QString());
    proxy.sort(models::VolumeTableModel::Size, Qt::DescendingOrder);
    qint64 previous = std::numeric_limits<qint64>::max();
    for (int row = 0; row < proxy.rowCount(); ++row) {
        const qint64 bytes = proxy.index(row, models::VolumeTableModel::Size).data(models::RawValueRole).toLongLong();
        ASSERT_LE(bytes, previous) << "row " << row;
        previous = bytes;
    }
}

// A poll with the same volumes in the same order changes only the rows whose figures moved; a
// poll that drops, adds or reorders volumes still applies as a keyed diff.
TEST(ServiceLevelRows, SameVolumesUpdateInPlaceAndOtherPollsApplyByKey)
{
    const auto row = [](const QString &id, double observed) {
        core::ServiceLevelRow r;
        r.source = QStringLiteral("ontap-ai");
        r.volumeId = id;
        r.volumeName = QStringLiteral("vol_") + id;
        r.observedMibps = observed;
        return r;
    };
    models::ServiceLevelTableModel model(nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setRows({row(QStringLiteral("a"), 1), row(QStringLiteral("b"), 2), row(QStringLiteral("c"), 3)});
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    model.setRows({row(QStringLiteral("a"), 1), row(QStringLiteral("b"), 20), row(QStringLiteral("c"), 3)});
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(changed.at(0).at(0).toModelIndex().row(), 1);
    EXPECT_EQ(changed.at(0).at(1).toModelIndex().row(), 1);
    EXPECT_EQ(inserted.count() + removed.count(), 0);
    EXPECT_DOUBLE_EQ(model.rowAt(model.rowOf(QStringLiteral("ontap-ai/b")))->observedMibps, 20);

    // Reordered, one gone, one new: matched by key.
    model.setRows({row(QStringLiteral("c"), 30), row(QStringLiteral("d"), 4), row(QStringLiteral("a"), 1)});
    EXPECT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.rowOf(QStringLiteral("ontap-ai/b")), -1);
    EXPECT_DOUBLE_EQ(model.rowAt(model.rowOf(QStringLiteral("ontap-ai/c")))->observedMibps, 30);
    EXPECT_DOUBLE_EQ(model.rowAt(model.rowOf(QStringLiteral("ontap-ai/d")))->observedMibps, 4);
    EXPECT_DOUBLE_EQ(model.rowAt(model.rowOf(QStringLiteral("ontap-ai/a")))->observedMibps, 1);
}

// The attention list walks every job and volume: a refresh recomputes it only after a change of
// what it reads: a job that starts or stops failing, not a job's other fields; a cluster's
// quota total, not its utilization.
TEST(OverviewPageHidden, AttentionIsRecomputedOnlyWhenAJobsFailureChanges)
{
    core::Estate estate;
    testsupport::state48().publish(estate);
    views::OverviewPage page(&estate);
    const int computed = page.attentionComputations();
    const auto failing = [&page] {
        const QStringList items = page.attentionItems();
        return std::any_of(items.cbegin(), items.cend(), [](const QString &item) {
            return item.startsWith(QStringLiteral("runai-team-b/b-3-g:"));
        });
    };
    EXPECT_FALSE(failing());

    publishEditedJob(estate, QStringLiteral("b-3-g"), [](core::Job &job) {
        job.user = QStringLiteral("marie");
    });
    page.refresh();
    EXPECT_EQ(page.attentionComputations(), computed);

    publishEditedJob(estate, QStringLiteral("b-3-g"), [](core::Job &job) {
        job.failureReason = QStringLiteral("ImagePullBackOff");
    });
    page.refresh();
    EXPECT_EQ(page.attentionComputations(), computed + 1);
    EXPECT_TRUE(failing()) << page.attentionItems().join(QLatin1Char('\n')).toStdString();

    // A flagged job's other change can change its message (GPUs held): recomputed.
    publishEditedJob(estate, QStringLiteral("b-3-g"), [](core::Job &job) {
        job.failureReason = QStringLiteral("ImagePullBackOff");
        job.user = QStringLiteral("marie");
    });
    page.refresh();
    EXPECT_EQ(page.attentionComputations(), computed + 2);

    testsupport::state48().publish(estate);
    page.refresh();
    EXPECT_EQ(page.attentionComputations(), computed + 3);
    EXPECT_FALSE(failing());

    // A cluster's utilization moves with every pod change: not read by the attention list. Its
    // quota total is.
    const auto publishCluster = [&estate](const std::function<void(core::GpuCluster &)> &edit) {
        core::ComputePublish p = testsupport::state48().build();
        core::GpuCluster c = *p.clusters->items().front();
        edit(c);
        p.clusters = std::make_shared<const core::KeyedList<core::GpuCluster>>(
            std::vector<core::Ptr<core::GpuCluster>>{std::make_shared<const core::GpuCluster>(std::move(c))});
        estate.publishCompute(testsupport::kCluster, std::move(p));
    };
    publishCluster([](core::GpuCluster &c) {
        c.utilization = 12.5;
    });
    page.refresh();
    EXPECT_EQ(page.attentionComputations(), computed + 3);
    publishCluster([](core::GpuCluster &c) {
        c.quotaTotal += 1000;
    });
    page.refresh();
    EXPECT_EQ(page.attentionComputations(), computed + 4);
    EXPECT_TRUE(std::any_of(page.attentionItems().cbegin(), page.attentionItems().cend(), [](const QString &item) {
        return item.contains(QStringLiteral("Σ project quotas"));
    })) << page.attentionItems().join(QLatin1Char('\n')).toStdString();
}

// A source's poll times change on every poll and are not on the attention list (its health is):
// a change of the sources' rows that leaves every health as it was does not recompute it.
TEST(OverviewPageHidden, AttentionIsNotRecomputedWhenNoSourcesHealthMoved)
{
    testsupport::ManualClock clock;
    core::InMemoryCredentialStore credentials;
    core::Engine engine{{clock, credentials, nullptr, QStringLiteral("tester")}};
    core::SourceConfig lab;
    lab.name = QStringLiteral("lab");
    lab.kind = core::SourceKind::Ontap;
    lab.url = QStringLiteral("https://127.0.0.1:9"); // the discard port: never answers
    lab.username = QStringLiteral("admin");
    engine.setSources({lab});
    models::SourceTableModel sources(engine);
    views::OverviewPage page(&engine.estate(), &sources);
    const int computed = page.attentionComputations();
    EXPECT_TRUE(page.attentionItems().isEmpty());

    // A change of the sources' rows that leaves every health as it was.
    Q_EMIT sources.dataChanged(sources.index(0, 0), sources.index(0, sources.columnCount() - 1));
    page.refresh();
    EXPECT_EQ(page.attentionComputations(), computed);

    // Unknown health (never polled) is not on the list either.
    EXPECT_TRUE(page.attentionItems().isEmpty());
}
