#pragma once

#include <QWidget>

class QAbstractItemModel;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;

namespace strata::models {
class ForecastTableModel;
}

namespace strata::views {

class FieldFilterProxy;

/// Capacity forecast: every volume, aggregate, capacity pool, bucket, tenant and cache target
/// (models::ForecastTableModel), full soonest first, sortable by every column ("Full in" by
/// date), with a used bar, growth per day, "full in" with its 95 % band, trend and the history
/// used. Full containers are red, those growing to full within 30 days amber. Filters: free text
/// (name, kind, source), kind and source. A one-minute timer keeps the relative "full in" texts
/// current (ForecastTableModel::tick()); the page does no I/O.
class ForecastsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ForecastsPage)

public:
    /// `sources` (may be null) fills the source filter (SourceRole of column 0).
    ForecastsPage(models::ForecastTableModel *forecasts, QAbstractItemModel *sources, QWidget *parent = nullptr);
    ~ForecastsPage() override;

    [[nodiscard]] QTableView *view() const { return m_view; }
    [[nodiscard]] QLineEdit *filterEdit() const { return m_filterEdit; }
    [[nodiscard]] QComboBox *kindCombo() const { return m_kindCombo; }
    [[nodiscard]] QComboBox *sourceCombo() const { return m_sourceCombo; }
    /// "3 full · 5 full within 30 days · 120 containers".
    [[nodiscard]] QString summaryText() const;
    /// "12 of 120 containers", "120 containers".
    [[nodiscard]] QString countText() const;

    /// The table header (column order, widths, sort) as the layout saves it; an empty state
    /// keeps the current one.
    [[nodiscard]] QByteArray headerState() const;
    void restoreHeaderState(const QByteArray &state);

private:
    void updateSummary();
    void updateSourceCombo();
    void applyFilters();

    models::ForecastTableModel *m_forecasts;
    QAbstractItemModel *m_sources;
    FieldFilterProxy *m_proxy = nullptr;
    QLabel *m_summaryLabel = nullptr;
    QLineEdit *m_filterEdit = nullptr;
    QComboBox *m_kindCombo = nullptr;
    QComboBox *m_sourceCombo = nullptr;
    QLabel *m_countLabel = nullptr;
    QTableView *m_view = nullptr;
    QTimer *m_tick = nullptr;
};

} // namespace strata::views
