#include "models/core/runtime/timeline.h"

#include "models/core/domain/translate.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/historyservice.h"
#include "models/core/services/servicelevels.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QSet>

#include <algorithm>
#include <functional>
#include <set>
#include <utility>

namespace strata::core {

namespace {

Q_LOGGING_CATEGORY(lcTimeline, "strata.timeline", QtInfoMsg)

QString ms(const QDateTime &t)
{
    return QString::number(t.toMSecsSinceEpoch());
}

QString statusKeyOf(const QString &source, const QString &id)
{
    return source + QLatin1Char('/') + id;
}

struct VolumeLevel
{
    QString serviceLevel;
    QString qosPolicy;
    QString aggregate;
    bool operator==(const VolumeLevel &) const = default;
};

QString actionLabel(const QString &kind)
{
    static const QHash<QString, const char *> labels{
        {QStringLiteral("snapshot.create"), QT_TRANSLATE_NOOP("strata::core::Timeline", "Create snapshot")},
        {QStringLiteral("snapshot.delete"), QT_TRANSLATE_NOOP("strata::core::Timeline", "Delete snapshot")},
        {QStringLiteral("snapshot.restore"), QT_TRANSLATE_NOOP("strata::core::Timeline", "Restore snapshot")},
        {QStringLiteral("volume.clone"), QT_TRANSLATE_NOOP("strata::core::Timeline", "Clone volume")},
        {QStringLiteral("job.submit"), QT_TRANSLATE_NOOP("strata::core::Timeline", "Submit job")},
        {QStringLiteral("job.delete"), QT_TRANSLATE_NOOP("strata::core::Timeline", "Delete jobs")},
        {QStringLiteral("project.quota"), QT_TRANSLATE_NOOP("strata::core::Timeline", "Change project quota")},
        {QStringLiteral("volume.service_level"), QT_TRANSLATE_NOOP("strata::core::Timeline", "Change service level")},
        {QStringLiteral("dataset.commit"), QT_TRANSLATE_NOOP("strata::core::Timeline", "Commit dataset")},
        {QStringLiteral("cache.load"), QT_TRANSLATE_NOOP("strata::core::Timeline", "Cache commit")},
        {QStringLiteral("cache.evict"), QT_TRANSLATE_NOOP("strata::core::Timeline", "Evict cached commit")},
    };
    const auto it = labels.constFind(kind);
    return it == labels.cend() ? kind : tr(*it);
}

QString outcomeWord(const QString &outcome)
{
    if (outcome == QLatin1String("started")) {
        return tr("started");
    }
    if (outcome == QLatin1String("succeeded")) {
        return tr("succeeded");
    }
    if (outcome == QLatin1String("reconciled")) {
        return tr("already applied");
    }
    if (outcome == QLatin1String("failed")) {
        return tr("failed");
    }
    return outcome;
}

QString cacheTitle(CacheState state)
{
    switch (state) {
    case CacheState::Requested:
        return tr("Cache requested");
    case CacheState::Loading:
        return tr("Cache loading");
    case CacheState::Ready:
        return tr("Cache ready");
    case CacheState::Evicting:
        return tr("Cache evicting");
    case CacheState::Evicted:
        return tr("Cache evicted");
    case CacheState::Failed:
        return tr("Cache failed");
    }
    return {};
}

QString healthTitle(Health health)
{
    switch (health) {
    case Health::Ok:
        return tr("Source healthy");
    case Health::Degraded:
        return tr("Source degraded");
    case Health::Unreachable:
        return tr("Source unreachable");
    case Health::AuthRequired:
        return tr("Source needs authentication");
    case Health::Unknown:
        break;
    }
    return tr("Source state unknown");
}

TimelineSeverity healthSeverity(Health health)
{
    switch (health) {
    case Health::Degraded:
        return TimelineSeverity::Warning;
    case Health::Unreachable:
    case Health::AuthRequired:
        return TimelineSeverity::Error;
    case Health::Ok:
    case Health::Unknown:
        break;
    }
    return TimelineSeverity::Info;
}

} // namespace

QString timelineCategoryName(TimelineCategory category)
{
    switch (category) {
    case TimelineCategory::SystemEvent:
        return QStringLiteral("event");
    case TimelineCategory::Alert:
        return QStringLiteral("alert");
    case TimelineCategory::Operation:
        return QStringLiteral("operation");
    case TimelineCategory::Scheduler:
        return QStringLiteral("scheduler");
    case TimelineCategory::Cache:
        return QStringLiteral("cache");
    case TimelineCategory::ServiceLevel:
        return QStringLiteral("service_level");
    case TimelineCategory::Health:
        return QStringLiteral("health");
    }
    return {};
}

std::optional<TimelineCategory> timelineCategoryFromName(const QString &name)
{
    for (const TimelineCategory c : {TimelineCategory::SystemEvent,
                                     TimelineCategory::Alert,
                                     TimelineCategory::Operation,
                                     TimelineCategory::Scheduler,
                                     TimelineCategory::Cache,
                                     TimelineCategory::ServiceLevel,
                                     TimelineCategory::Health}) {
        if (timelineCategoryName(c) == name) {
            return c;
        }
    }
    return std::nullopt;
}

QJsonObject timelineEntryToJson(const TimelineEntry &entry)
{
    return QJsonObject{{QStringLiteral("id"), entry.id},
                       {QStringLiteral("time"), entry.time.toUTC().toString(Qt::ISODateWithMs)},
                       {QStringLiteral("category"), timelineCategoryName(entry.category)},
                       {QStringLiteral("severity"), timelineSeverityName(entry.severity)},
                       {QStringLiteral("system"), entry.system},
                       {QStringLiteral("source"), entry.source},
                       {QStringLiteral("title"), entry.title},
                       {QStringLiteral("message"), entry.message},
                       {QStringLiteral("object_kind"), entry.objectKind},
                       {QStringLiteral("object_id"), entry.objectId},
                       {QStringLiteral("object_name"), entry.objectName},
                       {QStringLiteral("project"), entry.project},
                       {QStringLiteral("volume"), entry.volume},
                       {QStringLiteral("job"), entry.job},
                       {QStringLiteral("user"), entry.user}};
}

std::optional<TimelineEntry> timelineEntryFromJson(const QJsonObject &object)
{
    const auto text = [&object](const char *key) {
        return object.value(QLatin1String(key)).toString();
    };
    TimelineEntry e;
    e.id = text("id");
    e.time = QDateTime::fromString(text("time"), Qt::ISODateWithMs).toUTC();
    const auto category = timelineCategoryFromName(text("category"));
    const auto severity = timelineSeverityFromName(text("severity"));
    if (e.id.isEmpty() || !e.time.isValid() || !category || !severity) {
        return std::nullopt;
    }
    e.category = *category;
    e.severity = *severity;
    e.system = text("system");
    e.source = text("source");
    e.title = text("title");
    e.message = text("message");
    e.objectKind = text("object_kind");
    e.objectId = text("object_id");
    e.objectName = text("object_name");
    e.project = text("project");
    e.volume = text("volume");
    e.job = text("job");
    e.user = text("user");
    return e;
}

bool TimelineFilter::matches(const TimelineEntry &entry) const
{
    if (!systems.isEmpty() && !systems.contains(entry.system)) {
        return false;
    }
    if (!sources.isEmpty() && !sources.contains(entry.source)) {
        return false;
    }
    if (!categories.isEmpty() && !categories.contains(timelineCategoryName(entry.category))) {
        return false;
    }
    if (minSeverity && entry.severity > *minSeverity) {
        return false;
    }
    if (!projects.isEmpty() && !projects.contains(entry.project)) {
        return false;
    }
    if (!volumes.isEmpty()) {
        const bool volumeObject = entry.objectKind == QLatin1String("volume");
        if (!(volumes.contains(entry.volume) && !entry.volume.isEmpty())
            && !(volumeObject && volumes.contains(entry.objectId))) {
            return false;
        }
    }
    if (!jobs.isEmpty()) {
        if (entry.job.isEmpty()) {
            return false;
        }
        const QString name = entry.job.section(QLatin1Char('/'), -1);
        if (!jobs.contains(entry.job) && !jobs.contains(name)) {
            return false;
        }
    }
    if (since.isValid() && entry.time < since) {
        return false;
    }
    if (until.isValid() && entry.time > until) {
        return false;
    }
    if (!search.isEmpty()) {
        const auto has = [this](const QString &text) {
            return text.contains(search, Qt::CaseInsensitive);
        };
        if (!has(entry.title) && !has(entry.message) && !has(entry.objectName) && !has(entry.source)) {
            return false;
        }
    }
    return true;
}

void sortTimeline(std::vector<TimelineEntry> &entries)
{
    std::sort(entries.begin(), entries.end(), [](const TimelineEntry &a, const TimelineEntry &b) {
        if (a.time != b.time) {
            return a.time > b.time;
        }
        return a.id < b.id;
    });
}

namespace {

constexpr QLatin1String kFiredSuffix(":fired");
constexpr QLatin1String kResolvedSuffix(":resolved");

bool isAlertResolution(const TimelineEntry &e)
{
    return e.category == TimelineCategory::Alert && e.id.endsWith(kResolvedSuffix);
}

bool isAlertFiring(const TimelineEntry &e)
{
    return e.category == TimelineCategory::Alert && e.id.endsWith(kFiredSuffix);
}

bool newerEntry(const TimelineEntry &a, const TimelineEntry &b)
{
    return a.time != b.time ? a.time > b.time : a.id < b.id;
}

} // namespace

QString timelineGroupStateName(const TimelineGroup &group)
{
    if (!group.alert) {
        return {};
    }
    return group.active ? QStringLiteral("active") : QStringLiteral("resolved");
}

QString timelineGroupKey(const TimelineEntry &entry)
{
    switch (entry.category) {
    case TimelineCategory::Alert:
        if (entry.objectId.isEmpty()) {
            break;
        }
        // The connector tells occurrences apart by "@<trigger time>" after the fingerprint.
        return QStringLiteral("alert:") + entry.source + QLatin1Char(':')
               + entry.objectId.section(QLatin1Char('@'), 0, 0);
    case TimelineCategory::SystemEvent:
        return QStringLiteral("event:") + entry.source + QLatin1Char(':') + entry.title + QLatin1Char(':')
               + entry.objectKind + QLatin1Char('/') + (entry.objectId.isEmpty() ? entry.objectName : entry.objectId);
    default:
        break;
    }
    return entry.id;
}

std::vector<TimelineGroup> groupTimeline(const std::vector<TimelineEntry> &entries,
                                         const std::function<bool(const QString &firedId)> &resolved)
{
    struct Building
    {
        TimelineGroup group;
        int occurrences = 0; // entries other than alert resolutions
        int resolutions = 0;
        const TimelineEntry *shown = nullptr; // newest occurrence, else newest resolution
        const TimelineEntry *newestFiring = nullptr;
        TimelineSeverity worst = TimelineSeverity::Info;
    };
    QHash<QString, std::size_t> index;
    std::vector<Building> building;
    QSet<QString> resolutionIds;
    std::vector<std::size_t> slotOf;
    slotOf.reserve(entries.size());
    for (const TimelineEntry &e : entries) {
        const QString key = timelineGroupKey(e);
        auto it = index.constFind(key);
        if (it == index.cend()) {
            it = index.insert(key, building.size());
            Building b;
            b.group.key = key;
            b.group.alert = e.category == TimelineCategory::Alert;
            b.group.firstSeen = e.time;
            b.group.lastSeen = e.time;
            building.push_back(std::move(b));
        }
        slotOf.push_back(*it);
        Building &b = building[*it];
        const bool resolution = isAlertResolution(e);
        if (resolution) {
            ++b.resolutions;
            resolutionIds.insert(e.id);
        } else {
            ++b.occurrences;
            b.worst = std::min(b.worst, e.severity);
        }
        const bool shownIsResolution = b.shown && isAlertResolution(*b.shown);
        if (!b.shown || (shownIsResolution && !resolution)
            || (resolution == shownIsResolution && newerEntry(e, *b.shown))) {
            b.shown = &e;
        }
        if (isAlertFiring(e) && (!b.newestFiring || newerEntry(e, *b.newestFiring))) {
            b.newestFiring = &e;
        }
    }
    std::vector<TimelineGroup> out;
    out.reserve(building.size());
    for (Building &b : building) {
        TimelineGroup &g = b.group;
        g.entry = *b.shown;
        g.count = b.occurrences > 0 ? b.occurrences : b.resolutions;
        g.firstSeen = g.entry.time;
        g.lastSeen = g.entry.time;
        if (b.occurrences > 0) {
            g.entry.severity = b.worst;
        }
        if (b.newestFiring) {
            const QString &firedId = b.newestFiring->id;
            g.active = resolved ? !resolved(firedId)
                                : !resolutionIds.contains(firedId.chopped(kFiredSuffix.size()) + kResolvedSuffix);
        }
    }
    // First seen over the occurrences (resolutions only when there is nothing else).
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const TimelineEntry &e = entries[i];
        Building &b = building[slotOf[i]];
        if (b.occurrences > 0 && isAlertResolution(e)) {
            continue;
        }
        b.group.firstSeen = std::min(b.group.firstSeen, e.time);
    }
    for (Building &b : building) {
        out.push_back(std::move(b.group));
    }
    std::sort(out.begin(), out.end(), [](const TimelineGroup &a, const TimelineGroup &b) {
        if (a.active != b.active) {
            return a.active;
        }
        if (a.active && a.entry.severity != b.entry.severity) {
            return a.entry.severity < b.entry.severity;
        }
        if (a.lastSeen != b.lastSeen) {
            return a.lastSeen > b.lastSeen;
        }
        return a.key < b.key;
    });
    return out;
}

