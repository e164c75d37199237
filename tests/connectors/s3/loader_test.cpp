// packaging/cache-loader/loader.py (the cache loader Job's script) run with python3 against Ceph
// RGW: a commit manifest built here in the strata.commit/1 format, then the loader copies it into
// a temporary directory. Success, versions pinned, ETag changed, object gone, wrong commit id,
// killed halfway then resumed.
#include "connectors/http/curltransport.h"
#include "connectors/s3/s3client.h"
#include "tests/support/qt/loopbackserver.h"
#include "tests/support/rgwfixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <openssl/evp.h>
#include <sys/wait.h>

namespace strata::s3::test {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
namespace fs = std::filesystem;

struct Entry
{
    std::string key;
    std::string body;
    std::string etag;
    std::string version;
};

struct LoaderRun
{
    int exitCode = -1;
    std::vector<json> events;
    std::string raw;

    [[nodiscard]] const json &last() const { return events.back(); }
};

std::string shellQuote(const std::string &text)
{
    std::string quoted = "'";
    for (char c : text) {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return quoted + "'";
}

class CacheLoader : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_server = testsupport::rgw();
        ASSERT_NE(m_server, nullptr);
        S3Config config;
        config.endpoint = m_server->endpoint;
        config.accessKey = m_server->accessKey;
        config.secretKey = m_server->secretKey;
        http::TransportOptions options;
        options.totalTimeout = 30s;
        m_client = std::make_unique<S3Client>(config, std::make_shared<http::CurlTransport>(options));
        m_bucket = testsupport::uniqueBucketName("loader");
        ASSERT_TRUE(m_client->createBucket(m_bucket));
        char pattern[] = "/tmp/strata-loader-XXXXXX";
        ASSERT_NE(::mkdtemp(pattern), nullptr);
        m_tmp = pattern;
        m_dest = m_tmp + "/cache/fraud_jun/0123456789abcdef";
    }

    void TearDown() override
    {
        if (m_client) {
            if (auto versions = m_client->listAllVersions(m_bucket, {})) {
                for (const ObjectInfo &object : *versions) {
                    (void)m_client->deleteObject(m_bucket, object.key, object.versionId);
                }
            }
            (void)m_client->deleteBucket(m_bucket);
        }
        if (!m_tmp.empty()) {
            std::error_code ignored;
            fs::remove_all(m_tmp, ignored);
        }
    }

    /// PUTs the dataset's objects and a manifest listing them; returns the commit id.
    std::string commit(std::vector<Entry> &entries, bool withVersions)
    {
        for (Entry &entry : entries) {
            auto put = m_client->putObject(m_bucket, entry.key, entry.body);
            EXPECT_TRUE(put) << put.error().message;
            if (put) {
                entry.etag = put->etag;
                entry.version = withVersions ? put->versionId : std::string{};
            }
        }
        std::map<std::string, const Entry *> sorted;
        std::int64_t bytes = 0;
        for (const Entry &entry : entries) {
            sorted[entry.key] = &entry;
            bytes += static_cast<std::int64_t>(entry.body.size());
        }
        // Header keys in the order the format fixes (nlohmann::ordered_json keeps insertion order).
        nlohmann::ordered_json header;
        header["format"] = "strata.commit/1";
        header["dataset"] = "fraud_jun";
        header["bucket"] = m_bucket;
        header["prefix"] = "fraud_jun/";
        header["parent"] = "";
        header["author"] = "alice";
        header["message"] = "june snapshot";
        header["time"] = "2026-06-01T10:00:00Z";
        header["objects"] = entries.size();
        header["bytes"] = bytes;
        std::string manifest = header.dump() + "\n";
        for (const auto &[key, entry] : sorted) {
            nlohmann::ordered_json line;
            line["key"] = key;
            line["size"] = entry->body.size();
            line["etag"] = entry->etag;
            line["version"] = entry->version;
            manifest += line.dump() + "\n";
        }
        const std::string id = sha256Hex(manifest);
        m_manifestKey = "fraud_jun/.strata/commits/" + id + ".jsonl";
        auto put = m_client->putObject(m_bucket, m_manifestKey, manifest, "application/x-ndjson");
        EXPECT_TRUE(put) << put.error().message;
        return id;
    }

