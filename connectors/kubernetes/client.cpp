#include "connectors/kubernetes/client.h"

#include "connectors/http/httpclient.h"
#include "connectors/http/jsonparse.h"
#include "connectors/kubernetes/podstream.h"

#include <algorithm>
#include <iterator>

namespace strata::kubernetes {

using http::HttpRequest;
using http::HttpResponse;
using nlohmann::json;

namespace {

std::string stringField(const json &object, const char *key)
{
    if (object.is_object()) {
        const auto it = object.find(key);
        if (it != object.end() && it->is_string()) {
            return it->get<std::string>();
        }
    }
    return {};
}

const json *objectField(const json &object, const char *key)
{
    if (!object.is_object()) {
        return nullptr;
    }
    const auto it = object.find(key);
    return it != object.end() && it->is_object() ? &*it : nullptr;
}

void addQuery(std::string &query, const char *key, const std::string &value)
{
    if (value.empty()) {
        return;
    }
    query += query.empty() ? '?' : '&';
    query += key;
    query += '=';
    query += http::urlEncode(value);
}

std::string scopeText(const ResourceType &type, const std::string &ns)
{
    if (!type.namespaced) {
        return type.displayName();
    }
    return type.displayName() + (ns.empty() ? " in all namespaces" : " in namespace " + ns);
}

std::string objectText(const ResourceType &type, const std::string &ns, const std::string &name)
{
    return type.kind + " " + (type.namespaced && !ns.empty() ? ns + "/" + name : name);
}

// Why an item cannot be used, or empty when it can.
std::string itemProblem(const json &item)
{
    if (!item.is_object()) {
        return "is not a JSON object";
    }
    const json *metadata = objectField(item, "metadata");
    if (!metadata) {
        return "has no metadata";
    }
    if (stringField(*metadata, "name").empty()) {
        return "has no metadata.name";
    }
    return {};
}

void fillKind(json &item, const ResourceType &type)
{
    if (!item.contains("kind")) {
        item["kind"] = type.kind;
    }
    if (!item.contains("apiVersion")) {
        item["apiVersion"] = type.apiVersion();
    }
}

bool decodesPods(const ResourceType &type, bool asked)
{
    return asked && type.group == kPods.group && type.plural == kPods.plural;
}

std::optional<WatchEvent::Type> eventType(const std::string &text)
{
    if (text == "ADDED") {
        return WatchEvent::Type::Added;
    }
    if (text == "MODIFIED") {
        return WatchEvent::Type::Modified;
    }
    if (text == "DELETED") {
        return WatchEvent::Type::Deleted;
    }
    if (text == "BOOKMARK") {
        return WatchEvent::Type::Bookmark;
    }
    if (text == "ERROR") {
        return WatchEvent::Type::Error;
    }
    return std::nullopt;
}

std::string excerpt(std::string_view text)
{
    constexpr std::size_t limit = 80;
    std::string out(text.substr(0, limit));
    if (text.size() > limit) {
        out += "...";
    }
    return out;
}

} // namespace

std::string ResourceType::apiVersion() const
{
    return group.empty() ? version : group + "/" + version;
}

std::string ResourceType::displayName() const
{
    return group.empty() ? plural : plural + "." + group;
}

std::vector<std::string> ResourceType::readableVersions() const
{
    std::vector<std::string> out{version};
    out.insert(out.end(), olderVersions.begin(), olderVersions.end());
    return out;
}

const ApiGroupInfo *Discovery::group(const std::string &name) const
{
    const auto it = std::find_if(groups.begin(), groups.end(), [&name](const ApiGroupInfo &g) {
        return g.name == name;
    });
    return it == groups.end() ? nullptr : &*it;
}

namespace {

bool kubeListHas(const std::vector<std::string> &list, const std::string &value)
{
    return std::find(list.begin(), list.end(), value) != list.end();
}

std::string kubeJoined(const std::vector<std::string> &list)
{
    std::string out;
    for (const auto &item : list) {
        out += (out.empty() ? "" : ", ") + item;
    }
    return out;
}

bool listsResource(const ApiGroupInfo &info, const std::string &version, const std::string &plural)
{
    const auto it = info.resources.find(version);
    if (it == info.resources.end()) {
        return false;
    }
    return std::any_of(it->second.begin(), it->second.end(), [&plural](const ApiResourceInfo &r) {
        return r.name == plural;
    });
}

// The group's served versions in the order a client should try them: preferred first.
std::vector<std::string> versionsByPreference(const ApiGroupInfo &info)
{
    std::vector<std::string> out;
    if (!info.preferredVersion.empty() && kubeListHas(info.versions, info.preferredVersion)) {
        out.push_back(info.preferredVersion);
    }
    for (const auto &v : info.versions) {
        if (!kubeListHas(out, v)) {
            out.push_back(v);
        }
    }
    return out;
}

} // namespace

std::optional<ResourceType> Discovery::resolve(const ResourceType &type) const
{
    if (type.group.empty()) {
        if (type.version == "v1") {
            return type;
        }
        return std::nullopt;
    }
    const ApiGroupInfo *info = group(type.group);
    if (!info) {
        return std::nullopt;
    }
    const std::vector<std::string> readable = type.readableVersions();
    for (const auto &v : versionsByPreference(*info)) {
        if (kubeListHas(readable, v) && listsResource(*info, v, type.plural)) {
            ResourceType resolved = type;
            resolved.version = v;
            return resolved;
        }
    }
    return std::nullopt;
}

Discovery::Support Discovery::support(const ResourceType &type) const
{
    if (resolve(type)) {
        return Support::Served;
    }
    if (type.group.empty()) {
        return Support::UnknownVersion;
    }
    const ApiGroupInfo *info = group(type.group);
    if (!info) {
        return Support::GroupMissing;
    }
    const std::vector<std::string> readable = type.readableVersions();
    bool readableServed = false;
    bool unread = false;
    bool elsewhere = false;
    for (const auto &v : info->versions) {
        readableServed |= kubeListHas(readable, v);
        if (info->resources.count(v) == 0) {
            unread = true;
        } else {
            elsewhere |= listsResource(*info, v, type.plural); // resolve() failed, so not readable
        }
    }
    if (elsewhere) {
        return Support::UnknownVersion;
    }
    if (!unread) {
        return Support::ResourceMissing;
    }
    return readableServed ? Support::NotDiscovered : Support::UnknownVersion;
}

std::string Discovery::explain(const ResourceType &type) const
{
    const Support support = this->support(type);
    if (support == Support::Served) {
        return {};
    }
    const std::string name = type.displayName();
    const ApiGroupInfo *info = group(type.group);
    switch (support) {
    case Support::Served:
        return {};
    case Support::GroupMissing: {
        std::string text = "the API server does not serve " + type.group;
        if (type.group == "scheduling.run.ai") {
            text += " (KAI Scheduler not installed?)";
        } else if (type.group == "snapshot.storage.k8s.io") {
            text += " (CSI snapshot CRDs not installed?)";
        }
        return text;
    }
    case Support::UnknownVersion: {
        if (type.group.empty()) {
            return "the core API serves v1 only; Strata reads " + type.apiVersion() + " " + type.plural;
        }
        // Name the versions that serve the resource when they are known, else the group's.
        std::vector<std::string> versions;
        for (const auto &v : info->versions) {
            if (listsResource(*info, v, type.plural)) {
                versions.push_back(v);
            }
        }
        const std::string subject = versions.empty() ? type.group : name;
        if (versions.empty()) {
            versions = info->versions;
        }
        return subject + " is served only in version" + (versions.size() == 1 ? " " : "s ") + kubeJoined(versions)
               + "; Strata reads " + kubeJoined(type.readableVersions()) + " (unknown CRD version)";
    }
    case Support::ResourceMissing:
        return type.group + " is served, but no version Strata reads (" + kubeJoined(type.readableVersions())
               + ") serves " + type.plural + " (CRD " + name + " not installed?)";
    case Support::NotDiscovered: {
        std::string text = "cannot tell which version of " + type.group + " serves " + type.plural;
        for (const auto &v : info->versions) {
            if (const auto it = info->resourceErrors.find(v); it != info->resourceErrors.end()) {
                text += ": " + it->second;
                return text;
            }
        }
        return text + " (its resource lists were not read)";
    }
    }
    return {};
}

Result<std::vector<ApiResourceInfo>> parseApiResourceList(const std::string &body, const std::string &what)
{
    const json parsed = http::parseJsonBounded(body);
    const auto resources = parsed.is_object() ? parsed.find("resources") : parsed.end();
    if (!parsed.is_object() || resources == parsed.end() || !resources->is_array()) {
        return connectors::fail(
            connectors::Error::make(connectors::Error::Kind::Parse, what + ": not an APIResourceList", 200));
    }
    std::vector<ApiResourceInfo> out;
    for (const auto &r : *resources) {
        ApiResourceInfo info;
        info.name = stringField(r, "name");
        if (info.name.empty() || info.name.find('/') != std::string::npos) {
            continue;
        }
        info.kind = stringField(r, "kind");
        if (const auto namespaced = r.find("namespaced"); namespaced != r.end() && namespaced->is_boolean()) {
            info.namespaced = namespaced->get<bool>();
        }
        if (const auto verbs = r.find("verbs"); verbs != r.end() && verbs->is_array()) {
            for (const auto &verb : *verbs) {
                if (verb.is_string()) {
                    info.verbs.push_back(verb.get<std::string>());
                }
            }
        }
        out.push_back(std::move(info));
    }
    return out;
}

KubeClient::KubeClient(http::IHttpTransport &transport,
                       ClusterEndpoint endpoint,
                       http::RetryPolicy retry,
                       http::Sleeper sleeper)
    : KubeClient(transport, std::move(endpoint), KubeClientOptions{std::move(retry), std::move(sleeper), {}})
{}

KubeClient::KubeClient(http::IHttpTransport &transport, ClusterEndpoint endpoint, KubeClientOptions options)
    : m_transport(transport)
    , m_endpoint(std::move(endpoint))
    , m_options(std::move(options))
    , m_credentials(std::make_unique<CredentialProvider>(m_endpoint, m_options.execRunner))
{
    while (!m_endpoint.server.empty() && m_endpoint.server.back() == '/') {
        m_endpoint.server.pop_back();
    }
}

KubeClient::~KubeClient() = default;

std::string KubeClient::path(const ResourceType &type, const std::string &ns, const std::string &name)
{
    std::string out = type.group.empty() ? "/api/" + type.version : "/apis/" + type.group + "/" + type.version;
    if (type.namespaced && !ns.empty()) {
        out += "/namespaces/" + http::urlEncode(ns);
    }
    out += "/" + type.plural;
    if (!name.empty()) {
        out += "/" + http::urlEncode(name);
    }
    return out;
}

std::string KubeClient::url(const std::string &pathAndQuery) const
{
    return m_endpoint.server + pathAndQuery;
}

Result<HttpRequest> KubeClient::authorize(HttpRequest request, const http::CancelToken &cancel)
{
    auto credentials = m_credentials->credentials(cancel);
    if (!credentials) {
        return connectors::fail(credentials.error());
    }
    if (!credentials->token.empty()) {
        request.bearer = http::BearerAuth{credentials->token};
    } else {
        request.bearer.reset();
    }
    // Static client certificates live in the transport; only plugin-issued ones go per request.
    if (!credentials->clientCertPem.empty() && credentials->clientCertPem != m_endpoint.clientCertPem) {
        request.clientCertPem = credentials->clientCertPem;
        request.clientKeyPem = credentials->clientKeyPem;
    }
    return request;
}

HttpRequest KubeClient::resolved(HttpRequest request) const
{
    request.url = url(request.url);
    if (!http::findHeader(request.headers, "Accept")) {
        request.headers.emplace_back("Accept", "application/json");
    }
    if (!request.totalTimeout) {
        request.totalTimeout = m_options.requestTimeout;
    }
    return request;
}

Result<HttpResponse> KubeClient::send(HttpRequest request, const http::CancelToken &cancel)
{
    request = resolved(std::move(request));
    const http::Sleeper sleeper = m_options.sleeper ? m_options.sleeper : http::realSleeper();
    for (int attempt = 0;; ++attempt) {
        auto authorized = authorize(request, cancel);
        if (!authorized) {
            return connectors::fail(authorized.error());
        }
        auto result = http::sendWithRetry(m_transport, *authorized, m_options.retry, cancel, sleeper);
        // An exec plugin's token may have been revoked before its expiry: ask the plugin again.
        if (attempt == 0 && result && result->status == 401 && m_credentials->invalidate()) {
            continue;
        }
        return result;
    }
}

Result<json> KubeClient::sendJson(HttpRequest request, const std::string &what, const http::CancelToken &cancel)
{
    auto response = send(std::move(request), cancel);
    if (!response) {
        return connectors::fail(response.error());
    }
    if (!response->isSuccess()) {
        return connectors::fail(statusError(*response, what));
    }
    return http::HttpClient::parseJson(*response, what);
}

Result<VersionInfo> KubeClient::version(const http::CancelToken &cancel)
{
    HttpRequest request;
    request.url = "/version";
    auto body = sendJson(std::move(request), "Read the API server version", cancel);
    if (!body) {
        return connectors::fail(body.error());
    }
    if (!body->is_object()) {
        return connectors::fail(
            connectors::Error::make(connectors::Error::Kind::Parse, "API server version: not a JSON object", 200));
    }
    VersionInfo info;
    info.major = stringField(*body, "major");
    info.minor = stringField(*body, "minor");
    info.gitVersion = stringField(*body, "gitVersion");
    info.platform = stringField(*body, "platform");
    return info;
}

Result<Discovery> KubeClient::discover(const http::CancelToken &cancel)
{
    HttpRequest request;
    request.url = "/apis";
    auto body = sendJson(std::move(request), "Discover the API groups", cancel);
    if (!body) {
        return connectors::fail(body.error());
    }
    const auto groups = body->is_object() ? body->find("groups") : body->end();
    if (!body->is_object() || groups == body->end() || !groups->is_array()) {
        return connectors::fail(
            connectors::Error::make(connectors::Error::Kind::Parse, "API group list (/apis) has no groups array", 200));
    }
    Discovery discovery;
    for (const auto &g : *groups) {
        ApiGroupInfo info;
        info.name = stringField(g, "name");
        if (info.name.empty()) {
            continue;
        }
        if (const auto versions = g.find("versions"); versions != g.end() && versions->is_array()) {
            for (const auto &v : *versions) {
                if (auto version = stringField(v, "version"); !version.empty()) {
                    info.versions.push_back(std::move(version));
                }
            }
        }
        if (const json *preferred = objectField(g, "preferredVersion")) {
            info.preferredVersion = stringField(*preferred, "version");
        }
        discovery.groups.push_back(std::move(info));
    }
    return discovery;
}

Result<Discovery> KubeClient::discover(const http::CancelToken &cancel, const std::vector<ResourceType> &types)
{
    auto discovery = discover(cancel);
    if (!discovery) {
        return discovery;
    }
    std::vector<std::string> wanted;
    for (const ResourceType &type : types) {
        if (!type.group.empty() && !kubeListHas(wanted, type.group)) {
            wanted.push_back(type.group);
        }
    }
    for (ApiGroupInfo &info : discovery->groups) {
        if (!kubeListHas(wanted, info.name)) {
            continue;
        }
        for (const std::string &version : info.versions) {
            auto resources = apiResources(info.name, version, cancel);
            if (resources) {
                info.resources[version] = std::move(*resources);
            } else if (resources.error().kind == connectors::Error::Kind::Cancelled) {
                return connectors::fail(resources.error());
            } else {
                info.resourceErrors[version] = resources.error().message;
            }
        }
    }
    return discovery;
}

Result<std::vector<ApiResourceInfo>>
KubeClient::apiResources(const std::string &group, const std::string &version, const http::CancelToken &cancel)
{
    HttpRequest request;
    request.url = group.empty() ? "/api/" + version : "/apis/" + group + "/" + version;
    const std::string what = "Discover the resources of " + (group.empty() ? version : group + "/" + version);
    auto response = send(std::move(request), cancel);
    if (!response) {
        return connectors::fail(response.error());
    }
    if (!response->isSuccess()) {
        return connectors::fail(statusError(*response, what));
    }
    return parseApiResourceList(response->body, what);
}

HttpRequest KubeClient::listRequest(const ResourceType &type, const ListOptions &options) const
{
    std::string query;
    if (options.limit > 0) {
        addQuery(query, "limit", std::to_string(options.limit));
    }
    addQuery(query, "continue", options.continueToken);
    addQuery(query, "labelSelector", options.labelSelector);
    addQuery(query, "fieldSelector", options.fieldSelector);
    addQuery(query, "resourceVersion", options.resourceVersion);
    HttpRequest request;
    request.url = path(type, options.namespace_) + query;
    return request;
}

Result<ListPage>
KubeClient::listPageFrom(const ResourceType &type, const ListOptions &options, Result<http::HttpResponse> response)
{
    const std::string what = "List " + scopeText(type, options.namespace_);
    if (!response) {
        return connectors::fail(response.error());
    }
    if (!response->isSuccess()) {
        connectors::Error error = statusError(*response, what);
        if (response->status == 404) {
            error.message += " (404: the API server does not serve " + type.apiVersion() + " " + type.plural + ")";
        }
        return connectors::fail(std::move(error));
    }
    const bool typed = decodesPods(type, options.decodePods);
    ListPage page;
    if (typed) {
        // One decoder per thread keeps its index buffers from page to page.
        thread_local PodStreamDecoder decoder;
        if (decoder.decodeList(response->body, page.pods, page.resourceVersion, page.continueToken)) {
            return page;
        }
    }
    auto body = http::HttpClient::parseJson(*response, what);
    if (!body) {
        return connectors::fail(body.error());
    }
    if (!body->is_object()) {
        return connectors::fail(
            connectors::Error::make(connectors::Error::Kind::Parse, what + ": the answer is not a JSON object", 200));
    }
    if (const json *metadata = objectField(*body, "metadata")) {
        page.resourceVersion = stringField(*metadata, "resourceVersion");
        page.continueToken = stringField(*metadata, "continue");
    }
    const auto items = body->find("items");
    if (items == body->end() || items->is_null()) {
        return page; // an empty list may come as "items": null
    }
    if (!items->is_array()) {
        return connectors::fail(
            connectors::Error::make(connectors::Error::Kind::Parse, what + ": \"items\" is not an array", 200));
    }
    page.items.reserve(typed ? 0 : items->size());
    std::size_t index = 0;
    for (auto &item : *items) {
        std::string problem = itemProblem(item);
        if (problem.empty() && typed) {
            if (auto pod = parsePod(item)) {
                page.pods.push_back(std::move(*pod));
            } else {
                problem = pod.error().message;
            }
        } else if (problem.empty()) {
            fillKind(item, type);
            page.items.push_back(std::move(item));
        }
        if (!problem.empty()) {
            page.skipped.push_back(what + ": item " + std::to_string(index) + " " + problem + ", skipped");
        }
        ++index;
    }
    return page;
}

Result<ListPage>
KubeClient::listPage(const ResourceType &type, const ListOptions &options, const http::CancelToken &cancel)
{
    return listPageFrom(type, options, send(listRequest(type, options), cancel));
}

ListPager::ListPager(ResourceType type, ListOptions options)
    : m_type(std::move(type))
    , m_options(std::move(options))
{
    m_options.continueToken.clear();
}

std::optional<Result<ListPage>> ListPager::take(Result<ListPage> page)
{
    if (!page) {
        // The continue token expired between pages: the snapshot is gone, so start again.
        if (page.error().httpStatus == 410 && !m_options.continueToken.empty() && !m_restarted) {
            m_restarted = true;
            m_options.continueToken.clear();
            m_all = ListPage{};
            m_first = true;
            return std::nullopt;
        }
        return Result<ListPage>(connectors::fail(page.error()));
    }
    const bool first = m_first;
    if (m_first) {
        m_all.resourceVersion = page->resourceVersion;
        m_first = false;
    }
    std::move(page->items.begin(), page->items.end(), std::back_inserter(m_all.items));
    if (m_options.podPages) {
        m_options.podPages(std::move(page->pods), first);
    } else {
        std::move(page->pods.begin(), page->pods.end(), std::back_inserter(m_all.pods));
    }
    std::move(page->skipped.begin(), page->skipped.end(), std::back_inserter(m_all.skipped));
    if (page->continueToken.empty()) {
        return Result<ListPage>(std::move(m_all));
    }
    if (page->continueToken == m_options.continueToken) {
        return Result<ListPage>(connectors::fail(connectors::Error::make(
            connectors::Error::Kind::Parse,
            "List " + scopeText(m_type, m_options.namespace_) + ": the server repeated a continue token",
            200)));
    }
    m_options.continueToken = page->continueToken;
    return std::nullopt;
}

Result<ListPage>
KubeClient::listAll(const ResourceType &type, const ListOptions &options, const http::CancelToken &cancel)
{
    ListPager pager(type, options);
    for (;;) {
        if (auto done = pager.take(listPage(type, pager.next(), cancel))) {
            return std::move(*done);
        }
    }
}

Result<WatchEnd> KubeClient::watch(const ResourceType &type,
                                   const WatchOptions &options,
                                   const std::function<bool(WatchEvent)> &onEvent,
                                   const http::CancelToken &cancel)
{
    return watchBatches(
        type,
        options,
        [&onEvent](std::vector<WatchEvent> &events) {
            for (auto &event : events) {
                if (!onEvent(std::move(event))) {
                    return false;
                }
            }
            return true;
        },
        cancel);
}

HttpRequest KubeClient::watchRequest(const ResourceType &type, const WatchOptions &options) const
{
    std::string query = "?watch=1";
    if (options.allowBookmarks) {
        query += "&allowWatchBookmarks=true";
    }
    addQuery(query, "resourceVersion", options.resourceVersion);
    if (options.timeoutSeconds > 0) {
        addQuery(query, "timeoutSeconds", std::to_string(options.timeoutSeconds));
    }
    addQuery(query, "labelSelector", options.labelSelector);
    addQuery(query, "fieldSelector", options.fieldSelector);
    HttpRequest request;
    request.url = url(path(type, options.namespace_) + query);
    request.headers.emplace_back("Accept", "application/json");
    return request;
}

WatchDecoder::WatchDecoder(ResourceType type, const WatchOptions &options)
    : m_type(std::move(type))
    , m_what("Watch " + scopeText(m_type, options.namespace_))
    , m_onSkipped(options.onSkipped)
    , m_pods(decodesPods(m_type, options.decodePods) ? std::make_shared<PodStreamDecoder>() : nullptr)
{}

void WatchDecoder::skip(const std::string &message)
{
    if (m_onSkipped) {
        m_onSkipped(connectors::Error::make(connectors::Error::Kind::Parse, m_what + ": " + message, 200));
    }
}

bool WatchDecoder::takeLine(std::string_view line)
{
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) {
        line.remove_suffix(1);
    }
    if (line.empty()) {
        return true;
    }
    if (m_pods) {
        PodStreamDecoder::EventType type{};
        WatchEvent event;
        event.pod.emplace();
        if (m_pods->decodeEvent(line, type, *event.pod)) {
            static constexpr WatchEvent::Type kEventTypes[] = {WatchEvent::Type::Added,
                                                               WatchEvent::Type::Modified,
                                                               WatchEvent::Type::Deleted,
                                                               WatchEvent::Type::Bookmark};
            event.type = kEventTypes[static_cast<int>(type)];
            m_events.push_back(std::move(event));
            return true;
        }
    }
    http::JsonParseFailure failure;
    json parsed = http::parseJsonBounded(line, &failure);
    if (failure.tooDeep) {
        skip("watch event with " + failure.message + ", skipped");
        return true;
    }
    if (parsed.is_discarded() || !parsed.is_object()) {
        skip("malformed watch event \"" + excerpt(line) + "\", skipped");
        return true;
    }
    const auto kind = eventType(stringField(parsed, "type"));
    const auto object = parsed.find("object");
    if (!kind || object == parsed.end() || !object->is_object()) {
        skip("watch event without a known type and an object \"" + excerpt(line) + "\", skipped");
        return true;
    }
    if (*kind == WatchEvent::Type::Error) {
        // A Status code of another type (or out of range) counts as absent; json::value() would
        // throw type_error out of the body sink and end the process.
        int code = 0;
        if (const auto c = object->find("code"); c != object->end() && c->is_number()) {
            const double number = c->get<double>();
            code = number >= 100 && number <= 599 ? static_cast<int>(number) : 0;
        }
        if (code == 410) {
            m_expired = true;
        } else {
            // statusError() reads only these members; dumping the whole object would recurse as
            // deep as the sender nested it (a stack overflow at some 100,000 levels).
            json shallow = json::object();
            for (const char *key : {"kind", "message", "reason"}) {
                if (const auto f = object->find(key); f != object->end()) {
                    shallow[key] = f->is_string() ? *f : json();
                }
            }
            if (const auto details = object->find("details"); details != object->end() && details->is_object()) {
                if (const auto r = details->find("retryAfterSeconds"); r != details->end() && r->is_number_integer()) {
                    shallow["details"]["retryAfterSeconds"] = *r;
                }
            }
            HttpResponse status = HttpResponse::withStatus(code > 0 ? code : 500, shallow.dump());
            m_streamError = statusError(status, m_what);
        }
        return false;
    }
    if (*kind != WatchEvent::Type::Bookmark) {
        if (const std::string problem = itemProblem(*object); !problem.empty()) {
            skip("watch event object " + problem + ", skipped");
            return true;
        }
        fillKind(*object, m_type);
    }
    WatchEvent event;
    event.type = *kind;
    if (m_pods && *kind == WatchEvent::Type::Bookmark) {
        event.pod.emplace();
        if (const json *metadata = objectField(*object, "metadata")) {
            event.pod->resourceVersion = stringField(*metadata, "resourceVersion");
        }
    } else if (m_pods) {
        auto pod = parsePod(*object);
        if (!pod) {
            skip("watch event object: " + pod.error().message + ", skipped");
            return true;
        }
        event.pod = std::move(*pod);
    } else {
        event.object = std::move(*object);
    }
    m_events.push_back(std::move(event));
    return true;
}

