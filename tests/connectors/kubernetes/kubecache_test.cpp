// The KubeClient calls cached commits use (state ConfigMaps, loader/evictor Jobs, pod logs):
// request shapes and error mapping against scripted servers, then the same calls against the
// Kubernetes simulator (ConfigMaps with resourceVersion conflicts, Jobs whose pods run a
// SimWorkload, fail and are retried up to backoffLimit, pod logs).
#include "connectors/kubernetes/dto.h"
#include "simulators/common/serverthread.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "tests/connectors/kubernetes/kubetestsupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

using namespace strata;
using namespace strata::kubernetes;
using namespace strata::kubernetes::test;
using http::CancelToken;
using http::CurlTransport;
using http::test::SeenRequests;
using nlohmann::json;
using sim::Request;
using sim::Responder;
using sim::Response;
using sim::kube::KubeSimulator;
using sim::kube::SimWorkload;
using sim::kube::SimWorkloadStep;
using testsupport::LoopbackServer;

namespace {

json configMap(const std::string &name, const std::map<std::string, std::string> &data, const std::string &rv = {})
{
    json meta{{"name", name}, {"labels", {{"strata.io/cache-target", "dgx-cache-1"}}}};
    if (!rv.empty()) {
        meta["resourceVersion"] = rv;
    }
    return {{"metadata", meta}, {"data", data}};
}

json loaderJob(const std::string &ns, const std::string &name, int backoffLimit)
{
    return {{"metadata",
             {{"name", name},
              {"namespace", ns},
              {"labels", {{"app.kubernetes.io/managed-by", "strata"}, {"strata.io/role", "cache-loader"}}}}},
            {"spec",
             {{"backoffLimit", backoffLimit},
              {"template",
               {{"spec",
                 {{"restartPolicy", "Never"},
                  {"containers",
                   {{{"name", "loader"},
                     {"image", "python:3.12-alpine"},
                     {"command", {"python3", "/loader/loader.py"}},
                     {"volumeMounts", {{{"name", "cache"}, {"mountPath", "/cache"}}}}}}},
                  {"volumes", {{{"name", "cache"}, {"persistentVolumeClaim", {{"claimName", "cache-01"}}}}}}}}}}}}};
}

} // namespace

// ---- scripted servers ------------------------------------------------------------------------

