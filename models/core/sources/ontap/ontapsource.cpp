#include "models/core/sources/ontap/ontapsource.h"

#include "connectors/http/curltransport.h"
#include "connectors/ontap/ontapclient.h"
#include "models/core/domain/convert.h"
#include "models/core/domain/estate.h"
#include "models/core/domain/offthread.h"
#include "models/core/services/historyservice.h"
#include "models/core/services/servicelevels.h"
#include "models/core/sources/connectorerror.h"
#include "models/core/sources/ontap/ontapvolumes.h"
#include "models/core/sources/systempoller.h"

#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QSet>
#include <QThreadPool>

#include <algorithm>
#ifdef __GLIBC__
#include <malloc.h>
#endif

Q_LOGGING_CATEGORY(lcOntap, "strata.ontap", QtInfoMsg)

namespace strata::core {

namespace {

using namespace std::chrono_literals;

// glibc keeps what a thread frees in that thread's arena, and the pool runs each poll on whichever
// thread is free: after polls of a large estate every arena held a poll's worth of released
// records (140 MiB of RSS at 50,000 volumes). Trimmed on the pool once the poll is applied and its
// closure, which holds the list it replaced, is gone (queued behind it), so one trim returns both
// the poll's transient memory and the replaced records; only for estates worth a heap walk.
constexpr std::size_t kOntapTrimMinVolumes = 5000;

void releaseFreedHeapAfterPoll(QObject *context, QThreadPool &pool)
{
#ifdef __GLIBC__
    QMetaObject::invokeMethod(
        context,
        [&pool] {
            pool.start([] {
                malloc_trim(0);
            });
        },
        Qt::QueuedConnection);
#else
    Q_UNUSED(context);
    Q_UNUSED(pool);
#endif
}

Snapshot toSnapshot(const ontap::Snapshot &s, const QString &source, const QString &volumeId, const Volume *volume)
{
    Snapshot out;
    out.source = source;
    out.id = qs(s.uuid);
    out.volumeId = volumeId;
    out.volumeName = s.volume.name.empty() && volume ? volume->name : qs(s.volume.name);
    out.svm = s.svm.name.empty() && volume ? volume->svm : qs(s.svm.name);
    out.name = qs(s.name);
    out.created = parseOntapTime(s.createTime);
    out.comment = qs(s.comment);
    out.snapmirrorLabel = qs(s.snapmirrorLabel);
    out.state = qs(s.state);
    out.sizeBytes = s.sizeBytes;
    return out;
}

/// File datasets (SourceConfig::datasetRoots, "svm/volume" or "volume"): one Dataset per
/// matching volume, its snapshots as commits (oldest first = the parent chain), as the
/// DataOps Toolkit treats snapshots. Caching a commit is a FlexClone of its snapshot.
struct FileDatasets
{
    std::vector<Ptr<Dataset>> datasets;
    std::vector<Ptr<Commit>> commits;
};

connectors::Result<FileDatasets> readFileDatasets(ontap::OntapClient &client,
                                                  const KeyedList<Volume> &volumes,
                                                  const QStringList &roots,
                                                  const QString &source,
                                                  const http::CancelToken &token)
{
    FileDatasets out;
    for (const Ptr<Volume> &v : volumes.items()) {
        if (!roots.contains(v->svm + QLatin1Char('/') + v->name) && !roots.contains(v->name)) {
            continue;
        }
        auto snapshots = client.listSnapshots(ss(v->id), token);
        if (!snapshots) {
            return connectors::fail(snapshots.error());
        }
        std::vector<ontap::Snapshot> sorted = *snapshots;
        std::stable_sort(sorted.begin(), sorted.end(), [](const ontap::Snapshot &a, const ontap::Snapshot &b) {
            return parseOntapTime(a.createTime) < parseOntapTime(b.createTime);
        });
        Dataset d;
        d.source = source;
        d.id = v->id;
        d.name = v->name;
        d.kind = DatasetKind::OntapVolume;
        d.volumeId = v->id;
        d.commitCount = int(sorted.size());
        d.sizeBytes = v->usedBytes.value_or(0);
        QString parent;
        std::vector<Ptr<Commit>> commits;
        for (const ontap::Snapshot &snapshot : sorted) {
            Commit c;
            c.source = source;
            c.id = qs(snapshot.uuid);
            c.datasetId = v->id;
            c.datasetName = v->name;
            c.parent = parent;
            c.message = snapshot.comment.empty() ? qs(snapshot.name) : qs(snapshot.comment);
            c.time = parseOntapTime(snapshot.createTime);
            c.manifestKey = qs(snapshot.name); // the snapshot a FlexClone is made from
            parent = c.id;
            d.headCommit = c.id;
            if (c.time.isValid() && (!d.lastActivity.isValid() || c.time > d.lastActivity)) {
                d.lastActivity = c.time;
            }
            commits.push_back(std::make_shared<const Commit>(std::move(c)));
        }
        // Newest first, like S3 datasets.
        out.commits.insert(out.commits.end(), commits.rbegin(), commits.rend());
        out.datasets.push_back(std::make_shared<const Dataset>(std::move(d)));
    }
    return out;
}

/// The request's snapshot: from the list the Volumes page loaded, else from the volume's file
/// dataset (a commit of an OntapVolume dataset is a snapshot: id = uuid, manifestKey = name),
/// so "Cache on… FlexClone" works from the Datasets page without opening the volume first.
Ptr<Snapshot> findSnapshot(const Estate &estate, const ActionRequest &request)
{
    if (request.snapshotId.isEmpty()) {
        return nullptr;
    }
    const QString key = request.source + QLatin1Char('/') + request.snapshotId;
    if (const auto snapshots = estate.snapshots().scope(Estate::snapshotScope(request.source, request.volumeId))) {
        if (Ptr<Snapshot> s = snapshots->find(key)) {
            return s;
        }
    }
    const Ptr<Commit> commit = estate.commits().find(request.source, key);
    const Ptr<Volume> volume = estate.volume(request.source, request.volumeId);
    if (!commit || !volume || commit->datasetId != request.volumeId) {
        return nullptr;
    }
    Snapshot s;
    s.source = request.source;
    s.id = request.snapshotId;
    s.volumeId = volume->id;
    s.volumeName = volume->name;
    s.svm = volume->svm;
    s.name = commit->manifestKey;
    s.created = commit->time;
    s.comment = commit->message;
    return std::make_shared<const Snapshot>(std::move(s));
}

http::CancelToken makeToken()
{
    return http::CancelToken();
}

} // namespace

/// The transport and client of one source with one set of credentials. Immutable: a password
/// change makes a new Connection while running jobs finish with the old one.
struct OntapSource::Connection
{
    std::unique_ptr<http::CurlTransport> transport;
    std::unique_ptr<ontap::OntapClient> client;

