#include "models/core/planning/chargeback.h"

#include "models/core/domain/action.h"
#include "models/core/domain/estate.h"
#include "models/core/planning/levelcaps.h"
#include "models/core/planning/reportformat.h"
#include "models/core/store/historystore.h"

#include <QCoreApplication>
#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <limits>
#include <map>

namespace strata::core {

namespace {

constexpr double kChargebackHoursPerMonth = 730.0; // the rate card's GiB-month
constexpr double kChargebackMsPerHour = 3600.0 * 1000.0;

QString chargebackTr(const char *text)
{
    return QCoreApplication::translate("strata::core::Chargeback", text);
}

/// Step-value integration over [a, b) (ms since the epoch): each sample at `times[i]` holds
/// until the next one, at most `holdMs`. Calls `add(i, durationMs)` for every covered piece
/// and returns the covered milliseconds.
template <class Add> qint64 integrateSteps(const std::vector<qint64> &times, qint64 a, qint64 b, qint64 holdMs, Add add)
{
    qint64 covered = 0;
    for (size_t i = 0; i < times.size(); ++i) {
        const qint64 next = i + 1 < times.size() ? times[i + 1] : b;
        const qint64 start = std::max(times[i], a);
        const qint64 end = std::min({next, times[i] + holdMs, b});
        if (end > start) {
            add(i, end - start);
            covered += end - start;
        }
    }
    return covered;
}

QString volumeLabel(const Volume &v)
{
    return v.svm.isEmpty() ? v.name : v.svm + QLatin1Char('/') + v.name;
}

/// One tier change of a volume from the audit log: before `time` the volume was at `from`.
struct TierChange
{
    qint64 timeMs = 0;
    QString from;
};

/// Where the volume's tier changed in the period and what it was before, oldest first; the
/// pieces of [a, b) at each tier are handed to `add(tierName, pieceStart, pieceEnd)`.
template <class Add>
void forEachTierPiece(const QString &currentTier, std::vector<TierChange> changes, qint64 a, qint64 b, Add add)
{
    std::sort(changes.begin(), changes.end(), [](const TierChange &x, const TierChange &y) {
        return x.timeMs < y.timeMs;
    });
    qint64 start = a;
    for (const TierChange &c : changes) {
        if (c.timeMs <= start) {
            continue;
        }
        const qint64 end = std::min(c.timeMs, b);
        add(c.from, start, end);
        start = end;
        if (start >= b) {
            return;
        }
    }
    if (start < b) {
        add(currentTier, start, b);
    }
}

/// The tier an audited from-state names. The audit log keeps the preview's words ("Standard
/// (pool pool-standard, cap 15.6 MiB/s)", "QoS policy \"gold\"", "no QoS policy"): the tier is
/// the service level or the policy alone; pool and cap are details of where the volume was.
/// `levels` spells the known ANF levels as the rate card does.
QString tierOfAuditedState(bool anf, const QString &state, const QStringList &levels)
{
    QString text = state.trimmed();
    if (anf) {
        const int detail = text.indexOf(QLatin1String(" ("));
        if (detail >= 0) {
            text = text.left(detail).trimmed();
        }
        for (const QString &level : levels) {
            if (level.compare(text, Qt::CaseInsensitive) == 0) {
                return level;
            }
        }
        return text;
    }
    static const QRegularExpression quoted(QStringLiteral("[\"\u201c\u201e\u00ab]([^\"\u201c\u201d\u00bb]*)"
                                                          "[\"\u201d\u201c\u00bb]"));
    if (const QRegularExpressionMatch m = quoted.match(text); m.hasMatch()) {
        return m.captured(1);
    }
    // "no QoS policy" and anything else that names no policy of the source counts as none (below).
    return text;
}

void addPrices(ChargebackLine &into, const ChargebackLine &from)
{
    into.gpuHoursAllocated += from.gpuHoursAllocated;
    into.gpuHoursUsed += from.gpuHoursUsed;
    into.gpuHoursUtilizationUnknown += from.gpuHoursUtilizationUnknown;
    into.gpuCost += from.gpuCost;
    into.storageCost += from.storageCost;
    into.cost += from.cost;
    into.gpuMissingHours = std::max(into.gpuMissingHours, from.gpuMissingHours);
    into.storageMissingHours = std::max(into.storageMissingHours, from.storageMissingHours);
    into.missingHours = std::max(into.missingHours, from.missingHours);
    for (auto it = from.storageGibHours.begin(); it != from.storageGibHours.end(); ++it) {
        into.storageGibHours[it.key()] += it.value();
    }
    for (const QString &u : from.unpriced) {
        if (!into.unpriced.contains(u)) {
            into.unpriced.append(u);
        }
    }
}

double clusterGpuPrice(const ChargebackInput &in, const QString &source, const RateCard &card)
{
    double weighted = 0;
    int gpus = 0;
    for (const GpuNode &n : in.nodes) {
        if (n.source == source && n.gpuCount > 0) {
            weighted += card.gpuPrice(n.gpuProduct) * n.gpuCount;
            gpus += n.gpuCount;
        }
    }
    return gpus > 0 ? weighted / gpus : card.gpuDefaultPerHour;
}

using ChargebackLineKey = std::pair<QString, QString>; // (Kubernetes source, project)

} // namespace

Result<ChargebackPeriod> chargebackMonth(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^(\\d{4})-(\\d{2})$"));
    const QRegularExpressionMatch m = re.match(text.trimmed());
    const int month = m.hasMatch() ? m.captured(2).toInt() : 0;
    if (month < 1 || month > 12) {
        return fail(Error::invalid(
            QStringLiteral("month"),
            chargebackTr("the month must be YYYY-MM, a calendar month in UTC such as 2026-11, not \"%1\"").arg(text)));
    }
    const QDate first(m.captured(1).toInt(), month, 1);
    ChargebackPeriod p;
    p.from = QDateTime(first, QTime(0, 0), Qt::UTC);
    p.to = QDateTime(first.addMonths(1), QTime(0, 0), Qt::UTC);
    p.label = first.toString(QStringLiteral("yyyy-MM"));
    return p;
}

Result<ChargebackPeriod> chargebackRange(const QDateTime &from, const QDateTime &to)
{
    if (!from.isValid() || !to.isValid() || to <= from) {
        return fail(Error::invalid(QStringLiteral("period"),
                                   chargebackTr("the period needs a start before its end (ISO 8601 times)")));
    }
    ChargebackPeriod p;
    p.from = from.toUTC();
    p.to = to.toUTC();
    p.label = p.from.toString(Qt::ISODate) + QLatin1Char('/') + p.to.toString(Qt::ISODate);
    return p;
}

QString chargebackTierKey(bool anf, const QString &tier)
{
    return (anf ? QStringLiteral("anf/") : QStringLiteral("ontap/")) + tier;
}

QString chargebackBucketTierKey()
{
    return QStringLiteral("storagegrid/");
}

QString chargebackTierLabel(const QString &key)
{
    if (key == chargebackBucketTierKey()) {
        return QStringLiteral("StorageGRID");
    }
    if (key.startsWith(QLatin1String("anf/"))) {
        return QStringLiteral("ANF ") + key.mid(4);
    }
    const QString policy = key.mid(key.indexOf(QLatin1Char('/')) + 1);
    return policy.isEmpty() ? chargebackTr("ONTAP (no QoS policy)") : QStringLiteral("ONTAP ") + policy;
}

QString chargebackTierColumn(const QString &key)
{
    if (key == chargebackBucketTierKey()) {
        return QStringLiteral("storage_gib_hours_storagegrid");
    }
    const int slash = key.indexOf(QLatin1Char('/'));
    QString tier = key.mid(slash + 1).toLower();
    tier.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("_"));
    if (tier.isEmpty()) {
        tier = QStringLiteral("none");
    }
    return QStringLiteral("storage_gib_hours_") + key.left(slash) + QLatin1Char('_') + tier;
}

