#include "models/core/services/cacheservice.h"

#include "models/core/domain/clock.h"
#include "models/core/domain/estate.h"
#include "models/core/services/actions.h"

namespace strata::core {

CacheService::CacheService(ActionManager &actions, Estate &estate, IClock &clock, QObject *parent)
    : QObject(parent)
    , m_actions(actions)
    , m_estate(estate)
    , m_clock(clock)
{
    connect(&m_actions, &ActionManager::actionFinished, this, &CacheService::onActionFinished);
}

CacheService::~CacheService()
{
    if (m_timer) {
        m_clock.cancel(m_timer);
    }
}

void CacheService::start()
{
    if (m_started) {
        return;
    }
    m_started = true;
    runOnce();
    arm();
}

void CacheService::arm()
{
    m_timer = m_clock.callAfter(std::chrono::duration_cast<std::chrono::milliseconds>(kInterval), this, [this] {
        m_timer = 0;
        runOnce();
        arm();
    });
}

QStringList CacheService::runOnce()
{
    QStringList submitted;
    const QDateTime now = m_clock.now();
    const QList<QString> busy = m_running.values();
    for (const Ptr<CachedCommit> &c : m_estate.cachedCommits().all()) {
        if (c->state != CacheState::Ready || !c->evictAt.isValid() || c->evictAt > now
            || (m_evictsHere && !m_evictsHere(c->source))) {
            continue;
        }
        const QString key = estateKey(*c);
        if (busy.contains(key)) {
            continue;
        }
        ActionRequest request;
        request.kind = ActionKind::CacheEvict;
        request.source = c->source;
        request.cacheTarget = c->target;
        request.commitId = c->commitId;
        request.datasetSource = c->datasetSource;
        request.datasetId = c->datasetId;
        request.evictReason = c->evictReason;
        const Result<QString> action = m_actions.submit(request);
        const QString id = action ? *action : QString();
        if (action) {
            const ActionRecord *record = m_actions.find(id);
            if (record && record->state == ActionState::Running) {
                m_running.insert(id, key);
            }
            submitted.append(id);
        }
        Q_EMIT evictionSubmitted(c->id, id, action ? QString() : action.error().message);
    }
    return submitted;
}

void CacheService::onActionFinished(const QString &actionId, bool ok)
{
    Q_UNUSED(ok)
    m_running.remove(actionId);
}

} // namespace strata::core
