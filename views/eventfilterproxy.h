#pragma once

#include <QSortFilterProxyModel>

namespace strata::views {

/// Sort/filter proxy over EventTableModel: sorts by RawValueRole (time, severity rank), matches
/// text case-insensitively against FilterTextRole, and hides events less severe than a rank
/// (EventTableModel::severityRank: emergency 0 ... debug 5; -1 = everything).
class EventFilterProxy final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EventFilterProxy)

public:
    explicit EventFilterProxy(QObject *parent = nullptr);

    void setMaximumRank(int rank);
    [[nodiscard]] int maximumRank() const { return m_maxRank; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    int m_maxRank = -1;
};

} // namespace strata::views
