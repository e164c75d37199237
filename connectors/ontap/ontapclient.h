#pragma once

#include "connectors/http/httpclient.h"
#include "connectors/ontap/dto.h"

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace strata::ontap {

struct OntapClientOptions
{
    http::ClientOptions http; ///< base URL "https://<mgmt-LIF>" (no /api), basic auth, retry
    /// max_records per page; ONTAP may return fewer and a _links.next.
    int pageSize = 2000;
    /// How often a 202 job is polled, and how long to wait for it before giving up.
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
    std::string createdUuid; ///< uuid of a created object when the server reported it
};

/// Blocking client for the ONTAP REST API. Every list follows `_links.next` to the end and
/// always sends `fields=`; mutations that answer 202 are polled at /api/cluster/jobs/{uuid}
/// until success or failure. ONTAP error bodies become HttpError{Kind::Api, apiCode=error.code,
/// message=error.message (+ target)}. A failed job becomes Kind::Api with the job's message and
/// code. 401 becomes Kind::Auth. POST/PATCH/DELETE are never retried by the client.
class OntapClient
{
public:
    OntapClient(http::IHttpTransport &transport, OntapClientOptions options);

    http::Result<Cluster> cluster(const http::CancelToken &cancel = {});
    http::Result<std::vector<Svm>> listSvms(const http::CancelToken &cancel = {});
    http::Result<std::vector<Aggregate>> listAggregates(const http::CancelToken &cancel = {});

    /// All volumes (FlexVol and FlexGroup; constituents excluded). With `withMetric`, the
    /// `metric` field is requested too (an expensive field: poll it less often).
    http::Result<std::vector<Volume>> listVolumes(bool withMetric = false, const http::CancelToken &cancel = {});
    http::Result<Volume> volume(const std::string &uuid, const http::CancelToken &cancel = {});
    /// Volumes whose name matches exactly (for reconciliation after an uncertain create).
    http::Result<std::vector<Volume>> findVolumesByName(const std::string &svmName,
                                                        const std::string &name,
                                                        const http::CancelToken &cancel = {});

    http::Result<std::vector<Snapshot>> listSnapshots(const std::string &volumeUuid,
                                                      const http::CancelToken &cancel = {});
    http::Result<std::vector<FlexCache>> listFlexCaches(const http::CancelToken &cancel = {});
    http::Result<std::vector<QosPolicy>> listQosPolicies(const http::CancelToken &cancel = {});
    /// The newest `maxRecords` EMS events, newest first.
    http::Result<std::vector<EmsEvent>> listEmsEvents(int maxRecords = 200, const http::CancelToken &cancel = {});
    http::Result<Job> job(const std::string &uuid, const http::CancelToken &cancel = {});

    http::Result<MutationResult> createSnapshot(const std::string &volumeUuid,
                                                const std::string &name,
                                                const std::string &comment,
                                                const JobProgress &progress = {},
                                                const http::CancelToken &cancel = {});
    http::Result<MutationResult> deleteSnapshot(const std::string &volumeUuid,
                                                const std::string &snapshotUuid,
                                                const JobProgress &progress = {},
                                                const http::CancelToken &cancel = {});
    /// Reverts the volume to the snapshot (PATCH volume with restore_to.snapshot.uuid).
    http::Result<MutationResult> restoreSnapshot(const std::string &volumeUuid,
                                                 const std::string &snapshotUuid,
                                                 const JobProgress &progress = {},
                                                 const http::CancelToken &cancel = {});
    /// FlexClone `cloneName` in `svmName` from `parentVolumeName`@`parentSnapshotName`.
    http::Result<MutationResult> createClone(const std::string &svmName,
                                             const std::string &cloneName,
                                             const std::string &parentVolumeName,
                                             const std::string &parentSnapshotName,
                                             const JobProgress &progress = {},
                                             const http::CancelToken &cancel = {});

    /// Jobs whose description matches `descriptionGlob` (ONTAP query syntax, `*` wildcard),
    /// for reconciling a mutation whose response was lost.
    http::Result<std::vector<Job>> findJobs(const std::string &descriptionGlob, const http::CancelToken &cancel = {});

    /// Polls a job until it is terminal; failure state maps to Kind::Api.
    http::Result<Job> waitForJob(const std::string &uuid, const JobProgress &progress, const http::CancelToken &cancel);

private:
    template<class T>
    http::Result<std::vector<T>> listAll(std::string path, std::string_view what, const http::CancelToken &cancel);
    http::Result<MutationResult> mutate(http::HttpRequest request,
                                        std::string_view what,
                                        const JobProgress &progress,
                                        const http::CancelToken &cancel);

    http::HttpClient m_http;
    OntapClientOptions m_options;
};

/// Maps a non-2xx ONTAP response to an HttpError (Auth for 401/403, Api when the body is an
/// ONTAP error_response, Http otherwise). Exposed for tests.
http::HttpError ontapError(const http::HttpResponse &response, std::string_view what);

} // namespace strata::ontap