TEST(KubeCacheCalls, RequestShapes)
{
    SeenRequests seen;
    LoopbackServer server([&seen](const Request &request, const Responder &responder) {
        seen.add(request);
        if (request.path.endsWith(QStringLiteral("/log"))) {
            responder.send(Response::text(200, "{\"event\":\"progress\"}\n{\"event\":\"ready\"}\n"));
        } else if (request.method == "DELETE") {
            responder.send(Response::json(200, toBytes(status(200, "", ""))));
        } else if (request.method == "GET" && request.path.endsWith(QStringLiteral("/jobs"))) {
            responder.send(Response::json(200, toBytes(listBody({podObject("ai", "strata-load-x")}, "7"))));
        } else {
            responder.send(Response::json(request.method == "POST" ? 201 : 200,
                                          request.body.isEmpty() ? toBytes(configMap("c", {})) : request.body));
        }
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());
    const CancelToken cancel;

    ASSERT_TRUE(client.getConfigMap("ai", "strata-cache-dgx-cache-1", cancel));
    EXPECT_EQ(seen.last().path, QStringLiteral("/api/v1/namespaces/ai/configmaps/strata-cache-dgx-cache-1"));

    const auto created = client.createConfigMap("ai", configMap("strata-cache-t", {{"a", "b"}}), cancel);
    ASSERT_TRUE(created) << created.error().message;
    EXPECT_EQ(seen.last().method, QByteArray("POST"));
    EXPECT_EQ(seen.last().path, QStringLiteral("/api/v1/namespaces/ai/configmaps"));
    const json posted = json::parse(seen.last().body.toStdString());
    EXPECT_EQ(posted["kind"], "ConfigMap");
    EXPECT_EQ(posted["apiVersion"], "v1");
    EXPECT_EQ(posted["data"]["a"], "b");

    ASSERT_TRUE(client.replaceConfigMap("ai", "strata-cache-t", configMap("strata-cache-t", {}, "42"), cancel));
    EXPECT_EQ(seen.last().method, QByteArray("PUT"));
    EXPECT_EQ(seen.last().path, QStringLiteral("/api/v1/namespaces/ai/configmaps/strata-cache-t"));
    EXPECT_EQ(json::parse(seen.last().body.toStdString())["metadata"]["resourceVersion"], "42");

    ASSERT_TRUE(client.createJob("ai", loaderJob("ai", "strata-load-x", 3), cancel));
    EXPECT_EQ(seen.last().path, QStringLiteral("/apis/batch/v1/namespaces/ai/jobs"));
    EXPECT_EQ(json::parse(seen.last().body.toStdString())["apiVersion"], "batch/v1");

    ASSERT_TRUE(client.deleteJob("ai", "strata-load-x", cancel, Propagation::Foreground));
    EXPECT_EQ(seen.last().method, QByteArray("DELETE"));
    EXPECT_EQ(query(seen.last(), "propagationPolicy"), "Foreground");
    ASSERT_TRUE(client.deleteJob("ai", "strata-load-x", cancel));
    EXPECT_EQ(query(seen.last(), "propagationPolicy"), "Background");

    const auto jobs = client.listJobs("ai", "strata.io/role=cache-loader", cancel);
    ASSERT_TRUE(jobs) << jobs.error().message;
    ASSERT_EQ(jobs->items.size(), 1u);
    EXPECT_EQ(jobs->items[0]["kind"], "Job");
    EXPECT_EQ(query(seen.last(), "labelSelector"), "strata.io/role=cache-loader");

    const auto log = client.podLog("ai", "strata-load-x-abcde", 1, cancel);
    ASSERT_TRUE(log) << log.error().message;
    EXPECT_EQ(*log, "{\"event\":\"progress\"}\n{\"event\":\"ready\"}\n");
    EXPECT_EQ(seen.last().path, QStringLiteral("/api/v1/namespaces/ai/pods/strata-load-x-abcde/log"));
    EXPECT_EQ(query(seen.last(), "tailLines"), "1");
    ASSERT_TRUE(client.podLog("ai", "p", 0, cancel));
    EXPECT_EQ(query(seen.last(), "tailLines"), "");
}

TEST(KubeCacheCalls, ConflictAlreadyExistsAndWaitingPodAreApiErrors)
{
    std::atomic<int> puts{0};
    std::atomic<int> posts{0};
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        if (request.method == "PUT") {
            ++puts;
            responder.send(Response::json(
                409,
                toBytes(status(409,
                               "Conflict",
                               "Operation cannot be fulfilled on configmaps \"strata-cache-t\": the object has been "
                               "modified; please apply your changes to the latest version and try again"))));
        } else if (request.method == "POST") {
            ++posts;
            responder.send(Response::json(
                409, toBytes(status(409, "AlreadyExists", "jobs.batch \"strata-load-x\" already exists"))));
        } else {
            responder.send(Response::json(
                400,
                toBytes(status(
                    400, "BadRequest", "container \"loader\" in pod \"p\" is waiting to start: ContainerCreating"))));
        }
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry(3));
    const CancelToken cancel;

    const auto replaced = client.replaceConfigMap("ai", "strata-cache-t", configMap("strata-cache-t", {}, "1"), cancel);
    ASSERT_FALSE(replaced);
    EXPECT_EQ(replaced.error().kind, connectors::Error::Kind::Api);
    EXPECT_EQ(replaced.error().apiCode, "Conflict");
    EXPECT_EQ(replaced.error().httpStatus, 409);
    EXPECT_EQ(puts.load(), 1) << "a PUT is never retried";

    const auto job = client.createJob("ai", loaderJob("ai", "strata-load-x", 3), cancel);
    ASSERT_FALSE(job);
    EXPECT_EQ(job.error().apiCode, "AlreadyExists");
    EXPECT_EQ(job.error().message, "Create Job ai/strata-load-x: jobs.batch \"strata-load-x\" already exists");
    EXPECT_EQ(posts.load(), 1);

    const auto log = client.podLog("ai", "p", 5, cancel);
    ASSERT_FALSE(log);
    EXPECT_EQ(log.error().apiCode, "BadRequest");
    EXPECT_NE(log.error().message.find("is waiting to start: ContainerCreating"), std::string::npos);
}

