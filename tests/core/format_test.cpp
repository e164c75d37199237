// The unit rules every surface shares (models/core/domain/format.h): the golden table
// tests/fixtures/units/format-cases.json, which the web console's formatters read too, and the
// figures once found disagreeing across pages.

#include "models/core/domain/format.h"
#include "models/core/planning/reportformat.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <gtest/gtest.h>

using namespace strata::core;

namespace {

const QLocale kEnglishFormat(QLocale::English, QLocale::UnitedStates);

QJsonArray formatGoldenCases()
{
    QFile file(QStringLiteral(STRATA_FIXTURES_DIR "/units/format-cases.json"));
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QJsonDocument::fromJson(file.readAll()).array();
}

} // namespace

TEST(UnitFormat, GoldenTableMatches)
{
    const QJsonArray cases = formatGoldenCases();
    ASSERT_GE(cases.size(), 20);
    int bytes = 0;
    int rates = 0;
    int money = 0;
    int hours = 0;
    int durations = 0;
    int gpus = 0;
    for (const QJsonValue &c : cases) {
        const QJsonObject o = c.toObject();
        const QString kind = o.value(QStringLiteral("kind")).toString();
        const double value = o.value(QStringLiteral("value")).toDouble();
        const QString expected = o.value(QStringLiteral("text")).toString();
        if (kind == QLatin1String("bytes")) {
            ++bytes;
            EXPECT_EQ(formatBytes(qint64(value), kEnglishFormat), expected) << qint64(value) << " bytes";
        } else if (kind == QLatin1String("rate")) {
            ++rates;
            EXPECT_EQ(formatRate(value, kEnglishFormat), expected) << value << " B/s";
        } else if (kind == QLatin1String("hours")) {
            ++hours;
            EXPECT_EQ(formatHours(value, kEnglishFormat), expected) << value << " h";
        } else if (kind == QLatin1String("money")) {
            ++money;
            const QString currency = o.value(QStringLiteral("currency")).toString();
            EXPECT_EQ(formatMoney(value, currency, kEnglishFormat), expected) << value << " " << currency.toStdString();
        } else if (kind == QLatin1String("duration")) {
            ++durations;
            EXPECT_EQ(formatDuration(qint64(value)), expected) << qint64(value) << " s";
        } else if (kind == QLatin1String("gpus")) {
            ++gpus;
            EXPECT_EQ(formatGpus(qRound64(value * 1000.0)), expected) << value << " GPUs";
        } else {
            ADD_FAILURE() << "unknown kind " << kind.toStdString();
        }
    }
    EXPECT_GT(durations, 3);
    EXPECT_GT(gpus, 3);
    EXPECT_GT(bytes, 10);
    EXPECT_GT(rates, 5);
    EXPECT_GT(money, 5);
    EXPECT_GT(hours, 5);
}

TEST(UnitFormat, IssueFiguresReadTheSameEverywhere)
{
    // 250 GiB (not "268.4 GB"), cache_01's 2 TiB (not "2.20 TB").
    EXPECT_EQ(formatBytes(qint64(250) << 30, kEnglishFormat), QStringLiteral("250 GiB"));
    EXPECT_EQ(formatBytes(qint64(2) << 40, kEnglishFormat), QStringLiteral("2.0 TiB"));
    // A cap held in MiB/s and the same cap in bytes/s print alike (not "16.4 MB/s").
    EXPECT_EQ(formatRateMibps(15.6, kEnglishFormat), QStringLiteral("15.6 MiB/s"));
    EXPECT_EQ(formatRate(15.6 * units::kMiB, kEnglishFormat), QStringLiteral("15.6 MiB/s"));
    // ONTAP's QoS 6,000 MB/s is base ten: quoted as such, and 5.6 GiB/s in Strata's units.
    EXPECT_EQ(formatVendorMegabytesPerSecond(6000, kEnglishFormat), QStringLiteral("6,000 MB/s"));
    EXPECT_EQ(formatRate(6000 * 1e6, kEnglishFormat), QStringLiteral("5.6 GiB/s"));
    EXPECT_EQ(formatRateMibps(-1, kEnglishFormat), QString::fromUtf16(kUnknownText));
}

TEST(UnitFormat, DeltasPercentCountsAndGpus)
{
    EXPECT_EQ(formatBytesDelta(qint64(1288490189), kEnglishFormat), QStringLiteral("+1.2 GiB"));
    EXPECT_EQ(formatBytesDelta(-qint64(300) << 20, kEnglishFormat), QStringLiteral("\u2212300 MiB"));
    EXPECT_EQ(formatBytesDelta(0, kEnglishFormat), QStringLiteral("0 B"));
    EXPECT_EQ(formatPercent(42.04, kEnglishFormat), QStringLiteral("42.0 %"));
    EXPECT_EQ(formatPercent(std::nullopt, kEnglishFormat), QString::fromUtf16(kUnknownText));
    EXPECT_EQ(formatCount(12480, kEnglishFormat), QStringLiteral("12,480"));
    EXPECT_EQ(formatGpus(500), QStringLiteral("0.5"));
    EXPECT_EQ(formatGpus(1250), QStringLiteral("1.25"));
    EXPECT_EQ(formatGpus(2000), QStringLiteral("2"));
}

TEST(UnitFormat, FollowsTheLocale)
{
    const QLocale german(QLocale::German, QLocale::Germany);
    EXPECT_EQ(formatBytes(qint64(1536) << 20, german), QStringLiteral("1,5 GiB"));
    EXPECT_EQ(formatRate(1023.0 * units::kMiB, german), QStringLiteral("1.023 MiB/s"));
}
