#include "models/core/store/historystore.h"

#include "models/core/domain/clock.h"
#include "models/core/store/webauthstore.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QLoggingCategory>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <optional>
#include <span>

namespace strata::core {

namespace {

Q_LOGGING_CATEGORY(lcHistory, "strata.history", QtInfoMsg)

const QLatin1String kMemoryPath(":memory:");

// Schema migrations, applied in order; entry i brings the schema to version i + 1. Never edit a
// shipped entry: append a new one. The common SQL is SQLite's dialect kept to what PostgreSQL
// also accepts (TEXT, BIGINT, ON CONFLICT, views) but for a few spellings that
// postgresStatement() translates (identity keys, WITHOUT ROWID, REAL); what has no common
// spelling (triggers) is written once per dialect.
//
// Samples reference an integer series id instead of repeating the source name and volume uuid
// in every row: that keeps a sample at ~45 bytes instead of ~140 with its index, which matters at
// 50,000 volumes. The `volume_usage` view shows the flat (source, volume_id, t, used, size) shape
// for ad-hoc SQL and reports. Times are unix milliseconds, UTC.
const char *const kMigrationV1[] = {
    "CREATE TABLE volume_series ("
    " id INTEGER PRIMARY KEY,"
    " source TEXT NOT NULL,"
    " volume_id TEXT NOT NULL,"
    " UNIQUE (source, volume_id))",
    // Clustered on (series_id, t): a range query and "last sample of a volume" are one b-tree seek.
    "CREATE TABLE volume_usage_sample ("
    " series_id INTEGER NOT NULL REFERENCES volume_series (id) ON DELETE CASCADE,"
    " t BIGINT NOT NULL,"
    " used BIGINT NOT NULL,"
    " size BIGINT NOT NULL,"
    " PRIMARY KEY (series_id, t)) WITHOUT ROWID",
    "CREATE VIEW volume_usage AS"
    " SELECT s.source AS source, s.volume_id AS volume_id, u.t AS t, u.used AS used, u.size AS size"
    " FROM volume_usage_sample u JOIN volume_series s ON s.id = u.series_id",
    // "user" is reserved in PostgreSQL, hence user_name.
    "CREATE TABLE audit_log ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " t BIGINT NOT NULL,"
    " user_name TEXT NOT NULL,"
    " action_id TEXT NOT NULL,"
    " source TEXT NOT NULL,"
    " kind TEXT NOT NULL,"
    " target TEXT NOT NULL,"
    " from_state TEXT NOT NULL,"
    " to_state TEXT NOT NULL,"
    " outcome TEXT NOT NULL,"
    " message TEXT NOT NULL)",
    "CREATE INDEX audit_log_source_id ON audit_log (source, id)",
    "CREATE INDEX audit_log_action_id ON audit_log (action_id)",
};

// The audit log is evidence of what Strata did to the estate: make edits fail loudly.
const char *const kMigrationV1Sqlite[] = {
    "CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log"
    " BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END",
    "CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log"
    " BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END",
};
const char *const kMigrationV1Postgres[] = {
    "CREATE FUNCTION strata_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS"
    " $$ BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$",
    "CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log"
    " FOR EACH ROW EXECUTE FUNCTION strata_audit_log_append_only()",
};

// GPU allocation per project over time; a handful of projects per cluster, so flat rows.
const char *const kMigrationV2[] = {
    "CREATE TABLE project_sample ("
    " source TEXT NOT NULL,"
    " project TEXT NOT NULL,"
    " t BIGINT NOT NULL,"
    " allocated BIGINT NOT NULL,"
    " quota BIGINT NOT NULL,"
    " pending BIGINT NOT NULL,"
    " utilization REAL,"
    " PRIMARY KEY (source, project, t)) WITHOUT ROWID",
};

// Service levels: volume performance (throughput against the cap in force, for p95 and the
// observed-vs-cap chart) and planned level changes. Perf samples are flat rows keyed by
// (source, volume, t): they come every 5 minutes at most, and a flat table keeps retention and
// the per-volume statistics one simple scan.
const char *const kMigrationV3[] = {
    "CREATE TABLE volume_perf_sample ("
    " source TEXT NOT NULL,"
    " volume_id TEXT NOT NULL,"
    " t BIGINT NOT NULL,"
    " throughput_bps REAL NOT NULL,"
    " iops REAL NOT NULL,"
    " latency_us REAL,"
    " cap_bps REAL,"
    " PRIMARY KEY (source, volume_id, t)) WITHOUT ROWID",
    "CREATE INDEX volume_perf_sample_t ON volume_perf_sample (t)",
    "CREATE TABLE level_schedule ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " source TEXT NOT NULL,"
    " volume_id TEXT NOT NULL,"
    " volume_name TEXT NOT NULL,"
    " level TEXT NOT NULL,"
    " revert_level TEXT NOT NULL,"
    " start_t BIGINT NOT NULL,"
    " end_t BIGINT,"
    " recurrence TEXT NOT NULL,"
    " enabled INTEGER NOT NULL,"
    " created_by TEXT NOT NULL,"
    " created_t BIGINT NOT NULL,"
    " last_fired_t BIGINT,"
    " last_outcome TEXT NOT NULL)",
};

// Crash-safe actions: one row per action, written before its mutation is sent (phase
// "intended"), moved to "sent" and "accepted" (with the vendor's handle) as it goes, and closed
// together with its outcome audit entry. Open rows whose owner died are reconciled on the next
// start. Small (one row per action ever run), so no retention.
const char *const kMigrationV4[] = {
    "CREATE TABLE action_journal ("
    " action_id TEXT PRIMARY KEY,"
    " idempotency_key TEXT NOT NULL,"
    " source TEXT NOT NULL,"
    " kind TEXT NOT NULL,"
    " request TEXT NOT NULL,"
    " user_name TEXT NOT NULL,"
    " target TEXT NOT NULL,"
    " from_state TEXT NOT NULL,"
    " to_state TEXT NOT NULL,"
    " submitted_t BIGINT NOT NULL,"
    " phase TEXT NOT NULL,"
    " handle TEXT NOT NULL,"
    " owner TEXT NOT NULL,"
    " heartbeat_t BIGINT NOT NULL,"
    " outcome TEXT NOT NULL,"
    " finished_t BIGINT)",
    "CREATE INDEX action_journal_phase ON action_journal (phase)",
};

// Capacity of containers other than volumes (aggregates, ANF pools, StorageGRID buckets and
// tenants, cache targets) for fill forecasts and chargeback: the same series/sample split as
// volumes, with the container's kind in the series key.
const char *const kMigrationV5[] = {
    "CREATE TABLE capacity_series ("
    " id INTEGER PRIMARY KEY,"
    " source TEXT NOT NULL,"
    " kind TEXT NOT NULL,"
    " object_id TEXT NOT NULL,"
    " UNIQUE (source, kind, object_id))",
    "CREATE TABLE capacity_sample ("
    " series_id INTEGER NOT NULL REFERENCES capacity_series (id) ON DELETE CASCADE,"
    " t BIGINT NOT NULL,"
    " used BIGINT NOT NULL,"
    " size BIGINT NOT NULL,"
    " PRIMARY KEY (series_id, t)) WITHOUT ROWID",
};

// strata-server replicas sharing one store: who polls which source (a lease renewed by its
// holder, on the store's clock), which replicas are alive, and each source's state as its owner
// last shared it, numbered by one store-wide revision counter.
const char *const kMigrationV6[] = {
    "CREATE TABLE source_lease ("
    " source TEXT PRIMARY KEY,"
    " owner TEXT NOT NULL DEFAULT '',"
    " expires_t BIGINT NOT NULL DEFAULT 0,"
    " takeovers BIGINT NOT NULL DEFAULT 0)",
    "CREATE TABLE replica ("
    " id TEXT PRIMARY KEY,"
    " seen_t BIGINT NOT NULL)",
    "CREATE TABLE source_state ("
    " source TEXT PRIMARY KEY,"
    " owner TEXT NOT NULL,"
    " revision BIGINT NOT NULL,"
    " body_revision BIGINT NOT NULL,"
    " written_t BIGINT NOT NULL,"
    " status TEXT NOT NULL,"
    " body BLOB NOT NULL)",
    "CREATE TABLE state_counter (id INTEGER PRIMARY KEY, value BIGINT NOT NULL)",
    "INSERT INTO state_counter (id, value) VALUES (1, 0)",
};
// ---- Web console users and sessions -------------------------------------------
// Users are few and small; sessions one row per login, keyed by the SHA-256 of the session id
// (never the id). web_auth_change is the replicas' feed: every write appends (kind, name) so a
// replica reads what changed since its last look instead of the whole tables
// (models/core/store/webauthstore.h). No foreign key from sessions to users: removing a user deletes
// its sessions explicitly, with a change row each.
const char *const kMigrationWebAuth[] = {
    "CREATE TABLE web_user ("
    " name TEXT PRIMARY KEY,"
    " role TEXT NOT NULL,"
    " password_hash TEXT NOT NULL,"
    " created_t BIGINT NOT NULL,"
    " updated_t BIGINT NOT NULL)",
    "CREATE TABLE web_session ("
    " id_sha256 TEXT PRIMARY KEY,"
    " user_name TEXT NOT NULL,"
    " role TEXT NOT NULL,"
    " created_t BIGINT NOT NULL,"
    " last_seen_t BIGINT NOT NULL,"
    " expires_t BIGINT NOT NULL)",
    "CREATE INDEX web_session_user ON web_session (user_name)",
    "CREATE INDEX web_session_expires ON web_session (expires_t)",
    "CREATE TABLE web_auth_change ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " t BIGINT NOT NULL,"
    " kind TEXT NOT NULL,"
    " name TEXT NOT NULL)",
    "CREATE INDEX web_auth_change_t ON web_auth_change (t)",
};
// ---- end of web console users and sessions --------------------------------------------------

// Replicas sharing a store: each audit entry names the process that wrote it.
const char *const kMigrationV8[] = {
    "ALTER TABLE audit_log ADD COLUMN replica TEXT NOT NULL DEFAULT ''",
};

// Settings every process sharing the store uses (rate card, cache targets) instead of its own
// config file's copy: JSON text, a revision per name for compare-and-set writes, and the hash of
// the config file value last applied, so a changed config file is applied again at start.
const char *const kMigrationSettings[] = {
    "CREATE TABLE setting ("
    " name TEXT PRIMARY KEY,"
    " body TEXT NOT NULL,"
    " revision BIGINT NOT NULL,"
    " updated_t BIGINT NOT NULL,"
    " updated_by TEXT NOT NULL,"
    " config_hash TEXT NOT NULL DEFAULT '')",
};

struct Migration
{
    std::span<const char *const> common;
    std::span<const char *const> sqliteOnly = {};
    std::span<const char *const> postgresOnly = {};
};

const Migration kMigrations[] = {
    {kMigrationV1, kMigrationV1Sqlite, kMigrationV1Postgres},
    {kMigrationV2},
    {kMigrationV3},
    {kMigrationV4},
    {kMigrationV5},
    {kMigrationV6},
    {kMigrationWebAuth}, // web console users and sessions
    {kMigrationV8},
    {kMigrationSettings}, // V9: shared settings
};

// The few spellings of the common migrations that PostgreSQL does not share. REAL is a 4-byte
// float there, SQLite's an 8-byte one.
QString postgresStatement(const char *sqlite)
{
    QString sql = QString::fromLatin1(sqlite);
    sql.replace(QLatin1String(" id INTEGER PRIMARY KEY AUTOINCREMENT,"),
                QLatin1String(" id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"));
    sql.replace(QLatin1String(" id INTEGER PRIMARY KEY,"),
                QLatin1String(" id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"));
    sql.replace(QLatin1String(" series_id INTEGER NOT NULL"), QLatin1String(" series_id BIGINT NOT NULL"));
    sql.replace(QLatin1String(") WITHOUT ROWID"), QLatin1String(")"));
    sql.replace(QLatin1String(" REAL"), QLatin1String(" DOUBLE PRECISION"));
    sql.replace(QLatin1String(" BLOB"), QLatin1String(" BYTEA"));
    return sql;
}

// Replicas opening one database at once take turns to migrate it (pg_advisory_lock key).
constexpr qint64 kSchemaLockKey = 0x5374726174610001; // "Strata" + 1
// Lease syncs of all replicas take turns (pg_advisory_xact_lock key), so two never balance at once.
constexpr qint64 kLeaseLockKey = 0x5374726174610002;
// Retention runs in one replica at a time (pg_try_advisory_xact_lock key): the others skip it.
constexpr qint64 kRetentionLockKey = 0x5374726174610003;

/// Where one family of capacity series lives: volumes (keyed by source and volume id) or other
/// containers (keyed by source, kind and id).
struct SeriesTable
{
    QLatin1String series;
    QLatin1String samples;
    QLatin1String idColumn;
    bool hasKind;
};

const SeriesTable kVolumeTable{
    QLatin1String("volume_series"), QLatin1String("volume_usage_sample"), QLatin1String("volume_id"), false};
const SeriesTable kContainerTable{
    QLatin1String("capacity_series"), QLatin1String("capacity_sample"), QLatin1String("object_id"), true};

constexpr int kLatestVersion = static_cast<int>(std::size(kMigrations));

// QSQLITE binds a null QString as SQL NULL, which the NOT NULL text columns reject.
QString notNull(const QString &text)
{
    return text.isNull() ? QStringLiteral("") : text;
}

QDateTime fromUnixMs(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

// An invalid time leaves that end of a queried range open.
qint64 rangeStartMs(const QDateTime &from)
{
    return from.isValid() ? from.toMSecsSinceEpoch() : std::numeric_limits<qint64>::min();
}

qint64 rangeEndMs(const QDateTime &to)
{
    return to.isValid() ? to.toMSecsSinceEpoch() : std::numeric_limits<qint64>::max();
}

const QLatin1String
    kAuditColumns("id, t, user_name, action_id, source, kind, target, from_state, to_state, outcome, message, replica");

AuditEntry auditFromQuery(const QSqlQuery &query)
{
    AuditEntry entry;
    entry.id = query.value(0).toLongLong();
    entry.time = fromUnixMs(query.value(1).toLongLong());
    entry.user = query.value(2).toString();
    entry.actionId = query.value(3).toString();
    entry.source = query.value(4).toString();
    entry.kind = query.value(5).toString();
    entry.target = query.value(6).toString();
    entry.fromState = query.value(7).toString();
    entry.toState = query.value(8).toString();
    entry.outcome = query.value(9).toString();
    entry.message = query.value(10).toString();
    entry.replica = query.value(11).toString();
    return entry;
}

// Writes rows as multi-row "INSERT ... VALUES (...), (...), ...": Qt SQL's per-exec overhead is
// several times SQLite's own per-row cost, so 256 rows per statement instead of one makes 50,000
// volumes several times faster. Multi-row VALUES is standard SQL, so QPSQL can do the same.
class BatchInsert
{
public:
    static constexpr int kRowsPerStatement = 256;

    /// `head` is "INSERT INTO t (a, b)", `tail` what follows the VALUES list (ON CONFLICT ...).
    BatchInsert(const QSqlDatabase &db, QString head, int columns, QString tail)
        : m_db(db)
        , m_head(std::move(head))
        , m_tail(std::move(tail))
        , m_columns(columns)
    {
        m_values.reserve(kRowsPerStatement * columns);
    }

    template <typename... Values> bool add(const Values &...values)
    {
        static_assert(sizeof...(values) > 0);
        (m_values.append(QVariant::fromValue(values)), ...);
        return ++m_rows < kRowsPerStatement || flush();
    }

    /// add() for a row whose values are only known at run time (`values.size()` == columns).
    bool addRow(const QVariantList &values)
    {
        m_values.append(values);
        return ++m_rows < kRowsPerStatement || flush();
    }

    /// add() for a row whose conflict key hashes to `key`. PostgreSQL refuses an ON CONFLICT DO
    /// UPDATE statement that proposes one key twice (SQLite lets the last row win), so a key
    /// already pending flushes first and the row lands in the next statement. A hash collision
    /// only costs an early flush.
    template <typename... Values> bool addUnique(size_t key, const Values &...values)
    {
        if (m_pendingKeys.contains(key) && !flush()) {
            return false;
        }
        m_pendingKeys.insert(key);
        return add(values...);
    }

    bool flush()
    {
        if (m_rows == 0) {
            return true;
        }
        QSqlQuery partial(m_db);
        QSqlQuery *query = &partial;
        if (m_rows == kRowsPerStatement) {
            if (!m_full) {
                m_full.emplace(m_db);
                if (!m_full->prepare(statement(kRowsPerStatement))) {
                    m_error = m_full->lastError();
                    return false;
                }
            }
            query = &*m_full;
        } else if (!partial.prepare(statement(m_rows))) {
            m_error = partial.lastError();
            return false;
        }
        for (int i = 0; i < m_values.size(); ++i) {
            query->bindValue(i, m_values.at(i));
        }
        const bool ok = query->exec();
        if (!ok) {
            m_error = query->lastError();
        }
        query->finish();
        m_values.clear();
        m_pendingKeys.clear();
        m_rows = 0;
        return ok;
    }

    [[nodiscard]] QSqlError lastError() const { return m_error; }

private:
    [[nodiscard]] QString statement(int rows) const
    {
        QString row = QStringLiteral("(?");
        for (int c = 1; c < m_columns; ++c) {
            row += QStringLiteral(", ?");
        }
        row += QLatin1Char(')');
        QString sql = m_head + QStringLiteral(" VALUES ") + row;
        for (int r = 1; r < rows; ++r) {
            sql += QStringLiteral(", ") + row;
        }
        return sql + QLatin1Char(' ') + m_tail;
    }

    QSqlDatabase m_db;
    QString m_head;
    QString m_tail;
    int m_columns;
    QVariantList m_values;
    QSet<size_t> m_pendingKeys;
    int m_rows = 0;
    std::optional<QSqlQuery> m_full;
    QSqlError m_error;
};

} // namespace

QString containerKindName(ContainerKind kind)
{
    switch (kind) {
    case ContainerKind::Volume:
        return QStringLiteral("volume");
    case ContainerKind::Aggregate:
        return QStringLiteral("aggregate");
    case ContainerKind::Pool:
        return QStringLiteral("pool");
    case ContainerKind::Bucket:
        return QStringLiteral("bucket");
    case ContainerKind::Tenant:
        return QStringLiteral("tenant");
    case ContainerKind::CacheTarget:
        return QStringLiteral("cache_target");
    }
    return {};
}

std::optional<ContainerKind> containerKindFromName(const QString &name)
{
    for (const ContainerKind kind : {ContainerKind::Volume,
                                     ContainerKind::Aggregate,
                                     ContainerKind::Pool,
                                     ContainerKind::Bucket,
                                     ContainerKind::Tenant,
                                     ContainerKind::CacheTarget}) {
        if (containerKindName(kind) == name) {
            return kind;
        }
    }
    return std::nullopt;
}

struct SqlHistoryStore::Private
{
    /// The last written sample of one volume, or only its series id when it has none yet.
    struct LastSample
    {
        qint64 seriesId = 0;
        bool hasSample = false;
        qint64 t = 0;
        qint64 used = 0;
        qint64 size = 0;
    };

