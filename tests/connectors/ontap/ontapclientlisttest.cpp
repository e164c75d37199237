// OntapClient reads: query shape (fields=, max_records, filters), _links.next paging, retries of
// GETs, and the mapping of ONTAP error bodies, auth failures and malformed payloads.
#include "tests/connectors/ontap/ontaptestsupport.h"

#include <gtest/gtest.h>

namespace strata::ontap::test {
namespace {

using Kind = connectors::Error::Kind;

constexpr const char *kVolumes = "/api/storage/volumes";

std::vector<std::string> split(const std::string &csv)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos <= csv.size()) {
        auto comma = csv.find(',', pos);
        if (comma == std::string::npos) {
            comma = csv.size();
        }
        out.push_back(csv.substr(pos, comma - pos));
        pos = comma + 1;
    }
    return out;
}

std::string page(const std::string &recordsJson, const std::string &nextHref)
{
    std::string body = R"({"records":[)" + recordsJson + "]";
    if (!nextHref.empty()) {
        body += R"(,"_links":{"next":{"href":")" + nextHref + R"("}})";
    }
    return body + "}";
}

TEST_F(OntapClientTest, Cluster_Fixture_RequestsIdentityFieldsAndParses)
{
    transport.enqueueJson(Method::Get, "/api/cluster", ontapFixture("cluster.json"));
    const auto cluster = client().cluster();
    ASSERT_TRUE(cluster) << cluster.error().message;
    EXPECT_EQ(cluster->name, "ntap-prod-01");
    EXPECT_EQ(cluster->versionMajor, 14);
    const auto request = lastRequest();
    EXPECT_EQ(request.url.rfind("https://cluster.test:8443/api/cluster?", 0), 0u) << request.url;
    EXPECT_EQ(query(request, "fields"), "name,uuid,version");
    EXPECT_EQ(http::findHeader(request.headers, "Accept"), "application/hal+json");
}

TEST_F(OntapClientTest, ListVolumes_TwoPages_FollowsNextLinkToTheEnd)
{
    transport.enqueueJson(Method::Get, kVolumes, ontapFixture("volumes_page1.json"));
    transport.enqueueJson(Method::Get, kVolumes, ontapFixture("volumes_page2.json"));
    const auto volumes = client().listVolumes();
    ASSERT_TRUE(volumes) << volumes.error().message;
    ASSERT_EQ(volumes->size(), 5u);
    EXPECT_EQ((*volumes)[0].name, "trident_pvc_2f9c3e4b_8a1d_4c5e_9b7f_0d6e1a2b3c4d");
    EXPECT_EQ((*volumes)[3].name, "vol_archive_2019");
    EXPECT_EQ((*volumes)[4].type, "dp");
    const auto requests = transport.requests();
    ASSERT_EQ(requests.size(), 2u);
    // The second request is exactly the server's next href, resolved against the base URL.
    EXPECT_EQ(requests[1].url.rfind("https://cluster.test:8443/api/storage/volumes?start.svm.name=svm_nfs", 0), 0u)
        << requests[1].url;
    EXPECT_EQ(query(requests[1], "start.name"), "fg_analytics");
    EXPECT_EQ(http::findHeader(requests[1].headers, "Accept"), "application/hal+json");
    EXPECT_EQ(transport.pending(), 0u);
}

TEST_F(OntapClientTest, ListVolumes_ShortPagesWithNextLinks_ReadsAllThreePages)
{
    // Fewer records than max_records is not the end: ONTAP also cuts pages at return_timeout.
    transport.enqueueJson(
        Method::Get, kVolumes, page(R"({"uuid":"a","name":"v1"})", "/api/storage/volumes?start.uuid=a&max_records=50"));
    transport.enqueueJson(
        Method::Get, kVolumes, page(R"({"uuid":"b","name":"v2"})", "/api/storage/volumes?start.uuid=b&max_records=50"));
    transport.enqueueJson(Method::Get, kVolumes, page(R"({"uuid":"c","name":"v3"})", ""));
    const auto volumes = client().listVolumes();
    ASSERT_TRUE(volumes) << volumes.error().message;
    ASSERT_EQ(volumes->size(), 3u);
    EXPECT_EQ((*volumes)[2].uuid, "c");
    EXPECT_EQ(transport.requestCount(), 3);
}

