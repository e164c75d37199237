#include "models/rows/levelrows.h"

#include "models/core/domain/action.h"
#include "models/core/domain/estate.h"
#include "models/core/domain/ratecard.h"
#include "models/core/domain/schedule.h"
#include "models/core/services/servicelevels.h"
#include "models/rows/chargebackrows.h"
#include "models/rows/rowsupport.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace strata::rows {

namespace {

QVariant optionalNumber(double value, int decimals = 1)
{
    if (value < 0) {
        return {};
    }
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

QString numberText(double value, int decimals = 1)
{
    return value < 0 ? QStringLiteral("-") : QString::number(value, 'f', decimals);
}

// A throughput held in MiB/s in Strata's units (core/format.h), "-" when unknown.
QString levelRateText(double mibps)
{
    return mibps < 0 ? QStringLiteral("-") : core::formatRateMibps(mibps);
}

} // namespace

ResultSet serviceLevelRows(const QList<core::ServiceLevelRow> &rows, const core::RateCard &card)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("kind"), QString()},
                  {QStringLiteral("volume_id"), QString()},
                  {QStringLiteral("volume"), QStringLiteral("VOLUME")},
                  {QStringLiteral("container"), QStringLiteral("IN")},
                  {QStringLiteral("level"), QStringLiteral("LEVEL")},
                  {QStringLiteral("level_detail"), QString()},
                  {QStringLiteral("size_bytes"), QStringLiteral("SIZE")},
                  {QStringLiteral("cap_mibps"), QStringLiteral("CAP")},
                  {QStringLiteral("cap_iops"), QStringLiteral("CAP-IOPS")},
                  {QStringLiteral("observed_mibps"), QStringLiteral("NOW")},
                  {QStringLiteral("p95_mibps"), QStringLiteral("P95-24H")},
                  {QStringLiteral("cap_used_percent"), QStringLiteral("%CAP")},
                  {QStringLiteral("cost_per_month"), QStringLiteral("COST/MONTH")},
                  {QStringLiteral("currency"), QString()},
                  {QStringLiteral("flag"), QStringLiteral("FLAG")},
                  {QStringLiteral("flag_reason"), QString()},
                  {QStringLiteral("last_change"), QString()}};
    for (const core::ServiceLevelRow &r : rows) {
        const double used = r.capUsedPercent;
        QStringList display(rs.columns.size());
        display[5] = r.level.isEmpty() ? QStringLiteral("(none)") : r.level;
        display[7] = core::formatBytes(r.sizeBytes);
        display[8] = levelRateText(r.capMibps);
        display[9] = numberText(r.capIops, 0);
        display[10] = levelRateText(r.observedMibps);
        display[11] = levelRateText(r.p95Mibps);
        display[12] = numberText(used, 0);
        display[13] = r.costPerMonth < 0 ? QStringLiteral("-") : formatMoney(card.currency, r.costPerMonth);
        display[15] = core::levelFlagName(r.flag);
        rs.addRow({r.source,
                   core::sourceKindName(r.kind),
                   r.volumeId,
                   r.volumeName,
                   r.container,
                   r.level,
                   r.levelDetail,
                   r.sizeBytes,
                   optionalNumber(r.capMibps),
                   optionalNumber(r.capIops, 0),
                   optionalNumber(r.observedMibps, 2),
                   optionalNumber(r.p95Mibps, 2),
                   optionalNumber(used),
                   optionalNumber(r.costPerMonth, 2),
                   card.currency,
                   core::levelFlagName(r.flag),
                   r.flagReason,
                   r.lastChange.isValid() ? QVariant(r.lastChange) : QVariant()},
                  display);
    }
    return rs;
}

ResultSet poolRows(const core::Estate &estate, const QStringList &sources)
{
    auto pools = collectRows(estate.capacityPools(), sources);
    std::sort(pools.begin(), pools.end(), [](const auto &a, const auto &b) {
        return std::tie(a->source, a->account, a->name) < std::tie(b->source, b->account, b->name);
    });
    return poolRows(pools);
}

ResultSet poolRows(const std::vector<core::Ptr<core::CapacityPool>> &pools)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("account"), QStringLiteral("ACCOUNT")},
                  {QStringLiteral("name"), QStringLiteral("NAME")},
                  {QStringLiteral("service_level"), QStringLiteral("LEVEL")},
                  {QStringLiteral("qos_type"), QStringLiteral("QOS")},
                  {QStringLiteral("size_bytes"), QStringLiteral("SIZE")},
                  {QStringLiteral("allocated_bytes"), QStringLiteral("ALLOCATED")},
                  {QStringLiteral("free_bytes"), QStringLiteral("FREE")},
                  {QStringLiteral("volumes"), QStringLiteral("VOLUMES")},
                  {QStringLiteral("total_throughput_mibps"), QStringLiteral("THROUGHPUT")},
                  {QStringLiteral("utilized_throughput_mibps"), QStringLiteral("ASSIGNED")},
                  {QStringLiteral("state"), QStringLiteral("STATE")},
                  {QStringLiteral("id"), QString()}};
    for (const auto &p : pools) {
        const qint64 free = std::max<qint64>(0, p->sizeBytes - p->allocatedBytes);
        QStringList display(rs.columns.size());
        display[5] = core::formatBytes(p->sizeBytes);
        display[6] = core::formatBytes(p->allocatedBytes);
        display[7] = core::formatBytes(free);
        display[9] = levelRateText(p->totalThroughputMibps);
        display[10] = levelRateText(p->utilizedThroughputMibps);
        rs.addRow({p->source,
                   p->account,
                   p->name,
                   p->serviceLevel,
                   p->qosType,
                   p->sizeBytes,
                   p->allocatedBytes,
                   free,
                   p->volumeCount,
                   optionalNumber(p->totalThroughputMibps, 3),
                   optionalNumber(p->utilizedThroughputMibps, 3),
                   p->provisioningState,
                   p->armId},
                  display);
    }
    return rs;
}

