#pragma once

#include "connectors/http/httpclient.h"
#include "connectors/ontap/dto.h"

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace strata::ontap {

struct OntapClientOptions
{
    http::ClientOptions http; ///< base URL "https://<mgmt-LIF>" (no /api), basic auth, retry
    /// max_records per page; ONTAP may return fewer and a _links.next.
    int pageSize = 2000;
    /// How often a 202 job is polled (through http.sleeper, so tests never sleep), and how long
    /// to wait for it before giving up. The timeout counts the larger of wall time and the sum
    /// of poll intervals waited, so it is deterministic under a no-op test sleeper.
    std::chrono::milliseconds jobPollInterval{500};
    std::chrono::milliseconds jobTimeout{10 * 60'000};
};

/// Progress of an asynchronous ONTAP job, reported while polling.
using JobProgress = std::function<void(const Job &)>;

/// Outcome of a mutation: the final job (state "success"), or nothing when ONTAP completed it
/// synchronously (200/201 without a job link).
struct MutationResult
{
    std::optional<Job> job;
    /// uuid of a created object when the server reported it: `records[0].uuid` (creates send
    /// return_records=true) or the last segment of a 201 `Location`; empty otherwise.
    std::string createdUuid;
};

/// Blocking client for the ONTAP REST API (9.6+), `Accept: application/hal+json`.
///
/// Reads always send an explicit `fields=` list and `max_records=<pageSize>`, and follow
/// `_links.next` (a host-relative path+query) until it is absent, empty or points at a page
/// already read; short pages with a next link are normal (ONTAP also cuts at return_timeout).
/// GETs are retried per http.retry; POST/PATCH/DELETE are sent exactly once (idempotent=false).
///
/// Mutations carry `return_timeout=0`, so ONTAP answers 202 + job link at once; the job is then
/// polled at /api/cluster/jobs/{uuid} (queued/running/paused and unknown states keep polling)
/// and each read is reported through JobProgress. ONTAP deletes a job 300 s after it reaches
/// success or failure, so a 404 while polling means the outcome is unknown.
///
/// Errors (never exceptions):
/// - transport failures pass through unchanged, including `outcomeUnknown` on a mutation;
/// - 401/403 -> Kind::Auth; an ONTAP error body -> Kind::Api, apiCode = error.code,
///   message "<what>: <error.message> (target <target>)"; other non-2xx -> Kind::Http;
/// - 2xx with malformed JSON or a record lacking a required field -> Kind::Parse naming the
///   record; on a mutation's 2xx also outcomeUnknown, since the cluster accepted the request;
/// - job state failure -> Kind::Api, apiCode = job code, message "<what> failed: <job message>";
/// - after the mutation was accepted, every polling failure (job timeout -> Kind::Timeout,
///   cancellation -> Kind::Cancelled, job 404, transport) sets outcomeUnknown: the job may still
///   run, so callers reconcile (findJobs, findVolumesByName) instead of resubmitting.
class OntapClient
{
public:
    OntapClient(http::IHttpTransport &transport, OntapClientOptions options);

    connectors::Result<Cluster> cluster(const http::CancelToken &cancel = {});
    connectors::Result<std::vector<Svm>> listSvms(const http::CancelToken &cancel = {});
    connectors::Result<std::vector<Aggregate>> listAggregates(const http::CancelToken &cancel = {});

    /// All volumes (FlexVol and FlexGroup; constituents excluded by `is_constituent=false` and
    /// by style). With `withMetric`, the `metric` field is requested too (an expensive field:
    /// poll it less often). A cluster that rejects `is_constituent` or `space.percent_used`
    /// with 400 (pre-9.8/9.9) is asked once more without them; percentUsed is then derived.
    connectors::Result<std::vector<Volume>> listVolumes(bool withMetric = false, const http::CancelToken &cancel = {});
    /// listVolumes() handing each volume to `sink` as soon as its page is decoded, in the
    /// cluster's order, instead of collecting them: a caller that converts them holds one page of
    /// connector records at a time (at 50,000 volumes about 50 MB less). On an error the volumes
    /// already handed over belong to a listing that failed.
    connectors::Result<void>
    forEachVolume(bool withMetric, const std::function<void(Volume &&)> &sink, const http::CancelToken &cancel = {});
    /// uuid, name and the latest `metric` (15 s average) of every volume: the light listing for
    /// the performance poll, about a tenth of listVolumes(true)'s payload.
    connectors::Result<std::vector<Volume>> listVolumeMetrics(const http::CancelToken &cancel = {});
    connectors::Result<Volume> volume(const std::string &uuid, const http::CancelToken &cancel = {});
    /// Volumes whose name matches exactly (for reconciliation after an uncertain create).
    connectors::Result<std::vector<Volume>>
    findVolumesByName(const std::string &svmName, const std::string &name, const http::CancelToken &cancel = {});

    connectors::Result<std::vector<Snapshot>> listSnapshots(const std::string &volumeUuid,
                                                            const http::CancelToken &cancel = {});
    connectors::Result<std::vector<FlexCache>> listFlexCaches(const http::CancelToken &cancel = {});
    connectors::Result<std::vector<QosPolicy>> listQosPolicies(const http::CancelToken &cancel = {});
    /// The newest `maxRecords` EMS events, newest first (`order_by=time desc`); only the first
    /// page is read, never `_links.next`.
    connectors::Result<std::vector<EmsEvent>> listEmsEvents(int maxRecords = 200, const http::CancelToken &cancel = {});
    connectors::Result<Job> job(const std::string &uuid, const http::CancelToken &cancel = {});

    connectors::Result<MutationResult> createSnapshot(const std::string &volumeUuid,
                                                      const std::string &name,
                                                      const std::string &comment,
                                                      const JobProgress &progress = {},
                                                      const http::CancelToken &cancel = {});
    connectors::Result<MutationResult> deleteSnapshot(const std::string &volumeUuid,
                                                      const std::string &snapshotUuid,
                                                      const JobProgress &progress = {},
                                                      const http::CancelToken &cancel = {});
    /// Reverts the volume to the snapshot: PATCH /api/storage/volumes/{uuid} with the query
    /// parameter restore_to.snapshot.uuid (the swagger's form) and body `{}`.
    connectors::Result<MutationResult> restoreSnapshot(const std::string &volumeUuid,
                                                       const std::string &snapshotUuid,
                                                       const JobProgress &progress = {},
                                                       const http::CancelToken &cancel = {});
    /// Sets the volume's QoS policy (its service level on ONTAP): PATCH
    /// /api/storage/volumes/{uuid} with {"qos":{"policy":{"name":...}}} (a 202 job). An empty
    /// `policyName` removes the policy (ONTAP's name "none").
    connectors::Result<MutationResult> setVolumeQosPolicy(const std::string &volumeUuid,
                                                          const std::string &policyName,
                                                          const JobProgress &progress = {},
                                                          const http::CancelToken &cancel = {});
    /// FlexClone `cloneName` in `svmName` from `parentVolumeName`@`parentSnapshotName` (empty
    /// snapshot name: ONTAP takes a new one). Nested body: name, svm.name, clone.{is_flexclone,
    /// parent_volume.name, parent_snapshot.name, parent_svm.name}.
    connectors::Result<MutationResult> createClone(const std::string &svmName,
                                                   const std::string &cloneName,
                                                   const std::string &parentVolumeName,
                                                   const std::string &parentSnapshotName,
                                                   const JobProgress &progress = {},
                                                   const http::CancelToken &cancel = {});

    /// Jobs whose description matches `descriptionGlob` (ONTAP query syntax, `*` wildcard),
    /// for reconciling a mutation whose response was lost.
    connectors::Result<std::vector<Job>> findJobs(const std::string &descriptionGlob,
                                                  const http::CancelToken &cancel = {});

    /// Polls a job until it is terminal; failure state maps to Kind::Api. See the class comment
    /// for timeout, cancellation and 404 (job deleted 300 s after completion) handling.
    connectors::Result<Job>
    waitForJob(const std::string &uuid, const JobProgress &progress, const http::CancelToken &cancel);

private:
    /// A request to `pathAndQuery` (relative to the base URL) with the HAL Accept header.
    [[nodiscard]] http::HttpRequest makeRequest(http::Method method, const std::string &pathAndQuery) const;
    /// GET of one object's text; transport failures and non-2xx become errors naming `what`.
    connectors::Result<http::HttpResponse>
    getBody(const std::string &pathAndQuery, std::string_view what, const http::CancelToken &cancel);
    /// GET of one object; non-2xx and malformed JSON become errors naming `what`.
    connectors::Result<nlohmann::json>
    getJson(const std::string &pathAndQuery, std::string_view what, const http::CancelToken &cancel);
    /// GETs `path` and each `_links.next` after it, handing every page's records to `onPage`
    /// (which may move them out).
    template <class T>
    connectors::Result<void> walkPages(std::string path,
                                       std::string_view what,
                                       const std::function<void(std::vector<T> &)> &onPage,
                                       const http::CancelToken &cancel);
    template <class T>
    connectors::Result<std::vector<T>>
    listAll(std::string path, std::string_view what, const http::CancelToken &cancel);
    /// The pages of /api/storage/volumes with `filter` ("" or "&name=..."), FlexGroup constituents
    /// left out, retried once with the ONTAP 9.6 baseline (no is_constituent, no
    /// space.percent_used) if the cluster rejects those; collected, or each handed to `sink`.
    connectors::Result<std::vector<Volume>>
    queryVolumes(const std::string &filter, bool withMetric, std::string_view what, const http::CancelToken &cancel);
    connectors::Result<void> queryVolumes(const std::string &filter,
                                          bool withMetric,
                                          std::string_view what,
                                          const std::function<void(Volume &&)> &sink,
                                          const http::CancelToken &cancel);
    connectors::Result<MutationResult> mutate(http::HttpRequest request,
                                              std::string_view what,
                                              const JobProgress &progress,
                                              const http::CancelToken &cancel);
    connectors::Result<Job> pollJob(const std::string &uuid,
                                    std::string_view what,
                                    const JobProgress &progress,
                                    const http::CancelToken &cancel);
    [[nodiscard]] http::Sleeper sleeper() const;

    http::HttpClient m_http;
    OntapClientOptions m_options;
};

/// Maps a non-2xx ONTAP response to an connectors::Error (Auth for 401/403, Api when the body is an
/// ONTAP error_response, Http otherwise). Exposed for tests.
connectors::Error ontapError(const http::HttpResponse &response, std::string_view what);

} // namespace strata::ontap
