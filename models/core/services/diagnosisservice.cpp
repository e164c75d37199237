#include "models/core/services/diagnosisservice.h"

#include "models/core/domain/estate.h"
#include "models/core/services/historyservice.h"

#include <QLoggingCategory>
#include <QPointer>

namespace strata::core {

namespace {
Q_LOGGING_CATEGORY(lcDiagnosis, "strata.diagnosis", QtInfoMsg)
} // namespace

void diagnoseJobAsync(const Estate &estate,
                      HistoryService *history,
                      const QString &source,
                      const QString &jobId,
                      const QDateTime &now,
                      QObject *context,
                      std::function<void(JobDiagnosis)> done,
                      qint64 windowSeconds,
                      const QStringList &unanswered)
{
    const JobVolume where = jobVolume(estate, source, jobId);
    if (!history || where.volumeId.isEmpty()) {
        done(diagnoseJob(estate, source, jobId, now, {}, unanswered));
        return;
    }
    const QDateTime to = now.toUTC();
    QPointer<const Estate> alive(&estate);
    history->volumePerfHistory(
        where.source,
        where.volumeId,
        to.addSecs(-windowSeconds),
        to,
        context,
        [alive, source, jobId, to, unanswered, done = std::move(done)](
            const Result<std::vector<VolumePerfSample>> &samples) {
            if (!alive) {
                return;
            }
            if (!samples) {
                // The estate's newest perf figures still answer; only the chart's hour is missing.
                qCWarning(lcDiagnosis).noquote() << "cannot read volume performance:" << samples.error().message;
            }
            done(diagnoseJob(
                *alive, source, jobId, to, samples ? *samples : std::vector<VolumePerfSample>{}, unanswered));
        });
}

} // namespace strata::core
