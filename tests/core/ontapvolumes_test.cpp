// OntapVolumeList: an ONTAP poll's volumes skip the conversion of unchanged records
// and make the diff while they arrive. Pinned here to what the poll did before: convert every
// record, keep the previous record where equal, diffOf() against the previous list.

#include "connectors/ontap/dto.h"
#include "models/core/domain/convert.h"
#include "models/core/sources/ontap/ontapvolumes.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <set>

using namespace strata;
using namespace strata::core;

namespace {

const QString kOvlSource = QStringLiteral("ontap-a");

// What parseOntapTime() was before it had a fast path.
QDateTime ovlQtTime(const std::string &iso)
{
    if (iso.empty()) {
        return {};
    }
    const QDateTime t = QDateTime::fromString(qs(iso), Qt::ISODate);
    return t.isValid() ? t.toUTC() : QDateTime();
}

ontap::Volume ovlVolume(int n)
{
    ontap::Volume v;
    char uuid[40];
    std::snprintf(uuid, sizeof uuid, "3e1c3b5a-0000-11ee-8000-%012d", n);
    v.uuid = uuid;
    v.name = "vol_" + std::to_string(n);
    v.svm = ontap::ObjectRef{"svm_ai", "svm-uuid-1"};
    v.aggregates = {ontap::ObjectRef{"aggr1", "aggr-uuid-1"}};
    v.state = "online";
    v.style = "flexvol";
    v.type = "rw";
    v.sizeBytes = 1'000'000'000 + n;
    v.usedBytes = 400'000'000 + n;
    v.availableBytes = 600'000'000;
    v.percentUsed = 40;
    v.snapshotReservePercent = 5;
    v.snapshotUsedBytes = 1000 + n;
    v.snapshotCount = 3;
    v.nasPath = "/vol_" + std::to_string(n);
    v.createTime = "2024-03-01T10:00:00+02:00";
    return v;
}

struct OvlPoll
{
    std::shared_ptr<const KeyedList<Volume>> volumes;
    Diff<Volume> diff;
    std::vector<VolumeUsage> usage;
    std::size_t converted = 0;
};

// The poll before the fast path, as OntapSource ran it.
OvlPoll ovlReferencePoll(const std::vector<ontap::Volume> &listing,
                         const QSet<QString> &caches,
                         const std::shared_ptr<const KeyedList<Volume>> &base)
{
    OvlPoll out;
    std::vector<Ptr<Volume>> records;
    for (const ontap::Volume &dto : listing) {
        auto fresh = std::make_shared<Volume>(ontapVolumeRecord(dto, kOvlSource));
        fresh->created = ovlQtTime(dto.createTime);
        fresh->isFlexCache = caches.contains(fresh->id);
        ++out.converted;
        Ptr<Volume> record = std::move(fresh);
        if (base) {
            if (Ptr<Volume> old = base->find(estateKey(*record)); old && *old == *record) {
                record = old;
            }
        }
        if (record->usedBytes) {
            out.usage.push_back(VolumeUsage{record->id, *record->usedBytes, record->sizeBytes});
        }
        records.push_back(std::move(record));
    }
    out.volumes = keyed(std::move(records));
    out.diff = diffOf(base.get(), *out.volumes);
    return out;
}

OvlPoll ovlPoll(const std::vector<ontap::Volume> &listing,
                const QSet<QString> &caches,
                const std::shared_ptr<const KeyedList<Volume>> &base)
{
    OntapVolumeList list(kOvlSource, base);
    for (const ontap::Volume &dto : listing) {
        list.add(dto);
    }
    OvlPoll out;
    out.converted = list.converted();
    OntapVolumeList::Result result = list.finish(caches);
    out.volumes = std::move(result.volumes);
    out.diff = std::move(result.diff);
    out.usage = std::move(result.usage);
    return out;
}

void ovlExpectSameRecords(const std::vector<Ptr<Volume>> &actual,
                          const std::vector<Ptr<Volume>> &expected,
                          const char *what)
{
    ASSERT_EQ(actual.size(), expected.size()) << what;
    for (std::size_t i = 0; i < actual.size(); ++i) {
        EXPECT_EQ(estateKey(*actual[i]), estateKey(*expected[i])) << what << " #" << i;
        EXPECT_TRUE(*actual[i] == *expected[i]) << what << " #" << i << " " << actual[i]->name.toStdString();
    }
}

// Same records (by value), the same previous records kept (by pointer), the same diff, usage
// and lookups as the reference poll.
void ovlExpectSamePoll(const OvlPoll &actual,
                       const OvlPoll &expected,
                       const std::shared_ptr<const KeyedList<Volume>> &base)
{
    std::set<const Volume *> previous;
    if (base) {
        for (const Ptr<Volume> &v : base->items()) {
            previous.insert(v.get());
        }
    }
    ovlExpectSameRecords(actual.volumes->items(), expected.volumes->items(), "records");
    for (std::size_t i = 0; i < std::min(actual.volumes->size(), expected.volumes->size()); ++i) {
        const Volume *want = expected.volumes->items()[i].get();
        const Volume *got = actual.volumes->items()[i].get();
        if (previous.count(want)) {
            EXPECT_EQ(got, want) << "record #" << i << " keeps the previous record";
        } else {
            EXPECT_EQ(previous.count(got), 0u) << "record #" << i << " is a new record";
        }
        const QString key = estateKey(*want);
        ASSERT_TRUE(actual.volumes->find(key)) << key.toStdString();
        EXPECT_TRUE(*actual.volumes->find(key) == *expected.volumes->find(key)) << key.toStdString();
    }
    ovlExpectSameRecords(actual.diff.added, expected.diff.added, "added");
    ovlExpectSameRecords(actual.diff.changed, expected.diff.changed, "changed");
    EXPECT_EQ(actual.diff.removed, expected.diff.removed);
    ASSERT_EQ(actual.usage.size(), expected.usage.size());
    for (std::size_t i = 0; i < actual.usage.size(); ++i) {
        EXPECT_EQ(actual.usage[i].volumeId, expected.usage[i].volumeId);
        EXPECT_EQ(actual.usage[i].usedBytes, expected.usage[i].usedBytes);
        EXPECT_EQ(actual.usage[i].sizeBytes, expected.usage[i].sizeBytes);
    }
}

std::vector<ontap::Volume> ovlListing(int count)
{
    std::vector<ontap::Volume> out;
    for (int i = 0; i < count; ++i) {
        out.push_back(ovlVolume(i));
    }
    return out;
}

} // namespace