    static std::shared_ptr<Connection>
    make(const SourceConfig &config, const QString &password, std::chrono::milliseconds requestTimeout)
    {
        auto c = std::make_shared<Connection>();
        c->transport = std::make_unique<http::CurlTransport>(sourceTransportOptions(
            config, std::min<std::chrono::milliseconds>(10s, requestTimeout), requestTimeout, 4, &lcOntap()));
        ontap::OntapClientOptions o;
        o.http.baseUrl = ss(config.url);
        o.http.basic = http::BasicAuth{ss(config.username), ss(password)};
        o.http.retry.maxAttempts = 3;
        o.http.retry.baseDelay = 500ms;
        o.http.retry.maxElapsed = 60s;
        c->client = std::make_unique<ontap::OntapClient>(*c->transport, std::move(o));
        return c;
    }
};

OntapSource::OntapSource(SourceConfig config, QString password, Deps deps, QObject *parent)
    : VolumeSource(std::move(config), deps.estate, deps.clock, deps.pool, parent)
    , m_deps(deps)
    , m_connection(Connection::make(m_config, password, deps.requestTimeout))
{
    const QString source = m_config.name;
    QPointer<OntapSource> self(this);

    m_inventory = addInventoryPoller(QStringLiteral("inventory"), [this, self, source] {
        auto conn = m_connection;
        const http::CancelToken token = makeToken();
        const auto base = m_deps.estate.volumes().scope(source);
        const QStringList roots = m_config.datasetRoots;
        PollJob job;
        job.cancel = cancelling(token);
        job.run = [conn, token, base, source, self, roots]() -> PollOutcome {
            PollOutcome out;
            auto &client = *conn->client;
            // Each read needs the ones before it to have answered: the first failure ends the poll.
            auto cluster = client.cluster(token);
            auto svms = cluster ? client.listSvms(token) : connectors::fail(cluster.error());
            auto aggregates = svms ? client.listAggregates(token) : connectors::fail(svms.error());
            // Each volume is taken as its page arrives, so the connector's records of only one
            // page are alive at a time, and only the new and changed ones are converted;
            // isFlexCache is set once the FlexCache list is in.
            OntapVolumeList volumeList(source, base);
            auto volumes = aggregates ? client.forEachVolume(
                               false,
                               [&](ontap::Volume &&v) {
                                   volumeList.add(v);
                               },
                               token)
                                      : connectors::fail(aggregates.error());
            auto qos = volumes ? client.listQosPolicies(token) : connectors::fail(volumes.error());
            if (!qos) {
                out.error = toFetchError(qos.error());
                return out;
            }
            // FlexCache needs a licence on some systems: its absence must not fail the poll.
            auto flexCaches = client.listFlexCaches(token);

            std::vector<Ptr<Svm>> svmList;
            for (const auto &s : *svms) {
                svmList.push_back(std::make_shared<const Svm>(Svm{source, qs(s.uuid), qs(s.name), qs(s.state)}));
            }
            std::vector<Ptr<Aggregate>> aggrList;
            for (const auto &a : *aggregates) {
                aggrList.push_back(std::make_shared<const Aggregate>(Aggregate{source,
                                                                               qs(a.uuid),
                                                                               qs(a.name),
                                                                               qs(a.node),
                                                                               qs(a.state),
                                                                               a.sizeBytes,
                                                                               a.usedBytes,
                                                                               a.availableBytes}));
            }
            std::vector<Ptr<QosPolicy>> qosList;
            for (const auto &p : *qos) {
                QosPolicy q;
                q.source = source;
                q.id = qs(p.uuid);
                q.name = qs(p.name);
                q.svm = qs(p.svm.name);
                q.adaptive = p.isAdaptive;
                q.maxIops = p.maxIops;
                q.maxMbps = p.maxMbps;
                q.minIops = p.minIops;
                q.expectedIopsPerTb = p.expectedIopsPerTb;
                q.peakIopsPerTb = p.peakIopsPerTb;
                q.objectCount = p.objectCount;
                qosList.push_back(std::make_shared<const QosPolicy>(std::move(q)));
            }
            std::vector<Ptr<FlexCache>> cacheList;
            QSet<QString> cacheIds;
            if (flexCaches) {
                for (const auto &f : *flexCaches) {
                    FlexCache c;
                    c.source = source;
                    c.id = qs(f.uuid);
                    c.name = qs(f.name);
                    c.svm = qs(f.svm.name);
                    c.sizeBytes = f.sizeBytes;
                    c.path = qs(f.path);
                    if (!f.origins.empty()) {
                        const auto &o = f.origins.front();
                        c.origin =
                            qs(o.clusterName) + QLatin1Char(':') + qs(o.svmName) + QLatin1Char(':') + qs(o.volumeName);
                    }
                    cacheIds.insert(c.id);
                    cacheList.push_back(std::make_shared<const FlexCache>(std::move(c)));
                }
            }
            OntapVolumeList::Result listed = volumeList.finish(cacheIds);
            auto volumesKeyed = std::move(listed.volumes);
            auto diff = std::make_shared<VolumeDiff>(std::move(listed.diff));
            auto usage = std::make_shared<std::vector<VolumeUsage>>(std::move(listed.usage));
            auto svmsKeyed = keyed(std::move(svmList));
            auto aggrKeyed = keyed(std::move(aggrList));
            auto qosKeyed = keyed(std::move(qosList));
            auto cacheKeyed = keyed(std::move(cacheList));
            std::shared_ptr<const KeyedList<Dataset>> datasetsKeyed;
            std::shared_ptr<const KeyedList<Commit>> commitsKeyed;
            if (!roots.isEmpty()) {
                auto files = readFileDatasets(client, *volumesKeyed, roots, source, token);
                if (!files) {
                    out.error = toFetchError(files.error());
                    return out;
                }
                datasetsKeyed = keyed(std::move(files->datasets));
                commitsKeyed = keyed(std::move(files->commits));
            }
            out.systemName = qs(cluster->name);
            out.systemVersion = QStringLiteral("%1.%2.%3")
                                    .arg(cluster->versionGeneration)
                                    .arg(cluster->versionMajor)
                                    .arg(cluster->versionMinor);
            const QString systemName = out.systemName;
            const QString systemVersion = out.systemVersion;
            out.apply = [self,
                         source,
                         volumesKeyed,
                         base,
                         diff,
                         svmsKeyed,
                         aggrKeyed,
                         qosKeyed,
                         cacheKeyed,
                         usage,
                         systemName,
                         systemVersion,
                         datasetsKeyed,
                         commitsKeyed] {
                if (!self) {
                    return;
                }
                self->m_systemName = systemName;
                self->m_systemVersion = systemVersion;
                Estate &estate = self->m_deps.estate;
                estate.publishInventory(source, svmsKeyed, aggrKeyed, qosKeyed, cacheKeyed);
                estate.publishVolumes(source, volumesKeyed, base, diff.get());
                if (datasetsKeyed) {
                    estate.publishDatasets(source, DatasetPublish{datasetsKeyed, commitsKeyed});
                }
                if (self->m_deps.history) {
                    self->m_deps.history->recordVolumeUsage(source, std::move(*usage), self->m_deps.clock.now());
                }
                if (volumesKeyed->size() >= kOntapTrimMinVolumes) {
                    releaseFreedHeapAfterPoll(self, self->m_deps.pool);
                }
            };
            return out;
        };
        return job;
    });

    // Added before the performance pollers: a degraded event poll names the problem first.
    m_events = addPoller(
        pollerOptions(QStringLiteral("events"), std::chrono::seconds(m_config.perfIntervalSeconds)),
        [this, self, source] {
            auto conn = m_connection;
            const http::CancelToken token = makeToken();
            PollJob job;
            job.cancel = cancelling(token);
            job.run = [conn, token, source, self]() -> PollOutcome {
                PollOutcome out;
                auto events = conn->client->listEmsEvents(200, token);
                if (!events) {
                    out.error = toFetchError(events.error());
                    return out;
                }
                std::vector<Ptr<Event>> list;
                for (const auto &e : *events) {
                    Event ev;
                    ev.source = source;
                    ev.id = qs(e.node) + QLatin1Char('/') + QString::number(e.index);
                    ev.time = parseOntapTime(e.time);
                    ev.severity = qs(e.severity);
                    ev.name = qs(e.messageName);
                    ev.message = qs(e.logMessage);
                    ev.node = qs(e.node);
                    list.push_back(std::make_shared<const Event>(std::move(ev)));
                }
                auto keyedList = keyed(std::move(list));
                out.apply = [self, source, keyedList] {
                    if (self) {
                        self->m_deps.estate.publishEvents(source, keyedList);
                    }
                };
                return out;
            };
            return job;
        },
        Role());

    // Performance: every perf interval while someone watches (m_perf, on demand, published to
    // the estate), and at least every kPerfHistorySeconds regardless (m_perfHistory, recorded
    // only), so service-level p95 figures and the observed-vs-cap chart have history from the
    // start. The background poll stays idle while the on-demand one runs at least as often.
    const bool foregroundCoversHistory = m_config.perfIntervalSeconds <= kPerfHistorySeconds;
    const auto perfJob = [this, self, source, foregroundCoversHistory](bool background) {
        auto conn = m_connection;
        const http::CancelToken token = makeToken();
        const QDateTime now = m_deps.clock.now();
        PollJob job;
        job.cancel = cancelling(token);
        job.run = [conn, token, source, self, now, background]() -> PollOutcome {
            PollOutcome out;
            auto volumes = conn->client->listVolumeMetrics(token);
            if (!volumes) {
                out.error = toFetchError(volumes.error());
                return out;
            }
            std::vector<Ptr<VolumePerf>> list;
            list.reserve(volumes->size());
            for (const auto &v : *volumes) {
                if (!v.metric) {
                    continue;
                }
                VolumePerf p;
                p.source = source;
                p.id = qs(v.uuid);
                p.time = parseOntapTime(v.metric->timestamp);
                if (!p.time.isValid()) {
                    p.time = now;
                }
                p.readIops = v.metric->readIops;
                p.writeIops = v.metric->writeIops;
                p.totalIops = v.metric->totalIops;
                p.throughputBps = v.metric->totalThroughputBps;
                p.latencyUs = v.metric->totalLatencyUs;
                list.push_back(std::make_shared<const VolumePerf>(std::move(p)));
            }
            auto keyedList = keyed(std::move(list));
            // The background poll only feeds history: views show performance while they watch.
            out.apply = [self, source, keyedList, background] {
                if (!self) {
                    return;
                }
                if (!background) {
                    self->m_deps.estate.publishVolumePerf(source, keyedList);
                }
                self->recordPerf(*keyedList);
            };
            return out;
        };
        if (background && foregroundCoversHistory && m_perf->subscriberCount() > 0) {
            job.run = [] {
                return PollOutcome{};
            };
        }
        return job;
    };

    const auto addPerfPoller = [this, &perfJob](const QString &what, int seconds, bool background) {
        SystemPoller::Options options = pollerOptions(what, std::chrono::seconds(seconds));
        options.onDemand = !background;
        Role role;
        role.counts = background ? Counts::Never : Counts::WhileWatched;
        role.refresh = background ? Refresh::Never : Refresh::WhileWatched;
        return addPoller(
            options,
            [perfJob, background] {
                return perfJob(background);
            },
            role);
    };
    m_perf = addPerfPoller(QStringLiteral("performance"), m_config.perfIntervalSeconds, false);
    m_perfHistory = addPerfPoller(QStringLiteral("performance-history"), kPerfHistorySeconds, true);
}

OntapSource::~OntapSource() = default;

void OntapSource::recordPerf(const KeyedList<VolumePerf> &perf)
{
    if (!m_deps.history) {
        return;
    }
    const QDateTime now = m_deps.clock.now();
    // Both perf pollers land here; history keeps one sample per ~5 minutes.
    if (m_lastPerfRecord.isValid() && m_lastPerfRecord.secsTo(now) < kPerfHistorySeconds - 60) {
        return;
    }
    m_lastPerfRecord = now;
    std::vector<VolumePerfSample> samples;
    samples.reserve(perf.size());
    for (const Ptr<VolumePerf> &p : perf.items()) {
        VolumePerfSample s;
        s.volumeId = p->id;
        s.throughputBps = p->throughputBps;
        s.iops = p->totalIops;
        s.latencyUs = p->latencyUs;
        if (const Ptr<Volume> volume = m_deps.estate.volume(p->source, p->id)) {
            const LevelCap cap = levelCapOf(m_deps.estate, *volume);
            s.capBps = cap.mibps > 0 ? cap.mibps * 1024.0 * 1024.0 : -1;
        }
        samples.push_back(std::move(s));
    }
    m_deps.history->recordVolumePerf(m_config.name, std::move(samples), now);
}

OntapSource::SnapshotJob OntapSource::snapshotJob(const QString &volumeId, const Ptr<Volume> &volume)
{
    auto conn = m_connection;
    const http::CancelToken token = makeToken();
    const QString source = m_config.name;
    auto run = [conn, token, source, volumeId, volume] {
        SnapshotListing out;
        auto snapshots = conn->client->listSnapshots(ss(volumeId), token);
        if (!snapshots) {
            out.error = toFetchError(snapshots.error());
            return out;
        }
        for (const auto &s : *snapshots) {
            out.snapshots.push_back(std::make_shared<const Snapshot>(toSnapshot(s, source, volumeId, volume.get())));
        }
        return out;
    };
    return SnapshotJob{run, cancelling(token)};
}

void OntapSource::describe(SourceStatus &status) const
{
    status.kind = SourceKind::Ontap;
    status.systemName = m_systemName;
    status.systemVersion = m_systemVersion;
}

void OntapSource::reconnect(const QString &password)
{
    m_connection = Connection::make(m_config, password, m_deps.requestTimeout);
}

void OntapSource::subscribePerformance()
{
    m_perf->addSubscriber();
}

void OntapSource::unsubscribePerformance()
{
    m_perf->removeSubscriber();
}

// ---- actions ---------------------------------------------------------------------------------

namespace {

const QRegularExpression &snapshotNamePattern()
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9_.\\-]{0,254}$"));
    return re;
}

