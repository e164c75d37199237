// KubeClient against scripted sim::HttpServer handlers on a loopback port.
#include "tests/connectors/kubernetes/kaiapiserver.h"
#include "tests/connectors/kubernetes/kubetestsupport.h"

#include <QTimer>

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>

using namespace strata;
using namespace strata::kubernetes;
using namespace strata::kubernetes::test;
using http::CancelToken;
using http::CurlTransport;
using http::test::RecordingSleeper;
using http::test::SeenRequests;
using nlohmann::json;
using sim::Request;
using sim::Responder;
using sim::Response;
using testsupport::LoopbackServer;

TEST(KubeClient, Path_NamespacedClusterScopedAndAllNamespaces)
{
    EXPECT_EQ(KubeClient::path(kPods), "/api/v1/pods");
    EXPECT_EQ(KubeClient::path(kPods, "runai-a"), "/api/v1/namespaces/runai-a/pods");
    EXPECT_EQ(KubeClient::path(kPods, "runai-a", "p 1"), "/api/v1/namespaces/runai-a/pods/p%201");
    EXPECT_EQ(KubeClient::path(kNodes, "ignored", "dgx-01"), "/api/v1/nodes/dgx-01");
    EXPECT_EQ(KubeClient::path(kJobs), "/apis/batch/v1/jobs");
    EXPECT_EQ(KubeClient::path(kQueues, "x"), "/apis/scheduling.run.ai/v2/queues");
    EXPECT_EQ(KubeClient::path(kPodGroups, "ns"), "/apis/scheduling.run.ai/v2alpha2/namespaces/ns/podgroups");
    EXPECT_EQ(KubeClient::path(kVolumeSnapshots, "ns", "s"),
              "/apis/snapshot.storage.k8s.io/v1/namespaces/ns/volumesnapshots/s");
    EXPECT_EQ(KubeClient::path(kStorageClasses), "/apis/storage.k8s.io/v1/storageclasses");
    EXPECT_EQ(kJobs.apiVersion(), "batch/v1");
    EXPECT_EQ(kPods.apiVersion(), "v1");
    EXPECT_EQ(kQueues.displayName(), "queues.scheduling.run.ai");
}

TEST(KubeClient, VersionAndBearerToken)
{
    SeenRequests seen;
    LoopbackServer server([&seen](const Request &request, const Responder &responder) {
        seen.add(request);
        responder.send(
            Response::json(200, R"({"major":"1","minor":"34","gitVersion":"v1.34.1","platform":"linux/amd64"})"));
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server, "s3cret"), fastRetry());

    const auto version = client.version(CancelToken{});

    ASSERT_TRUE(version) << version.error().message;
    EXPECT_EQ(version->gitVersion, "v1.34.1");
    EXPECT_EQ(version->minor, "34");
    EXPECT_EQ(seen.last().header("authorization"), "Bearer s3cret");
    EXPECT_EQ(seen.last().path, QStringLiteral("/version"));
}

