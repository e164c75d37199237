// Cached commits across the simulators: loader and evictor Jobs created in the Kubernetes
// simulator run as DatalakeWiring workloads, read a commit from the StorageGRID object store and
// fill (or free) the ONTAP simulator's cache volume behind the Job's PVC.
#include "simulators/datalake/datalakewiring.h"
#include "simulators/ontap/ontapsimulator.h"
#include "simulators/storagegrid/s3store.h"
#include "tests/simulators/kubetestsupport.h"
#include "tests/simulators/ontaptestsupport.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

using namespace strata;
using namespace strata::sim::datalake;
using nlohmann::json;
using sim::storagegrid::ObjectContent;
using sim::storagegrid::S3Store;
using testsupport::kubesim::KubeHttp;
using testsupport::kubesim::RunningKube;
using testsupport::ontapsim::RunningSimulator;

namespace {

constexpr const char *kNs = "runai-team-a";
constexpr const char *kTarget = "dgx-cache-1";
constexpr const char *kClaim = "dgx-cache-1";
constexpr std::int64_t kObjectBytes = 400'000;
constexpr int kObjects = 5;

QString q(const char *text)
{
    return QString::fromLatin1(text);
}

QJsonObject toQt(const json &value)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(value.dump())).object();
}

json fromQt(const QJsonObject &value)
{
    return json::parse(QJsonDocument(value).toJson(QJsonDocument::Compact).toStdString());
}

struct Commit
{
    std::string id;
    std::string manifestKey;
    std::string dataset;
    std::int64_t bytes = 0;
    std::vector<std::string> keys;
};

