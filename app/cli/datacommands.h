#pragma once

#include "app/cli/command.h"

namespace strata::cli {

/// The command-table entry of a dataset verb: `commit DATASET -m MSG`, `cache COMMIT [--target T]`,
/// `evict COMMIT [--target T]` or `diff FROM TO` (`verb` is one of those words). They act on the
/// datasets and caches of the sources that answered in full. A COMMIT is a full id, a unique
/// prefix of at least 4 hex digits, or a dataset name (its head commit); a DATASET is its name,
/// its id ("datasets/fraud_jun/") or "source/name". Exit codes: 0 ok, 1 failed or blocked, 2
/// usage (unknown or ambiguous names).
Command dataCommand(const char *verb);

} // namespace strata::cli
