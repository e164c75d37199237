#pragma once

#include "app/cli/actionrun.h"

#include <QStringList>
#include <QTextStream>

namespace strata::core {
class Engine;
}

namespace strata::cli {

/// The dataset verbs: `commit DATASET -m MSG`, `cache COMMIT [--target T]`,
/// `evict COMMIT [--target T]`, `diff FROM TO`.
struct DataVerb
{
    QString verb;         ///< "commit", "cache", "evict" or "diff"
    QStringList operands; ///< positional arguments after the verb
    QString message;      ///< commit: -m
    QString target;       ///< cache/evict: --target, empty = the only one that fits
};

/// Whether `verb` is one of the dataset verbs.
bool isDataVerb(const QString &verb);
/// Number of operands the verb takes (commit 1, cache 1, evict 1, diff 2).
int dataVerbOperands(const QString &verb);

/// Runs a dataset verb against a polled engine, over the datasets and caches of `sources`.
/// A COMMIT is a full id, a unique prefix of at least 4 hex digits, or a dataset name (its head
/// commit). A DATASET is its name, its id ("datasets/fraud_jun/") or "source/name".
/// Returns the exit code (0 ok, 1 failed or blocked, 2 usage: unknown or ambiguous names).
int runDataVerb(core::Engine &engine,
                const DataVerb &verb,
                const QStringList &sources,
                const ActionRun &run,
                QTextStream &out,
                QTextStream &err);

} // namespace strata::cli