class DatalakeLoader : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_kube.isRunning()) << m_kube.error().toStdString();
        ASSERT_TRUE(m_ontap.isRunning()) << m_ontap.error().toStdString();
        ASSERT_EQ(m_store.createBucket("datasets", "27310562318400963145"), sim::storagegrid::StoreError::None);
        m_wiring = std::make_unique<DatalakeWiring>(*m_kube, *m_ontap, m_store, options());
        m_wiring->install();
        QString error;
        ASSERT_TRUE(m_wiring->addCacheVolume(q(kNs), q(kClaim), q("svm_cache"), q("cache_01"), &error))
            << error.toStdString();
        m_usedBefore = used(q("cache_01"));
    }

    static DatalakeWiring::Options options()
    {
        DatalakeWiring::Options o;
        o.loaderBytesPerSecond = 1'000'000; // 2 MB commits take two simulated seconds
        return o;
    }

    static sim::kube::KubeSimulator::Options kubeOptions()
    {
        auto o = testsupport::kubesim::testOptions(sim::kube::KubeSimulator::Options::Preset::Dgx);
        o.submitDemoJobs = false;
        o.gpuMetrics = false;
        return o;
    }

    qint64 used(const QString &volume) const
    {
        const auto v = m_ontap->volumeByName(QStringLiteral("svm_cache"), volume);
        return v ? v->used : -1;
    }

    /// Puts kObjects objects under `dataset`/ and writes a manifest of their current state.
    Commit makeCommit(const std::string &dataset, std::uint64_t seed = 1)
    {
        Commit commit;
        commit.dataset = dataset;
        std::vector<json> entries;
        for (int i = 1; i <= kObjects; ++i) {
            char key[64];
            std::snprintf(key, sizeof key, "%s/part-%04d.csv", dataset.c_str(), i);
            const auto put =
                m_store.putContent("datasets", key, ObjectContent::generated(seed * 100 + i, kObjectBytes, true));
            EXPECT_TRUE(put);
            entries.push_back(json{{"key", key},
                                   {"size", kObjectBytes},
                                   {"etag", m_store.head("datasets", key)->etag},
                                   {"version", versionOf(*put)}});
            commit.keys.push_back(key);
            commit.bytes += kObjectBytes;
        }
        std::string manifest = json{{"format", "strata.commit/1"},
                                    {"dataset", dataset},
                                    {"bucket", "datasets"},
                                    {"prefix", dataset + "/"},
                                    {"parent", ""},
                                    {"author", "alice"},
                                    {"message", "June transactions"},
                                    {"time", "2026-06-01T10:00:00Z"},
                                    {"objects", kObjects},
                                    {"bytes", commit.bytes}}
                                   .dump()
                               + "\n";
        for (const json &e : entries) {
            manifest += e.dump() + "\n";
        }
        commit.id = sha256Hex(manifest);
        commit.manifestKey = dataset + "/.strata/commits/" + commit.id + ".jsonl";
        EXPECT_TRUE(m_store.putObject("datasets", commit.manifestKey, manifest, "application/x-ndjson"));
        return commit;
    }

    static std::string versionOf(const sim::storagegrid::PutResult &put)
    {
        return put.versionId == "null" ? std::string() : put.versionId;
    }

    static std::string dir(const Commit &c) { return c.dataset + "/" + c.id.substr(0, 16); }

    static std::string loaderName(const Commit &c, const std::string &target = kTarget)
    {
        return ("strata-load-" + c.id.substr(0, 16) + "-" + target).substr(0, 63);
    }

    /// The loader Job of the cache layout ("Cache layout and state" in the architecture).
    static json loaderJob(const Commit &c, const std::string &claim = kClaim, int backoffLimit = 3)
    {
        const std::string c16 = c.id.substr(0, 16);
        const auto env = [](const char *name, const std::string &value) {
            return json{{"name", name}, {"value", value}};
        };
        const auto secret = [](const char *name) {
            return json{{"name", name}, {"valueFrom", {{"secretKeyRef", {{"name", "strata-s3"}, {"key", name}}}}}};
        };
        return {{"metadata",
                 {{"name", loaderName(c)},
                  {"namespace", kNs},
                  {"labels",
                   {{"app.kubernetes.io/managed-by", "strata"},
                    {"strata.io/role", "cache-loader"},
                    {"strata.io/commit", c16},
                    {"strata.io/target", kTarget}}},
                  {"annotations",
                   {{"strata.io/commit-id", c.id},
                    {"strata.io/dataset", c.dataset},
                    {"strata.io/dataset-source", "datalake"},
                    {"strata.io/dataset-id", "datasets/" + c.dataset + "/"}}}}},
                {"spec",
                 {{"backoffLimit", backoffLimit},
                  {"template",
                   {{"metadata", {{"labels", {{"strata.io/role", "cache-loader"}}}}},
                    {"spec",
                     {{"restartPolicy", "Never"},
                      {"containers",
                       {{{"name", "loader"},
                         {"image", "python:3.12-alpine"},
                         {"command", {"python3", "/loader/loader.py"}},
                         {"env",
                          {env("S3_ENDPOINT", "http://127.0.0.1:18082"),
                           env("S3_REGION", "us-east-1"),
                           env("S3_BUCKET", "datasets"),
                           env("S3_PATH_STYLE", "true"),
                           env("MANIFEST_KEY", c.manifestKey),
                           env("COMMIT_ID", c.id),
                           env("DEST", "/cache/" + dir(c)),
                           env("DATASET_PREFIX", c.dataset + "/"),
                           secret("AWS_ACCESS_KEY_ID"),
                           secret("AWS_SECRET_ACCESS_KEY")}},
                         {"volumeMounts",
                          {{{"name", "loader"}, {"mountPath", "/loader"}},
                           {{"name", "cache"}, {"mountPath", "/cache"}}}}}}},
                      {"volumes",
                       {{{"name", "loader"}, {"configMap", {{"name", "strata-cache-loader"}}}},
                        {{"name", "cache"}, {"persistentVolumeClaim", {{"claimName", claim}}}}}}}}}}}}};
    }

    static json evictorJob(const Commit &c)
    {
        const std::string c16 = c.id.substr(0, 16);
        return {{"metadata",
                 {{"name", "strata-evict-" + c16 + "-" + kTarget},
                  {"namespace", kNs},
                  {"labels",
                   {{"app.kubernetes.io/managed-by", "strata"},
                    {"strata.io/role", "cache-evictor"},
                    {"strata.io/commit", c16},
                    {"strata.io/target", kTarget}}}}},
                {"spec",
                 {{"backoffLimit", 3},
                  {"template",
                   {{"spec",
                     {{"restartPolicy", "Never"},
                      {"containers",
                       {{{"name", "evictor"},
                         {"image", "busybox:1.36"},
                         {"command", {"rm", "-rf", "/cache/" + dir(c)}},
                         {"volumeMounts", {{{"name", "cache"}, {"mountPath", "/cache"}}}}}}},
                      {"volumes", {{{"name", "cache"}, {"persistentVolumeClaim", {{"claimName", kClaim}}}}}}}}}}}}};
    }

    /// POSTs the Job through the simulator's API (as Strata does).
    void submit(const json &job)
    {
        KubeHttp http(*m_kube);
        const auto result =
            http.post(QStringLiteral("/apis/batch/v1/namespaces/%1/jobs").arg(QLatin1String(kNs)), toQt(job));
        ASSERT_EQ(result.status, 201) << result.body.toStdString();
    }

    json job(const std::string &name) const
    {
        const auto o = m_kube->object(QStringLiteral("jobs"), QLatin1String(kNs), QString::fromStdString(name));
        return o ? fromQt(*o) : json();
    }

    bool jobHas(const std::string &name, const char *condition) const
    {
        const json j = job(name);
        for (const json &c : j.value("status", json::object()).value("conditions", json::array())) {
            if (c.value("type", std::string()) == condition && c.value("status", std::string()) == "True") {
                return true;
            }
        }
        return false;
    }

    /// Ticks one simulated second at a time until the Job completes or fails (at most `limit`).
    void runJob(const std::string &name, int limit = 60)
    {
        for (int i = 0; i < limit && !jobHas(name, "Complete") && !jobHas(name, "Failed"); ++i) {
            m_kube->tick();
        }
    }

    /// Pods of a Job in creation order, with their log lines parsed.
    struct PodRun
    {
        std::string name;
        std::string phase;
        std::vector<json> log;
    };
    std::vector<PodRun> pods(const std::string &jobName) const
    {
        KubeHttp http(*m_kube);
        const auto list =
            http.get(QStringLiteral("/api/v1/namespaces/") + QLatin1String(kNs)
                     + QStringLiteral("/pods?labelSelector=job-name%3D") + QString::fromStdString(jobName));
        std::vector<std::pair<std::string, PodRun>> out;
        for (const QJsonValue &item : list.json.value(QStringLiteral("items")).toArray()) {
            const json pod = fromQt(item.toObject());
            PodRun run;
            run.name = pod["metadata"]["name"];
            run.phase = pod["status"].value("phase", std::string());
            if (const auto lines = m_kube->podLog(QLatin1String(kNs), QString::fromStdString(run.name))) {
                for (const QString &line : *lines) {
                    run.log.push_back(json::parse(line.toStdString()));
                }
            }
            out.emplace_back(pod["metadata"].value("creationTimestamp", std::string()) + run.name, std::move(run));
        }
        std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) {
            return a.first < b.first;
        });
        std::vector<PodRun> runs;
        for (auto &[key, run] : out) {
            runs.push_back(std::move(run));
        }
        return runs;
    }

    RunningKube m_kube{kubeOptions()};
    RunningSimulator m_ontap{RunningSimulator::testOptions()};
    S3Store m_store;
    std::unique_ptr<DatalakeWiring> m_wiring;
    qint64 m_usedBefore = 0;
};

} // namespace