    /// Runs the loader; `cacheSizeKiB` > 0 first mounts a tmpfs of that size on the cache
    /// directory in a private user and mount namespace (unshare -r -m: no root needed).
    LoaderRun runLoader(const std::string &commitId, const std::string &extraEnv = {}, int cacheSizeKiB = 0)
    {
        std::string command =
            "env -i PATH=/usr/bin:/bin S3_ENDPOINT=" + shellQuote(m_server->endpoint) + " S3_REGION=us-east-1"
            + " S3_BUCKET=" + shellQuote(m_bucket) + " S3_PATH_STYLE=true MANIFEST_KEY=" + shellQuote(m_manifestKey)
            + " COMMIT_ID=" + commitId + " DEST=" + shellQuote(m_dest) + " DATASET_PREFIX=fraud_jun/"
            + " AWS_ACCESS_KEY_ID=" + shellQuote(m_server->accessKey) + " AWS_SECRET_ACCESS_KEY="
            + shellQuote(m_server->secretKey) + " " + extraEnv + " python3 " + shellQuote(STRATA_LOADER_PY);
        if (cacheSizeKiB > 0) {
            const std::string cache = m_tmp + "/cache";
            fs::create_directories(cache);
            command = "unshare -r -m sh -c "
                      + shellQuote("mount -t tmpfs -o size=" + std::to_string(cacheSizeKiB) + "k tmpfs "
                                   + shellQuote(cache) + " && exec " + command);
        }
        command += " 2>&1";
        LoaderRun run;
        FILE *pipe = ::popen(command.c_str(), "r");
        if (!pipe) {
            ADD_FAILURE() << "popen failed";
            return run;
        }
        char buffer[4096];
        std::size_t n = 0;
        while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
            run.raw.append(buffer, n);
        }
        const int status = ::pclose(pipe);
        run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        std::size_t start = 0;
        while (start < run.raw.size()) {
            const std::size_t end = run.raw.find('\n', start);
            const std::string line = run.raw.substr(start, end == std::string::npos ? std::string::npos : end - start);
            start = end == std::string::npos ? run.raw.size() : end + 1;
            if (line.empty()) {
                continue;
            }
            json event = json::parse(line, nullptr, false);
            EXPECT_FALSE(event.is_discarded()) << "not a JSON protocol line: " << line;
            if (!event.is_discarded()) {
                run.events.push_back(std::move(event));
            }
        }
        if (run.events.empty()) {
            run.events.push_back(json::object());
            ADD_FAILURE() << "the loader printed nothing: " << run.raw;
        }
        return run;
    }

    static std::string readFile(const fs::path &path)
    {
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }

    const testsupport::RgwServer *m_server = nullptr;
    std::unique_ptr<S3Client> m_client;
    std::string m_bucket;
    std::string m_tmp;
    std::string m_dest;
    std::string m_manifestKey;
};

