#include "models/core/sources/pollingsource.h"

#include "models/core/domain/convert.h"
#include "models/core/domain/estate.h"
#include "models/core/domain/offthread.h"

#include <QPointer>

#include <algorithm>

namespace strata::core {

namespace {

int pollingHealthRank(Health h)
{
    switch (h) {
    case Health::Unknown:
        return 0;
    case Health::Ok:
        return 1;
    case Health::Degraded:
        return 2;
    case Health::Unreachable:
        return 3;
    case Health::AuthRequired:
        return 4;
    }
    return 0;
}

/// A fetched snapshot list, keyed on the worker thread.
struct FetchedSnapshots
{
    std::shared_ptr<const KeyedList<Snapshot>> list;
    QString error;
};

} // namespace

PollingSource::PollingSource(SourceConfig config, IClock &clock, QThreadPool &pool, QObject *parent)
    : Source(std::move(config), parent)
    , m_clock(clock)
    , m_pool(pool)
{}

PollingSource::~PollingSource() = default;

SystemPoller::Options PollingSource::pollerOptions(const QString &what, std::chrono::seconds interval) const
{
    SystemPoller::Options options;
    options.name = m_config.name + QLatin1Char('/') + what;
    options.interval = interval;
    return options;
}

SystemPoller *
PollingSource::addPoller(const SystemPoller::Options &options, SystemPoller::JobFactory factory, Role role)
{
    auto *poller = new SystemPoller(options, m_clock, m_pool, std::move(factory), this);
    if (role.counts != Counts::Never) {
        connect(poller, &SystemPoller::stateChanged, this, &Source::statusChanged);
    }
    if (role.inventory) {
        connect(poller, &SystemPoller::polled, this, [this, poller](bool ok) {
            const auto it = std::find_if(m_entries.begin(), m_entries.end(), [poller](const Entry &e) {
                return e.poller == poller;
            });
            if (it != m_entries.end()) {
                it->polledOnce = true;
            }
            inventoryPollFinished(poller, ok);
            Q_EMIT inventoryPolled(ok);
        });
    }
    m_entries.push_back(Entry{poller, std::move(role), false, QString()});
    return poller;
}

SystemPoller *PollingSource::addInventoryPoller(const QString &what, SystemPoller::JobFactory factory)
{
    Role role;
    role.counts = Counts::Primary;
    role.inventory = true;
    return addPoller(
        pollerOptions(what, std::chrono::seconds(m_config.configIntervalSeconds)), std::move(factory), role);
}

void PollingSource::removePoller(SystemPoller *poller)
{
    std::erase_if(m_entries, [poller](const Entry &e) {
        return e.poller == poller;
    });
}

void PollingSource::setPollerProblem(SystemPoller *poller, const QString &error)
{
    for (Entry &e : m_entries) {
        if (e.poller == poller) {
            e.problem = error;
        }
    }
}

void PollingSource::inventoryPollFinished(SystemPoller *, bool)
{}

bool PollingSource::late(const PollerState &state) const
{
    const QDateTime now = m_clock.now();
    return state.stale
           || (state.lastSuccess.isValid()
               && state.lastSuccess.secsTo(now) > 2 * qint64(m_config.configIntervalSeconds));
}

SourceStatus PollingSource::status() const
{
    SourceStatus s;
    s.name = m_config.name;
    s.url = m_config.url;
    describe(s);
    for (const Entry &e : m_entries) {
        if (e.role.counts != Counts::Primary) {
            continue;
        }
        const PollerState &p = e.poller->state();
        s.health = p.health;
        s.lastError = p.lastError;
        s.lastSuccess = p.lastSuccess;
        s.lastAttempt = p.lastAttempt;
        s.latencyMs = p.lastDurationMs;
        s.consecutiveFailures = p.consecutiveFailures;
        s.nextPoll = p.nextPoll;
        s.stale = late(p);
    }
    // Secondary pollers can only make things look worse, never better.
    for (const Entry &e : m_entries) {
        if (e.role.counts == Counts::Primary || e.role.counts == Counts::Never
            || (e.role.counts == Counts::WhileWatched && e.poller->subscriberCount() == 0)) {
            continue;
        }
        const PollerState &st = e.poller->state();
        const Health health = e.problem.isEmpty() ? st.health : Health::AuthRequired;
        const QString error = e.problem.isEmpty() ? st.lastError : e.problem;
        if (e.role.staleCounts) {
            s.stale = s.stale || late(st);
        }
        switch (e.role.merge) {
        case Merge::Problems:
            if (health == Health::AuthRequired || health == Health::Unreachable) {
                if (s.health == Health::Ok || s.health == Health::Degraded || s.health == Health::Unknown) {
                    s.health = health;
                    s.lastError = error;
                }
            } else if (health == Health::Degraded && s.health == Health::Ok) {
                s.health = Health::Degraded;
                s.lastError = error;
            }
            break;
        case Merge::Ranked:
            if (health != Health::Unknown && pollingHealthRank(health) > pollingHealthRank(s.health)) {
                s.health = health;
                s.lastError = e.role.errorFormat.isEmpty() ? error : e.role.errorFormat.arg(error);
            }
            break;
        }
    }
    return s;
}

void PollingSource::start()
{
    m_started = true;
    for (const Entry &e : m_entries) {
        if (e.role.autoStart) {
            e.poller->start();
        }
    }
}

void PollingSource::stop()
{
    m_started = false;
    for (const Entry &e : m_entries) {
        e.poller->stop();
    }
}

void PollingSource::refresh()
{
    for (const Entry &e : m_entries) {
        if (e.role.refresh == Refresh::Always
            || (e.role.refresh == Refresh::WhileWatched && e.poller->subscriberCount() > 0)) {
            e.poller->pollNow();
        }
    }
}

void PollingSource::setPassword(const QString &password)
{
    reconnect(password);
    for (const Entry &e : m_entries) {
        if (e.role.resumeOnPassword) {
            e.poller->resume();
        }
    }
}

bool PollingSource::hasPolledOnce() const
{
    return std::all_of(m_entries.begin(), m_entries.end(), [](const Entry &e) {
        return !e.role.inventory || e.polledOnce || !e.problem.isEmpty();
    });
}

// ---- VolumeSource ----------------------------------------------------------------------------

VolumeSource::VolumeSource(SourceConfig config, Estate &estate, IClock &clock, QThreadPool &pool, QObject *parent)
    : PollingSource(std::move(config), clock, pool, parent)
    , m_estate(estate)
{}

VolumeSource::~VolumeSource() = default;

SystemPoller *VolumeSource::makeSnapshotPoller(const QString &volumeId)
{
    const QString source = m_config.name;
    QPointer<VolumeSource> self(this);
    SystemPoller::Options options =
        pollerOptions(QStringLiteral("snapshots/") + volumeId, std::chrono::seconds(m_config.perfIntervalSeconds));
    options.onDemand = true;
    Role role;
    role.counts = Counts::WhileWatched;
    role.refresh = Refresh::WhileWatched;
    return addPoller(
        options,
        [this, self, source, volumeId] {
            SnapshotJob listing = snapshotJobOf(volumeId);
            PollJob job;
            job.cancel = std::move(listing.cancel);
            job.run = [run = std::move(listing.run), self, source, volumeId]() -> PollOutcome {
                PollOutcome out;
                SnapshotListing result = run();
                if (result.error) {
                    out.error = result.error;
                    return out;
                }
                auto keyedList = keyed(std::move(result.snapshots));
                out.apply = [self, source, volumeId, keyedList] {
                    if (self) {
                        self->m_estate.publishSnapshots(source, volumeId, keyedList);
                    }
                };
                return out;
            };
            return job;
        },
        role);
}

VolumeSource::SnapshotJob VolumeSource::snapshotJobOf(const QString &volumeId)
{
    return snapshotJob(volumeId, m_estate.volume(m_config.name, volumeId));
}

void VolumeSource::subscribeSnapshots(const QString &volumeId)
{
    subscribeKeyedPoller(m_snapshotPollers, volumeId, [this, volumeId] {
        return makeSnapshotPoller(volumeId);
    });
}

void VolumeSource::unsubscribeSnapshots(const QString &volumeId)
{
    SystemPoller *poller = m_snapshotPollers.value(volumeId);
    unsubscribeKeyedPoller(m_snapshotPollers, volumeId);
    if (poller && !m_snapshotPollers.contains(volumeId)) {
        removePoller(poller);
    }
}

void VolumeSource::fetchSnapshots(const QString &volumeId, std::function<void(QString error)> done)
{
    const QString source = m_config.name;
    QPointer<VolumeSource> self(this);
    auto run = snapshotJobOf(volumeId).run;
    // The answer always comes (the CLI counts them): "source removed" when it went meanwhile.
    runOffThread(
        m_pool,
        QCoreApplication::instance(),
        [run] {
            SnapshotListing result = run();
            FetchedSnapshots fetched;
            if (result.error) {
                fetched.error = result.error->message;
            } else {
                fetched.list = keyed(std::move(result.snapshots));
            }
            return fetched;
        },
        [self, source, volumeId, done](FetchedSnapshots fetched) {
            if (self && fetched.list) {
                self->m_estate.publishSnapshots(source, volumeId, fetched.list);
            }
            if (done) {
                done(self ? fetched.error : QStringLiteral("source removed"));
            }
        });
}

void VolumeSource::refreshSnapshots(const QString &volumeId)
{
    if (SystemPoller *p = m_snapshotPollers.value(volumeId)) {
        p->pollNow();
    } else {
        fetchSnapshots(volumeId, {});
    }
}

} // namespace strata::core