const QRegularExpression &volumeNamePattern()
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]{0,202}$"));
    return re;
}

} // namespace

ActionPreview OntapSource::previewServiceLevel(const ActionRequest &request) const
{
    ActionPreview p;
    p.title = tr("Change QoS policy");
    const Estate &estate = m_deps.estate;
    const Ptr<Volume> volume = estate.volume(request.source, request.volumeId);
    if (!volume) {
        p.target = request.volumeId;
        p.blockedReason = tr("Volume %1 is not known to %2 (yet).").arg(request.volumeId, request.source);
        return p;
    }
    const QString volumeLabel = volume->svm + QLatin1Char('/') + volume->name;
    p.target = serviceLevelAuditTarget(volumeLabel, volume->id);
    const auto policyText = [](const QString &name) {
        return name.isEmpty() ? tr("no QoS policy") : tr("QoS policy \"%1\"").arg(name);
    };
    p.fromState = policyText(volume->qosPolicy);
    p.toState = policyText(request.targetLevel);
    Ptr<QosPolicy> policy;
    if (!request.targetLevel.isEmpty()) {
        if (const auto policies = estate.qosPolicies().scope(request.source)) {
            for (const Ptr<QosPolicy> &q : policies->items()) {
                if (q->name == request.targetLevel && (q->svm == volume->svm || q->svm.isEmpty())) {
                    policy = q;
                }
            }
        }
        if (!policy) {
            p.blockedReason = tr("SVM %1 has no QoS policy \"%2\" (create it on the cluster first).")
                                  .arg(volume->svm, request.targetLevel);
            return p;
        }
    }
    if (request.targetLevel == volume->qosPolicy) {
        p.effects << tr("%1 already has %2: nothing changes.").arg(volumeLabel, policyText(request.targetLevel));
    } else if (policy) {
        p.effects << tr("ONTAP applies QoS policy \"%1\" to %2 through an asynchronous job; clients stay connected "
                        "and no data moves.")
                         .arg(policy->name, volumeLabel);
        if (policy->adaptive) {
            p.effects << tr("The policy is adaptive: its IOPS limit grows with the volume's size.");
        } else if (policy->objectCount > 0) {
            p.effects << tr("The policy is shared: its limit covers all %n object(s) under it together.",
                            nullptr,
                            policy->objectCount + 1);
        }
    } else {
        p.effects << tr("ONTAP removes the QoS policy from %1: its throughput is no longer limited.").arg(volumeLabel);
    }
    if (volume->state != QLatin1String("online")) {
        p.blockedReason = tr("Volume %1 is %2.").arg(volumeLabel, volume->state);
    }
    if (m_deps.serviceLevels) {
        m_deps.serviceLevels->annotatePreview(request, &p);
    }
    return p;
}

