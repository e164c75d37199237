#include "simulators/ontap/jsonwriter.h"

#include "simulators/common/text.h"

#include <cmath>

namespace strata::sim::ontap {

JsonWriter::JsonWriter()
{
    m_out.reserve(4096);
}

void JsonWriter::separate()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_needComma) {
        m_out += ',';
    }
}

void JsonWriter::beginObject()
{
    separate();
    m_out += '{';
    m_needComma = false;
}

void JsonWriter::endObject()
{
    m_out += '}';
    m_needComma = true;
}

void JsonWriter::beginArray()
{
    separate();
    m_out += '[';
    m_needComma = false;
}

void JsonWriter::endArray()
{
    m_out += ']';
    m_needComma = true;
}

void JsonWriter::key(QLatin1String name)
{
    if (m_needComma) {
        m_out += ',';
    }
    m_out += '"';
    m_out.append(name.data(), name.size());
    m_out += "\":";
    m_afterKey = true;
}

void JsonWriter::key(const QString &name)
{
    if (m_needComma) {
        m_out += ',';
    }
    appendString(m_out, name);
    m_out += ':';
    m_afterKey = true;
}

void JsonWriter::value(const QString &text)
{
    separate();
    appendString(m_out, text);
    m_needComma = true;
}

void JsonWriter::value(QLatin1String text)
{
    value(QString(text));
}

void JsonWriter::value(qint64 number)
{
    separate();
    m_out += QByteArray::number(number);
    m_needComma = true;
}

void JsonWriter::value(bool flag)
{
    separate();
    m_out += flag ? "true" : "false";
    m_needComma = true;
}

void JsonWriter::valueNull()
{
    separate();
    m_out += "null";
    m_needComma = true;
}

void JsonWriter::value(const QJsonValue &json)
{
    switch (json.type()) {
    case QJsonValue::Bool:
        value(json.toBool());
        return;
    case QJsonValue::Double: {
        const double d = json.toDouble();
        // Sizes and counters are integers on the wire; only genuine fractions keep a decimal point.
        if (std::fabs(d) < 9.0e15 && d == std::floor(d)) {
            value(static_cast<qint64>(d));
        } else {
            separate();
            m_out += QByteArray::number(d, 'g', 15);
            m_needComma = true;
        }
        return;
    }
    case QJsonValue::String:
        value(json.toString());
        return;
    case QJsonValue::Array: {
        beginArray();
        const QJsonArray array = json.toArray();
        for (const QJsonValue &item : array) {
            value(item);
        }
        endArray();
        return;
    }
    case QJsonValue::Object: {
        beginObject();
        const QJsonObject object = json.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            key(it.key());
            value(it.value());
        }
        endObject();
        return;
    }
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        valueNull();
        return;
    }
}

void JsonWriter::truncate(qsizetype size, bool needComma)
{
    m_out.truncate(size);
    m_needComma = needComma;
    m_afterKey = false;
}

QByteArray JsonWriter::take()
{
    QByteArray out = std::move(m_out);
    m_out.clear();
    m_needComma = false;
    m_afterKey = false;
    return out;
}

void JsonWriter::appendString(QByteArray &out, const QString &text)
{
    out += '"';
    // Names, uuids and paths are plain ASCII: copy them without a UTF-8 conversion.
    const qsizetype start = out.size();
    bool ascii = true;
    for (const QChar ch : text) {
        const char16_t c = ch.unicode();
        if (c >= 0x80) {
            ascii = false;
            break;
        }
        if (c >= 0x20 && c != '"' && c != '\\') {
            out += char(c);
            continue;
        }
        sim::appendJsonEscape(out, static_cast<unsigned char>(c), false);
    }
    if (ascii) {
        out += '"';
        return;
    }
    out.truncate(start);
    const QByteArray utf8 = text.toUtf8();
    const char *begin = utf8.constData();
    const char *run = begin;
    const char *end = begin + utf8.size();
    for (const char *p = begin; p != end; ++p) {
        const auto c = static_cast<unsigned char>(*p);
        if (c >= 0x20 && c != '"' && c != '\\') {
            continue;
        }
        out.append(run, p - run);
        run = p + 1;
        sim::appendJsonEscape(out, static_cast<unsigned char>(c), false);
    }
    out.append(run, end - run);
    out += '"';
}

} // namespace strata::sim::ontap