bool WatchDecoder::feed(std::string_view chunk, const WatchBatchHandler &onBatch)
{
    m_gotBytes = true;
    m_buffer.append(chunk);
    std::size_t start = 0;
    bool goOn = true;
    for (std::size_t newline; goOn && (newline = m_buffer.find('\n', start)) != std::string::npos;
         start = newline + 1) {
        goOn = takeLine(std::string_view(m_buffer).substr(start, newline - start));
    }
    m_buffer.erase(0, start);
    if (!m_events.empty()) {
        const bool more = onBatch(m_events);
        m_events.clear();
        if (!more) {
            m_stoppedByHandler = true;
            return false;
        }
    }
    return goOn;
}

Result<WatchEnd> WatchDecoder::end(const Result<HttpResponse> &result, const WatchBatchHandler &onBatch)
{
    if (m_expired) {
        return WatchEnd::Expired;
    }
    if (m_streamError) {
        return connectors::fail(*m_streamError);
    }
    if (!result) {
        if (result.error().kind == connectors::Error::Kind::Cancelled || !m_gotBytes) {
            return connectors::fail(result.error());
        }
        // The stream was established and then lost (reset, idle timeout): the caller re-watches
        // from the last resourceVersion it saw, as client-go does on an unexpected EOF.
        return WatchEnd::Closed;
    }
    if (!result->isSuccess()) {
        if (result->status == 410) {
            return WatchEnd::Expired;
        }
        connectors::Error error = statusError(*result, m_what);
        if (result->status == 404) {
            error.message += " (404: the API server does not serve " + m_type.apiVersion() + " " + m_type.plural + ")";
        }
        return connectors::fail(std::move(error));
    }
    if (!m_stoppedByHandler && !m_buffer.empty()) {
        // A last event without its newline.
        takeLine(m_buffer);
        m_buffer.clear();
        if (m_expired) {
            return WatchEnd::Expired;
        }
        if (m_streamError) {
            return connectors::fail(*m_streamError);
        }
        if (!m_events.empty()) {
            (void)onBatch(m_events);
        }
    }
    return WatchEnd::Closed;
}

