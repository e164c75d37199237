// Datasets over S3 against the StorageGRID simulator's S3 endpoint (real SigV4 checking):
// discovery under roots, commits created from versioned and unversioned buckets, manifests
// verified against their id, ranged header reads, and bad input (tampered or malformed
// manifests, missing keys and buckets, wrong secret, over-long messages); the ranges a header
// read asks for (a scripted S3 object) and the bounded parallel runner of the hub's reads.
#include "connectors/dataset/datasetstore.h"
#include "connectors/http/curltransport.h"
#include "connectors/s3/s3client.h"
#include "simulators/common/serverthread.h"
#include "simulators/storagegrid/storagegridsimulator.h"
#include "tests/support/qt/loopbackserver.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

using namespace strata;
using namespace strata::dataset;
using namespace std::chrono_literals;
using Kind = connectors::Error::Kind;
namespace sg = strata::sim::storagegrid;

namespace {

class DatasetStoreTest : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_thread = new sim::ServerThread;
        sg::StorageGridSimulatorOptions options;
        options.preset = sg::StorageGridSimulatorOptions::Preset::Datalake;
        QString error;
        s_sim = sg::StorageGridSimulator::startOnThread(*s_thread, options, &error);
        ASSERT_NE(s_sim, nullptr) << error.toStdString();
    }
    static void TearDownTestSuite()
    {
        delete s_thread;
        s_thread = nullptr;
        s_sim = nullptr;
    }

    static std::unique_ptr<s3::S3Client> client(const std::string &secret = {})
    {
        s3::S3Config config;
        config.endpoint = s_sim->s3Url().toStdString();
        config.region = s_sim->options().s3Region.toStdString();
        config.accessKey = s_sim->options().s3AccessKey.toStdString();
        config.secretKey = secret.empty() ? s_sim->options().s3SecretKey.toStdString() : secret;
        config.retry.maxAttempts = 2;
        config.retry.baseDelay = 1ms;
        config.sleeper = [](std::chrono::milliseconds, const http::CancelToken &) {
            return true;
        };
        http::TransportOptions transport;
        transport.connectTimeout = 2s;
        transport.totalTimeout = 30s;
        return std::make_unique<s3::S3Client>(config, std::make_shared<http::CurlTransport>(transport));
    }

    /// A fresh unversioned bucket with `objects` (key, body) in it.
    static std::string bucketWith(const std::string &name,
                                  const std::vector<std::pair<std::string, std::string>> &objects)
    {
        auto c = client();
        auto created = c->createBucket(name);
        EXPECT_TRUE(created) << created.error().message;
        for (const auto &[key, body] : objects) {
            auto put = c->putObject(name, key, body);
            EXPECT_TRUE(put) << put.error().message;
        }
        return name;
    }

    static inline sim::ServerThread *s_thread = nullptr;
    static inline sg::StorageGridSimulator *s_sim = nullptr;
};

const std::string kTime = "2026-06-01T10:00:00Z";

} // namespace

