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

bool Reflector::backoff(const http::CancelToken &cancel, int retryAfterSeconds)
{
    const auto floor = std::max(m_options.minBackoff, std::chrono::milliseconds{1});
    m_nextBackoff = m_nextBackoff.count() == 0 ? floor : std::min(m_nextBackoff * 2, m_options.maxBackoff);
    m_nextBackoff = std::max(m_nextBackoff, floor);
    auto delay = m_nextBackoff;
    if (retryAfterSeconds > 0) {
        delay = std::max(delay, std::chrono::milliseconds{std::chrono::seconds{retryAfterSeconds}});
    }
    const http::Sleeper &sleep = m_options.sleeper;
    const bool slept = sleep ? sleep(delay, cancel) : cancel.sleepFor(delay);
    return slept && !cancel.isCancelled();
}

bool Reflector::relist(const http::CancelToken &cancel)
{
    auto list = m_client.listAll(m_type, m_options.list, cancel);
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
    batch.resourceVersion = m_resourceVersion;
    m_onBatch(std::move(batch));
    return true;
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

        WatchOptions watch;
        watch.namespace_ = m_options.list.namespace_;
        watch.labelSelector = m_options.list.labelSelector;
        watch.fieldSelector = m_options.list.fieldSelector;
        watch.resourceVersion = m_resourceVersion;
        watch.timeoutSeconds = m_options.watchTimeoutSeconds;
        watch.allowBookmarks = true;
        watch.onSkipped = [this](const connectors::Error &error) {
            report(error);
        };
        bool delivered = false;
        ++m_stats.watches;
        auto end = m_client.watchBatches(
            m_type,
            watch,
            [&](std::vector<WatchEvent> &events) {
                Batch batch;
                for (auto &event : events) {
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
                delivered = true;
                if (!batch.upserts.empty() || !batch.deletedKeys.empty()) {
                    batch.resourceVersion = m_resourceVersion;
                    m_onBatch(std::move(batch));
                }
                return !cancel.isCancelled();
            },
            cancel);
        if (cancel.isCancelled()) {
            return;
        }
        if (!end) {
            report(end.error());
            if (!backoff(cancel, end.error().retryAfterSeconds)) {
                return;
            }
            continue;
        }
        if (*end == WatchEnd::Expired) {
            needList = true;
            continue;
        }
        // Closed: watch again from the last resourceVersion. A stream that ended without
        // anything in it may be a server closing at once; do not spin on it.
        if (delivered) {
            resetBackoff();
        } else if (!backoff(cancel)) {
            return;
        }
    }
}

} // namespace strata::kubernetes
