#include "views/scheduledialog.h"

#include "views/statusdelegate.h"

#include <QComboBox>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace strata::views {

namespace {

QString levelName(const QString &level)
{
    return level.isEmpty() ? ScheduleDialog::tr("(no policy)") : level;
}

void fillLevels(QComboBox *combo, const QStringList &levels)
{
    for (const QString &level : levels) {
        combo->addItem(levelName(level), level);
    }
}

} // namespace

ScheduleDialog::ScheduleDialog(core::ServiceLevelRow row, QStringList levels, QDateTime now, QWidget *parent)
    : QDialog(parent)
    , m_row(std::move(row))
    , m_now(now.toUTC())
{
    setObjectName(QStringLiteral("scheduleDialog"));
    setWindowTitle(tr("Schedule a level change of %1").arg(m_row.volumeName));
    setMinimumWidth(480);
    if (!levels.contains(m_row.level)) {
        levels.prepend(m_row.level);
    }

    m_modeCombo = new QComboBox(this);
    m_modeCombo->setObjectName(QStringLiteral("scheduleModeComboBox"));
    m_modeCombo->addItem(tr("At a time"), int(Mode::At));
    m_modeCombo->addItem(tr("For a window (change, then change back)"), int(Mode::Window));
    m_levelCombo = new QComboBox(this);
    m_levelCombo->setObjectName(QStringLiteral("scheduleLevelComboBox"));
    fillLevels(m_levelCombo, levels);
    m_revertCombo = new QComboBox(this);
    m_revertCombo->setObjectName(QStringLiteral("scheduleRevertComboBox"));
    fillLevels(m_revertCombo, levels);
    m_revertCombo->setCurrentIndex(std::max(0, m_revertCombo->findData(m_row.level)));
    // Default target: the next level up (the usual reason is a training run).
    const int current = m_levelCombo->findData(m_row.level);
    m_levelCombo->setCurrentIndex(current + 1 < m_levelCombo->count() ? current + 1 : std::max(0, current));

    const QDateTime nextHour = QDateTime(m_now.date(), QTime(m_now.time().hour(), 0), Qt::UTC).addSecs(3600);
    m_startEdit = new QDateTimeEdit(nextHour.toLocalTime(), this);
    m_startEdit->setObjectName(QStringLiteral("scheduleStartDateTimeEdit"));
    m_startEdit->setCalendarPopup(true);
    m_startEdit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm"));
    m_endEdit = new QDateTimeEdit(nextHour.addSecs(8 * 3600).toLocalTime(), this);
    m_endEdit->setObjectName(QStringLiteral("scheduleEndDateTimeEdit"));
    m_endEdit->setCalendarPopup(true);
    m_endEdit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm"));
    m_recurrenceCombo = new QComboBox(this);
    m_recurrenceCombo->setObjectName(QStringLiteral("scheduleRecurrenceComboBox"));
    m_recurrenceCombo->addItem(tr("Once"), int(core::Recurrence::Once));
    m_recurrenceCombo->addItem(tr("Every day"), int(core::Recurrence::Daily));
    m_recurrenceCombo->addItem(tr("Monday to Friday"), int(core::Recurrence::Weekdays));
    m_recurrenceCombo->addItem(tr("Every week"), int(core::Recurrence::Weekly));

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("scheduleSummaryLabel"));
    m_summary->setWordWrap(true);
    m_validation = new QLabel(this);
    m_validation->setObjectName(QStringLiteral("scheduleValidationLabel"));
    m_validation->setWordWrap(true);

    m_form = new QFormLayout();
    m_form->addRow(tr("&When:"), m_modeCombo);
    m_form->addRow(tr("Change &to:"), m_levelCombo);
    m_form->addRow(tr("&Start:"), m_startEdit);
    m_form->addRow(tr("&End:"), m_endEdit);
    m_form->addRow(tr("After the window &back to:"), m_revertCombo);
    m_form->addRow(tr("&Repeat:"), m_recurrenceCombo);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->setObjectName(QStringLiteral("scheduleButtonBox"));
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Schedule"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ScheduleDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *intro = new QLabel(tr("Each change runs like one started by hand: with the same checks as its preview, "
                                "shown in the Activity panel and in the audit log. Strata must be running "
                                "(this desktop or strata-server with this source) at that time."),
                             this);
    intro->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(m_form);
    layout->addWidget(m_summary);
    layout->addWidget(m_validation);
    layout->addStretch(1);
    layout->addWidget(m_buttons);

    QPalette pal = m_validation->palette();
    pal.setColor(QPalette::WindowText, StatusDelegate::colorFor(QStringLiteral("critical"), palette(), true));
    m_validation->setPalette(pal);

    for (QComboBox *combo : {m_modeCombo, m_levelCombo, m_revertCombo, m_recurrenceCombo}) {
        connect(combo, &QComboBox::currentIndexChanged, this, &ScheduleDialog::validate);
    }
    for (QDateTimeEdit *edit : {m_startEdit, m_endEdit}) {
        connect(edit, &QDateTimeEdit::dateTimeChanged, this, &ScheduleDialog::validate);
    }
    validate();
}