ActionPreview OntapSource::preview(const ActionRequest &request) const
{
    if (request.kind == ActionKind::ServiceLevelChange) {
        return previewServiceLevel(request);
    }
    ActionPreview p;
    const Estate &estate = m_deps.estate;
    const Ptr<Volume> volume = estate.volume(request.source, request.volumeId);
    const auto snapshots = estate.snapshots().scope(Estate::snapshotScope(request.source, request.volumeId));
    const Ptr<Snapshot> snapshot = findSnapshot(estate, request);
    const QString volumeLabel = volume ? volume->svm + QLatin1Char('/') + volume->name : request.volumeId;

    switch (request.kind) {
    case ActionKind::SnapshotCreate:
        p.title = tr("Create snapshot");
        p.target = volumeLabel + QLatin1Char('@') + request.name;
        break;
    case ActionKind::SnapshotDelete:
        p.title = tr("Delete snapshot");
        break;
    case ActionKind::SnapshotRestore:
        p.title = tr("Restore volume from snapshot");
        break;
    case ActionKind::VolumeClone:
        p.title = tr("Clone volume from snapshot");
        break;
    case ActionKind::JobSubmit:
    case ActionKind::JobDelete:
    case ActionKind::ProjectQuotaEdit:
    case ActionKind::DatasetCommit:
    case ActionKind::CacheCommit:
    case ActionKind::CacheEvict:
    case ActionKind::ServiceLevelChange:
        p.title = actionKindName(request.kind);
        p.blockedReason = tr("%1 is an ONTAP cluster: it runs no jobs.").arg(request.source);
        return p;
    }
    if (!volume) {
        p.blockedReason = tr("Volume %1 is not known to %2 (yet).").arg(request.volumeId, request.source);
        return p;
    }
    if (request.kind != ActionKind::SnapshotCreate) {
        if (!snapshot) {
            p.blockedReason =
                tr("Snapshot %1 of %2 is not in the loaded snapshot list.").arg(request.snapshotId, volumeLabel);
            return p;
        }
        p.target = volumeLabel + QLatin1Char('@') + snapshot->name;
    }
    const int count = snapshots ? int(snapshots->size()) : volume->snapshotCount;

    switch (request.kind) {
    case ActionKind::SnapshotCreate: {
        p.fromState = tr("%n snapshot(s)", nullptr, count);
        p.toState = tr("%n snapshot(s)", nullptr, count + 1);
        p.effects << tr("ONTAP takes snapshot \"%1\" of %2 (%3 used) through an asynchronous job.")
                         .arg(request.name, volumeLabel, formatBytes(volume->usedBytes));
        p.effects << tr("It takes no space at first; it then holds the blocks that change (snapshot reserve %1%, %2 "
                        "used by snapshots now).")
                         .arg(volume->snapshotReservePercent)
                         .arg(formatBytes(volume->snapshotUsedBytes));
        if (!snapshotNamePattern().match(request.name).hasMatch()) {
            p.blockedReason =
                tr("\"%1\" is not a valid snapshot name (letters, digits, _ . -; at most 255 characters).")
                    .arg(request.name);
        } else if (snapshots) {
            for (const Ptr<Snapshot> &s : snapshots->items()) {
                if (s->name == request.name) {
                    p.blockedReason = tr("%1 already has a snapshot named \"%2\".").arg(volumeLabel, request.name);
                }
            }
        }
        if (volume->state != QLatin1String("online") && p.blockedReason.isEmpty()) {
            p.blockedReason =
                tr("Volume %1 is %2; ONTAP can only snapshot an online volume.").arg(volumeLabel, volume->state);
        }
        break;
    case ActionKind::JobSubmit:
    case ActionKind::JobDelete:
    case ActionKind::ProjectQuotaEdit:
    case ActionKind::DatasetCommit:
    case ActionKind::CacheCommit:
    case ActionKind::CacheEvict:
    case ActionKind::ServiceLevelChange:
        break;
    }
    case ActionKind::SnapshotDelete: {
        p.destructive = true;
        p.fromState = tr("%n snapshot(s)", nullptr, count);
        p.toState = tr("%n snapshot(s)", nullptr, count - 1);
        p.effects << tr("ONTAP deletes snapshot \"%1\" (taken %2) of %3.")
                         .arg(snapshot->name, previewTimeText(snapshot->created), volumeLabel);
        if (snapshot->sizeBytes > 0) {
            p.effects << tr("About %1 held only by this snapshot is freed.").arg(formatBytes(snapshot->sizeBytes));
        }
        p.warnings << tr("The snapshot cannot be recovered once deleted.");
        if (!snapshot->snapmirrorLabel.isEmpty()) {
            p.warnings << tr("It carries the SnapMirror label \"%1\": a protection relationship may expect it.")
                              .arg(snapshot->snapmirrorLabel);
        }
        for (const Ptr<Volume> &v : estate.volumes().all(request.source + QLatin1Char('/'))) {
            if (v->source == request.source && v->cloneParent == volume->name + QLatin1Char('@') + snapshot->name) {
                p.blockedReason = tr("FlexClone %1/%2 depends on this snapshot; split or delete the clone first.")
                                      .arg(v->svm, v->name);
            }
        }
        break;
    }
    case ActionKind::SnapshotRestore: {
        p.destructive = true;
        p.fromState = tr("current contents (%1 used)").arg(formatBytes(volume->usedBytes));
        p.toState = tr("contents of %1 (%2)").arg(snapshot->name, previewTimeText(snapshot->created));
        p.effects << tr("ONTAP reverts %1 to snapshot \"%2\" (SnapRestore of the whole volume).")
                         .arg(volumeLabel, snapshot->name);
        p.warnings
            << tr("Everything written to %1 after %2 is lost.").arg(volumeLabel, previewTimeText(snapshot->created));
        QStringList newer;
        if (snapshots && snapshot->created.isValid()) {
            for (const Ptr<Snapshot> &s : snapshots->items()) {
                if (s->created.isValid() && s->created > snapshot->created) {
                    newer << s->name;
                }
            }
        }
        // ONTAP refuses to restore past a snapshot that backs a FlexClone.
        for (const Ptr<Volume> &v : estate.volumes().all(request.source)) {
            if (v->source != request.source || v->svm != volume->svm) {
                continue;
            }
            for (const QString &name : std::as_const(newer)) {
                if (v->cloneParent == volume->name + QLatin1Char('@') + name) {
                    p.blockedReason = tr("Newer snapshot \"%1\" backs FlexClone %2/%3, so ONTAP cannot restore past "
                                         "it; split or delete the clone first.")
                                          .arg(name, v->svm, v->name);
                }
            }
        }
        if (!newer.isEmpty()) {
            p.warnings << tr("%n newer snapshot(s) will be deleted: %1", nullptr, int(newer.size()))
                              .arg(newer.mid(0, 8).join(QStringLiteral(", "))
                                   + (newer.size() > 8 ? QStringLiteral(", …") : QString()));
        }
        p.warnings << tr("Clients that have the volume mounted may need to remount.");
        if (volume->state != QLatin1String("online") && p.blockedReason.isEmpty()) {
            p.blockedReason = tr("Volume %1 is %2.").arg(volumeLabel, volume->state);
        }
        break;
    }
    case ActionKind::VolumeClone: {
        p.fromState = tr("no volume %1 in %2").arg(request.name, volume->svm);
        p.toState = tr("FlexClone %1/%2 of %3").arg(volume->svm, request.name, p.target);
        p.effects << tr("ONTAP creates FlexClone volume %1/%2 from %3.").arg(volume->svm, request.name, p.target);
        p.effects << tr("The clone shares blocks with its parent and uses no space until data diverges.");
        p.warnings
            << tr("Snapshot \"%1\" cannot be deleted while the clone exists (until it is split).").arg(snapshot->name);
        if (!volumeNamePattern().match(request.name).hasMatch()) {
            p.blockedReason =
                tr("\"%1\" is not a valid volume name (a letter or _, then letters, digits or _).").arg(request.name);
        }
        for (const Ptr<Volume> &v : estate.volumes().all(request.source)) {
            if (v->source == request.source && v->svm == volume->svm && v->name == request.name) {
                p.blockedReason = tr("SVM %1 already has a volume named %2.").arg(volume->svm, request.name);
            }
        }
        break;
    }
    }
    return p;
}

