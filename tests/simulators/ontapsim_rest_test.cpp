// The ONTAP simulator speaks the REST contract of docs/apis.md §1, checked with Qt's own HTTP
// client over HTTPS with the simulator's certificate pinned.

#include "tests/simulators/ontaptestsupport.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTimer>
#include <QUrl>

#include <gtest/gtest.h>

using strata::sim::ontap::OntapSimulator;
using strata::sim::ontap::Snapshot;
using namespace strata::testsupport::ontapsim;

namespace {

constexpr qint64 GiB = qint64(1) << 30;

QString enc(const QString &s)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(s));
}

QStringList names(const QJsonArray &records)
{
    QStringList out;
    for (const QJsonValue &r : records) {
        out.append(r.toObject().value(QStringLiteral("name")).toString());
    }
    return out;
}

QJsonObject findByName(const QJsonArray &records, const QString &name)
{
    for (const QJsonValue &r : records) {
        if (r.toObject().value(QStringLiteral("name")).toString() == name) {
            return r.toObject();
        }
    }
    return {};
}

void sleepMs(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

class OntapSimRest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        sim = std::make_unique<RunningSimulator>(options());
        ASSERT_TRUE(sim->isRunning()) << sim->error().toStdString();
        client = std::make_unique<QnamClient>(**sim);
    }

    virtual OntapSimulator::Options options() { return RunningSimulator::testOptions(); }

    QString uuidOf(const QString &svm, const QString &name) const
    {
        const auto v = (*sim)->volumeByName(svm, name);
        return v ? v->uuid : QString();
    }

    /// Follows _links.next from `first`; returns every record.
    QJsonArray listAll(const QString &first, int *pages = nullptr)
    {
        QJsonArray all;
        QString href = first;
        int n = 0;
        while (!href.isEmpty() && n < 10000) {
            const HttpResult r = client->get(href);
            EXPECT_EQ(r.status, 200) << r.body.toStdString();
            if (r.status != 200) {
                break;
            }
            const QJsonArray records = r.json.value(QStringLiteral("records")).toArray();
            EXPECT_EQ(r.json.value(QStringLiteral("num_records")).toInt(), records.size());
            for (const QJsonValue &v : records) {
                all.append(v);
            }
            href = r.json.value(QStringLiteral("_links"))
                       .toObject()
                       .value(QStringLiteral("next"))
                       .toObject()
                       .value(QStringLiteral("href"))
                       .toString();
            ++n;
        }
        if (pages) {
            *pages = n;
        }
        return all;
    }

    QJsonObject runJob(const HttpResult &accepted)
    {
        const QString job = QnamClient::jobUuid(accepted);
        EXPECT_FALSE(job.isEmpty()) << accepted.body.toStdString();
        return client->waitForJob(job);
    }

    std::unique_ptr<RunningSimulator> sim;
    std::unique_ptr<QnamClient> client;
};

} // namespace

TEST_F(OntapSimRest, Auth_MissingOrWrongCredentials_401WithOntapError)
{
    client->setAuthorization({});
    HttpResult r = client->get(QStringLiteral("/api/cluster"));
    EXPECT_EQ(r.status, 401);
    EXPECT_EQ(r.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
              QStringLiteral("6"));

    client->setAuthorization(basicAuth(QStringLiteral("admin"), QStringLiteral("wrong")));
    r = client->get(QStringLiteral("/api/storage/volumes"));
    EXPECT_EQ(r.status, 401);
    EXPECT_FALSE(
        r.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString().isEmpty());

    client->setAuthorization(basicAuth(QStringLiteral("admin"), QStringLiteral("t3st-pa55")));
    r = client->get(QStringLiteral("/api/cluster"));
    EXPECT_EQ(r.status, 200);
    EXPECT_TRUE(r.headers.value("content-type").startsWith("application/hal+json"));
}

TEST_F(OntapSimRest, Cluster_FieldsVersion_Reports9_14_1)
{
    const HttpResult r = client->get(QStringLiteral("/api/cluster?fields=version"));
    ASSERT_EQ(r.status, 200);
    const QJsonObject version = r.json.value(QStringLiteral("version")).toObject();
    EXPECT_EQ(version.value(QStringLiteral("generation")).toInt(), 9);
    EXPECT_EQ(version.value(QStringLiteral("major")).toInt(), 14);
    EXPECT_EQ(version.value(QStringLiteral("minor")).toInt(), 1);
    EXPECT_TRUE(version.value(QStringLiteral("full")).toString().contains(QStringLiteral("9.14.1")));
    EXPECT_EQ(r.json.value(QStringLiteral("name")).toString(), QStringLiteral("ontap-ai"));
    EXPECT_FALSE(r.json.value(QStringLiteral("uuid")).toString().isEmpty());
    EXPECT_FALSE(r.json.contains(QStringLiteral("location"))) << "only requested fields plus keys";
}

TEST_F(OntapSimRest, DemoEstate_NodesAggregatesSvms_MatchArchitecture)
{
    const QJsonArray nodes = listAll(QStringLiteral("/api/cluster/nodes?fields=name,model,ha"));
    ASSERT_EQ(nodes.size(), 2);
    EXPECT_TRUE(names(nodes).contains(QStringLiteral("ontap-ai-01")));
    EXPECT_TRUE(names(nodes).contains(QStringLiteral("ontap-ai-02")));
    for (const QJsonValue &n : nodes) {
        EXPECT_EQ(n.toObject().value(QStringLiteral("model")).toString(), QStringLiteral("AFF-A800"));
        EXPECT_EQ(
            n.toObject().value(QStringLiteral("ha")).toObject().value(QStringLiteral("partners")).toArray().size(), 1);
    }

    const QJsonArray aggregates =
        listAll(QStringLiteral("/api/storage/aggregates?fields=node.name,space.block_storage"));
    ASSERT_EQ(aggregates.size(), 4);
    QHash<QString, int> perNode;
    for (const QJsonValue &a : aggregates) {
        const QJsonObject o = a.toObject();
        perNode[o.value(QStringLiteral("node")).toObject().value(QStringLiteral("name")).toString()]++;
        const QJsonObject bs =
            o.value(QStringLiteral("space")).toObject().value(QStringLiteral("block_storage")).toObject();
        const qint64 size = bs.value(QStringLiteral("size")).toInteger();
        const qint64 used = bs.value(QStringLiteral("used")).toInteger();
        EXPECT_GT(size, 0);
        EXPECT_GT(used, 0);
        EXPECT_EQ(bs.value(QStringLiteral("available")).toInteger(), size - used);
    }
    EXPECT_EQ(perNode.value(QStringLiteral("ontap-ai-01")), 2);
    EXPECT_EQ(perNode.value(QStringLiteral("ontap-ai-02")), 2);

    const QJsonArray svms = listAll(QStringLiteral("/api/svm/svms"));
    EXPECT_TRUE(names(svms).contains(QStringLiteral("svm_ai")));
    EXPECT_TRUE(names(svms).contains(QStringLiteral("svm_cache")));
}

