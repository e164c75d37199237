#pragma once

#include "app/cli/command.h"

namespace strata::cli {

/// `strata why JOB [--source NAME] [-o table|json]`: the command-table entry. Why a job is
/// pending, or why its GPUs are idle (core/diagnosis.h), over the jobs of the Kubernetes sources.
/// JOB is "<namespace>/<name>" or a job name that is unique over those sources. Exit codes: 0
/// answered, 1 no such job (or a name found in several places) or a source failing, 2 usage.
Command whyCommand();

} // namespace strata::cli
