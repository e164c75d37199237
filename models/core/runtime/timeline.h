#pragma once

#include "models/core/domain/estate.h"
#include "models/core/domain/records.h"
#include "models/core/domain/severity.h"
#include "models/core/store/historystore.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace strata::core {

class Engine;

/// Where a timeline entry comes from.
enum class TimelineCategory
{
    SystemEvent,  ///< an event the system logged: ONTAP EMS, Kubernetes Event
    Alert,        ///< StorageGRID alert fired or resolved
    Operation,    ///< a Strata action (audit log), including Azure long-running operations
    Scheduler,    ///< a job queued, started, preempted, finished or failed
    Cache,        ///< a cached commit changed state (requested, loading, ready, evicting, evicted, failed)
    ServiceLevel, ///< a volume's service level (ANF level or ONTAP QoS policy) or capacity pool changed
    Health        ///< a source's health changed (ok, degraded, unreachable, auth_required)
};

/// "event", "alert", "operation", "scheduler", "cache", "service_level", "health"
QString timelineCategoryName(TimelineCategory category);
std::optional<TimelineCategory> timelineCategoryFromName(const QString &name);

/// One entry of the merged triage timeline. Key: `id`, stable across polls and processes for
/// entries the systems report (so re-polling never duplicates), e.g. "event:ontap-ai:node1/4711",
/// "alert:datalake:<alertId>:fired", "scheduler:dgx:runai-team-a/a-1:preempted:<utc ms>".
struct TimelineEntry
{
    QString id;
    QDateTime time; ///< UTC, when it happened according to the system (or when Strata saw it)
    TimelineCategory category = TimelineCategory::SystemEvent;
    TimelineSeverity severity = TimelineSeverity::Info;
    QString system; ///< "ontap", "storagegrid", "azure", "kubernetes" (sourceKindName), "strata" for sourceless
    QString source; ///< source name, may be empty for Strata's own entries
    QString title;  ///< short: "Job preempted", "wafl.vol.full", "Alert fired: Low object data storage"
    QString message;
    /// The object it concerns, for "jump to": kind is one of "volume", "job", "project", "node",
    /// "pvc", "cached_commit", "dataset", "alert", "source", "pool", "" (none); id is the key in
    /// the estate's table of that kind (Volume::id, Job::id "<ns>/<name>", ...).
    QString objectKind;
    QString objectId;
    QString objectName; ///< human-readable name of the object ("chest_xray", "runai-team-a/a-1")
    // Filter facets; empty when not applicable.
    QString project; ///< project (queue) name
    QString volume;  ///< volume name
    QString job;     ///< job id "<ns>/<name>"
    QString user;    ///< who did it (operations), may be empty

    bool operator==(const TimelineEntry &) const = default;
};

/// What the Triage page, `strata get events` and GET /api/v1/events narrow the timeline to.
/// Empty lists and invalid times select everything; lists match any of their values exactly,
/// except `search`, a case-insensitive substring of title, message, object name, source.
struct TimelineFilter
{
    QStringList systems;    ///< "ontap", "storagegrid", "azure", "kubernetes", "strata"
    QStringList sources;    ///< source names
    QStringList categories; ///< timelineCategoryName()s
    /// Worst severity still shown: Warning shows critical, error and warning. nullopt = all.
    std::optional<TimelineSeverity> minSeverity;
    QStringList projects;
    QStringList volumes; ///< volume names or ids
    QStringList jobs;    ///< job ids "<ns>/<name>" or job names
    QDateTime since;     ///< UTC, inclusive
    QDateTime until;     ///< UTC, inclusive
    QString search;
    int limit = 0;  ///< newest `limit` entries (Timeline::groups(): rows), 0 = all
    int offset = 0; ///< Timeline::groups() only: rows skipped before `limit` counts (a page), >= 0

    [[nodiscard]] bool matches(const TimelineEntry &entry) const;
};

/// An entry as a JSON object with the keys `strata get events -o json` prints (id, time ISO-8601
/// UTC with ms, category, severity, system, source, title, message, object_kind, object_id,
/// object_name, project, volume, job, user): support bundles carry the timeline this way.
QJsonObject timelineEntryToJson(const TimelineEntry &entry);
/// The entry of timelineEntryToJson(); nullopt when `id`, `time`, `category` or `severity` is
/// missing or invalid. Unknown keys are ignored.
std::optional<TimelineEntry> timelineEntryFromJson(const QJsonObject &object);

/// Newest first, then by id: the order of Timeline::entries().
void sortTimeline(std::vector<TimelineEntry> &entries);

/// Occurrences of one thing, shown as one row by the Triage page, `strata get events` and
/// GET /api/v1/events: every firing of a StorageGRID alert on its node (the grid's fingerprint
/// stays the same across firings), and repeats of a system event (same source, name and
/// object). Any other entry (operations, scheduler, cache, service-level and health changes)
/// is a group of its own.
struct TimelineGroup
{
    QString key; ///< timelineGroupKey() of its entries
    /// What the row shows: the newest occurrence, with the worst severity of all occurrences.
    TimelineEntry entry;
    /// Occurrences: an alert's firings (its resolutions are not counted unless they are all the
    /// group holds), any other entry's repeats. >= 1.
    int count = 1;
    QDateTime firstSeen; ///< UTC, the oldest occurrence
    QDateTime lastSeen;  ///< UTC, the newest occurrence (entry.time)
    bool alert = false;  ///< a StorageGRID alert: `active` tells its state
    bool active = false; ///< an alert whose newest firing is not resolved

