#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QMutex>
#include <QObject>
#include <QSet>
#include <QString>

#include <deque>
#include <functional>
#include <limits>
#include <memory>

class QThread;

namespace strata::core {
class Engine;
}

namespace strata::web {

/// Live updates for the web console, as keyed diffs with a global revision number.
///
/// Wire protocol (JSON text frames, server -> client):
///   {"type":"hello","revision":N,"feed":"<id>"}       after connect; then the catch-up diffs
///   {"type":"diff","revision":N,"resource":"jobs","upsert":[row...],"remove":["key"...]}
///   {"type":"reload","revision":N}                    `since` is older than the kept history:
///                                                     re-read every resource over HTTP
/// A row is exactly one element of GET /api/v1/<resource>; its key is row["key"] (the
/// WebServer adds it with web/api.h rowKey: "<source>/<id>" or the resource's natural key; rows
/// given to append() carry their own). Revisions increase by one per
/// diff; a client that saw revision r reconnects with ?since=r&feed=<id of the hello> and
/// receives r+1.. in order; from another feed (another replica, a restart) it gets "reload".
///
/// Two ways a resource follows the estate:
///  - an estate list (addEstateResource: volumes, snapshots, clusters, nodes, projects, jobs,
///    pvcs, pools, aks, grids, tenants, buckets, alerts, caches): the Estate's keyed diffs are
///    collected by estate key on the owner thread; only the rows of added and changed records
///    are built (through the models/rows builders), removals become "remove" keys;
///  - a derived resource (addResource: sources, events, service-levels, datasets, commits,
///    cache-targets, features' own): its rows combine several lists or live outside the
///    estate, so they are re-read in full on the owner thread when a signal the feed maps to
///    them fires, or on markDirty().
/// Building rows of estate lists, serialising every row, comparing it with what was last
/// published (a row whose bytes did not change is not sent) and writing the message all run on
/// one worker thread ("live-feed"); the owner thread only collects changes, numbers the
/// messages and sends them. A change of the configured sources re-reads everything.
///
/// Estate publishes are coalesced (at most one flush per `coalesceMs`, counted from the last one:
/// a change after a quiet spell goes out at once, a burst waits out the rest of the window); each
/// diff is serialized once and the same bytes are sent to every viewer.
class LiveFeed final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LiveFeed)

public:
    /// Rows of a resource right now (the same function serves GET /api/v1/<resource>).
    using RowSource = std::function<QJsonArray()>;

    explicit LiveFeed(core::Engine &engine, int coalesceMs = 200, int keptDiffs = 4096, QObject *parent = nullptr);
    ~LiveFeed() override;

    /// Registers `resource` as an estate list followed through the Estate's keyed diffs; false
    /// (nothing registered) when `resource` is not one (see the class comment).
    bool addEstateResource(const QString &resource);
    /// Registers a derived resource; `rows` is re-read (on the owner thread) when one of the
    /// signals the feed maps to it fires, or when markDirty(resource) is called.
    void addResource(const QString &resource, RowSource rows);
    /// Re-read a resource at the next coalescing tick (for features with their own data).
    void markDirty(const QString &resource);
    /// Publishes rows that are only ever added (e.g. sentiment sentences) without re-reading.
    /// rows() keeps the newest 20,000 of such a resource (viewers get every one as a diff).
    void append(const QString &resource, const QJsonArray &rows);

    /// Caps the kept history in bytes as well (default unlimited): the oldest diffs go first,
    /// and a client that needs them reloads.
    void setMaxKeptBytes(qint64 bytes) { m_maxKeptBytes = bytes; }
    /// Bytes of the diffs kept for catch-up.
    [[nodiscard]] qint64 keptBytes() const { return m_keptBytes; }

    [[nodiscard]] qint64 revision() const { return m_revision; }
    /// This feed's identity (16 random hex digits, new per process): revisions count within
    /// one feed only, so a browser that reconnects to another replica (or a restarted server)
    /// with ?since=r&feed=<other> is told to reload instead of being sent this feed's r+1...
    [[nodiscard]] QString feedId() const { return m_feedId; }
    /// Serialized diffs after `since`, oldest first; false when `since` is older than the kept
    /// history (the client must reload) or newer than revision().
    bool diffsSince(qint64 since, QList<QByteArray> *out) const;
    /// The rows as last published (thread-safe; the order of the last full read, added rows last).
    [[nodiscard]] QJsonArray rows(const QString &resource) const;
    [[nodiscard]] QStringList resources() const;

    /// While diffReady() is emitted: seconds since the oldest change that diff carries entered the
    /// feed (an estate diff, markDirty(), append() or a change of sources), so coalescing,
    /// building and serialising are included; -1 outside diffReady(). Owner thread.
    [[nodiscard]] double deliveringAgeSeconds() const;

    /// For tests: called on the thread that builds and serialises a resource's diff, once per
    /// resource and flush, with the resource's name.
    void setBuildObserver(std::function<void(const QString &resource)> observer);

Q_SIGNALS:
    /// One serialized diff message (sent as is to every connected viewer).
    void diffReady(qint64 revision, const QByteArray &message);

private:
    struct Published;
    struct Batch;
    class Channel;
    template <class T> class TableChannel;

    void scheduleFlush();
    void flush();
    /// Worker thread: applies one batch to the published state; the message tail or empty.
    QByteArray apply(Batch &batch);
    /// `enteredNs`: when the batch's oldest change entered (m_age's nanoseconds).
    void deliver(const QList<QByteArray> &tails, qint64 enteredNs);
    QSet<QString> configuredSources() const;

    core::Engine &m_engine;
    int m_coalesceMs;
    int m_keptDiffs;
    qint64 m_revision = 0;
    QString m_feedId;
    std::deque<std::pair<qint64, QByteArray>> m_history;
    qint64 m_keptBytes = 0;
    qint64 m_maxKeptBytes = std::numeric_limits<qint64>::max();
    bool m_flushScheduled = false;
    bool m_resync = false;
    QElapsedTimer m_age;             ///< monotonic clock of the delivery ages, started at construction
    qint64 m_pendingSinceNs = 0;     ///< when the oldest change waiting for the next flush entered
    qint64 m_lastFlushNs = -1;       ///< when the last flush started (m_age), -1 = none yet
    qint64 m_deliveringSinceNs = -1; ///< during diffReady(): when its oldest change entered

    // Owner thread: what each resource has waiting for the next flush.
    QHash<QString, std::shared_ptr<Channel>> m_channels; ///< estate lists
    QHash<QString, RowSource> m_derived;
    QSet<QString> m_dirty;
    QHash<QString, QJsonArray> m_appended;

    // Published rows per resource: written on the worker, read by rows() (m_mutex).
    mutable QMutex m_mutex;
    QHash<QString, std::shared_ptr<Published>> m_published;
    std::function<void(const QString &)> m_buildObserver;

    QThread *m_thread = nullptr;
    QObject *m_worker = nullptr; ///< lives on m_thread: the context of posted batches
};

} // namespace strata::web