Result<WatchEnd> KubeClient::watchBatches(const ResourceType &type,
                                          const WatchOptions &options,
                                          const WatchBatchHandler &onBatch,
                                          const http::CancelToken &cancel)
{
    const HttpRequest base = watchRequest(type, options);
    WatchDecoder decoder(type, options);
    const http::BodySink sink = [&](std::string_view chunk) {
        return decoder.feed(chunk, onBatch);
    };
    Result<HttpResponse> result = connectors::fail(connectors::Error{});
    for (int attempt = 0;; ++attempt) {
        auto request = authorize(base, cancel);
        if (!request) {
            return connectors::fail(request.error());
        }
        result = m_transport.stream(*request, sink, cancel);
        if (attempt == 0 && result && result->status == 401 && m_credentials->invalidate()) {
            continue;
        }
        break;
    }
    return decoder.end(result, onBatch);
}

Result<json> KubeClient::get(const ResourceType &type,
                             const std::string &ns,
                             const std::string &name,
                             const http::CancelToken &cancel)
{
    HttpRequest request;
    request.url = path(type, ns, name);
    return sendJson(std::move(request), "Get " + objectText(type, ns, name), cancel);
}

Result<json>
KubeClient::create(const ResourceType &type, const std::string &ns, const json &object, const http::CancelToken &cancel)
{
    HttpRequest request;
    request.method = http::Method::Post;
    request.url = path(type, ns);
    request.body = object.dump();
    request.headers.emplace_back("Content-Type", "application/json");
    request.idempotent = false;
    std::string name;
    if (const json *metadata = objectField(object, "metadata")) {
        name = stringField(*metadata, "name");
        if (name.empty()) {
            name = stringField(*metadata, "generateName") + "*";
        }
    }
    return sendJson(std::move(request), "Create " + objectText(type, ns, name), cancel);
}

