// PrometheusClient against scripted servers: request shape (POST form / GET), result types,
// NaN/Inf values, warnings, the error envelope, malformed bodies and 503 + Retry-After.
#include "tests/connectors/prometheus/prometheustestsupport.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>

namespace strata::prometheus::test {
namespace {

using Kind = connectors::Error::Kind;
using sim::Request;
using sim::Responder;
using sim::Response;
using testsupport::LoopbackServer;

constexpr const char *kVector = R"({"status":"success","data":{"resultType":"vector","result":[
  {"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","Hostname":"gpu-node-1","gpu":"0"},"value":[1700000000.123,"87.5"]},
  {"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","Hostname":"gpu-node-1","gpu":"1"},"value":[1700000000.123,"NaN"]},
  {"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","Hostname":"gpu-node-1","gpu":"2"},"value":[1700000000.123,"+Inf"]},
  {"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","Hostname":"gpu-node-1","gpu":"3"},"value":[1700000000.123,"-Inf"]},
  {"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","Hostname":"gpu-node-1","gpu":"4"},"value":[1700000000.123,"1e-07"]}]}})";

class PrometheusClientTest : public ::testing::Test
{
protected:
    /// Serves `body` with `status` for every request, logging each.
    void serve(int status, std::string body, QList<QPair<QByteArray, QByteArray>> headers = {})
    {
        server = std::make_unique<LoopbackServer>(
            [this, status, body = QByteArray::fromStdString(body), headers](const Request &r, const Responder &out) {
                log.add(r);
                Response response = Response::json(status, body);
                for (const auto &header : headers) {
                    response.withHeader(header.first, header.second);
                }
                out.send(response);
            });
    }

    PrometheusClient &client(PrometheusOptions options = {})
    {
        const auto base = options.http.baseUrl;
        options.http = clientOptions(base.empty() ? server->url() : base, &sleeps);
        if (auto basic = basicAuth) {
            options.http.basic = basic;
        }
        m_client = std::make_unique<PrometheusClient>(transport, options);
        return *m_client;
    }

    std::unique_ptr<LoopbackServer> server;
    RequestLog log;
    http::CurlTransport transport;
    std::vector<std::chrono::milliseconds> sleeps;
    std::optional<http::BasicAuth> basicAuth;

private:
    std::unique_ptr<PrometheusClient> m_client;
};

TEST_F(PrometheusClientTest, InstantQuery_Vector_PostsFormAndParsesSpecialValues)
{
    serve(200, kVector);
    const auto result = client().instantQuery("DCGM_FI_DEV_GPU_UTIL{Hostname=~\"gpu-node-.*\"} > 0", 1700000000.1234);
    ASSERT_TRUE(result) << result.error().message;

    const SeenRequest seen = log.last();
    EXPECT_EQ(seen.method, "POST");
    EXPECT_EQ(seen.path, "/api/v1/query");
    EXPECT_EQ(seen.contentType, "application/x-www-form-urlencoded");
    // Round trip through form encoding, including '+'-free spaces, quotes, braces and '>'.
    EXPECT_EQ(seen.query, "DCGM_FI_DEV_GPU_UTIL{Hostname=~\"gpu-node-.*\"} > 0");
    EXPECT_EQ(seen.time, "1700000000.123");

    EXPECT_EQ(result->type, ResultType::Vector);
    ASSERT_EQ(result->samples.size(), 5u);
    EXPECT_EQ(result->samples[0].labels.at("Hostname"), "gpu-node-1");
    EXPECT_EQ(result->samples[0].labels.at("__name__"), "DCGM_FI_DEV_GPU_UTIL");
    EXPECT_DOUBLE_EQ(result->samples[0].timestamp, 1700000000.123);
    EXPECT_DOUBLE_EQ(result->samples[0].value, 87.5);
    EXPECT_TRUE(std::isnan(result->samples[1].value));
    EXPECT_TRUE(std::isinf(result->samples[2].value));
    EXPECT_GT(result->samples[2].value, 0);
    EXPECT_TRUE(std::isinf(result->samples[3].value));
    EXPECT_LT(result->samples[3].value, 0);
    EXPECT_DOUBLE_EQ(result->samples[4].value, 1e-7);
}