TEST(KubeCacheCalls, MalformedTruncatedAndServerErrors)
{
    std::atomic<int> logCalls{0};
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        if (request.path.endsWith(QStringLiteral("/configmaps/bad"))) {
            responder.send(Response::json(200, "{\"metadata\": {\"name\": \"bad\", "));
        } else if (request.path.endsWith(QStringLiteral("/configmaps"))) {
            responder.send(Response::json(200, "[1, 2, 3]"));
        } else if (request.path.endsWith(QStringLiteral("/jobs"))) {
            responder.send(Response::json(200, R"({"items": [ {"metadata": )"));
        } else if (request.path.endsWith(QStringLiteral("/log"))) {
            // Transient 503 first: a GET is retried.
            responder.send(++logCalls == 1 ? Response::text(503, "busy") : Response::text(200, "line\n"));
        } else {
            responder.send(Response::text(500, "<html>oops</html>"));
        }
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry(3));
    const CancelToken cancel;

    const auto bad = client.getConfigMap("ai", "bad", cancel);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().kind, connectors::Error::Kind::Parse);

    const auto notAList = client.listConfigMaps("ai", "strata.io/cache-target", cancel);
    ASSERT_FALSE(notAList);
    EXPECT_EQ(notAList.error().kind, connectors::Error::Kind::Parse);

    const auto truncated = client.listJobs("ai", {}, cancel);
    ASSERT_FALSE(truncated);
    EXPECT_EQ(truncated.error().kind, connectors::Error::Kind::Parse);

    const auto log = client.podLog("ai", "p", 0, cancel);
    ASSERT_TRUE(log) << log.error().message;
    EXPECT_EQ(*log, "line\n");
    EXPECT_EQ(logCalls.load(), 2);

    const auto pods = client.listPods("ai", "x=y", cancel);
    ASSERT_FALSE(pods);
    EXPECT_EQ(pods.error().kind, connectors::Error::Kind::Http);
    EXPECT_EQ(pods.error().httpStatus, 500);
}

TEST(KubeCacheCalls, TimeoutIsATransportError)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        Response slow = Response::text(200, "late\n");
        slow.delay = std::chrono::milliseconds(3000);
        responder.send(std::move(slow));
    });
    CurlTransport transport(fastTransport());
    KubeClientOptions options;
    options.retry = fastRetry(1);
    options.requestTimeout = std::chrono::milliseconds(300);
    KubeClient client(transport, endpointFor(server), options);

    const auto log = client.podLog("ai", "p", 10, CancelToken{});
    ASSERT_FALSE(log);
    EXPECT_EQ(log.error().kind, connectors::Error::Kind::Timeout) << log.error().message;
}

// ---- DTOs --------------------------------------------------------------------------------------

TEST(KubeCacheDto, JobAndPodCarryTheSubPathOfEachClaim)
{
    const json job = json::parse(R"({
      "metadata": {"name": "train", "namespace": "runai-team-a"},
      "spec": {"backoffLimit": 3, "template": {"spec": {
        "containers": [{"name": "main", "image": "pytorch",
          "volumeMounts": [{"name": "data", "mountPath": "/data", "subPath": "fraud_jun/3f2a9c01d4e5b6a7"},
                           {"name": "scratch", "mountPath": "/scratch"}]}],
        "volumes": [{"name": "scratch", "persistentVolumeClaim": {"claimName": "scratch"}},
                    {"name": "data", "persistentVolumeClaim": {"claimName": "cache-01"}},
                    {"name": "unmounted", "persistentVolumeClaim": {"claimName": "spare"}},
                    {"name": "tmp", "emptyDir": {}}]}}}})");
    const auto parsed = parseJob(job);
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ(parsed->pvcClaims, (std::vector<std::string>{"scratch", "cache-01", "spare"}));
    EXPECT_EQ(parsed->pvcSubPaths, (std::vector<std::string>{"", "fraud_jun/3f2a9c01d4e5b6a7", ""}));
    EXPECT_EQ(parsed->backoffLimit, 3);

    json pod = job["spec"]["template"];
    pod["metadata"] = {{"name", "train-abcde"}, {"namespace", "runai-team-a"}};
    // A malformed mount list is ignored, not fatal.
    pod["spec"]["containers"][0]["volumeMounts"][1] = "not an object";
    const auto parsedPod = parsePod(pod);
    ASSERT_TRUE(parsedPod) << parsedPod.error().message;
    EXPECT_EQ(parsedPod->pvcSubPaths, (std::vector<std::string>{"", "fraud_jun/3f2a9c01d4e5b6a7", ""}));
}

