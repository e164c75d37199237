// The rows of `datasets|commits` (what `strata get` prints and the web API serves): figures a
// source does not report are unknown (null, "-"), never zero.

#include "models/core/domain/estate.h"
#include "models/core/planning/datasethub.h"
#include "models/rows/datarows.h"
#include "models/rows/output.h"

#include <QJsonArray>
#include <QJsonObject>

#include <gtest/gtest.h>

using namespace strata;

namespace {

template <class T> std::shared_ptr<const core::KeyedList<T>> dataRowsList(std::vector<T> items)
{
    std::vector<core::Ptr<T>> out;
    for (T &item : items) {
        out.push_back(std::make_shared<const T>(std::move(item)));
    }
    return std::make_shared<const core::KeyedList<T>>(std::move(out));
}

// An ONTAP file dataset (a volume, commits = snapshots) and an S3 dataset (commits = manifests).
void publishDataRowsEstate(core::Estate &estate)
{
    core::Dataset xray;
    xray.source = QStringLiteral("ontap-ai");
    xray.id = QStringLiteral("uuid-xray");
    xray.name = QStringLiteral("chest_xray");
    xray.kind = core::DatasetKind::OntapVolume;
    xray.volumeId = xray.id;
    xray.commitCount = 1;
    xray.sizeBytes = 268435456000;
    core::Commit snap;
    snap.source = xray.source;
    snap.id = QStringLiteral("snap-uuid-1");
    snap.datasetId = xray.id;
    snap.datasetName = xray.name;
    snap.message = QStringLiteral("hourly.2026-11-26_0905");
    snap.manifestKey = snap.message;
    estate.publishDatasets(
        xray.source, core::DatasetPublish{dataRowsList<core::Dataset>({xray}), dataRowsList<core::Commit>({snap})});

    core::Dataset fraud;
    fraud.source = QStringLiteral("datalake");
    fraud.id = QStringLiteral("datasets/fraud_jun/");
    fraud.name = QStringLiteral("fraud_jun");
    fraud.kind = core::DatasetKind::S3Prefix;
    fraud.commitCount = 1;
    fraud.sizeBytes = 32400000;
    fraud.objectCount = 26;
    core::Commit manifest;
    manifest.source = fraud.source;
    manifest.id = QStringLiteral("3a921ecb");
    manifest.datasetId = fraud.id;
    manifest.datasetName = fraud.name;
    manifest.objectCount = 26;
    manifest.bytes = 32400000;
    estate.publishDatasets(
        fraud.source,
        core::DatasetPublish{dataRowsList<core::Dataset>({fraud}), dataRowsList<core::Commit>({manifest})});
}

QJsonObject dataRowNamed(const QJsonArray &rows, const char *field, const char *value)
{
    for (const QJsonValue &v : rows) {
        if (v.toObject().value(QLatin1String(field)).toString() == QLatin1String(value)) {
            return v.toObject();
        }
    }
    return {};
}

} // namespace

TEST(DataRows, FileDatasetSnapshotsHaveNoObjectFiguresWhereS3CommitsDo)
{
    core::Estate estate;
    publishDataRowsEstate(estate);

    const QJsonArray commits = rows::toJson(rows::commitRows(estate, {}, {}));
    ASSERT_EQ(commits.size(), 2);
    const QJsonObject snap = dataRowNamed(commits, "dataset", "chest_xray");
    EXPECT_TRUE(snap.value(QStringLiteral("objects")).isNull()) << "ONTAP lists no objects of a snapshot";
    EXPECT_TRUE(snap.value(QStringLiteral("bytes")).isNull());
    const QJsonObject manifest = dataRowNamed(commits, "dataset", "fraud_jun");
    EXPECT_EQ(manifest.value(QStringLiteral("objects")).toInt(), 26);
    EXPECT_EQ(manifest.value(QStringLiteral("bytes")).toDouble(), 32400000.0);

    const QJsonArray datasets = rows::toJson(rows::datasetRows(estate, {}));
    const QJsonObject xray = dataRowNamed(datasets, "name", "chest_xray");
    EXPECT_TRUE(xray.value(QStringLiteral("objects")).isNull());
    EXPECT_EQ(xray.value(QStringLiteral("size_bytes")).toDouble(), 268435456000.0) << "the volume's used bytes";
    EXPECT_EQ(dataRowNamed(datasets, "name", "fraud_jun").value(QStringLiteral("objects")).toInt(), 26);

    // The CLI table says "-" for them, not "0".
    QString text;
    QTextStream out(&text);
    rows::write(rows::commitRows(estate, {}, {QStringLiteral("chest_xray")}), rows::Format::Table, out);
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 2) << text.toStdString();
    EXPECT_FALSE(lines[1].contains(QLatin1String(" 0 "))) << text.toStdString();
}