TEST_F(DatalakeLoader, LoaderJobRunsToReadyWithProgressAndFillsTheCacheVolume)
{
    const Commit commit = makeCommit("fraud_jun");
    submit(loaderJob(commit));
    m_kube->tick(4); // scheduled, 3 s ContainerCreating, first second of copying
    EXPECT_EQ(used(q("cache_01")), m_usedBefore + 1'000'000) << "one second at 1 MB/s";
    runJob(loaderName(commit));
    ASSERT_TRUE(jobHas(loaderName(commit), "Complete"));

    const auto runs = pods(loaderName(commit));
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].phase, "Succeeded");
    ASSERT_GE(runs[0].log.size(), 2u);
    std::int64_t last = -1;
    for (std::size_t i = 0; i + 1 < runs[0].log.size(); ++i) {
        const json &line = runs[0].log[i];
        EXPECT_EQ(line["event"], "progress");
        EXPECT_EQ(line["objects_total"], kObjects);
        EXPECT_EQ(line["bytes_total"], commit.bytes);
        EXPECT_GT(line["bytes_done"].get<std::int64_t>(), last);
        last = line["bytes_done"];
    }
    const json &ready = runs[0].log.back();
    EXPECT_EQ(ready["event"], "ready");
    EXPECT_EQ(ready["objects_done"], kObjects);
    EXPECT_EQ(ready["bytes_done"], commit.bytes);

    EXPECT_EQ(used(q("cache_01")), m_usedBefore + commit.bytes);
    const auto entry = m_wiring->cached(q("svm_cache"), q("cache_01"), QString::fromStdString(dir(commit)));
    ASSERT_TRUE(entry);
    EXPECT_TRUE(entry->ready);
    EXPECT_EQ(entry->doneKeys.size(), std::size_t(kObjects));

    // ONTAP's REST API reports the grown volume too.
    testsupport::ontapsim::QnamClient rest(*m_ontap);
    const auto volumes = rest.get(QStringLiteral("/api/storage/volumes?name=cache_01&fields=space.used"));
    ASSERT_EQ(volumes.status, 200) << volumes.body.toStdString();
    EXPECT_EQ(volumes.json.value(QStringLiteral("records"))
                  .toArray()
                  .at(0)
                  .toObject()
                  .value(QStringLiteral("space"))
                  .toObject()
                  .value(QStringLiteral("used"))
                  .toDouble(),
              double(m_usedBefore + commit.bytes));
}

