#include "app/cli/getcommand.h"

#include "app/cli/actionrun.h"
#include "app/cli/bundlecommand.h"
#include "models/core/planning/chargeback.h"
#include "models/core/planning/datasethub.h"
#include "models/core/planning/diagnosis.h"
#include "models/core/runtime/engine.h"
#include "models/core/runtime/timeline.h"
#include "models/core/services/capacityforecast.h"
#include "models/core/services/historyservice.h"
#include "models/core/services/servicelevels.h"
#include "models/core/sources/source.h"
#include "models/rows/chargebackrows.h"
#include "models/rows/computerows.h"
#include "models/rows/datarows.h"
#include "models/rows/levelrows.h"
#include "models/rows/resources.h"
#include "models/rows/triagerows.h"

#include <QCoreApplication>
#include <QJsonDocument>

#include <algorithm>
#include <memory>
#include <tuple>

namespace strata::cli {

namespace {

/// `get events` flags as a filter, relative times (--since 2h) counted back from `now` (the
/// engine's clock; a bundle's time); a usage error (unknown system or severity, malformed time)
/// as the returned text, empty when they are fine.
QString eventFilterFromFlags(const Invocation &in, rows::ResourceFilter *filter, const QDateTime &now)
{
    const QCommandLineParser &parser = in.parser;
    const Flags &flags = in.flags;
    for (const QString &system : parser.values(flags.system)) {
        if (!rows::timelineSystemNames().contains(system)) {
            return QCoreApplication::translate("cli", "unknown --system \"%1\" (%2)")
                .arg(system, rows::timelineSystemNames().join(QStringLiteral(", ")));
        }
    }
    filter->systems = parser.values(flags.system);
    filter->severity = parser.value(flags.severity);
    if (parser.isSet(flags.severity) && !core::timelineSeverityFromName(filter->severity)) {
        return QCoreApplication::translate("cli", "unknown --severity \"%1\" (critical, error, warning, info)")
            .arg(filter->severity);
    }
    for (const auto &[option, bound] :
         {std::pair{&flags.since, &filter->since}, std::pair{&flags.until, &filter->until}}) {
        if (!parser.isSet(*option)) {
            continue;
        }
        const auto t = rows::parseTimeBound(parser.value(*option), now);
        if (!t) {
            return QCoreApplication::translate("cli",
                                               "--%1 needs an ISO 8601 time (2026-11-22T10:00:00Z) or a duration "
                                               "ago like 30m, 2h, 7d, not \"%2\"")
                .arg(option->names().constFirst(), parser.value(*option));
        }
        *bound = *t;
    }
    filter->search = parser.value(flags.search);
    filter->jobs = parser.values(flags.job);
    filter->sources = parser.values(flags.source);
    filter->volumes = parser.values(flags.volume);
    filter->projects = parser.values(flags.project);
    return {};
}

bool isEvents(const Invocation &in)
{
    return in.resource == QLatin1String("events");
}

bool isChargeback(const Invocation &in)
{
    return in.resource == QLatin1String("chargeback");
}

bool getComplete(const Invocation &in)
{
    return in.positional.size() == 2 && (rows::resourceNames().contains(in.resource) || isChargeback(in));
}

int checkGet(const Invocation &in)
{
    if (isChargeback(in)) {
        if (in.parser.isSet(in.flags.bundle)) {
            return in.console.fail(QCoreApplication::translate(
                                       "cli", "a chargeback reads the history store, which a bundle does not carry"),
                                   2);
        }
        if (const QString month = in.parser.value(in.flags.month); in.parser.isSet(in.flags.month)) {
            if (const auto period = core::chargebackMonth(month); !period) {
                return in.console.fail(period.error().message, 2);
            }
        }
        return 0;
    }
    rows::ResourceFilter filter;
    // Only the flags' form is checked here: no relative bound is used, so no time is needed.
    const QString usageError = isEvents(in) ? eventFilterFromFlags(in, &filter, QDateTime()) : QString();
    return usageError.isEmpty() ? 0 : in.console.fail(usageError, 2);
}

/// `--bundle FILE get ...`: the rows from the bundle, with no source.
std::optional<int> getOffline(const Invocation &in)
{
    if (!in.parser.isSet(in.flags.bundle)) {
        return std::nullopt;
    }
    const auto filterAt = [&in](const QDateTime &bundleNow) {
        rows::ResourceFilter filter; // `get events` keeps its --system, --severity, ...
        if (isEvents(in)) {
            eventFilterFromFlags(in, &filter, bundleNow);
        }
        filter.sources = in.parser.values(in.flags.source);
        filter.volumes = in.parser.values(in.flags.volume);
        filter.projects = in.parser.values(in.flags.project);
        filter.datasets = in.parser.values(in.flags.dataset);
        filter.targets = in.parser.values(in.flags.target);
        return filter;
    };
    return getFromBundle(in.parser.value(in.flags.bundle), filterAt, in);
}

/// A listing starts and waits for only the sources its rows read or join (volumes need ONTAP and
/// Azure, not the Kubernetes clusters or StorageGRID; PVCs Kubernetes and the volumes behind them).
QList<core::SourceKind> getReads(const Invocation &in)
{
    return rows::resourceSourceKinds(in.resource);
}

// Service levels need the history store (p95 throughput, the cool-down's last change); the
// schedules live there (shared with the desktop app and strata-server through the same file).
HistoryUse getHistory(const Invocation &in)
{
    if (in.resource == QLatin1String("schedules") || isChargeback(in)) {
        return HistoryUse::Required;
    }
    return in.resource == QLatin1String("service-levels") || in.resource == QLatin1String("forecasts") || isEvents(in)
               ? HistoryUse::Optional
               : HistoryUse::None;
}

bool getPolls(const Invocation &in)
{
    return in.resource != QLatin1String("schedules");
}

int listSchedules(const Invocation &in, Polled &polled)
{
    core::Engine &engine = polled.engine;
    std::vector<core::ServiceLevelSchedule> stored;
    QString error;
    bool done = false;
    engine.history()->schedules(&engine, [&](core::Result<std::vector<core::ServiceLevelSchedule>> list) {
        if (list) {
            stored = std::move(*list);
        } else {
            error = list.error().message;
        }
        done = true;
    });
    if (!waitFor(
            [&] {
                return done;
            },
            &engine,
            in.timeoutSeconds)) {
        return in.console.fail(QCoreApplication::translate("cli", "timed out reading the schedules"), 1);
    }
    if (!error.isEmpty()) {
        return in.console.fail(QCoreApplication::translate("cli", "cannot read the schedules: %1").arg(error), 1);
    }
    QList<core::ServiceLevelSchedule> list(stored.begin(), stored.end());
    const QStringList wanted = in.parser.values(in.flags.source);
    if (!wanted.isEmpty()) {
        list.removeIf([&](const core::ServiceLevelSchedule &s) {
            return !wanted.contains(s.source);
        });
    }
    rows::write(rows::scheduleRows(list, engine.clock().now()), in.format, in.console.out);
    return 0;
}

/// `get chargeback`: the month's chargeback of the polled sources, from the history store.
int listChargeback(const Invocation &in, Polled &polled)
{
    core::Engine &engine = polled.engine;
    const QDateTime now = engine.clock().now().toUTC();
    const QString month =
        in.parser.isSet(in.flags.month) ? in.parser.value(in.flags.month) : now.toString(QStringLiteral("yyyy-MM"));
    const core::Result<core::ChargebackPeriod> period = core::chargebackMonth(month);
    if (!period) {
        return in.console.fail(period.error().message, 2);
    }
    std::optional<core::Result<core::Chargeback>> result;
    engine.history()->chargeback(core::chargebackInput(engine.estate()),
                                 *period,
                                 engine.serviceLevels().rateCard(),
                                 now,
                                 &engine,
                                 [&result](core::Result<core::Chargeback> cb) {
                                     result = std::move(cb);
                                 });
    if (!waitFor(
            [&] {
                return result.has_value();
            },
            &engine,
            polled.remainingSeconds())) {
        return in.console.fail(QCoreApplication::translate("cli", "timed out computing the chargeback"), 1);
    }
    if (!*result) {
        return in.console.fail(result->error().message, 1);
    }
    const core::Chargeback &cb = **result;
    QTextStream &out = in.console.out;
    if (in.format == rows::Format::Json) {
        out << QJsonDocument(rows::chargebackToJson(cb)).toJson(QJsonDocument::Indented);
        return polled.exitCode;
    }
    if (in.format == rows::Format::Csv) {
        out << rows::chargebackCsv(cb);
        return polled.exitCode;
    }
    out << QCoreApplication::translate("cli", "CHARGEBACK %1 Prices in %2.")
               .arg(rows::chargebackCoverageText(cb), cb.currency)
        << "\n\n";
    rows::write(rows::chargebackRows(cb, true), rows::Format::Table, out);
    out << '\n';
    if (!cb.total.unpriced.isEmpty()) {
        QStringList labels;
        for (const QString &u : cb.total.unpriced) {
            labels << (u == QLatin1String("gpu") ? QStringLiteral("GPU") : core::chargebackTierLabel(u));
        }
        out << QCoreApplication::translate("cli", "No price on the rate card for: %1 (counted in hours, not in cost).")
                   .arg(labels.join(QStringLiteral(", ")))
            << '\n';
    }
    for (const QString &note : cb.notes) {
        out << QCoreApplication::translate("cli", "Note: %1").arg(note) << '\n';
    }
    return polled.exitCode;
}

int listCompute(const Invocation &in, Polled &polled)
{
    const core::Estate &estate = polled.engine.estate();
    if (in.resource == QLatin1String("pvcs")) {
        // A claim's volume is joined with the cluster's next view after its storage source
        // answered: wait for it rather than list the claim without its storage.
        waitFor(
            [&] {
                return core::pvcsAwaitingStorageJoin(estate).isEmpty();
            },
            &polled.engine,
            polled.remainingSeconds());
    }
    const QString &resource = in.resource;
    rows::ComputeFilter filter;
    filter.projects = in.parser.values(in.flags.project);
    for (const core::SourceConfig &s : std::as_const(polled.selected)) {
        if (s.kind == core::SourceKind::Kubernetes) {
            filter.sources << s.name;
        }
    }
    if (filter.sources.isEmpty()) {
        // Nothing to list from (no Kubernetes source): never all of the estate.
        filter.sources << QString();
    }
    const QStringList unknown = rows::unknownProjects(estate, filter);
    if (!unknown.isEmpty() && resource != QLatin1String("clusters") && resource != QLatin1String("nodes")
        && polled.exitCode == 0) {
        return in.console.fail(
            QCoreApplication::translate("cli", "no project named %1").arg(unknown.join(QStringLiteral(", "))), 1);
    }
    QTextStream &out = in.console.out;
    if (resource == QLatin1String("clusters")) {
        rows::write(rows::clusterRows(estate, filter), in.format, out);
    } else if (resource == QLatin1String("nodes")) {
        rows::write(rows::nodeRows(estate, filter), in.format, out);
    } else if (resource == QLatin1String("projects")) {
        rows::write(rows::projectRows(estate, filter), in.format, out);
    } else if (resource == QLatin1String("jobs")) {
        rows::write(rows::jobRows(estate, filter, polled.engine.clock().now()), in.format, out);
    } else {
        rows::write(rows::pvcRows(estate, filter), in.format, out);
    }
    return polled.exitCode;
}

/// Snapshots: one listing per volume, run concurrently (the transport caps in-flight requests).
int listSnapshots(const Invocation &in, Polled &polled, const std::vector<core::Ptr<core::Volume>> &volumes)
{
    core::Engine &engine = polled.engine;
    // The state outlives this frame: a listing that answers after the deadline finds it still there.
    struct SnapshotListing
    {
        QStringList pending; ///< labels of the volumes still listing
        QStringList errors;
    };
    const auto listing = std::make_shared<SnapshotListing>();
    for (const core::Ptr<core::Volume> &v : volumes) {
        core::Source *source = engine.source(v->source);
        core::ISnapshotProvider *snapshots = source ? source->snapshotProvider() : nullptr;
        if (!snapshots) {
            continue; // volumes come from ONTAP and Azure sources, which list snapshots
        }
        const QString label = v->source + QLatin1Char('/') + v->svm + QLatin1Char('/') + v->name;
        listing->pending << label;
        snapshots->fetchSnapshots(v->id, [listing, label](const QString &error) {
            if (!error.isEmpty()) {
                listing->errors << label + QStringLiteral(": ") + error;
            }
            listing->pending.removeOne(label);
        });
    }
    if (!waitFor(
            [&] {
                return listing->pending.isEmpty();
            },
            &engine,
            polled.remainingSeconds())) {
        for (const QString &label : std::as_const(listing->pending)) {
            listing->errors << QCoreApplication::translate("cli", "%1: no snapshot listing within %2 s (--timeout)")
                                   .arg(label)
                                   .arg(in.timeoutSeconds);
        }
    }
    int exitCode = polled.exitCode;
    for (const QString &e : std::as_const(listing->errors)) {
        exitCode = in.console.fail(e, 1);
    }
    rows::write(rows::snapshotRows(rows::snapshotsOf(engine.estate(), volumes)), in.format, in.console.out);
    return exitCode;
}

int listVolumes(const Invocation &in, Polled &polled)
{
    std::vector<core::Ptr<core::Volume>> volumes;
    const QStringList volumeFilter = in.parser.values(in.flags.volume);
    for (const core::SourceConfig &s : std::as_const(polled.selected)) {
        const auto list = polled.engine.estate().volumes().scope(s.name);
        if (!list) {
            continue;
        }
        for (const core::Ptr<core::Volume> &v : list->items()) {
            if (volumeFilter.isEmpty() || volumeFilter.contains(v->name) || volumeFilter.contains(v->id)) {
                volumes.push_back(v);
            }
        }
    }
    if (!volumeFilter.isEmpty() && volumes.empty() && polled.exitCode == 0) {
        return in.console.fail(
            QCoreApplication::translate("cli", "no volume matches %1").arg(volumeFilter.join(QStringLiteral(", "))), 1);
    }
    // Stable, readable order whatever order the systems answered in (kubectl lists by name).
    std::sort(volumes.begin(), volumes.end(), [](const core::Ptr<core::Volume> &a, const core::Ptr<core::Volume> &b) {
        return std::tie(a->source, a->svm, a->name) < std::tie(b->source, b->svm, b->name);
    });
    if (in.resource == QLatin1String("volumes")) {
        rows::write(rows::volumeRows(volumes), in.format, in.console.out);
        return polled.exitCode;
    }
    return listSnapshots(in, polled, volumes);
}

int answerGet(const Invocation &in, Polled &polled)
{
    core::Engine &engine = polled.engine;
    const QString &resource = in.resource;
    QTextStream &out = in.console.out;
    if (resource == QLatin1String("schedules")) {
        return listSchedules(in, polled);
    }
    if (isChargeback(in)) {
        return listChargeback(in, polled);
    }
    if (resource == QLatin1String("sources")) {
        rows::write(rows::sourceRows(engine.statuses()), in.format, out);
        return polled.exitCode;
    }
    if (rows::isComputeResource(resource)) {
        return listCompute(in, polled);
    }
    if (resource == QLatin1String("volumes") || resource == QLatin1String("snapshots")) {
        return listVolumes(in, polled);
    }
    rows::ResourceFilter filter;
    if (isEvents(in)) {
        eventFilterFromFlags(in, &filter, engine.clock().now());
        // The audit log is read asynchronously: Strata's own operations belong in the listing.
        waitFor(
            [&] {
                return engine.timeline().auditLoaded();
            },
            &engine,
            polled.remainingSeconds());
    } else {
        filter.sources = polled.listed;
        filter.volumes = in.parser.values(in.flags.volume);
        filter.projects = in.parser.values(in.flags.project);
        filter.datasets = in.parser.values(in.flags.dataset);
        filter.targets = in.parser.values(in.flags.target);
    }
    if (resource == QLatin1String("datasets") && in.format == rows::Format::Table) {
        out << core::summarize(engine.estate()).headerText() << "\n\n";
    }
    if (resource == QLatin1String("service-levels") && engine.history()) {
        // The p95 and cool-down come from history: let the first read land.
        engine.serviceLevels().refreshStatistics();
        waitForSignal(&engine.serviceLevels(), &core::ServiceLevels::changed, 5000);
    }
    if (resource == QLatin1String("forecasts")) {
        // Forecasts are read from the history after the sources polled (which records the
        // containers' level of now): recompute and wait for that answer.
        refreshForecasts(engine, 15000);
    }
    if (resource == QLatin1String("systems")) {
        // ONTAP polls performance for watchers only: watch until each ONTAP source answered, so
        // "throughput now" is a figure as on the Overviews.
        engine.subscribePerformance();
        waitFor(
            [&] {
                return std::all_of(polled.selected.cbegin(), polled.selected.cend(), [&](const core::SourceConfig &s) {
                    return s.kind != core::SourceKind::Ontap || engine.estate().volumePerf().scope(s.name);
                });
            },
            &engine,
            std::min(polled.remainingSeconds(), 15));
        engine.unsubscribePerformance();
    }
    rows::write(*rows::resourceRows(engine, resource, filter, engine.clock().now()), in.format, out);
    return polled.exitCode;
}

} // namespace

Command getCommand()
{
    static const char *const usage = QT_TRANSLATE_NOOP(
        "cli",
        "[--config PATH | --demo] get "
        "sources|volumes|snapshots|clusters|nodes|projects|jobs|pvcs|service-levels|pools|aks|schedules|"
        "datasets|commits|caches|cache-targets|grids|tenants|buckets|alerts|events|systems|attention|forecasts "
        "[--source NAME] [--volume NAME] [--project NAME] [--dataset NAME] [--target NAME] "
        "[-o table|json|csv]\n"
        "[--config PATH | --demo] get events [--system NAME] [--severity "
        "critical|error|warning|info] [--since TIME] [--until TIME] [--search TEXT] [--job NAME]\n"
        "[--config PATH | --demo] get chargeback [--month YYYY-MM] [--source NAME] [-o table|json|csv]");
    return Command{"get", usage, getComplete, checkGet, getOffline, getReads, getHistory, false, getPolls, answerGet};
}

} // namespace strata::cli
