// The live feed follows the estate's keyed diffs: one changed volume among many is one upserted
// row, a removed volume is one removed key, catch-up replays them in order, and the rows are
// built and serialised on the feed's worker thread, not the owner (GUI) thread.

#include "web/livefeed.h"
#include "webfixture.h"

#include "models/core/domain/clock.h"
#include "models/core/domain/estate.h"
#include "models/core/runtime/engine.h"
#include "models/core/sources/source.h"
#include "models/core/store/credentialstore.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QMutex>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <gtest/gtest.h>

namespace strata::testsupport {
namespace {

const QString kFeedSource = QStringLiteral("ontap-feed");

/// An engine with one configured ONTAP source that never polls (its password is not stored),
/// so the estate holds only what the test publishes.
class LiveFeedDiffTest : public ::testing::Test
{
protected:
    core::SystemClock clock;
    core::InMemoryCredentialStore credentials;
    core::Engine engine{{clock, credentials, nullptr, QStringLiteral("test")}};

    void SetUp() override
    {
        core::SourceConfig source;
        source.name = kFeedSource;
        source.kind = core::SourceKind::Ontap;
        source.url = QStringLiteral("https://127.0.0.1:1");
        source.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(source.name)};
        engine.setSources({source});
        ASSERT_TRUE(QTest::qWaitFor([&] {
            const auto s = engine.status(kFeedSource);
            return s && s->health == core::Health::AuthRequired;
        }));
    }

    static core::Ptr<core::Volume> volume(int i, qint64 used)
    {
        core::Volume v;
        v.source = kFeedSource;
        v.id = QStringLiteral("uuid-%1").arg(i, 4, 10, QLatin1Char('0'));
        v.name = QStringLiteral("vol_%1").arg(i, 4, 10, QLatin1Char('0'));
        v.svm = QStringLiteral("svm1");
        v.state = QStringLiteral("online");
        v.sizeBytes = qint64(1) << 40;
        v.usedBytes = used;
        return std::make_shared<const core::Volume>(v);
    }

    void publish(std::vector<core::Ptr<core::Volume>> list)
    {
        engine.estate().publishVolumes(kFeedSource,
                                       std::make_shared<const core::KeyedList<core::Volume>>(std::move(list)));
    }

