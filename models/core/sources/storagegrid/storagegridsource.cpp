#include "models/core/sources/storagegrid/storagegridsource.h"

#include "connectors/dataset/datasetstore.h"
#include "connectors/dataset/manifest.h"
#include "connectors/http/curltransport.h"
#include "connectors/s3/s3client.h"
#include "connectors/storagegrid/storagegridclient.h"
#include "models/core/domain/convert.h"
#include "models/core/domain/estate.h"
#include "models/core/domain/offthread.h"
#include "models/core/sources/connectorerror.h"
#include "models/core/sources/systempoller.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QThreadPool>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <set>
#include <thread>

Q_LOGGING_CATEGORY(lcGrid, "strata.storagegrid", QtInfoMsg)

namespace strata::core {

namespace {

using namespace std::chrono_literals;

QDateTime parseGridTime(const std::string &iso)
{
    const QDateTime t = QDateTime::fromString(qs(iso), Qt::ISODateWithMs);
    return t.isValid() ? t.toUTC() : QDateTime();
}

/// A dataset found under a root: where it lives.
struct DatasetLocation
{
    std::string bucket;
    std::string prefix; ///< "" for a whole bucket, else ends with '/'
    std::string name;
    DatasetKind kind = DatasetKind::S3Prefix;

    [[nodiscard]] QString id() const { return qs(bucket) + QLatin1Char('/') + qs(prefix); }
};

/// The datasets under the configured roots, in root order, each once (connectors/dataset).
connectors::Result<std::vector<DatasetLocation>>
discoverDatasets(s3::S3Client &client, const QStringList &roots, const http::CancelToken &cancel)
{
    std::vector<DatasetLocation> out;
    std::set<std::string> seen;
    for (const QString &root : roots) {
        auto found = dataset::discoverDatasets(client, ss(root), cancel);
        if (!found) {
            return connectors::fail(found.error());
        }
        for (dataset::DatasetRef &d : *found) {
            if (seen.insert(d.bucket + "/" + d.prefix).second) {
                out.push_back(DatasetLocation{std::move(d.bucket),
                                              std::move(d.prefix),
                                              std::move(d.name),
                                              d.kind == dataset::DatasetKind::Bucket ? DatasetKind::S3Bucket
                                                                                     : DatasetKind::S3Prefix});
            }
        }
    }
    return out;
}

/// Datasets listed (and their new commit headers read) at once by one hub poll; the transport
/// allows 8 requests in flight per source.
constexpr std::size_t kHubParallelReads = 8;

Commit toCommit(const dataset::CommitHeader &h,
                const std::string &id,
                const std::string &key,
                const QString &source,
                const QString &datasetId)
{
    Commit c;
    c.source = source;
    c.id = qs(id);
    c.datasetId = datasetId;
    c.datasetName = qs(h.dataset);
    c.parent = qs(h.parent);
    c.author = qs(h.author);
    c.message = qs(h.message);
    c.time = parseGridTime(h.time);
    c.objectCount = h.objects;
    c.bytes = h.bytes;
    c.manifestKey = qs(key);
    return c;
}

/// The head: the newest commit that no other commit names as parent (a fork's newest tip).
const Commit *headOf(const std::vector<Commit> &commits)
{
    std::set<QString> parents;
    for (const Commit &c : commits) {
        if (!c.parent.isEmpty()) {
            parents.insert(c.parent);
        }
    }
    const Commit *head = nullptr;
    for (const Commit &c : commits) {
        if (parents.count(c.id) != 0) {
            continue;
        }
        if (!head || c.time > head->time || (c.time == head->time && c.id > head->id)) {
            head = &c;
        }
    }
    return head;
}

CommitDiffEntry diffEntry(const dataset::ManifestEntry *from, const dataset::ManifestEntry *to)
{
    CommitDiffEntry e;
    e.key = qs(from ? from->key : to->key);
    if (from) {
        e.fromSize = from->size;
        e.fromEtag = qs(from->etag);
    }
    if (to) {
        e.toSize = to->size;
        e.toEtag = qs(to->etag);
    }
    return e;
}

QString shortId(const QString &id)
{
    return id.left(12);
}

} // namespace

/// Transport and S3 client of one source. Immutable: new credentials make a new Connection
/// while running jobs finish with the old one.
struct StorageGridSource::Connection
{
    std::shared_ptr<http::CurlTransport> transport;
    std::unique_ptr<s3::S3Client> s3;

