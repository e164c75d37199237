#pragma once

#include "models/core/planning/diagnosis.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <functional>

class QObject;

namespace strata::core {

class Estate;
class HistoryService;

/// diagnoseJob with the volume's perf history of the `windowSeconds` up to `now` (UTC, the
/// engine's IClock) fetched from `history` (async; `done` runs on `context`'s thread with the
/// estate as it is then). `history` may be null: the estate's newest sample is used.
void diagnoseJobAsync(const Estate &estate,
                      HistoryService *history,
                      const QString &source,
                      const QString &jobId,
                      const QDateTime &now,
                      QObject *context,
                      std::function<void(JobDiagnosis)> done,
                      qint64 windowSeconds = 3600,
                      const QStringList &unanswered = {});

} // namespace strata::core
