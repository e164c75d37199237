#pragma once

#include "models/item/keyedtablemodel.h"
#include "views/asyncsortproxy.h"

#include <QString>

#include <memory>
#include <unordered_map>
#include <vector>

namespace strata::views {

/// The case-folded filter text of each record of a table snapshot, found by record. Immutable
/// once built, so the worker thread and the GUI thread read it alike; it holds its records, so a
/// record's address is never reused by another while it is in use. Built from a previous one, it
/// reuses the text of every record still there (records are immutable: same record, same text).
template <class T> class FoldedTexts
{
public:
    using TextOf = QString (*)(const T &);

    FoldedTexts(std::vector<core::Ptr<T>> rows, const FoldedTexts *previous, TextOf text)
        : m_rows(std::move(rows))
    {
        m_texts.reserve(m_rows.size());
        m_index.reserve(m_rows.size());
        for (std::size_t i = 0; i < m_rows.size(); ++i) {
            const QString *known = previous ? previous->find(m_rows[i].get()) : nullptr;
            m_texts.push_back(known ? *known : text(*m_rows[i]).toCaseFolded());
            m_index.emplace(m_rows[i].get(), i);
        }
    }

    /// The text of `record`, or null when it is not in this snapshot.
    [[nodiscard]] const QString *find(const T *record) const
    {
        const auto it = m_index.find(record);
        return it == m_index.end() ? nullptr : &m_texts[it->second];
    }
    /// The text of the snapshot's `row` (0 <= row < size()).
    [[nodiscard]] const QString &at(int row) const { return m_texts[std::size_t(row)]; }
    [[nodiscard]] int size() const { return int(m_texts.size()); }

private:
    std::vector<core::Ptr<T>> m_rows;
    std::vector<QString> m_texts;
    std::unordered_map<const T *, std::size_t> m_index;
};

/// A RowOrder over a KeyedTableModel<T>'s records: a snapshot copies the row pointers (the
/// records are immutable and shared), a live order reads the model. Matches a case-folded
/// search text against each record's folded filter text, from the FoldedTexts of the previous
/// request when it has the record, else folded now; prepare() folds every row's text once
/// (only when there is a text to search). Subclasses add their filter and comparison.
template <class T> class RecordRowOrder : public RowOrder
{
public:
    using TextOf = typename FoldedTexts<T>::TextOf;

    /// `needle`: the search text, case-folded (empty: every row matches).
    RecordRowOrder(const models::KeyedTableModel<T> &model,
                   bool snapshot,
                   std::shared_ptr<const FoldedTexts<T>> texts,
                   QString needle,
                   TextOf text)
        : m_model(snapshot ? nullptr : &model)
        , m_copy(snapshot ? model.rows() : std::vector<core::Ptr<T>>())
        , m_texts(std::move(texts))
        , m_needle(std::move(needle))
        , m_text(text)
    {}

    [[nodiscard]] int rows() const final { return int(all().size()); }
    void prepare() final
    {
        if (!m_needle.isEmpty()) {
            m_prepared = std::make_shared<const FoldedTexts<T>>(all(), m_texts.get(), m_text);
        }
    }
    /// The texts prepare() folded, or null.
    [[nodiscard]] std::shared_ptr<const FoldedTexts<T>> prepared() const { return m_prepared; }

protected:
    [[nodiscard]] const T &record(int row) const { return *all()[std::size_t(row)]; }
    /// Whether the row's filter text contains the search text.
    [[nodiscard]] bool textMatches(int row) const
    {
        if (m_needle.isEmpty()) {
            return true;
        }
        const T *r = all()[std::size_t(row)].get();
        const QString *text = nullptr;
        if (m_prepared) {
            text = m_model ? m_prepared->find(r) : &m_prepared->at(row);
        }
        if (!text && m_texts) {
            text = m_texts->find(r);
        }
        return text ? text->contains(m_needle) : m_text(*r).toCaseFolded().contains(m_needle);
    }
    /// The live model, or null for a snapshot.
    [[nodiscard]] const models::KeyedTableModel<T> *liveModel() const { return m_model; }

private:
    [[nodiscard]] const std::vector<core::Ptr<T>> &all() const { return m_model ? m_model->rows() : m_copy; }

    const models::KeyedTableModel<T> *m_model;
    std::vector<core::Ptr<T>> m_copy;
    std::shared_ptr<const FoldedTexts<T>> m_texts;
    std::shared_ptr<const FoldedTexts<T>> m_prepared;
    QString m_needle;
    TextOf m_text;
};

/// -1, 0 or 1 as `a` sorts before, with or after `b` (operator<).
template <class V> int recordOrder(const V &a, const V &b)
{
    return a < b ? -1 : (b < a ? 1 : 0);
}

/// -1, 0 or 1 as QString::compare (case-sensitive, as QVariant::compare of two strings).
inline int recordOrder(const QString &a, const QString &b)
{
    const int c = a.compare(b);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

} // namespace strata::views
