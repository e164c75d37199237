#pragma once

#include "views/rowtextcache.h"

#include <QSortFilterProxyModel>

namespace strata::models {
class VolumeTableModel;
}

namespace strata::views {

/// Sort/filter proxy of the Volumes page over VolumeTableModel: sorts by RawValueRole (bytes and
/// percentages numerically), matches the free-text filter case-insensitively against
/// FilterTextRole, and narrows by source name and volume state (exact, empty = any). Over a
/// VolumeTableModel it reads the typed records and caches each row's case-folded filter text
/// (RowTextCache): a new filter word re-checks 50,000 rows without a QVariant each.
class VolumeFilterProxy final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VolumeFilterProxy)

public:
    explicit VolumeFilterProxy(QObject *parent = nullptr);

    void setTextFilter(const QString &text);
    void setSourceFilter(const QString &source);
    void setStateFilter(const QString &state);
    [[nodiscard]] QString sourceFilter() const { return m_source; }
    [[nodiscard]] QString stateFilter() const { return m_state; }
    /// The free text filtered by, trimmed.
    [[nodiscard]] QString textFilter() const { return m_text; }
    /// Source rows whose filter text is cached (tests).
    [[nodiscard]] int cachedTextRows() const { return m_texts.cachedRows(); }

    void setSourceModel(QAbstractItemModel *model) override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    /// Compares the records' typed fields when the source is a VolumeTableModel: a 50,000-row
    /// sort makes over a million comparisons, and going through data() for each costs seconds.
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    const models::VolumeTableModel *m_volumes = nullptr;
    QString m_source;
    QString m_state;
    QString m_text;
    QString m_textFolded;
    RowTextCache m_texts;
};

} // namespace strata::views
