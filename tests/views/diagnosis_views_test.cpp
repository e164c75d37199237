// The Jobs page's "Why pending?" / "Why idle?" section over hand-built estates.

#include "models/core/domain/estate.h"
#include "models/core/planning/diagnosis.h"
#include "views/diagnosisview.h"
#include "views/jobdetailpanel.h"

#include <QGroupBox>
#include <QPushButton>
#include <QSignalSpy>

#include <gtest/gtest.h>

using namespace strata;

namespace {

const QString kDiagnosisCluster = QStringLiteral("dgx");

template <class T> std::shared_ptr<const core::KeyedList<T>> listOf(std::vector<T> items)
{
    std::vector<core::Ptr<T>> out;
    for (T &item : items) {
        out.push_back(std::make_shared<const T>(std::move(item)));
    }
    return std::make_shared<const core::KeyedList<T>>(std::move(out));
}

core::Job job(const QString &name, core::JobStatus status, core::MilliGpu gpus)
{
    core::Job j;
    j.source = kDiagnosisCluster;
    j.namespaceName = QStringLiteral("runai-team-a");
    j.name = name;
    j.id = j.namespaceName + QLatin1Char('/') + name;
    j.project = QStringLiteral("team-a");
    j.status = status;
    j.gpusRequested = gpus;
    return j;
}

} // namespace

TEST(JobDiagnosisPanel, PendingJobShowsWhyPendingWithTheDecisiveRule)
{
    core::Estate estate;
    core::GpuNode node;
    node.source = kDiagnosisCluster;
    node.id = node.name = QStringLiteral("dgx1-1");
    node.ready = true;
    node.allocatable = node.allocated = 8000;
    core::Project project;
    project.source = kDiagnosisCluster;
    project.id = project.name = QStringLiteral("team-a");
    project.quota = project.allocated = project.fairShare = 4000;
    core::Job running = job(QStringLiteral("busy"), core::JobStatus::Running, 1000);
    running.gpusAllocated = 1000;
    running.gpuUtilization = 96;
    core::ComputePublish c;
    c.nodes = listOf<core::GpuNode>({node});
    c.projects = listOf<core::Project>({project});
    c.jobs = listOf<core::Job>({job(QStringLiteral("a-3-gg"), core::JobStatus::Pending, 2000), running});
    c.pvcs = listOf<core::Pvc>({});
    estate.publishCompute(kDiagnosisCluster, c);

    views::JobDetailPanel panel(&estate);
    panel.setJob(estate.jobs().find(kDiagnosisCluster, kDiagnosisCluster + QStringLiteral("/runai-team-a/a-3-gg")),
                 QDateTime());
    ASSERT_FALSE(panel.diagnosisBox()->isHidden());
    EXPECT_EQ(panel.diagnosisBox()->title(), QStringLiteral("Why pending?"));
    const views::DiagnosisView *view = panel.diagnosisView();
    EXPECT_EQ(view->diagnosis().verdict, core::Verdict::Pending);
    ASSERT_FALSE(view->findingLines().isEmpty());
    EXPECT_EQ(view->findingLines().front(),
              QStringLiteral("fair_share: Project team-a holds 4 of its 4 guaranteed GPUs and its fair share is 4; "
                             "this job asks for 2 more."));
    EXPECT_TRUE(view->headlineText().contains(QStringLiteral("a-3-gg")));
    EXPECT_TRUE(view->actionButton()->isHidden()); // waiting is nothing Strata can do
    EXPECT_FALSE(view->showsChart());

    // A busy running job needs no explanation: the section goes away.
    panel.setJob(estate.jobs().find(kDiagnosisCluster, kDiagnosisCluster + QStringLiteral("/runai-team-a/busy")),
                 QDateTime());
    EXPECT_TRUE(panel.diagnosisBox()->isHidden());
}

TEST(JobDiagnosisPanel, DataBoundJobChartsItsVolumeAndOffersTheLevelChange)
{
    core::Estate estate;
    core::Volume v;
    v.source = QStringLiteral("ai-lab");
    v.id = QStringLiteral("fs-1");
    v.name = QStringLiteral("criteo-data");
    v.armId = QStringLiteral("/x/criteo-data");
    v.throughputMibps = 16;
    estate.publishVolumes(v.source, listOf<core::Volume>({v}));
    core::Pvc pvc;
    pvc.source = kDiagnosisCluster;
    pvc.namespaceName = QStringLiteral("runai-team-a");
    pvc.name = QStringLiteral("criteo");
    pvc.id = QStringLiteral("runai-team-a/criteo");
    pvc.phase = QStringLiteral("Bound");
    pvc.storageSource = v.source;
    pvc.storageVolumeId = v.id;
    core::Job slow = job(QStringLiteral("slow"), core::JobStatus::Running, 1000);
    slow.gpusAllocated = 1000;
    slow.gpuUtilization = 58.1;
    slow.pvcs = {QStringLiteral("criteo")};
    core::ComputePublish c;
    c.jobs = listOf<core::Job>({slow});
    c.pvcs = listOf<core::Pvc>({pvc});
    estate.publishCompute(kDiagnosisCluster, c);

    views::JobDetailPanel panel(&estate);
    QSignalSpy wanted(&panel, &views::JobDetailPanel::volumeHistoryWanted);
    QSignalSpy level(&panel, &views::JobDetailPanel::changeServiceLevelRequested);
    panel.setJob(estate.jobs().find(kDiagnosisCluster, kDiagnosisCluster + QStringLiteral("/runai-team-a/slow")),
                 QDateTime());
    ASSERT_EQ(wanted.count(), 1);
    EXPECT_EQ(wanted.at(0).at(1).toString(), QStringLiteral("fs-1"));
    EXPECT_EQ(panel.diagnosisBox()->title(), QStringLiteral("Why idle?"));

    std::vector<core::VolumePerfSample> samples(2);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (int i = 0; i < 2; ++i) {
        samples[std::size_t(i)].volumeId = v.id;
        samples[std::size_t(i)].time = now.addSecs(-600 + 300 * i);
        samples[std::size_t(i)].throughputBps = 16.5e6;
        samples[std::size_t(i)].latencyUs = 2500;
    }
    panel.setVolumeHistory(v.source, v.id, samples);
    const views::DiagnosisView *view = panel.diagnosisView();
    EXPECT_EQ(view->diagnosis().verdict, core::Verdict::DataBound);
    EXPECT_TRUE(view->showsChart());
    ASSERT_EQ(view->throughputPoints().size(), 2);
    // Charted in MiB/s, the unit of Service levels (16.5 MB/s = 15.7 MiB/s).
    EXPECT_NEAR(view->throughputPoints().at(0).y(), 16.5e6 / 1048576.0, 1e-9);
    ASSERT_EQ(view->gpuPoints().size(), 1);
    EXPECT_DOUBLE_EQ(view->gpuPoints().front().y(), 58.1);
    ASSERT_FALSE(view->actionButton()->isHidden());
    EXPECT_EQ(view->actionButton()->text(), QStringLiteral("Change service level…"));
    view->actionButton()->click();
    ASSERT_EQ(level.count(), 1);
    EXPECT_EQ(level.at(0).at(0).toString(), QStringLiteral("ai-lab"));
    EXPECT_EQ(level.at(0).at(1).toString(), QStringLiteral("fs-1"));
}
