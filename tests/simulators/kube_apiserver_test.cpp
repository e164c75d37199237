// The Kubernetes simulator as an API server: discovery, auth, Status errors, paging with
// continue tokens, watches with bookmarks and 410 expiry, the Job controller and scheduler seen
// through the API, faults and GPU metrics. Plain HTTPS requests, no Kubernetes client library.

#include "tests/simulators/kubetestsupport.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkRequest>
#include <QSet>
#include <QUrl>

#include <gtest/gtest.h>

using strata::sim::kube::KubeJobSpec;
using strata::sim::kube::KubeSimulator;
using namespace strata::testsupport::kubesim;
using Preset = KubeSimulator::Options::Preset;

namespace {

QJsonObject obj(const QJsonValue &v)
{
    return v.toObject();
}

QString nameOf(const QJsonObject &o)
{
    return obj(o.value(QStringLiteral("metadata"))).value(QStringLiteral("name")).toString();
}

QJsonArray items(const HttpResult &r)
{
    return r.json.value(QStringLiteral("items")).toArray();
}

QJsonObject podJson(const QString &name, const QJsonObject &labels = {})
{
    return QJsonObject{
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("Pod")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("labels"), labels}}},
        {QStringLiteral("spec"),
         QJsonObject{{QStringLiteral("containers"),
                      QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("main")},
                                             {QStringLiteral("image"), QStringLiteral("busybox")}}}}}}};
}

QJsonObject namespaceJson(const QString &name)
{
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                       {QStringLiteral("kind"), QStringLiteral("Namespace")},
                       {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}}};
}

QJsonObject findResource(const HttpResult &list, const QString &name)
{
    for (const QJsonValue &v : list.json.value(QStringLiteral("resources")).toArray()) {
        if (v.toObject().value(QStringLiteral("name")).toString() == name) {
            return v.toObject();
        }
    }
    return {};
}

QJsonObject condition(const QJsonObject &object, const QString &type, const char *where = "conditions")
{
    for (const QJsonValue &v : obj(object.value(QStringLiteral("status"))).value(QLatin1String(where)).toArray()) {
        if (v.toObject().value(QStringLiteral("type")).toString() == type) {
            return v.toObject();
        }
    }
    return {};
}

class KubeApiServer : public ::testing::Test
{
protected:
    void start(KubeSimulator::Options options)
    {
        sim = std::make_unique<RunningKube>(std::move(options));
        ASSERT_TRUE(sim->isRunning()) << sim->error().toStdString();
        http = std::make_unique<KubeHttp>(**sim);
    }
    void start(Preset preset) { start(testOptions(preset)); }

    /// Pods of the job (label job-name), as the API lists them.
    QJsonArray jobPods(const QString &ns, const QString &job)
    {
        return items(http->get(QStringLiteral("/api/v1/namespaces/%1/pods?labelSelector=job-name%3D%2").arg(ns, job)));
    }

    std::unique_ptr<RunningKube> sim;
    std::unique_ptr<KubeHttp> http;
};

} // namespace

TEST_F(KubeApiServer, Discovery_ResourcesWithShortAndSingularNames)
{
    start(Preset::Empty);
    const HttpResult version = http->get(QStringLiteral("/version"));
    EXPECT_EQ(version.status, 200);
    EXPECT_EQ(version.json.value(QStringLiteral("major")).toString(), QStringLiteral("1"));

    const HttpResult api = http->get(QStringLiteral("/api"));
    EXPECT_EQ(api.json.value(QStringLiteral("versions")).toArray().first().toString(), QStringLiteral("v1"));

    const HttpResult core = http->get(QStringLiteral("/api/v1"));
    ASSERT_EQ(core.status, 200);
    EXPECT_EQ(core.json.value(QStringLiteral("kind")).toString(), QStringLiteral("APIResourceList"));
    const struct
    {
        const char *name;
        const char *shortName;
        const char *singular;
        bool namespaced;
    } expected[] = {{"namespaces", "ns", "namespace", false},
                    {"nodes", "no", "node", false},
                    {"pods", "po", "pod", true},
                    {"events", "ev", "event", true},
                    {"resourcequotas", "quota", "resourcequota", true},
                    {"persistentvolumeclaims", "pvc", "persistentvolumeclaim", true},
                    {"persistentvolumes", "pv", "persistentvolume", false}};
    for (const auto &e : expected) {
        const QJsonObject r = findResource(core, QLatin1String(e.name));
        ASSERT_FALSE(r.isEmpty()) << e.name;
        EXPECT_EQ(r.value(QStringLiteral("shortNames")).toArray().first().toString(), QLatin1String(e.shortName));
        EXPECT_EQ(r.value(QStringLiteral("singularName")).toString(), QLatin1String(e.singular));
        EXPECT_EQ(r.value(QStringLiteral("namespaced")).toBool(), e.namespaced) << e.name;
        EXPECT_TRUE(r.value(QStringLiteral("verbs")).toArray().contains(QStringLiteral("watch")));
    }

    const HttpResult groups = http->get(QStringLiteral("/apis"));
    ASSERT_EQ(groups.json.value(QStringLiteral("kind")).toString(), QStringLiteral("APIGroupList"));
    QSet<QString> names;
    for (const QJsonValue &g : groups.json.value(QStringLiteral("groups")).toArray()) {
        names.insert(g.toObject().value(QStringLiteral("name")).toString());
        if (g.toObject().value(QStringLiteral("name")).toString() == QLatin1String("scheduling.run.ai")) {
            EXPECT_EQ(obj(g.toObject().value(QStringLiteral("preferredVersion"))).value(QStringLiteral("version")),
                      QStringLiteral("v2"));
            EXPECT_EQ(g.toObject().value(QStringLiteral("versions")).toArray().size(), 2); // v2, v2alpha2
        }
    }
    EXPECT_EQ(names,
              (QSet<QString>{QStringLiteral("batch"),
                             QStringLiteral("storage.k8s.io"),
                             QStringLiteral("snapshot.storage.k8s.io"),
                             QStringLiteral("scheduling.run.ai")}));

    const HttpResult kai = http->get(QStringLiteral("/apis/scheduling.run.ai/v2"));
    EXPECT_EQ(findResource(kai, QStringLiteral("queues")).value(QStringLiteral("singularName")),
              QStringLiteral("queue"));
    EXPECT_FALSE(findResource(kai, QStringLiteral("queues")).value(QStringLiteral("namespaced")).toBool());
    // KAI's CRDs: podgroups live only in v2alpha2, queues only in v2 (one group, two versions).
    EXPECT_TRUE(findResource(kai, QStringLiteral("podgroups")).isEmpty());
    const HttpResult kaiAlpha = http->get(QStringLiteral("/apis/scheduling.run.ai/v2alpha2"));
    EXPECT_EQ(findResource(kaiAlpha, QStringLiteral("podgroups")).value(QStringLiteral("shortNames")).toArray().first(),
              QStringLiteral("pg"));
    EXPECT_TRUE(findResource(kaiAlpha, QStringLiteral("queues")).isEmpty());
    EXPECT_EQ(http->get(QStringLiteral("/apis/scheduling.run.ai/v2/namespaces/runai-team-a/podgroups")).status, 404);
    EXPECT_EQ(http->get(QStringLiteral("/apis/scheduling.run.ai/v2alpha2/queues")).status, 404);
    const HttpResult snap = http->get(QStringLiteral("/apis/snapshot.storage.k8s.io/v1"));
    EXPECT_EQ(
        findResource(snap, QStringLiteral("volumesnapshots")).value(QStringLiteral("shortNames")).toArray().first(),
        QStringLiteral("vs"));
    EXPECT_EQ(http->get(QStringLiteral("/apis/storage.k8s.io/v1")).status, 200);
    EXPECT_EQ(http->get(QStringLiteral("/apis/nope.example.com/v1")).status, 404);
}

