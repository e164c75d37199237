#pragma once

#include <QJsonArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QTextStream>
#include <QVariant>

namespace strata::rows {

enum class Format
{
    Table,
    Json,
    Csv
};

/// Rows of one `get` result: machine keys (JSON/CSV), human headers (table) and typed values.
/// Numbers stay numbers in JSON, a QStringList becomes a JSON array (comma-joined in CSV and
/// tables); table cells use the display text when one is given.
struct ResultSet
{
    struct Column
    {
        QString key;    ///< JSON/CSV key, e.g. "size_bytes"
        QString header; ///< table header, e.g. "SIZE"; empty = not shown in tables
    };
    QList<Column> columns;
    QList<QVariantList> values; ///< one per row, one QVariant per column (JSON/CSV)
    QList<QStringList> display; ///< one per row, table text per column (may be empty: use values)

    void addRow(QVariantList rowValues, QStringList rowDisplay = {});
};

/// Writes `rows` in `format`: a kubectl-style aligned table (columns whose values are all
/// numbers right-aligned, header included), a JSON array of objects (one per
/// row, keys in column order), or RFC 4180 CSV with a header line.
void write(const ResultSet &rows, Format format, QTextStream &out);

QJsonArray toJson(const ResultSet &rows);

/// One RFC 4180 CSV field for every CSV Strata writes (CLI, web, desktop export): quoted when
/// it holds a comma, quote, CR or LF (quotes doubled), and neutralised against spreadsheet
/// formula injection as OWASP recommends: text starting with = + - @ tab or CR (or the
/// full-width = + - @) gets a leading single quote inside a quoted field, so `=1+2` is written
/// `"'=1+2"` and a spreadsheet shows it as text. Typed numbers in `write` bypass this (a
/// negative number stays a number); anything else, vendor or user text, must go through it.
QString csvField(const QString &text);

} // namespace strata::rows