struct Timeline::Private
{
    explicit Private(Engine &e)
        : engine(e)
    {}

    Engine &engine;
    /// Shared with the views' models, which hold the same entries.
    QHash<QString, Ptr<TimelineEntry>> entries;
    /// (time in ms, id) of every entry, oldest first: retention and capacity drop from the front.
    std::set<std::pair<qint64, QString>> byAge;
    bool live = true;
    bool auditLoaded = false;
    qint64 retentionSeconds = 7 * 24 * 3600;
    int capacity = 50000;
    // Last state seen per record ("<source>/<id>"), to turn diffs into transitions.
    QHash<QString, JobStatus> jobStatus;
    QHash<QString, CacheState> cacheState;
    QHash<QString, VolumeLevel> volumeLevel;
    QHash<QString, Health> health;

    [[nodiscard]] QString systemOf(const QString &source, const QString &fallback) const
    {
        for (const SourceConfig &c : engine.sourceConfigs()) {
            if (c.name == source) {
                return sourceKindName(c.kind);
            }
        }
        return fallback;
    }
};

Timeline::Timeline(Engine &engine, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>(engine))
{
    Estate &estate = engine.estate();
    connect(&estate, &Estate::eventsChanged, this, [this](const EventDiff &diff) {
        std::vector<TimelineEntry> out;
        for (const auto *list : {&diff.added, &diff.changed}) {
            for (const Ptr<Event> &e : *list) {
                const QString system = d->systemOf(
                    e->source, e->object.isEmpty() ? QStringLiteral("ontap") : QStringLiteral("kubernetes"));
                TimelineEntry t;
                t.id = QStringLiteral("event:") + e->source + QLatin1Char(':') + e->id;
                t.time = e->time.isValid() ? e->time.toUTC() : d->engine.clock().now();
                t.category = TimelineCategory::SystemEvent;
                t.severity = severityFromSystem(system, e->severity);
                t.system = system;
                t.source = e->source;
                t.title = e->name;
                t.message = e->message;
                if (!e->object.isEmpty()) {
                    // Kubernetes: "<Kind> <namespace>/<name>" or "<Kind> <name>".
                    const QString kind = e->object.section(QLatin1Char(' '), 0, 0);
                    const QString name = e->object.section(QLatin1Char(' '), 1);
                    t.objectName = name;
                    const QString ns =
                        name.contains(QLatin1Char('/')) ? name.section(QLatin1Char('/'), 0, 0) : QString();
                    const QString leaf = name.section(QLatin1Char('/'), -1);
                    if (kind == QLatin1String("Node")) {
                        t.objectKind = QStringLiteral("node");
                        t.objectId = leaf;
                    } else if (kind == QLatin1String("Pod") || kind == QLatin1String("Job")) {
                        Ptr<Job> job;
                        if (const auto jobs = d->engine.estate().jobs().scope(e->source)) {
                            job = jobs->find(statusKeyOf(e->source, name));
                            if (!job && kind == QLatin1String("Pod")) {
                                for (const Ptr<Job> &j : jobs->items()) {
                                    if (j->namespaceName == ns
                                        && (j->podName == leaf || leaf.startsWith(j->name + QLatin1Char('-')))) {
                                        job = j;
                                        break;
                                    }
                                }
                            }
                        }
                        if (job) {
                            t.objectKind = QStringLiteral("job");
                            t.objectId = job->id;
                            t.objectName = job->id;
                            t.job = job->id;
                            t.project = job->project;
                            t.user = job->user;
                        }
                    } else if (kind == QLatin1String("PersistentVolumeClaim")) {
                        t.objectKind = QStringLiteral("pvc");
                        t.objectId = name;
                    }
                } else if (!e->node.isEmpty()) {
                    t.objectKind = QStringLiteral("node");
                    t.objectId = e->node;
                    t.objectName = e->node;
                }
                out.push_back(std::move(t));
            }
        }
        add(std::move(out));
    });
    connect(&estate, &Estate::gridAlertsChanged, this, [this](const GridAlertDiff &diff) {
        std::vector<TimelineEntry> out;
        for (const auto *list : {&diff.added, &diff.changed}) {
            for (const Ptr<GridAlert> &a : *list) {
                TimelineEntry t;
                t.category = TimelineCategory::Alert;
                t.system = QStringLiteral("storagegrid");
                t.source = a->source;
                t.objectKind = QStringLiteral("alert");
                t.objectId = a->id;
                t.objectName =
                    a->node.isEmpty() ? a->name : a->name + QStringLiteral(" (") + a->node + QLatin1Char(')');
                t.message = a->summary.isEmpty() ? a->description : a->summary;
                const QString base = QStringLiteral("alert:") + a->source + QLatin1Char(':') + a->id;
                if (a->startsAt.isValid()) {
                    TimelineEntry fired = t;
                    fired.id = base + QStringLiteral(":fired");
                    fired.time = a->startsAt.toUTC();
                    fired.severity = severityFromSystem(t.system, a->severity);
                    fired.title = tr("Alert fired: %1").arg(a->name);
                    out.push_back(std::move(fired));
                }
                if (a->resolved) {
                    TimelineEntry resolved = t;
                    resolved.id = base + QStringLiteral(":resolved");
                    resolved.time = a->endsAt.isValid() ? a->endsAt.toUTC() : d->engine.clock().now();
                    resolved.severity = TimelineSeverity::Info;
                    resolved.title = tr("Alert resolved: %1").arg(a->name);
                    out.push_back(std::move(resolved));
                }
            }
        }
        add(std::move(out));
    });
    connect(&estate, &Estate::jobsChanged, this, [this](const JobDiff &diff) {
        onJobs(diff);
    });
    connect(&estate, &Estate::cachedCommitsChanged, this, [this](const CachedCommitDiff &diff) {
        onCaches(diff);
    });
    connect(&estate, &Estate::volumesChanged, this, [this](const VolumeDiff &diff) {
        onVolumes(diff);
    });
    connect(&engine, &Engine::sourceStatusChanged, this, [this](const QString &name) {
        onSourceStatus(name);
    });
    connect(&engine.actions(), &ActionManager::audited, this, [this](const AuditEntry &entry) {
        std::vector<TimelineEntry> out;
        out.push_back(fromAudit(entry));
        add(std::move(out));
    });
    if (HistoryService *history = engine.history()) {
        history->auditLog(500, {}, this, [this](const Result<std::vector<AuditEntry>> &log) {
            if (!log) {
                // The timeline still shows what happens from now on.
                qCWarning(lcTimeline).noquote() << "cannot read the audit log:" << log.error().message;
            }
            if (d->live && log) {
                std::vector<TimelineEntry> out;
                out.reserve(log->size());
                for (const AuditEntry &entry : *log) {
                    out.push_back(fromAudit(entry));
                }
                add(std::move(out));
            }
            d->auditLoaded = true;
            Q_EMIT auditLoadedChanged();
        });
    } else {
        d->auditLoaded = true;
    }
}