TEST_F(OntapSimRest, DemoEstate_Volumes_TellTheStory)
{
    const QJsonArray volumes = listAll(
        QStringLiteral("/api/storage/volumes?fields=")
        + enc(QStringLiteral("svm.name,size,space.used,comment,style,state,clone,qos,flexcache_endpoint_type")));
    const QJsonObject chest = findByName(volumes, QStringLiteral("chest_xray"));
    ASSERT_FALSE(chest.isEmpty());
    EXPECT_EQ(chest.value(QStringLiteral("size")).toInteger(), 300 * GiB);
    EXPECT_EQ(chest.value(QStringLiteral("space")).toObject().value(QStringLiteral("used")).toInteger(), 250 * GiB);
    EXPECT_TRUE(chest.value(QStringLiteral("comment")).toString().contains(QStringLiteral("627,615")));
    EXPECT_EQ(chest.value(QStringLiteral("qos"))
                  .toObject()
                  .value(QStringLiteral("policy"))
                  .toObject()
                  .value(QStringLiteral("name"))
                  .toString(),
              QStringLiteral("performance"));

    EXPECT_EQ(findByName(volumes, QStringLiteral("imagenet")).value(QStringLiteral("style")).toString(),
              QStringLiteral("flexgroup"));
    EXPECT_FALSE(findByName(volumes, QStringLiteral("tusimple")).isEmpty());
    EXPECT_FALSE(findByName(volumes, QStringLiteral("criteo")).isEmpty());
    int trident = 0;
    int offline = 0;
    int clones = 0;
    int caches = 0;
    for (const QJsonValue &v : volumes) {
        const QJsonObject o = v.toObject();
        trident += o.value(QStringLiteral("name")).toString().startsWith(QStringLiteral("trident_pvc_")) ? 1 : 0;
        offline += o.value(QStringLiteral("state")).toString() == QLatin1String("offline") ? 1 : 0;
        clones += o.value(QStringLiteral("clone")).toObject().value(QStringLiteral("is_flexclone")).toBool() ? 1 : 0;
        caches += o.value(QStringLiteral("flexcache_endpoint_type")).toString() == QLatin1String("cache") ? 1 : 0;
    }
    EXPECT_GE(trident, 3);
    EXPECT_EQ(offline, 1);
    EXPECT_EQ(clones, 1);
    EXPECT_EQ(caches, 2);
    for (const char *cache : {"cache_01", "cache_02", "cache_03"}) {
        EXPECT_EQ(findByName(volumes, QString::fromLatin1(cache))
                      .value(QStringLiteral("svm"))
                      .toObject()
                      .value(QStringLiteral("name"))
                      .toString(),
                  QStringLiteral("svm_cache"));
    }

    const QJsonArray policies = listAll(QStringLiteral("/api/storage/qos/policies?fields=*"));
    bool fixed = false;
    bool adaptive = false;
    for (const QJsonValue &p : policies) {
        fixed = fixed || p.toObject().contains(QStringLiteral("fixed"));
        adaptive = adaptive || p.toObject().contains(QStringLiteral("adaptive"));
        EXPECT_TRUE(p.toObject().contains(QStringLiteral("object_count")));
    }
    EXPECT_TRUE(fixed);
    EXPECT_TRUE(adaptive);

    const QJsonArray flexcaches = listAll(QStringLiteral("/api/storage/flexcache/flexcaches?fields=origins,svm"));
    ASSERT_EQ(flexcaches.size(), 2);
    const QJsonObject origin = flexcaches.at(0).toObject().value(QStringLiteral("origins")).toArray().at(0).toObject();
    EXPECT_EQ(origin.value(QStringLiteral("svm")).toObject().value(QStringLiteral("name")).toString(),
              QStringLiteral("svm_ai"));

    // Snapshots carry schedule names and SnapMirror labels.
    const QJsonArray snapshots =
        listAll(QStringLiteral("/api/storage/volumes/%1/snapshots?fields=name,snapmirror_label,create_time")
                    .arg(uuidOf(QStringLiteral("svm_ai"), QStringLiteral("chest_xray"))));
    EXPECT_GE(snapshots.size(), 5);
    QStringList created;
    for (const QJsonValue &s : snapshots) {
        created.append(s.toObject().value(QStringLiteral("create_time")).toString());
    }
    QStringList chronological = created;
    std::sort(chronological.begin(), chronological.end());
    EXPECT_EQ(created, chronological) << "snapshots list oldest first, as ONTAP does";
    QSet<QString> labels;
    for (const QJsonValue &s : snapshots) {
        labels.insert(s.toObject().value(QStringLiteral("snapmirror_label")).toString());
    }
    EXPECT_TRUE(labels.contains(QStringLiteral("hourly")));
    EXPECT_TRUE(labels.contains(QStringLiteral("daily")));
    EXPECT_TRUE(labels.contains(QStringLiteral("weekly")));
}

TEST_F(OntapSimRest, EmsEvents_OrderByTimeDesc_NewestFirstWithAlerts)
{
    const HttpResult r =
        client->get(QStringLiteral("/api/support/ems/events?fields=*&order_by=") + enc(QStringLiteral("time desc")));
    ASSERT_EQ(r.status, 200);
    const QJsonArray events = r.json.value(QStringLiteral("records")).toArray();
    ASSERT_GE(events.size(), 4);
    QStringList times;
    QStringList messages;
    for (const QJsonValue &e : events) {
        times.append(e.toObject().value(QStringLiteral("time")).toString());
        messages.append(
            e.toObject().value(QStringLiteral("message")).toObject().value(QStringLiteral("name")).toString());
    }
    QStringList sorted = times;
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    EXPECT_EQ(times, sorted);
    EXPECT_TRUE(messages.contains(QStringLiteral("wafl.vol.full")));
    EXPECT_TRUE(messages.contains(QStringLiteral("wafl.vol.autoSize.done")));

    // Python's requests encodes the space as '+'.
    const HttpResult plus =
        client->get(QStringLiteral("/api/support/ems/events?order_by=time+desc&max_records=1&fields=time"));
    EXPECT_EQ(
        plus.json.value(QStringLiteral("records")).toArray().at(0).toObject().value(QStringLiteral("time")).toString(),
        times.front());
}