    /// The last samples of one source's series (of one kind), and where each item of the last
    /// record call found its sample: a poll lists its volumes in the same order as the one
    /// before, so the i-th item is looked for there first, without hashing its id.
    struct SeriesCache
    {
        QHash<QString, LastSample> samples;
        /// samples' node of each item of the last call, in its order. QHash moves its nodes when
        /// it grows: cleared whenever a series is added.
        std::vector<QHash<QString, LastSample>::iterator> order;
    };

    explicit Private(const IClock &c)
        : clock(c)
    {}

    const IClock &clock;
    QString location; ///< as given: a SQLite path or a PostgreSQL URL with its password
    QString path;     ///< displayLocation(location), for messages and logs
    bool postgres = false;
    /// Last written project sample per "source/project", for change-only writes.
    QHash<QString, ProjectSample> lastProject;
    QString connectionName;
    QSqlDatabase db;
    bool opened = false;
    QString lastError;
    /// source -> volume id -> last sample; a source is loaded on its first record.
    QHash<QString, SeriesCache> lastSamples;
    /// "<kind>\x1f<source>" -> container id -> last sample, as lastSamples.
    QHash<QString, SeriesCache> lastContainers;
    /// source -> volume id -> last written perf sample (time in `time`), for change-only writes.
    /// Not loaded from disk: after a restart the first sample of each volume is written again.
    QHash<QString, QHash<QString, VolumePerfSample>> lastPerf;
    /// listenForSharedStates()'s callback; empty until a reader listens.
    std::function<void(const QString &)> onShared;

    /// LISTEN on "strata_state" for onShared (again after a reconnect: the old session's
    /// subscription went with it). PostgreSQL only.
    bool subscribeShared();
    /// The store's clock as unix milliseconds (replicas on several hosts share one clock).
    std::optional<qint64> storeNowMs();

    bool fail(const QString &what, const QSqlError &error)
    {
        lastError = what + QStringLiteral(": ") + error.text();
        qCWarning(lcHistory).noquote() << "history store" << path << lastError;
        return false;
    }

    bool exec(const QString &sql)
    {
        QSqlQuery query(db);
        if (!query.exec(sql)) {
            return fail(QStringLiteral("SQL failed (%1)").arg(sql.left(60)), query.lastError());
        }
        return true;
    }
    bool exec(const char *sql) { return exec(QString::fromLatin1(sql)); }

    void rollback() { db.rollback(); }

    /// Rolls the open transaction back and records the failure; always false.
    bool abort(const QString &what, const QSqlError &error)
    {
        rollback();
        return fail(what, error);
    }

    bool begin() { return db.transaction() || fail(QStringLiteral("cannot begin a transaction"), db.lastError()); }

    /// Commits, or rolls back and records the failure as `what`.
    bool commit(const QString &what) { return db.commit() || abort(what, db.lastError()); }

    /// Every call but open() needs an open store; false with lastError set when it is not.
    bool requireOpen()
    {
        if (!opened) {
            lastError = QStringLiteral("the history store is not open");
        }
        return opened;
    }

    /// A forward-only query prepared with `sql`; its bind values follow.
    [[nodiscard]] QSqlQuery select(const QString &sql) const
    {
        QSqlQuery query(db);
        query.setForwardOnly(true);
        query.prepare(sql);
        return query;
    }

    /// lastError as the error a public call answers after fail(), abort() or requireOpen()
    /// said false: Kind::Unavailable when the store is not open, else Kind::Failed.
    [[nodiscard]] Unexpected<Error> failure() const
    {
        return core::fail(Error::make(opened ? Error::Kind::Failed : Error::Kind::Unavailable,
                                      lastError.isEmpty() ? QStringLiteral("the history store failed") : lastError));
    }

    /// A Kind::NotFound error with `message`, kept as lastError too.
    Unexpected<Error> notFound(const QString &message)
    {
        lastError = message;
        return core::fail(Error::make(Error::Kind::NotFound, message));
    }

    /// Runs `query` and turns each row into a T with `row`; failure() with lastError
    /// "<what>: <driver text>" when the query fails. Callers check requireOpen() first.
    template <class T, class Row> Result<std::vector<T>> selectRows(QSqlQuery &query, const QString &what, Row row)
    {
        if (!query.exec()) {
            QSqlError error = query.lastError();
            // A statement that did not prepare (a table gone, a damaged schema) answers exec()
            // with only "Parameter count mismatch": preparing it again names the cause.
            if (QSqlQuery again(db); !again.prepare(query.lastQuery())) {
                error = again.lastError();
            }
            fail(what, error);
            return failure();
        }
        std::vector<T> out;
        while (query.next()) {
            out.push_back(row(query));
        }
        lastError.clear();
        return out;
    }

