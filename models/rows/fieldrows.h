#pragma once

#include "models/core/domain/fieldschema.h"
#include "models/core/domain/keyed.h"
#include "models/rows/output.h"

#include <QJsonArray>
#include <QJsonObject>

#include <span>
#include <vector>

namespace strata::rows {

/// The rows of `records` over the Listed fields of `fields` (a record type's schema), in its
/// order: JSON/CSV keys, the CLI table's headers (CliTable fields), typed values and the text
/// each field shows. `makeRow(const Record &)` gives the Row a field reads.
template <class Row, class Record, class MakeRow>
ResultSet
fieldRows(std::span<const core::Field<Row>> fields, const std::vector<core::Ptr<Record>> &records, MakeRow makeRow)
{
    ResultSet rs;
    std::vector<const core::Field<Row> *> listed;
    for (const core::Field<Row> &f : fields) {
        if ((f.surfaces & core::Listed) != 0) {
            listed.push_back(&f);
            rs.columns.append({QString::fromLatin1(f.key),
                               (f.surfaces & core::CliTable) != 0 ? QString::fromLatin1(f.cliHeader) : QString()});
        }
    }
    for (const core::Ptr<Record> &record : records) {
        const Row row = makeRow(*record);
        QVariantList values;
        QStringList display;
        values.reserve(qsizetype(listed.size()));
        display.reserve(qsizetype(listed.size()));
        for (const core::Field<Row> *f : listed) {
            values.append(core::fieldValue(*f, row));
            display.append(core::fieldText(*f, row));
        }
        rs.addRow(std::move(values), std::move(display));
    }
    return rs;
}

/// The Listed fields of `fields` as the web console builds its table from them:
/// [{"key", "title", "kind" (fieldKindName), "column" (true: a column of the table, false: in
/// the rows only), "wide" (true: left out at phone width), "help"}].
template <class Row> QJsonArray fieldDescriptions(std::span<const core::Field<Row>> fields)
{
    QJsonArray out;
    for (const core::Field<Row> &f : fields) {
        if ((f.surfaces & core::Listed) == 0) {
            continue;
        }
        out.append(QJsonObject{{QStringLiteral("key"), QString::fromLatin1(f.key)},
                               {QStringLiteral("title"), core::fieldTitle(f.title)},
                               {QStringLiteral("kind"), core::fieldKindName(f.kind)},
                               {QStringLiteral("column"), (f.surfaces & core::WebTable) != 0},
                               {QStringLiteral("wide"), (f.surfaces & core::Wide) != 0},
                               {QStringLiteral("help"), *f.help ? core::fieldTitle(f.help) : QString()}});
    }
    return out;
}

} // namespace strata::rows