TEST_F(PrometheusClientTest, InstantQuery_GetMode_PutsParametersInTheUrl)
{
    serve(200, kVector);
    PrometheusOptions options;
    options.usePost = false;
    options.evaluationTimeoutSeconds = 20;
    const auto result = client(options).instantQuery("up == 1");
    ASSERT_TRUE(result) << result.error().message;
    const SeenRequest seen = log.last();
    EXPECT_EQ(seen.method, "GET");
    EXPECT_EQ(seen.query, "up == 1");
    EXPECT_EQ(seen.time, ""); // server's now
    EXPECT_NE(seen.target.find("timeout=20"), std::string::npos) << seen.target;
    EXPECT_TRUE(seen.body.empty());
}

TEST_F(PrometheusClientTest, RangeQuery_Matrix_SendsStartEndStepAndParsesPoints)
{
    serve(200, R"({"status":"success","data":{"resultType":"matrix","result":[
      {"metric":{"namespace":"runai-team-a"},"values":[[1700000000,"10"],[1700000060,"20.25"],[1700000120,"NaN"]]},
      {"metric":{},"values":[[1700000000,"0"]]}]}})");
    const auto result = client().rangeQuery("avg by (namespace) (DCGM_FI_DEV_GPU_UTIL)", 1700000000, 1700000120, 60);
    ASSERT_TRUE(result) << result.error().message;
    const SeenRequest seen = log.last();
    EXPECT_EQ(seen.path, "/api/v1/query_range");
    EXPECT_EQ(seen.start, "1700000000");
    EXPECT_EQ(seen.end, "1700000120");
    EXPECT_EQ(seen.step, "60");
    ASSERT_EQ(result->type, ResultType::Matrix);
    ASSERT_EQ(result->series.size(), 2u);
    EXPECT_EQ(result->series[0].labels.at("namespace"), "runai-team-a");
    ASSERT_EQ(result->series[0].points.size(), 3u);
    EXPECT_DOUBLE_EQ(result->series[0].points[1].first, 1700000060);
    EXPECT_DOUBLE_EQ(result->series[0].points[1].second, 20.25);
    EXPECT_TRUE(std::isnan(result->series[0].points[2].second));
    EXPECT_TRUE(result->series[1].labels.empty());
}

TEST_F(PrometheusClientTest, InstantQuery_ScalarStringAndWarnings_Parsed)
{
    serve(200, R"({"status":"success","data":{"resultType":"scalar","result":[1700000000.5,"42"]},
                   "warnings":["remote store returned partial data"]})");
    auto scalar = client().instantQuery("scalar(42)");
    ASSERT_TRUE(scalar) << scalar.error().message;
    EXPECT_EQ(scalar->type, ResultType::Scalar);
    ASSERT_EQ(scalar->samples.size(), 1u);
    EXPECT_TRUE(scalar->samples[0].labels.empty());
    EXPECT_DOUBLE_EQ(scalar->samples[0].value, 42);
    EXPECT_DOUBLE_EQ(scalar->samples[0].timestamp, 1700000000.5);
    ASSERT_EQ(scalar->warnings.size(), 1u);
    EXPECT_EQ(scalar->warnings[0], "remote store returned partial data");

    const auto text =
        parseQueryResponse(R"({"status":"success","data":{"resultType":"string","result":[1.5,"hello"]}})");
    ASSERT_TRUE(text) << text.error().message;
    EXPECT_EQ(text->type, ResultType::String);
    EXPECT_EQ(text->text, "hello");
    EXPECT_DOUBLE_EQ(text->samples.at(0).timestamp, 1.5);
}

