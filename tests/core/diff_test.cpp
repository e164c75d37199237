#include "models/core/domain/estate.h"
#include "models/core/domain/keyed.h"

#include <QSignalSpy>

#include <gtest/gtest.h>

using namespace strata::core;

namespace {

Ptr<Volume> vol(const QString &id, qint64 used, const QString &source = QStringLiteral("s1"))
{
    Volume v;
    v.source = source;
    v.id = id;
    v.name = QStringLiteral("vol_") + id;
    v.usedBytes = used;
    return std::make_shared<const Volume>(v);
}

std::shared_ptr<const KeyedList<Volume>> list(std::vector<Ptr<Volume>> items)
{
    return std::make_shared<const KeyedList<Volume>>(std::move(items));
}

} // namespace

TEST(Diff, FirstPublish_AllAdded)
{
    const auto after = list({vol(QStringLiteral("a"), 1), vol(QStringLiteral("b"), 2)});
    const auto d = diffOf<Volume>(nullptr, *after);
    EXPECT_EQ(d.added.size(), 2u);
    EXPECT_TRUE(d.changed.empty());
    EXPECT_TRUE(d.removed.isEmpty());
}

TEST(Diff, AddedChangedRemoved_ByKey)
{
    const auto before = list({vol(QStringLiteral("a"), 1), vol(QStringLiteral("b"), 2), vol(QStringLiteral("c"), 3)});
    const auto after = list({vol(QStringLiteral("a"), 1), vol(QStringLiteral("b"), 20), vol(QStringLiteral("d"), 4)});
    const auto d = diffOf(before.get(), *after);
    ASSERT_EQ(d.added.size(), 1u);
    EXPECT_EQ(d.added[0]->id, QStringLiteral("d"));
    ASSERT_EQ(d.changed.size(), 1u);
    EXPECT_EQ(d.changed[0]->usedBytes, 20);
    EXPECT_EQ(d.removed, QStringList{QStringLiteral("s1/c")});
}

TEST(Diff, SameIdOnTwoSources_AreDistinctKeys)
{
    const auto after =
        list({vol(QStringLiteral("a"), 1, QStringLiteral("s1")), vol(QStringLiteral("a"), 1, QStringLiteral("s2"))});
    EXPECT_EQ(after->size(), 2u);
    EXPECT_NE(after->find(QStringLiteral("s1/a")), nullptr);
    EXPECT_NE(after->find(QStringLiteral("s2/a")), nullptr);
}

TEST(Table, StalePrecomputedDiff_IsRecomputed)
{
    Table<Volume> table;
    const auto v1 = list({vol(QStringLiteral("a"), 1)});
    table.publish(QStringLiteral("s1"), v1);
    // A worker diffed against an older base; meanwhile v2 was published.
    const auto v2 = list({vol(QStringLiteral("a"), 2)});
    table.publish(QStringLiteral("s1"), v2);
    const auto v3 = list({vol(QStringLiteral("a"), 2), vol(QStringLiteral("b"), 5)});
    Diff<Volume> wrong = diffOf(v1.get(), *v3); // says "a changed", which is no longer true
    const Diff<Volume> d = table.publish(QStringLiteral("s1"), v3, v1, &wrong);
    EXPECT_TRUE(d.changed.empty());
    EXPECT_EQ(d.added.size(), 1u);
}

TEST(Estate, PublishEmitsOneSignalPerPublish_AndNoneWhenUnchanged)
{
    Estate estate;
    QSignalSpy spy(&estate, &Estate::volumesChanged);
    estate.publishVolumes(QStringLiteral("s1"), list({vol(QStringLiteral("a"), 1), vol(QStringLiteral("b"), 1)}));
    EXPECT_EQ(spy.count(), 1);
    estate.publishVolumes(QStringLiteral("s1"), list({vol(QStringLiteral("a"), 1), vol(QStringLiteral("b"), 1)}));
    EXPECT_EQ(spy.count(), 1);
    estate.publishVolumes(QStringLiteral("s1"), list({vol(QStringLiteral("a"), 9)}));
    EXPECT_EQ(spy.count(), 2);
    const auto d = spy.at(1).at(0).value<VolumeDiff>();
    EXPECT_EQ(d.changed.size(), 1u);
    EXPECT_EQ(d.removed.size(), 1);
}

TEST(Estate, RemoveSource_RemovesOnlyItsRecords)
{
    Estate estate;
    estate.publishVolumes(QStringLiteral("s1"), list({vol(QStringLiteral("a"), 1)}));
    estate.publishVolumes(QStringLiteral("s2"), list({vol(QStringLiteral("a"), 1, QStringLiteral("s2"))}));
    QSignalSpy spy(&estate, &Estate::volumesChanged);
    estate.removeSource(QStringLiteral("s1"));
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy.at(0).at(0).value<VolumeDiff>().removed, QStringList{QStringLiteral("s1/a")});
    EXPECT_EQ(estate.volumes().all().size(), 1u);
}