TEST_F(DatalakeLoader, ObjectChangedAfterTheCommitFailsWithTheETagReason)
{
    const Commit commit = makeCommit("fraud_may"); // unversioned bucket: no version ids
    const auto changed = m_store.putObject("datasets", commit.keys[2], "rewritten after the commit\n");
    ASSERT_TRUE(changed);
    submit(loaderJob(commit, kClaim, 1));
    runJob(loaderName(commit));
    ASSERT_TRUE(jobHas(loaderName(commit), "Failed"));

    const auto runs = pods(loaderName(commit));
    ASSERT_EQ(runs.size(), 2u) << "backoffLimit 1: the pod and one retry";
    for (const PodRun &run : runs) {
        EXPECT_EQ(run.phase, "Failed");
        ASSERT_FALSE(run.log.empty());
        const json &failed = run.log.back();
        EXPECT_EQ(failed["event"], "failed");
        const std::string reason = failed["reason"];
        EXPECT_EQ(reason.rfind("ETag of " + commit.keys[2] + " changed since the commit (expected ", 0), 0u) << reason;
        EXPECT_NE(reason.find("got " + changed->etag + ")"), std::string::npos) << reason;
    }
    // The two objects before it were copied; nothing counts as ready.
    EXPECT_EQ(used(q("cache_01")), m_usedBefore + 2 * kObjectBytes);
    const auto entry = m_wiring->cached(q("svm_cache"), q("cache_01"), QString::fromStdString(dir(commit)));
    ASSERT_TRUE(entry);
    EXPECT_FALSE(entry->ready);
}

TEST_F(DatalakeLoader, VersionedObjectsAreReadByVersionAndADeletedVersionIsGone)
{
    ASSERT_EQ(m_store.setVersioning("datasets", true), sim::storagegrid::StoreError::None);
    const Commit commit = makeCommit("public_set12", 7);
    // A newer version does not matter: the loader reads the committed version.
    ASSERT_TRUE(m_store.putObject("datasets", commit.keys[0], "newer version\n"));
    submit(loaderJob(commit));
    runJob(loaderName(commit));
    EXPECT_TRUE(jobHas(loaderName(commit), "Complete"));

    const Commit other = makeCommit("consumer_img1", 9);
    const auto head = m_store.head("datasets", other.keys[4]);
    ASSERT_TRUE(head);
    ASSERT_EQ(m_store.deleteObject("datasets", other.keys[4], head->versionId), sim::storagegrid::StoreError::None);
    submit(loaderJob(other, kClaim, 0));
    runJob(loaderName(other));
    ASSERT_TRUE(jobHas(loaderName(other), "Failed"));
    const auto runs = pods(loaderName(other));
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].log.back()["reason"], other.keys[4] + " is gone from the bucket");
}

TEST_F(DatalakeLoader, PodFailingHalfwayIsRetriedAndResumesWithoutCountingTwice)
{
    const Commit commit = makeCommit("fraud_sim_base");
    m_wiring->failNextLoaderAfter(QString::fromStdString(commit.id), 2);
    submit(loaderJob(commit));
    runJob(loaderName(commit));
    ASSERT_TRUE(jobHas(loaderName(commit), "Complete"));
    EXPECT_EQ(job(loaderName(commit))["status"]["failed"], 1);

    const auto runs = pods(loaderName(commit));
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].phase, "Failed");
    EXPECT_EQ(runs[0].log.back()["event"], "failed");
    const auto beforeFailure = std::find_if(runs[0].log.rbegin(), runs[0].log.rend(), [](const json &l) {
        return l["event"] == "progress";
    });
    ASSERT_NE(beforeFailure, runs[0].log.rend());
    EXPECT_EQ((*beforeFailure)["objects_done"], 2);

    EXPECT_EQ(runs[1].phase, "Succeeded");
    // The retry starts from the two objects already there.
    EXPECT_GE(runs[1].log.front()["objects_done"].get<int>(), 2);
    EXPECT_EQ(runs[1].log.back()["event"], "ready");
    EXPECT_EQ(runs[1].log.back()["bytes_done"], commit.bytes);
    EXPECT_EQ(used(q("cache_01")), m_usedBefore + commit.bytes) << "no object counted twice";
    EXPECT_EQ(m_wiring->loaderPods(), 2);
}

