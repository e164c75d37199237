#include "app/cli/cli.h"

#include "app/cli/computerows.h"
#include "app/cli/demo.h"
#include "app/cli/output.h"
#include "models/core/clock.h"
#include "models/core/config.h"
#include "models/core/engine.h"
#include "models/core/source.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>
#include <tuple>

namespace strata::cli {

namespace {

const QStringList &verbs()
{
    static const QStringList v{QStringLiteral("get")};
    return v;
}

const QStringList &resources()
{
    static const QStringList r{QStringLiteral("sources"),
                               QStringLiteral("volumes"),
                               QStringLiteral("snapshots"),
                               QStringLiteral("clusters"),
                               QStringLiteral("nodes"),
                               QStringLiteral("projects"),
                               QStringLiteral("jobs"),
                               QStringLiteral("pvcs")};
    return r;
}

bool isComputeResource(const QString &r)
{
    return r == QLatin1String("clusters") || r == QLatin1String("nodes") || r == QLatin1String("projects")
           || r == QLatin1String("jobs") || r == QLatin1String("pvcs");
}

QString normaliseResource(const QString &r)
{
    // kubectl habits: singular and short forms.
    if (r == QLatin1String("source") || r == QLatin1String("src")) {
        return QStringLiteral("sources");
    }
    if (r == QLatin1String("volume") || r == QLatin1String("vol") || r == QLatin1String("vols")) {
        return QStringLiteral("volumes");
    }
    if (r == QLatin1String("snapshot") || r == QLatin1String("snap") || r == QLatin1String("snaps")) {
        return QStringLiteral("snapshots");
    }
    if (r == QLatin1String("cluster")) {
        return QStringLiteral("clusters");
    }
    if (r == QLatin1String("node") || r == QLatin1String("no")) {
        return QStringLiteral("nodes");
    }
    if (r == QLatin1String("project") || r == QLatin1String("proj")) {
        return QStringLiteral("projects");
    }
    if (r == QLatin1String("job") || r == QLatin1String("workloads") || r == QLatin1String("workload")) {
        return QStringLiteral("jobs");
    }
    if (r == QLatin1String("pvc") || r == QLatin1String("persistentvolumeclaims")) {
        return QStringLiteral("pvcs");
    }
    return r;
}

ResultSet sourceRows(const QList<core::SourceStatus> &statuses)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("name"), QStringLiteral("NAME")},
                  {QStringLiteral("kind"), QStringLiteral("KIND")},
                  {QStringLiteral("url"), QStringLiteral("URL")},
                  {QStringLiteral("health"), QStringLiteral("HEALTH")},
                  {QStringLiteral("stale"), QString()},
                  {QStringLiteral("system"), QStringLiteral("SYSTEM")},
                  {QStringLiteral("version"), QStringLiteral("VERSION")},
                  {QStringLiteral("last_success"), QString()},
                  {QStringLiteral("latency_ms"), QStringLiteral("POLL-MS")},
                  {QStringLiteral("last_error"), QStringLiteral("ERROR")}};
    for (const core::SourceStatus &s : statuses) {
        rs.addRow({s.name,
                   core::sourceKindName(s.kind),
                   s.url,
                   core::healthName(s.health),
                   s.stale,
                   s.systemName,
                   s.systemVersion,
                   s.lastSuccess,
                   s.latencyMs >= 0 ? QVariant(s.latencyMs) : QVariant(),
                   s.lastError});
    }
    return rs;
}

ResultSet volumeRows(const std::vector<core::Ptr<core::Volume>> &volumes)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("id"), QString()},
                  {QStringLiteral("name"), QStringLiteral("NAME")},
                  {QStringLiteral("svm"), QStringLiteral("SVM")},
                  {QStringLiteral("state"), QStringLiteral("STATE")},
                  {QStringLiteral("style"), QStringLiteral("STYLE")},
                  {QStringLiteral("type"), QString()},
                  {QStringLiteral("size_bytes"), QStringLiteral("SIZE")},
                  {QStringLiteral("used_bytes"), QStringLiteral("USED")},
                  {QStringLiteral("available_bytes"), QStringLiteral("AVAILABLE")},
                  {QStringLiteral("percent_used"), QStringLiteral("%USED")},
                  {QStringLiteral("snapshot_count"), QStringLiteral("SNAPSHOTS")},
                  {QStringLiteral("snapshot_reserve_percent"), QString()},
                  {QStringLiteral("qos_policy"), QStringLiteral("QOS")},
                  {QStringLiteral("aggregate"), QString()},
                  {QStringLiteral("is_flexcache"), QString()},
                  {QStringLiteral("clone_parent"), QString()},
                  {QStringLiteral("nas_path"), QStringLiteral("PATH")}};
    for (const core::Ptr<core::Volume> &v : volumes) {
        const double pct = std::round(v->percentUsed * 10.0) / 10.0;
        QStringList display(rs.columns.size());
        display[7] = core::formatBytes(v->sizeBytes);
        display[8] = core::formatBytes(v->usedBytes);
        display[9] = core::formatBytes(v->availableBytes);
        display[10] = QString::number(pct, 'f', 1);
        rs.addRow({v->source,
                   v->id,
                   v->name,
                   v->svm,
                   v->state,
                   v->style,
                   v->type,
                   v->sizeBytes,
                   v->usedBytes,
                   v->availableBytes,
                   pct,
                   v->snapshotCount,
                   v->snapshotReservePercent,
                   v->qosPolicy,
                   v->aggregate,
                   v->isFlexCache,
                   v->cloneParent,
                   v->nasPath},
                  display);
    }
    return rs;
}