TEST_F(KubeApiServer, Auth_MissingOrWrongTokenIs401Status)
{
    start(Preset::Empty);
    http->setToken("wrong");
    const HttpResult wrong = http->get(QStringLiteral("/api/v1/pods"));
    EXPECT_EQ(wrong.status, 401);
    EXPECT_EQ(wrong.json.value(QStringLiteral("kind")).toString(), QStringLiteral("Status"));
    EXPECT_EQ(wrong.json.value(QStringLiteral("reason")).toString(), QStringLiteral("Unauthorized"));
    EXPECT_EQ(wrong.json.value(QStringLiteral("message")).toString(), QStringLiteral("Unauthorized"));
    EXPECT_EQ(wrong.json.value(QStringLiteral("code")).toInt(), 401);
    EXPECT_EQ(http->get(QStringLiteral("/_sim/state")).status, 401);
}

TEST_F(KubeApiServer, Errors_NotFoundAlreadyExistsInvalidAsStatusObjects)
{
    start(Preset::Dgx);
    const HttpResult pod = http->get(QStringLiteral("/api/v1/namespaces/runai-team-a/pods/nope"));
    EXPECT_EQ(pod.status, 404);
    EXPECT_EQ(pod.json.value(QStringLiteral("reason")).toString(), QStringLiteral("NotFound"));
    EXPECT_EQ(pod.json.value(QStringLiteral("message")).toString(), QStringLiteral("pods \"nope\" not found"));
    EXPECT_EQ(obj(pod.json.value(QStringLiteral("details"))).value(QStringLiteral("kind")), QStringLiteral("pods"));

    const HttpResult job = http->get(QStringLiteral("/apis/batch/v1/namespaces/runai-team-a/jobs/nope"));
    EXPECT_EQ(job.json.value(QStringLiteral("message")).toString(), QStringLiteral("jobs.batch \"nope\" not found"));
    EXPECT_EQ(obj(job.json.value(QStringLiteral("details"))).value(QStringLiteral("group")), QStringLiteral("batch"));

    EXPECT_EQ(http->get(QStringLiteral("/api/v1/widgets")).status, 404);

    const HttpResult noNs = http->post(QStringLiteral("/api/v1/namespaces/ghost/pods"), podJson(QStringLiteral("p")));
    EXPECT_EQ(noNs.status, 404);
    EXPECT_EQ(noNs.json.value(QStringLiteral("message")).toString(), QStringLiteral("namespaces \"ghost\" not found"));

    EXPECT_EQ(http->post(QStringLiteral("/api/v1/namespaces/default/pods"), podJson(QStringLiteral("p1"))).status, 201);
    const HttpResult again =
        http->post(QStringLiteral("/api/v1/namespaces/default/pods"), podJson(QStringLiteral("p1")));
    EXPECT_EQ(again.status, 409);
    EXPECT_EQ(again.json.value(QStringLiteral("reason")).toString(), QStringLiteral("AlreadyExists"));
    EXPECT_EQ(again.json.value(QStringLiteral("message")).toString(), QStringLiteral("pods \"p1\" already exists"));

    const HttpResult invalid =
        http->post(QStringLiteral("/api/v1/namespaces/default/pods"), podJson(QStringLiteral("Bad_Name")));
    EXPECT_EQ(invalid.status, 422);
    EXPECT_EQ(invalid.json.value(QStringLiteral("reason")).toString(), QStringLiteral("Invalid"));

    // A stale resourceVersion in a patch is a conflict.
    const HttpResult conflict = http->patch(QStringLiteral("/api/v1/namespaces/default/pods/p1"),
                                            R"({"metadata":{"resourceVersion":"1","labels":{"x":"y"}}})");
    EXPECT_EQ(conflict.status, 409);
    EXPECT_EQ(conflict.json.value(QStringLiteral("reason")).toString(), QStringLiteral("Conflict"));
}

TEST_F(KubeApiServer, Create_GenerateNameUidResourceVersionTimestamp)
{
    start(Preset::Empty);
    QJsonObject pod = podJson(QString());
    QJsonObject meta{{QStringLiteral("generateName"), QStringLiteral("worker-")}};
    pod.insert(QStringLiteral("metadata"), meta);
    const std::uint64_t before = (*sim)->resourceVersion();
    const HttpResult r = http->post(QStringLiteral("/api/v1/namespaces/default/pods"), pod);
    ASSERT_EQ(r.status, 201) << r.body.toStdString();
    const QJsonObject m = obj(r.json.value(QStringLiteral("metadata")));
    EXPECT_TRUE(m.value(QStringLiteral("name")).toString().startsWith(QStringLiteral("worker-")));
    EXPECT_EQ(m.value(QStringLiteral("name")).toString().size(), 12);
    EXPECT_EQ(m.value(QStringLiteral("uid")).toString().size(), 36);
    EXPECT_GT(m.value(QStringLiteral("resourceVersion")).toString().toULongLong(), before);
    EXPECT_EQ(m.value(QStringLiteral("creationTimestamp")).toString(), QStringLiteral("2025-06-02T09:00:00Z"));
    EXPECT_EQ(obj(r.json.value(QStringLiteral("status"))).value(QStringLiteral("phase")), QStringLiteral("Pending"));
}

