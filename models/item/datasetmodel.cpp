#include "models/item/datasetmodel.h"

#include "models/item/roles.h"

#include <QLocale>

namespace strata::models {

DatasetModel::DatasetModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(ColumnCount, parent)
    , m_estate(estate)
{
    setNumericColumns({CachedCommits, Size, Objects, Commits});
    follow(estate.datasets(), &estate, &core::Estate::datasetsChanged, [this](const core::DatasetDiff &diff) {
        recountCaches();
        applyDiff(diff);
    });
    connect(&estate, &core::Estate::cachedCommitsChanged, this, [this](const core::CachedCommitDiff &) {
        const QHash<QString, int> cached = m_cached;
        const QHash<QString, int> loading = m_loading;
        const QHash<QString, QDateTime> lastUsed = m_lastUsed;
        recountCaches();
        std::vector<int> rows = rowsWhere([&](const core::Dataset &d) {
            const QString key = core::estateKey(d);
            return cached.value(key) != m_cached.value(key) || loading.value(key) != m_loading.value(key)
                   || lastUsed.value(key) != m_lastUsed.value(key);
        });
        emitChanged(rows, CachedCommits, CachedCommits);
        emitChanged(std::move(rows), LastActive, LastActive);
    });
    connect(&estate, &core::Estate::hubChanged, this, &DatasetModel::headerChanged);
    // A volume dataset's location is its volume's name, which may be listed after the dataset.
    connect(&estate, &core::Estate::volumesChanged, this, [this](const core::VolumeDiff &) {
        emitChanged(rowsWhere([](const core::Dataset &d) {
                        return d.kind == core::DatasetKind::OntapVolume;
                    }),
                    Location,
                    Location);
    });
}

void DatasetModel::recountCaches()
{
    m_cached.clear();
    m_loading.clear();
    m_lastUsed.clear();
    const core::HubSummary summary = core::summarize(m_estate);
    for (auto it = summary.rows.cbegin(); it != summary.rows.cend(); ++it) {
        m_cached.insert(it.key(), it->cachedCommits);
        m_loading.insert(it.key(), it->loadingCommits);
        m_lastUsed.insert(it.key(), it->lastActivity);
    }
}

QDateTime DatasetModel::lastActive(const core::Dataset &dataset) const
{
    const QDateTime used = m_lastUsed.value(core::estateKey(dataset));
    if (!dataset.lastActivity.isValid()) {
        return used;
    }
    return used.isValid() && used > dataset.lastActivity ? used : dataset.lastActivity;
}

core::HubSummary DatasetModel::summary() const
{
    return core::summarize(m_estate);
}

QVariant DatasetModel::recordData(const core::Dataset &d, const QModelIndex &index, int role) const
{
    const QString key = core::estateKey(d);
    switch (role) {
    case FilterTextRole:
        return QStringList{d.name, d.source, d.bucket, d.prefix, kindText(d.kind)}.join(QLatin1Char(' '));
    case StatusRole:
        if (index.column() == CachedCommits) {
            if (m_loading.value(key) > 0) {
                return QStringLiteral("running");
            }
            return m_cached.value(key) > 0 ? QStringLiteral("ok") : QStringLiteral("unknown");
        }
        return QStringLiteral("ok");
    case Qt::ToolTipRole:
        switch (index.column()) {
        case Name:
            return d.headCommit.isEmpty() ? tr("No commit yet") : tr("Head commit %1").arg(d.headCommit);
        case CachedCommits:
            if (m_loading.value(key) > 0) {
                return tr("%n ready, %1 loading", nullptr, m_cached.value(key)).arg(m_loading.value(key));
            }
            return {};
        case Size:
            return core::formatBytes(d.sizeBytes);
        case Objects:
            return d.kind == core::DatasetKind::OntapVolume
                       ? tr("A volume: the source reports its used bytes, not objects")
                       : QVariant();
        default:
            return {};
        }
    default:
        return {};
    }
}

std::optional<QVariant> DatasetModel::sortData(const core::Dataset &d, int column) const
{
    switch (column) {
    case CachedCommits:
        return m_cached.value(core::estateKey(d));
    case Size:
        return d.sizeBytes;
    case Objects:
        // ONTAP counts no objects in a volume: unknown, not zero (sorts apart from 0).
        return d.kind == core::DatasetKind::OntapVolume ? QVariant() : QVariant(d.objectCount);
    case Commits:
        return d.commitCount;
    case LastActive:
        return lastActive(d);
    default:
        return std::nullopt;
    }
}

QVariant DatasetModel::displayData(const core::Dataset &d, int column) const
{
    const QString key = core::estateKey(d);
    const QLocale locale;
    switch (column) {
    case Name:
        return d.name;
    case Source:
        return d.source;
    case Kind:
        return kindText(d.kind);
    case Location:
        return core::datasetLocation(m_estate, d);
    case CachedCommits: {
        const int loading = m_loading.value(key);
        return loading > 0 ? tr("%1 (+%2 loading)").arg(m_cached.value(key)).arg(loading)
                           : QString::number(m_cached.value(key));
    }
    case Size:
        return d.commitCount > 0 ? core::formatBytes(d.sizeBytes) : QString();
    case Objects:
        if (d.commitCount == 0) {
            return QString();
        }
        return d.kind == core::DatasetKind::OntapVolume ? QString::fromUtf16(core::kUnknownText)
                                                        : locale.toString(d.objectCount);
    case Commits:
        return locale.toString(d.commitCount);
    case LastActive: {
        const QDateTime t = lastActive(d);
        return t.isValid() ? locale.toString(t.toLocalTime(), QLocale::ShortFormat) : QString();
    }
    default:
        return {};
    }
}

QStringList DatasetModel::columnTitles() const
{
    return {tr("Dataset"),
            tr("Source"),
            tr("Kind"),
            tr("Location"),
            tr("Cached commits"),
            tr("Size"),
            tr("Objects"),
            tr("Commits"),
            tr("Last active")};
}

QString DatasetModel::shortId(const QString &commitId)
{
    return commitId.left(12);
}

QString DatasetModel::kindText(core::DatasetKind kind)
{
    switch (kind) {
    case core::DatasetKind::S3Prefix:
        return tr("Prefix");
    case core::DatasetKind::S3Bucket:
        return tr("Bucket");
    case core::DatasetKind::OntapVolume:
        return tr("ONTAP volume");
    }
    return {};
}

} // namespace strata::models
