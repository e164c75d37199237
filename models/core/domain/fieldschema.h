#pragma once

#include "models/core/domain/records.h"

#include <QDateTime>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <variant>

namespace strata::core {

/// What a field's value is, which decides its text (format.h), its alignment and its order.
/// Values are typed QVariants; a null QVariant is a figure the system did not report, shown as
/// kUnknownText and sorted before every figure.
enum class FieldKind
{
    Text,    ///< QString (a QStringList is comma-joined)
    Flag,    ///< bool: "yes" / "no"
    Count,   ///< integer, locale-grouped: "12,480"
    Bytes,   ///< qint64 bytes: formatBytes ("250 GiB")
    Percent, ///< double 0..100 (may exceed 100): formatPercent ("87.3 %")
    Rate,    ///< double bytes per second: formatRate ("15.6 MiB/s")
    Iops,    ///< double operations per second, whole: "1,204"
    Latency, ///< double microseconds, shown in milliseconds: "0.42 ms"
    Time,    ///< QDateTime, UTC: ISO 8601 ("2026-03-01T12:00:00Z")
    /// qint64 seconds, two units as kubectl's ages: "45s", "3m 12s", "2h 05m", "3d 04h"
    Duration,
    /// double GPUs (fractions share one GPU): hundredths, trailing zeros dropped ("0.6", "2")
    Gpus,
};

/// Where a field appears. A field may be in several.
enum FieldSurface : unsigned
{
    /// In the listing the CLI prints (`strata get`), the web API serves and the web console's
    /// table shows: its key is a JSON/CSV key.
    Listed = 1u << 0,
    /// A column of the desktop table.
    Desktop = 1u << 1,
    /// A column of the CLI's table (under the field's cliHeader).
    CliTable = 1u << 2,
    /// Left out of the web console's table at phone width (a detail column).
    Wide = 1u << 3,
    /// A column of the web console's table.
    WebTable = 1u << 4,
    /// A column of both tables a listing is drawn as, the CLI's and the web console's. A Listed
    /// field in neither is in JSON and CSV only.
    InTable = CliTable | WebTable,
};

/// The member of `Record` a field is stored in, or none (a figure computed from others). An
/// enum is stored under its API name (the bundle's codec).
template <class Record>
using StoredMember = std::variant<std::monostate,
                                  QString Record::*,
                                  QStringList Record::*,
                                  bool Record::*,
                                  int Record::*,
                                  qint64 Record::*,
                                  double Record::*,
                                  std::optional<qint64> Record::*,
                                  std::optional<double> Record::*,
                                  QDateTime Record::*,
                                  JobType Record::*,
                                  JobStatus Record::*>;

/// One field of a record type as every front end shows it and a support bundle stores it:
/// declared once, in the record type's schema (e.g. planning/volumefields.h), from which the
/// desktop's item model and sort proxy, the CLI's and web API's rows, the web console's columns
/// (GET /api/v1/fields/<resource>) and the bundle's codec are built. Adding a column is adding
/// one Field. `Row` is what a value is read from: the record (`Row::record()`, of type
/// `Row::Record`) with what is joined to it.
template <class Row> struct Field
{
    using Record = typename Row::Record;

    const char *key;       ///< JSON/CSV/bundle key and the web's column key, e.g. "used_bytes"
    const char *title;     ///< desktop and web header, e.g. "Used" (translated in the "strata::fields" context)
    const char *cliHeader; ///< the CLI table's header, e.g. "USED" (for a CliTable field)
    FieldKind kind;
    unsigned surfaces; ///< FieldSurface flags; 0 = stored in bundles only
    /// The record's member the field is stored in (what a bundle writes and reads back), or
    /// none for a figure computed from others.
    StoredMember<Record> stored = {};
    /// The value when it is not the stored member's (computed, or joined). Null = not reported.
    /// Its text is fieldText(kind, value) in every front end (the web console's formatters
    /// follow the same rules), so a value is what is shown.
    QVariant (*value)(const Row &row) = nullptr;
    const char *help = ""; ///< what the figure means (header tooltip, web title); "" = none
    /// The text when it is not fieldText(kind, value): a word for an API name ("running" reads
    /// "Running"), or what a record shows in its place. The CLI's table and the desktop show it;
    /// the web console renders such a field by its key. nullptr = fieldText(kind, value).
    QString (*text)(const Row &row) = nullptr;
};

/// The typed value of `field` for `row`: its value function's, else its stored member's (an empty
/// optional or an invalid time is null).
template <class Row> QVariant fieldValue(const Field<Row> &field, const Row &row)
{
    if (field.value) {
        return field.value(row);
    }
    return std::visit(
        [&](auto member) -> QVariant {
            if constexpr (std::is_same_v<decltype(member), std::monostate>) {
                return {};
            } else {
                const auto &v = row.record().*member;
                using V = std::remove_cvref_t<decltype(v)>;
                if constexpr (std::is_same_v<V, std::optional<qint64>> || std::is_same_v<V, std::optional<double>>) {
                    return v ? QVariant::fromValue(*v) : QVariant();
                } else if constexpr (std::is_same_v<V, QDateTime>) {
                    return v.isValid() ? QVariant(v) : QVariant();
                } else if constexpr (std::is_enum_v<V>) {
                    return QVariant(int(v));
                } else {
                    return QVariant::fromValue(v);
                }
            }
        },
        field.stored);
}

/// The text of `value` as a field of `kind` shows it (format.h's rules; kUnknownText for null).
QString fieldText(FieldKind kind, const QVariant &value);
/// The text `field` shows for `row`: its text function's, else its kind's text of its value.
template <class Row> QString fieldText(const Field<Row> &field, const Row &row)
{
    return field.text ? field.text(row) : fieldText(field.kind, fieldValue(field, row));
}
/// -1, 0 or 1 as `a` sorts before, with or after `b`: null first, numbers by value, text
/// case-insensitively (then case-sensitively, so the order is total).
int compareFieldValues(const QVariant &a, const QVariant &b);
/// Whether a field of `kind` is a figure (right-aligned, numeric order).
constexpr bool isNumericField(FieldKind kind)
{
    return kind != FieldKind::Text && kind != FieldKind::Flag && kind != FieldKind::Time;
}
/// "text", "flag", "count", "bytes", "percent", "rate", "iops", "latency", "time", "duration",
/// "gpus" (the web's kinds).
QString fieldKindName(FieldKind kind);
/// The title of `field`, translated.
QString fieldTitle(const char *title);

/// The position of `key` among the fields of `fields` on `surface` (0-based), or -1.
template <class Row>
constexpr int fieldColumn(std::span<const Field<Row>> fields, std::string_view key, unsigned surface)
{
    int column = 0;
    for (const Field<Row> &f : fields) {
        if ((f.surfaces & surface) == 0) {
            continue;
        }
        if (std::string_view(f.key) == key) {
            return column;
        }
        ++column;
    }
    return -1;
}
/// How many fields of `fields` are on `surface`.
template <class Row> constexpr int fieldCount(std::span<const Field<Row>> fields, unsigned surface)
{
    int n = 0;
    for (const Field<Row> &f : fields) {
        n += (f.surfaces & surface) != 0 ? 1 : 0;
    }
    return n;
}
/// The `column`-th field of `fields` on `surface`, or nullptr.
template <class Row>
constexpr const Field<Row> *fieldAt(std::span<const Field<Row>> fields, int column, unsigned surface)
{
    for (const Field<Row> &f : fields) {
        if ((f.surfaces & surface) != 0 && column-- == 0) {
            return &f;
        }
    }
    return nullptr;
}

} // namespace strata::core
