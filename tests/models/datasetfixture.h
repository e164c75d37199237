#pragma once

#include "models/core/domain/estate.h"
#include "models/core/domain/records.h"

#include <QCryptographicHash>

#include <memory>
#include <vector>

namespace strata::testsupport {

/// The dataset hub of TR-4841 (lines 3396-3745), published by hand: grid "datalake" with the six
/// datasets (32.4 + 57.6 + 27.3 + 102.7 + 45.1 + 25.1 = 290.2 MB), fraud_jun with 4 commits and
/// public_set12 with 7, three cache targets on the Kubernetes source "dgx" (360.77 GB capacity,
/// 1.07 GB cached) and cached commits in every state.
struct HubFixture
{
    static QDateTime now() { return QDateTime(QDate(2026, 6, 10), QTime(12, 0), Qt::UTC); }

    /// 64 lower-case hex, deterministic per text.
    static QString commitId(const QString &text)
    {
        return QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
    }

    struct DatasetSpec
    {
        const char *name;
        qint64 bytes;
        int commits;
    };
    static std::vector<DatasetSpec> specs()
    {
        return {{"fraud_jun", 32'400'000, 4},
                {"fraud_may", 57'600'000, 2},
                {"consumer_img1", 27'300'000, 1},
                {"public_set12", 102'700'000, 7},
                {"fraud_sim_base", 45'100'000, 3},
                {"misc_base1", 25'100'000, 1}};
    }

    static QString datasetId(const char *name) { return QStringLiteral("datasets/%1/").arg(QLatin1String(name)); }

    /// Commit k (0-based) of dataset `name`; the last one is the head.
    static core::Commit commit(const DatasetSpec &spec, int k)
    {
        core::Commit c;
        c.source = QStringLiteral("datalake");
        c.id = commitId(QStringLiteral("%1/%2").arg(QLatin1String(spec.name)).arg(k));
        c.datasetId = datasetId(spec.name);
        c.datasetName = QLatin1String(spec.name);
        c.parent = k > 0 ? commitId(QStringLiteral("%1/%2").arg(QLatin1String(spec.name)).arg(k - 1)) : QString();
        c.author = k % 2 ? QStringLiteral("bob") : QStringLiteral("alice");
        c.message = QStringLiteral("revision %1 of %2").arg(k + 1).arg(QLatin1String(spec.name));
        c.time = now().addDays(-(spec.commits - k)).addSecs(-3600);
        // The head has the dataset's final size; earlier commits were smaller.
        c.bytes = spec.bytes - qint64(spec.commits - 1 - k) * 1'000'000;
        c.objectCount = 40 + k;
        c.manifestKey = QStringLiteral("%1/.strata/commits/%2.jsonl").arg(QLatin1String(spec.name), c.id);
        return c;
    }

    static void publishDatasets(core::Estate &estate)
    {
        std::vector<core::Ptr<core::Dataset>> datasets;
        std::vector<core::Ptr<core::Commit>> commits;
        for (const DatasetSpec &spec : specs()) {
            core::Dataset d;
            d.source = QStringLiteral("datalake");
            d.id = datasetId(spec.name);
            d.name = QLatin1String(spec.name);
            d.kind = core::DatasetKind::S3Prefix;
            d.bucket = QStringLiteral("datasets");
            d.prefix = QLatin1String(spec.name) + QLatin1Char('/');
            d.commitCount = spec.commits;
            const core::Commit head = commit(spec, spec.commits - 1);
            d.headCommit = head.id;
            d.sizeBytes = head.bytes;
            d.objectCount = head.objectCount;
            d.lastActivity = head.time;
            datasets.push_back(std::make_shared<const core::Dataset>(d));
            for (int k = 0; k < spec.commits; ++k) {
                commits.push_back(std::make_shared<const core::Commit>(commit(spec, k)));
            }
        }
        core::DatasetPublish p;
        p.datasets = std::make_shared<const core::KeyedList<core::Dataset>>(std::move(datasets));
        p.commits = std::make_shared<const core::KeyedList<core::Commit>>(std::move(commits));
        estate.publishDatasets(QStringLiteral("datalake"), std::move(p));
    }

