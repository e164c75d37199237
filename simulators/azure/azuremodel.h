#pragma once

// Internal to the Azure simulator: the in-memory estate (NetApp accounts, capacity pools, volumes,
// snapshots, AKS clusters), its ARM JSON form and the volume load model behind the metrics.

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace strata::sim::azure {

constexpr qint64 GiB = qint64(1) << 30;
constexpr qint64 TiB = qint64(1) << 40;

/// Case-insensitive equality, as ARM compares resource names and path segments.
inline bool same(const QString &a, const QString &b)
{
    return a.compare(b, Qt::CaseInsensitive) == 0;
}

/// Auto-QoS throughput of a service level, MiB/s per TiB of quota (0 for unknown levels).
double mibpsPerTiB(const QString &serviceLevel);
/// "Standard"/"Premium"/"Ultra" in their canonical spelling, or empty for anything else.
QString canonicalLevel(const QString &serviceLevel);
/// ARM ETag: W/"datetime'2026-11-22T10%3A00%3A00.1234567Z'".
QString etagFor(qint64 ms);
/// ISO 8601 UTC with seconds ("2026-11-22T10:00:00Z") or 7 fractional digits (ARM style).
QString isoTime(qint64 ms, bool fraction = false);

/// Deterministic pseudo-random numbers (splitmix64).
class Rng
{
public:
    explicit Rng(std::uint64_t seed)
        : m_state(seed)
    {}
    std::uint64_t next();
    QString uuid();

private:
    std::uint64_t m_state;
};
/// Stable hash of the inputs to [0, 1).
double noise(std::uint64_t seed, const QString &key, qint64 bucket, int salt);

struct Snapshot
{
    QString name;
    QString snapshotId; ///< uuid
    qint64 createdMs = 0;
    QString provisioningState = QStringLiteral("Succeeded");
};

struct Volume
{
    QString resourceGroup, account, pool, name;
    QString location;
    QString fileSystemId;
    QString creationToken;
    qint64 usageThreshold = 100 * GiB;
    QString serviceLevel;
    double throughputMibps = 0;
    QStringList protocolTypes{QStringLiteral("NFSv3")};
    QString mountIp;
    QString subnetId;
    QString networkSiblingSetId;
    QString provisioningState = QStringLiteral("Succeeded");
    qint64 createdMs = 0;
    qint64 modifiedMs = 0;
    std::vector<Snapshot> snapshots;

    // Load model.
    double demandMibps = 2;    ///< mean total demand (read + write), MiB/s
    double readFraction = 0.8; ///< share of reads in throughput and IOPS
    double ioKiB = 64;         ///< mean I/O size
    double usedFraction = 0.5; ///< logical size / quota at creation
    double phase = 0;          ///< daily cycle offset, radians
    /// Throughput cap in force from a time on: (fromMs, MiB/s), ascending; the first applies
    /// to all earlier times too.
    std::vector<std::pair<qint64, double>> capHistory;

    [[nodiscard]] double capAt(qint64 ms) const;
};

struct Pool
{
    QString resourceGroup, account, name;
    QString location;
    QString poolId;
    QString serviceLevel;
    qint64 size = 4 * TiB;
    QString qosType = QStringLiteral("Auto");
    QString provisioningState = QStringLiteral("Succeeded");
    qint64 modifiedMs = 0;
};

struct Account
{
    QString resourceGroup, name;
    QString location;
    QString provisioningState = QStringLiteral("Succeeded");
    qint64 modifiedMs = 0;
};

struct AgentPool
{
    QString name;
    int count = 1;
    QString vmSize;
    QString mode; ///< System or User
    int maxPods = 30;
    QStringList nodeTaints;
};

struct ManagedCluster
{
    QString resourceGroup, name;
    QString location;
    /// The Kubernetes simulator behind the demo's aks-gpu serves /version v1.32.4 (a real
    /// release: Kubernetes CHANGELOG-1.32), so ARM reports the same version for it.
    QString kubernetesVersion = QStringLiteral("1.32.4");
    QString dnsPrefix;
    QString fqdn;
    std::vector<AgentPool> agentPools;
    qint64 modifiedMs = 0;
};

/// One sample of the load model for a PT5M bucket.
struct LoadSample
{
    double readBps = 0, writeBps = 0;
    double readIops = 0, writeIops = 0;
    double readLatencyMs = 0, writeLatencyMs = 0;
    double logicalSizeBytes = 0;
};

/// The load model: demand follows a daily cycle with per-bucket noise; observed throughput is
/// min(demand, the cap in force at that time); latency rises when throttled at the cap.
LoadSample sampleLoad(const Volume &volume, std::uint64_t seed, qint64 bucketStartMs);

} // namespace strata::sim::azure
