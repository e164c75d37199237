#pragma once

#include "models/core/domain/schedule.h"
#include "models/core/services/servicelevels.h"

#include <QDialog>

class QComboBox;
class QDateTimeEdit;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QTreeWidget;

namespace strata::views {

/// "Schedule…" for one volume: set a level at a time, or for a window (raise to a level at the
/// start, go back to the current level at the end, e.g. around a training run), once, daily,
/// on weekdays or weekly. Times are entered in local time and stored in UTC. Validation as the
/// user types (start in the future, end after start, a level that differs from the one after
/// the window). schedule() is what the controller saves through ScheduleService.
class ScheduleDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScheduleDialog)

public:
    enum class Mode
    {
        At,
        Window
    };

    /// `levels` are the levels the volume can have (ServiceLevels::options(), current included);
    /// `now` (UTC) bounds the start and sets the defaults (next full hour, window of 8 h).
    ScheduleDialog(core::ServiceLevelRow row, QStringList levels, QDateTime now, QWidget *parent = nullptr);
    ~ScheduleDialog() override;

    void setMode(Mode mode);
    void setLevel(const QString &level);
    void setRevertLevel(const QString &level);
    void setStart(const QDateTime &utc);
    void setEnd(const QDateTime &utc);
    void setRecurrence(core::Recurrence recurrence);

    [[nodiscard]] core::ServiceLevelSchedule schedule() const;
    [[nodiscard]] QString validationError() const;
    /// Shows why saving failed (ScheduleService::add's error) and keeps the dialog open.
    void setSaveError(const QString &error);

    void accept() override;

Q_SIGNALS:
    /// OK with valid input; the controller saves it and closes the dialog with done().
    void saveRequested(const strata::core::ServiceLevelSchedule &schedule);

private:
    void validate();

    core::ServiceLevelRow m_row;
    QDateTime m_now;
    QComboBox *m_modeCombo = nullptr;
    QComboBox *m_levelCombo = nullptr;
    QComboBox *m_revertCombo = nullptr;
    QDateTimeEdit *m_startEdit = nullptr;
    QDateTimeEdit *m_endEdit = nullptr;
    QComboBox *m_recurrenceCombo = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_validation = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QFormLayout *m_form = nullptr;
};

/// Every upcoming scheduled level change (all volumes), soonest first, with Remove (which
/// deletes the whole schedule the change belongs to, after a confirmation).
class UpcomingChangesDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpcomingChangesDialog)

public:
    explicit UpcomingChangesDialog(QWidget *parent = nullptr);
    ~UpcomingChangesDialog() override;

    void setUpcoming(const QList<core::UpcomingChange> &upcoming);
    [[nodiscard]] QTreeWidget *list() const { return m_list; }
    /// The schedule id of the selected change, 0 when none.
    [[nodiscard]] qint64 currentScheduleId() const;

Q_SIGNALS:
    /// Already confirmed.
    void removeRequested(qint64 scheduleId);

private:
    void confirmRemove();

    QTreeWidget *m_list = nullptr;
    QPushButton *m_removeButton = nullptr;
    QLabel *m_empty = nullptr;
};

} // namespace strata::views
