#pragma once

#include "app/cli/command.h"

namespace strata::cli {

/// `strata set service-level VOLUME --to LEVEL [--at TIME | --window START..END [--then LEVEL]]
/// [--repeat R] [--pool NAME] [--create-pool [--pool-size TIB]] [--dry-run]`: the command-table
/// entry. Changes at once through the action engine, or stores a schedule in the history store
/// for the desktop app or strata-server that runs the source to fire.
Command setCommand();

} // namespace strata::cli
