// Recorded Prometheus 2.42 bodies (tests/fixtures/prometheus) through the parser, and the
// simulator's exposition and JSON held against the vendor's formats (dcgm-exporter's
// default-counters.csv, Prometheus' timestamp rendering).
#include "connectors/prometheus/client.h"
#include "simulators/kubernetes/dcgm.h"
#include "tests/support/fixtures.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>

namespace strata::prometheus::test {
namespace {

using Kind = connectors::Error::Kind;
using testsupport::fixture;

TEST(PrometheusFixtures, RecordedVector_MillisecondTimestampsAndLabels)
{
    const auto result = parseQueryResponse(fixture("prometheus/query-vector.json"));
    ASSERT_TRUE(result) << result.error().message;
    ASSERT_EQ(result->type, ResultType::Vector);
    ASSERT_EQ(result->samples.size(), 2u);
    EXPECT_DOUBLE_EQ(result->samples[0].timestamp, 1795354380.5);
    EXPECT_EQ(result->samples[1].labels.at("gpu"), "1");
    EXPECT_EQ(result->samples[1].labels.at("namespace"), "runai-a");
    EXPECT_DOUBLE_EQ(result->samples[1].value, 12);
}

TEST(PrometheusFixtures, RecordedMatrix_PointsInOrder)
{
    const auto result = parseQueryResponse(fixture("prometheus/query_range-matrix.json"));
    ASSERT_TRUE(result) << result.error().message;
    ASSERT_EQ(result->type, ResultType::Matrix);
    ASSERT_EQ(result->series.size(), 1u);
    const auto &points = result->series[0].points;
    ASSERT_EQ(points.size(), 5u);
    EXPECT_DOUBLE_EQ(points[0].first, 1795354140);
    EXPECT_DOUBLE_EQ(points[0].second, 15);
    EXPECT_DOUBLE_EQ(points[4].first, 1795354380);
    EXPECT_DOUBLE_EQ(points[4].second, 12);
}

TEST(PrometheusFixtures, RecordedScalarsAndString)
{
    const auto inf = parseQueryResponse(fixture("prometheus/query-scalar-inf.json"));
    ASSERT_TRUE(inf) << inf.error().message;
    EXPECT_EQ(inf->type, ResultType::Scalar);
    EXPECT_TRUE(std::isinf(inf->samples.at(0).value));
    const auto nan = parseQueryResponse(fixture("prometheus/query-scalar-nan.json"));
    ASSERT_TRUE(nan) << nan.error().message;
    EXPECT_TRUE(std::isnan(nan->samples.at(0).value));
    const auto text = parseQueryResponse(fixture("prometheus/query-string.json"));
    ASSERT_TRUE(text) << text.error().message;
    EXPECT_EQ(text->type, ResultType::String);
    EXPECT_EQ(text->text, "hello");
}

TEST(PrometheusFixtures, RecordedBadData_MapsToApiError)
{
    const auto error = prometheusError(http::HttpResponse::withStatus(400, fixture("prometheus/error-bad_data.json")));
    EXPECT_EQ(error.kind, Kind::Api);
    EXPECT_EQ(error.apiCode, "bad_data");
    EXPECT_EQ(error.message,
              "Prometheus rejected the query: invalid parameter \"query\": 1:41: parse error: unclosed left "
              "parenthesis");
    const auto parsed = parseQueryResponse(fixture("prometheus/error-bad_data.json"), 400);
    ASSERT_FALSE(parsed);
    EXPECT_EQ(parsed.error().kind, Kind::Api);
}

/// field -> (type, help) from default-counters.csv, active (uncommented) rows only.
std::map<std::string, std::pair<std::string, std::string>> defaultCounters()
{
    std::map<std::string, std::pair<std::string, std::string>> out;
    std::istringstream csv(fixture("dcgm/default-counters.csv"));
    const auto trim = [](std::string s) {
        s.erase(0, s.find_first_not_of(" \t\r"));
        s.erase(s.find_last_not_of(" \t\r") + 1);
        return s;
    };
    for (std::string line; std::getline(csv, line);) {
        if (trim(line).empty() || trim(line)[0] == '#') {
            continue;
        }
        const auto first = line.find(',');
        const auto second = line.find(',', first + 1);
        if (first == std::string::npos || second == std::string::npos) {
            continue;
        }
        out[trim(line.substr(0, first))] = {trim(line.substr(first + 1, second - first - 1)),
                                            trim(line.substr(second + 1))};
    }
    return out;
}

TEST(DcgmExporterFormat, HelpAndTypeLines_MatchDefaultCountersCsv)
{
    const auto counters = defaultCounters();
    ASSERT_GE(counters.size(), 20u);
    const sim::kube::DcgmExporter exporter;
    const std::string text = exporter.metricsText().toStdString();
    int checked = 0;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("# HELP ", 0) == 0) {
            const auto space = line.find(' ', 7);
            const std::string name = line.substr(7, space - 7);
            ASSERT_TRUE(counters.count(name)) << name << " is not a DCGM default counter";
            EXPECT_EQ(line.substr(space + 1), counters.at(name).second) << name;
            ++checked;
        } else if (line.rfind("# TYPE ", 0) == 0) {
            const auto space = line.find(' ', 7);
            const std::string name = line.substr(7, space - 7);
            ASSERT_TRUE(counters.count(name)) << name;
            EXPECT_EQ(line.substr(space + 1), counters.at(name).first) << name;
        }
    }
    EXPECT_EQ(checked, 5);
}

} // namespace
} // namespace strata::prometheus::test
