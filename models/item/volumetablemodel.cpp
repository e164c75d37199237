#include "models/item/volumetablemodel.h"

#include "models/core/planning/volumecapacity.h"
#include "models/item/roles.h"

namespace strata::models {

VolumeTableModel::VolumeTableModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(ColumnCount, parent)
{
    for (int c = 0; c < ColumnCount; ++c) {
        if (core::isNumericField(field(c)->kind)) {
            setNumericColumns({c});
        }
    }
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

core::VolumeRow VolumeTableModel::joined(const core::Volume &v) const
{
    const auto perf = m_perf.constFind(core::estateKey(v));
    return {v, perf == m_perf.cend() ? nullptr : perf->get()};
}

std::optional<QVariant> VolumeTableModel::sortData(const core::Volume &v, int column) const
{
    const core::Field<core::VolumeRow> *f = field(column);
    return f ? std::optional<QVariant>(core::fieldValue(*f, joined(v))) : std::nullopt;
}

QVariant VolumeTableModel::displayData(const core::Volume &v, int column) const
{
    const core::Field<core::VolumeRow> *f = field(column);
    return f ? QVariant(core::fieldText(*f, joined(v))) : QVariant();
}

QString VolumeTableModel::columnToolTip(int column) const
{
    const core::Field<core::VolumeRow> *f = field(column);
    return f && *f->help ? core::fieldTitle(f->help) : QString();
}

QStringList VolumeTableModel::columnTitles() const
{
    QStringList titles;
    for (int c = 0; c < ColumnCount; ++c) {
        titles.append(core::fieldTitle(field(c)->title));
    }
    return titles;
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
    int first = ColumnCount;
    int last = -1;
    for (int c = 0; c < ColumnCount; ++c) {
        if (core::isVolumePerfField(*field(c))) {
            first = std::min(first, c);
            last = std::max(last, c);
        }
    }
    emitChanged(std::move(rows), first, last);
}

} // namespace strata::models