Timeline::~Timeline() = default;

std::vector<TimelineEntry> Timeline::entries(const TimelineFilter &filter) const
{
    std::vector<TimelineEntry> out;
    for (const Ptr<TimelineEntry> &e : std::as_const(d->entries)) {
        if (filter.matches(*e)) {
            out.push_back(*e);
        }
    }
    sortTimeline(out);
    if (filter.limit > 0 && out.size() > std::size_t(filter.limit)) {
        out.resize(std::size_t(filter.limit));
    }
    return out;
}

std::vector<TimelineGroup> Timeline::groups(const TimelineFilter &filter) const
{
    TimelineFilter all = filter;
    all.limit = 0;
    std::vector<TimelineGroup> out = groupTimeline(entries(all), [this](const QString &firedId) {
        return d->entries.contains(firedId.chopped(kFiredSuffix.size()) + kResolvedSuffix);
    });
    const std::size_t skip = std::min(out.size(), std::size_t(std::max(0, filter.offset)));
    out.erase(out.begin(), out.begin() + qsizetype(skip));
    if (filter.limit > 0 && out.size() > std::size_t(filter.limit)) {
        out.resize(std::size_t(filter.limit));
    }
    return out;
}

std::optional<TimelineEntry> Timeline::entry(const QString &id) const
{
    const auto it = d->entries.constFind(id);
    return it == d->entries.cend() ? std::nullopt : std::optional<TimelineEntry>(**it);
}

