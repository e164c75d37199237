// OntapClient mutations: request shape (method, query, body), 202 + job polling with progress,
// job failure/timeout/vanishing, cancellation, and the no-retry rule for POST/PATCH/DELETE.
#include "tests/connectors/ontap/ontaptestsupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace strata::ontap::test {
namespace {

using Kind = connectors::Error::Kind;
using nlohmann::json;

const std::string kSnapshots =
    std::string("/api/storage/volumes/") + "6b1f0c2e-d0a4-11ee-b3c1-005056ae5bd6" + "/snapshots";

class OntapMutationTest : public OntapClientTest
{
protected:
    void enqueueAccepted(Method method, const std::string &path)
    {
        transport.enqueueJson(method, path, ontapFixture("job_link_202.json"), 202);
    }
    void enqueueJob(const std::string &name) { transport.enqueueJson(Method::Get, kJobPath, ontapFixture(name)); }

    std::vector<std::string> progressStates;
    JobProgress recordProgress()
    {
        return [this](const Job &job) {
            progressStates.push_back(job.state);
        };
    }
};

TEST_F(OntapMutationTest, CreateSnapshot_202ThenQueuedRunningSuccess_ReportsEveryPollAndReturnsJob)
{
    enqueueAccepted(Method::Post, kSnapshots);
    enqueueJob("job_queued.json");
    enqueueJob("job_running.json");
    enqueueJob("job_success.json");

    const auto result = client().createSnapshot(kVolumeUuid, "nightly", "before upgrade", recordProgress());
    ASSERT_TRUE(result) << result.error().message;
    ASSERT_TRUE(result->job.has_value());
    EXPECT_EQ(result->job->state, "success");
    EXPECT_EQ(result->job->uuid, kJobUuid);
    EXPECT_EQ(progressStates, (std::vector<std::string>{"queued", "running", "success"}));
    EXPECT_EQ(pollSleeps(), 2) << "one poll interval between consecutive job reads";
    EXPECT_EQ(transport.requestCount(Method::Get, kJobPath), 3);

    const auto post = transport.requests().front();
    EXPECT_EQ(post.method, Method::Post);
    EXPECT_EQ(query(post, "return_timeout"), "0");
    EXPECT_EQ(json::parse(post.body), json({{"name", "nightly"}, {"comment", "before upgrade"}}));
    EXPECT_EQ(http::findHeader(post.headers, "Accept"), "application/hal+json");
    EXPECT_EQ(http::findHeader(post.headers, "Content-Type"), "application/json");
}

TEST_F(OntapMutationTest, CreateSnapshot_EmptyComment_OmittedFromBody)
{
    enqueueAccepted(Method::Post, kSnapshots);
    enqueueJob("job_success.json");
    ASSERT_TRUE(client().createSnapshot(kVolumeUuid, "nightly", ""));
    EXPECT_EQ(json::parse(transport.requests().front().body), json({{"name", "nightly"}}));
}

TEST_F(OntapMutationTest, CreateSnapshot_Post503_NotRetried)
{
    transport.enqueue(Method::Post, kSnapshots, http::HttpResponse::withStatus(503));
    enqueueAccepted(Method::Post, kSnapshots);
    const auto result = client().createSnapshot(kVolumeUuid, "nightly", "");
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, Kind::Http);
    EXPECT_EQ(result.error().httpStatus, 503);
    EXPECT_EQ(transport.requestCount(), 1);
    EXPECT_EQ(transport.pending(), 1u);
}

TEST_F(OntapMutationTest, CreateSnapshot_TransportErrorWithUnknownOutcome_PassedThroughUnchanged)
{
    connectors::Error lost = connectors::Error::make(Kind::Transport, "connection reset after the request was sent");
    lost.curlCode = 56;
    lost.outcomeUnknown = true;
    transport.enqueue(Method::Post, kSnapshots, connectors::fail(lost));
    const auto result = client().createSnapshot(kVolumeUuid, "nightly", "");
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, Kind::Transport);
    EXPECT_TRUE(result.error().outcomeUnknown);
    EXPECT_EQ(result.error().curlCode, 56);
    EXPECT_EQ(result.error().message, "connection reset after the request was sent");
    EXPECT_EQ(transport.requestCount(), 1) << "a POST whose outcome is unknown must never be resent";
}

