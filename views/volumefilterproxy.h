#pragma once

#include "views/asyncsortproxy.h"

#include <QString>

#include <memory>

namespace strata::core {
struct Volume;
}
namespace strata::models {
class VolumeTableModel;
}

namespace strata::views {

template <class T> class FoldedTexts;

/// Sort/filter proxy of the Volumes page over VolumeTableModel: sorts by the column's
/// RawValueRole order read from the typed records (bytes and percentages numerically, unknown
/// space first, names case-insensitively), matches the free-text filter case-insensitively
/// against VolumeTableModel::filterText, and narrows by source name and volume state (exact,
/// empty = any). At 50,000 volumes a new sort or filter is computed on a worker thread and a
/// poll's diff applied in place (AsyncSortFilterProxy); the folded text of each volume searched
/// is kept for the next search. Any source model other than a VolumeTableModel shows no rows.
class VolumeFilterProxy final : public AsyncSortFilterProxy
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VolumeFilterProxy)

public:
    explicit VolumeFilterProxy(QObject *parent = nullptr);
    ~VolumeFilterProxy() override;

    void setTextFilter(const QString &text);
    void setSourceFilter(const QString &source);
    void setStateFilter(const QString &state);
    [[nodiscard]] QString sourceFilter() const { return m_source; }
    [[nodiscard]] QString stateFilter() const { return m_state; }
    /// The free text filtered by, trimmed.
    [[nodiscard]] QString textFilter() const { return m_text; }
    /// Volumes whose folded filter text is kept from the last search (tests).
    [[nodiscard]] int cachedTextRows() const;

    void setSourceModel(QAbstractItemModel *model) override;

protected:
    std::shared_ptr<RowOrder> rowOrder(int column, bool snapshot) const override;
    void adoptPrepared(const RowOrder &prepared) override;
    bool filterReads(int column) const override;

private:
    const models::VolumeTableModel *m_volumes = nullptr;
    QString m_source;
    QString m_state;
    QString m_text;
    QString m_textFolded;
    std::shared_ptr<const FoldedTexts<core::Volume>> m_texts;
};

} // namespace strata::views