TEST_F(DatasetStoreTest, Discover_PrefixesBucketAndSinglePrefix)
{
    auto c = client();
    const auto all = discoverDatasets(*c, "datasets/*");
    ASSERT_TRUE(all) << all.error().message;
    std::vector<std::string> names;
    for (const DatasetRef &d : *all) {
        names.push_back(d.name);
        EXPECT_EQ(d.bucket, "datasets");
        EXPECT_EQ(d.prefix, d.name + "/");
        EXPECT_EQ(d.kind, DatasetKind::Prefix);
    }
    EXPECT_EQ(names,
              (std::vector<std::string>{
                  "consumer_img1", "fraud_jun", "fraud_may", "fraud_sim_base", "misc_base1", "public_set12"}));

    const auto bucket = discoverDatasets(*c, "datasets");
    ASSERT_TRUE(bucket) << bucket.error().message;
    ASSERT_EQ(bucket->size(), 1u);
    EXPECT_EQ((*bucket)[0], (DatasetRef{"datasets", "datasets", "", DatasetKind::Bucket}));

    const auto one = discoverDatasets(*c, "datasets/fraud_jun");
    ASSERT_TRUE(one) << one.error().message;
    ASSERT_EQ(one->size(), 1u);
    EXPECT_EQ((*one)[0], (DatasetRef{"fraud_jun", "datasets", "fraud_jun/", DatasetKind::Prefix}));

    bucketWith("nested", {{"teams/a/x.csv", "1"}, {"teams/b/y.csv", "2"}, {"teams/.strata/commits/z", "3"}});
    const auto nested = discoverDatasets(*c, "nested/teams/*");
    ASSERT_TRUE(nested) << nested.error().message;
    ASSERT_EQ(nested->size(), 2u);
    EXPECT_EQ((*nested)[1], (DatasetRef{"b", "nested", "teams/b/", DatasetKind::Prefix}));

    for (const std::string root : {"gone/*", "gone", "gone/p/"}) {
        const auto missing = discoverDatasets(*c, root);
        ASSERT_FALSE(missing) << root;
        EXPECT_EQ(missing.error().apiCode, "NoSuchBucket") << root << ": " << missing.error().message;
    }
    const auto empty = discoverDatasets(*c, "/x");
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.error().kind, Kind::Parse);
    EXPECT_FALSE(discoverDatasets(*c, "datasets/a*/b"));
}

TEST_F(DatasetStoreTest, CreateCommit_UnversionedBucket_ManifestIsItsSha256)
{
    const std::string bucket = bucketWith("plain",
                                          {{"ds/b.csv", "bbbb"},
                                           {"ds/a.csv", "aa"},
                                           {"ds/sub/c.bin", std::string(1000, 'c')},
                                           {"ds/dir/", ""},
                                           {"ds/.strata/notes.txt", "not data"},
                                           {"other/x.csv", "elsewhere"}});
    auto c = client();
    const auto created = createCommit(*c, bucket, "ds/", "ds", "", "alice", "first", kTime);
    ASSERT_TRUE(created) << created.error().message;
    const auto &[id, header] = *created;
    EXPECT_TRUE(isCommitId(id));
    EXPECT_EQ(header.objects, 3);
    EXPECT_EQ(header.bytes, 1006);

    const auto bytes = c->getObject(bucket, manifestKey("ds/", id));
    ASSERT_TRUE(bytes) << bytes.error().message;
    EXPECT_EQ(commitId(*bytes), id);

    const auto manifest = readManifest(*c, bucket, manifestKey("ds/", id));
    ASSERT_TRUE(manifest) << manifest.error().message;
    ASSERT_EQ(manifest->entries.size(), 3u);
    EXPECT_EQ(manifest->entries[0].key, "ds/a.csv");
    EXPECT_EQ(manifest->entries[0].etag, "4124bc0a9335c27f086f24ba207a4912"); // md5("aa")
    EXPECT_EQ(manifest->entries[0].versionId, "");
    EXPECT_EQ(manifest->entries[2].key, "ds/sub/c.bin");
    EXPECT_EQ(manifest->header.author, "alice");

    const auto commits = listCommits(*c, bucket, "ds/");
    ASSERT_TRUE(commits) << commits.error().message;
    ASSERT_EQ(commits->size(), 1u);
    EXPECT_EQ((*commits)[0].id, id);
    EXPECT_EQ((*commits)[0].key, "ds/.strata/commits/" + id + ".jsonl");
    EXPECT_EQ((*commits)[0].manifestBytes, static_cast<std::int64_t>(bytes->size()));
    EXPECT_FALSE((*commits)[0].lastModified.empty());

    const auto head = readCommitHeader(*c, bucket, (*commits)[0].key);
    ASSERT_TRUE(head) << head.error().message;
    EXPECT_EQ(*head, header);

    // The new manifest lives under .strata/, so a second commit lists the same three objects.
    const auto second = createCommit(*c, bucket, "ds/", "ds", id, "bob", "again", "2026-06-02T10:00:00Z");
    ASSERT_TRUE(second) << second.error().message;
    EXPECT_EQ(second->second.objects, 3);
    const auto both = listCommits(*c, bucket, "ds/");
    ASSERT_TRUE(both);
    EXPECT_EQ(both->size(), 2u);
}