    static std::shared_ptr<Connection> make(const SourceConfig &config, const QString &s3Secret, bool interactive)
    {
        auto c = std::make_shared<Connection>();
        c->transport =
            std::make_shared<http::CurlTransport>(sourceTransportOptions(config, 10s, interactive ? 20s : 120s, 8));
        s3::S3Config s3config;
        s3config.endpoint = ss(config.s3Url);
        s3config.region = config.s3Region.isEmpty() ? std::string("us-east-1") : ss(config.s3Region);
        s3config.accessKey = ss(config.s3AccessKey);
        s3config.secretKey = ss(s3Secret);
        s3config.pathStyle = config.s3PathStyle;
        s3config.timeoutMs = interactive ? 20000 : 120000;
        s3config.retry.maxAttempts = interactive ? 1 : 3;
        c->s3 = std::make_unique<s3::S3Client>(std::move(s3config), c->transport);
        return c;
    }
};

/// Transport and management client of the grid administrator. Immutable like Connection.
struct StorageGridSource::GridConnection
{
    std::shared_ptr<http::CurlTransport> transport;
    std::unique_ptr<storagegrid::StorageGridClient> client;

    static std::shared_ptr<GridConnection> make(const SourceConfig &config, const QString &password, bool interactive)
    {
        auto c = std::make_shared<GridConnection>();
        c->transport =
            std::make_shared<http::CurlTransport>(sourceTransportOptions(config, 10s, interactive ? 20s : 120s, 4));
        storagegrid::StorageGridOptions o;
        o.http.baseUrl = ss(config.url);
        o.http.retry.maxAttempts = interactive ? 1 : 3;
        o.username = ss(config.username);
        o.password = ss(password);
        o.pageSize = 100;
        c->client = std::make_unique<storagegrid::StorageGridClient>(c->transport, std::move(o));
        return c;
    }
};

namespace {

std::chrono::system_clock::time_point toTimePoint(const QDateTime &t)
{
    return std::chrono::system_clock::time_point(std::chrono::milliseconds(t.toMSecsSinceEpoch()));
}

GridAlert toAlert(const storagegrid::Alert &a, const QString &source, bool resolved)
{
    GridAlert out;
    out.source = source;
    out.name = qs(a.name);
    out.severity = qs(a.severity);
    out.summary = qs(a.summary);
    out.description = qs(a.description);
    out.node = qs(a.instance);
    out.site = qs(a.siteName);
    out.startsAt = parseGridTime(a.startsAt);
    out.endsAt = resolved ? parseGridTime(a.endsAt) : QDateTime();
    out.resolved = resolved;
    out.silenced = a.silenced;
    // The grid's id is the fingerprint of the alert's labels, the same for every occurrence of
    // the alert on its node: the trigger time tells occurrences apart and stays when one resolves.
    out.id = qs(a.id);
    if (out.startsAt.isValid()) {
        out.id += QLatin1Char('@') + QString::number(out.startsAt.toMSecsSinceEpoch());
    }
    return out;
}

/// Growth over the range per label value (last sample minus first), from a matrix result.
QHash<QString, qint64> growthBy(const storagegrid::MetricResult &result, const std::vector<std::string> &labels)
{
    QHash<QString, qint64> out;
    for (const storagegrid::MetricSeries &series : result.series) {
        if (series.samples.size() < 2) {
            continue;
        }
        QStringList key;
        for (const std::string &label : labels) {
            const auto it = series.labels.find(label);
            key << (it == series.labels.end() ? QString() : qs(it->second));
        }
        const double delta = series.samples.back().value - series.samples.front().value;
        if (std::isfinite(delta)) {
            out.insert(key.join(QLatin1Char('/')), qint64(std::llround(delta)));
        }
    }
    return out;
}

/// The single value of an instant query ("sum(...)"), nullopt when absent.
std::optional<qint64> scalarOf(const connectors::Result<storagegrid::MetricResult> &result)
{
    if (!result || result->series.empty() || result->series.front().samples.empty()) {
        return std::nullopt;
    }
    const double v = result->series.front().samples.front().value;
    return std::isfinite(v) ? std::optional<qint64>(qint64(std::llround(v))) : std::nullopt;
}

/// "11.8.0.2" of "11.8.0.2-20240131.1852.bbc9e4a".
QString shortVersion(const QString &productVersion)
{
    return productVersion.section(QLatin1Char('-'), 0, 0);
}

} // namespace

/// Commit headers by "<bucket>/<manifest key>", kept for the source's lifetime: a manifest's
/// key holds its SHA-256, so what is cached can never go out of date.
struct StorageGridSource::HeaderCache
{
    std::mutex mutex;
    std::map<std::string, dataset::CommitHeader> headers;