Result<void> KubeClient::remove(const ResourceType &type,
                                const std::string &ns,
                                const std::string &name,
                                const http::CancelToken &cancel)
{
    return remove(type, ns, name, Propagation::Background, cancel);
}

Result<void> KubeClient::remove(const ResourceType &type,
                                const std::string &ns,
                                const std::string &name,
                                Propagation propagation,
                                const http::CancelToken &cancel)
{
    const char *policy = propagation == Propagation::Foreground ? "Foreground"
                         : propagation == Propagation::Orphan   ? "Orphan"
                                                                : "Background";
    HttpRequest request;
    request.method = http::Method::Delete;
    request.url = path(type, ns, name) + "?propagationPolicy=" + policy;
    request.idempotent = true;
    auto response = send(std::move(request), cancel);
    if (!response) {
        return connectors::fail(response.error());
    }
    if (response->isSuccess() || response->status == 404) {
        return {};
    }
    return connectors::fail(statusError(*response, "Delete " + objectText(type, ns, name)));
}

Result<json> KubeClient::mergePatch(const ResourceType &type,
                                    const std::string &ns,
                                    const std::string &name,
                                    const json &patch,
                                    const http::CancelToken &cancel)
{
    HttpRequest request;
    request.method = http::Method::Patch;
    request.url = path(type, ns, name);
    request.body = patch.dump();
    request.headers.emplace_back("Content-Type", "application/merge-patch+json");
    request.idempotent = false;
    return sendJson(std::move(request), "Patch " + objectText(type, ns, name), cancel);
}