TEST_F(DatasetStoreTest, CreateCommit_WholeBucketDataset)
{
    const std::string bucket = bucketWith("whole", {{"x.csv", "x"}, {"y/z.csv", "yz"}});
    auto c = client();
    const auto created = createCommit(*c, bucket, "", "whole", "", "alice", "bucket", kTime);
    ASSERT_TRUE(created) << created.error().message;
    EXPECT_EQ(created->second.objects, 2);
    const auto commits = listCommits(*c, bucket, "");
    ASSERT_TRUE(commits);
    ASSERT_EQ(commits->size(), 1u);
    EXPECT_EQ((*commits)[0].key, ".strata/commits/" + created->first + ".jsonl");
    const auto again = createCommit(*c, bucket, "", "whole", created->first, "alice", "again", kTime);
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(again->second.objects, 2); // the first manifest is not content
}

TEST_F(DatasetStoreTest, CreateCommit_VersionedDatasetRecordsVersionsAndDiffsAcrossRevisions)
{
    auto c = client();
    ASSERT_TRUE(s_sim->applyDatasetRevision(QStringLiteral("fraud_may"), 1));
    const auto first = createCommit(*c, "datasets", "fraud_may/", "fraud_may", "", "alice", "revision 1", kTime);
    ASSERT_TRUE(first) << first.error().message;
    const auto m1 = readManifest(*c, "datasets", manifestKey("fraud_may/", first->first));
    ASSERT_TRUE(m1) << m1.error().message;
    ASSERT_FALSE(m1->entries.empty());
    for (const ManifestEntry &e : m1->entries) {
        EXPECT_FALSE(e.versionId.empty()) << e.key;
        EXPECT_EQ(e.etag.size(), 32u) << e.key;
    }

    ASSERT_TRUE(s_sim->applyDatasetRevision(QStringLiteral("fraud_may"), 2));
    const auto second = createCommit(
        *c, "datasets", "fraud_may/", "fraud_may", first->first, "bob", "revision 2", "2026-06-02T10:00:00Z");
    ASSERT_TRUE(second) << second.error().message;
    EXPECT_EQ(second->second.bytes, 57'600'000); // TR-4841: fraud_may is 57.6 MB at its last revision
    const auto m2 = readManifest(*c, "datasets", manifestKey("fraud_may/", second->first));
    ASSERT_TRUE(m2) << m2.error().message;
    EXPECT_EQ(m2->header.parent, first->first);

    const ManifestDiff diff = diffManifests(*m1, *m2);
    EXPECT_GT(diff.added.size() + diff.removed.size() + diff.changed.size(), 0u);
    std::int64_t changedBefore = 0;
    for (const auto &pair : diff.changed) {
        changedBefore += pair.first.size;
    }
    EXPECT_EQ(m1->header.bytes + diff.bytesAdded - diff.bytesRemoved + diff.bytesChanged - changedBefore,
              m2->header.bytes);
}

