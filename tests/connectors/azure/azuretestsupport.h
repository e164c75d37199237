#pragma once

#include "connectors/azure/azureclient.h"
#include "connectors/http/curltransport.h"
#include "tests/connectors/http/httptestsupport.h"
#include "tests/support/qt/loopbackserver.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

namespace strata::azure::test {

using namespace std::chrono_literals;

inline const std::string kSub = "00000000-0000-0000-0000-000000000000";
inline const std::string kAccountId =
    "/subscriptions/" + kSub + "/resourceGroups/myRG/providers/Microsoft.NetApp/netAppAccounts/account1";
inline const std::string kPool1 = kAccountId + "/capacityPools/pool1";
inline const std::string kPool2 = kAccountId + "/capacityPools/pool2";
inline const std::string kVolumeId = kPool1 + "/volumes/volume1";

/// Hands out "token-1", "token-2", ...: a new one whenever forceRefresh is asked for.
class FakeTokens final : public ITokenProvider
{
public:
    connectors::Result<AccessToken>
    token(const std::string &scope, const http::CancelToken &, bool forceRefresh) override
    {
        std::lock_guard lock(m_mutex);
        m_scopes.push_back(scope);
        if (forceRefresh || m_issued == 0) {
            ++m_issued;
        }
        m_forced += forceRefresh ? 1 : 0;
        return AccessToken{"token-" + std::to_string(m_issued), std::chrono::system_clock::now() + 1h};
    }
    int issued() const
    {
        std::lock_guard lock(m_mutex);
        return m_issued;
    }
    int forced() const
    {
        std::lock_guard lock(m_mutex);
        return m_forced;
    }
    std::vector<std::string> scopes() const
    {
        std::lock_guard lock(m_mutex);
        return m_scopes;
    }

private:
    mutable std::mutex m_mutex;
    int m_issued = 0;
    int m_forced = 0;
    std::vector<std::string> m_scopes;
};

inline http::TransportOptions fastTransport()
{
    http::TransportOptions options;
    options.connectTimeout = 2s;
    options.totalTimeout = 10s;
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

/// Options for a client against `baseUrl` whose waits are recorded, not slept.
inline AzureClientOptions clientOptions(const std::string &baseUrl, http::test::RecordingSleeper &sleeper)
{
    AzureClientOptions options;
    options.http.baseUrl = baseUrl;
    options.http.retry = fastRetry();
    options.http.sleeper = sleeper.sleeper();
    options.subscriptionId = kSub;
    options.lroPollInterval = 1000ms;
    options.lroTimeout = 60s;
    return options;
}

inline QByteArray toBytes(const nlohmann::json &value)
{
    return QByteArray::fromStdString(value.dump());
}

inline std::string query(const sim::Request &request, const char *key)
{
    return request.queryValue(QString::fromLatin1(key)).toStdString();
}

inline std::string path(const sim::Request &request)
{
    return request.path.toStdString();
}

/// "http://127.0.0.1:<port>" of the server that received `request`.
inline std::string origin(const sim::Request &request)
{
    return "http://" + request.header("host").toStdString();
}

inline nlohmann::json armErrorBody(const std::string &code, const std::string &message)
{
    return {{"error", {{"code", code}, {"message", message}}}};
}

inline nlohmann::json volumeJson(const std::string &id, const std::string &fileSystemId = "fs-1")
{
    const auto arm = ArmId::parse(id);
    return {{"id", id},
            {"name", arm->account + "/" + arm->pool + "/" + arm->volume},
            {"type", "Microsoft.NetApp/netAppAccounts/capacityPools/volumes"},
            {"location", "eastus"},
            {"properties",
             {{"fileSystemId", fileSystemId},
              {"creationToken", arm->volume},
              {"usageThreshold", 107374182400},
              {"serviceLevel", "Premium"},
              {"throughputMibps", 128},
              {"protocolTypes", {"NFSv3"}},
              {"mountTargets", {{{"ipAddress", "10.0.1.4"}, {"fileSystemId", fileSystemId}}}},
              {"provisioningState", "Succeeded"},
              {"subnetId",
               "/subscriptions/x/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/v/subnets/s"}}}};
}

/// An operationResults status document.
inline nlohmann::json statusDoc(const std::string &status, double percent)
{
    return {{"id", "/subscriptions/" + kSub + "/providers/Microsoft.NetApp/locations/eastus/operationResults/op-1"},
            {"name", "op-1"},
            {"status", status},
            {"startTime", "2026-01-01T00:00:00Z"},
            {"endTime", "0001-01-01T00:00:00Z"},
            {"percentComplete", percent},
            {"properties", {{"resourceName", kVolumeId}, {"action", "POOLCHANGE"}}}};
}

} // namespace strata::azure::test