TEST_F(KubeApiServer, List_LimitAndContinueAcross50Pods)
{
    start(Preset::Empty);
    ASSERT_EQ(http->post(QStringLiteral("/api/v1/namespaces"), namespaceJson(QStringLiteral("paging"))).status, 201);
    for (int i = 0; i < 50; ++i) {
        ASSERT_EQ(http->post(QStringLiteral("/api/v1/namespaces/paging/pods"),
                             podJson(QStringLiteral("pod-%1").arg(i, 2, 10, QLatin1Char('0'))))
                      .status,
                  201);
    }
    // One in another namespace that the namespaced list must not show.
    ASSERT_EQ(http->post(QStringLiteral("/api/v1/namespaces/default/pods"), podJson(QStringLiteral("other"))).status,
              201);

    QStringList names;
    QString token;
    QString listRv;
    int pages = 0;
    do {
        const HttpResult page = http->get(QStringLiteral("/api/v1/namespaces/paging/pods?limit=7")
                                          + (token.isEmpty() ? QString() : QStringLiteral("&continue=") + token));
        ASSERT_EQ(page.status, 200) << page.body.toStdString();
        EXPECT_EQ(page.json.value(QStringLiteral("kind")).toString(), QStringLiteral("PodList"));
        const QJsonObject meta = obj(page.json.value(QStringLiteral("metadata")));
        if (listRv.isEmpty()) {
            listRv = meta.value(QStringLiteral("resourceVersion")).toString();
        }
        // Every page of one list is served at the first page's resourceVersion.
        EXPECT_EQ(meta.value(QStringLiteral("resourceVersion")).toString(), listRv);
        for (const QJsonValue &v : items(page)) {
            names.append(nameOf(v.toObject()));
        }
        token = meta.value(QStringLiteral("continue")).toString();
        if (!token.isEmpty()) {
            EXPECT_EQ(meta.value(QStringLiteral("remainingItemCount")).toInt(), 50 - names.size());
            EXPECT_EQ(items(page).size(), 7);
        }
        ++pages;
    } while (!token.isEmpty() && pages < 20);
    EXPECT_EQ(pages, 8);
    ASSERT_EQ(names.size(), 50);
    QStringList sorted = names;
    sorted.sort();
    EXPECT_EQ(names, sorted);
    EXPECT_EQ(QSet<QString>(names.begin(), names.end()).size(), 50);

    // All namespaces: 51.
    EXPECT_EQ(items(http->get(QStringLiteral("/api/v1/pods"))).size(), 51);
}

TEST_F(KubeApiServer, List_ExpiredContinueTokenIs410WithFreshToken)
{
    start(Preset::Dgx);
    const HttpResult first = http->get(QStringLiteral("/api/v1/pods?limit=5"));
    const QString token =
        obj(first.json.value(QStringLiteral("metadata"))).value(QStringLiteral("continue")).toString();
    ASSERT_FALSE(token.isEmpty());
    EXPECT_EQ(http->send("POST", QStringLiteral("/_sim/compact")).status, 200);

    const HttpResult expired = http->get(QStringLiteral("/api/v1/pods?limit=5&continue=") + token);
    EXPECT_EQ(expired.status, 410);
    EXPECT_EQ(expired.json.value(QStringLiteral("reason")).toString(), QStringLiteral("Expired"));
    EXPECT_TRUE(expired.json.value(QStringLiteral("message"))
                    .toString()
                    .startsWith(QStringLiteral("The provided continue parameter is too old")));
    const QString fresh =
        obj(expired.json.value(QStringLiteral("metadata"))).value(QStringLiteral("continue")).toString();
    ASSERT_FALSE(fresh.isEmpty());
    // The inconsistent continuation the Status offers works and yields the remaining 8 pods.
    const HttpResult rest = http->get(QStringLiteral("/api/v1/pods?continue=") + fresh);
    EXPECT_EQ(rest.status, 200);
    EXPECT_EQ(items(rest).size(), 8);

    EXPECT_EQ(http->get(QStringLiteral("/api/v1/pods?continue=bm9wZQ")).status, 400);
}

TEST_F(KubeApiServer, List_LabelAndFieldSelectors)
{
    start(Preset::Dgx);
    EXPECT_EQ(items(http->get(QStringLiteral("/api/v1/pods?labelSelector=kai.scheduler%2Fqueue%3Dteam-b"))).size(), 4);
    EXPECT_EQ(
        items(http->get(QStringLiteral("/api/v1/pods?labelSelector=kai.scheduler%2Fqueue%20in%20(team-a%2Cteam-d)")))
            .size(),
        4);
    EXPECT_EQ(items(http->get(QStringLiteral("/api/v1/pods?labelSelector=kai.scheduler%2Fqueue!%3Dteam-c"))).size(), 8);
    const HttpResult onNode = http->get(QStringLiteral("/api/v1/pods?fieldSelector=spec.nodeName%3Ddgx1-1"));
    ASSERT_EQ(onNode.status, 200);
    for (const QJsonValue &v : items(onNode)) {
        EXPECT_EQ(obj(v.toObject().value(QStringLiteral("spec"))).value(QStringLiteral("nodeName")),
                  QStringLiteral("dgx1-1"));
    }
    const int onDgx11 = items(onNode).size();
    const int onDgx12 = items(http->get(QStringLiteral("/api/v1/pods?fieldSelector=spec.nodeName%3Ddgx1-2"))).size();
    EXPECT_GT(onDgx11, 0);
    EXPECT_EQ(onDgx11 + onDgx12, 13);
    EXPECT_EQ(items(http->get(QStringLiteral("/api/v1/nodes?fieldSelector=metadata.name%3Ddgx1-2"))).size(), 1);
    EXPECT_EQ(items(http->get(QStringLiteral("/api/v1/pods?fieldSelector=status.phase!%3DRunning"))).size(), 0);
    const HttpResult bad = http->get(QStringLiteral("/api/v1/pods?fieldSelector=spec.bogus%3Dx"));
    EXPECT_EQ(bad.status, 400);
    EXPECT_EQ(bad.json.value(QStringLiteral("message")).toString(),
              QStringLiteral("field label not supported: spec.bogus"));
}

