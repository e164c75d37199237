#include "simulators/ontap/estate.h"

#include <QDateTime>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>

namespace strata::sim::ontap {

namespace {

quint64 splitmix64(quint64 x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

double unitFrom(quint64 x)
{
    return static_cast<double>(splitmix64(x) >> 11) / static_cast<double>(quint64(1) << 53);
}

constexpr qint64 HourMs = 3600 * 1000;
constexpr qint64 DayMs = 24 * HourMs;

QString nameStamp(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd_HHmm"));
}

// Size of the i-th generated snapshot of a lazily populated volume; shared by generation and
// materialisation so snapshotBytes stays consistent without creating the objects.
qint64 lazySnapshotSize(const Volume &volume, int i)
{
    const double fraction = 0.001 + 0.01 * unitFrom(quint64(volume.seed) * 1000003ULL + quint64(i));
    return std::max<qint64>(4 * 1024 * 1024,
                            static_cast<qint64>(static_cast<double>(volume.lazySnapshotBasis) * fraction));
}

} // namespace

QJsonObject OntapError::toJson() const
{
    QJsonObject error{{QStringLiteral("message"), message}, {QStringLiteral("code"), code}};
    if (!target.isEmpty()) {
        error.insert(QStringLiteral("target"), target);
    }
    return QJsonObject{{QStringLiteral("error"), error}};
}

QByteArray OntapError::body() const
{
    return QJsonDocument(toJson()).toJson(QJsonDocument::Compact);
}

Estate::Estate(quint64 seed)
    : m_rng(seed)
{}

QString Estate::uuidFrom(std::mt19937_64 &rng)
{
    const quint64 a = rng();
    const quint64 b = rng();
    // ONTAP hands out version-1 UUIDs whose node part is a NetApp MAC (00:a0:98).
    return QStringLiteral("%1-%2-11ee-%3-00a098%4")
        .arg(quint32(a >> 32), 8, 16, QLatin1Char('0'))
        .arg(quint32((a >> 16) & 0xffff), 4, 16, QLatin1Char('0'))
        .arg(quint32(0x8000 | (b & 0x3fff)), 4, 16, QLatin1Char('0'))
        .arg(quint32((b >> 16) & 0xffffff), 6, 16, QLatin1Char('0'));
}

QString Estate::newUuid()
{
    return uuidFrom(m_rng);
}

qint64 Estate::randomBetween(qint64 lo, qint64 hi)
{
    if (hi <= lo) {
        return lo;
    }
    return lo + static_cast<qint64>(m_rng() % quint64(hi - lo + 1));
}

double Estate::randomUnit()
{
    return static_cast<double>(m_rng() >> 11) / static_cast<double>(quint64(1) << 53);
}

QString Estate::timestamp(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"))
           + QStringLiteral("+00:00");
}

qint64 Estate::footprint(const Volume &volume)
{
    if (volume.isConstituent) {
        return 0; // counted through the FlexGroup
    }
    const qint64 metadata = volume.size / 200;
    if (volume.isFlexClone && !volume.splitInitiated) {
        // A clone shares its parent's blocks: only what changed since the snapshot is its own.
        return std::max<qint64>(0, volume.used / 20) + volume.snapshotBytes + metadata;
    }
    return volume.used + volume.snapshotBytes + metadata;
}

Volume *Estate::volumeByName(const QString &svmName, const QString &name) const
{
    return m_volumeByName.value(svmName + QLatin1Char('\n') + name);
}

Volume *Estate::addVolume(std::unique_ptr<Volume> volume)
{
    Volume *raw = volume.get();
    m_volumeByUuid.insert(raw->uuid, raw);
    m_volumeByName.insert(raw->svm.name + QLatin1Char('\n') + raw->name, raw);
    m_volumes.push_back(std::move(volume));
    touch();
    return raw;
}

void Estate::removeVolume(const QString &uuid)
{
    Volume *target = volume(uuid);
    if (!target) {
        return;
    }
    QStringList doomed{uuid};
    for (const Volume *constituent : constituentsOf(uuid)) {
        doomed.append(constituent->uuid);
    }
    flexcaches.erase(std::remove_if(flexcaches.begin(),
                                    flexcaches.end(),
                                    [&](const FlexCache &cache) {
                                        return cache.uuid == uuid;
                                    }),
                     flexcaches.end());
    for (const QString &id : std::as_const(doomed)) {
        Volume *v = volume(id);
        if (!v) {
            continue;
        }
        m_volumeByName.remove(v->svm.name + QLatin1Char('\n') + v->name);
        m_volumeByUuid.remove(id);
    }
    m_volumes.erase(std::remove_if(m_volumes.begin(),
                                   m_volumes.end(),
                                   [&](const std::unique_ptr<Volume> &v) {
                                       return doomed.contains(v->uuid);
                                   }),
                    m_volumes.end());
    touch();
}

void Estate::renameVolume(Volume &volume, const QString &name)
{
    m_volumeByName.remove(volume.svm.name + QLatin1Char('\n') + volume.name);
    volume.name = name;
    m_volumeByName.insert(volume.svm.name + QLatin1Char('\n') + volume.name, &volume);
    touch();
}

QList<const Volume *> Estate::volumesWhere(const std::function<bool(const Volume &)> &keep) const
{
    QList<const Volume *> out;
    for (const auto &v : m_volumes) {
        if (keep(*v)) {
            out.append(v.get());
        }
    }
    return out;
}

QList<const Volume *> Estate::clonesOfSnapshot(const QString &snapshotUuid) const
{
    return volumesWhere([&snapshotUuid](const Volume &v) {
        return v.isFlexClone && !v.splitInitiated && v.cloneParentSnapshot.uuid == snapshotUuid;
    });
}

QList<const Volume *> Estate::clonesOfVolume(const QString &volumeUuid) const
{
    return volumesWhere([&volumeUuid](const Volume &v) {
        return v.isFlexClone && !v.splitInitiated && v.cloneParentVolume.uuid == volumeUuid;
    });
}

QList<const Volume *> Estate::constituentsOf(const QString &flexgroupUuid) const
{
    return volumesWhere([&flexgroupUuid](const Volume &v) {
        return v.isConstituent && v.flexgroupUuid == flexgroupUuid;
    });
}

void Estate::materialiseSnapshots(Volume &volume) const
{
    if (volume.snapshotsMaterialised) {
        return;
    }
    std::mt19937_64 rng(quint64(volume.seed) ^ 0x5eed5eed5eedULL);
    const int count = volume.lazySnapshotCount;
    const int weekly = count / 5;
    const int daily = (count * 3) / 10;
    const int hourly = count - weekly - daily;
    const qint64 hourStart = createdMs - createdMs % HourMs;
    const qint64 dayStart = createdMs - createdMs % DayMs;
    volume.snapshots.clear();
    volume.snapshots.reserve(static_cast<size_t>(count));
    int i = 0;
    auto add = [&](const QString &prefix, const QString &label, qint64 ms) {
        Snapshot s;
        s.uuid = uuidFrom(rng);
        s.name = prefix + QLatin1Char('.') + nameStamp(ms);
        s.createMs = ms;
        s.createTime = timestamp(ms);
        s.snapmirrorLabel = label;
        s.size = lazySnapshotSize(volume, i++);
        s.volumeUsedAtCreate = volume.lazySnapshotBasis;
        volume.snapshots.push_back(std::move(s));
    };
    // Oldest first, as ONTAP lists them.
    for (int k = weekly; k >= 1; --k) {
        add(QStringLiteral("weekly"), QStringLiteral("weekly"), dayStart - k * 7 * DayMs + 15 * 60 * 1000);
    }
    for (int k = daily; k >= 1; --k) {
        add(QStringLiteral("daily"), QStringLiteral("daily"), dayStart - (k - 1) * DayMs + 10 * 60 * 1000 - DayMs);
    }
    for (int k = hourly; k >= 1; --k) {
        add(QStringLiteral("hourly"), QStringLiteral("hourly"), hourStart - (k - 1) * HourMs + 5 * 60 * 1000 - HourMs);
    }
    std::sort(volume.snapshots.begin(), volume.snapshots.end(), [](const Snapshot &a, const Snapshot &b) {
        return a.createMs < b.createMs;
    });
    volume.snapshotsMaterialised = true;
    volume.lazySnapshotCount = 0;
}

Snapshot *Estate::snapshot(Volume &volume, const QString &uuid) const
{
    materialiseSnapshots(volume);
    return findBy(volume.snapshots, &Snapshot::uuid, uuid);
}

Snapshot *Estate::snapshotByName(Volume &volume, const QString &name) const
{
    materialiseSnapshots(volume);
    return findBy(volume.snapshots, &Snapshot::name, name);
}

int Estate::qosObjectCount(const QString &policyUuid) const
{
    int n = 0;
    for (const auto &v : m_volumes) {
        n += v->qosPolicy.uuid == policyUuid ? 1 : 0;
    }
    return n;
}

QHash<QString, qint64> Estate::aggregateUsage() const
{
    QHash<QString, qint64> used;
    for (const auto &v : m_volumes) {
        if (v->aggregates.isEmpty()) {
            continue;
        }
        const qint64 share = footprint(*v) / v->aggregates.size();
        for (const Ref &a : v->aggregates) {
            used[a.uuid] += share;
        }
    }
    return used;
}

EmsEvent &Estate::addEvent(qint64 nowMs,
                           const Ref &node,
                           const QString &messageName,
                           const QString &severity,
                           const QString &logMessage,
                           const QList<QPair<QString, QString>> &parameters)
{
    EmsEvent event;
    event.index = m_nextEventIndex++;
    event.timeMs = nowMs;
    event.time = timestamp(nowMs);
    event.node = node;
    event.messageName = messageName;
    event.severity = severity;
    event.logMessage = logMessage;
    event.source = QStringLiteral("mgwd");
    event.parameters = parameters;
    events.push_back(std::move(event));
    touch();
    return events.back();
}

void Estate::addScheduledSnapshots(Volume &volume, qint64 nowMs, int hourly, int daily, int weekly)
{
    const qint64 hourStart = nowMs - nowMs % HourMs;
    const qint64 dayStart = nowMs - nowMs % DayMs;
    // 1970-01-01 was a Thursday: weekly copies land on Sundays at 00:15.
    const qint64 daysSinceSunday = ((dayStart / DayMs) + 4) % 7;
    const qint64 lastSunday = dayStart - daysSinceSunday * DayMs;
    auto add = [&](const QString &prefix, qint64 ms) {
        Snapshot s;
        s.uuid = newUuid();
        s.name = prefix + QLatin1Char('.') + nameStamp(ms);
        s.createMs = ms;
        s.createTime = timestamp(ms);
        s.snapmirrorLabel = prefix;
        s.size = std::max<qint64>(
            16 * 1024 * 1024, static_cast<qint64>(static_cast<double>(volume.used) * (0.002 + 0.01 * randomUnit())));
        s.volumeUsedAtCreate =
            volume.used
            - static_cast<qint64>(static_cast<double>(volume.used) * 0.001 * double(nowMs - ms) / double(DayMs));
        volume.snapshotBytes += s.size;
        volume.snapshots.push_back(std::move(s));
    };
    for (int k = weekly; k >= 1; --k) {
        add(QStringLiteral("weekly"), lastSunday - (k - 1) * 7 * DayMs + 15 * 60 * 1000);
    }
    for (int k = daily; k >= 1; --k) {
        add(QStringLiteral("daily"), dayStart - (k - 1) * DayMs + 10 * 60 * 1000);
    }
    for (int k = hourly; k >= 1; --k) {
        add(QStringLiteral("hourly"), hourStart - (k - 1) * HourMs + 5 * 60 * 1000);
    }
    // Entries "in the future" (today's copy before 00:10, this hour's before :05) move back a period.
    for (Snapshot &s : volume.snapshots) {
        if (s.createMs > nowMs) {
            const qint64 period = s.name.startsWith(QLatin1String("hourly"))  ? HourMs
                                  : s.name.startsWith(QLatin1String("daily")) ? DayMs
                                                                              : 7 * DayMs;
            s.createMs -= period;
            s.createTime = timestamp(s.createMs);
            s.name = s.snapmirrorLabel + QLatin1Char('.') + nameStamp(s.createMs);
        }
    }
    std::sort(volume.snapshots.begin(), volume.snapshots.end(), [](const Snapshot &a, const Snapshot &b) {
        return a.createMs < b.createMs;
    });
    // Two periods can collapse onto one name after the shift above; keep the names unique.
    for (size_t i = 1; i < volume.snapshots.size(); ++i) {
        if (volume.snapshots[i].name == volume.snapshots[i - 1].name) {
            volume.snapshots[i].name += QStringLiteral("_1");
        }
    }
}

namespace {

// The estate of a preset with its cluster record; the cluster's uuid is the first one it draws.
std::unique_ptr<Estate> newClusterEstate(
    const QString &clusterName, quint64 seed, qint64 nowMs, const QString &location, const QString &managementAddress)
{
    auto estate = std::make_unique<Estate>(seed);
    estate->createdMs = nowMs;
    estate->cluster.name = clusterName;
    estate->cluster.uuid = estate->newUuid();
    estate->cluster.versionFull = QStringLiteral("NetApp Release 9.14.1P3: Thu Mar 14 06:12:51 UTC 2024");
    estate->cluster.location = location;
    estate->cluster.contact = QStringLiteral("storage-team@example.com");
    estate->cluster.managementAddress = managementAddress;
    return estate;
}

// Two aggregates per node, "aggr1_<node>" and "aggr2_<node>" ('-' in the node name as '_').
void addNodeAggregates(Estate &e, qint64 size, int diskCount, qint64 createMs)
{
    for (const Node &n : e.nodes) {
        for (int a = 1; a <= 2; ++a) {
            Aggregate aggr;
            aggr.uuid = e.newUuid();
            aggr.name = QStringLiteral("aggr%1_").arg(a) + QString(n.name).replace(QLatin1Char('-'), QLatin1Char('_'));
            aggr.node = Ref{n.name, n.uuid};
            aggr.size = size;
            aggr.diskCount = diskCount;
            aggr.createTime = Estate::timestamp(createMs);
            e.aggregates.push_back(aggr);
        }
    }
}

} // namespace

std::unique_ptr<Estate> Estate::demo(const QString &clusterName, quint64 seed, qint64 nowMs)
{
    auto estate = newClusterEstate(
        clusterName, seed, nowMs, QStringLiteral("AI data centre, row 4"), QStringLiteral("10.20.0.10"));
    Estate &e = *estate;

    const QString nodePrefix = clusterName;
    for (int i = 1; i <= 2; ++i) {
        Node n;
        n.uuid = e.newUuid();
        n.name = nodePrefix + QStringLiteral("-0%1").arg(i);
        n.model = QStringLiteral("AFF-A800");
        n.serialNumber = QStringLiteral("2119240001%1").arg(i, 2, 10, QLatin1Char('0'));
        n.systemId = QStringLiteral("05370832%1").arg(10 + i);
        n.managementAddress = QStringLiteral("10.20.0.%1").arg(10 + i);
        n.uptimeSeconds = 86400LL * 41 + 3600LL * i;
        e.nodes.push_back(n);
    }
    e.nodes[0].partnerName = e.nodes[1].name;
    e.nodes[0].partnerUuid = e.nodes[1].uuid;
    e.nodes[1].partnerName = e.nodes[0].name;
    e.nodes[1].partnerUuid = e.nodes[0].uuid;

    addNodeAggregates(e, 31 * TiB + TiB / 2, 11, nowMs - 400 * DayMs);
    auto aggrRef = [&](int i) {
        return Ref{e.aggregates[size_t(i)].name, e.aggregates[size_t(i)].uuid};
    };
    QList<Ref> allAggregates;
    for (int i = 0; i < 4; ++i) {
        allAggregates.append(aggrRef(i));
    }

    Svm ai;
    ai.uuid = e.newUuid();
    ai.name = QStringLiteral("svm_ai");
    ai.comment = QStringLiteral("Datasets and Trident PVCs for the AI platform");
    ai.aggregates = allAggregates;
    ai.createTime = timestamp(nowMs - 380 * DayMs);
    Svm cache;
    cache.uuid = e.newUuid();
    cache.name = QStringLiteral("svm_cache");
    cache.comment = QStringLiteral("NFS caches next to the dgx GPU cluster");
    cache.aggregates = allAggregates;
    cache.createTime = timestamp(nowMs - 200 * DayMs);
    e.svms = {ai, cache};
    const Ref aiRef{ai.name, ai.uuid};
    const Ref cacheRef{cache.name, cache.uuid};

    auto policy = [&](const QString &name, const Ref &svm, bool adaptive) -> QosPolicy & {
        QosPolicy p;
        p.uuid = e.newUuid();
        p.name = name;
        p.svm = svm;
        p.adaptive = adaptive;
        e.qosPolicies.push_back(p);
        return e.qosPolicies.back();
    };
    {
        QosPolicy &p = policy(QStringLiteral("extreme"), Ref{}, true);
        p.expectedIops = 6144;
        p.peakIops = 12288;
        p.absoluteMinIops = 1000;
    }
    {
        QosPolicy &p = policy(QStringLiteral("performance"), Ref{}, true);
        p.expectedIops = 2048;
        p.peakIops = 4096;
        p.absoluteMinIops = 500;
    }
    {
        QosPolicy &p = policy(QStringLiteral("value"), Ref{}, true);
        p.expectedIops = 128;
        p.peakIops = 512;
        p.absoluteMinIops = 75;
    }
    {
        QosPolicy &p = policy(QStringLiteral("ai-training"), aiRef, false);
        p.maxIops = 50000;
        p.maxMbps = 4000;
    }
    {
        QosPolicy &p = policy(QStringLiteral("trident-default"), aiRef, false);
        p.maxIops = 5000;
        p.maxMbps = 500;
    }
    {
        QosPolicy &p = policy(QStringLiteral("gpu-cache-floor"), cacheRef, false);
        p.minIops = 20000;
        p.maxMbps = 6000;
    }
    auto qosRef = [&](const QString &name) {
        const QosPolicy *p = e.qosPolicyByName(name);
        return Ref{p->name, p->uuid};
    };

    auto makeVolume = [&](const QString &name, const Ref &svm, const QList<Ref> &aggrs, qint64 size, qint64 used) {
        auto v = std::make_unique<Volume>();
        v->uuid = e.newUuid();
        v->name = name;
        v->svm = svm;
        v->aggregates = aggrs;
        v->size = size;
        v->used = used;
        v->createMs = nowMs - e.randomBetween(30, 360) * DayMs;
        v->createTime = timestamp(v->createMs);
        v->nasPath = QLatin1Char('/') + name;
        v->seed = quint32(e.m_rng());
        v->filesMaximum = std::max<qint64>(size / 32768, 10000);
        v->filesUsed = std::max<qint64>(used / (512 * 1024), 96);
        v->perf = PerfProfile{200, 80, 40, 64 * 1024, 32 * 1024, 250};
        return v;
    };

    // Dataset volumes (TR-4841 / TR-4858 stories).
    auto chest = makeVolume(QStringLiteral("chest_xray"), aiRef, {aggrRef(0)}, 300 * GiB, 250 * GiB);
    chest->comment = QStringLiteral("NIH chest X-ray dataset: 627,615 images");
    chest->filesUsed = 627615 + 84;
    chest->qosPolicy = qosRef(QStringLiteral("performance"));
    chest->flexcacheEndpoint = QStringLiteral("origin");
    chest->perf = PerfProfile{9800, 120, 600, 128 * 1024, 64 * 1024, 180};
    e.addScheduledSnapshots(*chest, nowMs, 4, 3, 2);
    {
        // Dataset commits taken with the DataOps Toolkit naming convention.
        for (int k = 2; k >= 1; --k) {
            Snapshot s;
            s.uuid = e.newUuid();
            s.createMs = nowMs - k * 5 * DayMs + 3 * HourMs;
            s.createTime = timestamp(s.createMs);
            s.name = QStringLiteral("ntap_dsutil_")
                     + QDateTime::fromMSecsSinceEpoch(s.createMs, Qt::UTC).toString(QStringLiteral("yyyyMMdd_HHmmss"));
            s.comment =
                k == 2 ? QStringLiteral("commit: initial import") : QStringLiteral("commit: relabelled pneumonia");
            s.size = 3 * GiB + k * GiB / 3;
            s.volumeUsedAtCreate = 250 * GiB - k * 2 * GiB;
            chest->snapshotBytes += s.size;
            chest->snapshots.push_back(s);
        }
        std::sort(chest->snapshots.begin(), chest->snapshots.end(), [](const Snapshot &a, const Snapshot &b) {
            return a.createMs < b.createMs;
        });
    }
    Volume *chestVol = e.addVolume(std::move(chest));

    auto imagenet = makeVolume(QStringLiteral("imagenet"), aiRef, allAggregates, TiB, 154 * GiB);
    imagenet->style = QStringLiteral("flexgroup");
    imagenet->constituentCount = 8;
    imagenet->comment = QStringLiteral("ImageNet ILSVRC2012: 1,281,167 training images");
    imagenet->filesUsed = 1281167 + 50000 + 1000;
    imagenet->qosPolicy = qosRef(QStringLiteral("extreme"));
    imagenet->flexcacheEndpoint = QStringLiteral("origin");
    imagenet->perf = PerfProfile{24000, 200, 1500, 110 * 1024, 64 * 1024, 160};
    e.addScheduledSnapshots(*imagenet, nowMs, 4, 3, 2);
    Volume *imagenetVol = e.addVolume(std::move(imagenet));
    for (int c = 1; c <= 8; ++c) {
        auto part = makeVolume(QStringLiteral("imagenet__%1").arg(c, 4, 10, QLatin1Char('0')),
                               aiRef,
                               {aggrRef((c - 1) % 4)},
                               imagenetVol->size / 8,
                               imagenetVol->used / 8);
        part->style = QStringLiteral("flexgroup_constituent");
        part->isConstituent = true;
        part->flexgroupUuid = imagenetVol->uuid;
        part->nasPath.clear();
        part->createMs = imagenetVol->createMs;
        part->createTime = imagenetVol->createTime;
        part->snapshotsMaterialised = true;
        part->perf = PerfProfile{3000, 25, 190, 110 * 1024, 64 * 1024, 160};
        e.addVolume(std::move(part));
    }

    auto tusimple = makeVolume(QStringLiteral("tusimple"), aiRef, {aggrRef(1)}, 100 * GiB, 22 * GiB);
    tusimple->comment = QStringLiteral("TuSimple lane detection: 6,408 clips");
    tusimple->qosPolicy = qosRef(QStringLiteral("ai-training"));
    tusimple->perf = PerfProfile{2100, 40, 150, 256 * 1024, 64 * 1024, 210};
    e.addScheduledSnapshots(*tusimple, nowMs, 4, 2, 1);
    e.addVolume(std::move(tusimple));

    auto criteo = makeVolume(QStringLiteral("criteo"), aiRef, {aggrRef(2)}, 1536 * GiB, 0);
    criteo->used = criteo->usableSize() * 986 / 1000;
    criteo->comment = QStringLiteral("Criteo 1TB click logs: 24 days");
    criteo->qosPolicy = qosRef(QStringLiteral("ai-training"));
    criteo->perf = PerfProfile{3500, 900, 200, 256 * 1024, 128 * 1024, 420};
    e.addScheduledSnapshots(*criteo, nowMs, 2, 2, 1);
    Volume *criteoVol = e.addVolume(std::move(criteo));

    auto mnist = makeVolume(QStringLiteral("mnist_legacy"), aiRef, {aggrRef(3)}, 20 * GiB, 11 * GiB);
    mnist->state = QStringLiteral("offline");
    mnist->nasPath.clear();
    mnist->comment = QStringLiteral("Retired MNIST experiments, kept offline");
    mnist->perf = PerfProfile{};
    e.addScheduledSnapshots(*mnist, nowMs, 0, 0, 1);
    e.addVolume(std::move(mnist));

    // Trident PVCs: internal names trident_pvc_<PV uid with underscores>.
    static const char *const pvcs[] = {
        "3f2c9a1e-5b7d-4c1a-9e8f-0a1b2c3d4e5f",
        "8d4e6f10-2a3b-4c5d-8e9f-1a2b3c4d5e6f",
        "b7c8d9e0-f1a2-4b3c-9d4e-5f6a7b8c9d0e",
        "c1d2e3f4-a5b6-4c7d-8e9f-a0b1c2d3e4f5",
        "e9f8a7b6-c5d4-4e3f-a2b1-c0d9e8f7a6b5",
        "f0e1d2c3-b4a5-4968-8776-5a4b3c2d1e0f",
    };
    static const char *const claims[] = {
        "team-a/imagenet-train-scratch",
        "team-a/checkpoints",
        "team-b/chest-xray-results",
        "team-c/tusimple-features",
        "team-d/criteo-embeddings",
        "team-d/jupyter-home",
    };
    static const qint64 pvcSizes[] = {500, 200, 100, 50, 300, 20};
    static const int pvcUsedPct[] = {71, 45, 62, 38, 89, 55};
    for (int i = 0; i < 6; ++i) {
        const QString pvUid = QString::fromLatin1(pvcs[i]);
        auto pvc =
            makeVolume(QStringLiteral("trident_pvc_") + QString(pvUid).replace(QLatin1Char('-'), QLatin1Char('_')),
                       aiRef,
                       {aggrRef(i % 4)},
                       pvcSizes[i] * GiB,
                       0);
        pvc->used = pvc->usableSize() * pvcUsedPct[i] / 100;
        pvc->nasPath = QStringLiteral("/trident_pvc_") + QString(pvUid).replace(QLatin1Char('-'), QLatin1Char('_'));
        pvc->comment =
            QStringLiteral("{\"provisioning\":{\"cluster\":\"dgx\",\"pvc\":\"%1\",\"storageClass\":\"ontap-ai-nas\"}}")
                .arg(QString::fromLatin1(claims[i]));
        pvc->qosPolicy = qosRef(QStringLiteral("trident-default"));
        pvc->snapshotPolicy = QStringLiteral("none");
        pvc->snapshotReservePercent = 0;
        pvc->autosizeMode = QStringLiteral("grow");
        pvc->autosizeMaximum = pvc->size * 2;
        pvc->tridentGrowth = true;
        pvc->perf = PerfProfile{800.0 + 150 * i, 400.0 + 60 * i, 120, 64 * 1024, 64 * 1024, 350};
        for (int s = 0; s < (i % 3); ++s) {
            Snapshot snap;
            snap.uuid = e.newUuid();
            snap.name = QStringLiteral("snapshot-") + e.newUuid().left(8) + QStringLiteral("-4c2d-4e6f-9a1b-")
                        + e.newUuid().right(12);
            snap.createMs = nowMs - (s + 1) * 2 * DayMs;
            snap.createTime = timestamp(snap.createMs);
            snap.comment = QStringLiteral("CSI VolumeSnapshot");
            snap.size = pvc->used / 50;
            snap.volumeUsedAtCreate = pvc->used - pvc->used / 40;
            pvc->snapshotBytes += snap.size;
            pvc->snapshots.push_back(snap);
        }
        e.addVolume(std::move(pvc));
    }

    // A FlexClone of chest_xray from a daily copy, for an experiment branch.
    {
        const Snapshot *parentSnap = nullptr;
        for (const Snapshot &s : chestVol->snapshots) {
            if (s.snapmirrorLabel == QLatin1String("daily")) {
                parentSnap = &s;
            }
        }
        auto clone = makeVolume(QStringLiteral("chest_xray_exp42"), aiRef, {aggrRef(0)}, chestVol->size, 0);
        clone->used = parentSnap->volumeUsedAtCreate + 2 * GiB;
        clone->isFlexClone = true;
        clone->cloneParentVolume = Ref{chestVol->name, chestVol->uuid};
        clone->cloneParentSnapshot = Ref{parentSnap->name, parentSnap->uuid};
        clone->cloneParentSvm = aiRef;
        clone->comment = QStringLiteral("Experiment 42: relabelled subset");
        clone->createMs = parentSnap->createMs + HourMs;
        clone->createTime = timestamp(clone->createMs);
        clone->snapshotPolicy = QStringLiteral("none");
        clone->perf = PerfProfile{1200, 300, 100, 128 * 1024, 64 * 1024, 220};
        e.addVolume(std::move(clone));
    }

    // Cache targets next to the GPU cluster, and FlexCaches of the hot datasets.
    static const qint64 cacheUsed[] = {1126, 614, 205};
    for (int i = 1; i <= 3; ++i) {
        auto c =
            makeVolume(QStringLiteral("cache_0%1").arg(i), cacheRef, {aggrRef(i % 4)}, 2 * TiB, cacheUsed[i - 1] * GiB);
        c->comment = QStringLiteral("NFS cache target for dgx (TR-4841)");
        c->qosPolicy = qosRef(QStringLiteral("gpu-cache-floor"));
        c->snapshotPolicy = QStringLiteral("none");
        c->snapshotReservePercent = 0;
        c->perf = PerfProfile{6000.0 / i, 900.0 / i, 300, 128 * 1024, 128 * 1024, 190};
        e.addVolume(std::move(c));
    }
    for (const Volume *origin : {static_cast<const Volume *>(imagenetVol), static_cast<const Volume *>(chestVol)}) {
        auto fc = makeVolume(origin->name + QStringLiteral("_cache"),
                             cacheRef,
                             {aggrRef(2), aggrRef(3)},
                             origin->size * 2 / 5,
                             origin->used * 2 / 5);
        fc->style = QStringLiteral("flexgroup");
        fc->flexcacheEndpoint = QStringLiteral("cache");
        fc->snapshotPolicy = QStringLiteral("none");
        fc->snapshotReservePercent = 0;
        fc->comment = QStringLiteral("FlexCache of %1:%2 near dgx").arg(origin->svm.name, origin->name);
        fc->perf = PerfProfile{origin->perf.readIops * 0.6, 10, 200, 128 * 1024, 64 * 1024, 140};
        FlexCache record;
        record.uuid = fc->uuid;
        record.origin = Ref{origin->name, origin->uuid};
        record.originSvm = origin->svm;
        record.createTime = fc->createTime;
        e.flexcaches.push_back(record);
        e.addVolume(std::move(fc));
    }

    // A few alerts and notices, oldest first.
    const Ref node1{e.nodes[0].name, e.nodes[0].uuid};
    const Ref node2{e.nodes[1].name, e.nodes[1].uuid};
    const Volume *grown = nullptr;
    for (const auto &v : e.volumes()) {
        if (v->tridentGrowth) {
            grown = v.get();
            break;
        }
    }
    e.addEvent(nowMs - 30 * HourMs,
               node1,
               QStringLiteral("kern.uptime.filer"),
               QStringLiteral("informational"),
               QStringLiteral("10:00:00 up 41 days, 1:00 0 NFS ops, 0 CIFS ops, 0 HTTP ops, 0 FCP ops, 0 iSCSI ops"));
    e.addEvent(nowMs - 20 * HourMs,
               node1,
               QStringLiteral("wafl.vol.autoSize.done"),
               QStringLiteral("notice"),
               QStringLiteral("Volume autosize: Automatic grow of volume '%1@vserver:%2' by 50GB complete.")
                   .arg(grown->name, grown->svm.uuid),
               {{QStringLiteral("vol"), grown->name}, {QStringLiteral("size"), QStringLiteral("53687091200")}});
    e.addEvent(nowMs - 9 * HourMs,
               node2,
               QStringLiteral("monitor.volume.nearlyFull"),
               QStringLiteral("alert"),
               QStringLiteral("Volume %1@vserver:%2 is nearly full (using or reserving 96% of space and 2% of inodes).")
                   .arg(criteoVol->name, criteoVol->svm.uuid),
               {{QStringLiteral("object_uuid"), criteoVol->uuid}, {QStringLiteral("percent"), QStringLiteral("96")}});
    e.addEvent(
        nowMs - 2 * HourMs,
        node2,
        QStringLiteral("wafl.vol.full"),
        QStringLiteral("alert"),
        QStringLiteral("Insufficient space on volume %1@vserver:%2 to perform operation. 4.00KB was requested but "
                       "only 1.00KB was available.")
            .arg(criteoVol->name, criteoVol->svm.uuid),
        {{QStringLiteral("vol"), criteoVol->name}, {QStringLiteral("app"), QStringLiteral("NFS")}});
    e.addEvent(nowMs - 90 * 60 * 1000,
               node1,
               QStringLiteral("sms.status.out.of.sync"),
               QStringLiteral("error"),
               QStringLiteral("Source volume \"svm_ai:criteo\" and destination volume \"dr_svm:criteo_dst\" with "
                              "relationship UUID \"%1\" is in \"out-of-sync\" status due to the following reason: "
                              "\"Transfer failed: volume is full.\"")
                   .arg(e.newUuid()));
    e.addEvent(
        nowMs - 40 * 60 * 1000,
        node2,
        QStringLiteral("kern.uptime.filer"),
        QStringLiteral("informational"),
        QStringLiteral("11:20:00 up 41 days, 2:20 18240135 NFS ops, 0 CIFS ops, 0 HTTP ops, 0 FCP ops, 0 iSCSI ops"));
    return estate;
}

std::unique_ptr<Estate>
Estate::generated(const QString &clusterName, int volumeCount, int snapshotsPerVolume, quint64 seed, qint64 nowMs)
{
    auto estate =
        newClusterEstate(clusterName, seed, nowMs, QStringLiteral("Generated lab"), QStringLiteral("10.30.0.10"));
    Estate &e = *estate;

    const int pairs = std::clamp(volumeCount / 5000, 1, 6);
    for (int i = 1; i <= pairs * 2; ++i) {
        Node n;
        n.uuid = e.newUuid();
        n.name = clusterName + QStringLiteral("-%1").arg(i, 2, 10, QLatin1Char('0'));
        n.model = i <= 2 ? QStringLiteral("AFF-A800") : QStringLiteral("AFF-A400");
        n.serialNumber = QStringLiteral("7219240%1").arg(i, 5, 10, QLatin1Char('0'));
        n.systemId = QStringLiteral("0538%1").arg(100000 + i);
        n.managementAddress = QStringLiteral("10.30.0.%1").arg(10 + i);
        n.uptimeSeconds = 86400LL * 90;
        e.nodes.push_back(n);
    }
    for (size_t i = 0; i + 1 < e.nodes.size(); i += 2) {
        e.nodes[i].partnerName = e.nodes[i + 1].name;
        e.nodes[i].partnerUuid = e.nodes[i + 1].uuid;
        e.nodes[i + 1].partnerName = e.nodes[i].name;
        e.nodes[i + 1].partnerUuid = e.nodes[i].uuid;
    }
    addNodeAggregates(e, 0, 23, nowMs - 500 * DayMs); // sized below, from what they hold

    static const char *const departments[] = {"eng",
                                              "research",
                                              "ml",
                                              "analytics",
                                              "finance",
                                              "web",
                                              "db",
                                              "vdi",
                                              "backup",
                                              "media",
                                              "genomics",
                                              "hpc",
                                              "legal",
                                              "hr",
                                              "sales",
                                              "iot"};
    const int svmCount = std::clamp(volumeCount / 1000, 2, 16);
    for (int i = 0; i < svmCount; ++i) {
        Svm s;
        s.uuid = e.newUuid();
        s.name = QStringLiteral("svm_") + QString::fromLatin1(departments[i]);
        for (const Aggregate &a : e.aggregates) {
            s.aggregates.append(Ref{a.name, a.uuid});
        }
        s.createTime = timestamp(nowMs - e.randomBetween(100, 480) * DayMs);
        e.svms.push_back(s);
    }

    auto addPolicy = [&](const QString &name, bool adaptive, qint64 a, qint64 b) {
        QosPolicy p;
        p.uuid = e.newUuid();
        p.name = name;
        p.adaptive = adaptive;
        if (adaptive) {
            p.expectedIops = a;
            p.peakIops = b;
            p.absoluteMinIops = a / 8;
        } else {
            p.maxIops = a;
            p.maxMbps = b;
        }
        e.qosPolicies.push_back(p);
    };
    addPolicy(QStringLiteral("extreme"), true, 6144, 12288);
    addPolicy(QStringLiteral("performance"), true, 2048, 4096);
    addPolicy(QStringLiteral("value"), true, 128, 512);
    addPolicy(QStringLiteral("gold"), false, 20000, 2000);
    addPolicy(QStringLiteral("silver"), false, 5000, 500);
    addPolicy(QStringLiteral("bronze"), false, 1000, 100);

    static const char *const prefixes[] = {"vol_data", "home", "proj", "db", "logs", "vm_ds", "scratch", "share"};
    for (int i = 0; i < volumeCount; ++i) {
        auto v = std::make_unique<Volume>();
        v->uuid = e.newUuid();
        const Svm &svm = e.svms[size_t(i % svmCount)];
        v->svm = Ref{svm.name, svm.uuid};
        const bool trident = e.randomUnit() < 0.3;
        if (trident) {
            QString pv = e.newUuid();
            v->name = QStringLiteral("trident_pvc_") + pv.replace(QLatin1Char('-'), QLatin1Char('_'));
            v->tridentGrowth = true;
            v->snapshotPolicy = QStringLiteral("none");
            v->autosizeMode = QStringLiteral("grow");
        } else {
            v->name = QString::fromLatin1(prefixes[e.randomBetween(0, 7)])
                      + QStringLiteral("_%1").arg(i, 5, 10, QLatin1Char('0'));
        }
        const Aggregate &aggr = e.aggregates[size_t(e.randomBetween(0, qint64(e.aggregates.size()) - 1))];
        v->aggregates = {Ref{aggr.name, aggr.uuid}};
        // Log-uniform between 1 GiB and 8 TiB.
        const double exponent = e.randomUnit() * 13.0;
        v->size = std::max<qint64>(GiB, static_cast<qint64>(std::pow(2.0, exponent) * double(GiB)) / GiB * GiB);
        v->used = static_cast<qint64>(double(v->usableSize()) * (0.05 + 0.9 * e.randomUnit()));
        v->autosizeMaximum = v->size * 3 / 2;
        v->createMs = nowMs - e.randomBetween(1, 900) * DayMs - e.randomBetween(0, DayMs);
        v->createTime = timestamp(v->createMs);
        v->nasPath = QLatin1Char('/') + v->name;
        v->seed = quint32(e.m_rng());
        v->filesMaximum = std::max<qint64>(v->size / 32768, 10000);
        v->filesUsed = std::max<qint64>(v->used / (256 * 1024), 96);
        const double load = std::pow(e.randomUnit(), 3.0);
        v->perf = PerfProfile{
            20 + 4000 * load, 10 + 1500 * load, 5 + 300 * load, 32 * 1024, 16 * 1024, 200 + 800 * e.randomUnit()};
        if (e.randomUnit() < 0.4) {
            const QosPolicy &p = e.qosPolicies[size_t(e.randomBetween(0, qint64(e.qosPolicies.size()) - 1))];
            v->qosPolicy = Ref{p.name, p.uuid};
        }
        v->snapshotsMaterialised = false;
        v->lazySnapshotCount = snapshotsPerVolume;
        v->lazySnapshotBasis = v->used;
        for (int s = 0; s < snapshotsPerVolume; ++s) {
            v->snapshotBytes += lazySnapshotSize(*v, s);
        }
        e.m_volumeByUuid.insert(v->uuid, v.get());
        e.m_volumeByName.insert(v->svm.name + QLatin1Char('\n') + v->name, v.get());
        e.m_volumes.push_back(std::move(v));
    }
    // Size the aggregates so they sit between 45 % and 80 % full.
    const QHash<QString, qint64> usage = e.aggregateUsage();
    for (Aggregate &a : e.aggregates) {
        const qint64 used = usage.value(a.uuid);
        const double fill = 0.45 + 0.35 * e.randomUnit();
        a.size = std::max<qint64>(10 * TiB, static_cast<qint64>(double(used) / fill) / GiB * GiB);
    }
    const Ref node1{e.nodes[0].name, e.nodes[0].uuid};
    e.addEvent(nowMs - 5 * HourMs,
               node1,
               QStringLiteral("kern.uptime.filer"),
               QStringLiteral("informational"),
               QStringLiteral("up 90 days"));
    e.touch();
    return estate;
}

} // namespace strata::sim::ontap