TEST_F(OntapSimRest, Volumes_FieldsProjection_ReturnsOnlyRequestedFieldsNested)
{
    const HttpResult r = client->get(QStringLiteral("/api/storage/volumes?name=chest_xray&fields=")
                                     + enc(QStringLiteral("space.used,state")));
    ASSERT_EQ(r.status, 200);
    const QJsonArray records = r.json.value(QStringLiteral("records")).toArray();
    ASSERT_EQ(records.size(), 1);
    const QJsonObject v = records.at(0).toObject();
    QStringList keys = v.keys();
    keys.sort();
    EXPECT_EQ(keys,
              (QStringList{QStringLiteral("_links"),
                           QStringLiteral("name"),
                           QStringLiteral("space"),
                           QStringLiteral("state"),
                           QStringLiteral("uuid")}));
    EXPECT_EQ(v.value(QStringLiteral("space")).toObject().keys(), QStringList{QStringLiteral("used")});
    EXPECT_EQ(v.value(QStringLiteral("_links"))
                  .toObject()
                  .value(QStringLiteral("self"))
                  .toObject()
                  .value(QStringLiteral("href"))
                  .toString(),
              QStringLiteral("/api/storage/volumes/") + v.value(QStringLiteral("uuid")).toString());

    // No fields: keys only.
    const HttpResult bare = client->get(QStringLiteral("/api/storage/volumes?name=chest_xray"));
    QStringList bareKeys = bare.json.value(QStringLiteral("records")).toArray().at(0).toObject().keys();
    bareKeys.sort();
    EXPECT_EQ(bareKeys, (QStringList{QStringLiteral("_links"), QStringLiteral("name"), QStringLiteral("uuid")}));

    // A single record without fields gets the default fields.
    const HttpResult one =
        client->get(QStringLiteral("/api/storage/volumes/") + v.value(QStringLiteral("uuid")).toString());
    EXPECT_TRUE(one.json.contains(QStringLiteral("space")));
    EXPECT_TRUE(one.json.contains(QStringLiteral("svm")));
    EXPECT_FALSE(one.json.contains(QStringLiteral("records")));
}

TEST_F(OntapSimRest, Volumes_FieldsStarAndDoubleStar_ExpensiveFieldsOnlyWhenAsked)
{
    const QString chest = QStringLiteral("/api/storage/volumes?name=chest_xray&fields=");
    const QJsonObject star =
        client->get(chest + enc(QStringLiteral("*"))).json.value(QStringLiteral("records")).toArray().at(0).toObject();
    EXPECT_TRUE(star.contains(QStringLiteral("space")));
    EXPECT_TRUE(star.contains(QStringLiteral("snapshot_count")));
    EXPECT_FALSE(star.contains(QStringLiteral("metric")));
    EXPECT_FALSE(star.contains(QStringLiteral("qos")));
    EXPECT_FALSE(star.value(QStringLiteral("space")).toObject().contains(QStringLiteral("snapshot")));

    const QJsonObject all =
        client->get(chest + enc(QStringLiteral("**"))).json.value(QStringLiteral("records")).toArray().at(0).toObject();
    EXPECT_TRUE(all.contains(QStringLiteral("metric")));
    EXPECT_TRUE(all.contains(QStringLiteral("statistics")));
    EXPECT_TRUE(all.value(QStringLiteral("space")).toObject().contains(QStringLiteral("snapshot")));
    EXPECT_EQ(all.value(QStringLiteral("nas")).toObject().value(QStringLiteral("path")).toString(),
              QStringLiteral("/chest_xray"));

    const QJsonObject metric = client->get(chest + QStringLiteral("metric"))
                                   .json.value(QStringLiteral("records"))
                                   .toArray()
                                   .at(0)
                                   .toObject()
                                   .value(QStringLiteral("metric"))
                                   .toObject();
    EXPECT_EQ(metric.value(QStringLiteral("duration")).toString(), QStringLiteral("PT15S"));
    EXPECT_EQ(metric.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    const QJsonObject iops = metric.value(QStringLiteral("iops")).toObject();
    EXPECT_GT(iops.value(QStringLiteral("read")).toInteger(), 0);
    EXPECT_EQ(iops.value(QStringLiteral("total")).toInteger(),
              iops.value(QStringLiteral("read")).toInteger() + iops.value(QStringLiteral("write")).toInteger()
                  + iops.value(QStringLiteral("other")).toInteger());
    EXPECT_GT(metric.value(QStringLiteral("latency")).toObject().value(QStringLiteral("read")).toInteger(), 0);
    EXPECT_GT(metric.value(QStringLiteral("throughput")).toObject().value(QStringLiteral("read")).toInteger(), 0);
}

TEST_F(OntapSimRest, Volumes_UnknownFieldOrFilter_400)
{
    HttpResult r = client->get(QStringLiteral("/api/storage/volumes?fields=nosuchfield"));
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("target")).toString(),
              QStringLiteral("fields"));
    r = client->get(QStringLiteral("/api/storage/volumes?colour=blue"));
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
              QStringLiteral("262179"));
}

TEST_F(OntapSimRest, Volumes_Filters_WildcardOrNegationAndComparison)
{
    auto query = [&](const QString &q) {
        return names(listAll(QStringLiteral("/api/storage/volumes?") + q));
    };
    EXPECT_EQ(query(QStringLiteral("name=chest*")).size(), 3); // chest_xray, chest_xray_exp42, chest_xray_cache
    EXPECT_EQ(query(QStringLiteral("name=") + enc(QStringLiteral("cache_01|cache_02"))).size(), 2);
    const QStringList cacheSvm = query(QStringLiteral("svm.name=svm_cache"));
    EXPECT_EQ(cacheSvm.size(), 5);
    const QStringList notTrident = query(QStringLiteral("svm.name=svm_ai&name=") + enc(QStringLiteral("!trident*")));
    for (const QString &n : notTrident) {
        EXPECT_FALSE(n.startsWith(QStringLiteral("trident")));
    }
    EXPECT_FALSE(notTrident.isEmpty());
    const QStringList big = query(QStringLiteral("size=") + enc(QStringLiteral(">=1099511627776")));
    EXPECT_TRUE(big.contains(QStringLiteral("imagenet")));
    EXPECT_TRUE(big.contains(QStringLiteral("cache_01")));
    EXPECT_FALSE(big.contains(QStringLiteral("chest_xray")));
    EXPECT_EQ(query(QStringLiteral("uuid=") + uuidOf(QStringLiteral("svm_ai"), QStringLiteral("tusimple"))),
              QStringList{QStringLiteral("tusimple")});
    EXPECT_EQ(query(QStringLiteral("state=offline")), QStringList{QStringLiteral("mnist_legacy")});
    EXPECT_EQ(query(QStringLiteral("clone.is_flexclone=true")), QStringList{QStringLiteral("chest_xray_exp42")});
}