TEST_F(OntapClientTest, ListVolumes_NextEqualsPreviousHref_StopsInsteadOfLooping)
{
    const std::string second = "/api/storage/volumes?start.uuid=a&max_records=50";
    transport.enqueueJson(Method::Get, kVolumes, page(R"({"uuid":"a","name":"v1"})", second));
    transport.enqueueJson(Method::Get, kVolumes, page(R"({"uuid":"b","name":"v2"})", second));
    transport.enqueueJson(Method::Get, kVolumes, page(R"({"uuid":"x","name":"never"})", ""));
    const auto volumes = client().listVolumes();
    ASSERT_TRUE(volumes) << volumes.error().message;
    EXPECT_EQ(volumes->size(), 2u);
    EXPECT_EQ(transport.requestCount(), 2);
}

TEST_F(OntapClientTest, ListVolumes_EmptyNextHrefAndNoNumRecords_EndsTheWalk)
{
    transport.enqueueJson(
        Method::Get, kVolumes, R"({"records":[{"uuid":"a","name":"v1"}],"_links":{"next":{"href":""}}})");
    const auto volumes = client().listVolumes();
    ASSERT_TRUE(volumes) << volumes.error().message;
    EXPECT_EQ(volumes->size(), 1u);
    EXPECT_EQ(transport.requestCount(), 1);
}

TEST_F(OntapClientTest, ListVolumes_NoRecordsKey_ReturnsEmptyList)
{
    transport.enqueueJson(Method::Get, kVolumes, R"({"num_records":0})");
    const auto volumes = client().listVolumes();
    ASSERT_TRUE(volumes) << volumes.error().message;
    EXPECT_TRUE(volumes->empty());
}

TEST_F(OntapClientTest, ListVolumes_FirstRequest_SendsExplicitFieldsPageSizeAndConstituentFilter)
{
    transport.enqueueJson(Method::Get, kVolumes, ontapFixture("volumes_page2.json"));
    ASSERT_TRUE(client().listVolumes());
    const auto request = lastRequest();
    EXPECT_EQ(request.method, Method::Get);
    EXPECT_EQ(query(request, "max_records"), "50");
    EXPECT_EQ(query(request, "is_constituent"), "false");
    const auto fields = query(request, "fields");
    ASSERT_TRUE(fields.has_value());
    EXPECT_EQ(fields->find('*'), std::string::npos) << "never fields=* or **: " << *fields;
    const auto list = split(*fields);
    for (const char *expected : {"uuid",
                                 "name",
                                 "svm.name",
                                 "svm.uuid",
                                 "aggregates.name",
                                 "aggregates.uuid",
                                 "state",
                                 "style",
                                 "type",
                                 "size",
                                 "space.used",
                                 "space.available",
                                 "space.percent_used",
                                 "space.snapshot.reserve_percent",
                                 "space.snapshot.used",
                                 "qos.policy.name",
                                 "qos.policy.uuid",
                                 "clone.is_flexclone",
                                 "clone.parent_volume.name",
                                 "clone.parent_volume.uuid",
                                 "clone.parent_snapshot.name",
                                 "clone.parent_snapshot.uuid",
                                 "nas.path",
                                 "snapshot_count",
                                 "create_time"}) {
        EXPECT_NE(std::find(list.begin(), list.end(), expected), list.end()) << "missing field " << expected;
    }
    EXPECT_EQ(std::find(list.begin(), list.end(), "metric"), list.end()) << "metric is expensive: only on request";
    ASSERT_TRUE(request.basic.has_value());
    EXPECT_EQ(request.basic->username, "admin");
}

TEST_F(OntapClientTest, ListVolumes_WithMetric_AddsMetricField)
{
    transport.enqueueJson(Method::Get, kVolumes, R"({"records":[]})");
    ASSERT_TRUE(client().listVolumes(true));
    const auto list = split(query(lastRequest(), "fields").value_or(""));
    EXPECT_NE(std::find(list.begin(), list.end(), "metric"), list.end());
}

