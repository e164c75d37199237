#include "app/cli/whycommand.h"

#include "app/cli/actionrun.h"
#include "app/cli/translate.h"
#include "models/core/domain/estate.h"
#include "models/core/planning/diagnosis.h"
#include "models/core/runtime/engine.h"

#include <QCoreApplication>
#include <QJsonDocument>

namespace strata::cli {

namespace {

struct Match
{
    QString source;
    QString jobId;
};

QList<Match> findJobs(const core::Estate &estate, const QString &job, const QStringList &sources)
{
    QList<Match> matches;
    for (const QString &source : sources) {
        const auto jobs = estate.jobs().scope(source);
        if (!jobs) {
            continue;
        }
        for (const core::Ptr<core::Job> &j : jobs->items()) {
            if (j->id == job || (!job.contains(QLatin1Char('/')) && j->name == job)) {
                matches.append({source, j->id});
            }
        }
    }
    return matches;
}

QString cell(double value, int decimals = 1)
{
    return value < 0 ? QStringLiteral("-") : QString::number(value, 'f', decimals);
}

// The diagnosis holds MB/s (10^6 B/s, its JSON); the table uses Strata's units like every page.
QString rateCell(double megabytesPerSecond)
{
    return megabytesPerSecond < 0 ? QStringLiteral("-") : core::formatRate(megabytesPerSecond * 1e6);
}

void writeTable(const core::JobDiagnosis &d, QTextStream &out)
{
    out << tr("JOB:      %1 (%2)").arg(d.jobId, d.source) << '\n';
    out << tr("STATUS:   %1, %2 %3 GPU")
               .arg(core::jobStatusName(d.status), core::jobTypeName(d.type), core::formatGpus(d.gpus))
        << '\n';
    out << tr("VERDICT:  %1").arg(core::verdictName(d.verdict)) << '\n';
    out << '\n' << d.headline << '\n';
    if (!d.findings.isEmpty()) {
        out << '\n' << tr("FINDINGS (decisive first)") << '\n';
        int n = 0;
        for (const core::DiagnosisFinding &f : d.findings) {
            out << QStringLiteral("%1. [%2] %3").arg(++n).arg(f.rule, f.summary) << '\n';
            if (!f.action.isEmpty()) {
                out << QStringLiteral("   -> ") << f.action << '\n';
            }
        }
    }
    if (!d.nextAction.isEmpty()) {
        out << '\n' << tr("NEXT:     %1").arg(d.nextAction) << '\n';
    }
    if (d.status == core::JobStatus::Running && !d.series.isEmpty()) {
        out << '\n'
            << tr("TIMELINE (volume %1)").arg(d.volumeName.isEmpty() ? QStringLiteral("-") : d.volumeName) << '\n';
        rows::ResultSet rs;
        rs.columns = {{QStringLiteral("time"), tr("TIME")},
                      {QStringLiteral("gpu"), tr("GPU %")},
                      {QStringLiteral("throughput"), tr("THROUGHPUT")},
                      {QStringLiteral("cap"), tr("CAP")},
                      {QStringLiteral("latency"), tr("LATENCY MS")}};
        for (const core::DiagnosisPoint &p : d.series) {
            rs.addRow({p.time.toString(Qt::ISODate),
                       cell(p.gpuPercent),
                       rateCell(p.throughputMBps),
                       rateCell(p.capMBps),
                       cell(p.latencyMs, 2)});
        }
        rows::write(rs, rows::Format::Table, out);
    }
}

/// Why a job is pending, or why its GPUs are idle (core/diagnosis.h), over the jobs of the
/// Kubernetes sources listed. JOB is "<namespace>/<name>" or a job name that is unique over those
/// sources. Waits (up to the deadline) for a running job's DCGM utilization and its volume's perf
/// when they have not been polled yet. 0 answered, 1 no such job (or a name found in several
/// places), 2 usage.
int runWhy(const Invocation &in, Polled &polled)
{
    core::Engine &engine = polled.engine;
    const QString &job = in.positional[1];
    const QStringList &sources = polled.listed;
    const rows::Format format = in.format;
    const int timeoutSeconds = polled.remainingSeconds();
    const QString &programName = in.console.programName;
    QTextStream &out = in.console.out;
    QTextStream &err = in.console.err;
    if (format == rows::Format::Csv) {
        err << programName << ": " << tr("why prints table or json") << '\n';
        return 2;
    }
    const core::Estate &estate = engine.estate();
    const QList<Match> matches = findJobs(estate, job, sources);
    if (matches.size() > 1) {
        QStringList where;
        for (const Match &m : matches) {
            where << m.source + QLatin1Char(':') + m.jobId;
        }
        err << programName << ": "
            << tr("job name %1 is not unique (%2): use <namespace>/<name> and --source")
                   .arg(job, where.join(QStringLiteral(", ")))
            << '\n';
        return 1;
    }
    if (matches.isEmpty()) {
        const core::JobDiagnosis unknown = core::diagnoseJob(estate, sources.value(0), job, engine.clock().now());
        if (format == rows::Format::Json) {
            out << QJsonDocument(core::diagnosisToJson(unknown)).toJson(QJsonDocument::Indented);
        }
        err << programName << ": " << tr("no job %1 in %2").arg(job, sources.join(QStringLiteral(", "))) << '\n';
        return 1;
    }
    const Match m = matches.front();
    // A running job's utilization comes with the next metrics poll, its claims' join to their
    // volumes with the cluster's next view after the storage source answered, and its volume's
    // perf with the storage source's poll: give them a moment rather than answer "unknown".
    waitFor(
        [&] {
            const core::Ptr<core::Job> j = estate.jobs().find(m.source, m.source + QLatin1Char('/') + m.jobId);
            if (!j || j->status != core::JobStatus::Running) {
                return true;
            }
            const core::JobVolume v = core::jobVolume(estate, m.source, m.jobId);
            if (v.volumeId.isEmpty()) {
                const QString claimPrefix = m.source + QLatin1Char('/') + j->namespaceName + QLatin1Char('/');
                for (const QString &awaiting : core::pvcsAwaitingStorageJoin(estate)) {
                    if (awaiting.startsWith(claimPrefix) && j->pvcs.contains(awaiting.mid(claimPrefix.size()))) {
                        return false;
                    }
                }
            }
            const bool perf =
                v.volumeId.isEmpty() || estate.volumePerf().find(v.source, v.source + QLatin1Char('/') + v.volumeId);
            return j->gpuUtilization >= 0 && perf;
        },
        &engine,
        std::min(timeoutSeconds, 30));
    // Storage sources that did not answer by the deadline are named, not taken for empty.
    const core::JobDiagnosis d =
        core::diagnoseJob(estate,
                          m.source,
                          m.jobId,
                          engine.clock().now(),
                          {},
                          core::notPolledYet(engine, {core::SourceKind::Ontap, core::SourceKind::Azure}));
    if (format == rows::Format::Json) {
        out << QJsonDocument(core::diagnosisToJson(d)).toJson(QJsonDocument::Indented);
    } else {
        writeTable(d, out);
    }
    return 0;
}

bool whyComplete(const Invocation &in)
{
    return in.positional.size() == 2;
}

HistoryUse whyHistory(const Invocation &)
{
    return HistoryUse::None;
}

int answerWhy(const Invocation &in, Polled &polled)
{
    const int answered = runWhy(in, polled);
    return answered != 0 ? answered : polled.exitCode;
}

} // namespace

Command whyCommand()
{
    static const char *const usage =
        QT_TRANSLATE_NOOP("cli", "[--config PATH | --demo] why JOB [--source NAME] [-o table|json]");
    return Command{
        "why", usage, whyComplete, noCheck, noOfflineAnswer, readsEveryKind, whyHistory, false, pollsFirst, answerWhy};
}

} // namespace strata::cli
