#include "views/bundlediffdialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace strata::views {

namespace {

QString metaText(const core::BundleMeta &m)
{
    return BundleDiffDialog::tr("%1 (%2)").arg(QLocale().toString(m.created.toLocalTime(), QLocale::ShortFormat),
                                               m.host);
}

QTreeWidgetItem *childNamed(QTreeWidgetItem *parent, QTreeWidget *tree, const QString &name)
{
    const int count = parent ? parent->childCount() : tree->topLevelItemCount();
    for (int i = 0; i < count; ++i) {
        QTreeWidgetItem *item = parent ? parent->child(i) : tree->topLevelItem(i);
        if (item->text(0) == name) {
            return item;
        }
    }
    auto *item = parent ? new QTreeWidgetItem(parent, {name}) : new QTreeWidgetItem(tree, {name});
    item->setExpanded(true);
    return item;
}

} // namespace

BundleDiffDialog::BundleDiffDialog(const core::BundleDiff &diff,
                                   const QString &beforeName,
                                   const QString &afterName,
                                   QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Compare support bundles"));
    setObjectName(QStringLiteral("bundleDiffDialog"));
    m_header = new QLabel(this);
    m_header->setObjectName(QStringLiteral("bundleDiffHeader"));
    m_header->setWordWrap(true);
    m_header->setText(
        tr("From %1, %2\nto %3, %4").arg(beforeName, metaText(diff.before), afterName, metaText(diff.after)));
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("bundleDiffTree"));
    m_tree->setHeaderLabels({tr("Change"), tr("Before"), tr("After")});
    m_tree->setUniformRowHeights(true);
    if (diff.isEmpty()) {
        new QTreeWidgetItem(m_tree, {tr("No differences")});
    }
    for (const core::ResourceDiff &r : diff.resources) {
        QTreeWidgetItem *system = childNamed(nullptr, m_tree, r.system);
        QTreeWidgetItem *source = childNamed(system, m_tree, r.source);
        auto *resource = new QTreeWidgetItem(source,
                                             {tr("%1: %2 appeared, %3 disappeared, %4 changed")
                                                  .arg(r.resource)
                                                  .arg(r.appeared.size())
                                                  .arg(r.disappeared.size())
                                                  .arg(r.changed.size())});
        resource->setExpanded(true);
        for (const QString &id : r.appeared) {
            auto *item = new QTreeWidgetItem(resource, {QStringLiteral("+ ") + id});
            item->setToolTip(0, tr("Appeared"));
        }
        for (const QString &id : r.disappeared) {
            auto *item = new QTreeWidgetItem(resource, {QStringLiteral("\u2212 ") + id});
            item->setToolTip(0, tr("Disappeared"));
        }
        for (const core::RecordChange &c : r.changed) {
            auto *record = new QTreeWidgetItem(resource, {QStringLiteral("~ ") + c.name});
            record->setToolTip(0, c.id);
            for (const core::FieldChange &f : c.fields) {
                new QTreeWidgetItem(record, {f.field, core::diffValueText(f.before), core::diffValueText(f.after)});
            }
        }
    }
    m_tree->expandToDepth(2);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addWidget(m_tree, 1);
    layout->addWidget(buttons);
    resize(900, 600);
}

QString BundleDiffDialog::headerText() const
{
    return m_header->text();
}

} // namespace strata::views