ChargebackInput chargebackInput(const Estate &estate, const QStringList &clusters)
{
    ChargebackInput in;
    const auto wanted = [&clusters](const QString &source) {
        return clusters.isEmpty() || clusters.contains(source);
    };
    for (const QString &source : estate.gpuClusters().scopes()) {
        if (wanted(source)) {
            in.clusters.append(source);
        }
    }
    // Each table's rows of the wanted clusters (all storage for volumes and policies).
    const auto copy = [&](const auto &table, auto &into, bool onlyClusters) {
        for (const QString &source : table.scopes()) {
            if (onlyClusters && !in.clusters.contains(source)) {
                continue;
            }
            if (const auto list = table.scope(source)) {
                for (const auto &item : list->items()) {
                    into.append(*item);
                }
            }
        }
    };
    copy(estate.projects(), in.projects, true);
    copy(estate.jobs(), in.jobs, true);
    copy(estate.pvcs(), in.pvcs, true);
    copy(estate.gpuNodes(), in.nodes, true);
    copy(estate.cachedCommits(), in.cachedCommits, true);
    copy(estate.volumes(), in.volumes, false);
    copy(estate.qosPolicies(), in.policies, false);
    copy(estate.buckets(), in.buckets, false);
    copy(estate.datasets(), in.datasets, false);
    // A cluster joins its claims to storage when it publishes; storage that answered after that
    // is joined here by the same rule (the backend volume's name), so a fresh start charges it.
    QHash<QString, const Volume *> byName;
    for (const Volume &v : std::as_const(in.volumes)) {
        byName.insert(v.name, &v);
    }
    for (Pvc &pvc : in.pvcs) {
        if (const Volume *v = byName.value(pvc.backendVolume); v && pvc.storageVolumeId.isEmpty()) {
            pvc.storageSource = v->source;
            pvc.storageVolumeId = v->id;
        }
    }
    return in;
}

