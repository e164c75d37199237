#include "views/volumefilterproxy.h"

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
        , m_field(VTM::field(column))
        , m_perf(m_field && core::isVolumePerfField(*m_field) ? volumes.perfs()
                                                              : QHash<QString, core::Ptr<core::VolumePerf>>())
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
        if (!m_field) {
            return 0;
        }
        const core::Volume &a = record(left);
        const core::Volume &b = record(right);
        if (!core::isVolumePerfField(*m_field)) {
            return core::compareFieldValues(core::fieldValue(*m_field, core::VolumeRow{a}),
                                            core::fieldValue(*m_field, core::VolumeRow{b}));
        }
        const core::Ptr<core::VolumePerf> pa = perfOf(a);
        const core::Ptr<core::VolumePerf> pb = perfOf(b);
        return core::compareFieldValues(core::fieldValue(*m_field, core::VolumeRow{a, pa.get()}),
                                        core::fieldValue(*m_field, core::VolumeRow{b, pb.get()}));
    }

private:
    core::Ptr<core::VolumePerf> perfOf(const core::Volume &v) const
    {
        return (m_volumes ? m_volumes->perfs() : m_perf).value(core::estateKey(v));
    }

    const VTM *m_volumes; ///< live: the performance samples as they are now
    QString m_source;
    QString m_state;
    const core::Field<core::VolumeRow> *m_field;
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