Ptr<TimelineEntry> Timeline::sharedEntry(const QString &id) const
{
    return d->entries.value(id);
}

int Timeline::size() const
{
    return int(d->entries.size());
}

bool Timeline::auditLoaded() const
{
    return d->auditLoaded;
}

bool Timeline::isLive() const
{
    return d->live;
}

QDateTime Timeline::now() const
{
    return d->engine.clock().now();
}

void Timeline::setRetention(qint64 seconds)
{
    d->retentionSeconds = seconds;
}

void Timeline::setCapacity(int entries)
{
    d->capacity = std::max(1, entries);
}

void Timeline::restore(std::vector<TimelineEntry> entries)
{
    d->live = false;
    QStringList removed = d->entries.keys();
    d->entries.clear();
    d->byAge.clear();
    QStringList added;
    for (TimelineEntry &e : entries) {
        if (const Ptr<TimelineEntry> before = d->entries.value(e.id)) {
            d->byAge.erase({before->time.toMSecsSinceEpoch(), e.id});
        } else {
            added << e.id;
        }
        const QString id = e.id;
        d->byAge.emplace(e.time.toMSecsSinceEpoch(), id);
        d->entries.insert(id, std::make_shared<const TimelineEntry>(std::move(e)));
    }
    // A key in both lists was replaced: views drop it, then show the restored one.
    Q_EMIT entriesChanged(added, removed);
    if (!d->auditLoaded) {
        d->auditLoaded = true;
        Q_EMIT auditLoadedChanged();
    }
}

