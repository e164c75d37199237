#pragma once

#include "models/core/domain/format.h"
#include "models/core/domain/records.h"
#include "models/core/store/historystore.h"

#include <QDateTime>
#include <QList>
#include <QStringList>

#include <vector>

namespace strata::core {

/// GPUs allocated per project over time, stacked: the data of a stacked-area chart with the
/// quota as a line (Run:ai's and Grafana's "allocation by project"). Projects holding the same
/// count get bands of their own instead of lines drawn over each other, and the top of the
/// stack is the cluster's total. All figures are milli-GPUs at the times in `times`; each
/// value holds until the next time (step series).
struct AllocationStack
{
    std::vector<QDateTime> times; ///< ascending, UTC: every sample time, then `to`
    QStringList projects;         ///< bottom of the stack first (by name)
    /// allocated[p][t]: what projects[p] holds at times[t] (its latest sample at or before it;
    /// 0 before its first).
    std::vector<std::vector<MilliGpu>> allocated;
    /// top[p][t]: upper edge of project p's band, the sum of allocated[0..p][t]. Its band spans
    /// [top[p-1][t], top[p][t]] (from 0 for the first project); top.back() is the total.
    std::vector<std::vector<MilliGpu>> top;
    /// quota[t]: the sum of the quotas in force at times[t] (projects that have one); empty
    /// when no project ever has a quota.
    std::vector<MilliGpu> quota;

    [[nodiscard]] bool isEmpty() const { return times.empty() || projects.isEmpty(); }
    /// Lower edge of project p's band at time index t (0 for the bottom project).
    [[nodiscard]] MilliGpu bottom(int project, int time) const;
    /// Every project together at time index t.
    [[nodiscard]] MilliGpu total(int time) const;
    /// Index of the step in force at `time` (the latest time at or before it), -1 before the
    /// first, the last index after the last.
    [[nodiscard]] int indexAt(const QDateTime &time) const;
    /// The greatest top or quota (milli-GPUs), 0 when empty: the value axis must reach it.
    [[nodiscard]] MilliGpu peak() const;
};

/// Stacks `samples` (HistoryService order or any order; each stored only on change) of one
/// cluster's projects. `current` (optional) are the live projects, counted at `to` so the
/// stack reaches the present; `to` invalid: the stack ends at the last sample.
AllocationStack
stackAllocation(const std::vector<ProjectSample> &samples, const QDateTime &to, const QList<Project> &current = {});

} // namespace strata::core
