#include "models/core/runtime/engine.h"

#include "models/core/runtime/sourcefactory.h"
#include "models/core/runtime/timeline.h"
#include "models/core/services/cacheservice.h"
#include "models/core/services/capacityforecast.h"
#include "models/core/services/scheduleservice.h"
#include "models/core/services/servicelevels.h"
#include "models/core/sources/source.h"
#include "models/core/store/credentialstore.h"

#include <QPointer>

namespace strata::core {

namespace {

/// Every source of an offline engine: previews say why nothing can run.
class ReadOnlyExecutor final : public IActionExecutor
{
public:
    explicit ReadOnlyExecutor(QString reason)
        : m_reason(std::move(reason))
    {}
    [[nodiscard]] ActionPreview preview(const ActionRequest &request) const override
    {
        ActionPreview p;
        p.title = actionKindName(request.kind);
        p.blockedReason = m_reason;
        return p;
    }
    [[nodiscard]] std::function<ActionResult(const ActionContext &)> prepare(const ActionRequest &) override
    {
        return [reason = m_reason](const ActionContext &) {
            return ActionResult{false, false, reason};
        };
    }

private:
    QString m_reason;
};

} // namespace

Engine::Engine(Deps deps, QObject *parent)
    : QObject(parent)
    , m_deps(std::move(deps))
    , m_estate(std::make_unique<Estate>())
    , m_actions(std::make_unique<ActionManager>(m_deps.clock, m_pool, m_deps.history, m_deps.user))
    , m_serviceLevels(std::make_unique<ServiceLevels>(*m_estate, m_deps.clock, m_deps.history))
    , m_schedules(std::make_unique<ScheduleService>(*m_actions, *m_estate, m_deps.clock, m_deps.history))
    , m_cacheService(std::make_unique<CacheService>(*m_actions, *m_estate, m_deps.clock))
    , m_forecasts(std::make_unique<ForecastService>(*m_estate, m_deps.clock, m_deps.history))
{
    connect(this, &Engine::allSourcesPolled, m_forecasts.get(), &ForecastService::refresh);
    // Connector calls block on network I/O, not CPU: more threads than cores keeps one slow
    // source from delaying the others.
    m_pool.setMaxThreadCount(8);
    // The cool-down must hold from the moment a change succeeds, not from the next refresh.
    connect(m_actions.get(), &ActionManager::actionFinished, this, [this](const QString &id, bool ok) {
        const ActionRecord *record = m_actions->find(id);
        if (ok && record && record->request.kind == ActionKind::ServiceLevelChange) {
            m_serviceLevels->noteLevelChange(record->request.source, record->request.volumeId, record->finished);
        }
    });
    // Actions a stopped Strata left open are taken over once their sources answer (their
    // executors exist and the estate is known); a read-only bundle recovers nothing.
    connect(this, &Engine::allSourcesPolled, m_actions.get(), [this] {
        if (m_readOnlyReason.isEmpty()) {
            m_actions->recoverInterrupted();
        }
    });
    m_timeline = std::make_unique<Timeline>(*this);
    if (m_deps.runSchedules) {
        connect(this, &Engine::allSourcesPolled, m_schedules.get(), &ScheduleService::start);
        connect(this, &Engine::allSourcesPolled, m_cacheService.get(), &CacheService::start);
    }
}

void Engine::setCacheTargets(const QList<CacheTargetConfig> &targets)
{
    m_cacheTargets = targets;
    for (Source *s : std::as_const(m_sources)) {
        s->setCacheTargets(targets);
    }
}

Result<CommitLocation>
Engine::resolveCommit(const QString &datasetSource, const QString &datasetId, const QString &commitId) const
{
    const auto fail = [](const QString &message) {
        return core::fail(Error::make(Error::Kind::NotFound, message));
    };
    const SourceConfig *config = nullptr;
    for (const SourceConfig &c : m_configs) {
        if (c.name == datasetSource) {
            config = &c;
        }
    }
    if (!config || config->kind != SourceKind::StorageGrid) {
        return fail(tr("%1 is not a configured StorageGRID source.").arg(datasetSource));
    }
    if (config->s3Url.isEmpty()) {
        return fail(tr("%1 has no S3 endpoint (s3_url) for its datasets.").arg(datasetSource));
    }
    const Ptr<Dataset> dataset = m_estate->datasets().find(datasetSource, datasetSource + QLatin1Char('/') + datasetId);
    if (!dataset) {
        return fail(tr("Dataset %1 is not known to %2 (yet).").arg(datasetId, datasetSource));
    }
    const Ptr<Commit> commit = m_estate->commits().find(datasetSource, datasetSource + QLatin1Char('/') + commitId);
    if (!commit || commit->datasetId != datasetId) {
        return fail(tr("Commit %1 of %2 is not known to %3.").arg(commitId.left(8), dataset->name, datasetSource));
    }
    if (dataset->kind == DatasetKind::OntapVolume) {
        return fail(tr("%1 is a file dataset on ONTAP: cache it as a FlexClone.").arg(dataset->name));
    }
    CommitLocation where;
    where.s3Endpoint = config->s3Url;
    where.s3Region = config->s3Region.isEmpty() ? QStringLiteral("us-east-1") : config->s3Region;
    where.s3PathStyle = config->s3PathStyle;
    where.bucket = dataset->bucket;
    where.prefix = dataset->prefix;
    where.manifestKey = commit->manifestKey;
    where.datasetName = dataset->name;
    where.objects = commit->objectCount;
    where.bytes = commit->bytes;
    return where;
}

void Engine::setRateCard(const RateCard &card)
{
    m_serviceLevels->setRateCard(card);
}

Engine::~Engine()
{
    m_timeline.reset();
    for (Source *s : std::as_const(m_sources)) {
        s->stop();
    }
    qDeleteAll(m_sources);
    m_sources.clear();
    m_pool.waitForDone();
}

void Engine::setSources(const QList<SourceConfig> &sources)
{
    if (!m_readOnlyReason.isEmpty()) {
        return;
    }
    QHash<QString, SourceConfig> next;
    for (const SourceConfig &c : sources) {
        next.insert(c.name, c);
    }
    for (const SourceConfig &old : std::as_const(m_configs)) {
        const auto it = next.constFind(old.name);
        if (it == next.cend() || !(*it == old)) {
            stopSource(old.name);
            if (it == next.cend()) {
                m_estate->removeSource(old.name);
            }
        }
    }
    const QList<SourceConfig> previous = m_configs;
    m_configs = sources;
    for (const SourceConfig &c : sources) {
        bool unchanged = false;
        for (const SourceConfig &p : previous) {
            unchanged = unchanged || (p == c && m_sources.contains(c.name));
        }
        if (!unchanged) {
            startSource(c);
        }
    }
    Q_EMIT sourcesChanged();
    checkAllPolled();
}

void Engine::startSource(const SourceConfig &config)
{
    const quint64 generation = ++m_startGeneration[config.name];
    SourceStatus pending;
    pending.name = config.name;
    pending.kind = config.kind;
    pending.url = config.url;
    m_blocked.insert(config.name, pending);

    QPointer<Engine> self(this);
    auto create = [self, config, generation](std::optional<QString> secret, const QString &error) {
        if (!self || self->m_startGeneration.value(config.name) != generation) {
            return;
        }
        if (!error.isEmpty() || (!secret && config.password.kind != SecretRef::Kind::None)) {
            SourceStatus &s = self->m_blocked[config.name];
            s.health = Health::AuthRequired;
            s.lastError = error.isEmpty() ? tr("No password is stored for %1.").arg(config.name)
                                          : tr("Cannot read the password of %1: %2").arg(config.name, error);
            Q_EMIT self->sourceStatusChanged(config.name);
            self->checkAllPolled();
            return;
        }
        self->m_blocked.remove(config.name);
        Source *source =
            createSource(config,
                         secret.value_or(QString()),
                         SourceContext{*self->m_estate,
                                       self->m_deps.clock,
                                       self->m_pool,
                                       self->m_deps.history,
                                       self->m_serviceLevels.get(),
                                       self->m_deps.user,
                                       [self](const QString &datasetSource,
                                              const QString &datasetId,
                                              const QString &commitId) -> Result<CommitLocation> {
                                           if (!self) {
                                               // The engine is going away: nothing to say.
                                               return core::fail(Error::make(Error::Kind::Unavailable, {}));
                                           }
                                           return self->resolveCommit(datasetSource, datasetId, commitId);
                                       },
                                       self->m_deps.firstPollDeadline},
                         self);
        if (!source) {
            return;
        }
        source->setCacheTargets(self->m_cacheTargets);
        self->m_sources.insert(config.name, source);
        self->m_actions->setExecutor(config.name, source->actionExecutor());
        const QString name = config.name;
        connect(source, &Source::statusChanged, self, [self, name] {
            if (self) {
                Q_EMIT self->sourceStatusChanged(name);
            }
        });
        connect(source, &Source::inventoryPolled, self, [self] {
            if (self) {
                self->checkAllPolled();
            }
        });
        if (IPerformanceProvider *perf = source->performanceProvider()) {
            for (int i = 0; i < self->m_perfSubscribers; ++i) {
                perf->subscribePerformance();
            }
        }
        if (self->pollsHere(name)) {
            source->start();
        }
        if (config.kind == SourceKind::StorageGrid) {
            self->resolveS3Secret(config);
        }
        Q_EMIT self->sourceStatusChanged(name);
    };
    // No secret (Kind::None) resolves later too, with nullopt: the source starts from the event loop.
    resolveSecret(config.password, m_deps.credentials, create);
}

void Engine::resolveS3Secret(const SourceConfig &config)
{
    if (config.s3Url.isEmpty()) {
        return;
    }
    const QString name = config.name;
    const quint64 generation = m_startGeneration.value(name);
    QPointer<Engine> self(this);
    auto deliver = [self, name, generation](std::optional<QString> secret, const QString &error) {
        if (!self || self->m_startGeneration.value(name) != generation) {
            return;
        }
        Source *source = self->m_sources.value(name);
        if (!source) {
            return;
        }
        if (!error.isEmpty() || !secret) {
            source->setS3Secret(QString(),
                                error.isEmpty() ? tr("No S3 secret is stored for %1.").arg(name)
                                                : tr("Cannot read the S3 secret of %1: %2").arg(name, error));
        } else {
            source->setS3Secret(*secret, QString());
        }
        self->checkAllPolled();
    };
    resolveSecret(config.s3Secret, m_deps.credentials, deliver);
}

void Engine::stopSource(const QString &name)
{
    m_startGeneration[name]++;
    m_blocked.remove(name);
    if (Source *s = m_sources.take(name)) {
        m_actions->removeExecutor(name);
        s->stop();
        s->deleteLater();
    }
}

QList<SourceStatus> Engine::statuses() const
{
    QList<SourceStatus> out;
    for (const SourceConfig &c : m_configs) {
        if (auto s = status(c.name)) {
            out.append(*s);
        }
    }
    return out;
}

void Engine::setLeased(bool leased)
{
    m_leased = leased;
    // History derived from the estate and cache evictions are the poller's, so they happen once.
    const auto here = [this](const QString &source) {
        return pollsHere(source);
    };
    m_forecasts->setRecordFilter(leased ? std::function<bool(const QString &)>(here) : nullptr);
    m_cacheService->setSourceFilter(leased ? std::function<bool(const QString &)>(here) : nullptr);
}

bool Engine::pollsHere(const QString &source) const
{
    return !m_leased || m_held.contains(source);
}

void Engine::setHeldSources(const QSet<QString> &held)
{
    if (!m_leased || held == m_held) {
        return;
    }
    const QSet<QString> before = m_held;
    m_held = held;
    for (const SourceConfig &c : std::as_const(m_configs)) {
        if (before.contains(c.name) != held.contains(c.name)) {
            // A fresh source object, started or standing by: start() after stop() is not a
            // path every source kind supports, construction is.
            stopSource(c.name);
            startSource(c);
        }
    }
    Q_EMIT sourcesChanged();
    checkAllPolled();
}

void Engine::setRemoteStatus(const SourceStatus &status)
{
    if (m_remote.value(status.name) == status) {
        return;
    }
    m_remote.insert(status.name, status);
    if (!pollsHere(status.name)) {
        Q_EMIT sourceStatusChanged(status.name);
        checkAllPolled();
    }
}

std::optional<SourceStatus> Engine::status(const QString &name) const
{
    if (!pollsHere(name)) {
        const auto remote = m_remote.constFind(name);
        if (remote != m_remote.cend()) {
            return *remote;
        }
        for (const SourceConfig &c : m_configs) {
            if (c.name == name) {
                SourceStatus waiting;
                waiting.name = c.name;
                waiting.kind = c.kind;
                waiting.url = c.url;
                waiting.lastError = tr("Waiting for the replica that polls %1.").arg(name);
                return waiting;
            }
        }
        return std::nullopt;
    }
    if (Source *s = m_sources.value(name)) {
        SourceStatus status = s->status();
        if (m_leased) {
            status.polledBy = m_replicaId;
        }
        return status;
    }
    const auto it = m_blocked.constFind(name);
    if (it != m_blocked.cend()) {
        return *it;
    }
    return std::nullopt;
}

Source *Engine::source(const QString &name) const
{
    return m_sources.value(name);
}

void Engine::refresh(const QString &name)
{
    for (auto it = m_sources.cbegin(); it != m_sources.cend(); ++it) {
        if ((name.isEmpty() || it.key() == name) && pollsHere(it.key())) {
            it.value()->refresh();
        }
    }
}

void Engine::reloadCredentials(const QString &name)
{
    if (!m_readOnlyReason.isEmpty()) {
        return;
    }
    for (const SourceConfig &c : std::as_const(m_configs)) {
        if (c.name != name) {
            continue;
        }
        if (Source *s = m_sources.value(name)) {
            if (c.kind == SourceKind::StorageGrid) {
                resolveS3Secret(c);
            }
            QPointer<Source> src(s);
            QPointer<Engine> self(this);
            resolveSecret(
                c.password, m_deps.credentials, [src, self, name](std::optional<QString> secret, const QString &error) {
                    if (src && secret && error.isEmpty()) {
                        src->setPassword(*secret);
                    } else if (self) {
                        Q_EMIT self->sourceStatusChanged(name);
                    }
                });
        } else {
            startSource(c);
        }
    }
}

void Engine::subscribePerformance()
{
    m_perfSubscribers++;
    for (Source *s : std::as_const(m_sources)) {
        if (IPerformanceProvider *perf = s->performanceProvider()) {
            perf->subscribePerformance();
        }
    }
}

void Engine::unsubscribePerformance()
{
    if (m_perfSubscribers == 0) {
        return;
    }
    m_perfSubscribers--;
    for (Source *s : std::as_const(m_sources)) {
        if (IPerformanceProvider *perf = s->performanceProvider()) {
            perf->unsubscribePerformance();
        }
    }
}

void Engine::subscribeSnapshots(const QString &source, const QString &volumeId)
{
    Source *s = m_sources.value(source);
    if (ISnapshotProvider *snapshots = s ? s->snapshotProvider() : nullptr) {
        snapshots->subscribeSnapshots(volumeId);
    }
}

void Engine::unsubscribeSnapshots(const QString &source, const QString &volumeId)
{
    Source *s = m_sources.value(source);
    if (ISnapshotProvider *snapshots = s ? s->snapshotProvider() : nullptr) {
        snapshots->unsubscribeSnapshots(volumeId);
    }
}

void Engine::setOffline(const QList<SourceConfig> &configs,
                        const QList<SourceStatus> &statuses,
                        const QString &readOnlyReason)
{
    for (const QString &name : m_sources.keys()) {
        stopSource(name);
    }
    m_readOnlyReason = readOnlyReason;
    m_readOnlyExecutor = std::make_unique<ReadOnlyExecutor>(readOnlyReason);
    m_configs = configs;
    m_blocked.clear();
    for (const SourceStatus &s : statuses) {
        m_blocked.insert(s.name, s);
    }
    for (const SourceConfig &c : configs) {
        m_actions->setExecutor(c.name, m_readOnlyExecutor.get());
    }
    Q_EMIT sourcesChanged();
    Q_EMIT allSourcesPolled();
}

bool Engine::allPolledOnce() const
{
    if (!m_readOnlyReason.isEmpty()) {
        return true;
    }
    for (const SourceConfig &c : m_configs) {
        if (!pollsHere(c.name)) {
            if (!m_remote.contains(c.name)) {
                return false;
            }
        } else if (Source *s = m_sources.value(c.name)) {
            if (!s->hasPolledOnce()) {
                return false;
            }
        } else if (m_blocked.value(c.name).health != Health::AuthRequired) {
            return false;
        }
    }
    return true;
}

void Engine::checkAllPolled()
{
    if (allPolledOnce()) {
        Q_EMIT allSourcesPolled();
    }
}

QStringList notPolledYet(const Engine &engine, const QList<SourceKind> &kinds)
{
    QStringList out;
    if (!engine.readOnlyReason().isEmpty()) {
        return out;
    }
    for (const SourceConfig &c : engine.sourceConfigs()) {
        if (!kinds.isEmpty() && !kinds.contains(c.kind)) {
            continue;
        }
        const Source *s = engine.pollsHere(c.name) ? engine.source(c.name) : nullptr;
        const std::optional<SourceStatus> status = engine.status(c.name);
        if ((s && !s->hasPolledOnce()) || !status || !status->lastSuccess.isValid()) {
            out << c.name;
        }
    }
    return out;
}

} // namespace strata::core