QHash<QString, Timeline::AlertCounts> Timeline::attentionBySystem(const QDateTime &now) const
{
    QHash<QString, AlertCounts> out;
    const auto count = [&out](const QString &system, TimelineSeverity severity) {
        AlertCounts &c = out[system];
        switch (severity) {
        case TimelineSeverity::Critical:
            ++c.critical;
            break;
        case TimelineSeverity::Error:
            ++c.error;
            break;
        case TimelineSeverity::Warning:
            ++c.warning;
            break;
        case TimelineSeverity::Info:
            break;
        }
    };
    // Latest health entry per source: its severity is the source's current state.
    QHash<QString, const TimelineEntry *> latestHealth;
    for (const Ptr<TimelineEntry> &entry : std::as_const(d->entries)) {
        const TimelineEntry &e = *entry;
        switch (e.category) {
        case TimelineCategory::Alert:
            if (e.id.endsWith(QLatin1String(":fired"))) {
                const QString resolved = e.id.chopped(int(qstrlen(":fired"))) + QStringLiteral(":resolved");
                if (!d->entries.contains(resolved)) {
                    count(e.system, e.severity);
                }
            }
            break;
        case TimelineCategory::SystemEvent:
            if (e.system == QLatin1String("kubernetes")) {
                if (e.severity <= TimelineSeverity::Warning && e.time >= now.addSecs(-3600)) {
                    count(e.system, e.severity);
                }
            } else if (e.severity <= TimelineSeverity::Error && e.time >= now.addSecs(-24 * 3600)) {
                count(e.system, e.severity);
            }
            break;
        case TimelineCategory::Health: {
            const TimelineEntry *&latest = latestHealth[e.source];
            if (!latest || latest->time < e.time || (latest->time == e.time && latest->id < e.id)) {
                latest = &e;
            }
            break;
        }
        default:
            break;
        }
    }
    for (const TimelineEntry *e : std::as_const(latestHealth)) {
        count(e->system, e->severity);
    }
    // Systems with nothing worth attention do not appear.
    out.removeIf([](const QHash<QString, AlertCounts>::iterator &it) {
        return it.value() == AlertCounts{};
    });
    return out;
}

void Timeline::add(std::vector<TimelineEntry> entries)
{
    if (!d->live) {
        return;
    }
    const QDateTime now = d->engine.clock().now();
    const QDateTime cutoff = now.addSecs(-d->retentionSeconds);
    QStringList added;
    d->entries.reserve(d->entries.size() + qsizetype(entries.size()));
    for (TimelineEntry &e : entries) {
        if (e.id.isEmpty() || !e.time.isValid() || e.time < cutoff || d->entries.contains(e.id)) {
            continue;
        }
        added << e.id;
        const QString id = e.id;
        d->byAge.emplace(e.time.toMSecsSinceEpoch(), id);
        d->entries.insert(id, std::make_shared<const TimelineEntry>(std::move(e)));
    }
    QStringList removed;
    // Oldest first (then by id): what retention, then capacity, drop, without visiting the rest.
    const qint64 cutoffMs = cutoff.toMSecsSinceEpoch();
    while (!d->byAge.empty() && (d->byAge.begin()->first < cutoffMs || d->entries.size() > qsizetype(d->capacity))) {
        const QString id = d->byAge.begin()->second;
        d->byAge.erase(d->byAge.begin());
        d->entries.remove(id);
        removed << id;
    }
    if (!removed.isEmpty()) {
        // An entry added and dropped in the same batch was never shown.
        QStringList stillAdded;
        for (const QString &id : std::as_const(added)) {
            if (d->entries.contains(id)) {
                stillAdded << id;
            }
        }
        // A set: a first poll of a large cluster adds and drops tens of thousands at once.
        const QSet<QString> addedIds(added.cbegin(), added.cend());
        QStringList gone;
        for (const QString &id : std::as_const(removed)) {
            if (!addedIds.contains(id)) {
                gone << id;
            }
        }
        added = stillAdded;
        removed = gone;
    }
    if (!added.isEmpty() || !removed.isEmpty()) {
        Q_EMIT entriesChanged(added, removed);
    }
}

