#pragma once

#include "models/core/runtime/engine.h"
#include "models/item/columntablemodel.h"

#include <optional>

namespace strata::models {

/// The configured sources with their live health (the Sources page and the status bar).
/// Rows follow the config order; status changes update single rows.
class SourceTableModel final : public ColumnTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SourceTableModel)

public:
    enum Column
    {
        Name,
        Kind,
        Url,
        Health,
        System,
        Version,
        LastPoll,
        Latency,
        Error,
        ColumnCount
    };

    explicit SourceTableModel(core::Engine &engine, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    [[nodiscard]] QString nameAt(int row) const;
    /// Every row's status, in row order.
    [[nodiscard]] const QList<core::SourceStatus> &statuses() const { return m_rows; }
    /// Names of the sources (of `kind`, else all) whose first poll has not landed yet: never
    /// succeeded, never failed. Pages say "Loading <source>…" for them instead of "none".
    [[nodiscard]] QStringList loadingSources(std::optional<core::SourceKind> kind = std::nullopt) const;
    /// Names of the configured sources of `kind`, in config order.
    [[nodiscard]] QStringList sourcesOf(core::SourceKind kind) const;
    /// Human text for a health value ("OK", "Unreachable", ...).
    static QString healthText(core::Health health);

private:
    QStringList columnTitles() const override;

    void syncRows();
    void updateStatus(const QString &name);

    core::Engine &m_engine;
    QList<core::SourceStatus> m_rows;
};

} // namespace strata::models
