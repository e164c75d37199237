#pragma once

#include "models/core/domain/action.h"
#include "models/core/domain/ratecard.h"
#include "models/core/domain/records.h"
#include "models/core/planning/levelcaps.h"

#include <QDateTime>
#include <QHash>
#include <QObject>

#include <functional>
#include <optional>
#include <vector>

namespace strata::core {

class Estate;
class HistoryService;
class IClock;

/// Why a volume is flagged on the Service levels page.
enum class LevelFlag
{
    None,
    AtCap,   ///< observed p95 (or the latest sample) at >= 90 % of its cap: candidate to raise
    FarBelow ///< observed p95 below 20 % of its cap for a day, and a cheaper level exists: candidate to lower
};

QString levelFlagName(LevelFlag flag); ///< "", "at_cap", "far_below"

/// One volume as the Service levels page and `strata get service-levels` show it.
struct ServiceLevelRow
{
    QString source;
    SourceKind kind = SourceKind::Ontap;
    QString volumeId; ///< Volume::id (ANF fileSystemId, ONTAP uuid)
    QString volumeName;
    QString container; ///< ONTAP "svm"; ANF "account/pool"
    QString level;     ///< ANF service level; ONTAP QoS policy name, "" = none
    /// "16 MiB/s per TiB (auto QoS)", "manual QoS", "fixed: 500 MB/s (477 MiB/s), 5,000 IOPS" (ONTAP's
    /// base-ten figure quoted, then Strata's units),
    /// "adaptive: 4,096 peak IOPS/TB", "no QoS policy"
    QString levelDetail;
    bool adaptive = false;     ///< ONTAP adaptive policy
    qint64 sizeBytes = 0;      ///< ANF quota (usageThreshold); ONTAP volume size
    double capMibps = -1;      ///< throughput cap in MiB/s, -1 = none or not throughput-based
    double capIops = -1;       ///< IOPS cap (ONTAP fixed max IOPS or adaptive peak), -1 = none
    double observedMibps = -1; ///< latest observed throughput, -1 unknown
    double p95Mibps = -1;      ///< p95 of the last 24 h of samples, -1 until history has some
    /// How much of its cap the volume uses, in percent (0..100+), -1 unknown: the highest of
    /// p95 (else the latest) and the latest MiB/s over the MiB/s cap and the latest IOPS over the
    /// IOPS cap. The one figure the flag is derived from (AtCap at >= 90 %), so "at cap" always
    /// comes with the percentage that put it there.
    double capUsedPercent = -1;
    double costPerMonth = -1; ///< rate card price at the current level, -1 = no price
    LevelFlag flag = LevelFlag::None;
    QString flagReason;   ///< "p95 15.2 MiB/s of 15.6 MiB/s for the last day", empty when not flagged
    QDateTime lastChange; ///< UTC of the last successful level change (audit log), invalid = none

    bool operator==(const ServiceLevelRow &) const = default;
};

/// What changed in ServiceLevels::rows() since the previous update (ServiceLevels::rowsUpdated).
struct ServiceLevelUpdate
{
    /// Recomputed rows, sorted by source then name: new volumes and those whose inputs moved
    /// (a row may equal what was shown).
    QList<ServiceLevelRow> rows;
    QStringList removed; ///< "<source>/<volumeId>" of volumes gone
    /// `rows` holds every volume: any other row is gone (`removed` is then empty).
    bool complete = false;
};

/// A level the volume can be moved to, for the change dialog's choices.
struct LevelOption
{
    QString level;        ///< ANF level or ONTAP QoS policy name ("" = no policy)
    double capMibps = -1; ///< cap at that level
    double capIops = -1;
    double costPerMonth = -1; ///< the volume's cost at that level, -1 = no price
    QString pool;             ///< ANF: the pool Strata would move it to, empty = none fits
    bool poolExists = false;  ///< ANF: a pool of that level exists in the account
    bool poolHasRoom = false; ///< ANF: that pool has free size >= the volume's quota
    bool current = false;
};

/// One throughput sample for the observed-vs-cap chart.
struct ThroughputPoint
{
    QDateTime time;       ///< UTC
    double mibps = 0;     ///< observed
    double capMibps = -1; ///< the cap in force then, -1 unknown
};

/// The service-level view over the estate (ANF and ONTAP volumes): levels, caps, observed
/// throughput, flags, prices, and the shared part of a ServiceLevelChange preview. Owner (GUI)
/// thread; p95 figures and last-change times are refreshed from the history store in the
/// background and cached, so rows() and annotatePreview() do no I/O. Views follow
/// rowsUpdated(), which recomputes only the volumes a publish changed.
class ServiceLevels final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ServiceLevels)