Result<json> KubeClient::replace(const ResourceType &type,
                                 const std::string &ns,
                                 const std::string &name,
                                 const json &object,
                                 const http::CancelToken &cancel)
{
    HttpRequest request;
    request.method = http::Method::Put;
    request.url = path(type, ns, name);
    request.body = object.dump();
    request.headers.emplace_back("Content-Type", "application/json");
    request.idempotent = false;
    return sendJson(std::move(request), "Replace " + objectText(type, ns, name), cancel);
}

namespace {

// The typed calls accept objects without kind/apiVersion (or metadata.namespace).
json completed(const json &object, const ResourceType &type)
{
    json out = object.is_object() ? object : json::object();
    out["kind"] = type.kind;
    out["apiVersion"] = type.apiVersion();
    return out;
}

} // namespace

Result<json> KubeClient::getConfigMap(const std::string &ns, const std::string &name, const http::CancelToken &cancel)
{
    return get(kConfigMaps, ns, name, cancel);
}

Result<json> KubeClient::createConfigMap(const std::string &ns, const json &configMap, const http::CancelToken &cancel)
{
    return create(kConfigMaps, ns, completed(configMap, kConfigMaps), cancel);
}

Result<json> KubeClient::replaceConfigMap(const std::string &ns,
                                          const std::string &name,
                                          const json &configMap,
                                          const http::CancelToken &cancel)
{
    return replace(kConfigMaps, ns, name, completed(configMap, kConfigMaps), cancel);
}