    static core::CacheTarget target(const QString &name, qint64 capacity, qint64 cached)
    {
        core::CacheTarget t;
        t.source = QStringLiteral("dgx");
        t.id = name;
        t.namespaceName = QStringLiteral("ml-cache");
        t.pvc = name + QStringLiteral("-pvc");
        t.pvcPhase = QStringLiteral("Bound");
        t.storageSource = QStringLiteral("ontap1");
        t.volumeName = QStringLiteral("svm_cache/") + name;
        t.capacityBytes = capacity;
        t.usedBytes = cached + 1'000'000;
        t.cachedBytes = cached;
        return t;
    }

    static std::vector<core::Ptr<core::CacheTarget>> targets()
    {
        return {std::make_shared<const core::CacheTarget>(
                    target(QStringLiteral("dgx-cache-1"), 120'260'000'000, 500'000'000)),
                std::make_shared<const core::CacheTarget>(
                    target(QStringLiteral("dgx-cache-2"), 120'260'000'000, 400'000'000)),
                std::make_shared<const core::CacheTarget>(
                    target(QStringLiteral("dgx-cache-3"), 120'250'000'000, 170'000'000))};
    }

    /// fraud_jun's head cached on `target` in `state`, `done` of its bytes loaded.
    static core::CachedCommit
    cached(const QString &targetName, core::CacheState state, qint64 done, int commitIndex = 3)
    {
        const DatasetSpec spec = specs()[0];
        const core::Commit c = commit(spec, commitIndex);
        core::CachedCommit cc;
        cc.source = QStringLiteral("dgx");
        cc.id = targetName + QLatin1Char('/') + c.id;
        cc.target = targetName;
        cc.commitId = c.id;
        cc.datasetSource = QStringLiteral("datalake");
        cc.datasetId = c.datasetId;
        cc.datasetName = c.datasetName;
        cc.state = state;
        cc.objectsTotal = c.objectCount;
        cc.objectsDone = c.objectCount * done / std::max<qint64>(1, c.bytes);
        cc.bytesTotal = c.bytes;
        cc.bytesDone = done;
        cc.path = QStringLiteral("fraud_jun/") + c.id.left(16);
        cc.requested = now().addDays(-2);
        if (state == core::CacheState::Ready) {
            cc.readyAt = now().addDays(-2).addSecs(120);
            cc.lastUsed = now().addDays(-1);
            cc.usedBy = {QStringLiteral("team-a/train-fraud-2"), QStringLiteral("team-b/eval-fraud")};
            cc.evictAt = cc.lastUsed.addDays(3);
            cc.evictReason = QStringLiteral("unused for 3 days");
        }
        return cc;
    }

    static void publishCaches(core::Estate &estate, std::vector<core::CachedCommit> cachedCommits)
    {
        std::vector<core::Ptr<core::CachedCommit>> items;
        for (core::CachedCommit &c : cachedCommits) {
            items.push_back(std::make_shared<const core::CachedCommit>(std::move(c)));
        }
        core::CachePublish p;
        p.targets = std::make_shared<const core::KeyedList<core::CacheTarget>>(targets());
        p.cachedCommits = std::make_shared<const core::KeyedList<core::CachedCommit>>(std::move(items));
        estate.publishCaches(QStringLiteral("dgx"), std::move(p));
    }

    static void publishGrid(core::Estate &estate, int minorAlerts = 1)
    {
        core::GridSummary s;
        s.source = s.id = QStringLiteral("datalake");
        s.gridName = QStringLiteral("datalake");
        s.productVersion = QStringLiteral("11.8.0.2-20240131.1852.bbc9e4a");
        s.apiVersion = QStringLiteral("v4");
        s.alertsMinor = minorAlerts;
        s.nodesConnected = 5;
        s.activeIlmPolicy = QStringLiteral("2 copies, 1 site");
        s.usableBytes = 3'000'000'000'000;
        s.usedBytes = 420'000'000;
        std::vector<core::Ptr<core::GridNode>> nodes;
        const char *names[] = {"dc1-adm1", "dc1-sn1", "dc1-sn2", "dc1-sn3", "dc1-g1"};
        const char *types[] = {"primaryAdminNode", "storageNode", "storageNode", "storageNode", "gatewayNode"};
        for (int i = 0; i < 5; ++i) {
            core::GridNode n;
            n.source = QStringLiteral("datalake");
            n.id = QStringLiteral("node-%1").arg(i);
            n.name = QLatin1String(names[i]);
            n.site = QStringLiteral("dc1");
            n.type = QLatin1String(types[i]);
            n.severity = i == 1 && minorAlerts > 0 ? QStringLiteral("minor") : QStringLiteral("normal");
            n.state = QStringLiteral("connected");
            nodes.push_back(std::make_shared<const core::GridNode>(n));
        }
        std::vector<core::Ptr<core::GridAlert>> alerts;
        core::GridAlert resolved;
        resolved.source = QStringLiteral("datalake");
        resolved.id = QStringLiteral("alert-old");
        resolved.name = QStringLiteral("Low installed node memory");
        resolved.severity = QStringLiteral("major");
        resolved.summary = QStringLiteral("The amount of installed memory on a node is low.");
        resolved.node = QStringLiteral("dc1-sn2");
        resolved.site = QStringLiteral("dc1");
        resolved.startsAt = now().addDays(-2);
        resolved.endsAt = now().addDays(-2).addSecs(600);
        resolved.resolved = true;
        alerts.push_back(std::make_shared<const core::GridAlert>(resolved));
        for (int i = 0; i < minorAlerts; ++i) {
            core::GridAlert a;
            a.source = QStringLiteral("datalake");
            a.id = QStringLiteral("alert-%1").arg(i);
            a.name = QStringLiteral("Low object data storage");
            a.severity = QStringLiteral("minor");
            a.summary = QStringLiteral("The space available for storing object data is low.");
            a.node = QStringLiteral("dc1-sn1");
            a.site = QStringLiteral("dc1");
            a.startsAt = now().addSecs(-600);
            alerts.push_back(std::make_shared<const core::GridAlert>(a));
        }
        std::vector<core::Ptr<core::Tenant>> tenants;
        std::vector<core::Ptr<core::Bucket>> buckets;
        const char *tenantNames[] = {"data-science", "support-center"};
        const char *bucketNames[] = {"datasets", "sentiment"};
        for (int i = 0; i < 2; ++i) {
            core::Tenant t;
            t.source = QStringLiteral("datalake");
            t.id = QStringLiteral("2700261175689000000%1").arg(i);
            t.name = QLatin1String(tenantNames[i]);
            t.capabilities = {QStringLiteral("management"), QStringLiteral("s3")};
            t.quotaBytes = i == 0 ? 1'000'000'000 : -1;
            t.dataBytes = i == 0 ? 290'200'000 : 12'000'000;
            t.objectCount = i == 0 ? 2'310 : 120;
            t.bucketCount = 1;
            t.growth7dBytes = i == 0 ? std::optional<qint64>(48'500'000) : std::nullopt;
            tenants.push_back(std::make_shared<const core::Tenant>(t));
            core::Bucket b;
            b.source = QStringLiteral("datalake");
            b.tenantId = t.id;
            b.tenantName = t.name;
            b.name = QLatin1String(bucketNames[i]);
            b.id = t.id + QLatin1Char('/') + b.name;
            b.region = QStringLiteral("us-east-1");
            b.versioning = i == 0;
            b.objectCount = t.objectCount;
            b.dataBytes = t.dataBytes;
            b.growth7dBytes = t.growth7dBytes;
            buckets.push_back(std::make_shared<const core::Bucket>(b));
        }
        core::GridPublish p;
        p.summary = std::make_shared<const core::KeyedList<core::GridSummary>>(
            std::vector<core::Ptr<core::GridSummary>>{std::make_shared<const core::GridSummary>(s)});
        p.nodes = std::make_shared<const core::KeyedList<core::GridNode>>(std::move(nodes));
        p.alerts = std::make_shared<const core::KeyedList<core::GridAlert>>(std::move(alerts));
        p.tenants = std::make_shared<const core::KeyedList<core::Tenant>>(std::move(tenants));
        p.buckets = std::make_shared<const core::KeyedList<core::Bucket>>(std::move(buckets));
        estate.publishGrid(QStringLiteral("datalake"), std::move(p));
    }
};

} // namespace strata::testsupport
