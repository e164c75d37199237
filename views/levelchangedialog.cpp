#include "views/levelchangedialog.h"

#include "models/item/servicelevelmodel.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

namespace strata::views {

using models::ServiceLevelTableModel;

namespace {

enum Column
{
    LevelColumn,
    CapColumn,
    CostColumn,
    PoolColumn,
    ColumnCount
};

} // namespace

LevelChangeDialog::LevelChangeDialog(core::ServiceLevelRow row,
                                     QList<core::LevelOption> options,
                                     QString currency,
                                     QStringList poolNames,
                                     QWidget *parent)
    : QDialog(parent)
    , m_row(std::move(row))
    , m_options(std::move(options))
    , m_currency(std::move(currency))
    , m_poolNames(std::move(poolNames))
{
    setObjectName(QStringLiteral("levelChangeDialog"));
    setWindowTitle(tr("Change service level of %1").arg(m_row.volumeName));
    setMinimumWidth(560);
    const bool anf = m_row.kind == core::SourceKind::Azure;

    auto *intro = new QLabel(
        anf ? tr("<b>%1</b> (%2) is in a <b>%3</b> pool. Choose the level to move it to; "
                 "the next step previews the change.")
                  .arg(m_row.volumeName.toHtmlEscaped(), m_row.container.toHtmlEscaped(), m_row.level.toHtmlEscaped())
            : tr("<b>%1</b> (SVM %2) has the QoS policy <b>%3</b>. Choose the policy to set; "
                 "the next step previews the change.")
                  .arg(m_row.volumeName.toHtmlEscaped(),
                       m_row.container.toHtmlEscaped(),
                       m_row.level.isEmpty() ? tr("none") : m_row.level.toHtmlEscaped()),
        this);
    intro->setTextFormat(Qt::RichText);
    intro->setWordWrap(true);

    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("levelOptionsTreeWidget"));
    m_list->setRootIsDecorated(false);
    m_list->setColumnCount(ColumnCount);
    m_list->setHeaderLabels({anf ? tr("Level") : tr("QoS policy"), tr("Cap"), tr("Cost/month"), tr("Pool")});
    m_list->setColumnHidden(PoolColumn, !anf);
    for (int i = 0; i < m_options.size(); ++i) {
        const core::LevelOption &o = m_options[i];
        QString name = o.level.isEmpty() ? tr("(no policy)") : o.level;
        if (o.current) {
            name = tr("%1 (current)").arg(name);
        }
        QString cap = ServiceLevelTableModel::formatMibps(o.capMibps);
        if (o.capIops > 0) {
            cap += QStringLiteral(", ") + tr("%1 IOPS").arg(QLocale().toString(o.capIops, 'f', 0));
        }
        QString pool;
        if (anf) {
            if (o.pool.isEmpty() || !o.poolExists) {
                pool = tr("no pool of this level");
            } else if (!o.poolHasRoom) {
                pool = tr("%1 (full)").arg(o.pool);
            } else {
                pool = tr("%1 (has room)").arg(o.pool);
            }
            if (o.current) {
                pool = m_row.container.section(QLatin1Char('/'), -1);
            }
        }
        auto *item = new QTreeWidgetItem(
            m_list, {name, cap, ServiceLevelTableModel::formatMoney(o.costPerMonth, m_currency), pool});
        item->setData(LevelColumn, Qt::UserRole, i);
        for (int c : {CapColumn, CostColumn}) {
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        }
        if (o.current) {
            item->setFlags(item->flags() & ~(Qt::ItemIsSelectable | Qt::ItemIsEnabled));
            QFont f = item->font(LevelColumn);
            f.setItalic(true);
            item->setFont(LevelColumn, f);
        }
    }
    for (int c = 0; c < ColumnCount; ++c) {
        m_list->resizeColumnToContents(c);
    }