    bool operator==(const TimelineGroup &) const = default;
};

/// "active" or "resolved" for an alert's group, "" for any other.
QString timelineGroupStateName(const TimelineGroup &group);

/// The group an entry belongs to: "alert:<source>:<fingerprint>", "event:<source>:<name>:<object
/// kind>/<object>", otherwise the entry's id.
QString timelineGroupKey(const TimelineEntry &entry);

/// Groups `entries` (any order) and orders the groups: active alerts first (worst first, then
/// newest), then everything else by last seen, newest first, then by key. `resolved` tells
/// whether an alert's firing (the id of its ":fired" entry) has resolved; without it, a firing
/// is resolved when its ":resolved" entry is among `entries`.
std::vector<TimelineGroup> groupTimeline(const std::vector<TimelineEntry> &entries,
                                         const std::function<bool(const QString &firedId)> &resolved = {});

/// The merged timeline of an estate, kept live on the owner thread. It merges what the
/// systems report (EMS and Kubernetes events, StorageGRID alerts: each entry carries the
/// system's own time) with transitions Strata observes in the estate's keyed diffs (job status,
/// cached-commit state, a volume's service level or pool, source health) and the audit log
/// (Strata's actions, Azure LROs among them). Observed transitions that also have a system time
/// (Job::started, Job::finished, CachedCommit::readyAt) use it. Entries older than the
/// retention (default 7 days) or beyond `capacity` (default 50,000, oldest dropped) go.
/// A one-shot CLI sees the first poll only: it reconstructs queued/started/finished entries
/// from the jobs' timestamps, and reads the audit log from the history store.
class Timeline final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Timeline)

public:
    explicit Timeline(Engine &engine, QObject *parent = nullptr);
    ~Timeline() override;

    /// Every entry, newest first.
    [[nodiscard]] std::vector<TimelineEntry> entries(const TimelineFilter &filter = {}) const;
    /// The entries `filter` selects as groupTimeline() rows (an alert is active unless the
    /// timeline holds its resolution, also one the filter leaves out), then the page of
    /// `filter.offset` and `filter.limit`.
    [[nodiscard]] std::vector<TimelineGroup> groups(const TimelineFilter &filter = {}) const;
    /// The entry with this id, nullopt when there is none (any more).
    [[nodiscard]] std::optional<TimelineEntry> entry(const QString &id) const;
    /// The same entry as the timeline holds it (a view's model keeps it without a copy); null
    /// when there is none.
    [[nodiscard]] Ptr<TimelineEntry> sharedEntry(const QString &id) const;
    [[nodiscard]] int size() const;
    /// True once the audit log's recent entries were read from the history store (or there is
    /// no history store): the CLI waits for it before printing.
    [[nodiscard]] bool auditLoaded() const;

    /// Replaces everything with `entries` and stops observing (an opened support bundle).
    /// Retention and capacity are not applied to restored entries.
    void restore(std::vector<TimelineEntry> entries);
    /// True until restore() was called.
    [[nodiscard]] bool isLive() const;
    /// The engine clock's time (UTC): what "the last hour" counts back from.
    [[nodiscard]] QDateTime now() const;

    /// Entries older than `seconds` before the clock's now go at the next change (default 7 days).
    void setRetention(qint64 seconds);
    /// At most `entries` are kept, the oldest go first (default 50,000).
    void setCapacity(int entries);

    /// Active alerts needing attention per system: StorageGRID alerts that are not resolved,
    /// ONTAP EMS error-or-worse of the last 24 h, Kubernetes Warning events of the last hour,
    /// sources not Ok. Keyed by system name ("ontap", ...), counts by severity.
    struct AlertCounts
    {
        int critical = 0, error = 0, warning = 0;
        bool operator==(const AlertCounts &) const = default;
    };
    [[nodiscard]] QHash<QString, AlertCounts> attentionBySystem(const QDateTime &now) const;

Q_SIGNALS:
    /// auditLoaded() became true.
    void auditLoadedChanged();
    /// Entries were added (keys of the new ones) or removed (`removed`); one signal per batch.
    void entriesChanged(const QStringList &added, const QStringList &removed);

private:
    /// Adds what is new (by id), drops what retention and capacity say, emits one change.
    void add(std::vector<TimelineEntry> entries);
    [[nodiscard]] TimelineEntry fromAudit(const AuditEntry &entry) const;
    void onJobs(const JobDiff &diff);
    void onCaches(const CachedCommitDiff &diff);
    void onVolumes(const VolumeDiff &diff);
    void onSourceStatus(const QString &name);

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace strata::core

Q_DECLARE_METATYPE(strata::core::TimelineEntry)
