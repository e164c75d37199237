#pragma once

#include <QSortFilterProxyModel>

#include <vector>

namespace strata::views {

/// Keeps the rows whose cells match every rule (column, role, value), and optionally a free
/// text matched word by word against FilterTextRole (else the DisplayRole of every column).
/// Sorts by RawValueRole (numbers and times as such). Pages use it to show one target's or one
/// dataset's rows of a shared model.
class FieldFilterProxy final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FieldFilterProxy)

public:
    explicit FieldFilterProxy(QObject *parent = nullptr);
    ~FieldFilterProxy() override;

    struct Rule
    {
        int column = 0;
        int role = Qt::DisplayRole;
        QVariant value;
    };

    /// Replaces the rules; an empty list keeps every row. `matchNothing` hides every row (a
    /// detail table with nothing selected).
    void setRules(std::vector<Rule> rules, bool matchNothing = false);
    void setTextFilter(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    std::vector<Rule> m_rules;
    bool m_matchNothing = false;
    QString m_text;
};

} // namespace strata::views