TEST_F(KubeApiServer, Watch_FromResourceVersionSeesAddedModifiedDeleted)
{
    start(Preset::Empty);
    const HttpResult list = http->get(QStringLiteral("/api/v1/namespaces/default/pods"));
    const QString rv =
        obj(list.json.value(QStringLiteral("metadata"))).value(QStringLiteral("resourceVersion")).toString();
    WatchStream watch(**sim, QStringLiteral("/api/v1/namespaces/default/pods?watch=1&resourceVersion=") + rv);

    ASSERT_EQ(http->post(QStringLiteral("/api/v1/namespaces/default/pods"), podJson(QStringLiteral("w1"))).status, 201);
    // Another namespace's pod is not part of this watch.
    ASSERT_EQ(http->post(QStringLiteral("/api/v1/namespaces"), namespaceJson(QStringLiteral("elsewhere"))).status, 201);
    ASSERT_EQ(http->post(QStringLiteral("/api/v1/namespaces/elsewhere/pods"), podJson(QStringLiteral("w2"))).status,
              201);
    ASSERT_EQ(http->patch(QStringLiteral("/api/v1/namespaces/default/pods/w1"), R"({"metadata":{"labels":{"a":"b"}}})")
                  .status,
              200);
    ASSERT_EQ(http->del(QStringLiteral("/api/v1/namespaces/default/pods/w1")).status, 200);

    ASSERT_TRUE(watch.waitForCount(3)) << watch.types().join(QLatin1Char(',')).toStdString();
    EXPECT_EQ(watch.status(), 200);
    EXPECT_EQ(watch.types(),
              (QStringList{QStringLiteral("ADDED"), QStringLiteral("MODIFIED"), QStringLiteral("DELETED")}));
    const QJsonObject modified = obj(watch.events()[1].value(QStringLiteral("object")));
    EXPECT_EQ(
        obj(obj(modified.value(QStringLiteral("metadata"))).value(QStringLiteral("labels"))).value(QStringLiteral("a")),
        QStringLiteral("b"));
    // Resource versions increase along the stream.
    quint64 last = rv.toULongLong();
    for (const QJsonObject &e : watch.events()) {
        const quint64 v = obj(obj(e.value(QStringLiteral("object"))).value(QStringLiteral("metadata")))
                              .value(QStringLiteral("resourceVersion"))
                              .toString()
                              .toULongLong();
        EXPECT_GT(v, last);
        last = v;
    }
}

TEST_F(KubeApiServer, Watch_WithoutResourceVersionStartsWithCurrentStateAndFiltersByLabel)
{
    start(Preset::Dgx);
    WatchStream watch(**sim, QStringLiteral("/api/v1/pods?watch=true&labelSelector=kai.scheduler%2Fqueue%3Dteam-b"));
    ASSERT_TRUE(watch.waitForCount(4));
    EXPECT_EQ(watch.types(), QStringList(4, QStringLiteral("ADDED")));
}

TEST_F(KubeApiServer, Watch_BookmarksCarryTheCurrentResourceVersion)
{
    start(Preset::Empty);
    const QString rv = QString::number((*sim)->resourceVersion());
    WatchStream watch(**sim, QStringLiteral("/api/v1/pods?watch=1&allowWatchBookmarks=true&resourceVersion=") + rv);
    WatchStream plain(**sim, QStringLiteral("/api/v1/pods?watch=1&resourceVersion=") + rv);
    ASSERT_TRUE(watch.waitFor([&](const QList<QJsonObject> &) {
        return (*sim)->watchCount() == 2;
    }));
    ASSERT_EQ(http->post(QStringLiteral("/api/v1/namespaces"), namespaceJson(QStringLiteral("bm"))).status, 201);
    (*sim)->tick();
    ASSERT_TRUE(watch.waitForCount(1));
    EXPECT_EQ(watch.types(), QStringList{QStringLiteral("BOOKMARK")});
    const QJsonObject bookmark = obj(watch.events()[0].value(QStringLiteral("object")));
    EXPECT_EQ(bookmark.value(QStringLiteral("kind")).toString(), QStringLiteral("Pod"));
    EXPECT_EQ(obj(bookmark.value(QStringLiteral("metadata"))).value(QStringLiteral("resourceVersion")).toString(),
              QString::number((*sim)->resourceVersion()));
    // A watch that did not ask for bookmarks gets none.
    ASSERT_EQ(http->post(QStringLiteral("/api/v1/namespaces/default/pods"), podJson(QStringLiteral("after"))).status,
              201);
    ASSERT_TRUE(plain.waitForCount(1));
    EXPECT_EQ(plain.types(), QStringList{QStringLiteral("ADDED")});
}

TEST_F(KubeApiServer, Watch_TooOldResourceVersionGetsError410Event)
{
    start(Preset::Dgx);
    const QString old = QString::number((*sim)->resourceVersion() - 3);
    EXPECT_EQ(http->send("POST", QStringLiteral("/_sim/compact")).status, 200);
    WatchStream watch(**sim, QStringLiteral("/api/v1/pods?watch=1&resourceVersion=") + old);
    ASSERT_TRUE(watch.waitForEnd());
    EXPECT_EQ(watch.status(), 200);
    ASSERT_EQ(watch.events().size(), 1);
    EXPECT_EQ(watch.types(), QStringList{QStringLiteral("ERROR")});
    const QJsonObject status = obj(watch.events()[0].value(QStringLiteral("object")));
    EXPECT_EQ(status.value(QStringLiteral("kind")).toString(), QStringLiteral("Status"));
    EXPECT_EQ(status.value(QStringLiteral("code")).toInt(), 410);
    EXPECT_EQ(status.value(QStringLiteral("reason")).toString(), QStringLiteral("Expired"));
    EXPECT_TRUE(
        status.value(QStringLiteral("message")).toString().startsWith(QStringLiteral("too old resource version: ")));
}

TEST_F(KubeApiServer, Watch_HistoryWindowExpiresOldResourceVersions)
{
    KubeSimulator::Options options = testOptions(Preset::Empty);
    options.watchHistory = 5;
    start(options);
    const QString rv = QString::number((*sim)->resourceVersion());
    for (int i = 0; i < 6; ++i) {
        ASSERT_EQ(
            http->post(QStringLiteral("/api/v1/namespaces/default/pods"), podJson(QStringLiteral("h%1").arg(i))).status,
            201);
    }
    WatchStream watch(**sim, QStringLiteral("/api/v1/pods?watch=1&resourceVersion=") + rv);
    ASSERT_TRUE(watch.waitForEnd());
    EXPECT_EQ(watch.types(), QStringList{QStringLiteral("ERROR")});
}