Result<ListPage>
KubeClient::listConfigMaps(const std::string &ns, const std::string &labelSelector, const http::CancelToken &cancel)
{
    ListOptions options;
    options.namespace_ = ns;
    options.labelSelector = labelSelector;
    return listAll(kConfigMaps, options, cancel);
}

Result<json> KubeClient::createJob(const std::string &ns, const json &job, const http::CancelToken &cancel)
{
    return create(kJobs, ns, completed(job, kJobs), cancel);
}

Result<void> KubeClient::deleteJob(const std::string &ns,
                                   const std::string &name,
                                   const http::CancelToken &cancel,
                                   Propagation propagation)
{
    return remove(kJobs, ns, name, propagation, cancel);
}

Result<ListPage>
KubeClient::listJobs(const std::string &ns, const std::string &labelSelector, const http::CancelToken &cancel)
{
    ListOptions options;
    options.namespace_ = ns;
    options.labelSelector = labelSelector;
    return listAll(kJobs, options, cancel);
}

Result<ListPage>
KubeClient::listPods(const std::string &ns, const std::string &labelSelector, const http::CancelToken &cancel)
{
    ListOptions options;
    options.namespace_ = ns;
    options.labelSelector = labelSelector;
    return listAll(kPods, options, cancel);
}

Result<std::string>
KubeClient::podLog(const std::string &ns, const std::string &pod, int tailLines, const http::CancelToken &cancel)
{
    std::string query;
    if (tailLines > 0) {
        addQuery(query, "tailLines", std::to_string(tailLines));
    }
    HttpRequest request;
    request.url = path(kPods, ns, pod) + "/log" + query;
    request.headers.emplace_back("Accept", "text/plain, */*");
    auto response = send(std::move(request), cancel);
    if (!response) {
        return connectors::fail(response.error());
    }
    if (!response->isSuccess()) {
        return connectors::fail(statusError(*response, "Read the log of pod " + ns + "/" + pod));
    }
    return std::move(response->body);
}

