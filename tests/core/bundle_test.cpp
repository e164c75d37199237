#include "models/core/domain/estate.h"
#include "models/core/runtime/bundle.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/historyservice.h"
#include "models/core/services/servicelevels.h"
#include "models/core/store/credentialstore.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <algorithm>
#include <zlib.h>

using strata::testsupport::errorText;
using strata::testsupport::succeeded;
using namespace strata::core;
using strata::testsupport::ManualClock;

namespace {

const QDateTime kBundleNow(QDate(2026, 11, 23), QTime(0, 36, 13, 250), Qt::UTC);

template <class Pred> bool waitForBundle(Pred pred, int ms = 5000)
{
    QDeadlineTimer deadline(ms);
    while (!pred() && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return pred();
}

QByteArray gunzipped(const QByteArray &data)
{
    z_stream zs{};
    inflateInit2(&zs, 15 + 16);
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    zs.avail_in = uInt(data.size());
    QByteArray out;
    char chunk[65536];
    int rc = Z_OK;
    while (rc == Z_OK) {
        zs.next_out = reinterpret_cast<Bytef *>(chunk);
        zs.avail_out = sizeof chunk;
        rc = inflate(&zs, Z_NO_FLUSH);
        out.append(chunk, qsizetype(sizeof chunk - zs.avail_out));
    }
    inflateEnd(&zs);
    return out;
}

QByteArray gzipped(const QByteArray &data)
{
    z_stream zs{};
    deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(qsizetype(deflateBound(&zs, uLong(data.size()))), '\0');
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    zs.avail_in = uInt(data.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = uInt(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(qsizetype(zs.total_out));
    deflateEnd(&zs);
    return out;
}

/// A bundle with every record type, non-default values in the fields that need care (times,
/// optionals, enums, nested slots, lists, negative numbers, fractions).
Bundle sampleBundle()
{
    Bundle b;
    b.meta.created = kBundleNow;
    b.meta.strataVersion = QStringLiteral("1.2.3");
    b.meta.host = QStringLiteral("support-laptop");
    b.meta.user = QStringLiteral("alice");
    b.meta.hours = 24;

    SourceConfig ontap;
    ontap.name = QStringLiteral("ontap-ai");
    ontap.kind = SourceKind::Ontap;
    ontap.url = QStringLiteral("https://cluster.example");
    ontap.username = QStringLiteral("admin");
    ontap.datasetRoots = {QStringLiteral("svm_ai/chest_xray")};
    SourceConfig kube;
    kube.name = QStringLiteral("dgx");
    kube.kind = SourceKind::Kubernetes;
    kube.url = QStringLiteral("https://dgx.example:6443");
    kube.prometheusUrl = QStringLiteral("https://prom.example");
    SourceConfig grid;
    grid.name = QStringLiteral("datalake");
    grid.kind = SourceKind::StorageGrid;
    grid.url = QStringLiteral("https://admin.datalake.example");
    grid.s3Url = QStringLiteral("https://s3.datalake.example:10443");
    grid.s3PathStyle = false;
    SourceConfig azure;
    azure.name = QStringLiteral("ai-lab");
    azure.kind = SourceKind::Azure;
    azure.url = QStringLiteral("https://management.azure.com");
    azure.subscriptionId = QStringLiteral("sub-1");
    b.sources = {ontap, kube, grid, azure};

    for (const SourceConfig &c : std::as_const(b.sources)) {
        SourceStatus s;
        s.name = c.name;
        s.kind = c.kind;
        s.url = c.url;
        s.health = c.kind == SourceKind::Azure ? Health::Degraded : Health::Ok;
        s.stale = c.kind == SourceKind::Azure;
        s.lastError = c.kind == SourceKind::Azure ? QStringLiteral("timeout") : QString();
        s.lastSuccess = kBundleNow.addSecs(-30);
        s.lastAttempt = kBundleNow.addSecs(-5);
        s.latencyMs = 412;
        s.systemName = c.name + QStringLiteral("-sys");
        s.systemVersion = QStringLiteral("9.14.1");
        s.consecutiveFailures = c.kind == SourceKind::Azure ? 2 : 0;
        b.statuses.append(s);
    }

    Volume v;
    v.source = QStringLiteral("ontap-ai");
    v.id = QStringLiteral("uuid-1");
    v.name = QStringLiteral("chest_xray");
    v.svm = QStringLiteral("svm_ai");
    v.aggregate = QStringLiteral("aggr1");
    v.aggregateCount = 2;
    v.state = QStringLiteral("online");
    v.style = QStringLiteral("flexgroup");
    v.type = QStringLiteral("rw");
    v.sizeBytes = 5'497'558'138'880;
    v.usedBytes = 1'234'567'890'123;
    v.availableBytes = 4'262'990'248'757;
    v.percentUsed = 22.456789;
    v.snapshotReservePercent = 5;
    v.snapshotCount = 12;
    v.qosPolicy = QStringLiteral("gold");
    v.created = kBundleNow.addDays(-40);
    v.throughputMibps = -1;
    Volume v2 = v;
    v2.id = QStringLiteral("uuid-2");
    v2.name = QStringLiteral("mri");
    v2.isFlexCache = true;
    v2.created = QDateTime();
    b.estate.volumes.insert(QStringLiteral("ontap-ai"), {v, v2});
    Volume anf;
    anf.source = QStringLiteral("ai-lab");
    anf.id = QStringLiteral("fs-1");
    anf.name = QStringLiteral("criteo-data");
    anf.serviceLevel = QStringLiteral("Premium");
    anf.armId = QStringLiteral("/subscriptions/sub-1/x");
    anf.throughputMibps = 256.5;
    b.estate.volumes.insert(QStringLiteral("ai-lab"), {anf});

    VolumePerf perf;
    perf.source = QStringLiteral("ontap-ai");
    perf.id = QStringLiteral("uuid-1");
    perf.time = kBundleNow;
    perf.readIops = 1200.25;
    perf.throughputBps = 3.5e8;
    perf.latencyUs = 410.125;
    b.estate.volumePerf.insert(QStringLiteral("ontap-ai"), {perf});

    Snapshot snap;
    snap.source = QStringLiteral("ontap-ai");
    snap.id = QStringLiteral("snap-1");
    snap.volumeId = QStringLiteral("uuid-1");
    snap.volumeName = QStringLiteral("chest_xray");
    snap.name = QStringLiteral("daily.2026-11-22");
    snap.created = kBundleNow.addDays(-1);
    snap.sizeBytes = 4096;
    b.estate.snapshots.insert(Estate::snapshotScope(QStringLiteral("ontap-ai"), QStringLiteral("uuid-1")), {snap});
    b.estate.snapshots.insert(Estate::snapshotScope(QStringLiteral("ontap-ai"), QStringLiteral("uuid-2")), {});

    b.estate.svms.insert(
        QStringLiteral("ontap-ai"),
        {Svm{
            QStringLiteral("ontap-ai"), QStringLiteral("svm-1"), QStringLiteral("svm_ai"), QStringLiteral("running")}});
    Aggregate aggr;
    aggr.source = QStringLiteral("ontap-ai");
    aggr.id = QStringLiteral("aggr-1");
    aggr.name = QStringLiteral("aggr1");
    aggr.sizeBytes = 1LL << 45;
    b.estate.aggregates.insert(QStringLiteral("ontap-ai"), {aggr});
    QosPolicy qos;
    qos.source = QStringLiteral("ontap-ai");
    qos.id = QStringLiteral("qos-1");
    qos.name = QStringLiteral("gold");
    qos.adaptive = true;
    qos.expectedIopsPerTb = 6144;
    b.estate.qosPolicies.insert(QStringLiteral("ontap-ai"), {qos});
    FlexCache fc;
    fc.source = QStringLiteral("ontap-ai");
    fc.id = QStringLiteral("uuid-2");
    fc.name = QStringLiteral("mri");
    fc.origin = QStringLiteral("c1:svm:mri");
    b.estate.flexCaches.insert(QStringLiteral("ontap-ai"), {fc});
    Event ev;
    ev.source = QStringLiteral("ontap-ai");
    ev.id = QStringLiteral("node1/4711");
    ev.time = kBundleNow.addSecs(-600);
    ev.severity = QStringLiteral("error");
    ev.name = QStringLiteral("wafl.vol.full");
    ev.message = QStringLiteral("Volume full — “quoted” ünïcode");
    b.estate.events.insert(QStringLiteral("ontap-ai"), {ev});

    GpuCluster cluster;
    cluster.source = QStringLiteral("dgx");
    cluster.id = QStringLiteral("dgx");
    cluster.name = QStringLiteral("dgx");
    cluster.hasKai = true;
    cluster.gpuTotal = 16000;
    cluster.gpuAllocated = 12600;
    cluster.utilization = 61.5;
    cluster.metricsAvailable = true;
    b.estate.gpuClusters.insert(QStringLiteral("dgx"), {cluster});
    GpuNode node;
    node.source = QStringLiteral("dgx");
    node.id = QStringLiteral("dgx-1");
    node.name = QStringLiteral("dgx-1");
    node.gpuCount = 2;
    node.allocatable = 2000;
    node.allocated = 1600;
    node.slots = {GpuSlot{0, 1000, {QStringLiteral("a-1 1")}, 80.5}, GpuSlot{1, 600, {QStringLiteral("b-1 0.6")}, -1}};
    node.ready = true;
    node.schedulable = false;
    b.estate.gpuNodes.insert(QStringLiteral("dgx"), {node});
    Project team;
    team.source = QStringLiteral("dgx");
    team.id = QStringLiteral("team-a");
    team.name = QStringLiteral("team-a");
    team.origin = ProjectOrigin::NamespaceQuota;
    team.quota = 4000;
    team.limit = -1;
    team.overQuotaWeight = 2.5;
    b.estate.projects.insert(QStringLiteral("dgx"), {team});
    Job job;
    job.source = QStringLiteral("dgx");
    job.id = QStringLiteral("runai-team-a/a-1");
    job.name = QStringLiteral("a-1");
    job.project = QStringLiteral("team-a");
    job.type = JobType::Interactive;
    job.status = JobStatus::Preempted;
    job.command = {QStringLiteral("python"), QStringLiteral("train.py")};
    job.pvcs = {QStringLiteral("data")};
    job.pvcSubPaths = {QString()};
    job.created = kBundleNow.addSecs(-3600);
    job.createdByCli = true;
    Job job2 = job;
    job2.id = QStringLiteral("runai-team-a/a-2");
    job2.name = QStringLiteral("a-2");
    job2.status = JobStatus::Running;
    b.estate.jobs.insert(QStringLiteral("dgx"), {job, job2});
    Pvc pvc;
    pvc.source = QStringLiteral("dgx");
    pvc.id = QStringLiteral("runai-team-a/data");
    pvc.name = QStringLiteral("data");
    pvc.usedBy = {QStringLiteral("a-1")};
    b.estate.pvcs.insert(QStringLiteral("dgx"), {pvc});
    CacheTarget target;
    target.source = QStringLiteral("dgx");
    target.id = QStringLiteral("dgx-cache-1");
    target.capacityBytes = 1LL << 40;
    b.estate.cacheTargets.insert(QStringLiteral("dgx"), {target});
    CachedCommit cached;
    cached.source = QStringLiteral("dgx");
    cached.id = QStringLiteral("dgx-cache-1/abc");
    cached.state = CacheState::Loading;
    cached.requested = kBundleNow.addSecs(-20);
    cached.usedBy = {QStringLiteral("ns/j")};
    b.estate.cachedCommits.insert(QStringLiteral("dgx"), {cached});

    CapacityPool pool;
    pool.source = QStringLiteral("ai-lab");
    pool.id = QStringLiteral("/subscriptions/sub-1/pool");
    pool.name = QStringLiteral("pool-premium");
    pool.totalThroughputMibps = 256;
    b.estate.capacityPools.insert(QStringLiteral("ai-lab"), {pool});
    AksCluster aks;
    aks.source = QStringLiteral("ai-lab");
    aks.id = QStringLiteral("/subscriptions/sub-1/aks");
    aks.name = QStringLiteral("aks-gpu");
    aks.agentPools = {QStringLiteral("gpupool: 3 x Standard_NC6s_v3")};
    b.estate.aksClusters.insert(QStringLiteral("ai-lab"), {aks});

    GridSummary summary;
    summary.source = QStringLiteral("datalake");
    summary.id = QStringLiteral("datalake");
    summary.gridName = QStringLiteral("datalake");
    summary.usableBytes = -1;
    b.estate.gridSummaries.insert(QStringLiteral("datalake"), {summary});
    GridNode gridNode;
    gridNode.source = QStringLiteral("datalake");
    gridNode.id = QStringLiteral("n1");
    gridNode.name = QStringLiteral("dc1-sn1");
    b.estate.gridNodes.insert(QStringLiteral("datalake"), {gridNode});
    GridAlert alert;
    alert.source = QStringLiteral("datalake");
    alert.id = QStringLiteral("al-1");
    alert.name = QStringLiteral("Low object data storage");
    alert.startsAt = kBundleNow.addSecs(-7200);
    alert.resolved = true;
    alert.endsAt = kBundleNow.addSecs(-60);
    b.estate.gridAlerts.insert(QStringLiteral("datalake"), {alert});
    Tenant tenant;
    tenant.source = QStringLiteral("datalake");
    tenant.id = QStringLiteral("12345678901234567890");
    tenant.name = QStringLiteral("ml");
    tenant.capabilities = {QStringLiteral("s3"), QStringLiteral("management")};
    tenant.growth7dBytes = -4096;
    Tenant tenant2 = tenant;
    tenant2.id = QStringLiteral("22345678901234567890");
    tenant2.growth7dBytes = std::nullopt;
    b.estate.tenants.insert(QStringLiteral("datalake"), {tenant, tenant2});
    Bucket bucket;
    bucket.source = QStringLiteral("datalake");
    bucket.id = QStringLiteral("12345678901234567890/datasets");
    bucket.name = QStringLiteral("datasets");
    bucket.growth7dBytes = 0;
    b.estate.buckets.insert(QStringLiteral("datalake"), {bucket});
    Dataset ds;
    ds.source = QStringLiteral("datalake");
    ds.id = QStringLiteral("datasets/fraud_jun/");
    ds.name = QStringLiteral("fraud_jun");
    ds.kind = DatasetKind::S3Bucket;
    ds.lastActivity = kBundleNow.addSecs(-86400);
    b.estate.datasets.insert(QStringLiteral("datalake"), {ds});
    Commit commit;
    commit.source = QStringLiteral("datalake");
    commit.id = QStringLiteral("3f2a9c01d4e5b6a7");
    commit.datasetId = ds.id;
    commit.time = kBundleNow.addSecs(-86400);
    commit.bytes = 123456789;
    b.estate.commits.insert(QStringLiteral("datalake"), {commit});

    b.history.projectSamples.insert(
        QStringLiteral("dgx"),
        {ProjectSample{QStringLiteral("team-a"), kBundleNow.addSecs(-7200), 2000, 4000, 0, 55.5},
         ProjectSample{QStringLiteral("team-a"), kBundleNow.addSecs(-3600), 3000, 4000, 1000, -1}});
    b.history.volumeUsage[QStringLiteral("ontap-ai")].insert(
        QStringLiteral("uuid-1"),
        {UsageSample{kBundleNow.addSecs(-7200), 1000, 5000}, UsageSample{kBundleNow.addSecs(-3600), 2000, 5000}});
    b.history.containerUsage[QStringLiteral("datalake")][QStringLiteral("bucket")].insert(
        QStringLiteral("t-1/raw"), {UsageSample{kBundleNow.addSecs(-3600), 700, 0}});
    b.history.containerUsage[QStringLiteral("ontap-ai")][QStringLiteral("aggregate")].insert(
        QStringLiteral("aggr-uuid"), {UsageSample{kBundleNow.addSecs(-60), 10, 20}});
    b.history.volumePerf[QStringLiteral("ontap-ai")].insert(
        QStringLiteral("uuid-1"),
        {VolumePerfSample{QStringLiteral("uuid-1"), kBundleNow.addSecs(-3600), 1.5e8, 900, 350.5, -1}});
    AuditEntry audit;
    audit.id = 7;
    audit.time = kBundleNow.addSecs(-300);
    audit.user = QStringLiteral("alice");
    audit.actionId = QStringLiteral("act-1");
    audit.source = QStringLiteral("ontap-ai");
    audit.kind = QStringLiteral("snapshot.create");
    audit.target = QStringLiteral("svm_ai/chest_xray");
    audit.outcome = QStringLiteral("succeeded");
    b.history.audit = {audit};

    b.events = QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("event:ontap-ai:node1/4711")},
                                      {QStringLiteral("category"), QStringLiteral("event")},
                                      {QStringLiteral("severity"), QStringLiteral("error")}}};
    b.rateCard = RateCard::defaults();
    b.rateCard.coolDownMinutes = 30;
    CacheTargetConfig targetConfig;
    targetConfig.name = QStringLiteral("dgx-cache-1");
    targetConfig.kubernetesSource = QStringLiteral("dgx");
    targetConfig.namespaceName = QStringLiteral("strata-cache");
    targetConfig.pvc = QStringLiteral("cache-1");
    b.cacheTargets = {targetConfig};
    return b;
}

/// The decompressed document of an encoded bundle.
QJsonObject documentOf(const QByteArray &bytes)
{
    return QJsonDocument::fromJson(gunzipped(bytes)).object();
}

QByteArray reencoded(const QJsonObject &doc)
{
    return gzipped(QJsonDocument(doc).toJson(QJsonDocument::Compact));
}

} // namespace