ResultSet snapshotRows(const std::vector<core::Ptr<core::Snapshot>> &snapshots)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("volume_id"), QString()},
                  {QStringLiteral("volume"), QStringLiteral("VOLUME")},
                  {QStringLiteral("svm"), QStringLiteral("SVM")},
                  {QStringLiteral("id"), QString()},
                  {QStringLiteral("name"), QStringLiteral("NAME")},
                  {QStringLiteral("created"), QStringLiteral("CREATED")},
                  {QStringLiteral("size_bytes"), QStringLiteral("SIZE")},
                  {QStringLiteral("snapmirror_label"), QStringLiteral("LABEL")},
                  {QStringLiteral("state"), QString()},
                  {QStringLiteral("comment"), QString()}};
    for (const core::Ptr<core::Snapshot> &s : snapshots) {
        QStringList display(rs.columns.size());
        display[7] = s->sizeBytes > 0 ? core::formatBytes(s->sizeBytes) : QStringLiteral("-");
        rs.addRow({s->source,
                   s->volumeId,
                   s->volumeName,
                   s->svm,
                   s->id,
                   s->name,
                   s->created,
                   s->sizeBytes,
                   s->snapmirrorLabel,
                   s->state,
                   s->comment},
                  display);
    }
    return rs;
}

/// Runs the event loop until `done()` or the deadline; returns false on timeout.
bool waitFor(const std::function<bool()> &done, QObject *signalSource, int timeoutSeconds)
{
    if (done()) {
        return true;
    }
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    QTimer check;
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        if (done()) {
            loop.quit();
        }
    });
    Q_UNUSED(signalSource)
    check.start(20);
    deadline.start(timeoutSeconds * 1000);
    loop.exec();
    return done();
}

} // namespace

bool isCommand(const QStringList &arguments)
{
    for (const QString &a : arguments) {
        if (verbs().contains(a) || a == QLatin1String("--help") || a == QLatin1String("-h")
            || a == QLatin1String("--version") || a == QLatin1String("-v")) {
            return true;
        }
    }
    return false;
}

