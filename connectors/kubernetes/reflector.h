#pragma once

#include "connectors/http/curlloop.h"
#include "connectors/kubernetes/client.h"

#include <nlohmann/json_fwd.hpp>

#include <chrono>
#include <functional>
#include <optional>
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
/// Two ways to run it, same cycle:
/// - run(cancel) blocks the calling thread until `cancel` fires; callbacks run on that thread.
///   Cancel from another thread through the CancelToken.
/// - start(loop) runs it on a CurlLoop without blocking: lists, watches and backoff waits are
///   events of the loop, so the reflectors of every resource type of a cluster share one
///   thread. Callbacks run on the loop thread; it ends with stop(), when its CancelToken fires
///   or when the loop stops. Backoffs wait on the loop's timers. A 401 with exec-plugin
///   credentials re-runs the plugin and repeats the request once, and list pages are retried
///   per the client's RetryPolicy, as the client does.
class Reflector
{
public:
    struct Batch
    {
        /// true: `upserts` is the complete set, drop everything not in it (a (re)list).
        bool replace = false;
        /// Added or modified objects, latest state, in event order.
        std::vector<nlohmann::json> upserts;
        /// With Options::list.decodePods (kPods): the added or modified pods, in event order,
        /// instead of `upserts`.
        std::vector<PodDto> pods;
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
        /// Backoff sleeps; empty = http::realSleeper(). With start() it is called on the loop
        /// thread with each backoff delay instead of waiting it out (tests record the delays
        /// this way), so it must return at once; false ends the cycle.
        http::Sleeper sleeper;
    };

    using BatchHandler = std::function<void(Batch &&batch)>;
    using ErrorHandler = std::function<void(const connectors::Error &error)>;

    Reflector(KubeClient &client, ResourceType type, Options options, BatchHandler onBatch, ErrorHandler onError = {});

    /// Only stop()s a reflector started on a loop (which must then be the calling thread).
    ~Reflector();
    Reflector(const Reflector &) = delete;
    Reflector &operator=(const Reflector &) = delete;

    /// Blocks until `cancel` fires.
    void run(const http::CancelToken &cancel);

    /// Starts the cycle on `loop` and returns at once. Call on the loop thread or before
    /// loop.run(); `loop` must outlive the reflector or stop running before it goes. The cycle
    /// ends (without a callback) at its next step once `cancel` fires; it is also what stops
    /// an exec credential plugin the loop thread runs.
    void start(http::CurlLoop &loop, const http::CancelToken &cancel = {});
    /// Loop thread: ends the request or wait in progress; no callback follows.
    void stop();

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
    /// What to do once a watch ended.
    enum class AfterWatch
    {
        Stop,         ///< cancelled
        Relist,       ///< 410 Gone
        Watch,        ///< again at once
        BackoffWatch, ///< again after a backoff
    };

    bool relist(const http::CancelToken &cancel);
    /// Delivers a successful list; false when it failed (reported unless cancelled).
    bool takeList(Result<ListPage> list);
    [[nodiscard]] WatchOptions watchOptions();
    /// Turns the events of one chunk into a batch, moves the resourceVersion, delivers.
    void takeEvents(std::vector<WatchEvent> &events);
    AfterWatch afterWatch(const Result<WatchEnd> &end, bool delivered);
    void report(const connectors::Error &error);
    [[nodiscard]] std::chrono::milliseconds nextBackoff(int retryAfterSeconds);
    bool backoff(const http::CancelToken &cancel, int retryAfterSeconds = -1);
    void resetBackoff();

    // start(): the cycle as events of the loop.
    void loopList();
    void loopPage();
    void loopWatch();
    void loopBackoff(int retryAfterSeconds, void (Reflector::*next)());
    /// Tries of one request of the loop cycle.
    struct LoopTries
    {
        int sent = 0;
        bool reauthorized = false;
        std::chrono::steady_clock::time_point started{};
    };
    /// Sends with credentials, re-authorizes once after a 401 and retries a list (not a watch)
    /// as KubeClient retries its GETs; `done` gets the last outcome.
    void loopSend(http::HttpRequest request, http::BodySink sink, http::CurlLoop::Done done, LoopTries tries);

    KubeClient &m_client;
    ResourceType m_type;
    Options m_options;
    BatchHandler m_onBatch;
    ErrorHandler m_onError;
    std::string m_resourceVersion;
    std::chrono::milliseconds m_nextBackoff{0};
    Stats m_stats;

    http::CurlLoop *m_loop = nullptr;
    http::CancelToken m_loopCancel; ///< credential plugins started from the loop
    http::CurlLoop::Id m_transfer = 0;
    http::CurlLoop::Id m_timer = 0;
    std::optional<ListPager> m_pager;
    std::optional<WatchDecoder> m_decoder;
    bool m_delivered = false;
};

} // namespace strata::kubernetes