TEST(BundleFormat, EncodesAndDecodesEveryRecordExactly)
{
    const Bundle original = sampleBundle();
    const QByteArray bytes = encodeBundle(original);
    ASSERT_GE(bytes.size(), 2);
    EXPECT_EQ(uchar(bytes[0]), 0x1f) << "gzip magic";
    EXPECT_EQ(uchar(bytes[1]), 0x8b);
    QString error;
    const Result<Bundle> decoded = decodeBundle(bytes);
    ASSERT_TRUE(decoded) << decoded.error().message.toStdString();
    EXPECT_TRUE(decoded->meta == original.meta);
    EXPECT_TRUE(decoded->sources == original.sources);
    EXPECT_TRUE(decoded->statuses == original.statuses);
    EXPECT_TRUE(decoded->estate.volumes == original.estate.volumes);
    EXPECT_TRUE(decoded->estate.gpuNodes == original.estate.gpuNodes);
    EXPECT_TRUE(decoded->estate.tenants == original.estate.tenants);
    EXPECT_TRUE(decoded->estate.snapshots == original.estate.snapshots);
    EXPECT_TRUE(decoded->estate == original.estate);
    EXPECT_TRUE(decoded->history == original.history);
    EXPECT_EQ(decoded->events, original.events);
    EXPECT_TRUE(decoded->rateCard == original.rateCard);
    EXPECT_TRUE(decoded->cacheTargets == original.cacheTargets);
    EXPECT_TRUE(*decoded == original);
    // Encoding is deterministic: the same bundle gives the same bytes and checksum.
    EXPECT_EQ(encodeBundle(*decoded), bytes);
}