    static QJsonObject parsed(const QByteArray &message) { return QJsonDocument::fromJson(message).object(); }
};

TEST_F(LiveFeedDiffTest, OneChangedVolumeAmongManyIsOneUpsertAndARemovalIsOneRemovedKey)
{
    std::vector<core::Ptr<core::Volume>> volumes;
    for (int i = 0; i < 2000; ++i) {
        volumes.push_back(volume(i, 1000 + i));
    }
    publish(volumes);
    web::LiveFeed feed(engine, 1, 64);
    ASSERT_TRUE(feed.addEstateResource(QStringLiteral("volumes")));
    EXPECT_FALSE(feed.addEstateResource(QStringLiteral("service-levels"))); // derived: re-read
    EXPECT_EQ(feed.rows(QStringLiteral("volumes")).size(), 2000);
    EXPECT_EQ(feed.revision(), 0); // the baseline is not a diff
    QList<QByteArray> sent;
    QObject::connect(&feed, &web::LiveFeed::diffReady, [&](qint64, const QByteArray &m) {
        sent << m;
    });

    // One volume's used space changes; every other record is the same shared value.
    volumes[1234] = volume(1234, 777);
    publish(volumes);
    ASSERT_TRUE(QTest::qWaitFor([&] {
        return !sent.isEmpty();
    }));
    QJsonObject diff = parsed(sent.first());
    EXPECT_EQ(diff.value(QLatin1String("type")).toString(), QStringLiteral("diff"));
    EXPECT_EQ(diff.value(QLatin1String("revision")).toInt(), 1);
    EXPECT_EQ(diff.value(QLatin1String("resource")).toString(), QStringLiteral("volumes"));
    const QJsonArray upsert = diff.value(QLatin1String("upsert")).toArray();
    ASSERT_EQ(upsert.size(), 1);
    EXPECT_EQ(upsert.first().toObject().value(QLatin1String("key")).toString(),
              QString(kFeedSource + QStringLiteral("/uuid-1234")));
    EXPECT_EQ(upsert.first().toObject().value(QLatin1String("used_bytes")).toInteger(), 777);
    EXPECT_TRUE(diff.value(QLatin1String("remove")).toArray().isEmpty());

    // A volume goes away: its key is removed, nothing is upserted.
    volumes.erase(volumes.begin() + 42);
    publish(volumes);
    ASSERT_TRUE(QTest::qWaitFor([&] {
        return sent.size() == 2;
    }));
    diff = parsed(sent.at(1));
    EXPECT_EQ(diff.value(QLatin1String("revision")).toInt(), 2);
    EXPECT_TRUE(diff.value(QLatin1String("upsert")).toArray().isEmpty());
    EXPECT_EQ(diff.value(QLatin1String("remove")).toArray(),
              QJsonArray{QString(kFeedSource + QStringLiteral("/uuid-0042"))});
    EXPECT_EQ(feed.rows(QStringLiteral("volumes")).size(), 1999);

    // Catch-up: a viewer that saw revision 0 or 1 receives the same bytes, in order.
    QList<QByteArray> since0;
    ASSERT_TRUE(feed.diffsSince(0, &since0));
    EXPECT_EQ(since0, sent);
    QList<QByteArray> since1;
    ASSERT_TRUE(feed.diffsSince(1, &since1));
    EXPECT_EQ(since1, QList<QByteArray>{sent.at(1)});
    QList<QByteArray> none;
    EXPECT_TRUE(feed.diffsSince(2, &none));
    EXPECT_TRUE(none.isEmpty());
}

TEST_F(LiveFeedDiffTest, AChangeThatLeavesTheRowAsItWasSendsNothing)
{
    std::vector<core::Ptr<core::Volume>> volumes{volume(1, 10), volume(2, 20)};
    publish(volumes);
    web::LiveFeed feed(engine, 1, 64);
    ASSERT_TRUE(feed.addEstateResource(QStringLiteral("volumes")));
    QSignalSpy diffs(&feed, &web::LiveFeed::diffReady);
    // aggregateCount is stored but not listed by `get volumes`: the record changed, the row did not.
    core::Volume changed = *volumes[0];
    changed.aggregateCount = 7;
    volumes[0] = std::make_shared<const core::Volume>(changed);
    publish(volumes);
    QTest::qWait(100); // bounded on purpose: checks that no diff comes (there is no signal for "none")
    EXPECT_TRUE(diffs.isEmpty());
}

TEST_F(LiveFeedDiffTest, RemovingTheSourceRemovesItsRows)
{
    publish({volume(1, 10), volume(2, 20)});
    web::LiveFeed feed(engine, 1, 64);
    ASSERT_TRUE(feed.addEstateResource(QStringLiteral("volumes")));
    QList<QByteArray> sent;
    QObject::connect(&feed, &web::LiveFeed::diffReady, [&](qint64, const QByteArray &m) {
        sent << m;
    });
    engine.setSources({});
    ASSERT_TRUE(QTest::qWaitFor([&] {
        return feed.rows(QStringLiteral("volumes")).isEmpty() && !sent.isEmpty();
    }));
    QStringList removed;
    for (const QByteArray &m : std::as_const(sent)) {
        for (const QJsonValue &k : parsed(m).value(QLatin1String("remove")).toArray()) {
            removed << k.toString();
        }
    }
    removed.sort();
    EXPECT_EQ(removed,
              (QStringList{QString(kFeedSource + QStringLiteral("/uuid-0001")),
                           QString(kFeedSource + QStringLiteral("/uuid-0002"))}));
}

TEST_F(LiveFeedDiffTest, RowsAreBuiltAndSerialisedOffTheOwnerThread)
{
    publish({volume(1, 10)});
    web::LiveFeed feed(engine, 1, 64);
    ASSERT_TRUE(feed.addEstateResource(QStringLiteral("volumes")));
    QJsonArray things{QJsonObject{{QStringLiteral("key"), QStringLiteral("a")}}};
    feed.addResource(QStringLiteral("things"), [&] {
        return things;
    });
    QMutex mutex;
    QHash<QString, QThread *> builtOn;
    feed.setBuildObserver([&](const QString &resource) {
        QMutexLocker lock(&mutex);
        builtOn.insert(resource, QThread::currentThread());
    });
    QSignalSpy diffs(&feed, &web::LiveFeed::diffReady);
    publish({volume(1, 11)});
    things = QJsonArray{QJsonObject{{QStringLiteral("key"), QStringLiteral("b")}}};
    feed.markDirty(QStringLiteral("things"));
    feed.append(QStringLiteral("sentences"), QJsonArray{QJsonObject{{QStringLiteral("key"), QStringLiteral("s")}}});
    ASSERT_TRUE(QTest::qWaitFor([&] {
        return diffs.size() == 3;
    }));
    QMutexLocker lock(&mutex);
    ASSERT_EQ(builtOn.size(), 3);
    for (auto it = builtOn.cbegin(); it != builtOn.cend(); ++it) {
        EXPECT_NE(it.value(), QCoreApplication::instance()->thread()) << it.key().toStdString();
        EXPECT_NE(it.value(), QThread::currentThread()) << it.key().toStdString();
    }
}

using LiveFeedServerTest = WebFixture;

TEST_F(LiveFeedServerTest, AVolumeChangeInTheEstateReachesAViewerCatchingUpWithSince)
{
    web::WebServerOptions options;
    options.watchPerformanceWithViewers = false;
    startServer(options);
    const Login viewer = login(QStringLiteral("viewer"));
    web::LiveFeed &feed = server->feed();
    const QString source = QStringLiteral("ontap-ai");
    const auto current = engine->estate().volumes().scope(source);
    ASSERT_TRUE(current && current->size() > 1);
    std::vector<core::Ptr<core::Volume>> volumes = current->items();
    core::Volume changed = *volumes.front();
    changed.usedBytes = 123456789;
    volumes.front() = std::make_shared<const core::Volume>(changed);
    const qint64 before = feed.revision();
    engine->estate().publishVolumes(source, std::make_shared<const core::KeyedList<core::Volume>>(volumes));
    ASSERT_TRUE(waitFor([&] {
        return feed.revision() > before;
    }));

    // A viewer that last saw `before` gets the diff on reconnecting, in order after hello. The
    // revision may first move for another resource (a source's status) while the volume diff
    // still waits out its coalescing window, so the viewer is watched until the diff arrives.
    auto live = openLive(viewer, ownOrigin(), QStringLiteral("since=%1").arg(before));
    const auto changeMessage = [&]() -> qsizetype {
        for (qsizetype i = 1; i < live->messages.size(); ++i) {
            const QJsonObject m = live->messages.at(i);
            if (m.value(QLatin1String("resource")).toString() != QLatin1String("volumes")) {
                continue;
            }
            for (const QJsonValue &v : m.value(QLatin1String("upsert")).toArray()) {
                const QJsonObject row = v.toObject();
                if (row.value(QLatin1String("key")).toString() == source + QLatin1Char('/') + changed.id
                    && row.value(QLatin1String("used_bytes")).toInteger() == 123456789) {
                    return i;
                }
            }
        }
        return -1;
    };
    ASSERT_TRUE(waitFor([&] {
        return live->messages.size() >= 1 + (feed.revision() - before) && changeMessage() > 0;
    })) << live->messages.size()
        << " messages, revision " << feed.revision() << " after " << before;
    EXPECT_EQ(live->messages.at(0).value(QLatin1String("type")).toString(), QStringLiteral("hello"));
    for (qsizetype i = 1; i < live->messages.size(); ++i) {
        EXPECT_EQ(qint64(live->messages.at(i).value(QLatin1String("revision")).toDouble()), before + i);
    }
    // Only what changed travels, not the whole list (a poll landing in the same coalescing window
    // may add its own changes).
    EXPECT_LT(live->messages.at(changeMessage()).value(QLatin1String("upsert")).toArray().size(),
              qsizetype(volumes.size()));
}

} // namespace
} // namespace strata::testsupport
