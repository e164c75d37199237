#pragma once

#include "models/core/domain/action.h"
#include "models/core/services/servicelevels.h"

#include <QDialog>

class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QSpinBox;
class QTreeWidget;

namespace strata::views {

/// First step of "Change level…": the levels the volume can move to (ServiceLevels::options()),
/// each with its throughput cap, monthly cost and, on ANF, the pool it would go to and whether
/// that pool has room; the current level is marked and cannot be chosen. When no pool of the
/// chosen ANF level has room, it offers a new pool (name and size in whole TiB) that the preview
/// then asks to create. OK ("Preview…") hands request() to the standard action preview.
class LevelChangeDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LevelChangeDialog)

public:
    /// `poolNames` are the account's existing pool names (a new pool's name avoids them).
    LevelChangeDialog(core::ServiceLevelRow row,
                      QList<core::LevelOption> options,
                      QString currency,
                      QStringList poolNames = {},
                      QWidget *parent = nullptr);
    ~LevelChangeDialog() override;

    /// Selects the option of `level` (false when it is not offered or is the current one).
    bool selectLevel(const QString &level);
    /// ServiceLevelChange for the chosen option: targetLevel, targetPool and, when a new pool
    /// is needed, poolSizeBytes (createPool stays false: the preview's check box sets it).
    [[nodiscard]] core::ActionRequest request() const;
    /// Whether a new pool is offered for the chosen option.
    [[nodiscard]] bool offersNewPool() const;

    static constexpr qint64 kTiB = 1024LL * 1024 * 1024 * 1024;

private:
    void updateChoice();
    [[nodiscard]] const core::LevelOption *chosen() const;

    core::ServiceLevelRow m_row;
    QList<core::LevelOption> m_options;
    QString m_currency;
    QStringList m_poolNames;
    QTreeWidget *m_list = nullptr;
    QLabel *m_poolLabel = nullptr;
    QSpinBox *m_poolSize = nullptr;
    QFormLayout *m_poolSizeRow = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace strata::views
