// core::stackAllocation: GPUs allocated per project over time as the bands of a stacked-area
// chart, with the sum of the quotas as a line.
#include "models/core/planning/allocationstack.h"

#include <QTimeZone>

#include <gtest/gtest.h>

namespace strata {

namespace {

core::ProjectSample
allocationStackSample(const QString &project, const QDateTime &time, core::MilliGpu allocated, core::MilliGpu quota)
{
    core::ProjectSample s;
    s.project = project;
    s.time = time;
    s.allocated = allocated;
    s.quota = quota;
    return s;
}

} // namespace

TEST(AllocationStack, ProjectsHoldingTheSameCountGetBandsOfTheirOwn)
{
    // Four projects holding 2 GPUs each (drawn as lines they lie on one another).
    const QDateTime t0(QDate(2026, 11, 20), QTime(10, 0), QTimeZone::utc());
    std::vector<core::ProjectSample> samples;
    for (const char *name : {"team-d", "team-b", "team-a", "team-c"}) {
        samples.push_back(allocationStackSample(QString::fromLatin1(name), t0, 2000, 2000));
    }
    const QDateTime to = t0.addSecs(3600);
    const core::AllocationStack stack = core::stackAllocation(samples, to);
    ASSERT_EQ(
        stack.projects,
        (QStringList{
            QStringLiteral("team-a"), QStringLiteral("team-b"), QStringLiteral("team-c"), QStringLiteral("team-d")}));
    ASSERT_EQ(stack.times, (std::vector<QDateTime>{t0, to}));
    for (int p = 0; p < 4; ++p) {
        EXPECT_EQ(stack.allocated[p], (std::vector<core::MilliGpu>{2000, 2000}));
        EXPECT_EQ(stack.bottom(p, 0), 2000 * p);
        EXPECT_EQ(stack.top[p][0], 2000 * (p + 1)) << "band " << p << " sits on the ones below";
    }
    EXPECT_EQ(stack.total(1), 8000);
    EXPECT_EQ(stack.quota, (std::vector<core::MilliGpu>{8000, 8000}));
    EXPECT_EQ(stack.peak(), 8000);
}

TEST(AllocationStack, StepsHoldEachProjectsLastValueAndLiveValuesEndTheStack)
{
    const QDateTime t0(QDate(2026, 11, 20), QTime(10, 0), QTimeZone::utc());
    std::vector<core::ProjectSample> samples{
        allocationStackSample(QStringLiteral("a"), t0, 1000, 4000),
        allocationStackSample(QStringLiteral("a"), t0.addSecs(600), 3000, 4000),
        // b starts later and has no quota; it counts 0 before its first sample.
        allocationStackSample(QStringLiteral("b"), t0.addSecs(300), 500, -1),
    };
    core::Project live;
    live.name = QStringLiteral("b");
    live.allocated = 1500;
    live.quota = 2000;
    const QDateTime to = t0.addSecs(900);
    const core::AllocationStack stack = core::stackAllocation(samples, to, {live});
    ASSERT_EQ(stack.times, (std::vector<QDateTime>{t0, t0.addSecs(300), t0.addSecs(600), to}));
    EXPECT_EQ(stack.allocated[0], (std::vector<core::MilliGpu>{1000, 1000, 3000, 3000}));
    EXPECT_EQ(stack.allocated[1], (std::vector<core::MilliGpu>{0, 500, 500, 1500}));
    EXPECT_EQ(stack.top[1], (std::vector<core::MilliGpu>{1000, 1500, 3500, 4500}));
    EXPECT_EQ(stack.quota, (std::vector<core::MilliGpu>{4000, 4000, 4000, 6000}));
    EXPECT_EQ(stack.indexAt(t0.addSecs(-1)), -1);
    EXPECT_EQ(stack.indexAt(t0.addSecs(450)), 1);
    EXPECT_EQ(stack.indexAt(to.addSecs(60)), 3);
    EXPECT_EQ(stack.peak(), 6000);

    EXPECT_TRUE(core::stackAllocation({}, to).isEmpty());
    const core::AllocationStack noQuota =
        core::stackAllocation({allocationStackSample(QStringLiteral("x"), t0, 1000, -1)}, to);
    EXPECT_TRUE(noQuota.quota.empty());
    EXPECT_EQ(noQuota.total(1), 1000);
}

} // namespace strata
