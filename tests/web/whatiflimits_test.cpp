// The quota what-if route under the largest bodies it accepts: its cost is bounded by its input,
// the server keeps answering /healthz meanwhile, and one user cannot queue predictions without
// end.

#include "rawhttp.h"
#include "webfixture.h"

#include "tests/models/computefixture.h"

#include <QElapsedTimer>

#include <iostream>

namespace strata::testsupport {
namespace {

using WebWhatIfLimitsTest = WebFixture;

/// {"source": cluster, "quotas": {names...: 1}, "weights": {names...: 2}} written directly.
QByteArray whatIfLimitsBody(const QStringList &quotas, const QStringList &weights)
{
    QByteArray body = "{\"source\":\"" + kCluster.toUtf8() + "\",\"quotas\":{";
    for (qsizetype i = 0; i < quotas.size(); ++i) {
        body += (i ? ",\"" : "\"") + quotas.at(i).toUtf8() + "\":1";
    }
    body += "},\"weights\":{";
    for (qsizetype i = 0; i < weights.size(); ++i) {
        body += (i ? ",\"" : "\"") + weights.at(i).toUtf8() + "\":2";
    }
    return body + "}}";
}

/// POSTs `body` to the what-if route on a raw connection and, 50 ms later, GET /healthz on
/// another; returns (what-if status, what-if ms, healthz ms).
std::tuple<int, qint64, qint64>
whatIfLimitsRace(quint16 port, const QByteArray &cookie, const QByteArray &csrf, const QByteArray &body)
{
    const QByteArray host = "Host: 127.0.0.1:" + QByteArray::number(port) + "\r\n";
    RawHttpClient whatIf;
    RawHttpClient health;
    if (!whatIf.open(port) || !health.open(port)) {
        return {0, -1, -1};
    }
    QElapsedTimer t;
    t.start();
    whatIf.send("POST /api/v1/what-if/quota HTTP/1.1\r\n" + host + "Cookie: " + cookie + "\r\nX-CSRF-Token: " + csrf
                + "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size())
                + "\r\n\r\n" + body);
    QTest::qWait(50);
    health.send("GET /healthz HTTP/1.1\r\n" + host + "\r\n");
    qint64 healthMs = -1;
    qint64 whatIfMs = -1;
    (void)QTest::qWaitFor(
        [&] {
            if (healthMs < 0 && health.received().contains("\r\n\r\n")) {
                healthMs = t.elapsed();
            }
            if (whatIfMs < 0 && whatIf.received().contains("\r\n\r\n")) {
                whatIfMs = t.elapsed();
            }
            return healthMs >= 0 && whatIfMs >= 0;
        },
        200000);
    return {whatIf.status(), whatIfMs, healthMs};
}

TEST_F(WebWhatIfLimitsTest, TheLargestBodiesAreAnsweredInBoundedTimeWhileHealthzAnswers)
{
    // A cluster of 2,004 projects (team-a..d and 2,000 more without jobs).
    ComputeState state = state49();
    state.pvcClaims.clear();
    QStringList projects;
    for (int i = 0; i < 2000; ++i) {
        const QString name = QStringLiteral("bulk-project-%1").arg(i, 4, 10, QLatin1Char('0'));
        state.quotas.emplace(name, 0);
        projects << name;
    }
    state.publish(engine->estate());
    startServer();
    const Login viewer = login(QStringLiteral("viewer"));
    const quint16 port = server->port();

    // Every project in both members: the largest real body, within the route's limit.
    const QByteArray every = whatIfLimitsBody(projects, projects);
    ASSERT_LT(every.size(), web::WebServerOptions{}.maxWhatIfBodyBytes);
    const auto [everyStatus, everyMs, everyHealthMs] = whatIfLimitsRace(port, viewer.cookie, viewer.csrf, every);
    std::cout << "[probe] what-if naming 2,000 projects twice (" << every.size() << " bytes): " << everyStatus
              << " after " << everyMs << " ms, /healthz after " << everyHealthMs << " ms\n";
    EXPECT_EQ(everyStatus, 200);
    EXPECT_LT(everyMs, 10000);
    EXPECT_GE(everyHealthMs, 0);
    EXPECT_LT(everyHealthMs, 1500);

    // Unknown names filling the limit (about 20,000): refused at the first one.
    QStringList unknown;
    for (int i = 0; unknown.size() * 14 < web::WebServerOptions{}.maxWhatIfBodyBytes - 100; ++i) {
        unknown << QStringLiteral("p%1").arg(i, 7, 10, QLatin1Char('0'));
    }
    const QByteArray flood = whatIfLimitsBody(unknown, {});
    ASSERT_LE(flood.size(), web::WebServerOptions{}.maxWhatIfBodyBytes);
    const auto [floodStatus, floodMs, floodHealthMs] = whatIfLimitsRace(port, viewer.cookie, viewer.csrf, flood);
    std::cout << "[probe] what-if naming " << unknown.size() << " unknown projects (" << flood.size()
              << " bytes): " << floodStatus << " after " << floodMs << " ms, /healthz after " << floodHealthMs
              << " ms\n";
    EXPECT_EQ(floodStatus, 400);
    EXPECT_LT(floodMs, 1500);
    EXPECT_LT(floodHealthMs, 1500);

    // The attack's 1 MiB body (87,000 names) is over the route's limit: 413 before it is read.
    QStringList many = unknown;
    for (int i = int(unknown.size()); i < 87000; ++i) {
        many << QStringLiteral("p%1").arg(i, 7, 10, QLatin1Char('0'));
    }
    const QByteArray huge = whatIfLimitsBody(many, {});
    const auto [hugeStatus, hugeMs, hugeHealthMs] = whatIfLimitsRace(port, viewer.cookie, viewer.csrf, huge);
    std::cout << "[probe] what-if naming 87,000 projects (" << huge.size() << " bytes): " << hugeStatus << " after "
              << hugeMs << " ms, /healthz after " << hugeHealthMs << " ms\n";
    EXPECT_EQ(hugeStatus, 413);
    EXPECT_LT(hugeMs, 1500);
    EXPECT_LT(hugeHealthMs, 1500);
}

TEST_F(WebWhatIfLimitsTest, OneUserGetsAFewPredictionsAMinuteThen429)
{
    state49().publish(engine->estate());
    web::WebServerOptions options;
    options.expensiveRoutesPerMinute = 2;
    startServer(options);
    const Login viewer = login(QStringLiteral("viewer"));
    const QJsonObject body{{QStringLiteral("source"), kCluster},
                           {QStringLiteral("quotas"), QJsonObject{{QStringLiteral("team-a"), 4}}}};
    const QString path = QStringLiteral("/api/v1/what-if/quota");
    EXPECT_EQ(post(path, body, viewer).status, 200);
    EXPECT_EQ(post(path, body, viewer).status, 200);
    const Reply third = post(path, body, viewer);
    EXPECT_EQ(third.status, 429) << third.body.toStdString();
    EXPECT_GE(third.header("Retry-After").toInt(), 1);
    // Another user has a budget of their own.
    EXPECT_EQ(post(path, body, login(QStringLiteral("operator"))).status, 200);
}

} // namespace
} // namespace strata::testsupport
