#include "connectors/http/curlloop.h"

#include "connectors/http/curlcall.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <vector>

namespace strata::http {

namespace {

using LoopClock = std::chrono::steady_clock;

// send()'s low-speed check looks at the transfers this often while nothing else wakes the loop.
constexpr auto kLoopCheckInterval = std::chrono::milliseconds{1000};

} // namespace

struct CurlLoop::Private
{
    struct Active
    {
        HttpRequest request;
        BodySink sink;
        Done done;
        CURL *easy = nullptr;
        std::unique_ptr<detail::CurlCall> call;
    };

    explicit Private(TransportOptions opts)
        : options(std::move(opts))
        , multi(curl_multi_init())
    {}

    ~Private()
    {
        dropTransfers();
        if (multi) {
            curl_multi_cleanup(multi);
        }
    }

    void dropTransfers()
    {
        for (auto &[id, active] : transfers) {
            if (active->easy) {
                curl_multi_remove_handle(multi, active->easy);
                curl_easy_cleanup(active->easy);
            }
        }
        transfers.clear();
    }

    /// Ends `id` with `result` (after its handle left the multi handle) and calls its `done`.
    void complete(Id id, connectors::Result<HttpResponse> result)
    {
        const auto it = transfers.find(id);
        if (it == transfers.end()) {
            return;
        }
        std::unique_ptr<Active> active = std::move(it->second);
        transfers.erase(it);
        if (active->easy) {
            curl_easy_cleanup(active->easy);
        }
        if (active->done) {
            active->done(std::move(result));
        }
    }

    void finishTransfer(Id id, CURLcode code, bool stalled)
    {
        const auto it = transfers.find(id);
        if (it == transfers.end()) {
            return;
        }
        Active &active = *it->second;
        curl_multi_remove_handle(multi, active.easy);
        complete(id, active.call->finish(code, false, stalled));
    }

    /// Posted tasks and due timers, in order; false once stopped.
    bool runTasks()
    {
        std::vector<std::function<void()>> tasks;
        {
            std::lock_guard lock(postedMutex);
            tasks.swap(posted);
        }
        for (auto &task : tasks) {
            if (stopping.load()) {
                return false;
            }
            task();
        }
        for (;;) {
            if (stopping.load()) {
                return false;
            }
            if (timers.empty() || timers.begin()->first.first > LoopClock::now()) {
                return true;
            }
            auto task = std::move(timers.begin()->second);
            timerDue.erase(timers.begin()->first.second);
            timers.erase(timers.begin());
            task();
        }
    }