TEST_F(OntapMutationTest, CreateSnapshot_ErrorBody_ReturnsApiErrorWithCodeAndTarget)
{
    transport.enqueueJson(
        Method::Post,
        kSnapshots,
        R"({"error":{"message":"Snapshot copy \"nightly\" already exists","code":"1638600","target":"name"}})",
        409);
    const auto result = client().createSnapshot(kVolumeUuid, "nightly", "");
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, Kind::Api);
    EXPECT_EQ(result.error().apiCode, "1638600");
    EXPECT_EQ(result.error().message,
              std::string("creating Snapshot copy \"nightly\" of volume ") + kVolumeUuid
                  + ": Snapshot copy \"nightly\" already exists (target name)");
    EXPECT_FALSE(result.error().outcomeUnknown);
}

TEST_F(OntapMutationTest, CreateClone_JobFailure_ReturnsApiErrorWithJobMessageAndCode)
{
    enqueueAccepted(Method::Post, "/api/storage/volumes");
    enqueueJob("job_running.json");
    enqueueJob("job_failure.json");
    const auto result =
        client().createClone("svm_dr", "clone1", "fg_analytics_dst", "daily.2024-03-01_0010", recordProgress());
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, Kind::Api);
    EXPECT_EQ(result.error().apiCode, "917536");
    EXPECT_EQ(result.error().message,
              "creating FlexClone svm_dr:clone1 of fg_analytics_dst@daily.2024-03-01_0010 failed: Cannot create a "
              "FlexClone of volume \"fg_analytics_dst\" because it is a data protection volume that has not been "
              "initialized.");
    EXPECT_EQ(progressStates, (std::vector<std::string>{"running", "failure"}));
}

TEST_F(OntapMutationTest, CreateClone_Request_HasNestedCloneBodyAndReturnsCreatedUuid)
{
    transport.enqueueJson(Method::Post, "/api/storage/volumes", ontapFixture("clone_202_records.json"), 202);
    enqueueJob("job_success.json");
    const auto result = client().createClone("svm_trident",
                                             "trident_pvc_clone_of_2f9c3e4b",
                                             "trident_pvc_2f9c3e4b_8a1d_4c5e_9b7f_0d6e1a2b3c4d",
                                             "snapshot-5c1f7e2a-9d3b-4a6c-8e1f-2b3c4d5e6f70");
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->createdUuid, "0c1d2e3f-d7c9-11ee-b3c1-005056ae5bd6");
    ASSERT_TRUE(result->job.has_value());

    const auto post = transport.requests().front();
    EXPECT_EQ(post.method, Method::Post);
    EXPECT_EQ(FakeTransport::pathOf(post.url), "/api/storage/volumes");
    EXPECT_EQ(query(post, "return_timeout"), "0");
    const json expected = {{"name", "trident_pvc_clone_of_2f9c3e4b"},
                           {"svm", {{"name", "svm_trident"}}},
                           {"clone",
                            {{"is_flexclone", true},
                             {"parent_volume", {{"name", "trident_pvc_2f9c3e4b_8a1d_4c5e_9b7f_0d6e1a2b3c4d"}}},
                             {"parent_snapshot", {{"name", "snapshot-5c1f7e2a-9d3b-4a6c-8e1f-2b3c4d5e6f70"}}},
                             {"parent_svm", {{"name", "svm_trident"}}}}}};
    EXPECT_EQ(json::parse(post.body), expected);
}

TEST_F(OntapMutationTest, RestoreSnapshot_Request_IsPatchWithRestoreToSnapshotUuidQuery)
{
    const std::string volumePath = std::string("/api/storage/volumes/") + kVolumeUuid;
    enqueueAccepted(Method::Patch, volumePath);
    enqueueJob("job_success.json");
    const auto result = client().restoreSnapshot(kVolumeUuid, "4d2c1b0a-d7b0-11ee-b3c1-005056ae5bd6");
    ASSERT_TRUE(result) << result.error().message;
    const auto patch = transport.requests().front();
    EXPECT_EQ(patch.method, Method::Patch);
    EXPECT_EQ(FakeTransport::pathOf(patch.url), volumePath);
    EXPECT_EQ(query(patch, "restore_to.snapshot.uuid"), "4d2c1b0a-d7b0-11ee-b3c1-005056ae5bd6");
    EXPECT_EQ(query(patch, "return_timeout"), "0");
    EXPECT_EQ(json::parse(patch.body), json::object());
}