    bool migrate();
    bool migrateSteps();
    Status openSqlite();
    Status openPostgres();
    /// Fills `samples` with the last sample of every series of `source` (and `kind`) in `table`.
    bool loadLastSamples(const SeriesTable &table,
                         const QString &source,
                         const QString &kind,
                         QHash<QString, LastSample> &samples);
    /// recordVolumeUsage()'s change-only write, for either family of series; `cache` is that
    /// family's last samples (volumes by source, containers by kind and source).
    bool recordSeries(const SeriesTable &table,
                      QHash<QString, SeriesCache> &cache,
                      const QString &source,
                      const QString &kind,
                      const std::vector<VolumeUsage> &usage,
                      qint64 now,
                      qint64 heartbeatMs);
};

bool SqlHistoryStore::Private::migrate()
{
    if (!postgres) {
        return migrateSteps();
    }
    const QString key = QString::number(kSchemaLockKey);
    if (!exec(QStringLiteral("SELECT pg_advisory_lock(%1)").arg(key))) {
        return false;
    }
    const bool migrated = migrateSteps();
    QSqlQuery unlock(db);
    unlock.exec(QStringLiteral("SELECT pg_advisory_unlock(%1)").arg(key));
    return migrated;
}

bool SqlHistoryStore::Private::migrateSteps()
{
    if (!exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")) {
        return false;
    }
    int version = 0;
    {
        QSqlQuery query(db);
        if (!query.exec(QStringLiteral("SELECT version FROM schema_version"))) {
            return fail(QStringLiteral("cannot read the schema version"), query.lastError());
        }
        if (query.next()) {
            version = query.value(0).toInt();
        } else if (!exec("INSERT INTO schema_version (version) VALUES (0)")) {
            return false;
        }
    }
    if (version > kLatestVersion) {
        lastError = QStringLiteral("history database %1 has schema version %2, newer than this Strata supports (%3)")
                        .arg(path)
                        .arg(version)
                        .arg(kLatestVersion);
        return false;
    }
    for (int next = version + 1; next <= kLatestVersion; ++next) {
        if (!db.transaction()) {
            return fail(QStringLiteral("cannot begin migration"), db.lastError());
        }
        const Migration &migration = kMigrations[next - 1];
        QStringList statements;
        for (const char *sql : migration.common) {
            statements << (postgres ? postgresStatement(sql) : QString::fromLatin1(sql));
        }
        for (const char *sql : postgres ? migration.postgresOnly : migration.sqliteOnly) {
            statements << QString::fromLatin1(sql);
        }
        for (const QString &sql : std::as_const(statements)) {
            if (!exec(sql)) {
                rollback();
                return false;
            }
        }
        QSqlQuery update(db);
        update.prepare(QStringLiteral("UPDATE schema_version SET version = ?"));
        update.addBindValue(next);
        if (!update.exec()) {
            rollback();
            return fail(QStringLiteral("cannot update the schema version"), update.lastError());
        }
        if (!db.commit()) {
            rollback();
            return fail(QStringLiteral("cannot commit migration %1").arg(next), db.lastError());
        }
        qCDebug(lcHistory).noquote() << "history store" << path << "migrated to schema version" << next;
    }
    return true;
}

bool SqlHistoryStore::Private::loadLastSamples(const SeriesTable &table,
                                               const QString &source,
                                               const QString &kind,
                                               QHash<QString, LastSample> &samples)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT s.%1, s.id, u.t, u.used, u.size FROM %2 s"
                                 " LEFT JOIN %3 u ON u.series_id = s.id"
                                 " AND u.t = (SELECT MAX(m.t) FROM %3 m WHERE m.series_id = s.id)"
                                 " WHERE s.source = ?%4")
                      .arg(table.idColumn,
                           table.series,
                           table.samples,
                           table.hasKind ? QStringLiteral(" AND s.kind = ?") : QString()));
    query.addBindValue(source);
    if (table.hasKind) {
        query.addBindValue(kind);
    }
    if (!query.exec()) {
        return fail(QStringLiteral("cannot load the last samples of %1").arg(source), query.lastError());
    }
    samples.clear();
    while (query.next()) {
        LastSample last;
        last.seriesId = query.value(1).toLongLong();
        last.hasSample = !query.isNull(2);
        if (last.hasSample) {
            last.t = query.value(2).toLongLong();
            last.used = query.value(3).toLongLong();
            last.size = query.value(4).toLongLong();
        }
        samples.insert(query.value(0).toString(), last);
    }
    return true;
}

bool SqlHistoryStore::Private::recordSeries(const SeriesTable &table,
                                            QHash<QString, SeriesCache> &cache,
                                            const QString &source,
                                            const QString &kind,
                                            const std::vector<VolumeUsage> &usage,
                                            qint64 now,
                                            qint64 heartbeatMs)
{
    const QString cacheKey = table.hasKind ? kind + QLatin1Char('\x1f') + source : source;
    if (!cache.contains(cacheKey) && !loadLastSamples(table, source, kind, cache[cacheKey].samples)) {
        cache.remove(cacheKey);
        return false;
    }
    const QString what = table.hasKind ? QStringLiteral("%1 capacity of %2").arg(kind, source) : source;
    // On any failure the cache may be ahead of the rolled-back database: forget it and reload.
    const auto abortRecord = [&](const QString &message, const QSqlError &error) {
        rollback();
        cache.remove(cacheKey);
        return fail(message, error);
    };
    const QString kindColumn = table.hasKind ? QStringLiteral("kind, ") : QString();
    const QString kindFilter = table.hasKind ? QStringLiteral(" AND kind = ?") : QString();

    if (!begin()) {
        return false;
    }
    SeriesCache &series = cache[cacheKey];
    QHash<QString, LastSample> &last = series.samples;
    // Each item's node in `last` (end() for a container without a series yet).
    std::vector<QHash<QString, LastSample>::iterator> slots;
    slots.reserve(usage.size());

    QSet<QString> added;
    {
        BatchInsert insert(
            db,
            QStringLiteral("INSERT INTO %1 (source, %2%3)").arg(table.series, kindColumn, table.idColumn),
            table.hasKind ? 3 : 2,
            QStringLiteral("ON CONFLICT (source, %1%2) DO NOTHING").arg(kindColumn, table.idColumn));
        for (std::size_t i = 0; i < usage.size(); ++i) {
            const VolumeUsage &item = usage[i];
            const bool samePlace = i < series.order.size() && series.order[i].key() == item.volumeId;
            slots.push_back(samePlace ? series.order[i] : last.find(item.volumeId));
            if (slots.back() != last.end() || added.contains(item.volumeId)) {
                continue;
            }
            const bool inserted = table.hasKind ? insert.add(source, kind, notNull(item.volumeId))
                                                : insert.add(source, notNull(item.volumeId));
            if (!inserted) {
                return abortRecord(QStringLiteral("cannot add series of %1").arg(what), insert.lastError());
            }
            // Listed twice, inserted once.
            added.insert(item.volumeId);
        }
        if (!insert.flush()) {
            return abortRecord(QStringLiteral("cannot add series of %1").arg(what), insert.lastError());
        }
    }
    if (!added.isEmpty()) {
        series.order.clear();
        for (const QString &id : std::as_const(added)) {
            last.insert(id, LastSample{});
        }
        // Reading the ids back is portable (PostgreSQL has no lastInsertId without RETURNING)
        // and happens only when containers appear.
        QSqlQuery ids(db);
        ids.setForwardOnly(true);
        ids.prepare(
            QStringLiteral("SELECT %1, id FROM %2 WHERE source = ?%3").arg(table.idColumn, table.series, kindFilter));
        ids.addBindValue(source);
        if (table.hasKind) {
            ids.addBindValue(kind);
        }
        if (!ids.exec()) {
            return abortRecord(QStringLiteral("cannot read series ids of %1").arg(what), ids.lastError());
        }
        while (ids.next()) {
            const auto it = last.find(ids.value(0).toString());
            if (it != last.end() && it->seriesId == 0) {
                it->seriesId = ids.value(1).toLongLong();
            }
        }
        // The inserts moved the nodes found above.
        for (std::size_t i = 0; i < usage.size(); ++i) {
            slots[i] = last.find(usage[i].volumeId);
        }
    }

    {
        BatchInsert insert(
            db,
            QStringLiteral("INSERT INTO %1 (series_id, t, used, size)").arg(table.samples),
            4,
            QStringLiteral("ON CONFLICT (series_id, t) DO UPDATE SET used = excluded.used, size = excluded.size"));
        for (std::size_t i = 0; i < usage.size(); ++i) {
            const VolumeUsage &item = usage[i];
            LastSample &previous = slots[i].value();
            const bool changed =
                !previous.hasSample || previous.used != item.usedBytes || previous.size != item.sizeBytes;
            if (!changed && now - previous.t < heartbeatMs) {
                continue;
            }
            if (!insert.addUnique(size_t(previous.seriesId), previous.seriesId, now, item.usedBytes, item.sizeBytes)) {
                return abortRecord(QStringLiteral("cannot record usage of %1").arg(what), insert.lastError());
            }
            // A late, out-of-order sample is history, not the container's latest state.
            if (!previous.hasSample || now >= previous.t) {
                previous.hasSample = true;
                previous.t = now;
                previous.used = item.usedBytes;
                previous.size = item.sizeBytes;
            }
        }
        if (!insert.flush()) {
            return abortRecord(QStringLiteral("cannot record usage of %1").arg(what), insert.lastError());
        }
    }
    series.order = std::move(slots);
    if (!db.commit()) {
        return abortRecord(QStringLiteral("cannot commit usage of %1").arg(what), db.lastError());
    }
    lastError.clear();
    return true;
}

// ---------------------------------------------------------------------------------------------

SqlHistoryStore::SqlHistoryStore(QString location, const IClock &clock)
    : d(std::make_unique<Private>(clock))
{
    d->postgres = isPostgresLocation(location);
    d->path = displayLocation(location);
    d->location = std::move(location);
}

bool SqlHistoryStore::isPostgresLocation(const QString &location)
{
    return location.startsWith(QLatin1String("postgresql://")) || location.startsWith(QLatin1String("postgres://"));
}

QString SqlHistoryStore::displayLocation(const QString &location)
{
    if (!isPostgresLocation(location)) {
        return location;
    }
    QUrl url(location);
    // Query items may carry secrets too (password=, sslpassword=).
    return url.adjusted(QUrl::RemovePassword | QUrl::RemoveQuery).toString();
}

Status SqlHistoryStore::ping()
{
    if (!d->opened) {
        return core::fail(d->lastError.isEmpty() ? QStringLiteral("the history store is not open") : d->lastError);
    }
    const auto answers = [this] {
        QSqlQuery query(d->db);
        return query.exec(QStringLiteral("SELECT 1")) && query.next();
    };
    if (answers()) {
        return {};
    }
    // QPSQL does not reconnect by itself: a restarted server leaves a dead connection behind.
    if (d->postgres) {
        d->db.close();
        if (d->db.open() && (d->exec("SET client_min_messages = warning"), answers())) {
            qCInfo(lcHistory).noquote() << "history store" << d->path << "reconnected";
            if (d->onShared) {
                d->subscribeShared();
            }
            return {};
        }
    }
    d->fail(QStringLiteral("history database %1 does not answer").arg(d->path), d->db.lastError());
    return core::fail(d->lastError);
}

bool SqlHistoryStore::isPostgres() const
{
    return d->postgres;
}

SqlHistoryStore::~SqlHistoryStore()
{
    if (d->connectionName.isEmpty()) {
        return;
    }
    d->lastSamples.clear();
    d->lastContainers.clear();
    d->db.close();
    // removeDatabase() warns if a handle is still alive, so drop ours first.
    d->db = QSqlDatabase();
    QSqlDatabase::removeDatabase(d->connectionName);
}

int SqlHistoryStore::latestSchemaVersion()
{
    return kLatestVersion;
}

QString SqlHistoryStore::lastError() const
{
    return d->lastError;
}

Status SqlHistoryStore::open()
{
    if (d->opened) {
        return {};
    }
    if (d->connectionName.isEmpty()) {
        // Qt SQL connections are process-global by name: every instance needs its own.
        static std::atomic<quint64> counter{0};
        d->connectionName = QStringLiteral("strata-history-%1").arg(++counter);
        d->db = QSqlDatabase::addDatabase(d->postgres ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE"),
                                          d->connectionName);
    }
    const Status opened = d->postgres ? d->openPostgres() : d->openSqlite();
    if (!opened || !d->migrate()) {
        d->db.close();
        return core::fail(opened ? d->lastError : opened.error().message);
    }
    d->opened = true;
    d->lastError.clear();
    return {};
}

Status SqlHistoryStore::Private::openSqlite()
{
    const auto failed = [this]() {
        return core::fail(lastError);
    };
    if (!db.isValid()) {
        lastError = QStringLiteral("the Qt SQLite driver (QSQLITE) is not available");
        return failed();
    }
    const bool inMemory = location == kMemoryPath;
    if (location.isEmpty()) {
        lastError = QStringLiteral("no history database path given");
        return failed();
    }
    if (!inMemory) {
        const QString dir = QFileInfo(location).absolutePath();
        if (!QDir().mkpath(dir)) {
            lastError = QStringLiteral("cannot create directory %1 for the history database").arg(dir);
            return failed();
        }
    }
    db.setDatabaseName(location);
    // Another process (the CLI next to the desktop app) may hold the write lock briefly.
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    if (!db.open()) {
        fail(QStringLiteral("cannot open history database %1").arg(path), db.lastError());
        return failed();
    }
    if (!inMemory) {
        QSqlQuery wal(db);
        if (!wal.exec(QStringLiteral("PRAGMA journal_mode=WAL"))) {
            fail(QStringLiteral("cannot open history database %1").arg(path), wal.lastError());
            return failed();
        }
        // Some file systems (NFS without locking) cannot do WAL; SQLite then keeps its rollback
        // journal, which is slower but still correct.
        if (wal.next() && wal.value(0).toString().compare(QLatin1String("wal"), Qt::CaseInsensitive) != 0) {
            qCWarning(lcHistory).noquote()
                << "history store" << path << "runs without WAL, journal mode" << wal.value(0).toString();
        }
    }
    // synchronous=NORMAL under WAL can lose the last transactions on power loss but never
    // corrupts; history is re-polled, so that trade is worth the fsyncs saved.
    if (!exec("PRAGMA synchronous=NORMAL") || !exec("PRAGMA foreign_keys=ON")) {
        return failed();
    }
    return {};
}

