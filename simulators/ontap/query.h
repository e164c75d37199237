#pragma once

#include "simulators/ontap/jsonwriter.h"
#include "simulators/ontap/model.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonValue>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

namespace strata::sim::ontap {

class Estate;

/// Decoded query string of a request, in order. Unlike QUrlQuery it decodes '+' as a space, as
/// Python's requests (Ansible) encodes spaces that way.
struct QueryParams
{
    QList<QPair<QString, QString>> items;

    static QueryParams parse(const QByteArray &target);
    [[nodiscard]] bool has(const QString &key) const;
    /// The last value given for `key` (or `fallback`).
    [[nodiscard]] QString value(const QString &key, const QString &fallback = {}) const;
};

/// Per-request evaluation context for field getters.
struct Ctx
{
    qint64 nowMs = 0;
    const Estate *estate = nullptr;
    /// Aggregate usage computed once per request, on first use.
    [[nodiscard]] qint64 aggregateUsed(const QString &aggregateUuid) const;

private:
    mutable std::optional<QHash<QString, qint64>> m_aggregateUsage;
};

/// How a field compares in filters and order_by.
enum class FieldType
{
    String, ///< also date-times (their text sorts chronologically)
    Integer,
    Boolean,
    Json, ///< arrays and objects, returned whole; filters look inside with a sub-path
};

template <class T> using Getter = QJsonValue (*)(const T &, const Ctx &);

/// One leaf of a resource, addressed by its dotted path ("space.snapshot.used").
template <class T> struct Field
{
    QString path;
    FieldType type = FieldType::String;
    bool expensive = false; ///< not part of `fields=*`; only by name, by prefix or with `**`
    Getter<T> get = nullptr;
    QList<QByteArray> keys; ///< path parts
};

/// The field table of one resource type: its key field (cursor tie-breaker and self link) and
/// the identity fields always returned ("uuid", "name").
template <class T> class Schema
{
public:
    /// `defaultOrder` lists the fields (ascending) a collection is sorted by when the query has no
    /// order_by; the key always breaks ties.
    Schema(std::vector<Field<T>> fields,
           const QString &keyPath,
           const QStringList &identity,
           QString (*selfHref)(const T &),
           const QStringList &defaultOrder = {})
        : m_fields(std::move(fields))
        , m_selfHref(selfHref)
        , m_defaultOrder(defaultOrder)
    {
        for (int i = 0; i < int(m_fields.size()); ++i) {
            Field<T> &f = m_fields[size_t(i)];
            for (const QString &part : f.path.split(QLatin1Char('.'))) {
                f.keys.append(part.toLatin1());
            }
            m_byPath.insert(f.path, i);
        }
        m_key = m_byPath.value(keyPath, 0);
        for (const QString &path : identity) {
            if (m_byPath.contains(path)) {
                m_identity.append(m_byPath.value(path));
            }
        }
    }

    [[nodiscard]] const std::vector<Field<T>> &fields() const { return m_fields; }
    [[nodiscard]] const Field<T> &field(int i) const { return m_fields[size_t(i)]; }
    [[nodiscard]] int indexOf(const QString &path) const { return m_byPath.value(path, -1); }
    [[nodiscard]] int keyIndex() const { return m_key; }
    [[nodiscard]] const QList<int> &identity() const { return m_identity; }
    [[nodiscard]] QString selfHref(const T &record) const { return m_selfHref(record); }
    [[nodiscard]] const QStringList &defaultOrder() const { return m_defaultOrder; }

private:
    std::vector<Field<T>> m_fields;
    QHash<QString, int> m_byPath;
    int m_key = 0;
    QList<int> m_identity;
    QString (*m_selfHref)(const T &) = nullptr;
    QStringList m_defaultOrder;
};

/// One `<field>=<query>` filter: terms separated by '|' (OR), each optionally negated with '!',
/// compared with '<', '<=', '>', '>=' or matched with '*' wildcards (case-insensitive).
struct FilterExpr
{
    struct Term
    {
        enum class Op
        {
            Match,
            Less,
            LessEqual,
            Greater,
            GreaterEqual
        };
        bool negate = false;
        Op op = Op::Match;
        QString text;
        bool isNumber = false;
        double number = 0;
    };
    QList<Term> terms;

