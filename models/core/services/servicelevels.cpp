#include "models/core/services/servicelevels.h"

#include "models/core/domain/clock.h"
#include "models/core/domain/estate.h"
#include "models/core/domain/offthread.h"
#include "models/core/planning/reportformat.h"
#include "models/core/services/historyservice.h"

#include <QLocale>
#include <QLoggingCategory>
#include <QPointer>
#include <QRegularExpression>
#include <QSet>
#include <QThreadPool>

#include <algorithm>
#include <chrono>
#include <tuple>

namespace strata::core {

namespace {

Q_LOGGING_CATEGORY(lcServiceLevels, "strata.servicelevels", QtInfoMsg)

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kAtCapShare = 0.9;
constexpr double kFarBelowShare = 0.2;
constexpr qint64 kDaySeconds = 24 * 3600;
// A day of samples: the oldest one in the 24 h window may be up to one perf period younger.
constexpr qint64 kFullDaySeconds = kDaySeconds - 600;

QString key(const QString &source, const QString &volumeId)
{
    return source + QLatin1Char('/') + volumeId;
}

QLocale numbers()
{
    return QLocale(QLocale::English, QLocale::UnitedStates);
}

// A throughput held in MiB/s, with its unit (format.h), empty when unknown.
QString mibps(double value)
{
    return value < 0 ? QString() : formatRateMibps(value, numbers());
}

QString money(const RateCard &card, double amount)
{
    return formatMoney(amount, card.currency, numbers());
}

// Everything a row reads besides its volume, copied on the owner thread (pointers to the
// immutable published lists, implicitly shared hashes), so rows can be computed on any thread.
struct LevelInputs
{
    QHash<QString, std::shared_ptr<const KeyedList<VolumePerf>>> perf; ///< by source
    QHash<QString, std::shared_ptr<const KeyedList<QosPolicy>>> qos;   ///< by source
    QHash<QString, std::shared_ptr<const KeyedList<CapacityPool>>> pools;
    QHash<QString, VolumePerfStats> stats;
    QHash<QString, QDateTime> lastChange;
    RateCard rateCard;
    QDateTime now;

