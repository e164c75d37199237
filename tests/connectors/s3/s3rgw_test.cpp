// The S3 connector against a real S3 server that verifies SigV4: Ceph RGW from Debian, started
// once for all test processes (tests/support/rgw-fixture.sh). No RGW -> these tests fail.
#include "connectors/http/curltransport.h"
#include "connectors/s3/s3client.h"
#include "tests/support/rgwfixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <openssl/evp.h>

namespace strata::s3::test {
namespace {

using namespace std::chrono_literals;
using Kind = connectors::Error::Kind;

std::string md5Hex(std::string_view data)
{
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    EVP_Digest(data.data(), data.size(), out, &size, EVP_md5(), nullptr);
    std::string hex;
    for (unsigned int i = 0; i < size; ++i) {
        static const char digits[] = "0123456789abcdef";
        hex += digits[out[i] >> 4];
        hex += digits[out[i] & 15];
    }
    return hex;
}

std::shared_ptr<http::CurlTransport> transport()
{
    http::TransportOptions options;
    options.connectTimeout = 5s;
    options.totalTimeout = 30s;
    if (std::getenv("S3_TEST_DEBUG")) {
        options.log = [](http::LogLevel, std::string_view line) {
            std::fprintf(stderr, "%.*s\n", int(line.size()), line.data());
        };
    }
    return std::make_shared<http::CurlTransport>(options);
}

S3Config configFor(const testsupport::RgwServer &server)
{
    S3Config config;
    config.endpoint = server.endpoint;
    config.region = server.region;
    config.accessKey = server.accessKey;
    config.secretKey = server.secretKey;
    config.retry.maxAttempts = 2;
    config.retry.baseDelay = 10ms;
    return config;
}

/// A fresh bucket per test, emptied (every version) and removed afterwards.
class S3Rgw : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_server = testsupport::rgw();
        ASSERT_NE(m_server, nullptr);
        m_client = std::make_unique<S3Client>(configFor(*m_server), transport());
        m_bucket = testsupport::uniqueBucketName("s3rgw");
        auto created = m_client->createBucket(m_bucket);
        ASSERT_TRUE(created) << created.error().message;
    }

    void TearDown() override
    {
        if (!m_client || m_bucket.empty()) {
            return;
        }
        if (auto versions = m_client->listAllVersions(m_bucket, {})) {
            for (const ObjectInfo &object : *versions) {
                (void)m_client->deleteObject(m_bucket, object.key, object.versionId);
            }
        }
        auto removed = m_client->deleteBucket(m_bucket);
        EXPECT_TRUE(removed) << removed.error().message;
    }

    void put(const std::string &key, const std::string &body)
    {
        auto result = m_client->putObject(m_bucket, key, body);
        ASSERT_TRUE(result) << result.error().message;
    }

    const testsupport::RgwServer *m_server = nullptr;
    std::unique_ptr<S3Client> m_client;
    std::string m_bucket;
};

TEST_F(S3Rgw, PutGetHeadDeleteRoundTrip)
{
    const std::string body = "fraud,amount\n1,12.50\n0,3.10\n";
    auto put = m_client->putObject(m_bucket, "fraud_jun/part-0001.csv", body, "text/csv");
    ASSERT_TRUE(put) << put.error().message;
    EXPECT_EQ(put->etag, md5Hex(body));
    EXPECT_TRUE(put->versionId.empty()); // not versioned

    auto got = m_client->getObject(m_bucket, "fraud_jun/part-0001.csv");
    ASSERT_TRUE(got) << got.error().message;
    EXPECT_EQ(*got, body);

    auto head = m_client->headObject(m_bucket, "fraud_jun/part-0001.csv");
    ASSERT_TRUE(head) << head.error().message;
    EXPECT_EQ(head->size, static_cast<std::int64_t>(body.size()));
    EXPECT_EQ(head->etag, md5Hex(body));
    EXPECT_EQ(head->contentType, "text/csv");
    EXPECT_FALSE(head->lastModified.empty());

    ASSERT_TRUE(m_client->deleteObject(m_bucket, "fraud_jun/part-0001.csv"));
    auto gone = m_client->getObject(m_bucket, "fraud_jun/part-0001.csv");
    ASSERT_FALSE(gone);
    EXPECT_EQ(gone.error().kind, Kind::Api);
    EXPECT_EQ(gone.error().httpStatus, 404);
    EXPECT_EQ(gone.error().apiCode, "NoSuchKey");
    EXPECT_NE(gone.error().message.find("S3 NoSuchKey"), std::string::npos) << gone.error().message;
    EXPECT_NE(gone.error().message.find("fraud_jun/part-0001.csv"), std::string::npos) << gone.error().message;

    auto headGone = m_client->headObject(m_bucket, "fraud_jun/part-0001.csv");
    ASSERT_FALSE(headGone);
    EXPECT_EQ(headGone.error().httpStatus, 404);
    EXPECT_EQ(headGone.error().apiCode, "NotFound");
}