TEST(OntapVolumeList, UnchangedVolumesKeepThePreviousRecordsWithoutConvertingThem)
{
    const auto listing = ovlListing(50);
    const OvlPoll first = ovlPoll(listing, {}, nullptr);
    EXPECT_EQ(first.converted, 50u);
    EXPECT_EQ(first.diff.added.size(), 50u);

    const OvlPoll second = ovlPoll(listing, {}, first.volumes);
    EXPECT_EQ(second.converted, 0u);
    EXPECT_TRUE(second.diff.isEmpty());
    ASSERT_EQ(second.volumes->size(), 50u);
    for (std::size_t i = 0; i < 50; ++i) {
        EXPECT_EQ(second.volumes->items()[i], first.volumes->items()[i]);
    }
    EXPECT_EQ(second.usage.size(), 50u);
    ovlExpectSamePoll(second, ovlReferencePoll(listing, {}, first.volumes), first.volumes);
}

TEST(OntapVolumeList, AChangeInAnyFieldOfTheRecordConvertsThatVolumeAndReportsIt)
{
    struct Mutation
    {
        const char *field;
        std::function<void(ontap::Volume &)> apply;
    };
    const std::vector<Mutation> mutations = {
        {"name",
         [](ontap::Volume &v) {
             v.name += "_renamed";
         }},
        {"name, non-ASCII",
         [](ontap::Volume &v) {
             v.name = "données_é";
         }},
        {"svm",
         [](ontap::Volume &v) {
             v.svm.name = "svm_other";
         }},
        {"first aggregate",
         [](ontap::Volume &v) {
             v.aggregates.front().name = "aggr2";
         }},
        {"aggregate count",
         [](ontap::Volume &v) {
             v.aggregates.push_back(ontap::ObjectRef{"aggr2", "u2"});
         }},
        {"no aggregate",
         [](ontap::Volume &v) {
             v.aggregates.clear();
         }},
        {"state",
         [](ontap::Volume &v) {
             v.state = "offline";
         }},
        {"style",
         [](ontap::Volume &v) {
             v.style = "flexgroup";
         }},
        {"type",
         [](ontap::Volume &v) {
             v.type = "dp";
         }},
        {"size",
         [](ontap::Volume &v) {
             v.sizeBytes += 1;
         }},
        {"used",
         [](ontap::Volume &v) {
             *v.usedBytes += 1;
         }},
        {"used unknown",
         [](ontap::Volume &v) {
             v.usedBytes.reset();
         }},
        {"available",
         [](ontap::Volume &v) {
             *v.availableBytes -= 1;
         }},
        {"available unknown",
         [](ontap::Volume &v) {
             v.availableBytes.reset();
         }},
        // ONTAP's own percent_used is not read: % used is of the active file system, from used,
        // size and the snapshot reserve (core::volumeCapacity), so it is no field of its own.
        {"snapshot reserve",
         [](ontap::Volume &v) {
             v.snapshotReservePercent = 10;
         }},
        {"snapshot used",
         [](ontap::Volume &v) {
             v.snapshotUsedBytes += 1;
         }},
        {"snapshot count",
         [](ontap::Volume &v) {
             v.snapshotCount += 1;
         }},
        {"QoS policy set",
         [](ontap::Volume &v) {
             v.qosPolicy = ontap::ObjectRef{"gold", "q1"};
         }},
        {"FlexClone",
         [](ontap::Volume &v) {
             v.isFlexClone = true;
             v.cloneParentVolume = ontap::ObjectRef{"parent", "p1"};
         }},
        {"FlexClone of a snapshot",
         [](ontap::Volume &v) {
             v.isFlexClone = true;
             v.cloneParentVolume = ontap::ObjectRef{"parent", "p1"};
             v.cloneParentSnapshot = ontap::ObjectRef{"snap", "s1"};
         }},
        {"junction path",
         [](ontap::Volume &v) {
             v.nasPath = "/elsewhere";
         }},
        {"unmounted",
         [](ontap::Volume &v) {
             v.nasPath.clear();
         }},
        {"create time",
         [](ontap::Volume &v) {
             v.createTime = "2024-03-01T10:00:01+02:00";
         }},
        {"create time with a fraction",
         [](ontap::Volume &v) {
             v.createTime = "2024-03-01T10:00:00.5+02:00";
         }},
        {"create time unknown",
         [](ontap::Volume &v) {
             v.createTime.clear();
         }},
        {"create time unreadable",
         [](ontap::Volume &v) {
             v.createTime = "yesterday";
         }},
    };
    const auto listing = ovlListing(5);
    const OvlPoll first = ovlPoll(listing, {}, nullptr);
    for (const Mutation &mutation : mutations) {
        SCOPED_TRACE(mutation.field);
        auto changed = listing;
        mutation.apply(changed[2]);
        const OvlPoll next = ovlPoll(changed, {}, first.volumes);
        EXPECT_EQ(next.converted, 1u);
        ASSERT_EQ(next.diff.changed.size(), 1u);
        EXPECT_TRUE(next.diff.added.empty());
        EXPECT_TRUE(next.diff.removed.isEmpty());
        Volume want = ontapVolumeRecord(changed[2], kOvlSource);
        want.created = ovlQtTime(changed[2].createTime);
        EXPECT_TRUE(*next.diff.changed.front() == want);
        EXPECT_EQ(next.volumes->items()[2], next.diff.changed.front());
        ovlExpectSamePoll(next, ovlReferencePoll(changed, {}, first.volumes), first.volumes);

        // And back: the changed record is the previous one now.
        const OvlPoll back = ovlPoll(listing, {}, next.volumes);
        EXPECT_EQ(back.converted, 1u);
        EXPECT_EQ(back.diff.changed.size(), 1u);
        ovlExpectSamePoll(back, ovlReferencePoll(listing, {}, next.volumes), next.volumes);
    }
}