TimelineEntry Timeline::fromAudit(const AuditEntry &a) const
{
    TimelineEntry t;
    t.id = QStringLiteral("operation:") + a.actionId + QLatin1Char(':') + a.outcome + QLatin1Char(':') + ms(a.time);
    t.time = a.time.toUTC();
    t.category = TimelineCategory::Operation;
    t.severity = a.outcome == QLatin1String("failed") ? TimelineSeverity::Error : TimelineSeverity::Info;
    t.system = a.source.isEmpty() ? QStringLiteral("strata") : d->systemOf(a.source, QStringLiteral("strata"));
    t.source = a.source;
    t.title = actionLabel(a.kind) + QLatin1Char(' ') + outcomeWord(a.outcome);
    QStringList parts;
    if (!a.fromState.isEmpty() || !a.toState.isEmpty()) {
        parts << QStringLiteral("%1 → %2").arg(a.fromState, a.toState);
    }
    if (!a.message.isEmpty()) {
        parts << a.message;
    }
    t.message = parts.join(QStringLiteral("; "));
    t.user = a.user;
    t.objectName = a.target;
    const bool volumeKind =
        a.kind.startsWith(QLatin1String("volume.")) || a.kind.startsWith(QLatin1String("snapshot."));
    if (volumeKind) {
        Ptr<Volume> volume;
        const QString id = volumeIdFromAuditTarget(a.target);
        if (!id.isEmpty()) {
            volume = d->engine.estate().volume(a.source, id);
        }
        // Other volume actions name it "<svm or account>/<volume>[@snapshot]".
        const QString label = a.target.section(QLatin1Char('@'), 0, 0).section(QLatin1Char(' '), 0, 0);
        if (!volume) {
            if (const auto list = d->engine.estate().volumes().scope(a.source)) {
                for (const Ptr<Volume> &v : list->items()) {
                    if (v->svm + QLatin1Char('/') + v->name == label) {
                        volume = v;
                        break;
                    }
                }
            }
        }
        t.objectKind = QStringLiteral("volume");
        t.objectId = volume ? volume->id : id;
        t.volume = volume ? volume->name : label.section(QLatin1Char('/'), -1);
    } else if (a.kind.startsWith(QLatin1String("job.submit"))) {
        // "<source>/<namespace>/<name>"
        const QString job = a.target.section(QLatin1Char('/'), 1);
        t.objectKind = QStringLiteral("job");
        t.objectId = job;
        t.job = job;
        if (const Ptr<Job> j = d->engine.estate().jobs().find(a.source, statusKeyOf(a.source, job))) {
            t.project = j->project;
        }
    } else if (a.kind == QLatin1String("project.quota")) {
        t.objectKind = QStringLiteral("project");
        t.objectId = a.target.section(QLatin1Char('/'), -1);
        t.project = t.objectId;
    } else if (a.kind.startsWith(QLatin1String("cache."))) {
        t.objectKind = QStringLiteral("cached_commit");
    }
    return t;
}

namespace {

// A job transition the timeline will show, before its entry is written: the first poll of a
// large cluster yields two per job, most beyond the capacity, so only the kept ones are written.
enum class JobMomentKind
{
    Queued,
    Started,
    Preempted,
    Ended
};

struct JobMoment
{
    const Job *job = nullptr;
    JobMomentKind kind = JobMomentKind::Queued;
    QDateTime when;
    QString id; ///< the entry's id
};

QString jobMomentWord(const JobMoment &m)
{
    switch (m.kind) {
    case JobMomentKind::Queued:
        return QStringLiteral("queued");
    case JobMomentKind::Started:
        return QStringLiteral("started");
    case JobMomentKind::Preempted:
        return QStringLiteral("preempted");
    case JobMomentKind::Ended:
        break;
    }
    return m.job->status == JobStatus::Failed ? QStringLiteral("failed") : QStringLiteral("finished");
}

// Drops the moments that cannot survive the capacity: when `capacity` or more distinct entries
// (the ones `held` and the other new moments) are newer than a moment, Timeline::add() would
// trim it in the same batch. Ties with the `capacity`-th newest stay: add() settles them by id,
// exactly as without this step. `held` are the times (ms) of the entries the timeline keeps
// past the retention; the moments' ids are new to it.
void keepNewestJobMoments(std::vector<JobMoment> &moments, std::vector<qint64> held, int capacity)
{
    const auto keep = std::size_t(capacity);
    if (moments.size() + held.size() <= keep || moments.empty()) {
        return;
    }
    std::vector<qint64> &times = held;
    times.reserve(times.size() + moments.size());
    for (const JobMoment &m : moments) {
        times.push_back(m.when.toMSecsSinceEpoch());
    }
    std::nth_element(times.begin(), times.begin() + qsizetype(keep) - 1, times.end(), std::greater<>());
    const qint64 boundary = times[keep - 1];
    std::erase_if(moments, [boundary](const JobMoment &m) {
        return m.when.toMSecsSinceEpoch() < boundary;
    });
}

} // namespace

