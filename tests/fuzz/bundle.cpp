// Support bundles (models/core/runtime/bundle.h): a bundle is a file a customer sends to support, so
// the engineer who opens it reads bytes someone else wrote. Two ways in: input starting with
// the gzip magic goes to decodeBundle() as it is (gzip framing, CRC, bombs, header checks);
// anything else is taken as the bundle's body, wrapped in the header and checksum the exporter
// writes, so the fuzzer's mutations reach the record field tables instead of stopping at the
// checksum. A decoded bundle must survive encodeBundle() + decodeBundle() unchanged.
#include "models/core/runtime/bundle.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QJsonDocument>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <zlib.h>

using namespace strata;

namespace {

QByteArray gzipForFuzz(const QByteArray &data)
{
    z_stream zs{};
    if (deflateInit2(&zs, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        std::abort();
    }
    QByteArray out(qsizetype(deflateBound(&zs, uLong(data.size()))), Qt::Uninitialized);
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    zs.avail_in = uInt(data.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = uInt(out.size());
    if (deflate(&zs, Z_FINISH) != Z_STREAM_END) {
        std::abort();
    }
    out.resize(qsizetype(zs.total_out));
    deflateEnd(&zs);
    return out;
}

QByteArray wrapBody(const QJsonObject &body)
{
    const QByteArray compact = QJsonDocument(body).toJson(QJsonDocument::Compact);
    const QJsonObject doc{
        {QStringLiteral("format"), QStringLiteral("strata-bundle")},
        {QStringLiteral("version"), 1},
        {QStringLiteral("created"), QStringLiteral("2026-11-26T09:03:05.038Z")},
        {QStringLiteral("strata_version"), QStringLiteral("fuzz")},
        {QStringLiteral("host"), QStringLiteral("fuzz")},
        {QStringLiteral("user"), QString()},
        {QStringLiteral("hours"), 1},
        {QStringLiteral("checksum"),
         QJsonObject{{QStringLiteral("algorithm"), QStringLiteral("sha256")},
                     {QStringLiteral("value"),
                      QString::fromLatin1(QCryptographicHash::hash(compact, QCryptographicHash::Sha256).toHex())}}},
        {QStringLiteral("body"), body},
    };
    return gzipForFuzz(QJsonDocument(doc).toJson(QJsonDocument::Compact));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static int argc = 1;
    static char name[] = "fuzz_bundle";
    static char *argv[] = {name, nullptr};
    static QCoreApplication app(argc, argv);

    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    QByteArray bytes;
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
        bytes = input;
    } else {
        const QJsonDocument doc = QJsonDocument::fromJson(input);
        if (!doc.isObject()) {
            return 0;
        }
        bytes = wrapBody(doc.object());
    }
    const core::Result<core::Bundle> bundle = core::decodeBundle(bytes);
    if (!bundle) {
        if (bundle.error().message.isEmpty()) {
            std::fprintf(stderr, "decodeBundle failed without saying why\n");
            std::abort();
        }
        return 0;
    }
    const core::Result<core::Bundle> reread = core::decodeBundle(core::encodeBundle(*bundle));
    if (!reread) {
        std::fprintf(
            stderr, "a decoded bundle does not decode after encodeBundle: %s\n", qPrintable(reread.error().message));
        std::abort();
    }
    if (!(*reread == *bundle)) {
        std::fprintf(stderr, "a bundle changes on an encodeBundle/decodeBundle round trip\n");
        std::abort();
    }
    return 0;
}
