// `strata get chargeback` against the ONTAP simulator through a config file, over a history store
// seeded with two hours of capacity samples, as finance runs it.

#include "app/cli/cli.h"
#include "models/core/store/historystore.h"
#include "tests/integration/simfixture.h"
#include "tests/support/qt/corestatus.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace strata;
using namespace strata::testsupport;

namespace {

class CliChargebackTest : public SimFixture
{
protected:
    QString configPath;
    QString historyPath;

    void SetUp() override
    {
        SimFixture::SetUp();
        qputenv("STRATA_IT_CHARGE_PASSWORD", simulator->options().password.toUtf8());
        historyPath = dir.filePath(QStringLiteral("history.sqlite"));
        const QJsonArray sources{
            QJsonObject{{QStringLiteral("name"), QStringLiteral("ontap-ai")},
                        {QStringLiteral("kind"), QStringLiteral("ontap")},
                        {QStringLiteral("url"), simulator->baseUrl()},
                        {QStringLiteral("username"), simulator->options().username},
                        {QStringLiteral("password"),
                         QJsonObject{{QStringLiteral("env"), QStringLiteral("STRATA_IT_CHARGE_PASSWORD")}}},
                        {QStringLiteral("ca_file"), caFile}}};
        configPath = dir.filePath(QStringLiteral("config.json"));
        QFile c(configPath);
        ASSERT_TRUE(c.open(QIODevice::WriteOnly));
        c.write(
            QJsonDocument(QJsonObject{{QStringLiteral("sources"), sources},
                                      {QStringLiteral("history"), QJsonObject{{QStringLiteral("path"), historyPath}}},
                                      {QStringLiteral("rate_card"),
                                       QJsonObject{{QStringLiteral("ontap_per_gib_month"),
                                                    QJsonObject{{QStringLiteral(""), 0.73}}}}}})
                .toJson());
    }

    struct ChargeRun
    {
        int code = -1;
        QString out;
        QString err;
    };

    ChargeRun run(QStringList args)
    {
        ChargeRun r;
        QTextStream out(&r.out);
        QTextStream err(&r.err);
        args.prepend(configPath);
        args.prepend(QStringLiteral("--config"));
        r.code = cli::run(args, credentials, cli::Console{QStringLiteral("strata"), QStringLiteral("cli"), out, err});
        out.flush();
        err.flush();
        return r;
    }
};

} // namespace

// Every ONTAP volume is unattributed (no cluster): its own line, never dropped; the CSV has a
// header of unit-named columns and one row per line; GiB-hours match the seeded samples.
TEST_F(CliChargebackTest, CsvAndJsonChargeTheSeededHistoryAsUnattributedStorage)
{
    const ChargeRun volumes =
        run({QStringLiteral("get"), QStringLiteral("volumes"), QStringLiteral("-o"), QStringLiteral("json")});
    ASSERT_EQ(volumes.code, 0) << volumes.err.toStdString();
    const QJsonArray list = QJsonDocument::fromJson(volumes.out.toUtf8()).array();
    ASSERT_FALSE(list.isEmpty());
    const QJsonObject first = list.first().toObject();
    const QString volumeId = first.value(QStringLiteral("id")).toString();
    const qint64 size = 100LL * 1024 * 1024 * 1024;

    // Two hours of samples (every 3 minutes) ending now, within this month.
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QDateTime monthStart(QDate(now.date().year(), now.date().month(), 1), QTime(0, 0), Qt::UTC);
    const QDateTime seedFrom = std::max(monthStart, now.addSecs(-7200));
    {
        core::SystemClock clock;
        core::SqlHistoryStore store(historyPath, clock);
        ASSERT_TRUE(succeeded(store.open()));
        for (QDateTime t = seedFrom; t < now; t = t.addSecs(180)) {
            ASSERT_TRUE(store.recordVolumeUsage(QStringLiteral("ontap-ai"), {core::VolumeUsage{volumeId, 0, size}}, t));
        }
    }
    const QString month = now.toString(QStringLiteral("yyyy-MM"));
    const ChargeRun csv = run({QStringLiteral("get"),
                               QStringLiteral("chargeback"),
                               QStringLiteral("--month"),
                               month,
                               QStringLiteral("-o"),
                               QStringLiteral("csv")});
    ASSERT_EQ(csv.code, 0) << csv.err.toStdString();
    const QStringList csvLines = csv.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(csvLines.size(), 2) << csv.out.toStdString(); // header + the unattributed line
    const QStringList header = csvLines.at(0).split(QLatin1Char(','));
    for (const char *column : {"line",
                               "source",
                               "project",
                               "gpu_hours_allocated",
                               "gpu_hours_used",
                               "storage_gib_hours",
                               "storage_gib_hours_ontap_none",
                               "cost",
                               "currency",
                               "missing_hours"}) {
        EXPECT_TRUE(header.contains(QLatin1String(column))) << column << " in " << csvLines.at(0).toStdString();
    }
    EXPECT_TRUE(csvLines.at(1).startsWith(QLatin1String("unattributed,"))) << csvLines.at(1).toStdString();

    const ChargeRun json = run({QStringLiteral("get"),
                                QStringLiteral("chargeback"),
                                QStringLiteral("--month"),
                                month,
                                QStringLiteral("-o"),
                                QStringLiteral("json")});
    ASSERT_EQ(json.code, 0) << json.err.toStdString();
    const QJsonObject cb = QJsonDocument::fromJson(json.out.toUtf8()).object();
    EXPECT_EQ(cb.value(QStringLiteral("period")).toObject().value(QStringLiteral("label")).toString(), month);
    const QJsonArray lines = cb.value(QStringLiteral("lines")).toArray();
    ASSERT_EQ(lines.size(), 1);
    const QJsonObject none = lines.at(0).toObject();
    EXPECT_EQ(none.value(QStringLiteral("line")).toString(), QStringLiteral("unattributed"));
    QJsonObject seeded;
    for (const QJsonValue &v : none.value(QStringLiteral("volume_list")).toArray()) {
        if (v.toObject().value(QStringLiteral("volume_id")).toString() == volumeId) {
            seeded = v.toObject();
        }
    }
    ASSERT_FALSE(seeded.isEmpty());
    // 100 GiB for the seeded span (plus at most the run's own sample): about 200 GiB-hours.
    const double seededHours = double(seedFrom.secsTo(now)) / 3600.0;
    EXPECT_NEAR(seeded.value(QStringLiteral("storage_gib_hours")).toDouble(), 100 * seededHours, 100 * 0.2);
    // The month's hours before the seeded samples are missing, not zero.
    EXPECT_GT(cb.value(QStringLiteral("total")).toObject().value(QStringLiteral("missing_hours")).toDouble(), 0);
}

TEST_F(CliChargebackTest, AMalformedMonthIsAUsageError)
{
    const ChargeRun r = run(
        {QStringLiteral("get"), QStringLiteral("chargeback"), QStringLiteral("--month"), QStringLiteral("2026-13")});
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(r.err.contains(QStringLiteral("YYYY-MM"))) << r.err.toStdString();
    EXPECT_TRUE(r.out.isEmpty());
}
