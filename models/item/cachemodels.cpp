#include "models/item/cachemodels.h"

#include "models/core/domain/format.h"
#include "models/item/commitmodel.h"
#include "models/item/datasetmodel.h"
#include "models/item/roles.h"

#include <QLocale>

namespace strata::models {

namespace {

QString targetKey(const core::CachedCommit &c)
{
    return c.source + QLatin1Char('/') + c.target;
}

bool occupiesTarget(core::CacheState state)
{
    return state != core::CacheState::Evicted && state != core::CacheState::Failed;
}

} // namespace

CacheTargetModel::CacheTargetModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(ColumnCount, parent)
    , m_estate(estate)
{
    setNumericColumns({Capacity, Used, Cached, Commits});
    recount();
    follow(estate.cacheTargets(), &estate, &core::Estate::cacheTargetsChanged);
    connect(&estate, &core::Estate::cachedCommitsChanged, this, [this](const core::CachedCommitDiff &) {
        const QHash<QString, int> before = m_commits;
        recount();
        emitChanged(rowsWhere([&](const core::CacheTarget &t) {
                        const QString key = core::estateKey(t);
                        return before.value(key) != m_commits.value(key);
                    }),
                    Commits,
                    Commits);
    });
}

void CacheTargetModel::recount()
{
    m_commits.clear();
    for (const core::Ptr<core::CachedCommit> &c : m_estate.cachedCommits().all()) {
        if (occupiesTarget(c->state)) {
            ++m_commits[targetKey(*c)];
        }
    }
}

double CacheTargetModel::usagePercent(const core::CacheTarget &t)
{
    return t.capacityBytes > 0 ? 100.0 * double(t.usedBytes) / double(t.capacityBytes) : -1.0;
}

QString CacheTargetModel::policyText(const core::CacheTarget &t)
{
    return t.evictAfterDays == 1
               ? tr("evict after 1 day unused, LRU above %1 %").arg(t.highWatermarkPercent)
               : tr("evict after %1 days unused, LRU above %2 %").arg(t.evictAfterDays).arg(t.highWatermarkPercent);
}

QVariant CacheTargetModel::recordData(const core::CacheTarget &t, const QModelIndex &index, int role) const
{
    const double usage = usagePercent(t);
    switch (role) {
    case LimitRole:
        return index.column() == Usage ? QVariant(double(t.highWatermarkPercent)) : QVariant();
    case StatusRole:
        if (!t.problem.isEmpty()) {
            return QStringLiteral("critical");
        }
        if (index.column() == Usage && usage >= t.highWatermarkPercent) {
            return QStringLiteral("warning");
        }
        return QStringLiteral("ok");
    case Qt::ToolTipRole:
        if (index.column() == Usage) {
            return tr("%1 of %2 used, %3 by cached commits; high watermark %4 %")
                .arg(core::formatBytes(t.usedBytes), core::formatBytes(t.capacityBytes))
                .arg(core::formatBytes(t.cachedBytes))
                .arg(t.highWatermarkPercent);
        }
        if (index.column() == Claim && !t.pvcPhase.isEmpty()) {
            return tr("Claim phase: %1").arg(t.pvcPhase);
        }
        return {};
    default:
        return {};
    }
}

std::optional<QVariant> CacheTargetModel::sortData(const core::CacheTarget &t, int column) const
{
    switch (column) {
    case Usage:
        return usagePercent(t);
    case Capacity:
        return t.capacityBytes;
    case Used:
        return t.usedBytes;
    case Cached:
        return t.cachedBytes;
    case Commits:
        return m_commits.value(core::estateKey(t));
    default:
        return std::nullopt;
    }
}

QVariant CacheTargetModel::displayData(const core::CacheTarget &t, int column) const
{
    const QLocale locale;
    const double usage = usagePercent(t);
    switch (column) {
    case Name:
        return t.id;
    case Cluster:
        return t.source;
    case Claim:
        return QString(t.namespaceName + QLatin1Char('/') + t.pvc);
    case Volume:
        return t.volumeName.isEmpty() ? t.storageVolumeId : t.volumeName;
    case Usage:
        // The bytes have their own Capacity and Used columns (and the tooltip): the bar's text
        // repeating them made the table wider than a 1280 px window.
        return usage < 0 ? QString() : tr("%1 %").arg(locale.toString(usage, 'f', 1));
    case Capacity:
        return core::formatBytes(t.capacityBytes);
    case Used:
        return core::formatBytes(t.usedBytes);
    case Cached:
        return core::formatBytes(t.cachedBytes);
    case Commits:
        return m_commits.value(core::estateKey(t));
    case Policy:
        return policyText(t);
    case Problem:
        return t.problem;
    default:
        return {};
    }
}

QStringList CacheTargetModel::columnTitles() const
{
    return {tr("Target"),
            tr("Cluster"),
            tr("Claim"),
            tr("Volume"),
            tr("Usage"),
            tr("Capacity"),
            tr("Used"),
            tr("Cached"),
            tr("Commits"),
            tr("Eviction policy"),
            tr("Problem")};
}

CachedCommitModel::CachedCommitModel(core::Estate &estate, Clock now, QObject *parent)
    : KeyedTableModel(ColumnCount, parent)
    , m_clock(std::move(now))
    , m_now(m_clock())
{
    setNumericColumns({Size});
    follow(estate.cachedCommits(), &estate, &core::Estate::cachedCommitsChanged);
}

void CachedCommitModel::tick()
{
    m_now = m_clock();
    emitChanged(rowsWhere([](const core::CachedCommit &c) {
                    return c.evictAt.isValid();
                }),
                Eviction,
                Eviction);
}

QString CachedCommitModel::evictionText(const core::CachedCommit &c, const QDateTime &now)
{
    if (c.state == core::CacheState::Evicting) {
        return tr("evicting");
    }
    if (c.state != core::CacheState::Ready || !c.evictAt.isValid()) {
        return {};
    }
    const qint64 seconds = now.secsTo(c.evictAt);
    QString when;
    if (seconds <= 0) {
        when = tr("evicts now");
    } else if (seconds >= 86400) {
        const int days = int((seconds + 43200) / 86400);
        when = days == 1 ? tr("evicts in 1 day") : tr("evicts in %1 days").arg(days);
    } else if (seconds >= 3600) {
        const int hours = int((seconds + 1800) / 3600);
        when = hours == 1 ? tr("evicts in 1 hour") : tr("evicts in %1 hours").arg(hours);
    } else {
        const int minutes = int(std::max<qint64>(1, (seconds + 30) / 60));
        when = minutes == 1 ? tr("evicts in 1 minute") : tr("evicts in %1 minutes").arg(minutes);
    }
    return c.evictReason.isEmpty() ? when : tr("%1 (%2)").arg(when, c.evictReason);
}

QVariant CachedCommitModel::recordData(const core::CachedCommit &c, const QModelIndex &index, int role) const
{
    switch (role) {
    case FilterTextRole:
        return QStringList{c.datasetName, c.commitId, c.target, c.source}.join(QLatin1Char(' '));
    case StatusRole:
        if (index.column() == Eviction && c.evictAt.isValid() && c.state == core::CacheState::Ready) {
            return m_now.secsTo(c.evictAt) < 86400 ? QStringLiteral("warning") : QStringLiteral("ok");
        }
        return CommitModel::cacheStatus(c.state);
    case Qt::ToolTipRole:
        switch (index.column()) {
        case Commit:
            return c.commitId;
        case State:
        case Reason:
            return c.reason;
        case UsedBy:
            return c.usedBy.join(QLatin1Char('\n'));
        case Progress:
            return c.job.isEmpty() ? QVariant() : QVariant(tr("Job %1").arg(c.job));
        case Target:
            return c.path.isEmpty() ? QVariant() : QVariant(tr("Path on the volume: %1").arg(c.path));
        default:
            return {};
        }
    default:
        return {};
    }
}

std::optional<QVariant> CachedCommitModel::sortData(const core::CachedCommit &c, int column) const
{
    switch (column) {
    case Dataset:
        return QString(c.datasetSource + QLatin1Char('/') + c.datasetId);
    case Commit:
        return c.commitId;
    case State:
        return int(c.state);
    case Progress:
        return CommitModel::progressPercent(c);
    case Size:
        return c.bytesTotal;
    case LastUsed:
        return c.lastUsed;
    case Eviction:
        return c.evictAt;
    default:
        return std::nullopt;
    }
}

QVariant CachedCommitModel::displayData(const core::CachedCommit &c, int column) const
{
    const QLocale locale;
    switch (column) {
    case Dataset:
        return c.datasetName;
    case Commit:
        return DatasetModel::shortId(c.commitId);
    case Target:
        return c.target;
    case State:
        return CommitModel::cacheStateText(c);
    case Progress: {
        const double p = CommitModel::progressPercent(c);
        if (p < 0) {
            return QString();
        }
        // Counts only where there are some (a file dataset's copy has no object count).
        if (c.objectsTotal <= 0) {
            return c.bytesTotal > 0
                       ? tr("%1 % · %2/%3")
                             .arg(int(p))
                             .arg(core::formatBytes(c.bytesDone, locale), core::formatBytes(c.bytesTotal, locale))
                       : tr("%1 %").arg(int(p));
        }
        return tr("%1 % · %2/%3 objects · %4/%5")
            .arg(int(p))
            .arg(locale.toString(c.objectsDone), locale.toString(c.objectsTotal))
            .arg(core::formatBytes(c.bytesDone), core::formatBytes(c.bytesTotal));
    }
    case Size:
        return core::formatBytes(c.bytesTotal);
    case LastUsed:
        return c.lastUsed.isValid() ? locale.toString(c.lastUsed.toLocalTime(), QLocale::ShortFormat) : tr("never");
    case UsedBy:
        return c.usedBy.join(QStringLiteral(", "));
    case Eviction:
        return evictionText(c, m_now);
    case Reason:
        return c.reason;
    default:
        return {};
    }
}

QStringList CachedCommitModel::columnTitles() const
{
    return {tr("Dataset"),
            tr("Commit"),
            tr("Target"),
            tr("State"),
            tr("Progress"),
            tr("Size"),
            tr("Last used"),
            tr("Used by"),
            tr("Eviction"),
            tr("Reason")};
}

} // namespace strata::models
