#include "connectors/ontap/ontapclient.h"

#include "connectors/http/jsonparse.h"
#include "connectors/ontap/volumestream.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iterator>
#include <optional>
#include <set>
#include <type_traits>

namespace strata::ontap {

using connectors::fail;
using connectors::Result;
using http::CancelToken;
using http::HttpRequest;
using http::HttpResponse;
using http::Method;
using http::urlEncode;
using nlohmann::json;
using Kind = connectors::Error::Kind;

namespace {

constexpr std::string_view kVolumeFieldsBase =
    "uuid,name,svm.name,svm.uuid,aggregates.name,aggregates.uuid,state,style,type,size,space.used,space.available,"
    "space.snapshot.reserve_percent,space.snapshot.used,qos.policy.name,qos.policy.uuid,clone.is_flexclone,"
    "clone.parent_volume.name,clone.parent_volume.uuid,clone.parent_snapshot.name,clone.parent_snapshot.uuid,"
    "nas.path,snapshot_count,create_time";
constexpr std::string_view kVolumeFieldsNewer = ",space.percent_used"; // 9.9+
constexpr std::string_view kSnapshotFields =
    "uuid,name,create_time,comment,expiry_time,snapmirror_label,state,size,volume.name,volume.uuid,svm.name,svm.uuid";
constexpr std::string_view kJobFields = "uuid,description,state,message,code,start_time,end_time";

std::string volumeFields(bool newer, bool withMetric)
{
    std::string fields{kVolumeFieldsBase};
    if (newer) {
        fields += kVolumeFieldsNewer;
    }
    if (withMetric) {
        fields += ",metric";
    }
    return fields;
}

connectors::Error parseError(std::string_view what, std::string detail, int status)
{
    return connectors::Error::make(Kind::Parse, std::string(what) + ": ONTAP sent " + detail, status);
}

Result<json> parseBody(const HttpResponse &response, std::string_view what)
{
    http::JsonParseFailure failure;
    json body = http::parseJsonBounded(response.body, &failure);
    if (body.is_discarded()) {
        return fail(parseError(what,
                               (failure.tooDeep ? failure.message : std::string("malformed JSON")) + " ("
                                   + std::to_string(response.body.size()) + " bytes)",
                               response.status));
    }
    return body;
}

std::string lastPathSegment(std::string_view href)
{
    href = href.substr(0, href.find('?'));
    while (!href.empty() && href.back() == '/') {
        href.remove_suffix(1);
    }
    const auto slash = href.rfind('/');
    return std::string(slash == std::string_view::npos ? href : href.substr(slash + 1));
}

std::string nameOf(const json &record)
{
    if (record.is_object()) {
        if (auto it = record.find("name"); it != record.end() && it->is_string()) {
            return " \"" + it->get<std::string>() + "\"";
        }
    }
    return {};
}

// One collection page through nlohmann::json: its records appended to `out`, `next` set from
// _links.next.href; `recordsBefore` (those of the pages before) numbers records in errors. Every list but the volumes'
// always comes here; a volume page only when the streaming decoder gave it up, so its error words stay these.
template <class T>
Result<void> parseListPage(const HttpResponse &response,
                           std::string_view what,
                           std::size_t recordsBefore,
                           std::vector<T> &out,
                           std::string &next)
{
    auto page = parseBody(response, what);
    if (!page) {
        return fail(std::move(page).error());
    }
    if (!page->is_object()) {
        return fail(
            parseError(what, std::string("a JSON ") + page->type_name() + " where the collection object belongs", 200));
    }
    const json &body = *page;
    if (auto records = body.find("records"); records != body.end()) {
        if (!records->is_array()) {
            return fail(parseError(
                what, std::string("a JSON ") + records->type_name() + " where the \"records\" array belongs", 200));
        }
        // Grow geometrically: reserving exactly one page more on every page would move all
        // records read so far once per page (quadratic over 125 pages of 50,000 volumes).
        if (const std::size_t need = out.size() + records->size(); out.capacity() < need) {
            out.reserve(std::max(need, out.capacity() * 2));
        }
        for (std::size_t i = 0; i < records->size(); ++i) {
            const json &record = (*records)[i];
            try {
                out.push_back(record.template get<T>());
            } catch (const std::exception &e) {
                return fail(
                    parseError(what,
                               http::describeJsonMismatch(
                                   e, "record " + std::to_string(recordsBefore + out.size() + 1) + nameOf(record)),
                               200));
            }
        }
    }
    try {
        if (auto links = body.find("_links"); links != body.end() && links->is_object()) {
            if (auto n = links->find("next"); n != links->end() && n->is_object()) {
                next = n->value("href", std::string());
            }
        }
    } catch (const std::exception &e) {
        return fail(parseError(what, http::describeJsonMismatch(e, "_links.next"), 200));
    }
    return {};
}

// 9.6-era clusters answer 400 naming a filter or field they do not know.
bool rejectsNewerFields(const connectors::Error &error)
{
    return error.kind == Kind::Api && error.httpStatus == 400
           && (error.message.find("is_constituent") != std::string::npos
               || error.message.find("percent_used") != std::string::npos);
}

connectors::Error lostJob(connectors::Error error, std::string_view what, const std::string &uuid)
{
    const std::string job = what.find(uuid) == std::string_view::npos ? "job " + uuid : "the job";
    error.message =
        std::string(what) + ": " + job
        + " no longer exists on the cluster (ONTAP deletes jobs 300 s after they finish), so its outcome is unknown";
    error.outcomeUnknown = true;
    return error;
}

} // namespace

connectors::Error ontapError(const HttpResponse &response, std::string_view what)
{
    std::string apiMessage;
    std::string apiCode;
    std::string target;
    bool hasErrorBody = false;
    const json body = http::parseJsonBounded(response.body);
    if (body.is_object()) {
        if (auto it = body.find("error"); it != body.end() && it->is_object()) {
            const json &e = *it;
            hasErrorBody = true;
            if (auto m = e.find("message"); m != e.end() && m->is_string()) {
                apiMessage = m->get<std::string>();
            }
            if (auto c = e.find("code"); c != e.end()) {
                apiCode = c->is_string() ? c->get<std::string>() : c->is_number() ? c->dump() : std::string();
            }
            if (auto t = e.find("target"); t != e.end() && t->is_string()) {
                target = t->get<std::string>();
            }
        }
    }

    connectors::Error error;
    error.httpStatus = response.status;
    error.apiCode = apiCode;
    error.retryAfterSeconds = http::parseRetryAfter(response.header("Retry-After"));
    if (response.status == 401) {
        error.kind = Kind::Auth;
        error.message = "ONTAP rejected the credentials for " + std::string(what);
    } else if (response.status == 403) {
        error.kind = Kind::Auth;
        error.message = std::string(what) + ": the ONTAP user is not authorized for this operation";
        if (!apiMessage.empty()) {
            error.message += " (" + apiMessage + ")";
        }
    } else if (hasErrorBody) {
        error.kind = Kind::Api;
        error.message =
            std::string(what) + ": " + (apiMessage.empty() ? "HTTP " + std::to_string(response.status) : apiMessage);
        if (!target.empty()) {
            error.message += " (target " + target + ")";
        }
    } else {
        error.kind = Kind::Http;
        error.message = std::string(what) + ": HTTP " + std::to_string(response.status);
    }
    return error;
}

OntapClient::OntapClient(http::IHttpTransport &transport, OntapClientOptions options)
    : m_http(transport, options.http)
    , m_options(std::move(options))
{
    if (m_options.pageSize <= 0) {
        m_options.pageSize = OntapClientOptions{}.pageSize;
    }
}

HttpRequest OntapClient::makeRequest(Method method, const std::string &pathAndQuery) const
{
    HttpRequest request;
    request.method = method;
    request.url = m_http.resolve(pathAndQuery);
    request.headers.emplace_back("Accept", "application/hal+json");
    if (method != Method::Get && method != Method::Head) {
        // A repeated mutation could act twice; the model layer reconciles instead (findJobs, findVolumesByName).
        request.idempotent = false;
    }
    return request;
}

http::Sleeper OntapClient::sleeper() const
{
    return m_options.http.sleeper ? m_options.http.sleeper : http::realSleeper();
}

Result<HttpResponse>
OntapClient::getBody(const std::string &pathAndQuery, std::string_view what, const CancelToken &cancel)
{
    auto response = m_http.send(makeRequest(Method::Get, pathAndQuery), cancel);
    if (!response) {
        return fail(std::move(response).error());
    }
    if (!response->isSuccess()) {
        return fail(ontapError(*response, what));
    }
    return response;
}

Result<json> OntapClient::getJson(const std::string &pathAndQuery, std::string_view what, const CancelToken &cancel)
{
    auto response = getBody(pathAndQuery, what, cancel);
    if (!response) {
        return fail(std::move(response).error());
    }
    return parseBody(*response, what);
}

template <class T>
Result<void> OntapClient::walkPages(std::string path,
                                    std::string_view what,
                                    const std::function<void(std::vector<T> &)> &onPage,
                                    const CancelToken &cancel)
{
    std::set<std::string> visited;
    std::string href = std::move(path);
    // Volume lists are the large ones (50,000 records at the scale we serve): decoded straight
    // from the text. A page that decoder does not take goes through the DOM, which words errors.
    std::optional<VolumePageDecoder> volumeDecoder;
    if constexpr (std::is_same_v<T, Volume>) {
        volumeDecoder.emplace();
    }
    std::vector<T> page;
    std::size_t recordsBefore = 0;
    for (;;) {
        visited.insert(href);
        auto response = getBody(href, what, cancel);
        if (!response) {
            return fail(std::move(response).error());
        }
        std::string next;
        bool decoded = false;
        page.clear();
        if constexpr (std::is_same_v<T, Volume>) {
            decoded = volumeDecoder->decode(response->body, page, next);
        }
        if (!decoded) {
            auto parsed = parseListPage<T>(*response, what, recordsBefore, page, next);
            if (!parsed) {
                return fail(std::move(parsed).error());
            }
        }
        recordsBefore += page.size();
        onPage(page);
        // Harvest's rule: an empty next, or one pointing back at a page already read, ends the walk.
        if (next.empty() || visited.count(next) > 0) {
            return {};
        }
        href = std::move(next);
    }
}

template <class T>
Result<std::vector<T>> OntapClient::listAll(std::string path, std::string_view what, const CancelToken &cancel)
{
    std::vector<T> out;
    auto walked = walkPages<T>(
        std::move(path),
        what,
        [&](std::vector<T> &page) {
            // Grow geometrically: reserving exactly one page more on every page would move all
            // records read so far once per page (quadratic over 125 pages of 50,000 volumes).
            if (const std::size_t need = out.size() + page.size(); out.capacity() < need) {
                out.reserve(std::max(need, out.capacity() * 2));
            }
            std::move(page.begin(), page.end(), std::back_inserter(out));
        },
        cancel);
    if (!walked) {
        return fail(std::move(walked).error());
    }
    return out;
}

Result<Cluster> OntapClient::cluster(const CancelToken &cancel)
{
    constexpr std::string_view what = "reading the ONTAP cluster identity";
    auto body = getJson("/api/cluster?fields=" + urlEncode("name,uuid,version"), what, cancel);
    if (!body) {
        return fail(std::move(body).error());
    }
    try {
        return body->get<Cluster>();
    } catch (const std::exception &e) {
        return fail(parseError(what, http::describeJsonMismatch(e, "the cluster"), 200));
    }
}

Result<std::vector<Svm>> OntapClient::listSvms(const CancelToken &cancel)
{
    return listAll<Svm>("/api/svm/svms?fields=" + urlEncode("uuid,name,state,subtype")
                            + "&max_records=" + std::to_string(m_options.pageSize),
                        "listing ONTAP SVMs",
                        cancel);
}

Result<std::vector<Aggregate>> OntapClient::listAggregates(const CancelToken &cancel)
{
    return listAll<Aggregate>("/api/storage/aggregates?fields="
                                  + urlEncode("uuid,name,node.name,home_node.name,state,space.block_storage.size,"
                                              "space.block_storage.used,space.block_storage.available")
                                  + "&max_records=" + std::to_string(m_options.pageSize),
                              "listing ONTAP aggregates",
                              cancel);
}

Result<void> OntapClient::queryVolumes(const std::string &filter,
                                       bool withMetric,
                                       std::string_view what,
                                       const std::function<void(Volume &&)> &sink,
                                       const CancelToken &cancel)
{
    bool handedOver = false;
    const std::function<void(std::vector<Volume> &)> onPage = [&](std::vector<Volume> &page) {
        for (Volume &volume : page) {
            // Clusters that ignore or predate is_constituent would otherwise list every FlexGroup member.
            if (volume.style != "flexgroup_constituent") {
                handedOver = true;
                sink(std::move(volume));
            }
        }
    };
    const std::string common = "&max_records=" + std::to_string(m_options.pageSize) + filter;
    auto walked = walkPages<Volume>("/api/storage/volumes?fields=" + urlEncode(volumeFields(true, withMetric))
                                        + "&is_constituent=false" + common,
                                    what,
                                    onPage,
                                    cancel);
    // The 400 comes for the first page; after volumes were handed over a retry would repeat them.
    if (!walked && !handedOver && rejectsNewerFields(walked.error())) {
        walked = walkPages<Volume>(
            "/api/storage/volumes?fields=" + urlEncode(volumeFields(false, withMetric)) + common, what, onPage, cancel);
    }
    return walked;
}

Result<std::vector<Volume>>
OntapClient::queryVolumes(const std::string &filter, bool withMetric, std::string_view what, const CancelToken &cancel)
{
    std::vector<Volume> volumes;
    auto walked = queryVolumes(
        filter,
        withMetric,
        what,
        [&](Volume &&volume) {
            volumes.push_back(std::move(volume));
        },
        cancel);
    if (!walked) {
        return fail(std::move(walked).error());
    }
    return volumes;
}

Result<std::vector<Volume>> OntapClient::listVolumes(bool withMetric, const CancelToken &cancel)
{
    return queryVolumes({}, withMetric, "listing ONTAP volumes", cancel);
}

Result<void>
OntapClient::forEachVolume(bool withMetric, const std::function<void(Volume &&)> &sink, const CancelToken &cancel)
{
    return queryVolumes({}, withMetric, "listing ONTAP volumes", sink, cancel);
}

Result<std::vector<Volume>> OntapClient::listVolumeMetrics(const CancelToken &cancel)
{
    constexpr std::string_view what = "reading ONTAP volume performance";
    const std::string common = "&max_records=" + std::to_string(m_options.pageSize);
    const std::string fields = "/api/storage/volumes?fields=" + urlEncode("uuid,name,metric");
    auto volumes = listAll<Volume>(fields + "&is_constituent=false" + common, what, cancel);
    if (!volumes && rejectsNewerFields(volumes.error())) {
        volumes = listAll<Volume>(fields + common, what, cancel);
    }
    return volumes;
}

Result<Volume> OntapClient::volume(const std::string &uuid, const CancelToken &cancel)
{
    const std::string what = "reading ONTAP volume " + uuid;
    auto body = getJson(
        "/api/storage/volumes/" + urlEncode(uuid) + "?fields=" + urlEncode(volumeFields(true, false)), what, cancel);
    if (!body && rejectsNewerFields(body.error())) {
        body = getJson("/api/storage/volumes/" + urlEncode(uuid) + "?fields=" + urlEncode(volumeFields(false, false)),
                       what,
                       cancel);
    }
    if (!body) {
        return fail(std::move(body).error());
    }
    try {
        return body->get<Volume>();
    } catch (const std::exception &e) {
        return fail(parseError(what, http::describeJsonMismatch(e, "the volume" + nameOf(*body)), 200));
    }
}

Result<std::vector<Volume>>
OntapClient::findVolumesByName(const std::string &svmName, const std::string &name, const CancelToken &cancel)
{
    auto volumes = queryVolumes("&name=" + urlEncode(name) + "&svm.name=" + urlEncode(svmName),
                                false,
                                "looking up ONTAP volume " + svmName + ":" + name,
                                cancel);
    if (volumes) {
        // ONTAP treats * | ! < > in query values as operators; only exact matches answer the question asked.
        std::erase_if(*volumes, [&](const Volume &v) {
            return v.name != name || v.svm.name != svmName;
        });
    }
    return volumes;
}

Result<std::vector<Snapshot>> OntapClient::listSnapshots(const std::string &volumeUuid, const CancelToken &cancel)
{
    return listAll<Snapshot>("/api/storage/volumes/" + urlEncode(volumeUuid) + "/snapshots?fields="
                                 + urlEncode(kSnapshotFields) + "&max_records=" + std::to_string(m_options.pageSize),
                             "listing Snapshot copies of ONTAP volume " + volumeUuid,
                             cancel);
}

Result<std::vector<FlexCache>> OntapClient::listFlexCaches(const CancelToken &cancel)
{
    return listAll<FlexCache>("/api/storage/flexcache/flexcaches?fields=" + urlEncode("name,uuid,svm,size,path,origins")
                                  + "&max_records=" + std::to_string(m_options.pageSize),
                              "listing ONTAP FlexCache volumes",
                              cancel);
}

Result<std::vector<QosPolicy>> OntapClient::listQosPolicies(const CancelToken &cancel)
{
    return listAll<QosPolicy>("/api/storage/qos/policies?fields="
                                  + urlEncode("uuid,name,svm.name,svm.uuid,object_count,fixed,adaptive")
                                  + "&max_records=" + std::to_string(m_options.pageSize),
                              "listing ONTAP QoS policies",
                              cancel);
}

Result<std::vector<EmsEvent>> OntapClient::listEmsEvents(int maxRecords, const CancelToken &cancel)
{
    constexpr std::string_view what = "reading ONTAP EMS events";
    // Only the first page: the newest N are wanted, and the log can hold hundreds of thousands of events.
    auto body = getJson(
        "/api/support/ems/events?fields=" + urlEncode("index,time,node.name,message.name,message.severity,log_message")
            + "&order_by=" + urlEncode("time desc") + "&max_records=" + std::to_string(std::max(1, maxRecords)),
        what,
        cancel);
    if (!body) {
        return fail(std::move(body).error());
    }
    std::vector<EmsEvent> events;
    const json *records = body->is_object() && body->contains("records") ? &(*body)["records"] : nullptr;
    if (!records) {
        return events;
    }
    if (!records->is_array()) {
        return fail(parseError(
            what, std::string("a JSON ") + records->type_name() + " where the \"records\" array belongs", 200));
    }
    for (const json &record : *records) {
        try {
            events.push_back(record.get<EmsEvent>());
        } catch (const std::exception &e) {
            return fail(
                parseError(what, http::describeJsonMismatch(e, "event " + std::to_string(events.size() + 1)), 200));
        }
    }
    return events;
}

Result<Job> OntapClient::job(const std::string &uuid, const CancelToken &cancel)
{
    const std::string what = "reading ONTAP job " + uuid;
    auto body = getJson("/api/cluster/jobs/" + urlEncode(uuid) + "?fields=" + urlEncode(kJobFields), what, cancel);
    if (!body) {
        return fail(std::move(body).error());
    }
    try {
        return body->get<Job>();
    } catch (const std::exception &e) {
        return fail(parseError(what, http::describeJsonMismatch(e, "the job"), 200));
    }
}

Result<std::vector<Job>> OntapClient::findJobs(const std::string &descriptionGlob, const CancelToken &cancel)
{
    return listAll<Job>("/api/cluster/jobs?description=" + urlEncode(descriptionGlob)
                            + "&fields=" + urlEncode(kJobFields) + "&max_records=" + std::to_string(m_options.pageSize),
                        "looking up ONTAP jobs",
                        cancel);
}

Result<Job> OntapClient::waitForJob(const std::string &uuid, const JobProgress &progress, const CancelToken &cancel)
{
    return pollJob(uuid, "ONTAP job " + uuid, progress, cancel);
}

Result<Job> OntapClient::pollJob(const std::string &uuid,
                                 std::string_view what,
                                 const JobProgress &progress,
                                 const CancelToken &cancel)
{
    using namespace std::chrono;
    const auto started = steady_clock::now();
    const http::Sleeper sleep = sleeper();
    milliseconds slept{0};
    const milliseconds interval = std::max(m_options.jobPollInterval, milliseconds{1});
    std::string lastState = "unknown";

    auto cancelled = [&] {
        connectors::Error error =
            connectors::Error::make(Kind::Cancelled,
                                    std::string(what) + ": cancelled while waiting for job " + uuid + " (last seen "
                                        + lastState + "); the job continues on the cluster");
        error.outcomeUnknown = true;
        return fail(std::move(error));
    };

    for (;;) {
        if (cancel.isCancelled()) {
            return cancelled();
        }
        auto current = job(uuid, cancel);
        if (!current) {
            connectors::Error error = std::move(current).error();
            if (error.kind == Kind::Cancelled) {
                return cancelled();
            }
            if (error.httpStatus == 404) {
                return fail(lostJob(std::move(error), what, uuid));
            }
            // The mutation was accepted; only the polling failed, so the caller must reconcile.
            error.outcomeUnknown = true;
            return fail(std::move(error));
        }
        lastState = current->state;
        if (progress) {
            try {
                progress(*current);
            } catch (...) {
                // A throwing observer must not abandon a job the cluster is already running.
            }
        }
        if (current->state == "success") {
            return std::move(*current);
        }
        if (current->state == "failure") {
            connectors::Error error = connectors::Error::make(
                Kind::Api,
                std::string(what) + " failed: " + (current->message.empty() ? "no reason given" : current->message));
            error.apiCode = std::to_string(current->code);
            return fail(std::move(error));
        }
        // With a no-op test sleeper wall time barely moves, so the timeout also counts the waits asked for.
        const auto waited = std::max(duration_cast<milliseconds>(steady_clock::now() - started), slept);
        if (waited >= m_options.jobTimeout) {
            connectors::Error error = connectors::Error::make(
                Kind::Timeout,
                std::string(what) + ": job " + uuid + " is still " + current->state + " after "
                    + std::to_string(waited.count() / 1000) + " s; it continues on the cluster");
            error.outcomeUnknown = true;
            return fail(std::move(error));
        }
        if (!sleep(interval, cancel)) {
            return cancelled();
        }
        slept += interval;
    }
}

Result<MutationResult>
OntapClient::mutate(HttpRequest request, std::string_view what, const JobProgress &progress, const CancelToken &cancel)
{
    auto response = m_http.send(std::move(request), cancel);
    if (!response) {
        return fail(std::move(response).error());
    }
    if (!response->isSuccess()) {
        return fail(ontapError(*response, what));
    }

    MutationResult result;
    if (auto location = response->header("Location"); location && !location->empty()) {
        result.createdUuid = lastPathSegment(*location);
    }
    if (response->body.find_first_not_of(" \t\r\n") == std::string::npos) {
        return result;
    }

    std::string jobUuid;
    std::optional<Job> finished;
    try {
        const json body = http::parseJsonBounded(response->body);
        if (body.is_discarded()) {
            connectors::Error error = parseError(
                what, "malformed JSON (" + std::to_string(response->body.size()) + " bytes)", response->status);
            error.outcomeUnknown = true;
            return fail(std::move(error));
        }
        if (auto records = body.find("records"); records != body.end() && records->is_array() && !records->empty()) {
            const json &first = records->front();
            if (first.is_object() && first.contains("uuid")) {
                result.createdUuid = first.at("uuid").get<std::string>();
            }
        }
        if (auto j = body.find("job"); j != body.end() && j->is_object()) {
            jobUuid = j->value("uuid", std::string());
            if (jobUuid.empty()) {
                if (auto self = j->find("_links"); self != j->end() && self->contains("self")) {
                    jobUuid = lastPathSegment(self->at("self").value("href", std::string()));
                }
            }
            // With return_timeout > 0 a 200 may already carry the finished job.
            if (!jobUuid.empty() && j->contains("state") && j->at("state").is_string()) {
                Job embedded = j->get<Job>();
                if (embedded.isTerminal()) {
                    finished = std::move(embedded);
                }
            }
        }
    } catch (const std::exception &e) {
        connectors::Error error = parseError(what, http::describeJsonMismatch(e), response->status);
        // The cluster accepted the request; we just cannot tell what it started.
        error.outcomeUnknown = true;
        return fail(std::move(error));
    }

    if (jobUuid.empty()) {
        return result;
    }
    if (finished) {
        if (progress) {
            try {
                progress(*finished);
            } catch (...) {
            }
        }
        if (finished->state == "failure") {
            connectors::Error error =
                connectors::Error::make(Kind::Api, std::string(what) + " failed: " + finished->message);
            error.apiCode = std::to_string(finished->code);
            return fail(std::move(error));
        }
        result.job = std::move(finished);
        return result;
    }
    auto job = pollJob(jobUuid, what, progress, cancel);
    if (!job) {
        return fail(std::move(job).error());
    }
    result.job = std::move(*job);
    return result;
}

Result<MutationResult> OntapClient::createSnapshot(const std::string &volumeUuid,
                                                   const std::string &name,
                                                   const std::string &comment,
                                                   const JobProgress &progress,
                                                   const CancelToken &cancel)
{
    HttpRequest request = makeRequest(Method::Post,
                                      "/api/storage/volumes/" + urlEncode(volumeUuid)
                                          + "/snapshots?return_timeout=0&return_records=true");
    json body = {{"name", name}};
    if (!comment.empty()) {
        body["comment"] = comment;
    }
    request.body = body.dump();
    return mutate(
        std::move(request), "creating Snapshot copy \"" + name + "\" of volume " + volumeUuid, progress, cancel);
}

Result<MutationResult> OntapClient::deleteSnapshot(const std::string &volumeUuid,
                                                   const std::string &snapshotUuid,
                                                   const JobProgress &progress,
                                                   const CancelToken &cancel)
{
    HttpRequest request = makeRequest(Method::Delete,
                                      "/api/storage/volumes/" + urlEncode(volumeUuid) + "/snapshots/"
                                          + urlEncode(snapshotUuid) + "?return_timeout=0");
    return mutate(
        std::move(request), "deleting Snapshot copy " + snapshotUuid + " of volume " + volumeUuid, progress, cancel);
}

Result<MutationResult> OntapClient::restoreSnapshot(const std::string &volumeUuid,
                                                    const std::string &snapshotUuid,
                                                    const JobProgress &progress,
                                                    const CancelToken &cancel)
{
    // The swagger lists restore_to.snapshot.* as PATCH query parameters; every release accepts that form.
    HttpRequest request = makeRequest(Method::Patch,
                                      "/api/storage/volumes/" + urlEncode(volumeUuid) + "?restore_to.snapshot.uuid="
                                          + urlEncode(snapshotUuid) + "&return_timeout=0");
    request.body = "{}";
    return mutate(
        std::move(request), "restoring volume " + volumeUuid + " to Snapshot copy " + snapshotUuid, progress, cancel);
}

Result<MutationResult> OntapClient::setVolumeQosPolicy(const std::string &volumeUuid,
                                                       const std::string &policyName,
                                                       const JobProgress &progress,
                                                       const CancelToken &cancel)
{
    HttpRequest request =
        makeRequest(Method::Patch, "/api/storage/volumes/" + urlEncode(volumeUuid) + "?return_timeout=0");
    const json body = {{"qos", {{"policy", {{"name", policyName.empty() ? std::string("none") : policyName}}}}}};
    request.body = body.dump();
    return mutate(std::move(request),
                  "setting QoS policy " + (policyName.empty() ? std::string("none") : policyName) + " on volume "
                      + volumeUuid,
                  progress,
                  cancel);
}

Result<MutationResult> OntapClient::createClone(const std::string &svmName,
                                                const std::string &cloneName,
                                                const std::string &parentVolumeName,
                                                const std::string &parentSnapshotName,
                                                const JobProgress &progress,
                                                const CancelToken &cancel)
{
    HttpRequest request = makeRequest(Method::Post, "/api/storage/volumes?return_timeout=0&return_records=true");
    json clone = {
        {"is_flexclone", true}, {"parent_volume", {{"name", parentVolumeName}}}, {"parent_svm", {{"name", svmName}}}};
    if (!parentSnapshotName.empty()) {
        clone["parent_snapshot"] = {{"name", parentSnapshotName}};
    }
    const json body = {{"name", cloneName}, {"svm", {{"name", svmName}}}, {"clone", clone}};
    request.body = body.dump();
    return mutate(std::move(request),
                  "creating FlexClone " + svmName + ":" + cloneName + " of " + parentVolumeName
                      + (parentSnapshotName.empty() ? std::string() : "@" + parentSnapshotName),
                  progress,
                  cancel);
}

} // namespace strata::ontap