TEST_F(OntapClientTest, ListVolumes_PageSizeOption_SentAsMaxRecords)
{
    auto o = options();
    o.pageSize = 3;
    transport.enqueueJson(Method::Get, kVolumes, R"({"records":[]})");
    ASSERT_TRUE(clientWith(o).listVolumes());
    EXPECT_EQ(query(lastRequest(), "max_records"), "3");
}

TEST_F(OntapClientTest, ListVolumes_ClusterRejectsConstituentFilter_RetriesWithBaselineQuery)
{
    transport.enqueueJson(Method::Get, kVolumes, ontapFixture("error_unexpected_argument.json"), 400);
    transport.enqueueJson(Method::Get, kVolumes, ontapFixture("volumes_page2.json"));
    const auto volumes = client().listVolumes();
    ASSERT_TRUE(volumes) << volumes.error().message;
    EXPECT_EQ(volumes->size(), 2u);
    const auto requests = transport.requests();
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_FALSE(query(requests[1], "is_constituent").has_value());
    const auto fields = split(query(requests[1], "fields").value_or(""));
    EXPECT_EQ(std::find(fields.begin(), fields.end(), "space.percent_used"), fields.end());
}

TEST_F(OntapClientTest, ListVolumes_ConstituentRecordInResponse_IsDropped)
{
    transport.enqueueJson(Method::Get,
                          kVolumes,
                          page(R"({"uuid":"fg","name":"fg1","style":"flexgroup"},)"
                               R"({"uuid":"c1","name":"fg1__0001","style":"flexgroup_constituent"})",
                               ""));
    const auto volumes = client().listVolumes();
    ASSERT_TRUE(volumes) << volumes.error().message;
    ASSERT_EQ(volumes->size(), 1u);
    EXPECT_EQ((*volumes)[0].uuid, "fg");
}

TEST_F(OntapClientTest, ListVolumes_Get503ThenFixture_RetriedAndParsed)
{
    transport.enqueue(Method::Get, kVolumes, http::HttpResponse::withStatus(503));
    transport.enqueueJson(Method::Get, kVolumes, ontapFixture("volumes_page2.json"));
    const auto volumes = client().listVolumes();
    ASSERT_TRUE(volumes) << volumes.error().message;
    EXPECT_EQ(volumes->size(), 2u);
    EXPECT_EQ(transport.requestCount(), 2);
}

TEST_F(OntapClientTest, ListVolumes_503OnEveryAttempt_ReturnsHttpError)
{
    transport.enqueue(Method::Get, kVolumes, http::HttpResponse::withStatus(503));
    transport.enqueue(Method::Get, kVolumes, http::HttpResponse::withStatus(503));
    const auto volumes = client().listVolumes();
    ASSERT_FALSE(volumes);
    EXPECT_EQ(volumes.error().kind, Kind::Http);
    EXPECT_EQ(volumes.error().httpStatus, 503);
    EXPECT_EQ(volumes.error().message, "listing ONTAP volumes: HTTP 503");
    EXPECT_EQ(transport.requestCount(), 2);
}

TEST_F(OntapClientTest, ListVolumes_TransportErrorOnSecondPage_PassedThroughUnchanged)
{
    transport.enqueueJson(Method::Get, kVolumes, ontapFixture("volumes_page1.json"));
    transport.enqueueError(Method::Get, kVolumes, Kind::Transport, "connection reset by peer");
    transport.enqueueError(Method::Get, kVolumes, Kind::Transport, "connection reset by peer");
    const auto volumes = client().listVolumes();
    ASSERT_FALSE(volumes);
    EXPECT_EQ(volumes.error().kind, Kind::Transport);
    EXPECT_EQ(volumes.error().message, "connection reset by peer");
    EXPECT_EQ(transport.requestCount(), 3);
}

TEST_F(OntapClientTest, ListVolumes_MalformedJson_ReturnsParseError)
{
    transport.enqueueJson(Method::Get, kVolumes, R"({"records":[{"uuid":"a","name":)");
    const auto volumes = client().listVolumes();
    ASSERT_FALSE(volumes);
    EXPECT_EQ(volumes.error().kind, Kind::Parse);
    EXPECT_NE(volumes.error().message.find("listing ONTAP volumes"), std::string::npos) << volumes.error().message;
    EXPECT_NE(volumes.error().message.find("malformed JSON"), std::string::npos) << volumes.error().message;
}

