#include "web/livefeed.h"

#include "models/core/engine.h"
#include "models/core/estate.h"
#include "models/core/timeline.h"

#include <QJsonDocument>
#include <QTimer>

#include <algorithm>

namespace strata::web {

struct LiveFeed::Resource
{
    RowSource rows;
    /// Compact JSON of every row as last published, by key: a re-read row is sent again only
    /// when its bytes differ.
    QHash<QString, QByteArray> published;
    QList<QString> order; ///< keys in the order rows() returns them
    QHash<QString, QJsonObject> current;
    bool dirty = false;
    QJsonArray appended;
};

namespace {

constexpr qsizetype kAppendedRowsKept = 20000;

QString keyOf(const QJsonObject &row)
{
    return row.value(QLatin1String("key")).toString();
}

} // namespace

LiveFeed::LiveFeed(core::Engine &engine, int coalesceMs, int keptDiffs, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_coalesceMs(coalesceMs)
    , m_keptDiffs(std::max(1, keptDiffs))
{
    core::Estate &estate = engine.estate();
    // Which resources a model-layer signal can change (a row of one resource often shows counts
    // of another, e.g. a volume's snapshot count).
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
        const QStringList all = m_resources.keys();
        for (const QString &r : all) {
            markDirty(r);
        }
    });
    connect(&estate, &core::Estate::volumesChanged, this, dirty({s("volumes"), s("service-levels")}));
    connect(&estate, &core::Estate::volumePerfChanged, this, dirty({s("service-levels")}));
    connect(&estate, &core::Estate::snapshotsChanged, this, dirty({s("snapshots"), s("volumes")}));
    connect(&estate, &core::Estate::gpuClustersChanged, this, dirty({s("clusters")}));
    connect(&estate, &core::Estate::gpuNodesChanged, this, dirty({s("nodes"), s("clusters")}));
    connect(&estate, &core::Estate::projectsChanged, this, dirty({s("projects")}));
    connect(&estate, &core::Estate::jobsChanged, this, dirty({s("jobs"), s("projects"), s("nodes"), s("clusters")}));
    connect(&estate, &core::Estate::pvcsChanged, this, dirty({s("pvcs"), s("jobs")}));
    connect(&estate, &core::Estate::capacityPoolsChanged, this, dirty({s("pools"), s("service-levels")}));
    connect(&estate, &core::Estate::aksClustersChanged, this, dirty({s("aks")}));
    connect(&estate, &core::Estate::gridSummariesChanged, this, dirty({s("grids")}));
    connect(&estate, &core::Estate::gridNodesChanged, this, dirty({s("grids")}));
    connect(&estate, &core::Estate::gridAlertsChanged, this, dirty({s("alerts"), s("grids")}));
    connect(&estate, &core::Estate::tenantsChanged, this, dirty({s("tenants")}));
    connect(&estate, &core::Estate::bucketsChanged, this, dirty({s("buckets"), s("tenants")}));
    connect(&estate, &core::Estate::datasetsChanged, this, dirty({s("datasets")}));
    connect(&estate, &core::Estate::commitsChanged, this, dirty({s("commits"), s("datasets")}));
    connect(&estate, &core::Estate::cacheTargetsChanged, this, dirty({s("cache-targets"), s("caches")}));
    connect(&estate,
            &core::Estate::cachedCommitsChanged,
            this,
            dirty({s("caches"), s("cache-targets"), s("datasets"), s("commits")}));
}

LiveFeed::~LiveFeed() = default;

void LiveFeed::addResource(const QString &resource, RowSource rows)
{
    auto r = std::make_shared<Resource>();
    r->rows = std::move(rows);
    // The first read is the baseline every client loads over HTTP; it is not a diff.
    const QJsonArray initial = r->rows();
    for (const QJsonValue &v : initial) {
        const QJsonObject row = v.toObject();
        const QString key = keyOf(row);
        if (!r->current.contains(key)) {
            r->order.append(key);
        }
        r->current.insert(key, row);
        r->published.insert(key, QJsonDocument(row).toJson(QJsonDocument::Compact));
    }
    m_resources.insert(resource, std::move(r));
}