TEST(OntapVolumeList, AChangedVolumeSharesTheTextsThatDidNotChangeWithItsPreviousRecord)
{
    const auto listing = ovlListing(3);
    const OvlPoll first = ovlPoll(listing, {}, nullptr);
    auto changed = listing;
    changed[1].usedBytes = 1;
    changed[2].name = "vol_renamed";
    const OvlPoll next = ovlPoll(changed, {}, first.volumes);
    ASSERT_EQ(next.diff.changed.size(), 2u);
    const Volume &before1 = *first.volumes->items()[1];
    const Volume &after1 = *next.volumes->items()[1];
    EXPECT_NE(&before1, &after1);
    EXPECT_EQ(after1.id.constData(), before1.id.constData()) << "one copy of the id";
    EXPECT_EQ(after1.name.constData(), before1.name.constData());
    EXPECT_EQ(after1.nasPath.constData(), before1.nasPath.constData());
    EXPECT_EQ(next.usage[1].volumeId.constData(), before1.id.constData());
    const Volume &after2 = *next.volumes->items()[2];
    EXPECT_EQ(after2.id.constData(), first.volumes->items()[2]->id.constData());
    EXPECT_EQ(after2.name, QStringLiteral("vol_renamed"));
    ovlExpectSamePoll(next, ovlReferencePoll(changed, {}, first.volumes), first.volumes);
}

