// Where one request ends and the next begins, with HttpGuard and QHttpServer's parser reading the
// same bytes: chunk sizes, extensions, trailers, bare LF, split line ends and pipelining. A
// request the guard did not check must never reach a route, and a malformed body is refused
// with one 400 and the connection closed.

#include "rawhttp.h"
#include "webfixture.h"

#include <iostream>

namespace strata::testsupport {
namespace {

using WebRequestFramingTest = WebFixture;

/// The complete responses in `bytes` (status and body), in order; stops at an unfinished one.
QList<QPair<int, QByteArray>> framingResponses(const QByteArray &bytes)
{
    QList<QPair<int, QByteArray>> out;
    qsizetype at = 0;
    while (bytes.mid(at).startsWith("HTTP/1.")) {
        const qsizetype end = bytes.indexOf("\r\n\r\n", at);
        if (end < 0) {
            break;
        }
        qint64 length = 0;
        for (const QByteArray &line : bytes.mid(at, end - at).split('\n')) {
            if (line.toLower().startsWith("content-length:")) {
                length = line.mid(15).trimmed().toLongLong();
            }
        }
        if (bytes.size() < end + 4 + length) {
            break;
        }
        out.append({bytes.mid(at + 9, 3).toInt(), bytes.mid(end + 4, length)});
        at = end + 4 + length;
    }
    return out;
}

QByteArray framingChunked(quint16 port, const QByteArray &path, const QByteArray &body)
{
    return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port)
           + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + body;
}

QByteArray framingGet(quint16 port, const QByteArray &path)
{
    return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port) + "\r\n\r\n";
}

/// Sends `parts` on one connection (a pause between them, so each arrives on its own) and
/// returns what came back once `expected` responses arrived or the server closed.
QList<QPair<int, QByteArray>>
framingExchange(quint16 port, const QList<QByteArray> &parts, int expected, bool *closed = nullptr)
{
    RawHttpClient c;
    if (!c.open(port)) {
        return {};
    }
    for (const QByteArray &part : parts) {
        c.send(part);
        c.socket().flush();
        QTest::qWait(150);
    }
    (void)QTest::qWaitFor(
        [&] {
            return c.closed() || framingResponses(c.received()).size() >= expected;
        },
        5000);
    // Anything more (a hidden request's answer) would come right after.
    QTest::qWait(200);
    if (closed) {
        c.waitClosed(3000);
        *closed = c.closed();
    }
    return framingResponses(c.received());
}

const QByteArray kFramingLogin = R"({"user":"viewer","password":"viewer-password"})";

QByteArray framingChunks(const QByteArray &data)
{
    return QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
}

// A request hidden after the last chunk (where QHttpServer reads two bytes and then a new
// request, and the guard used to read trailers) is refused with the request that carries it.
TEST_F(WebRequestFramingTest, ARequestHiddenAfterTheLastChunkNeverReachesARoute)
{
    startServer();
    const quint16 port = server->port();
    const QByteArray hidden = "XXGET /api/v1/session HTTP/1.1\r\nHost: evil.example\r\n\r\n";
    bool closed = false;
    const auto responses =
        framingExchange(port, {framingChunked(port, "/api/v1/version", "0\r\n" + hidden)}, 2, &closed);
    std::cout << "[probe] hidden request after the last chunk: " << responses.size() << " responses, first "
              << (responses.isEmpty() ? 0 : responses.first().first) << '\n';
    ASSERT_EQ(responses.size(), 1);
    EXPECT_EQ(responses.first().first, 400);
    EXPECT_TRUE(closed);

    // Trailer lines of any size are refused at their first byte: nothing is collected.
    const QByteArray trailers = "0\r\nX-Hidden: " + QByteArray(250, 'a') + "\r\n\r\n";
    const auto trailerResponses = framingExchange(port, {framingChunked(port, "/api/v1/login", trailers)}, 2, &closed);
    ASSERT_EQ(trailerResponses.size(), 1);
    EXPECT_EQ(trailerResponses.first().first, 400);
    EXPECT_TRUE(closed);
}