TEST_F(OntapMutationTest, SetVolumeQosPolicy_IsPatchOfQosPolicyNameAndNoneRemovesIt)
{
    const std::string volumePath = std::string("/api/storage/volumes/") + kVolumeUuid;
    enqueueAccepted(Method::Patch, volumePath);
    enqueueJob("job_success.json");
    const auto set = client().setVolumeQosPolicy(kVolumeUuid, "ai-training");
    ASSERT_TRUE(set) << set.error().message;
    const auto patch = transport.requests().front();
    EXPECT_EQ(patch.method, Method::Patch);
    EXPECT_EQ(FakeTransport::pathOf(patch.url), volumePath);
    EXPECT_EQ(query(patch, "return_timeout"), "0");
    EXPECT_EQ(json::parse(patch.body), json::parse(R"({"qos":{"policy":{"name":"ai-training"}}})"));

    enqueueAccepted(Method::Patch, volumePath);
    enqueueJob("job_success.json");
    const std::size_t before = transport.requests().size();
    ASSERT_TRUE(client().setVolumeQosPolicy(kVolumeUuid, ""));
    EXPECT_EQ(json::parse(transport.requests().at(before).body), json::parse(R"({"qos":{"policy":{"name":"none"}}})"));
}

TEST_F(OntapMutationTest, RestoreSnapshot_VolumeBusy_ReturnsApiErrorWithoutRetry)
{
    transport.enqueueJson(
        Method::Patch, std::string("/api/storage/volumes/") + kVolumeUuid, ontapFixture("error_volume_busy.json"), 409);
    const auto result = client().restoreSnapshot(kVolumeUuid, "snap-uuid");
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, Kind::Api);
    EXPECT_EQ(result.error().apiCode, "524486");
    EXPECT_EQ(transport.requestCount(), 1);
}

TEST_F(OntapMutationTest, DeleteSnapshot_Request_IsDeleteOnSnapshotPathThenPolls)
{
    const std::string path = kSnapshots + "/4d2c1b0a-d7b0-11ee-b3c1-005056ae5bd6";
    enqueueAccepted(Method::Delete, path);
    enqueueJob("job_running.json");
    enqueueJob("job_success.json");
    const auto result = client().deleteSnapshot(kVolumeUuid, "4d2c1b0a-d7b0-11ee-b3c1-005056ae5bd6", recordProgress());
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->job->state, "success");
    EXPECT_EQ(transport.requests().front().method, Method::Delete);
    EXPECT_EQ(query(transport.requests().front(), "return_timeout"), "0");
    EXPECT_TRUE(transport.requests().front().body.empty());
    EXPECT_EQ(progressStates.size(), 2u);
}

TEST_F(OntapMutationTest, DeleteSnapshot_Delete503_NotRetried)
{
    const std::string path = kSnapshots + "/s1";
    transport.enqueue(Method::Delete, path, http::HttpResponse::withStatus(503));
    const auto result = client().deleteSnapshot(kVolumeUuid, "s1");
    ASSERT_FALSE(result);
    EXPECT_EQ(transport.requestCount(), 1);
}

TEST_F(OntapMutationTest, Mutation_201WithLocationAndEmptyBody_ReturnsCreatedUuidWithoutPolling)
{
    transport.enqueue(
        Method::Post,
        kSnapshots,
        http::HttpResponse::withStatus(201, "", {{"Location", kSnapshots + "/9a8b7c6d-d7d0-11ee-b3c1-005056ae5bd6"}}));
    const auto result = client().createSnapshot(kVolumeUuid, "manual", "");
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_FALSE(result->job.has_value());
    EXPECT_EQ(result->createdUuid, "9a8b7c6d-d7d0-11ee-b3c1-005056ae5bd6");
    EXPECT_EQ(transport.requestCount(), 1);
}