namespace {

struct Reconciler
{
    ontap::OntapClient &client;
    const ActionContext &ctx;

    void progress(int percent, const QString &text) const
    {
        if (ctx.progress) {
            ctx.progress(ActionProgress{percent, text});
        }
    }

    /// Recovery after a restart: the journaled job to its end, else a job of ours ONTAP ran
    /// meanwhile (`descriptionGlob`); nullopt when there is none.
    std::optional<connectors::Result<ontap::Job>> followInterrupted(const std::string &descriptionGlob) const
    {
        if (!ctx.handle.isEmpty()) {
            progress(-1, QObject::tr("Following ONTAP job %1 after the restart").arg(ctx.handle));
            return client.waitForJob(ss(ctx.handle), jobProgress(), {});
        }
        progress(-1, QObject::tr("Looking for the ONTAP job of this action"));
        return followLostJob(descriptionGlob);
    }

    /// The outcome of an interrupted action whose effect is absent (or cannot be read).
    ActionResult interruptedWithoutEffect(const std::optional<connectors::Result<ontap::Job>> &job,
                                          const std::optional<bool> &effect,
                                          const QString &what) const
    {
        if (job && !*job && !job->error().outcomeUnknown) {
            return actionFailed(qs(job->error().message));
        }
        if (!effect) {
            return actionFailed(QObject::tr("Strata stopped while %1 ran and ONTAP cannot be asked now; it was not "
                                            "sent again. Check the volume before retrying.")
                                    .arg(what));
        }
        return actionFailed(QObject::tr("Strata stopped before %1 reached ONTAP (ONTAP has no job for it and the "
                                        "change is not there); it was not sent again. Retry it if it is still wanted.")
                                .arg(what));
    }