TEST(KubeCacheDto, ConfigMap_DataAndBadInput)
{
    const auto cm = parseConfigMap(json::parse(
        R"({"metadata": {"name": "strata-cache-t", "namespace": "ai", "resourceVersion": "9"},
            "data": {"3f2a": "{\"state\":\"ready\"}", "odd": 5}})"));
    ASSERT_TRUE(cm) << cm.error().message;
    EXPECT_EQ(cm->resourceVersion, "9");
    ASSERT_EQ(cm->data.size(), 1u);
    EXPECT_EQ(cm->data.at("3f2a"), "{\"state\":\"ready\"}");

    const auto noData = parseConfigMap(json::parse(R"({"metadata": {"name": "x"}, "data": "nope"})"));
    ASSERT_TRUE(noData);
    EXPECT_TRUE(noData->data.empty());

    const auto noName = parseConfigMap(json::parse(R"({"metadata": {}})"));
    ASSERT_FALSE(noName);
    EXPECT_EQ(noName.error().kind, connectors::Error::Kind::Parse);
    EXPECT_FALSE(parseConfigMap(json::array()));
}

// ---- against the Kubernetes simulator -----------------------------------------------------------

namespace {

/// Prints `lines` progress lines, one per step; the first `failures` pods exit 1 at the end.
class ScriptedWorkload final : public SimWorkload
{
public:
    ScriptedWorkload(int lines, bool fail)
        : m_lines(lines)
        , m_fail(fail)
    {}
    SimWorkloadStep step(std::chrono::milliseconds elapsed) override
    {
        SimWorkloadStep out;
        out.logLines.push_back(json{{"event", "progress"}, {"n", m_done}, {"ms", elapsed.count()}}.dump());
        if (++m_done >= m_lines) {
            out.outcome = m_fail ? SimWorkloadStep::Outcome::Failed : SimWorkloadStep::Outcome::Succeeded;
            out.message = m_fail ? "boom" : "";
        }
        return out;
    }

private:
    int m_lines;
    bool m_fail;
    int m_done = 0;
};

class KubeCacheSim : public ::testing::Test
{
protected:
    void SetUp() override
    {
        KubeSimulator::Options options;
        options.preset = KubeSimulator::Options::Preset::Dgx;
        options.submitDemoJobs = false;
        options.tickInterval = std::chrono::milliseconds{0};
        options.bookmarkInterval = std::chrono::milliseconds{0};
        options.gpuMetrics = false;
        QString error;
        m_sim = KubeSimulator::startOnThread(m_thread, options, &error);
        ASSERT_NE(m_sim, nullptr) << error.toStdString();
        auto config = parseKubeconfig(m_sim->kubeconfig().toStdString(), "/nonexistent", "simulator kubeconfig");
        ASSERT_TRUE(config) << config.error().message;
        auto endpoint = config->endpoint();
        ASSERT_TRUE(endpoint) << endpoint.error().message;
        m_transport = std::make_unique<CurlTransport>(transportOptions(*endpoint, fastTransport()));
        m_client = std::make_unique<KubeClient>(*m_transport, *endpoint, fastRetry());
    }

    // The pods of a Job, oldest first by name order of creation (phase by name).
    std::vector<PodDto> podsOf(const std::string &ns, const std::string &job)
    {
        auto pods = m_client->listPods(ns, "job-name=" + job, m_cancel);
        EXPECT_TRUE(pods) << pods.error().message;
        return pods ? parseAll<PodDto>(pods->items, parsePod) : std::vector<PodDto>{};
    }

    JobDto job(const std::string &ns, const std::string &name)
    {
        auto object = m_client->get(kJobs, ns, name, m_cancel);
        EXPECT_TRUE(object) << object.error().message;
        auto parsed = parseJob(object ? *object : json::object());
        return parsed ? *parsed : JobDto{};
    }