TEST(BundleFormat, DocumentCarriesHeaderAndChecksum)
{
    const QJsonObject doc = documentOf(encodeBundle(sampleBundle()));
    EXPECT_EQ(doc.value(QStringLiteral("format")).toString(), QStringLiteral("strata-bundle"));
    EXPECT_EQ(doc.value(QStringLiteral("version")).toInt(), 1);
    EXPECT_EQ(doc.value(QStringLiteral("created")).toString(), QStringLiteral("2026-11-23T00:36:13.250Z"));
    EXPECT_EQ(doc.value(QStringLiteral("host")).toString(), QStringLiteral("support-laptop"));
    EXPECT_EQ(doc.value(QStringLiteral("hours")).toInt(), 24);
    const QJsonObject checksum = doc.value(QStringLiteral("checksum")).toObject();
    EXPECT_EQ(checksum.value(QStringLiteral("algorithm")).toString(), QStringLiteral("sha256"));
    EXPECT_EQ(checksum.value(QStringLiteral("value")).toString().size(), 64);
    const QJsonObject estate = doc.value(QStringLiteral("body")).toObject().value(QStringLiteral("estate")).toObject();
    for (const QString &name : bundleResourceNames()) {
        EXPECT_TRUE(estate.contains(name)) << name.toStdString();
    }
    const QJsonObject volume =
        estate.value(QStringLiteral("volumes")).toObject().value(QStringLiteral("ontap-ai")).toArray().at(0).toObject();
    EXPECT_EQ(volume.value(QStringLiteral("size_bytes")).toInteger(), 5'497'558'138'880);
    EXPECT_EQ(volume.value(QStringLiteral("created")).toString(), QStringLiteral("2026-10-14T00:36:13.250Z"));
    const QJsonObject job =
        estate.value(QStringLiteral("jobs")).toObject().value(QStringLiteral("dgx")).toArray().at(0).toObject();
    EXPECT_EQ(job.value(QStringLiteral("status")).toString(), QStringLiteral("preempted"));
    EXPECT_EQ(job.value(QStringLiteral("type")).toString(), QStringLiteral("interactive"));
}