TEST_F(PrometheusClientTest, ErrorEnvelope_BadData_IsApiErrorWithPrometheusMessage)
{
    serve(
        400,
        R"({"status":"error","errorType":"bad_data","error":"invalid parameter \"query\": 1:14: parse error: unexpected <by>"})");
    const auto result = client().instantQuery("sum(foo) by by");
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, Kind::Api);
    EXPECT_EQ(result.error().httpStatus, 400);
    EXPECT_EQ(result.error().apiCode, "bad_data");
    EXPECT_NE(result.error().message.find("1:14: parse error: unexpected <by>"), std::string::npos)
        << result.error().message;
    EXPECT_EQ(log.all().size(), 1u) << "a 400 is not retried";
}

TEST_F(PrometheusClientTest, ErrorEnvelope_Execution422_IsApiError)
{
    serve(422, R"({"status":"error","errorType":"execution","error":"query processing would load too many samples"})");
    const auto result = client().rangeQuery("DCGM_FI_DEV_GPU_UTIL", 0, 100, 1);
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, Kind::Api);
    EXPECT_EQ(result.error().apiCode, "execution");
    EXPECT_NE(result.error().message.find("too many samples"), std::string::npos);
}

TEST_F(PrometheusClientTest, MalformedJson_IsParseError)
{
    serve(200, R"({"status":"success","data":{"resultType":"vector","result":[)");
    const auto result = client().instantQuery("up");
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, Kind::Parse);
    EXPECT_EQ(result.error().httpStatus, 200);
}

TEST_F(PrometheusClientTest, WrongShapes_AreParseErrors)
{
    for (const char *body : {
             R"({"status":"success"})",
             R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"abc"]}]}})",
             R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":["1","2"]}]}})",
             R"({"status":"success","data":{"resultType":"histogram","result":[]}})",
             R"([1,2,3])",
         }) {
        const auto result = parseQueryResponse(body);
        ASSERT_FALSE(result) << body;
        EXPECT_EQ(result.error().kind, Kind::Parse) << body;
    }
}

// Found by tests/fuzz/prometheus: envelope members of another type than string threw
// json::type_error out of parseQueryResponse/prometheusError and ended the process.
TEST_F(PrometheusClientTest, EnvelopeFieldsOfAnotherType_AreErrorsNotThrown)
{
    const std::string crash = R"({"status":{"resultType":"vector","result":[]}})";
    const auto result = parseQueryResponse(crash);
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, Kind::Http);

    const auto rejected = parseQueryResponse(R"({"status":"error","errorType":7,"error":["x"]})", 400);
    ASSERT_FALSE(rejected);
    EXPECT_EQ(rejected.error().kind, Kind::Api);
    EXPECT_EQ(rejected.error().apiCode, "");
    EXPECT_EQ(rejected.error().message, "Prometheus rejected the query: HTTP 400");
}

TEST_F(PrometheusClientTest, BuildInfoWithFieldsOfAnotherType_IsReadNotThrown)
{
    server = std::make_unique<LoopbackServer>([&](const Request &r, const Responder &out) {
        log.add(r);
        out.send(Response::json(200, R"({"status":"success","data":{"version":2,"revision":"abc","goVersion":null}})"));
    });
    const auto info = client().buildInfo();
    ASSERT_TRUE(info) << info.error().message;
    EXPECT_EQ(info->version, "");
    EXPECT_EQ(info->revision, "abc");
}