    ontap::JobProgress jobProgress() const
    {
        return [this](const ontap::Job &job) {
            // The first read of the job is ONTAP's acceptance: journal its uuid to follow it
            // after a restart.
            ctx.accepted(qs(job.uuid));
            const int percent = job.state == "queued" ? 10 : job.state == "running" ? 50 : 100;
            progress(percent, QObject::tr("ONTAP job %1: %2").arg(qs(job.state), qs(job.message)));
        };
    }

    /// Waits for a job of ours that ONTAP may have started before the response was lost.
    /// Returns: nullopt = no such job; true/false = that job's outcome.
    std::optional<connectors::Result<ontap::Job>> followLostJob(const std::string &descriptionGlob) const
    {
        auto jobs = client.findJobs(descriptionGlob);
        if (!jobs) {
            return std::nullopt;
        }
        // ONTAP clocks and ours differ: accept jobs started shortly before our first attempt.
        const QDateTime since = ctx.submitted.addSecs(-300);
        for (const ontap::Job &job : *jobs) {
            const QDateTime started = parseOntapTime(job.startTime);
            if (started.isValid() && started < since) {
                continue;
            }
            if (job.isTerminal()) {
                if (job.state == "success") {
                    return connectors::Result<ontap::Job>(job);
                }
                continue;
            }
            return client.waitForJob(job.uuid, jobProgress(), {});
        }
        return std::nullopt;
    }
};

} // namespace