TEST_F(KubeApiServer, Watch_ExpireAndDropEndpointsEndOpenStreams)
{
    start(Preset::Empty);
    WatchStream a(**sim, QStringLiteral("/api/v1/pods?watch=1"));
    WatchStream b(**sim, QStringLiteral("/apis/batch/v1/jobs?watch=1"));
    ASSERT_TRUE(a.waitFor([&](const QList<QJsonObject> &) {
        return (*sim)->watchCount() == 2;
    }));
    const HttpResult expired = http->send("POST", QStringLiteral("/_sim/watches/expire"));
    EXPECT_EQ(expired.json.value(QStringLiteral("expired")).toInt(), 2);
    ASSERT_TRUE(a.waitForEnd());
    ASSERT_TRUE(b.waitForEnd());
    EXPECT_EQ(a.types(), QStringList{QStringLiteral("ERROR")});
    EXPECT_EQ(obj(a.events()[0].value(QStringLiteral("object"))).value(QStringLiteral("code")).toInt(), 410);

    WatchStream c(**sim, QStringLiteral("/api/v1/nodes?watch=1"));
    ASSERT_TRUE(c.waitFor([&](const QList<QJsonObject> &) {
        return (*sim)->watchCount() == 1;
    }));
    EXPECT_EQ(http->send("POST", QStringLiteral("/_sim/watches/drop")).json.value(QStringLiteral("dropped")).toInt(),
              1);
    ASSERT_TRUE(c.waitForEnd());
    EXPECT_TRUE(c.events().isEmpty());
}

TEST_F(KubeApiServer, Watch_TimeoutSecondsEndsTheStream)
{
    start(Preset::Empty);
    WatchStream watch(**sim, QStringLiteral("/api/v1/pods?watch=1&timeoutSeconds=1"));
    ASSERT_TRUE(watch.waitForEnd(8000));
    EXPECT_EQ(watch.status(), 200);
}

TEST_F(KubeApiServer, Job_BecomesPodGroupAndPodThatRunsAndCompletesOverTicks)
{
    KubeSimulator::Options options = testOptions(Preset::Dgx);
    options.submitDemoJobs = false;
    start(options);
    KubeJobSpec spec;
    spec.namespace_ = QStringLiteral("runai-team-a");
    spec.name = QStringLiteral("train-1");
    spec.queue = QStringLiteral("team-a");
    spec.gpuMilli = 2000;
    spec.durationSeconds = 60;
    spec.pvcClaims = {QStringLiteral("checkpoints")};
    const HttpResult created =
        http->post(QStringLiteral("/apis/batch/v1/namespaces/runai-team-a/jobs"), KubeSimulator::jobManifest(spec));
    ASSERT_EQ(created.status, 201) << created.body.toStdString();

    (*sim)->tick(1, std::chrono::milliseconds(0)); // controllers run; no simulated time passes
    QJsonArray pods = jobPods(QStringLiteral("runai-team-a"), QStringLiteral("train-1"));
    ASSERT_EQ(pods.size(), 1);
    QJsonObject pod = pods[0].toObject();
    const QJsonObject meta = obj(pod.value(QStringLiteral("metadata")));
    EXPECT_EQ(obj(meta.value(QStringLiteral("labels"))).value(QStringLiteral("batch.kubernetes.io/job-name")),
              QStringLiteral("train-1"));
    EXPECT_EQ(meta.value(QStringLiteral("ownerReferences")).toArray()[0].toObject().value(QStringLiteral("kind")),
              QStringLiteral("Job"));
    EXPECT_EQ(obj(pod.value(QStringLiteral("spec"))).value(QStringLiteral("schedulerName")),
              QStringLiteral("kai-scheduler"));
    EXPECT_FALSE(obj(pod.value(QStringLiteral("spec"))).value(QStringLiteral("nodeName")).toString().isEmpty());
    EXPECT_EQ(obj(meta.value(QStringLiteral("annotations")))
                  .value(QStringLiteral("runai-gpu"))
                  .toString()
                  .split(QLatin1Char(','))
                  .size(),
              2);
    EXPECT_EQ(condition(pod, QStringLiteral("PodScheduled")).value(QStringLiteral("status")), QStringLiteral("True"));
    EXPECT_EQ(obj(obj(obj(pod.value(QStringLiteral("status")))
                          .value(QStringLiteral("containerStatuses"))
                          .toArray()[0]
                          .toObject()
                          .value(QStringLiteral("state")))
                      .value(QStringLiteral("waiting")))
                  .value(QStringLiteral("reason")),
              QStringLiteral("ContainerCreating"));
    const HttpResult pg =
        http->get(QStringLiteral("/apis/scheduling.run.ai/v2alpha2/namespaces/runai-team-a/podgroups/pg-train-1"));
    ASSERT_EQ(pg.status, 200);
    EXPECT_EQ(obj(pg.json.value(QStringLiteral("spec"))).value(QStringLiteral("queue")), QStringLiteral("team-a"));
    EXPECT_EQ(obj(pg.json.value(QStringLiteral("spec"))).value(QStringLiteral("preemptibility")),
              QStringLiteral("preemptible"));
    EXPECT_EQ(pg.json.value(QStringLiteral("apiVersion")).toString(), QStringLiteral("scheduling.run.ai/v2alpha2"));

    (*sim)->tick(3, std::chrono::seconds(1));
    pod = jobPods(QStringLiteral("runai-team-a"), QStringLiteral("train-1"))[0].toObject();
    EXPECT_EQ(obj(pod.value(QStringLiteral("status"))).value(QStringLiteral("phase")), QStringLiteral("Running"));
    EXPECT_FALSE(obj(pod.value(QStringLiteral("status"))).value(QStringLiteral("startTime")).toString().isEmpty());
    HttpResult job = http->get(QStringLiteral("/apis/batch/v1/namespaces/runai-team-a/jobs/train-1"));
    EXPECT_EQ(obj(job.json.value(QStringLiteral("status"))).value(QStringLiteral("active")).toInt(), 1);
    EXPECT_EQ(obj(job.json.value(QStringLiteral("status"))).value(QStringLiteral("ready")).toInt(), 1);

    QSet<QString> reasons;
    for (const QJsonValue &e : items(http->get(QStringLiteral("/api/v1/namespaces/runai-team-a/events")))) {
        reasons.insert(e.toObject().value(QStringLiteral("reason")).toString());
    }
    for (const char *r : {"Scheduled", "Pulling", "Pulled", "Created", "Started"}) {
        EXPECT_TRUE(reasons.contains(QLatin1String(r))) << r;
    }

    (*sim)->tick(1, std::chrono::seconds(60));
    pod = jobPods(QStringLiteral("runai-team-a"), QStringLiteral("train-1"))[0].toObject();
    EXPECT_EQ(obj(pod.value(QStringLiteral("status"))).value(QStringLiteral("phase")), QStringLiteral("Succeeded"));
    job = http->get(QStringLiteral("/apis/batch/v1/namespaces/runai-team-a/jobs/train-1"));
    EXPECT_EQ(obj(job.json.value(QStringLiteral("status"))).value(QStringLiteral("succeeded")).toInt(), 1);
    EXPECT_EQ(condition(job.json, QStringLiteral("Complete")).value(QStringLiteral("status")), QStringLiteral("True"));
    EXPECT_FALSE(
        obj(job.json.value(QStringLiteral("status"))).value(QStringLiteral("completionTime")).toString().isEmpty());
}

