#include "models/item/eventtablemodel.h"

#include "models/item/roles.h"

namespace strata::models {

EventTableModel::EventTableModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(parent)
{
    core::EventDiff initial;
    initial.added = estate.events().all();
    applyDiff(initial);
    connect(&estate, &core::Estate::eventsChanged, this, [this](const core::EventDiff &diff) {
        applyDiff(diff);
    });
}

int EventTableModel::severityRank(const QString &severity)
{
    static const QStringList order{QStringLiteral("emergency"),
                                   QStringLiteral("alert"),
                                   QStringLiteral("error"),
                                   QStringLiteral("notice"),
                                   QStringLiteral("informational"),
                                   QStringLiteral("debug")};
    const qsizetype i = order.indexOf(severity);
    return i < 0 ? int(order.size()) : int(i);
}

int EventTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventTableModel::data(const QModelIndex &index, int role) const
{
    const core::Event *e = recordAt(index.row());
    if (!e) {
        return {};
    }
    switch (role) {
    case KeyRole:
        return core::estateKey(*e);
    case SourceRole:
        return e->source;
    case StatusRole: {
        const int rank = severityRank(e->severity);
        return rank <= 2 ? QStringLiteral("critical") : rank == 3 ? QStringLiteral("warning") : QStringLiteral("ok");
    }
    case FilterTextRole:
        return QString(e->name + QLatin1Char(' ') + e->message + QLatin1Char(' ') + e->source);
    case RawValueRole:
        switch (index.column()) {
        case Time:
            return e->time;
        case Severity:
            return severityRank(e->severity);
        default:
            break;
        }
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (index.column()) {
        case Time:
            return e->time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"));
        case Severity:
            return e->severity;
        case Source:
            return e->source;
        case Name:
            return e->name;
        case Message:
            return e->message;
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant EventTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Time:
        return tr("Time");
    case Severity:
        return tr("Severity");
    case Source:
        return tr("Source");
    case Name:
        return tr("Event");
    case Message:
        return tr("Message");
    default:
        return {};
    }
}

} // namespace strata::models
