// The live feed's fan-out: each diff is framed once (RFC 6455 text frames, as a server sends
// them) and the same bytes go to every viewer's connection; real QWebSocket clients read them.
#include "web/livefeed.h"
#include "web/liveviewers.h"
#include "webfixture.h"

namespace strata::testsupport {
namespace {

QByteArray frameHeaderOf(const QByteArray &frames, qsizetype at, qsizetype headerBytes)
{
    return frames.mid(at, headerBytes);
}

TEST(WebSocketFrames, LengthsInSevenSixteenOrSixtyFourBitsAndFragmentsAsRfc6455)
{
    // A short text: FIN + opcode 1, then the length in 7 bits, then the bytes (server: no mask).
    EXPECT_EQ(web::webSocketTextFrames("hi", 512 * 1024), QByteArray("\x81\x02hi", 4));
    EXPECT_EQ(web::webSocketTextFrames(QByteArray(), 512 * 1024), QByteArray("\x81\x00", 2));
    // 125 bytes still fit 7 bits; 126 take the 16-bit form, 65,536 the 64-bit form.
    EXPECT_EQ(frameHeaderOf(web::webSocketTextFrames(QByteArray(125, 'a'), 1 << 20), 0, 2), QByteArray("\x81\x7d", 2));
    EXPECT_EQ(frameHeaderOf(web::webSocketTextFrames(QByteArray(126, 'a'), 1 << 20), 0, 4),
              QByteArray("\x81\x7e\x00\x7e", 4));
    EXPECT_EQ(frameHeaderOf(web::webSocketTextFrames(QByteArray(65535, 'a'), 1 << 20), 0, 4),
              QByteArray("\x81\x7e\xff\xff", 4));
    EXPECT_EQ(frameHeaderOf(web::webSocketTextFrames(QByteArray(65536, 'a'), 1 << 20), 0, 10),
              QByteArray("\x81\x7f\x00\x00\x00\x00\x00\x01\x00\x00", 10));
    // Longer than a frame: a text frame without FIN, then continuation frames, FIN on the last.
    const QByteArray split = web::webSocketTextFrames("abcdefg", 3);
    EXPECT_EQ(split,
              QByteArray("\x01\x03"
                         "abc"
                         "\x00\x03"
                         "def"
                         "\x80\x01"
                         "g",
                         13));
}

using LiveViewersTest = WebFixture;

TEST_F(LiveViewersTest, EveryViewerReadsTheSameDiffWhateverItsSizeAndCharacters)
{
    web::WebServerOptions options;
    options.watchPerformanceWithViewers = false; // a quiet estate: only the diffs this test makes
    startServer(options);
    const Login first = login(QStringLiteral("viewer"));
    const Login second = login(QStringLiteral("admin"));
    auto a = openLive(first, ownOrigin());
    auto b = openLive(second, ownOrigin());
    ASSERT_TRUE(waitFor([&] {
        return a->messages.size() >= 1 && b->messages.size() >= 1; // hello
    }));
    web::LiveFeed &feed = server->feed();
    // 700 KiB: more than QWebSocket's 512 KiB frame, so a text frame and a continuation frame,
    // both with 64-bit lengths; text outside ASCII passes as its UTF-8 bytes.
    const QString text = QStringLiteral("Grüße aus 東京 — ") + QString(700 * 1024, QLatin1Char('x'));
    feed.append(
        QStringLiteral("sentences"),
        QJsonArray{QJsonObject{{QStringLiteral("key"), QStringLiteral("call-9/0")}, {QStringLiteral("text"), text}}});
    feed.append(QStringLiteral("sentences"),
                QJsonArray{QJsonObject{{QStringLiteral("key"), QStringLiteral("call-9/1")},
                                       {QStringLiteral("text"), QStringLiteral("short")}}});
    // The two appends may travel in one diff or two; the engine's own resources (forecasts, once
    // computed) may travel too.
    const auto rowsOf = [](const QList<QJsonObject> &messages) {
        QJsonArray rows;
        for (const QJsonObject &m : messages) {
            if (m.value(QLatin1String("resource")).toString() != QLatin1String("sentences")) {
                continue;
            }
            for (const QJsonValue &row : m.value(QLatin1String("upsert")).toArray()) {
                rows.append(row);
            }
        }
        return rows;
    };
    ASSERT_TRUE(waitFor(
        [&] {
            return rowsOf(a->messages).size() >= 2 && rowsOf(b->messages).size() >= 2;
        },
        20000));
    ASSERT_EQ(a->messages, b->messages);
    EXPECT_EQ(a->messages.at(1).value(QLatin1String("type")).toString(), QStringLiteral("diff"));
    const QJsonArray rows = rowsOf(a->messages);
    ASSERT_EQ(rows.size(), 2);
    EXPECT_EQ(rows.at(0).toObject().value(QLatin1String("text")).toString(), text);
    EXPECT_EQ(rows.at(1).toObject().value(QLatin1String("text")).toString(), QStringLiteral("short"));
    EXPECT_FALSE(a->closed);
    EXPECT_FALSE(b->closed);
}

} // namespace
} // namespace strata::testsupport
