#include "connectors/kubernetes/reflector.h"

#include <algorithm>

namespace strata::kubernetes {

Reflector::Reflector(KubeClient &client, ResourceType type, Options options, BatchHandler onBatch, ErrorHandler onError)
    : m_client(client)
    , m_type(std::move(type))
    , m_options(std::move(options))
    , m_onBatch(std::move(onBatch))
    , m_onError(std::move(onError))
{}

Reflector::~Reflector()
{
    stop();
}

void Reflector::report(const connectors::Error &error)
{
    ++m_stats.errors;
    if (m_onError) {
        m_onError(error);
    }
}

void Reflector::resetBackoff()
{
    m_nextBackoff = std::chrono::milliseconds{0};
}

std::chrono::milliseconds Reflector::nextBackoff(int retryAfterSeconds)
{
    const auto floor = std::max(m_options.minBackoff, std::chrono::milliseconds{1});
    m_nextBackoff = m_nextBackoff.count() == 0 ? floor : std::min(m_nextBackoff * 2, m_options.maxBackoff);
    m_nextBackoff = std::max(m_nextBackoff, floor);
    auto delay = m_nextBackoff;
    if (retryAfterSeconds > 0) {
        delay = std::max(delay, std::chrono::milliseconds{std::chrono::seconds{retryAfterSeconds}});
    }
    return delay;
}

bool Reflector::backoff(const http::CancelToken &cancel, int retryAfterSeconds)
{
    const auto delay = nextBackoff(retryAfterSeconds);
    const http::Sleeper &sleep = m_options.sleeper;
    const bool slept = sleep ? sleep(delay, cancel) : cancel.sleepFor(delay);
    return slept && !cancel.isCancelled();
}

bool Reflector::takeList(Result<ListPage> list)
{
    if (!list) {
        if (list.error().kind != connectors::Error::Kind::Cancelled) {
            report(list.error());
        }
        return false;
    }
    ++m_stats.lists;
    for (const auto &problem : list->skipped) {
        report(connectors::Error::make(connectors::Error::Kind::Parse, problem, 200));
    }
    m_resourceVersion = list->resourceVersion;
    Batch batch;
    batch.replace = true;
    batch.upserts = std::move(list->items);
    batch.pods = std::move(list->pods);
    batch.resourceVersion = m_resourceVersion;
    m_onBatch(std::move(batch));
    return true;
}

bool Reflector::relist(const http::CancelToken &cancel)
{
    return takeList(m_client.listAll(m_type, m_options.list, cancel));
}

WatchOptions Reflector::watchOptions()
{
    WatchOptions watch;
    watch.namespace_ = m_options.list.namespace_;
    watch.labelSelector = m_options.list.labelSelector;
    watch.fieldSelector = m_options.list.fieldSelector;
    watch.resourceVersion = m_resourceVersion;
    watch.timeoutSeconds = m_options.watchTimeoutSeconds;
    watch.allowBookmarks = true;
    watch.decodePods = m_options.list.decodePods;
    watch.onSkipped = [this](const connectors::Error &error) {
        report(error);
    };
    return watch;
}

void Reflector::takeEvents(std::vector<WatchEvent> &events)
{
    Batch batch;
    for (auto &event : events) {
        if (event.pod) {
            if (!event.pod->resourceVersion.empty()) {
                m_resourceVersion = event.pod->resourceVersion;
            }
            if (event.type == WatchEvent::Type::Added || event.type == WatchEvent::Type::Modified) {
                batch.pods.push_back(std::move(*event.pod));
            } else if (event.type == WatchEvent::Type::Deleted) {
                batch.deletedKeys.push_back(event.pod->key());
            }
            continue;
        }
        if (const auto metadata = event.object.find("metadata");
            metadata != event.object.end() && metadata->is_object()) {
            const auto rv = metadata->find("resourceVersion");
            if (rv != metadata->end() && rv->is_string() && !rv->get<std::string>().empty()) {
                m_resourceVersion = rv->get<std::string>();
            }
        }
        switch (event.type) {
        case WatchEvent::Type::Added:
        case WatchEvent::Type::Modified:
            batch.upserts.push_back(std::move(event.object));
            break;
        case WatchEvent::Type::Deleted:
            batch.deletedKeys.push_back(objectKey(event.object));
            break;
        case WatchEvent::Type::Bookmark:
        case WatchEvent::Type::Error:
            break;
        }
    }
    if (!batch.upserts.empty() || !batch.pods.empty() || !batch.deletedKeys.empty()) {
        batch.resourceVersion = m_resourceVersion;
        m_onBatch(std::move(batch));
    }
}

Reflector::AfterWatch Reflector::afterWatch(const Result<WatchEnd> &end, bool delivered)
{
    if (!end) {
        if (end.error().kind == connectors::Error::Kind::Cancelled) {
            return AfterWatch::Stop;
        }
        report(end.error());
        return AfterWatch::BackoffWatch;
    }
    if (*end == WatchEnd::Expired) {
        return AfterWatch::Relist;
    }
    // Closed: watch again from the last resourceVersion. A stream that ended without
    // anything in it may be a server closing at once; do not spin on it.
    if (delivered) {
        resetBackoff();
        return AfterWatch::Watch;
    }
    return AfterWatch::BackoffWatch;
}

void Reflector::run(const http::CancelToken &cancel)
{
    bool needList = true;
    while (!cancel.isCancelled()) {
        if (needList) {
            if (!relist(cancel)) {
                if (!backoff(cancel)) {
                    return;
                }
                continue;
            }
            resetBackoff();
            needList = false;
        }

        bool delivered = false;
        ++m_stats.watches;
        auto end = m_client.watchBatches(
            m_type,
            watchOptions(),
            [&](std::vector<WatchEvent> &events) {
                takeEvents(events);
                delivered = true;
                return !cancel.isCancelled();
            },
            cancel);
        if (cancel.isCancelled()) {
            return;
        }
        switch (afterWatch(end, delivered)) {
        case AfterWatch::Stop:
            return;
        case AfterWatch::Relist:
            needList = true;
            break;
        case AfterWatch::Watch:
            break;
        case AfterWatch::BackoffWatch:
            if (!backoff(cancel, end ? -1 : end.error().retryAfterSeconds)) {
                return;
            }
            break;
        }
    }
}

void Reflector::start(http::CurlLoop &loop, const http::CancelToken &cancel)
{
    stop();
    m_loop = &loop;
    m_loopCancel = cancel;
    loopList();
}

void Reflector::stop()
{
    if (!m_loop) {
        return;
    }
    m_loop->abort(m_transfer);
    m_loop->cancelTimer(m_timer);
    m_transfer = m_timer = 0;
    m_pager.reset();
    m_decoder.reset();
    m_loop = nullptr;
}

void Reflector::loopSend(http::HttpRequest request, http::BodySink sink, http::CurlLoop::Done done, LoopTries tries)
{
    if (m_loopCancel.isCancelled()) {
        return;
    }
    auto authorized = m_client.authorize(request, m_loopCancel);
    if (!authorized) {
        done(connectors::fail(authorized.error()));
        return;
    }
    if (tries.sent++ == 0) {
        tries.started = std::chrono::steady_clock::now();
    }
    m_transfer = m_loop->start(
        std::move(*authorized),
        sink,
        [this, request = std::move(request), sink, done, tries](Result<http::HttpResponse> result) mutable {
            m_transfer = 0;
            // An exec plugin's token may have been revoked before its expiry: ask the plugin again.
            if (!tries.reauthorized && result && result->status == 401 && m_client.credentials().invalidate()) {
                tries.reauthorized = true;
                loopSend(std::move(request), std::move(sink), std::move(done), tries);
                return;
            }
            // A watch's failure goes to the cycle's backoff; a list page is retried as the client would.
            const auto elapsed =
                std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - tries.started);
            const auto delay =
                sink ? std::nullopt : http::retryDelay(request, result, m_client.retryPolicy(), tries.sent, elapsed);
            if (!delay) {
                done(std::move(result));
                return;
            }
            m_timer =
                m_loop->after(*delay, [this, request = std::move(request), done = std::move(done), tries]() mutable {
                    m_timer = 0;
                    loopSend(std::move(request), {}, std::move(done), tries);
                });
        });
}