ScheduleDialog::~ScheduleDialog() = default;

void ScheduleDialog::setMode(Mode mode)
{
    m_modeCombo->setCurrentIndex(m_modeCombo->findData(int(mode)));
}

void ScheduleDialog::setLevel(const QString &level)
{
    m_levelCombo->setCurrentIndex(m_levelCombo->findData(level));
}

void ScheduleDialog::setRevertLevel(const QString &level)
{
    m_revertCombo->setCurrentIndex(m_revertCombo->findData(level));
}

void ScheduleDialog::setStart(const QDateTime &utc)
{
    m_startEdit->setDateTime(utc.toLocalTime());
}

void ScheduleDialog::setEnd(const QDateTime &utc)
{
    m_endEdit->setDateTime(utc.toLocalTime());
}

void ScheduleDialog::setRecurrence(core::Recurrence recurrence)
{
    m_recurrenceCombo->setCurrentIndex(m_recurrenceCombo->findData(int(recurrence)));
}

core::ServiceLevelSchedule ScheduleDialog::schedule() const
{
    core::ServiceLevelSchedule s;
    s.source = m_row.source;
    s.volumeId = m_row.volumeId;
    s.volumeName = m_row.volumeName;
    s.level = m_levelCombo->currentData().toString();
    s.start = m_startEdit->dateTime().toUTC();
    if (Mode(m_modeCombo->currentData().toInt()) == Mode::Window) {
        s.end = m_endEdit->dateTime().toUTC();
        s.revertLevel = m_revertCombo->currentData().toString();
    }
    s.recurrence = core::Recurrence(m_recurrenceCombo->currentData().toInt());
    s.enabled = true;
    s.created = m_now;
    return s;
}

QString ScheduleDialog::validationError() const
{
    const core::ServiceLevelSchedule s = schedule();
    if (m_levelCombo->currentIndex() < 0) {
        return tr("Choose a level.");
    }
    if (s.start <= m_now) {
        return tr("The start must be in the future.");
    }
    if (s.isWindow()) {
        if (s.end <= s.start) {
            return tr("The end must be after the start.");
        }
        if (s.level == s.revertLevel) {
            return tr("The level for the window must differ from the level after it.");
        }
        const qint64 length = s.start.secsTo(s.end);
        if ((s.recurrence == core::Recurrence::Daily || s.recurrence == core::Recurrence::Weekdays)
            && length >= 86400) {
            return tr("A daily window must be shorter than a day.");
        }
        if (s.recurrence == core::Recurrence::Weekly && length >= 7 * 86400) {
            return tr("A weekly window must be shorter than a week.");
        }
    } else if (s.recurrence == core::Recurrence::Once && s.level == m_row.level) {
        return tr("The volume already has this level.");
    }
    return {};
}