std::vector<Entry> dataset()
{
    return {
        {"fraud_jun/part-0001.csv", "id,amount,fraud\n1,12.50,0\n2,999.99,1\n", {}, {}},
        {"fraud_jun/part-0002.csv", std::string(300'000, 'q'), {}, {}},
        {"fraud_jun/img/scan 1.png", std::string("\x89PNG\r\n\x1a\n", 8) + std::string(5000, '\0'), {}, {}},
        {"fraud_jun/labels.json", "{\"classes\":[\"ok\",\"fraud\"]}", {}, {}},
        {"fraud_jun/empty.txt", "", {}, {}},
    };
}

TEST_F(CacheLoader, CopiesEveryObjectOfTheCommitAndReportsProgress)
{
    ASSERT_TRUE(m_client->setBucketVersioning(m_bucket, true));
    std::vector<Entry> entries = dataset();
    const std::string id = commit(entries, true);
    // Changing an object after the commit does not matter when the manifest pins versions.
    ASSERT_TRUE(m_client->putObject(m_bucket, "fraud_jun/part-0001.csv", "rewritten later"));
    // Objects outside the manifest (added later) are not copied.
    ASSERT_TRUE(m_client->putObject(m_bucket, "fraud_jun/part-0003.csv", "new"));

    const LoaderRun run = runLoader(id);
    ASSERT_EQ(run.exitCode, 0) << run.raw;
    const json &ready = run.last();
    EXPECT_EQ(ready["event"], "ready") << run.raw;
    EXPECT_EQ(ready["objects_done"], 5);
    EXPECT_EQ(ready["objects_total"], 5);
    std::int64_t bytes = 0;
    for (const Entry &entry : entries) {
        bytes += static_cast<std::int64_t>(entry.body.size());
    }
    EXPECT_EQ(ready["bytes_done"], bytes);
    EXPECT_EQ(ready["bytes_total"], bytes);
    EXPECT_EQ(ready["objects_skipped"], 0);
    ASSERT_GE(run.events.size(), 3u); // first progress, final progress, ready
    EXPECT_EQ(run.events.front()["event"], "progress");
    EXPECT_EQ(run.events.front()["objects_done"], 0);

    for (const Entry &entry : entries) {
        const fs::path file = fs::path(m_dest) / entry.key.substr(std::string("fraud_jun/").size());
        EXPECT_EQ(readFile(file), entry.body) << file;
    }
    EXPECT_FALSE(fs::exists(fs::path(m_dest) / "part-0003.csv"));
    EXPECT_TRUE(fs::exists(fs::path(m_dest) / ".strata-ready"));
    const json marker = json::parse(readFile(fs::path(m_dest) / ".strata-ready"));
    EXPECT_EQ(marker["commit"], id);
    for (const auto &item : fs::recursive_directory_iterator(m_dest)) {
        EXPECT_NE(item.path().extension(), ".part") << item.path();
    }

    // A second run on a ready directory finishes at once.
    const LoaderRun again = runLoader(id);
    ASSERT_EQ(again.exitCode, 0) << again.raw;
    EXPECT_EQ(again.last()["event"], "ready");
    EXPECT_EQ(again.last()["objects_skipped"], 5);
}

TEST_F(CacheLoader, ObjectChangedAfterTheCommitFailsWithTheEtagReason)
{
    std::vector<Entry> entries = dataset(); // unversioned: the manifest has ETags only
    const std::string id = commit(entries, false);
    auto changed = m_client->putObject(m_bucket, "fraud_jun/part-0002.csv", "different bytes");
    ASSERT_TRUE(changed);

    const LoaderRun run = runLoader(id);
    EXPECT_EQ(run.exitCode, 1) << run.raw;
    EXPECT_EQ(run.last()["event"], "failed");
    EXPECT_EQ(run.last()["reason"],
              "ETag of fraud_jun/part-0002.csv changed since the commit (expected " + entries[1].etag + ", got "
                  + changed->etag + ")");
    EXPECT_FALSE(fs::exists(fs::path(m_dest) / ".strata-ready"));
}

TEST_F(CacheLoader, ObjectGoneFailsClearly)
{
    std::vector<Entry> entries = dataset();
    const std::string id = commit(entries, false);
    ASSERT_TRUE(m_client->deleteObject(m_bucket, "fraud_jun/labels.json"));
    const LoaderRun run = runLoader(id);
    EXPECT_EQ(run.exitCode, 1) << run.raw;
    EXPECT_EQ(run.last()["event"], "failed");
    EXPECT_EQ(run.last()["reason"], "fraud_jun/labels.json is gone from the bucket");
}

TEST_F(CacheLoader, ManifestThatIsNotTheCommitIsRefused)
{
    std::vector<Entry> entries = dataset();
    const std::string id = commit(entries, false);
    std::string wrong = id;
    wrong[0] = wrong[0] == 'a' ? 'b' : 'a';
    const LoaderRun run = runLoader(wrong);
    EXPECT_EQ(run.exitCode, 1) << run.raw;
    EXPECT_EQ(run.last()["event"], "failed");
    EXPECT_NE(run.last()["reason"].get<std::string>().find("does not match commit " + wrong), std::string::npos)
        << run.raw;
}

TEST_F(CacheLoader, WrongSecretFailsWithTheS3Code)
{
    std::vector<Entry> entries = dataset();
    const std::string id = commit(entries, false);
    const LoaderRun run = runLoader(id, "AWS_SECRET_ACCESS_KEY=wrong");
    EXPECT_EQ(run.exitCode, 1) << run.raw;
    EXPECT_EQ(run.last()["event"], "failed");
    EXPECT_EQ(run.last()["reason"].get<std::string>().rfind("S3 SignatureDoesNotMatch", 0), 0u) << run.raw;
}

TEST_F(CacheLoader, KilledHalfwayThenResumesWithoutCopyingAgain)
{
    std::vector<Entry> entries = dataset();
    const std::string id = commit(entries, false);

    const LoaderRun killed = runLoader(id, "LOADER_FAIL_AFTER=2");
    EXPECT_EQ(killed.exitCode, 1) << killed.raw;
    EXPECT_EQ(killed.last()["event"], "progress"); // no ready, no failed line: as if killed
    EXPECT_EQ(killed.last()["objects_done"], 2);
    EXPECT_FALSE(fs::exists(fs::path(m_dest) / ".strata-ready"));

    const LoaderRun resumed = runLoader(id);
    ASSERT_EQ(resumed.exitCode, 0) << resumed.raw;
    EXPECT_EQ(resumed.last()["event"], "ready");
    EXPECT_EQ(resumed.last()["objects_done"], 5);
    EXPECT_EQ(resumed.last()["objects_skipped"], 2);
    for (const Entry &entry : entries) {
        EXPECT_EQ(readFile(fs::path(m_dest) / entry.key.substr(std::string("fraud_jun/").size())), entry.body);
    }
    EXPECT_TRUE(fs::exists(fs::path(m_dest) / ".strata-ready"));
}

TEST_F(CacheLoader, CacheVolumeTooSmallFailsWithTheNoSpaceReason)
{
    std::vector<Entry> entries = dataset();
    const std::string id = commit(entries, false);
    std::int64_t bytes = 0;
    for (const Entry &entry : entries) {
        bytes += static_cast<std::int64_t>(entry.body.size());
    }
    const LoaderRun run = runLoader(id, {}, 128); // 128 KiB volume, ~305 KB commit
    EXPECT_EQ(run.exitCode, 1) << run.raw;
    EXPECT_EQ(run.last()["event"], "failed") << run.raw;
    EXPECT_EQ(run.last()["reason"], "no space left on the cache volume (needs " + std::to_string(bytes) + " bytes)")
        << run.raw;

    // The same commit fits on a larger volume.
    const LoaderRun fits = runLoader(id, {}, 1024);
    EXPECT_EQ(fits.exitCode, 0) << fits.raw;
    EXPECT_EQ(fits.last()["event"], "ready") << fits.raw;
}

TEST(CacheLoaderScripted, SlowDownIsRetriedAndRequestsAreSigned)
{
    const std::string body = "id,amount\n1,2\n";
    std::string etag; // single-part ETag = MD5 of the bytes
    {
        unsigned char out[EVP_MAX_MD_SIZE];
        unsigned int size = 0;
        EVP_Digest(body.data(), body.size(), out, &size, EVP_md5(), nullptr);
        static const char digits[] = "0123456789abcdef";
        for (unsigned int i = 0; i < size; ++i) {
            etag += digits[out[i] >> 4];
            etag += digits[out[i] & 15];
        }
    }
    const std::string realManifest =
        R"({"format":"strata.commit/1","dataset":"d","bucket":"b","prefix":"d/","parent":"","author":"a",)"
        R"("message":"m","time":"2026-06-01T10:00:00Z","objects":1,"bytes":14})"
        "\n"
        R"({"key":"d/a.csv","size":14,"etag":")"
        + etag + R"(","version":""})" + "\n";
    std::atomic<int> objectCalls{0};
    std::atomic<bool> unsignedSeen{false};
    testsupport::LoopbackServer server([&](const sim::Request &request, const sim::Responder &responder) {
        if (!request.header("authorization").startsWith("AWS4-HMAC-SHA256 Credential=AKID/")
            || request.header("x-amz-content-sha256").isEmpty()) {
            unsignedSeen = true;
        }
        if (request.path == QStringLiteral("/b/d/.strata/commits/m.jsonl")) {
            responder.send(sim::Response::text(200, QByteArray::fromStdString(realManifest)));
        } else if (request.path == QStringLiteral("/b/d/a.csv")) {
            if (++objectCalls <= 2) {
                responder.send(sim::Response::text(503,
                                                   "<Error><Code>SlowDown</Code><Message>Reduce your request "
                                                   "rate.</Message></Error>"));
            } else {
                responder.send(sim::Response::text(200, QByteArray::fromStdString(body))
                                   .withHeader("ETag", QByteArray::fromStdString("\"" + etag + "\"")));
            }
        } else {
            responder.send(sim::Response::text(404, "<Error><Code>NoSuchKey</Code><Message>no</Message></Error>"));
        }
    });
    char pattern[] = "/tmp/strata-loader-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    const std::string dest = std::string(pattern) + "/d/0123456789abcdef";
    const std::string command =
        "env -i PATH=/usr/bin:/bin S3_ENDPOINT=" + server.url()
        + " S3_BUCKET=b MANIFEST_KEY=d/.strata/commits/m.jsonl COMMIT_ID=" + sha256Hex(realManifest) + " DEST=" + dest
        + " DATASET_PREFIX=d/ AWS_ACCESS_KEY_ID=AKID AWS_SECRET_ACCESS_KEY=s python3 " + shellQuote(STRATA_LOADER_PY)
        + " 2>&1";
    std::string output;
    FILE *pipe = ::popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
        output.append(buffer, n);
    }
    const int status = ::pclose(pipe);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output;
    EXPECT_NE(output.find(R"({"event":"ready","objects_done":1,"objects_total":1,"bytes_done":14)"), std::string::npos)
        << output;
    EXPECT_EQ(objectCalls.load(), 3);
    EXPECT_FALSE(unsignedSeen.load());
    std::ifstream in(dest + "/a.csv", std::ios::binary);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), body);
    std::error_code ignored;
    fs::remove_all(pattern, ignored);
}

} // namespace
} // namespace strata::s3::test