TEST_F(DatasetStoreTest, ReadManifest_TamperedMalformedAndMissing)
{
    const std::string bucket = bucketWith("tamper", {{"ds/a.csv", "aa"}});
    auto c = client();
    const auto created = createCommit(*c, bucket, "ds/", "ds", "", "alice", "m", kTime);
    ASSERT_TRUE(created) << created.error().message;
    const std::string key = manifestKey("ds/", created->first);

    auto original = c->getObject(bucket, key);
    ASSERT_TRUE(original);
    std::string altered = *original;
    altered.replace(altered.find("alice"), 5, "mally");
    ASSERT_TRUE(c->putObject(bucket, key, altered));
    const auto tampered = readManifest(*c, bucket, key);
    ASSERT_FALSE(tampered);
    EXPECT_EQ(tampered.error().kind, Kind::Parse);
    EXPECT_NE(tampered.error().message.find("does not match its id"), std::string::npos) << tampered.error().message;

    // Junk stored under its own hash passes the id check and fails the parser.
    const std::string junk = "{\"format\":\"strata.commit/1\"\n{not json}\n";
    const std::string junkKey = manifestKey("ds/", commitId(junk));
    ASSERT_TRUE(c->putObject(bucket, junkKey, junk));
    const auto malformed = readManifest(*c, bucket, junkKey);
    ASSERT_FALSE(malformed);
    EXPECT_EQ(malformed.error().kind, Kind::Parse);
    EXPECT_NE(malformed.error().message.find(junkKey + ": commit manifest header"), std::string::npos)
        << malformed.error().message;
    const auto badHeader = readCommitHeader(*c, bucket, junkKey);
    ASSERT_FALSE(badHeader);
    EXPECT_EQ(badHeader.error().kind, Kind::Parse);

    const std::string truncated = original->substr(0, original->size() - 5);
    const std::string truncatedKey = manifestKey("ds/", commitId(truncated));
    ASSERT_TRUE(c->putObject(bucket, truncatedKey, truncated));
    const auto cut = readManifest(*c, bucket, truncatedKey);
    ASSERT_FALSE(cut);
    EXPECT_NE(cut.error().message.find("truncated"), std::string::npos) << cut.error().message;

    const auto missing = readManifest(*c, bucket, manifestKey("ds/", std::string(64, '0')));
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().apiCode, "NoSuchKey") << missing.error().message;
    const auto missingHeader = readCommitHeader(*c, bucket, manifestKey("ds/", std::string(64, '0')));
    ASSERT_FALSE(missingHeader);
    EXPECT_EQ(missingHeader.error().apiCode, "NoSuchKey");

    const auto notAKey = readManifest(*c, bucket, "ds/a.csv");
    ASSERT_FALSE(notAKey);
    EXPECT_EQ(notAKey.error().kind, Kind::Parse);

    // Only <64 hex>.jsonl directly under commits/ counts.
    ASSERT_TRUE(c->putObject(bucket, "ds/.strata/commits/readme.txt", "x"));
    ASSERT_TRUE(c->putObject(bucket, "ds/.strata/commits/old/" + std::string(64, 'a') + ".jsonl", "x"));
    const auto commits = listCommits(*c, bucket, "ds/");
    ASSERT_TRUE(commits);
    EXPECT_EQ(commits->size(), 3u); // created, junk, truncated
}

TEST_F(DatasetStoreTest, ReadCommitHeader_LongHeaderNeedsASecondRange)
{
    const std::string bucket = bucketWith("longhdr", {{"ds/a.csv", "aa"}});
    auto c = client();
    // 1000 control characters: 6 bytes each once escaped, so the header line is > 6000 bytes.
    const std::string message(1000, '\x01');
    const auto created = createCommit(*c, bucket, "ds/", "ds", "", "alice", message, kTime);
    ASSERT_TRUE(created) << created.error().message;
    const auto header = readCommitHeader(*c, bucket, manifestKey("ds/", created->first));
    ASSERT_TRUE(header) << header.error().message;
    EXPECT_EQ(header->message, message);

    // A header line of exactly 4096 bytes with nothing after it: the second range is past the end.
    std::string line =
        R"({"format":"strata.commit/1","dataset":"d","bucket":"b","prefix":"","parent":"","author":"a","message":")";
    const std::string tail = R"(","time":"2026-06-01T10:00:00Z","objects":0,"bytes":0})";
    line += std::string(4096 - line.size() - tail.size(), 'm') + tail;
    ASSERT_EQ(line.size(), 4096u);
    ASSERT_TRUE(c->putObject(bucket, "ds/.strata/commits/" + commitId(line) + ".jsonl", line));
    const auto noNewline = readCommitHeader(*c, bucket, "ds/.strata/commits/" + commitId(line) + ".jsonl");
    ASSERT_FALSE(noNewline);
    EXPECT_EQ(noNewline.error().kind, Kind::Parse);
    EXPECT_NE(noNewline.error().message.find("no complete first line"), std::string::npos) << noNewline.error().message;
}