std::function<ActionResult(const ActionContext &)> OntapSource::prepare(const ActionRequest &request)
{
    auto conn = m_connection;
    const Ptr<Volume> volume = m_deps.estate.volume(request.source, request.volumeId);
    const Ptr<Snapshot> snapshot = findSnapshot(m_deps.estate, request);
    const QString volumeName = volume ? volume->name : QString();
    const QString svmName = volume ? volume->svm : QString();
    const QString snapshotName = snapshot ? snapshot->name : QString();

    return [conn, request, volumeName, svmName, snapshotName](const ActionContext &ctx) -> ActionResult {
        ontap::OntapClient &client = *conn->client;
        const Reconciler rec{client, ctx};
        const std::string volumeUuid = ss(request.volumeId);

        auto snapshotExists = [&](const auto &match) -> std::optional<bool> {
            auto list = client.listSnapshots(volumeUuid);
            if (!list) {
                return std::nullopt;
            }
            for (const auto &s : *list) {
                if (match(s)) {
                    return true;
                }
            }
            return false;
        };
        auto byName = [&](const ontap::Snapshot &s) {
            return qs(s.name) == request.name;
        };
        auto byUuid = [&](const ontap::Snapshot &s) {
            return qs(s.uuid) == request.snapshotId;
        };
        auto cloneExists = [&]() -> std::optional<bool> {
            auto list = client.findVolumesByName(ss(svmName), ss(request.name));
            if (!list) {
                return std::nullopt;
            }
            return !list->empty();
        };

        switch (request.kind) {
        case ActionKind::SnapshotCreate: {
            const std::string glob = "POST /api/storage/volumes/" + volumeUuid + "/snapshots*";
            if (ctx.recovery) {
                const auto job = rec.followInterrupted(glob);
                const auto exists = snapshotExists(byName);
                if (exists.value_or(false)) {
                    return ActionResult{
                        true,
                        ctx.handle.isEmpty(),
                        QObject::tr("Snapshot \"%1\" of %2/%3 created.").arg(request.name, svmName, volumeName)};
                }
                return rec.interruptedWithoutEffect(
                    job, exists, QObject::tr("the creation of snapshot \"%1\"").arg(request.name));
            }
            if (ctx.attempt > 1) {
                if (snapshotExists(byName).value_or(false)) {
                    return actionReconciled(
                        QObject::tr("Snapshot \"%1\" already exists (an earlier attempt succeeded); not created again.")
                            .arg(request.name));
                }
                if (auto job = rec.followLostJob(glob); job && *job && snapshotExists(byName).value_or(false)) {
                    return actionReconciled(
                        QObject::tr("Snapshot \"%1\" was created by an earlier attempt.").arg(request.name));
                }
            }
            rec.progress(0, QObject::tr("Submitting to ONTAP"));
            if (!ctx.sending()) {
                return actionFailed(QObject::tr("not sent"));
            }
            auto r = client.createSnapshot(volumeUuid, ss(request.name), ss(request.comment), rec.jobProgress());
            if (r) {
                return ActionResult{
                    true,
                    false,
                    QObject::tr("Snapshot \"%1\" of %2/%3 created.").arg(request.name, svmName, volumeName)};
            }
            if (r.error().outcomeUnknown) {
                rec.progress(-1, QObject::tr("Response lost; checking what ONTAP did"));
                if (auto job = rec.followLostJob(glob); job && *job) {
                    return actionReconciled(
                        QObject::tr("Snapshot \"%1\" created (confirmed after the response was lost).")
                            .arg(request.name));
                }
                if (snapshotExists(byName).value_or(false)) {
                    return actionReconciled(
                        QObject::tr("Snapshot \"%1\" created (confirmed after the response was lost).")
                            .arg(request.name));
                }
                return actionFailed(
                    QObject::tr("%1. ONTAP has no snapshot \"%2\": it was not applied, so retrying is safe.")
                        .arg(qs(r.error().message), request.name));
            }
            return actionFailed(qs(r.error().message));
        }
        case ActionKind::SnapshotDelete: {
            if (ctx.attempt > 1 && snapshotExists(byUuid) == std::optional<bool>(false)) {
                return actionReconciled(
                    QObject::tr("Snapshot \"%1\" is already gone; nothing to delete.").arg(snapshotName));
            }
            rec.progress(0, QObject::tr("Submitting to ONTAP"));
            auto r = client.deleteSnapshot(volumeUuid, ss(request.snapshotId), rec.jobProgress());
            if (r) {
                return ActionResult{
                    true,
                    false,
                    QObject::tr("Snapshot \"%1\" of %2/%3 deleted.").arg(snapshotName, svmName, volumeName)};
            }
            if (r.error().outcomeUnknown) {
                rec.followLostJob("DELETE /api/storage/volumes/" + volumeUuid + "/snapshots/" + ss(request.snapshotId)
                                  + "*");
                if (snapshotExists(byUuid) == std::optional<bool>(false)) {
                    return actionReconciled(
                        QObject::tr("Snapshot \"%1\" deleted (confirmed after the response was lost).")
                            .arg(snapshotName));
                }
                return actionFailed(
                    QObject::tr("%1. The snapshot still exists, so retrying is safe.").arg(qs(r.error().message)));
            }
            return actionFailed(qs(r.error().message));
        }
        case ActionKind::SnapshotRestore: {
            const std::string glob = "PATCH /api/storage/volumes/" + volumeUuid + "*";
            if (ctx.attempt > 1) {
                if (auto job = rec.followLostJob(glob); job && *job) {
                    return actionReconciled(
                        QObject::tr("%1/%2 was already restored to \"%3\" by an earlier attempt; not restored again.")
                            .arg(svmName, volumeName, snapshotName));
                }
            }
            rec.progress(0, QObject::tr("Submitting to ONTAP"));
            auto r = client.restoreSnapshot(volumeUuid, ss(request.snapshotId), rec.jobProgress());
            if (r) {
                return ActionResult{
                    true,
                    false,
                    QObject::tr("%1/%2 restored to snapshot \"%3\".").arg(svmName, volumeName, snapshotName)};
            }
            if (r.error().outcomeUnknown) {
                rec.progress(-1, QObject::tr("Response lost; checking what ONTAP did"));
                if (auto job = rec.followLostJob(glob); job && *job) {
                    return actionReconciled(
                        QObject::tr("%1/%2 restored to \"%3\" (confirmed after the response was lost).")
                            .arg(svmName, volumeName, snapshotName));
                }
                return actionFailed(
                    QObject::tr("%1. No restore job for this volume was found on ONTAP, so retrying is safe.")
                        .arg(qs(r.error().message)));
            }
            return actionFailed(qs(r.error().message));
        }
        case ActionKind::VolumeClone: {
            if (ctx.attempt > 1) {
                if (cloneExists().value_or(false)) {
                    return actionReconciled(
                        QObject::tr("Volume %1/%2 already exists (an earlier attempt created it); not cloned again.")
                            .arg(svmName, request.name));
                }
                if (auto job = rec.followLostJob("POST /api/storage/volumes*");
                    job && *job && cloneExists().value_or(false)) {
                    return actionReconciled(
                        QObject::tr("FlexClone %1/%2 was created by an earlier attempt.").arg(svmName, request.name));
                }
            }
            rec.progress(0, QObject::tr("Submitting to ONTAP"));
            auto r =
                client.createClone(ss(svmName), ss(request.name), ss(volumeName), ss(snapshotName), rec.jobProgress());
            if (r) {
                return ActionResult{true,
                                    false,
                                    QObject::tr("FlexClone %1/%2 created from %3@%4.")
                                        .arg(svmName, request.name, volumeName, snapshotName)};
            }
            if (r.error().outcomeUnknown) {
                rec.followLostJob("POST /api/storage/volumes*");
                if (cloneExists().value_or(false)) {
                    return actionReconciled(
                        QObject::tr("FlexClone %1/%2 created (confirmed after the response was lost).")
                            .arg(svmName, request.name));
                }
                return actionFailed(QObject::tr("%1. ONTAP has no volume %2/%3, so retrying is safe.")
                                        .arg(qs(r.error().message), svmName, request.name));
            }
            return actionFailed(qs(r.error().message));
        }
        case ActionKind::ServiceLevelChange: {
            const QString label = svmName + QLatin1Char('/') + volumeName;
            const QString target = request.targetLevel.isEmpty()
                                       ? QObject::tr("no QoS policy")
                                       : QObject::tr("QoS policy \"%1\"").arg(request.targetLevel);
            auto hasTarget = [&]() -> std::optional<bool> {
                auto v = client.volume(volumeUuid);
                if (!v) {
                    return std::nullopt;
                }
                const std::string current = v->qosPolicy ? v->qosPolicy->name : std::string();
                return qs(current == "none" ? std::string() : current) == request.targetLevel;
            };
            if (ctx.recovery) {
                const auto job = rec.followInterrupted("PATCH /api/storage/volumes/" + volumeUuid + "*");
                const auto has = hasTarget();
                if (has.value_or(false)) {
                    return ActionResult{true, ctx.handle.isEmpty(), QObject::tr("%1 now has %2.").arg(label, target)};
                }
                return rec.interruptedWithoutEffect(job, has, QObject::tr("the change of %1 to %2").arg(label, target));
            }
            // Setting a policy twice is harmless, but a volume already there needs no job (and
            // a retry after a lost response must not report a change it did not make).
            if (hasTarget().value_or(false)) {
                return actionReconciled(QObject::tr("%1 already has %2; nothing to change.").arg(label, target));
            }
            rec.progress(0, QObject::tr("Submitting to ONTAP"));
            if (!ctx.sending()) {
                return actionFailed(QObject::tr("not sent"));
            }
            auto r = client.setVolumeQosPolicy(volumeUuid, ss(request.targetLevel), rec.jobProgress());
            if (r) {
                return ActionResult{true, false, QObject::tr("%1 now has %2.").arg(label, target)};
            }
            if (r.error().outcomeUnknown) {
                rec.progress(-1, QObject::tr("Response lost; checking what ONTAP did"));
                rec.followLostJob("PATCH /api/storage/volumes/" + volumeUuid + "*");
                if (hasTarget().value_or(false)) {
                    return actionReconciled(
                        QObject::tr("%1 now has %2 (confirmed after the response was lost).").arg(label, target));
                }
                return actionFailed(QObject::tr("%1. The volume does not have %2, so retrying is safe.")
                                        .arg(qs(r.error().message), target));
            }
            return actionFailed(qs(r.error().message));
        }
        case ActionKind::JobSubmit:
        case ActionKind::JobDelete:
        case ActionKind::ProjectQuotaEdit:
        case ActionKind::DatasetCommit:
        case ActionKind::CacheCommit:
        case ActionKind::CacheEvict:
            break;
        }
        return actionFailed(QStringLiteral("unknown action"));
    };
}

bool OntapSource::recovers(ActionKind kind) const
{
    return kind == ActionKind::SnapshotCreate || kind == ActionKind::ServiceLevelChange;
}

void OntapSource::afterSuccess(const ActionRequest &request)
{
    refreshSnapshots(request.volumeId);
    m_inventory->pollNow();
}

void OntapSource::testConnection(const SourceConfig &config,
                                 const QString &password,
                                 QThreadPool &pool,
                                 QObject *context,
                                 std::function<void(bool ok, QString message)> done)
{
    runConnectionTest(pool, context, std::move(done), [config, password] {
        auto conn = Connection::make(config, password, kDefaultRequestTimeout);
        QElapsedTimer timer;
        timer.start();
        auto cluster = conn->client->cluster();
        const bool ok = bool(cluster);
        return std::make_pair(ok,
                              ok ? QObject::tr("Connected to %1 (ONTAP %2.%3.%4) in %5 ms.")
                                       .arg(qs(cluster->name))
                                       .arg(cluster->versionGeneration)
                                       .arg(cluster->versionMajor)
                                       .arg(cluster->versionMinor)
                                       .arg(timer.elapsed())
                                 : qs(cluster.error().message));
    });
}

} // namespace strata::core
