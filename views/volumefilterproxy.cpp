#include "views/volumefilterproxy.h"

#include "models/core/planning/volumecapacity.h"
#include "models/item/volumetablemodel.h"
#include "views/recordroworder.h"

namespace strata::views {

namespace {

using VTM = models::VolumeTableModel;

/// A VolumeFilterProxy's filters and sort column over the volumes, for one request.
class VolumeRowOrder final : public RecordRowOrder<core::Volume>
{
public:
    VolumeRowOrder(const VTM &volumes,
                   bool snapshot,
                   std::shared_ptr<const FoldedTexts<core::Volume>> texts,
                   QString needle,
                   QString source,
                   QString state,
                   int column)
        : RecordRowOrder(volumes, snapshot, std::move(texts), std::move(needle), &VTM::filterText)
        , m_volumes(snapshot ? nullptr : &volumes)
        , m_source(std::move(source))
        , m_state(std::move(state))
        , m_column(column)
        , m_perf(column >= VTM::Iops ? volumes.perfs() : QHash<QString, core::Ptr<core::VolumePerf>>())
    {}

    bool accepts(int row) const override
    {
        const core::Volume &v = record(row);
        if ((!m_source.isEmpty() && v.source != m_source) || (!m_state.isEmpty() && v.state != m_state)) {
            return false;
        }
        return textMatches(row);
    }

    int compare(int left, int right) const override
    {
        const core::Volume &a = record(left);
        const core::Volume &b = record(right);
        const auto text = [](const QString &x, const QString &y) {
            const int c = x.compare(y, Qt::CaseInsensitive);
            return c < 0 ? -1 : (c > 0 ? 1 : 0);
        };
        const auto style = [](const core::Volume &v) {
            return v.isFlexCache ? QStringLiteral("flexcache") : v.style;
        };
        switch (m_column) {
        case VTM::Name:
            return text(a.name, b.name);
        case VTM::Source:
            return text(a.source, b.source);
        case VTM::Svm:
            return text(a.svm, b.svm);
        case VTM::State:
            return text(a.state, b.state);
        case VTM::Style:
            return text(style(a), style(b));
        case VTM::Size:
            return recordOrder(a.sizeBytes, b.sizeBytes);
        case VTM::Used: // unknown space sorts before every figure
            return recordOrder(a.usedBytes, b.usedBytes);
        case VTM::PercentUsed:
            return recordOrder(core::volumeCapacity(a).percentUsed, core::volumeCapacity(b).percentUsed);
        case VTM::Available:
            return recordOrder(a.availableBytes, b.availableBytes);
        case VTM::Qos:
            return text(a.qosPolicy, b.qosPolicy);
        case VTM::Snapshots:
            return recordOrder(a.snapshotCount, b.snapshotCount);
        case VTM::Iops:
        case VTM::Throughput:
        case VTM::Latency:
            return recordOrder(perfValue(a), perfValue(b));
        default:
            return 0;
        }
    }

private:
    /// The performance column's figure, -1 without a sample (as RawValueRole).
    double perfValue(const core::Volume &v) const
    {
        const core::Ptr<core::VolumePerf> perf = (m_volumes ? m_volumes->perfs() : m_perf).value(core::estateKey(v));
        if (!perf) {
            return -1.0;
        }
        return m_column == VTM::Iops ? perf->totalIops
                                     : (m_column == VTM::Throughput ? perf->throughputBps : perf->latencyUs);
    }

    const VTM *m_volumes; ///< live: the performance samples as they are now
    QString m_source;
    QString m_state;
    int m_column;
    QHash<QString, core::Ptr<core::VolumePerf>> m_perf;
};

} // namespace

VolumeFilterProxy::VolumeFilterProxy(QObject *parent)
    : AsyncSortFilterProxy(parent)
{}

VolumeFilterProxy::~VolumeFilterProxy() = default;

void VolumeFilterProxy::setTextFilter(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed != m_text) {
        m_text = trimmed;
        m_textFolded = trimmed.toCaseFolded();
        invalidateOrder();
    }
}

void VolumeFilterProxy::setSourceFilter(const QString &source)
{
    if (source != m_source) {
        m_source = source;
        invalidateOrder();
    }
}

void VolumeFilterProxy::setStateFilter(const QString &state)
{
    if (state != m_state) {
        m_state = state;
        invalidateOrder();
    }
}

void VolumeFilterProxy::setSourceModel(QAbstractItemModel *model)
{
    m_volumes = qobject_cast<const models::VolumeTableModel *>(model);
    m_texts.reset();
    AsyncSortFilterProxy::setSourceModel(model);
}

int VolumeFilterProxy::cachedTextRows() const
{
    return m_texts ? m_texts->size() : 0;
}

std::shared_ptr<RowOrder> VolumeFilterProxy::rowOrder(int column, bool snapshot) const
{
    if (!m_volumes) {
        return std::make_shared<EmptyRowOrder>();
    }
    return std::make_shared<VolumeRowOrder>(*m_volumes, snapshot, m_texts, m_textFolded, m_source, m_state, column);
}

void VolumeFilterProxy::adoptPrepared(const RowOrder &prepared)
{
    if (m_volumes) {
        if (auto texts = static_cast<const VolumeRowOrder &>(prepared).prepared()) {
            m_texts = std::move(texts);
        }
    }
}

bool VolumeFilterProxy::filterReads(int column) const
{
    // A performance poll moves only these; the filter reads none of them.
    return column != VTM::Iops && column != VTM::Throughput && column != VTM::Latency;
}

} // namespace strata::views