TEST_F(S3Rgw, EmptyObjectAndAwkwardKeysRoundTrip)
{
    // Keys that need percent-encoding in the signed path: spaces, '+', '=', '&', unicode, '%'.
    const std::vector<std::string> keys = {
        "empty", "with space/a+b=c&d.csv", "ünï/ködé~(1).bin", "pct%20literal", "deep/a/b/c/d/e.txt"};
    for (const std::string &key : keys) {
        put(key, key == "empty" ? std::string{} : "data of " + key);
    }
    for (const std::string &key : keys) {
        auto got = m_client->getObject(m_bucket, key);
        ASSERT_TRUE(got) << key << ": " << got.error().message;
        EXPECT_EQ(*got, key == "empty" ? std::string{} : "data of " + key);
    }
    auto listed = m_client->listAll(m_bucket, {});
    ASSERT_TRUE(listed) << listed.error().message;
    std::vector<std::string> names;
    for (const ObjectInfo &object : *listed) {
        names.push_back(object.key);
    }
    std::vector<std::string> expected = keys;
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(names, expected);
    // A prefix that needs encoding in the query string is signed correctly too.
    auto spaced = m_client->listAll(m_bucket, "with space/");
    ASSERT_TRUE(spaced) << spaced.error().message;
    ASSERT_EQ(spaced->size(), 1u);
    EXPECT_EQ(spaced->front().size, static_cast<std::int64_t>(std::string("data of with space/a+b=c&d.csv").size()));
}

TEST_F(S3Rgw, RangedGet)
{
    put("blob", "0123456789abcdef");
    auto middle = m_client->getObject(m_bucket, "blob", {}, std::pair<std::int64_t, std::int64_t>{2, 5});
    ASSERT_TRUE(middle) << middle.error().message;
    EXPECT_EQ(*middle, "2345");
    auto head = m_client->getObject(m_bucket, "blob", {}, std::pair<std::int64_t, std::int64_t>{0, 4095});
    ASSERT_TRUE(head) << head.error().message;
    EXPECT_EQ(*head, "0123456789abcdef"); // a range past the end gives what exists
    auto past = m_client->getObject(m_bucket, "blob", {}, std::pair<std::int64_t, std::int64_t>{100, 200});
    ASSERT_FALSE(past);
    EXPECT_EQ(past.error().httpStatus, 416);
    EXPECT_EQ(past.error().apiCode, "InvalidRange");
}

TEST_F(S3Rgw, ListObjectsV2PagesWithSmallMaxKeys)
{
    for (int i = 0; i < 7; ++i) {
        put("ds/part-000" + std::to_string(i) + ".csv", std::string(static_cast<std::size_t>(10 + i), 'x'));
    }
    put("ds/images/a.png", "png");
    put("other/x", "x");

    std::vector<std::string> keys;
    std::string token;
    int pages = 0;
    do {
        auto page = m_client->listObjectsV2(m_bucket, "ds/", {}, token, 3);
        ASSERT_TRUE(page) << page.error().message;
        ++pages;
        EXPECT_LE(page->objects.size(), 3u);
        for (const ObjectInfo &object : page->objects) {
            keys.push_back(object.key);
            EXPECT_FALSE(object.etag.empty());
            EXPECT_EQ(object.etag.find('"'), std::string::npos);
            EXPECT_FALSE(object.lastModified.empty());
        }
        EXPECT_EQ(page->truncated, !page->nextContinuationToken.empty());
        token = page->nextContinuationToken;
    } while (!token.empty());
    EXPECT_EQ(pages, 3);
    ASSERT_EQ(keys.size(), 8u);
    EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
    EXPECT_EQ(keys.front(), "ds/images/a.png");

    std::vector<std::string> prefixes;
    auto top = m_client->listAll(m_bucket, {}, "/", &prefixes);
    ASSERT_TRUE(top) << top.error().message;
    EXPECT_TRUE(top->empty());
    EXPECT_EQ(prefixes, (std::vector<std::string>{"ds/", "other/"}));

    auto sizes = m_client->listAll(m_bucket, "ds/part-");
    ASSERT_TRUE(sizes);
    ASSERT_EQ(sizes->size(), 7u);
    EXPECT_EQ((*sizes)[6].size, 16);
}

