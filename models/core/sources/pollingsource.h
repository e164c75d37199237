#pragma once

#include "models/core/domain/keyed.h"
#include "models/core/sources/source.h"
#include "models/core/sources/systempoller.h"

#include <QHash>
#include <QList>

#include <functional>
#include <optional>
#include <vector>

class QThreadPool;

namespace strata::core {

class Estate;

/// A source whose data comes from SystemPollers (ONTAP, Azure, StorageGRID): the poll cycle,
/// start/stop/refresh, new credentials and the health live here once; a subclass adds its
/// pollers with addPoller() and says what each one means for the source (its Role).
///
/// status() is the primary poller's state (health, last error, times, latency, next poll),
/// stale when that poller is stale or its last success is older than twice the config interval
/// (the data shown is kept, marked stale), made worse, never better, by the secondary pollers
/// whose Role says so. hasPolledOnce() turns true once every inventory poller has finished a
/// poll (ok or not) or cannot run (setPollerProblem()).
class PollingSource : public Source, public IActionExecutor
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PollingSource)

public:
    PollingSource(SourceConfig config, IClock &clock, QThreadPool &pool, QObject *parent = nullptr);
    ~PollingSource() override;

    [[nodiscard]] SourceStatus status() const override;
    [[nodiscard]] bool hasPolledOnce() const override;
    /// Starts every poller whose Role has `autoStart`.
    void start() override;
    /// Stops every poller; running polls are cancelled and their results dropped.
    void stop() override;
    /// Polls now: every started poller whose Role has `refresh` Always, and WhileWatched ones
    /// that have subscribers.
    void refresh() override;
    /// reconnect(password), then resumes the pollers whose Role has `resumeOnPassword`.
    void setPassword(const QString &password) override;

protected:
    /// How a poller's state enters status().
    enum class Counts
    {
        Primary,      ///< status() is its state (exactly one poller)
        Always,       ///< a secondary: can make the health worse
        WhileWatched, ///< a secondary while it has subscribers
        Never         ///< not shown (a history-only poll); no statusChanged either
    };
    /// How a secondary's health replaces the one so far.
    enum class Merge
    {
        /// AuthRequired/Unreachable replace Ok, Degraded and Unknown; Degraded replaces Ok.
        Problems,
        /// Any health ranked worse replaces it (Unknown < Ok < Degraded < Unreachable <
        /// AuthRequired); an Unknown secondary never does. The error is shown through
        /// `errorFormat`.
        Ranked
    };
    enum class Refresh
    {
        Always,
        WhileWatched,
        Never
    };
    struct Role
    {
        Counts counts = Counts::Always;
        Merge merge = Merge::Problems;
        /// Ranked merge: "%1" is the poller's error ("S3: %1"); empty = the error itself.
        QString errorFormat;
        /// Its staleness makes the source stale too (like the primary's).
        bool staleCounts = false;
        /// Its polls are the source's inventory: hasPolledOnce(), inventoryPolled().
        bool inventory = false;
        bool autoStart = true;
        Refresh refresh = Refresh::Always;
        bool resumeOnPassword = true;
    };

    /// Options named "<source>/<what>" polling every `interval`.
    [[nodiscard]] SystemPoller::Options pollerOptions(const QString &what, std::chrono::seconds interval) const;
    /// A poller owned by this source, in the cycle and the status as `role` says. Pollers start,
    /// stop and refresh in the order they were added.
    SystemPoller *addPoller(const SystemPoller::Options &options, SystemPoller::JobFactory factory, Role role);
    /// The primary poller (status() is its state), polled every config interval: the source's
    /// inventory for hasPolledOnce() and inventoryPolled().
    SystemPoller *addInventoryPoller(const QString &what, SystemPoller::JobFactory factory);
    /// Takes a poller out of the cycle and the status (before it is deleted).
    void removePoller(SystemPoller *poller);
    /// A poller that cannot run (a secret that cannot be read): it shows as AuthRequired with
    /// `error` and counts as polled once. Empty `error` clears it.
    void setPollerProblem(SystemPoller *poller, const QString &error);
    [[nodiscard]] bool isStarted() const { return m_started; }

    /// Fills kind, url, systemName and systemVersion of status() (the rest is done).
    virtual void describe(SourceStatus &status) const = 0;
    /// New credentials: make the connection the next polls use.
    virtual void reconnect(const QString &password) = 0;
    /// An inventory poller finished a poll, just before inventoryPolled(ok) is emitted.
    virtual void inventoryPollFinished(SystemPoller *poller, bool ok);

    IClock &m_clock;
    QThreadPool &m_pool;

private:
    struct Entry
    {
        SystemPoller *poller = nullptr;
        Role role;
        bool polledOnce = false;
        QString problem;
    };
    [[nodiscard]] bool late(const PollerState &state) const;

    std::vector<Entry> m_entries;
    bool m_started = false;
};

/// A polling source with volumes whose snapshots it lists (ONTAP, Azure NetApp Files): a watched
/// volume's snapshots are polled every performance interval by a poller of their own (secondary
/// WhileWatched), and fetched once on demand; both publish into the estate.
class VolumeSource : public PollingSource, public ISnapshotProvider
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VolumeSource)

public:
    VolumeSource(SourceConfig config, Estate &estate, IClock &clock, QThreadPool &pool, QObject *parent = nullptr);
    ~VolumeSource() override;

    void subscribeSnapshots(const QString &volumeId) override;
    void unsubscribeSnapshots(const QString &volumeId) override;
    void fetchSnapshots(const QString &volumeId, std::function<void(QString error)> done) override;

protected:
    /// One volume's snapshot list, or why it could not be read.
    struct SnapshotListing
    {
        std::vector<Ptr<Snapshot>> snapshots;
        std::optional<FetchError> error;
    };
    /// Reads one volume's snapshots: `run` blocks on a worker thread, `cancel` may be called
    /// from the owner thread.
    struct SnapshotJob
    {
        std::function<SnapshotListing()> run;
        std::function<void()> cancel;
    };
    /// Made on the owner thread for each poll or fetch; `volume` is the estate's record of
    /// `volumeId`, null when it is not known (yet).
    [[nodiscard]] virtual SnapshotJob snapshotJob(const QString &volumeId, const Ptr<Volume> &volume) = 0;

    /// After an action on a volume's snapshots: polls the watched list now, or fetches it once.
    void refreshSnapshots(const QString &volumeId);

    Estate &m_estate;

private:
    SystemPoller *makeSnapshotPoller(const QString &volumeId);
    [[nodiscard]] SnapshotJob snapshotJobOf(const QString &volumeId);

    QHash<QString, SystemPoller *> m_snapshotPollers;
};

} // namespace strata::core