http::TransportOptions transportOptions(const ClusterEndpoint &endpoint, http::TransportOptions base)
{
    base.caPem = endpoint.caPem;
    base.insecureSkipTlsVerify = endpoint.insecureSkipTlsVerify;
    base.clientCertPem = endpoint.clientCertPem;
    base.clientKeyPem = endpoint.clientKeyPem;
    return base;
}

connectors::Error statusError(const HttpResponse &response, const std::string &what)
{
    std::string statusMessage;
    std::string reason;
    int retryAfter = http::parseRetryAfter(response.header("Retry-After"));
    bool isStatus = false;
    const json body = http::parseJsonBounded(response.body);
    if (body.is_object() && (stringField(body, "kind") == "Status" || body.contains("reason"))) {
        isStatus = true;
        statusMessage = stringField(body, "message");
        reason = stringField(body, "reason");
        if (const json *details = objectField(body, "details"); details && retryAfter < 0) {
            const auto seconds = details->find("retryAfterSeconds");
            if (seconds != details->end() && seconds->is_number_integer()) {
                retryAfter = seconds->get<int>();
            }
        }
    }
    const int status = response.status;
    std::string message = what + ": ";
    connectors::Error::Kind kind = isStatus ? connectors::Error::Kind::Api : connectors::Error::Kind::Http;
    if (status == 401) {
        kind = connectors::Error::Kind::Auth;
        message += "the API server rejected the credentials (401 Unauthorized)";
        if (!statusMessage.empty() && statusMessage != "Unauthorized") {
            message += ": " + statusMessage;
        }
    } else if (status == 403) {
        kind = connectors::Error::Kind::Auth;
        message += statusMessage.empty() ? "forbidden (403)" : statusMessage;
    } else if (!statusMessage.empty()) {
        message += statusMessage;
    } else {
        message += "HTTP " + std::to_string(status) + (reason.empty() ? "" : " (" + reason + ")");
    }
    connectors::Error error = connectors::Error::make(kind, std::move(message), status);
    error.apiCode = reason;
    error.retryAfterSeconds = retryAfter;
    return error;
}

std::string objectKey(const json &object)
{
    const json *metadata = objectField(object, "metadata");
    if (!metadata) {
        return {};
    }
    const std::string name = stringField(*metadata, "name");
    if (name.empty()) {
        return {};
    }
    const std::string ns = stringField(*metadata, "namespace");
    return ns.empty() ? name : ns + "/" + name;
}

} // namespace strata::kubernetes