TEST_F(KubeApiServer, Job_PendingOverQuotaShowsTheSchedulersReason)
{
    start(Preset::Dgx); // 16/16 GPUs busy
    KubeJobSpec spec;
    spec.namespace_ = QStringLiteral("runai-team-b");
    spec.name = QStringLiteral("b-extra");
    spec.queue = QStringLiteral("team-b");
    ASSERT_EQ(
        http->post(QStringLiteral("/apis/batch/v1/namespaces/runai-team-b/jobs"), KubeSimulator::jobManifest(spec))
            .status,
        201);
    (*sim)->tick(1, std::chrono::milliseconds(0));
    const QJsonObject pod = jobPods(QStringLiteral("runai-team-b"), QStringLiteral("b-extra"))[0].toObject();
    const QJsonObject scheduled = condition(pod, QStringLiteral("PodScheduled"));
    EXPECT_EQ(scheduled.value(QStringLiteral("status")), QStringLiteral("False"));
    EXPECT_EQ(scheduled.value(QStringLiteral("reason")), QStringLiteral("Unschedulable"));
    EXPECT_EQ(scheduled.value(QStringLiteral("message")).toString(),
              QStringLiteral("project team-b is at or over its fair share (4/4 GPUs)"));
    const HttpResult pg =
        http->get(QStringLiteral("/apis/scheduling.run.ai/v2alpha2/namespaces/runai-team-b/podgroups/pg-b-extra"));
    EXPECT_EQ(obj(pg.json.value(QStringLiteral("status"))).value(QStringLiteral("phase")), QStringLiteral("Pending"));
    EXPECT_EQ(
        condition(pg.json, QStringLiteral("Unschedulable"), "schedulingConditions").value(QStringLiteral("message")),
        scheduled.value(QStringLiteral("message")));
    bool failedScheduling = false;
    for (const QJsonValue &e : items(http->get(
             QStringLiteral("/api/v1/namespaces/runai-team-b/events?fieldSelector=reason%3DFailedScheduling")))) {
        failedScheduling =
            failedScheduling
            || obj(e.toObject().value(QStringLiteral("involvedObject"))).value(QStringLiteral("name")) == nameOf(pod);
    }
    EXPECT_TRUE(failedScheduling);
}

TEST_F(KubeApiServer, Preemption_Section49FirstStepThroughTheApi)
{
    start(Preset::Dgx); // §4.8 done: 4/4, 4/2, 4/2, 4/8
    KubeJobSpec spec;
    spec.namespace_ = QStringLiteral("runai-team-d");
    spec.name = QStringLiteral("d-2-gg");
    spec.queue = QStringLiteral("team-d");
    spec.gpuMilli = 2000;
    const QString oldC4 = nameOf(jobPods(QStringLiteral("runai-team-c"), QStringLiteral("c-4-gg"))[0].toObject());
    WatchStream watch(**sim,
                      QStringLiteral("/api/v1/namespaces/runai-team-c/pods?watch=1&resourceVersion=")
                          + QString::number((*sim)->resourceVersion()));
    ASSERT_EQ(
        http->post(QStringLiteral("/apis/batch/v1/namespaces/runai-team-d/jobs"), KubeSimulator::jobManifest(spec))
            .status,
        201);
    (*sim)->tick(1, std::chrono::milliseconds(0));

    // SCHEDULING.md's tie-break pauses c-4-gg: its running pod is gone, a new one waits.
    EXPECT_EQ(http->get(QStringLiteral("/api/v1/namespaces/runai-team-c/pods/") + oldC4).status, 404);
    const QJsonArray c4 = jobPods(QStringLiteral("runai-team-c"), QStringLiteral("c-4-gg"));
    ASSERT_EQ(c4.size(), 1);
    const QJsonObject fresh = c4[0].toObject();
    EXPECT_NE(nameOf(fresh), oldC4);
    EXPECT_EQ(obj(fresh.value(QStringLiteral("status"))).value(QStringLiteral("phase")), QStringLiteral("Pending"));
    EXPECT_EQ(condition(fresh, QStringLiteral("PodScheduled")).value(QStringLiteral("message")).toString(),
              QStringLiteral("preempted by team-d reclaiming its quota"));

    const HttpResult pg =
        http->get(QStringLiteral("/apis/scheduling.run.ai/v2alpha2/namespaces/runai-team-c/podgroups/pg-c-4-gg"));
    const QJsonObject evicted = condition(pg.json, QStringLiteral("Evicted"));
    EXPECT_EQ(evicted.value(QStringLiteral("status")), QStringLiteral("True"));
    EXPECT_EQ(evicted.value(QStringLiteral("reason")), QStringLiteral("Preempted"));
    EXPECT_TRUE(evicted.value(QStringLiteral("message")).toString().startsWith(QStringLiteral("Preempted by team-d")));
    EXPECT_EQ(obj(pg.json.value(QStringLiteral("status"))).value(QStringLiteral("phase")), QStringLiteral("Pending"));

    // The watch saw the victim marked (DisruptionTarget), deleted, and its replacement added; the
    // two may arrive in separate reads of the stream.
    ASSERT_TRUE(watch.waitFor([&](const QList<QJsonObject> &) {
        return watch.types(oldC4).contains(QStringLiteral("DELETED")) && !watch.types(nameOf(fresh)).isEmpty();
    }));
    bool disruption = false;
    for (const QJsonObject &e : watch.events()) {
        const QJsonObject o = obj(e.value(QStringLiteral("object")));
        disruption = disruption
                     || (nameOf(o) == oldC4
                         && condition(o, QStringLiteral("DisruptionTarget")).value(QStringLiteral("reason"))
                                == QStringLiteral("PreemptionByScheduler"));
    }
    EXPECT_TRUE(disruption);
    EXPECT_TRUE(watch.types(nameOf(fresh)).startsWith(QStringLiteral("ADDED")));

    bool preemptedEvent = false;
    for (const QJsonValue &e :
         items(http->get(QStringLiteral("/api/v1/namespaces/runai-team-c/events?fieldSelector=reason%3DPreempted")))) {
        preemptedEvent =
            preemptedEvent
            || obj(e.toObject().value(QStringLiteral("involvedObject"))).value(QStringLiteral("name")) == oldC4;
    }
    EXPECT_TRUE(preemptedEvent);

    const QJsonObject d2 = jobPods(QStringLiteral("runai-team-d"), QStringLiteral("d-2-gg"))[0].toObject();
    EXPECT_FALSE(obj(d2.value(QStringLiteral("spec"))).value(QStringLiteral("nodeName")).toString().isEmpty());
    (*sim)->tick(5, std::chrono::seconds(1));
    EXPECT_EQ(obj(jobPods(QStringLiteral("runai-team-d"), QStringLiteral("d-2-gg"))[0].toObject().value(
                      QStringLiteral("status")))
                  .value(QStringLiteral("phase")),
              QStringLiteral("Running"));

    QJsonObject teamD;
    for (const QJsonValue &p : (*sim)->schedulerState().value(QStringLiteral("projects")).toArray()) {
        if (p.toObject().value(QStringLiteral("name")) == QStringLiteral("team-d")) {
            teamD = p.toObject();
        }
    }
    EXPECT_EQ(teamD.value(QStringLiteral("allocated")).toDouble(), 6.0);
}