    void addSource(const Estate &estate, const QString &source)
    {
        if (!perf.contains(source)) {
            perf.insert(source, estate.volumePerf().scope(source));
            qos.insert(source, estate.qosPolicies().scope(source));
            pools.insert(source, estate.capacityPools().scope(source));
        }
    }
};

QList<LevelOption> levelOptionsOf(const Volume &v, const LevelInputs &in)
{
    QList<LevelOption> out;
    const RateCard &card = in.rateCard;
    if (v.isAnf()) {
        const auto pools = in.pools.value(v.source);
        for (const QString &level : anfServiceLevels()) {
            LevelOption o;
            o.level = level;
            o.current = level == v.serviceLevel;
            o.capMibps = o.current ? levelCapOfVolume(v, nullptr).mibps : anfAutoQosMibps(level, v.sizeBytes);
            o.costPerMonth = card.anfMonthly(level, v.sizeBytes);
            if (o.current) {
                o.pool = v.aggregate;
                o.poolExists = true;
                o.poolHasRoom = true;
            } else if (pools) {
                qint64 bestFree = -1;
                for (const Ptr<CapacityPool> &p : pools->items()) {
                    if (p->account != v.svm || p->serviceLevel != level) {
                        continue;
                    }
                    o.poolExists = true;
                    const qint64 free = p->sizeBytes - p->allocatedBytes;
                    if (free >= v.sizeBytes && free > bestFree) {
                        bestFree = free;
                        o.pool = p->name;
                        o.poolHasRoom = true;
                    }
                }
            }
            out.append(o);
        }
        return out;
    }
    const auto policies = in.qos.value(v.source);
    QStringList seen;
    if (policies) {
        for (const Ptr<QosPolicy> &p : policies->items()) {
            if ((p->svm != v.svm && !p->svm.isEmpty()) || seen.contains(p->name)) {
                continue;
            }
            seen << p->name;
            const LevelCap cap = levelCapOfPolicy(p.get(), v.sizeBytes);
            LevelOption o;
            o.level = p->name;
            o.capMibps = cap.mibps;
            o.capIops = cap.iops;
            o.costPerMonth = card.ontapMonthly(p->name, v.sizeBytes);
            o.current = p->name == v.qosPolicy;
            out.append(o);
        }
    }
    std::sort(out.begin(), out.end(), [](const LevelOption &a, const LevelOption &b) {
        return a.level < b.level;
    });
    LevelOption none;
    none.costPerMonth = card.ontapMonthly(QString(), v.sizeBytes);
    none.current = v.qosPolicy.isEmpty();
    out.prepend(none);
    return out;
}

ServiceLevelRow levelRowOf(const Volume &v, const LevelInputs &in)
{
    const QString volumeKey = key(v.source, v.id);
    ServiceLevelRow r;
    r.source = v.source;
    r.kind = v.isAnf() ? SourceKind::Azure : SourceKind::Ontap;
    r.volumeId = v.id;
    r.volumeName = v.name;
    r.container = v.isAnf() ? v.svm + QLatin1Char('/') + v.aggregate : v.svm;
    r.level = v.isAnf() ? v.serviceLevel : v.qosPolicy;
    const LevelCap cap = levelCapOfVolume(v, in.qos.value(v.source).get());
    r.levelDetail = cap.detail;
    r.adaptive = cap.adaptive;
    r.sizeBytes = v.sizeBytes;
    r.capMibps = cap.mibps;
    r.capIops = cap.iops;
    double observedIops = -1;
    if (const auto perfList = in.perf.value(v.source)) {
        if (const Ptr<VolumePerf> perf = perfList->find(volumeKey)) {
            r.observedMibps = perf->throughputBps / kMiB;
            observedIops = perf->totalIops;
        }
    }
    const auto stats = in.stats.constFind(volumeKey);
    const bool hasStats = stats != in.stats.cend() && stats->samples > 0;
    if (hasStats) {
        r.p95Mibps = stats->p95ThroughputBps / kMiB;
    }
    r.costPerMonth = v.isAnf() ? in.rateCard.anfMonthly(v.serviceLevel, v.sizeBytes)
                               : in.rateCard.ontapMonthly(r.level, v.sizeBytes);
    r.lastChange = in.lastChange.value(volumeKey);

    // Cap use: each basis as a share of its cap; the highest is the figure shown and flagged.
    const double p95Use = r.capMibps > 0 && r.p95Mibps >= 0 ? r.p95Mibps / r.capMibps : -1;
    const double nowUse = r.capMibps > 0 && r.observedMibps >= 0 ? r.observedMibps / r.capMibps : -1;
    const double iopsUse = r.capIops > 0 && observedIops >= 0 ? observedIops / r.capIops : -1;
    const double use = std::max({p95Use, nowUse, iopsUse});
    r.capUsedPercent = use < 0 ? -1 : use * 100.0;
    if (p95Use >= kAtCapShare) {
        r.flag = LevelFlag::AtCap;
        r.flagReason = ServiceLevels::tr("p95 %1 of %2 for the last day").arg(mibps(r.p95Mibps), mibps(r.capMibps));
    } else if (nowUse >= kAtCapShare) {
        r.flag = LevelFlag::AtCap;
        r.flagReason = ServiceLevels::tr("now %1 of %2").arg(mibps(r.observedMibps), mibps(r.capMibps));
    } else if (iopsUse >= kAtCapShare) {
        r.flag = LevelFlag::AtCap;
        r.flagReason = ServiceLevels::tr("now %1 of %2 IOPS")
                           .arg(numbers().toString(qRound64(observedIops)), numbers().toString(qRound64(r.capIops)));
    } else if (r.capMibps > 0 && hasStats && r.p95Mibps < kFarBelowShare * r.capMibps
               && stats->first.secsTo(in.now) >= kFullDaySeconds) {
        // Only worth flagging when a cheaper level exists to move to.
        QString cheaper;
        for (const LevelOption &o : levelOptionsOf(v, in)) {
            if (o.current) {
                continue;
            }
            const bool priced = o.costPerMonth >= 0 && r.costPerMonth >= 0;
            if ((priced && o.costPerMonth < r.costPerMonth) || (!priced && o.capMibps > 0 && o.capMibps < r.capMibps)) {
                cheaper = o.level.isEmpty() ? ServiceLevels::tr("no QoS policy") : o.level;
                break;
            }
        }
        if (!cheaper.isEmpty()) {
            r.flag = LevelFlag::FarBelow;
            r.flagReason = ServiceLevels::tr("p95 %1 of %2 for the last day; %3 costs less")
                               .arg(mibps(r.p95Mibps), mibps(r.capMibps), cheaper);
        }
    }
    return r;
}

// Rows of `volumes`, sorted by source then name (then id). Any thread.
QList<ServiceLevelRow> levelRowsOf(const std::vector<Ptr<Volume>> &volumes, const LevelInputs &in)
{
    QList<ServiceLevelRow> out;
    out.reserve(qsizetype(volumes.size()));
    for (const Ptr<Volume> &v : volumes) {
        out.append(levelRowOf(*v, in));
    }
    std::sort(out.begin(), out.end(), [](const ServiceLevelRow &a, const ServiceLevelRow &b) {
        return std::tie(a.source, a.volumeName, a.volumeId) < std::tie(b.source, b.volumeName, b.volumeId);
    });
    return out;
}

} // namespace

QString levelFlagName(LevelFlag flag)
{
    switch (flag) {
    case LevelFlag::None:
        return {};
    case LevelFlag::AtCap:
        return QStringLiteral("at_cap");
    case LevelFlag::FarBelow:
        return QStringLiteral("far_below");
    }
    return {};
}

struct ServiceLevels::Private
{
    QHash<QString, VolumePerfStats> stats; ///< "source/volumeId" -> last 24 h
    QHash<QString, QDateTime> lastChange;  ///< "source/volumeId" -> UTC
    IClock::TimerId timer = 0;
    quint64 generation = 0;
    QDateTime lastRefresh;           ///< clock time of the last statistics query
    bool refreshedSincePerf = false; ///< a query ran after performance samples arrived
    bool perfRefreshQueued = false;