TEST(OntapVolumeList, FieldsTheRecordDoesNotShowAndTheSameInstantAreNoChange)
{
    const auto listing = ovlListing(3);
    const OvlPoll first = ovlPoll(listing, {}, nullptr);
    auto same = listing;
    same[0].svm.uuid = "another-svm-uuid";
    same[1].aggregates.front().uuid = "another-aggr-uuid";
    same[1].metric = ontap::VolumeMetric{"2024-03-01T10:00:00Z", 1, 2, 3};
    same[2].createTime = "2024-03-01T08:00:00Z";                  // 10:00+02:00
    same[2].cloneParentSnapshot = ontap::ObjectRef{"snap", "s1"}; // not a FlexClone: not shown
    const OvlPoll next = ovlPoll(same, {}, first.volumes);
    EXPECT_EQ(next.converted, 0u);
    EXPECT_TRUE(next.diff.isEmpty());
    ovlExpectSamePoll(next, ovlReferencePoll(same, {}, first.volumes), first.volumes);
}

TEST(OntapVolumeList, AVolumeBecomingAFlexCacheIsAChangeWithoutAnotherField)
{
    const auto listing = ovlListing(4);
    const OvlPoll first = ovlPoll(listing, {}, nullptr);
    const QSet<QString> caches{qs(listing[1].uuid)};
    const OvlPoll cached = ovlPoll(listing, caches, first.volumes);
    EXPECT_EQ(cached.converted, 0u);
    ASSERT_EQ(cached.diff.changed.size(), 1u);
    EXPECT_TRUE(cached.diff.changed.front()->isFlexCache);
    EXPECT_FALSE(first.volumes->items()[1]->isFlexCache) << "the published record is not modified";
    ovlExpectSamePoll(cached, ovlReferencePoll(listing, caches, first.volumes), first.volumes);

    const OvlPoll still = ovlPoll(listing, caches, cached.volumes);
    EXPECT_TRUE(still.diff.isEmpty());
    EXPECT_EQ(still.volumes->items()[1], cached.volumes->items()[1]);
}

TEST(OntapVolumeList, APreviousRecordWithFieldsOntapNeverSetsIsReplaced)
{
    const auto listing = ovlListing(2);
    Volume azureLike = ontapVolumeRecord(listing[0], kOvlSource);
    azureLike.created = ovlQtTime(listing[0].createTime);
    azureLike.throughputMibps = 64;
    Volume withArmId = ontapVolumeRecord(listing[1], kOvlSource);
    withArmId.created = ovlQtTime(listing[1].createTime);
    withArmId.armId = QStringLiteral("/subscriptions/x");
    const auto base =
        keyed<Volume>({std::make_shared<const Volume>(azureLike), std::make_shared<const Volume>(withArmId)});
    const OvlPoll next = ovlPoll(listing, {}, base);
    EXPECT_EQ(next.converted, 2u);
    EXPECT_EQ(next.diff.changed.size(), 2u);
    ovlExpectSamePoll(next, ovlReferencePoll(listing, {}, base), base);
}

TEST(OntapVolumeList, AddedRemovedAndReorderedVolumesGiveTheSameDiffAsDiffOf)
{
    const auto listing = ovlListing(10);
    const OvlPoll first = ovlPoll(listing, {}, nullptr);
    std::vector<ontap::Volume> next = {listing[0], ovlVolume(100), listing[2], listing[1], listing[4]};
    next.push_back(listing[9]);
    next.push_back(ovlVolume(101));
    next.push_back(listing[5]);
    const OvlPoll polled = ovlPoll(next, {}, first.volumes);
    EXPECT_EQ(polled.converted, 2u) << "only the two new volumes";
    EXPECT_EQ(polled.diff.added.size(), 2u);
    EXPECT_EQ(polled.diff.removed.size(), 4); // 3, 6, 7, 8
    ovlExpectSamePoll(polled, ovlReferencePoll(next, {}, first.volumes), first.volumes);
}