TEST_F(OntapSimRest, Volumes_ReturnRecordsFalse_CountsOnly)
{
    const HttpResult r = client->get(QStringLiteral("/api/storage/volumes?return_records=false"));
    ASSERT_EQ(r.status, 200);
    EXPECT_FALSE(r.json.contains(QStringLiteral("records")));
    EXPECT_EQ(r.json.value(QStringLiteral("num_records")).toInt(), (*sim)->volumeCount());
    const HttpResult cache =
        client->get(QStringLiteral("/api/storage/volumes?return_records=false&svm.name=svm_cache"));
    EXPECT_EQ(cache.json.value(QStringLiteral("num_records")).toInt(), 5);
}

TEST_F(OntapSimRest, Volumes_Constituents_HiddenUnlessAsked)
{
    const QJsonArray visible = listAll(QStringLiteral("/api/storage/volumes?name=") + enc(QStringLiteral("imagenet*")));
    EXPECT_FALSE(names(visible).contains(QStringLiteral("imagenet__0001")));
    const QJsonArray constituents = listAll(QStringLiteral("/api/storage/volumes?is_constituent=true&fields=style"));
    EXPECT_EQ(constituents.size(), 8);
    EXPECT_EQ(constituents.at(0).toObject().value(QStringLiteral("style")).toString(),
              QStringLiteral("flexgroup_constituent"));
    EXPECT_EQ((*sim)->volumeCount(true), (*sim)->volumeCount() + 8);
}

TEST_F(OntapSimRest, Paths_DoubleSlashAndTrailingSlash_Tolerated)
{
    EXPECT_EQ(client->get(QStringLiteral("/api//storage/volumes?fields=name")).status, 200);
    EXPECT_EQ(client->get(QStringLiteral("/api//cluster/")).status, 200);
    EXPECT_EQ(client->get(QStringLiteral("//api/svm//svms")).status, 200);
}

TEST_F(OntapSimRest, Errors_UnknownUuidAndUnknownApi_OntapErrorBodies)
{
    HttpResult r = client->get(QStringLiteral("/api/storage/volumes/00000000-0000-0000-0000-000000000000"));
    EXPECT_EQ(r.status, 404);
    const QJsonObject error = r.json.value(QStringLiteral("error")).toObject();
    EXPECT_EQ(error.value(QStringLiteral("message")).toString(), QStringLiteral("entry doesn't exist"));
    EXPECT_EQ(error.value(QStringLiteral("code")).toString(), QStringLiteral("4"));
    EXPECT_EQ(error.value(QStringLiteral("target")).toString(), QStringLiteral("uuid"));
    r = client->del(QStringLiteral("/api/storage/volumes/00000000-0000-0000-0000-000000000000/snapshots/abc"));
    EXPECT_EQ(r.status, 404);
    r = client->get(QStringLiteral("/api/storage/nosuchthing"));
    EXPECT_EQ(r.status, 404);
    EXPECT_EQ(r.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
              QStringLiteral("3"));
    r = client->get(QStringLiteral("/api/cluster/jobs/00000000-0000-0000-0000-000000000000"));
    EXPECT_EQ(r.status, 404);
}

TEST_F(OntapSimRest, Accept_PlainJson_DropsSelfLinksKeepsNext)
{
    (*sim)->setPageCap(5);
    client->setAccept("application/json");
    const HttpResult r = client->get(QStringLiteral("/api/storage/volumes?fields=name"));
    ASSERT_EQ(r.status, 200);
    EXPECT_TRUE(r.headers.value("content-type").startsWith("application/json"));
    EXPECT_FALSE(r.json.value(QStringLiteral("records")).toArray().at(0).toObject().contains(QStringLiteral("_links")));
    const QJsonObject links = r.json.value(QStringLiteral("_links")).toObject();
    EXPECT_FALSE(links.contains(QStringLiteral("self")));
    EXPECT_TRUE(links.contains(QStringLiteral("next")));
}

TEST_F(OntapSimRest, Paging_OrderByAndFilter_NextLinksKeepQueryAndCover)
{
    (*sim)->setPageCap(4);
    int pages = 0;
    const QJsonArray all =
        listAll(QStringLiteral("/api/storage/volumes?svm.name=svm_ai&fields=size&max_records=100&order_by=")
                    + enc(QStringLiteral("name desc")),
                &pages);
    const HttpResult count = client->get(QStringLiteral("/api/storage/volumes?svm.name=svm_ai&return_records=false"));
    EXPECT_EQ(all.size(), count.json.value(QStringLiteral("num_records")).toInt());
    EXPECT_GE(pages, 3);
    QStringList got = names(all);
    QStringList sorted = got;
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    EXPECT_EQ(got, sorted);
    EXPECT_EQ(QSet<QString>(got.begin(), got.end()).size(), got.size());
    for (const QJsonValue &v : all) {
        EXPECT_TRUE(v.toObject().contains(QStringLiteral("size"))) << "fields carried into next links";
    }
}

TEST_F(OntapSimRest, Snapshot_Create_202ThenJobLifecycleThenVisible)
{
    OntapSimulator::Options slow = RunningSimulator::testOptions();
    slow.jobDurationMin = slow.jobDurationMax = std::chrono::milliseconds(500);
    sim = std::make_unique<RunningSimulator>(slow);
    client = std::make_unique<QnamClient>(**sim);
    const QString volume = uuidOf(QStringLiteral("svm_ai"), QStringLiteral("tusimple"));
    const int before = (*sim)->snapshotCount(volume);

    const HttpResult accepted =
        client->post(QStringLiteral("/api/storage/volumes/%1/snapshots").arg(volume),
                     QJsonObject{{QStringLiteral("name"), QStringLiteral("commit_0001")},
                                 {QStringLiteral("comment"), QStringLiteral("first commit")},
                                 {QStringLiteral("snapmirror_label"), QStringLiteral("commit")}});
    ASSERT_EQ(accepted.status, 202) << accepted.body.toStdString();
    const QJsonObject job = accepted.json.value(QStringLiteral("job")).toObject();
    const QString jobUuid = job.value(QStringLiteral("uuid")).toString();
    EXPECT_EQ(job.value(QStringLiteral("_links"))
                  .toObject()
                  .value(QStringLiteral("self"))
                  .toObject()
                  .value(QStringLiteral("href"))
                  .toString(),
              QStringLiteral("/api/cluster/jobs/") + jobUuid);
    EXPECT_EQ((*sim)->snapshotCount(volume), before) << "nothing happens before the job completes";

    QStringList states;
    const QJsonObject done = client->waitForJob(jobUuid, &states);
    EXPECT_EQ(states, (QStringList{QStringLiteral("queued"), QStringLiteral("running"), QStringLiteral("success")}));
    EXPECT_EQ(done.value(QStringLiteral("description")).toString(),
              QStringLiteral("POST /api/storage/volumes/%1/snapshots").arg(volume));
    EXPECT_EQ(done.value(QStringLiteral("message")).toString(), QStringLiteral("success"));
    EXPECT_EQ(done.value(QStringLiteral("code")).toInt(), 0);
    EXPECT_FALSE(done.value(QStringLiteral("start_time")).toString().isEmpty());
    EXPECT_FALSE(done.value(QStringLiteral("end_time")).toString().isEmpty());
    EXPECT_EQ((*sim)->snapshotCount(volume), before + 1);

    const HttpResult listed =
        client->get(QStringLiteral("/api/storage/volumes/%1/snapshots?name=commit_0001&fields=*").arg(volume));
    const QJsonObject snap = listed.json.value(QStringLiteral("records")).toArray().at(0).toObject();
    EXPECT_EQ(snap.value(QStringLiteral("comment")).toString(), QStringLiteral("first commit"));
    EXPECT_EQ(snap.value(QStringLiteral("snapmirror_label")).toString(), QStringLiteral("commit"));
    EXPECT_EQ(snap.value(QStringLiteral("volume")).toObject().value(QStringLiteral("name")).toString(),
              QStringLiteral("tusimple"));
    EXPECT_EQ(snap.value(QStringLiteral("svm")).toObject().value(QStringLiteral("name")).toString(),
              QStringLiteral("svm_ai"));
}

