#include "simulators/ontap/query.h"

#include "simulators/ontap/estate.h"

#include <QUrl>

namespace strata::sim::ontap {

namespace {

QString decodeComponent(QByteArray raw)
{
    raw.replace('+', ' ');
    return QUrl::fromPercentEncoding(raw);
}

bool parseBool(const QString &text, bool *ok)
{
    const QString t = text.trimmed().toLower();
    *ok = t == QLatin1String("true") || t == QLatin1String("false");
    return t == QLatin1String("true");
}

} // namespace

QueryParams QueryParams::parse(const QByteArray &target)
{
    QueryParams params;
    const qsizetype q = target.indexOf('?');
    if (q < 0) {
        return params;
    }
    const QList<QByteArray> pairs = target.mid(q + 1).split('&');
    for (const QByteArray &pair : pairs) {
        if (pair.isEmpty()) {
            continue;
        }
        const qsizetype eq = pair.indexOf('=');
        const QString key = decodeComponent(eq < 0 ? pair : pair.left(eq));
        const QString value = eq < 0 ? QString() : decodeComponent(pair.mid(eq + 1));
        params.items.append({key, value});
    }
    return params;
}

bool QueryParams::has(const QString &key) const
{
    return std::any_of(items.begin(), items.end(), [&](const auto &item) {
        return item.first == key;
    });
}

QString QueryParams::value(const QString &key, const QString &fallback) const
{
    QString out = fallback;
    for (const auto &item : items) {
        if (item.first == key) {
            out = item.second;
        }
    }
    return out;
}

qint64 Ctx::aggregateUsed(const QString &aggregateUuid) const
{
    if (!m_aggregateUsage) {
        m_aggregateUsage = estate->aggregateUsage();
    }
    return m_aggregateUsage->value(aggregateUuid);
}

OntapError unexpectedArgument(const QString &name)
{
    return OntapError{400, QStringLiteral("Unexpected argument \"%1\".").arg(name), QStringLiteral("262179"), name};
}

OntapError invalidFieldValue(const QString &field, const QString &value)
{
    return OntapError{400,
                      QStringLiteral("The value \"%1\" is invalid for field \"%2\".").arg(value, field),
                      QStringLiteral("262197"),
                      field};
}

bool globMatch(QStringView pattern, QStringView text)
{
    // Iterative wildcard matching with backtracking to the last '*'.
    qsizetype p = 0;
    qsizetype t = 0;
    qsizetype star = -1;
    qsizetype mark = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == QLatin1Char('*')) {
            star = p++;
            mark = t;
        } else if (p < pattern.size() && pattern[p].toCaseFolded() == text[t].toCaseFolded()) {
            ++p;
            ++t;
        } else if (star >= 0) {
            p = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == QLatin1Char('*')) {
        ++p;
    }
    return p == pattern.size();
}

FilterExpr FilterExpr::parse(const QString &expression)
{
    FilterExpr expr;
    for (QString part : expression.split(QLatin1Char('|'))) {
        Term term;
        if (part.startsWith(QLatin1Char('!'))) {
            term.negate = true;
            part.remove(0, 1);
        }
        if (part.startsWith(QLatin1String("<="))) {
            term.op = Term::Op::LessEqual;
            part.remove(0, 2);
        } else if (part.startsWith(QLatin1String(">="))) {
            term.op = Term::Op::GreaterEqual;
            part.remove(0, 2);
        } else if (part.startsWith(QLatin1Char('<'))) {
            term.op = Term::Op::Less;
            part.remove(0, 1);
        } else if (part.startsWith(QLatin1Char('>'))) {
            term.op = Term::Op::Greater;
            part.remove(0, 1);
        }
        term.text = part;
        term.number = part.toDouble(&term.isNumber);
        expr.terms.append(term);
    }
    return expr;
}

bool FilterExpr::termMatches(const Term &term, const QJsonValue &value)
{
    if (value.isUndefined() || value.isNull()) {
        return false;
    }
    if (value.isArray()) {
        const QJsonArray array = value.toArray();
        return std::any_of(array.begin(), array.end(), [&](const QJsonValue &v) {
            return termMatches(term, v);
        });
    }
    if (value.isBool()) {
        return term.op == Term::Op::Match && globMatch(term.text, value.toBool() ? u"true" : u"false");
    }
    if (value.isDouble()) {
        const double v = value.toDouble();
        if (!term.isNumber) {
            return term.op == Term::Op::Match && globMatch(term.text, QString::number(qint64(v)));
        }
        switch (term.op) {
        case Term::Op::Match:
            return v == term.number;
        case Term::Op::Less:
            return v < term.number;
        case Term::Op::LessEqual:
            return v <= term.number;
        case Term::Op::Greater:
            return v > term.number;
        case Term::Op::GreaterEqual:
            return v >= term.number;
        }
        return false;
    }
    const QString text = value.isString() ? value.toString() : QString();
    switch (term.op) {
    case Term::Op::Match:
        return globMatch(term.text, text);
    case Term::Op::Less:
        return text.compare(term.text) < 0;
    case Term::Op::LessEqual:
        return text.compare(term.text) <= 0;
    case Term::Op::Greater:
        return text.compare(term.text) > 0;
    case Term::Op::GreaterEqual:
        return text.compare(term.text) >= 0;
    }
    return false;
}