TEST_F(S3Rgw, VersioningStatesAndVersionPaging)
{
    auto initial = m_client->bucketVersioning(m_bucket);
    ASSERT_TRUE(initial) << initial.error().message;
    EXPECT_EQ(*initial, Versioning::Never);

    ASSERT_TRUE(m_client->setBucketVersioning(m_bucket, true));
    auto enabled = m_client->bucketVersioning(m_bucket);
    ASSERT_TRUE(enabled);
    EXPECT_EQ(*enabled, Versioning::Enabled);

    auto v1 = m_client->putObject(m_bucket, "k", "first");
    auto v2 = m_client->putObject(m_bucket, "k", "second");
    ASSERT_TRUE(v1 && v2);
    EXPECT_FALSE(v1->versionId.empty());
    EXPECT_NE(v1->versionId, v2->versionId);
    put("l", "other key");
    ASSERT_TRUE(m_client->deleteObject(m_bucket, "k")); // a delete marker on top

    auto old = m_client->getObject(m_bucket, "k", v1->versionId);
    ASSERT_TRUE(old) << old.error().message;
    EXPECT_EQ(*old, "first");
    auto oldHead = m_client->headObject(m_bucket, "k", v1->versionId);
    ASSERT_TRUE(oldHead) << oldHead.error().message;
    EXPECT_EQ(oldHead->versionId, v1->versionId);
    EXPECT_EQ(oldHead->size, 5);
    auto current = m_client->getObject(m_bucket, "k");
    ASSERT_FALSE(current);
    EXPECT_EQ(current.error().httpStatus, 404);

    // One entry a page: 3 versions of k (marker, v2, v1) then l.
    std::vector<ObjectInfo> seen;
    std::string keyMarker;
    std::string versionMarker;
    int pages = 0;
    for (;;) {
        auto page = m_client->listObjectVersions(m_bucket, {}, keyMarker, versionMarker, 1);
        ASSERT_TRUE(page) << page.error().message;
        ASSERT_LT(++pages, 10);
        seen.insert(seen.end(), page->objects.begin(), page->objects.end());
        if (!page->truncated) {
            break;
        }
        keyMarker = page->nextKeyMarker;
        versionMarker = page->nextVersionIdMarker;
    }
    ASSERT_EQ(seen.size(), 4u);
    EXPECT_EQ(pages, 4);
    EXPECT_EQ(seen[0].key, "k");
    EXPECT_TRUE(seen[0].deleteMarker);
    EXPECT_TRUE(seen[0].isLatest);
    EXPECT_EQ(seen[1].versionId, v2->versionId);
    EXPECT_FALSE(seen[1].isLatest);
    EXPECT_EQ(seen[1].etag, md5Hex("second"));
    EXPECT_EQ(seen[2].versionId, v1->versionId);
    EXPECT_EQ(seen[2].size, 5);
    EXPECT_EQ(seen[3].key, "l");
    EXPECT_TRUE(seen[3].isLatest);

    auto all = m_client->listAllVersions(m_bucket, "k");
    ASSERT_TRUE(all) << all.error().message;
    EXPECT_EQ(all->size(), 3u);

    ASSERT_TRUE(m_client->setBucketVersioning(m_bucket, false));
    auto suspended = m_client->bucketVersioning(m_bucket);
    ASSERT_TRUE(suspended);
    EXPECT_EQ(*suspended, Versioning::Suspended);
}

