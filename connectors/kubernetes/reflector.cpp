#include "connectors/kubernetes/reflector.h"

#include <nlohmann/json.hpp>

namespace strata::kubernetes {

Reflector::Reflector(KubeClient &client, ResourceType type, Options options, BatchHandler onBatch, ErrorHandler onError)
    : m_client(client)
    , m_type(std::move(type))
    , m_options(std::move(options))
    , m_onBatch(std::move(onBatch))
    , m_onError(std::move(onError))
{}

void Reflector::run(const http::CancelToken &cancel)
{
    while (!cancel.isCancelled()) {
        cancel.sleepFor(std::chrono::milliseconds{100});
    }
}

} // namespace strata::kubernetes