TEST(OntapVolumeList, RepeatedUuidsInEitherListingGiveTheSameResultAsBefore)
{
    auto listing = ovlListing(6);
    listing.push_back(listing[2]); // the previous list holds one key twice
    listing.back().sizeBytes += 7;
    const OvlPoll first = ovlPoll(listing, {}, nullptr);
    ovlExpectSamePoll(first, ovlReferencePoll(listing, {}, nullptr), nullptr);
    EXPECT_FALSE(first.volumes->hasUniqueKeys());

    auto next = ovlListing(6);
    next.insert(next.begin() + 3, next[4]); // and the next one another
    const OvlPoll polled = ovlPoll(next, {}, first.volumes);
    ovlExpectSamePoll(polled, ovlReferencePoll(next, {}, first.volumes), first.volumes);
    const OvlPoll again = ovlPoll(ovlListing(6), {}, polled.volumes);
    ovlExpectSamePoll(again, ovlReferencePoll(ovlListing(6), {}, polled.volumes), polled.volumes);
}

// Random polls: every field, additions, removals, moves, repeated uuids and FlexCache marks,
// compared with the reference after each one.
TEST(OntapVolumeList, RandomPollsMatchConvertingEveryRecordAndDiffOf)
{
    std::mt19937 random(18);
    const auto chance = [&](int percent) {
        return int(random() % 100) < percent;
    };
    const std::vector<std::string> times = {"",
                                            "2024-03-01T10:00:00+02:00",
                                            "2024-03-01T08:00:00Z",
                                            "2024-03-01T10:00:00.250+02:00",
                                            "2023-11-05T23:59:59-07:30",
                                            "not a time"};
    int nextId = 0;
    std::vector<ontap::Volume> listing;
    for (; nextId < 200; ++nextId) {
        listing.push_back(ovlVolume(nextId));
    }
    std::shared_ptr<const KeyedList<Volume>> base;
    for (int round = 0; round < 30; ++round) {
        SCOPED_TRACE(round);
        for (ontap::Volume &v : listing) {
            if (!chance(30)) {
                continue;
            }
            switch (random() % 12) {
            case 0:
                v.name = chance(50) ? "vol_ü_" + std::to_string(random() % 5) : "vol_" + std::to_string(random() % 5);
                break;
            case 1:
                v.svm.name = chance(50) ? "svm_ai" : "svm_b";
                break;
            case 2:
                v.aggregates.resize(random() % 3, ontap::ObjectRef{"aggr" + std::to_string(random() % 2), ""});
                break;
            case 3:
                v.state = chance(80) ? "online" : "offline";
                break;
            case 4:
                v.sizeBytes += std::int64_t(random() % 2);
                break;
            case 5:
                v.usedBytes = chance(10) ? std::nullopt : std::optional<std::int64_t>(random() % 3);
                break;
            case 6:
                v.percentUsed = chance(10) ? std::nullopt : std::optional<double>(double(random() % 3) / 2);
                break;
            case 7:
                v.qosPolicy = chance(50) ? std::nullopt : std::optional<ontap::ObjectRef>(ontap::ObjectRef{"gold", ""});
                break;
            case 8:
                v.isFlexClone = chance(50);
                v.cloneParentVolume =
                    chance(70) ? std::optional<ontap::ObjectRef>(ontap::ObjectRef{"p", ""}) : std::nullopt;
                v.cloneParentSnapshot =
                    chance(50) ? std::optional<ontap::ObjectRef>(ontap::ObjectRef{"s", ""}) : std::nullopt;
                break;
            case 9:
                v.nasPath = chance(50) ? "" : "/p" + std::to_string(random() % 2);
                break;
            case 10:
                v.createTime = times[random() % times.size()];
                break;
            default:
                v.snapshotCount = int(random() % 3);
                break;
            }
        }
        if (chance(50)) {
            listing.erase(listing.begin() + std::ptrdiff_t(random() % listing.size()));
        }
        if (chance(50)) {
            listing.insert(listing.begin() + std::ptrdiff_t(random() % listing.size()), ovlVolume(nextId++));
        }
        if (chance(20)) {
            std::swap(listing[random() % listing.size()], listing[random() % listing.size()]);
        }
        auto polled = listing;
        if (chance(15)) {
            polled.push_back(listing[random() % listing.size()]);
        }
        QSet<QString> caches;
        for (int i = 0; i < 5; ++i) {
            caches.insert(qs(listing[random() % listing.size()].uuid));
        }
        const OvlPoll actual = ovlPoll(polled, caches, base);
        const OvlPoll expected = ovlReferencePoll(polled, caches, base);
        ovlExpectSamePoll(actual, expected, base);
        EXPECT_LE(actual.converted, expected.converted);
        if (::testing::Test::HasFailure()) {
            return;
        }
        base = actual.volumes;
    }
}

