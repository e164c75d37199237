#pragma once

#include "models/rows/output.h"

#include <QStringList>
#include <QTextStream>

namespace strata::core {
class Engine;
}

namespace strata::cli {

/// `strata why JOB`: why a job is pending, or why its GPUs are idle (core/diagnosis.h), over the
/// jobs of the Kubernetes sources in `sources`. JOB is "<namespace>/<name>" or a job name that is
/// unique over those sources. Waits (up to `timeoutSeconds`) for a running job's DCGM
/// utilization and its volume's perf when they have not been polled yet.
/// Returns the exit code: 0 answered, 1 no such job (or a name found in several places), 2 usage.
int runWhy(core::Engine &engine,
           const QString &job,
           const QStringList &sources,
           rows::Format format,
           int timeoutSeconds,
           const QString &programName,
           QTextStream &out,
           QTextStream &err);

} // namespace strata::cli
