#pragma once

#include "connectors/kubernetes/client.h"

#include <nlohmann/json_fwd.hpp>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace strata::kubernetes {

/// Keeps one resource type current, like client-go's Reflector: list everything (paged), then
/// watch from the list's resourceVersion, and hand every change to the caller in batches.
///
/// Cycle (run() loops until `cancel` fires, then returns):
/// 1. listAll; on success deliver Batch{replace = true, upserts = every object}.
///    On failure report the error, back off, and list again.
/// 2. watch from the newest resourceVersion seen (list RV, then each event's and bookmark's RV).
///    All complete events of one received chunk arrive as one Batch{replace = false}; chunks with
///    only bookmarks update the resourceVersion but deliver nothing.
///    - the stream ends (server timeout, dropped connection): watch again from the last RV, no
///      re-list (after a stream that delivered nothing, back off first);
///    - WatchEnd::Expired (HTTP 410 or an ERROR event with code 410): re-list (step 1);
///    - an error (401, 429, 5xx, connection refused, ...): report it, back off, watch again from
///      the last RV (a stale RV then yields 410 and a re-list).
/// Backoff doubles from minBackoff to maxBackoff (with Retry-After as a floor when the server
/// sent one) and resets after any successful list or delivered batch. Sleeps go through
/// Options::sleeper, so tests never sleep.
///
/// Objects that are not valid (no metadata.name, not an object) are left out and reported
/// through onError (Kind::Parse), the rest of the list or chunk is kept.
///
/// Threading: everything runs in the thread that calls run(); callbacks are invoked there. The
/// object is not otherwise thread-safe; cancel from another thread through the CancelToken.
class Reflector
{
public:
    struct Batch
    {
        /// true: `upserts` is the complete set, drop everything not in it (a (re)list).
        bool replace = false;
        /// Added or modified objects, latest state, in event order.
        std::vector<nlohmann::json> upserts;
        /// objectKey() of deleted objects: "ns/name" (namespaced) or "name".
        std::vector<std::string> deletedKeys;
        /// The resourceVersion the cache is at after this batch.
        std::string resourceVersion;
    };

    struct Options
    {
        /// Namespace (empty = all), selectors and page size of the list, reused for the watch.
        ListOptions list;
        /// timeoutSeconds of each watch request (the server closes the stream after it).
        int watchTimeoutSeconds = 300;
        std::chrono::milliseconds minBackoff{1'000};
        std::chrono::milliseconds maxBackoff{30'000};
        /// Backoff sleeps; empty = http::realSleeper().
        http::Sleeper sleeper;
    };

    using BatchHandler = std::function<void(Batch &&batch)>;
    using ErrorHandler = std::function<void(const connectors::Error &error)>;

    Reflector(KubeClient &client, ResourceType type, Options options, BatchHandler onBatch, ErrorHandler onError = {});

    /// Blocks until `cancel` fires.
    void run(const http::CancelToken &cancel);

    /// Counters for tests and diagnostics (read from the run() thread or after it returned).
    struct Stats
    {
        int lists = 0;   ///< listAll calls that succeeded
        int watches = 0; ///< watch requests sent
        int errors = 0;  ///< errors reported
    };
    [[nodiscard]] const Stats &stats() const { return m_stats; }
    [[nodiscard]] const ResourceType &type() const { return m_type; }

private:
    bool relist(const http::CancelToken &cancel);
    void report(const connectors::Error &error);
    bool backoff(const http::CancelToken &cancel, int retryAfterSeconds = -1);
    void resetBackoff();

    KubeClient &m_client;
    ResourceType m_type;
    Options m_options;
    BatchHandler m_onBatch;
    ErrorHandler m_onError;
    std::string m_resourceVersion;
    std::chrono::milliseconds m_nextBackoff{0};
    Stats m_stats;
};

} // namespace strata::kubernetes