    std::optional<dataset::CommitHeader> find(const std::string &key)
    {
        std::lock_guard lock(mutex);
        const auto it = headers.find(key);
        return it == headers.end() ? std::nullopt : std::optional<dataset::CommitHeader>(it->second);
    }
    void insert(const std::string &key, dataset::CommitHeader header)
    {
        std::lock_guard lock(mutex);
        headers.insert_or_assign(key, std::move(header));
    }
};

StorageGridSource::StorageGridSource(SourceConfig config, QString password, Deps deps, QObject *parent)
    : PollingSource(std::move(config), deps.clock, deps.pool, parent)
    , m_deps(std::move(deps))
    , m_password(std::move(password))
    , m_grid(GridConnection::make(m_config, m_password, false))
    , m_headers(std::make_shared<HeaderCache>())
{
    const QString source = m_config.name;
    QPointer<StorageGridSource> self(this);
    m_gridPoller = addInventoryPoller(QStringLiteral("grid"), [this, self, source] {
        auto conn = m_grid;
        const http::CancelToken token;
        const QDateTime now = m_deps.clock.now();
        PollJob job;
        job.cancel = cancelling(token);
        job.run = [conn, token, source, self, now]() -> PollOutcome {
            PollOutcome out;
            storagegrid::StorageGridClient &c = *conn->client;
            auto fail = [&out](const connectors::Error &e) {
                out.error = toFetchError(e);
                return out;
            };
            auto version = c.productVersion(token);
            if (!version) {
                return fail(version.error());
            }
            auto health = c.health(token);
            if (!health) {
                return fail(health.error());
            }
            auto gridName = c.topologyGridName(token);
            if (!gridName) {
                return fail(gridName.error());
            }
            auto nodes = c.nodeHealth(token);
            if (!nodes) {
                return fail(nodes.error());
            }
            auto active = c.alerts(token);
            if (!active) {
                return fail(active.error());
            }
            // The API's own filter keeps the answer to the window (it is on trigger time).
            auto resolved = c.alertHistory(toTimePoint(now.addDays(-kHistoryDays)), token);
            if (!resolved) {
                return fail(resolved.error());
            }
            auto accounts = c.accountsCache(token);
            if (!accounts) {
                return fail(accounts.error());
            }
            GridSummary summary;
            summary.source = source;
            summary.id = source;
            summary.gridName = qs(*gridName);
            summary.productVersion = qs(*version);
            summary.apiVersion = qs(c.apiVersion());
            summary.alertsCritical = health->alertsCritical;
            summary.alertsMajor = health->alertsMajor;
            summary.alertsMinor = health->alertsMinor;
            summary.nodesConnected = health->nodesConnected;
            summary.nodesAdminDown = health->nodesAdminDown;
            summary.nodesUnknown = health->nodesUnknown;
            // Optional parts: a grid (or a user) without them still shows the rest.
            if (auto ilm = c.ilmPolicies(token)) {
                for (const storagegrid::IlmPolicy &p : *ilm) {
                    if (p.active) {
                        summary.activeIlmPolicy = qs(p.name);
                    }
                }
            } else {
                qCInfo(lcGrid).noquote() << source << "ILM policies not readable:" << qs(ilm.error().message);
            }
            summary.usedBytes =
                scalarOf(c.metricQuery("sum(storagegrid_storage_utilization_data_bytes)", {}, token)).value_or(-1);
            summary.usableBytes =
                scalarOf(c.metricQuery("sum(storagegrid_storage_utilization_usable_space_bytes)", {}, token))
                    .value_or(-1);
            const auto start = toTimePoint(now.addDays(-kHistoryDays));
            const auto end = toTimePoint(now);
            constexpr int kStep = 6 * 3600;
            std::optional<QHash<QString, qint64>> tenantGrowth;
            std::optional<QHash<QString, qint64>> bucketGrowth;
            if (auto r = c.metricQueryRange("storagegrid_tenant_usage_data_bytes", start, end, kStep, token)) {
                tenantGrowth = growthBy(*r, {"tenant_id"});
            }
            if (auto r = c.metricQueryRange("storagegrid_tenant_bucket_usage_data_bytes", start, end, kStep, token)) {
                bucketGrowth = growthBy(*r, {"tenant_id", "bucket"});
            }

            std::vector<Ptr<GridNode>> nodeList;
            for (const storagegrid::NodeHealth &n : *nodes) {
                GridNode g;
                g.source = source;
                g.id = qs(n.id);
                g.name = qs(n.name);
                g.site = qs(n.siteName);
                g.type = qs(n.type);
                g.severity = qs(n.severity);
                g.state = qs(n.state);
                nodeList.push_back(std::make_shared<const GridNode>(std::move(g)));
            }
            std::vector<Ptr<GridAlert>> alertList;
            std::set<std::string> alertIds;
            for (const storagegrid::Alert &a : *active) {
                GridAlert alert = toAlert(a, source, false);
                if (alertIds.insert(ss(alert.id)).second) {
                    alertList.push_back(std::make_shared<const GridAlert>(std::move(alert)));
                }
            }
            const QDateTime since = now.addDays(-kHistoryDays);
            for (const storagegrid::Alert &a : *resolved) {
                GridAlert alert = toAlert(a, source, true);
                const QDateTime when = alert.endsAt.isValid() ? alert.endsAt : alert.startsAt;
                if (when.isValid() && when < since) {
                    continue;
                }
                if (alertIds.insert(ss(alert.id)).second) {
                    alertList.push_back(std::make_shared<const GridAlert>(std::move(alert)));
                }
            }
            std::vector<Ptr<Tenant>> tenantList;
            std::vector<Ptr<Bucket>> bucketList;
            for (const storagegrid::Account &a : *accounts) {
                auto usage = c.accountUsage(a.id, true, token);
                if (!usage) {
                    return fail(usage.error());
                }
                Tenant t;
                t.source = source;
                t.id = qs(a.id);
                t.name = qs(a.name);
                t.description = qs(a.description);
                for (const std::string &cap : a.capabilities) {
                    t.capabilities << qs(cap);
                }
                t.quotaBytes = a.quotaObjectBytes.value_or(-1);
                t.dataBytes = usage->dataBytes;
                t.objectCount = usage->objectCount;
                t.bucketCount = int(usage->buckets.size());
                if (tenantGrowth && tenantGrowth->contains(t.id)) {
                    t.growth7dBytes = tenantGrowth->value(t.id);
                }
                for (const storagegrid::BucketUsage &b : usage->buckets) {
                    Bucket bucket;
                    bucket.source = source;
                    bucket.tenantId = t.id;
                    bucket.tenantName = t.name;
                    bucket.name = qs(b.name);
                    bucket.id = t.id + QLatin1Char('/') + bucket.name;
                    bucket.region = qs(b.region);
                    bucket.versioning = b.versioningEnabled;
                    bucket.objectCount = b.objectCount;
                    bucket.dataBytes = b.dataBytes;
                    bucket.quotaBytes = b.quotaObjectBytes.value_or(-1);
                    if (bucketGrowth && bucketGrowth->contains(bucket.id)) {
                        bucket.growth7dBytes = bucketGrowth->value(bucket.id);
                    }
                    bucketList.push_back(std::make_shared<const Bucket>(std::move(bucket)));
                }
                tenantList.push_back(std::make_shared<const Tenant>(std::move(t)));
            }
            GridPublish publish;
            publish.summary = keyed(std::vector<Ptr<GridSummary>>{std::make_shared<const GridSummary>(summary)});
            publish.nodes = keyed(std::move(nodeList));
            publish.alerts = keyed(std::move(alertList));
            publish.tenants = keyed(std::move(tenantList));
            publish.buckets = keyed(std::move(bucketList));
            out.systemName = summary.gridName;
            out.systemVersion = summary.productVersion;
            const QString name = summary.gridName;
            const QString productVersion = summary.productVersion;
            out.apply = [self, source, publish, name, productVersion] {
                if (!self) {
                    return;
                }
                self->m_gridName = name;
                self->m_productVersion = productVersion;
                self->m_deps.estate.publishGrid(source, publish);
            };
            return out;
        };
        return job;
    });

    if (m_config.s3Url.isEmpty()) {
        return;
    }
    const QStringList roots = m_config.datasetRoots;
    // The hub can only make things look worse, never better; it runs once the S3 secret is known
    // (setS3Secret), and a new grid password does not concern it.
    Role hubRole;
    hubRole.merge = Merge::Ranked;
    hubRole.errorFormat = QObject::tr("S3: %1");
    hubRole.staleCounts = true;
    hubRole.inventory = true;
    hubRole.autoStart = false;
    hubRole.resumeOnPassword = false;
    m_hub = addPoller(
        pollerOptions(QStringLiteral("hub"), std::chrono::seconds(m_config.configIntervalSeconds)),
        [this, self, source, roots] {
            auto conn = m_connection;
            auto cache = m_headers;
            const http::CancelToken token;
            PollJob job;
            job.cancel = cancelling(token);
            job.run = [conn, cache, token, source, roots, self]() -> PollOutcome {
                PollOutcome out;
                if (!conn) {
                    out.error = FetchError{FetchError::Kind::Auth, QObject::tr("The S3 secret is not known yet.")};
                    return out;
                }
                s3::S3Client &client = *conn->s3;
                auto datasets = discoverDatasets(client, roots, token);
                if (!datasets) {
                    out.error = toFetchError(datasets.error());
                    return out;
                }
                // Every dataset's listing, then every header not cached yet across all datasets
                // (so one dataset of thousands of commits is read in parallel too), each with at
                // most kHubParallelReads requests in flight: a cold hub of 5,000 commits is 5,000
                // small ranged GETs, latency-bound, not bandwidth-bound.
                struct Fetched
                {
                    std::vector<dataset::CommitRef> manifests;
                    std::optional<connectors::Error> error;
                };
                std::vector<Fetched> fetched(datasets->size());
                dataset::forEachBounded(
                    datasets->size(),
                    kHubParallelReads,
                    [&](std::size_t i) {
                        const DatasetLocation &loc = (*datasets)[i];
                        auto manifests = dataset::listCommits(client, loc.bucket, loc.prefix, token);
                        if (manifests) {
                            fetched[i].manifests = std::move(*manifests);
                        } else {
                            fetched[i].error = manifests.error();
                        }
                    },
                    token);
                struct HeaderRead
                {
                    std::size_t dataset;
                    const dataset::CommitRef *manifest;
                    std::optional<connectors::Error> error;
                };
                std::vector<HeaderRead> reads;
                for (std::size_t i = 0; i < datasets->size(); ++i) {
                    for (const dataset::CommitRef &m : fetched[i].manifests) {
                        if (!cache->find((*datasets)[i].bucket + "/" + m.key)) {
                            reads.push_back(HeaderRead{i, &m, std::nullopt});
                        }
                    }
                }
                // An error other than a corrupt or deleted manifest fails the poll: stop reading.
                std::atomic<bool> failed{false};
                dataset::forEachBounded(
                    reads.size(),
                    kHubParallelReads,
                    [&](std::size_t r) {
                        if (failed) {
                            return;
                        }
                        HeaderRead &read = reads[r];
                        const DatasetLocation &loc = (*datasets)[read.dataset];
                        auto header = dataset::readCommitHeader(client, loc.bucket, read.manifest->key, token);
                        if (header) {
                            cache->insert(loc.bucket + "/" + read.manifest->key, *header);
                        } else if (header.error().kind == connectors::Error::Kind::Parse) {
                            // One corrupt manifest must not hide the dataset's others.
                            qCWarning(lcGrid).noquote() << source << qs(header.error().message);
                        } else if (header.error().apiCode != "NoSuchKey") { // NoSuchKey: deleted since the listing
                            read.error = header.error();
                            failed = true;
                        }
                    },
                    token);
                for (const HeaderRead &read : reads) {
                    if (read.error && !fetched[read.dataset].error) {
                        fetched[read.dataset].error = read.error;
                    }
                }
                std::vector<Ptr<Dataset>> datasetList;
                std::vector<Ptr<Commit>> commitList;
                for (std::size_t i = 0; i < datasets->size(); ++i) {
                    const DatasetLocation &loc = (*datasets)[i];
                    if (fetched[i].error) {
                        out.error = toFetchError(*fetched[i].error);
                        return out;
                    }
                    const QString datasetId = loc.id();
                    std::vector<Commit> commits;
                    for (const dataset::CommitRef &m : fetched[i].manifests) {
                        const std::optional<dataset::CommitHeader> header = cache->find(loc.bucket + "/" + m.key);
                        if (!header) {
                            continue; // corrupt or deleted: skipped above
                        }
                        commits.push_back(toCommit(*header, m.id, m.key, source, datasetId));
                    }
                    Dataset d;
                    d.source = source;
                    d.id = datasetId;
                    d.name = qs(loc.name);
                    d.kind = loc.kind;
                    d.bucket = qs(loc.bucket);
                    d.prefix = qs(loc.prefix);
                    d.commitCount = int(commits.size());
                    if (const Commit *head = headOf(commits)) {
                        d.headCommit = head->id;
                        d.sizeBytes = head->bytes;
                        d.objectCount = head->objectCount;
                    }
                    for (const Commit &c : commits) {
                        if (c.time.isValid() && (!d.lastActivity.isValid() || c.time > d.lastActivity)) {
                            d.lastActivity = c.time;
                        }
                    }
                    // Newest first: the order the dataset page lists them in. Times have whole
                    // seconds, so commits of one second are ordered by their place in the chain.
                    std::map<QString, QString> parentOf;
                    for (const Commit &c : commits) {
                        parentOf.emplace(c.id, c.parent);
                    }
                    std::map<QString, int> depth;
                    for (const Commit &c : commits) {
                        int d = 0;
                        for (QString at = c.parent; !at.isEmpty() && d <= int(commits.size());) {
                            const auto it = parentOf.find(at);
                            if (it == parentOf.end()) {
                                break;
                            }
                            ++d;
                            at = it->second;
                        }
                        depth[c.id] = d;
                    }
                    std::sort(commits.begin(), commits.end(), [&depth](const Commit &a, const Commit &b) {
                        if (a.time != b.time) {
                            return a.time > b.time;
                        }
                        const int da = depth[a.id];
                        const int db = depth[b.id];
                        return da != db ? da > db : a.id < b.id;
                    });
                    for (Commit &c : commits) {
                        commitList.push_back(std::make_shared<const Commit>(std::move(c)));
                    }
                    datasetList.push_back(std::make_shared<const Dataset>(std::move(d)));
                }
                auto datasetsKeyed = keyed(std::move(datasetList));
                auto commitsKeyed = keyed(std::move(commitList));
                out.apply = [self, source, datasetsKeyed, commitsKeyed] {
                    if (self) {
                        self->m_deps.estate.publishDatasets(source, DatasetPublish{datasetsKeyed, commitsKeyed});
                    }
                };
                return out;
            };
            return job;
        },
        hubRole);
}

StorageGridSource::~StorageGridSource()
{
    logoutGrid();
}

void StorageGridSource::describe(SourceStatus &status) const
{
    status.kind = SourceKind::StorageGrid;
    status.systemName = m_gridName;
    status.systemVersion =
        m_productVersion.isEmpty() ? QString() : QStringLiteral("StorageGRID ") + shortVersion(m_productVersion);
}

void StorageGridSource::start()
{
    PollingSource::start();
    if (m_hub && m_connection) {
        m_hub->start();
    }
    Q_EMIT statusChanged();
}

void StorageGridSource::stop()
{
    PollingSource::stop();
    logoutGrid();
    // A later start() authorizes on a fresh client; the old one keeps its logout to itself.
    m_grid = GridConnection::make(m_config, m_password, false);
}

void StorageGridSource::logoutGrid()
{
    auto grid = m_grid;
    if (!grid || !grid->client->hasSession()) {
        return;
    }
    // On the pool, never the GUI thread; the Engine waits for its pool when it goes, so a
    // one-shot run still closes the session before the process exits.
    const QString source = m_config.name;
    m_deps.pool.start([grid, source] {
        auto done = grid->client->logout({}, kLogoutTimeout);
        if (!done) {
            qCInfo(lcGrid).noquote() << source << "grid logout failed:" << qs(done.error().message);
        }
    });
}

void StorageGridSource::reconnect(const QString &password)
{
    logoutGrid();
    m_password = password;
    m_grid = GridConnection::make(m_config, m_password, false);
}

void StorageGridSource::setS3Secret(const QString &secret, const QString &error)
{
    if (!m_hub) {
        return;
    }
    setPollerProblem(m_hub, error);
    if (!error.isEmpty()) {
        m_connection.reset();
        m_hub->stop();
        Q_EMIT statusChanged();
        Q_EMIT inventoryPolled(false);
        return;
    }
    const bool first = !m_connection;
    m_connection = Connection::make(m_config, secret, false);
    if (!isStarted()) {
        return;
    }
    if (first) {
        m_hub->start();
    } else {
        m_hub->resume();
        m_hub->pollNow();
    }
    Q_EMIT statusChanged();
}

// ---- diff ------------------------------------------------------------------------------------

void StorageGridSource::diffCommits(const QString &datasetId,
                                    const QString &fromId,
                                    const QString &toId,
                                    QObject *context,
                                    std::function<void(CommitComparison comparison, QString error)> done)
{
    QPointer<QObject> ctx(context);
    auto conn = m_connection;
    const Estate &estate = m_deps.estate;
    const QString source = m_config.name;
    const Ptr<Dataset> dataset = estate.datasets().find(source, source + QLatin1Char('/') + datasetId);
    const Ptr<Commit> from = estate.commits().find(source, source + QLatin1Char('/') + fromId);
    const Ptr<Commit> to = estate.commits().find(source, source + QLatin1Char('/') + toId);
    auto finish = [ctx, done](CommitComparison c, QString error) {
        postBack(ctx, [done, c = std::move(c), error] {
            done(c, error);
        });
    };
    QString problem;
    if (!conn) {
        problem = tr("The S3 side of %1 is not connected (no S3 secret).").arg(source);
    } else if (!dataset) {
        problem = tr("Dataset %1 is not known to %2.").arg(datasetId, source);
    } else if (!from || !to || from->datasetId != datasetId || to->datasetId != datasetId) {
        problem = tr("Both commits must be commits of %1.").arg(dataset->name);
    }
    if (!problem.isEmpty()) {
        finish({}, problem);
        return;
    }
    const std::string bucket = ss(dataset->bucket);
    m_deps.pool.start([conn, bucket, datasetId, from, to, finish] {
        auto a = dataset::readManifest(*conn->s3, bucket, ss(from->manifestKey));
        if (!a) {
            finish({}, qs(a.error().message));
            return;
        }
        auto b = dataset::readManifest(*conn->s3, bucket, ss(to->manifestKey));
        if (!b) {
            finish({}, qs(b.error().message));
            return;
        }
        const dataset::ManifestDiff d = dataset::diffManifests(*a, *b);
        CommitComparison c;
        c.datasetId = datasetId;
        c.fromId = from->id;
        c.toId = to->id;
        for (const dataset::ManifestEntry &e : d.added) {
            c.added.append(diffEntry(nullptr, &e));
        }
        for (const dataset::ManifestEntry &e : d.removed) {
            c.removed.append(diffEntry(&e, nullptr));
        }
        for (const auto &[f, t] : d.changed) {
            c.changed.append(diffEntry(&f, &t));
        }
        c.unchanged = d.unchanged;
        c.bytesAdded = d.bytesAdded;
        c.bytesRemoved = d.bytesRemoved;
        c.bytesChanged = d.bytesChanged;
        finish(std::move(c), QString());
    });
}

// ---- test ------------------------------------------------------------------------------------

void StorageGridSource::testConnection(const SourceConfig &config,
                                       const QString &password,
                                       const QString &s3Secret,
                                       QThreadPool &pool,
                                       QObject *context,
                                       std::function<void(bool ok, QString message)> done)
{
    QPointer<QObject> ctx(context);
    pool.start([config, password, s3Secret, ctx, done] {
        bool ok = false;
        QString message;
        QElapsedTimer timer;
        timer.start();
        auto grid = GridConnection::make(config, password, true);
        auto version = grid->client->productVersion();
        connectors::Result<std::string> name =
            version ? grid->client->topologyGridName() : connectors::fail(version.error());
        auto tenants = name ? grid->client->accountsCache() : connectors::fail(name.error());
        if (!tenants) {
            message = qs(tenants.error().message);
        } else {
            const qint64 gridMs = timer.elapsed();
            const QString tenantText =
                tenants->size() == 1 ? QObject::tr("1 tenant") : QObject::tr("%1 tenants").arg(tenants->size());
            QString datasetText;
            bool s3ok = true;
            if (!config.s3Url.isEmpty()) {
                auto conn = Connection::make(config, s3Secret, true);
                if (auto datasets = discoverDatasets(*conn->s3, config.datasetRoots, {}); !datasets) {
                    s3ok = false;
                    message = QObject::tr("Connected to grid %1, but S3 at %2 failed: %3")
                                  .arg(qs(*name), config.s3Url, qs(datasets.error().message));
                } else {
                    datasetText = datasets->size() == 1 ? QObject::tr("1 dataset")
                                                        : QObject::tr("%1 datasets").arg(datasets->size());
                }
            }
            if (s3ok) {
                ok = true;
                message =
                    QObject::tr("Connected to grid %1 (StorageGRID %2) in %3 ms: %4.")
                        .arg(qs(*name), shortVersion(qs(*version)))
                        .arg(gridMs)
                        .arg(datasetText.isEmpty() ? tenantText : tenantText + QStringLiteral(", ") + datasetText);
            }
        }
        postBack(ctx, [done, ok, message] {
            done(ok, message);
        });
        // The test's session is not needed again (the answer is on its way already).
        (void)grid->client->logout({}, kLogoutTimeout);
    });
}

// ---- actions ---------------------------------------------------------------------------------

namespace {} // namespace

ActionPreview StorageGridSource::preview(const ActionRequest &request) const
{
    ActionPreview p;
    if (request.kind != ActionKind::DatasetCommit) {
        p.title = actionKindName(request.kind);
        p.blockedReason =
            tr("%1 cannot run on StorageGRID source %2.").arg(actionKindName(request.kind), m_config.name);
        return p;
    }
    p.title = tr("Commit dataset");
    const QString source = m_config.name;
    const Ptr<Dataset> dataset = m_deps.estate.datasets().find(source, source + QLatin1Char('/') + request.datasetId);
    if (!dataset) {
        p.target = request.datasetId;
        p.blockedReason = tr("Dataset %1 is not known to %2.").arg(request.datasetId, source);
        return p;
    }
    p.target = dataset->name;
    p.fromState = dataset->commitCount == 1 ? tr("1 commit") : tr("%1 commits").arg(dataset->commitCount);
    p.toState = dataset->commitCount + 1 == 1 ? tr("1 commit") : tr("%1 commits").arg(dataset->commitCount + 1);
    const QString where = dataset->bucket + QLatin1Char('/') + dataset->prefix;
    // The object count and size are only known once listed, at execution.
    p.effects << tr("Lists %1 (object versions when the bucket is versioned) and writes a manifest of every object "
                    "to %2.")
                     .arg(where, where + QStringLiteral(".strata/commits/"));
    p.effects << (dataset->headCommit.isEmpty() ? tr("This is the dataset's first commit.")
                                                : tr("Parent: %1 (%2 objects, %3).")
                                                      .arg(shortId(dataset->headCommit))
                                                      .arg(dataset->objectCount)
                                                      .arg(formatBytes(dataset->sizeBytes)));
    p.effects << tr("Message: \"%1\"").arg(request.comment);
    if (!m_connection) {
        p.blockedReason = tr("The S3 side of %1 is not connected (no S3 secret).").arg(source);
    } else if (request.comment.trimmed().isEmpty()) {
        p.blockedReason = tr("A commit needs a message.");
    } else if (std::size_t(request.comment.toUtf8().size()) > dataset::kMaxMessageBytes) {
        p.blockedReason = tr("The message is longer than %1 bytes.").arg(dataset::kMaxMessageBytes);
    } else if (std::size_t(m_deps.user.toUtf8().size()) > dataset::kMaxAuthorBytes) {
        p.blockedReason = tr("The user name is longer than %1 bytes.").arg(dataset::kMaxAuthorBytes);
    }
    return p;
}

std::function<ActionResult(const ActionContext &)> StorageGridSource::prepare(const ActionRequest &request)
{
    auto conn = m_connection;
    auto cache = m_headers;
    const QString source = m_config.name;
    const Ptr<Dataset> dataset = m_deps.estate.datasets().find(source, source + QLatin1Char('/') + request.datasetId);
    const QString author = m_deps.user.isEmpty() ? QStringLiteral("strata") : m_deps.user;
    IClock &clock = m_deps.clock;
    return [conn, cache, dataset, request, author, source, &clock](const ActionContext &ctx) -> ActionResult {
        if (request.kind != ActionKind::DatasetCommit) {
            return actionFailed(
                QObject::tr("%1 cannot run on StorageGRID source %2.").arg(actionKindName(request.kind), source));
        }
        if (!conn) {
            return actionFailed(QObject::tr("The S3 side of %1 is not connected (no S3 secret).").arg(source));
        }
        if (!dataset) {
            return actionFailed(QObject::tr("Dataset %1 is not known to %2.").arg(request.datasetId, source));
        }
        s3::S3Client &client = *conn->s3;
        const DatasetLocation loc{ss(dataset->bucket), ss(dataset->prefix), ss(dataset->name), dataset->kind};
        const std::string parent = ss(dataset->headCommit);
        const std::string message = ss(request.comment);
        if (ctx.attempt > 1) {
            // An earlier attempt may have written its manifest before its answer was lost.
            auto manifests = dataset::listCommits(client, loc.bucket, loc.prefix);
            if (!manifests) {
                return actionFailed(qs(manifests.error().message));
            }
            for (const dataset::CommitRef &m : *manifests) {
                auto header = dataset::readCommitHeader(client, loc.bucket, m.key);
                if (!header) {
                    continue;
                }
                const QDateTime t = parseGridTime(header->time);
                if (header->message == message && header->author == ss(author) && header->parent == parent
                    && t.isValid() && t >= ctx.submitted.addSecs(-1)) {
                    return ActionResult{
                        true,
                        true,
                        QObject::tr("Commit %1 of %2 already exists (an earlier attempt wrote it); not written again.")
                            .arg(shortId(qs(m.id)), dataset->name)};
                }
            }
        }
        if (ctx.progress) {
            ctx.progress(ActionProgress{-1, QObject::tr("Listing %1/%2").arg(dataset->bucket, dataset->prefix)});
        }
        auto entries = dataset::currentObjects(client, loc.bucket, loc.prefix);
        if (!entries) {
            return actionFailed(qs(entries.error().message));
        }
        dataset::CommitHeader header;
        header.dataset = loc.name;
        header.bucket = loc.bucket;
        header.prefix = loc.prefix;
        header.parent = parent;
        header.author = ss(author);
        header.message = message;
        header.time = dataset::isoUtcSeconds(clock.now().toSecsSinceEpoch());
        if (auto valid = dataset::validateHeader(header); !valid) {
            return actionFailed(qs(valid.error().message));
        }
        const std::size_t count = entries->size();
        const std::string bytes = dataset::serializeManifest(header, *entries);
        const std::string id = dataset::commitId(bytes);
        const std::string key = dataset::manifestKey(loc.prefix, id);
        if (ctx.progress) {
            ctx.progress(
                ActionProgress{-1, QObject::tr("Writing manifest %1 (%2 objects)").arg(shortId(qs(id))).arg(count)});
        }
        // The key is the content's hash: writing it again is harmless.
        auto put = client.putObject(loc.bucket, key, bytes, "application/x-ndjson", {});
        if (!put) {
            return actionFailed(qs(put.error().message));
        }
        std::int64_t total = 0;
        for (const dataset::ManifestEntry &e : *entries) {
            total += e.size;
        }
        header.objects = std::int64_t(count);
        header.bytes = total;
        cache->insert(loc.bucket + "/" + key, header);
        return ActionResult{true,
                            false,
                            QObject::tr("Commit %1 of %2: %3 objects, %4.")
                                .arg(shortId(qs(id)), dataset->name)
                                .arg(count)
                                .arg(formatBytes(total))};
    };
}

void StorageGridSource::afterSuccess(const ActionRequest &request)
{
    Q_UNUSED(request)
    refresh();
}

} // namespace strata::core
