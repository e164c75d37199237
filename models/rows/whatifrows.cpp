#include "models/rows/whatifrows.h"

#include "models/core/domain/format.h"
#include "models/rows/rowsupport.h"

#include <QJsonArray>

namespace strata::rows {

namespace {

QString beforeAfter(const QString &before, const QString &after)
{
    return before == after ? after : before + QStringLiteral(" → ") + after;
}

QString gpusBeforeAfter(core::MilliGpu before, core::MilliGpu after)
{
    return beforeAfter(core::formatGpus(before), core::formatGpus(after));
}

} // namespace

QString whatIfOutcomeName(core::WhatIfJob::Outcome outcome)
{
    switch (outcome) {
    case core::WhatIfJob::Outcome::Preempted:
        return QStringLiteral("preempted");
    case core::WhatIfJob::Outcome::Starts:
        return QStringLiteral("starts");
    case core::WhatIfJob::Outcome::StaysQueued:
        return QStringLiteral("stays_queued");
    case core::WhatIfJob::Outcome::KeepsRunning:
        break;
    }
    return QStringLiteral("keeps_running");
}

ResultSet whatIfProjectRows(const core::QuotaWhatIf &whatIf)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("project"), QStringLiteral("PROJECT")},
                  {QStringLiteral("quota_before"), QString()},
                  {QStringLiteral("quota_after"), QStringLiteral("QUOTA")},
                  {QStringLiteral("allocated_before"), QString()},
                  {QStringLiteral("allocated_after"), QStringLiteral("ALLOCATED")},
                  {QStringLiteral("fair_share_before"), QString()},
                  {QStringLiteral("fair_share_after"), QStringLiteral("FAIR SHARE")},
                  {QStringLiteral("queued_before"), QString()},
                  {QStringLiteral("queued_after"), QStringLiteral("QUEUED")},
                  {QStringLiteral("starts"), QStringLiteral("STARTS")},
                  {QStringLiteral("preempted"), QStringLiteral("PREEMPTED")}};
    for (const core::WhatIfProject &p : whatIf.projects) {
        rs.addRow({p.project,
                   gpuNumber(p.quotaBefore),
                   gpuNumber(p.quotaAfter),
                   gpuNumber(p.allocatedBefore),
                   gpuNumber(p.allocatedAfter),
                   gpuNumber(p.fairShareBefore),
                   gpuNumber(p.fairShareAfter),
                   p.queuedBefore,
                   p.queuedAfter,
                   p.starts,
                   p.preempted},
                  {p.project,
                   QString(),
                   gpusBeforeAfter(p.quotaBefore, p.quotaAfter),
                   QString(),
                   gpusBeforeAfter(p.allocatedBefore, p.allocatedAfter),
                   QString(),
                   gpusBeforeAfter(p.fairShareBefore, p.fairShareAfter),
                   QString(),
                   beforeAfter(QString::number(p.queuedBefore), QString::number(p.queuedAfter)),
                   QString::number(p.starts),
                   QString::number(p.preempted)});
    }
    return rs;
}

ResultSet whatIfJobRows(const core::QuotaWhatIf &whatIf)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("job"), QString()},
                  {QStringLiteral("name"), QStringLiteral("JOB")},
                  {QStringLiteral("project"), QStringLiteral("PROJECT")},
                  {QStringLiteral("type"), QStringLiteral("TYPE")},
                  {QStringLiteral("gpus"), QStringLiteral("GPUS")},
                  {QStringLiteral("outcome"), QStringLiteral("OUTCOME")},
                  {QStringLiteral("node"), QStringLiteral("NODE")},
                  {QStringLiteral("reason"), QStringLiteral("REASON")}};
    for (const core::WhatIfJob &job : whatIf.jobs) {
        const QString outcome = whatIfOutcomeName(job.outcome);
        rs.addRow({job.id,
                   job.name,
                   job.project,
                   core::jobTypeName(job.type),
                   gpuNumber(job.gpus),
                   outcome,
                   job.node,
                   job.reason},
                  {QString(),
                   job.name,
                   job.project,
                   core::jobTypeName(job.type),
                   core::formatGpus(job.gpus),
                   outcome,
                   job.node.isEmpty() ? QStringLiteral("-") : job.node,
                   job.reason.isEmpty() ? QStringLiteral("-") : job.reason});
    }
    return rs;
}

QJsonObject whatIfToJson(const core::QuotaWhatIf &whatIf)
{
    return QJsonObject{
        {QStringLiteral("cluster"), whatIf.cluster},
        {QStringLiteral("capacity_gpus"), gpuNumber(whatIf.capacity).toDouble()},
        {QStringLiteral("quota_total_before"), gpuNumber(whatIf.quotaTotalBefore).toDouble()},
        {QStringLiteral("quota_total_after"), gpuNumber(whatIf.quotaTotalAfter).toDouble()},
        {QStringLiteral("spare_split"),
         whatIf.byWeight ? QStringLiteral("over_quota_weight") : QStringLiteral("quota")},
        {QStringLiteral("projects"), toJson(whatIfProjectRows(whatIf))},
        {QStringLiteral("jobs"), toJson(whatIfJobRows(whatIf))},
        {QStringLiteral("notes"), QJsonArray::fromStringList(whatIf.notes)},
    };
}

} // namespace strata::rows