TEST_F(S3Rgw, WrongSecretIsSignatureDoesNotMatch)
{
    S3Config config = configFor(*m_server);
    config.secretKey = "not-the-secret";
    S3Client wrong(config, transport());
    auto listed = wrong.listObjectsV2(m_bucket, {});
    ASSERT_FALSE(listed);
    EXPECT_EQ(listed.error().kind, Kind::Auth);
    EXPECT_EQ(listed.error().httpStatus, 403);
    EXPECT_EQ(listed.error().apiCode, "SignatureDoesNotMatch");
    EXPECT_NE(listed.error().message.find("S3 SignatureDoesNotMatch"), std::string::npos) << listed.error().message;
    EXPECT_EQ(listed.error().message.find("not-the-secret"), std::string::npos);

    auto put = wrong.putObject(m_bucket, "x", "y");
    ASSERT_FALSE(put);
    EXPECT_EQ(put.error().apiCode, "SignatureDoesNotMatch");

    config = configFor(*m_server);
    config.accessKey = "NOSUCHACCESSKEY";
    S3Client unknown(config, transport());
    auto buckets = unknown.listBuckets();
    ASSERT_FALSE(buckets);
    EXPECT_EQ(buckets.error().kind, Kind::Auth);
    EXPECT_EQ(buckets.error().apiCode, "InvalidAccessKeyId");
}

TEST_F(S3Rgw, MissingBucketIsNoSuchBucket)
{
    const std::string missing = testsupport::uniqueBucketName("gone");
    auto listed = m_client->listObjectsV2(missing, {});
    ASSERT_FALSE(listed);
    EXPECT_EQ(listed.error().kind, Kind::Api);
    EXPECT_EQ(listed.error().httpStatus, 404);
    EXPECT_EQ(listed.error().apiCode, "NoSuchBucket");
    EXPECT_NE(listed.error().message.find(missing), std::string::npos) << listed.error().message;
    auto versioning = m_client->bucketVersioning(missing);
    ASSERT_FALSE(versioning);
    EXPECT_EQ(versioning.error().apiCode, "NoSuchBucket");
    auto got = m_client->getObject(missing, "k");
    ASSERT_FALSE(got);
    EXPECT_EQ(got.error().apiCode, "NoSuchBucket");

    auto buckets = m_client->listBuckets();
    ASSERT_TRUE(buckets) << buckets.error().message;
    EXPECT_NE(std::find(buckets->begin(), buckets->end(), m_bucket), buckets->end());
    EXPECT_EQ(std::find(buckets->begin(), buckets->end(), missing), buckets->end());
}

TEST_F(S3Rgw, CreatingAnOwnedBucketAgainSucceeds)
{
    auto again = m_client->createBucket(m_bucket);
    EXPECT_TRUE(again) << again.error().message;
}

TEST_F(S3Rgw, VirtualHostedAddressing)
{
    // libcurl resolves *.localhost to the loopback address; RGW's `rgw dns name = localhost`
    // takes the bucket from the Host header.
    S3Config config = configFor(*m_server);
    const auto colon = config.endpoint.rfind(':');
    config.endpoint = "http://localhost" + config.endpoint.substr(colon);
    config.pathStyle = false;
    S3Client virtualHosted(config, transport());
    EXPECT_EQ(virtualHosted.objectUrl(m_bucket, "a b"),
              "http://" + m_bucket + ".localhost" + m_server->endpoint.substr(colon) + "/a%20b");
    auto put = virtualHosted.putObject(m_bucket, "vh/a b.txt", "virtual");
    ASSERT_TRUE(put) << put.error().message;
    auto got = m_client->getObject(m_bucket, "vh/a b.txt"); // path-style sees the same object
    ASSERT_TRUE(got) << got.error().message;
    EXPECT_EQ(*got, "virtual");
    auto listed = virtualHosted.listAll(m_bucket, "vh/");
    ASSERT_TRUE(listed) << listed.error().message;
    ASSERT_EQ(listed->size(), 1u);
    EXPECT_EQ(listed->front().key, "vh/a b.txt");
    auto versioning = virtualHosted.bucketVersioning(m_bucket);
    ASSERT_TRUE(versioning) << versioning.error().message;
}

TEST_F(S3Rgw, UnsignedPayloadPut)
{
    S3Config config = configFor(*m_server);
    config.signPayload = false;
    S3Client unsignedClient(config, transport());
    const std::string body(200'000, 'z');
    auto put = unsignedClient.putObject(m_bucket, "big", body);
    ASSERT_TRUE(put) << put.error().message;
    EXPECT_EQ(put->etag, md5Hex(body));
    auto head = m_client->headObject(m_bucket, "big");
    ASSERT_TRUE(head);
    EXPECT_EQ(head->size, 200'000);
}

} // namespace
} // namespace strata::s3::test