void LiveFeed::markDirty(const QString &resource)
{
    const auto it = m_resources.find(resource);
    if (it == m_resources.end()) {
        return;
    }
    (*it)->dirty = true;
    if (!m_flushScheduled) {
        m_flushScheduled = true;
        QTimer::singleShot(m_coalesceMs, this, &LiveFeed::flush);
    }
}

void LiveFeed::append(const QString &resource, const QJsonArray &rows)
{
    auto it = m_resources.find(resource);
    if (it == m_resources.end()) {
        it = m_resources.insert(resource, std::make_shared<Resource>());
    }
    for (const QJsonValue &v : rows) {
        (*it)->appended.append(v);
    }
    if (!m_flushScheduled) {
        m_flushScheduled = true;
        QTimer::singleShot(m_coalesceMs, this, &LiveFeed::flush);
    }
}

void LiveFeed::flush()
{
    m_flushScheduled = false;
    for (auto it = m_resources.begin(); it != m_resources.end(); ++it) {
        Resource &r = **it;
        QJsonArray upsert;
        QJsonArray remove;
        if (r.dirty && r.rows) {
            r.dirty = false;
            const QJsonArray next = r.rows();
            QHash<QString, QByteArray> published;
            QHash<QString, QJsonObject> current;
            QList<QString> order;
            published.reserve(next.size());
            for (const QJsonValue &v : next) {
                const QJsonObject row = v.toObject();
                const QString key = keyOf(row);
                QByteArray bytes = QJsonDocument(row).toJson(QJsonDocument::Compact);
                if (r.published.value(key) != bytes) {
                    upsert.append(row);
                }
                if (!current.contains(key)) {
                    order.append(key);
                }
                current.insert(key, row);
                published.insert(key, std::move(bytes));
            }
            for (const QString &key : std::as_const(r.order)) {
                if (!published.contains(key)) {
                    remove.append(key);
                }
            }
            r.published = std::move(published);
            r.current = std::move(current);
            r.order = std::move(order);
        }
        for (const QJsonValue &v : std::as_const(r.appended)) {
            const QJsonObject row = v.toObject();
            const QString key = keyOf(row);
            if (!r.current.contains(key)) {
                r.order.append(key);
            }
            r.current.insert(key, row);
            r.published.insert(key, QJsonDocument(row).toJson(QJsonDocument::Compact));
            upsert.append(row);
        }
        r.appended = {};
        if (!r.rows && r.order.size() > kAppendedRowsKept) {
            // Append-only rows (sentences) are history the feature serves itself; the feed keeps
            // the newest for rows(), so a long-running server does not grow without bound.
            const qsizetype drop = r.order.size() - kAppendedRowsKept;
            for (qsizetype i = 0; i < drop; ++i) {
                r.current.remove(r.order.at(i));
                r.published.remove(r.order.at(i));
            }
            r.order.remove(0, drop);
        }
        if (upsert.isEmpty() && remove.isEmpty()) {
            continue;
        }
        ++m_revision;
        const QJsonObject message{{QStringLiteral("type"), QStringLiteral("diff")},
                                  {QStringLiteral("revision"), m_revision},
                                  {QStringLiteral("resource"), it.key()},
                                  {QStringLiteral("upsert"), upsert},
                                  {QStringLiteral("remove"), remove}};
        QByteArray bytes = QJsonDocument(message).toJson(QJsonDocument::Compact);
        m_keptBytes += bytes.size();
        m_history.emplace_back(m_revision, bytes);
        while (!m_history.empty() && (int(m_history.size()) > m_keptDiffs || m_keptBytes > m_maxKeptBytes)) {
            m_keptBytes -= m_history.front().second.size();
            m_history.pop_front();
        }
        Q_EMIT diffReady(m_revision, bytes);
    }
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
    const auto it = m_resources.constFind(resource);
    if (it == m_resources.constEnd()) {
        return out;
    }
    for (const QString &key : std::as_const((*it)->order)) {
        out.append((*it)->current.value(key));
    }
    return out;
}

QStringList LiveFeed::resources() const
{
    QStringList out = m_resources.keys();
    out.sort();
    return out;
}

} // namespace strata::web