    static FilterExpr parse(const QString &expression);
    [[nodiscard]] bool matches(const QJsonValue &value) const;

private:
    [[nodiscard]] static bool termMatches(const Term &term, const QJsonValue &value);
};

/// Case-insensitive glob with '*' only.
bool globMatch(QStringView pattern, QStringView text);

/// A comparable snapshot of one field value for order_by and cursors.
struct SortValue
{
    int kind = 0; ///< 0 missing, 1 number, 2 text
    double number = 0;
    QString text;

    static SortValue of(const QJsonValue &value);
    static SortValue fromCursor(const QString &text, FieldType type);
    [[nodiscard]] QString cursorText() const;
    [[nodiscard]] int compare(const SortValue &other) const;
};

/// The collection-GET parameters of one request, validated against nothing yet.
struct ListRequest
{
    QStringList fields;
    bool fieldsGiven = false;
    qint64 maxRecords = -1;
    bool returnRecords = true;
    QList<QPair<QString, bool>> orderBy; ///< path, descending
    QList<QPair<QString, QString>> filters;
    QList<QPair<QString, QString>> start; ///< start.<path> cursor values, prefix stripped
    /// Parameters carried into the next link (everything but the cursor).
    QList<QPair<QString, QString>> carried;

    /// `reserved` lists endpoint parameters that are not filters (e.g. "interval").
    static std::variant<ListRequest, OntapError> parse(const QueryParams &params, const QStringList &reserved = {});
};

OntapError unexpectedArgument(const QString &name);
OntapError invalidFieldValue(const QString &field, const QString &value);

/// Single-slot-per-order cache of a sorted collection, rebuilt when the estate generation moves.
template <class T> struct SortCache
{
    struct Entry
    {
        std::vector<SortValue> values;
        const T *record = nullptr;
    };
    quint64 generation = 0;
    QHash<QString, std::shared_ptr<const std::vector<Entry>>> byOrder;
};

/// Rendering knobs for one collection response.
struct CollectionOptions
{
    int pageCap = 0;  ///< records per page at most, whatever max_records asks (0 = no cap)
    bool hal = true;  ///< add `_links.self` (per record and collection); `next` is always added
    QString path;     ///< "/api/storage/volumes" (normalised request path) for the next link
    QString selfHref; ///< the request target as received
    quint64 generation = 0;
    /// Filters applied on top of the query's (not carried into links), e.g. is_constituent=false.
    QList<QPair<QString, QString>> implicitFilters;
};

namespace detail {

template <class T> struct Projection
{
    struct Node
    {
        QByteArray key;
        int field = -1; ///< leaf when >= 0
        std::vector<Node> children;
    };
    Node root;

    static std::variant<Projection, OntapError> build(const Schema<T> &schema, const QStringList &requested)
    {
        const auto &fields = schema.fields();
        std::vector<bool> selected(fields.size(), false);
        for (QString name : requested) {
            name = name.trimmed();
            if (name.isEmpty()) {
                continue;
            }
            bool matched = false;
            for (size_t i = 0; i < fields.size(); ++i) {
                const Field<T> &f = fields[i];
                bool take = false;
                if (name == QLatin1String("**")) {
                    take = true;
                } else if (name == QLatin1String("*")) {
                    take = !f.expensive;
                } else if (f.path == name) {
                    take = true;
                } else if (f.path.size() > name.size() && f.path.startsWith(name)
                           && f.path.at(name.size()) == QLatin1Char('.')) {
                    take = true; // a sub-object named by its prefix ("space", "clone.parent_volume")
                } else if (f.type == FieldType::Json && name.size() > f.path.size() && name.startsWith(f.path)
                           && name.at(f.path.size()) == QLatin1Char('.')) {
                    take = true; // a member of an array field ("aggregates.name")
                }
                if (take) {
                    selected[i] = true;
                    matched = true;
                }
            }
            if (!matched) {
                return invalidFieldValue(QStringLiteral("fields"), name);
            }
        }
        for (int i : schema.identity()) {
            selected[size_t(i)] = true;
        }
        Projection p;
        for (size_t i = 0; i < fields.size(); ++i) {
            if (!selected[i]) {
                continue;
            }
            Node *node = &p.root;
            const auto &keys = fields[i].keys;
            for (qsizetype k = 0; k < keys.size(); ++k) {
                auto it = std::find_if(node->children.begin(), node->children.end(), [&](const Node &n) {
                    return n.key == keys[k];
                });
                if (it == node->children.end()) {
                    node->children.push_back(Node{keys[k], -1, {}});
                    it = node->children.end() - 1;
                }
                node = &*it;
            }
            node->field = int(i);
        }
        return p;
    }

    // Returns whether anything was written; an object with no present leaves is rolled back.
    static bool writeChildren(const Schema<T> &schema, const Node &node, const T &record, const Ctx &ctx, JsonWriter &w)
    {
        bool any = false;
        for (const Node &child : node.children) {
            if (child.field >= 0) {
                const QJsonValue v = schema.field(child.field).get(record, ctx);
                if (v.isUndefined()) {
                    continue;
                }
                w.key(QLatin1String(child.key));
                w.value(v);
                any = true;
                continue;
            }
            const qsizetype mark = w.size();
            const bool comma = w.needsComma();
            w.key(QLatin1String(child.key));
            w.beginObject();
            if (writeChildren(schema, child, record, ctx, w)) {
                w.endObject();
                any = true;
            } else {
                w.truncate(mark, comma);
            }
        }
        return any;
    }

    void write(const Schema<T> &schema, const T &record, const Ctx &ctx, bool hal, JsonWriter &w) const
    {
        w.beginObject();
        writeChildren(schema, root, record, ctx, w);
        if (hal) {
            w.key(QLatin1String("_links"));
            w.beginObject();
            w.key(QLatin1String("self"));
            w.beginObject();
            w.key(QLatin1String("href"));
            w.value(schema.selfHref(record));
            w.endObject();
            w.endObject();
        }
        w.endObject();
    }
};

template <class T> struct CompiledFilter
{
    int field = -1;
    QStringList subPath; ///< inside a Json field
    FilterExpr expr;

    bool matches(const Schema<T> &schema, const T &record, const Ctx &ctx) const
    {
        QJsonValue v = schema.field(field).get(record, ctx);
        if (subPath.isEmpty()) {
            return expr.matches(v);
        }
        // Any element of an array (or the object itself) whose sub-path matches.
        QJsonArray candidates = v.isArray() ? v.toArray() : QJsonArray{v};
        for (const QJsonValue &item : std::as_const(candidates)) {
            QJsonValue cur = item;
            for (const QString &part : subPath) {
                cur = cur.toObject().value(part);
            }
            if (expr.matches(cur)) {
                return true;
            }
        }
        return candidates.isEmpty() && expr.matches(QJsonValue(QJsonValue::Undefined));
    }
};

template <class T>
std::optional<CompiledFilter<T>> compileFilter(const Schema<T> &schema, const QString &path, const QString &expression)
{
    CompiledFilter<T> f;
    f.field = schema.indexOf(path);
    if (f.field < 0) {
        const auto &fields = schema.fields();
        for (int i = 0; i < int(fields.size()); ++i) {
            const Field<T> &candidate = fields[size_t(i)];
            if (candidate.type == FieldType::Json && path.startsWith(candidate.path + QLatin1Char('.'))) {
                f.field = i;
                f.subPath = path.mid(candidate.path.size() + 1).split(QLatin1Char('.'));
                break;
            }
        }
    }
    if (f.field < 0) {
        return std::nullopt;
    }
    f.expr = FilterExpr::parse(expression);
    return f;
}

QString encodeQuery(const QList<QPair<QString, QString>> &items);

} // namespace detail

/// Renders one record with a `fields` projection (`*` when none was given).
template <class T>
std::variant<QByteArray, OntapError>
renderRecord(const Schema<T> &schema, const T &record, const QueryParams &params, const Ctx &ctx, bool hal)
{
    QStringList requested{QStringLiteral("*")};
    if (params.has(QStringLiteral("fields"))) {
        requested.clear();
        for (const auto &item : params.items) {
            if (item.first == QLatin1String("fields")) {
                requested += item.second.split(QLatin1Char(','));
            }
        }
    }
    auto projection = detail::Projection<T>::build(schema, requested);
    if (auto *error = std::get_if<OntapError>(&projection)) {
        return *error;
    }
    JsonWriter w;
    std::get<detail::Projection<T>>(projection).write(schema, record, ctx, hal, w);
    return w.take();
}

/// Renders one page of a collection GET: filters, order_by, return_records, fields projection and
/// a cursor `_links.next` (`start.<order field>=...&start.<key>=...`) when more records match.
/// Pages hold at most min(max_records, pageCap) records, so clients must follow `next`.
template <class T>
std::variant<QByteArray, OntapError> renderCollection(const Schema<T> &schema,
                                                      const ListRequest &request,
                                                      const std::function<void(std::vector<const T *> &)> &source,
                                                      const Ctx &ctx,
                                                      const CollectionOptions &options,
                                                      SortCache<T> *cache = nullptr)
{
    using Entry = typename SortCache<T>::Entry;

    // Filters.
    std::vector<detail::CompiledFilter<T>> filters;
    for (const auto &list : {request.filters, options.implicitFilters}) {
        for (const auto &f : list) {
            auto compiled = detail::compileFilter(schema, f.first, f.second);
            if (!compiled) {
                return unexpectedArgument(f.first);
            }
            filters.push_back(std::move(*compiled));
        }
    }
    auto matches = [&](const T &record) {
        return std::all_of(filters.begin(), filters.end(), [&](const auto &f) {
            return f.matches(schema, record, ctx);
        });
    };

    // Order: the requested keys, then the resource key as tie-breaker.
    QList<QPair<int, bool>> order;
    QList<QPair<QString, bool>> orderBy = request.orderBy;
    if (orderBy.isEmpty()) {
        for (const QString &path : schema.defaultOrder()) {
            orderBy.append({path, false});
        }
    }
    for (const auto &o : std::as_const(orderBy)) {
        const int i = schema.indexOf(o.first);
        if (i < 0) {
            return invalidFieldValue(QStringLiteral("order_by"), o.first);
        }
        order.append({i, o.second});
    }
    if (std::none_of(order.begin(), order.end(), [&](const auto &o) {
            return o.first == schema.keyIndex();
        })) {
        order.append({schema.keyIndex(), false});
    }

    QStringList requested;
    for (const QString &f : request.fields) {
        requested += f.split(QLatin1Char(','));
    }
    auto projection = detail::Projection<T>::build(schema, requested);
    if (auto *error = std::get_if<OntapError>(&projection)) {
        return *error;
    }

    JsonWriter w;
    w.beginObject();
    auto writeSelf = [&] {
        w.key(QLatin1String("self"));
        w.beginObject();
        w.key(QLatin1String("href"));
        w.value(options.selfHref);
        w.endObject();
    };

    if (!request.returnRecords) {
        std::vector<const T *> all;
        source(all);
        qint64 count = 0;
        for (const T *r : all) {
            count += matches(*r) ? 1 : 0;
        }
        w.key(QLatin1String("num_records"));
        w.value(count);
        if (options.hal) {
            w.key(QLatin1String("_links"));
            w.beginObject();
            writeSelf();
            w.endObject();
        }
        w.endObject();
        return w.take();
    }

    QString orderSpec;
    for (const auto &o : order) {
        orderSpec += QString::number(o.first) + (o.second ? QLatin1Char('-') : QLatin1Char('+'));
    }
    std::shared_ptr<const std::vector<Entry>> sorted;
    if (cache && cache->generation == options.generation) {
        sorted = cache->byOrder.value(orderSpec);
    }
    if (!sorted) {
        std::vector<const T *> all;
        source(all);
        auto entries = std::make_shared<std::vector<Entry>>();
        entries->reserve(all.size());
        for (const T *r : all) {
            Entry e;
            e.record = r;
            e.values.reserve(size_t(order.size()));
            for (const auto &o : order) {
                e.values.push_back(SortValue::of(schema.field(o.first).get(*r, ctx)));
            }
            entries->push_back(std::move(e));
        }
        std::stable_sort(entries->begin(), entries->end(), [&](const Entry &a, const Entry &b) {
            for (qsizetype i = 0; i < order.size(); ++i) {
                const int c = a.values[size_t(i)].compare(b.values[size_t(i)]);
                if (c != 0) {
                    return order[i].second ? c > 0 : c < 0;
                }
            }
            return false;
        });
        sorted = entries;
        if (cache) {
            if (cache->generation != options.generation) {
                cache->byOrder.clear();
                cache->generation = options.generation;
            }
            cache->byOrder.insert(orderSpec, sorted);
        }
    }

    // Resume at the cursor: the first entry not ordered before it.
    auto begin = sorted->begin();
    if (!request.start.isEmpty()) {
        std::vector<SortValue> cursor;
        for (const auto &o : order) {
            const Field<T> &f = schema.field(o.first);
            QString text;
            bool found = false;
            for (const auto &s : request.start) {
                if (s.first == f.path) {
                    text = s.second;
                    found = true;
                }
            }
            cursor.push_back(found ? SortValue::fromCursor(text, f.type) : SortValue{});
        }
        begin = std::lower_bound(
            sorted->begin(), sorted->end(), cursor, [&](const Entry &e, const std::vector<SortValue> &c) {
                for (qsizetype i = 0; i < order.size(); ++i) {
                    const int cmp = e.values[size_t(i)].compare(c[size_t(i)]);
                    if (cmp != 0) {
                        return order[i].second ? cmp > 0 : cmp < 0;
                    }
                }
                return false;
            });
    }

    qint64 limit = request.maxRecords > 0 ? request.maxRecords : std::numeric_limits<qint64>::max();
    if (options.pageCap > 0) {
        limit = std::min<qint64>(limit, options.pageCap);
    }
    const auto &proj = std::get<detail::Projection<T>>(projection);
    w.key(QLatin1String("records"));
    w.beginArray();
    qint64 written = 0;
    const Entry *next = nullptr;
    for (auto it = begin; it != sorted->end(); ++it) {
        if (!matches(*it->record)) {
            continue;
        }
        if (written == limit) {
            next = &*it;
            break;
        }
        proj.write(schema, *it->record, ctx, options.hal, w);
        ++written;
    }
    w.endArray();
    w.key(QLatin1String("num_records"));
    w.value(written);
    if (options.hal || next) {
        w.key(QLatin1String("_links"));
        w.beginObject();
        if (options.hal) {
            writeSelf();
        }
        if (next) {
            QList<QPair<QString, QString>> items;
            for (qsizetype i = 0; i < order.size(); ++i) {
                items.append({QStringLiteral("start.") + schema.field(order[i].first).path,
                              next->values[size_t(i)].cursorText()});
            }
            items += request.carried;
            w.key(QLatin1String("next"));
            w.beginObject();
            w.key(QLatin1String("href"));
            w.value(options.path + QLatin1Char('?') + detail::encodeQuery(items));
            w.endObject();
        }
        w.endObject();
    }
    w.endObject();
    return w.take();
}

} // namespace strata::sim::ontap