TEST_F(DatalakeLoader, FullTargetFailsWithTheNoSpaceReason)
{
    QString error;
    ASSERT_TRUE(m_wiring->addCacheVolume(q(kNs), q("dgx-cache-3"), q("svm_cache"), q("cache_03"), &error))
        << error.toStdString();
    qint64 available = 0;
    m_ontap->changeVolumeUsed(q("svm_cache"), q("cache_03"), 0, nullptr, &available);
    ASSERT_EQ(m_ontap->changeVolumeUsed(q("svm_cache"), q("cache_03"), available - 1'000'000),
              sim::ontap::OntapSimulator::SpaceChange::Changed);
    const qint64 before = used(q("cache_03"));

    const Commit commit = makeCommit("misc_base1");
    submit(loaderJob(commit, "dgx-cache-3", 0));
    runJob(loaderName(commit));
    ASSERT_TRUE(jobHas(loaderName(commit), "Failed"));
    const auto runs = pods(loaderName(commit));
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].log.back()["reason"], "no space left on the cache volume (needs 2000000 bytes)");
    EXPECT_EQ(used(q("cache_03")), before);
    EXPECT_EQ(m_ontap->changeVolumeUsed(q("svm_cache"), q("cache_03"), 1'000'001),
              sim::ontap::OntapSimulator::SpaceChange::NoSpace);
    EXPECT_EQ(m_ontap->changeVolumeUsed(q("svm_cache"), q("nope"), 1),
              sim::ontap::OntapSimulator::SpaceChange::NoSuchVolume);
}

TEST_F(DatalakeLoader, EvictorFreesTheCommitsBytes)
{
    const Commit commit = makeCommit("fraud_jun", 3);
    submit(loaderJob(commit));
    runJob(loaderName(commit));
    ASSERT_TRUE(jobHas(loaderName(commit), "Complete"));
    ASSERT_EQ(used(q("cache_01")), m_usedBefore + commit.bytes);

    const std::string evictor = "strata-evict-" + commit.id.substr(0, 16) + "-" + kTarget;
    submit(evictorJob(commit));
    runJob(evictor);
    ASSERT_TRUE(jobHas(evictor, "Complete"));
    EXPECT_EQ(used(q("cache_01")), m_usedBefore);
    EXPECT_FALSE(m_wiring->cached(q("svm_cache"), q("cache_01"), QString::fromStdString(dir(commit))));
    EXPECT_EQ(m_wiring->evictorPods(), 1);

    // Evicting again finds nothing and still succeeds (rm -rf).
    KubeHttp http(*m_kube);
    ASSERT_EQ(http.del(QStringLiteral("/apis/batch/v1/namespaces/%1/jobs/%2")
                           .arg(QLatin1String(kNs), QString::fromStdString(evictor)))
                  .status,
              200);
    m_kube->tick();
    submit(evictorJob(commit));
    runJob(evictor);
    EXPECT_TRUE(jobHas(evictor, "Complete"));
    EXPECT_EQ(used(q("cache_01")), m_usedBefore);
}

TEST_F(DatalakeLoader, BadManifestsAndUnknownClaimsFailClearly)
{
    const Commit commit = makeCommit("fraud_jun");
    // A manifest that does not hash to COMMIT_ID.
    Commit forged = commit;
    forged.id = std::string(64, 'a');
    submit(loaderJob(forged, kClaim, 0));
    runJob(loaderName(forged));
    auto runs = pods(loaderName(forged));
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].log.back()["reason"],
              "manifest " + commit.manifestKey + " does not hash to COMMIT_ID " + forged.id);

    // A missing manifest.
    Commit missing = commit;
    missing.id = std::string(64, 'b');
    missing.manifestKey = "fraud_jun/.strata/commits/nope.jsonl";
    submit(loaderJob(missing, kClaim, 0));
    runJob(loaderName(missing));
    runs = pods(loaderName(missing));
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].log.back()["reason"],
              "S3 NoSuchKey: The specified key does not exist. (manifest fraud_jun/.strata/commits/nope.jsonl)");

    // A claim no ONTAP volume backs.
    Commit elsewhere = commit;
    elsewhere.id = std::string(64, 'c');
    submit(loaderJob(elsewhere, "imagenet-train-scratch-nope", 0));
    runJob(loaderName(elsewhere));
    runs = pods(loaderName(elsewhere));
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].log.back()["reason"],
              "persistentvolumeclaim \"imagenet-train-scratch-nope\" not found in namespace runai-team-a");
    EXPECT_EQ(used(q("cache_01")), m_usedBefore);
}