TEST_F(OntapClientTest, ListVolumes_RecordWithoutUuid_ReturnsParseErrorNamingTheRecord)
{
    transport.enqueueJson(
        Method::Get, kVolumes, page(R"({"uuid":"a","name":"ok"},{"name":"trident_pvc_broken","state":"online"})", ""));
    const auto volumes = client().listVolumes();
    ASSERT_FALSE(volumes);
    EXPECT_EQ(volumes.error().kind, Kind::Parse);
    const std::string &message = volumes.error().message;
    EXPECT_NE(message.find("record 2"), std::string::npos) << message;
    EXPECT_NE(message.find("trident_pvc_broken"), std::string::npos) << message;
    EXPECT_NE(message.find("uuid"), std::string::npos) << message;
    EXPECT_EQ(message.find("json.exception"), std::string::npos) << message;
}

// nlohmann's "cannot use at() with array" reached the user.
TEST_F(OntapClientTest, Cluster_ArrayWhereTheObjectBelongs_SaysWhatOntapSent)
{
    transport.enqueueJson(Method::Get, "/api/cluster", R"([{"name":"c1"},{"name":"c2"}])");
    const auto cluster = client().cluster();
    ASSERT_FALSE(cluster);
    EXPECT_EQ(cluster.error().kind, Kind::Parse);
    EXPECT_EQ(cluster.error().message,
              "reading the ONTAP cluster identity: ONTAP sent a JSON array where an object belongs (the cluster)");
}

TEST_F(OntapClientTest, ListVolumes_ArrayWhereTheCollectionBelongs_SaysWhatOntapSent)
{
    transport.enqueueJson(Method::Get, kVolumes, R"([{"uuid":"a"}])");
    const auto volumes = client().listVolumes();
    ASSERT_FALSE(volumes);
    EXPECT_EQ(volumes.error().message,
              "listing ONTAP volumes: ONTAP sent a JSON array where the collection object belongs");
}

TEST_F(OntapClientTest, ListVolumes_WrongFieldTypeAndMissingUuid_SaidInPlainWords)
{
    transport.enqueueJson(Method::Get, kVolumes, page(R"({"uuid":"a","name":7})", ""));
    const auto wrongType = client().listVolumes();
    ASSERT_FALSE(wrongType);
    EXPECT_EQ(wrongType.error().message,
              "listing ONTAP volumes: ONTAP sent a JSON number where a string belongs (field 'name' of record 1)");

    transport.enqueueJson(Method::Get, kVolumes, page(R"({"name":"trident_pvc_broken"})", ""));
    const auto missing = client().listVolumes();
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().message,
              "listing ONTAP volumes: ONTAP sent no \"uuid\" field (record 1 \"trident_pvc_broken\")");
}

TEST_F(OntapClientTest, ListVolumes_RecordsNotAnArray_ReturnsParseError)
{
    transport.enqueueJson(Method::Get, kVolumes, R"({"records":{"uuid":"a"}})");
    const auto volumes = client().listVolumes();
    ASSERT_FALSE(volumes);
    EXPECT_EQ(volumes.error().kind, Kind::Parse);
}

TEST_F(OntapClientTest, ListVolumes_Unauthorized401_ReturnsAuthError)
{
    transport.enqueueJson(Method::Get, kVolumes, ontapFixture("error_auth.json"), 401);
    const auto volumes = client().listVolumes();
    ASSERT_FALSE(volumes);
    EXPECT_EQ(volumes.error().kind, Kind::Auth);
    EXPECT_EQ(volumes.error().httpStatus, 401);
    EXPECT_EQ(volumes.error().message, "ONTAP rejected the credentials for listing ONTAP volumes");
    EXPECT_EQ(transport.requestCount(), 1) << "a 401 is not retried";
}

TEST_F(OntapClientTest, ListSnapshots_Forbidden403_ReturnsAuthErrorNotAuthorized)
{
    transport.enqueueJson(
        Method::Get, std::string(kVolumes) + "/" + kVolumeUuid + "/snapshots", ontapFixture("error_auth.json"), 403);
    const auto snapshots = client().listSnapshots(kVolumeUuid);
    ASSERT_FALSE(snapshots);
    EXPECT_EQ(snapshots.error().kind, Kind::Auth);
    EXPECT_EQ(snapshots.error().httpStatus, 403);
    EXPECT_EQ(snapshots.error().apiCode, "6691623");
    EXPECT_NE(snapshots.error().message.find("not authorized"), std::string::npos) << snapshots.error().message;
}

