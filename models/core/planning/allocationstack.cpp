#include "models/core/planning/allocationstack.h"

#include <algorithm>
#include <map>

namespace strata::core {

MilliGpu AllocationStack::bottom(int project, int time) const
{
    return project <= 0 ? 0 : top[std::size_t(project - 1)][std::size_t(time)];
}

MilliGpu AllocationStack::total(int time) const
{
    return top.empty() ? 0 : top.back()[std::size_t(time)];
}

int AllocationStack::indexAt(const QDateTime &time) const
{
    const auto after = std::upper_bound(times.cbegin(), times.cend(), time);
    return int(after - times.cbegin()) - 1;
}

MilliGpu AllocationStack::peak() const
{
    MilliGpu peak = 0;
    for (std::size_t t = 0; t < times.size(); ++t) {
        peak = std::max(peak, top.empty() ? 0 : top.back()[t]);
        if (!quota.empty()) {
            peak = std::max(peak, quota[t]);
        }
    }
    return peak;
}

AllocationStack
stackAllocation(const std::vector<ProjectSample> &samples, const QDateTime &to, const QList<Project> &current)
{
    struct Change
    {
        MilliGpu allocated = 0;
        MilliGpu quota = -1;
    };
    // project -> time -> value; a later sample at the same time wins.
    std::map<QString, std::map<QDateTime, Change>> byProject;
    std::vector<QDateTime> times;
    for (const ProjectSample &s : samples) {
        byProject[s.project][s.time] = {s.allocated, s.quota};
        times.push_back(s.time);
    }
    if (to.isValid()) {
        for (const Project &p : current) {
            auto &changes = byProject[p.name];
            if (changes.empty() || changes.rbegin()->first < to) {
                changes[to] = {p.allocated, p.quota};
            }
        }
        if (!byProject.empty()) {
            times.push_back(to);
        }
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    if (to.isValid()) {
        // Samples stamped after `to` (clock skew between recorder and reader) end at `to`.
        times.erase(std::upper_bound(times.begin(), times.end(), to), times.end());
    }

    AllocationStack stack;
    stack.times = times;
    bool anyQuota = false;
    std::vector<MilliGpu> quota(times.size(), 0);
    for (const auto &[project, changes] : byProject) {
        stack.projects << project;
        std::vector<MilliGpu> allocated(times.size(), 0);
        auto next = changes.cbegin();
        Change held;
        bool started = false;
        for (std::size_t t = 0; t < times.size(); ++t) {
            while (next != changes.cend() && next->first <= times[t]) {
                held = next->second;
                started = true;
                ++next;
            }
            if (!started) {
                continue;
            }
            allocated[t] = held.allocated;
            if (held.quota >= 0) {
                quota[t] += held.quota;
                anyQuota = true;
            }
        }
        std::vector<MilliGpu> top = allocated;
        if (!stack.top.empty()) {
            for (std::size_t t = 0; t < times.size(); ++t) {
                top[t] += stack.top.back()[t];
            }
        }
        stack.allocated.push_back(std::move(allocated));
        stack.top.push_back(std::move(top));
    }
    if (anyQuota) {
        stack.quota = std::move(quota);
    }
    return stack;
}

} // namespace strata::core
