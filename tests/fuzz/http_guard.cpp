// The web server's request parsing before any route sees a request (web/httpguard): finding
// the end of each header block in a byte stream, parsing it (request line, headers,
// Content-Length, Transfer-Encoding, WebSocket upgrade), and the chunk-size lines of a chunked
// body. QWebSocket's frame parsing is Qt's own and not fuzzed here.
#include "web/httpguard.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace strata;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    qsizetype at = 0;
    // Several requests on one connection, as HttpGuard::scan() reads them.
    for (int request = 0; request < 8 && at < bytes.size(); ++request) {
        while (
            at < bytes.size()
            && (bytes[at] == '\r' || bytes[at] == '\n' || bytes[at] == ' ' || bytes[at] == '\t' || bytes[at] == '\v')) {
            ++at;
        }
        const QByteArray rest = bytes.mid(at, 16 * 1024 + 1);
        const qsizetype end = web::findRequestHeadEnd(rest, 0);
        if (end < 0) {
            break;
        }
        if (end > rest.size()) {
            std::fprintf(stderr,
                         "findRequestHeadEnd returned %lld past %lld bytes\n",
                         static_cast<long long>(end),
                         static_cast<long long>(rest.size()));
            std::abort();
        }
        const web::RequestHeadParse parsed = web::parseRequestHead(rest.left(end), 8 * 1024);
        at += end;
        if (parsed.status != 0) {
            break;
        }
        (void)parsed.head.path();
        (void)parsed.head.websocketUpgrade();
        (void)parsed.head.header("Host");
        if (parsed.chunked) {
            for (int chunk = 0; chunk < 64 && at < bytes.size(); ++chunk) {
                const qsizetype eol = bytes.indexOf('\n', at);
                const QByteArray line = bytes.mid(at, eol < 0 ? -1 : eol - at).trimmed();
                at = eol < 0 ? bytes.size() : eol + 1;
                const qint64 chunkSize = web::parseChunkSizeLine(line);
                if (chunkSize <= 0) {
                    break;
                }
                at += qsizetype(std::min<qint64>(chunkSize, bytes.size() - at));
            }
        } else {
            at += qsizetype(std::min<qint64>(parsed.contentLength, bytes.size() - at));
        }
    }
    return 0;
}