TEST(BundleFormat, WritesAtomicallyWithOwnerOnlyMode)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("estate.strata-bundle"));
    BundleWritten written;
    QString error;
    ASSERT_TRUE(succeeded(writeBundle(sampleBundle(), path, &written)));
    EXPECT_EQ(QFileInfo(path).size(), written.bytes);
    // 0600: the owner reads and writes, nobody else anything.
    EXPECT_EQ(QFileInfo(path).permissions() & 0x0FFF, QFileDevice::ReadUser | QFileDevice::WriteUser);
    EXPECT_EQ(written.objectsPerSource.value(QStringLiteral("ontap-ai")), 9);
    EXPECT_EQ(written.objectsPerSource.value(QStringLiteral("dgx")), 8);
    EXPECT_EQ(written.sha256,
              documentOf(encodeBundle(sampleBundle()))
                  .value(QStringLiteral("checksum"))
                  .toObject()
                  .value(QStringLiteral("value"))
                  .toString());
    const Result<Bundle> opened = openBundle(path);
    ASSERT_TRUE(opened) << opened.error().message.toStdString();
    EXPECT_TRUE(*opened == sampleBundle());
}

TEST(BundleFormat, ModifiedBodyFailsTheChecksum)
{
    QJsonObject doc = documentOf(encodeBundle(sampleBundle()));
    QJsonObject body = doc.value(QStringLiteral("body")).toObject();
    QByteArray raw = QJsonDocument(doc).toJson(QJsonDocument::Compact);
    // One byte of the body: the volume's size 5497558138880 -> 6497558138880.
    const qsizetype at = raw.indexOf("5497558138880");
    ASSERT_GT(at, 0);
    raw[at] = '6';
    QString error = errorText(decodeBundle(gzipped(raw)));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(error, QStringLiteral("checksum mismatch: the bundle was modified"));

    // A changed event the checksum covers too (the opaque part).
    body.insert(QStringLiteral("events"), QJsonArray{});
    doc.insert(QStringLiteral("body"), body);
    error = errorText(decodeBundle(reencoded(doc)));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(error, QStringLiteral("checksum mismatch: the bundle was modified"));
}

namespace {

/// A gzip member of `prefix`, `count` copies of `fill` and `suffix`, deflated in pieces so the
/// test never holds the inflated document; `comment` goes into the gzip header when given.
QByteArray
bundleBomb(const QByteArray &prefix, char fill, qint64 count, const QByteArray &suffix, QByteArray comment = {})
{
    z_stream zs{};
    deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
    gz_header header{};
    if (!comment.isEmpty()) {
        header.comment = reinterpret_cast<Bytef *>(comment.data());
        deflateSetHeader(&zs, &header);
    }
    QByteArray out;
    char buffer[1 << 16];
    const auto feed = [&](const QByteArray &in, int flush) {
        zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.constData()));
        zs.avail_in = uInt(in.size());
        do {
            zs.next_out = reinterpret_cast<Bytef *>(buffer);
            zs.avail_out = sizeof buffer;
            deflate(&zs, flush);
            out.append(buffer, qsizetype(sizeof buffer - zs.avail_out));
        } while (zs.avail_out == 0);
    };
    feed(prefix, Z_NO_FLUSH);
    const QByteArray block(4 * 1024 * 1024, fill);
    for (qint64 left = count; left > 0; left -= block.size()) {
        feed(block.left(qsizetype(std::min<qint64>(left, block.size()))), Z_NO_FLUSH);
    }
    feed(suffix, Z_FINISH);
    deflateEnd(&zs);
    return out;
}

} // namespace

