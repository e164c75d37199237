#pragma once

#include "connectors/http/curltransport.h"
#include "connectors/http/retry.h"
#include "connectors/http/transport.h"
#include "connectors/kubernetes/dto.h"
#include "connectors/kubernetes/kubeconfig.h"

// WatchEvent holds a json by value, so the full type is needed here.
#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::kubernetes {

/// A REST resource of the API server: core group when `group` is empty (/api/v1), else
/// /apis/<group>/<version>.
///
/// The constants below name the version Strata reads first. Optional resources (CRDs, groups a
/// cluster may lack) must be resolved against the server with Discovery::resolve(), which
/// picks the version that really serves the resource among `version` and `olderVersions`.
struct ResourceType
{
    std::string group;
    std::string version;
    std::string plural;
    std::string kind;
    bool namespaced = true;
    /// Further versions whose objects Strata reads the same way (same schema for the fields
    /// Strata uses), newest first; empty = only `version`.
    std::vector<std::string> olderVersions{};

    /// "v1" or "batch/v1".
    [[nodiscard]] std::string apiVersion() const;
    /// "pods", "jobs.batch", "queues.scheduling.run.ai" (kubectl's resource.group), for messages.
    [[nodiscard]] std::string displayName() const;
    /// `version` followed by `olderVersions`.
    [[nodiscard]] std::vector<std::string> readableVersions() const;
};

