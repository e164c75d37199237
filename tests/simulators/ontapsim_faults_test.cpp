// Fault injection: every kind, set in-process and over HTTP, observed with a raw HTTPS client so
// no client-side retry can hide what the wire did.

#include "tests/simulators/ontaptestsupport.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

#include <gtest/gtest.h>

using strata::sim::ontap::FaultRule;
using strata::sim::ontap::OntapSimulator;
using namespace strata::testsupport::ontapsim;

namespace {

class OntapSimFaults : public ::testing::Test
{
protected:
    void SetUp() override
    {
        sim = std::make_unique<RunningSimulator>(RunningSimulator::testOptions());
        ASSERT_TRUE(sim->isRunning()) << sim->error().toStdString();
        raw = std::make_unique<RawClient>(**sim);
        client = std::make_unique<QnamClient>(**sim);
        volume = (*sim)->volumeByName(QStringLiteral("svm_ai"), QStringLiteral("tusimple"))->uuid;
        snapshotsPath = QStringLiteral("/api/storage/volumes/%1/snapshots").arg(volume).toUtf8();
    }

    static FaultRule rule(FaultRule::Kind kind, const QString &method = {}, const QString &path = {}, int count = -1)
    {
        FaultRule r;
        r.kind = kind;
        r.method = method;
        r.path = path;
        r.count = count;
        return r;
    }

    static QByteArray snapshotBody(const char *name) { return QByteArray("{\"name\":\"") + name + "\"}"; }

    void waitMs(int ms)
    {
        QEventLoop loop;
        QTimer::singleShot(ms, &loop, &QEventLoop::quit);
        loop.exec();
    }

    std::unique_ptr<RunningSimulator> sim;
    std::unique_ptr<RawClient> raw;
    std::unique_ptr<QnamClient> client;
    QString volume;
    QByteArray snapshotsPath;
};

} // namespace

TEST_F(OntapSimFaults, Latency_DelaysTheAnswer)
{
    FaultRule r = rule(FaultRule::Kind::Latency, QStringLiteral("GET"), QStringLiteral("^/api/cluster$"), 1);
    r.latencyMs = 400;
    (*sim)->addFaultRule(r);
    const RawResult slow = raw->request("GET", "/api/cluster");
    EXPECT_EQ(slow.status, 200);
    EXPECT_TRUE(slow.complete());
    EXPECT_GE(slow.elapsedMs, 380);
    const RawResult fast = raw->request("GET", "/api/cluster");
    EXPECT_LT(fast.elapsedMs, 380);
}

TEST_F(OntapSimFaults, Status503_OntapErrorBodyAndNothingApplied)
{
    FaultRule r = rule(FaultRule::Kind::Status, QStringLiteral("POST"), QStringLiteral("/snapshots$"), 1);
    r.status = 503;
    (*sim)->addFaultRule(r);
    const int before = (*sim)->snapshotCount(volume);
    const RawResult res = raw->request("POST", snapshotsPath, snapshotBody("s503"));
    EXPECT_EQ(res.status, 503);
    const QJsonObject error = QJsonDocument::fromJson(res.body).object().value(QStringLiteral("error")).toObject();
    EXPECT_FALSE(error.value(QStringLiteral("message")).toString().isEmpty());
    EXPECT_FALSE(error.value(QStringLiteral("code")).toString().isEmpty());
    waitMs(150);
    EXPECT_EQ((*sim)->snapshotCount(volume), before);
    EXPECT_TRUE((*sim)->jobs().isEmpty());

    FaultRule internal = rule(FaultRule::Kind::Status, QStringLiteral("GET"), {}, 1);
    internal.status = 500;
    internal.message = QStringLiteral("boom");
    internal.code = QStringLiteral("1234");
    (*sim)->addFaultRule(internal);
    const RawResult r500 = raw->request("GET", "/api/storage/volumes");
    EXPECT_EQ(r500.status, 500);
    EXPECT_EQ(QJsonDocument::fromJson(r500.body)
                  .object()
                  .value(QStringLiteral("error"))
                  .toObject()
                  .value(QStringLiteral("code"))
                  .toString(),
              QStringLiteral("1234"));
}

TEST_F(OntapSimFaults, Reset_ClosesWithoutAnswerAndNothingApplied)
{
    (*sim)->addFaultRule(rule(FaultRule::Kind::Reset, QStringLiteral("POST"), QStringLiteral("/snapshots$"), 1));
    const int before = (*sim)->snapshotCount(volume);
    const RawResult res = raw->request("POST", snapshotsPath, snapshotBody("reset"));
    EXPECT_TRUE(res.encrypted);
    EXPECT_TRUE(res.closedByPeer);
    EXPECT_TRUE(res.raw.isEmpty());
    EXPECT_EQ(res.status, 0);
    waitMs(150);
    EXPECT_EQ((*sim)->snapshotCount(volume), before);
    // The rule was used up: the retry goes through.
    EXPECT_EQ(raw->request("POST", snapshotsPath, snapshotBody("reset")).status, 202);
}