bool FilterExpr::matches(const QJsonValue &value) const
{
    for (const Term &term : terms) {
        if (termMatches(term, value) != term.negate) {
            return true;
        }
    }
    return false;
}

SortValue SortValue::of(const QJsonValue &value)
{
    SortValue s;
    switch (value.type()) {
    case QJsonValue::Double:
        s.kind = 1;
        s.number = value.toDouble();
        break;
    case QJsonValue::Bool:
        s.kind = 1;
        s.number = value.toBool() ? 1 : 0;
        break;
    case QJsonValue::String:
        s.kind = 2;
        s.text = value.toString();
        break;
    default:
        break;
    }
    return s;
}

SortValue SortValue::fromCursor(const QString &text, FieldType type)
{
    SortValue s;
    if (text.isEmpty() && type != FieldType::String) {
        return s;
    }
    if (type == FieldType::Integer) {
        bool ok = false;
        s.number = text.toDouble(&ok);
        s.kind = ok ? 1 : 0;
    } else if (type == FieldType::Boolean) {
        bool ok = false;
        s.number = parseBool(text, &ok) ? 1 : 0;
        s.kind = ok ? 1 : 0;
    } else {
        s.kind = 2;
        s.text = text;
    }
    return s;
}

QString SortValue::cursorText() const
{
    switch (kind) {
    case 1:
        return QString::number(qint64(number));
    case 2:
        return text;
    default:
        return {};
    }
}

int SortValue::compare(const SortValue &other) const
{
    if (kind != other.kind) {
        return kind < other.kind ? -1 : 1;
    }
    if (kind == 1) {
        return number < other.number ? -1 : (number > other.number ? 1 : 0);
    }
    if (kind == 2) {
        const int c = text.compare(other.text);
        return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    return 0;
}

std::variant<ListRequest, OntapError> ListRequest::parse(const QueryParams &params, const QStringList &reserved)
{
    ListRequest r;
    for (const auto &[key, value] : params.items) {
        if (key.startsWith(QLatin1String("start."))) {
            r.start.append({key.mid(6), value});
            continue;
        }
        r.carried.append({key, value});
        if (key == QLatin1String("fields")) {
            r.fieldsGiven = true;
            r.fields.append(value);
        } else if (key == QLatin1String("max_records")) {
            bool ok = false;
            r.maxRecords = value.toLongLong(&ok);
            if (!ok || r.maxRecords < 0) {
                return invalidFieldValue(key, value);
            }
        } else if (key == QLatin1String("return_records")) {
            bool ok = false;
            r.returnRecords = parseBool(value, &ok);
            if (!ok) {
                return invalidFieldValue(key, value);
            }
        } else if (key == QLatin1String("return_timeout")) {
            bool ok = false;
            const int timeout = value.toInt(&ok);
            if (!ok || timeout < 0 || timeout > 120) {
                return invalidFieldValue(key, value);
            }
        } else if (key == QLatin1String("order_by")) {
            for (const QString &part : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                const QStringList words = part.simplified().split(QLatin1Char(' '));
                const bool desc = words.size() > 1 && words[1].compare(QLatin1String("desc"), Qt::CaseInsensitive) == 0;
                if (words.size() > 2
                    || (words.size() == 2 && !desc
                        && words[1].compare(QLatin1String("asc"), Qt::CaseInsensitive) != 0)) {
                    return invalidFieldValue(key, part);
                }
                r.orderBy.append({words[0], desc});
            }
        } else if (!reserved.contains(key)) {
            r.filters.append({key, value});
        }
    }
    return r;
}

namespace detail {

QString encodeQuery(const QList<QPair<QString, QString>> &items)
{
    QByteArray out;
    for (const auto &[key, value] : items) {
        if (!out.isEmpty()) {
            out += '&';
        }
        out += QUrl::toPercentEncoding(key) + '=' + QUrl::toPercentEncoding(value);
    }
    return QString::fromLatin1(out);
}

} // namespace detail

} // namespace strata::sim::ontap