Status SqlHistoryStore::Private::openPostgres()
{
    const auto failed = [this]() {
        return core::fail(lastError);
    };
    if (!db.isValid()) {
        lastError = QStringLiteral("the Qt PostgreSQL driver (QPSQL) is not available: install libqt6sql6-psql");
        return failed();
    }
    const QUrl url(location, QUrl::StrictMode);
    if (!url.isValid() || (url.host().isEmpty() && !QUrlQuery(url).hasQueryItem(QStringLiteral("host")))) {
        lastError = QStringLiteral("%1 is not a PostgreSQL URL (postgresql://user@host:port/database)").arg(path);
        return failed();
    }
    db.setHostName(url.host());
    if (url.port() > 0) {
        db.setPort(url.port());
    }
    db.setUserName(url.userName(QUrl::FullyDecoded));
    db.setPassword(url.password(QUrl::FullyDecoded));
    db.setDatabaseName(url.path(QUrl::FullyDecoded).mid(1));
    // libpq's own parameters (sslmode, sslrootcert, host=/socket/dir, ...) pass through; a
    // database that does not answer fails in seconds, not after the OS's TCP timeout.
    QUrlQuery query(url);
    QStringList options;
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (key.contains(QLatin1Char(';')) || value.contains(QLatin1Char(';'))) {
            lastError = QStringLiteral("%1: a connection parameter may not contain ';'").arg(path);
            return failed();
        }
        options << key + QLatin1Char('=') + value;
    }
    if (!query.hasQueryItem(QStringLiteral("connect_timeout"))) {
        options << QStringLiteral("connect_timeout=10");
    }
    if (!query.hasQueryItem(QStringLiteral("application_name"))) {
        options << QStringLiteral("application_name=strata");
    }
    db.setConnectOptions(options.join(QLatin1Char(';')));
    if (!db.open()) {
        // libpq's message names the host and port, never the password.
        fail(QStringLiteral("cannot open history database %1").arg(path), db.lastError());
        return failed();
    }
    // The migration's "already exists, skipping" notices are not news on a shared database.
    exec("SET client_min_messages = warning");
    return {};
}

Status SqlHistoryStore::recordVolumeUsage(const QString &source,
                                          const std::vector<VolumeUsage> &usage,
                                          const QDateTime &at,
                                          qint64 heartbeatSeconds)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    if (!at.isValid()) {
        d->lastError = QStringLiteral("recordVolumeUsage: invalid time");
        return d->failure();
    }
    if (usage.empty()) {
        d->lastError.clear();
        return {};
    }
    if (!d->recordSeries(
            kVolumeTable, d->lastSamples, source, {}, usage, at.toMSecsSinceEpoch(), heartbeatSeconds * 1000)) {
        return d->failure();
    }
    return {};
}

Status SqlHistoryStore::recordCapacity(const QString &source,
                                       ContainerKind kind,
                                       const std::vector<VolumeUsage> &usage,
                                       const QDateTime &at,
                                       qint64 heartbeatSeconds)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    if (!at.isValid() || kind == ContainerKind::Volume) {
        d->lastError = QStringLiteral("recordCapacity: invalid time, or volumes (use recordVolumeUsage)");
        return d->failure();
    }
    if (usage.empty()) {
        d->lastError.clear();
        return {};
    }
    if (!d->recordSeries(kContainerTable,
                         d->lastContainers,
                         source,
                         containerKindName(kind),
                         usage,
                         at.toMSecsSinceEpoch(),
                         heartbeatSeconds * 1000)) {
        return d->failure();
    }
    return {};
}

Result<std::vector<CapacitySeries>> SqlHistoryStore::capacityHistory(const QDateTime &from, const QDateTime &to)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    QSqlQuery query = d->select(
        QStringLiteral("SELECT s.source, 'volume', s.volume_id, u.t, u.used, u.size FROM volume_usage_sample u"
                       " JOIN volume_series s ON s.id = u.series_id WHERE u.t >= ? AND u.t <= ?"
                       " UNION ALL"
                       " SELECT s.source, s.kind, s.object_id, u.t, u.used, u.size FROM capacity_sample u"
                       " JOIN capacity_series s ON s.id = u.series_id WHERE u.t >= ? AND u.t <= ?"
                       " ORDER BY 1, 2, 3, 4"));
    for (int i = 0; i < 2; ++i) {
        query.addBindValue(rangeStartMs(from));
        query.addBindValue(rangeEndMs(to));
    }
    std::vector<CapacitySeries> out;
    if (!query.exec()) {
        d->fail(QStringLiteral("cannot read the capacity history"), query.lastError());
        return d->failure();
    }
    while (query.next()) {
        const QString source = query.value(0).toString();
        const QString kind = query.value(1).toString();
        const QString id = query.value(2).toString();
        if (out.empty() || out.back().id != id || out.back().kind != kind || out.back().source != source) {
            out.push_back(CapacitySeries{source, kind, id, {}});
        }
        out.back().samples.push_back(UsageSample{
            fromUnixMs(query.value(3).toLongLong()), query.value(4).toLongLong(), query.value(5).toLongLong()});
    }
    d->lastError.clear();
    return out;
}

Result<std::vector<UsageSample>>
SqlHistoryStore::volumeUsage(const QString &source, const QString &volumeId, const QDateTime &from, const QDateTime &to)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    QSqlQuery query = d->select(QStringLiteral("SELECT u.t, u.used, u.size FROM volume_usage_sample u"
                                               " JOIN volume_series s ON s.id = u.series_id"
                                               " WHERE s.source = ? AND s.volume_id = ? AND u.t >= ? AND u.t <= ?"
                                               " ORDER BY u.t"));
    query.addBindValue(source);
    query.addBindValue(volumeId);
    query.addBindValue(rangeStartMs(from));
    query.addBindValue(rangeEndMs(to));
    return d->selectRows<UsageSample>(
        query, QStringLiteral("cannot read usage of volume %1 of %2").arg(volumeId, source), [](const QSqlQuery &row) {
            return UsageSample{
                fromUnixMs(row.value(0).toLongLong()), row.value(1).toLongLong(), row.value(2).toLongLong()};
        });
}

Result<qint64> SqlHistoryStore::applyRetention(const QDateTime &cutoff)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    if (!cutoff.isValid()) {
        d->lastError = QStringLiteral("applyRetention: invalid cutoff");
        return d->failure();
    }
    if (!d->begin()) {
        return d->failure();
    }
    if (d->postgres) {
        // Replicas each run retention on their own timer: one that finds another at it skips, as
        // that one's delete is its own, instead of queueing behind its locks for the same rows.
        QSqlQuery turn(d->db);
        if (!turn.exec(QStringLiteral("SELECT pg_try_advisory_xact_lock(%1)").arg(kRetentionLockKey)) || !turn.next()) {
            d->abort(QStringLiteral("cannot apply retention"), turn.lastError());
            return d->failure();
        }
        if (!turn.value(0).toBool()) {
            d->db.rollback();
            d->lastError.clear();
            return qint64(0);
        }
    }
    // Walking the series makes every delete a seek on the (series_id, t) key instead of a full
    // scan, without a second index on t that every insert would pay for.
    QSqlQuery samples(d->db);
    samples.prepare(QStringLiteral("DELETE FROM volume_usage_sample"
                                   " WHERE series_id IN (SELECT id FROM volume_series) AND t < ?"));
    samples.addBindValue(cutoff.toMSecsSinceEpoch());
    if (!samples.exec()) {
        d->abort(QStringLiteral("cannot apply retention"), samples.lastError());
        return d->failure();
    }
    const qint64 removed = samples.numRowsAffected();
    QSqlQuery series(d->db);
    if (!series.exec(QStringLiteral("DELETE FROM volume_series WHERE NOT EXISTS"
                                    " (SELECT 1 FROM volume_usage_sample u WHERE u.series_id = volume_series.id)"))) {
        d->abort(QStringLiteral("cannot apply retention"), series.lastError());
        return d->failure();
    }
    for (const QString &sql : {QStringLiteral("DELETE FROM project_sample WHERE t < ?"),
                               QStringLiteral("DELETE FROM volume_perf_sample WHERE t < ?"),
                               QStringLiteral("DELETE FROM capacity_sample"
                                              " WHERE series_id IN (SELECT id FROM capacity_series) AND t < ?")}) {
        QSqlQuery old(d->db);
        old.prepare(sql);
        old.addBindValue(cutoff.toMSecsSinceEpoch());
        if (!old.exec()) {
            d->abort(QStringLiteral("cannot apply retention"), old.lastError());
            return d->failure();
        }
    }
    QSqlQuery containers(d->db);
    if (!containers.exec(QStringLiteral("DELETE FROM capacity_series WHERE NOT EXISTS"
                                        " (SELECT 1 FROM capacity_sample u WHERE u.series_id = capacity_series.id)"))) {
        d->abort(QStringLiteral("cannot apply retention"), containers.lastError());
        return d->failure();
    }
    if (!d->commit(QStringLiteral("cannot commit retention"))) {
        return d->failure();
    }
    // Series ids and last samples may be gone: reload them on the next record.
    d->lastSamples.clear();
    d->lastContainers.clear();
    d->lastProject.clear();
    d->lastPerf.clear();
    d->lastError.clear();
    return removed;
}

Result<qint64> SqlHistoryStore::appendAudit(const AuditEntry &entry)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    QSqlQuery query(d->db);
    query.prepare(QStringLiteral("INSERT INTO audit_log (t, user_name, action_id, source, kind, target, from_state,"
                                 " to_state, outcome, message, replica) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                                 " RETURNING id"));
    const QDateTime time = entry.time.isValid() ? entry.time : d->clock.now();
    query.addBindValue(time.toMSecsSinceEpoch());
    for (const QString *text : {&entry.user,
                                &entry.actionId,
                                &entry.source,
                                &entry.kind,
                                &entry.target,
                                &entry.fromState,
                                &entry.toState,
                                &entry.outcome,
                                &entry.message,
                                &entry.replica}) {
        query.addBindValue(notNull(*text));
    }
    // RETURNING (SQLite 3.35+, PostgreSQL): QPSQL has no lastInsertId() for identity columns.
    if (!query.exec() || !query.next()) {
        d->fail(QStringLiteral("cannot append to the audit log"), query.lastError());
        return d->failure();
    }
    const qint64 id = query.value(0).toLongLong();
    query.finish();
    d->lastError.clear();
    return id;
}

Result<bool> SqlHistoryStore::containsAudit(const AuditEntry &entry)
{
    if (!entry.time.isValid()) {
        return false; // nothing to match it by: the store stamps it when written
    }
    if (!d->requireOpen()) {
        return d->failure();
    }
    QSqlQuery query = d->select(QStringLiteral("SELECT 1 FROM audit_log WHERE action_id = ? AND t = ? AND user_name = ?"
                                               " AND source = ? AND kind = ? AND target = ? AND from_state = ?"
                                               " AND to_state = ? AND outcome = ? AND message = ? AND replica = ?"
                                               " LIMIT 1"));
    query.addBindValue(notNull(entry.actionId));
    query.addBindValue(entry.time.toMSecsSinceEpoch());
    for (const QString *text : {&entry.user,
                                &entry.source,
                                &entry.kind,
                                &entry.target,
                                &entry.fromState,
                                &entry.toState,
                                &entry.outcome,
                                &entry.message,
                                &entry.replica}) {
        query.addBindValue(notNull(*text));
    }
    if (!query.exec()) {
        d->fail(QStringLiteral("cannot read the audit log"), query.lastError());
        return d->failure();
    }
    const bool found = query.next();
    query.finish();
    d->lastError.clear();
    return found;
}

Result<std::vector<AuditEntry>> SqlHistoryStore::auditLog(int limit, const QString &source)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    QString sql = QStringLiteral("SELECT %1 FROM audit_log").arg(kAuditColumns);
    if (!source.isEmpty()) {
        sql += QStringLiteral(" WHERE source = ?");
    }
    sql += QStringLiteral(" ORDER BY id DESC");
    if (limit > 0) {
        sql += QStringLiteral(" LIMIT ?");
    }
    QSqlQuery query = d->select(sql);
    if (!source.isEmpty()) {
        query.addBindValue(source);
    }
    if (limit > 0) {
        query.addBindValue(limit);
    }
    return d->selectRows<AuditEntry>(query, QStringLiteral("cannot read the audit log"), auditFromQuery);
}