TEST(DataRows, CsvNeutralisesSpreadsheetFormulasFromVendorText)
{
    core::Estate estate;
    core::Dataset hostile;
    hostile.source = QStringLiteral("datalake");
    hostile.id = QStringLiteral("datasets/=1+2*3/");
    hostile.name = QStringLiteral("=1+2*3");
    hostile.kind = core::DatasetKind::S3Prefix;
    hostile.commitCount = 1;
    core::Commit commit;
    commit.source = hostile.source;
    commit.id = QStringLiteral("c1");
    commit.datasetId = hostile.id;
    commit.datasetName = hostile.name;
    commit.author = QStringLiteral("=HYPERLINK(\"http://evil.example\",\"x\")");
    estate.publishDatasets(
        hostile.source,
        core::DatasetPublish{dataRowsList<core::Dataset>({hostile}), dataRowsList<core::Commit>({commit})});

    QString text;
    QTextStream out(&text);
    rows::write(rows::datasetRows(estate, {}), rows::Format::Csv, out);
    rows::write(rows::commitRows(estate, {}, {}), rows::Format::Csv, out);
    out.flush();
    EXPECT_TRUE(text.contains(QStringLiteral(",\"'=1+2*3\","))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\"")))
        << text.toStdString();
    for (const QString &line : text.split(QStringLiteral("\r\n"))) {
        for (const QString &field : line.split(QLatin1Char(','))) {
            EXPECT_FALSE(field.startsWith(QLatin1Char('='))) << line.toStdString();
        }
    }

    for (const char *start : {"=", "+", "-", "@", "\t", "\r"}) {
        const QString cell = QLatin1String(start) + QStringLiteral("cmd|' /C calc'!A0");
        QString escaped = cell;
        escaped.replace(QStringLiteral("\""), QStringLiteral("\"\""));
        EXPECT_EQ(rows::csvField(cell), QStringLiteral("\"'") + escaped + QLatin1Char('"')) << start;
    }
    EXPECT_EQ(rows::csvField(QStringLiteral("\uFF1D1+2")), QStringLiteral("\"'\uFF1D1+2\""));
    EXPECT_EQ(rows::csvField(QStringLiteral("chest_xray")), QStringLiteral("chest_xray"));
    EXPECT_EQ(rows::csvField(QStringLiteral("a=b")), QStringLiteral("a=b"));
    EXPECT_EQ(rows::csvField(QString()), QString());

    // Figures the rows type as numbers stay numbers, negative ones included.
    rows::ResultSet numbers;
    numbers.columns = {{QStringLiteral("delta"), QStringLiteral("DELTA")}, {QStringLiteral("note"), {}}};
    numbers.addRow({QVariant(qint64(-5)), QVariant(QStringLiteral("-5"))});
    QString numberText;
    QTextStream numberOut(&numberText);
    rows::write(numbers, rows::Format::Csv, numberOut);
    numberOut.flush();
    EXPECT_EQ(numberText, QStringLiteral("delta,note\r\n-5,\"'-5\"\r\n"));
}

TEST(DataRows, AVolumeDatasetIsLocatedByItsVolumesNameNotItsUuid)
{
    core::Estate estate;
    publishDataRowsEstate(estate);
    core::Volume volume;
    volume.source = QStringLiteral("ontap-ai");
    volume.id = QStringLiteral("uuid-xray");
    volume.name = QStringLiteral("chest_xray");
    volume.svm = QStringLiteral("svm_ai");
    estate.publishVolumes(volume.source, dataRowsList<core::Volume>({volume}));

    const QJsonArray datasets = rows::toJson(rows::datasetRows(estate, {}));
    EXPECT_EQ(dataRowNamed(datasets, "name", "chest_xray").value(QStringLiteral("location")).toString(),
              QStringLiteral("svm_ai/chest_xray"));
    const core::Ptr<core::Dataset> xray =
        estate.datasets().find(QStringLiteral("ontap-ai"), QStringLiteral("ontap-ai/uuid-xray"));
    ASSERT_TRUE(xray);
    EXPECT_EQ(core::datasetLocation(estate, *xray), QStringLiteral("svm_ai/chest_xray"));
}
