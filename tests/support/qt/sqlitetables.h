#pragma once

#include <QString>

#include <gtest/gtest.h>

namespace strata::testsupport {

/// Renames table `from` of the SQLite database at `path` to `to` through a connection of its
/// own: what a store then reads of `from` fails as it would on a damaged database, and renaming
/// it back mends it. `ASSERT_TRUE(renameSqliteTable(path, "audit_log", "audit_log_away"));`
::testing::AssertionResult renameSqliteTable(const QString &path, const char *from, const char *to);

} // namespace strata::testsupport