inline const ResourceType kNodes{"", "v1", "nodes", "Node", false, {}};
inline const ResourceType kNamespaces{"", "v1", "namespaces", "Namespace", false, {}};
inline const ResourceType kPods{"", "v1", "pods", "Pod", true, {}};
inline const ResourceType kJobs{"batch", "v1", "jobs", "Job", true, {}};
inline const ResourceType kEvents{"", "v1", "events", "Event", true, {}};
inline const ResourceType kResourceQuotas{"", "v1", "resourcequotas", "ResourceQuota", true, {}};
inline const ResourceType kPvcs{"", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", true, {}};
inline const ResourceType kPvs{"", "v1", "persistentvolumes", "PersistentVolume", false, {}};
inline const ResourceType kStorageClasses{"storage.k8s.io", "v1", "storageclasses", "StorageClass", false, {}};
/// external-snapshotter served v1beta1 (same spec/status fields) before v1 (v4.0, 2021).
inline const ResourceType kVolumeSnapshots{
    "snapshot.storage.k8s.io", "v1", "volumesnapshots", "VolumeSnapshot", true, {"v1beta1"}};
/// KAI Scheduler queues (Run:ai projects), cluster-scoped; KAI's CRD serves them in v2 only.
inline const ResourceType kQueues{"scheduling.run.ai", "v2", "queues", "Queue", false, {}};
/// KAI PodGroups; KAI's CRD serves them in v2alpha2 only, although the group's preferred
/// version is v2 (where the queues are): resolve, never assume the group's version.
inline const ResourceType kPodGroups{"scheduling.run.ai", "v2alpha2", "podgroups", "PodGroup", true, {}};
inline const ResourceType kConfigMaps{"", "v1", "configmaps", "ConfigMap", true, {}};
inline const ResourceType kSecrets{"", "v1", "secrets", "Secret", true, {}};

/// DELETE propagationPolicy: what happens to dependents (a Job's pods).
enum class Propagation
{
    Background, ///< the object goes at once, the garbage collector removes dependents afterwards
    Foreground, ///< dependents first, then the object
    Orphan,     ///< dependents stay
};

/// GET /version.
struct VersionInfo
{
    std::string major, minor; ///< "1", "34" (minor may carry a "+")
    std::string gitVersion;   ///< "v1.34.1"
    std::string platform;     ///< "linux/amd64"
};

/// One resource of a group version as GET /apis/<group>/<version> (an APIResourceList) lists
/// it. Subresources ("pods/status") are left out.
struct ApiResourceInfo
{
    std::string name; ///< plural, "podgroups"
    std::string kind; ///< "PodGroup"
    bool namespaced = true;
    std::vector<std::string> verbs; ///< "get", "list", "watch", ...
};

/// One API group as /apis lists it, with the resources of the versions that were read.
struct ApiGroupInfo
{
    std::string name;                  ///< "batch", "scheduling.run.ai"
    std::vector<std::string> versions; ///< served versions, in the server's order (priority)
    std::string preferredVersion;
    /// Resources per version, for the versions whose APIResourceList was read (see
    /// KubeClient::discover()); a version missing here was not read or failed.
    std::map<std::string, std::vector<ApiResourceInfo>> resources{};
    /// Versions whose APIResourceList could not be read: the error message.
    std::map<std::string, std::string> resourceErrors{};
};

/// What the server serves: the core group (always v1) plus /apis, and for the groups asked
/// for, each version's resources.
struct Discovery
{
    enum class Support
    {
        Served,          ///< a version Strata reads serves the resource (see resolve())
        GroupMissing,    ///< the group is not served at all (e.g. no KAI installed)
        UnknownVersion,  ///< the group (or the resource) is served, but only in versions Strata cannot read
        ResourceMissing, ///< the group is served, but none of its versions lists the resource
        NotDiscovered,   ///< the resource lists of the group were not read, or reading them failed
    };

    std::vector<ApiGroupInfo> groups; ///< without the core group

    /// `type` at the version that serves it: the group's preferred version if Strata reads it
    /// and it lists the resource, else the first other served version (server order) that
    /// Strata reads and that lists it. Core types resolve to themselves when they are v1.
    /// nullopt when not served (see support() and explain()).
    [[nodiscard]] std::optional<ResourceType> resolve(const ResourceType &type) const;
    [[nodiscard]] Support support(const ResourceType &type) const;
    [[nodiscard]] bool serves(const ResourceType &type) const { return resolve(type).has_value(); }
    /// Empty when served; else a sentence for the user naming the resource, e.g.
    /// `queues.scheduling.run.ai is served only in versions v2alpha1, v1; Strata reads v2
    /// (unknown CRD version)`, `the API server does not serve scheduling.run.ai (KAI Scheduler
    /// not installed?)` or `scheduling.run.ai is served, but no version Strata reads (v2alpha2)
    /// serves podgroups (CRD podgroups.scheduling.run.ai not installed?)`.
    [[nodiscard]] std::string explain(const ResourceType &type) const;
    [[nodiscard]] const ApiGroupInfo *group(const std::string &name) const;
};

/// Parses an APIResourceList body (GET /apis/<group>/<version> or /api/v1); subresources and
/// entries without a name are skipped. Kind::Parse when it has no "resources" array.
Result<std::vector<ApiResourceInfo>> parseApiResourceList(const std::string &body, const std::string &what);

/// Options of one list call. Namespaced types list one namespace when `namespace_` is set, all
/// namespaces otherwise; cluster-scoped types ignore it.
struct ListOptions
{
    std::string namespace_{};
    std::string labelSelector{};
    std::string fieldSelector{};
    /// Page size (limit=); 0 = let the server decide (no limit parameter).
    int limit = 500;
    /// listPage(): continue token from the previous page.
    std::string continueToken{};
    /// resourceVersion= (e.g. "0" for the watch cache); empty = most recent (quorum read).
    std::string resourceVersion{};
    /// kPods only (ignored for other types): decode the items into ListPage::pods, straight from
    /// the text (podstream.h), instead of one nlohmann::json per item into ListPage::items.
    bool decodePods = false;
    /// With decodePods: each page's pods are handed here as the page arrives instead of being
    /// kept in ListPage::pods until the last page; `first` is set for the first page of a list
    /// (or of a list started again after its continue token expired: drop what earlier pages
    /// gave). Lets a caller keep 100,000 pods in a smaller form than PodDto while the list is
    /// read. Called on the thread that reads the list, before the list's result.
    std::function<void(std::vector<PodDto> &&pods, bool first)> podPages{};
};

/// One page of a list. Items are the raw objects, each with `kind` and `apiVersion` filled in
/// (the server omits them in lists), in server order.
struct ListPage
{
    std::vector<nlohmann::json> items; ///< empty with ListOptions::decodePods
    /// With ListOptions::decodePods: the items as parsePod() reads them (a page the streaming
    /// decoder leaves alone goes through parsePod(); an item it rejects is in `skipped`).
    std::vector<PodDto> pods;
    std::string resourceVersion; ///< the list's metadata.resourceVersion: watch from here
    std::string continueToken;   ///< empty on the last page
    /// Items dropped because they were not objects with metadata.name: one sentence each.
    std::vector<std::string> skipped;
};

struct WatchOptions
{
    std::string namespace_{}; ///< as ListOptions
    std::string labelSelector{};
    std::string fieldSelector{};
    /// Start from this resourceVersion (the list's or the last event's); empty = "now".
    std::string resourceVersion{};
    /// Server-side end of the stream (the server closes it, and the caller re-watches); 0 = none.
    int timeoutSeconds = 300;
    bool allowBookmarks = true;
    /// Called for each line that is not a valid watch event (Kind::Parse); the stream goes on.
    std::function<void(const connectors::Error &)> onSkipped{};
    /// As ListOptions::decodePods: events carry WatchEvent::pod instead of WatchEvent::object.
    bool decodePods = false;
};

struct WatchEvent
{
    /// Error events end the watch and are not delivered: a Status with code 410 becomes
    /// WatchEnd::Expired, any other becomes an Api error.
    enum class Type
    {
        Added,
        Modified,
        Deleted,
        Bookmark,
        Error
    } type = Type::Added;
    /// The object (with kind/apiVersion); for a Bookmark only kind, apiVersion and
    /// metadata.resourceVersion (+ annotations) are meaningful. null with decodePods.
    nlohmann::json object;
    /// With WatchOptions::decodePods: the pod as parsePod() reads it (a Bookmark's has only its
    /// resourceVersion and annotations).
    std::optional<PodDto> pod;
};

/// How a watch ended without an error.
enum class WatchEnd
{
    Closed,  ///< the server ended the stream (timeoutSeconds, dropped connection), or the handler
             ///< returned false: re-watch from the last resourceVersion seen
    Expired, ///< 410 Gone (HTTP status or ERROR event): the resourceVersion is too old, re-list
};

class PodStreamDecoder;

/// All complete events of one received chunk, in order; return false to stop watching.
using WatchBatchHandler = std::function<bool(std::vector<WatchEvent> &events)>;

/// Turns a watch body into events as KubeClient::watchBatches() does, for callers that drive
/// the transfer themselves (an event loop): feed() every received chunk, then end() with the
/// transfer's outcome. Not thread-safe; one decoder per watch request.
class WatchDecoder
{
public:
    /// Uses options.namespace_ (for messages) and options.onSkipped.
    WatchDecoder(ResourceType type, const WatchOptions &options);
    /// Hands the complete events of `chunk` to `onBatch` (a line split across chunks is joined).
    /// false = end the transfer (an ERROR event, or `onBatch` returned false).
    bool feed(std::string_view chunk, const WatchBatchHandler &onBatch);
    /// How the watch ended, given what the transport returned (see KubeClient::watch()); a last
    /// event without its newline is delivered first.
    Result<WatchEnd> end(const Result<http::HttpResponse> &result, const WatchBatchHandler &onBatch);

private:
    void skip(const std::string &message);
    bool takeLine(std::string_view line);

    ResourceType m_type;
    std::string m_what;
    std::function<void(const connectors::Error &)> m_onSkipped;
    /// Set with WatchOptions::decodePods (shared: the decoder stays movable with it incomplete).
    std::shared_ptr<PodStreamDecoder> m_pods;
    std::string m_buffer;
    std::vector<WatchEvent> m_events;
    std::optional<connectors::Error> m_streamError;
    bool m_gotBytes = false;
    bool m_expired = false;
    bool m_stoppedByHandler = false;
};

/// The paging of KubeClient::listAll() for callers that send the pages themselves: request
/// next(), hand its outcome to take(), until take() returns the whole list or an error.
class ListPager
{
public:
    ListPager(ResourceType type, ListOptions options);
    /// Options of the page to request next (continueToken set after the first page).
    [[nodiscard]] const ListOptions &next() const { return m_options; }
    /// nullopt = request next() again (another page, or a restart after the continue token
    /// expired, once); else the complete list (resourceVersion of its first page) or the error.
    std::optional<Result<ListPage>> take(Result<ListPage> page);

private:
    ResourceType m_type;
    ListOptions m_options;
    ListPage m_all;
    bool m_first = true;
    bool m_restarted = false;
};

struct KubeClientOptions
{
    http::RetryPolicy retry;
    http::Sleeper sleeper; ///< empty = realSleeper()
    /// Runs exec plugins (tests); empty = runExecPlugin.
    CredentialProvider::Runner execRunner;
    /// Per-request timeout for non-watch calls (lists of many thousands of pods take a while).
    std::chrono::milliseconds requestTimeout{60'000};
};

/// Blocking client of the Kubernetes API server. Plain C++, errors as values, thread-safe when
/// the transport is (calls share only the credential cache).
///
/// TLS settings of the endpoint (CA, client certificate, insecure-skip-tls-verify) belong to the
/// transport: build the CurlTransport with transportOptions(endpoint). Credentials are added per
/// request: `Authorization: Bearer` for a token, the client identity of an exec plugin per
/// request. After a 401 with exec credentials the plugin is run again and the request repeated
/// once.
///
/// Errors:
/// - transport failures pass through (connection refused -> Kind::Transport, Kind::Tls, ...);
/// - 401/403 -> Kind::Auth; a Status body -> Kind::Api with apiCode = reason ("NotFound",
///   "AlreadyExists", "Expired") and message "<what>: <Status message>"; other non-2xx ->
///   Kind::Http; 404 of a whole resource type adds that the server does not serve it;
/// - 2xx with malformed JSON -> Kind::Parse.
/// GET/LIST (and DELETE, which is idempotent here) are retried per `retry` on 429/5xx/transport
/// errors, honouring Retry-After through the sleeper; POST and PATCH are sent once.
class KubeClient
{
public:
    KubeClient(http::IHttpTransport &transport,
               ClusterEndpoint endpoint,
               http::RetryPolicy retry = {},
               http::Sleeper sleeper = {});
    KubeClient(http::IHttpTransport &transport, ClusterEndpoint endpoint, KubeClientOptions options);
    ~KubeClient();
    KubeClient(const KubeClient &) = delete;
    KubeClient &operator=(const KubeClient &) = delete;

    Result<VersionInfo> version(const http::CancelToken &cancel);
    /// GET /apis (the group list); the core group is implied. No resource lists are read, so
    /// non-core types are NotDiscovered (or GroupMissing/UnknownVersion): use the overload below
    /// to resolve them.
    Result<Discovery> discover(const http::CancelToken &cancel);
    /// GET /apis, then GET /apis/<group>/<version> (APIResourceList, as kubectl discovers) for
    /// every served version of each group that one of `types` belongs to, so Discovery::resolve()
    /// knows which version serves which resource. A resource list that fails (404, 503 of an
    /// aggregated API, timeout) is recorded in ApiGroupInfo::resourceErrors and does not fail the
    /// discovery; only /apis failing or cancellation does.
    Result<Discovery> discover(const http::CancelToken &cancel, const std::vector<ResourceType> &types);
    /// GET /apis/<group>/<version> (/api/v1 for the core group).
    Result<std::vector<ApiResourceInfo>>
    apiResources(const std::string &group, const std::string &version, const http::CancelToken &cancel);

    Result<ListPage> listPage(const ResourceType &type, const ListOptions &options, const http::CancelToken &cancel);
    /// The GET of one list page, its URL relative to the server (complete it with resolved()).
    [[nodiscard]] http::HttpRequest listRequest(const ResourceType &type, const ListOptions &options) const;
    /// A list page from the answer to listRequest(type, options), errors worded as listPage().
    static Result<ListPage>
    listPageFrom(const ResourceType &type, const ListOptions &options, Result<http::HttpResponse> response);
    /// The watch GET of watch(), absolute, without credentials (add them with authorize()).
    [[nodiscard]] http::HttpRequest watchRequest(const ResourceType &type, const WatchOptions &options) const;
    /// `request` with the server's URL, Accept: application/json and the request timeout, unless
    /// it has them.
    [[nodiscard]] http::HttpRequest resolved(http::HttpRequest request) const;
    /// `request` with the current credentials (a bearer token, or an exec plugin's, running the
    /// plugin when its credential expired: blocking). After a 401, credentials().invalidate()
    /// and authorize again, once.
    Result<http::HttpRequest> authorize(http::HttpRequest request, const http::CancelToken &cancel);
    /// Follows continue tokens until the last page (options.continueToken is ignored). A 410 on
    /// an expired continue token restarts the whole list once; a second 410 is returned. The
    /// result's resourceVersion is the first page's (the snapshot all pages belong to).
    Result<ListPage> listAll(const ResourceType &type, const ListOptions &options, const http::CancelToken &cancel);

    /// Streams watch events (watch=1, allowWatchBookmarks, timeoutSeconds) until the server ends
    /// the stream, the handler returns false, or `cancel` fires (-> Kind::Cancelled). Events are
    /// newline-delimited JSON; a line split across chunks is joined. A connection that drops after
    /// the stream started ends as Closed (re-watch from the last RV); failures before that are
    /// errors (429 is not retried here: the caller backs off).
    Result<WatchEnd> watch(const ResourceType &type,
                           const WatchOptions &options,
                           const std::function<bool(WatchEvent)> &onEvent,
                           const http::CancelToken &cancel);
    /// As watch(), delivering the complete events of each received chunk together.
    Result<WatchEnd> watchBatches(const ResourceType &type,
                                  const WatchOptions &options,
                                  const WatchBatchHandler &onBatch,
                                  const http::CancelToken &cancel);

    /// `ns` is ignored for cluster-scoped types.
    Result<nlohmann::json>
    get(const ResourceType &type, const std::string &ns, const std::string &name, const http::CancelToken &cancel);
    /// POST, never retried (a lost answer sets outcomeUnknown).
    Result<nlohmann::json> create(const ResourceType &type,
                                  const std::string &ns,
                                  const nlohmann::json &object,
                                  const http::CancelToken &cancel);
    /// DELETE with propagationPolicy=Background; 404 counts as success (already gone).
    Result<void>
    remove(const ResourceType &type, const std::string &ns, const std::string &name, const http::CancelToken &cancel);
    /// PATCH application/merge-patch+json, never retried.
    Result<nlohmann::json> mergePatch(const ResourceType &type,
                                      const std::string &ns,
                                      const std::string &name,
                                      const nlohmann::json &patch,
                                      const http::CancelToken &cancel);

    /// PUT of a whole object, never retried. With metadata.resourceVersion set the server
    /// refuses a stale write: 409 -> Kind::Api, apiCode "Conflict", httpStatus 409 (re-read and
    /// re-apply). A 404 is apiCode "NotFound".
    Result<nlohmann::json> replace(const ResourceType &type,
                                   const std::string &ns,
                                   const std::string &name,
                                   const nlohmann::json &object,
                                   const http::CancelToken &cancel);
    /// DELETE with the given propagation; 404 counts as success (already gone).
    Result<void> remove(const ResourceType &type,
                        const std::string &ns,
                        const std::string &name,
                        Propagation propagation,
                        const http::CancelToken &cancel);

    // Typed shorthands (cached commits: state ConfigMaps, loader/evictor Jobs, their pods' logs).
    // Objects are raw JSON as the server returns them; parse with dto.h. Errors as above: a
    // missing object is Kind::Api with apiCode "NotFound" (httpStatus 404), an existing name on
    // create is apiCode "AlreadyExists" (httpStatus 409), a stale resourceVersion on replace is
    // apiCode "Conflict" (httpStatus 409).

    /// GET /api/v1/namespaces/{ns}/configmaps/{name}.
    Result<nlohmann::json>
    getConfigMap(const std::string &ns, const std::string &name, const http::CancelToken &cancel);
    /// POST a ConfigMap (`configMap` with metadata.name; kind/apiVersion may be omitted).
    Result<nlohmann::json>
    createConfigMap(const std::string &ns, const nlohmann::json &configMap, const http::CancelToken &cancel);
    /// PUT a ConfigMap; carry the resourceVersion read last so a concurrent writer gets a 409.
    Result<nlohmann::json> replaceConfigMap(const std::string &ns,
                                            const std::string &name,
                                            const nlohmann::json &configMap,
                                            const http::CancelToken &cancel);
    /// ConfigMaps of a namespace (all namespaces when empty) matching `labelSelector` (all pages).
    Result<ListPage>
    listConfigMaps(const std::string &ns, const std::string &labelSelector, const http::CancelToken &cancel);
    /// POST a batch/v1 Job. Never retried: a lost answer sets outcomeUnknown; a repeat with the
    /// same name answers AlreadyExists, which callers with deterministic names treat as submitted.
    Result<nlohmann::json> createJob(const std::string &ns, const nlohmann::json &job, const http::CancelToken &cancel);
    /// DELETE a Job (Background by default, so its pods go too); 404 counts as success.
    Result<void> deleteJob(const std::string &ns,
                           const std::string &name,
                           const http::CancelToken &cancel,
                           Propagation propagation = Propagation::Background);
    /// Jobs of a namespace (all namespaces when empty) matching `labelSelector` (all pages).
    Result<ListPage> listJobs(const std::string &ns, const std::string &labelSelector, const http::CancelToken &cancel);
    /// Pods of a namespace (all namespaces when empty) matching `labelSelector` (all pages).
    Result<ListPage> listPods(const std::string &ns, const std::string &labelSelector, const http::CancelToken &cancel);
    /// GET /api/v1/namespaces/{ns}/pods/{pod}/log: the pod's (first container's) log as text.
    /// `tailLines` > 0 = only the last that many lines; 0 = the whole log. A pod whose container
    /// has not started yet answers 400 (Kind::Api, apiCode "BadRequest", the server's message,
    /// e.g. `container "x" in pod "y" is waiting to start: ContainerCreating`).
    Result<std::string>
    podLog(const std::string &ns, const std::string &pod, int tailLines, const http::CancelToken &cancel);

    [[nodiscard]] const ClusterEndpoint &endpoint() const { return m_endpoint; }
    /// How GETs are retried (see http::retryDelay()).
    [[nodiscard]] const http::RetryPolicy &retryPolicy() const { return m_options.retry; }
    [[nodiscard]] CredentialProvider &credentials() { return *m_credentials; }

    /// "/api/v1/namespaces/ns/pods", "/apis/batch/v1/jobs" (all namespaces, ns empty),
    /// "/api/v1/nodes/name"; names and namespaces are percent-encoded.
    static std::string path(const ResourceType &type, const std::string &ns = {}, const std::string &name = {});

private:
    Result<http::HttpResponse> send(http::HttpRequest request, const http::CancelToken &cancel);
    Result<nlohmann::json>
    sendJson(http::HttpRequest request, const std::string &what, const http::CancelToken &cancel);
    [[nodiscard]] std::string url(const std::string &pathAndQuery) const;

    http::IHttpTransport &m_transport;
    ClusterEndpoint m_endpoint;
    KubeClientOptions m_options;
    std::unique_ptr<CredentialProvider> m_credentials;
};

/// TLS settings of `endpoint` applied to `base`: caPem, insecureSkipTlsVerify, client identity.
http::TransportOptions transportOptions(const ClusterEndpoint &endpoint, http::TransportOptions base = {});

/// Maps a non-2xx response (with a Status body or not) to an connectors::Error; see KubeClient.
connectors::Error statusError(const http::HttpResponse &response, const std::string &what);

/// "ns/name" for namespaced objects, "name" otherwise (metadata of `object`); empty when the
/// object has no metadata.name.
std::string objectKey(const nlohmann::json &object);

} // namespace strata::kubernetes
