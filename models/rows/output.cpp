#include "models/rows/output.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata::rows {

namespace {

QJsonValue jsonValue(const QVariant &v)
{
    switch (v.typeId()) {
    case QMetaType::UnknownType:
        return QJsonValue::Null;
    case QMetaType::Bool:
        return v.toBool();
    case QMetaType::Int:
    case QMetaType::LongLong:
    case QMetaType::UInt:
    case QMetaType::ULongLong:
        return QJsonValue(v.toLongLong());
    case QMetaType::Double:
    case QMetaType::Float:
        return v.toDouble();
    case QMetaType::QDateTime: {
        const QDateTime t = v.toDateTime();
        return t.isValid() ? QJsonValue(t.toUTC().toString(Qt::ISODate)) : QJsonValue(QJsonValue::Null);
    }
    case QMetaType::QStringList:
        return QJsonArray::fromStringList(v.toStringList());
    default:
        return v.toString();
    }
}

QString textValue(const QVariant &v)
{
    if (v.typeId() == QMetaType::QDateTime) {
        const QDateTime t = v.toDateTime();
        return t.isValid() ? t.toUTC().toString(Qt::ISODate) : QString();
    }
    if (v.typeId() == QMetaType::Bool) {
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    }
    if (v.typeId() == QMetaType::QStringList) {
        return v.toStringList().join(QLatin1Char(','));
    }
    return v.toString();
}

// Numbers (counts, sizes, GPUs, seconds) read down a right edge, as in a spreadsheet: a column
// is numeric when every value it has is a number.
bool isNumericColumn(const ResultSet &rows, qsizetype column)
{
    bool any = false;
    for (const QVariantList &row : rows.values) {
        const QVariant v = row.value(column);
        switch (v.typeId()) {
        case QMetaType::UnknownType:
            continue;
        case QMetaType::Int:
        case QMetaType::LongLong:
        case QMetaType::UInt:
        case QMetaType::ULongLong:
        case QMetaType::Double:
        case QMetaType::Float:
            any = true;
            continue;
        default:
            return false;
        }
    }
    return any;
}

bool isCsvNumber(const QVariant &v)
{
    switch (v.typeId()) {
    case QMetaType::Int:
    case QMetaType::LongLong:
    case QMetaType::UInt:
    case QMetaType::ULongLong:
    case QMetaType::Double:
    case QMetaType::Float:
        return true;
    default:
        return false;
    }
}

} // namespace

QString csvField(const QString &text)
{
    // Spreadsheets run a cell that starts with one of these as a formula (the full-width forms
    // are folded to ASCII by some of them); a leading quote makes the cell text.
    static const QString formulaStarts = QStringLiteral("=+-@\t\r\uFF1D\uFF0B\uFF0D\uFF20");
    const bool formula = !text.isEmpty() && formulaStarts.contains(text.front());
    if (formula || text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"'))
        || text.contains(QLatin1Char('\n')) || text.contains(QLatin1Char('\r'))) {
        QString escaped = text;
        escaped.replace(QStringLiteral("\""), QStringLiteral("\"\""));
        return QLatin1Char('"') + (formula ? QStringLiteral("'") : QString()) + escaped + QLatin1Char('"');
    }
    return text;
}

void ResultSet::addRow(QVariantList rowValues, QStringList rowDisplay)
{
    values.append(std::move(rowValues));
    display.append(std::move(rowDisplay));
}

QJsonArray toJson(const ResultSet &rows)
{
    QJsonArray array;
    for (const QVariantList &row : rows.values) {
        QJsonObject object;
        for (qsizetype c = 0; c < rows.columns.size(); ++c) {
            object.insert(rows.columns[c].key, jsonValue(row.value(c)));
        }
        array.append(object);
    }
    return array;
}

void write(const ResultSet &rows, Format format, QTextStream &out)
{
    switch (format) {
    case Format::Json:
        out << QString::fromUtf8(QJsonDocument(toJson(rows)).toJson(QJsonDocument::Indented));
        break;
    case Format::Csv: {
        QStringList header;
        for (const auto &c : rows.columns) {
            header << csvField(c.key);
        }
        out << header.join(QLatin1Char(',')) << "\r\n";
        for (const QVariantList &row : rows.values) {
            QStringList fields;
            for (qsizetype c = 0; c < rows.columns.size(); ++c) {
                // Numbers are ours, not vendor text: a negative one stays a number.
                const QVariant value = row.value(c);
                fields << (isCsvNumber(value) ? textValue(value) : csvField(textValue(value)));
            }
            out << fields.join(QLatin1Char(',')) << "\r\n";
        }
        break;
    }
    case Format::Table: {
        QList<qsizetype> shown;
        for (qsizetype c = 0; c < rows.columns.size(); ++c) {
            if (!rows.columns[c].header.isEmpty()) {
                shown << c;
            }
        }
        QList<QStringList> cells;
        QStringList header;
        for (qsizetype c : shown) {
            header << rows.columns[c].header;
        }
        cells << header;
        for (qsizetype r = 0; r < rows.values.size(); ++r) {
            QStringList line;
            for (qsizetype c : shown) {
                const QString display = rows.display.value(r).value(c);
                line << (display.isEmpty() ? textValue(rows.values[r].value(c)) : display);
            }
            cells << line;
        }
        QList<qsizetype> widths(shown.size(), 0);
        for (const QStringList &line : cells) {
            for (qsizetype i = 0; i < line.size(); ++i) {
                widths[i] = std::max(widths[i], line[i].size());
            }
        }
        QList<bool> right;
        for (qsizetype c : shown) {
            right << isNumericColumn(rows, c);
        }
        for (const QStringList &line : cells) {
            QString text;
            for (qsizetype i = 0; i < line.size(); ++i) {
                const bool last = i + 1 == line.size();
                if (right[i]) {
                    text += line[i].rightJustified(widths[i]);
                    text += last ? QString() : QStringLiteral("   ");
                } else {
                    text += last ? line[i] : line[i].leftJustified(widths[i] + 3);
                }
            }
            out << text << '\n';
        }
        break;
    }
    }
    out.flush();
}

} // namespace strata::rows