void ScheduleDialog::validate()
{
    const bool window = Mode(m_modeCombo->currentData().toInt()) == Mode::Window;
    m_form->setRowVisible(m_endEdit, window);
    m_form->setRowVisible(m_revertCombo, window);
    if (auto *label = qobject_cast<QLabel *>(m_form->labelForField(m_startEdit))) {
        label->setText(window ? tr("&Start:") : tr("&At:"));
    }
    const core::ServiceLevelSchedule s = schedule();
    const QLocale locale;
    const QString start = locale.toString(s.start.toLocalTime(), QLocale::ShortFormat);
    QString summary = window ? tr("%1 goes to %2 at %3 and back to %4 at %5.")
                                   .arg(m_row.volumeName,
                                        levelName(s.level),
                                        start,
                                        levelName(s.revertLevel),
                                        locale.toString(s.end.toLocalTime(), QLocale::ShortFormat))
                             : tr("%1 goes to %2 at %3.").arg(m_row.volumeName, levelName(s.level), start);
    switch (s.recurrence) {
    case core::Recurrence::Once:
        break;
    case core::Recurrence::Daily:
        summary += QLatin1Char(' ') + tr("Repeats every day.");
        break;
    case core::Recurrence::Weekdays:
        summary += QLatin1Char(' ') + tr("Repeats Monday to Friday.");
        break;
    case core::Recurrence::Weekly:
        summary += QLatin1Char(' ') + tr("Repeats every week.");
        break;
    }
    m_summary->setText(summary);
    const QString error = validationError();
    m_validation->setText(error);
    m_validation->setVisible(!error.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(error.isEmpty());
}

void ScheduleDialog::setSaveError(const QString &error)
{
    m_validation->setText(tr("Not saved: %1").arg(error));
    m_validation->setVisible(true);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
}

void ScheduleDialog::accept()
{
    if (!validationError().isEmpty()) {
        return;
    }
    // Saving is asynchronous: the controller closes the dialog once the store has it.
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    Q_EMIT saveRequested(schedule());
}

UpcomingChangesDialog::UpcomingChangesDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("upcomingChangesDialog"));
    setWindowTitle(tr("Upcoming level changes"));
    resize(680, 360);
    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("upcomingTreeWidget"));
    m_list->setRootIsDecorated(false);
    m_list->setHeaderLabels({tr("When"), tr("Volume"), tr("Source"), tr("Change to"), tr("Schedule")});
    m_empty = new QLabel(tr("No level changes are scheduled."), this);
    m_empty->setObjectName(QStringLiteral("upcomingEmptyLabel"));
    m_removeButton = new QPushButton(style()->standardIcon(QStyle::SP_TrashIcon), tr("&Remove schedule…"), this);
    m_removeButton->setObjectName(QStringLiteral("upcomingRemoveButton"));
    m_removeButton->setToolTip(tr("Removes the schedule this change belongs to, with all its occurrences"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *bottom = new QHBoxLayout();
    bottom->addWidget(m_removeButton);
    bottom->addStretch(1);
    bottom->addWidget(buttons);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_empty);
    layout->addLayout(bottom);
    connect(m_removeButton, &QPushButton::clicked, this, &UpcomingChangesDialog::confirmRemove);
    connect(m_list, &QTreeWidget::currentItemChanged, this, [this] {
        m_removeButton->setEnabled(currentScheduleId() != 0);
    });
    setUpcoming({});
}

UpcomingChangesDialog::~UpcomingChangesDialog() = default;

void UpcomingChangesDialog::setUpcoming(const QList<core::UpcomingChange> &upcoming)
{
    const qint64 selected = currentScheduleId();
    m_list->clear();
    const QLocale locale;
    for (const core::UpcomingChange &c : upcoming) {
        QString to = levelName(c.toLevel);
        if (c.revert) {
            to = tr("%1 (end of window)").arg(to);
        }
        auto *item = new QTreeWidgetItem(m_list,
                                         {locale.toString(c.time.toLocalTime(), QStringLiteral("ddd d MMM yyyy HH:mm")),
                                          c.volumeName,
                                          c.source,
                                          to,
                                          QStringLiteral("#%1").arg(c.scheduleId)});
        item->setData(0, Qt::UserRole, c.scheduleId);
        if (c.scheduleId == selected && !m_list->currentItem()) {
            m_list->setCurrentItem(item);
        }
    }
    for (int c = 0; c < m_list->columnCount(); ++c) {
        m_list->resizeColumnToContents(c);
    }
    m_empty->setVisible(upcoming.isEmpty());
    m_removeButton->setEnabled(currentScheduleId() != 0);
}

qint64 UpcomingChangesDialog::currentScheduleId() const
{
    const QTreeWidgetItem *item = m_list->currentItem();
    return item ? item->data(0, Qt::UserRole).toLongLong() : 0;
}

void UpcomingChangesDialog::confirmRemove()
{
    const qint64 id = currentScheduleId();
    const QTreeWidgetItem *item = m_list->currentItem();
    if (!id || !item) {
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Question,
                                tr("Remove schedule"),
                                tr("Remove schedule #%1 of %2?").arg(id).arg(item->text(1)),
                                QMessageBox::Cancel,
                                this);
    box->setObjectName(QStringLiteral("upcomingRemoveMessageBox"));
    box->setInformativeText(tr("None of its changes will run. Changes already made stay as they are."));
    QPushButton *remove = box->addButton(tr("Remove"), QMessageBox::DestructiveRole);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, remove, id] {
        if (box->clickedButton() == remove) {
            Q_EMIT removeRequested(id);
        }
    });
    box->open();
}

} // namespace strata::views
