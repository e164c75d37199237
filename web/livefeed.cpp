#include "web/livefeed.h"

#include "web/api.h"

#include "models/core/domain/estate.h"
#include "models/core/runtime/engine.h"
#include "models/core/runtime/timeline.h"
#include "models/core/services/capacityforecast.h"
#include "models/core/sources/source.h"
#include "models/rows/computerows.h"
#include "models/rows/datarows.h"
#include "models/rows/levelrows.h"
#include "models/rows/resources.h"

#include <QJsonDocument>
#include <QMutexLocker>
#include <QRandomGenerator>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <type_traits>
#include <utility>

namespace strata::web {

/// One resource's rows as last published. Lives behind LiveFeed::m_mutex; written on the worker.
struct LiveFeed::Published
{
    /// Compact JSON of every row as last published, by row key: a rebuilt row is sent again
    /// only when its bytes differ.
    QHash<QString, QByteArray> bytes;
    QHash<QString, QJsonObject> current;
    QList<QString> order;             ///< row keys in the order rows() returns them
    QHash<QString, QString> rowKeyOf; ///< estate key -> row key (estate lists only)
    bool appendOnly = false;
};

/// One resource's work for the worker thread.
struct LiveFeed::Batch
{
    QString resource;
    /// The rows replace the resource: keys not among them are removed.
    bool full = false;
    bool append = false;
    /// Builds the rows off the owner thread (estate lists), each with its record's estate key
    /// in `estateKeys`; null when `rows` is already built.
    std::function<QJsonArray(QStringList *estateKeys)> build;
    QJsonArray rows;
    QStringList removed; ///< estate keys of records that went away
};

/// The owner-thread end of one estate list: collects the Estate's keyed diffs by estate key
/// until the next flush.
class LiveFeed::Channel
{
public:
    virtual ~Channel() = default;
    [[nodiscard]] virtual bool pending() const = 0;
    /// The pending changes as a batch (the rows of the changed records, the removed keys).
    virtual Batch take(const QSet<QString> &sources, const QDateTime &now) = 0;
    /// Every record of the list now, as a full batch (the baseline, and after a source change).
    virtual Batch takeAll(const QSet<QString> &sources, const QDateTime &now) = 0;
};

namespace {

constexpr qsizetype kAppendedRowsKept = 20000;

QString liveRowKey(const QJsonObject &row)
{
    return row.value(QLatin1String("key")).toString();
}

template <class T> using LiveRowBuilder = rows::ResultSet (*)(const std::vector<core::Ptr<T>> &, const QDateTime &);

} // namespace

template <class T> class LiveFeed::TableChannel final : public LiveFeed::Channel
{
public:
    /// `bySource`: only records of configured sources are listed (as GET does).
    /// `rebuildAllOnChange`: the rows depend on the time (job ages), so a change of the list
    /// rebuilds every row as GET would show it now; the unchanged bytes still are not sent.
    TableChannel(QString resource,
                 const core::Table<T> &table,
                 LiveRowBuilder<T> builder,
                 bool bySource,
                 bool rebuildAllOnChange)
        : m_resource(std::move(resource))
        , m_table(table)
        , m_builder(builder)
        , m_bySource(bySource)
        , m_rebuildAll(rebuildAllOnChange)
    {}

    void onDiff(const core::Diff<T> &diff)
    {
        const auto upsert = [this](const core::Ptr<T> &record) {
            const QString key = core::estateKey(*record);
            m_removed.remove(key);
            m_upserts.insert(key, record);
        };
        std::for_each(diff.added.begin(), diff.added.end(), upsert);
        std::for_each(diff.changed.begin(), diff.changed.end(), upsert);
        for (const QString &key : diff.removed) {
            m_upserts.remove(key);
            m_removed.insert(key);
        }
    }

    [[nodiscard]] bool pending() const override { return !m_upserts.isEmpty() || !m_removed.isEmpty(); }

    Batch take(const QSet<QString> &sources, const QDateTime &now) override
    {
        if (m_rebuildAll) {
            return takeAll(sources, now);
        }
        std::vector<core::Ptr<T>> records;
        records.reserve(static_cast<std::size_t>(m_upserts.size()));
        Batch b;
        b.resource = m_resource;
        b.removed = QStringList(m_removed.cbegin(), m_removed.cend());
        for (auto it = m_upserts.cbegin(); it != m_upserts.cend(); ++it) {
            if (!m_bySource || sources.contains(it.value()->source)) {
                records.push_back(it.value());
            } else {
                b.removed.append(it.key());
            }
        }
        m_upserts.clear();
        m_removed.clear();
        b.build = builder(std::move(records), now, true);
        return b;
    }

    Batch takeAll(const QSet<QString> &sources, const QDateTime &now) override
    {
        m_upserts.clear();
        m_removed.clear();
        std::vector<core::Ptr<T>> records = m_table.all();
        if (m_bySource) {
            records.erase(std::remove_if(records.begin(),
                                         records.end(),
                                         [&](const core::Ptr<T> &r) {
                                             return !sources.contains(r->source);
                                         }),
                          records.end());
        }
        Batch b;
        b.resource = m_resource;
        b.full = true;
        b.build = builder(std::move(records), now, false);
        return b;
    }

private:
    std::function<QJsonArray(QStringList *)> builder(std::vector<core::Ptr<T>> records, const QDateTime &now, bool sort)
    {
        // The records are immutable and shared: the worker reads them while the estate moves on.
        return [resource = m_resource, build = m_builder, records = std::move(records), now, sort](
                   QStringList *estateKeys) mutable {
            if (sort) {
                // Upserts in a stable order (the pending set is a hash).
                std::sort(records.begin(), records.end(), [](const core::Ptr<T> &a, const core::Ptr<T> &b) {
                    return core::estateKey(*a) < core::estateKey(*b);
                });
            }
            estateKeys->reserve(static_cast<qsizetype>(records.size()));
            for (const core::Ptr<T> &r : records) {
                estateKeys->append(core::estateKey(*r));
            }
            return keyedRows(resource, build(records, now));
        };
    }

    QString m_resource;
    const core::Table<T> &m_table;
    LiveRowBuilder<T> m_builder;
    bool m_bySource;
    bool m_rebuildAll;
    QHash<QString, core::Ptr<T>> m_upserts;
    QSet<QString> m_removed;
};

LiveFeed::LiveFeed(core::Engine &engine, int coalesceMs, int keptDiffs, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_coalesceMs(coalesceMs)
    , m_keptDiffs(std::max(1, keptDiffs))
    , m_thread(new QThread(this))
    , m_worker(new QObject)
{
    m_age.start();
    m_feedId = QString::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, QLatin1Char('0'));
    m_thread->setObjectName(QStringLiteral("live-feed"));
    m_worker->moveToThread(m_thread);
    m_thread->start();

    core::Estate &estate = engine.estate();
    // Derived resources only (estate lists follow their own diffs): which signals can change a
    // derived row, e.g. a dataset's cached-commit count.
    const auto dirty = [this](QStringList resources) {
        return [this, resources] {
            for (const QString &r : resources) {
                markDirty(r);
            }
        };
    };
    const auto s = [](const char *name) {
        return QString::fromLatin1(name);
    };
    connect(&engine, &core::Engine::sourceStatusChanged, this, dirty({s("sources")}));
    connect(&engine.timeline(), &core::Timeline::entriesChanged, this, dirty({s("events")}));
    connect(&engine, &core::Engine::sourcesChanged, this, [this] {
        // Every resource lists only configured sources: re-read everything.
        m_resync = true;
        for (auto it = m_derived.cbegin(); it != m_derived.cend(); ++it) {
            m_dirty.insert(it.key());
        }
        scheduleFlush();
    });
    connect(&estate,
            &core::Estate::volumesChanged,
            this,
            dirty({s("service-levels"), s("systems"), s("attention"), s("datasets")}));
    connect(&estate, &core::Estate::volumePerfChanged, this, dirty({s("service-levels"), s("systems")}));
    connect(
        &estate, &core::Estate::capacityPoolsChanged, this, dirty({s("service-levels"), s("systems"), s("attention")}));
    // The Overview's rows (core/overviewsummary): systems and what needs attention.
    connect(&estate, &core::Estate::gridChanged, this, dirty({s("systems"), s("attention")}));
    connect(&estate, &core::Estate::computeChanged, this, dirty({s("attention")}));
    connect(&estate, &core::Estate::cacheTargetsChanged, this, dirty({s("attention")}));
    connect(&engine, &core::Engine::sourceStatusChanged, this, dirty({s("attention")}));
    connect(&estate, &core::Estate::datasetsChanged, this, dirty({s("datasets")}));
    connect(&estate, &core::Estate::commitsChanged, this, dirty({s("commits"), s("datasets")}));
    connect(&estate, &core::Estate::cacheTargetsChanged, this, dirty({s("cache-targets")}));
    connect(
        &estate, &core::Estate::cachedCommitsChanged, this, dirty({s("cache-targets"), s("datasets"), s("commits")}));
    // Forecasts are recomputed off the estate's thread every few minutes, not on each publish.
    connect(&engine.forecasts(), &core::ForecastService::changed, this, dirty({s("forecasts")}));
}

LiveFeed::~LiveFeed()
{
    m_thread->quit();
    m_thread->wait();
    delete m_worker;
}

bool LiveFeed::addEstateResource(const QString &resource)
{
    core::Estate &estate = m_engine.estate();
    std::shared_ptr<Channel> channel;
    const auto follow = [&]<class T>(const core::Table<T> &table,
                                     void (core::Estate::*signal)(const core::Diff<T> &),
                                     std::type_identity_t<LiveRowBuilder<T>> builder,
                                     bool bySource = true,
                                     bool rebuildAll = false) {
        auto c = std::make_shared<TableChannel<T>>(resource, table, builder, bySource, rebuildAll);
        connect(&estate, signal, this, [this, c](const core::Diff<T> &diff) {
            c->onDiff(diff);
            scheduleFlush();
        });
        channel = c;
    };
    const auto r = [&](const char *name) {
        return resource == QLatin1String(name);
    };
    if (r("volumes")) {
        follow(estate.volumes(), &core::Estate::volumesChanged, [](const auto &v, const QDateTime &) {
            return rows::volumeRows(v);
        });
    } else if (r("snapshots")) {
        auto c = std::make_shared<TableChannel<core::Snapshot>>(
            resource,
            estate.snapshots(),
            [](const auto &v, const QDateTime &) {
                return rows::snapshotRows(v);
            },
            true,
            false);
        connect(&estate,
                &core::Estate::snapshotsChanged,
                this,
                [this, c](const QString &, const QString &, const core::SnapshotDiff &diff) {
                    c->onDiff(diff);
                    scheduleFlush();
                });
        channel = c;
    } else if (r("clusters")) {
        follow(estate.gpuClusters(), &core::Estate::gpuClustersChanged, [](const auto &v, const QDateTime &) {
            return rows::clusterRows(v);
        });
    } else if (r("nodes")) {
        follow(estate.gpuNodes(), &core::Estate::gpuNodesChanged, [](const auto &v, const QDateTime &) {
            return rows::nodeRows(v);
        });
    } else if (r("projects")) {
        follow(estate.projects(), &core::Estate::projectsChanged, [](const auto &v, const QDateTime &) {
            return rows::projectRows(v);
        });
    } else if (r("jobs")) {
        // Ages and waits are relative to now: as before, a change of the job list refreshes them.
        follow(
            estate.jobs(),
            &core::Estate::jobsChanged,
            [](const auto &v, const QDateTime &now) {
                return rows::jobRows(v, now);
            },
            true,
            true);
    } else if (r("pvcs")) {
        follow(estate.pvcs(), &core::Estate::pvcsChanged, [](const auto &v, const QDateTime &) {
            return rows::pvcRows(v);
        });
    } else if (r("pools")) {
        follow(estate.capacityPools(), &core::Estate::capacityPoolsChanged, [](const auto &v, const QDateTime &) {
            return rows::poolRows(v);
        });
    } else if (r("aks")) {
        follow(estate.aksClusters(), &core::Estate::aksClustersChanged, [](const auto &v, const QDateTime &) {
            return rows::aksRows(v);
        });
    } else if (r("grids")) {
        follow(estate.gridSummaries(), &core::Estate::gridSummariesChanged, [](const auto &v, const QDateTime &) {
            return rows::gridRows(v);
        });
    } else if (r("tenants")) {
        follow(estate.tenants(), &core::Estate::tenantsChanged, [](const auto &v, const QDateTime &) {
            return rows::tenantRows(v);
        });
    } else if (r("buckets")) {
        follow(estate.buckets(), &core::Estate::bucketsChanged, [](const auto &v, const QDateTime &) {
            return rows::bucketRows(v);
        });
    } else if (r("alerts")) {
        follow(estate.gridAlerts(), &core::Estate::gridAlertsChanged, [](const auto &v, const QDateTime &) {
            return rows::gridAlertRows(v);
        });
    } else if (r("caches")) {
        // `get caches` lists every target's cached commits, not narrowed by source.
        follow(
            estate.cachedCommits(),
            &core::Estate::cachedCommitsChanged,
            [](const auto &v, const QDateTime &now) {
                return rows::cachedCommitRows(v, now);
            },
            false);
    } else {
        return false;
    }
    m_channels.insert(resource, channel);
    // The first read is the baseline every client loads over HTTP; it is not a diff.
    Batch baseline = channel->takeAll(configuredSources(), m_engine.clock().now());
    apply(baseline);
    return true;
}

void LiveFeed::addResource(const QString &resource, RowSource rows)
{
    Batch baseline;
    baseline.resource = resource;
    baseline.full = true;
    baseline.rows = rows();
    m_derived.insert(resource, std::move(rows));
    apply(baseline);
}

void LiveFeed::setBuildObserver(std::function<void(const QString &resource)> observer)
{
    QMutexLocker lock(&m_mutex);
    m_buildObserver = std::move(observer);
}

void LiveFeed::scheduleFlush()
{
    if (!m_flushScheduled) {
        m_flushScheduled = true;
        m_pendingSinceNs = m_age.nsecsElapsed();
        // A throttle, not a fixed delay: a lone change waits for nothing but the event loop.
        const qint64 sinceFlushMs = m_lastFlushNs < 0 ? m_coalesceMs : (m_pendingSinceNs - m_lastFlushNs) / 1000000;
        QTimer::singleShot(int(std::max<qint64>(0, m_coalesceMs - sinceFlushMs)), this, &LiveFeed::flush);
    }
}

void LiveFeed::markDirty(const QString &resource)
{
    if (!m_derived.contains(resource)) {
        return;
    }
    m_dirty.insert(resource);
    scheduleFlush();
}

void LiveFeed::append(const QString &resource, const QJsonArray &rows)
{
    QJsonArray &pending = m_appended[resource];
    for (const QJsonValue &v : rows) {
        pending.append(v);
    }
    scheduleFlush();
}

QSet<QString> LiveFeed::configuredSources() const
{
    QSet<QString> out;
    for (const core::SourceStatus &s : m_engine.statuses()) {
        out.insert(s.name);
    }
    return out;
}

void LiveFeed::flush()
{
    m_flushScheduled = false;
    m_lastFlushNs = m_age.nsecsElapsed();
    auto batches = std::make_shared<std::vector<Batch>>();
    const bool resync = std::exchange(m_resync, false);
    bool haveChanges = resync;
    for (auto it = m_channels.cbegin(); it != m_channels.cend() && !haveChanges; ++it) {
        haveChanges = (*it)->pending();
    }
    if (haveChanges) {
        const QSet<QString> sources = configuredSources();
        const QDateTime now = m_engine.clock().now();
        for (auto it = m_channels.cbegin(); it != m_channels.cend(); ++it) {
            if (resync) {
                batches->push_back((*it)->takeAll(sources, now));
            } else if ((*it)->pending()) {
                batches->push_back((*it)->take(sources, now));
            }
        }
    }
    // Derived rows read engine state that lives on this thread: they are read here, then
    // compared and serialised on the worker like the rest.
    for (const QString &resource : std::as_const(m_dirty)) {
        Batch b;
        b.resource = resource;
        b.full = true;
        b.rows = m_derived.value(resource)();
        batches->push_back(std::move(b));
    }
    m_dirty.clear();
    for (auto it = m_appended.begin(); it != m_appended.end(); ++it) {
        Batch b;
        b.resource = it.key();
        b.append = true;
        b.rows = std::move(it.value());
        batches->push_back(std::move(b));
    }
    m_appended.clear();
    if (batches->empty()) {
        return;
    }
    const qint64 enteredNs = m_pendingSinceNs;
    QMetaObject::invokeMethod(
        m_worker,
        [this, batches, enteredNs] {
            QList<QByteArray> tails;
            for (Batch &b : *batches) {
                QByteArray tail = apply(b);
                if (!tail.isEmpty()) {
                    tails.append(std::move(tail));
                }
            }
            if (!tails.isEmpty()) {
                QMetaObject::invokeMethod(
                    this,
                    [this, tails, enteredNs] {
                        deliver(tails, enteredNs);
                    },
                    Qt::QueuedConnection);
            }
        },
        Qt::QueuedConnection);
}

QByteArray LiveFeed::apply(Batch &batch)
{
    std::function<void(const QString &)> observer;
    {
        QMutexLocker lock(&m_mutex);
        observer = m_buildObserver;
    }
    if (observer) {
        observer(batch.resource);
    }
    QStringList estateKeys;
    const QJsonArray built = batch.build ? batch.build(&estateKeys) : std::move(batch.rows);

    // Serialise outside the lock; rows() only waits for the bookkeeping below.
    struct Row
    {
        QString key;
        QJsonObject object;
        QByteArray bytes;
    };
    std::vector<Row> rows;
    rows.reserve(static_cast<std::size_t>(built.size()));
    for (const QJsonValue &v : built) {
        QJsonObject object = v.toObject();
        QString key = liveRowKey(object);
        QByteArray bytes = QJsonDocument(object).toJson(QJsonDocument::Compact);
        rows.push_back({std::move(key), std::move(object), std::move(bytes)});
    }

    QByteArray upsert;
    QJsonArray remove;
    {
        QMutexLocker lock(&m_mutex);
        std::shared_ptr<Published> &slot = m_published[batch.resource];
        if (!slot) {
            slot = std::make_shared<Published>();
        }
        Published &p = *slot;
        const auto send = [&upsert](const QByteArray &bytes) {
            upsert += upsert.isEmpty() ? '[' : ',';
            upsert += bytes;
        };
        if (batch.full) {
            Published next;
            next.bytes.reserve(static_cast<qsizetype>(rows.size()));
            for (std::size_t i = 0; i < rows.size(); ++i) {
                Row &row = rows[i];
                if (p.bytes.value(row.key) != row.bytes) {
                    send(row.bytes);
                }
                if (!next.current.contains(row.key)) {
                    next.order.append(row.key);
                }
                if (i < static_cast<std::size_t>(estateKeys.size())) {
                    next.rowKeyOf.insert(estateKeys.at(static_cast<qsizetype>(i)), row.key);
                }
                next.current.insert(row.key, std::move(row.object));
                next.bytes.insert(row.key, std::move(row.bytes));
            }
            for (const QString &key : std::as_const(p.order)) {
                if (!next.bytes.contains(key)) {
                    remove.append(key);
                }
            }
            p = std::move(next);
        } else {
            QSet<QString> gone;
            for (const QString &estateKey : std::as_const(batch.removed)) {
                const QString key = p.rowKeyOf.take(estateKey);
                if (!key.isEmpty() && p.current.remove(key)) {
                    p.bytes.remove(key);
                    gone.insert(key);
                }
            }
            for (std::size_t i = 0; i < rows.size(); ++i) {
                Row &row = rows[i];
                const auto old = p.bytes.constFind(row.key);
                if (batch.append || old == p.bytes.cend() || *old != row.bytes) {
                    send(row.bytes);
                }
                // A key removed and upserted in one batch keeps its place and is not removed.
                if (!p.current.contains(row.key) && !gone.remove(row.key)) {
                    p.order.append(row.key);
                }
                if (i < static_cast<std::size_t>(estateKeys.size())) {
                    p.rowKeyOf.insert(estateKeys.at(static_cast<qsizetype>(i)), row.key);
                }
                p.current.insert(row.key, std::move(row.object));
                p.bytes.insert(row.key, std::move(row.bytes));
            }
            if (!gone.isEmpty()) {
                p.order.removeIf([&gone, &remove](const QString &key) {
                    if (!gone.contains(key)) {
                        return false;
                    }
                    remove.append(key);
                    return true;
                });
            }
        }
        if (batch.append) {
            p.appendOnly = true;
        }
        if (p.appendOnly && p.order.size() > kAppendedRowsKept) {
            // Append-only rows (sentences) are history the feature serves itself; the feed keeps
            // the newest for rows(), so a long-running server does not grow without bound.
            const qsizetype drop = p.order.size() - kAppendedRowsKept;
            for (qsizetype i = 0; i < drop; ++i) {
                p.current.remove(p.order.at(i));
                p.bytes.remove(p.order.at(i));
            }
            p.order.remove(0, drop);
        }
    }
    if (upsert.isEmpty() && remove.isEmpty()) {
        return {};
    }
    // The owner thread prefixes {"type":"diff","revision":N when it numbers the message.
    QByteArray tail = ",\"resource\":";
    tail += QJsonDocument(QJsonArray{batch.resource}).toJson(QJsonDocument::Compact).chopped(1).mid(1);
    tail += ",\"upsert\":";
    tail += upsert.isEmpty() ? QByteArray("[]") : upsert + ']';
    tail += ",\"remove\":";
    tail += QJsonDocument(remove).toJson(QJsonDocument::Compact);
    tail += '}';
    return tail;
}

double LiveFeed::deliveringAgeSeconds() const
{
    return m_deliveringSinceNs < 0 ? -1.0 : double(m_age.nsecsElapsed() - m_deliveringSinceNs) / 1e9;
}

void LiveFeed::deliver(const QList<QByteArray> &tails, qint64 enteredNs)
{
    m_deliveringSinceNs = enteredNs;
    for (const QByteArray &tail : tails) {
        ++m_revision;
        QByteArray bytes = "{\"type\":\"diff\",\"revision\":" + QByteArray::number(m_revision) + tail;
        m_keptBytes += bytes.size();
        m_history.emplace_back(m_revision, bytes);
        while (!m_history.empty() && (int(m_history.size()) > m_keptDiffs || m_keptBytes > m_maxKeptBytes)) {
            m_keptBytes -= m_history.front().second.size();
            m_history.pop_front();
        }
        Q_EMIT diffReady(m_revision, bytes);
    }
    m_deliveringSinceNs = -1;
}

bool LiveFeed::diffsSince(qint64 since, QList<QByteArray> *out) const
{
    if (since < 0 || since > m_revision) {
        return false;
    }
    if (since == m_revision) {
        return true;
    }
    if (m_history.empty() || m_history.front().first > since + 1) {
        return false;
    }
    for (const auto &[rev, bytes] : m_history) {
        if (rev > since && out) {
            out->append(bytes);
        }
    }
    return true;
}

QJsonArray LiveFeed::rows(const QString &resource) const
{
    QJsonArray out;
    QMutexLocker lock(&m_mutex);
    const auto it = m_published.constFind(resource);
    if (it == m_published.constEnd()) {
        return out;
    }
    for (const QString &key : std::as_const((*it)->order)) {
        out.append((*it)->current.value(key));
    }
    return out;
}

QStringList LiveFeed::resources() const
{
    QSet<QString> names;
    {
        QMutexLocker lock(&m_mutex);
        for (auto it = m_published.cbegin(); it != m_published.cend(); ++it) {
            names.insert(it.key());
        }
    }
    for (auto it = m_channels.cbegin(); it != m_channels.cend(); ++it) {
        names.insert(it.key());
    }
    for (auto it = m_derived.cbegin(); it != m_derived.cend(); ++it) {
        names.insert(it.key());
    }
    QStringList out(names.cbegin(), names.cend());
    out.sort();
    return out;
}

} // namespace strata::web
