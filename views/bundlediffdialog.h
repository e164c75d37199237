#pragma once

#include "models/core/runtime/bundle.h"

#include <QDialog>

class QLabel;
class QTreeWidget;

namespace strata::views {

/// File ▸ Compare support bundles…: what changed between two bundles as a tree, system ->
/// source -> resource ("volumes: 1 appeared, 0 disappeared, 2 changed") -> one row per record
/// ("+ uuid-3", "- runai-team-a/a-2", "~ chest_xray") -> one row per changed field with its
/// value before and after. Shows a diff computed elsewhere; reads no file.
class BundleDiffDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BundleDiffDialog)

public:
    /// `beforeName`/`afterName`: how to call the two bundles (their file names).
    BundleDiffDialog(const core::BundleDiff &diff,
                     const QString &beforeName,
                     const QString &afterName,
                     QWidget *parent = nullptr);

    [[nodiscard]] QTreeWidget *tree() const { return m_tree; }
    [[nodiscard]] QString headerText() const;

private:
    QLabel *m_header = nullptr;
    QTreeWidget *m_tree = nullptr;
};

} // namespace strata::views
