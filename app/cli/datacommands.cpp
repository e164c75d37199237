#include "app/cli/datacommands.h"

#include "app/cli/actionrun.h"
#include "models/core/domain/action.h"
#include "models/core/domain/estate.h"
#include "models/core/planning/datasethub.h"
#include "models/core/runtime/engine.h"
#include "models/core/sources/storagegrid/storagegridsource.h"
#include "models/rows/levelrows.h"
#include "models/rows/rowsupport.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

namespace strata::cli {

namespace {

/// A dataset verb and its words.
struct DataVerb
{
    QString verb;         ///< "commit", "cache", "evict" or "diff"
    QStringList operands; ///< positional arguments after the verb
    QString message;      ///< commit: -m
    QString target;       ///< cache/evict: --target, empty = the only one that fits
};

struct Lookup
{
    int exitCode = 0; ///< 0 found, 2 unknown or ambiguous
    QString error;
};

core::Ptr<core::Dataset>
findDataset(const core::Estate &estate, const QStringList &sources, const QString &text, Lookup *lookup)
{
    std::vector<core::Ptr<core::Dataset>> matches;
    for (const auto &d : rows::collectRows(estate.datasets(), sources)) {
        if (d->name == text || d->id == text || d->source + QLatin1Char('/') + d->name == text) {
            matches.push_back(d);
        }
    }
    if (matches.size() == 1) {
        return matches.front();
    }
    lookup->exitCode = 2;
    if (matches.empty()) {
        lookup->error = QCoreApplication::translate("cli", "no dataset named \"%1\" (see `get datasets`)").arg(text);
    } else {
        QStringList names;
        for (const auto &d : matches) {
            names << d->source + QLatin1Char('/') + d->name;
        }
        lookup->error = QCoreApplication::translate("cli", "\"%1\" names several datasets: %2")
                            .arg(text, names.join(QStringLiteral(", ")));
    }
    return nullptr;
}

core::Ptr<core::Commit>
findCommit(const core::Estate &estate, const QStringList &sources, const QString &text, Lookup *lookup)
{
    const auto commits = rows::collectRows(estate.commits(), sources);
    std::vector<core::Ptr<core::Commit>> matches;
    if (text.size() >= 4) {
        for (const auto &c : commits) {
            if (c->id.startsWith(text, Qt::CaseInsensitive)) {
                matches.push_back(c);
            }
        }
    }
    if (matches.empty()) {
        // A dataset name stands for its head commit, as a branch name does in git.
        Lookup datasetLookup;
        if (const auto d = findDataset(estate, sources, text, &datasetLookup)) {
            for (const auto &c : commits) {
                if (c->source == d->source && c->id == d->headCommit) {
                    return c;
                }
            }
            lookup->exitCode = 2;
            lookup->error = QCoreApplication::translate(
                                "cli", "dataset %1 has no commit yet (create one with `commit %1 -m MESSAGE`)")
                                .arg(d->name);
            return nullptr;
        }
    }
    if (matches.size() == 1) {
        return matches.front();
    }
    lookup->exitCode = 2;
    lookup->error =
        matches.empty()
            ? QCoreApplication::translate("cli", "no commit or dataset matches \"%1\" (see `get commits`)").arg(text)
            : QCoreApplication::translate("cli", "\"%1\" matches %2 commits; give more digits")
                  .arg(text)
                  .arg(matches.size());
    return nullptr;
}

QJsonObject diffEntryJson(const core::CommitDiffEntry &e)
{
    QJsonObject o{{QStringLiteral("key"), e.key}};
    if (e.fromSize >= 0) {
        o.insert(QStringLiteral("from_size"), e.fromSize);
        o.insert(QStringLiteral("from_etag"), e.fromEtag);
    }
    if (e.toSize >= 0) {
        o.insert(QStringLiteral("to_size"), e.toSize);
        o.insert(QStringLiteral("to_etag"), e.toEtag);
    }
    return o;
}

int runDiff(core::Engine &engine,
            const DataVerb &verb,
            const QStringList &sources,
            const ActionRun &run,
            QTextStream &out,
            QTextStream &err)
{
    Lookup lookup;
    const auto from = findCommit(engine.estate(), sources, verb.operands.value(0), &lookup);
    const auto to = from ? findCommit(engine.estate(), sources, verb.operands.value(1), &lookup) : nullptr;
    if (!from || !to) {
        err << run.programName << ": " << lookup.error << '\n';
        return lookup.exitCode;
    }
    if (from->source != to->source || from->datasetId != to->datasetId) {
        err << run.programName << ": "
            << QCoreApplication::translate("cli", "%1 and %2 belong to different datasets (%3, %4)")
                   .arg(from->id.left(12), to->id.left(12), from->datasetName, to->datasetName)
            << '\n';
        return 2;
    }
    auto *grid = qobject_cast<core::StorageGridSource *>(engine.source(from->source));
    if (!grid) {
        err << run.programName << ": "
            << QCoreApplication::translate("cli", "%1 is not an object-store dataset; diff compares manifests")
                   .arg(from->datasetName)
            << '\n';
        return 2;
    }
    bool done = false;
    core::CommitComparison comparison;
    QString error;
    grid->diffCommits(from->datasetId, from->id, to->id, &engine, [&](core::CommitComparison c, QString e) {
        comparison = std::move(c);
        error = std::move(e);
        done = true;
    });
    if (!waitFor(
            [&] {
                return done;
            },
            &engine,
            run.timeoutSeconds)) {
        err << run.programName << ": " << QCoreApplication::translate("cli", "timed out reading the manifests") << '\n';
        return 1;
    }
    if (!error.isEmpty()) {
        err << run.programName << ": " << error << '\n';
        return 1;
    }
    if (run.format == rows::Format::Json) {
        auto list = [](const QList<core::CommitDiffEntry> &entries) {
            QJsonArray a;
            for (const core::CommitDiffEntry &e : entries) {
                a.append(diffEntryJson(e));
            }
            return a;
        };
        out << QJsonDocument(QJsonObject{{QStringLiteral("dataset"), from->datasetName},
                                         {QStringLiteral("from"), comparison.fromId},
                                         {QStringLiteral("to"), comparison.toId},
                                         {QStringLiteral("added"), list(comparison.added)},
                                         {QStringLiteral("removed"), list(comparison.removed)},
                                         {QStringLiteral("changed"), list(comparison.changed)},
                                         {QStringLiteral("unchanged"), comparison.unchanged},
                                         {QStringLiteral("bytes_added"), comparison.bytesAdded},
                                         {QStringLiteral("bytes_removed"), comparison.bytesRemoved},
                                         {QStringLiteral("bytes_changed"), comparison.bytesChanged}})
                   .toJson(QJsonDocument::Indented);
        return 0;
    }
    rows::ResultSet rs;
    rs.columns = {{QStringLiteral("change"), QStringLiteral("CHANGE")},
                  {QStringLiteral("key"), QStringLiteral("KEY")},
                  {QStringLiteral("from_size"), QStringLiteral("FROM")},
                  {QStringLiteral("to_size"), QStringLiteral("TO")}};
    auto add = [&](const QList<core::CommitDiffEntry> &entries, const QString &change) {
        for (const core::CommitDiffEntry &e : entries) {
            rs.addRow({change,
                       e.key,
                       e.fromSize >= 0 ? QVariant(e.fromSize) : QVariant(),
                       e.toSize >= 0 ? QVariant(e.toSize) : QVariant()},
                      {change,
                       e.key,
                       e.fromSize >= 0 ? core::formatBytes(e.fromSize) : QStringLiteral("-"),
                       e.toSize >= 0 ? core::formatBytes(e.toSize) : QStringLiteral("-")});
        }
    };
    add(comparison.added, QStringLiteral("added"));
    add(comparison.removed, QStringLiteral("removed"));
    add(comparison.changed, QStringLiteral("changed"));
    if (run.format == rows::Format::Csv) {
        rows::write(rs, run.format, out);
        return 0;
    }
    out << QCoreApplication::translate("cli", "%1: %2 -> %3").arg(from->datasetName, from->id.left(12), to->id.left(12))
        << '\n';
    out << comparison.summary() << '\n';
    if (!rs.values.isEmpty()) {
        rows::write(rs, run.format, out);
    }
    return 0;
}

/// Runs a dataset verb against a polled engine, over the datasets and caches of `sources`.
int runDataVerb(core::Engine &engine,
                const DataVerb &verb,
                const QStringList &sources,
                const ActionRun &run,
                QTextStream &out,
                QTextStream &err)
{
    auto usage = [&](const QString &message) {
        err << run.programName << ": " << message << '\n';
        return 2;
    };
    if (verb.verb == QLatin1String("diff")) {
        return runDiff(engine, verb, sources, run, out, err);
    }
    Lookup lookup;
    core::ActionRequest request;
    if (verb.verb == QLatin1String("commit")) {
        const auto dataset = findDataset(engine.estate(), sources, verb.operands.value(0), &lookup);
        if (!dataset) {
            return usage(lookup.error);
        }
        request.kind = core::ActionKind::DatasetCommit;
        request.source = dataset->source;
        request.datasetId = dataset->id;
        request.comment = verb.message;
        return runAction(engine, request, engine.actions().preview(request), run, out, err);
    }

    const auto commit = findCommit(engine.estate(), sources, verb.operands.value(0), &lookup);
    if (!commit) {
        return usage(lookup.error);
    }
    const bool evict = verb.verb == QLatin1String("evict");
    const core::Ptr<core::Dataset> dataset =
        engine.estate().datasets().find(commit->source, commit->source + QLatin1Char('/') + commit->datasetId);
    if (dataset && dataset->kind == core::DatasetKind::OntapVolume) {
        // A file dataset's commit is a snapshot: caching it is a FlexClone on its own cluster,
        // named by --target (default "<volume>_<snapshot>").
        if (evict) {
            return usage(QCoreApplication::translate(
                             "cli", "%1 is snapshot \"%2\" of ONTAP volume %3: its FlexClones are volumes of %4")
                             .arg(commit->id.left(12), commit->manifestKey, dataset->name, dataset->source));
        }
        request.kind = core::ActionKind::VolumeClone;
        request.source = dataset->source;
        request.volumeId = dataset->volumeId;
        request.snapshotId = commit->id;
        request.name = verb.target;
        if (request.name.isEmpty()) {
            QString snapshot = commit->manifestKey;
            snapshot.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_]")), QStringLiteral("_"));
            request.name = dataset->name + QLatin1Char('_') + snapshot;
        }
        return runAction(engine, request, engine.actions().preview(request), run, out, err);
    }
    QStringList candidates; // targets the verb can apply to
    if (evict) {
        for (const auto &c : engine.estate().cachedCommits().all()) {
            if (c->commitId == commit->id && c->state != core::CacheState::Evicted) {
                candidates << c->target;
            }
        }
    } else {
        for (const core::CacheTargetConfig &t : engine.cacheTargets()) {
            candidates << t.name;
        }
    }
    QString target = verb.target;
    if (target.isEmpty()) {
        if (candidates.size() != 1) {
            return usage(candidates.isEmpty()
                             ? (evict ? QCoreApplication::translate("cli", "commit %1 is not cached on any target")
                                            .arg(commit->id.left(12))
                                      : QCoreApplication::translate(
                                          "cli", "no cache target is configured (\"cache_targets\" in the config)"))
                             : QCoreApplication::translate("cli", "choose a target with --target: %1")
                                   .arg(candidates.join(QStringLiteral(", "))));
        }
        target = candidates.front();
    }
    const core::CacheTargetConfig *config = nullptr;
    const QList<core::CacheTargetConfig> targets = engine.cacheTargets();
    for (const core::CacheTargetConfig &t : targets) {
        if (t.name == target) {
            config = &t;
        }
    }
    if (!config) {
        QStringList names;
        for (const core::CacheTargetConfig &t : targets) {
            names << t.name;
        }
        return usage(
            QCoreApplication::translate("cli", "no cache target named \"%1\" (configured: %2)")
                .arg(target,
                     names.isEmpty() ? QCoreApplication::translate("cli", "none") : names.join(QStringLiteral(", "))));
    }
    request.kind = evict ? core::ActionKind::CacheEvict : core::ActionKind::CacheCommit;
    request.source = config->kubernetesSource;
    request.cacheTarget = config->name;
    request.commitId = commit->id;
    request.datasetId = commit->datasetId;
    request.datasetSource = commit->source;
    // A cluster answers its first view before a slow claim list lands: give the target's claim a
    // moment to be read rather than preview room that is not known yet.
    waitFor(
        [&engine, &request] {
            const core::Ptr<core::CacheTarget> t = engine.estate().cacheTargets().find(
                request.source, request.source + QLatin1Char('/') + request.cacheTarget);
            return !t || !t->pvcPhase.isEmpty() || !t->problem.isEmpty();
        },
        &engine,
        std::min(run.timeoutSeconds, 30));
    return runAction(engine, request, engine.actions().preview(request), run, out, err);
}

bool dataVerbComplete(const Invocation &in)
{
    const int operands = in.verb() == QLatin1String("diff") ? 2 : 1;
    return in.positional.size() == 1 + operands
           && (in.verb() != QLatin1String("commit") || !in.parser.value(in.flags.message).trimmed().isEmpty());
}

// Changes act only on the sources that answered in full.
int answerDataVerb(const Invocation &in, Polled &polled)
{
    const Flags &flags = in.flags;
    const DataVerb verb{in.verb(), in.positional.mid(1), in.parser.value(flags.message), in.parser.value(flags.target)};
    const ActionRun run{in.format, in.parser.isSet(flags.dryRun), in.timeoutSeconds, in.console.programName};
    return runDataVerb(polled.engine, verb, polled.healthy, run, in.console.out, in.console.err);
}

} // namespace

Command dataCommand(const char *verb)
{
    const QLatin1String word(verb);
    const char *const usage =
        word == QLatin1String("commit")
            ? QT_TRANSLATE_NOOP("cli", "[--config PATH | --demo] commit DATASET -m MESSAGE [--dry-run] [-o json]")
        : word == QLatin1String("diff")
            ? QT_TRANSLATE_NOOP("cli", "[--config PATH | --demo] diff FROM TO [-o table|json|csv]")
            : QT_TRANSLATE_NOOP("cli",
                                "[--config PATH | --demo] cache|evict COMMIT [--target NAME] [--dry-run] [-o json]");
    return Command{verb,
                   usage,
                   dataVerbComplete,
                   noCheck,
                   noOfflineAnswer,
                   readsEveryKind,
                   historyOptional,
                   true,
                   pollsFirst,
                   answerDataVerb};
}

} // namespace strata::cli