TEST(KubeClient, ListAll_FollowsContinueWithIdenticalParameters)
{
    SeenRequests seen;
    LoopbackServer server([&seen](const Request &request, const Responder &responder) {
        seen.add(request);
        const std::string token = query(request, "continue");
        if (token.empty()) {
            responder.send(
                Response::json(200, toBytes(listBody({podObject("a", "p1"), podObject("a", "p2")}, "100", "c1"))));
        } else if (token == "c1") {
            responder.send(
                Response::json(200, toBytes(listBody({podObject("a", "p3"), podObject("b", "p4")}, "100", "c2"))));
        } else {
            responder.send(Response::json(200, toBytes(listBody({podObject("b", "p5")}, "100"))));
        }
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());
    ListOptions options;
    options.limit = 2;
    options.labelSelector = "kai.scheduler/queue=team-a";

    const auto list = client.listAll(kPods, options, CancelToken{});

    ASSERT_TRUE(list) << list.error().message;
    ASSERT_EQ(list->items.size(), 5u);
    EXPECT_EQ(list->resourceVersion, "100");
    EXPECT_EQ(objectKey(list->items[4]), "b/p5");
    EXPECT_EQ(list->items[0]["kind"], "Pod"); // filled in: lists omit kind per item
    EXPECT_EQ(list->items[0]["apiVersion"], "v1");
    const auto requests = seen.all();
    ASSERT_EQ(requests.size(), 3u);
    for (const auto &request : requests) {
        EXPECT_EQ(request.path, QStringLiteral("/api/v1/pods"));
        EXPECT_EQ(query(request, "limit"), "2");
        EXPECT_EQ(query(request, "labelSelector"), "kai.scheduler/queue=team-a");
    }
    EXPECT_EQ(query(requests[1], "continue"), "c1");
    EXPECT_EQ(query(requests[2], "continue"), "c2");
}

TEST(KubeClient, ListAll_ExpiredContinueToken_RestartsOnce)
{
    std::atomic<int> expiredSent{0};
    SeenRequests seen;
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        seen.add(request);
        const std::string token = query(request, "continue");
        if (token.empty()) {
            const std::string rv = expiredSent == 0 ? "100" : "200";
            responder.send(Response::json(200, toBytes(listBody({podObject("a", "p1")}, rv, "c-" + rv))));
        } else if (token == "c-100") {
            ++expiredSent;
            responder.send(Response::json(
                410,
                toBytes(status(410,
                               "Expired",
                               "The provided continue parameter is too old to display a consistent list result."))));
        } else {
            responder.send(Response::json(200, toBytes(listBody({podObject("a", "p2")}, "200"))));
        }
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());

    const auto list = client.listAll(kPods, ListOptions{}, CancelToken{});

    ASSERT_TRUE(list) << list.error().message;
    EXPECT_EQ(expiredSent.load(), 1);
    ASSERT_EQ(list->items.size(), 2u); // only the restarted list's items, no duplicates
    EXPECT_EQ(list->resourceVersion, "200");
    EXPECT_EQ(seen.all().size(), 4u);
}

TEST(KubeClient, ListAll_ContinueExpiresTwice_ReturnsExpiredError)
{
    LoopbackServer server([](const Request &request, const Responder &responder) {
        if (query(request, "continue").empty()) {
            responder.send(Response::json(200, toBytes(listBody({podObject("a", "p1")}, "1", "c"))));
        } else {
            responder.send(Response::json(410, toBytes(status(410, "Expired", "continue parameter too old"))));
        }
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());

    const auto list = client.listAll(kPods, ListOptions{}, CancelToken{});

    ASSERT_FALSE(list);
    EXPECT_EQ(list.error().httpStatus, 410);
    EXPECT_EQ(list.error().kind, connectors::Error::Kind::Api);
    EXPECT_EQ(list.error().apiCode, "Expired");
    EXPECT_NE(list.error().message.find("continue parameter too old"), std::string::npos) << list.error().message;
}

TEST(KubeClient, List_MalformedItems_SkippedWithReasonOthersKept)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        json body = listBody({podObject("a", "good1"), podObject("a", "good2")}, "5");
        body["items"].insert(body["items"].begin() + 1, json("not an object"));
        body["items"].push_back(json{{"metadata", {{"namespace", "a"}}}});
        responder.send(Response::json(200, toBytes(body)));
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());

    const auto list = client.listAll(kPods, ListOptions{.namespace_ = "a"}, CancelToken{});

    ASSERT_TRUE(list) << list.error().message;
    ASSERT_EQ(list->items.size(), 2u);
    EXPECT_EQ(objectKey(list->items[1]), "a/good2");
    ASSERT_EQ(list->skipped.size(), 2u);
    EXPECT_NE(list->skipped[0].find("item 1 is not a JSON object"), std::string::npos) << list->skipped[0];
    EXPECT_NE(list->skipped[1].find("no metadata.name"), std::string::npos) << list->skipped[1];
}

TEST(KubeClient, List_MalformedJsonBody_ParseError)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        responder.send(Response::json(200, R"({"items": [ {"metadata": )"));
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());

    const auto list = client.listAll(kNodes, ListOptions{}, CancelToken{});

    ASSERT_FALSE(list);
    EXPECT_EQ(list.error().kind, connectors::Error::Kind::Parse);
    EXPECT_NE(list.error().message.find("List nodes"), std::string::npos) << list.error().message;
}

TEST(KubeClient, TooManyRequests_RetryAfterHonouredThroughSleeper)
{
    std::atomic<int> calls{0};
    LoopbackServer server([&calls](const Request &, const Responder &responder) {
        if (calls++ == 0) {
            responder.send(
                Response::json(429,
                               toBytes(status(429, "TooManyRequests", "too many requests, please try again later")))
                    .withHeader("Retry-After", "3"));
        } else {
            responder.send(Response::json(200, toBytes(listBody({}, "9"))));
        }
    });
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    KubeClient client(transport, endpointFor(server), fastRetry(), sleeper.sleeper());

    const auto list = client.listAll(kNodes, ListOptions{}, CancelToken{});

    ASSERT_TRUE(list) << list.error().message;
    EXPECT_EQ(calls.load(), 2);
    ASSERT_EQ(sleeper.delays().size(), 1u);
    EXPECT_GE(sleeper.delays()[0], 3000ms);
}