TEST_F(KubeApiServer, DeleteJob_RemovesItsPodsAndPodGroupAndFreesGpus)
{
    start(Preset::Dgx);
    const HttpResult del = http->del(QStringLiteral("/apis/batch/v1/namespaces/runai-team-d/jobs/d-1-gggg"));
    EXPECT_EQ(del.status, 200);
    EXPECT_TRUE(jobPods(QStringLiteral("runai-team-d"), QStringLiteral("d-1-gggg")).isEmpty());
    EXPECT_EQ(
        http->get(QStringLiteral("/apis/scheduling.run.ai/v2alpha2/namespaces/runai-team-d/podgroups/pg-d-1-gggg"))
            .status,
        404);
    (*sim)->tick(1, std::chrono::milliseconds(0));
    for (const QJsonValue &p : (*sim)->schedulerState().value(QStringLiteral("projects")).toArray()) {
        if (p.toObject().value(QStringLiteral("name")) == QStringLiteral("team-d")) {
            EXPECT_EQ(p.toObject().value(QStringLiteral("allocated")).toDouble(), 0.0);
        }
    }
}

TEST_F(KubeApiServer, QueuePatch_ChangesTheSchedulersQuota)
{
    start(Preset::Dgx);
    const HttpResult merge = http->patch(QStringLiteral("/apis/scheduling.run.ai/v2/queues/team-b"),
                                         R"({"spec":{"resources":{"gpu":{"quota":3}}}})");
    ASSERT_EQ(merge.status, 200) << merge.body.toStdString();
    const HttpResult json = http->patch(QStringLiteral("/apis/scheduling.run.ai/v2/queues/team-c"),
                                        R"([{"op":"replace","path":"/spec/resources/gpu/quota","value":1.5}])",
                                        "application/json-patch+json");
    ASSERT_EQ(json.status, 200) << json.body.toStdString();
    EXPECT_EQ(
        http->patch(QStringLiteral("/apis/scheduling.run.ai/v2/queues/team-c"), "{}", "application/apply-patch+yaml")
            .status,
        415);
    (*sim)->tick(1, std::chrono::milliseconds(0));
    QHash<QString, double> quota;
    for (const QJsonValue &p : (*sim)->schedulerState().value(QStringLiteral("projects")).toArray()) {
        quota.insert(p.toObject().value(QStringLiteral("name")).toString(),
                     p.toObject().value(QStringLiteral("quota")).toDouble());
    }
    EXPECT_EQ(quota.value(QStringLiteral("team-b")), 3.0);
    EXPECT_EQ(quota.value(QStringLiteral("team-c")), 1.5);
    EXPECT_EQ(quota.value(QStringLiteral("team-a")), 4.0);
}

TEST_F(KubeApiServer, Fault429_RetryAfterThenServesNormally)
{
    start(Preset::Empty);
    const HttpResult added = http->post(QStringLiteral("/_sim/faults"),
                                        QJsonObject{{QStringLiteral("path"), QStringLiteral("^/api/v1/pods")},
                                                    {QStringLiteral("status"), 429},
                                                    {QStringLiteral("retryAfterSeconds"), 3},
                                                    {QStringLiteral("count"), 1}});
    ASSERT_EQ(added.status, 200) << added.body.toStdString();
    const HttpResult throttled = http->get(QStringLiteral("/api/v1/pods"));
    EXPECT_EQ(throttled.status, 429);
    EXPECT_EQ(throttled.headers.value("retry-after"), QByteArray("3"));
    EXPECT_EQ(throttled.json.value(QStringLiteral("reason")).toString(), QStringLiteral("TooManyRequests"));
    EXPECT_EQ(obj(throttled.json.value(QStringLiteral("details"))).value(QStringLiteral("retryAfterSeconds")).toInt(),
              3);
    EXPECT_EQ(http->get(QStringLiteral("/api/v1/pods")).status, 200);
    // Other paths are unaffected by a path rule.
    EXPECT_EQ(http->post(QStringLiteral("/_sim/faults"),
                         QJsonObject{{QStringLiteral("path"), QStringLiteral("^/api/v1/nodes")},
                                     {QStringLiteral("status"), 503}})
                  .status,
              200);
    EXPECT_EQ(http->get(QStringLiteral("/api/v1/nodes")).status, 503);
    EXPECT_EQ(http->get(QStringLiteral("/api/v1/namespaces")).status, 200);
    EXPECT_EQ(http->send("DELETE", QStringLiteral("/_sim/faults")).status, 200);
    EXPECT_EQ(http->get(QStringLiteral("/api/v1/nodes")).status, 200);
    EXPECT_EQ(http->post(QStringLiteral("/_sim/faults"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("nope")}})
                  .status,
              400);
}

