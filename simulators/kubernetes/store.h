#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace strata::sim::kube {

/// One stored object version: immutable once stored, shared by the store, the watch history and
/// the streams that still send it. `bytes` is the compact JSON served for it.
struct StoredObject
{
    std::shared_ptr<const nlohmann::json> json;
    std::string bytes;
    std::uint64_t rv = 0;

    [[nodiscard]] const nlohmann::json &obj() const { return *json; }
};
using ObjectPtr = std::shared_ptr<const StoredObject>;

enum class EventType
{
    Added,
    Modified,
    Deleted,
};

/// One change, as watches replay it. `previous` is the version before a MODIFIED (selector
/// transitions turn it into ADDED/DELETED for a filtered watch); for DELETED `object` is the last
/// version with the deletion's resourceVersion.
struct StoreEvent
{
    std::uint64_t rv = 0;
    int resource = 0;
    EventType type = EventType::Added;
    ObjectPtr object;
    ObjectPtr previous;
};

/// etcd's role: objects per resource type keyed "<namespace>/<name>" (or "<name>") in byte order,
/// one global resourceVersion counter, and a bounded history of changes for watches.
///
/// Compaction: a watch may resume from any resourceVersion >= watchFloor() (all later changes are
/// kept); a continue token is valid while its resourceVersion >= compactedRv(). The history drops its
/// oldest change beyond `historyLimit` (raising watchFloor()); compact() drops it all and raises both.
class ObjectStore final
{
public:
    using Listener = std::function<void(const StoreEvent &)>;

    /// `clockMs` gives the simulated time (ms since the epoch) used for creationTimestamp.
    ObjectStore(std::size_t historyLimit, std::function<std::int64_t()> clockMs, std::uint64_t seed);
    ~ObjectStore();
    ObjectStore(const ObjectStore &) = delete;
    ObjectStore &operator=(const ObjectStore &) = delete;

    static std::string key(const std::string &ns, const std::string &name)
    {
        return ns.empty() ? name : ns + '/' + name;
    }

    [[nodiscard]] std::uint64_t currentRv() const { return m_rv; }
    [[nodiscard]] std::uint64_t watchFloor() const { return m_watchFloor; }
    [[nodiscard]] std::uint64_t compactedRv() const { return m_compactedRv; }
    [[nodiscard]] const std::deque<StoreEvent> &history() const { return m_history; }

    [[nodiscard]] ObjectPtr get(int resource, const std::string &ns, const std::string &name) const;
    [[nodiscard]] const std::map<std::string, ObjectPtr> &all(int resource) const;
    [[nodiscard]] std::size_t count(int resource) const { return all(resource).size(); }

    /// Stores a new object (the caller checked it does not exist): sets metadata.uid (unless set),
    /// resourceVersion, creationTimestamp (unless set), generation 1 when the kind has a spec.
    ObjectPtr create(int resource, nlohmann::json object);
    /// Bulk loading: stores `object` whose compact JSON the caller rendered itself (`render` gets
    /// the uid, resourceVersion and creationTimestamp the store assigns and returns the bytes, which
    /// must equal object.dump() with those set). Skips nlohmann's serializer, the cost of 50,000 pods.
    ObjectPtr createRendered(
        int resource,
        nlohmann::json object,
        const std::function<std::string(
            const std::string &uid, const std::string &resourceVersion, const std::string &creationTimestamp)> &render);
    /// Replaces an existing object: bumps resourceVersion, keeps uid and creationTimestamp.
    ObjectPtr replace(int resource, nlohmann::json object);
    /// Removes an object; returns its last version (with a fresh resourceVersion), or nullptr.
    ObjectPtr remove(int resource, const std::string &ns, const std::string &name);

    /// Called after every change (watch fan-out), on the caller's thread.
    void setListener(Listener listener) { m_listener = std::move(listener); }
    /// While false, changes are not recorded nor announced (bulk loading of the scale preset).
    void setRecording(bool recording) { m_recording = recording; }
    /// Forgets all history: older watches and continue tokens get 410 Gone.
    void compact();

    /// A random RFC 4122 v4 uid from the store's seeded generator.
    std::string newUid();
    /// RFC 3339 UTC with seconds, the simulated now.
    [[nodiscard]] std::string timestamp() const;
    [[nodiscard]] static std::string timestamp(std::int64_t msSinceEpoch);
    [[nodiscard]] std::int64_t nowMs() const { return m_clockMs(); }
    /// Random suffix for generateName ("x7k2q").
    std::string randomSuffix(int length = 5);

private:
    ObjectPtr make(nlohmann::json object);
    void record(StoreEvent event);

    std::vector<std::map<std::string, ObjectPtr>> m_objects;
    std::deque<StoreEvent> m_history;
    std::size_t m_historyLimit;
    std::function<std::int64_t()> m_clockMs;
    std::mt19937_64 m_rng;
    Listener m_listener;
    std::uint64_t m_rv = 1;
    std::uint64_t m_watchFloor = 1;
    std::uint64_t m_compactedRv = 1;
    bool m_recording = true;
};

} // namespace strata::sim::kube