TEST(KubeClient, TooManyRequests_OnPost_NotRetried)
{
    std::atomic<int> calls{0};
    LoopbackServer server([&calls](const Request &, const Responder &responder) {
        ++calls;
        responder.send(
            Response::json(429, toBytes(status(429, "TooManyRequests", "slow down"))).withHeader("Retry-After", "1"));
    });
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    KubeClient client(transport, endpointFor(server), fastRetry(), sleeper.sleeper());

    const auto created = client.create(kJobs, "runai-a", json{{"metadata", {{"name", "j"}}}}, CancelToken{});

    ASSERT_FALSE(created);
    EXPECT_EQ(calls.load(), 1);
    EXPECT_TRUE(sleeper.delays().empty());
    EXPECT_EQ(created.error().httpStatus, 429);
    EXPECT_EQ(created.error().retryAfterSeconds, 1);
}

TEST(KubeClient, StatusErrors_MappedToApiAndAuth)
{
    LoopbackServer server([](const Request &request, const Responder &responder) {
        if (request.path.endsWith(QStringLiteral("/missing"))) {
            responder.send(Response::json(404, toBytes(status(404, "NotFound", "pods \"missing\" not found"))));
        } else if (request.path.endsWith(QStringLiteral("/secret"))) {
            responder.send(Response::json(
                403,
                toBytes(status(
                    403, "Forbidden", "pods \"secret\" is forbidden: User \"bob\" cannot get resource \"pods\""))));
        } else if (request.path.endsWith(QStringLiteral("/html"))) {
            responder.send(Response::text(502, "<html>bad gateway</html>"));
        } else {
            responder.send(Response::json(401, toBytes(status(401, "Unauthorized", "Unauthorized"))));
        }
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry(1));

    const auto missing = client.get(kPods, "a", "missing", CancelToken{});
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().kind, connectors::Error::Kind::Api);
    EXPECT_EQ(missing.error().apiCode, "NotFound");
    EXPECT_EQ(missing.error().message, "Get Pod a/missing: pods \"missing\" not found");

    const auto forbidden = client.get(kPods, "a", "secret", CancelToken{});
    ASSERT_FALSE(forbidden);
    EXPECT_EQ(forbidden.error().kind, connectors::Error::Kind::Auth);
    EXPECT_NE(forbidden.error().message.find("cannot get resource"), std::string::npos);

    const auto rejected = client.get(kPods, "a", "x", CancelToken{});
    ASSERT_FALSE(rejected);
    EXPECT_EQ(rejected.error().kind, connectors::Error::Kind::Auth);
    EXPECT_EQ(rejected.error().httpStatus, 401);
    EXPECT_NE(rejected.error().message.find("rejected the credentials"), std::string::npos) << rejected.error().message;

    const auto gateway = client.get(kPods, "a", "html", CancelToken{});
    ASSERT_FALSE(gateway);
    EXPECT_EQ(gateway.error().kind, connectors::Error::Kind::Http);
    EXPECT_EQ(gateway.error().httpStatus, 502);
}

TEST(KubeClient, ClusterUnreachable_TransportError)
{
    quint16 port = 0;
    {
        LoopbackServer closed([](const Request &, const Responder &responder) {
            responder.send(Response::json(200, "{}"));
        });
        port = closed.port();
    }
    ClusterEndpoint endpoint;
    endpoint.server = "http://127.0.0.1:" + std::to_string(port);
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    KubeClient client(transport, endpoint, fastRetry(2), sleeper.sleeper());

    const auto list = client.listAll(kNodes, ListOptions{}, CancelToken{});

    ASSERT_FALSE(list);
    EXPECT_EQ(list.error().kind, connectors::Error::Kind::Transport);
    EXPECT_NE(list.error().message.find("Cannot connect"), std::string::npos) << list.error().message;
    EXPECT_EQ(sleeper.delays().size(), 1u); // a GET is retried
}