TEST_F(KubeApiServer, Scale_PresetListsAllPodsInPagesAndChurnsWatchEvents)
{
    KubeSimulator::Options options = testOptions(Preset::Scale);
    options.scalePods = 5000;
    options.scaleNodes = 200;
    options.scaleNamespaces = 10;
    start(options);
    EXPECT_TRUE((*sim)->prometheusUrl().isEmpty());
    int total = 0;
    QString token;
    do {
        const HttpResult page = http->get(QStringLiteral("/api/v1/pods?limit=500")
                                          + (token.isEmpty() ? QString() : QStringLiteral("&continue=") + token));
        ASSERT_EQ(page.status, 200);
        total += items(page).size();
        token = obj(page.json.value(QStringLiteral("metadata"))).value(QStringLiteral("continue")).toString();
    } while (!token.isEmpty());
    EXPECT_EQ(total, 5000);
    EXPECT_EQ(items(http->get(QStringLiteral("/api/v1/nodes"))).size(), 200);
    EXPECT_EQ(items(http->get(QStringLiteral("/api/v1/namespaces/runai-project-03/pods"))).size(), 500);

    WatchStream watch(
        **sim, QStringLiteral("/api/v1/pods?watch=1&resourceVersion=") + QString::number((*sim)->resourceVersion()));
    EXPECT_EQ(http->post(QStringLiteral("/_sim/churn"), QJsonObject{{QStringLiteral("podsPerSecond"), 500}}).status,
              200);
    ASSERT_TRUE(watch.waitForCount(40));
    (*sim)->setChurn(0);
    for (const QString &type : watch.types()) {
        EXPECT_EQ(type, QStringLiteral("MODIFIED"));
    }
}

TEST_F(KubeApiServer, GpuMetrics_TrainingJobsAreBusyOnThePrometheusEndpoint)
{
    start(Preset::Dgx);
    ASSERT_FALSE((*sim)->prometheusUrl().isEmpty());
    (*sim)->tick(2, std::chrono::seconds(15));
    QNetworkAccessManager nam;
    QNetworkReply *reply = nam.get(QNetworkRequest(QUrl((*sim)->prometheusUrl() + QStringLiteral("/metrics"))));
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QByteArray text = reply->readAll();
    reply->deleteLater();
    ASSERT_TRUE(text.contains("DCGM_FI_DEV_GPU_UTIL")) << text.left(300).toStdString();
    // d-1-gggg trains on four whole GPUs: 90..99 % each; the shared interactive GPUs are lower.
    int busy = 0;
    for (const QByteArray &line : text.split('\n')) {
        if (line.startsWith("DCGM_FI_DEV_GPU_UTIL{") && line.contains("container=\"d-1-gggg\"")) {
            const double value = line.mid(line.lastIndexOf(' ') + 1).toDouble();
            EXPECT_GE(value, 89.0);
            EXPECT_LE(value, 100.0);
            ++busy;
        }
    }
    EXPECT_EQ(busy, 4);
}

TEST_F(KubeApiServer, Table_ServerSidePrintingForKubectl)
{
    start(Preset::Dgx);
    (*sim)->tick(1, std::chrono::seconds(150));
    const HttpResult table = http->send("GET", QStringLiteral("/api/v1/namespaces/runai-team-d/pods"), {});
    ASSERT_EQ(table.status, 200);
    EXPECT_EQ(table.json.value(QStringLiteral("kind")).toString(), QStringLiteral("PodList")); // no Accept: plain list

    strata::testsupport::ontapsim::QnamClient client((*sim)->baseUrl(), (*sim)->caPem(), QString(), QString());
    client.setAuthorization("Bearer " + (*sim)->token().toUtf8());
    client.setAccept("application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,"
                     "application/json");
    const HttpResult pods = client.get(QStringLiteral("/api/v1/namespaces/runai-team-d/pods"));
    ASSERT_EQ(pods.status, 200);
    EXPECT_EQ(pods.json.value(QStringLiteral("kind")).toString(), QStringLiteral("Table"));
    EXPECT_EQ(pods.json.value(QStringLiteral("apiVersion")).toString(), QStringLiteral("meta.k8s.io/v1"));
    QStringList columns;
    for (const QJsonValue &c : pods.json.value(QStringLiteral("columnDefinitions")).toArray()) {
        if (c.toObject().value(QStringLiteral("priority")).toInt() == 0) {
            columns.append(c.toObject().value(QStringLiteral("name")).toString());
        }
    }
    EXPECT_EQ(columns,
              (QStringList{QStringLiteral("Name"),
                           QStringLiteral("Ready"),
                           QStringLiteral("Status"),
                           QStringLiteral("Restarts"),
                           QStringLiteral("Age")}));
    const QJsonArray rows = pods.json.value(QStringLiteral("rows")).toArray();
    ASSERT_EQ(rows.size(), 1);
    const QJsonArray cells = rows[0].toObject().value(QStringLiteral("cells")).toArray();
    EXPECT_TRUE(cells[0].toString().startsWith(QStringLiteral("d-1-gggg-")));
    EXPECT_EQ(cells[1].toString(), QStringLiteral("1/1"));
    EXPECT_EQ(cells[2].toString(), QStringLiteral("Running"));
    EXPECT_EQ(cells[4].toString(), QStringLiteral("2m30s"));
    EXPECT_EQ(cells[6].toString(), QStringLiteral("dgx1-2"));
    const QJsonObject partial = rows[0].toObject().value(QStringLiteral("object")).toObject();
    EXPECT_EQ(partial.value(QStringLiteral("kind")).toString(), QStringLiteral("PartialObjectMetadata"));
    EXPECT_EQ(obj(partial.value(QStringLiteral("metadata"))).value(QStringLiteral("namespace")),
              QStringLiteral("runai-team-d"));

    const HttpResult queue = client.get(QStringLiteral("/apis/scheduling.run.ai/v2/queues/team-a"));
    EXPECT_EQ(
        queue.json.value(QStringLiteral("rows")).toArray()[0].toObject().value(QStringLiteral("cells")).toArray()[2],
        QStringLiteral("default-parent-queue"));
}