TEST_F(OntapClientTest, Volume_NotFoundErrorBody_ReturnsApiErrorWithCodeAndTarget)
{
    transport.enqueueJson(
        Method::Get, std::string(kVolumes) + "/missing", ontapFixture("error_entry_not_found.json"), 404);
    const auto volume = client().volume("missing");
    ASSERT_FALSE(volume);
    EXPECT_EQ(volume.error().kind, Kind::Api);
    EXPECT_EQ(volume.error().httpStatus, 404);
    EXPECT_EQ(volume.error().apiCode, "4");
    EXPECT_EQ(volume.error().message, "reading ONTAP volume missing: entry doesn't exist (target uuid)");
}

TEST_F(OntapClientTest, Volume_500WithoutErrorBody_ReturnsHttpError)
{
    transport.enqueue(Method::Get,
                      std::string(kVolumes) + "/" + kVolumeUuid,
                      http::HttpResponse::withStatus(500, "<html>Internal Server Error</html>"));
    const auto volume = client().volume(kVolumeUuid);
    ASSERT_FALSE(volume);
    EXPECT_EQ(volume.error().kind, Kind::Http);
    EXPECT_EQ(volume.error().httpStatus, 500);
    EXPECT_EQ(volume.error().message, std::string("reading ONTAP volume ") + kVolumeUuid + ": HTTP 500");
}

TEST_F(OntapClientTest, Volume_BareObject_ParsedWithoutRecordsEnvelope)
{
    transport.enqueueJson(Method::Get, std::string(kVolumes) + "/" + kVolumeUuid, ontapFixture("volume.json"));
    const auto volume = client().volume(kVolumeUuid);
    ASSERT_TRUE(volume) << volume.error().message;
    EXPECT_EQ(volume->uuid, kVolumeUuid);
    EXPECT_EQ(volume->qosPolicy->name, "gold_pvc");
    EXPECT_TRUE(query(lastRequest(), "fields").has_value());
    EXPECT_FALSE(query(lastRequest(), "max_records").has_value());
}

TEST_F(OntapClientTest, Volume_MissingUuid_ReturnsParseError)
{
    transport.enqueueJson(Method::Get, std::string(kVolumes) + "/x", R"({"name":"vol1"})");
    const auto volume = client().volume("x");
    ASSERT_FALSE(volume);
    EXPECT_EQ(volume.error().kind, Kind::Parse);
    EXPECT_NE(volume.error().message.find("\"vol1\""), std::string::npos) << volume.error().message;
}

TEST_F(OntapClientTest, FindVolumesByName_SendsNameAndSvmFiltersAndKeepsExactMatches)
{
    transport.enqueueJson(Method::Get,
                          kVolumes,
                          page(R"({"uuid":"a","name":"pvc_1","svm":{"name":"svm_trident"}},)"
                               R"({"uuid":"b","name":"pvc_1","svm":{"name":"svm_other"}})",
                               ""));
    const auto volumes = client().findVolumesByName("svm_trident", "pvc_1");
    ASSERT_TRUE(volumes) << volumes.error().message;
    ASSERT_EQ(volumes->size(), 1u);
    EXPECT_EQ((*volumes)[0].uuid, "a");
    const auto request = lastRequest();
    EXPECT_EQ(query(request, "name"), "pvc_1");
    EXPECT_EQ(query(request, "svm.name"), "svm_trident");
    EXPECT_TRUE(query(request, "fields").has_value());
}

TEST_F(OntapClientTest, FindVolumesByName_SpecialCharacters_AreUrlEncoded)
{
    transport.enqueueJson(Method::Get, kVolumes, R"({"records":[]})");
    ASSERT_TRUE(client().findVolumesByName("svm a&b", "vol=1"));
    const auto request = lastRequest();
    EXPECT_NE(request.url.find("svm.name=svm%20a%26b"), std::string::npos) << request.url;
    EXPECT_EQ(query(request, "name"), "vol=1");
}

