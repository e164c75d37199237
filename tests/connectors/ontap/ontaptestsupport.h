#pragma once

#include "connectors/ontap/ontapclient.h"
#include "tests/support/faketransport.h"
#include "tests/support/fixtures.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <vector>

namespace strata::ontap::test {

using namespace std::chrono_literals;
using http::Method;
using testsupport::FakeTransport;
using testsupport::fixture;

/// Fixture for OntapClient tests: a scripted transport, a fast retry policy and a Sleeper that
/// records instead of sleeping (optionally cancelling the token on its first call).
class OntapClientTest : public ::testing::Test
{
protected:
    static constexpr auto kPollInterval = 500ms;
    static constexpr const char *kJobUuid = "e43a40db-cd61-11eb-a170-005056b338cd";
    static constexpr const char *kJobPath = "/api/cluster/jobs/e43a40db-cd61-11eb-a170-005056b338cd";
    static constexpr const char *kVolumeUuid = "6b1f0c2e-d0a4-11ee-b3c1-005056ae5bd6";

    OntapClientOptions options()
    {
        OntapClientOptions o;
        o.http.baseUrl = "https://cluster.test:8443";
        o.http.basic = http::BasicAuth{"admin", "s3cret"};
        o.http.retry = http::RetryPolicy{.maxAttempts = 2, .baseDelay = 0ms};
        o.http.sleeper = [this](std::chrono::milliseconds d, const http::CancelToken &cancel) {
            sleeps.push_back(d);
            if (cancelOnSleep) {
                cancel.cancel();
                return false;
            }
            return !cancel.isCancelled();
        };
        o.pageSize = 50;
        o.jobPollInterval = kPollInterval;
        o.jobTimeout = 10s;
        return o;
    }

    OntapClient &client()
    {
        if (!m_client) {
            m_client = std::make_unique<OntapClient>(transport, options());
        }
        return *m_client;
    }

    OntapClient &clientWith(const OntapClientOptions &o)
    {
        m_client = std::make_unique<OntapClient>(transport, o);
        return *m_client;
    }

    /// Sleeps the job poller asked for (retry backoffs here are 0 ms, so they are excluded).
    [[nodiscard]] int pollSleeps() const
    {
        int n = 0;
        for (auto d : sleeps) {
            n += d == kPollInterval ? 1 : 0;
        }
        return n;
    }

    [[nodiscard]] http::HttpRequest lastRequest() const
    {
        const auto all = transport.requests();
        return all.empty() ? http::HttpRequest{} : all.back();
    }

    static std::optional<std::string> query(const http::HttpRequest &request, const std::string &key)
    {
        return FakeTransport::queryParam(request.url, key);
    }

    FakeTransport transport;
    std::vector<std::chrono::milliseconds> sleeps;
    bool cancelOnSleep = false;

private:
    std::unique_ptr<OntapClient> m_client;
};

inline std::string ontapFixture(const std::string &name)
{
    return fixture("ontap/9.14/" + name);
}

} // namespace strata::ontap::test