    sim::ServerThread m_thread;
    KubeSimulator *m_sim = nullptr;
    std::unique_ptr<CurlTransport> m_transport;
    std::unique_ptr<KubeClient> m_client;
    CancelToken m_cancel;
};

} // namespace

TEST_F(KubeCacheSim, ConfigMaps_CreateReplaceConflictListByLabel)
{
    const std::string ns = "runai-team-a";
    const auto created = m_client->createConfigMap(ns, configMap("strata-cache-dgx-cache-1", {{"k", "v1"}}), m_cancel);
    ASSERT_TRUE(created) << created.error().message;
    const auto first = parseConfigMap(*created);
    ASSERT_TRUE(first);
    EXPECT_FALSE(first->resourceVersion.empty());

    const auto again = m_client->createConfigMap(ns, configMap("strata-cache-dgx-cache-1", {}), m_cancel);
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().apiCode, "AlreadyExists");

    const auto replaced =
        m_client->replaceConfigMap(ns,
                                   "strata-cache-dgx-cache-1",
                                   configMap("strata-cache-dgx-cache-1", {{"k", "v2"}}, first->resourceVersion),
                                   m_cancel);
    ASSERT_TRUE(replaced) << replaced.error().message;

    // A writer still holding the first resourceVersion loses.
    const auto stale =
        m_client->replaceConfigMap(ns,
                                   "strata-cache-dgx-cache-1",
                                   configMap("strata-cache-dgx-cache-1", {{"k", "v3"}}, first->resourceVersion),
                                   m_cancel);
    ASSERT_FALSE(stale);
    EXPECT_EQ(stale.error().apiCode, "Conflict");
    EXPECT_EQ(stale.error().httpStatus, 409);

    const auto read = m_client->getConfigMap(ns, "strata-cache-dgx-cache-1", m_cancel);
    ASSERT_TRUE(read);
    EXPECT_EQ(parseConfigMap(*read)->data.at("k"), "v2");

    json other = configMap("unrelated", {});
    other["metadata"].erase("labels");
    ASSERT_TRUE(m_client->createConfigMap(ns, other, m_cancel));
    const auto listed = m_client->listConfigMaps({}, "strata.io/cache-target", m_cancel);
    ASSERT_TRUE(listed) << listed.error().message;
    ASSERT_EQ(listed->items.size(), 1u);
    EXPECT_EQ(objectKey(listed->items[0]), ns + "/strata-cache-dgx-cache-1");

    const auto missing = m_client->getConfigMap(ns, "nope", m_cancel);
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().apiCode, "NotFound");
}

TEST_F(KubeCacheSim, Secrets_StringDataBecomesBase64Data)
{
    const json secret{{"metadata", {{"name", "strata-s3"}}},
                      {"stringData", {{"AWS_ACCESS_KEY_ID", "AKIA1"}, {"AWS_SECRET_ACCESS_KEY", "s3cr3t"}}}};
    ASSERT_TRUE(m_client->create(kSecrets, "runai-team-a", secret, m_cancel));
    const auto read = m_client->get(kSecrets, "runai-team-a", "strata-s3", m_cancel);
    ASSERT_TRUE(read) << read.error().message;
    EXPECT_EQ((*read)["type"], "Opaque");
    EXPECT_EQ((*read)["data"]["AWS_ACCESS_KEY_ID"], "QUtJQTE=");
    EXPECT_FALSE(read->contains("stringData"));
}