TEST_F(OntapSimFaults, Truncate_BodyShorterThanContentLength)
{
    (*sim)->addFaultRule(
        rule(FaultRule::Kind::Truncate, QStringLiteral("GET"), QStringLiteral("^/api/storage/volumes$"), 1));
    const RawResult res = raw->request("GET", "/api/storage/volumes?fields=*");
    EXPECT_EQ(res.status, 200);
    EXPECT_GT(res.contentLength, 0);
    EXPECT_LT(res.body.size(), res.contentLength);
    EXPECT_TRUE(res.closedByPeer);
}

TEST_F(OntapSimFaults, Malformed_InvalidJson)
{
    (*sim)->addFaultRule(
        rule(FaultRule::Kind::Malformed, QStringLiteral("GET"), QStringLiteral("^/api/storage/volumes$"), 1));
    const RawResult res = raw->request("GET", "/api/storage/volumes");
    EXPECT_EQ(res.status, 200);
    EXPECT_TRUE(res.complete());
    QJsonParseError error{};
    QJsonDocument::fromJson(res.body, &error);
    EXPECT_NE(error.error, QJsonParseError::NoError);
}

TEST_F(OntapSimFaults, Stall_NeverAnswers)
{
    (*sim)->addFaultRule(rule(FaultRule::Kind::Stall, QStringLiteral("GET"), QStringLiteral("^/api/cluster$"), 1));
    const RawResult res = raw->request("GET", "/api/cluster", {}, 400);
    EXPECT_TRUE(res.timedOut);
    EXPECT_TRUE(res.raw.isEmpty());
    EXPECT_EQ(raw->request("GET", "/api/cluster").status, 200);
}

TEST_F(OntapSimFaults, JobFailure_JobFailsWithMessageAndNothingApplied)
{
    FaultRule r = rule(FaultRule::Kind::JobFailure, QStringLiteral("POST"), QStringLiteral("/snapshots$"), 1);
    r.message = QStringLiteral("Snapshot copy creation failed: volume is busy.");
    r.code = QStringLiteral("524486");
    (*sim)->addFaultRule(r);
    const int before = (*sim)->snapshotCount(volume);
    const HttpResult accepted =
        client->post(QString::fromUtf8(snapshotsPath), QJsonObject{{QStringLiteral("name"), QStringLiteral("jf")}});
    ASSERT_EQ(accepted.status, 202);
    const QJsonObject job = client->waitForJob(QnamClient::jobUuid(accepted));
    EXPECT_EQ(job.value(QStringLiteral("state")).toString(), QStringLiteral("failure"));
    EXPECT_EQ(job.value(QStringLiteral("message")).toString(), r.message);
    EXPECT_EQ(job.value(QStringLiteral("code")).toInteger(), 524486);
    EXPECT_EQ((*sim)->snapshotCount(volume), before);

    // With return_timeout the failure comes back as the answer itself.
    (*sim)->addFaultRule(r);
    const HttpResult sync = client->post(QString::fromUtf8(snapshotsPath) + QStringLiteral("?return_timeout=10"),
                                         QJsonObject{{QStringLiteral("name"), QStringLiteral("jf2")}});
    EXPECT_GE(sync.status, 400);
    EXPECT_EQ(sync.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString(),
              r.message);
    EXPECT_EQ((*sim)->snapshotCount(volume), before);
}

TEST_F(OntapSimFaults, ApplyThenReset_AppliedExactlyOnceAndANaiveRetryIsADuplicate)
{
    (*sim)->addFaultRule(
        rule(FaultRule::Kind::ApplyThenReset, QStringLiteral("POST"), QStringLiteral("/snapshots$"), 1));
    const int before = (*sim)->snapshotCount(volume);
    const RawResult res = raw->request("POST", snapshotsPath, snapshotBody("once"));
    EXPECT_TRUE(res.closedByPeer);
    EXPECT_TRUE(res.raw.isEmpty()) << "the client never learns the outcome";
    // By the time the connection drops, the job has applied the mutation.
    EXPECT_EQ((*sim)->snapshotCount(volume), before + 1);
    EXPECT_EQ((*sim)->snapshotNames(volume).count(QStringLiteral("once")), 1);
    const auto jobs = (*sim)->jobs();
    ASSERT_EQ(jobs.size(), 1);
    EXPECT_EQ(jobs.front().state, QStringLiteral("success"));

    const RawResult retry = raw->request("POST", snapshotsPath, snapshotBody("once"));
    EXPECT_EQ(retry.status, 409);
    EXPECT_EQ((*sim)->snapshotNames(volume).count(QStringLiteral("once")), 1);

    // A PATCH too: the rename lands, the answer does not.
    (*sim)->addFaultRule(rule(FaultRule::Kind::ApplyThenReset, QStringLiteral("PATCH"), {}, 1));
    const RawResult patched =
        raw->request("PATCH", "/api/storage/volumes/" + volume.toUtf8(), "{\"comment\":\"patched once\"}");
    EXPECT_TRUE(patched.raw.isEmpty());
    EXPECT_EQ((*sim)->volume(volume)->comment, QStringLiteral("patched once"));
}