// Bombs in the two shapes seen in the wild (a file of zeros; a well-formed document holding one
// huge string) are refused while inflating, at the documented bound, before any parsing.
TEST(BundleFormat, DecompressionBombsAreRefusedAtTheInflateBound)
{
    const QString refused = QStringLiteral("the bundle inflates beyond the limit (a support bundle inflates to at "
                                           "most 100 times its size and 256 MiB): refused unread");
    // The shapes of the bombs seen in the wild, at a quarter of the absolute cap: the ratio
    // refuses them long before it.
    const qint64 inflated = qint64(64) * 1024 * 1024;
    const QByteArray zeros = bundleBomb({}, '\0', inflated, {});
    ASSERT_LT(zeros.size(), inflated / 500) << "a bomb: it shrinks far more than any bundle";
    EXPECT_EQ(errorText(decodeBundle(zeros)), refused);

    const QByteArray string =
        bundleBomb("{\"format\":\"strata-bundle\",\"version\":1,\"body\":{},\"x\":\"", 'A', inflated, "\"}");
    EXPECT_EQ(errorText(decodeBundle(string)), refused);
    const Result<EstateRecords> shared = decodeSourceRecords(string);
    ASSERT_FALSE(shared.hasValue());
    EXPECT_TRUE(shared.error().message.contains(QStringLiteral("inflates beyond the limit")))
        << shared.error().message.toStdString();

    // The bound: a ratio with a floor for small files and an absolute cap.
    EXPECT_EQ(maxInflatedBundleBytes(zeros.size()), qint64(16) * 1024 * 1024) << "the floor for small files";
    EXPECT_EQ(maxInflatedBundleBytes(2'238'771), qint64(2'238'771) * 100) << "a 2.2 MB file: 100 times";
    EXPECT_EQ(maxInflatedBundleBytes(1000), qint64(16) * 1024 * 1024);
    EXPECT_EQ(maxInflatedBundleBytes(qint64(1) << 30), qint64(256) * 1024 * 1024);

    // A real bundle is far inside the bound: well under a tenth of the ratio.
    const QByteArray real = encodeBundle(sampleBundle());
    EXPECT_LT(gunzipped(real).size(), real.size() * 10);
    EXPECT_TRUE(decodeBundle(real).hasValue());
}

// The gzip header carries the document's SHA-256: a modified file is refused before its JSON
// is parsed (here a document that would not even parse), and the checksum is in every file
// encodeBundle() writes.
TEST(BundleFormat, DocumentChecksumIsVerifiedBeforeParsing)
{
    const QByteArray bytes = encodeBundle(sampleBundle());
    const QByteArray document = gunzipped(bytes);
    const QByteArray comment =
        "strata-sha256:" + QCryptographicHash::hash(document, QCryptographicHash::Sha256).toHex();
    EXPECT_TRUE(bytes.contains(comment)) << "the header comment names the document's checksum";

    const QByteArray broken = document.left(document.size() / 2);
    EXPECT_EQ(errorText(decodeBundle(bundleBomb(broken, ' ', 0, {}, comment))),
              QStringLiteral("checksum mismatch: the bundle was modified"));
    EXPECT_TRUE(decodeBundle(bundleBomb(document, ' ', 0, {}, comment)).hasValue());
}

TEST(BundleFormat, RejectsTruncatedMalformedForeignAndNewerFiles)
{
    const QByteArray bytes = encodeBundle(sampleBundle());
    QString error = errorText(decodeBundle(bytes.left(bytes.size() / 2)));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(error, QStringLiteral("the bundle is truncated or corrupt"));
    error = errorText(decodeBundle(bytes.chopped(4)));
    EXPECT_FALSE(error.isEmpty()) << "the trailer (CRC, size) missing";
    EXPECT_EQ(error, QStringLiteral("the bundle is truncated or corrupt"));
    QByteArray flipped = bytes;
    flipped[flipped.size() / 2] = char(flipped[flipped.size() / 2] ^ 0x5a);
    error = errorText(decodeBundle(flipped));
    EXPECT_FALSE(error.isEmpty());

    error = errorText(decodeBundle(QByteArray("{\"format\":\"strata-bundle\"}")));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(error, QStringLiteral("not a Strata support bundle"));
    error = errorText(decodeBundle(QByteArray()));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(error, QStringLiteral("not a Strata support bundle"));

    error = errorText(decodeBundle(gzipped("{\"format\": \"strata-bundle\", \"version\": 1, \"body\": {")));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_TRUE(error.startsWith(QStringLiteral("malformed JSON: "))) << error.toStdString();

    error = errorText(decodeBundle(gzipped("{\"format\": \"something-else\", \"version\": 1}")));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(error, QStringLiteral("not a Strata support bundle"));

    QJsonObject doc = documentOf(bytes);
    doc.insert(QStringLiteral("version"), 2);
    error = errorText(decodeBundle(reencoded(doc)));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(error, QStringLiteral("unsupported bundle version 2 (this Strata reads 1)"));

    // A well-formed, correctly summed body with a wrong field type names the field.
    doc = documentOf(bytes);
    QJsonObject body = doc.value(QStringLiteral("body")).toObject();
    QJsonObject estate = body.value(QStringLiteral("estate")).toObject();
    QJsonObject volumes = estate.value(QStringLiteral("volumes")).toObject();
    QJsonArray list = volumes.value(QStringLiteral("ontap-ai")).toArray();
    QJsonObject first = list[0].toObject();
    first.insert(QStringLiteral("size_bytes"), QStringLiteral("big"));
    list[0] = first;
    volumes.insert(QStringLiteral("ontap-ai"), list);
    estate.insert(QStringLiteral("volumes"), volumes);
    body.insert(QStringLiteral("estate"), estate);
    doc.insert(QStringLiteral("body"), body);
    doc.insert(
        QStringLiteral("checksum"),
        QJsonObject{{QStringLiteral("algorithm"), QStringLiteral("sha256")},
                    {QStringLiteral("value"),
                     QString::fromLatin1(QCryptographicHash::hash(QJsonDocument(body).toJson(QJsonDocument::Compact),
                                                                  QCryptographicHash::Sha256)
                                             .toHex())}});
    error = errorText(decodeBundle(reencoded(doc)));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(error, QStringLiteral("body.estate.volumes.ontap-ai[0]: size_bytes: unexpected value \"big\""));

    // Capacity history of an unknown kind of container, or a sample that is not one, is named.
    const auto withContainers = [&bytes](const QJsonObject &containers) {
        QJsonObject d = documentOf(bytes);
        QJsonObject b = d.value(QStringLiteral("body")).toObject();
        QJsonObject history = b.value(QStringLiteral("history")).toObject();
        history.insert(QStringLiteral("container_usage"), containers);
        b.insert(QStringLiteral("history"), history);
        d.insert(QStringLiteral("body"), b);
        d.insert(
            QStringLiteral("checksum"),
            QJsonObject{{QStringLiteral("algorithm"), QStringLiteral("sha256")},
                        {QStringLiteral("value"),
                         QString::fromLatin1(QCryptographicHash::hash(QJsonDocument(b).toJson(QJsonDocument::Compact),
                                                                      QCryptographicHash::Sha256)
                                                 .toHex())}});
        return errorText(decodeBundle(reencoded(d)));
    };
    EXPECT_EQ(
        withContainers(QJsonObject{{QStringLiteral("grid"), QJsonObject{{QStringLiteral("lun"), QJsonObject{}}}}}),
        QStringLiteral("body.history.container_usage.grid: unknown kind \"lun\""));
    EXPECT_EQ(
        withContainers(QJsonObject{{QStringLiteral("grid"), QJsonObject{{QStringLiteral("volume"), QJsonObject{}}}}}),
        QStringLiteral("body.history.container_usage.grid: unknown kind \"volume\""))
        << "volumes travel in volume_usage";
    const QString badSample = withContainers(
        QJsonObject{{QStringLiteral("grid"),
                     QJsonObject{{QStringLiteral("bucket"),
                                  QJsonObject{{QStringLiteral("t/b"), QJsonArray{QStringLiteral("not a sample")}}}}}}});
    EXPECT_TRUE(badSample.startsWith(QStringLiteral("body.history.container_usage.grid.bucket.t/b")))
        << badSample.toStdString();

    error = errorText(openBundle(QStringLiteral("/nonexistent/x.strata-bundle")));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_TRUE(error.startsWith(QStringLiteral("cannot read /nonexistent/x.strata-bundle"))) << error.toStdString();
}

