// The web server's reading of a chunked request body (web/httpguard's ChunkedBodyScanner): where
// the body ends must not depend on how its bytes are split into reads (QHttpServer reads the
// same stream in other pieces), nothing past its end may be taken, and its data stays within
// the limit. The first input byte chooses the limit, the next two a split point.
#include "web/httpguard.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace strata;

namespace {

[[noreturn]] void chunkedBodyFail(const char *what, long long a, long long b)
{
    std::fprintf(stderr, "%s: %lld vs %lld\n", what, a, b);
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size < 3) {
        return 0;
    }
    const qint64 limit = qint64(data[0]) * 16;
    const qsizetype split = (qsizetype(data[1]) << 8 | data[2]);
    const char *stream = reinterpret_cast<const char *>(data + 3);
    const qsizetype n = qsizetype(size - 3);

    web::ChunkedBodyScanner whole(limit);
    const qsizetype wholeTaken = whole.feed(stream, n);

    // The same bytes in pieces: `split` first, then one byte at a time, then the rest.
    web::ChunkedBodyScanner pieces(limit);
    const qsizetype first = std::min(split, n);
    qsizetype taken = pieces.feed(stream, first);
    while (taken == first && pieces.status() == web::ChunkedBodyScanner::Status::More && taken < n
           && taken < first + 64) {
        taken += pieces.feed(stream + taken, 1);
    }
    if (pieces.status() == web::ChunkedBodyScanner::Status::More && taken < n) {
        taken += pieces.feed(stream + taken, n - taken);
    }

    if (wholeTaken > n) {
        chunkedBodyFail("took more than it was given", wholeTaken, n);
    }
    if (whole.status() != pieces.status()) {
        chunkedBodyFail("status depends on the split", int(whole.status()), int(pieces.status()));
    }
    if (whole.status() == web::ChunkedBodyScanner::Status::Done && wholeTaken != taken) {
        chunkedBodyFail("end depends on the split", wholeTaken, taken);
    }
    if (whole.bodyBytes() > limit || whole.bodyBytes() != pieces.bodyBytes()) {
        chunkedBodyFail("body bytes", whole.bodyBytes(), pieces.bodyBytes());
    }
    if (whole.status() == web::ChunkedBodyScanner::Status::Done) {
        // A finished body ends with the last chunk's CRLF and the empty line.
        if (wholeTaken < 5 || std::memcmp(stream + wholeTaken - 4, "\r\n\r\n", 4) != 0) {
            chunkedBodyFail("ended without CRLF CRLF", wholeTaken, 0);
        }
        // Feeding more after the end takes nothing.
        if (whole.feed(stream, n) != 0) {
            chunkedBodyFail("took bytes after the end", 1, 0);
        }
    }
    (void)web::parseChunkSizeLine(QByteArray::fromRawData(stream, std::min<qsizetype>(n, 64)));
    return 0;
}