Status SqlHistoryStore::recordProjectSamples(const QString &source,
                                             const std::vector<ProjectSample> &samples,
                                             const QDateTime &at,
                                             qint64 heartbeatSeconds)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    const qint64 t = at.toMSecsSinceEpoch();
    if (!d->begin()) {
        return d->failure();
    }
    QSqlQuery insert(d->db);
    insert.prepare(
        QStringLiteral("INSERT INTO project_sample (source, project, t, allocated, quota, pending, utilization)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?)"
                       " ON CONFLICT (source, project, t) DO UPDATE SET allocated = excluded.allocated,"
                       " quota = excluded.quota, pending = excluded.pending,"
                       " utilization = excluded.utilization"));
    QList<QPair<QString, ProjectSample>> written;
    for (const ProjectSample &sample : samples) {
        const QString key = source + QLatin1Char('/') + sample.project;
        const auto last = d->lastProject.constFind(key);
        if (last != d->lastProject.cend()) {
            const ProjectSample &prev = *last;
            const bool same = prev.allocated == sample.allocated && prev.quota == sample.quota
                              && prev.pending == sample.pending
                              && std::abs(prev.utilization - sample.utilization) < 0.5;
            if (same && t - prev.time.toMSecsSinceEpoch() < heartbeatSeconds * 1000) {
                continue;
            }
        }
        insert.addBindValue(source);
        insert.addBindValue(sample.project);
        insert.addBindValue(t);
        insert.addBindValue(sample.allocated);
        insert.addBindValue(sample.quota);
        insert.addBindValue(sample.pending);
        insert.addBindValue(sample.utilization < 0 ? QVariant() : QVariant(sample.utilization));
        if (!insert.exec()) {
            d->abort(QStringLiteral("cannot record project samples of %1").arg(source), insert.lastError());
            return d->failure();
        }
        ProjectSample stored = sample;
        stored.time = at;
        written.append({key, stored});
    }
    if (!d->commit(QStringLiteral("cannot commit project samples of %1").arg(source))) {
        return d->failure();
    }
    for (const auto &[key, sample] : written) {
        d->lastProject.insert(key, sample);
    }
    d->lastError.clear();
    return {};
}

Result<std::vector<ProjectSample>> SqlHistoryStore::projectHistory(const QString &source,
                                                                   const QString &project,
                                                                   const QDateTime &from,
                                                                   const QDateTime &to)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    QSqlQuery query =
        d->select(QStringLiteral("SELECT project, t, allocated, quota, pending, utilization FROM project_sample"
                                 " WHERE source = ? AND (? = '' OR project = ?) AND t >= ? AND t <= ?"
                                 " ORDER BY project, t"));
    // A null QString binds as SQL NULL, for which "= ''" is never true.
    const QString projectOrEmpty = project.isEmpty() ? QStringLiteral("") : project;
    query.addBindValue(source);
    query.addBindValue(projectOrEmpty);
    query.addBindValue(projectOrEmpty);
    query.addBindValue(rangeStartMs(from));
    query.addBindValue(rangeEndMs(to));
    return d->selectRows<ProjectSample>(
        query, QStringLiteral("cannot read project history of %1").arg(source), [](const QSqlQuery &row) {
            ProjectSample s;
            s.project = row.value(0).toString();
            s.time = fromUnixMs(row.value(1).toLongLong());
            s.allocated = row.value(2).toLongLong();
            s.quota = row.value(3).toLongLong();
            s.pending = row.value(4).toLongLong();
            s.utilization = row.value(5).isNull() ? -1.0 : row.value(5).toDouble();
            return s;
        });
}

Result<std::vector<AuditEntry>> SqlHistoryStore::auditLogOfKind(const QString &kind, const QDateTime &since)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    QSqlQuery query = d->select(
        QStringLiteral("SELECT %1 FROM audit_log WHERE kind = ? AND t >= ? ORDER BY id DESC").arg(kAuditColumns));
    query.addBindValue(notNull(kind));
    query.addBindValue(rangeStartMs(since));
    return d->selectRows<AuditEntry>(query, QStringLiteral("cannot read the audit log"), auditFromQuery);
}

Status SqlHistoryStore::recordVolumePerf(const QString &source,
                                         const std::vector<VolumePerfSample> &samples,
                                         const QDateTime &at,
                                         qint64 heartbeatSeconds)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    if (!at.isValid()) {
        d->lastError = QStringLiteral("recordVolumePerf: invalid time");
        return d->failure();
    }
    const qint64 t = at.toMSecsSinceEpoch();
    QHash<QString, VolumePerfSample> &last = d->lastPerf[source];
    const auto same = [](const VolumePerfSample &a, const VolumePerfSample &b) {
        return a.throughputBps == b.throughputBps && a.iops == b.iops && a.latencyUs == b.latencyUs
               && a.capBps == b.capBps;
    };
    if (!d->begin()) {
        return d->failure();
    }
    BatchInsert insert(d->db,
                       QStringLiteral("INSERT INTO volume_perf_sample (source, volume_id, t, throughput_bps, iops,"
                                      " latency_us, cap_bps)"),
                       7,
                       QStringLiteral("ON CONFLICT (source, volume_id, t) DO UPDATE SET"
                                      " throughput_bps = excluded.throughput_bps, iops = excluded.iops,"
                                      " latency_us = excluded.latency_us, cap_bps = excluded.cap_bps"));
    QList<VolumePerfSample> written;
    for (const VolumePerfSample &sample : samples) {
        const auto previous = last.constFind(sample.volumeId);
        if (previous != last.cend() && same(*previous, sample)
            && t - previous->time.toMSecsSinceEpoch() < heartbeatSeconds * 1000) {
            continue;
        }
        if (!insert.addUnique(qHash(sample.volumeId),
                              source,
                              notNull(sample.volumeId),
                              t,
                              sample.throughputBps,
                              sample.iops,
                              sample.latencyUs < 0 ? QVariant() : QVariant(sample.latencyUs),
                              sample.capBps < 0 ? QVariant() : QVariant(sample.capBps))) {
            d->abort(QStringLiteral("cannot record volume performance of %1").arg(source), insert.lastError());
            return d->failure();
        }
        VolumePerfSample stored = sample;
        stored.time = at;
        written.append(stored);
    }
    if (!insert.flush()) {
        d->abort(QStringLiteral("cannot record volume performance of %1").arg(source), insert.lastError());
        return d->failure();
    }
    if (!d->commit(QStringLiteral("cannot commit volume performance of %1").arg(source))) {
        return d->failure();
    }
    for (const VolumePerfSample &sample : std::as_const(written)) {
        last.insert(sample.volumeId, sample);
    }
    d->lastError.clear();
    return {};
}

namespace {

VolumePerfSample perfFromQuery(const QSqlQuery &query, int first)
{
    VolumePerfSample s;
    s.time = fromUnixMs(query.value(first).toLongLong());
    s.throughputBps = query.value(first + 1).toDouble();
    s.iops = query.value(first + 2).toDouble();
    s.latencyUs = query.value(first + 3).isNull() ? -1.0 : query.value(first + 3).toDouble();
    s.capBps = query.value(first + 4).isNull() ? -1.0 : query.value(first + 4).toDouble();
    return s;
}

// Nearest-rank percentile of an unsorted list (sorted in place).
double percentile(std::vector<double> &values, double p)
{
    if (values.empty()) {
        return -1;
    }
    std::sort(values.begin(), values.end());
    const auto rank = static_cast<std::size_t>(std::ceil(p * double(values.size())));
    return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

} // namespace

Result<std::vector<VolumePerfSample>> SqlHistoryStore::volumePerfHistory(const QString &source,
                                                                         const QString &volumeId,
                                                                         const QDateTime &from,
                                                                         const QDateTime &to)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    QSqlQuery query =
        d->select(QStringLiteral("SELECT t, throughput_bps, iops, latency_us, cap_bps FROM volume_perf_sample"
                                 " WHERE source = ? AND volume_id = ? AND t >= ? AND t <= ? ORDER BY t"));
    query.addBindValue(source);
    query.addBindValue(volumeId);
    query.addBindValue(rangeStartMs(from));
    query.addBindValue(rangeEndMs(to));
    return d->selectRows<VolumePerfSample>(
        query,
        QStringLiteral("cannot read performance of volume %1 of %2").arg(volumeId, source),
        [&volumeId](const QSqlQuery &row) {
            VolumePerfSample s = perfFromQuery(row, 0);
            s.volumeId = volumeId;
            return s;
        });
}

Result<std::vector<VolumePerfStats>> SqlHistoryStore::volumePerfStats(const QDateTime &from, const QDateTime &to)
{
    std::vector<VolumePerfStats> stats;
    if (!d->requireOpen()) {
        return d->failure();
    }
    QSqlQuery query =
        d->select(QStringLiteral("SELECT source, volume_id, t, throughput_bps, iops FROM volume_perf_sample"
                                 " WHERE t >= ? AND t <= ? ORDER BY source, volume_id, t"));
    query.addBindValue(rangeStartMs(from));
    query.addBindValue(rangeEndMs(to));
    if (!query.exec()) {
        d->fail(QStringLiteral("cannot read volume performance statistics"), query.lastError());
        return d->failure();
    }
    std::vector<double> throughput;
    std::vector<double> iops;
    const auto close = [&] {
        if (!stats.empty() && stats.back().samples > 0) {
            stats.back().p95ThroughputBps = percentile(throughput, 0.95);
            stats.back().p95Iops = percentile(iops, 0.95);
        }
        throughput.clear();
        iops.clear();
    };
    while (query.next()) {
        const QString source = query.value(0).toString();
        const QString volumeId = query.value(1).toString();
        const QDateTime time = fromUnixMs(query.value(2).toLongLong());
        if (stats.empty() || stats.back().source != source || stats.back().volumeId != volumeId) {
            close();
            VolumePerfStats next;
            next.source = source;
            next.volumeId = volumeId;
            next.first = time;
            stats.push_back(std::move(next));
        }
        VolumePerfStats &current = stats.back();
        current.samples++;
        current.last = time;
        throughput.push_back(query.value(3).toDouble());
        iops.push_back(query.value(4).toDouble());
    }
    close();
    d->lastError.clear();
    return stats;
}

Result<qint64> SqlHistoryStore::saveSchedule(const ServiceLevelSchedule &schedule)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    const auto ms = [](const QDateTime &t) {
        return t.isValid() ? QVariant(t.toMSecsSinceEpoch()) : QVariant();
    };
    QSqlQuery query(d->db);
    const QString columns = QStringLiteral("source = ?, volume_id = ?, volume_name = ?, level = ?, revert_level = ?,"
                                           " start_t = ?, end_t = ?, recurrence = ?, enabled = ?, created_by = ?,"
                                           " created_t = ?, last_fired_t = ?, last_outcome = ?");
    if (schedule.id == 0) {
        query.prepare(QStringLiteral("INSERT INTO level_schedule (source, volume_id, volume_name, level, revert_level,"
                                     " start_t, end_t, recurrence, enabled, created_by, created_t, last_fired_t,"
                                     " last_outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"));
    } else {
        query.prepare(QStringLiteral("UPDATE level_schedule SET ") + columns + QStringLiteral(" WHERE id = ?"));
    }
    query.addBindValue(notNull(schedule.source));
    query.addBindValue(notNull(schedule.volumeId));
    query.addBindValue(notNull(schedule.volumeName));
    query.addBindValue(notNull(schedule.level));
    query.addBindValue(notNull(schedule.revertLevel));
    query.addBindValue(schedule.start.isValid() ? schedule.start.toMSecsSinceEpoch() : qint64(0));
    query.addBindValue(ms(schedule.end));
    query.addBindValue(recurrenceName(schedule.recurrence));
    query.addBindValue(schedule.enabled ? 1 : 0);
    query.addBindValue(notNull(schedule.createdBy));
    query.addBindValue(schedule.created.isValid() ? schedule.created.toMSecsSinceEpoch() : qint64(0));
    query.addBindValue(ms(schedule.lastFired));
    query.addBindValue(notNull(schedule.lastOutcome));
    if (schedule.id != 0) {
        query.addBindValue(schedule.id);
    }
    if (!query.exec()) {
        d->fail(QStringLiteral("cannot save schedule of %1").arg(schedule.volumeName), query.lastError());
        return d->failure();
    }
    if (schedule.id != 0 && query.numRowsAffected() == 0) {
        return d->notFound(QStringLiteral("schedule %1 does not exist").arg(schedule.id));
    }
    if (schedule.id == 0 && !query.next()) {
        d->fail(QStringLiteral("cannot save schedule of %1").arg(schedule.volumeName), query.lastError());
        return d->failure();
    }
    d->lastError.clear();
    return schedule.id != 0 ? schedule.id : query.value(0).toLongLong();
}

Status SqlHistoryStore::removeSchedule(qint64 id)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    QSqlQuery query(d->db);
    query.prepare(QStringLiteral("DELETE FROM level_schedule WHERE id = ?"));
    query.addBindValue(id);
    if (!query.exec()) {
        d->fail(QStringLiteral("cannot remove schedule %1").arg(id), query.lastError());
        return d->failure();
    }
    d->lastError.clear();
    return {};
}