TEST(DatalakeManifest, ParsesAndRejectsMalformedInput)
{
    const std::string header =
        R"({"format":"strata.commit/1","dataset":"d","bucket":"b","prefix":"d/","parent":"","author":"a","message":"m","time":"t","objects":2,"bytes":30})";
    const std::string good = header + "\n" + R"({"key":"d/a","size":10,"etag":"e1","version":""})" + "\n"
                             + R"({"key":"d/b","size":20,"etag":"e2","version":"v2"})" + "\n";
    std::string error;
    const auto manifest = parseLoaderManifest(good, &error);
    ASSERT_TRUE(manifest) << error;
    ASSERT_EQ(manifest->entries.size(), 2u);
    EXPECT_EQ(manifest->entries[1].versionId, "v2");
    EXPECT_EQ(manifest->bytes, 30);

    EXPECT_FALSE(parseLoaderManifest("", &error));
    EXPECT_FALSE(parseLoaderManifest(good.substr(0, good.size() - 20), &error)) << "truncated";
    EXPECT_EQ(error.rfind("manifest line 3", 0), 0u) << error;
    EXPECT_FALSE(parseLoaderManifest(header + "\n" + R"({"key":"d/a","size":10,"etag":"e1"})" + "\n", &error));
    EXPECT_EQ(error, "manifest header says 2 objects, 30 bytes but lists 1 objects, 10 bytes");
    EXPECT_FALSE(parseLoaderManifest(R"({"format":"other/1"})"
                                     "\n",
                                     &error));
    EXPECT_EQ(error, "manifest line 1: not a strata.commit/1 header");
    EXPECT_FALSE(parseLoaderManifest(header + "\n" + R"({"key":"d/a","size":"10","etag":"e1"})" + "\n", &error));
    EXPECT_EQ(error, "manifest line 2: object without key, size or etag");
    EXPECT_FALSE(parseLoaderManifest(header + "\n\n", &error));
    EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_F(DatalakeLoader, ClaimResolvedThroughItsPersistentVolumesNfsPath)
{
    // A cache PV made by someone else (no mapClaim): NFS export /cache_02 of svm_cache.
    const json pv{{"metadata", {{"name", "nfs-cache-02"}}},
                  {"spec",
                   {{"capacity", {{"storage", "2Ti"}}},
                    {"accessModes", {"ReadWriteMany"}},
                    {"nfs", {{"server", "10.61.218.20"}, {"path", "/cache_02"}}},
                    {"claimRef", {{"namespace", kNs}, {"name", "dgx-cache-2"}}}}},
                  {"status", {{"phase", "Bound"}}}};
    const json pvc{{"metadata", {{"name", "dgx-cache-2"}, {"namespace", kNs}}},
                   {"spec",
                    {{"accessModes", {"ReadWriteMany"}},
                     {"resources", {{"requests", {{"storage", "2Ti"}}}}},
                     {"volumeName", "nfs-cache-02"}}},
                   {"status", {{"phase", "Bound"}}}};
    QString error;
    ASSERT_TRUE(m_kube->createObject(q("persistentvolumes"), toQt(pv), &error)) << error.toStdString();
    ASSERT_TRUE(m_kube->createObject(q("persistentvolumeclaims"), toQt(pvc), &error)) << error.toStdString();
    EXPECT_FALSE(m_kube->createObject(q("persistentvolumeclaims"), toQt(pvc), &error)) << "already exists";
    const qint64 before = used(q("cache_02"));

    const Commit commit = makeCommit("fraud_jun", 5);
    submit(loaderJob(commit, "dgx-cache-2"));
    runJob(loaderName(commit));
    ASSERT_TRUE(jobHas(loaderName(commit), "Complete"));
    EXPECT_EQ(used(q("cache_02")), before + commit.bytes);
    EXPECT_EQ(used(q("cache_01")), m_usedBefore);
    EXPECT_TRUE(m_wiring->cached(q("svm_cache"), q("cache_02"), QString::fromStdString(dir(commit))));
}