TEST_F(PrometheusClientTest, ServiceUnavailable_RetriesHonouringRetryAfterThenSucceeds)
{
    std::atomic<int> calls{0};
    server = std::make_unique<LoopbackServer>([&](const Request &r, const Responder &out) {
        log.add(r);
        if (++calls <= 2) {
            out.send(Response::text(503, "Service Unavailable").withHeader("Retry-After", "2"));
            return;
        }
        out.send(Response::json(200, QByteArray(kVector)));
    });
    const auto result = client().instantQuery("DCGM_FI_DEV_GPU_UTIL");
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(calls.load(), 3) << "a POST query is idempotent, so it is retried";
    ASSERT_EQ(sleeps.size(), 2u);
    EXPECT_EQ(sleeps[0], 2s);
    EXPECT_EQ(sleeps[1], 2s);
    for (const auto &seen : log.all()) {
        EXPECT_EQ(seen.query, "DCGM_FI_DEV_GPU_UTIL") << "every retry resends the form body";
    }
}

TEST_F(PrometheusClientTest, TooManyRequests_RetriesExhausted_ReportsRetryAfter)
{
    serve(429,
          R"({"status":"error","errorType":"unavailable","error":"too many concurrent queries"})",
          {{"Retry-After", "7"}});
    const auto result = client().instantQuery("up");
    ASSERT_FALSE(result);
    EXPECT_EQ(log.all().size(), 3u);
    EXPECT_EQ(result.error().httpStatus, 429);
    EXPECT_EQ(result.error().retryAfterSeconds, 7);
    EXPECT_EQ(result.error().kind, Kind::Api);
    EXPECT_TRUE(result.error().retryable());
    EXPECT_NE(result.error().message.find("too many concurrent queries"), std::string::npos);
}

TEST_F(PrometheusClientTest, Unauthorized_IsAuthErrorAndBasicAuthIsSent)
{
    serve(401, "Unauthorized\n");
    basicAuth = http::BasicAuth{"grafana", "s3cret"};
    const auto result = client().instantQuery("up");
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, Kind::Auth);
    EXPECT_EQ(log.last().authorization, "Basic Z3JhZmFuYTpzM2NyZXQ=");
}

TEST_F(PrometheusClientTest, BearerToken_IsSent)
{
    serve(200, kVector);
    PrometheusOptions options;
    options.http = clientOptions(server->url(), &sleeps);
    options.http.bearer = http::BearerAuth{"tok-123"};
    PrometheusClient bearerClient(transport, options);
    ASSERT_TRUE(bearerClient.instantQuery("up"));
    EXPECT_EQ(log.last().authorization, "Bearer tok-123");
}

TEST_F(PrometheusClientTest, PlainHttpErrorWithoutEnvelope_IsHttpError)
{
    serve(502, "<html>bad gateway</html>");
    const auto result = client().instantQuery("up");
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, Kind::Http);
    EXPECT_EQ(result.error().httpStatus, 502);
}

TEST_F(PrometheusClientTest, BaseUrlWithProxyPrefix_QueriesUnderThePrefix)
{
    serve(200, kVector);
    PrometheusOptions options;
    options.http.baseUrl = server->url("/api/v1/namespaces/monitoring/services/prometheus:9090/proxy/");
    ASSERT_TRUE(client(options).instantQuery("up"));
    EXPECT_EQ(log.last().path, "/api/v1/namespaces/monitoring/services/prometheus:9090/proxy/api/v1/query");
}

TEST_F(PrometheusClientTest, BuildInfo_ParsesVersion)
{
    serve(200, R"({"status":"success","data":{"version":"2.42.0","revision":"abc","goVersion":"go1.19.5"}})");
    const auto info = client().buildInfo();
    ASSERT_TRUE(info) << info.error().message;
    EXPECT_EQ(info->version, "2.42.0");
    EXPECT_EQ(log.last().method, "GET");
    EXPECT_EQ(log.last().path, "/api/v1/status/buildinfo");
}

TEST(PrometheusFormat, Timestamp_MillisecondPrecisionWithoutExponent)
{
    EXPECT_EQ(formatTimestamp(1700000000.0), "1700000000");
    EXPECT_EQ(formatTimestamp(1700000000.1234), "1700000000.123");
    EXPECT_EQ(formatTimestamp(0.5), "0.5");
}

} // namespace
} // namespace strata::prometheus::test
