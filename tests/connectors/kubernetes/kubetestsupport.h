#pragma once

#include "connectors/http/curltransport.h"
#include "connectors/kubernetes/client.h"
#include "tests/connectors/http/httptestsupport.h"
#include "tests/support/qt/loopbackserver.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>
#include <vector>

namespace strata::kubernetes::test {

using namespace std::chrono_literals;

inline ClusterEndpoint endpointFor(const testsupport::LoopbackServer &server, const std::string &token = "t0ken")
{
    ClusterEndpoint endpoint;
    endpoint.contextName = endpoint.clusterName = endpoint.userName = "test";
    endpoint.server = server.url();
    endpoint.token = token;
    return endpoint;
}

inline http::TransportOptions fastTransport()
{
    http::TransportOptions options;
    options.connectTimeout = 2s;
    options.totalTimeout = 10s;
    options.streamIdleTimeout = 10s;
    return options;
}

inline http::RetryPolicy fastRetry(int attempts = 3)
{
    http::RetryPolicy policy;
    policy.maxAttempts = attempts;
    policy.baseDelay = 1ms;
    policy.maxElapsed = 0ms;
    return policy;
}

inline QByteArray toBytes(const nlohmann::json &value)
{
    return QByteArray::fromStdString(value.dump());
}

inline nlohmann::json podObject(const std::string &ns, const std::string &name, const std::string &rv = "1")
{
    return {{"metadata", {{"namespace", ns}, {"name", name}, {"resourceVersion", rv}}},
            {"spec", {{"containers", nlohmann::json::array()}}}};
}

inline nlohmann::json
listBody(const std::vector<nlohmann::json> &items, const std::string &rv, const std::string &continueToken = {})
{
    nlohmann::json metadata = {{"resourceVersion", rv}};
    if (!continueToken.empty()) {
        metadata["continue"] = continueToken;
    }
    return {{"kind", "PodList"}, {"apiVersion", "v1"}, {"metadata", metadata}, {"items", items}};
}

inline nlohmann::json status(int code, const std::string &reason, const std::string &message)
{
    return {{"kind", "Status"},
            {"apiVersion", "v1"},
            {"metadata", nlohmann::json::object()},
            {"status", "Failure"},
            {"message", message},
            {"reason", reason},
            {"code", code}};
}

inline std::string eventLine(const std::string &type, const nlohmann::json &object)
{
    return nlohmann::json{{"type", type}, {"object", object}}.dump() + "\n";
}

inline nlohmann::json bookmark(const std::string &rv)
{
    return {{"kind", "Pod"}, {"apiVersion", "v1"}, {"metadata", {{"resourceVersion", rv}}}};
}

inline std::string query(const sim::Request &request, const char *key)
{
    return request.queryValue(QString::fromLatin1(key)).toStdString();
}

} // namespace strata::kubernetes::test