    // What rowsUpdated() has yet to recompute: volumes by "source/volumeId" -> (source, id),
    // volumes gone, or everything.
    QHash<QString, std::pair<QString, QString>> dirty;
    QSet<QString> removed;
    bool allDirty = false;
    bool flushQueued = false;
    bool computing = false; ///< an update is under way on the worker
    /// A row's far-below flag waits for a day of samples: when the next one may turn (UTC),
    /// and until when the volumes whose day completed were marked (only update() moves it, so
    /// each completed day is marked once).
    QDateTime nextFlagDue;
    QDateTime flagCheckedAt;
    /// The QoS policies each source's rows were computed with: a republished inventory whose
    /// policies did not change (aggregates filling) leaves the rows alone.
    QHash<QString, std::shared_ptr<const KeyedList<QosPolicy>>> policiesSeen;
    QThreadPool pool;

    Private() { pool.setMaxThreadCount(1); }
};

namespace {

// The soonest moment after `after` (invalid: any) when a volume's day of samples completes, so
// its far-below flag may turn; invalid when there is none.
QDateTime nextFarBelowDue(const QHash<QString, VolumePerfStats> &stats, const QDateTime &after)
{
    QDateTime next;
    for (const VolumePerfStats &s : stats) {
        if (s.samples <= 0 || !s.first.isValid()) {
            continue;
        }
        const QDateTime due = s.first.addSecs(kFullDaySeconds);
        if ((!after.isValid() || due > after) && (!next.isValid() || due < next)) {
            next = due;
        }
    }
    return next;
}

} // namespace

ServiceLevels::ServiceLevels(Estate &estate, IClock &clock, HistoryService *history, QObject *parent)
    : QObject(parent)
    , m_estate(estate)
    , m_clock(clock)
    , m_history(history)
    , m_rateCard(RateCard::defaults())
    , d(std::make_unique<Private>())
{
    // A publish touching thousands of volumes is recomputed whole (on the worker): cheaper than
    // noting each, and the view matches a complete update by position.
    const auto many = [](const auto &diff) {
        return diff.added.size() + diff.changed.size() >= std::size_t(kInlineRows);
    };
    connect(&m_estate, &Estate::volumesChanged, this, [this, many](const VolumeDiff &diff) {
        if (many(diff)) {
            markAll();
        }
        for (const auto *list : {&diff.added, &diff.changed}) {
            for (const Ptr<Volume> &v : *list) {
                markVolume(v->source, v->id);
            }
        }
        for (const QString &gone : diff.removed) {
            markRemoved(gone);
        }
        Q_EMIT changed();
        update();
    });
    connect(&m_estate, &Estate::volumePerfChanged, this, [this, many](const VolumePerfDiff &diff) {
        if (many(diff)) {
            markAll();
        }
        for (const auto *list : {&diff.added, &diff.changed}) {
            for (const Ptr<VolumePerf> &p : *list) {
                markVolume(p->source, p->id);
            }
        }
        for (const QString &gone : diff.removed) {
            // The volume may stay without its sample: find its source among the volumes'.
            for (const QString &source : m_estate.volumes().scopes()) {
                if (gone.startsWith(source + QLatin1Char('/'))) {
                    markVolume(source, gone.mid(source.size() + 1));
                }
            }
        }
        Q_EMIT changed();
        update();
    });
    // New samples reach the history store right after they reach the estate: read the 24 h
    // statistics again then (queued, so the store's write comes first) instead of showing "no
    // history" until the periodic refresh, so a preview here says what `strata set
    // service-level --dry-run` says from the same store.
    connect(&m_estate, &Estate::volumePerfChanged, this, [this] {
        const bool stale =
            !d->refreshedSincePerf || !d->lastRefresh.isValid() || d->lastRefresh.secsTo(m_clock.now()) >= 60;
        if (!stale || d->perfRefreshQueued) {
            return;
        }
        d->perfRefreshQueued = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                d->perfRefreshQueued = false;
                d->refreshedSincePerf = true;
                refreshStatistics();
            },
            Qt::QueuedConnection);
    });
    connect(&m_estate, &Estate::capacityPoolsChanged, this, [this] {
        markAll();
        Q_EMIT changed();
        update();
    });
    connect(&m_estate, &Estate::inventoryChanged, this, [this](const QString &source) {
        const auto policies = m_estate.qosPolicies().scope(source);
        const auto seen = d->policiesSeen.constFind(source);
        const bool samePolicies = seen != d->policiesSeen.cend() && policies && *seen
                                  && (*seen == policies || diffOf(seen->get(), *policies).isEmpty());
        d->policiesSeen.insert(source, policies);
        if (!samePolicies) {
            markAll();
        }
        Q_EMIT changed();
        update();
    });
    refreshStatistics();
}