TEST(BundleDiff, ReportsExactlyTheKnownChanges)
{
    const Bundle a = sampleBundle();
    Bundle b = sampleBundle();
    b.meta.created = kBundleNow.addSecs(3600);
    // A volume added, a job gone, a project's quota changed; poll bookkeeping moved on.
    Volume added = a.estate.volumes.value(QStringLiteral("ontap-ai")).at(0);
    added.id = QStringLiteral("uuid-3");
    added.name = QStringLiteral("genomics");
    b.estate.volumes[QStringLiteral("ontap-ai")].append(added);
    b.estate.jobs[QStringLiteral("dgx")].removeLast();
    b.estate.projects[QStringLiteral("dgx")][0].quota = 6000;
    for (SourceStatus &s : b.statuses) {
        s.lastAttempt = s.lastAttempt.addSecs(3600);
        s.latencyMs += 10;
    }
    b.estate.volumePerf[QStringLiteral("ontap-ai")][0].readIops = 5;

    const BundleDiff diff = diffBundles(a, b);
    ASSERT_EQ(diff.resources.size(), 3) << diff.summary().toStdString();
    const ResourceDiff &jobs = diff.resources[0];
    EXPECT_EQ(jobs.system, QStringLiteral("kubernetes"));
    EXPECT_EQ(jobs.source, QStringLiteral("dgx"));
    EXPECT_EQ(jobs.resource, QStringLiteral("jobs"));
    EXPECT_EQ(jobs.disappeared, QStringList{QStringLiteral("runai-team-a/a-2")});
    EXPECT_TRUE(jobs.appeared.isEmpty());
    EXPECT_TRUE(jobs.changed.isEmpty());
    const ResourceDiff &projects = diff.resources[1];
    EXPECT_EQ(projects.resource, QStringLiteral("projects"));
    ASSERT_EQ(projects.changed.size(), 1);
    EXPECT_EQ(projects.changed[0].id, QStringLiteral("team-a"));
    ASSERT_EQ(projects.changed[0].fields.size(), 1);
    EXPECT_EQ(projects.changed[0].fields[0].field, QStringLiteral("quota"));
    EXPECT_EQ(projects.changed[0].fields[0].before.toInteger(), 4000);
    EXPECT_EQ(projects.changed[0].fields[0].after.toInteger(), 6000);
    const ResourceDiff &volumes = diff.resources[2];
    EXPECT_EQ(volumes.system, QStringLiteral("ontap"));
    EXPECT_EQ(volumes.resource, QStringLiteral("volumes"));
    EXPECT_EQ(volumes.appeared, QStringList{QStringLiteral("uuid-3")});
    EXPECT_TRUE(volumes.disappeared.isEmpty());
    EXPECT_TRUE(volumes.changed.isEmpty());

    EXPECT_EQ(diff.summary(),
              QStringLiteral("kubernetes / dgx / jobs: 0 appeared, 1 disappeared, 0 changed\n"
                             "  - runai-team-a/a-2\n"
                             "kubernetes / dgx / projects: 0 appeared, 0 disappeared, 1 changed\n"
                             "  ~ team-a: quota 4000 -> 6000\n"
                             "ontap / ontap-ai / volumes: 1 appeared, 0 disappeared, 0 changed\n"
                             "  + uuid-3\n"));
    const QJsonArray changes = diff.toJson().value(QStringLiteral("changes")).toArray();
    ASSERT_EQ(changes.size(), 3);
    EXPECT_EQ(
        changes[1].toObject().value(QStringLiteral("changed")).toArray()[0].toObject().value(QStringLiteral("fields")),
        QJsonArray({QJsonObject{{QStringLiteral("field"), QStringLiteral("quota")},
                                {QStringLiteral("before"), 4000},
                                {QStringLiteral("after"), 6000}}}));

    EXPECT_TRUE(diffBundles(a, a).isEmpty());
    const BundleDiff withPerf = diffBundles(a, b, true);
    EXPECT_EQ(withPerf.resources.size(), 4);
}