// Every chunk framing the guard accepts, QHttpServer reads the same way: the route answers once
// and a request pipelined after it is answered too.
TEST_F(WebRequestFramingTest, WellFormedChunkedBodiesAreReadAlikeByTheGuardAndTheParser)
{
    startServer();
    const quint16 port = server->port();
    const QByteArray login = kFramingLogin;
    const QList<QPair<const char *, QByteArray>> bodies = {
        {"one chunk", QByteArray(framingChunks(login) + "0\r\n\r\n")},
        {"byte by byte chunks",
         [&] {
             QByteArray b;
             for (char ch : login) {
                 b += framingChunks(QByteArray(1, ch));
             }
             return QByteArray(b + "0\r\n\r\n");
         }()},
        {"extensions and upper-case hex",
         QByteArray(QByteArray::number(login.size(), 16).toUpper() + ";name=value\r\n" + login + "\r\n0;last\r\n\r\n")},
        {"leading zeros", QByteArray("000" + framingChunks(login) + "000\r\n\r\n")},
    };
    for (const auto &[what, body] : bodies) {
        const auto responses = framingExchange(
            port, {framingChunked(port, "/api/v1/login", body) + framingGet(port, "/api/v1/version")}, 2);
        ASSERT_EQ(responses.size(), 2) << what;
        EXPECT_EQ(responses.at(0).first, 200) << what << ": " << responses.at(0).second.toStdString();
        EXPECT_EQ(responses.at(1).first, 200) << what;
        EXPECT_TRUE(responses.at(1).second.contains("api_version")) << what;
    }
    // The same body split before every CR arrives in pieces and still reads alike.
    const QByteArray body = framingChunks(login.left(10)) + framingChunks(login.mid(10)) + "0\r\n\r\n";
    QList<QByteArray> pieces{framingChunked(port, "/api/v1/login", {})};
    qsizetype from = 0;
    for (qsizetype cr = body.indexOf('\r', 1); cr >= 0; cr = body.indexOf('\r', cr + 1)) {
        pieces << body.mid(from, cr - from);
        from = cr;
    }
    pieces << body.mid(from) + framingGet(port, "/api/v1/version");
    const auto split = framingExchange(port, pieces, 2);
    ASSERT_EQ(split.size(), 2);
    EXPECT_EQ(split.at(0).first, 200);
    EXPECT_EQ(split.at(1).first, 200);
}

// What one parser could read differently from the other is refused, before any route.
TEST_F(WebRequestFramingTest, AmbiguousFramingIsRefusedWithOneResponse)
{
    startServer();
    const quint16 port = server->port();
    const QByteArray login = kFramingLogin;
    const QByteArray size = QByteArray::number(login.size(), 16);
    const QList<QPair<const char *, QByteArray>> bodies = {
        {"bare LF", size + "\n" + login + "\n0\n\n"},
        {"bare LF after the last chunk", framingChunks(login) + "0\r\n\n"},
        {"0x prefix", "0x" + size + "\r\n" + login + "\r\n0\r\n\r\n"},
        {"sign", "+" + size + "\r\n" + login + "\r\n0\r\n\r\n"},
        {"space inside the size", size.left(1) + " " + size.mid(1) + "\r\n" + login + "\r\n0\r\n\r\n"},
        {"16 hex digits", "000000000000000" + size + "\r\n" + login + "\r\n0\r\n\r\n"},
        {"data longer than its size", size + "\r\n" + login + "XX\r\n0\r\n\r\n"},
        {"CR inside an extension", size + ";a\rb\r\n" + login + "\r\n0\r\n\r\n"},
        {"trailer", framingChunks(login) + "0\r\nX-Trailer: 1\r\n\r\n"},
        {"overflowing size", "fffffffffffffff0\r\n" + login + "\r\n0\r\n\r\n"},
    };
    for (const auto &[what, body] : bodies) {
        bool closed = false;
        const auto responses = framingExchange(
            port, {framingChunked(port, "/api/v1/login", body) + framingGet(port, "/api/v1/version")}, 2, &closed);
        ASSERT_EQ(responses.size(), 1) << what;
        EXPECT_EQ(responses.first().first, 400) << what;
        EXPECT_TRUE(closed) << what;
    }
    const QByteArray host = "Host: 127.0.0.1:" + QByteArray::number(port) + "\r\n";
    const QList<QPair<const char *, QByteArray>> heads = {
        {"two Transfer-Encodings", "Transfer-Encoding: identity\r\nTransfer-Encoding: chunked\r\n"},
        {"a coding before chunked", "Transfer-Encoding: gzip, chunked\r\n"},
        {"Transfer-Encoding and Content-Length", "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n"},
        {"space before the colon", "Transfer-Encoding : chunked\r\n"},
        {"folded header", "X-A: 1\r\n Transfer-Encoding: chunked\r\n"},
        {"two Content-Lengths", "Content-Length: 5\r\nContent-Length: 6\r\n"},
        {"Content-Length with a sign", "Content-Length: +5\r\n"},
        {"two Hosts", host},
    };
    for (const auto &[what, extra] : heads) {
        bool closed = false;
        const QByteArray request = "POST /api/v1/login HTTP/1.1\r\n" + host + extra + "\r\n" + framingChunks(login)
                                   + "0\r\n\r\n" + framingGet(port, "/api/v1/version");
        const auto responses = framingExchange(port, {request}, 2, &closed);
        ASSERT_EQ(responses.size(), 1) << what;
        EXPECT_EQ(responses.first().first, 400) << what;
        EXPECT_TRUE(closed) << what;
    }
    // Over 100 header fields: QHttpServer would drop them all (Content-Length included).
    QByteArray many;
    for (int i = 0; i < 101; ++i) {
        many += "X-" + QByteArray::number(i) + ": 1\r\n";
    }
    const auto tooMany = framingExchange(port,
                                         {"POST /api/v1/login HTTP/1.1\r\n" + host + many
                                          + "Content-Length: " + QByteArray::number(login.size()) + "\r\n\r\n" + login},
                                         2);
    ASSERT_EQ(tooMany.size(), 1);
    EXPECT_EQ(tooMany.first().first, 431);
}