TEST(KubeClient, Discover_UnknownCrdVersion_FlaggedNotFatal)
{
    LoopbackServer server([](const Request &request, const Responder &responder) {
        const json groups = {
            {"kind", "APIGroupList"},
            {"apiVersion", "v1"},
            {"groups",
             {{{"name", "batch"},
               {"versions", {{{"groupVersion", "batch/v1"}, {"version", "v1"}}}},
               {"preferredVersion", {{"groupVersion", "batch/v1"}, {"version", "v1"}}}},
              {{"name", "scheduling.run.ai"},
               {"versions",
                {{{"groupVersion", "scheduling.run.ai/v2alpha1"}, {"version", "v2alpha1"}},
                 {{"groupVersion", "scheduling.run.ai/v1"}, {"version", "v1"}}}},
               {"preferredVersion", {{"groupVersion", "scheduling.run.ai/v2alpha1"}, {"version", "v2alpha1"}}}},
              {{"name", "broken"}, {"versions", "garbage"}}}}};
        const auto resources = [](const std::string &gv, const json &list) {
            return json{{"kind", "APIResourceList"}, {"groupVersion", gv}, {"resources", list}};
        };
        if (request.path == QStringLiteral("/apis")) {
            responder.send(Response::json(200, toBytes(groups)));
        } else if (request.path == QStringLiteral("/apis/batch/v1")) {
            responder.send(Response::json(
                200, toBytes(resources("batch/v1", {{{"name", "jobs"}, {"kind", "Job"}, {"namespaced", true}}}))));
        } else if (request.path == QStringLiteral("/apis/scheduling.run.ai/v2alpha1")) {
            responder.send(Response::json(
                200,
                toBytes(resources("scheduling.run.ai/v2alpha1",
                                  {{{"name", "queues"}, {"kind", "Queue"}, {"namespaced", false}},
                                   {{"name", "queues/status"}, {"kind", "Queue"}, {"namespaced", false}}}))));
        } else if (request.path == QStringLiteral("/apis/scheduling.run.ai/v1")) {
            responder.send(Response::json(200, toBytes(resources("scheduling.run.ai/v1", json::array()))));
        } else {
            responder.send(Response::json(404, toBytes(status(404, "NotFound", "the server could not find it"))));
        }
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());

    const auto groupsOnly = client.discover(CancelToken{});
    ASSERT_TRUE(groupsOnly) << groupsOnly.error().message;
    // Without the resource lists nothing tells which version serves jobs.
    EXPECT_EQ(groupsOnly->support(kJobs), Discovery::Support::NotDiscovered);
    EXPECT_TRUE(groupsOnly->serves(kPods));

    const auto discovery = client.discover(CancelToken{}, {kJobs, kQueues, kPodGroups, kVolumeSnapshots});

    ASSERT_TRUE(discovery) << discovery.error().message;
    EXPECT_TRUE(discovery->serves(kJobs));
    EXPECT_TRUE(discovery->serves(kPods));
    EXPECT_EQ(discovery->support(kQueues), Discovery::Support::UnknownVersion);
    EXPECT_EQ(discovery->support(kPodGroups), Discovery::Support::ResourceMissing);
    EXPECT_EQ(discovery->support(kVolumeSnapshots), Discovery::Support::GroupMissing);
    EXPECT_EQ(discovery->explain(kQueues),
              "queues.scheduling.run.ai is served only in version v2alpha1; Strata reads v2 (unknown CRD version)");
    EXPECT_EQ(groupsOnly->explain(kQueues),
              "scheduling.run.ai is served only in versions v2alpha1, v1; Strata reads v2 (unknown CRD version)");
    EXPECT_NE(discovery->explain(kVolumeSnapshots).find("does not serve snapshot.storage.k8s.io"), std::string::npos);
    EXPECT_TRUE(discovery->explain(kJobs).empty());
}

// KAI's CRDs put queues in v2 and podgroups in v2alpha2 of one group whose preferred version is
// v2. Checking only that the group serves a version picked v2 for podgroups: 404, and a source
// that waited for that list for ever.
TEST(KubeClient, Discover_KaiCrds_EachResourceResolvesToTheVersionThatServesIt)
{
    const std::vector<ScriptedResource> served = kaiClusterResources();
    const json queues = json::parse(testsupport::fixture("kubernetes-objects/kai-default-queues.json"));
    SeenRequests seen;
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        seen.add(request);
        const std::string path = request.path.toStdString();
        if (const auto doc = scriptedDiscoveryDocument(path, served)) {
            responder.send(Response::json(200, toBytes(*doc)));
            return;
        }
        const auto collection = scriptedCollection(path, served);
        if (!collection) {
            responder.send(Response::json(
                404, toBytes(status(404, "NotFound", "the server could not find the requested resource"))));
            return;
        }
        json items = collection->plural == "queues" ? queues : json::array();
        responder.send(Response::json(
            200,
            toBytes(
                {{"kind", collection->kind + "List"}, {"metadata", {{"resourceVersion", "7"}}}, {"items", items}})));
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());

    const auto discovery = client.discover(CancelToken{}, {kQueues, kPodGroups});

    ASSERT_TRUE(discovery) << discovery.error().message;
    const ApiGroupInfo *kai = discovery->group("scheduling.run.ai");
    ASSERT_NE(kai, nullptr);
    EXPECT_EQ(kai->preferredVersion, "v2");
    EXPECT_EQ(kai->versions, (std::vector<std::string>{"v2", "v2alpha2"}));
    ASSERT_EQ(kai->resources.count("v2alpha2"), 1u);
    ASSERT_EQ(kai->resources.at("v2alpha2").size(), 1u); // podgroups/status is a subresource
    EXPECT_EQ(kai->resources.at("v2alpha2")[0].name, "podgroups");
    EXPECT_TRUE(kai->resources.at("v2alpha2")[0].namespaced);

    const auto queueType = discovery->resolve(kQueues);
    const auto podGroupType = discovery->resolve(kPodGroups);
    ASSERT_TRUE(queueType);
    ASSERT_TRUE(podGroupType);
    EXPECT_EQ(queueType->apiVersion(), "scheduling.run.ai/v2");
    EXPECT_EQ(podGroupType->apiVersion(), "scheduling.run.ai/v2alpha2");
    // The group's preferred version does not serve podgroups.
    ResourceType podGroupsAtV2 = kPodGroups;
    podGroupsAtV2.version = "v2";
    EXPECT_EQ(discovery->support(podGroupsAtV2), Discovery::Support::UnknownVersion);

    const auto listed = client.listAll(*podGroupType, ListOptions{}, CancelToken{});
    ASSERT_TRUE(listed) << listed.error().message;
    EXPECT_EQ(seen.last().path, QStringLiteral("/apis/scheduling.run.ai/v2alpha2/podgroups"));
    const auto queueList = client.listAll(*queueType, ListOptions{}, CancelToken{});
    ASSERT_TRUE(queueList) << queueList.error().message;
    EXPECT_EQ(queueList->items.size(), queues.size());
    const auto wrong = client.listAll(podGroupsAtV2, ListOptions{}, CancelToken{});
    ASSERT_FALSE(wrong);
    EXPECT_EQ(wrong.error().httpStatus, 404);
}

