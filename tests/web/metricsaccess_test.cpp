// Who may read /metrics and the detail of a failing /healthz: the metrics bearer token, and
// failing sources named only to a signed-in user.

#include "webfixture.h"

namespace strata::testsupport {
namespace {

using WebMetricsAccessTest = WebFixture;

TEST_F(WebMetricsAccessTest, MetricsNeedTheBearerTokenWhenOneIsSet)
{
    web::WebServerOptions options;
    options.metricsToken = "scrape-token-7f3a";
    startServer(options);
    const Reply anonymous = get(QStringLiteral("/metrics"));
    EXPECT_EQ(anonymous.status, 401);
    EXPECT_TRUE(anonymous.header("WWW-Authenticate").startsWith("Bearer")) << anonymous.body.toStdString();
    EXPECT_FALSE(anonymous.body.contains("strata_"));
    for (const QByteArray &wrong : {QByteArray("Bearer scrape-token-7f3b"),
                                    QByteArray("Bearer scrape-token-7f3"),
                                    QByteArray("scrape-token-7f3a"),
                                    QByteArray("Basic c2NyYXBlOnRva2Vu")}) {
        EXPECT_EQ(request("GET", QStringLiteral("/metrics"), {}, {{"Authorization", wrong}}).status, 401)
            << wrong.constData();
    }
    // A session is not the token: the scraper is not a user.
    EXPECT_EQ(get(QStringLiteral("/metrics"), login(QStringLiteral("admin"))).status, 401);
    const Reply scraped =
        request("GET", QStringLiteral("/metrics"), {}, {{"Authorization", "Bearer scrape-token-7f3a"}});
    EXPECT_EQ(scraped.status, 200);
    EXPECT_TRUE(scraped.body.contains("strata_source_up"));
    EXPECT_TRUE(scraped.body.contains("strata_web_refused_requests_total{reason=\"metrics_unauthorized\"}"));
    // The probes stay open.
    EXPECT_EQ(get(QStringLiteral("/healthz")).status, 200);
    EXPECT_EQ(get(QStringLiteral("/livez")).status, 200);
}

TEST_F(WebMetricsAccessTest, AFailingHealthzNamesSourcesOnlyToASignedInUser)
{
    startServer();
    sim::ontap::FaultRule rule;
    rule.kind = sim::ontap::FaultRule::Kind::Status;
    rule.status = 401;
    simulator->addFaultRule(rule);
    engine->refresh();
    ASSERT_TRUE(waitFor(
        [&] {
            return get(QStringLiteral("/healthz")).status == 503;
        },
        30000));
    const QString source = sourceConfig().name;
    const Reply anonymous = get(QStringLiteral("/healthz"));
    EXPECT_EQ(anonymous.status, 503);
    EXPECT_EQ(anonymous.body, QByteArray("not ready: 1 source failing\n"));
    EXPECT_FALSE(anonymous.body.contains(source.toUtf8()));
    const Reply signedIn = get(QStringLiteral("/healthz"), login(QStringLiteral("viewer")));
    EXPECT_EQ(signedIn.status, 503);
    EXPECT_TRUE(signedIn.body.contains(source.toUtf8())) << signedIn.body.toStdString();
}

} // namespace
} // namespace strata::testsupport