TEST_F(OntapClientTest, ListSnapshots_Fixture_SendsFieldsAndParses)
{
    const std::string path = std::string(kVolumes) + "/" + kVolumeUuid + "/snapshots";
    transport.enqueueJson(Method::Get, path, ontapFixture("snapshots.json"));
    const auto snapshots = client().listSnapshots(kVolumeUuid);
    ASSERT_TRUE(snapshots) << snapshots.error().message;
    ASSERT_EQ(snapshots->size(), 3u);
    EXPECT_EQ((*snapshots)[2].name, "hourly.2024-03-01_0905");
    EXPECT_EQ(query(lastRequest(), "fields"),
              "uuid,name,create_time,comment,expiry_time,snapmirror_label,state,size,volume.name,volume.uuid,svm.name,"
              "svm.uuid");
    EXPECT_EQ(query(lastRequest(), "max_records"), "50");
}

TEST_F(OntapClientTest, ListSvms_Fixture_SendsFieldsAndParses)
{
    transport.enqueueJson(Method::Get, "/api/svm/svms", ontapFixture("svms.json"));
    const auto svms = client().listSvms();
    ASSERT_TRUE(svms) << svms.error().message;
    EXPECT_EQ(svms->size(), 3u);
    EXPECT_EQ(query(lastRequest(), "fields"), "uuid,name,state,subtype");
}

TEST_F(OntapClientTest, ListAggregates_Fixture_RequestsBlockStorageSpace)
{
    transport.enqueueJson(Method::Get, "/api/storage/aggregates", ontapFixture("aggregates.json"));
    const auto aggrs = client().listAggregates();
    ASSERT_TRUE(aggrs) << aggrs.error().message;
    ASSERT_EQ(aggrs->size(), 2u);
    EXPECT_EQ((*aggrs)[1].availableBytes, 20199768961024);
    const auto fields = split(query(lastRequest(), "fields").value_or(""));
    EXPECT_NE(std::find(fields.begin(), fields.end(), "space.block_storage.used"), fields.end());
}

TEST_F(OntapClientTest, ListFlexCaches_Fixture_RequestsOriginsAndParses)
{
    transport.enqueueJson(Method::Get, "/api/storage/flexcache/flexcaches", ontapFixture("flexcaches.json"));
    const auto caches = client().listFlexCaches();
    ASSERT_TRUE(caches) << caches.error().message;
    EXPECT_EQ(caches->size(), 2u);
    EXPECT_EQ(query(lastRequest(), "fields"), "name,uuid,svm,size,path,origins");
}

TEST_F(OntapClientTest, ListQosPolicies_Fixture_RequestsFixedAndAdaptive)
{
    transport.enqueueJson(Method::Get, "/api/storage/qos/policies", ontapFixture("qos_policies.json"));
    const auto policies = client().listQosPolicies();
    ASSERT_TRUE(policies) << policies.error().message;
    ASSERT_EQ(policies->size(), 2u);
    EXPECT_TRUE((*policies)[1].isAdaptive);
    const auto fields = split(query(lastRequest(), "fields").value_or(""));
    EXPECT_NE(std::find(fields.begin(), fields.end(), "fixed"), fields.end());
    EXPECT_NE(std::find(fields.begin(), fields.end(), "adaptive"), fields.end());
}

TEST_F(OntapClientTest, ListEmsEvents_Fixture_OrdersNewestFirstAndReadsOnlyTheFirstPage)
{
    transport.enqueueJson(Method::Get, "/api/support/ems/events", ontapFixture("ems_events.json"));
    const auto events = client().listEmsEvents(3);
    ASSERT_TRUE(events) << events.error().message;
    ASSERT_EQ(events->size(), 3u);
    EXPECT_EQ((*events)[0].index, 48213);
    EXPECT_EQ(transport.requestCount(), 1) << "the fixture has a next link that must not be followed";
    const auto request = lastRequest();
    EXPECT_EQ(query(request, "order_by"), "time desc");
    EXPECT_EQ(query(request, "max_records"), "3");
    EXPECT_EQ(query(request, "fields"), "index,time,node.name,message.name,message.severity,log_message");
}

