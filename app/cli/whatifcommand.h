#pragma once

#include "app/cli/command.h"

namespace strata::cli {

/// `strata what-if quota PROJECT=GPUS... [--over-quota-weight PROJECT=W]... [--source NAME]
/// [-o table|json]`: the command-table entry. Predicts, from one GPU cluster's live state, which
/// jobs would start, be preempted or stay queued and each project's allocation if its quotas
/// (and over-quota weights) changed (core/quotawhatif.h). Changes nothing. Exit codes: 0
/// answered, 1 no such cluster or project (or a source failing), 2 usage.
Command whatIfCommand();

} // namespace strata::cli
