// The chargeback's rows: what `strata get chargeback` prints (table, CSV for finance, JSON) and
// the web API serves, built from a chargeback value (the computation is tested in tests/core).

#include "models/core/planning/chargeback.h"
#include "models/core/planning/reportformat.h"
#include "models/core/services/servicelevels.h"
#include "models/rows/chargebackrows.h"
#include "models/rows/levelrows.h"
#include "models/rows/output.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTextStream>

#include <gtest/gtest.h>

using namespace strata;

namespace {

QStringList chargebackRowsKeys(const rows::ResultSet &rs)
{
    QStringList keys;
    for (const rows::ResultSet::Column &c : rs.columns) {
        keys << c.key;
    }
    return keys;
}

core::Chargeback chargebackRowsSample(const QMap<QString, double> &gibHours)
{
    core::Chargeback cb;
    cb.period = *core::chargebackMonth(QStringLiteral("2026-11"));
    cb.accountedTo = cb.period.to;
    cb.hours = 720;
    cb.currency = QStringLiteral("USD");
    cb.tiers = core::chargebackCardTiers(core::RateCard::defaults());
    core::ChargebackLine line;
    line.unattributed = true;
    line.storageGibHours = gibHours;
    cb.lines = {line};
    cb.total = line;
    cb.total.unattributed = false;
    return cb;
}

} // namespace

// The CSV's columns are a fixed set from the rate card: a tier key the card does not price (here
// one that carries pool and cap) adds no column; its GiB-hours are in the one unpriced column.
TEST(ChargebackRowsTest, CsvColumnsAreTheRateCardsTiersWhateverTheHistoryHolds)
{
    const core::Chargeback plain = chargebackRowsSample({{QStringLiteral("anf/Premium"), 100}});
    const core::Chargeback odd = chargebackRowsSample({{QStringLiteral("anf/Premium"), 100},
                                                       {QStringLiteral("anf/Standard (pool p1, cap 15.6 MiB/s)"), 40},
                                                       {QStringLiteral("ontap/"), 2}});
    const QStringList keys = chargebackRowsKeys(rows::chargebackRows(plain));
    EXPECT_EQ(chargebackRowsKeys(rows::chargebackRows(odd)), keys);
    EXPECT_EQ(chargebackRowsKeys(rows::chargebackRows(odd, true)), keys);
    QStringList tierKeys;
    for (const QString &k : keys) {
        if (k.startsWith(QLatin1String("storage_gib_hours_"))) {
            tierKeys << k;
        }
    }
    EXPECT_EQ(tierKeys,
              QStringList({QStringLiteral("storage_gib_hours_anf_premium"),
                           QStringLiteral("storage_gib_hours_anf_standard"),
                           QStringLiteral("storage_gib_hours_anf_ultra"),
                           QStringLiteral("storage_gib_hours_unpriced")}));
    const QJsonObject row = rows::toJson(rows::chargebackRows(odd)).at(0).toObject();
    EXPECT_DOUBLE_EQ(row.value(QStringLiteral("storage_gib_hours_anf_premium")).toDouble(), 100);
    EXPECT_DOUBLE_EQ(row.value(QStringLiteral("storage_gib_hours_unpriced")).toDouble(), 42);
    EXPECT_DOUBLE_EQ(row.value(QStringLiteral("storage_gib_hours")).toDouble(), 142);
}