int run(const QStringList &arguments,
        const QString &programName,
        core::ICredentialStore &credentials,
        const QString &user,
        QTextStream &out,
        QTextStream &err)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("cli", "Strata: storage and GPUs behind AI work."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption configOption(
        QStringLiteral("config"),
        QCoreApplication::translate("cli", "Config file (default: %1).").arg(core::AppConfig::defaultPath()),
        QStringLiteral("path"));
    const QCommandLineOption demoOption(
        QStringLiteral("demo"),
        QCoreApplication::translate("cli", "Use the built-in simulated estate instead of a config file."));
    const QCommandLineOption sourceOption(QStringLiteral("source"),
                                          QCoreApplication::translate("cli", "Only this source (repeatable)."),
                                          QStringLiteral("name"));
    const QCommandLineOption volumeOption(
        QStringLiteral("volume"),
        QCoreApplication::translate("cli", "Only this volume (name or id; repeatable)."),
        QStringLiteral("name"));
    const QCommandLineOption projectOption(
        QStringList{QStringLiteral("p"), QStringLiteral("project")},
        QCoreApplication::translate("cli", "Only this project (projects, jobs, pvcs; repeatable)."),
        QStringLiteral("name"));
    const QCommandLineOption outputOption(QStringList{QStringLiteral("o"), QStringLiteral("output")},
                                          QCoreApplication::translate("cli", "Output format: table, json or csv."),
                                          QStringLiteral("format"),
                                          QStringLiteral("table"));
    const QCommandLineOption timeoutOption(
        QStringLiteral("timeout"),
        QCoreApplication::translate("cli", "Give up after this many seconds (default 120)."),
        QStringLiteral("seconds"),
        QStringLiteral("120"));
    parser.addOptions(
        {configOption, demoOption, sourceOption, volumeOption, projectOption, outputOption, timeoutOption});
    parser.addPositionalArgument(QStringLiteral("verb"), QCoreApplication::translate("cli", "get"));
    parser.addPositionalArgument(
        QStringLiteral("resource"),
        QCoreApplication::translate("cli", "sources, volumes, snapshots, clusters, nodes, projects, jobs or pvcs"));

    QStringList argv = arguments;
    argv.prepend(programName);
    if (!parser.parse(argv)) {
        err << programName << ": " << parser.errorText() << '\n';
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << parser.helpText();
        return 0;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        out << programName << ' ' << QCoreApplication::applicationVersion() << '\n';
        return 0;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2 || !verbs().contains(positional[0])
        || !resources().contains(normaliseResource(positional[1]))) {
        err << programName << ": "
            << QCoreApplication::translate(
                   "cli",
                   "usage: %1 [--config PATH | --demo] get "
                   "sources|volumes|snapshots|clusters|nodes|projects|jobs|pvcs [--source NAME] "
                   "[--volume NAME] [--project NAME] [-o table|json|csv]")
                   .arg(programName)
            << '\n';
        return 2;
    }
    const QString resource = normaliseResource(positional[1]);
    const QString formatName = parser.value(outputOption);
    Format format = Format::Table;
    if (formatName == QLatin1String("json")) {
        format = Format::Json;
    } else if (formatName == QLatin1String("csv")) {
        format = Format::Csv;
    } else if (formatName != QLatin1String("table") && formatName != QLatin1String("wide")) {
        err << programName << ": "
            << QCoreApplication::translate("cli", "unknown output format \"%1\" (table, json, csv)").arg(formatName)
            << '\n';
        return 2;
    }
    bool timeoutOk = false;
    const int timeoutSeconds = parser.value(timeoutOption).toInt(&timeoutOk);
    if (!timeoutOk || timeoutSeconds <= 0) {
        err << programName << ": " << QCoreApplication::translate("cli", "--timeout needs a positive number of seconds")
            << '\n';
        return 2;
    }

    core::AppConfig config;
    std::unique_ptr<DemoEstate> demo;
    core::ICredentialStore *store = &credentials;
    if (parser.isSet(demoOption)) {
        QString error;
        demo = DemoEstate::start({}, &error);
        if (!demo) {
            err << programName << ": "
                << QCoreApplication::translate("cli", "cannot start the demo estate: %1").arg(error) << '\n';
            return 2;
        }
        config = demo->config();
        store = &demo->credentials();
    } else {
        const QString path = parser.isSet(configOption) ? parser.value(configOption) : core::AppConfig::defaultPath();
        QString error;
        if (!core::AppConfig::load(path, &config, &error)) {
            err << programName << ": " << error << '\n';
            return 2;
        }
    }

    QList<core::SourceConfig> selected;
    const QStringList wanted = parser.values(sourceOption);
    for (const QString &name : wanted) {
        if (!config.source(name)) {
            err << programName << ": "
                << QCoreApplication::translate("cli", "no source named \"%1\" is configured").arg(name) << '\n';
            return 2;
        }
    }
    for (const core::SourceConfig &s : std::as_const(config.sources)) {
        if (wanted.isEmpty() || wanted.contains(s.name)) {
            selected.append(s);
        }
    }

    core::SystemClock clock;
    core::Engine engine({clock, *store, nullptr, user});
    engine.setSources(selected);
    if (!waitFor(
            [&] {
                return engine.allPolledOnce();
            },
            &engine,
            timeoutSeconds)) {
        err << programName << ": "
            << QCoreApplication::translate("cli", "timed out after %1 s waiting for the sources").arg(timeoutSeconds)
            << '\n';
    }

    int exitCode = 0;
    QStringList failed;
    for (const core::SourceStatus &s : engine.statuses()) {
        if (s.health != core::Health::Ok) {
            failed << s.name;
            const QString why =
                s.lastError.isEmpty() ? QCoreApplication::translate("cli", "no answer yet") : s.lastError;
            err << programName << ": " << QCoreApplication::translate("cli", "source %1: %2").arg(s.name, why) << '\n';
            exitCode = 1;
        }
    }

    if (resource == QLatin1String("sources")) {
        write(sourceRows(engine.statuses()), format, out);
        return exitCode;
    }

    if (isComputeResource(resource)) {
        ComputeFilter filter;
        filter.projects = parser.values(projectOption);
        for (const core::SourceConfig &s : std::as_const(selected)) {
            if (s.kind == core::SourceKind::Kubernetes && !failed.contains(s.name)) {
                filter.sources << s.name;
            }
        }
        if (filter.sources.isEmpty()) {
            // Nothing to list from (no Kubernetes source, or all failed): never all of the estate.
            filter.sources << QString();
        }
        const QStringList unknown = unknownProjects(engine.estate(), filter);
        if (!unknown.isEmpty() && resource != QLatin1String("clusters") && resource != QLatin1String("nodes")
            && exitCode == 0) {
            err << programName << ": "
                << QCoreApplication::translate("cli", "no project named %1").arg(unknown.join(QStringLiteral(", ")))
                << '\n';
            return 1;
        }
        if (resource == QLatin1String("clusters")) {
            write(clusterRows(engine.estate(), filter), format, out);
        } else if (resource == QLatin1String("nodes")) {
            write(nodeRows(engine.estate(), filter), format, out);
        } else if (resource == QLatin1String("projects")) {
            write(projectRows(engine.estate(), filter), format, out);
        } else if (resource == QLatin1String("jobs")) {
            write(jobRows(engine.estate(), filter, clock.now()), format, out);
        } else {
            write(pvcRows(engine.estate(), filter), format, out);
        }
        return exitCode;
    }

    std::vector<core::Ptr<core::Volume>> volumes;
    const QStringList volumeFilter = parser.values(volumeOption);
    for (const core::SourceConfig &s : std::as_const(selected)) {
        if (failed.contains(s.name)) {
            continue;
        }
        const auto list = engine.estate().volumes().scope(s.name);
        if (!list) {
            continue;
        }
        for (const core::Ptr<core::Volume> &v : list->items()) {
            if (volumeFilter.isEmpty() || volumeFilter.contains(v->name) || volumeFilter.contains(v->id)) {
                volumes.push_back(v);
            }
        }
    }
    if (!volumeFilter.isEmpty() && volumes.empty() && exitCode == 0) {
        err << programName << ": "
            << QCoreApplication::translate("cli", "no volume matches %1").arg(volumeFilter.join(QStringLiteral(", ")))
            << '\n';
        return 1;
    }
    // Stable, readable order whatever order the systems answered in (kubectl lists by name).
    std::sort(volumes.begin(), volumes.end(), [](const core::Ptr<core::Volume> &a, const core::Ptr<core::Volume> &b) {
        return std::tie(a->source, a->svm, a->name) < std::tie(b->source, b->svm, b->name);
    });
    if (resource == QLatin1String("volumes")) {
        write(volumeRows(volumes), format, out);
        return exitCode;
    }

    // Snapshots: one listing per volume, run concurrently (the transport caps in-flight requests).
    int pending = int(volumes.size());
    QStringList snapshotErrors;
    for (const core::Ptr<core::Volume> &v : volumes) {
        core::Source *source = engine.source(v->source);
        const QString label = v->source + QLatin1Char('/') + v->svm + QLatin1Char('/') + v->name;
        source->fetchSnapshots(v->id, [&pending, &snapshotErrors, label](const QString &error) {
            if (!error.isEmpty()) {
                snapshotErrors << label + QStringLiteral(": ") + error;
            }
            --pending;
        });
    }
    if (!waitFor(
            [&] {
                return pending == 0;
            },
            &engine,
            timeoutSeconds)) {
        snapshotErrors << QCoreApplication::translate("cli", "timed out listing snapshots");
    }
    std::vector<core::Ptr<core::Snapshot>> snapshots;
    for (const core::Ptr<core::Volume> &v : volumes) {
        if (const auto list = engine.estate().snapshots().scope(core::Estate::snapshotScope(v->source, v->id))) {
            snapshots.insert(snapshots.end(), list->items().begin(), list->items().end());
        }
    }
    std::stable_sort(
        snapshots.begin(), snapshots.end(), [](const core::Ptr<core::Snapshot> &a, const core::Ptr<core::Snapshot> &b) {
            return std::tie(a->source, a->svm, a->volumeName, a->created)
                   < std::tie(b->source, b->svm, b->volumeName, b->created);
        });
    for (const QString &e : std::as_const(snapshotErrors)) {
        err << programName << ": " << e << '\n';
        exitCode = 1;
    }
    write(snapshotRows(snapshots), format, out);
    return exitCode;
}

} // namespace strata::cli
