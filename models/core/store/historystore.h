#pragma once

#include "models/core/domain/error.h"
#include "models/core/domain/records.h"
#include "models/core/domain/schedule.h"
#include "models/core/store/webauthstore.h"

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace strata::core {

class IClock;

/// One point of a volume's capacity history.
struct UsageSample
{
    QDateTime time; ///< UTC
    qint64 usedBytes = 0;
    qint64 sizeBytes = 0;

    bool operator==(const UsageSample &) const = default;
};

/// Capacity of one volume at poll time, as handed to the store.
struct VolumeUsage
{
    QString volumeId;
    qint64 usedBytes = 0;
    qint64 sizeBytes = 0;
};

/// A container whose capacity the history keeps (CapacitySeries::kind, forecasts, chargeback).
enum class ContainerKind
{
    Volume,      ///< ONTAP or ANF volume: Volume::id (recordVolumeUsage)
    Aggregate,   ///< ONTAP aggregate: Aggregate::id; used = its used bytes
    Pool,        ///< ANF capacity pool: CapacityPool::id; used = the quotas of its volumes
    Bucket,      ///< StorageGRID bucket: Bucket::id; used = data bytes, size = quota (0 = none)
    Tenant,      ///< StorageGRID tenant: Tenant::id; used = data bytes, size = quota (0 = none)
    CacheTarget, ///< cache target: CacheTarget::id; used = the volume's used bytes
};

/// "volume", "aggregate", "pool", "bucket", "tenant", "cache_target".
QString containerKindName(ContainerKind kind);
std::optional<ContainerKind> containerKindFromName(const QString &name);

/// The capacity history of one container (IHistoryStore::capacityHistory()).
struct CapacitySeries
{
    QString source;
    QString kind;                     ///< containerKindName()
    QString id;                       ///< the container's key in the estate
    std::vector<UsageSample> samples; ///< oldest first; sizeBytes 0 = no limit (bucket, tenant)
};

/// One audit record. Actions append one when they start and one when they end (same actionId).
struct AuditEntry
{
    qint64 id = 0;     ///< assigned by the store
    QDateTime time;    ///< UTC
    QString user;      ///< OS user (desktop), web user (server), "cli"
    QString actionId;  ///< Strata's uuid of the action, shared by its entries
    QString source;    ///< source name
    QString kind;      ///< "snapshot.create", "snapshot.delete", "snapshot.restore", "volume.clone"
    QString target;    ///< human-readable object, "svm_ai/chest_xray@daily.2024-03-01"
    QString fromState; ///< what it was ("" when not applicable)
    QString toState;   ///< what it becomes
    QString outcome;   ///< "started", "succeeded", "failed", "reconciled"
    QString message;   ///< error or result detail
    /// The process that wrote it: ActionManager::ownerId() ("<host>/<pid>"; in Kubernetes the
    /// host is the pod), so replicas sharing a store show which one ran or finished an action.
    /// Empty for entries written before schema version 8.
    QString replica;

    bool operator==(const AuditEntry &) const = default;
};

/// Who polls one source among strata-server replicas sharing a store (table source_lease).
struct SourceLease
{
    QString source;
    QString owner;     ///< replica id, empty while nobody holds it
    QDateTime expires; ///< UTC, on the store's clock; the holder renews it well before
    bool operator==(const SourceLease &) const = default;
};

/// The answer of IHistoryStore::syncLeases().
struct LeaseSync
{
    QList<SourceLease> leases; ///< every source of the request, by name
    QStringList liveReplicas;  ///< replicas seen within the lease time, sorted, the caller included
    int takenOver = 0;         ///< leases this call took from a replica that let them expire
    int released = 0;          ///< leases this call gave up to balance them over the live replicas
    QDateTime storeTime;       ///< UTC, the store's clock when it answered
};

/// A source's estate and health as its owner last shared them (table source_state).
struct SharedSourceState
{
    QString source;
    QString owner;           ///< replica id of the writer
    qint64 revision = 0;     ///< store-wide, increases with every write of any source
    qint64 bodyRevision = 0; ///< the revision of the last write that carried a new body
    QDateTime written;       ///< UTC, store clock
    QByteArray status;       ///< the owner's SourceStatus as compact JSON
    /// encodeSourceRecords() of the source; empty when the reader has bodyRevision already.
    QByteArray body;
};

/// The answer of IHistoryStore::sharedStates().
struct SharedStates
{
    std::vector<SharedSourceState> states; ///< written after the asked revision, oldest first
    qint64 latestRevision = 0;             ///< the newest revision in the store (0: none yet)
    QDateTime storeTime;                   ///< UTC, store clock, for the notify lag
};

/// A setting every process sharing the store uses instead of its own config file's copy (table
/// setting, schema version 9): the rate card and the cache targets (models/core/store/settingstore.h).
struct SharedSetting
{
    QString name;        ///< "rate_card" (RateCard::toJson), "cache_targets" (the config's array)
    QByteArray body;     ///< compact JSON
    qint64 revision = 0; ///< 1 for the first write, +1 for each one after; 0 = not stored yet
    QDateTime updated;   ///< UTC, on the store's clock
    QString updatedBy;   ///< who wrote it, "<user> on <replica>"
    /// Lower-case hex SHA-256 of the config file value this setting last took (seeded from a
    /// config file or applied again after that value changed); empty when no config file wrote it.
    QString configHash;

    bool operator==(const SharedSetting &) const = default;
};

/// One action in the crash-safe journal (table action_journal). Written before the mutation is
/// sent and updated as it moves on, so a process killed in the middle leaves a row that the next
/// start reconciles from the vendor's state instead of sending the mutation again.
struct JournalEntry
{
    QString actionId;       ///< Strata's uuid of the action (AuditEntry::actionId)
    QString idempotencyKey; ///< uuid, stable across attempts and restarts
    QString source;         ///< source name
    QString kind;           ///< actionKindName(), "volume.service_level"
    QString request;        ///< the ActionRequest as compact JSON (actionRequestToJson)
    QString user;
    QString target;      ///< preview target, as in the audit log
    QString fromState;   ///< preview from-state
    QString toState;     ///< preview to-state
    QDateTime submitted; ///< UTC
    /// "intended" (written, nothing sent yet), "sent" (the mutation may have reached the
    /// vendor), "accepted" (the vendor's handle is known), "finished" (outcome recorded).
    QString phase;
    /// How to follow the vendor's work: ONTAP job uuid, ARM Azure-AsyncOperation/Location URL,
    /// Kubernetes "<namespace>/<job>"; empty while unknown.
    QString handle;
    QString owner;       ///< "<host>/<pid>" of the process running it
    QDateTime heartbeat; ///< UTC; the owner refreshes it while the action runs
    QString outcome;     ///< audit outcome once finished ("succeeded", "failed", "reconciled")
    QDateTime finished;  ///< UTC, invalid while open

    bool operator==(const JournalEntry &) const = default;
};

/// GPU allocation of one project at one time (GPU page's allocation-over-time chart).
struct ProjectSample
{
    QString project;
    QDateTime time;          ///< UTC
    MilliGpu allocated = 0;  ///< milli-GPUs held
    MilliGpu quota = 0;      ///< guaranteed milli-GPUs at that time, -1 = none
    MilliGpu pending = 0;    ///< milli-GPUs queued
    double utilization = -1; ///< mean DCGM % over its GPUs, -1 unknown

    bool operator==(const ProjectSample &) const = default;
};

/// One performance sample of a volume (ONTAP perf poll, Azure Monitor PT5M point).
struct VolumePerfSample
{
    QString volumeId;         ///< Volume::id; set when recording, filled when reading
    QDateTime time;           ///< UTC; ignored when recording (the `at` of the call wins)
    double throughputBps = 0; ///< bytes per second, read + write
    double iops = 0;          ///< operations per second, read + write
    double latencyUs = -1;    ///< average latency in microseconds, -1 unknown
    double capBps = -1;       ///< throughput cap in force then (bytes/s), -1 none or unknown

    bool operator==(const VolumePerfSample &) const = default;
};

/// Per-volume summary of the perf samples in a time window (service-level flags).
struct VolumePerfStats
{
    QString source;
    QString volumeId;
    int samples = 0;
    double p95ThroughputBps = -1; ///< 95th percentile (nearest rank) of throughput_bps
    double p95Iops = -1;
    QDateTime first; ///< UTC of the oldest sample in the window
    QDateTime last;  ///< UTC of the newest sample in the window

    bool operator==(const VolumePerfStats &) const = default;
};

/// Persistent history: volume capacity and performance over time, GPU allocation, the audit
/// log and service-level schedules. Implementations: SQLite (WAL; the default, embedded) and
/// PostgreSQL for several strata-server replicas, both through Qt SQL. Not thread-safe:
/// use an instance from the thread that opened it.
class IHistoryStore
{
public:
    virtual ~IHistoryStore() = default;

    /// Opens or creates the store and migrates its schema (opening again is harmless). A
    /// Kind::Failed error naming the database on failure.
    virtual Status open() = 0;
    /// Whether the store answers now (a readiness probe): a database server whose connection
    /// dropped (a PostgreSQL restart or failover) is reconnected once first. An error naming the
    /// database when it does not answer.
    virtual Status ping() { return {}; }

    /// Records capacity for many volumes at once (one transaction). A sample is only written
    /// when used or size changed since the volume's last sample, or the last sample is older
    /// than `heartbeat`, so 50,000 volumes every 3 minutes stay small.
    virtual Status recordVolumeUsage(const QString &source,
                                     const std::vector<VolumeUsage> &usage,
                                     const QDateTime &at,
                                     qint64 heartbeatSeconds = 3600) = 0;
    /// Samples of one volume in [from, to], oldest first.
    virtual Result<std::vector<UsageSample>>
    volumeUsage(const QString &source, const QString &volumeId, const QDateTime &from, const QDateTime &to) = 0;
    /// Deletes samples older than `cutoff`; returns how many went (0 as well when another
    /// replica is applying it at the same moment).
    virtual Result<qint64> applyRetention(const QDateTime &cutoff) = 0;

    /// Records the capacity of containers of one `kind` of `source` (not ContainerKind::Volume:
    /// volumes go through recordVolumeUsage), `VolumeUsage::volumeId` being the container's id,
    /// with recordVolumeUsage's change-only writes and heartbeat. Subject to applyRetention().
    /// A store without capacity history (a support bundle) records nothing: Kind::Unavailable.
    virtual Status recordCapacity(const QString &source,
                                  ContainerKind kind,
                                  const std::vector<VolumeUsage> &usage,
                                  const QDateTime &at,
                                  qint64 heartbeatSeconds = 3600)
    {
        Q_UNUSED(source)
        Q_UNUSED(kind)
        Q_UNUSED(usage)
        Q_UNUSED(at)
        Q_UNUSED(heartbeatSeconds)
        return fail(Error::make(Error::Kind::Unavailable, QStringLiteral("this store keeps no capacity history")));
    }
    /// Every container (volumes included) with samples in [from, to] (invalid = open), by
    /// source, kind and id, each with its samples in that window. One read for a whole estate's
    /// forecasts: 50,000 volumes with hourly heartbeats over 30 days are ~36 M rows, so callers
    /// keep the window to what they need.
    virtual Result<std::vector<CapacitySeries>> capacityHistory(const QDateTime &from, const QDateTime &to)
    {
        Q_UNUSED(from)
        Q_UNUSED(to)
        return std::vector<CapacitySeries>{};
    }

    /// Records one sample per project of `source` at `at` (one transaction; `time` of each
    /// sample is ignored in favour of `at`). A sample equal to the project's previous one is
    /// skipped unless `heartbeatSeconds` passed since, so a quiet cluster costs little.
    virtual Status recordProjectSamples(const QString &source,
                                        const std::vector<ProjectSample> &samples,
                                        const QDateTime &at,
                                        qint64 heartbeatSeconds = 600) = 0;
    /// Samples of one project (empty `project` = every project of the source), by project then
    /// time, within [from, to] (invalid bounds = open).
    virtual Result<std::vector<ProjectSample>>
    projectHistory(const QString &source, const QString &project, const QDateTime &from, const QDateTime &to) = 0;

    // Every call below answers an error (Kind::Failed naming the database and the driver's
    // text; Kind::Unavailable when the store is not open or keeps no such data) instead of an
    // empty answer, so a caller never mistakes a failed read for "nothing there".
    /// Appends an audit entry; returns its id (> 0).
    virtual Result<qint64> appendAudit(const AuditEntry &entry) = 0;
    /// Whether the log holds an entry equal to `entry` in every field but the id (its time to
    /// the millisecond and its action id make it unique). Replaying spooled entries uses it so
    /// none is written twice. A store that keeps no log answers false.
    virtual Result<bool> containsAudit(const AuditEntry &entry)
    {
        Q_UNUSED(entry);
        return false;
    }
    /// Newest first, at most `limit` (<= 0: all); empty `source` = all sources.
    virtual Result<std::vector<AuditEntry>> auditLog(int limit = 500, const QString &source = {}) = 0;
    /// Entries of one `kind` ("volume.service_level") at or after `since` (invalid = all), newest first.
    virtual Result<std::vector<AuditEntry>> auditLogOfKind(const QString &kind, const QDateTime &since) = 0;

    /// Records one perf sample per volume of `source` at `at` (one transaction). A sample equal
    /// to the volume's previous one is skipped unless `heartbeatSeconds` passed since. Subject to
    /// applyRetention().
    virtual Status recordVolumePerf(const QString &source,
                                    const std::vector<VolumePerfSample> &samples,
                                    const QDateTime &at,
                                    qint64 heartbeatSeconds = 3600) = 0;
    /// Perf samples of one volume in [from, to] (invalid bounds = open), oldest first.
    virtual Result<std::vector<VolumePerfSample>>
    volumePerfHistory(const QString &source, const QString &volumeId, const QDateTime &from, const QDateTime &to) = 0;
    /// Per-volume statistics of every volume with samples in [from, to].
    virtual Result<std::vector<VolumePerfStats>> volumePerfStats(const QDateTime &from, const QDateTime &to) = 0;

    /// Inserts (`schedule.id` == 0) or updates a service-level schedule; returns its id.
    /// Kind::NotFound when the schedule to update is gone.
    virtual Result<qint64> saveSchedule(const ServiceLevelSchedule &schedule) = 0;
    /// Deletes a schedule (an unknown id is not an error).
    virtual Status removeSchedule(qint64 id) = 0;
    /// Every schedule, by id.
    virtual Result<std::vector<ServiceLevelSchedule>> schedules() = 0;
    /// Records that the edge at `edge` of schedule `id` was handled (`lastFired`, `lastOutcome`).
    /// Kind::NotFound when the schedule is gone.
    virtual Status markScheduleFired(qint64 id, const QDateTime &edge, const QString &outcome) = 0;
    /// Claims the edge at `edge` of schedule `id` for this process: marks it fired ("submitted")
    /// only when no process has fired it or a later edge yet, atomically, so of several
    /// processes sharing the store (strata-server replicas, the desktop app and the CLI) exactly
    /// one submits it. true = claimed here, false = another process had it (or the schedule is
    /// gone).
    virtual Result<bool> claimScheduleEdge(qint64 id, const QDateTime &edge)
    {
        const Status marked = markScheduleFired(id, edge, QStringLiteral("submitted"));
        if (!marked) {
            return fail(marked.error());
        }
        return true;
    }

    // Crash-safe action journal. A store without one (a read-only support bundle) keeps the
    // defaults: nothing is journaled and nothing is recovered.
    /// Writes (or, for a retry of the same action id, rewrites) `entry` durably before the
    /// mutation is sent.
    virtual Status journalIntent(const JournalEntry &entry)
    {
        Q_UNUSED(entry)
        return fail(noJournal());
    }
    /// Moves an open entry to `phase`; a non-empty `handle` replaces the stored one. Refreshes
    /// the heartbeat to `at`. false when the entry is finished or unknown.
    virtual Result<bool>
    journalProgress(const QString &actionId, const QString &phase, const QString &handle, const QDateTime &at)
    {
        Q_UNUSED(actionId)
        Q_UNUSED(phase)
        Q_UNUSED(handle)
        Q_UNUSED(at)
        return fail(noJournal());
    }
    /// Refreshes the heartbeat of the open entries `actionIds` owned by `owner`.
    virtual Status journalHeartbeat(const QStringList &actionIds, const QString &owner, const QDateTime &at)
    {
        Q_UNUSED(actionIds)
        Q_UNUSED(owner)
        Q_UNUSED(at)
        return fail(noJournal());
    }
    /// Takes over an open entry whose owner is `expectedOwner` (a process that died): true when
    /// this call made `owner` its owner, false when another process claimed it first.
    virtual Result<bool>
    journalClaim(const QString &actionId, const QString &expectedOwner, const QString &owner, const QDateTime &at)
    {
        Q_UNUSED(actionId)
        Q_UNUSED(expectedOwner)
        Q_UNUSED(owner)
        Q_UNUSED(at)
        return fail(noJournal());
    }
    /// Closes an open entry with `audit.outcome` and appends `audit` to the audit log, in one
    /// transaction, so an action has exactly one outcome entry however often it is finished
    /// (two processes recovering it, a crash between the two writes). Returns the audit id,
    /// 0 when the entry was already finished (nothing written). An action without a journal
    /// entry just gets its audit entry.
    virtual Result<qint64> journalFinish(const AuditEntry &audit) { return appendAudit(audit); }
    /// Entries not finished yet, oldest first (none in a store without a journal).
    virtual Result<std::vector<JournalEntry>> openJournal() { return std::vector<JournalEntry>{}; }
    /// One entry by action id, finished or not; nullopt when unknown.
    virtual Result<std::optional<JournalEntry>> journalEntry(const QString &actionId)
    {
        Q_UNUSED(actionId)
        return std::optional<JournalEntry>{};
    }

    // Replicas sharing one store (strata-server on PostgreSQL). A store without them answers
    // Kind::Unavailable and a coordinator over it stays single-process.
    /// Renews `replica`'s leases on `sources`, records that it is alive, and balances: a replica
    /// holding more than its share (ceil(sources / live replicas)) releases the surplus, one
    /// holding less claims sources that are free or whose lease expired. Leases run for `ttlMs`
    /// on the store's clock, so replicas on different hosts need no synchronised clocks.
    /// Leases of sources not in `sources` that `replica` holds are released. Serialised
    /// store-wide (an advisory lock). Kind::Invalid without a replica or a positive `ttlMs`.
    virtual Result<LeaseSync> syncLeases(const QString &replica, const QStringList &sources, qint64 ttlMs)
    {
        Q_UNUSED(replica)
        Q_UNUSED(sources)
        Q_UNUSED(ttlMs)
        return fail(noReplicas());
    }
    /// Gives up every lease of `replica` and forgets it (a clean shutdown hands its sources
    /// over at once instead of after the lease time).
    virtual Status releaseLeases(const QString &replica)
    {
        Q_UNUSED(replica)
        return fail(noReplicas());
    }
    /// Writes `source`'s state as `owner` while it holds the source's lease: `status` always,
    /// `body` unless it is null (status-only write, the stored body stays). Signals readers
    /// (PostgreSQL NOTIFY on channel "strata_state", payload the source name). Returns the new
    /// revision, 0 when `owner` does not hold the lease (nothing written).
    virtual Result<qint64>
    putSharedState(const QString &source, const QString &owner, const QByteArray &status, const QByteArray &body)
    {
        Q_UNUSED(source)
        Q_UNUSED(owner)
        Q_UNUSED(status)
        Q_UNUSED(body)
        return fail(noReplicas());
    }
    /// States written after revision `since`, oldest first; a body only where it is newer than
    /// `knownBodies` (source -> bodyRevision the reader applied).
    virtual Result<SharedStates> sharedStates(qint64 since, const QHash<QString, qint64> &knownBodies)
    {
        Q_UNUSED(since)
        Q_UNUSED(knownBodies)
        return fail(noReplicas());
    }
    /// Calls `notified(source)` on the store's thread when another connection shared a state
    /// (PostgreSQL LISTEN, kept across reconnects); `source` is "setting:<name>" for a shared
    /// setting written (putSharedSetting()). Kind::Unavailable where the store cannot notify
    /// (SQLite): readers then poll sharedStates().
    virtual Status listenForSharedStates(std::function<void(const QString &source)> notified)
    {
        Q_UNUSED(notified)
        return fail(noReplicas());
    }
    // ---- Shared settings (models/core/store/settingstore.h) -------------------------------
    // A store without the setting table (a support bundle) answers Kind::Unavailable.
    /// Every stored setting, by name.
    virtual Result<std::vector<SharedSetting>> sharedSettings() { return fail(noSettings()); }
    /// Writes `setting` (name, body, updatedBy, configHash) if the stored one still has revision
    /// `expectedRevision` (0: none stored yet), with `audit` appended in the same transaction
    /// when given (its time, when invalid, is the store's clock), and signals readers (PostgreSQL
    /// NOTIFY on "strata_state", payload "setting:<name>"). The stored row: revision
    /// expectedRevision + 1, updated on the store's clock. Kind::Conflict naming the stored
    /// revision and its writer when another write came first (nothing written), Kind::Failed on
    /// a database error.
    virtual Result<SharedSetting>
    putSharedSetting(const SharedSetting &setting, qint64 expectedRevision, const std::optional<AuditEntry> &audit)
    {
        Q_UNUSED(setting)
        Q_UNUSED(expectedRevision)
        Q_UNUSED(audit)
        return fail(noSettings());
    }

    // ---- Web console users and sessions (models/core/store/webauthstore.h) ----------------
    // strata-server replicas sharing one database keep their console users and sessions here.
    // A store without these tables (a support bundle) answers Kind::Unavailable.
    /// Inserts or replaces a user and ends all of its sessions (one transaction).
    virtual Status saveWebUser(const WebUserRecord &user, const QDateTime &at)
    {
        Q_UNUSED(user)
        Q_UNUSED(at)
        return fail(noWebAuth());
    }
    /// Removes a user and its sessions; false when there was no such user.
    virtual Result<bool> removeWebUser(const QString &name, const QDateTime &at)
    {
        Q_UNUSED(name)
        Q_UNUSED(at)
        return fail(noWebAuth());
    }
    /// Every user, by name.
    virtual Result<std::vector<WebUserRecord>> webUsers() { return fail(noWebAuth()); }
    /// Records a new session while its user still has `passwordHash` and the session's role;
    /// false when the user changed or went meanwhile.
    virtual Result<bool> insertWebSession(const WebSessionRecord &session, const QString &passwordHash)
    {
        Q_UNUSED(session)
        Q_UNUSED(passwordHash)
        return fail(noWebAuth());
    }
    /// Ends a session (unknown ones too).
    virtual Status removeWebSession(const QString &idHash, const QDateTime &at)
    {
        Q_UNUSED(idHash)
        Q_UNUSED(at)
        return fail(noWebAuth());
    }
    /// Writes lastSeen and expires of the sessions (only forward in time).
    virtual Status touchWebSessions(const std::vector<WebSessionRecord> &sessions)
    {
        Q_UNUSED(sessions)
        return fail(noWebAuth());
    }
    /// One session by the SHA-256 of its id; nullopt when unknown or expired at `now`.
    virtual Result<std::optional<WebSessionRecord>> webSession(const QString &idHash, const QDateTime &now)
    {
        Q_UNUSED(idHash)
        Q_UNUSED(now)
        return fail(noWebAuth());
    }
    /// Everything (cursor <= 0) or what changed since `cursor` (WebAuthChanges).
    virtual Result<WebAuthChanges> webAuthChanges(qint64 cursor, const QDateTime &now)
    {
        Q_UNUSED(cursor)
        Q_UNUSED(now)
        return fail(noWebAuth());
    }
    /// Deletes expired sessions and change rows older than a day; how many rows went.
    virtual Result<qint64> pruneWebAuth(const QDateTime &now)
    {
        Q_UNUSED(now)
        return fail(noWebAuth());
    }

protected:
    static Error noWebAuth()
    {
        return Error::make(Error::Kind::Unavailable, QStringLiteral("this store keeps no web console users"));
    }
    // ---- end of web console users and sessions ------------------------------------------------
    static Error noReplicas()
    {
        return Error::make(Error::Kind::Unavailable, QStringLiteral("this store is not shared between replicas"));
    }
    static Error noJournal()
    {
        return Error::make(Error::Kind::Unavailable, QStringLiteral("this store keeps no action journal"));
    }
    static Error noSettings()
    {
        return Error::make(Error::Kind::Unavailable, QStringLiteral("this store keeps no shared settings"));
    }
};

/// The SQL implementation, in two dialects behind one schema (with a migration list per dialect):
/// - SQLite (QSQLITE, journal_mode=WAL, synchronous=NORMAL, foreign_keys=ON), the embedded
///   default: `location` is a file path, or ":memory:" for tests;
/// - PostgreSQL (QPSQL, PostgreSQL 13 or later) for several strata-server replicas sharing one
///   database: `location` is a libpq URL, postgresql://[user[:password]@]host[:port]/database
///   [?sslmode=...&connect_timeout=...] (postgres:// too). A password not in the URL comes from
///   libpq's own PGPASSWORD / PGPASSFILE (~/.pgpass); it is never logged (errors name the URL
///   without it). Replicas opening at once migrate one at a time (an advisory lock).
/// Each instance owns its own Qt SQL connection, created by open() and removed by the
/// destructor, so both must run on the same thread. The last sample of every volume of a source
/// is cached in memory after the first record for that source, so change detection costs no
/// reads; this assumes one writer per source (one process, or replicas that split sources
/// between them). volumeUsage() treats an invalid `from`/`to` as unbounded; auditLog() returns
/// entries in reverse append order, `limit` <= 0 = all.
class SqlHistoryStore final : public IHistoryStore
{
public:
    /// `location`: a SQLite path or a PostgreSQL URL (isPostgresLocation()). `clock` stamps an
    /// audit entry or journal write that carries no time (IClock::now() is safe on the store's
    /// thread); it must outlive the store.
    SqlHistoryStore(QString location, const IClock &clock);
    ~SqlHistoryStore() override;
    SqlHistoryStore(const SqlHistoryStore &) = delete;
    SqlHistoryStore &operator=(const SqlHistoryStore &) = delete;

    Status open() override;
    Status ping() override;
    Status recordVolumeUsage(const QString &source,
                             const std::vector<VolumeUsage> &usage,
                             const QDateTime &at,
                             qint64 heartbeatSeconds = 3600) override;
    Result<std::vector<UsageSample>>
    volumeUsage(const QString &source, const QString &volumeId, const QDateTime &from, const QDateTime &to) override;
    Result<qint64> applyRetention(const QDateTime &cutoff) override;
    Status recordCapacity(const QString &source,
                          ContainerKind kind,
                          const std::vector<VolumeUsage> &usage,
                          const QDateTime &at,
                          qint64 heartbeatSeconds = 3600) override;
    Result<std::vector<CapacitySeries>> capacityHistory(const QDateTime &from, const QDateTime &to) override;
    Status recordProjectSamples(const QString &source,
                                const std::vector<ProjectSample> &samples,
                                const QDateTime &at,
                                qint64 heartbeatSeconds = 600) override;
    Result<std::vector<ProjectSample>>
    projectHistory(const QString &source, const QString &project, const QDateTime &from, const QDateTime &to) override;
    Result<qint64> appendAudit(const AuditEntry &entry) override;
    Result<bool> containsAudit(const AuditEntry &entry) override;
    Result<std::vector<AuditEntry>> auditLog(int limit = 500, const QString &source = {}) override;
    Result<std::vector<AuditEntry>> auditLogOfKind(const QString &kind, const QDateTime &since) override;
    Status recordVolumePerf(const QString &source,
                            const std::vector<VolumePerfSample> &samples,
                            const QDateTime &at,
                            qint64 heartbeatSeconds = 3600) override;
    Result<std::vector<VolumePerfSample>> volumePerfHistory(const QString &source,
                                                            const QString &volumeId,
                                                            const QDateTime &from,
                                                            const QDateTime &to) override;
    Result<std::vector<VolumePerfStats>> volumePerfStats(const QDateTime &from, const QDateTime &to) override;
    Result<qint64> saveSchedule(const ServiceLevelSchedule &schedule) override;
    Status removeSchedule(qint64 id) override;
    Result<std::vector<ServiceLevelSchedule>> schedules() override;
    Status markScheduleFired(qint64 id, const QDateTime &edge, const QString &outcome) override;
    Result<bool> claimScheduleEdge(qint64 id, const QDateTime &edge) override;
    /// Journal writes that must survive a crash run with synchronous=FULL.
    Status journalIntent(const JournalEntry &entry) override;
    Result<bool>
    journalProgress(const QString &actionId, const QString &phase, const QString &handle, const QDateTime &at) override;
    Status journalHeartbeat(const QStringList &actionIds, const QString &owner, const QDateTime &at) override;
    Result<bool> journalClaim(const QString &actionId,
                              const QString &expectedOwner,
                              const QString &owner,
                              const QDateTime &at) override;
    Result<qint64> journalFinish(const AuditEntry &audit) override;
    Result<std::vector<JournalEntry>> openJournal() override;
    Result<std::optional<JournalEntry>> journalEntry(const QString &actionId) override;
    Result<LeaseSync> syncLeases(const QString &replica, const QStringList &sources, qint64 ttlMs) override;
    Status releaseLeases(const QString &replica) override;
    Result<qint64> putSharedState(const QString &source,
                                  const QString &owner,
                                  const QByteArray &status,
                                  const QByteArray &body) override;
    Result<SharedStates> sharedStates(qint64 since, const QHash<QString, qint64> &knownBodies) override;
    Status listenForSharedStates(std::function<void(const QString &source)> notified) override;

    Result<std::vector<SharedSetting>> sharedSettings() override;
    Result<SharedSetting> putSharedSetting(const SharedSetting &setting,
                                           qint64 expectedRevision,
                                           const std::optional<AuditEntry> &audit) override;

    // Web console users and sessions.
    Status saveWebUser(const WebUserRecord &user, const QDateTime &at) override;
    Result<bool> removeWebUser(const QString &name, const QDateTime &at) override;
    Result<std::vector<WebUserRecord>> webUsers() override;
    Result<bool> insertWebSession(const WebSessionRecord &session, const QString &passwordHash) override;
    Status removeWebSession(const QString &idHash, const QDateTime &at) override;
    Status touchWebSessions(const std::vector<WebSessionRecord> &sessions) override;
    Result<std::optional<WebSessionRecord>> webSession(const QString &idHash, const QDateTime &now) override;
    Result<WebAuthChanges> webAuthChanges(qint64 cursor, const QDateTime &now) override;
    Result<qint64> pruneWebAuth(const QDateTime &now) override;

    /// One table moved by copyFrom().
    struct TableCopy
    {
        QString table; ///< "audit_log", "volume_usage_sample", ...
        QString what;  ///< what its rows are, for people: "audit log entries"
        qint64 rows = 0;
    };
    /// Copies every row of every table of `source` (open, at this build's schema) into this
    /// store (open, and empty: Kind::Invalid naming the first table that holds rows), ids
    /// included, in one transaction, then checks that each table's row count matches. How
    /// `strata-server migrate --from-sqlite` moves an installation to PostgreSQL. Kind::Failed
    /// naming the table on a database error, with nothing written.
    Result<std::vector<TableCopy>> copyFrom(SqlHistoryStore &source);

    /// The schema version this build creates and migrates to (the same in both dialects).
    static int latestSchemaVersion();
    /// True for a postgresql:// or postgres:// URL, false for a SQLite path.
    static bool isPostgresLocation(const QString &location);
    /// `location` safe to show and log: a URL without its password.
    static QString displayLocation(const QString &location);
    /// True when open() made a PostgreSQL connection.
    [[nodiscard]] bool isPostgres() const;
    /// The last failure of any call, for logs and the UI; empty after a success.
    [[nodiscard]] QString lastError() const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace strata::core