void Reflector::loopBackoff(int retryAfterSeconds, void (Reflector::*next)())
{
    auto delay = nextBackoff(retryAfterSeconds);
    if (m_options.sleeper) {
        if (!m_options.sleeper(delay, m_loopCancel)) {
            return;
        }
        delay = std::chrono::milliseconds{0};
    }
    if (m_loopCancel.isCancelled()) {
        return;
    }
    m_timer = m_loop->after(delay, [this, next] {
        m_timer = 0;
        (this->*next)();
    });
}

void Reflector::loopList()
{
    m_pager.emplace(m_type, m_options.list);
    loopPage();
}

void Reflector::loopPage()
{
    loopSend(
        m_client.resolved(m_client.listRequest(m_type, m_pager->next())),
        {},
        [this](Result<http::HttpResponse> response) {
            auto page = KubeClient::listPageFrom(m_type, m_pager->next(), std::move(response));
            auto done = m_pager->take(std::move(page));
            if (!done) {
                loopPage();
                return;
            }
            m_pager.reset();
            if (!takeList(std::move(*done))) {
                loopBackoff(-1, &Reflector::loopList);
                return;
            }
            resetBackoff();
            loopWatch();
        },
        LoopTries{});
}

void Reflector::loopWatch()
{
    const WatchOptions options = watchOptions();
    m_decoder.emplace(m_type, options);
    m_delivered = false;
    ++m_stats.watches;
    const WatchBatchHandler onBatch = [this](std::vector<WatchEvent> &events) {
        takeEvents(events);
        m_delivered = true;
        return true;
    };
    loopSend(
        m_client.watchRequest(m_type, options),
        [this, onBatch](std::string_view chunk) {
            return m_decoder->feed(chunk, onBatch);
        },
        [this, onBatch](Result<http::HttpResponse> result) {
            const Result<WatchEnd> end = m_decoder->end(result, onBatch);
            m_decoder.reset();
            switch (afterWatch(end, m_delivered)) {
            case AfterWatch::Stop:
                return;
            case AfterWatch::Relist:
                loopList();
                return;
            case AfterWatch::Watch:
                loopWatch();
                return;
            case AfterWatch::BackoffWatch:
                loopBackoff(end ? -1 : end.error().retryAfterSeconds, &Reflector::loopWatch);
                return;
            }
        },
        LoopTries{});
}

} // namespace strata::kubernetes
