#include "models/core/services/diagnosisservice.h"

#include "models/core/domain/estate.h"
#include "models/core/services/historyservice.h"

#include <QPointer>

namespace strata::core {

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
        [alive, source, jobId, to, done = std::move(done)](std::vector<VolumePerfSample> samples) {
            if (alive) {
                done(diagnoseJob(*alive, source, jobId, to, samples));
            }
        });
}

} // namespace strata::core