TEST_F(OntapSimRest, Snapshot_CreateWithReturnTimeout_201AndJobAlreadyDone)
{
    const QString volume = uuidOf(QStringLiteral("svm_ai"), QStringLiteral("criteo"));
    const HttpResult r = client->post(
        QStringLiteral("/api/storage/volumes/%1/snapshots?return_timeout=15&return_records=true").arg(volume),
        QJsonObject{{QStringLiteral("name"), QStringLiteral("sync_snap")}});
    ASSERT_EQ(r.status, 201) << r.body.toStdString();
    EXPECT_EQ(
        r.json.value(QStringLiteral("records")).toArray().at(0).toObject().value(QStringLiteral("name")).toString(),
        QStringLiteral("sync_snap"));
    EXPECT_TRUE(r.headers.value("location").startsWith("/api/storage/volumes/"));
    const HttpResult job = client->get(QStringLiteral("/api/cluster/jobs/") + QnamClient::jobUuid(r));
    EXPECT_EQ(job.json.value(QStringLiteral("state")).toString(), QStringLiteral("success"));
    EXPECT_TRUE((*sim)->snapshotNames(volume).contains(QStringLiteral("sync_snap")));
}

TEST_F(OntapSimRest, Snapshot_DuplicateName_409)
{
    const QString volume = uuidOf(QStringLiteral("svm_ai"), QStringLiteral("chest_xray"));
    const QString existing = (*sim)->snapshotNames(volume).front();
    const HttpResult r = client->post(QStringLiteral("/api/storage/volumes/%1/snapshots").arg(volume),
                                      QJsonObject{{QStringLiteral("name"), existing}});
    EXPECT_EQ(r.status, 409);
    EXPECT_EQ(r.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("target")).toString(),
              QStringLiteral("name"));

    // Two creates racing: the second job fails when it finds the first one's snapshot.
    const HttpResult a = client->post(QStringLiteral("/api/storage/volumes/%1/snapshots").arg(volume),
                                      QJsonObject{{QStringLiteral("name"), QStringLiteral("race")}});
    const HttpResult b = client->post(QStringLiteral("/api/storage/volumes/%1/snapshots").arg(volume),
                                      QJsonObject{{QStringLiteral("name"), QStringLiteral("race")}});
    ASSERT_EQ(a.status, 202);
    ASSERT_EQ(b.status, 202);
    const QJsonObject ja = runJob(a);
    const QJsonObject jb = runJob(b);
    const QStringList outcomes{ja.value(QStringLiteral("state")).toString(),
                               jb.value(QStringLiteral("state")).toString()};
    EXPECT_EQ(outcomes.count(QStringLiteral("success")), 1);
    EXPECT_EQ(outcomes.count(QStringLiteral("failure")), 1);
    EXPECT_EQ((*sim)->snapshotNames(volume).count(QStringLiteral("race")), 1);
}

TEST_F(OntapSimRest, Snapshot_RenameAndDelete_ApplyWhenJobsSucceed)
{
    const QString volume = uuidOf(QStringLiteral("svm_ai"), QStringLiteral("tusimple"));
    ASSERT_EQ(runJob(client->post(QStringLiteral("/api/storage/volumes/%1/snapshots").arg(volume),
                                  QJsonObject{{QStringLiteral("name"), QStringLiteral("before")}}))
                  .value(QStringLiteral("state"))
                  .toString(),
              QStringLiteral("success"));
    const QString snap = client->get(QStringLiteral("/api/storage/volumes/%1/snapshots?name=before").arg(volume))
                             .json.value(QStringLiteral("records"))
                             .toArray()
                             .at(0)
                             .toObject()
                             .value(QStringLiteral("uuid"))
                             .toString();
    ASSERT_FALSE(snap.isEmpty());
    const HttpResult renamed = client->patch(QStringLiteral("/api/storage/volumes/%1/snapshots/%2").arg(volume, snap),
                                             QJsonObject{{QStringLiteral("name"), QStringLiteral("after")},
                                                         {QStringLiteral("comment"), QStringLiteral("renamed")}});
    ASSERT_EQ(renamed.status, 202);
    EXPECT_EQ(runJob(renamed).value(QStringLiteral("state")).toString(), QStringLiteral("success"));
    const HttpResult one = client->get(QStringLiteral("/api/storage/volumes/%1/snapshots/%2").arg(volume, snap));
    EXPECT_EQ(one.json.value(QStringLiteral("name")).toString(), QStringLiteral("after"));
    EXPECT_EQ(one.json.value(QStringLiteral("comment")).toString(), QStringLiteral("renamed"));

    const HttpResult deleted = client->del(QStringLiteral("/api/storage/volumes/%1/snapshots/%2").arg(volume, snap));
    ASSERT_EQ(deleted.status, 202);
    const QJsonObject job = runJob(deleted);
    EXPECT_EQ(job.value(QStringLiteral("state")).toString(), QStringLiteral("success"));
    EXPECT_EQ(job.value(QStringLiteral("description")).toString(),
              QStringLiteral("DELETE /api/storage/volumes/%1/snapshots/%2").arg(volume, snap));
    EXPECT_FALSE((*sim)->snapshotNames(volume).contains(QStringLiteral("after")));
    EXPECT_EQ(client->get(QStringLiteral("/api/storage/volumes/%1/snapshots/%2").arg(volume, snap)).status, 404);
}

