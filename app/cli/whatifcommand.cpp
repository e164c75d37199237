#include "app/cli/whatifcommand.h"

#include "app/cli/translate.h"
#include "models/core/domain/estate.h"
#include "models/core/planning/quotawhatif.h"
#include "models/core/runtime/engine.h"
#include "models/rows/rowsupport.h"
#include "models/rows/whatifrows.h"

#include <QJsonDocument>

namespace strata::cli {

namespace {

// The quota words after `what-if quota` and the --over-quota-weight values, parsed; the first
// malformed word is the error.
core::Result<QList<core::QuotaChange>> quotaChangesOf(const Invocation &in)
{
    QList<core::QuotaChange> changes;
    core::Error refused;
    const auto add = [&](const QString &word, bool weight) {
        const core::Result<core::QuotaChange> change = core::parseQuotaChange(word, weight);
        if (!change) {
            refused = change.error();
            return false;
        }
        for (core::QuotaChange &existing : changes) {
            if (existing.project == change->project) {
                existing.quota = change->quota ? change->quota : existing.quota;
                existing.overQuotaWeight = change->overQuotaWeight ? change->overQuotaWeight : existing.overQuotaWeight;
                return true;
            }
        }
        changes.append(*change);
        return true;
    };
    for (const QString &word : in.positional.mid(2)) {
        if (!add(word, false)) {
            return core::fail(refused);
        }
    }
    for (const QString &word : in.parser.values(in.flags.weight)) {
        if (!add(word, true)) {
            return core::fail(refused);
        }
    }
    return changes;
}

bool whatIfComplete(const Invocation &in)
{
    return in.positional.size() >= 2 && in.positional[1] == QLatin1String("quota")
           && (in.positional.size() > 2 || in.parser.isSet(in.flags.weight));
}

int whatIfCheck(const Invocation &in)
{
    if (in.format == rows::Format::Csv) {
        return in.console.fail(tr("what-if prints table or json"), 2);
    }
    if (const auto changes = quotaChangesOf(in); !changes) {
        return in.console.fail(changes.error().message, 2);
    }
    return 0;
}

QList<core::SourceKind> whatIfReads(const Invocation &)
{
    return {core::SourceKind::Kubernetes};
}

HistoryUse whatIfHistory(const Invocation &)
{
    return HistoryUse::None;
}

void writeWhatIfTable(const core::QuotaWhatIf &whatIf, QTextStream &out)
{
    out << tr("CLUSTER %1: %2 GPUs; quotas %3 → %4; spare GPUs split by %5")
               .arg(whatIf.cluster,
                    core::formatGpus(whatIf.capacity),
                    core::formatGpus(whatIf.quotaTotalBefore),
                    core::formatGpus(whatIf.quotaTotalAfter),
                    whatIf.byWeight ? tr("over-quota weight") : tr("quota"))
        << '\n';
    if (whatIf.quotaTotalAfter != whatIf.capacity) {
        out << tr("Note: the quotas add up to %1 GPUs, not the cluster's %2 (Run:ai expects them equal).")
                   .arg(core::formatGpus(whatIf.quotaTotalAfter), core::formatGpus(whatIf.capacity))
            << '\n';
    }
    out << '\n';
    rows::write(rows::whatIfProjectRows(whatIf), rows::Format::Table, out);

    core::QuotaWhatIf changes = whatIf;
    changes.jobs.clear();
    int keepsRunning = 0;
    int staysQueued = 0;
    for (const core::WhatIfJob &job : whatIf.jobs) {
        if (job.outcome == core::WhatIfJob::Outcome::KeepsRunning) {
            ++keepsRunning;
        } else if (job.outcome == core::WhatIfJob::Outcome::StaysQueued) {
            ++staysQueued;
            changes.jobs.append(job);
        } else {
            changes.jobs.append(job);
        }
    }
    out << '\n';
    if (changes.jobs.isEmpty()) {
        out << tr("No job would start or be preempted.") << '\n';
    } else {
        rows::write(rows::whatIfJobRows(changes), rows::Format::Table, out);
    }
    out << '\n'
        << tr("Unchanged: %1 running, %2 queued. Nothing was changed: apply quotas in Run:ai or with kubectl edit "
              "queue.")
               .arg(keepsRunning)
               .arg(staysQueued)
        << '\n';
    for (const QString &note : whatIf.notes) {
        out << tr("Note: %1").arg(note) << '\n';
    }
}

int answerWhatIf(const Invocation &in, Polled &polled)
{
    const core::Estate &estate = polled.engine.estate();
    QStringList clusters;
    for (const QString &source : polled.listed) {
        if (!rows::collectRows(estate.gpuClusters(), {source}).empty()) {
            clusters.append(source);
        }
    }
    if (clusters.isEmpty()) {
        return in.console.fail(tr("no GPU cluster answered (%1)").arg(polled.listed.join(QStringLiteral(", "))), 1);
    }
    if (clusters.size() > 1) {
        return in.console.fail(
            tr("several GPU clusters (%1): choose one with --source").arg(clusters.join(QStringLiteral(", "))), 2);
    }
    const QString &cluster = clusters.constFirst();
    const core::Result<core::QuotaWhatIf> whatIf = core::predictQuotaChange(estate, cluster, *quotaChangesOf(in));
    if (!whatIf) {
        return in.console.fail(whatIf.error().message, 1);
    }
    if (in.format == rows::Format::Json) {
        in.console.out << QJsonDocument(rows::whatIfToJson(*whatIf)).toJson(QJsonDocument::Indented);
    } else {
        writeWhatIfTable(*whatIf, in.console.out);
    }
    return polled.exitCode;
}

} // namespace

Command whatIfCommand()
{
    static const char *const usage = QT_TRANSLATE_NOOP(
        "cli",
        "[--config PATH | --demo] what-if quota PROJECT=GPUS... [--over-quota-weight PROJECT=W]... [--source NAME] "
        "[-o table|json]");
    return Command{"what-if",
                   usage,
                   whatIfComplete,
                   whatIfCheck,
                   noOfflineAnswer,
                   whatIfReads,
                   whatIfHistory,
                   false,
                   pollsFirst,
                   answerWhatIf};
}

} // namespace strata::cli
