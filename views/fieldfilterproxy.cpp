#include "views/fieldfilterproxy.h"

#include "models/item/roles.h"

#include <QDateTime>

namespace strata::views {

FieldFilterProxy::FieldFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(models::RawValueRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

FieldFilterProxy::~FieldFilterProxy() = default;

void FieldFilterProxy::setRules(std::vector<Rule> rules, bool matchNothing)
{
    m_rules = std::move(rules);
    m_matchNothing = matchNothing;
    invalidateRowsFilter();
}

void FieldFilterProxy::setTextFilter(const QString &text)
{
    m_text = text.trimmed();
    invalidateRowsFilter();
}

bool FieldFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_matchNothing) {
        return false;
    }
    for (const Rule &rule : m_rules) {
        if (sourceModel()->index(sourceRow, rule.column, sourceParent).data(rule.role) != rule.value) {
            return false;
        }
    }
    if (m_text.isEmpty()) {
        return true;
    }
    QString text = sourceModel()->index(sourceRow, 0, sourceParent).data(models::FilterTextRole).toString();
    if (text.isEmpty()) {
        QStringList cells;
        for (int c = 0; c < sourceModel()->columnCount(sourceParent); ++c) {
            cells << sourceModel()->index(sourceRow, c, sourceParent).data().toString();
        }
        text = cells.join(QLatin1Char(' '));
    }
    const QStringList words = m_text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString &word : words) {
        if (!text.contains(word, Qt::CaseInsensitive)) {
            return false;
        }
    }
    return true;
}

bool FieldFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const QVariant l = left.data(models::RawValueRole);
    const QVariant r = right.data(models::RawValueRole);
    if (l.isValid() && r.isValid() && l.typeId() == r.typeId()) {
        switch (l.typeId()) {
        case QMetaType::Double:
            return l.toDouble() < r.toDouble();
        case QMetaType::Int:
        case QMetaType::LongLong:
            return l.toLongLong() < r.toLongLong();
        case QMetaType::QDateTime:
            return l.toDateTime() < r.toDateTime();
        default:
            break;
        }
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace strata::views
