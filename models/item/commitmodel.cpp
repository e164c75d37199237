#include "models/item/commitmodel.h"

#include "models/item/datasetmodel.h"
#include "models/item/roles.h"

#include <QLocale>

namespace strata::models {

CommitModel::CommitModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(ColumnCount, parent)
    , m_estate(estate)
{
    setNumericColumns({Objects, Size});
    connect(&estate, &core::Estate::commitsChanged, this, [this](const core::CommitDiff &diff) {
        if (m_datasetId.isEmpty()) {
            return;
        }
        core::CommitDiff mine;
        for (const core::Ptr<core::Commit> &c : diff.added) {
            if (inScope(*c)) {
                mine.added.push_back(c);
            }
        }
        for (const core::Ptr<core::Commit> &c : diff.changed) {
            if (inScope(*c)) {
                mine.changed.push_back(c);
            }
        }
        // Removed keys carry no dataset; removeKeys ignores keys that are not shown.
        mine.removed = diff.removed;
        applyDiff(mine);
    });
    connect(&estate, &core::Estate::cachedCommitsChanged, this, [this](const core::CachedCommitDiff &) {
        if (m_datasetId.isEmpty()) {
            return;
        }
        const auto before = m_caches;
        rebuildCaches();
        std::vector<int> rows;
        for (int row = 0; row < rowCount(); ++row) {
            const QString id = recordAt(row)->id;
            const auto a = before.value(id);
            const auto b = m_caches.value(id);
            bool same = a.size() == b.size();
            for (qsizetype i = 0; same && i < a.size(); ++i) {
                same = a[i] == b[i] || *a[i] == *b[i];
            }
            if (!same) {
                rows.push_back(row);
            }
        }
        emitChanged(std::move(rows), Cached, Cached);
    });
}

bool CommitModel::inScope(const core::Commit &commit) const
{
    return commit.source == m_source && commit.datasetId == m_datasetId;
}

bool CommitModel::countsObjects() const
{
    const core::Ptr<core::Dataset> dataset =
        m_estate.datasets().find(m_source, m_source + QLatin1Char('/') + m_datasetId);
    return !dataset || dataset->kind != core::DatasetKind::OntapVolume;
}

void CommitModel::setDataset(const QString &source, const QString &datasetId)
{
    if (source == m_source && datasetId == m_datasetId) {
        return;
    }
    m_source = source;
    m_datasetId = datasetId;
    rebuildCaches();
    std::vector<core::Ptr<core::Commit>> rows;
    if (!datasetId.isEmpty()) {
        for (const core::Ptr<core::Commit> &c : m_estate.commits().all(source)) {
            if (inScope(*c)) {
                rows.push_back(c);
            }
        }
    }
    resetRows(std::move(rows));
}

void CommitModel::rebuildCaches()
{
    m_caches.clear();
    if (m_datasetId.isEmpty()) {
        return;
    }
    for (const core::Ptr<core::CachedCommit> &c : m_estate.cachedCommits().all()) {
        if (c->datasetSource == m_source && c->datasetId == m_datasetId) {
            m_caches[c->commitId].append(c);
        }
    }
    for (auto &list : m_caches) {
        std::sort(list.begin(), list.end(), [](const auto &a, const auto &b) {
            return a->target < b->target;
        });
    }
}

double CommitModel::progressPercent(const core::CachedCommit &c)
{
    if (c.state == core::CacheState::Ready) {
        return 100.0;
    }
    if (c.bytesTotal > 0) {
        return 100.0 * double(c.bytesDone) / double(c.bytesTotal);
    }
    if (c.objectsTotal > 0) {
        return 100.0 * double(c.objectsDone) / double(c.objectsTotal);
    }
    return -1.0;
}

QString CommitModel::cacheStateText(const core::CachedCommit &c)
{
    switch (c.state) {
    case core::CacheState::Requested:
        return tr("requested");
    case core::CacheState::Loading: {
        const double p = progressPercent(c);
        return p < 0 ? tr("loading") : tr("loading %1 %").arg(int(p));
    }
    case core::CacheState::Ready:
        return tr("ready");
    case core::CacheState::Evicting:
        return tr("evicting");
    case core::CacheState::Evicted:
        return tr("evicted");
    case core::CacheState::Failed:
        return tr("failed");
    }
    return {};
}

QString CommitModel::cacheStatus(core::CacheState state)
{
    switch (state) {
    case core::CacheState::Requested:
        return QStringLiteral("pending");
    case core::CacheState::Loading:
        return QStringLiteral("running");
    case core::CacheState::Ready:
        return QStringLiteral("ok");
    case core::CacheState::Evicting:
        return QStringLiteral("warning");
    case core::CacheState::Evicted:
        return QStringLiteral("offline");
    case core::CacheState::Failed:
        return QStringLiteral("failed");
    }
    return QStringLiteral("unknown");
}

QVariant CommitModel::recordData(const core::Commit &c, const QModelIndex &index, int role) const
{
    const QList<core::Ptr<core::CachedCommit>> caches = m_caches.value(c.id);
    // A commit of an ONTAP file dataset is a snapshot: ONTAP reports neither its objects nor
    // their bytes, so both are unknown ("—", as the web console and the CLI show), never 0.
    // (displayData() and sortData() give "—" and a null sort value for the same cells.)
    if (role == Qt::ToolTipRole && (index.column() == Objects || index.column() == Size) && !countsObjects()) {
        return index.column() == Objects ? tr("The source does not report objects for a snapshot")
                                         : tr("The source does not report the size of a snapshot");
    }
    switch (role) {
    case StatusRole:
        if (index.column() == Cached && !caches.isEmpty()) {
            // The most noteworthy copy: a failure, then work in progress, then ready.
            for (core::CacheState s : {core::CacheState::Failed,
                                       core::CacheState::Loading,
                                       core::CacheState::Requested,
                                       core::CacheState::Evicting,
                                       core::CacheState::Ready}) {
                for (const auto &cc : caches) {
                    if (cc->state == s) {
                        return cacheStatus(s);
                    }
                }
            }
            return QStringLiteral("offline");
        }
        // Not cached anywhere: no dot at all, a green one read as "cached".
        return index.column() == Cached ? QStringLiteral("none") : QStringLiteral("ok");
    case Qt::ToolTipRole:
        switch (index.column()) {
        case Id:
            return c.id;
        case Parent:
            return c.parent;
        case Message:
            return c.message;
        case Cached: {
            QStringList lines;
            for (const auto &cc : caches) {
                QString line = cc->target + QStringLiteral(": ") + cacheStateText(*cc);
                if (!cc->reason.isEmpty()) {
                    line += QStringLiteral(" — ") + cc->reason;
                }
                lines << line;
            }
            return lines.join(QLatin1Char('\n'));
        }
        default:
            return {};
        }
    default:
        return {};
    }
}

std::optional<QVariant> CommitModel::sortData(const core::Commit &c, int column) const
{
    switch (column) {
    case Time:
        return c.time;
    case Objects:
        return countsObjects() ? QVariant(c.objectCount) : QVariant(); // unknown sorts apart from 0
    case Size:
        return countsObjects() ? QVariant(c.bytes) : QVariant();
    case Cached:
        return int(m_caches.value(c.id).size());
    default:
        return std::nullopt;
    }
}

QVariant CommitModel::displayData(const core::Commit &c, int column) const
{
    const QLocale locale;
    const QList<core::Ptr<core::CachedCommit>> caches = m_caches.value(c.id);
    switch (column) {
    case Id:
        return DatasetModel::shortId(c.id);
    case Message:
        return c.message.section(QLatin1Char('\n'), 0, 0);
    case Author:
        return c.author;
    case Time:
        return c.time.isValid() ? locale.toString(c.time.toLocalTime(), QLocale::ShortFormat) : QString();
    // A commit of an ONTAP file dataset is a snapshot: ONTAP reports neither its objects nor
    // their bytes, so both are unknown ("—", as the web console and the CLI show), never 0.
    case Objects:
        return countsObjects() ? locale.toString(c.objectCount) : QString::fromUtf16(core::kUnknownText);
    case Size:
        return countsObjects() ? core::formatBytes(c.bytes) : QString::fromUtf16(core::kUnknownText);
    case Parent:
        return DatasetModel::shortId(c.parent);
    case Cached: {
        QStringList parts;
        for (const auto &cc : caches) {
            parts << tr("%1 on %2").arg(cacheStateText(*cc), cc->target);
        }
        return parts.join(QStringLiteral("; "));
    }
    default:
        return {};
    }
}

QStringList CommitModel::columnTitles() const
{
    return {
        tr("Commit"), tr("Message"), tr("Author"), tr("Time"), tr("Objects"), tr("Size"), tr("Parent"), tr("Cached")};
}

} // namespace strata::models
