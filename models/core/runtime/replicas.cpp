#include "models/core/runtime/replicas.h"

#include "models/core/domain/action.h"
#include "models/core/domain/estate.h"
#include "models/core/domain/offthread.h"
#include "models/core/runtime/bundle.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/historyservice.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QTimer>

#include <algorithm>
#include <limits>

namespace strata::core {

namespace {

Q_LOGGING_CATEGORY(lcReplicas, "strata.replicas", QtInfoMsg)

qint64 steadyMs()
{
    static QElapsedTimer timer = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return timer.elapsed();
}

QStringList configuredSources(const Engine &engine)
{
    QStringList names;
    for (const SourceConfig &c : engine.sourceConfigs()) {
        names << c.name;
    }
    return names;
}

/// A decoded state of another replica's source, ready to publish.
struct DecodedState
{
    SharedSourceState state;
    std::optional<SourceStatus> status;
    std::optional<EstateRecords> records;
    QString error;
};

} // namespace

ReplicaCoordinator::ReplicaCoordinator(Engine &engine, HistoryService &history, Options options, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_history(history)
    , m_options(std::move(options))
{
    if (m_options.replicaId.isEmpty()) {
        m_options.replicaId = engine.actions().ownerId();
    }
    m_stats.replicaId = m_options.replicaId;
    m_engine.setReplicaId(m_options.replicaId);
    const auto timer = [this](std::chrono::milliseconds interval, void (ReplicaCoordinator::*slot)()) {
        auto *t = new QTimer(this);
        t->setInterval(interval);
        connect(t, &QTimer::timeout, this, slot);
        return t;
    };
    m_renewTimer = timer(m_options.renewEvery, &ReplicaCoordinator::renew);
    m_readTimer = timer(m_options.readEvery, &ReplicaCoordinator::readStates);
    m_shareTimer = timer(m_options.shareEvery, &ReplicaCoordinator::share);
    m_shareTimer->setSingleShot(true);
    connect(m_readTimer, &QTimer::timeout, this, &ReplicaCoordinator::settingsMayHaveChanged);

    connect(&m_engine.estate(), &Estate::sourcePublished, this, [this](const QString &source) {
        markDirty(source, true);
    });
    connect(&m_engine, &Engine::sourceStatusChanged, this, [this](const QString &source) {
        markDirty(source, false);
    });
    connect(&m_engine, &Engine::sourcesChanged, this, [this] {
        if (m_running) {
            renew();
        }
    });
}

ReplicaCoordinator::~ReplicaCoordinator()
{
    stop();
}

void ReplicaCoordinator::start()
{
    if (m_running) {
        return;
    }
    m_running = true;
    m_lastRenewalMs = steadyMs();
    m_history.listenForSharedStates(
        this,
        [this](const QString &source) {
            if (source.startsWith(QLatin1String("setting:"))) {
                Q_EMIT settingsMayHaveChanged();
            } else if (!m_engine.pollsHere(source)) {
                readStates();
            }
        },
        [id = m_options.replicaId](bool ok) {
            qCInfo(lcReplicas).noquote() << "replica" << id
                                         << (ok ? "listens for shared states" : "polls for shared states");
        });
    m_renewTimer->start();
    m_readTimer->start();
    renew();
    readStates();
}

void ReplicaCoordinator::stop()
{
    if (!m_running) {
        return;
    }
    m_running = false;
    m_renewTimer->stop();
    m_readTimer->stop();
    m_shareTimer->stop();
    m_engine.setHeldSources({});
    if (const Status released = m_history.releaseLeases(m_options.replicaId); !released) {
        // Its leases expire instead: the other replicas take its sources after the lease time.
        qCWarning(lcReplicas).noquote() << "replica" << m_options.replicaId
                                        << "cannot release its leases:" << released.error().message;
    }
}

void ReplicaCoordinator::renew()
{
    if (!m_running || m_renewing) {
        return;
    }
    m_renewing = true;
    m_history.syncLeases(m_options.replicaId,
                         configuredSources(m_engine),
                         m_options.leaseTime.count(),
                         this,
                         [this](const Result<LeaseSync> &sync) {
                             m_renewing = false;
                             if (!m_running) {
                                 return;
                             }
                             if (!sync) {
                                 m_stats.leaseFailures++;
                                 qCDebug(lcReplicas).noquote() << "replica" << m_options.replicaId
                                                               << "lease renewal failed:" << sync.error().message;
                                 // Our leases have lapsed in the store by now and another
                                 // replica may poll them: stop rather than poll twice.
                                 if (steadyMs() - m_lastRenewalMs >= m_options.leaseTime.count()
                                     && !m_engine.heldSources().isEmpty()) {
                                     qCWarning(lcReplicas).noquote()
                                         << "replica" << m_options.replicaId
                                         << "cannot renew its leases: it stops polling until the store answers";
                                     m_engine.setHeldSources({});
                                     m_owners.clear();
                                     Q_EMIT leasesChanged();
                                 }
                                 return;
                             }
                             m_lastRenewalMs = steadyMs();
                             m_stats.lastRenewal = sync->storeTime;
                             m_stats.takeovers += sync->takenOver;
                             m_stats.released += sync->released;
                             QHash<QString, QString> owners;
                             for (const SourceLease &lease : sync->leases) {
                                 owners.insert(lease.source, lease.owner);
                             }
                             applyLeases(owners, sync->liveReplicas);
                         });
}

void ReplicaCoordinator::applyLeases(const QHash<QString, QString> &owners, const QStringList &live)
{
    QSet<QString> held;
    for (auto it = owners.cbegin(); it != owners.cend(); ++it) {
        if (it.value() == m_options.replicaId) {
            held.insert(it.key());
        }
    }
    const bool changed = owners != m_owners || live != m_stats.liveReplicas;
    const QSet<QString> before = m_engine.heldSources();
    m_owners = owners;
    m_stats.liveReplicas = live;
    m_stats.held = QStringList(held.cbegin(), held.cend());
    std::sort(m_stats.held.begin(), m_stats.held.end());
    if (held != before) {
        qCInfo(lcReplicas).noquote() << "replica" << m_options.replicaId << "polls"
                                     << (m_stats.held.isEmpty() ? QStringLiteral("no source")
                                                                : m_stats.held.join(QStringLiteral(", ")));
        m_engine.setHeldSources(held);
        for (const QString &source : held - before) {
            // Readers learn the new owner at once; its records follow its first poll.
            markDirty(source, false);
        }
    }
    if (changed) {
        Q_EMIT leasesChanged();
    }
}

void ReplicaCoordinator::markDirty(const QString &source, bool body)
{
    if (!m_running || !m_engine.heldSources().contains(source)) {
        return;
    }
    m_dirty[source] = m_dirty.value(source) || body;
    scheduleShare();
}

void ReplicaCoordinator::scheduleShare()
{
    // A source's records go out as soon as the last records shared of that source are
    // shareEvery old: the other replicas' viewers wait for them. Its record changes within
    // shareEvery of that, and health-only changes, are coalesced, so a busy source still writes
    // its records at most once per shareEvery, and one busy source does not hold back another.
    const qint64 every = m_options.shareEvery.count();
    const qint64 now = steadyMs();
    qint64 dueMs = every;
    for (auto it = m_dirty.cbegin(); it != m_dirty.cend(); ++it) {
        if (it.value() && !m_sharing.contains(it.key())) {
            dueMs = std::min(dueMs, std::max(qint64(0), lastRecordsShared(it.key()) + every - now));
        }
    }
    if (!m_shareTimer->isActive() || m_shareTimer->remainingTime() > dueMs) {
        m_shareTimer->start(std::chrono::milliseconds(dueMs));
    }
}

qint64 ReplicaCoordinator::lastRecordsShared(const QString &source) const
{
    return m_lastRecordsShared.value(source, std::numeric_limits<qint64>::min() / 2);
}

void ReplicaCoordinator::share()
{
    const QHash<QString, bool> dirty = m_dirty;
    const qint64 now = steadyMs();
    for (auto it = dirty.cbegin(); it != dirty.cend(); ++it) {
        const QString source = it.key();
        if (m_sharing.contains(source)) {
            continue; // stays dirty: shared after the write under way
        }
        if (it.value() && now < lastRecordsShared(source) + m_options.shareEvery.count()) {
            continue; // stays dirty: its records were shared less than shareEvery ago
        }
        m_dirty.remove(source);
        const std::optional<SourceStatus> status = m_engine.status(source);
        if (!status || !m_engine.heldSources().contains(source)) {
            continue;
        }
        SourceStatus shared = *status;
        shared.polledBy = m_options.replicaId;
        const QByteArray statusJson = QJsonDocument(toJson(shared)).toJson(QJsonDocument::Compact);
        // The records are copied here (they share their strings) and encoded on the pool.
        std::optional<EstateRecords> records;
        if (it.value()) {
            records = sourceRecords(m_engine.estate(), source);
            m_lastRecordsShared[source] = now;
        }
        m_sharing.insert(source);
        runOffThread(
            m_engine.pool(),
            this,
            [records = std::move(records)] {
                return records ? encodeSourceRecords(*records) : QByteArray();
            },
            [this, source, statusJson](QByteArray body) {
                m_stats.bodyBytesShared += body.size();
                m_history.putSharedState(source,
                                         m_options.replicaId,
                                         statusJson,
                                         body,
                                         this,
                                         [this, source](const Result<qint64> &revision) {
                                             m_sharing.remove(source);
                                             if (!revision) {
                                                 qCDebug(lcReplicas).noquote()
                                                     << "replica" << m_options.replicaId << "cannot share" << source
                                                     << revision.error().message;
                                             } else if (*revision > 0) {
                                                 m_stats.statesShared++;
                                             } else {
                                                 qCInfo(lcReplicas).noquote()
                                                     << "replica" << m_options.replicaId << "no longer holds" << source;
                                                 renew();
                                             }
                                             if (m_dirty.contains(source)) {
                                                 scheduleShare();
                                             }
                                         });
            });
    }
    if (!m_dirty.isEmpty()) {
        scheduleShare(); // records held back for their source's turn
    }
}

void ReplicaCoordinator::readStates()
{
    if (!m_running) {
        return;
    }
    if (m_reading) {
        m_readAgain = true;
        return;
    }
    m_reading = true;
    m_readAgain = false;
    m_history.sharedStates(m_readRevision, m_appliedBodies, this, [this](Result<SharedStates> states) {
        if (!states || !m_running) {
            m_reading = false;
            return;
        }
        // Decoding a large estate takes a while: off the GUI thread, all of one read in one job,
        // so they are published in revision order.
        runOffThread(
            m_engine.pool(),
            this,
            [states = std::move(*states)]() mutable {
                std::vector<DecodedState> decoded;
                for (SharedSourceState &s : states.states) {
                    DecodedState d;
                    if (auto status = statusFromJson(QJsonDocument::fromJson(s.status).object())) {
                        d.status = *status;
                    } else {
                        d.error = status.error().message;
                    }
                    if (!s.body.isEmpty()) {
                        if (auto records = decodeSourceRecords(s.body)) {
                            d.records = std::move(*records);
                        } else {
                            d.error = records.error().message;
                        }
                        s.body.clear();
                    }
                    d.state = std::move(s);
                    decoded.push_back(std::move(d));
                }
                return std::make_pair(std::move(decoded), states.storeTime);
            },
            [this](std::pair<std::vector<DecodedState>, QDateTime> result) {
                m_reading = false;
                const QStringList configured = configuredSources(m_engine);
                for (const DecodedState &d : result.first) {
                    const SharedSourceState &s = d.state;
                    m_readRevision = std::max(m_readRevision, s.revision);
                    if (!m_running || m_engine.pollsHere(s.source) || !configured.contains(s.source)) {
                        continue;
                    }
                    if (!d.error.isEmpty()) {
                        qCWarning(lcReplicas).noquote()
                            << "replica" << m_options.replicaId << "cannot apply the state of" << s.source << "revision"
                            << s.revision << ":" << d.error;
                    }
                    if (d.records) {
                        publishSourceRecords(m_engine.estate(), *d.records, s.source);
                        m_appliedBodies[s.source] = s.bodyRevision;
                    }
                    if (d.status) {
                        SourceStatus status = *d.status;
                        status.polledBy = s.owner;
                        m_engine.setRemoteStatus(status);
                    }
                    const double lag = double(s.written.msecsTo(result.second)) / 1000.0;
                    m_stats.lastNotifyLagSeconds = lag;
                    m_stats.maxNotifyLagSeconds = std::max(m_stats.maxNotifyLagSeconds, lag);
                    m_stats.statesApplied++;
                    Q_EMIT stateApplied(s.source, s.revision);
                }
                if (m_readAgain) {
                    readStates();
                }
            });
    });
}

} // namespace strata::core
