#pragma once

#include <QHash>
#include <QObject>
#include <QSet>

#include <chrono>
#include <functional>

namespace strata::core {

class ActionManager;
class Estate;
class IClock;

/// Carries out the eviction policy of cached commits (cachepolicy.h): every minute (IClock
/// time), each ready cached commit whose evictAt has come is cleared through a CacheEvict
/// action with the policy's evictReason, so every eviction is previewed, audited and shown like
/// a user's. Never submits a commit twice while its eviction runs; a refused or failed eviction
/// is tried again at the next round. Owner (GUI) thread; Engine-owned, started with the
/// schedules (Engine::Deps::runSchedules).
class CacheService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CacheService)

public:
    static constexpr std::chrono::seconds kInterval{60};

    CacheService(ActionManager &actions, Estate &estate, IClock &clock, QObject *parent = nullptr);
    ~CacheService() override;

    /// Starts the rounds (the first one at once). Idempotent.
    void start();
    [[nodiscard]] bool isStarted() const { return m_started; }
    /// One round now: submits what is due. Returns the action ids submitted.
    QStringList runOnce();
    /// Replicas sharing a store: evict only the cached commits of sources for which
    /// `evictsHere(source)` (the replica holding that source's lease), so one replica submits
    /// each eviction. Default: every source.
    void setSourceFilter(std::function<bool(const QString &source)> evictsHere)
    {
        m_evictsHere = std::move(evictsHere);
    }

Q_SIGNALS:
    /// An eviction was submitted (`actionId`) or refused (`error`) for "<target>/<commitId>".
    void evictionSubmitted(const QString &cachedCommitId, const QString &actionId, const QString &error);

private:
    void arm();
    void onActionFinished(const QString &actionId, bool ok);

    ActionManager &m_actions;
    Estate &m_estate;
    IClock &m_clock;
    quint64 m_timer = 0;
    bool m_started = false;
    /// Action id -> estate key of the cached commit it evicts, while it runs.
    QHash<QString, QString> m_running;
    std::function<bool(const QString &)> m_evictsHere;
};

} // namespace strata::core