TEST(OntapTime, TheUsualFormGivesQtsInstantAndOtherFormsAreLeftToQt)
{
    const std::vector<std::string> texts = {
        "2024-03-01T10:00:00+02:00",
        "2024-03-01T10:00:00-02:00",
        "2024-03-01T08:00:00Z",
        "1970-01-01T00:00:00Z",
        "1969-12-31T23:59:59+00:00",
        "2000-02-29T12:34:56+05:30",
        "2100-12-31T23:59:59-12:59",
        "1000-01-01T00:00:00Z",
        "9999-12-31T23:59:59+12:00",
        // Declined by the fast form: Qt decides.
        "2024-03-01T10:00:00.123+02:00",
        "2024-03-01T10:00:00+14:00",
        "2024-03-01T10:00:00+0200",
        "2024-03-01T24:00:00Z",
        "2024-03-01T10:00:60Z",
        "2023-02-29T10:00:00Z",
        "2024-13-01T10:00:00Z",
        "2024-03-01 10:00:00Z",
        "2024-03-01t10:00:00z",
        "0999-03-01T10:00:00Z",
        "2024-03-01T10:00:00",
        "2024-03-01",
        "",
        "+2024-03-01T10:00:00Z",
        "2024-03-01T10:00:00+02:60",
        "２０２４-03-01T10:00:00Z",
    };
    for (const std::string &text : texts) {
        SCOPED_TRACE(text);
        const QDateTime want = ovlQtTime(text);
        const QDateTime got = parseOntapTime(text);
        EXPECT_EQ(got.isValid(), want.isValid());
        EXPECT_EQ(got, want);
        if (want.isValid()) {
            EXPECT_EQ(got.timeSpec(), Qt::UTC);
            EXPECT_EQ(got.toString(Qt::ISODateWithMs), want.toString(Qt::ISODateWithMs));
        }
        if (const auto ms = ontapTimeMs(text)) {
            ASSERT_TRUE(want.isValid());
            EXPECT_EQ(*ms, want.toMSecsSinceEpoch());
        }
    }
    EXPECT_TRUE(ontapTimeMs("2024-03-01T10:00:00+02:00"));
    EXPECT_TRUE(ontapTimeMs("2024-03-01T08:00:00Z"));
    EXPECT_FALSE(ontapTimeMs("2024-03-01T10:00:00.123+02:00"));
}

TEST(KeyedListSharedIndex, SameKeysInTheSameOrderFindEveryRecordOtherwiseTheIndexIsRebuilt)
{
    const auto listing = ovlListing(4);
    const OvlPoll first = ovlPoll(listing, {}, nullptr);
    std::vector<Ptr<Volume>> sameKeys = first.volumes->items();
    auto changed = std::make_shared<Volume>(*sameKeys[1]);
    changed->usedBytes = 1;
    sameKeys[1] = changed;
    const KeyedList<Volume> shared(sameKeys, *first.volumes);
    for (const Ptr<Volume> &v : sameKeys) {
        EXPECT_EQ(shared.find(estateKey(*v)), v);
    }
    EXPECT_TRUE(shared.hasUniqueKeys());

    std::vector<Ptr<Volume>> moved = {sameKeys[1], sameKeys[0], sameKeys[2], sameKeys[3]};
    const KeyedList<Volume> reordered(moved, *first.volumes);
    for (std::size_t i = 0; i < moved.size(); ++i) {
        EXPECT_EQ(reordered.find(estateKey(*moved[i])), moved[i]);
        EXPECT_EQ(reordered.indexOf(estateKey(*moved[i])), qsizetype(i));
    }
    auto renamed = std::make_shared<Volume>(*sameKeys[3]);
    renamed->id = QStringLiteral("other");
    std::vector<Ptr<Volume>> otherKey = {sameKeys[0], sameKeys[1], sameKeys[2], renamed};
    const KeyedList<Volume> rebuilt(otherKey, *first.volumes);
    EXPECT_EQ(rebuilt.find(estateKey(*renamed)), renamed);
    EXPECT_FALSE(rebuilt.find(estateKey(*sameKeys[3])));
    EXPECT_EQ(rebuilt.indexOf(estateKey(*sameKeys[3])), -1);
}