TEST_F(DatasetStoreTest, CreateCommit_BadInputIsRefusedBeforeWriting)
{
    const std::string bucket = bucketWith("refuse", {{"ds/a.csv", "aa"}});
    auto c = client();
    const auto tooLong = createCommit(*c, bucket, "ds/", "ds", "", "alice", std::string(1001, 'm'), kTime);
    ASSERT_FALSE(tooLong);
    EXPECT_EQ(tooLong.error().kind, Kind::Parse);
    EXPECT_NE(tooLong.error().message.find("message is 1001 bytes"), std::string::npos);
    const auto badParent = createCommit(*c, bucket, "ds/", "ds", "HEAD", "alice", "m", kTime);
    ASSERT_FALSE(badParent);
    const auto badTime = createCommit(*c, bucket, "ds/", "ds", "", "alice", "m", "now");
    ASSERT_FALSE(badTime);
    const auto commits = listCommits(*c, bucket, "ds/");
    ASSERT_TRUE(commits);
    EXPECT_TRUE(commits->empty());

    const auto gone = createCommit(*c, "no-such-bucket", "ds/", "ds", "", "alice", "m", kTime);
    ASSERT_FALSE(gone);
    EXPECT_EQ(gone.error().apiCode, "NoSuchBucket") << gone.error().message;

    auto wrong = client("not-the-secret");
    const auto rejected = createCommit(*wrong, bucket, "ds/", "ds", "", "alice", "m", kTime);
    ASSERT_FALSE(rejected);
    EXPECT_EQ(rejected.error().kind, Kind::Auth);
    EXPECT_EQ(rejected.error().apiCode, "SignatureDoesNotMatch") << rejected.error().message;
    const auto rejectedList = listCommits(*wrong, bucket, "ds/");
    ASSERT_FALSE(rejectedList);
    EXPECT_EQ(rejectedList.error().kind, Kind::Auth);
}

namespace {

/// One S3 object behind a scripted server that answers GetObject's Range header as S3 does
/// (RFC 9110 section 14: 206 with the bytes that exist, 416 InvalidRange past the end) and
/// records each Range asked for.
class RangedObjectServer
{
public:
    explicit RangedObjectServer(std::string body)
        : m_body(std::move(body))
        , m_server([this](const sim::Request &request, const sim::Responder &responder) {
            answer(request, responder);
        })
    {}

    std::unique_ptr<s3::S3Client> client() const
    {
        s3::S3Config config;
        config.endpoint = m_server.url();
        config.region = "us-east-1";
        config.accessKey = "AKID";
        config.secretKey = "secret";
        config.retry.maxAttempts = 1;
        http::TransportOptions transport;
        transport.connectTimeout = 2s;
        transport.totalTimeout = 30s;
        return std::make_unique<s3::S3Client>(config, std::make_shared<http::CurlTransport>(transport));
    }

