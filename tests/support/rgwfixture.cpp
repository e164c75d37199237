#include "tests/support/rgwfixture.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <unistd.h>

namespace strata::testsupport {

namespace {

std::string shellQuote(const std::string &text)
{
    std::string quoted = "'";
    for (char c : text) {
        if (c == '\'') {
            quoted += "'\\''";
        } else {
            quoted += c;
        }
    }
    return quoted + "'";
}

std::string rgwDir()
{
    const char *fromEnv = std::getenv("STRATA_RGW_DIR");
    return fromEnv && *fromEnv ? std::string(fromEnv) : std::string(STRATA_RGW_DIR);
}

std::string fixtureScript()
{
    return std::string(STRATA_SOURCE_DIR) + "/tests/support/rgw-fixture.sh";
}

/// Runs a command, returning its exit status and combined output.
std::pair<int, std::string> run(const std::string &command)
{
    std::string output;
    FILE *pipe = ::popen((command + " 2>&1").c_str(), "r");
    if (!pipe) {
        return {-1, "popen failed"};
    }
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
        output.append(buffer, n);
    }
    const int status = ::pclose(pipe);
    return {status, output};
}

struct Shared
{
    std::mutex mutex;
    std::unique_ptr<RgwServer> server;
    std::string failure; ///< set once a start failed: later tests fail fast with the same reason
    bool startedHere = false;

    ~Shared()
    {
        if (startedHere) {
            (void)run(shellQuote(fixtureScript()) + " down " + shellQuote(rgwDir()));
        }
    }
};

Shared &shared()
{
    static Shared instance;
    return instance;
}

} // namespace

const RgwServer *rgw()
{
    Shared &state = shared();
    std::lock_guard lock(state.mutex);
    if (state.server) {
        return state.server.get();
    }
    if (state.failure.empty()) {
        const auto [status, output] = run(shellQuote(fixtureScript()) + " up " + shellQuote(rgwDir()));
        const std::string firstLine = output.substr(0, output.find('\n'));
        if (status == 0 && (firstLine.rfind("started ", 0) == 0 || firstLine.rfind("reused ", 0) == 0)) {
            auto server = std::make_unique<RgwServer>();
            std::ifstream endpointFile(rgwDir() + "/endpoint");
            std::getline(endpointFile, server->endpoint);
            const char *access = std::getenv("RGW_ACCESS_KEY");
            const char *secret = std::getenv("RGW_SECRET_KEY");
            server->accessKey = access && *access ? access : "STRATATESTACCESSKEY01";
            server->secretKey = secret && *secret ? secret : "StrataTestSecretKey0123456789abcdefghijk";
            state.startedHere = firstLine.rfind("started ", 0) == 0;
            if (!server->endpoint.empty()) {
                state.server = std::move(server);
                return state.server.get();
            }
            state.failure = "rgw-fixture.sh gave no endpoint in " + rgwDir() + "/endpoint";
        } else {
            state.failure = "could not start Ceph RGW (scripts/deps.sh --test installs it): " + output;
        }
    }
    ADD_FAILURE() << state.failure;
    return nullptr;
}

std::string uniqueBucketName(std::string_view stem)
{
    static std::atomic<int> counter{0};
    std::string name;
    for (char c : stem) {
        const auto u = static_cast<unsigned char>(c);
        name += std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '-';
    }
    name = name.substr(0, 40);
    name += "-" + std::to_string(::getpid()) + "-" + std::to_string(++counter);
    return name;
}

} // namespace strata::testsupport