void Timeline::onJobs(const JobDiff &diff)
{
    // Below this, a batch is trimmed against itself only (the held entries' times are not read).
    constexpr std::size_t kManyJobMoments = 1000;
    const QDateTime now = d->engine.clock().now();
    const auto isEnded = [](JobStatus s) {
        return s == JobStatus::Succeeded || s == JobStatus::Failed;
    };
    const auto isStarting = [](JobStatus s) {
        return s == JobStatus::ContainerCreating || s == JobStatus::Running;
    };
    const QDateTime cutoff = now.addSecs(-d->retentionSeconds);
    std::vector<JobMoment> moments;
    const auto note = [&moments, &cutoff](const Job &job, JobMomentKind kind, const QDateTime &when) {
        // Older than the retention: add() would skip it.
        if (when.isValid() && when >= cutoff) {
            moments.push_back(JobMoment{&job, kind, when, {}});
        }
    };
    for (const auto *list : {&diff.added, &diff.changed}) {
        for (const Ptr<Job> &job : *list) {
            const QString key = estateKey(*job);
            const auto it = d->jobStatus.constFind(key);
            if (it == d->jobStatus.cend()) {
                // First sight (a one-shot CLI sees only this): what the timestamps tell.
                if (job->created.isValid()) {
                    note(*job, JobMomentKind::Queued, job->created);
                }
                if (job->started.isValid()) {
                    note(*job, JobMomentKind::Started, job->started);
                }
                if (isEnded(job->status)) {
                    note(*job, JobMomentKind::Ended, job->finished.isValid() ? job->finished : now);
                }
            } else if (*it != job->status) {
                const JobStatus before = *it;
                if (isStarting(job->status) && !isStarting(before)) {
                    note(*job, JobMomentKind::Started, job->started.isValid() ? job->started : now);
                } else if (job->status == JobStatus::Preempted && isStarting(before)) {
                    note(*job, JobMomentKind::Preempted, now);
                } else if (isEnded(job->status) && !isEnded(before)) {
                    note(*job, JobMomentKind::Ended, job->finished.isValid() ? job->finished : now);
                }
            }
            d->jobStatus.insert(key, job->status);
        }
    }
    for (const QString &key : diff.removed) {
        d->jobStatus.remove(key);
    }
    // Ids first (cheap next to the texts): one the timeline holds already is skipped by add().
    for (JobMoment &m : moments) {
        m.id = QStringLiteral("scheduler:") + m.job->source + QLatin1Char(':') + m.job->id + QLatin1Char(':')
               + jobMomentWord(m) + QLatin1Char(':') + ms(m.when);
    }
    std::erase_if(moments, [this](const JobMoment &m) {
        return d->entries.contains(m.id);
    });
    // A large batch (a first poll) against a full timeline: only what would stay is written.
    std::vector<qint64> held;
    if (moments.size() >= kManyJobMoments
        && moments.size() + std::size_t(d->entries.size()) > std::size_t(d->capacity)) {
        held.reserve(d->byAge.size());
        const qint64 cutoffMs = cutoff.toMSecsSinceEpoch();
        for (const auto &[time, id] : d->byAge) {
            if (time >= cutoffMs) {
                held.push_back(time);
            }
        }
    }
    keepNewestJobMoments(moments, std::move(held), d->capacity);

    // One title string per kind, shared by every entry of the batch.
    const QString queuedTitle = tr("Job queued");
    const QString startedTitle = tr("Job started");
    const QString preemptedTitle = tr("Job preempted");
    const QString failedTitle = tr("Job failed");
    const QString finishedTitle = tr("Job finished");
    const QString system = QStringLiteral("kubernetes");
    const QString jobKind = QStringLiteral("job");
    std::vector<TimelineEntry> out;
    out.reserve(moments.size());
    for (const JobMoment &m : moments) {
        const Job &job = *m.job;
        const bool failed = job.status == JobStatus::Failed;
        const QString gpus = formatGpus(job.gpusRequested);
        TimelineEntry t;
        switch (m.kind) {
        case JobMomentKind::Queued:
            t.title = queuedTitle;
            t.message =
                tr("%1 (%2, %3 GPUs) queued in project %4").arg(job.id, jobTypeName(job.type), gpus, job.project);
            break;
        case JobMomentKind::Started:
            t.title = startedTitle;
            t.message = job.node.isEmpty() ? tr("%1 (%2 GPUs) started").arg(job.id, gpus)
                                           : tr("%1 (%2 GPUs) started on %3").arg(job.id, gpus, job.node);
            break;
        case JobMomentKind::Preempted:
            t.title = preemptedTitle;
            t.severity = TimelineSeverity::Warning;
            t.message = job.pendingReason.isEmpty()
                            ? tr("%1 of project %2 gave its %3 GPUs back").arg(job.id, job.project, gpus)
                            : tr("%1 of project %2 gave its %3 GPUs back: %4")
                                  .arg(job.id, job.project, gpus, job.pendingReason);
            break;
        case JobMomentKind::Ended:
            t.title = failed ? failedTitle : finishedTitle;
            t.severity = failed ? TimelineSeverity::Error : TimelineSeverity::Info;
            t.message = failed ? tr("%1 failed").arg(job.id) : tr("%1 succeeded").arg(job.id);
            break;
        }
        t.id = m.id;
        t.time = m.when.toUTC();
        t.category = TimelineCategory::Scheduler;
        t.system = system;
        t.source = job.source;
        t.objectKind = jobKind;
        t.objectId = job.id;
        t.objectName = job.id;
        t.project = job.project;
        t.job = job.id;
        t.user = job.user;
        out.push_back(std::move(t));
    }
    add(std::move(out));
}

