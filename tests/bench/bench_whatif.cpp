// Quota what-if benchmark: a cluster of N jobs on M 8-GPU nodes over P projects, settled by the
// core allocator, then one what-if that halves the largest project's quota and gives it to the
// others (reclaims and starts). Prints wall times; figures for the notes, never pass/fail timing.
//
//   strata_whatif_bench [--jobs N] [--nodes M] [--projects P]
#include "models/core/planning/gpuallocator.h"
#include "models/core/planning/quotawhatif.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

using namespace strata::core;
using BenchClock = std::chrono::steady_clock;

namespace {

double msSince(BenchClock::time_point start)
{
    return std::chrono::duration<double, std::milli>(BenchClock::now() - start).count();
}

} // namespace

int main(int argc, char **argv)
{
    int jobs = 20000;
    int nodes = 1000;
    int projectCount = 20;
    for (int i = 1; i + 1 < argc; i += 2) {
        const int value = std::atoi(argv[i + 1]);
        if (std::strcmp(argv[i], "--jobs") == 0) {
            jobs = value;
        } else if (std::strcmp(argv[i], "--nodes") == 0) {
            nodes = value;
        } else if (std::strcmp(argv[i], "--projects") == 0) {
            projectCount = value;
        } else {
            std::fprintf(stderr, "usage: strata_whatif_bench [--jobs N] [--nodes M] [--projects P]\n");
            return 2;
        }
    }
    const QString cluster = QStringLiteral("bench");
    std::mt19937 random(4858);
    const MilliGpu sizes[] = {250, 500, 1000, 1000, 2000, 4000, 8000};
    const MilliGpu capacity = MilliGpu(nodes) * 8000;

    // Live state: the allocator settles a submitted workload; its result becomes the estate rows.
    auto start = BenchClock::now();
    GpuAllocator live;
    QList<GpuAllocator::Node> nodeList;
    QList<GpuNode> nodeRows;
    for (int n = 0; n < nodes; ++n) {
        const QString name = QStringLiteral("node-%1").arg(n, 5, 10, QLatin1Char('0'));
        nodeList.append({name, 8, true});
        GpuNode row;
        row.source = cluster;
        row.id = row.name = name;
        row.gpuCount = 8;
        row.allocatable = 8000;
        row.ready = true;
        nodeRows.append(row);
    }
    live.setNodes(nodeList);
    QList<Project> projects;
    for (int p = 0; p < projectCount; ++p) {
        Project row;
        row.source = cluster;
        row.id = row.name = QStringLiteral("team-%1").arg(p);
        row.quota = capacity / projectCount;
        projects.append(row);
        live.setQuota(row.name, row.quota);
    }
    for (int j = 0; j < jobs; ++j) {
        const QString project = projects[std::uniform_int_distribution<int>(0, projectCount - 1)(random)].name;
        live.submit({project + QStringLiteral("/job-%1").arg(j),
                     project,
                     sizes[std::uniform_int_distribution<int>(0, 6)(random)],
                     JobType::Train,
                     quint64(j + 1)});
    }
    live.settle();
    std::printf("settle %d jobs on %d nodes (%d projects): %10.1f ms\n", jobs, nodes, projectCount, msSince(start));

    QList<Job> jobRows;
    const QDateTime epoch = QDateTime::fromSecsSinceEpoch(1'700'000'000, Qt::UTC);
    int running = 0;
    for (const auto &state : live.jobs()) {
        Job row;
        row.source = cluster;
        row.id = state.spec.id;
        row.name = row.id.section(QLatin1Char('/'), -1);
        row.project = state.spec.project;
        row.gpusRequested = state.spec.gpus;
        row.created = epoch.addSecs(qint64(state.spec.submitOrder));
        if (state.running) {
            ++running;
            row.status = JobStatus::Running;
            row.node = state.node;
            QStringList indices;
            for (const int i : state.indices) {
                indices.append(QString::number(i));
            }
            row.gpuIndices = indices.join(QLatin1Char(','));
            row.started = epoch.addSecs(1'000'000 + qint64(state.startOrder));
        } else {
            row.status = JobStatus::Pending;
        }
        jobRows.append(row);
    }
    std::printf("running %d, queued %d\n", running, jobs - running);

    QList<QuotaChange> changes;
    changes.append({projects[0].name, projects[0].quota / 2, std::nullopt});
    changes.append({projects[1].name, projects[1].quota + projects[0].quota / 2, std::nullopt});
    start = BenchClock::now();
    const Result<QuotaWhatIf> outcome = predictQuotaChange(cluster, nodeRows, projects, jobRows, changes);
    const double ms = msSince(start);
    if (!outcome) {
        std::fprintf(stderr, "what-if failed: %s\n", qPrintable(outcome.error().message));
        return 1;
    }
    int starts = 0;
    int preempted = 0;
    for (const auto &job : outcome->jobs) {
        starts += job.outcome == WhatIfJob::Outcome::Starts ? 1 : 0;
        preempted += job.outcome == WhatIfJob::Outcome::Preempted ? 1 : 0;
    }
    std::printf("what-if (2 quota changes): %10.1f ms; %d would start, %d would be preempted\n", ms, starts, preempted);
    return 0;
}
