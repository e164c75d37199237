#include "simulators/kubernetes/store.h"

#include "simulators/kubernetes/resources.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <ctime>

namespace strata::sim::kube {

using nlohmann::json;

ObjectStore::ObjectStore(std::size_t historyLimit, std::function<std::int64_t()> clockMs, std::uint64_t seed)
    : m_objects(RResourceCount)
    , m_historyLimit(historyLimit)
    , m_clockMs(std::move(clockMs))
    , m_rng(seed)
{}

ObjectStore::~ObjectStore() = default;

ObjectPtr ObjectStore::get(int resource, const std::string &ns, const std::string &name) const
{
    const auto &objects = m_objects[static_cast<std::size_t>(resource)];
    const auto it = objects.find(key(ns, name));
    return it == objects.end() ? nullptr : it->second;
}

const std::map<std::string, ObjectPtr> &ObjectStore::all(int resource) const
{
    return m_objects[static_cast<std::size_t>(resource)];
}

ObjectPtr ObjectStore::make(json object)
{
    auto stored = std::make_shared<StoredObject>();
    stored->rv = ++m_rv;
    object["metadata"]["resourceVersion"] = std::to_string(stored->rv);
    stored->bytes = object.dump();
    stored->json = std::make_shared<const json>(std::move(object));
    return stored;
}

ObjectPtr ObjectStore::create(int resource, json object)
{
    json &meta = object["metadata"];
    if (!meta.contains("uid") || !meta["uid"].is_string()) {
        meta["uid"] = newUid();
    }
    if (!meta.contains("creationTimestamp") || !meta["creationTimestamp"].is_string()) {
        meta["creationTimestamp"] = timestamp();
    }
    if (object.contains("spec") && !meta.contains("generation")) {
        meta["generation"] = 1;
    }
    const std::string k = key(meta.value("namespace", std::string()), meta.value("name", std::string()));
    ObjectPtr stored = make(std::move(object));
    m_objects[static_cast<std::size_t>(resource)][k] = stored;
    record(StoreEvent{stored->rv, resource, EventType::Added, stored, nullptr});
    return stored;
}

ObjectPtr ObjectStore::createRendered(
    int resource,
    json object,
    const std::function<std::string(const std::string &, const std::string &, const std::string &)> &render)
{
    json &meta = object["metadata"];
    const std::string uid = newUid();
    const std::string created = timestamp();
    auto stored = std::make_shared<StoredObject>();
    stored->rv = ++m_rv;
    const std::string rv = std::to_string(stored->rv);
    meta["uid"] = uid;
    meta["creationTimestamp"] = created;
    meta["resourceVersion"] = rv;
    const std::string k = key(meta.value("namespace", std::string()), meta.value("name", std::string()));
    stored->bytes = render(uid, rv, created);
    stored->json = std::make_shared<const json>(std::move(object));
    m_objects[static_cast<std::size_t>(resource)][k] = stored;
    record(StoreEvent{stored->rv, resource, EventType::Added, stored, nullptr});
    return stored;
}

ObjectPtr ObjectStore::replace(int resource, json object)
{
    json &meta = object["metadata"];
    const std::string k = key(meta.value("namespace", std::string()), meta.value("name", std::string()));
    auto &objects = m_objects[static_cast<std::size_t>(resource)];
    const auto it = objects.find(k);
    if (it == objects.end()) {
        return create(resource, std::move(object));
    }
    const json &old = it->second->obj()["metadata"];
    meta["uid"] = old.value("uid", std::string());
    meta["creationTimestamp"] = old.value("creationTimestamp", std::string());
    if (old.contains("generation")) {
        const bool specChanged = object.value("spec", json()) != it->second->obj().value("spec", json());
        meta["generation"] = old["generation"].get<std::int64_t>() + (specChanged ? 1 : 0);
    }
    ObjectPtr previous = it->second;
    ObjectPtr stored = make(std::move(object));
    it->second = stored;
    record(StoreEvent{stored->rv, resource, EventType::Modified, stored, previous});
    return stored;
}

ObjectPtr ObjectStore::remove(int resource, const std::string &ns, const std::string &name)
{
    auto &objects = m_objects[static_cast<std::size_t>(resource)];
    const auto it = objects.find(key(ns, name));
    if (it == objects.end()) {
        return nullptr;
    }
    ObjectPtr previous = it->second;
    objects.erase(it);
    // The DELETED event carries the deletion's resourceVersion, as the real server's does.
    ObjectPtr last = make(previous->obj());
    record(StoreEvent{last->rv, resource, EventType::Deleted, last, previous});
    return last;
}

void ObjectStore::record(StoreEvent event)
{
    if (!m_recording) {
        m_watchFloor = m_rv;
        return;
    }
    m_history.push_back(event);
    while (m_history.size() > m_historyLimit) {
        m_watchFloor = m_history.front().rv;
        m_history.pop_front();
    }
    if (m_listener) {
        m_listener(event);
    }
}

void ObjectStore::compact()
{
    // A new revision marks the compaction, so every token issued before it is older than it.
    ++m_rv;
    m_history.clear();
    m_watchFloor = m_rv;
    m_compactedRv = m_rv;
}

std::string ObjectStore::newUid()
{
    const std::uint64_t a = m_rng();
    const std::uint64_t b = m_rng();
    char buf[40];
    std::snprintf(buf,
                  sizeof buf,
                  "%08x-%04x-4%03x-%04x-%012llx",
                  static_cast<unsigned>(a >> 32),
                  static_cast<unsigned>((a >> 16) & 0xffff),
                  static_cast<unsigned>(a & 0xfff),
                  static_cast<unsigned>(0x8000 | ((b >> 48) & 0x3fff)),
                  static_cast<unsigned long long>(b & 0xffffffffffffULL));
    return buf;
}

std::string ObjectStore::timestamp() const
{
    return timestamp(m_clockMs());
}

std::string ObjectStore::timestamp(std::int64_t msSinceEpoch)
{
    const std::time_t t = static_cast<std::time_t>(msSinceEpoch / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string ObjectStore::randomSuffix(int length)
{
    // The alphabet of k8s.io/apimachinery/pkg/util/rand (no vowels, no confusable digits).
    static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
    std::string out;
    for (int i = 0; i < length; ++i) {
        out += alphabet[m_rng() % (sizeof alphabet - 1)];
    }
    return out;
}

} // namespace strata::sim::kube
