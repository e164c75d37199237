#pragma once

#include <QDateTime>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

/// Strata's domain records: what every page, the CLI and the web API show. They are plain
/// values translated from connector DTOs inside strata::core (connector types never leak out),
/// keyed by a stable id that is unique within a source. Sizes are bytes; percentages 0..100.
namespace strata::core {

/// Kinds of system a source can connect to.
enum class SourceKind
{
    Ontap
};

QString sourceKindName(SourceKind kind); ///< "ontap"
std::optional<SourceKind> sourceKindFromName(const QString &name);

/// Health of one source, worst-of over its pollers.
enum class Health
{
    Unknown, ///< not polled yet
    Ok,
    Degraded,     ///< some polls fail or data is late, last good data shown as stale
    Unreachable,  ///< transport/TLS/timeout failures in a row
    AuthRequired, ///< credentials rejected or missing; polling paused until they change
};

QString healthName(Health health); ///< "ok", "degraded", "unreachable", "auth_required", "unknown"

/// Live state of a configured source (the Sources page, the CLI `get sources`).
struct SourceStatus
{
    QString name; ///< the source's unique name from the config, e.g. "ontap-ai"
    SourceKind kind = SourceKind::Ontap;
    QString url;
    Health health = Health::Unknown;
    bool stale = false;    ///< last successful data is older than expected, or the last poll failed
    QString lastError;     ///< empty when the last poll succeeded
    QDateTime lastSuccess; ///< UTC, invalid when never
    QDateTime lastAttempt; ///< UTC, invalid when never
    qint64 latencyMs = -1; ///< duration of the last successful poll, -1 when unknown
    QString systemName;    ///< cluster name reported by the system, may be empty
    QString systemVersion; ///< "9.14.1", may be empty
    int consecutiveFailures = 0;
    QDateTime nextPoll; ///< UTC, invalid when paused

    bool operator==(const SourceStatus &) const = default;
};

/// Storage volume (ONTAP FlexVol/FlexGroup/FlexCache). Key: the ONTAP volume uuid.
struct Volume
{
    QString source;
    QString id; ///< ONTAP uuid
    QString name;
    QString svm;
    QString aggregate; ///< first aggregate; FlexGroups span several
    int aggregateCount = 0;
    QString state; ///< "online", "offline", "restricted", "error", "mixed"
    QString style; ///< "flexvol", "flexgroup"
    QString type;  ///< "rw", "dp", "ls"
    bool isFlexCache = false;
    qint64 sizeBytes = 0;
    qint64 usedBytes = 0;
    qint64 availableBytes = 0;
    double percentUsed = 0; ///< 0..100
    int snapshotReservePercent = 0;
    qint64 snapshotUsedBytes = 0;
    int snapshotCount = 0;
    QString qosPolicy;   ///< empty when none
    QString cloneParent; ///< "volume@snapshot" for a FlexClone, else empty
    QString nasPath;     ///< junction path, empty when unmounted
    QDateTime created;   ///< UTC, may be invalid

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const Volume &) const = default;
};

/// Latest performance of a volume (polled separately, more often). Key: volume id.
struct VolumePerf
{
    QString source;
    QString id;     ///< volume uuid
    QDateTime time; ///< UTC sample time
    double readIops = 0, writeIops = 0, totalIops = 0;
    double throughputBps = 0; ///< bytes per second, total
    double latencyUs = 0;     ///< microseconds, total average

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const VolumePerf &) const = default;
};

/// A volume snapshot. Key: snapshot uuid.
struct Snapshot
{
    QString source;
    QString id; ///< ONTAP snapshot uuid
    QString volumeId;
    QString volumeName;
    QString svm;
    QString name;
    QDateTime created; ///< UTC
    QString comment;
    QString snapmirrorLabel;
    QString state;        ///< "valid", "invalid", "partial" or empty
    qint64 sizeBytes = 0; ///< 0 when the system does not report it

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const Snapshot &) const = default;
};

struct Svm
{
    QString source;
    QString id;
    QString name;
    QString state;

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const Svm &) const = default;
};

struct Aggregate
{
    QString source;
    QString id;
    QString name;
    QString node;
    QString state;
    qint64 sizeBytes = 0;
    qint64 usedBytes = 0;
    qint64 availableBytes = 0;

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const Aggregate &) const = default;
};

/// ONTAP QoS policy: the volume service level on ONTAP.
struct QosPolicy
{
    QString source;
    QString id;
    QString name;
    QString svm;
    bool adaptive = false;
    qint64 maxIops = 0; ///< fixed policies, 0 = unlimited
    qint64 maxMbps = 0; ///< fixed policies, MB/s, 0 = unlimited
    qint64 minIops = 0;
    qint64 expectedIopsPerTb = 0; ///< adaptive policies
    qint64 peakIopsPerTb = 0;     ///< adaptive policies
    int objectCount = 0;

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const QosPolicy &) const = default;
};

struct FlexCache
{
    QString source;
    QString id;
    QString name;
    QString svm;
    qint64 sizeBytes = 0;
    QString path;
    QString origin; ///< "cluster:svm:volume" of the first origin

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const FlexCache &) const = default;
};

/// An event reported by a system (ONTAP EMS). Key: "<node>/<index>".
struct Event
{
    QString source;
    QString id;
    QDateTime time;   ///< UTC
    QString severity; ///< "emergency", "alert", "error", "notice", "informational", "debug"
    QString name;     ///< message name, e.g. "wafl.vol.full"
    QString message;
    QString node;

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const Event &) const = default;
};

/// Formats bytes as "1.5 GiB" (binary units, one decimal).
QString formatBytes(qint64 bytes);

} // namespace strata::core

Q_DECLARE_METATYPE(strata::core::SourceStatus)