    std::vector<std::string> ranges()
    {
        std::lock_guard lock(m_mutex);
        return m_ranges;
    }

private:
    void answer(const sim::Request &request, const sim::Responder &responder)
    {
        const std::string range = request.header("range").toStdString();
        {
            std::lock_guard lock(m_mutex);
            m_ranges.push_back(range);
        }
        long long first = 0;
        long long last = 0;
        if (std::sscanf(range.c_str(), "bytes=%lld-%lld", &first, &last) != 2 || first > last) {
            responder.send(sim::Response::text(200, QByteArray::fromStdString(m_body)));
            return;
        }
        const auto size = static_cast<long long>(m_body.size());
        if (first >= size) {
            sim::Response error;
            error.status = 416;
            error.body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>InvalidRange</Code>"
                         "<Message>The requested range is not satisfiable</Message></Error>";
            error.withHeader("Content-Type", "application/xml");
            responder.send(std::move(error));
            return;
        }
        last = std::min(last, size - 1);
        sim::Response partial;
        partial.status = 206;
        partial.body = QByteArray::fromStdString(m_body.substr(first, last - first + 1));
        partial.withHeader("Content-Range",
                           QByteArray("bytes ") + QByteArray::number(first) + "-" + QByteArray::number(last) + "/"
                               + QByteArray::number(size));
        responder.send(std::move(partial));
    }

    std::string m_body;
    std::mutex m_mutex;
    std::vector<std::string> m_ranges;
    testsupport::LoopbackServer m_server;
};

Manifest bigManifestForRanges(std::size_t objects, const std::string &message)
{
    Manifest m;
    m.header.dataset = "ds";
    m.header.bucket = "b";
    m.header.prefix = "ds/";
    m.header.author = "alice";
    m.header.message = message;
    m.header.time = kTime;
    for (std::size_t i = 0; i < objects; ++i) {
        m.entries.push_back({"ds/part-" + std::to_string(100000 + i) + ".csv", 1000, std::string(32, 'e'), ""});
    }
    return m;
}

} // namespace

TEST(DatasetHeaderRanges, TypicalHeaderOfALargeManifestIsOneKibibyteRange)
{
    // ~2.4 MiB of entries behind a ~300-byte header: one GET of the first KiB, nothing else.
    RangedObjectServer server(serializeManifest(bigManifestForRanges(30000, "nightly snapshot")));
    const auto header = readCommitHeader(*server.client(), "b", "ds/.strata/commits/x.jsonl");
    ASSERT_TRUE(header) << header.error().message;
    EXPECT_EQ(header->objects, 30000);
    EXPECT_EQ(header->message, "nightly snapshot");
    EXPECT_EQ(server.ranges(), std::vector<std::string>{"bytes=0-1023"});
}

TEST(DatasetHeaderRanges, LongerHeaderIsExtendedFourfold)
{
    // 450 control characters are 2,700 bytes escaped: the line ends between 1 KiB and 4 KiB.
    const std::string message(450, '\x02');
    RangedObjectServer server(serializeManifest(bigManifestForRanges(100, message)));
    const auto header = readCommitHeader(*server.client(), "b", "ds/.strata/commits/x.jsonl");
    ASSERT_TRUE(header) << header.error().message;
    EXPECT_EQ(header->message, message);
    EXPECT_EQ(server.ranges(), (std::vector<std::string>{"bytes=0-1023", "bytes=1024-4095"}));
}

