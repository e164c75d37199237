#include "simulators/azure/azuremodel.h"

#include <QCryptographicHash>
#include <QUrl>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace strata::sim::azure {

double mibpsPerTiB(const QString &serviceLevel)
{
    const QString level = canonicalLevel(serviceLevel);
    if (level == QLatin1String("Standard")) {
        return 16;
    }
    if (level == QLatin1String("Premium")) {
        return 64;
    }
    if (level == QLatin1String("Ultra")) {
        return 128;
    }
    return 0;
}

QString canonicalLevel(const QString &serviceLevel)
{
    for (const char *level : {"Standard", "Premium", "Ultra"}) {
        if (same(serviceLevel, QLatin1String(level))) {
            return QLatin1String(level);
        }
    }
    return {};
}

QString isoTime(qint64 ms, bool fraction)
{
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
    if (!fraction) {
        return t.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ssZ"));
    }
    return t.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz")) + QStringLiteral("0000Z");
}

QString etagFor(qint64 ms)
{
    return QStringLiteral("W/\"datetime'%1'\"").arg(QString::fromLatin1(QUrl::toPercentEncoding(isoTime(ms, true))));
}

std::uint64_t Rng::next()
{
    std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

QString Rng::uuid()
{
    const std::uint64_t a = next();
    const std::uint64_t b = next();
    QByteArray raw(16, '\0');
    for (int i = 0; i < 8; ++i) {
        raw[i] = char((a >> (8 * i)) & 0xff);
        raw[8 + i] = char((b >> (8 * i)) & 0xff);
    }
    raw[6] = char((raw[6] & 0x0f) | 0x40);
    raw[8] = char((raw[8] & 0x3f) | 0x80);
    const QString hex = QString::fromLatin1(raw.toHex());
    return hex.mid(0, 8) + QLatin1Char('-') + hex.mid(8, 4) + QLatin1Char('-') + hex.mid(12, 4) + QLatin1Char('-')
           + hex.mid(16, 4) + QLatin1Char('-') + hex.mid(20, 12);
}

double noise(std::uint64_t seed, const QString &key, qint64 bucket, int salt)
{
    QCryptographicHash h(QCryptographicHash::Sha1);
    h.addData(QByteArray::number(quint64(seed)));
    h.addData(key.toUtf8());
    h.addData(QByteArray::number(bucket));
    h.addData(QByteArray::number(salt));
    const QByteArray d = h.result();
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) {
        v = (v << 8) | std::uint8_t(d[i]);
    }
    return double(v >> 11) / double(std::uint64_t(1) << 53);
}

double Volume::capAt(qint64 ms) const
{
    if (capHistory.empty()) {
        return throughputMibps;
    }
    double cap = capHistory.front().second;
    for (const auto &[from, value] : capHistory) {
        if (from <= ms) {
            cap = value;
        }
    }
    return cap;
}

LoadSample sampleLoad(const Volume &volume, std::uint64_t seed, qint64 bucketStartMs)
{
    constexpr double MiB = 1024.0 * 1024.0;
    constexpr double DayMs = 86400000.0;
    const qint64 bucket = bucketStartMs / 300000;
    const double cycle = 1.0 + 0.25 * std::sin(2 * std::numbers::pi * double(bucketStartMs) / DayMs + volume.phase);
    const double jitter = 0.9 + 0.2 * noise(seed, volume.fileSystemId, bucket, 1);
    const double demand = volume.demandMibps * cycle * jitter;
    const double cap = volume.capAt(bucketStartMs);
    const bool throttled = cap > 0 && demand >= cap;
    // A throttled volume runs just under its cap, as ANF's QoS shapes it.
    const double total = throttled ? cap * (0.985 + 0.013 * noise(seed, volume.fileSystemId, bucket, 2)) : demand;

    LoadSample s;
    s.readBps = total * volume.readFraction * MiB;
    s.writeBps = total * (1 - volume.readFraction) * MiB;
    const double ioBytes = volume.ioKiB * 1024.0;
    s.readIops = s.readBps / ioBytes;
    s.writeIops = s.writeBps / ioBytes;
    const double base = 0.45 + 0.3 * noise(seed, volume.fileSystemId, bucket, 3);
    s.readLatencyMs = throttled ? 4.0 + 4.0 * noise(seed, volume.fileSystemId, bucket, 4) : base;
    s.writeLatencyMs = s.readLatencyMs * 1.4;
    const double days = std::max(0.0, double(bucketStartMs - volume.createdMs) / DayMs);
    const double used = std::min(0.98, volume.usedFraction + 0.002 * days);
    s.logicalSizeBytes = std::floor(double(volume.usageThreshold) * used);
    return s;
}

} // namespace strata::sim::azure