TEST(KubeClient, Discover_MissingCrdAndFailingResourceListAreExplainedNotFatal)
{
    // KAI's group with only the queue CRD installed, and a snapshot group whose resource list
    // fails (an aggregated API whose backend is down answers 503).
    std::vector<ScriptedResource> served;
    for (const auto &r : kaiClusterResources({{"snapshot.storage.k8s.io",
                                               "v1",
                                               "volumesnapshots",
                                               "volumesnapshot",
                                               "VolumeSnapshot",
                                               true,
                                               {"vs"},
                                               true}})) {
        if (r.plural != "podgroups") {
            served.push_back(r);
        }
    }
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        const std::string path = request.path.toStdString();
        if (path == "/apis/snapshot.storage.k8s.io/v1") {
            responder.send(Response::json(503, toBytes(status(503, "ServiceUnavailable", "the backend is down"))));
        } else if (const auto doc = scriptedDiscoveryDocument(path, served)) {
            responder.send(Response::json(200, toBytes(*doc)));
        } else {
            responder.send(Response::json(404, toBytes(status(404, "NotFound", "not found"))));
        }
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry(1));

    const auto discovery = client.discover(CancelToken{}, {kQueues, kPodGroups, kVolumeSnapshots});

    ASSERT_TRUE(discovery) << discovery.error().message;
    EXPECT_TRUE(discovery->serves(kQueues));
    EXPECT_EQ(discovery->support(kPodGroups), Discovery::Support::ResourceMissing);
    EXPECT_EQ(discovery->explain(kPodGroups),
              "scheduling.run.ai is served, but no version Strata reads (v2alpha2) serves podgroups (CRD "
              "podgroups.scheduling.run.ai not installed?)");
    EXPECT_EQ(discovery->support(kVolumeSnapshots), Discovery::Support::NotDiscovered);
    EXPECT_NE(discovery->explain(kVolumeSnapshots).find("the backend is down"), std::string::npos)
        << discovery->explain(kVolumeSnapshots);
}

