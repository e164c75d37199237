// The shared table-model helpers (models/item/columntablemodel.h, keyedtablemodel.h): a keyed
// diff becomes row-level signals (never a reset), data() answers the shared roles, and the
// header and alignment come from the column table.

#include "models/core/domain/estate.h"
#include "models/item/keyedtablemodel.h"
#include "models/item/roles.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <optional>

using namespace strata;

namespace {

/// The smallest keyed table: a volume's name and size, following the estate's volumes.
class HelperVolumeModel final : public models::KeyedTableModel<core::Volume>
{
public:
    enum Column
    {
        Name,
        Size,
        ColumnCount
    };

    explicit HelperVolumeModel(core::Estate &estate)
        : KeyedTableModel(ColumnCount)
    {
        setNumericColumns({Size});
        follow(estate.volumes(), &estate, &core::Estate::volumesChanged);
    }

    using KeyedTableModel::rowsWhere;

private:
    QVariant displayData(const core::Volume &v, int column) const override
    {
        if (column == Name) {
            return v.name;
        }
        return v.sizeBytes < 0 ? QStringLiteral("unknown") : QString::number(v.sizeBytes);
    }
    // Name sorts by its text; an unknown size sorts as a null value, not as "unknown".
    std::optional<QVariant> sortData(const core::Volume &v, int column) const override
    {
        if (column != Size) {
            return std::nullopt;
        }
        return v.sizeBytes < 0 ? QVariant() : QVariant(v.sizeBytes);
    }
    QVariant recordData(const core::Volume &v, const QModelIndex &, int role) const override
    {
        return role == Qt::ToolTipRole ? QVariant(v.svm) : QVariant();
    }
    QStringList columnTitles() const override { return {QStringLiteral("Name"), QStringLiteral("Size")}; }
    QString columnToolTip(int section) const override { return section == Size ? QStringLiteral("bytes") : QString(); }
};

core::Ptr<core::Volume> helperVolume(int i, qint64 size = 1000)
{
    core::Volume v;
    v.source = QStringLiteral("c1");
    v.id = QStringLiteral("uuid-%1").arg(i);
    v.name = QStringLiteral("vol_%1").arg(i);
    v.state = QStringLiteral("online");
    v.svm = QStringLiteral("svm_%1").arg(i);
    v.sizeBytes = size;
    return std::make_shared<const core::Volume>(v);
}

void publishHelperVolumes(core::Estate &estate, const std::vector<core::Ptr<core::Volume>> &items)
{
    estate.publishVolumes(QStringLiteral("c1"), std::make_shared<const core::KeyedList<core::Volume>>(items));
}

/// The Name column top to bottom, space-separated.
QString helperNames(const HelperVolumeModel &model)
{
    QStringList names;
    for (int row = 0; row < model.rowCount(); ++row) {
        names << model.index(row, HelperVolumeModel::Name).data().toString();
    }
    return names.join(QLatin1Char(' '));
}

} // namespace

TEST(KeyedTableModel, Follow_ShowsTheCurrentRecordsThenAppliesEachDiffAsRowSignals)
{
    core::Estate estate;
    publishHelperVolumes(estate, {helperVolume(0), helperVolume(1), helperVolume(2), helperVolume(3), helperVolume(4)});
    HelperVolumeModel model(estate);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_EQ(helperNames(model), QStringLiteral("vol_0 vol_1 vol_2 vol_3 vol_4"));

    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

    // Removes 1 and 3, changes 4's size, adds 5.
    publishHelperVolumes(estate, {helperVolume(0), helperVolume(2), helperVolume(4, 2000), helperVolume(5)});

    EXPECT_EQ(reset.count(), 0);
    ASSERT_EQ(removed.count(), 2);
    EXPECT_EQ(removed.at(0).at(1).toInt(), 3); // bottom first, so row numbers stay valid
    EXPECT_EQ(removed.at(0).at(2).toInt(), 3);
    EXPECT_EQ(removed.at(1).at(1).toInt(), 1);
    EXPECT_EQ(removed.at(1).at(2).toInt(), 1);
    ASSERT_EQ(changed.count(), 1);
    const auto topLeft = changed.at(0).at(0).value<QModelIndex>();
    const auto bottomRight = changed.at(0).at(1).value<QModelIndex>();
    EXPECT_EQ(topLeft.row(), 2); // vol_4 after the removals
    EXPECT_EQ(bottomRight.row(), 2);
    EXPECT_EQ(topLeft.column(), 0);
    EXPECT_EQ(bottomRight.column(), HelperVolumeModel::ColumnCount - 1);
    ASSERT_EQ(inserted.count(), 1);
    EXPECT_EQ(inserted.at(0).at(1).toInt(), 3);
    EXPECT_EQ(inserted.at(0).at(2).toInt(), 3);

    EXPECT_EQ(helperNames(model), QStringLiteral("vol_0 vol_2 vol_4 vol_5"));
    EXPECT_EQ(model.index(2, HelperVolumeModel::Size).data().toLongLong(), 2000);
    EXPECT_EQ(model.rowOf(QStringLiteral("c1/uuid-5")), 3);
    EXPECT_EQ(model.rowOf(QStringLiteral("c1/uuid-3")), -1);
}