    m_poolLabel = new QLabel(this);
    m_poolLabel->setObjectName(QStringLiteral("levelNewPoolLabel"));
    m_poolLabel->setWordWrap(true);
    m_poolSize = new QSpinBox(this);
    m_poolSize->setObjectName(QStringLiteral("levelNewPoolSizeSpinBox"));
    m_poolSize->setRange(1, 2048);
    m_poolSize->setSuffix(tr(" TiB"));
    m_poolSize->setToolTip(tr("Capacity pools are sized in whole TiB and billed for their full size."));
    // Just big enough for this volume: more is billed without being used.
    m_poolSize->setValue(int(std::max<qint64>(1, (m_row.sizeBytes + kTiB - 1) / kTiB)));
    auto *poolForm = new QFormLayout();
    poolForm->addRow(m_poolLabel);
    poolForm->addRow(tr("New pool &size:"), m_poolSize);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->setObjectName(QStringLiteral("levelChangeButtonBox"));
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Preview…"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_list, 1);
    layout->addLayout(poolForm);
    layout->addWidget(m_buttons);
    m_poolSizeRow = poolForm;

    connect(m_list, &QTreeWidget::currentItemChanged, this, &LevelChangeDialog::updateChoice);
    connect(m_list, &QTreeWidget::itemActivated, this, [this] {
        if (chosen()) {
            accept();
        }
    });
    connect(m_poolSize, &QSpinBox::valueChanged, this, &LevelChangeDialog::updateChoice);
    // Preselect the flag's suggestion: the next level up for a volume at its cap, down when far below.
    const QStringList levels = core::anfServiceLevels();
    const int currentIndex = int(levels.indexOf(m_row.level));
    QString suggestion;
    if (anf && currentIndex >= 0) {
        if (m_row.flag == core::LevelFlag::AtCap && currentIndex + 1 < levels.size()) {
            suggestion = levels[currentIndex + 1];
        } else if (m_row.flag == core::LevelFlag::FarBelow && currentIndex > 0) {
            suggestion = levels[currentIndex - 1];
        }
    }
    if (suggestion.isEmpty() || !selectLevel(suggestion)) {
        m_list->setCurrentItem(nullptr);
    }
    updateChoice();
}

LevelChangeDialog::~LevelChangeDialog() = default;

bool LevelChangeDialog::selectLevel(const QString &level)
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        const core::LevelOption &o = m_options[item->data(LevelColumn, Qt::UserRole).toInt()];
        if (o.level == level && !o.current) {
            m_list->setCurrentItem(item);
            return true;
        }
    }
    return false;
}

const core::LevelOption *LevelChangeDialog::chosen() const
{
    const QTreeWidgetItem *item = m_list->currentItem();
    if (!item) {
        return nullptr;
    }
    const core::LevelOption &o = m_options[item->data(LevelColumn, Qt::UserRole).toInt()];
    return o.current ? nullptr : &o;
}

bool LevelChangeDialog::offersNewPool() const
{
    const core::LevelOption *o = chosen();
    return o && m_row.kind == core::SourceKind::Azure && (o->pool.isEmpty() || !o->poolExists || !o->poolHasRoom);
}

core::ActionRequest LevelChangeDialog::request() const
{
    core::ActionRequest r;
    r.kind = core::ActionKind::ServiceLevelChange;
    r.source = m_row.source;
    r.volumeId = m_row.volumeId;
    const core::LevelOption *o = chosen();
    if (!o) {
        return r;
    }
    r.targetLevel = o->level;
    if (m_row.kind != core::SourceKind::Azure) {
        return r;
    }
    if (!offersNewPool()) {
        r.targetPool = o->pool;
        return r;
    }
    const QString base = QStringLiteral("pool-") + o->level.toLower();
    r.targetPool = base;
    for (int n = 2; m_poolNames.contains(r.targetPool, Qt::CaseInsensitive); ++n) {
        r.targetPool = base + QLatin1Char('-') + QString::number(n);
    }
    r.poolSizeBytes = qint64(m_poolSize->value()) * kTiB;
    return r;
}

void LevelChangeDialog::updateChoice()
{
    const bool offer = offersNewPool();
    m_poolLabel->setVisible(offer);
    m_poolSize->setVisible(offer);
    if (auto *label = m_poolSizeRow->labelForField(m_poolSize)) {
        label->setVisible(offer);
    }
    if (offer) {
        const core::ActionRequest r = request();
        m_poolLabel->setText(tr("No %1 pool in this account has room for the volume. The preview offers to create "
                                "the pool %2 first.")
                                 .arg(r.targetLevel, r.targetPool));
    }
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(chosen() != nullptr);
}

} // namespace strata::views
