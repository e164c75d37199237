#pragma once

#include "app/cli/command.h"

namespace strata::cli {

/// `strata get RESOURCE`: the command-table entry of the listings (rows::resourceNames()).
/// `get events` reads its --system/--severity/--since/--until/--search/--job flags; `--bundle FILE`
/// answers from a support bundle without any source; `get schedules` reads only the history.
Command getCommand();

} // namespace strata::cli