TEST(BundleDiff, SourceHealthChangesAreReported)
{
    const Bundle a = sampleBundle();
    Bundle b = sampleBundle();
    b.statuses[0].health = Health::Unreachable;
    b.statuses[0].lastError = QStringLiteral("connection refused");
    const BundleDiff diff = diffBundles(a, b);
    ASSERT_EQ(diff.resources.size(), 1);
    EXPECT_EQ(diff.resources[0].resource, QStringLiteral("sources"));
    ASSERT_EQ(diff.resources[0].changed.size(), 1);
    ASSERT_EQ(diff.resources[0].changed[0].fields.size(), 2);
    EXPECT_EQ(diff.resources[0].changed[0].fields[0].field, QStringLiteral("health"));
    EXPECT_EQ(diff.resources[0].changed[0].fields[0].after.toString(), QStringLiteral("unreachable"));
    EXPECT_EQ(diff.resources[0].changed[0].fields[1].field, QStringLiteral("last_error"));
}

TEST(BundleSecrets, ScrubbedConfigKeepsTheSetupAndDropsEverySecret)
{
    SourceConfig c;
    c.name = QStringLiteral("grid");
    c.kind = SourceKind::StorageGrid;
    c.url = QStringLiteral("https://root:Hunter2Pass@admin.grid.example:8443/api?token=abc123tok#frag");
    c.username = QStringLiteral("root");
    c.password = SecretRef{SecretRef::Kind::Keychain, QStringLiteral("strata/grid/password")};
    c.s3Url = QStringLiteral("https://AKIAEXAMPLE:wJalrXUtnFEMI@s3.grid.example");
    c.s3AccessKey = QStringLiteral("AKIAEXAMPLE");
    c.s3Secret = SecretRef{SecretRef::Kind::Env, QStringLiteral("GRID_S3_SECRET")};
    const SourceConfig s = scrubbedConfig(c);
    EXPECT_EQ(s.url, QStringLiteral("https://admin.grid.example:8443/api"));
    EXPECT_EQ(s.s3Url, QStringLiteral("https://s3.grid.example"));
    EXPECT_EQ(s.username, QStringLiteral("root"));
    EXPECT_EQ(s.password.kind, SecretRef::Kind::None);
    EXPECT_TRUE(s.password.value.isEmpty());
    EXPECT_EQ(s.s3Secret.kind, SecretRef::Kind::None);
    EXPECT_TRUE(s.s3AccessKey.isEmpty());
    EXPECT_EQ(scrubUrls(QStringLiteral("GET https://u:p@host/x failed; retry http://a@b")),
              QStringLiteral("GET https://host/x failed; retry http://b"));
}

TEST(BundleSecrets, ExportedBytesHoldNoSecretOfAnyConfiguredSource)
{
    // Sources with known secrets, pointing at a closed port: they fail (and their errors quote
    // URLs), which is exactly when a support bundle gets made.
    const QString password = QStringLiteral("OntapPassw0rd!x9");
    const QString urlPassword = QStringLiteral("UrlPassw0rd7q");
    const QString s3Secret = QStringLiteral("wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY");
    const QString s3Access = QStringLiteral("AKIAIOSFODNN7EXAMPLE");
    const QString bearer = QStringLiteral("eyJhbGciOiJSUzI1NiJ9.bearerTokenBody.sig42");
    const QString clientSecret = QStringLiteral("AzureClientSecret~55");
    const QString kubeconfigYaml = QStringLiteral("client-key-data: S3cr3tK3yD4t4");
    InMemoryCredentialStore store;
    store.set(QStringLiteral("strata/ontap/password"), password);
    store.set(QStringLiteral("strata/grid/password"), password);
    store.set(QStringLiteral("strata/grid/s3_secret"), s3Secret);
    store.set(QStringLiteral("strata/kube/password"), bearer);
    store.set(QStringLiteral("strata/aks/password"), kubeconfigYaml);
    store.set(QStringLiteral("strata/azure/password"), clientSecret);

    SourceConfig ontap;
    ontap.name = QStringLiteral("ontap");
    ontap.url = QStringLiteral("https://admin:") + urlPassword + QStringLiteral("@127.0.0.1:1");
    ontap.username = QStringLiteral("admin");
    ontap.password = {SecretRef::Kind::Keychain, QStringLiteral("strata/ontap/password")};
    SourceConfig grid;
    grid.name = QStringLiteral("grid");
    grid.kind = SourceKind::StorageGrid;
    grid.url = QStringLiteral("https://127.0.0.1:1");
    grid.username = QStringLiteral("root");
    grid.password = {SecretRef::Kind::Keychain, QStringLiteral("strata/grid/password")};
    grid.s3Url = QStringLiteral("https://") + s3Access + QLatin1Char(':') + s3Secret + QStringLiteral("@127.0.0.1:1");
    grid.s3AccessKey = s3Access;
    grid.s3Secret = {SecretRef::Kind::Keychain, QStringLiteral("strata/grid/s3_secret")};
    SourceConfig kube;
    kube.name = QStringLiteral("kube");
    kube.kind = SourceKind::Kubernetes;
    kube.url = QStringLiteral("https://127.0.0.1:1/?token=") + bearer;
    kube.password = {SecretRef::Kind::Keychain, QStringLiteral("strata/kube/password")};
    SourceConfig aks;
    aks.name = QStringLiteral("aks");
    aks.kind = SourceKind::Kubernetes;
    aks.kubeconfigInSecret = true;
    aks.password = {SecretRef::Kind::Keychain, QStringLiteral("strata/aks/password")};
    SourceConfig azure;
    azure.name = QStringLiteral("azure");
    azure.kind = SourceKind::Azure;
    azure.url = QStringLiteral("https://127.0.0.1:1");
    azure.authorityUrl = QStringLiteral("https://127.0.0.1:1");
    azure.subscriptionId = QStringLiteral("sub");
    azure.tenantId = QStringLiteral("tenant");
    azure.clientId = QStringLiteral("client");
    azure.password = {SecretRef::Kind::Keychain, QStringLiteral("strata/azure/password")};

    ManualClock clock(kBundleNow);
    HistoryService history(std::make_unique<SqlHistoryStore>(QStringLiteral(":memory:"), clock));
    Engine engine({clock, store, &history, QStringLiteral("alice")});
    engine.setSources({ontap, grid, kube, aks, azure});
    waitForBundle(
        [&] {
            int failing = 0;
            for (const SourceStatus &s : engine.statuses()) {
                failing += s.lastError.isEmpty() ? 0 : 1;
            }
            return failing == 5;
        },
        3000);

    std::optional<Bundle> bundle;
    collectBundle(engine, BundleOptions{}, &engine, [&](Bundle b, QString) {
        bundle = std::move(b);
    });
    ASSERT_TRUE(waitForBundle([&] {
        return bundle.has_value();
    }));
    ASSERT_EQ(bundle->sources.size(), 5);
    const QByteArray compressed = encodeBundle(*bundle);
    const QByteArray plain = gunzipped(compressed);
    ASSERT_GT(plain.size(), 500);
    ASSERT_TRUE(plain.contains("127.0.0.1:1")) << "the scrubbed URLs are still there";
    for (const QString &secret : {password,
                                  urlPassword,
                                  s3Secret,
                                  s3Access,
                                  bearer,
                                  clientSecret,
                                  kubeconfigYaml,
                                  QStringLiteral("S3cr3tK3yD4t4"),
                                  QStringLiteral("strata/grid/s3_secret")}) {
        EXPECT_FALSE(plain.contains(secret.toUtf8())) << secret.toStdString();
        EXPECT_FALSE(compressed.contains(secret.toUtf8())) << secret.toStdString();
    }
}

