#include "models/item/volumetablemodel.h"

#include "models/core/planning/volumecapacity.h"
#include "models/item/roles.h"

namespace strata::models {

VolumeTableModel::VolumeTableModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(ColumnCount, parent)
{
    setNumericColumns({Size, Used, PercentUsed, Available, Snapshots, Iops, Throughput, Latency});
    follow(estate.volumes(), &estate, &core::Estate::volumesChanged);
    core::VolumePerfDiff perf;
    perf.added = estate.volumePerf().all();
    applyPerf(perf);
    connect(&estate, &core::Estate::volumePerfChanged, this, &VolumeTableModel::applyPerf);
}

QString VolumeTableModel::capacityStatus(const core::Volume &volume)
{
    if (volume.state != QLatin1String("online")) {
        return QStringLiteral("offline");
    }
    const std::optional<double> percent = core::volumeCapacity(volume).percentUsed;
    if (!percent) {
        return QStringLiteral("unknown");
    }
    if (*percent >= 95.0) {
        return QStringLiteral("critical");
    }
    if (*percent >= 85.0) {
        return QStringLiteral("warning");
    }
    return QStringLiteral("ok");
}

QString VolumeTableModel::filterText(const core::Volume &v)
{
    return v.name + QLatin1Char(' ') + v.svm + QLatin1Char(' ') + v.source + QLatin1Char(' ') + v.qosPolicy
           + QLatin1Char(' ') + v.nasPath;
}

QVariant VolumeTableModel::recordData(const core::Volume &v, const QModelIndex &index, int role) const
{
    const auto source = m_sources.constFind(v.source);
    const bool stale = source != m_sources.cend() && (source->stale || source->health != core::Health::Ok);
    switch (role) {
    case StaleRole:
        return stale;
    case FilterTextRole:
        return filterText(v);
    case StatusRole:
        if (index.column() == PercentUsed || index.column() == Used) {
            return capacityStatus(v);
        }
        if (index.column() == State) {
            return v.state == QLatin1String("online") ? QStringLiteral("ok") : QStringLiteral("offline");
        }
        return stale ? QStringLiteral("stale") : QStringLiteral("ok");
    case Qt::ToolTipRole:
        if (stale) {
            return tr("Data from %1 may be out of date: %2")
                .arg(v.source, source->lastError.isEmpty() ? tr("the last poll is late") : source->lastError);
        }
        // The denominator of % used, stated where the figures are.
        if (index.column() == PercentUsed || index.column() == Used || index.column() == Size) {
            return core::volumeCapacityText(core::volumeCapacity(v));
        }
        if (!v.cloneParent.isEmpty()) {
            return tr("FlexClone of %1").arg(v.cloneParent);
        }
        return {};
    default:
        return {};
    }
}

std::optional<QVariant> VolumeTableModel::sortData(const core::Volume &v, int column) const
{
    const core::Ptr<core::VolumePerf> perf = m_perf.value(core::estateKey(v));
    switch (column) {
    case Size:
        return v.sizeBytes;
    // Unknown space is a null QVariant, which sorts before every figure.
    case Used:
        return v.usedBytes ? QVariant(*v.usedBytes) : QVariant();
    case PercentUsed:
        if (const std::optional<double> percent = core::volumeCapacity(v).percentUsed) {
            return *percent;
        }
        return QVariant();
    case Available:
        return v.availableBytes ? QVariant(*v.availableBytes) : QVariant();
    case Snapshots:
        return v.snapshotCount;
    case Iops:
        return perf ? perf->totalIops : -1.0;
    case Throughput:
        return perf ? perf->throughputBps : -1.0;
    case Latency:
        return perf ? perf->latencyUs : -1.0;
    default:
        return std::nullopt;
    }
}

QVariant VolumeTableModel::displayData(const core::Volume &v, int column) const
{
    const core::Ptr<core::VolumePerf> perf = m_perf.value(core::estateKey(v));
    switch (column) {
    case Name:
        return v.name;
    case Source:
        return v.source;
    case Svm:
        return v.svm;
    case State:
        return v.state;
    case Style:
        return v.isFlexCache ? QStringLiteral("flexcache") : v.style;
    case Size:
        return core::formatBytes(v.sizeBytes);
    case Used:
        return core::formatBytes(v.usedBytes);
    case PercentUsed:
        return core::formatPercent(core::volumeCapacity(v).percentUsed);
    case Available:
        return core::formatBytes(v.availableBytes);
    case Qos:
        return v.qosPolicy;
    case Snapshots:
        return v.snapshotCount;
    case Iops:
        return perf ? QString::number(perf->totalIops, 'f', 0) : QString();
    case Throughput:
        return perf ? core::formatRate(perf->throughputBps) : QString();
    case Latency:
        return perf ? QString(QString::number(perf->latencyUs / 1000.0, 'f', 2) + QStringLiteral(" ms")) : QString();
    default:
        return {};
    }
}

QStringList VolumeTableModel::columnTitles() const
{
    return {tr("Name"),
            tr("Source"),
            tr("SVM"),
            tr("State"),
            tr("Style"),
            tr("Size"),
            tr("Used"),
            tr("% Used"),
            tr("Available"),
            tr("QoS policy"),
            tr("Snapshots"),
            tr("IOPS"),
            tr("Throughput"),
            tr("Latency")};
}

void VolumeTableModel::setSourceStatus(const core::SourceStatus &status)
{
    const auto old = m_sources.constFind(status.name);
    const bool wasStale = old != m_sources.cend() && (old->stale || old->health != core::Health::Ok);
    const bool isStale = status.stale || status.health != core::Health::Ok;
    const bool errorChanged = old == m_sources.cend() || old->lastError != status.lastError;
    m_sources.insert(status.name, status);
    if (wasStale == isStale && !errorChanged) {
        return;
    }
    const std::vector<int> rows = rowsWhere([&](const core::Volume &v) {
        return v.source == status.name;
    });
    emitChanged(rows, 0, ColumnCount - 1, {StaleRole, StatusRole, Qt::ToolTipRole});
}

void VolumeTableModel::applyPerf(const core::VolumePerfDiff &diff)
{
    std::vector<int> rows;
    auto touch = [&](const QString &key) {
        const int row = rowOf(key);
        if (row >= 0) {
            rows.push_back(row);
        }
    };
    for (const QString &key : diff.removed) {
        m_perf.remove(key);
        touch(key);
    }
    for (const auto *list : {&diff.added, &diff.changed}) {
        for (const core::Ptr<core::VolumePerf> &p : *list) {
            const QString key = core::estateKey(*p);
            m_perf.insert(key, p);
            touch(key);
        }
    }
    emitChanged(std::move(rows), Iops, Latency);
}

} // namespace strata::models