TEST_F(OntapMutationTest, Mutation_200WithFinishedJobEmbedded_DoesNotPoll)
{
    transport.enqueueJson(Method::Post, kSnapshots, R"({"job":)" + ontapFixture("job_success.json") + "}", 200);
    const auto result = client().createSnapshot(kVolumeUuid, "nightly", "", recordProgress());
    ASSERT_TRUE(result) << result.error().message;
    ASSERT_TRUE(result->job.has_value());
    EXPECT_EQ(result->job->state, "success");
    EXPECT_EQ(transport.requestCount(), 1);
    EXPECT_EQ(progressStates, (std::vector<std::string>{"success"}));
}

TEST_F(OntapMutationTest, Mutation_200WithJobLinkOnly_PollsTheJob)
{
    transport.enqueueJson(Method::Post, kSnapshots, ontapFixture("job_link_202.json"), 200);
    enqueueJob("job_success.json");
    const auto result = client().createSnapshot(kVolumeUuid, "nightly", "");
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(transport.requestCount(Method::Get, kJobPath), 1);
}

TEST_F(OntapMutationTest, Mutation_JobLinkWithoutUuid_UsesSelfHref)
{
    transport.enqueueJson(
        Method::Post, kSnapshots, std::string(R"({"job":{"_links":{"self":{"href":")") + kJobPath + R"("}}}})", 202);
    enqueueJob("job_success.json");
    const auto result = client().createSnapshot(kVolumeUuid, "nightly", "");
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(transport.requestCount(Method::Get, kJobPath), 1);
}

TEST_F(OntapMutationTest, Mutation_MalformedJsonOn202_ParseErrorWithUnknownOutcome)
{
    transport.enqueueJson(Method::Post, kSnapshots, R"({"job":{"uuid":"e43a)", 202);
    const auto result = client().createSnapshot(kVolumeUuid, "nightly", "");
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, Kind::Parse);
    EXPECT_TRUE(result.error().outcomeUnknown);
    EXPECT_EQ(result.error().httpStatus, 202);
}

TEST_F(OntapMutationTest, Mutation_Unauthorized401_ReturnsAuthError)
{
    transport.enqueueJson(Method::Post, kSnapshots, ontapFixture("error_auth.json"), 401);
    const auto result = client().createSnapshot(kVolumeUuid, "nightly", "");
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, Kind::Auth);
    EXPECT_EQ(result.error().message,
              std::string("ONTAP rejected the credentials for creating Snapshot copy \"nightly\" of volume ")
                  + kVolumeUuid);
}

TEST_F(OntapMutationTest, WaitForJob_JobVanishedWhileRunning_ErrorWithUnknownOutcome)
{
    enqueueJob("job_running.json");
    transport.enqueueJson(Method::Get, kJobPath, ontapFixture("error_entry_not_found.json"), 404);
    const auto job = client().waitForJob(kJobUuid, {}, {});
    ASSERT_FALSE(job);
    EXPECT_EQ(job.error().httpStatus, 404);
    EXPECT_TRUE(job.error().outcomeUnknown);
    EXPECT_NE(job.error().message.find("no longer exists"), std::string::npos) << job.error().message;
    EXPECT_NE(job.error().message.find("300 s"), std::string::npos) << job.error().message;
}

TEST_F(OntapMutationTest, WaitForJob_NeverFinishes_TimesOutWithUnknownOutcome)
{
    auto o = options();
    o.jobTimeout = 2s;
    const std::string running = ontapFixture("job_running.json");
    transport.setOverride(
        [&](const http::HttpRequest &request) -> std::optional<connectors::Result<http::HttpResponse>> {
            if (FakeTransport::pathOf(request.url) == kJobPath) {
                return connectors::Result<http::HttpResponse>(http::HttpResponse::withStatus(200, running));
            }
            return std::nullopt;
        });
    const auto job = clientWith(o).waitForJob(kJobUuid, {}, {});
    ASSERT_FALSE(job);
    EXPECT_EQ(job.error().kind, Kind::Timeout);
    EXPECT_TRUE(job.error().outcomeUnknown);
    EXPECT_NE(job.error().message.find("still running"), std::string::npos) << job.error().message;
    EXPECT_EQ(pollSleeps(), 4) << "2 s timeout / 500 ms interval";
    EXPECT_EQ(transport.requestCount(), 5);
}

