#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace strata::core {

template <class T> using Ptr = std::shared_ptr<const T>;

/// Key of a record within the whole estate: "<source>/<id>". Ids are only unique per source.
template <class T> QString estateKey(const T &record)
{
    return record.source + QLatin1Char('/') + record.id;
}

/// An immutable, published list of records of one type from one scope (a source, or a source's
/// volume for snapshots), in the order the system returned them, indexed by estate key.
/// Built once off the GUI thread, then shared read-only.
template <class T> class KeyedList
{
public:
    KeyedList() = default;
    explicit KeyedList(std::vector<Ptr<T>> items)
        : m_items(std::move(items))
    {
        buildIndex();
    }

    /// As KeyedList(items), sharing `sameKeys`' index instead of building one when each item has
    /// the source and id of the item at its position in `sameKeys` (a listing whose records
    /// changed but whose keys and order did not: no key is built or hashed again). Checked here:
    /// any other list gets an index of its own.
    KeyedList(std::vector<Ptr<T>> items, const KeyedList &sameKeys)
        : m_items(std::move(items))
    {
        if (sameKeysAs(sameKeys)) {
            m_index = sameKeys.m_index;
            return;
        }
        buildIndex();
    }

    [[nodiscard]] const std::vector<Ptr<T>> &items() const { return m_items; }
    [[nodiscard]] std::size_t size() const { return m_items.size(); }
    [[nodiscard]] Ptr<T> find(const QString &key) const
    {
        const auto it = m_index.constFind(key);
        return it == m_index.cend() ? nullptr : m_items[static_cast<std::size_t>(*it)];
    }
    /// Position in items() of the record find(key) returns, -1 when there is none.
    [[nodiscard]] qsizetype indexOf(const QString &key) const { return m_index.value(key, -1); }
    /// No two records share an estate key (find() then names the only record with its key).
    [[nodiscard]] bool hasUniqueKeys() const { return std::size_t(m_index.size()) == m_items.size(); }

private:
    void buildIndex()
    {
        m_index.reserve(static_cast<qsizetype>(m_items.size()));
        for (std::size_t i = 0; i < m_items.size(); ++i) {
            m_index.insert(estateKey(*m_items[i]), static_cast<qsizetype>(i));
        }
    }

    [[nodiscard]] bool sameKeysAs(const KeyedList &other) const
    {
        if (m_items.size() != other.m_items.size()) {
            return false;
        }
        for (std::size_t i = 0; i < m_items.size(); ++i) {
            const T &a = *m_items[i];
            const T &b = *other.m_items[i];
            if (&a != &b && (a.id != b.id || a.source != b.source)) {
                return false;
            }
        }
        return true;
    }

    std::vector<Ptr<T>> m_items;
    QHash<QString, qsizetype> m_index;
};

/// What one publish changed, by estate key. Consumers (item models, the web API) apply it
/// instead of reloading.
template <class T> struct Diff
{
    std::vector<Ptr<T>> added;   ///< new records, in source order
    std::vector<Ptr<T>> changed; ///< new values of records whose content changed
    QStringList removed;         ///< estate keys of records that disappeared

    [[nodiscard]] bool isEmpty() const { return added.empty() && changed.empty() && removed.isEmpty(); }
    [[nodiscard]] std::size_t size() const
    {
        return added.size() + changed.size() + static_cast<std::size_t>(removed.size());
    }
};

/// Keyed diff of two publishes of the same scope; O(n) with hashing, value comparison only for
/// records present in both (pointer equality short-circuits unchanged shared records).
template <class T> Diff<T> diffOf(const KeyedList<T> *before, const KeyedList<T> &after)
{
    Diff<T> d;
    for (const Ptr<T> &item : after.items()) {
        const Ptr<T> old = before ? before->find(estateKey(*item)) : nullptr;
        if (!old) {
            d.added.push_back(item);
        } else if (old != item && !(*old == *item)) {
            d.changed.push_back(item);
        }
    }
    if (before) {
        for (const Ptr<T> &item : before->items()) {
            const QString key = estateKey(*item);
            if (!after.find(key)) {
                d.removed.append(key);
            }
        }
    }
    return d;
}

/// The current published lists of one record type, per scope, plus a merged view. Lives on the
/// owner (GUI) thread; publish() is the only mutation.
template <class T> class Table
{
public:
    [[nodiscard]] std::shared_ptr<const KeyedList<T>> scope(const QString &scopeKey) const
    {
        return m_scopes.value(scopeKey);
    }

    /// Replaces a scope's list. `precomputed` is used when it was diffed against the list that
    /// is still current (`base`), else the diff is recomputed here.
    Diff<T> publish(const QString &scopeKey,
                    std::shared_ptr<const KeyedList<T>> next,
                    const std::shared_ptr<const KeyedList<T>> &base = nullptr,
                    Diff<T> *precomputed = nullptr)
    {
        const std::shared_ptr<const KeyedList<T>> current = m_scopes.value(scopeKey);
        Diff<T> d = (precomputed && current == base) ? std::move(*precomputed) : diffOf(current.get(), *next);
        m_scopes.insert(scopeKey, std::move(next));
        return d;
    }

    /// Drops a scope (source removed); returns the removals.
    Diff<T> clear(const QString &scopeKey)
    {
        Diff<T> d;
        const std::shared_ptr<const KeyedList<T>> current = m_scopes.take(scopeKey);
        if (current) {
            for (const Ptr<T> &item : current->items()) {
                d.removed.append(estateKey(*item));
            }
        }
        return d;
    }

    /// Every record of every scope whose key starts with `prefix` (empty = all).
    [[nodiscard]] std::vector<Ptr<T>> all(const QString &scopePrefix = {}) const
    {
        std::vector<Ptr<T>> out;
        for (auto it = m_scopes.cbegin(); it != m_scopes.cend(); ++it) {
            if (!scopePrefix.isEmpty() && !it.key().startsWith(scopePrefix)) {
                continue;
            }
            out.insert(out.end(), it.value()->items().begin(), it.value()->items().end());
        }
        return out;
    }

    [[nodiscard]] Ptr<T> find(const QString &scopeKey, const QString &estateKeyValue) const
    {
        const auto list = m_scopes.value(scopeKey);
        return list ? list->find(estateKeyValue) : nullptr;
    }

    [[nodiscard]] QStringList scopes() const { return m_scopes.keys(); }

private:
    QHash<QString, std::shared_ptr<const KeyedList<T>>> m_scopes;
};

} // namespace strata::core
