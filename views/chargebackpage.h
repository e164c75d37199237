#pragma once

#include "models/core/planning/chargeback.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QTableWidget;

namespace strata::core {
class IClock;
}

namespace strata::views {

/// The Chargeback page, for managers: a calendar month (UTC; this month and the 23 before it),
/// per project and cluster the GPU-hours allocated and used, storage GiB-hours and cost from
/// the rate card, the unattributed storage line and a total (rows::chargebackRows, the cells
/// `strata get chargeback` prints), and for the selected line its volumes (with the PVC that
/// joins them), jobs and cached commits. Hours without history are stated as missing. The page
/// does no I/O: it asks with chargebackWanted() (when shown and when the month changes) and the
/// controller answers with setChargeback() from the history thread.
class ChargebackPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChargebackPage)

public:
    /// `clock` gives this month; it must outlive the page.
    explicit ChargebackPage(const core::IClock &clock, QWidget *parent = nullptr);
    ~ChargebackPage() override;

    /// "2026-11"
    [[nodiscard]] QString month() const;
    /// Selects `month` ("2026-11") and asks for it; false when it is not in the list.
    bool setMonth(const QString &month);
    /// The answer for `month`; an answer for another month than the selected one is dropped.
    void setChargeback(const QString &month, const core::Result<core::Chargeback> &result);
    /// Shown instead of figures (no history store in this session).
    void setMessage(const QString &text);

    [[nodiscard]] const std::optional<core::Chargeback> &chargeback() const { return m_chargeback; }
    [[nodiscard]] QString summaryText() const;
    [[nodiscard]] QTableWidget *lineTable() const { return m_lines; }
    [[nodiscard]] QTableWidget *volumeTable() const { return m_volumes; }
    [[nodiscard]] QTableWidget *jobTable() const { return m_jobs; }
    [[nodiscard]] QString detailTitle() const;
    /// Shows the detail of line `row` of lineTable() (the total row shows none).
    void selectLine(int row);

Q_SIGNALS:
    /// Compute the chargeback of `month` ("2026-11") and answer with setChargeback().
    void chargebackWanted(const QString &month);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void request();
    void showDetail(int row);

    QComboBox *m_month = nullptr;
    QLabel *m_summary = nullptr;
    QTableWidget *m_lines = nullptr;
    QLabel *m_notes = nullptr;
    QLabel *m_detailTitle = nullptr;
    QLabel *m_detailTiers = nullptr;
    QTableWidget *m_volumes = nullptr;
    QTableWidget *m_jobs = nullptr;
    QLabel *m_cached = nullptr;
    QWidget *m_detail = nullptr;
    std::optional<core::Chargeback> m_chargeback;
    QString m_asked; ///< the month of the request in flight, empty when none
};

} // namespace strata::views