// GPU and storage coverage are two columns with the same words in the table, the JSON the web
// console labels its table from, and the CSV keys; the period's wall-clock hours are not put
// beside GPU-hours as if they were the same kind of figure.
TEST(ChargebackRowsTest, TablesShowGpuAndStorageMissingHoursApartWithOneSetOfWords)
{
    core::Chargeback cb = chargebackRowsSample({{QStringLiteral("anf/Premium"), 100}});
    core::ChargebackLine project;
    project.source = QStringLiteral("dgx");
    project.project = QStringLiteral("team-a");
    project.gpuHoursAllocated = 175;
    project.gpuMissingHours = 676;
    project.storageMissingHours = 0;
    project.missingHours = 676;
    cb.lines.prepend(project);
    cb.lines[1].storageMissingHours = 720;
    cb.lines[1].missingHours = 720;
    cb.total.gpuMissingHours = 676;
    cb.total.storageMissingHours = 720;
    cb.total.missingHours = 720;

    const rows::ResultSet rs = rows::chargebackRows(cb, true);
    QStringList headers;
    for (const rows::ResultSet::Column &c : rs.columns) {
        if (!c.header.isEmpty()) {
            headers << c.header;
        }
    }
    EXPECT_TRUE(headers.contains(QStringLiteral("GPU MISSING H"))) << headers.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(headers.contains(QStringLiteral("STORAGE MISSING H")))
        << headers.join(QStringLiteral(" | ")).toStdString();
    EXPECT_FALSE(headers.contains(QStringLiteral("MISSING H")));
    EXPECT_EQ(rows::chargebackColumnLabel(QStringLiteral("gpu_missing_hours")), QStringLiteral("GPU missing h"));
    EXPECT_EQ(rows::chargebackColumnLabel(QStringLiteral("storage_missing_hours")),
              QStringLiteral("Storage missing h"));

    QString table;
    QTextStream out(&table);
    rows::write(rs, rows::Format::Table, out);
    out.flush();
    const QStringList lines = table.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 4) << table.toStdString();
    EXPECT_TRUE(lines[1].contains(QStringLiteral("676.0")) && lines[1].contains(QStringLiteral(" 0.0")))
        << lines[1].toStdString();
    EXPECT_TRUE(lines[3].contains(QStringLiteral("676.0")) && lines[3].contains(QStringLiteral("720.0")))
        << lines[3].toStdString();

    const QJsonObject json = rows::chargebackToJson(cb);
    QStringList labels;
    for (const QJsonValue &c : json.value(QStringLiteral("columns")).toArray()) {
        labels << c.toObject().value(QStringLiteral("label")).toString();
    }
    QStringList expected;
    for (const QString &h : headers) {
        QString key;
        for (const rows::ResultSet::Column &c : rs.columns) {
            if (c.header == h) {
                key = c.key;
            }
        }
        expected << rows::chargebackColumnLabel(key);
    }
    EXPECT_EQ(labels, expected);
    const QJsonObject total = json.value(QStringLiteral("total")).toObject();
    EXPECT_DOUBLE_EQ(total.value(QStringLiteral("gpu_missing_hours")).toDouble(), 676);
    EXPECT_DOUBLE_EQ(total.value(QStringLiteral("storage_missing_hours")).toDouble(), 720);
    const QString coverage = json.value(QStringLiteral("coverage")).toString();
    EXPECT_EQ(coverage, rows::chargebackCoverageText(cb));
    EXPECT_TRUE(coverage.contains(QStringLiteral("GPU 676.0 h, storage 720.0 h"))) << coverage.toStdString();
    EXPECT_FALSE(coverage.contains(QStringLiteral("accounted"))) << coverage.toStdString();
}

// One money format for every price and cost: a volume's cost per month on Service levels and a
// line's chargeback cost read "$147.50" and "$346.45", never "147.5 USD" beside "$346.45".
TEST(ChargebackRowsTest, MoneyReadsTheSameOnServiceLevelsAndChargeback)
{
    core::ServiceLevelRow level;
    level.source = QStringLiteral("ai-lab");
    level.kind = core::SourceKind::Azure;
    level.volumeName = QStringLiteral("criteo-data");
    level.level = QStringLiteral("Standard");
    level.sizeBytes = 1000LL * 1024 * 1024 * 1024;
    level.costPerMonth = 147.5;
    const rows::ResultSet levels = rows::serviceLevelRows({level}, core::RateCard::defaults());
    int costColumn = -1;
    for (int c = 0; c < levels.columns.size(); ++c) {
        if (levels.columns[c].key == QLatin1String("cost_per_month")) {
            costColumn = c;
        }
    }
    ASSERT_GE(costColumn, 0);
    EXPECT_EQ(levels.display.at(0).at(costColumn), QStringLiteral("$147.50"));

    core::Chargeback cb = chargebackRowsSample({});
    cb.lines[0].cost = 1346.45;
    const rows::ResultSet lines = rows::chargebackRows(cb);
    int cost = -1;
    for (int c = 0; c < lines.columns.size(); ++c) {
        if (lines.columns[c].key == QLatin1String("cost")) {
            cost = c;
        }
    }
    ASSERT_GE(cost, 0);
    EXPECT_EQ(lines.display.at(0).at(cost), QStringLiteral("$1,346.45"));
    EXPECT_EQ(rows::formatMoney(QStringLiteral("EUR"), 147.5), QStringLiteral("147.50 EUR"));
    EXPECT_EQ(core::formatMoney(147.5, QStringLiteral("USD"), QLocale(QLocale::English, QLocale::UnitedStates)),
              rows::formatMoney(QStringLiteral("USD"), 147.5));
}