ResultSet aksRows(const core::Estate &estate, const QStringList &sources)
{
    auto clusters = collectRows(estate.aksClusters(), sources);
    std::sort(clusters.begin(), clusters.end(), [](const auto &a, const auto &b) {
        return std::tie(a->source, a->name) < std::tie(b->source, b->name);
    });
    return aksRows(clusters);
}

ResultSet aksRows(const std::vector<core::Ptr<core::AksCluster>> &clusters)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("name"), QStringLiteral("NAME")},
                  {QStringLiteral("resource_group"), QStringLiteral("RESOURCE-GROUP")},
                  {QStringLiteral("location"), QStringLiteral("LOCATION")},
                  {QStringLiteral("version"), QStringLiteral("VERSION")},
                  {QStringLiteral("nodes"), QStringLiteral("NODES")},
                  {QStringLiteral("agent_pools"), QStringLiteral("POOLS")},
                  {QStringLiteral("state"), QStringLiteral("STATE")},
                  {QStringLiteral("power_state"), QStringLiteral("POWER")},
                  {QStringLiteral("fqdn"), QString()},
                  {QStringLiteral("id"), QString()}};
    for (const auto &c : clusters) {
        rs.addRow({c->source,
                   c->name,
                   c->resourceGroup,
                   c->location,
                   c->kubernetesVersion,
                   c->nodeCount,
                   c->agentPools,
                   c->provisioningState,
                   c->powerState,
                   c->fqdn,
                   c->armId});
    }
    return rs;
}

ResultSet scheduleRows(const QList<core::ServiceLevelSchedule> &schedules, const QDateTime &now)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("id"), QStringLiteral("ID")},
                  {QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("volume"), QStringLiteral("VOLUME")},
                  {QStringLiteral("volume_id"), QString()},
                  {QStringLiteral("level"), QStringLiteral("LEVEL")},
                  {QStringLiteral("revert_level"), QStringLiteral("THEN")},
                  {QStringLiteral("start"), QStringLiteral("START")},
                  {QStringLiteral("end"), QStringLiteral("END")},
                  {QStringLiteral("recurrence"), QStringLiteral("REPEAT")},
                  {QStringLiteral("enabled"), QString()},
                  {QStringLiteral("next"), QStringLiteral("NEXT")},
                  {QStringLiteral("last_fired"), QString()},
                  {QStringLiteral("last_outcome"), QStringLiteral("LAST")},
                  {QStringLiteral("created_by"), QString()}};
    for (const core::ServiceLevelSchedule &s : schedules) {
        const QList<core::UpcomingChange> next = core::nextEdges(s, now, 1);
        rs.addRow({s.id,
                   s.source,
                   s.volumeName,
                   s.volumeId,
                   s.level,
                   s.revertLevel,
                   s.start,
                   s.end.isValid() ? QVariant(s.end) : QVariant(),
                   core::recurrenceName(s.recurrence),
                   s.enabled,
                   next.isEmpty() ? QVariant() : QVariant(next.first().time),
                   s.lastFired.isValid() ? QVariant(s.lastFired) : QVariant(),
                   s.lastOutcome,
                   s.createdBy});
    }
    return rs;
}

void writePreview(const core::ActionPreview &preview, QTextStream &out)
{
    out << preview.title << ": " << preview.target << '\n';
    if (!preview.fromState.isEmpty() || !preview.toState.isEmpty()) {
        out << "  " << preview.fromState << " → " << preview.toState << '\n';
    }
    for (const QString &e : preview.effects) {
        out << "  - " << e << '\n';
    }
    for (const QString &w : preview.warnings) {
        out << "  ! " << w << '\n';
    }
    if (!preview.allowed()) {
        out << "  blocked: " << preview.blockedReason << '\n';
    }
}

QJsonObject previewJson(const core::ActionPreview &preview)
{
    return QJsonObject{{QStringLiteral("title"), preview.title},
                       {QStringLiteral("target"), preview.target},
                       {QStringLiteral("from"), preview.fromState},
                       {QStringLiteral("to"), preview.toState},
                       {QStringLiteral("effects"), QJsonArray::fromStringList(preview.effects)},
                       {QStringLiteral("warnings"), QJsonArray::fromStringList(preview.warnings)},
                       {QStringLiteral("destructive"), preview.destructive},
                       {QStringLiteral("blocked"), preview.blockedReason}};
}

std::optional<QDateTime> parseWhen(const QString &text, const QDateTime &now)
{
    static const QRegularExpression relative(QStringLiteral("^\\+(\\d+)([smhd])$"));
    const QString trimmed = text.trimmed();
    if (const auto seconds = relativeSeconds(relative, trimmed)) {
        return now.toUTC().addSecs(*seconds);
    }
    const QDateTime t = parseIsoTime(trimmed);
    if (!t.isValid()) {
        return std::nullopt;
    }
    return t.toUTC();
}

std::optional<std::pair<QDateTime, QDateTime>> parseWindow(const QString &text, const QDateTime &now)
{
    const qsizetype dots = text.indexOf(QStringLiteral(".."));
    if (dots <= 0) {
        return std::nullopt;
    }
    const auto start = parseWhen(text.left(dots), now);
    const auto end = parseWhen(text.mid(dots + 2), now);
    if (!start || !end || *end <= *start) {
        return std::nullopt;
    }
    return std::make_pair(*start, *end);
}

} // namespace strata::rows