TEST(KeyedTableModel, Data_AnswersTheSharedRolesAndAlignsNumericColumns)
{
    core::Estate estate;
    publishHelperVolumes(estate, {helperVolume(7)});
    HelperVolumeModel model(estate);

    const QModelIndex name = model.index(0, HelperVolumeModel::Name);
    const QModelIndex size = model.index(0, HelperVolumeModel::Size);
    EXPECT_EQ(name.data(models::KeyRole).toString(), QStringLiteral("c1/uuid-7"));
    EXPECT_EQ(size.data(models::SourceRole).toString(), QStringLiteral("c1"));
    EXPECT_EQ(size.data(models::IdRole).toString(), QStringLiteral("uuid-7"));
    EXPECT_EQ(name.data().toString(), QStringLiteral("vol_7"));
    EXPECT_EQ(size.data().toString(), QStringLiteral("1000"));
    EXPECT_EQ(size.data(Qt::TextAlignmentRole).toInt(), int(Qt::AlignRight | Qt::AlignVCenter));
    EXPECT_FALSE(name.data(Qt::TextAlignmentRole).isValid());
    EXPECT_EQ(name.data(Qt::ToolTipRole).toString(), QStringLiteral("svm_7")); // recordData's answer
    EXPECT_FALSE(name.data(models::StatusRole).isValid());
    // RawValueRole: sortData's value, else the displayed one.
    EXPECT_EQ(size.data(models::RawValueRole).typeId(), QMetaType::LongLong);
    EXPECT_EQ(size.data(models::RawValueRole).toLongLong(), 1000);
    EXPECT_EQ(name.data(models::RawValueRole).toString(), QStringLiteral("vol_7"));
    EXPECT_FALSE(model.index(1, 0).isValid());
    EXPECT_FALSE(model.data(model.index(1, 0), models::KeyRole).isValid());
}

TEST(KeyedTableModel, SortData_NullValueIsKeptNotReplacedByTheDisplayedText)
{
    core::Estate estate;
    publishHelperVolumes(estate, {helperVolume(1, -1)});
    HelperVolumeModel model(estate);

    const QModelIndex size = model.index(0, HelperVolumeModel::Size);
    EXPECT_EQ(size.data().toString(), QStringLiteral("unknown"));
    EXPECT_FALSE(size.data(models::RawValueRole).isValid());
}

TEST(KeyedTableModel, Header_ComesFromTheColumnTable)
{
    core::Estate estate;
    publishHelperVolumes(estate, {helperVolume(1)});
    HelperVolumeModel model(estate);

    EXPECT_EQ(model.columnCount(), 2);
    ASSERT_TRUE(model.index(0, 0).isValid());
    EXPECT_EQ(model.columnCount(model.index(0, 0)), 0); // a flat table
    EXPECT_EQ(model.headerData(HelperVolumeModel::Name, Qt::Horizontal).toString(), QStringLiteral("Name"));
    EXPECT_EQ(model.headerData(HelperVolumeModel::Size, Qt::Horizontal).toString(), QStringLiteral("Size"));
    EXPECT_EQ(model.headerData(HelperVolumeModel::Size, Qt::Horizontal, Qt::ToolTipRole).toString(),
              QStringLiteral("bytes"));
    EXPECT_FALSE(model.headerData(HelperVolumeModel::Name, Qt::Horizontal, Qt::ToolTipRole).isValid());
    EXPECT_FALSE(model.headerData(2, Qt::Horizontal).isValid());
    EXPECT_FALSE(model.headerData(-1, Qt::Horizontal).isValid());
    EXPECT_FALSE(model.headerData(0, Qt::Vertical).isValid());
    EXPECT_FALSE(model.headerData(0, Qt::Horizontal, Qt::DecorationRole).isValid());
}

TEST(KeyedTableModel, RowsWhere_ListsMatchingRowsAscending)
{
    core::Estate estate;
    publishHelperVolumes(estate, {helperVolume(0, 5), helperVolume(1, 50), helperVolume(2, 5), helperVolume(3, 50)});
    HelperVolumeModel model(estate);

    EXPECT_EQ(model.rowsWhere([](const core::Volume &v) {
        return v.sizeBytes > 10;
    }),
              (std::vector<int>{1, 3}));
    EXPECT_TRUE(model
                    .rowsWhere([](const core::Volume &) {
                        return false;
                    })
                    .empty());
}

// A poll that changes many scattered rows (every third of 1,000) sends one dataChanged over
// their span, not one per row: a sorted proxy then re-places them in one pass.
TEST(KeyedTableModel, ManyScatteredChangesAreOneSignalOverTheirSpan)
{
    core::Estate estate;
    std::vector<core::Ptr<core::Volume>> items;
    for (int i = 0; i < 1000; ++i) {
        items.push_back(helperVolume(i));
    }
    publishHelperVolumes(estate, items);
    HelperVolumeModel model(estate);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    for (int i = 10; i < 700; i += 3) {
        items[std::size_t(i)] = helperVolume(i, 5000 + i);
    }
    publishHelperVolumes(estate, items);
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(changed.at(0).at(0).value<QModelIndex>().row(), 10);
    EXPECT_EQ(changed.at(0).at(1).value<QModelIndex>().row(), 697);
    EXPECT_EQ(model.index(697, HelperVolumeModel::Size).data().toLongLong(), 5697);

    // A few runs stay separate signals.
    changed.clear();
    items[3] = helperVolume(3, 7);
    items[900] = helperVolume(900, 7);
    publishHelperVolumes(estate, items);
    EXPECT_EQ(changed.count(), 2);
}
