#pragma once

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>

#include <chrono>

class QTimer;

namespace strata::core {

class Engine;
class HistoryService;

/// One strata-server replica among several sharing a store (PostgreSQL): each source is polled
/// by exactly one replica, and every replica shows every source.
///
/// - Leases. Every `renewEvery` the replica renews its source leases in the store and balances
///   them (IHistoryStore::syncLeases): at most ceil(sources / live replicas) each, so three
///   replicas poll two of six sources each, and a vendor API sees the same request rate as with
///   one. A replica that stops renewing (killed, cut off from the store) loses its leases after
///   `leaseTime`, and the live replicas take its sources on their next renewal: a source moves
///   within leaseTime + renewEvery (13 s by default). A replica that cannot reach the store for
///   `leaseTime` stops polling by itself, so two replicas never poll one source for long.
/// - Shared state. The replica that polls a source writes its records and health to the store
///   after a publish changed them (encoded off the GUI thread), with a store-wide revision, and
///   NOTIFYs. A source's records go out at once when its last records shared are `shareEvery`
///   old, else once they are; health-only changes wait `shareEvery`. So a busy source writes its
///   records about once per `shareEvery`, and a lone change reaches the others without waiting.
///   The others read what is newer than the revision they have (on the notification, and every
///   `readEvery` in case one was missed or the store cannot notify) and publish it into their
///   own estate, so their live feed, pages and API answer as if they polled it, in revision
///   order.
///
/// The engine must be in lease mode (Engine::setLeased(true) before its setSources()). Owner
/// (GUI) thread.
class ReplicaCoordinator final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReplicaCoordinator)

public:
    struct Options
    {
        /// Unique among the replicas; empty = the action journal's owner id ("<host>/<pid>").
        QString replicaId;
        std::chrono::milliseconds leaseTime{10'000};
        std::chrono::milliseconds renewEvery{3'000};
        std::chrono::milliseconds shareEvery{1'000};
        std::chrono::milliseconds readEvery{2'000};
    };

    /// What /metrics reports.
    struct Stats
    {
        QString replicaId;
        QStringList held;         ///< sources this replica polls, sorted
        QStringList liveReplicas; ///< as of the last lease renewal, sorted
        qint64 takeovers = 0;     ///< leases taken from a replica that let them expire
        qint64 released = 0;      ///< leases given up to balance
        qint64 leaseFailures = 0; ///< renewals the store did not answer
        qint64 statesShared = 0;  ///< states written for held sources
        qint64 statesApplied = 0; ///< other replicas' states published here
        qint64 bodyBytesShared = 0;
        /// Store clock time from the owner's write to this replica's read of the last state it
        /// applied, seconds; -1 before the first.
        double lastNotifyLagSeconds = -1;
        double maxNotifyLagSeconds = -1;
        QDateTime lastRenewal; ///< UTC, invalid before the first
    };

    ReplicaCoordinator(Engine &engine, HistoryService &history, Options options, QObject *parent = nullptr);
    /// Releases this replica's leases (blocking on the store) so the others take over at once.
    ~ReplicaCoordinator() override;

    /// Starts listening, renewing and sharing; the first renewal runs at once.
    void start();
    /// Releases the leases and stops; the engine stops polling. Idempotent.
    void stop();

    [[nodiscard]] QString replicaId() const { return m_options.replicaId; }
    [[nodiscard]] Stats stats() const { return m_stats; }
    /// The replica polling each configured source as of the last renewal (empty = nobody).
    [[nodiscard]] QHash<QString, QString> owners() const { return m_owners; }

Q_SIGNALS:
    /// A renewal changed which sources this replica (or any other) polls.
    void leasesChanged();
    /// Another replica's state of `source` at `revision` was published into the estate.
    void stateApplied(const QString &source, qint64 revision);
    /// The store signalled a shared setting written ("setting:<name>"), or the fallback read
    /// (every `readEvery`) is due: SharedSettings reads the settings then.
    void settingsMayHaveChanged();

private:
    void renew();
    void applyLeases(const QHash<QString, QString> &owners, const QStringList &live);
    void markDirty(const QString &source, bool body);
    /// (Re)arms the share timer for what is dirty: at once for a source's records when its last
    /// records went out `shareEvery` ago, else when they are that old; `shareEvery` for health
    /// only.
    void scheduleShare();
    /// When `source`'s records were last taken to share (steady clock, ms); long ago if never.
    [[nodiscard]] qint64 lastRecordsShared(const QString &source) const;
    void share();
    void readStates();

    Engine &m_engine;
    HistoryService &m_history;
    Options m_options;
    Stats m_stats;
    bool m_running = false;
    QTimer *m_renewTimer = nullptr;
    QTimer *m_readTimer = nullptr;
    QTimer *m_shareTimer = nullptr;
    QHash<QString, QString> m_owners;
    bool m_renewing = false;
    /// When the store last answered a renewal (steady clock, ms); polling stops after leaseTime
    /// without one.
    qint64 m_lastRenewalMs = 0;
    /// Held sources with a change not shared yet: source -> whether the records changed (else
    /// only the health).
    QHash<QString, bool> m_dirty;
    QSet<QString> m_sharing; ///< a write of this source is under way
    /// When each held source's records were last taken to share (steady clock, ms).
    QHash<QString, qint64> m_lastRecordsShared;
    bool m_reading = false;
    bool m_readAgain = false;
    qint64 m_readRevision = 0;
    QHash<QString, qint64> m_appliedBodies;
};

} // namespace strata::core