TEST(KubeClient, ApiResourceList_OfTheRealServerSkipsSubresources)
{
    // The shape of io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList (Kubernetes OpenAPI):
    // name, singularName, namespaced, kind, verbs required; subresources are "<plural>/<sub>".
    const std::string body = R"({"kind":"APIResourceList","apiVersion":"v1","groupVersion":"batch/v1",
        "resources":[{"name":"cronjobs","singularName":"cronjob","namespaced":true,"kind":"CronJob",
        "verbs":["create","delete","deletecollection","get","list","patch","update","watch"],
        "shortNames":["cj"],"categories":["all"],"storageVersionHash":"sd5LIXh4Fjs="},
        {"name":"cronjobs/status","singularName":"","namespaced":true,"kind":"CronJob","verbs":["get","patch","update"]},
        {"name":"jobs","singularName":"job","namespaced":true,"kind":"Job",
        "verbs":["create","delete","deletecollection","get","list","patch","update","watch"],
        "categories":["all"],"storageVersionHash":"mudhfqk/qZY="},
        {"name":"jobs/status","singularName":"","namespaced":true,"kind":"Job","verbs":["get","patch","update"]}]})";
    const auto parsed = parseApiResourceList(body, "batch/v1");
    ASSERT_TRUE(parsed) << parsed.error().message;
    ASSERT_EQ(parsed->size(), 2u);
    EXPECT_EQ((*parsed)[1].name, "jobs");
    EXPECT_EQ((*parsed)[1].kind, "Job");
    EXPECT_EQ((*parsed)[1].verbs.size(), 8u);
    EXPECT_FALSE(parseApiResourceList(R"({"kind":"Status"})", "x"));
}

TEST(KubeClient, List_TypeNotServed_404SaysSo)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        responder.send(
            Response::json(404, toBytes(status(404, "NotFound", "the server could not find the requested resource"))));
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());

    const auto list = client.listAll(kQueues, ListOptions{}, CancelToken{});

    ASSERT_FALSE(list);
    EXPECT_EQ(list.error().httpStatus, 404);
    EXPECT_NE(list.error().message.find("404: the API server does not serve scheduling.run.ai/v2 queues"),
              std::string::npos)
        << list.error().message;
}

TEST(KubeClient, Mutations_MethodsBodiesAndContentTypes)
{
    SeenRequests seen;
    LoopbackServer server([&seen](const Request &request, const Responder &responder) {
        seen.add(request);
        if (request.method == "DELETE" && request.path.endsWith(QStringLiteral("/gone"))) {
            responder.send(Response::json(404, toBytes(status(404, "NotFound", "jobs.batch \"gone\" not found"))));
        } else if (request.method == "POST") {
            json created = json::parse(request.body.toStdString());
            created["metadata"]["uid"] = "u-1";
            responder.send(Response::json(201, toBytes(created)));
        } else {
            responder.send(Response::json(200, toBytes(podObject("runai-a", "j"))));
        }
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());

    const auto created = client.create(kJobs, "runai-a", json{{"metadata", {{"name", "j"}}}}, CancelToken{});
    ASSERT_TRUE(created) << created.error().message;
    EXPECT_EQ((*created)["metadata"]["uid"], "u-1");
    ASSERT_TRUE(client.remove(kJobs, "runai-a", "j", CancelToken{}));
    ASSERT_TRUE(client.remove(kJobs, "runai-a", "gone", CancelToken{})); // already gone = done
    const auto patched = client.mergePatch(kJobs, "runai-a", "j", json{{"spec", {{"suspend", true}}}}, CancelToken{});
    ASSERT_TRUE(patched) << patched.error().message;

    const auto all = seen.all();
    ASSERT_EQ(all.size(), 4u);
    EXPECT_EQ(all[0].method, "POST");
    EXPECT_EQ(all[0].path, QStringLiteral("/apis/batch/v1/namespaces/runai-a/jobs"));
    EXPECT_EQ(all[0].header("content-type"), "application/json");
    EXPECT_EQ(all[1].method, "DELETE");
    EXPECT_EQ(query(all[1], "propagationPolicy"), "Background");
    EXPECT_EQ(all[3].method, "PATCH");
    EXPECT_EQ(all[3].header("content-type"), "application/merge-patch+json");
    EXPECT_EQ(json::parse(all[3].body.toStdString()), (json{{"spec", {{"suspend", true}}}}));
}