ServiceLevels::~ServiceLevels()
{
    if (d->timer) {
        m_clock.cancel(d->timer);
    }
}

void ServiceLevels::setRateCard(const RateCard &card)
{
    if (card == m_rateCard) {
        return;
    }
    m_rateCard = card;
    markAll();
    Q_EMIT changed();
    update();
}

QList<ServiceLevelRow> ServiceLevels::rows() const
{
    LevelInputs in;
    in.stats = d->stats;
    in.lastChange = d->lastChange;
    in.rateCard = m_rateCard;
    in.now = m_clock.now();
    for (const QString &source : m_estate.volumes().scopes()) {
        in.addSource(m_estate, source);
    }
    return levelRowsOf(m_estate.volumes().all(), in);
}

std::optional<ServiceLevelRow> ServiceLevels::row(const QString &source, const QString &volumeId) const
{
    const Ptr<Volume> v = m_estate.volume(source, volumeId);
    if (!v) {
        return std::nullopt;
    }
    LevelInputs in;
    in.stats = d->stats;
    in.lastChange = d->lastChange;
    in.rateCard = m_rateCard;
    in.now = m_clock.now();
    in.addSource(m_estate, source);
    return levelRowOf(*v, in);
}

QList<LevelOption> ServiceLevels::options(const QString &source, const QString &volumeId) const
{
    const Ptr<Volume> v = m_estate.volume(source, volumeId);
    if (!v) {
        return {};
    }
    LevelInputs in;
    in.rateCard = m_rateCard;
    in.addSource(m_estate, source);
    return levelOptionsOf(*v, in);
}

