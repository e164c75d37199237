#include "app/cli/bundlecommand.h"

#include "app/cli/actionrun.h"
#include "app/cli/translate.h"
#include "models/core/planning/datasethub.h"
#include "models/core/runtime/bundle.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/capacityforecast.h"
#include "models/core/services/servicelevels.h"
#include "models/core/sources/source.h"
#include "models/rows/levelrows.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonDocument>
#include <QTimer>

namespace strata::cli {

namespace {

/// `bundle export FILE`, once every source was polled: fetches every volume's snapshots,
/// collects the estate and --hours hours of history, writes FILE (0600) and prints the objects
/// per source, the size in bytes and the body's SHA-256. 0 when written, 1 when it could not be.
int exportBundleFile(const Invocation &in, Polled &polled)
{
    core::Engine &engine = polled.engine;
    const QString &path = in.positional[2];
    const int hours = in.parser.value(in.flags.hours).toInt();
    const int timeoutSeconds = polled.remainingSeconds();
    const QString &programName = in.console.programName;
    QTextStream &out = in.console.out;
    QTextStream &err = in.console.err;
    // Snapshots are listed per volume on demand; a bundle holds all of them so `get snapshots`
    // answers from it as it would live.
    int pending = 0;
    for (const core::Ptr<core::Volume> &v : engine.estate().volumes().all()) {
        core::Source *source = engine.source(v->source);
        if (core::ISnapshotProvider *snapshots = source ? source->snapshotProvider() : nullptr;
            snapshots && v->armId.isEmpty()) {
            ++pending;
            snapshots->fetchSnapshots(v->id, [&pending](const QString &) {
                --pending;
            });
        }
    }
    waitFor(
        [&] {
            return pending == 0;
        },
        &engine,
        timeoutSeconds);

    core::BundleOptions options;
    options.hours = hours;
    options.user = in.console.user;
    options.timeoutMs = timeoutSeconds * 1000;
    std::optional<core::Bundle> bundle;
    QString collectError;
    core::collectBundle(engine, options, &engine, [&](core::Bundle b, QString error) {
        bundle = std::move(b);
        collectError = error;
    });
    waitFor(
        [&] {
            return bundle.has_value();
        },
        &engine,
        timeoutSeconds + 1);
    if (!bundle) {
        err << programName << ": " << tr("timed out collecting the bundle") << '\n';
        return 1;
    }
    if (!collectError.isEmpty()) {
        err << programName << ": " << collectError << '\n';
    }
    core::BundleWritten written;
    if (const core::Status wrote = core::writeBundle(*bundle, path, &written); !wrote) {
        err << programName << ": " << wrote.error().message << '\n';
        return 1;
    }
    out << tr("Wrote support bundle %1").arg(path) << '\n';
    for (auto it = written.objectsPerSource.cbegin(); it != written.objectsPerSource.cend(); ++it) {
        out << "  " << tr("%1: %2 objects").arg(it.key()).arg(it.value()) << '\n';
    }
    out << "  " << tr("%1 bytes, sha256 %2").arg(written.bytes).arg(written.sha256) << '\n';
    return 0;
}

/// `bundle diff A B`: what appeared, disappeared and changed from A to B, per system, source and
/// resource. 0 on success (also when they differ), 2 when a bundle cannot be opened.
int diffBundleFiles(const Invocation &in)
{
    const QString &a = in.positional[2];
    const QString &b = in.positional[3];
    const QString &programName = in.console.programName;
    QTextStream &err = in.console.err;
    const core::Result<core::Bundle> before = core::openBundle(a);
    if (!before) {
        err << programName << ": " << tr("cannot open %1: %2").arg(a, before.error().message) << '\n';
        return 2;
    }
    const core::Result<core::Bundle> after = core::openBundle(b);
    if (!after) {
        err << programName << ": " << tr("cannot open %1: %2").arg(b, after.error().message) << '\n';
        return 2;
    }
    const core::BundleDiff diff = core::diffBundles(*before, *after);
    if (in.format == rows::Format::Json) {
        in.console.out << QJsonDocument(diff.toJson()).toJson(QJsonDocument::Indented);
    } else {
        in.console.out << diff.summary();
    }
    return 0;
}

bool bundleComplete(const Invocation &in)
{
    const QStringList &words = in.positional;
    return (words.size() == 3 && words[1] == QLatin1String("export"))
           || (words.size() == 4 && words[1] == QLatin1String("diff"));
}

// `bundle diff` compares two files; `bundle export` reads every source.
std::optional<int> bundleOffline(const Invocation &in)
{
    if (in.positional[1] == QLatin1String("diff")) {
        return diffBundleFiles(in);
    }
    return std::nullopt;
}

// A failing source is what a support bundle is made for: the bundle is written with its status
// in it, and the exit code says it is partial, as for get.
int answerBundle(const Invocation &in, Polled &polled)
{
    const int written = exportBundleFile(in, polled);
    return written != 0 ? written : polled.exitCode;
}

} // namespace

Command bundleCommand()
{
    static const char *const usage = QT_TRANSLATE_NOOP("cli",
                                                       "[--config PATH | --demo] bundle export FILE [--hours N]\n"
                                                       "bundle diff A B [-o table|json]\n"
                                                       "--bundle FILE get RESOURCE [...]");
    return Command{"bundle",
                   usage,
                   bundleComplete,
                   noCheck,
                   bundleOffline,
                   readsEveryKind,
                   historyOptional,
                   false,
                   pollsFirst,
                   answerBundle};
}

int getFromBundle(const QString &path,
                  const std::function<rows::ResourceFilter(const QDateTime &bundleNow)> &filterAt,
                  const Invocation &in)
{
    const QString &resource = in.resource;
    const rows::Format format = in.format;
    const QString &programName = in.console.programName;
    QTextStream &out = in.console.out;
    QTextStream &err = in.console.err;
    const core::Result<core::Bundle> bundle = core::openBundle(path);
    if (!bundle) {
        err << programName << ": " << tr("cannot open %1: %2").arg(path, bundle.error().message) << '\n';
        return 2;
    }
    core::OfflineEngine offline(*bundle, QStringLiteral("cli"));
    core::Engine &engine = offline.engine();
    const QDateTime now = bundle->meta.created;
    const rows::ResourceFilter filter = filterAt(now);
    for (const QString &name : filter.sources) {
        if (!engine.status(name)) {
            err << programName << ": " << tr("the bundle has no source named \"%1\"").arg(name) << '\n';
            return 2;
        }
    }
    int exitCode = 0;
    rows::ResourceFilter listFilter = filter;
    listFilter.sources.clear();
    for (const core::SourceStatus &s : engine.statuses()) {
        if (!filter.sources.isEmpty() && !filter.sources.contains(s.name)) {
            continue;
        }
        // As live: a failing source is reported and left out of the listing.
        if (s.health != core::Health::Ok) {
            const QString why = s.lastError.isEmpty() ? tr("no answer yet") : s.lastError;
            err << programName << ": " << tr("source %1: %2").arg(s.name, why) << '\n';
            exitCode = 1;
            if (resource != QLatin1String("sources")) {
                continue;
            }
        }
        listFilter.sources << s.name;
    }
    if (listFilter.sources.isEmpty()) {
        listFilter.sources << QString(); // nothing to list from: never all of the estate
    }
    if (resource == QLatin1String("schedules")) {
        // Schedules live in the exporter's history store; a bundle carries none.
        rows::write(rows::scheduleRows({}, now), format, out);
        return exitCode;
    }
    if (resource == QLatin1String("service-levels")) {
        QEventLoop loop;
        QObject::connect(&engine.serviceLevels(), &core::ServiceLevels::changed, &loop, &QEventLoop::quit);
        QTimer::singleShot(5000, &loop, &QEventLoop::quit);
        engine.serviceLevels().refreshStatistics();
        loop.exec();
    }
    if (resource == QLatin1String("forecasts")) {
        // Computed from the bundle's history on its thread, as live: wait for that answer.
        refreshForecasts(engine, 15000);
    }
    const std::optional<rows::ResultSet> rows = rows::resourceRows(engine, resource, listFilter, now);
    if (!rows) {
        err << programName << ": " << tr("unknown resource \"%1\"").arg(resource) << '\n';
        return 2;
    }
    if (resource == QLatin1String("datasets") && format == rows::Format::Table) {
        out << core::summarize(engine.estate()).headerText() << "\n\n";
    }
    rows::write(*rows, format, out);
    return exitCode;
}

} // namespace strata::cli