TEST_F(OntapSimRest, Restore_QueryParameter_RevertsUsedAndDropsNewerSnapshots)
{
    const QString volume = uuidOf(QStringLiteral("svm_ai"), QStringLiteral("tusimple"));
    const auto before = (*sim)->volume(volume);
    ASSERT_TRUE(before);
    const QString target = before->snapshots.front().name;
    const qint64 expectedUsed = before->snapshots.front().volumeUsedAtCreate;
    ASSERT_GT(before->snapshots.size(), 2u);

    const HttpResult r = client->send(
        "PATCH", QStringLiteral("/api/storage/volumes/%1?restore_to.snapshot.name=%2").arg(volume, enc(target)), "{}");
    ASSERT_EQ(r.status, 202) << r.body.toStdString();
    const QJsonObject job = runJob(r);
    EXPECT_EQ(job.value(QStringLiteral("state")).toString(), QStringLiteral("success"))
        << QJsonDocument(job).toJson().toStdString();
    EXPECT_EQ(job.value(QStringLiteral("description")).toString(),
              QStringLiteral("PATCH /api/storage/volumes/") + volume);
    const auto after = (*sim)->volume(volume);
    EXPECT_EQ(after->used, expectedUsed);
    EXPECT_EQ((*sim)->snapshotNames(volume), QStringList{target});

    bool reverted = false;
    for (const auto &e : (*sim)->events()) {
        reverted = reverted || e.messageName == QLatin1String("wafl.snaprestore.revert");
    }
    EXPECT_TRUE(reverted);
}

TEST_F(OntapSimRest, Restore_NestedAndDottedBodies_BothAccepted)
{
    const QString volume = uuidOf(QStringLiteral("svm_ai"), QStringLiteral("criteo"));
    const auto v = (*sim)->volume(volume);
    const auto &snaps = v->snapshots;
    ASSERT_GE(snaps.size(), 4u);
    // Restore to the newest snapshot first (nested body by uuid), then an older one (dotted body by name).
    const HttpResult nested = client->patch(
        QStringLiteral("/api/storage/volumes/") + volume,
        QJsonObject{
            {QStringLiteral("restore_to"),
             QJsonObject{{QStringLiteral("snapshot"), QJsonObject{{QStringLiteral("uuid"), snaps.back().uuid}}}}}});
    ASSERT_EQ(nested.status, 202) << nested.body.toStdString();
    EXPECT_EQ(runJob(nested).value(QStringLiteral("state")).toString(), QStringLiteral("success"));
    EXPECT_EQ((*sim)->volume(volume)->used, snaps.back().volumeUsedAtCreate);

    const Snapshot &older = snaps[snaps.size() - 3];
    const HttpResult dotted = client->patch(QStringLiteral("/api/storage/volumes/") + volume,
                                            QJsonObject{{QStringLiteral("restore_to.snapshot.name"), older.name}});
    ASSERT_EQ(dotted.status, 202) << dotted.body.toStdString();
    EXPECT_EQ(runJob(dotted).value(QStringLiteral("state")).toString(), QStringLiteral("success"));
    EXPECT_EQ((*sim)->volume(volume)->used, older.volumeUsedAtCreate);
    EXPECT_EQ((*sim)->snapshotNames(volume).size(), qsizetype(snaps.size() - 2));

    const HttpResult missing =
        client->patch(QStringLiteral("/api/storage/volumes/") + volume,
                      QJsonObject{{QStringLiteral("restore_to.snapshot.name"), QStringLiteral("nope")}});
    EXPECT_EQ(missing.status, 404);
    const HttpResult mixed = client->patch(
        QStringLiteral("/api/storage/volumes/") + volume,
        QJsonObject{{QStringLiteral("restore_to.snapshot.name"), older.name}, {QStringLiteral("size"), 1}});
    EXPECT_EQ(mixed.status, 400);
    EXPECT_EQ(mixed.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
              QStringLiteral("918251"));
}

TEST_F(OntapSimRest, Clone_DottedBody_CreatesFlexCloneOfSnapshot)
{
    const QString parent = uuidOf(QStringLiteral("svm_ai"), QStringLiteral("tusimple"));
    const auto p = (*sim)->volume(parent);
    const Snapshot snap = p->snapshots.front();
    const HttpResult r =
        client->post(QStringLiteral("/api/storage/volumes?return_records=true"),
                     QJsonObject{{QStringLiteral("name"), QStringLiteral("tusimple_exp7")},
                                 {QStringLiteral("svm.name"), QStringLiteral("svm_ai")},
                                 {QStringLiteral("clone.is_flexclone"), true},
                                 {QStringLiteral("clone.parent_volume.name"), QStringLiteral("tusimple")},
                                 {QStringLiteral("clone.parent_snapshot.name"), snap.name}});
    ASSERT_EQ(r.status, 202) << r.body.toStdString();
    const QString cloneUuid =
        r.json.value(QStringLiteral("records")).toArray().at(0).toObject().value(QStringLiteral("uuid")).toString();
    ASSERT_FALSE(cloneUuid.isEmpty());
    EXPECT_EQ(client->get(QStringLiteral("/api/storage/volumes/") + cloneUuid).status, 404)
        << "appears when the job succeeds";
    const QJsonObject job = runJob(r);
    EXPECT_EQ(job.value(QStringLiteral("state")).toString(), QStringLiteral("success"));
    EXPECT_EQ(job.value(QStringLiteral("description")).toString(), QStringLiteral("POST /api/storage/volumes"));

    const HttpResult clone =
        client->get(QStringLiteral("/api/storage/volumes/%1?fields=clone,space.used,svm").arg(cloneUuid));
    ASSERT_EQ(clone.status, 200);
    const QJsonObject c = clone.json.value(QStringLiteral("clone")).toObject();
    EXPECT_TRUE(c.value(QStringLiteral("is_flexclone")).toBool());
    EXPECT_EQ(c.value(QStringLiteral("parent_volume")).toObject().value(QStringLiteral("uuid")).toString(), parent);
    EXPECT_EQ(c.value(QStringLiteral("parent_snapshot")).toObject().value(QStringLiteral("name")).toString(),
              snap.name);
    EXPECT_EQ(c.value(QStringLiteral("parent_svm")).toObject().value(QStringLiteral("name")).toString(),
              QStringLiteral("svm_ai"));
    EXPECT_EQ(clone.json.value(QStringLiteral("space")).toObject().value(QStringLiteral("used")).toInteger(),
              snap.volumeUsedAtCreate);
}

