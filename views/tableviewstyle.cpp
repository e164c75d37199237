#include "views/tableviewstyle.h"

#include "views/statusdelegate.h"

#include <QEvent>
#include <QHeaderView>
#include <QHelpEvent>
#include <QPointer>
#include <QTableView>
#include <QTimer>
#include <QToolTip>

#include <algorithm>

namespace strata::views {

namespace {

/// Widest a column grows to fit its text, in average characters; longer text elides and the
/// cell's tooltip carries all of it.
constexpr int kFitMaxChars = 56;
/// Rows a column fit measures: those on screen first, then their neighbours up to this many.
/// Qt's default (1,000) costs a 16-column table 16,000 delegate size hints per fit, and a fit
/// follows every change of the model: at 100,000 jobs under churn that stalled the GUI thread.
constexpr int kFitRows = 100;

/// Fits a table's columns to their contents as rows arrive (never narrower than they are, and
/// never a column the user resized), and shows an elided cell's full text as its tooltip.
class TableFitter final : public QObject
{
public:
    explicit TableFitter(QTableView *view)
        : QObject(view)
        , m_view(view)
        , m_viewport(view->viewport())
    {
        m_timer.setSingleShot(true);
        m_timer.setInterval(0);
        connect(&m_timer, &QTimer::timeout, this, &TableFitter::fit);
        m_viewport->installEventFilter(this);
        connect(view->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int section, int, int) {
            if (m_fitting) {
                return;
            }
            if (m_view->horizontalHeader()->underMouse()) {
                m_userSized.insert(section);
            }
            if (section != m_fillColumn) {
                fill(); // the fill column takes up or gives back what the other column changed
            }
        });
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        // Compared with the viewport kept at construction: while the view is being destroyed its
        // viewport still receives events, and calling into the half-destroyed view is undefined.
        if (watched != m_viewport) {
            return false;
        }
        if (event->type() == QEvent::Paint || event->type() == QEvent::Show) {
            attach();
            if (m_fitWhenShown) {
                m_fitWhenShown = false;
                m_timer.start();
            }
        } else if (event->type() == QEvent::Resize) {
            fill();
        } else if (event->type() == QEvent::ToolTip) {
            return showElidedText(static_cast<QHelpEvent *>(event));
        }
        return false;
    }

public:
    void setFillColumn(int column)
    {
        m_fillColumn = column;
        m_fillBase = column >= 0 ? m_view->horizontalHeader()->sectionSize(column) : -1;
        fill();
    }

private:
    void attach()
    {
        QAbstractItemModel *model = m_view->model();
        if (model == m_model) {
            return;
        }
        if (m_model) {
            disconnect(m_model, nullptr, this, nullptr);
        }
        m_model = model;
        m_userSized.clear();
        if (!model) {
            return;
        }
        for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved}) {
            connect(model, signal, &m_timer, qOverload<>(&QTimer::start));
        }
        connect(model, &QAbstractItemModel::modelReset, &m_timer, qOverload<>(&QTimer::start));
        connect(model, &QAbstractItemModel::layoutChanged, &m_timer, qOverload<>(&QTimer::start));
        connect(model, &QAbstractItemModel::dataChanged, &m_timer, qOverload<>(&QTimer::start));
        m_timer.start();
    }

    void fit()
    {
        QHeaderView *header = m_view->horizontalHeader();
        if (!m_model || header->count() == 0) {
            return;
        }
        // A hidden view measures every row (QTableView::sizeHintForColumn), a shown one only
        // those on screen: a page in the background fits when it is shown again.
        if (!m_view->isVisible()) {
            m_fitWhenShown = true;
            return;
        }
        m_fitting = true;
        const int cap = m_view->fontMetrics().averageCharWidth() * kFitMaxChars;
        for (int column = 0; column < header->count(); ++column) {
            if (header->isSectionHidden(column) || m_userSized.contains(column)
                || header->sectionResizeMode(column) != QHeaderView::Interactive) {
                continue;
            }
            // The header always reads in full; the values up to the cap.
            const int wanted =
                std::max(header->sectionSizeHint(column),
                         std::min(cap, static_cast<const QAbstractItemView *>(m_view)->sizeHintForColumn(column)));
            const int current = column == m_fillColumn && m_fillBase >= 0 ? m_fillBase : header->sectionSize(column);
            if (wanted > current) {
                if (column == m_fillColumn && m_fillBase >= 0) {
                    m_fillBase = wanted;
                } else {
                    header->resizeSection(column, wanted);
                }
            }
        }
        m_fitting = false;
        fill();
    }

    /// Gives the fill column the width the other columns leave free in the viewport, never less
    /// than its fitted width; the other columns keep their widths, so spare room stays empty
    /// when there is no fill column (or the user sized it).
    void fill()
    {
        QHeaderView *header = m_view->horizontalHeader();
        if (m_fillColumn < 0 || m_fillColumn >= header->count() || header->isSectionHidden(m_fillColumn)
            || m_userSized.contains(m_fillColumn)) {
            return;
        }
        const int others = header->length() - header->sectionSize(m_fillColumn);
        const int width = std::max(m_fillBase, m_viewport->width() - others);
        if (width != header->sectionSize(m_fillColumn)) {
            m_fitting = true;
            header->resizeSection(m_fillColumn, width);
            m_fitting = false;
        }
    }

    bool showElidedText(QHelpEvent *help)
    {
        const QModelIndex index = m_view->indexAt(help->pos());
        if (!index.isValid() || index.data(Qt::ToolTipRole).isValid()) {
            return false; // the model's own tooltip
        }
        const QString text = index.data(Qt::DisplayRole).toString();
        const QRect cell = m_view->visualRect(index);
        const int margin = 2 * (m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1);
        if (text.isEmpty() || m_view->fontMetrics().horizontalAdvance(text) + margin <= cell.width()) {
            QToolTip::hideText();
            return true;
        }
        QToolTip::showText(help->globalPos(), text, m_view->viewport(), cell);
        return true;
    }

    QTableView *m_view;
    QWidget *m_viewport;
    QPointer<QAbstractItemModel> m_model;
    QTimer m_timer;
    QSet<int> m_userSized;
    bool m_fitting = false;
    bool m_fitWhenShown = false;
    int m_fillColumn = -1;
    int m_fillBase = -1; ///< the fill column's fitted width, before the spare room is added
};

/// The view's fitter (a plain QObject child: findChild<TableFitter *> cannot tell it apart).
constexpr char kFitterProperty[] = "strataTableFitter";

TableFitter *fitterOf(const QTableView *view)
{
    return static_cast<TableFitter *>(view->property(kFitterProperty).value<QObject *>());
}

} // namespace

void applyTableStyle(QTableView *view, int rowPadding)
{
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->setShowGrid(false);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + rowPadding);
    // Columns fit their contents; spare width stays empty rather than stretching the last one.
    view->horizontalHeader()->setStretchLastSection(false);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setResizeContentsPrecision(kFitRows);
    view->setItemDelegate(new StatusDelegate(view));
    if (!fitterOf(view)) {
        view->setProperty(kFitterProperty, QVariant::fromValue<QObject *>(new TableFitter(view)));
    }
}

void setFillColumn(QTableView *view, int column)
{
    if (TableFitter *fitter = fitterOf(view)) {
        fitter->setFillColumn(column);
    }
}

} // namespace strata::views