void Timeline::onCaches(const CachedCommitDiff &diff)
{
    std::vector<TimelineEntry> out;
    const QDateTime now = d->engine.clock().now();
    const auto make = [&out](const CachedCommit &c, CacheState state, const QDateTime &when) {
        TimelineEntry t;
        t.id = QStringLiteral("cache:") + c.source + QLatin1Char(':') + c.id + QLatin1Char(':') + cacheStateName(state)
               + QLatin1Char(':') + ms(when);
        t.time = when.toUTC();
        t.category = TimelineCategory::Cache;
        t.severity = state == CacheState::Failed ? TimelineSeverity::Error : TimelineSeverity::Info;
        t.system = QStringLiteral("kubernetes");
        t.source = c.source;
        t.title = cacheTitle(state);
        t.objectKind = QStringLiteral("cached_commit");
        t.objectId = c.id;
        t.objectName = QStringLiteral("%1@%2 on %3").arg(c.datasetName, c.commitId.left(8), c.target);
        t.message = state == CacheState::Failed && !c.reason.isEmpty()
                        ? tr("%1: %2").arg(t.objectName, c.reason)
                        : (state == CacheState::Evicting && !c.evictReason.isEmpty()
                               ? tr("%1: %2").arg(t.objectName, c.evictReason)
                               : t.objectName);
        out.push_back(std::move(t));
    };
    for (const auto *list : {&diff.added, &diff.changed}) {
        for (const Ptr<CachedCommit> &c : *list) {
            const QString key = estateKey(*c);
            const auto it = d->cacheState.constFind(key);
            if (it == d->cacheState.cend()) {
                if (c->requested.isValid()) {
                    make(*c, CacheState::Requested, c->requested);
                }
                if (c->readyAt.isValid()) {
                    make(*c, CacheState::Ready, c->readyAt);
                }
                if (c->state == CacheState::Failed) {
                    make(*c, CacheState::Failed, now);
                }
            } else if (*it != c->state) {
                const QDateTime when = c->state == CacheState::Ready && c->readyAt.isValid() ? c->readyAt : now;
                make(*c, c->state, when);
            }
            d->cacheState.insert(key, c->state);
        }
    }
    for (const QString &key : diff.removed) {
        d->cacheState.remove(key);
    }
    add(std::move(out));
}

void Timeline::onVolumes(const VolumeDiff &diff)
{
    std::vector<TimelineEntry> out;
    const QDateTime now = d->engine.clock().now();
    for (const auto *list : {&diff.added, &diff.changed}) {
        for (const Ptr<Volume> &v : *list) {
            const QString key = estateKey(*v);
            const VolumeLevel level{v->serviceLevel, v->qosPolicy, v->aggregate};
            const auto it = d->volumeLevel.constFind(key);
            if (it != d->volumeLevel.cend() && !(*it == level)) {
                const VolumeLevel &before = *it;
                QStringList changes;
                QString title;
                if (before.serviceLevel != level.serviceLevel) {
                    changes << tr("service level %1 → %2").arg(before.serviceLevel, level.serviceLevel);
                    title = tr("Service level changed");
                }
                if (before.aggregate != level.aggregate) {
                    changes << (v->isAnf() ? tr("capacity pool %1 → %2") : tr("aggregate %1 → %2"))
                                   .arg(before.aggregate, level.aggregate);
                    if (title.isEmpty()) {
                        title = v->isAnf() ? tr("Capacity pool changed") : tr("Volume moved");
                    }
                }
                if (before.qosPolicy != level.qosPolicy) {
                    const QString none = tr("none");
                    changes << tr("QoS policy %1 → %2")
                                   .arg(before.qosPolicy.isEmpty() ? none : before.qosPolicy,
                                        level.qosPolicy.isEmpty() ? none : level.qosPolicy);
                    if (title.isEmpty()) {
                        title = tr("QoS policy changed");
                    }
                }
                TimelineEntry t;
                t.id = QStringLiteral("service_level:") + v->source + QLatin1Char(':') + v->id + QLatin1Char(':')
                       + ms(now);
                t.time = now;
                t.category = TimelineCategory::ServiceLevel;
                t.system = v->isAnf() ? QStringLiteral("azure") : d->systemOf(v->source, QStringLiteral("ontap"));
                t.source = v->source;
                t.title = title;
                t.message = tr("%1/%2: %3").arg(v->svm, v->name, changes.join(QStringLiteral(", ")));
                t.objectKind = QStringLiteral("volume");
                t.objectId = v->id;
                t.objectName = v->svm + QLatin1Char('/') + v->name;
                t.volume = v->name;
                out.push_back(std::move(t));
            }
            d->volumeLevel.insert(key, level);
        }
    }
    for (const QString &key : diff.removed) {
        d->volumeLevel.remove(key);
    }
    add(std::move(out));
}

void Timeline::onSourceStatus(const QString &name)
{
    const std::optional<SourceStatus> status = d->engine.status(name);
    if (!status || status->health == Health::Unknown) {
        return;
    }
    const auto it = d->health.constFind(name);
    const bool changed = it == d->health.cend() ? status->health != Health::Ok : *it != status->health;
    d->health.insert(name, status->health);
    if (!changed) {
        return;
    }
    const QDateTime now = d->engine.clock().now();
    TimelineEntry t;
    t.id =
        QStringLiteral("health:") + name + QLatin1Char(':') + healthName(status->health) + QLatin1Char(':') + ms(now);
    t.time = now;
    t.category = TimelineCategory::Health;
    t.severity = healthSeverity(status->health);
    t.system = sourceKindName(status->kind);
    t.source = name;
    t.title = healthTitle(status->health);
    t.message = status->lastError;
    t.objectKind = QStringLiteral("source");
    t.objectId = name;
    t.objectName = name;
    std::vector<TimelineEntry> out;
    out.push_back(std::move(t));
    add(std::move(out));
}

} // namespace strata::core