TEST_F(OntapSimFaults, CountAndProbability_FireAsConfigured)
{
    (*sim)->addFaultRule(rule(FaultRule::Kind::Status, QStringLiteral("GET"), QStringLiteral("^/api/cluster$"), 2));
    EXPECT_EQ(raw->request("GET", "/api/cluster").status, 503);
    EXPECT_EQ(raw->request("GET", "/api/cluster").status, 503);
    EXPECT_EQ(raw->request("GET", "/api/cluster").status, 200);
    EXPECT_TRUE((*sim)->faultRules().isEmpty()) << "a used-up rule goes away";

    FaultRule never = rule(FaultRule::Kind::Status, QStringLiteral("GET"), QStringLiteral("^/api/cluster$"));
    never.probability = 0.0;
    const int id = (*sim)->addFaultRule(never);
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(raw->request("GET", "/api/cluster").status, 200);
    }
    EXPECT_TRUE((*sim)->removeFaultRule(id));

    FaultRule sometimes = rule(FaultRule::Kind::Status, QStringLiteral("GET"), QStringLiteral("^/api/svm/svms$"));
    sometimes.probability = 0.5;
    (*sim)->addFaultRule(sometimes);
    int failures = 0;
    for (int i = 0; i < 40; ++i) {
        failures += client->get(QStringLiteral("/api/svm/svms")).status == 503 ? 1 : 0;
    }
    EXPECT_GT(failures, 5);
    EXPECT_LT(failures, 35);
    EXPECT_EQ((*sim)->faultRules().front().fired, failures);

    // Method and path must both match.
    (*sim)->clearFaultRules();
    (*sim)->addFaultRule(rule(FaultRule::Kind::Status, QStringLiteral("DELETE"), QStringLiteral("^/api/cluster$")));
    EXPECT_EQ(raw->request("GET", "/api/cluster").status, 200);
}

TEST_F(OntapSimFaults, HttpControlApi_AddListDeleteWithAuth)
{
    QnamClient anonymous((*sim)->baseUrl(), (*sim)->certificatePem(), QStringLiteral("admin"), QStringLiteral("wrong"));
    EXPECT_EQ(anonymous.send("POST", QStringLiteral("/_sim/faults"), R"({"kind":"reset"})").status, 401);
    EXPECT_EQ(anonymous.get(QStringLiteral("/_sim/faults")).status, 401);

    const HttpResult bad = client->send("POST", QStringLiteral("/_sim/faults"), R"({"kind":"explode"})");
    EXPECT_EQ(bad.status, 400);

    const HttpResult added = client->send(
        "POST",
        QStringLiteral("/_sim/faults"),
        R"({"method":"GET","path":"^/api/storage/aggregates$","kind":"status","status":500,"count":1,"message":"aggregate service down"})");
    ASSERT_EQ(added.status, 201) << added.body.toStdString();
    const int id = added.json.value(QStringLiteral("id")).toInt();
    EXPECT_GT(id, 0);
    const HttpResult listed = client->get(QStringLiteral("/_sim/faults"));
    ASSERT_EQ(listed.json.value(QStringLiteral("num_records")).toInt(), 1);
    EXPECT_EQ(listed.json.value(QStringLiteral("records"))
                  .toArray()
                  .at(0)
                  .toObject()
                  .value(QStringLiteral("kind"))
                  .toString(),
              QStringLiteral("status"));

    const HttpResult hit = client->get(QStringLiteral("/api/storage/aggregates"));
    EXPECT_EQ(hit.status, 500);
    EXPECT_EQ(hit.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString(),
              QStringLiteral("aggregate service down"));
    EXPECT_EQ(client->get(QStringLiteral("/api/storage/aggregates")).status, 200);

    client->send("POST", QStringLiteral("/_sim/faults"), R"({"kind":"latency","latency_ms":5})");
    client->send("POST", QStringLiteral("/_sim/faults"), R"({"kind":"job_failure","message":"nope"})");
    EXPECT_EQ((*sim)->faultRules().size(), 2);
    const HttpResult cleared = client->del(QStringLiteral("/_sim/faults"));
    EXPECT_EQ(cleared.status, 200);
    EXPECT_EQ(cleared.json.value(QStringLiteral("num_records")).toInt(), 2);
    EXPECT_TRUE((*sim)->faultRules().isEmpty());
    EXPECT_EQ(client->del(QStringLiteral("/_sim/faults/999")).status, 404);

    const HttpResult state = client->get(QStringLiteral("/_sim/state"));
    EXPECT_EQ(state.json.value(QStringLiteral("volumes")).toInt(), (*sim)->volumeCount());
}
