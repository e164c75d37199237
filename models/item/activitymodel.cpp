#include "models/item/activitymodel.h"

#include "models/item/roles.h"

namespace strata::models {

ActivityModel::ActivityModel(core::ActionManager &actions, QObject *parent)
    : ColumnTableModel(ColumnCount, parent)
    , m_actions(actions)
{
    for (const core::ActionRecord &r : actions.records()) {
        m_ids.append(r.id);
    }
    connect(&actions, &core::ActionManager::actionAdded, this, [this](const QString &id) {
        beginInsertRows(QModelIndex(), int(m_ids.size()), int(m_ids.size()));
        m_ids.append(id);
        endInsertRows();
    });
    connect(&actions, &core::ActionManager::actionChanged, this, [this](const QString &id) {
        const int row = int(m_ids.lastIndexOf(id));
        if (row >= 0) {
            emitRowChanged(row);
        }
    });
}

int ActivityModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_ids.size());
}

QString ActivityModel::actionIdAt(int row) const
{
    return m_ids.value(row);
}

QVariant ActivityModel::data(const QModelIndex &index, int role) const
{
    const core::ActionRecord *r = index.isValid() ? m_actions.find(m_ids.value(index.row())) : nullptr;
    if (!r) {
        return {};
    }
    switch (role) {
    case KeyRole:
    case IdRole:
        return r->id;
    case SourceRole:
        return r->request.source;
    case StatusRole:
        return core::actionStateName(r->state);
    case RawValueRole:
        switch (index.column()) {
        case Progress:
            return r->progress.percent;
        case Started:
            return r->submitted;
        case Finished:
            return r->finished;
        default:
            break;
        }
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (index.column()) {
        case Action:
            return r->preview.title;
        case Target:
            return QString(r->request.source + QStringLiteral(": ") + r->preview.target);
        case State:
            switch (r->state) {
            case core::ActionState::Running:
                return tr("Running");
            case core::ActionState::Succeeded:
                return r->reconciled ? tr("Succeeded (reconciled)") : tr("Succeeded");
            case core::ActionState::Failed:
                return tr("Failed");
            }
            return {};
        case Progress:
            if (r->state != core::ActionState::Running) {
                return QString();
            }
            return r->progress.text.isEmpty() ? tr("Starting…") : r->progress.text;
        case Message:
            return r->message;
        case Started:
            return r->submitted.toLocalTime().toString(QStringLiteral("hh:mm:ss"));
        case Finished:
            return r->finished.isValid() ? r->finished.toLocalTime().toString(QStringLiteral("hh:mm:ss")) : QString();
        case User:
            return r->user;
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return r->preview.effects.join(QLatin1Char('\n'));
    default:
        return {};
    }
}

QStringList ActivityModel::columnTitles() const
{
    return {tr("Action"),
            tr("Target"),
            tr("State"),
            tr("Progress"),
            tr("Result"),
            tr("Started"),
            tr("Finished"),
            tr("User")};
}

} // namespace strata::models
