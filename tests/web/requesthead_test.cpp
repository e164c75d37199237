// web/httpguard's pure header parsing (parseRequestHead, findRequestHeadEnd, parseChunkSizeLine),
// the functions tests/fuzz/http_guard.cpp fuzzes; the socket-level behaviour is in
// hardening_test.cpp.

#include "web/httpguard.h"

#include <gtest/gtest.h>

namespace strata::web {
namespace {

TEST(RequestHeadParse, ReadsRequestLineHeadersAndBodyFraming)
{
    const RequestHeadParse p = parseRequestHead(
        "POST /api/v1/login?next=%2F HTTP/1.1\r\nHost: strata.example\r\nContent-Length:  38 \r\n\r\n", 8192);
    EXPECT_EQ(p.status, 0);
    EXPECT_EQ(p.head.method, "POST");
    EXPECT_EQ(p.head.path(), "/api/v1/login");
    EXPECT_EQ(p.head.version, "HTTP/1.1");
    EXPECT_EQ(p.head.header("host"), "strata.example");
    EXPECT_EQ(p.contentLength, 38);
    EXPECT_FALSE(p.chunked);

    const RequestHeadParse ws = parseRequestHead("GET /live HTTP/1.1\nUpgrade: WebSocket\nConnection: keep-alive, "
                                                 "Upgrade\nTransfer-Encoding: Chunked\n\n",
                                                 8192);
    EXPECT_EQ(ws.status, 0);
    EXPECT_TRUE(ws.head.websocketUpgrade());
    EXPECT_TRUE(ws.chunked);
}

TEST(RequestHeadParse, RefusesMalformedHeads)
{
    struct Case
    {
        QByteArray block;
        int status;
        const char *reason;
    };
    const std::vector<Case> cases = {
        {"get / HTTP/1.1\r\n\r\n", 400, "bad_request"},
        {"GET / HTTP/2\r\n\r\n", 400, "bad_request"},
        {"GET  / HTTP/1.1\r\n\r\n", 400, "bad_request"},
        {"GET / HTTP/1.1\r\nno colon\r\n\r\n", 400, "bad_request"},
        {"GET / HTTP/1.1\r\n: empty name\r\n\r\n", 400, "bad_request"},
        {"GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400, "bad_request"},
        {"GET / HTTP/1.1\r\nContent-Length: 1e3\r\n\r\n", 400, "bad_request"},
        {"GET /" + QByteArray(20, 'a') + " HTTP/1.1\r\n\r\n", 414, "url_too_long"},
        {"GET / HTTP/1.1\r\nContent-Length: +5\r\n\r\n", 400, "bad_request"},
        {"GET / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n", 400, "bad_request"},
        {"GET / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 400, "bad_request"},
        {"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n", 400, "bad_request"},
        {"GET / HTTP/1.1\r\nTransfer-Encoding : chunked\r\n\r\n", 400, "bad_request"},
        {"GET / HTTP/1.1\r\nX-A: 1\r\n folded\r\n\r\n", 400, "bad_request"},
        {"GET / HTTP/1.1\r\nX-A: 1\r2\r\n\r\n", 400, "bad_request"},
        {"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "bad_request"},
        {"GET / HTTP/1.1\r\nX-A: " + QByteArray(9000, 'a') + "\r\n\r\n", 431, "header_too_large"},
    };
    for (const Case &c : cases) {
        const RequestHeadParse p = parseRequestHead(c.block, 16);
        EXPECT_EQ(p.status, c.status) << c.block.constData();
        EXPECT_EQ(p.reason, c.reason) << c.block.constData();
        EXPECT_FALSE(p.message.isEmpty()) << c.block.constData();
    }
}

TEST(RequestHeadParse, FindsTheBlankLineWithCrlfOrBareLf)
{
    EXPECT_EQ(findRequestHeadEnd("GET / HTTP/1.1\r\nHost: a\r\n\r\nBODY", 0), 27);
    EXPECT_EQ(findRequestHeadEnd("GET / HTTP/1.1\nHost: a\n\nBODY", 0), 24);
    EXPECT_EQ(findRequestHeadEnd("GET / HTTP/1.1\r\nHost: a\r\n", 0), -1);
    EXPECT_EQ(findRequestHeadEnd("\n", 0), -1);
    EXPECT_EQ(findRequestHeadEnd("", 5), -1);
}

TEST(RequestHeadParse, ReadsChunkSizeLines)
{
    EXPECT_EQ(parseChunkSizeLine("1a"), 26);
    EXPECT_EQ(parseChunkSizeLine("FF ;name=value"), 255);
    EXPECT_EQ(parseChunkSizeLine("00ff;a=\"b c\""), 255);
    EXPECT_EQ(parseChunkSizeLine(" FF"), -1);
    EXPECT_EQ(parseChunkSizeLine("0x10"), -1);
    EXPECT_EQ(parseChunkSizeLine("+5"), -1);
    EXPECT_EQ(parseChunkSizeLine("5 6"), -1);
    EXPECT_EQ(parseChunkSizeLine("1000000000000000"), -1);
    EXPECT_EQ(parseChunkSizeLine("5\n"), -1);
    EXPECT_EQ(parseChunkSizeLine("0"), 0);
    EXPECT_EQ(parseChunkSizeLine(""), -1);
    EXPECT_EQ(parseChunkSizeLine("-5"), -1);
    EXPECT_EQ(parseChunkSizeLine("zz"), -1);
}

TEST(ChunkedBodyScanner, EndsAtTheSameByteHoweverTheBytesAreSplit)
{
    const QByteArray body = "5;x=y\r\nhello\r\n1\r\n!\r\n0\r\n\r\nGET / HTTP/1.1\r\n";
    const qsizetype end = body.indexOf("GET");
    for (qsizetype split = 0; split <= body.size(); ++split) {
        ChunkedBodyScanner scanner(100);
        const qsizetype first = scanner.feed(body.constData(), split);
        const qsizetype second = scanner.feed(body.constData() + first, body.size() - first);
        EXPECT_EQ(scanner.status(), ChunkedBodyScanner::Status::Done) << split;
        EXPECT_EQ(first + second, end) << split;
        EXPECT_EQ(scanner.bodyBytes(), 6) << split;
    }
}

TEST(ChunkedBodyScanner, RefusesTrailersBareLfAndBodiesOverTheLimit)
{
    const auto statusOf = [](const QByteArray &bytes, qint64 limit = 100) {
        ChunkedBodyScanner scanner(limit);
        scanner.feed(bytes.constData(), bytes.size());
        return scanner.status();
    };
    using Status = ChunkedBodyScanner::Status;
    EXPECT_EQ(statusOf("0\r\nX-Trailer: 1\r\n\r\n"), Status::Malformed);
    EXPECT_EQ(statusOf("0\r\nXXGET / HTTP/1.1\r\n"), Status::Malformed);
    EXPECT_EQ(statusOf("5\nhello\n0\n\n"), Status::Malformed);
    EXPECT_EQ(statusOf("5\r\nhelloX\r\n"), Status::Malformed);
    EXPECT_EQ(statusOf("5;" + QByteArray(2000, 'a') + "\r\n"), Status::Malformed);
    EXPECT_EQ(statusOf("65\r\n"), Status::TooLarge);
    EXPECT_EQ(statusOf("64\r\n"), Status::More);
    EXPECT_EQ(statusOf("5\r\nhel"), Status::More);
}

} // namespace
} // namespace strata::web
