#include "models/core/domain/fieldschema.h"
#include "models/core/planning/volumefields.h"
#include "models/core/runtime/bundle.h"
#include "models/item/volumetablemodel.h"
#include "models/rows/resources.h"

#include <gtest/gtest.h>

#include <variant>

using namespace strata;

namespace {

core::Volume offlineVolume()
{
    core::Volume v;
    v.source = QStringLiteral("c1");
    v.id = QStringLiteral("uuid-1");
    v.name = QStringLiteral("vol1");
    v.state = QStringLiteral("offline");
    v.sizeBytes = qint64(100) << 30;
    return v;
}

} // namespace

TEST(FieldSchema, EachKindWritesItsFigureAndAnUnknownOneAsADash)
{
    EXPECT_EQ(core::fieldText(core::FieldKind::Bytes, QVariant(qint64(250) << 30)), QStringLiteral("250 GiB"));
    EXPECT_EQ(core::fieldText(core::FieldKind::Percent, QVariant(87.34)), QStringLiteral("87.3 %"));
    EXPECT_EQ(core::fieldText(core::FieldKind::Rate, QVariant(10.0 * 1024 * 1024)), QStringLiteral("10.0 MiB/s"));
    EXPECT_EQ(core::fieldText(core::FieldKind::Latency, QVariant(420.0)), QStringLiteral("0.42 ms"));
    EXPECT_EQ(core::fieldText(core::FieldKind::Flag, QVariant(true)), QStringLiteral("yes"));
    for (const core::FieldKind kind : {core::FieldKind::Bytes, core::FieldKind::Percent, core::FieldKind::Count}) {
        EXPECT_EQ(core::fieldText(kind, QVariant()), QString::fromUtf16(core::kUnknownText));
    }
    EXPECT_EQ(core::fieldText(core::FieldKind::Text, QVariant()), QString());
}

TEST(FieldSchema, UnknownSortsFirstFiguresByValueTextWithoutCase)
{
    EXPECT_LT(core::compareFieldValues(QVariant(), QVariant(qint64(0))), 0);
    EXPECT_GT(core::compareFieldValues(QVariant(qint64(10)), QVariant(qint64(9))), 0);
    EXPECT_LT(core::compareFieldValues(QVariant(9.5), QVariant(qint64(10))), 0);
    EXPECT_LT(core::compareFieldValues(QVariant(QStringLiteral("alpha")), QVariant(QStringLiteral("Beta"))), 0);
    EXPECT_EQ(core::compareFieldValues(QVariant(QStringLiteral("a")), QVariant(QStringLiteral("a"))), 0);
}

TEST(FieldSchema, TheDesktopColumnsAndTheListingAreTheSameFieldsInTheSameOrder)
{
    // Every desktop column that is also listed appears in the listing's order, under the
    // listing's key, and the listing has exactly the Listed fields.
    const core::Volume v = offlineVolume();
    const rows::ResultSet rs = rows::volumeRows({std::make_shared<const core::Volume>(v)});
    QStringList listed;
    for (const core::Field<core::VolumeRow> &f : core::volumeFields()) {
        if (f.surfaces & core::Listed) {
            listed.append(QString::fromLatin1(f.key));
        }
    }
    QStringList keys;
    for (const rows::ResultSet::Column &c : rs.columns) {
        keys.append(c.key);
    }
    EXPECT_EQ(keys, listed);
    int last = -1;
    for (int c = 0; c < models::VolumeTableModel::ColumnCount; ++c) {
        const int at = keys.indexOf(QString::fromLatin1(models::VolumeTableModel::field(c)->key));
        if (at >= 0) {
            EXPECT_GT(at, last) << models::VolumeTableModel::field(c)->key;
            last = at;
        }
    }
    // What the CLI shows for the offline volume's unknown space is what the desktop shows.
    core::Estate estate;
    estate.publishVolumes(QStringLiteral("c1"),
                          std::make_shared<const core::KeyedList<core::Volume>>(
                              std::vector<core::Ptr<core::Volume>>{std::make_shared<const core::Volume>(v)}));
    models::VolumeTableModel model(estate);
    ASSERT_EQ(model.rowCount(), 1);
    const int usedAt = keys.indexOf(QStringLiteral("used_bytes"));
    EXPECT_EQ(rs.display.at(0).at(usedAt), model.index(0, models::VolumeTableModel::Used).data().toString());
    EXPECT_EQ(rs.display.at(0).at(usedAt), QString::fromUtf16(core::kUnknownText));
    EXPECT_TRUE(rs.values.at(0).at(usedAt).isNull());
    EXPECT_EQ(model.headerData(models::VolumeTableModel::Size, Qt::Horizontal, Qt::ToolTipRole).toString(),
              QStringLiteral("Provisioned size, snapshot reserve included"));
}

TEST(FieldSchema, TheWebGetsEveryListedFieldWithItsKind)
{
    const std::optional<QJsonArray> fields = rows::resourceFields(QStringLiteral("volumes"));
    ASSERT_TRUE(fields.has_value());
    EXPECT_EQ(fields->size(), core::fieldCount(core::volumeFields(), core::Listed));
    EXPECT_EQ(fields->at(0).toObject().value(QLatin1String("key")).toString(), QStringLiteral("name"));
    EXPECT_FALSE(rows::resourceFields(QStringLiteral("jobs")).has_value());
}

TEST(FieldSchema, ABundleStoresEveryStoredFieldOfAVolumeUnderItsKeyAndReadsItBack)
{
    core::Volume v = offlineVolume();
    v.state = QStringLiteral("online");
    v.usedBytes = qint64(40) << 30;
    v.availableBytes = qint64(55) << 30;
    v.percentUsed = 42.1;
    v.snapshotReservePercent = 5;
    v.snapshotUsedBytes = qint64(3) << 30;
    v.created = QDateTime(QDate(2026, 3, 1), QTime(12, 0), Qt::UTC);
    v.armId = QStringLiteral("/subscriptions/s/resourceGroups/rg/providers/Microsoft.NetApp/x");
    v.throughputMibps = 64.0;
    v.isFlexCache = true;
    const QJsonObject json = core::recordToJson(v);
    QStringList stored;
    for (const core::Field<core::VolumeRow> &f : core::volumeFields()) {
        if (!std::holds_alternative<std::monostate>(f.stored)) {
            stored.append(QString::fromLatin1(f.key));
        }
    }
    for (const QString &key : json.keys()) {
        EXPECT_TRUE(stored.contains(key)) << key.toStdString() << " is stored without a field";
    }
    EXPECT_EQ(json.value(QLatin1String("style")).toString(), v.style) << "the member, not the shown text";
    EXPECT_EQ(json.value(QLatin1String("snapshot_used_bytes")).toInteger(), v.snapshotUsedBytes);
    const core::Result<core::Volume> back = core::recordFromJson<core::Volume>(json);
    ASSERT_TRUE(back.hasValue());
    EXPECT_EQ(*back, v);
}