TEST_F(OntapMutationTest, WaitForJob_CancelledDuringPollInterval_ReturnsCancelled)
{
    enqueueAccepted(Method::Post, kSnapshots);
    enqueueJob("job_running.json");
    enqueueJob("job_success.json");
    cancelOnSleep = true;
    const auto result = client().createSnapshot(kVolumeUuid, "nightly", "", recordProgress());
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, Kind::Cancelled);
    EXPECT_TRUE(result.error().outcomeUnknown) << "the job keeps running on the cluster";
    EXPECT_NE(result.error().message.find(kJobUuid), std::string::npos) << result.error().message;
    EXPECT_EQ(transport.requestCount(Method::Get, kJobPath), 1);
    EXPECT_EQ(progressStates, (std::vector<std::string>{"running"}));
}

TEST_F(OntapMutationTest, WaitForJob_CancelledWhileJobRequestHangs_ReturnsCancelled)
{
    transport.enqueueHang(Method::Get, kJobPath);
    // Cancels once the job request has reached the transport (and hangs there).
    std::promise<void> reached;
    std::once_flag reachedOnce;
    transport.setOverride(
        [&](const http::HttpRequest &request) -> std::optional<connectors::Result<http::HttpResponse>> {
            if (FakeTransport::pathOf(request.url) == kJobPath) {
                std::call_once(reachedOnce, [&] {
                    reached.set_value();
                });
            }
            return std::nullopt;
        });
    http::CancelToken cancel;
    std::thread canceller([cancel, hanging = reached.get_future()] {
        hanging.wait_for(30s); // bounded only so a regression fails instead of hanging
        cancel.cancel();
    });
    const auto job = client().waitForJob(kJobUuid, {}, cancel);
    canceller.join();
    ASSERT_FALSE(job);
    EXPECT_EQ(job.error().kind, Kind::Cancelled);
    EXPECT_TRUE(job.error().outcomeUnknown);
}

TEST_F(OntapMutationTest, WaitForJob_AlreadyCancelledToken_SendsNothing)
{
    http::CancelToken cancel;
    cancel.cancel();
    const auto job = client().waitForJob(kJobUuid, {}, cancel);
    ASSERT_FALSE(job);
    EXPECT_EQ(job.error().kind, Kind::Cancelled);
    EXPECT_EQ(transport.requestCount(), 0);
}

TEST_F(OntapMutationTest, WaitForJob_ThrowingProgressCallback_StillFollowsTheJob)
{
    enqueueJob("job_running.json");
    enqueueJob("job_success.json");
    int calls = 0;
    const auto job = client().waitForJob(kJobUuid,
                                         [&](const Job &) {
                                             ++calls;
                                             throw std::runtime_error("observer bug");
                                         },
                                         {});
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_EQ(job->state, "success");
    EXPECT_EQ(calls, 2);
}

TEST_F(OntapMutationTest, WaitForJob_PollTransportErrors_RetriedThenReportedWithUnknownOutcome)
{
    enqueueJob("job_running.json");
    transport.enqueueError(Method::Get, kJobPath, Kind::Timeout, "operation timed out");
    enqueueJob("job_success.json");
    const auto job = client().waitForJob(kJobUuid, {}, {});
    ASSERT_TRUE(job) << "a GET of the job is idempotent and retried: " << job.error().message;

    transport.enqueueError(Method::Get, kJobPath, Kind::Transport, "connection refused");
    transport.enqueueError(Method::Get, kJobPath, Kind::Transport, "connection refused");
    const auto lost = client().waitForJob(kJobUuid, {}, {});
    ASSERT_FALSE(lost);
    EXPECT_EQ(lost.error().kind, Kind::Transport);
    EXPECT_TRUE(lost.error().outcomeUnknown);
}

TEST_F(OntapMutationTest, WaitForJob_FailureWithoutDescription_NamesTheJob)
{
    transport.enqueueJson(Method::Get,
                          kJobPath,
                          std::string(R"({"uuid":")") + kJobUuid
                              + R"(","state":"failure","message":"disk full","code":2})");
    const auto job = client().waitForJob(kJobUuid, {}, {});
    ASSERT_FALSE(job);
    EXPECT_EQ(job.error().kind, Kind::Api);
    EXPECT_EQ(job.error().apiCode, "2");
    EXPECT_EQ(job.error().message, std::string("ONTAP job ") + kJobUuid + " failed: disk full");
}

} // namespace
} // namespace strata::ontap::test