public:
    /// `history` may be null (no p95, no cool-down from the audit log).
    ServiceLevels(Estate &estate, IClock &clock, HistoryService *history, QObject *parent = nullptr);
    ~ServiceLevels() override;

    void setRateCard(const RateCard &card);
    [[nodiscard]] const RateCard &rateCard() const { return m_rateCard; }

    /// Every volume of every source, sorted by source then name.
    [[nodiscard]] QList<ServiceLevelRow> rows() const;
    [[nodiscard]] std::optional<ServiceLevelRow> row(const QString &source, const QString &volumeId) const;
    /// What the volume can move to (ANF: the three levels; ONTAP: the SVM's QoS policies and
    /// "none"), current level included and marked.
    [[nodiscard]] QList<LevelOption> options(const QString &source, const QString &volumeId) const;

    /// Adds the common part of a ServiceLevelChange preview: cap before and after against the
    /// observed p95 of the last day, cost per month before and after, and the cool-down
    /// (blockedReason while it holds). Sources call it from their preview().
    void annotatePreview(const ActionRequest &request, ActionPreview *preview) const;

    /// Observed throughput and cap of one volume over [from, to] from the history store, delivered
    /// on `context`'s thread: empty without a history store, the store's error when it cannot be
    /// read (HistoryService::volumePerfHistory()).
    void throughputHistory(const QString &source,
                           const QString &volumeId,
                           const QDateTime &from,
                           const QDateTime &to,
                           QObject *context,
                           std::function<void(Result<std::vector<ThroughputPoint>>)> done) const;

    /// Re-reads p95 figures and last-change times now (also runs every 5 minutes).
    void refreshStatistics();
    /// A level change of the volume succeeded at `at` (UTC), so the cool-down holds at once,
    /// before the next statistics refresh reads it from the audit log. The Engine calls it.
    void noteLevelChange(const QString &source, const QString &volumeId, const QDateTime &at);

    /// Statistics refresh period.
    static constexpr int kRefreshSeconds = 300;
    /// Updates recomputing fewer rows than this run at once on the owner thread; larger ones
    /// (a poll of tens of thousands of volumes) on a worker thread.
    static constexpr int kInlineRows = 2000;

Q_SIGNALS:
    /// rows() changed (volumes, perf, pools, rate card or statistics). Emitted at once, before
    /// the matching rowsUpdated().
    void changed();
    /// The rows of the volumes whose inputs changed, recomputed: at once on the owner thread
    /// for fewer than kInlineRows, else on a worker thread and delivered on the owner thread
    /// later, one at a time and in order. Applying every update, in order, to rows() as read
    /// before the first gives rows() as of the last update's computation.
    void rowsUpdated(const strata::core::ServiceLevelUpdate &update);

private:
    void markVolume(const QString &source, const QString &volumeId);
    void markRemoved(const QString &key);
    void markAll();
    /// Recomputes what is marked: at once when small, else on the worker (queued, so the
    /// several publishes of one poll go together).
    void update();
    void flush();
    void applyComputed(QList<ServiceLevelRow> rows, QStringList removed, bool complete);

    struct Private;
    Estate &m_estate;
    IClock &m_clock;
    HistoryService *m_history;
    RateCard m_rateCard;
    std::unique_ptr<Private> d;
};

} // namespace strata::core