void ServiceLevels::markVolume(const QString &source, const QString &volumeId)
{
    if (d->allDirty) {
        return;
    }
    const QString k = key(source, volumeId);
    d->removed.remove(k);
    d->dirty.insert(k, {source, volumeId});
}

void ServiceLevels::markRemoved(const QString &k)
{
    if (d->allDirty) {
        return;
    }
    d->dirty.remove(k);
    d->removed.insert(k);
}

void ServiceLevels::markAll()
{
    d->allDirty = true;
    d->dirty.clear();
    d->removed.clear();
}

void ServiceLevels::update()
{
    const QDateTime now = m_clock.now();
    if (d->nextFlagDue.isValid() && now >= d->nextFlagDue) {
        // Volumes whose day of samples completed since the last check: their far-below flag may turn.
        for (const VolumePerfStats &s : std::as_const(d->stats)) {
            const QDateTime due = s.first.addSecs(kFullDaySeconds);
            if (s.samples > 0 && s.first.isValid() && due <= now
                && (!d->flagCheckedAt.isValid() || due > d->flagCheckedAt)) {
                markVolume(s.source, s.volumeId);
            }
        }
        d->flagCheckedAt = now;
        d->nextFlagDue = nextFarBelowDue(d->stats, now);
    }
    if (d->computing || d->flushQueued || (!d->allDirty && d->dirty.isEmpty() && d->removed.isEmpty())) {
        return;
    }
    qsizetype pending = d->dirty.size();
    if (d->allDirty) {
        for (const QString &source : m_estate.volumes().scopes()) {
            pending += qsizetype(m_estate.volumes().scope(source)->size());
        }
    }
    if (pending < kInlineRows) {
        flush();
        return;
    }
    d->flushQueued = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            d->flushQueued = false;
            flush();
        },
        Qt::QueuedConnection);
}

void ServiceLevels::flush()
{
    if (d->computing) {
        return;
    }
    const bool complete = d->allDirty;
    std::vector<Ptr<Volume>> volumes;
    QStringList removed;
    LevelInputs in;
    if (complete) {
        volumes = m_estate.volumes().all();
        for (const QString &source : m_estate.volumes().scopes()) {
            in.addSource(m_estate, source);
        }
    } else {
        volumes.reserve(std::size_t(d->dirty.size()));
        for (auto it = d->dirty.cbegin(); it != d->dirty.cend(); ++it) {
            if (Ptr<Volume> v = m_estate.volume(it->first, it->second)) {
                in.addSource(m_estate, v->source);
                volumes.push_back(std::move(v));
            } else {
                removed << it.key();
            }
        }
        for (const QString &k : std::as_const(d->removed)) {
            removed << k;
        }
    }
    d->allDirty = false;
    d->dirty.clear();
    d->removed.clear();
    if (volumes.empty() && removed.isEmpty() && !complete) {
        return;
    }
    in.stats = d->stats;
    in.lastChange = d->lastChange;
    in.rateCard = m_rateCard;
    in.now = m_clock.now();
    if (volumes.size() < std::size_t(kInlineRows)) {
        applyComputed(levelRowsOf(volumes, in), std::move(removed), complete);
        return;
    }
    d->computing = true;
    runOffThread(
        d->pool,
        this,
        [volumes = std::move(volumes), in = std::move(in)] {
            return levelRowsOf(volumes, in);
        },
        [this, removed = std::move(removed), complete](QList<ServiceLevelRow> rows) {
            d->computing = false;
            applyComputed(std::move(rows), removed, complete);
            // What arrived meanwhile.
            update();
        });
}