TEST(DatasetHeaderRanges, HugeTruncatedAndMalformedHeadersAreClearErrors)
{
    // A first line longer than 1 MiB: six ranges (1 KiB growing fourfold), then a parse error.
    RangedObjectServer huge("{\"format\":\"" + std::string(2 * 1024 * 1024, 'x') + "\"}\n");
    const auto tooLong = readCommitHeader(*huge.client(), "b", "ds/.strata/commits/x.jsonl");
    ASSERT_FALSE(tooLong);
    EXPECT_EQ(tooLong.error().kind, Kind::Parse);
    EXPECT_NE(tooLong.error().message.find("no end of the header line in the first 1048576 bytes"), std::string::npos)
        << tooLong.error().message;
    const auto hugeRanges = huge.ranges();
    ASSERT_EQ(hugeRanges.size(), 6u);
    EXPECT_EQ(hugeRanges.back(), "bytes=262144-1048575");

    // Cut inside the first line: what there is, then the end of the object.
    const std::string whole = serializeManifest(bigManifestForRanges(3, "m"));
    RangedObjectServer cut(whole.substr(0, 100));
    const auto truncated = readCommitHeader(*cut.client(), "b", "ds/.strata/commits/x.jsonl");
    ASSERT_FALSE(truncated);
    EXPECT_EQ(truncated.error().kind, Kind::Parse);
    EXPECT_NE(truncated.error().message.find("no complete first line in the first 100 bytes"), std::string::npos)
        << truncated.error().message;
    EXPECT_EQ(cut.ranges(), std::vector<std::string>{"bytes=0-1023"});

    // Exactly 1 KiB without a newline: the next range is past the end (416), then the error.
    RangedObjectServer exact(std::string(1024, '{'));
    const auto noEnd = readCommitHeader(*exact.client(), "b", "ds/.strata/commits/x.jsonl");
    ASSERT_FALSE(noEnd);
    EXPECT_NE(noEnd.error().message.find("no complete first line in the first 1024 bytes"), std::string::npos)
        << noEnd.error().message;
    EXPECT_EQ(exact.ranges(), (std::vector<std::string>{"bytes=0-1023", "bytes=1024-4095"}));

    RangedObjectServer junk("not json at all\n{\"key\":\"ds/a\"}\n");
    const auto malformed = readCommitHeader(*junk.client(), "b", "ds/.strata/commits/x.jsonl");
    ASSERT_FALSE(malformed);
    EXPECT_EQ(malformed.error().kind, Kind::Parse);
    EXPECT_NE(malformed.error().message.find("ds/.strata/commits/x.jsonl: commit manifest header: not valid JSON"),
              std::string::npos)
        << malformed.error().message;
}

TEST(DatasetForEachBounded, RunsEachIndexOnceWithAtMostParallelAtATime)
{
    for (const std::size_t parallel : {std::size_t{1}, std::size_t{3}, std::size_t{8}}) {
        constexpr std::size_t count = 200;
        std::vector<std::atomic<int>> runs(count);
        std::atomic<int> inside{0};
        std::atomic<int> most{0};
        std::mutex mutex;
        std::condition_variable wake;
        forEachBounded(count, parallel, [&](std::size_t i) {
            const int now = ++inside;
            int seen = most.load();
            while (now > seen && !most.compare_exchange_weak(seen, now)) {
            }
            {
                // The first tasks wait (up to 5 s) until `parallel` of them are running, so the
                // bound is reached, not only respected.
                std::unique_lock lock(mutex);
                wake.notify_all();
                wake.wait_for(lock, 5s, [&] {
                    return most.load() >= static_cast<int>(parallel) || i >= parallel;
                });
            }
            runs[i]++;
            --inside;
        });
        for (std::size_t i = 0; i < count; ++i) {
            EXPECT_EQ(runs[i].load(), 1) << "index " << i << ", parallel " << parallel;
        }
        EXPECT_EQ(most.load(), static_cast<int>(parallel));
    }
}

TEST(DatasetForEachBounded, EdgeCountsAndCancel)
{
    int calls = 0;
    forEachBounded(0, 8, [&](std::size_t) {
        ++calls;
    });
    EXPECT_EQ(calls, 0);
    std::set<std::thread::id> threads;
    forEachBounded(5, 0, [&](std::size_t) { // 0 counts as 1: all on the caller's thread
        threads.insert(std::this_thread::get_id());
        ++calls;
    });
    EXPECT_EQ(calls, 5);
    EXPECT_EQ(threads, std::set<std::thread::id>{std::this_thread::get_id()});

    http::CancelToken cancel;
    std::vector<std::size_t> ran;
    forEachBounded(
        100,
        1,
        [&](std::size_t i) {
            ran.push_back(i);
            if (i == 3) {
                cancel.cancel();
            }
        },
        cancel);
    EXPECT_EQ(ran, (std::vector<std::size_t>{0, 1, 2, 3}));
}