TEST_F(OntapClientTest, Job_Fixture_RequestsJobFields)
{
    transport.enqueueJson(Method::Get, kJobPath, ontapFixture("job_running.json"));
    const auto job = client().job(kJobUuid);
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_EQ(job->state, "running");
    EXPECT_EQ(query(lastRequest(), "fields"), "uuid,description,state,message,code,start_time,end_time");
}

TEST_F(OntapClientTest, FindJobs_DescriptionGlob_SentEncodedAndParsed)
{
    transport.enqueueJson(
        Method::Get, "/api/cluster/jobs", R"({"records":[)" + ontapFixture("job_success.json") + "]}");
    const auto jobs = client().findJobs("POST /api/storage/volumes/6b1f*");
    ASSERT_TRUE(jobs) << jobs.error().message;
    ASSERT_EQ(jobs->size(), 1u);
    EXPECT_EQ((*jobs)[0].state, "success");
    EXPECT_EQ(query(lastRequest(), "description"), "POST /api/storage/volumes/6b1f*");
    EXPECT_NE(lastRequest().url.find("description=POST%20%2Fapi%2Fstorage"), std::string::npos) << lastRequest().url;
}

TEST(OntapError, ErrorBodyWithoutTarget_MessageHasNoTargetSuffix)
{
    const auto error = ontapError(
        http::HttpResponse::withStatus(409, R"({"error":{"message":"duplicate entry","code":"1"}})"), "creating x");
    EXPECT_EQ(error.kind, Kind::Api);
    EXPECT_EQ(error.apiCode, "1");
    EXPECT_EQ(error.message, "creating x: duplicate entry");
}

TEST(OntapError, NumericCode_ConvertedToText)
{
    const auto error =
        ontapError(http::HttpResponse::withStatus(400, R"({"error":{"message":"bad","code":262179}})"), "x");
    EXPECT_EQ(error.apiCode, "262179");
}

TEST(OntapError, ErrorBodyWithArguments_UsesTopLevelMessage)
{
    const auto error =
        ontapError(http::HttpResponse::withStatus(409, ontapFixture("error_volume_busy.json")), "restoring");
    EXPECT_EQ(error.kind, Kind::Api);
    EXPECT_EQ(error.apiCode, "524486");
    EXPECT_NE(error.message.find("because the volume is busy"), std::string::npos) << error.message;
    EXPECT_NE(error.message.find("(target uuid)"), std::string::npos) << error.message;
}

} // namespace
} // namespace strata::ontap::test

namespace strata::ontap::test {
namespace {

TEST_F(OntapClientTest, ListVolumeMetrics_AsksOnlyForUuidNameAndMetricAndParsesIt)
{
    const std::string record =
        R"({"uuid":"v1","name":"chest_xray","metric":{"timestamp":"2024-03-01T10:15:00Z",)"
        R"("duration":"PT15S","status":"ok","iops":{"read":100,"write":20,"other":5,"total":125},)"
        R"("latency":{"read":250,"write":400,"other":10,"total":280},)"
        R"("throughput":{"read":1048576,"write":524288,"other":0,"total":1572864}}})";
    transport.enqueueJson(
        Method::Get, kVolumes, page(record, "/api/storage/volumes?start.uuid=v1&fields=uuid,name,metric"));
    transport.enqueueJson(Method::Get, kVolumes, page(R"({"uuid":"v2","name":"criteo"})", ""));
    const auto volumes = client().listVolumeMetrics();
    ASSERT_TRUE(volumes) << volumes.error().message;
    ASSERT_EQ(volumes->size(), 2u);
    ASSERT_TRUE((*volumes)[0].metric.has_value());
    EXPECT_DOUBLE_EQ((*volumes)[0].metric->totalIops, 125);
    EXPECT_DOUBLE_EQ((*volumes)[0].metric->totalThroughputBps, 1572864);
    EXPECT_DOUBLE_EQ((*volumes)[0].metric->totalLatencyUs, 280);
    EXPECT_FALSE((*volumes)[1].metric.has_value()) << "a volume without a sample is not an error";
    EXPECT_EQ(query(transport.requests().front(), "fields"), "uuid,name,metric");
    EXPECT_EQ(query(transport.requests().front(), "is_constituent"), "false");
}

} // namespace
} // namespace strata::ontap::test
