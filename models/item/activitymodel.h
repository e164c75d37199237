#pragma once

#include "models/core/services/actions.h"
#include "models/item/columntablemodel.h"

namespace strata::models {

/// Running and finished actions, newest at the bottom (the Activity panel). One row per action,
/// updated in place as its progress and result arrive.
class ActivityModel final : public ColumnTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ActivityModel)

public:
    enum Column
    {
        Action,
        Target,
        State,
        Progress,
        Message,
        Started,
        Finished,
        User,
        ColumnCount
    };

    explicit ActivityModel(core::ActionManager &actions, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    [[nodiscard]] QString actionIdAt(int row) const;

private:
    QStringList columnTitles() const override;

    core::ActionManager &m_actions;
    QStringList m_ids;
};

} // namespace strata::models