TEST_F(KubeCacheSim, WorkloadPods_LogFailRetrySucceed)
{
    std::atomic<int> asked{0};
    m_sim->setWorkloadRunner([&asked](const json &job) -> std::unique_ptr<SimWorkload> {
        if (job["metadata"]["labels"].value("strata.io/role", std::string()) != "cache-loader") {
            return nullptr;
        }
        // The first pod fails after 3 lines, its replacement succeeds after 3.
        return std::make_unique<ScriptedWorkload>(3, asked++ == 0);
    });
    const std::string ns = "runai-team-a";
    ASSERT_TRUE(m_client->createJob(ns, loaderJob(ns, "strata-load-a", 2), m_cancel));
    const auto duplicate = m_client->createJob(ns, loaderJob(ns, "strata-load-a", 2), m_cancel);
    ASSERT_FALSE(duplicate);
    EXPECT_EQ(duplicate.error().apiCode, "AlreadyExists");

    m_sim->tick(); // bound, ContainerCreating
    auto pods = podsOf(ns, "strata-load-a");
    ASSERT_EQ(pods.size(), 1u);
    const std::string firstPod = pods[0].name;
    const auto waiting = m_client->podLog(ns, firstPod, 0, m_cancel);
    ASSERT_FALSE(waiting);
    EXPECT_EQ(waiting.error().apiCode, "BadRequest");
    EXPECT_NE(waiting.error().message.find("is waiting to start"), std::string::npos) << waiting.error().message;

    m_sim->tick(4); // running (3 s creating), two steps
    auto log = m_client->podLog(ns, firstPod, 0, m_cancel);
    ASSERT_TRUE(log) << log.error().message;
    EXPECT_EQ(std::count(log->begin(), log->end(), '\n'), 2) << *log;
    EXPECT_NE(log->find(R"("ms":1000)"), std::string::npos) << *log;

    m_sim->tick(1); // third line: exits 1
    pods = podsOf(ns, "strata-load-a");
    ASSERT_EQ(pods.size(), 2u);
    const auto failed = std::find_if(pods.begin(), pods.end(), [&](const PodDto &p) {
        return p.name == firstPod;
    });
    ASSERT_NE(failed, pods.end());
    EXPECT_EQ(failed->phase, "Failed");
    const auto tail = m_client->podLog(ns, firstPod, 1, m_cancel);
    ASSERT_TRUE(tail);
    const std::string lastLine = json{{"event", "progress"}, {"n", 2}, {"ms", 1000}}.dump() + "\n";
    EXPECT_EQ(*tail, lastLine);
    JobDto j = job(ns, "strata-load-a");
    EXPECT_EQ(j.failed, 1);
    EXPECT_FALSE(j.complete);
    EXPECT_FALSE(j.failedCondition);

    m_sim->tick(8);
    j = job(ns, "strata-load-a");
    EXPECT_TRUE(j.complete);
    EXPECT_EQ(j.succeeded, 1);
    EXPECT_EQ(j.failed, 1);
    EXPECT_EQ(asked.load(), 2);

    // Deleting the Job takes its pods (and their logs) with it.
    ASSERT_TRUE(m_client->deleteJob(ns, "strata-load-a", m_cancel));
    m_sim->tick();
    EXPECT_TRUE(podsOf(ns, "strata-load-a").empty());
    const auto gone = m_client->podLog(ns, firstPod, 0, m_cancel);
    ASSERT_FALSE(gone);
    EXPECT_EQ(gone.error().apiCode, "NotFound");
}

TEST_F(KubeCacheSim, WorkloadPods_BackoffLimitExceededFailsTheJob)
{
    m_sim->setWorkloadRunner([](const json &) {
        return std::make_unique<ScriptedWorkload>(1, true);
    });
    const std::string ns = "runai-team-b";
    ASSERT_TRUE(m_client->createJob(ns, loaderJob(ns, "strata-load-b", 1), m_cancel));
    m_sim->tick(20);
    const JobDto j = job(ns, "strata-load-b");
    EXPECT_TRUE(j.failedCondition);
    EXPECT_FALSE(j.complete);
    EXPECT_EQ(j.failed, 2) << "backoffLimit 1: the first pod and one retry";
    EXPECT_EQ(j.active, 0);
    const auto pods = podsOf(ns, "strata-load-b");
    ASSERT_EQ(pods.size(), 2u);
    for (const PodDto &p : pods) {
        EXPECT_EQ(p.phase, "Failed");
    }
    const auto failed = std::find_if(j.conditions.begin(), j.conditions.end(), [](const Condition &c) {
        return c.type == "Failed";
    });
    ASSERT_NE(failed, j.conditions.end());
    EXPECT_EQ(failed->reason, "BackoffLimitExceeded");

    // Without a runner, Jobs run as ordinary pods again.
    m_sim->setWorkloadRunner({});
    json plain = loaderJob(ns, "plain", 0);
    ASSERT_TRUE(m_client->createJob(ns, plain, m_cancel));
    m_sim->tick(10);
    const JobDto p = job(ns, "plain");
    EXPECT_EQ(p.active, 1);
    EXPECT_EQ(p.failed, 0);
}