void ServiceLevels::applyComputed(QList<ServiceLevelRow> rows, QStringList removed, bool complete)
{
    ServiceLevelUpdate u;
    u.rows = std::move(rows);
    u.removed = std::move(removed);
    u.complete = complete;
    if (complete) {
        u.removed.clear();
    }
    Q_EMIT rowsUpdated(u);
}

void ServiceLevels::annotatePreview(const ActionRequest &request, ActionPreview *preview) const
{
    if (!preview || request.kind != ActionKind::ServiceLevelChange) {
        return;
    }
    const std::optional<ServiceLevelRow> r = row(request.source, request.volumeId);
    if (!r) {
        return;
    }
    const bool anf = r->kind == SourceKind::Azure;
    const auto levelText = [anf](const QString &level) {
        return level.isEmpty() && !anf ? tr("no QoS policy") : level;
    };
    if (volumeIdFromAuditTarget(preview->target).isEmpty()) {
        const QString label =
            preview->target.isEmpty() ? r->container + QLatin1Char('/') + r->volumeName : preview->target;
        preview->target = serviceLevelAuditTarget(label, r->volumeId);
    }
    if (preview->fromState.isEmpty()) {
        preview->fromState = levelText(r->level);
    }
    if (preview->toState.isEmpty()) {
        preview->toState = levelText(request.targetLevel);
    }

    std::optional<LevelOption> target;
    for (const LevelOption &o : options(request.source, request.volumeId)) {
        if (o.level == request.targetLevel) {
            target = o;
        }
    }
    const QString observed = r->p95Mibps >= 0 ? tr("observed p95 over the last 24 h: %1").arg(mibps(r->p95Mibps))
                                              : tr("no observed throughput history yet");
    if (target) {
        const auto capText = [](double cap) {
            return cap > 0 ? mibps(cap) : tr("none");
        };
        if (r->capMibps > 0 || target->capMibps > 0) {
            preview->effects
                << tr("Throughput cap %1 → %2 (%3)").arg(capText(r->capMibps), capText(target->capMibps), observed);
        }
        if (r->capIops > 0 || target->capIops > 0) {
            const auto iopsText = [](double iops) {
                return iops > 0 ? numbers().toString(qRound64(iops)) : tr("none");
            };
            preview->effects << tr("IOPS cap %1 → %2").arg(iopsText(r->capIops), iopsText(target->capIops));
        }
        if (target->capMibps > 0 && r->p95Mibps >= kAtCapShare * target->capMibps) {
            preview->warnings << tr("The new cap is at or below what the volume used (p95 %1): it will be "
                                    "throttled.")
                                     .arg(mibps(r->p95Mibps));
        }
        if (r->costPerMonth >= 0 || target->costPerMonth >= 0) {
            const auto costText = [this](double cost) {
                return cost >= 0 ? money(m_rateCard, cost) : tr("no price");
            };
            preview->effects << tr("Cost per month %1 → %2 (rate card)")
                                    .arg(costText(r->costPerMonth), costText(target->costPerMonth));
        }
    }

    const int coolDown = m_rateCard.coolDownMinutes;
    if (coolDown > 0 && r->lastChange.isValid() && preview->blockedReason.isEmpty()) {
        const QDateTime now = m_clock.now();
        const QDateTime allowed = r->lastChange.addSecs(qint64(coolDown) * 60);
        if (now < allowed) {
            const qint64 ago = std::max<qint64>(0, r->lastChange.secsTo(now) / 60);
            preview->blockedReason = tr("%1 was changed %2 min ago; the rate card's cool-down is %3 min: possible "
                                        "from %4 UTC.")
                                         .arg(r->volumeName)
                                         .arg(ago)
                                         .arg(coolDown)
                                         .arg(allowed.toUTC().toString(QStringLiteral("HH:mm")));
        }
    }
}