Result<std::vector<ServiceLevelSchedule>> SqlHistoryStore::schedules()
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    QSqlQuery query =
        d->select(QStringLiteral("SELECT id, source, volume_id, volume_name, level, revert_level, start_t,"
                                 " end_t, recurrence, enabled, created_by, created_t, last_fired_t,"
                                 " last_outcome FROM level_schedule ORDER BY id"));
    return d->selectRows<ServiceLevelSchedule>(
        query, QStringLiteral("cannot read schedules"), [](const QSqlQuery &row) {
            const auto time = [&row](int column) {
                return row.isNull(column) ? QDateTime() : fromUnixMs(row.value(column).toLongLong());
            };
            ServiceLevelSchedule s;
            s.id = row.value(0).toLongLong();
            s.source = row.value(1).toString();
            s.volumeId = row.value(2).toString();
            s.volumeName = row.value(3).toString();
            s.level = row.value(4).toString();
            s.revertLevel = row.value(5).toString();
            s.start = time(6);
            s.end = time(7);
            s.recurrence = recurrenceFromName(row.value(8).toString()).value_or(Recurrence::Once);
            s.enabled = row.value(9).toInt() != 0;
            s.createdBy = row.value(10).toString();
            s.created = time(11);
            s.lastFired = time(12);
            s.lastOutcome = row.value(13).toString();
            return s;
        });
}

Status SqlHistoryStore::markScheduleFired(qint64 id, const QDateTime &edge, const QString &outcome)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    QSqlQuery query(d->db);
    query.prepare(QStringLiteral("UPDATE level_schedule SET last_fired_t = ?, last_outcome = ? WHERE id = ?"));
    query.addBindValue(edge.toMSecsSinceEpoch());
    query.addBindValue(notNull(outcome));
    query.addBindValue(id);
    if (!query.exec()) {
        d->fail(QStringLiteral("cannot update schedule %1").arg(id), query.lastError());
        return d->failure();
    }
    if (query.numRowsAffected() == 0) {
        return d->notFound(QStringLiteral("schedule %1 does not exist").arg(id));
    }
    d->lastError.clear();
    return {};
}

Result<bool> SqlHistoryStore::claimScheduleEdge(qint64 id, const QDateTime &edge)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    // One conditional UPDATE: PostgreSQL re-checks the WHERE after waiting for a concurrent
    // claimer's row lock, SQLite serialises writers; either way one process changes the row.
    QSqlQuery query(d->db);
    query.prepare(QStringLiteral("UPDATE level_schedule SET last_fired_t = ?, last_outcome = 'submitted'"
                                 " WHERE id = ? AND (last_fired_t IS NULL OR last_fired_t < ?)"));
    query.addBindValue(edge.toMSecsSinceEpoch());
    query.addBindValue(id);
    query.addBindValue(edge.toMSecsSinceEpoch());
    if (!query.exec()) {
        d->fail(QStringLiteral("cannot claim schedule %1").arg(id), query.lastError());
        return d->failure();
    }
    d->lastError.clear();
    return query.numRowsAffected() == 1;
}

} // namespace strata::core

namespace strata::core {

namespace {

const QLatin1String kJournalColumns("action_id, idempotency_key, source, kind, request, user_name, target, from_state,"
                                    " to_state, submitted_t, phase, handle, owner, heartbeat_t, outcome, finished_t");

JournalEntry journalFromQuery(const QSqlQuery &query)
{
    JournalEntry e;
    e.actionId = query.value(0).toString();
    e.idempotencyKey = query.value(1).toString();
    e.source = query.value(2).toString();
    e.kind = query.value(3).toString();
    e.request = query.value(4).toString();
    e.user = query.value(5).toString();
    e.target = query.value(6).toString();
    e.fromState = query.value(7).toString();
    e.toState = query.value(8).toString();
    e.submitted = fromUnixMs(query.value(9).toLongLong());
    e.phase = query.value(10).toString();
    e.handle = query.value(11).toString();
    e.owner = query.value(12).toString();
    e.heartbeat = fromUnixMs(query.value(13).toLongLong());
    e.outcome = query.value(14).toString();
    if (!query.isNull(15)) {
        e.finished = fromUnixMs(query.value(15).toLongLong());
    }
    return e;
}

qint64 unixMsOrNow(const QDateTime &t, const IClock &clock)
{
    return (t.isValid() ? t : clock.now()).toMSecsSinceEpoch();
}

} // namespace

/// Runs `write` in a transaction that is on disk when it returns, before the mutation it
/// announces leaves the process: SQLite with synchronous=FULL (not only in the WAL's page
/// cache); PostgreSQL commits durably by default.
template <class Write> static bool journalDurably(QSqlDatabase &db, bool postgres, Write write)
{
    QSqlQuery pragma(db);
    if (!postgres) {
        pragma.exec(QStringLiteral("PRAGMA synchronous=FULL"));
    }
    bool ok = db.transaction();
    if (ok) {
        ok = write();
        ok = ok ? db.commit() : (db.rollback(), false);
    }
    if (!postgres) {
        pragma.exec(QStringLiteral("PRAGMA synchronous=NORMAL"));
    }
    return ok;
}

Status SqlHistoryStore::journalIntent(const JournalEntry &entry)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    QSqlError error;
    const bool ok = journalDurably(d->db, d->postgres, [&] {
        QSqlQuery query(d->db);
        QString update;
        for (const QString &column : QString(kJournalColumns).split(QStringLiteral(", ")).mid(1)) {
            update += (update.isEmpty() ? QString() : QStringLiteral(", ")) + column + QStringLiteral(" = excluded.")
                      + column;
        }
        query.prepare(QStringLiteral("INSERT INTO action_journal (%1) VALUES"
                                     " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)"
                                     " ON CONFLICT (action_id) DO UPDATE SET %2")
                          .arg(kJournalColumns, update));
        for (const QString *text : {&entry.actionId,
                                    &entry.idempotencyKey,
                                    &entry.source,
                                    &entry.kind,
                                    &entry.request,
                                    &entry.user,
                                    &entry.target,
                                    &entry.fromState,
                                    &entry.toState}) {
            query.addBindValue(notNull(*text));
        }
        query.addBindValue(unixMsOrNow(entry.submitted, d->clock));
        query.addBindValue(entry.phase.isEmpty() ? QStringLiteral("intended") : entry.phase);
        query.addBindValue(notNull(entry.handle));
        query.addBindValue(notNull(entry.owner));
        query.addBindValue(unixMsOrNow(entry.heartbeat, d->clock));
        query.addBindValue(QStringLiteral(""));
        if (!query.exec()) {
            error = query.lastError();
            return false;
        }
        return true;
    });
    if (!ok) {
        d->fail(QStringLiteral("cannot journal action %1").arg(entry.actionId), error);
        return d->failure();
    }
    d->lastError.clear();
    return {};
}

Result<bool> SqlHistoryStore::journalProgress(const QString &actionId,
                                              const QString &phase,
                                              const QString &handle,
                                              const QDateTime &at)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    QSqlError error;
    int changed = 0;
    const bool ok = journalDurably(d->db, d->postgres, [&] {
        QSqlQuery query(d->db);
        query.prepare(
            QStringLiteral("UPDATE action_journal SET phase = ?, handle = CASE WHEN ? = '' THEN handle ELSE ? END,"
                           " heartbeat_t = ? WHERE action_id = ? AND phase <> 'finished'"));
        query.addBindValue(phase);
        query.addBindValue(notNull(handle));
        query.addBindValue(notNull(handle));
        query.addBindValue(unixMsOrNow(at, d->clock));
        query.addBindValue(actionId);
        if (!query.exec()) {
            error = query.lastError();
            return false;
        }
        changed = query.numRowsAffected();
        return true;
    });
    if (!ok) {
        d->fail(QStringLiteral("cannot journal action %1").arg(actionId), error);
        return d->failure();
    }
    d->lastError.clear();
    return changed == 1;
}

Status SqlHistoryStore::journalHeartbeat(const QStringList &actionIds, const QString &owner, const QDateTime &at)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    if (!d->begin()) {
        return d->failure();
    }
    QSqlQuery query(d->db);
    query.prepare(QStringLiteral(
        "UPDATE action_journal SET heartbeat_t = ? WHERE action_id = ? AND owner = ? AND phase <> 'finished'"));
    for (const QString &id : actionIds) {
        query.addBindValue(unixMsOrNow(at, d->clock));
        query.addBindValue(id);
        query.addBindValue(owner);
        if (!query.exec()) {
            d->abort(QStringLiteral("cannot refresh the action journal"), query.lastError());
            return d->failure();
        }
    }
    if (!d->commit(QStringLiteral("cannot refresh the action journal"))) {
        return d->failure();
    }
    d->lastError.clear();
    return {};
}

Result<bool> SqlHistoryStore::journalClaim(const QString &actionId,
                                           const QString &expectedOwner,
                                           const QString &owner,
                                           const QDateTime &at)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    QSqlQuery query(d->db);
    // A single UPDATE is atomic under SQLite's write lock: of two processes claiming the same
    // entry, only the first sees the old owner.
    query.prepare(QStringLiteral("UPDATE action_journal SET owner = ?, heartbeat_t = ?"
                                 " WHERE action_id = ? AND owner = ? AND phase <> 'finished'"));
    query.addBindValue(owner);
    query.addBindValue(unixMsOrNow(at, d->clock));
    query.addBindValue(actionId);
    query.addBindValue(expectedOwner);
    if (!query.exec()) {
        d->fail(QStringLiteral("cannot claim action %1").arg(actionId), query.lastError());
        return d->failure();
    }
    d->lastError.clear();
    return query.numRowsAffected() == 1;
}

Result<qint64> SqlHistoryStore::journalFinish(const AuditEntry &audit)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    if (!d->begin()) {
        return d->failure();
    }
    QSqlQuery exists(d->db);
    exists.prepare(QStringLiteral("SELECT phase FROM action_journal WHERE action_id = ?"));
    exists.addBindValue(audit.actionId);
    if (!exists.exec()) {
        d->abort(QStringLiteral("cannot read the action journal"), exists.lastError());
        return d->failure();
    }
    const bool journaled = exists.next();
    if (journaled && exists.value(0).toString() == QLatin1String("finished")) {
        d->rollback();
        return 0; // another process (or an earlier run) recorded the outcome
    }
    exists.finish();
    if (journaled) {
        QSqlQuery close(d->db);
        close.prepare(QStringLiteral("UPDATE action_journal SET phase = 'finished', outcome = ?, finished_t = ?,"
                                     " heartbeat_t = ? WHERE action_id = ? AND phase <> 'finished'"));
        close.addBindValue(notNull(audit.outcome));
        close.addBindValue(unixMsOrNow(audit.time, d->clock));
        close.addBindValue(unixMsOrNow(audit.time, d->clock));
        close.addBindValue(audit.actionId);
        if (!close.exec()) {
            d->abort(QStringLiteral("cannot close action %1").arg(audit.actionId), close.lastError());
            return d->failure();
        }
        // Another replica closed it between our read and our update (PostgreSQL's read
        // committed re-checks the WHERE after waiting for its row lock).
        if (close.numRowsAffected() == 0) {
            d->rollback();
            return 0;
        }
    }
    const Result<qint64> id = appendAudit(audit);
    if (!id) {
        d->rollback();
        return id;
    }
    if (!d->commit(QStringLiteral("cannot close action %1").arg(audit.actionId))) {
        return d->failure();
    }
    return *id;
}

Result<std::vector<JournalEntry>> SqlHistoryStore::openJournal()
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    QSqlQuery query =
        d->select(QStringLiteral("SELECT %1 FROM action_journal WHERE phase <> 'finished' ORDER BY submitted_t")
                      .arg(kJournalColumns));
    return d->selectRows<JournalEntry>(query, QStringLiteral("cannot read the action journal"), journalFromQuery);
}

Result<std::optional<JournalEntry>> SqlHistoryStore::journalEntry(const QString &actionId)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    QSqlQuery query(d->db);
    query.prepare(QStringLiteral("SELECT %1 FROM action_journal WHERE action_id = ?").arg(kJournalColumns));
    query.addBindValue(actionId);
    if (!query.exec()) {
        d->fail(QStringLiteral("cannot read the action journal"), query.lastError());
        return d->failure();
    }
    if (!query.next()) {
        return std::optional<JournalEntry>{};
    }
    return std::optional<JournalEntry>(journalFromQuery(query));
}

namespace {

// Every table, parents before the children that reference them.
struct CopiedTable
{
    const char *table;
    const char *what;
    bool identity; ///< an id column the target's sequence must continue after
};

const CopiedTable kCopiedTables[] = {
    {"volume_series", "volume capacity series", true},
    {"volume_usage_sample", "volume capacity samples", false},
    {"capacity_series", "container capacity series", true},
    {"capacity_sample", "container capacity samples", false},
    {"project_sample", "GPU allocation samples", false},
    {"volume_perf_sample", "volume performance samples", false},
    {"level_schedule", "service-level schedules", true},
    {"action_journal", "action journal entries", false},
    {"audit_log", "audit log entries", true},
    // Web console users and sessions.
    {"web_user", "web console users", false},
    {"web_session", "web console sessions", false},
    {"web_auth_change", "web console changes", true},
    {"setting", "shared settings: rate card, cache targets", false},
};

qint64 rowCount(const QSqlDatabase &db, const QString &table, QSqlError *error)
{
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("SELECT count(*) FROM %1").arg(table)) || !query.next()) {
        *error = query.lastError();
        return -1;
    }
    return query.value(0).toLongLong();
}

} // namespace