TEST(BundleOffline, EngineShowsTheBundleAndRefusesActions)
{
    const Bundle bundle = sampleBundle();
    ManualClock clock(kBundleNow.addDays(3));
    InMemoryCredentialStore store;
    HistoryService history(makeBundleHistoryStore(bundle, clock));
    ASSERT_TRUE(history.openError().isEmpty()) << history.openError().toStdString();
    Engine engine({clock, store, &history, QStringLiteral("bob")});
    loadBundle(engine, bundle);

    EXPECT_TRUE(engine.allPolledOnce());
    EXPECT_EQ(engine.readOnlyReason(), QStringLiteral("read-only: this is a support bundle from 2026-11-23 00:36 UTC"));
    EXPECT_TRUE(engine.statuses() == bundle.statuses);
    EXPECT_EQ(engine.sourceConfigs().size(), 4);
    EXPECT_EQ(engine.source(QStringLiteral("ontap-ai")), nullptr) << "nothing connects";
    EXPECT_EQ(engine.serviceLevels().rateCard().coolDownMinutes, 30);
    EXPECT_TRUE(engine.cacheTargets() == bundle.cacheTargets);

    // Every list of the estate is back, per scope, in order.
    std::optional<Bundle> again;
    collectBundle(
        engine, BundleOptions{24, QStringLiteral("bob"), bundle.events, kBundleNow}, &engine, [&](Bundle b, QString) {
            again = std::move(b);
        });
    ASSERT_TRUE(waitForBundle([&] {
        return again.has_value();
    }));
    EXPECT_TRUE(again->estate == bundle.estate);
    EXPECT_TRUE(again->statuses == bundle.statuses);
    EXPECT_TRUE(again->sources == bundle.sources);
    // History answers from the bundle's samples.
    EXPECT_TRUE(again->history.projectSamples == bundle.history.projectSamples);
    EXPECT_TRUE(again->history.volumeUsage == bundle.history.volumeUsage);
    EXPECT_TRUE(again->history.volumePerf == bundle.history.volumePerf);
    ASSERT_EQ(again->history.audit.size(), 1u);
    EXPECT_EQ(again->history.audit[0].kind, QStringLiteral("snapshot.create"));

    ActionRequest request(ActionKind::SnapshotCreate, QStringLiteral("ontap-ai"), QStringLiteral("uuid-1"));
    const ActionPreview preview = engine.actions().preview(request);
    EXPECT_EQ(preview.blockedReason, engine.readOnlyReason());
    QString error = errorText(engine.actions().submit(request));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(error, engine.readOnlyReason());

    // Sources can be neither added nor restarted.
    SourceConfig extra;
    extra.name = QStringLiteral("new");
    extra.url = QStringLiteral("https://127.0.0.1:1");
    engine.setSources({extra});
    EXPECT_EQ(engine.sourceConfigs().size(), 4);
    EXPECT_EQ(engine.source(QStringLiteral("new")), nullptr);
}

// Shared source states between replicas: a source's records survive the round trip,
// and a truncated, corrupt or mistyped body is a clear error, never a partial estate.
TEST(SharedSourceRecords, RoundTripAndBadBodiesAreClearErrors)
{
    Estate estate;
    Volume v;
    v.source = QStringLiteral("ontap-ai");
    v.id = QStringLiteral("uuid-1");
    v.name = QStringLiteral("chest_xray");
    v.sizeBytes = 1000;
    estate.publishVolumes(
        QStringLiteral("ontap-ai"),
        std::make_shared<const KeyedList<Volume>>(std::vector<Ptr<Volume>>{std::make_shared<const Volume>(v)}));
    const EstateRecords records = sourceRecords(estate, QStringLiteral("ontap-ai"));
    const QByteArray body = encodeSourceRecords(records);
    const Result<EstateRecords> back = decodeSourceRecords(body);
    ASSERT_TRUE(back.hasValue());
    EXPECT_EQ(*back, records);

    for (const QByteArray &bad : {body.left(body.size() / 2), QByteArray("not gzip at all"), QByteArray()}) {
        const Result<EstateRecords> decoded = decodeSourceRecords(bad);
        ASSERT_FALSE(decoded.hasValue());
        EXPECT_TRUE(decoded.error().message.contains(QStringLiteral("shared source state")))
            << decoded.error().message.toStdString();
    }
    // A well-formed body of another source publishes nothing of it under this source's name.
    Estate other;
    EstateRecords wrong;
    Volume w;
    w.source = QStringLiteral("x");
    wrong.volumes.insert(QStringLiteral("x"), {w});
    const Result<EstateRecords> typed = decodeSourceRecords(encodeSourceRecords(wrong));
    ASSERT_TRUE(typed.hasValue());
    publishSourceRecords(other, *typed, QStringLiteral("ontap-ai"));
    EXPECT_EQ(other.volumes().scope(QStringLiteral("ontap-ai")), nullptr) << "nothing of another source is published";
}