void ServiceLevels::throughputHistory(const QString &source,
                                      const QString &volumeId,
                                      const QDateTime &from,
                                      const QDateTime &to,
                                      QObject *context,
                                      std::function<void(Result<std::vector<ThroughputPoint>>)> done) const
{
    if (!m_history) {
        QMetaObject::invokeMethod(
            context,
            [done] {
                done(std::vector<ThroughputPoint>{});
            },
            Qt::QueuedConnection);
        return;
    }
    m_history->volumePerfHistory(
        source, volumeId, from, to, context, [done](const Result<std::vector<VolumePerfSample>> &samples) {
            if (!samples) {
                done(fail(samples.error()));
                return;
            }
            std::vector<ThroughputPoint> points;
            points.reserve(samples->size());
            for (const VolumePerfSample &s : *samples) {
                points.push_back(ThroughputPoint{s.time, s.throughputBps / kMiB, s.capBps < 0 ? -1 : s.capBps / kMiB});
            }
            done(std::move(points));
        });
}

void ServiceLevels::refreshStatistics()
{
    if (d->timer) {
        m_clock.cancel(d->timer);
    }
    d->timer = m_clock.callAfter(std::chrono::seconds(kRefreshSeconds), this, [this] {
        d->timer = 0;
        refreshStatistics();
    });
    if (!m_history) {
        return;
    }
    const quint64 generation = ++d->generation;
    const QDateTime now = m_clock.now();
    d->lastRefresh = now;
    m_history->volumePerfStats(
        now.addSecs(-kDaySeconds), now, this, [this, generation](Result<std::vector<VolumePerfStats>> read) {
            if (generation != d->generation) {
                return;
            }
            if (!read) {
                // The p95 figures of the last read stay: a failed read is not a day without I/O.
                qCWarning(lcServiceLevels).noquote() << "cannot read volume performance:" << read.error().message;
                return;
            }
            std::vector<VolumePerfStats> stats = std::move(read).value();
            QHash<QString, VolumePerfStats> next;
            next.reserve(qsizetype(stats.size()));
            for (VolumePerfStats &s : stats) {
                const QString k = key(s.source, s.volumeId);
                const auto before = d->stats.constFind(k);
                if (before == d->stats.cend() || !(*before == s)) {
                    markVolume(s.source, s.volumeId);
                }
                next.insert(k, std::move(s));
            }
            for (const VolumePerfStats &s : std::as_const(d->stats)) {
                if (!next.contains(key(s.source, s.volumeId))) {
                    markVolume(s.source, s.volumeId);
                }
            }
            d->stats = std::move(next);
            d->nextFlagDue = nextFarBelowDue(d->stats, d->flagCheckedAt);
            Q_EMIT changed();
            update();
        });
    // The cool-down needs the last change; a month back also serves the "last change" column.
    m_history->auditLogOfKind(actionKindName(ActionKind::ServiceLevelChange),
                              now.addDays(-31),
                              this,
                              [this, generation](const Result<std::vector<AuditEntry>> &entries) {
                                  if (generation != d->generation) {
                                      return;
                                  }
                                  if (!entries) {
                                      // The next refresh reads it again; the last changes known stay.
                                      qCWarning(lcServiceLevels).noquote()
                                          << "cannot read the service-level changes:" << entries.error().message;
                                      return;
                                  }
                                  for (const AuditEntry &e : *entries) {
                                      if (e.outcome != QLatin1String("succeeded")
                                          && e.outcome != QLatin1String("reconciled")) {
                                          continue;
                                      }
                                      const QString id = volumeIdFromAuditTarget(e.target);
                                      if (id.isEmpty()) {
                                          continue;
                                      }
                                      QDateTime &last = d->lastChange[key(e.source, id)];
                                      if (!last.isValid() || e.time > last) {
                                          last = e.time;
                                          markVolume(e.source, id);
                                      }
                                  }
                                  Q_EMIT changed();
                                  update();
                              });
}

void ServiceLevels::noteLevelChange(const QString &source, const QString &volumeId, const QDateTime &at)
{
    QDateTime &last = d->lastChange[key(source, volumeId)];
    if (!last.isValid() || at > last) {
        last = at;
        markVolume(source, volumeId);
        Q_EMIT changed();
        update();
    }
}

} // namespace strata::core