TEST_F(OntapSimRest, Clone_NestedBodyWithoutSnapshot_TakesOneAndNameTakenIs409)
{
    const QJsonObject body{
        {QStringLiteral("name"), QStringLiteral("criteo_branch")},
        {QStringLiteral("svm"), QJsonObject{{QStringLiteral("name"), QStringLiteral("svm_ai")}}},
        {QStringLiteral("clone"),
         QJsonObject{{QStringLiteral("is_flexclone"), true},
                     {QStringLiteral("parent_volume"), QJsonObject{{QStringLiteral("name"), QStringLiteral("criteo")}}},
                     {QStringLiteral("parent_svm"), QJsonObject{{QStringLiteral("name"), QStringLiteral("svm_ai")}}}}}};
    const QString parent = uuidOf(QStringLiteral("svm_ai"), QStringLiteral("criteo"));
    const int before = (*sim)->snapshotCount(parent);
    const HttpResult r = client->post(QStringLiteral("/api/storage/volumes"), body);
    ASSERT_EQ(r.status, 202) << r.body.toStdString();
    EXPECT_EQ(runJob(r).value(QStringLiteral("state")).toString(), QStringLiteral("success"));
    const auto clone = (*sim)->volumeByName(QStringLiteral("svm_ai"), QStringLiteral("criteo_branch"));
    ASSERT_TRUE(clone);
    EXPECT_TRUE(clone->isFlexClone);
    EXPECT_EQ((*sim)->snapshotCount(parent), before + 1) << "ONTAP snapshots the parent for the clone";
    EXPECT_TRUE(clone->cloneParentSnapshot.name.startsWith(QStringLiteral("clone_criteo_branch.")));

    const HttpResult again = client->post(QStringLiteral("/api/storage/volumes"), body);
    EXPECT_EQ(again.status, 409);
    EXPECT_EQ(again.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
              QStringLiteral("1"));
    const HttpResult badParent =
        client->post(QStringLiteral("/api/storage/volumes"),
                     QJsonObject{{QStringLiteral("name"), QStringLiteral("x1")},
                                 {QStringLiteral("svm.name"), QStringLiteral("svm_ai")},
                                 {QStringLiteral("clone.parent_volume.name"), QStringLiteral("nope")}});
    EXPECT_EQ(badParent.status, 404);
    EXPECT_EQ(badParent.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("target")).toString(),
              QStringLiteral("clone.parent_volume.name"));
}

TEST_F(OntapSimRest, Snapshot_DeleteWhileCloneDepends_JobFailsBusy)
{
    const auto clone = (*sim)->volumeByName(QStringLiteral("svm_ai"), QStringLiteral("chest_xray_exp42"));
    ASSERT_TRUE(clone && clone->isFlexClone);
    const HttpResult r = client->del(QStringLiteral("/api/storage/volumes/%1/snapshots/%2")
                                         .arg(clone->cloneParentVolume.uuid, clone->cloneParentSnapshot.uuid));
    ASSERT_EQ(r.status, 202);
    const QJsonObject job = runJob(r);
    EXPECT_EQ(job.value(QStringLiteral("state")).toString(), QStringLiteral("failure"));
    EXPECT_EQ(job.value(QStringLiteral("code")).toInteger(), 1638600);
    EXPECT_TRUE(job.value(QStringLiteral("message")).toString().contains(QStringLiteral("busy")));
    EXPECT_TRUE((*sim)->snapshotNames(clone->cloneParentVolume.uuid).contains(clone->cloneParentSnapshot.name));

    // A revert to an older copy would discard the busy one, so it fails too.
    const auto parent = (*sim)->volume(clone->cloneParentVolume.uuid);
    const HttpResult revert =
        client->patch(QStringLiteral("/api/storage/volumes/") + parent->uuid,
                      QJsonObject{{QStringLiteral("restore_to.snapshot.uuid"), parent->snapshots.front().uuid}});
    ASSERT_EQ(revert.status, 202);
    EXPECT_EQ(runJob(revert).value(QStringLiteral("code")).toInteger(), 1638600);
    EXPECT_EQ((*sim)->volume(parent->uuid)->used, parent->used);

    // owners shows why; after a split the snapshot can go.
    const HttpResult owners = client->get(QStringLiteral("/api/storage/volumes/%1/snapshots/%2?fields=owners")
                                              .arg(clone->cloneParentVolume.uuid, clone->cloneParentSnapshot.uuid));
    EXPECT_EQ(owners.json.value(QStringLiteral("owners")).toArray().at(0).toString(), QStringLiteral("volume_clone"));
    const HttpResult split = client->patch(QStringLiteral("/api/storage/volumes/") + clone->uuid,
                                           QJsonObject{{QStringLiteral("clone.split_initiated"), true}});
    ASSERT_EQ(split.status, 202) << split.body.toStdString();
    EXPECT_EQ(runJob(split).value(QStringLiteral("state")).toString(), QStringLiteral("success"));
    const HttpResult again = client->del(QStringLiteral("/api/storage/volumes/%1/snapshots/%2")
                                             .arg(clone->cloneParentVolume.uuid, clone->cloneParentSnapshot.uuid));
    EXPECT_EQ(runJob(again).value(QStringLiteral("state")).toString(), QStringLiteral("success"));
}

TEST_F(OntapSimRest, Volume_PatchQosSizeAndDelete)
{
    const QString volume = uuidOf(QStringLiteral("svm_ai"), QStringLiteral("tusimple"));
    const HttpResult patch = client->patch(
        QStringLiteral("/api/storage/volumes/") + volume,
        QJsonObject{
            {QStringLiteral("qos"),
             QJsonObject{{QStringLiteral("policy"), QJsonObject{{QStringLiteral("name"), QStringLiteral("extreme")}}}}},
            {QStringLiteral("size"), 200 * GiB}});
    ASSERT_EQ(patch.status, 202) << patch.body.toStdString();
    EXPECT_EQ(runJob(patch).value(QStringLiteral("state")).toString(), QStringLiteral("success"));
    const HttpResult after = client->get(QStringLiteral("/api/storage/volumes/%1?fields=qos,size").arg(volume));
    EXPECT_EQ(after.json.value(QStringLiteral("qos"))
                  .toObject()
                  .value(QStringLiteral("policy"))
                  .toObject()
                  .value(QStringLiteral("name"))
                  .toString(),
              QStringLiteral("extreme"));
    EXPECT_EQ(after.json.value(QStringLiteral("size")).toInteger(), 200 * GiB);

    EXPECT_EQ(client
                  ->patch(QStringLiteral("/api/storage/volumes/") + volume,
                          QJsonObject{{QStringLiteral("qos.policy.name"), QStringLiteral("platinum")}})
                  .status,
              404);
    EXPECT_EQ(
        client->patch(QStringLiteral("/api/storage/volumes/") + volume, QJsonObject{{QStringLiteral("colour"), 1}})
            .status,
        400);

    // The parent of a clone cannot go; a plain volume can.
    const QString chest = uuidOf(QStringLiteral("svm_ai"), QStringLiteral("chest_xray"));
    EXPECT_EQ(
        runJob(client->del(QStringLiteral("/api/storage/volumes/") + chest)).value(QStringLiteral("state")).toString(),
        QStringLiteral("failure"));
    EXPECT_EQ(
        runJob(client->del(QStringLiteral("/api/storage/volumes/") + volume)).value(QStringLiteral("state")).toString(),
        QStringLiteral("success"));
    EXPECT_FALSE((*sim)->volume(volume));
    EXPECT_EQ(client->get(QStringLiteral("/api/storage/volumes/") + volume).status, 404);
}

