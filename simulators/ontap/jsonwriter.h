#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace strata::sim::ontap {

/// A small append-only JSON writer into a QByteArray, used for collection pages, where building
/// a QJsonObject per record would cost more than the whole page serialisation. The caller is
/// responsible for calling the begin/end and key/value functions in a valid order; commas are
/// inserted automatically.
class JsonWriter final
{
public:
    JsonWriter();

    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    /// Writes `"name":` inside an object. `name` must not need escaping (plain field names).
    void key(QLatin1String name);
    void key(const QString &name);

    void value(const QString &text);
    void value(QLatin1String text);
    void value(qint64 number);
    void value(bool flag);
    void valueNull();
    /// Any JSON value; integral doubles are written without a fraction. Undefined writes null.
    void value(const QJsonValue &json);

    /// Current length, for rolling back an object that turned out empty (see truncate()).
    [[nodiscard]] qsizetype size() const { return m_out.size(); }
    /// Whether the innermost open container has had an element written since `mark` was taken.
    [[nodiscard]] bool needsComma() const { return m_needComma; }
    /// Restores the writer to an earlier size()/needsComma() state.
    void truncate(qsizetype size, bool needComma);

    [[nodiscard]] const QByteArray &data() const { return m_out; }
    [[nodiscard]] QByteArray take();

    /// Appends `text` as a quoted, escaped JSON string to `out`.
    static void appendString(QByteArray &out, const QString &text);

private:
    void separate();

    QByteArray m_out;
    bool m_needComma = false;
    bool m_afterKey = false;
};

} // namespace strata::sim::ontap