Result<Chargeback> computeChargeback(IHistoryStore &store,
                                     const ChargebackInput &in,
                                     const ChargebackPeriod &period,
                                     const RateCard &card,
                                     const QDateTime &now)
{
    if (now <= period.from) {
        return fail(Error::invalid(QStringLiteral("month"), chargebackTr("%1 has not started yet").arg(period.label)));
    }
    Chargeback cb;
    cb.period = period;
    cb.currency = card.currency;
    cb.accountedTo = std::min(period.to, now.toUTC());
    const qint64 a = period.from.toMSecsSinceEpoch();
    const qint64 b = cb.accountedTo.toMSecsSinceEpoch();
    cb.hours = double(b - a) / kChargebackMsPerHour;

    std::map<ChargebackLineKey, ChargebackLine> lines;
    const auto lineOf = [&lines](const QString &source, const QString &project) -> ChargebackLine & {
        ChargebackLine &line = lines[{source, project}];
        line.source = source;
        line.project = project;
        return line;
    };

    // The oldest sample read: the history's start when it begins inside the period.
    qint64 firstSample = std::numeric_limits<qint64>::max();

    // GPU-hours from the project samples of each cluster.
    for (const QString &cluster : in.clusters) {
        const double price = clusterGpuPrice(in, cluster, card);
        for (const Project &p : in.projects) {
            if (p.source == cluster) {
                lineOf(cluster, p.name);
            }
        }
        const Result<std::vector<ProjectSample>> read = store.projectHistory(
            cluster, QString(), period.from.addSecs(-kChargebackProjectHoldSeconds), cb.accountedTo);
        if (!read) {
            return fail(read.error()); // a failed read is not "no GPU was used"
        }
        const std::vector<ProjectSample> &samples = *read;
        QHash<QString, std::vector<const ProjectSample *>> byProject;
        for (const ProjectSample &s : samples) {
            byProject[s.project].push_back(&s);
            firstSample = std::min(firstSample, s.time.toMSecsSinceEpoch());
        }
        for (auto it = byProject.begin(); it != byProject.end(); ++it) {
            std::vector<qint64> times;
            for (const ProjectSample *s : it.value()) {
                times.push_back(s->time.toMSecsSinceEpoch());
            }
            ChargebackLine &line = lineOf(cluster, it.key());
            const auto &list = it.value();
            // Allocation sums exactly in milli-GPU milliseconds, so totals reconcile to the digit.
            qint64 milliGpuMs = 0;
            const qint64 covered =
                integrateSteps(times, a, b, kChargebackProjectHoldSeconds * 1000, [&](size_t i, qint64 ms) {
                    const double gpuHours = double(list[i]->allocated) / 1000.0 * double(ms) / kChargebackMsPerHour;
                    milliGpuMs += list[i]->allocated * ms;
                    if (list[i]->utilization >= 0) {
                        line.gpuHoursUsed += gpuHours * list[i]->utilization / 100.0;
                    } else {
                        line.gpuHoursUtilizationUnknown += gpuHours;
                    }
                });
            line.gpuHoursAllocated = double(milliGpuMs) / 1000.0 / kChargebackMsPerHour;
            line.gpuMissingHours = double(b - a - covered) / kChargebackMsPerHour;
        }
        for (auto &[key, line] : lines) {
            if (key.first != cluster) {
                continue;
            }
            if (!byProject.contains(key.second)) {
                line.gpuMissingHours = cb.hours;
            }
            line.gpuPricePerHour = price;
            line.gpuCost = price >= 0 ? line.gpuHoursAllocated * price : 0;
            if (price < 0 && line.gpuHoursAllocated > 0) {
                line.unpriced.append(QStringLiteral("gpu"));
            }
        }
    }

    // Jobs of each project that ran in the period, and the PVCs that join projects to volumes.
    QHash<QString, QString> projectOfNamespace; // "<source>/<namespace>" -> project
    for (const Project &p : in.projects) {
        if (!p.namespaceName.isEmpty()) {
            projectOfNamespace.insert(p.source + QLatin1Char('/') + p.namespaceName, p.name);
        }
    }
    QHash<QString, QString> projectOfJob;          // "<source>/<job id>" -> project
    QHash<QString, QSet<QString>> projectsOfClaim; // "<source>/<namespace>/<claim>" -> projects
    for (const Job &j : in.jobs) {
        projectOfJob.insert(j.source + QLatin1Char('/') + j.id, j.project);
        const bool ran =
            j.created.isValid() && j.created < cb.accountedTo && (!j.finished.isValid() || j.finished >= period.from);
        if (!ran || !lines.count({j.source, j.project})) {
            continue;
        }
        lineOf(j.source, j.project)
            .jobs.append(ChargebackJob{j.id, jobStatusName(j.status), j.gpusRequested, j.pvcs, j.created, j.finished});
        for (const QString &claim : j.pvcs) {
            projectsOfClaim[j.source + QLatin1Char('/') + j.namespaceName + QLatin1Char('/') + claim].insert(j.project);
        }
    }
    struct VolumeOwners
    {
        QSet<ChargebackLineKey> owners;
        QStringList via;
    };
    QHash<QString, VolumeOwners> ownersOfVolume; // "<storage source>/<volume id>"
    for (const Pvc &pvc : in.pvcs) {
        if (pvc.storageVolumeId.isEmpty()) {
            continue;
        }
        QSet<QString> projects = projectsOfClaim.value(pvc.source + QLatin1Char('/') + pvc.id);
        const QString nsProject = projectOfNamespace.value(pvc.source + QLatin1Char('/') + pvc.namespaceName);
        if (!nsProject.isEmpty()) {
            projects.insert(nsProject);
        }
        if (projects.isEmpty()) {
            continue;
        }
        VolumeOwners &o = ownersOfVolume[pvc.storageSource + QLatin1Char('/') + pvc.storageVolumeId];
        for (const QString &project : projects) {
            o.owners.insert({pvc.source, project});
            lineOf(pvc.source, project);
        }
        o.via.append(pvc.id);
    }

    // Storage GiB-hours per volume and tier, split between its owners.
    const Result<std::vector<AuditEntry>> audit =
        store.auditLogOfKind(actionKindName(ActionKind::ServiceLevelChange), period.from);
    if (!audit) {
        // Without the level changes every hour would be billed at today's level.
        return fail(audit.error());
    }
    QHash<QString, std::vector<TierChange>> tierChanges; // "<source>/<volume id>"
    for (const AuditEntry &e : *audit) {
        if (e.outcome != QLatin1String("succeeded") && e.outcome != QLatin1String("reconciled")) {
            continue;
        }
        const QString id = volumeIdFromAuditTarget(e.target);
        if (!id.isEmpty()) {
            tierChanges[e.source + QLatin1Char('/') + id].push_back({e.time.toMSecsSinceEpoch(), e.fromState});
        }
    }
    QStringList anfLevels = anfServiceLevels();
    for (auto it = card.anfPerGibMonth.begin(); it != card.anfPerGibMonth.end(); ++it) {
        if (!anfLevels.contains(it.key())) {
            anfLevels.append(it.key());
        }
    }
    QSet<QString> policyNames; // "<source>/<policy>"
    for (const QosPolicy &p : in.policies) {
        policyNames.insert(p.source + QLatin1Char('/') + p.name);
    }
    ChargebackLine unattributed;
    unattributed.unattributed = true;
    // A volume's (or bucket's) part goes to each owner's line, or to the unattributed one.
    const auto chargeTo = [&](const ChargebackVolume &cv, const QSet<ChargebackLineKey> &owners) {
        const auto charge = [&cv](ChargebackLine &line) {
            for (auto it = cv.gibHours.begin(); it != cv.gibHours.end(); ++it) {
                line.storageGibHours[it.key()] += it.value();
            }
            line.storageCost += cv.cost;
            line.storageMissingHours = std::max(line.storageMissingHours, cv.missingHours);
            line.missingHours = std::max(line.missingHours, cv.missingHours);
            for (const QString &u : cv.unpricedTiers) {
                if (!line.unpriced.contains(u)) {
                    line.unpriced.append(u);
                }
            }
            line.volumes.append(cv);
        };
        if (owners.isEmpty()) {
            charge(unattributed);
            return;
        }
        for (const ChargebackLineKey &owner : owners) {
            charge(lineOf(owner.first, owner.second));
        }
    };
    for (const Volume &v : in.volumes) {
        const QString key = v.source + QLatin1Char('/') + v.id;
        const qint64 va = v.created.isValid() ? std::clamp(v.created.toMSecsSinceEpoch(), a, b) : a;
        ChargebackVolume cv;
        cv.source = v.source;
        cv.volumeId = v.id;
        cv.name = volumeLabel(v);
        const Result<std::vector<UsageSample>> usage =
            store.volumeUsage(v.source, v.id, period.from.addSecs(-kChargebackVolumeHoldSeconds), cb.accountedTo);
        if (!usage) {
            return fail(usage.error());
        }
        std::vector<qint64> times;
        for (const UsageSample &s : *usage) {
            times.push_back(s.time.toMSecsSinceEpoch());
        }
        if (!times.empty()) {
            firstSample = std::min(firstSample, times.front());
        }
        const bool anf = v.isAnf();
        std::vector<TierChange> changes = tierChanges.value(key);
        for (TierChange &c : changes) {
            c.from = tierOfAuditedState(anf, c.from, anfLevels);
            if (!anf && !policyNames.contains(v.source + QLatin1Char('/') + c.from)) {
                c.from.clear();
            }
        }
        const QString current = anf ? v.serviceLevel : v.qosPolicy;
        QMap<QString, double> gibHours;
        const qint64 covered =
            integrateSteps(times, va, b, kChargebackVolumeHoldSeconds * 1000, [&](size_t i, qint64 ms) {
                const qint64 start = std::max(times[i], va);
                const double gib = double((*usage)[i].sizeBytes) / units::kGiB;
                forEachTierPiece(current, changes, start, start + ms, [&](const QString &tier, qint64 s, qint64 e) {
                    gibHours[chargebackTierKey(anf, tier)] += gib * double(e - s) / kChargebackMsPerHour;
                });
            });
        cv.missingHours = double(b - va - covered) / kChargebackMsPerHour;

        const VolumeOwners owners = ownersOfVolume.value(key);
        const int n = std::max<int>(1, int(owners.owners.size()));
        cv.share = 1.0 / n;
        cv.via = owners.via.join(QStringLiteral(", "));
        for (auto it = gibHours.begin(); it != gibHours.end(); ++it) {
            const double share = it.value() * cv.share;
            cv.gibHours.insert(it.key(), share);
            const QString tier = it.key().mid(it.key().indexOf(QLatin1Char('/')) + 1);
            const QMap<QString, double> &prices = anf ? card.anfPerGibMonth : card.ontapPerGibMonth;
            if (prices.contains(tier)) {
                cv.cost += share / kChargebackHoursPerMonth * prices.value(tier);
            } else if (share > 0) {
                cv.unpricedTiers.append(it.key());
            }
        }
        chargeTo(cv, owners.owners);
    }

    // Cached commits mounted by a project's jobs in the period; they also join the dataset's
    // bucket to those projects.
    QHash<QString, QSet<ChargebackLineKey>> ownersOfDataset; // "<dataset source>/<dataset id>"
    for (const CachedCommit &c : in.cachedCommits) {
        if (c.lastUsed.isValid() && c.lastUsed < period.from) {
            continue;
        }
        QSet<QString> projects;
        for (const QString &job : c.usedBy) {
            QString project = projectOfJob.value(c.source + QLatin1Char('/') + job);
            if (project.isEmpty()) {
                project = projectOfNamespace.value(c.source + QLatin1Char('/') + job.section(QLatin1Char('/'), 0, 0));
            }
            if (!project.isEmpty()) {
                projects.insert(project);
            }
        }
        const QString text = QStringLiteral("%1@%2 on %3").arg(c.datasetName, c.commitId.left(12), c.target);
        for (const QString &project : projects) {
            if (lines.count({c.source, project})) {
                lineOf(c.source, project).cachedCommits.append(text);
                ownersOfDataset[c.datasetSource + QLatin1Char('/') + c.datasetId].insert({c.source, project});
            }
        }
    }

    // StorageGRID buckets: the data stored, joined through the datasets in them.
    QHash<QString, QSet<ChargebackLineKey>> ownersOfBucket; // "<grid source>/<bucket name>"
    QHash<QString, QStringList> viaOfBucket;
    for (const Dataset &d : in.datasets) {
        const QSet<ChargebackLineKey> owners = ownersOfDataset.value(d.source + QLatin1Char('/') + d.id);
        if (d.bucket.isEmpty() || owners.isEmpty()) {
            continue;
        }
        const QString key = d.source + QLatin1Char('/') + d.bucket;
        ownersOfBucket[key].unite(owners);
        viaOfBucket[key].append(chargebackTr("dataset %1").arg(d.name));
    }
    QHash<QString, const CapacitySeries *> bucketSeries; // "<source>/<bucket id>"
    const Result<std::vector<CapacitySeries>> capacity =
        in.buckets.isEmpty()
            ? Result<std::vector<CapacitySeries>>(std::vector<CapacitySeries>())
            : store.capacityHistory(period.from.addSecs(-kChargebackVolumeHoldSeconds), cb.accountedTo);
    if (!capacity) {
        return fail(capacity.error());
    }
    for (const CapacitySeries &series : *capacity) {
        if (series.kind == containerKindName(ContainerKind::Bucket)) {
            bucketSeries.insert(series.source + QLatin1Char('/') + series.id, &series);
        }
    }
    const QString bucketTier = chargebackBucketTierKey();
    for (const Bucket &bucket : in.buckets) {
        ChargebackVolume cv;
        cv.source = bucket.source;
        cv.volumeId = bucket.id;
        cv.name = bucket.tenantName.isEmpty() ? bucket.name : bucket.tenantName + QLatin1Char('/') + bucket.name;
        const QString key = bucket.source + QLatin1Char('/') + bucket.name;
        const QSet<ChargebackLineKey> owners = ownersOfBucket.value(key);
        cv.share = 1.0 / std::max<int>(1, int(owners.size()));
        cv.via = viaOfBucket.value(key).join(QStringLiteral(", "));
        double gibHours = 0;
        qint64 covered = 0;
        if (const CapacitySeries *series = bucketSeries.value(bucket.source + QLatin1Char('/') + bucket.id)) {
            std::vector<qint64> times;
            for (const UsageSample &u : series->samples) {
                times.push_back(u.time.toMSecsSinceEpoch());
            }
            covered = integrateSteps(times, a, b, kChargebackVolumeHoldSeconds * 1000, [&](size_t i, qint64 ms) {
                gibHours += double(series->samples[i].usedBytes) / units::kGiB * double(ms) / kChargebackMsPerHour;
            });
        }
        cv.missingHours = double(b - a - covered) / kChargebackMsPerHour;
        cv.gibHours.insert(bucketTier, gibHours * cv.share);
        if (card.storageGridPerGibMonth >= 0) {
            cv.cost = gibHours * cv.share / kChargebackHoursPerMonth * card.storageGridPerGibMonth;
        } else if (gibHours > 0) {
            cv.unpricedTiers.append(bucketTier);
        }
        chargeTo(cv, owners);
    }

    for (auto &[key, line] : lines) {
        line.cost = line.gpuCost + line.storageCost;
        line.missingHours = std::max(line.missingHours, line.gpuMissingHours);
        line.cachedCommits.sort();
        cb.lines.append(std::move(line));
    }
    unattributed.cost = unattributed.storageCost;
    cb.lines.append(std::move(unattributed));
    cb.total.missingHours = 0;
    for (const ChargebackLine &line : std::as_const(cb.lines)) {
        addPrices(cb.total, line);
    }
    cb.tiers = chargebackCardTiers(card);
    // Missing hours differ with how far back a store reaches (a fresh one-shot demo records less
    // than an app that has run for days): say where this one begins rather than let a smaller
    // figure pass for the estate's.
    if (firstSample != std::numeric_limits<qint64>::max() && firstSample > a) {
        cb.historyFrom = QDateTime::fromMSecsSinceEpoch(firstSample, Qt::UTC);
        cb.notes << chargebackTr("The history read begins at %1 UTC: the %2 h of the period before it are missing, "
                                 "not zero, wherever another store reaches further back.")
                        .arg(cb.historyFrom.toString(QStringLiteral("yyyy-MM-dd HH:mm")),
                             formatHours(double(firstSample - a) / kChargebackMsPerHour,
                                         QLocale(QLocale::English, QLocale::UnitedStates)));
    } else if (firstSample != std::numeric_limits<qint64>::max()) {
        cb.historyFrom = period.from;
    }
    return cb;
}

QStringList chargebackCardTiers(const RateCard &card)
{
    QStringList tiers;
    for (auto it = card.anfPerGibMonth.begin(); it != card.anfPerGibMonth.end(); ++it) {
        tiers.append(chargebackTierKey(true, it.key()));
    }
    for (auto it = card.ontapPerGibMonth.begin(); it != card.ontapPerGibMonth.end(); ++it) {
        tiers.append(chargebackTierKey(false, it.key()));
    }
    if (card.storageGridPerGibMonth >= 0) {
        tiers.append(chargebackBucketTierKey());
    }
    tiers.sort();
    return tiers;
}

QString chargebackUnpricedColumn()
{
    return QStringLiteral("storage_gib_hours_unpriced");
}

} // namespace strata::core