Result<std::vector<SqlHistoryStore::TableCopy>> SqlHistoryStore::copyFrom(SqlHistoryStore &source)
{
    if (!d->requireOpen() || !source.d->requireOpen()) {
        return core::fail(QStringLiteral("both history stores must be open"));
    }
    QSqlError error;
    for (const CopiedTable &t : kCopiedTables) {
        const QString table = QString::fromLatin1(t.table);
        const qint64 rows = rowCount(d->db, table, &error);
        if (rows != 0) {
            return core::fail(
                rows < 0
                    ? Error::failed(QStringLiteral("%1: %2").arg(table, error.text()))
                    : Error::invalid({},
                                     QStringLiteral("%1 already holds %2 rows in %3: migrate into an empty database")
                                         .arg(d->path)
                                         .arg(rows)
                                         .arg(table)));
        }
    }
    std::vector<TableCopy> copied;
    const auto failTable = [&](const QString &table, const QSqlError &e) {
        d->rollback();
        return core::fail(
            QStringLiteral("cannot copy %1 from %2 to %3: %4").arg(table, source.d->path, d->path, e.text()));
    };
    if (!d->begin()) {
        return core::fail(d->lastError);
    }
    for (const CopiedTable &t : kCopiedTables) {
        const QString table = QString::fromLatin1(t.table);
        const QSqlRecord record = source.d->db.record(table);
        QStringList columns;
        for (int i = 0; i < record.count(); ++i) {
            columns << record.fieldName(i);
        }
        if (columns.isEmpty()) {
            return failTable(table, source.d->db.lastError());
        }
        const QString list = columns.join(QStringLiteral(", "));
        QSqlQuery read(source.d->db);
        read.setForwardOnly(true);
        if (!read.exec(QStringLiteral("SELECT %1 FROM %2").arg(list, table))) {
            return failTable(table, read.lastError());
        }
        BatchInsert insert(d->db, QStringLiteral("INSERT INTO %1 (%2)").arg(table, list), int(columns.size()), {});
        qint64 rows = 0;
        QVariantList values;
        while (read.next()) {
            values.clear();
            for (int i = 0; i < columns.size(); ++i) {
                values.append(read.value(i));
            }
            if (!insert.addRow(values)) {
                return failTable(table, insert.lastError());
            }
            ++rows;
        }
        if (read.lastError().isValid() || !insert.flush()) {
            return failTable(table, read.lastError().isValid() ? read.lastError() : insert.lastError());
        }
        if (t.identity && d->postgres) {
            // Rows came with their ids: new rows continue after the highest one.
            QSqlQuery sequence(d->db);
            if (!sequence.exec(QStringLiteral("SELECT setval(pg_get_serial_sequence('%1', 'id'),"
                                              " COALESCE(MAX(id), 0) + 1, false) FROM %1")
                                   .arg(table))) {
                return failTable(table, sequence.lastError());
            }
        }
        copied.push_back({table, QString::fromLatin1(t.what), rows});
    }
    for (const TableCopy &c : copied) {
        if (const qint64 rows = rowCount(d->db, c.table, &error); rows != c.rows) {
            d->rollback();
            return core::fail(QStringLiteral("%1: %2 rows copied but %3 arrived").arg(c.table).arg(c.rows).arg(rows));
        }
    }
    if (!d->commit(QStringLiteral("cannot commit the copy"))) {
        return core::fail(d->lastError);
    }
    // The copied series are not in this instance's last-sample caches: load them on next use.
    d->lastSamples.clear();
    d->lastContainers.clear();
    d->lastError.clear();
    return copied;
}

// ---- Replicas: source leases and shared source states ----

std::optional<qint64> SqlHistoryStore::Private::storeNowMs()
{
    QSqlQuery query(db);
    const QString sql = postgres
                            ? QStringLiteral("SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)")
                            : QStringLiteral("SELECT CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)");
    if (!query.exec(sql) || !query.next()) {
        fail(QStringLiteral("cannot read the database clock"), query.lastError());
        return std::nullopt;
    }
    return query.value(0).toLongLong();
}

bool SqlHistoryStore::Private::subscribeShared()
{
    QSqlDriver *driver = db.driver();
    if (!postgres || !driver || !driver->hasFeature(QSqlDriver::EventNotifications)) {
        return false;
    }
    if (!driver->subscribedToNotifications().contains(QStringLiteral("strata_state"))
        && !driver->subscribeToNotification(QStringLiteral("strata_state"))) {
        fail(QStringLiteral("cannot LISTEN strata_state"), driver->lastError());
        return false;
    }
    QObject::disconnect(driver, &QSqlDriver::notification, nullptr, nullptr);
    QObject::connect(driver,
                     &QSqlDriver::notification,
                     driver,
                     [this](const QString &name, QSqlDriver::NotificationSource from, const QVariant &payload) {
                         // Our own writes notify us too; the coordinator ignores sources it owns.
                         Q_UNUSED(from)
                         if (name == QLatin1String("strata_state") && onShared) {
                             onShared(payload.toString());
                         }
                     });
    return true;
}

Result<LeaseSync> SqlHistoryStore::syncLeases(const QString &replica, const QStringList &sources, qint64 ttlMs)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    if (replica.isEmpty() || ttlMs <= 0) {
        return core::fail(
            Error::invalid(QStringLiteral("replica"), QStringLiteral("a lease needs a replica and a time")));
    }
    const auto failed = [this](const QString &what, const QSqlError &error) -> Result<LeaseSync> {
        d->abort(what, error);
        return d->failure();
    };
    if (!d->begin()) {
        return d->failure();
    }
    QSqlQuery q(d->db);
    if (d->postgres && !q.exec(QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(kLeaseLockKey))) {
        return failed(QStringLiteral("cannot lock the source leases"), q.lastError());
    }
    const std::optional<qint64> now = d->storeNowMs();
    if (!now) {
        d->rollback();
        return d->failure();
    }
    q.prepare(QStringLiteral("INSERT INTO replica (id, seen_t) VALUES (?, ?)"
                             " ON CONFLICT (id) DO UPDATE SET seen_t = excluded.seen_t"));
    q.addBindValue(replica);
    q.addBindValue(*now);
    if (!q.exec()) {
        return failed(QStringLiteral("cannot record replica %1").arg(replica), q.lastError());
    }
    for (const QString &source : sources) {
        q.prepare(QStringLiteral("INSERT INTO source_lease (source) VALUES (?) ON CONFLICT (source) DO NOTHING"));
        q.addBindValue(source);
        if (!q.exec()) {
            return failed(QStringLiteral("cannot add the lease of %1").arg(source), q.lastError());
        }
    }
    LeaseSync sync;
    q.prepare(QStringLiteral("SELECT id FROM replica WHERE seen_t > ? ORDER BY id"));
    q.addBindValue(*now - ttlMs);
    if (!q.exec()) {
        return failed(QStringLiteral("cannot list the replicas"), q.lastError());
    }
    while (q.next()) {
        sync.liveReplicas << q.value(0).toString();
    }
    struct Row
    {
        QString owner;
        qint64 expires = 0;
    };
    QMap<QString, Row> rows; // by source name: every replica walks them in the same order
    if (!q.exec(QStringLiteral("SELECT source, owner, expires_t FROM source_lease"))) {
        return failed(QStringLiteral("cannot read the source leases"), q.lastError());
    }
    while (q.next()) {
        rows.insert(q.value(0).toString(), Row{q.value(1).toString(), q.value(2).toLongLong()});
    }
    // `condition` has one placeholder, bound to `conditionValue` (nothing when it is null).
    const auto setLease = [&](const QString &source,
                              const QString &owner,
                              qint64 expires,
                              const QString &condition,
                              const QVariant &conditionValue) {
        QSqlQuery u(d->db);
        u.prepare(QStringLiteral("UPDATE source_lease SET owner = ?, expires_t = ?,"
                                 " takeovers = takeovers + CASE WHEN owner <> '' AND owner <> ? THEN 1 ELSE 0 END"
                                 " WHERE source = ? AND (%1)")
                      .arg(condition));
        u.addBindValue(notNull(owner));
        u.addBindValue(expires);
        u.addBindValue(notNull(owner));
        u.addBindValue(source);
        if (!conditionValue.isNull()) {
            u.addBindValue(conditionValue);
        }
        return u.exec() ? std::optional<bool>(u.numRowsAffected() == 1) : std::nullopt;
    };
    QStringList held;
    for (auto it = rows.begin(); it != rows.end(); ++it) {
        if (it->owner != replica) {
            continue;
        }
        const bool wanted = sources.contains(it.key());
        const qint64 expires = wanted ? *now + ttlMs : 0;
        if (!setLease(it.key(), wanted ? replica : QString(), expires, QStringLiteral("owner = ?"), replica)) {
            return failed(QStringLiteral("cannot renew the lease of %1").arg(it.key()), d->db.lastError());
        }
        it->owner = wanted ? replica : QString();
        it->expires = expires;
        if (wanted) {
            held << it.key();
        }
    }
    const qsizetype live = std::max<qsizetype>(1, sync.liveReplicas.size());
    const qsizetype share = (sources.size() + live - 1) / live;
    // Give up the surplus from the end of the name order, claim from its start: two replicas
    // balancing in turn converge instead of trading the same source back and forth.
    // ceil() alone leaves 4 sources over 3 replicas at 2/2/0: a replica above floor() also gives
    // one up while a live replica holds less than floor().
    const qsizetype floorShare = sources.size() / live;
    QHash<QString, qsizetype> perReplica;
    for (auto it = rows.cbegin(); it != rows.cend(); ++it) {
        if (sources.contains(it.key()) && !it->owner.isEmpty() && it->expires >= *now) {
            perReplica[it->owner]++;
        }
    }
    const bool someoneShort = std::any_of(sync.liveReplicas.cbegin(), sync.liveReplicas.cend(), [&](const QString &r) {
        return r != replica && perReplica.value(r) < floorShare;
    });
    // While another is short, one at floor() claims nothing more: else the replicas that sync
    // first take back what they just gave up, and the short one never gets a source.
    const qsizetype keep =
        !someoneShort ? share : (held.size() > floorShare ? std::max(floorShare, held.size() - 1) : floorShare);
    const qsizetype target = std::min(share, keep);
    while (held.size() > target) {
        const QString source = held.takeLast();
        if (!setLease(source, QString(), 0, QStringLiteral("owner = ?"), replica)) {
            return failed(QStringLiteral("cannot release the lease of %1").arg(source), d->db.lastError());
        }
        rows[source] = Row{};
        sync.released++;
    }
    for (auto it = rows.begin(); it != rows.end() && held.size() < target; ++it) {
        if (!sources.contains(it.key()) || it->owner == replica || (!it->owner.isEmpty() && it->expires >= *now)) {
            continue;
        }
        const bool expired = !it->owner.isEmpty();
        const std::optional<bool> claimed =
            setLease(it.key(), replica, *now + ttlMs, QStringLiteral("owner = '' OR expires_t < ?"), *now);
        if (!claimed) {
            return failed(QStringLiteral("cannot claim the lease of %1").arg(it.key()), d->db.lastError());
        }
        if (*claimed) {
            held << it.key();
            sync.takenOver += expired ? 1 : 0;
            *it = Row{replica, *now + ttlMs};
        }
    }
    q.prepare(QStringLiteral("DELETE FROM replica WHERE seen_t < ?"));
    q.addBindValue(*now - qint64(24) * 3600 * 1000);
    if (!q.exec()) {
        return failed(QStringLiteral("cannot forget old replicas"), q.lastError());
    }
    if (!d->db.commit()) {
        return failed(QStringLiteral("cannot commit the source leases"), d->db.lastError());
    }
    for (const QString &source : sources) {
        const Row row = rows.value(source);
        sync.leases.append(SourceLease{source, row.owner, fromUnixMs(row.expires)});
    }
    std::sort(sync.leases.begin(), sync.leases.end(), [](const SourceLease &a, const SourceLease &b) {
        return a.source < b.source;
    });
    sync.storeTime = fromUnixMs(*now);
    d->lastError.clear();
    return sync;
}

Status SqlHistoryStore::releaseLeases(const QString &replica)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    if (!d->begin()) {
        return d->failure();
    }
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("UPDATE source_lease SET owner = '', expires_t = 0 WHERE owner = ?"));
    q.addBindValue(replica);
    if (!q.exec()) {
        d->abort(QStringLiteral("cannot release the leases of %1").arg(replica), q.lastError());
        return d->failure();
    }
    q.prepare(QStringLiteral("DELETE FROM replica WHERE id = ?"));
    q.addBindValue(replica);
    if (!q.exec()) {
        d->abort(QStringLiteral("cannot forget replica %1").arg(replica), q.lastError());
        return d->failure();
    }
    if (!d->db.commit()) {
        d->abort(QStringLiteral("cannot commit the lease release"), d->db.lastError());
        return d->failure();
    }
    d->lastError.clear();
    return {};
}