TEST_F(OntapSimRest, FlexCache_CreateListDelete)
{
    const HttpResult r =
        client->post(QStringLiteral("/api/storage/flexcache/flexcaches?return_timeout=10"),
                     QJsonObject{{QStringLiteral("name"), QStringLiteral("tusimple_cache")},
                                 {QStringLiteral("svm.name"), QStringLiteral("svm_cache")},
                                 {QStringLiteral("origins"),
                                  QJsonArray{QJsonObject{{QStringLiteral("volume.name"), QStringLiteral("tusimple")},
                                                         {QStringLiteral("svm.name"), QStringLiteral("svm_ai")}}}}});
    ASSERT_EQ(r.status, 201) << r.body.toStdString();
    const QJsonArray caches =
        listAll(QStringLiteral("/api/storage/flexcache/flexcaches?name=tusimple_cache&fields=origins"));
    ASSERT_EQ(caches.size(), 1);
    const QString uuid = caches.at(0).toObject().value(QStringLiteral("uuid")).toString();
    EXPECT_EQ(caches.at(0)
                  .toObject()
                  .value(QStringLiteral("origins"))
                  .toArray()
                  .at(0)
                  .toObject()
                  .value(QStringLiteral("volume"))
                  .toObject()
                  .value(QStringLiteral("name"))
                  .toString(),
              QStringLiteral("tusimple"));
    EXPECT_EQ(client->get(QStringLiteral("/api/storage/volumes/%1?fields=flexcache_endpoint_type").arg(uuid))
                  .json.value(QStringLiteral("flexcache_endpoint_type"))
                  .toString(),
              QStringLiteral("cache"));
    const HttpResult del = client->del(QStringLiteral("/api/storage/flexcache/flexcaches/") + uuid);
    EXPECT_EQ(runJob(del).value(QStringLiteral("state")).toString(), QStringLiteral("success"));
    EXPECT_TRUE(listAll(QStringLiteral("/api/storage/flexcache/flexcaches?name=tusimple_cache")).isEmpty());
}

TEST_F(OntapSimRest, Jobs_CollectionListsRecentJobsAndTheyVanishAfterRetention)
{
    OntapSimulator::Options options = RunningSimulator::testOptions();
    options.jobRetention = std::chrono::milliseconds(300);
    sim = std::make_unique<RunningSimulator>(options);
    client = std::make_unique<QnamClient>(**sim);
    const QString volume = uuidOf(QStringLiteral("svm_ai"), QStringLiteral("tusimple"));
    const HttpResult r = client->post(QStringLiteral("/api/storage/volumes/%1/snapshots").arg(volume),
                                      QJsonObject{{QStringLiteral("name"), QStringLiteral("s1")}});
    const QString job = QnamClient::jobUuid(r);
    EXPECT_EQ(client->waitForJob(job).value(QStringLiteral("state")).toString(), QStringLiteral("success"));
    const QJsonArray jobs = listAll(QStringLiteral("/api/cluster/jobs?fields=state,description"));
    ASSERT_EQ(jobs.size(), 1);
    EXPECT_EQ(jobs.at(0).toObject().value(QStringLiteral("uuid")).toString(), job);
    sleepMs(450);
    EXPECT_EQ(client->get(QStringLiteral("/api/cluster/jobs/") + job).status, 404);
    EXPECT_TRUE(listAll(QStringLiteral("/api/cluster/jobs")).isEmpty());
}

TEST_F(OntapSimRest, Metrics_VolumeHistory_SamplesPerInterval)
{
    const QString volume = uuidOf(QStringLiteral("svm_ai"), QStringLiteral("imagenet"));
    HttpResult r =
        client->get(QStringLiteral("/api/storage/volumes/%1/metrics?fields=iops,throughput,latency").arg(volume));
    ASSERT_EQ(r.status, 200) << r.body.toStdString();
    const QJsonArray hour = r.json.value(QStringLiteral("records")).toArray();
    EXPECT_EQ(hour.size(), 240);
    EXPECT_GT(hour.at(0).toObject().value(QStringLiteral("iops")).toObject().value(QStringLiteral("read")).toInteger(),
              0);
    r = client->get(QStringLiteral("/api/storage/volumes/%1/metrics?interval=1d&fields=duration").arg(volume));
    EXPECT_EQ(
        r.json.value(QStringLiteral("records")).toArray().at(0).toObject().value(QStringLiteral("duration")).toString(),
        QStringLiteral("PT4M"));
    EXPECT_EQ(client->get(QStringLiteral("/api/storage/volumes/%1/metrics?interval=5y").arg(volume)).status, 400);
}

TEST_F(OntapSimRest, BehaviourOverTime_TridentVolumesGrowAndEventsArrive)
{
    const QString pvc = client->get(QStringLiteral("/api/storage/volumes?name=trident_pvc_*&max_records=1"))
                            .json.value(QStringLiteral("records"))
                            .toArray()
                            .at(0)
                            .toObject()
                            .value(QStringLiteral("uuid"))
                            .toString();
    ASSERT_FALSE(pvc.isEmpty());
    const qint64 before = (*sim)->volume(pvc)->used;
    const qsizetype events = (*sim)->events().size();
    for (int i = 0; i < 40; ++i) {
        (*sim)->tick();
    }
    EXPECT_GT((*sim)->volume(pvc)->used, before);
    EXPECT_GT((*sim)->events().size(), events);
}

TEST_F(OntapSimRest, Snapshots_PagedByCreateTime_CoverEveryCopyOnce)
{
    (*sim)->setPageCap(3);
    const QString volume = uuidOf(QStringLiteral("svm_ai"), QStringLiteral("chest_xray"));
    int pages = 0;
    const QJsonArray all =
        listAll(QStringLiteral("/api/storage/volumes/%1/snapshots?fields=create_time").arg(volume), &pages);
    EXPECT_EQ(all.size(), (*sim)->snapshotCount(volume));
    EXPECT_EQ(pages, ((*sim)->snapshotCount(volume) + 2) / 3);
    const QStringList got = names(all);
    EXPECT_EQ(QSet<QString>(got.begin(), got.end()).size(), got.size());
    EXPECT_EQ(got, (*sim)->snapshotNames(volume)) << "oldest first, like the in-process list";
}
