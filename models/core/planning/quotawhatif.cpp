#include "models/core/planning/quotawhatif.h"

#include "models/core/domain/estate.h"
#include "models/core/domain/translate.h"
#include "models/core/planning/diagnosis.h"
#include "models/core/planning/gpuallocator.h"

#include <QJsonObject>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace strata::core {

namespace {

QList<int> parsedIndices(const QString &text)
{
    QList<int> out;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int index = part.trimmed().toInt(&ok);
        if (!ok) {
            return {};
        }
        out.append(index);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Creation order, then id: the FIFO the queue keeps (R9).
QList<const Job *> inSubmitOrder(const QList<Job> &jobs, const QString &cluster)
{
    QList<const Job *> out;
    for (const Job &job : jobs) {
        if (job.source == cluster && job.gpusRequested > 0 && (holdsGpus(job) || waitsForGpus(job))) {
            out.append(&job);
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const Job *a, const Job *b) {
        if (a->created != b->created) {
            return a->created < b->created;
        }
        return a->id < b->id;
    });
    return out;
}

struct Loaded
{
    GpuAllocator allocator;
    QStringList notes;
};

Loaded loadCluster(const QString &cluster,
                   const QList<GpuNode> &nodes,
                   const QList<Project> &projects,
                   const QList<const Job *> &jobs,
                   const QHash<QString, QString> &blocked)
{
    Loaded loaded;
    QList<GpuAllocator::Node> allocatorNodes;
    for (const GpuNode &node : nodes) {
        if (node.source == cluster && node.gpuCount > 0) {
            allocatorNodes.append({node.name, node.gpuCount, node.ready && node.schedulable});
        }
    }
    loaded.allocator.setNodes(allocatorNodes);
    for (const Project &project : projects) {
        if (project.source == cluster) {
            loaded.allocator.setQuota(project.name, std::max<MilliGpu>(0, project.quota));
        }
    }
    // Bound jobs first, in start order, so first-fit of jobs without known indices sees the others.
    QList<const Job *> bound;
    for (const Job *job : jobs) {
        if (holdsGpus(*job)) {
            bound.append(job);
        }
    }
    std::stable_sort(bound.begin(), bound.end(), [](const Job *a, const Job *b) {
        return a->started < b->started;
    });
    QHash<QString, quint64> submitOrder;
    for (qsizetype i = 0; i < jobs.size(); ++i) {
        submitOrder.insert(jobs[i]->id, quint64(i + 1));
    }
    quint64 startOrder = 1;
    for (const Job *job : bound) {
        GpuAllocator::JobSpec spec{job->id, job->project, job->gpusRequested, job->type, submitOrder.value(job->id)};
        if (!loaded.allocator.bind(spec, job->node, parsedIndices(job->gpuIndices), startOrder++)) {
            loaded.notes.append(tr("%1 holds GPUs on %2 that Strata cannot place; left out")
                                    .arg(job->id, job->node.isEmpty() ? tr("an unknown node") : job->node));
        }
    }
    for (const Job *job : jobs) {
        if (waitsForGpus(*job) && !blocked.contains(job->id)) {
            GpuAllocator::JobSpec spec{
                job->id, job->project, job->gpusRequested, job->type, submitOrder.value(job->id)};
            loaded.allocator.submit(spec, job->status == JobStatus::Preempted);
        }
    }
    return loaded;
}

} // namespace

Result<QuotaWhatIf> predictQuotaChange(const QString &cluster,
                                       const QList<GpuNode> &nodes,
                                       const QList<Project> &projects,
                                       const QList<Job> &jobs,
                                       const QList<QuotaChange> &changes,
                                       const QHash<QString, QString> &blocked)
{
    QSet<QString> known;
    QHash<QString, double> weights;
    for (const Project &project : projects) {
        if (project.source == cluster) {
            known.insert(project.name);
            weights.insert(project.name, project.overQuotaWeight);
        }
    }
    if (known.isEmpty()) {
        return fail(Error::make(
            Error::Kind::NotFound,
            tr("%1 has no projects: it is not a GPU cluster, or its first poll has not landed").arg(cluster)));
    }
    bool byWeight = false;
    for (const QuotaChange &change : changes) {
        if (!known.contains(change.project)) {
            return fail(Error::make(Error::Kind::NotFound, tr("%1 has no project %2").arg(cluster, change.project)));
        }
        if ((change.quota && *change.quota < 0) || (change.overQuotaWeight && *change.overQuotaWeight < 0)) {
            return fail(
                Error::invalid(change.quota && *change.quota < 0 ? QStringLiteral("quota") : QStringLiteral("weight"),
                               tr("A quota or weight cannot be negative (%1)").arg(change.project)));
        }
        byWeight = byWeight || change.overQuotaWeight.has_value();
    }

    const QList<const Job *> ordered = inSubmitOrder(jobs, cluster);
    Loaded before = loadCluster(cluster, nodes, projects, ordered, blocked);
    Loaded after = loadCluster(cluster, nodes, projects, ordered, blocked);
    for (const QuotaChange &change : changes) {
        if (change.quota) {
            after.allocator.setQuota(change.project, *change.quota);
        }
        if (change.overQuotaWeight) {
            weights.insert(change.project, *change.overQuotaWeight);
        }
    }
    if (byWeight) {
        after.allocator.setOverQuotaWeights(weights);
    }
    after.allocator.settle();

    QuotaWhatIf result;
    result.cluster = cluster;
    result.capacity = after.allocator.capacity();
    result.byWeight = byWeight;
    result.notes = before.notes;

    const auto beforeProjects = before.allocator.projects();
    QHash<QString, GpuAllocator::ProjectState> beforeByName;
    for (const auto &p : beforeProjects) {
        beforeByName.insert(p.name, p);
        result.quotaTotalBefore += p.quota;
    }
    QList<WhatIfJob> changed;
    QList<WhatIfJob> unchanged;
    QHash<QString, int> starts;
    QHash<QString, int> preempted;
    const QHash<QString, QString> reasons = after.allocator.pendingReasons();
    for (const auto &state : after.allocator.jobs()) {
        const GpuAllocator::JobState *was = before.allocator.job(state.spec.id);
        WhatIfJob row;
        row.id = state.spec.id;
        row.name = row.id.section(QLatin1Char('/'), -1);
        row.project = state.spec.project;
        row.type = state.spec.type;
        row.gpus = state.spec.gpus;
        if (state.running) {
            row.outcome = was && was->running ? WhatIfJob::Outcome::KeepsRunning : WhatIfJob::Outcome::Starts;
            row.node = state.node;
        } else if (was && was->running) {
            row.outcome = WhatIfJob::Outcome::Preempted;
            row.node = was->node;
            row.reason = reasons.value(row.id);
        } else {
            row.outcome = WhatIfJob::Outcome::StaysQueued;
            row.reason = reasons.value(row.id);
        }
        if (row.outcome == WhatIfJob::Outcome::Starts) {
            ++starts[row.project];
        } else if (row.outcome == WhatIfJob::Outcome::Preempted) {
            ++preempted[row.project];
        }
        const bool isChange = row.outcome == WhatIfJob::Outcome::Starts || row.outcome == WhatIfJob::Outcome::Preempted;
        (isChange ? changed : unchanged).append(row);
    }
    // Jobs held by their PVC or image wait whatever the quotas: listed with that reason.
    QHash<QString, int> held;
    for (const Job *job : ordered) {
        if (waitsForGpus(*job) && blocked.contains(job->id)) {
            WhatIfJob row;
            row.id = job->id;
            row.name = row.id.section(QLatin1Char('/'), -1);
            row.project = job->project;
            row.type = job->type;
            row.gpus = job->gpusRequested;
            row.outcome = WhatIfJob::Outcome::StaysQueued;
            row.reason = blocked.value(job->id);
            unchanged.append(row);
            ++held[job->project];
        }
    }
    std::stable_sort(changed.begin(), changed.end(), [](const WhatIfJob &a, const WhatIfJob &b) {
        return a.outcome == WhatIfJob::Outcome::Preempted && b.outcome != WhatIfJob::Outcome::Preempted;
    });
    result.jobs = changed + unchanged;

    for (const auto &p : after.allocator.projects()) {
        const auto was = beforeByName.value(p.name);
        WhatIfProject row;
        row.project = p.name;
        row.quotaBefore = was.quota;
        row.quotaAfter = p.quota;
        row.allocatedBefore = was.allocated;
        row.allocatedAfter = p.allocated;
        row.fairShareBefore = was.fairShare;
        row.fairShareAfter = p.fairShare;
        row.queuedBefore = was.queued + held.value(p.name);
        row.queuedAfter = p.queued + held.value(p.name);
        row.starts = starts.value(p.name);
        row.preempted = preempted.value(p.name);
        result.quotaTotalAfter += p.quota;
        result.projects.append(row);
    }
    return result;
}

namespace {

template <class T> QList<T> rowsOfScope(const Table<T> &table, const QString &scope)
{
    QList<T> out;
    if (const auto list = table.scope(scope)) {
        for (const auto &row : list->items()) {
            out.append(*row);
        }
    }
    return out;
}

} // namespace

QuotaWhatIfInput quotaWhatIfInput(const Estate &estate, const QString &cluster)
{
    QuotaWhatIfInput in{rowsOfScope(estate.gpuNodes(), cluster),
                        rowsOfScope(estate.projects(), cluster),
                        rowsOfScope(estate.jobs(), cluster),
                        {}};
    std::sort(in.projects.begin(), in.projects.end(), [](const Project &a, const Project &b) {
        return a.name < b.name;
    });
    // The diagnosis decides what holds a waiting job, here as for `why`: one answer for both.
    for (const Job &job : std::as_const(in.jobs)) {
        if (!waitsForGpus(job)) {
            continue;
        }
        const JobDiagnosis d = diagnosePending(estate, cluster, job.id);
        if (!d.findings.isEmpty()
            && (d.findings.front().rule == QLatin1String("pvc_unbound")
                || d.findings.front().rule == QLatin1String("image_pull"))) {
            in.blocked.insert(job.id, d.findings.front().summary);
        }
    }
    return in;
}

Result<QuotaWhatIf> predictQuotaChange(const Estate &estate, const QString &cluster, const QList<QuotaChange> &changes)
{
    const QuotaWhatIfInput in = quotaWhatIfInput(estate, cluster);
    return predictQuotaChange(cluster, in.nodes, in.projects, in.jobs, changes, in.blocked);
}

Result<QList<QuotaChange>>
quotaChangesFromJson(const QJsonObject &body, const QString &cluster, const QSet<QString> &projects)
{
    QList<QuotaChange> changes;
    QHash<QString, qsizetype> at; // project -> index in changes
    for (const bool weight : {false, true}) {
        const QString key = weight ? QStringLiteral("weights") : QStringLiteral("quotas");
        const QJsonValue member = body.value(key);
        if (member.isUndefined() || member.isNull()) {
            continue;
        }
        if (!member.isObject()) {
            return fail(Error::invalid(key, tr("%1 must be an object").arg(key)));
        }
        const QJsonObject members = member.toObject();
        for (auto it = members.begin(); it != members.end(); ++it) {
            const QString project = it.key();
            if (!projects.contains(project)) {
                return fail(Error::make(Error::Kind::NotFound, tr("%1 has no project %2").arg(cluster, project)));
            }
            const double value = it.value().toDouble(-1);
            if (!it.value().isDouble() || !std::isfinite(value) || value < 0 || value > 1e6) {
                return fail(Error::invalid(key, tr("%1.%2 must be a number >= 0").arg(key, project)));
            }
            auto found = at.constFind(project);
            if (found == at.constEnd()) {
                found = at.insert(project, changes.size());
                changes.append(QuotaChange{project, std::nullopt, std::nullopt});
            }
            QuotaChange &change = changes[*found];
            if (weight) {
                change.overQuotaWeight = value;
            } else {
                change.quota = MilliGpu(std::llround(value * 1000.0));
            }
        }
    }
    return changes;
}

Result<QuotaChange> parseQuotaChange(const QString &word, bool weight)
{
    const qsizetype eq = word.indexOf(QLatin1Char('='));
    bool ok = false;
    const double value = eq > 0 ? word.mid(eq + 1).toDouble(&ok) : 0;
    if (eq <= 0 || !ok || !std::isfinite(value) || value < 0 || value > 1e6) {
        return fail(Error::invalid(
            weight ? QStringLiteral("weight") : QStringLiteral("quota"),
            weight ? tr("\"%1\" is not PROJECT=WEIGHT (a number >= 0, e.g. team-b=3)").arg(word)
                   : tr("\"%1\" is not PROJECT=GPUS (a number >= 0, e.g. team-d=8 or team-b=2.5)").arg(word)));
    }
    QuotaChange change;
    change.project = word.left(eq);
    if (weight) {
        change.overQuotaWeight = value;
    } else {
        change.quota = MilliGpu(std::llround(value * 1000.0));
    }
    return change;
}

} // namespace strata::core