// The last chunk's CRLF split after its CR: Qt's next read takes the LF and the first byte of
// what follows, so a request right behind it is refused; the LF alone is fine.
TEST_F(WebRequestFramingTest, ALastChunkCrlfSplitAfterItsCrIsReadAlike)
{
    startServer();
    const quint16 port = server->port();
    const QByteArray start = framingChunked(port, "/api/v1/login", framingChunks(kFramingLogin) + "0\r\n\r");
    bool closed = false;
    const auto swallowed = framingExchange(port, {start, "\n" + framingGet(port, "/api/v1/version")}, 2, &closed);
    ASSERT_EQ(swallowed.size(), 1);
    EXPECT_EQ(swallowed.first().first, 400);
    EXPECT_TRUE(closed);

    const auto clean = framingExchange(port, {start, "\n", framingGet(port, "/api/v1/version")}, 2);
    ASSERT_EQ(clean.size(), 2);
    EXPECT_EQ(clean.at(0).first, 200);
    EXPECT_EQ(clean.at(1).first, 200);
}

// Pipelined requests are answered in the order they were sent, also when the first is answered
// later (a login's password check runs on the worker pool) and when a later one is refused.
TEST_F(WebRequestFramingTest, PipelinedRequestsAreAnsweredInOrder)
{
    startServer();
    const quint16 port = server->port();
    const QByteArray wrong = R"({"user":"viewer","password":"wrong-password"})";
    const QByteArray badLogin = "POST /api/v1/login HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port)
                                + "\r\nContent-Type: application/json\r\nContent-Length: "
                                + QByteArray::number(wrong.size()) + "\r\n\r\n" + wrong;
    const auto responses =
        framingExchange(port, {badLogin + framingGet(port, "/api/v1/version") + framingGet(port, "/healthz")}, 3);
    std::cout << "[probe] pipelined failed login, version, healthz:";
    for (const auto &[status, body] : responses) {
        std::cout << ' ' << status;
    }
    std::cout << '\n';
    ASSERT_EQ(responses.size(), 3);
    EXPECT_EQ(responses.at(0).first, 401);
    EXPECT_EQ(responses.at(1).first, 200);
    EXPECT_TRUE(responses.at(1).second.contains("api_version"));
    EXPECT_EQ(responses.at(2).first, 200);

    // The second request arriving on its own while the first is still being answered.
    const auto later = framingExchange(port, {badLogin, framingGet(port, "/api/v1/version")}, 2);
    ASSERT_EQ(later.size(), 2);
    EXPECT_TRUE(later.at(0).first == 401 || later.at(0).first == 429) << later.at(0).first;
    EXPECT_EQ(later.at(1).first, 200);

    // A malformed request behind it is refused after the login's answer, not before.
    bool closed = false;
    const auto refused = framingExchange(port, {badLogin, "NOT A REQUEST\r\n\r\n"}, 2, &closed);
    ASSERT_EQ(refused.size(), 2);
    EXPECT_TRUE(refused.at(0).first == 401 || refused.at(0).first == 429) << refused.at(0).first;
    EXPECT_EQ(refused.at(1).first, 400);
    EXPECT_TRUE(closed);
}

} // namespace
} // namespace strata::testsupport