    TransportOptions options;
    CURLM *multi = nullptr;
    Id nextId = 1;
    std::map<Id, std::unique_ptr<Active>> transfers;
    std::map<std::pair<LoopClock::time_point, Id>, std::function<void()>> timers;
    std::map<Id, LoopClock::time_point> timerDue;
    std::mutex postedMutex;
    std::vector<std::function<void()>> posted;
    std::atomic<bool> stopping{false};
};

CurlLoop::CurlLoop(TransportOptions options)
{
    detail::curlGlobalInit();
    d = std::make_unique<Private>(std::move(options));
}

CurlLoop::~CurlLoop() = default;

CurlLoop::Id CurlLoop::start(HttpRequest request, BodySink sink, Done done)
{
    const Id id = d->nextId++;
    auto active = std::make_unique<Private::Active>();
    active->request = std::move(request);
    active->sink = std::move(sink);
    active->done = std::move(done);
    // The loop ends transfers itself (abort(), stop()): the call's own token never fires.
    active->call = std::make_unique<detail::CurlCall>(
        d->options, active->request, CancelToken{}, active->sink ? &active->sink : nullptr);
    Private::Active &a = *active;
    d->transfers.emplace(id, std::move(active));

    // Failures before the transfer runs are reported from the loop, never from inside start().
    const auto failLater = [this, id](connectors::Error error) {
        after(std::chrono::milliseconds{0}, [this, id, error = std::move(error)]() mutable {
            d->complete(id, connectors::fail(std::move(error)));
        });
    };
    if (auto invalid = a.call->invalid()) {
        failLater(std::move(*invalid));
        return id;
    }
    a.easy = curl_easy_init();
    if (!d->multi || !a.easy) {
        failLater(
            connectors::Error::make(connectors::Error::Kind::Transport, "libcurl could not create a transfer handle"));
        return id;
    }
    if (auto error = a.call->attach(a.easy, nullptr)) {
        failLater(std::move(*error));
        return id;
    }
    curl_easy_setopt(a.easy, CURLOPT_PRIVATE, reinterpret_cast<char *>(static_cast<std::uintptr_t>(id)));
    if (curl_multi_add_handle(d->multi, a.easy) != CURLM_OK) {
        failLater(connectors::Error::make(connectors::Error::Kind::Transport, "libcurl could not start the transfer"));
    }
    return id;
}

void CurlLoop::abort(Id transfer)
{
    const auto it = d->transfers.find(transfer);
    if (it == d->transfers.end()) {
        return;
    }
    if (it->second->easy) {
        // Removing an unfinished transfer closes its connection.
        curl_multi_remove_handle(d->multi, it->second->easy);
        curl_easy_cleanup(it->second->easy);
    }
    d->transfers.erase(it);
}

CurlLoop::Id CurlLoop::after(std::chrono::milliseconds delay, std::function<void()> task)
{
    const Id id = d->nextId++;
    const auto due = LoopClock::now() + std::max(delay, std::chrono::milliseconds{0});
    d->timers.emplace(std::make_pair(due, id), std::move(task));
    d->timerDue.emplace(id, due);
    return id;
}

void CurlLoop::cancelTimer(Id timer)
{
    const auto it = d->timerDue.find(timer);
    if (it == d->timerDue.end()) {
        return;
    }
    d->timers.erase(std::make_pair(it->second, timer));
    d->timerDue.erase(it);
}

void CurlLoop::post(std::function<void()> task)
{
    {
        std::lock_guard lock(d->postedMutex);
        if (d->stopping.load()) {
            return;
        }
        d->posted.push_back(std::move(task));
    }
    if (d->multi) {
        curl_multi_wakeup(d->multi);
    }
}

void CurlLoop::stop()
{
    {
        std::lock_guard lock(d->postedMutex);
        d->stopping.store(true);
        d->posted.clear();
    }
    if (d->multi) {
        curl_multi_wakeup(d->multi);
    }
}

bool CurlLoop::isStopped() const
{
    return d->stopping.load();
}

std::size_t CurlLoop::activeTransfers() const
{
    return d->transfers.size();
}

const TransportOptions &CurlLoop::options() const
{
    return d->options;
}

void CurlLoop::run()
{
    while (d->runTasks()) {
        if (d->multi) {
            int running = 0;
            curl_multi_perform(d->multi, &running);
            std::vector<std::pair<Id, CURLcode>> ended;
            int queued = 0;
            while (CURLMsg *message = curl_multi_info_read(d->multi, &queued)) {
                if (message->msg != CURLMSG_DONE) {
                    continue;
                }
                char *privateData = nullptr;
                curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &privateData);
                ended.emplace_back(static_cast<Id>(reinterpret_cast<std::uintptr_t>(privateData)),
                                   message->data.result);
            }
            const auto now = LoopClock::now();
            std::vector<Id> stalled;
            for (const auto &[id, active] : d->transfers) {
                if (active->easy && active->call->stalled(now)) {
                    stalled.push_back(id);
                }
            }
            for (const auto &[id, code] : ended) {
                if (d->stopping.load()) {
                    break;
                }
                d->finishTransfer(id, code, false);
            }
            for (const Id id : stalled) {
                if (d->stopping.load()) {
                    break;
                }
                d->finishTransfer(id, CURLE_OK, true);
            }
        }
        if (d->stopping.load()) {
            break;
        }
        auto wait = kLoopCheckInterval;
        if (!d->timers.empty()) {
            const auto untilTimer = std::chrono::duration_cast<std::chrono::milliseconds>(d->timers.begin()->first.first
                                                                                          - LoopClock::now());
            wait = std::clamp(untilTimer + std::chrono::milliseconds{1}, std::chrono::milliseconds{0}, wait);
        }
        {
            std::lock_guard lock(d->postedMutex);
            if (!d->posted.empty() || d->stopping.load()) {
                continue;
            }
        }
        if (d->multi) {
            curl_multi_poll(d->multi, nullptr, 0, static_cast<int>(wait.count()), nullptr);
        }
    }
    d->dropTransfers();
    d->timers.clear();
    d->timerDue.clear();
}

} // namespace strata::http