Result<qint64> SqlHistoryStore::putSharedState(const QString &source,
                                               const QString &owner,
                                               const QByteArray &status,
                                               const QByteArray &body)
{
    if (!d->requireOpen() || !d->begin()) {
        return d->failure();
    }
    const auto failed = [this](const QString &what, const QSqlError &error) -> Result<qint64> {
        d->abort(what, error);
        return d->failure();
    };
    const std::optional<qint64> now = d->storeNowMs();
    if (!now) {
        d->rollback();
        return d->failure();
    }
    QSqlQuery q(d->db);
    // The lease row is locked until commit, so a replica taking the source over waits for this
    // write and its own next write supersedes it.
    q.prepare(d->postgres ? QStringLiteral("SELECT owner, expires_t FROM source_lease WHERE source = ? FOR UPDATE")
                          : QStringLiteral("SELECT owner, expires_t FROM source_lease WHERE source = ?"));
    q.addBindValue(source);
    if (!q.exec()) {
        return failed(QStringLiteral("cannot read the lease of %1").arg(source), q.lastError());
    }
    if (!q.next() || q.value(0).toString() != owner || q.value(1).toLongLong() < *now) {
        d->rollback();
        return qint64(0);
    }
    if (!q.exec(QStringLiteral("UPDATE state_counter SET value = value + 1 WHERE id = 1 RETURNING value"))
        || !q.next()) {
        return failed(QStringLiteral("cannot number the state of %1").arg(source), q.lastError());
    }
    const qint64 revision = q.value(0).toLongLong();
    const bool withBody = !body.isNull();
    q.prepare(withBody ? QStringLiteral("INSERT INTO source_state"
                                        " (source, owner, revision, body_revision, written_t, status, body)"
                                        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source) DO UPDATE SET"
                                        " owner = excluded.owner, revision = excluded.revision,"
                                        " body_revision = excluded.body_revision, written_t = excluded.written_t,"
                                        " status = excluded.status, body = excluded.body")
                       : QStringLiteral("INSERT INTO source_state"
                                        " (source, owner, revision, body_revision, written_t, status, body)"
                                        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source) DO UPDATE SET"
                                        " owner = excluded.owner, revision = excluded.revision,"
                                        " written_t = excluded.written_t, status = excluded.status"));
    q.addBindValue(source);
    q.addBindValue(owner);
    q.addBindValue(revision);
    q.addBindValue(withBody ? revision : qint64(0));
    q.addBindValue(*now);
    q.addBindValue(QString::fromUtf8(status));
    q.addBindValue(withBody ? body : QByteArray(""));
    if (!q.exec()) {
        return failed(QStringLiteral("cannot write the state of %1").arg(source), q.lastError());
    }
    if (d->postgres) {
        q.prepare(QStringLiteral("SELECT pg_notify('strata_state', ?)"));
        q.addBindValue(source);
        if (!q.exec()) {
            return failed(QStringLiteral("cannot notify the state of %1").arg(source), q.lastError());
        }
    }
    if (!d->db.commit()) {
        return failed(QStringLiteral("cannot commit the state of %1").arg(source), d->db.lastError());
    }
    d->lastError.clear();
    return revision;
}

Result<SharedStates> SqlHistoryStore::sharedStates(qint64 since, const QHash<QString, qint64> &knownBodies)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    const auto failed = [this](const QString &what, const QSqlError &error) -> Result<SharedStates> {
        d->fail(what, error);
        return d->failure();
    };
    SharedStates out;
    const std::optional<qint64> now = d->storeNowMs();
    if (!now) {
        return d->failure();
    }
    out.storeTime = fromUnixMs(*now);
    QSqlQuery q(d->db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT value FROM state_counter WHERE id = 1")) || !q.next()) {
        return failed(QStringLiteral("cannot read the state revision"), q.lastError());
    }
    out.latestRevision = q.value(0).toLongLong();
    q.prepare(QStringLiteral("SELECT source, owner, revision, body_revision, written_t, status FROM source_state"
                             " WHERE revision > ? ORDER BY revision"));
    q.addBindValue(since);
    if (!q.exec()) {
        return failed(QStringLiteral("cannot read the shared states"), q.lastError());
    }
    while (q.next()) {
        SharedSourceState s;
        s.source = q.value(0).toString();
        s.owner = q.value(1).toString();
        s.revision = q.value(2).toLongLong();
        s.bodyRevision = q.value(3).toLongLong();
        s.written = fromUnixMs(q.value(4).toLongLong());
        s.status = q.value(5).toString().toUtf8();
        out.states.push_back(std::move(s));
    }
    QSqlQuery b(d->db);
    b.setForwardOnly(true);
    for (SharedSourceState &s : out.states) {
        if (s.bodyRevision <= knownBodies.value(s.source, 0)) {
            continue;
        }
        // Read with its revision: a write between the two queries brings a newer body, which is
        // fine to apply (the next read sees its revision and skips it).
        b.prepare(QStringLiteral("SELECT body_revision, body FROM source_state WHERE source = ?"));
        b.addBindValue(s.source);
        if (!b.exec()) {
            return failed(QStringLiteral("cannot read the state of %1").arg(s.source), b.lastError());
        }
        if (b.next()) {
            s.bodyRevision = b.value(0).toLongLong();
            s.body = b.value(1).toByteArray();
        }
    }
    d->lastError.clear();
    return out;
}

Status SqlHistoryStore::listenForSharedStates(std::function<void(const QString &source)> notified)
{
    if (!d->requireOpen()) {
        return d->failure();
    }
    if (!d->postgres) {
        return core::fail(
            Error::make(Error::Kind::Unavailable, QStringLiteral("SQLite does not notify other processes")));
    }
    d->onShared = std::move(notified);
    if (!d->subscribeShared()) {
        return d->failure();
    }
    return {};
}

// ---- Shared settings ---------------------------------------------------------------

namespace {

const QString kSettingColumns = QStringLiteral("name, body, revision, updated_t, updated_by, config_hash FROM setting");

SharedSetting settingFromRow(const QSqlQuery &q)
{
    return SharedSetting{q.value(0).toString(),
                         q.value(1).toString().toUtf8(),
                         q.value(2).toLongLong(),
                         fromUnixMs(q.value(3).toLongLong()),
                         q.value(4).toString(),
                         q.value(5).toString()};
}

} // namespace

Result<std::vector<SharedSetting>> SqlHistoryStore::sharedSettings()
{
    if (!d->requireOpen()) {
        return core::fail(d->lastError);
    }
    QSqlQuery q = d->select(QStringLiteral("SELECT %1 ORDER BY name").arg(kSettingColumns));
    return d->selectRows<SharedSetting>(q, QStringLiteral("cannot read the shared settings"), settingFromRow);
}

Result<SharedSetting> SqlHistoryStore::putSharedSetting(const SharedSetting &setting,
                                                        qint64 expectedRevision,
                                                        const std::optional<AuditEntry> &audit)
{
    if (!d->requireOpen()) {
        return core::fail(d->lastError);
    }
    if (setting.name.isEmpty() || expectedRevision < 0) {
        return core::fail(Error::invalid(QStringLiteral("name"), QStringLiteral("a setting needs a name")));
    }
    const auto failed = [this](const QString &what, const QSqlError &error) {
        d->abort(what, error);
        return core::fail(d->lastError);
    };
    if (!d->begin()) {
        return core::fail(d->lastError);
    }
    const std::optional<qint64> now = d->storeNowMs();
    if (!now) {
        d->rollback();
        return core::fail(d->lastError);
    }
    // Compare-and-set in one statement each way: a concurrent writer of the same revision either
    // finds the row taken (insert) or its WHERE no longer true (update), and changes nothing.
    QSqlQuery q(d->db);
    q.prepare(expectedRevision == 0
                  ? QStringLiteral("INSERT INTO setting (body, revision, updated_t, updated_by, config_hash, name)"
                                   " VALUES (?, 1, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING")
                  : QStringLiteral("UPDATE setting SET body = ?, revision = revision + 1, updated_t = ?,"
                                   " updated_by = ?, config_hash = ? WHERE name = ? AND revision = ?"));
    q.addBindValue(QString::fromUtf8(setting.body));
    q.addBindValue(*now);
    q.addBindValue(notNull(setting.updatedBy));
    q.addBindValue(notNull(setting.configHash));
    q.addBindValue(setting.name);
    if (expectedRevision > 0) {
        q.addBindValue(expectedRevision);
    }
    if (!q.exec()) {
        return failed(QStringLiteral("cannot write the setting %1").arg(setting.name), q.lastError());
    }
    const bool written = q.numRowsAffected() == 1;
    QSqlQuery row = d->select(QStringLiteral("SELECT %1 WHERE name = ?").arg(kSettingColumns));
    row.addBindValue(setting.name);
    if (!row.exec()) {
        return failed(QStringLiteral("cannot read the setting %1").arg(setting.name), row.lastError());
    }
    const std::optional<SharedSetting> stored = row.next() ? std::optional(settingFromRow(row)) : std::nullopt;
    row.finish();
    if (!written) {
        d->rollback();
        d->lastError =
            stored ? QStringLiteral("%1 changed meanwhile: revision %2 by %3 at %4 (expected %5)")
                         .arg(setting.name)
                         .arg(stored->revision)
                         .arg(stored->updatedBy, stored->updated.toString(Qt::ISODate))
                         .arg(expectedRevision)
                   : QStringLiteral("%1 is not stored (expected revision %2)").arg(setting.name).arg(expectedRevision);
        return core::fail(Error::make(Error::Kind::Conflict, d->lastError));
    }
    if (!stored) {
        d->rollback();
        return core::fail(QStringLiteral("the setting %1 vanished while it was written").arg(setting.name));
    }
    if (audit) {
        AuditEntry entry = *audit;
        if (!entry.time.isValid()) {
            entry.time = fromUnixMs(*now);
        }
        if (const Result<qint64> appended = appendAudit(entry); !appended) {
            const QString error = d->lastError;
            d->rollback();
            d->lastError = error;
            return core::fail(error);
        }
    }
    if (d->postgres) {
        q.prepare(QStringLiteral("SELECT pg_notify('strata_state', ?)"));
        q.addBindValue(QString(QStringLiteral("setting:") + setting.name));
        if (!q.exec()) {
            return failed(QStringLiteral("cannot notify the setting %1").arg(setting.name), q.lastError());
        }
    }
    if (!d->db.commit()) {
        return failed(QStringLiteral("cannot commit the setting %1").arg(setting.name), d->db.lastError());
    }
    d->lastError.clear();
    return *stored;
}

// ---- Web console users and sessions: models/core/store/webauthstore.h does the SQL ------

Status SqlHistoryStore::saveWebUser(const WebUserRecord &user, const QDateTime &at)
{
    if (!d->requireOpen()) {
        return core::fail(d->lastError);
    }
    return webauth::saveUser(d->db, user, at);
}

Result<bool> SqlHistoryStore::removeWebUser(const QString &name, const QDateTime &at)
{
    if (!d->requireOpen()) {
        return core::fail(d->lastError);
    }
    return webauth::removeUser(d->db, name, at);
}

Result<std::vector<WebUserRecord>> SqlHistoryStore::webUsers()
{
    if (!d->requireOpen()) {
        return core::fail(d->lastError);
    }
    return webauth::users(d->db);
}

Result<bool> SqlHistoryStore::insertWebSession(const WebSessionRecord &session, const QString &passwordHash)
{
    if (!d->requireOpen()) {
        return core::fail(d->lastError);
    }
    return webauth::insertSession(d->db, session, passwordHash);
}

Status SqlHistoryStore::removeWebSession(const QString &idHash, const QDateTime &at)
{
    if (!d->requireOpen()) {
        return core::fail(d->lastError);
    }
    return webauth::removeSession(d->db, idHash, at);
}

Status SqlHistoryStore::touchWebSessions(const std::vector<WebSessionRecord> &sessions)
{
    if (!d->requireOpen()) {
        return core::fail(d->lastError);
    }
    return webauth::touchSessions(d->db, sessions);
}

Result<std::optional<WebSessionRecord>> SqlHistoryStore::webSession(const QString &idHash, const QDateTime &now)
{
    if (!d->requireOpen()) {
        return core::fail(d->lastError);
    }
    return webauth::session(d->db, idHash, now);
}

Result<WebAuthChanges> SqlHistoryStore::webAuthChanges(qint64 cursor, const QDateTime &now)
{
    if (!d->requireOpen()) {
        return core::fail(d->lastError);
    }
    return webauth::changes(d->db, cursor, now);
}

Result<qint64> SqlHistoryStore::pruneWebAuth(const QDateTime &now)
{
    if (!d->requireOpen()) {
        return core::fail(d->lastError);
    }
    return webauth::prune(d->db, now);
}

// ---- end of web console users and sessions --------------------------------------------------

} // namespace strata::core
