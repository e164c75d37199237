#include "models/core/servicelevels.h"

#include "models/core/clock.h"
#include "models/core/estate.h"
#include "models/core/historyservice.h"

#include <QLocale>
#include <QPointer>
#include <QRegularExpression>

#include <algorithm>
#include <chrono>

namespace strata::core {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kTiB = 1024.0 * 1024.0 * 1024.0 * 1024.0;
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
    const QString text = numbers().toString(amount, 'f', 2);
    if (card.currency == QLatin1String("USD")) {
        return QStringLiteral("$") + text;
    }
    return text + QLatin1Char(' ') + card.currency;
}

Ptr<QosPolicy> findPolicy(const Estate &estate, const QString &source, const QString &svm, const QString &name)
{
    const auto policies = estate.qosPolicies().scope(source);
    if (!policies || name.isEmpty()) {
        return nullptr;
    }
    Ptr<QosPolicy> byName;
    for (const Ptr<QosPolicy> &p : policies->items()) {
        if (p->name != name) {
            continue;
        }
        if (p->svm == svm) {
            return p;
        }
        byName = byName ? byName : p;
    }
    return byName;
}

LevelCap capOfPolicy(const QosPolicy *policy, qint64 sizeBytes)
{
    LevelCap cap;
    if (!policy) {
        cap.detail = ServiceLevels::tr("no QoS policy");
        return cap;
    }
    const QLocale n = numbers();
    if (policy->adaptive) {
        cap.adaptive = true;
        if (policy->peakIopsPerTb > 0) {
            cap.iops = double(policy->peakIopsPerTb) * double(sizeBytes) / kTiB;
        }
        cap.detail = ServiceLevels::tr("adaptive: %1 peak IOPS/TB").arg(n.toString(policy->peakIopsPerTb));
        return cap;
    }
    QStringList parts;
    if (policy->maxMbps > 0) {
        // ONTAP's max throughput is set in base-ten MB/s ("the units are base ten", qos
        // policy-group create): the policy's own figure is quoted, then Strata's binary units.
        cap.mibps = double(policy->maxMbps) * 1e6 / kMiB;
        parts << ServiceLevels::tr("%1 (%2)").arg(formatVendorMegabytesPerSecond(policy->maxMbps, n),
                                                  formatRateMibps(cap.mibps, n));
    }
    if (policy->maxIops > 0) {
        cap.iops = double(policy->maxIops);
        parts << ServiceLevels::tr("%1 IOPS").arg(n.toString(policy->maxIops));
    }
    cap.detail = parts.isEmpty() ? ServiceLevels::tr("fixed: no limit")
                                 : ServiceLevels::tr("fixed: %1").arg(parts.join(QStringLiteral(", ")));
    return cap;
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

LevelCap levelCapOf(const Estate &estate, const Volume &volume)
{
    if (volume.isAnf()) {
        LevelCap cap;
        const bool manual = volume.qosType.compare(QLatin1String("Manual"), Qt::CaseInsensitive) == 0;
        cap.mibps = volume.throughputMibps >= 0 ? volume.throughputMibps
                                                : anfAutoQosMibps(volume.serviceLevel, volume.sizeBytes);
        if (manual) {
            cap.detail = ServiceLevels::tr("manual QoS");
        } else if (anfMibpsPerTib(volume.serviceLevel) > 0) {
            cap.detail = ServiceLevels::tr("%1 MiB/s per TiB (auto QoS)").arg(anfMibpsPerTib(volume.serviceLevel));
        }
        return cap;
    }
    const Ptr<QosPolicy> policy = findPolicy(estate, volume.source, volume.svm, volume.qosPolicy);
    return capOfPolicy(policy.get(), volume.sizeBytes);
}

QString serviceLevelAuditTarget(const QString &label, const QString &volumeId)
{
    return QStringLiteral("%1 [volume %2]").arg(label, volumeId);
}

QString volumeIdFromAuditTarget(const QString &target)
{
    static const QRegularExpression re(QStringLiteral("\\[volume ([^\\]]+)\\]$"));
    const QRegularExpressionMatch m = re.match(target);
    return m.hasMatch() ? m.captured(1) : QString();
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
};

ServiceLevels::ServiceLevels(Estate &estate, IClock &clock, HistoryService *history, QObject *parent)
    : QObject(parent)
    , m_estate(estate)
    , m_clock(clock)
    , m_history(history)
    , m_rateCard(RateCard::defaults())
    , d(std::make_unique<Private>())
{
    const auto emitChanged = [this] {
        Q_EMIT changed();
    };
    connect(&m_estate, &Estate::volumesChanged, this, emitChanged);
    connect(&m_estate, &Estate::volumePerfChanged, this, emitChanged);
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
    connect(&m_estate, &Estate::capacityPoolsChanged, this, emitChanged);
    connect(&m_estate, &Estate::inventoryChanged, this, emitChanged);
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
    Q_EMIT changed();
}

QList<ServiceLevelRow> ServiceLevels::rows() const
{
    QList<ServiceLevelRow> out;
    for (const Ptr<Volume> &v : m_estate.volumes().all()) {
        if (auto r = row(v->source, v->id)) {
            out.append(std::move(*r));
        }
    }
    std::sort(out.begin(), out.end(), [](const ServiceLevelRow &a, const ServiceLevelRow &b) {
        return std::tie(a.source, a.volumeName, a.volumeId) < std::tie(b.source, b.volumeName, b.volumeId);
    });
    return out;
}

std::optional<ServiceLevelRow> ServiceLevels::row(const QString &source, const QString &volumeId) const
{
    const Ptr<Volume> v = m_estate.volume(source, volumeId);
    if (!v) {
        return std::nullopt;
    }
    ServiceLevelRow r;
    r.source = v->source;
    r.kind = v->isAnf() ? SourceKind::Azure : SourceKind::Ontap;
    r.volumeId = v->id;
    r.volumeName = v->name;
    r.container = v->isAnf() ? v->svm + QLatin1Char('/') + v->aggregate : v->svm;
    r.level = v->isAnf() ? v->serviceLevel : v->qosPolicy;
    const LevelCap cap = levelCapOf(m_estate, *v);
    r.levelDetail = cap.detail;
    r.adaptive = cap.adaptive;
    r.sizeBytes = v->sizeBytes;
    r.capMibps = cap.mibps;
    r.capIops = cap.iops;
    double observedIops = -1;
    if (const Ptr<VolumePerf> perf = m_estate.volumePerf().find(source, key(source, volumeId))) {
        r.observedMibps = perf->throughputBps / kMiB;
        observedIops = perf->totalIops;
    }
    const auto stats = d->stats.constFind(key(source, volumeId));
    const bool hasStats = stats != d->stats.cend() && stats->samples > 0;
    if (hasStats) {
        r.p95Mibps = stats->p95ThroughputBps / kMiB;
    }
    r.costPerMonth = v->isAnf() ? m_rateCard.anfMonthly(v->serviceLevel, v->sizeBytes)
                                : m_rateCard.ontapMonthly(r.level, v->sizeBytes);
    r.lastChange = d->lastChange.value(key(source, volumeId));

    if (r.capMibps > 0 && r.p95Mibps >= kAtCapShare * r.capMibps) {
        r.flag = LevelFlag::AtCap;
        r.flagReason = tr("p95 %1 of %2 for the last day").arg(mibps(r.p95Mibps), mibps(r.capMibps));
    } else if (r.capMibps > 0 && r.observedMibps >= kAtCapShare * r.capMibps) {
        r.flag = LevelFlag::AtCap;
        r.flagReason = tr("now %1 of %2").arg(mibps(r.observedMibps), mibps(r.capMibps));
    } else if (r.capIops > 0 && observedIops >= kAtCapShare * r.capIops) {
        r.flag = LevelFlag::AtCap;
        r.flagReason = tr("now %1 of %2 IOPS")
                           .arg(numbers().toString(qRound64(observedIops)), numbers().toString(qRound64(r.capIops)));
    } else if (r.capMibps > 0 && hasStats && r.p95Mibps < kFarBelowShare * r.capMibps
               && stats->first.secsTo(m_clock.now()) >= kFullDaySeconds) {
        // Only worth flagging when a cheaper level exists to move to.
        QString cheaper;
        for (const LevelOption &o : options(source, volumeId)) {
            if (o.current) {
                continue;
            }
            const bool priced = o.costPerMonth >= 0 && r.costPerMonth >= 0;
            if ((priced && o.costPerMonth < r.costPerMonth) || (!priced && o.capMibps > 0 && o.capMibps < r.capMibps)) {
                cheaper = o.level.isEmpty() ? tr("no QoS policy") : o.level;
                break;
            }
        }
        if (!cheaper.isEmpty()) {
            r.flag = LevelFlag::FarBelow;
            r.flagReason =
                tr("p95 %1 of %2 for the last day; %3 costs less").arg(mibps(r.p95Mibps), mibps(r.capMibps), cheaper);
        }
    }
    return r;
}

QList<LevelOption> ServiceLevels::options(const QString &source, const QString &volumeId) const
{
    QList<LevelOption> out;
    const Ptr<Volume> v = m_estate.volume(source, volumeId);
    if (!v) {
        return out;
    }
    if (v->isAnf()) {
        const auto pools = m_estate.capacityPools().scope(source);
        for (const QString &level : anfServiceLevels()) {
            LevelOption o;
            o.level = level;
            o.current = level == v->serviceLevel;
            o.capMibps = o.current ? levelCapOf(m_estate, *v).mibps : anfAutoQosMibps(level, v->sizeBytes);
            o.costPerMonth = m_rateCard.anfMonthly(level, v->sizeBytes);
            if (o.current) {
                o.pool = v->aggregate;
                o.poolExists = true;
                o.poolHasRoom = true;
            } else if (pools) {
                qint64 bestFree = -1;
                for (const Ptr<CapacityPool> &p : pools->items()) {
                    if (p->account != v->svm || p->serviceLevel != level) {
                        continue;
                    }
                    o.poolExists = true;
                    const qint64 free = p->sizeBytes - p->allocatedBytes;
                    if (free >= v->sizeBytes && free > bestFree) {
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
    const auto policies = m_estate.qosPolicies().scope(source);
    QStringList seen;
    if (policies) {
        for (const Ptr<QosPolicy> &p : policies->items()) {
            if ((p->svm != v->svm && !p->svm.isEmpty()) || seen.contains(p->name)) {
                continue;
            }
            seen << p->name;
            const LevelCap cap = capOfPolicy(p.get(), v->sizeBytes);
            LevelOption o;
            o.level = p->name;
            o.capMibps = cap.mibps;
            o.capIops = cap.iops;
            o.costPerMonth = m_rateCard.ontapMonthly(p->name, v->sizeBytes);
            o.current = p->name == v->qosPolicy;
            out.append(o);
        }
    }
    std::sort(out.begin(), out.end(), [](const LevelOption &a, const LevelOption &b) {
        return a.level < b.level;
    });
    LevelOption none;
    none.costPerMonth = m_rateCard.ontapMonthly(QString(), v->sizeBytes);
    none.current = v->qosPolicy.isEmpty();
    out.prepend(none);
    return out;
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
                                      std::function<void(std::vector<ThroughputPoint>)> done) const
{
    if (!m_history) {
        QMetaObject::invokeMethod(
            context,
            [done] {
                done({});
            },
            Qt::QueuedConnection);
        return;
    }
    m_history->volumePerfHistory(source, volumeId, from, to, context, [done](std::vector<VolumePerfSample> samples) {
        std::vector<ThroughputPoint> points;
        points.reserve(samples.size());
        for (const VolumePerfSample &s : samples) {
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
        now.addSecs(-kDaySeconds), now, this, [this, generation](std::vector<VolumePerfStats> stats) {
            if (generation != d->generation) {
                return;
            }
            d->stats.clear();
            for (VolumePerfStats &s : stats) {
                d->stats.insert(key(s.source, s.volumeId), std::move(s));
            }
            Q_EMIT changed();
        });
    // The cool-down needs the last change; a month back also serves the "last change" column.
    m_history->auditLogOfKind(actionKindName(ActionKind::ServiceLevelChange),
                              now.addDays(-31),
                              this,
                              [this, generation](std::vector<AuditEntry> entries) {
                                  if (generation != d->generation) {
                                      return;
                                  }
                                  for (const AuditEntry &e : entries) {
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
                                      }
                                  }
                                  Q_EMIT changed();
                              });
}

void ServiceLevels::noteLevelChange(const QString &source, const QString &volumeId, const QDateTime &at)
{
    QDateTime &last = d->lastChange[key(source, volumeId)];
    if (!last.isValid() || at > last) {
        last = at;
        Q_EMIT changed();
    }
}

} // namespace strata::core
