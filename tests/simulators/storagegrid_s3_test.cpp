// The StorageGRID simulator's S3 endpoint, signed with a SigV4 implementation of the tests' own
// (Qt's HMAC): signature checks and their S3 errors, addressing, listings with paging, versions,
// ranged reads, writes, faults; the in-process store API and the datalake preset's datasets.

#include "simulators/storagegrid/s3store.h"
#include "tests/simulators/storagegridtestsupport.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QSet>

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace strata::testsupport::gridsim;
using namespace strata::sim::storagegrid;

namespace {

class GridS3 : public ::testing::Test
{
protected:
    void SetUp() override
    {
        grid = std::make_unique<RunningGrid>();
        ASSERT_TRUE(grid->isRunning()) << grid->error().toStdString();
        s3 = std::make_unique<S3Http>(**grid);
    }

    static void expectS3Error(const HttpResult &r, int status, const QString &code)
    {
        EXPECT_EQ(r.status, status) << r.body.toStdString();
        EXPECT_EQ(xmlValue(r.body, QStringLiteral("Code")), code) << r.body.toStdString();
        EXPECT_FALSE(xmlValue(r.body, QStringLiteral("RequestId")).isEmpty());
    }

    std::unique_ptr<RunningGrid> grid;
    std::unique_ptr<S3Http> s3;
};

} // namespace

TEST_F(GridS3, Signature_WrongSecretUnknownKeySkewAndMissingHeaders_AreRejected)
{
    EXPECT_EQ(s3->get(QStringLiteral("/datasets"), {{QStringLiteral("list-type"), QStringLiteral("2")}}).status, 200);

    S3Http::Options wrongSecret;
    wrongSecret.secretKey = QStringLiteral("not-the-secret");
    const HttpResult sig = s3->request("GET", QStringLiteral("/datasets"), {}, {}, {}, wrongSecret);
    expectS3Error(sig, 403, QStringLiteral("SignatureDoesNotMatch"));
    EXPECT_TRUE(xmlValue(sig.body, QStringLiteral("StringToSign")).startsWith(QStringLiteral("AWS4-HMAC-SHA256\n")));
    EXPECT_TRUE(xmlValue(sig.body, QStringLiteral("CanonicalRequest")).startsWith(QStringLiteral("GET\n/datasets\n")));

    S3Http::Options unknown;
    unknown.accessKey = QStringLiteral("AKIDNOSUCHKEY");
    expectS3Error(s3->request("GET", QStringLiteral("/datasets"), {}, {}, {}, unknown),
                  403,
                  QStringLiteral("InvalidAccessKeyId"));

    S3Http::Options skewed;
    skewed.signedAt = QDateTime::fromMSecsSinceEpoch((*grid)->nowMs()).addSecs(-20 * 60);
    expectS3Error(s3->request("GET", QStringLiteral("/datasets"), {}, {}, {}, skewed),
                  403,
                  QStringLiteral("RequestTimeTooSkewed"));
    skewed.signedAt = QDateTime::fromMSecsSinceEpoch((*grid)->nowMs()).addSecs(-10 * 60);
    EXPECT_EQ(s3->request("GET", QStringLiteral("/datasets"), {}, {}, {}, skewed).status, 200) << "within 15 minutes";

    S3Http::Options noHash;
    noHash.omitPayloadHash = true;
    expectS3Error(
        s3->request("GET", QStringLiteral("/datasets"), {}, {}, {}, noHash), 400, QStringLiteral("InvalidRequest"));

    S3Http::Options anonymous;
    anonymous.anonymous = true;
    expectS3Error(
        s3->request("GET", QStringLiteral("/datasets"), {}, {}, {}, anonymous), 403, QStringLiteral("AccessDenied"));

    // The body must match the signed payload hash unless it is UNSIGNED-PAYLOAD.
    S3Http::Options lying;
    lying.payloadHashOverride = QCryptographicHash::hash("other", QCryptographicHash::Sha256).toHex();
    expectS3Error(s3->request("PUT", QStringLiteral("/datasets/x.txt"), {}, "body", {}, lying),
                  400,
                  QStringLiteral("XAmzContentSHA256Mismatch"));
    S3Http::Options unsignedPayload;
    unsignedPayload.unsignedPayload = true;
    EXPECT_EQ(s3->request("PUT", QStringLiteral("/datasets/x.txt"), {}, "body", {}, unsignedPayload).status, 200);

    // Tampering after signing: a query parameter the signature did not cover.
    EXPECT_FALSE((*grid)->store().head("datasets", "y.txt"));
}

TEST_F(GridS3, Signature_KeysWithSpacesAndUnicode_AndVirtualHostedAddressing)
{
    const QString key = QStringLiteral("/datasets/odd dir/naïve+file(1).csv");
    ASSERT_EQ(s3->request("PUT", key, {}, "a,b\n1,2\n").status, 200);
    const HttpResult got = s3->get(key);
    ASSERT_EQ(got.status, 200) << got.body.toStdString();
    EXPECT_EQ(got.body, QByteArray("a,b\n1,2\n"));
    EXPECT_TRUE((*grid)->store().head("datasets", "odd dir/na\xc3\xafve+file(1).csv"));

    S3Http::Options vhost;
    vhost.virtualHostBucket = QStringLiteral("datasets");
    const HttpResult v = s3->request("GET", QStringLiteral("/fraud_jun/README.md"), {}, {}, {}, vhost);
    ASSERT_EQ(v.status, 200) << v.body.toStdString();
    EXPECT_EQ(v.body.size(), (*grid)->store().head("datasets", "fraud_jun/README.md")->size);
    const HttpResult list = s3->request(
        "GET",
        QStringLiteral("/"),
        {{QStringLiteral("list-type"), QStringLiteral("2")}, {QStringLiteral("prefix"), QStringLiteral("misc_base1/")}},
        {},
        {},
        vhost);
    EXPECT_EQ(list.status, 200);
    EXPECT_EQ(xmlValue(list.body, QStringLiteral("Name")), QStringLiteral("datasets"));
}

TEST_F(GridS3, ListBuckets_CreateBucket_AndTenantIsolation)
{
    const HttpResult buckets = s3->get(QStringLiteral("/"));
    ASSERT_EQ(buckets.status, 200);
    EXPECT_EQ(xmlValues(buckets.body, QStringLiteral("Name")), QStringList{QStringLiteral("datasets")});
    EXPECT_EQ(s3->request("PUT", QStringLiteral("/scratch-1")).status, 200);
    expectS3Error(s3->request("PUT", QStringLiteral("/scratch-1")), 409, QStringLiteral("BucketAlreadyOwnedByYou"));
    expectS3Error(s3->request("PUT", QStringLiteral("/Bad_Name")), 400, QStringLiteral("InvalidBucketName"));
    expectS3Error(s3->request("PUT", QStringLiteral("/sentiment")), 409, QStringLiteral("BucketAlreadyExists"));
    expectS3Error(
        s3->get(QStringLiteral("/sentiment/results/2026-11-01/summary.json")), 403, QStringLiteral("AccessDenied"));
    expectS3Error(s3->get(QStringLiteral("/nosuchbucket"), {{QStringLiteral("list-type"), QStringLiteral("2")}}),
                  404,
                  QStringLiteral("NoSuchBucket"));
    expectS3Error(s3->get(QStringLiteral("/nosuchbucket/key")), 404, QStringLiteral("NoSuchBucket"));
    expectS3Error(s3->get(QStringLiteral("/datasets/no/such/key")), 404, QStringLiteral("NoSuchKey"));

    S3Http::Options support;
    support.accessKey = (*grid)->options().s3AccessKey2;
    support.secretKey = (*grid)->options().s3SecretKey2;
    const HttpResult theirs = s3->request("GET", QStringLiteral("/"), {}, {}, {}, support);
    EXPECT_EQ(xmlValues(theirs.body, QStringLiteral("Name")), QStringList{QStringLiteral("sentiment")});
    EXPECT_EQ(s3->request("DELETE", QStringLiteral("/scratch-1")).status, 204);
    expectS3Error(s3->request("DELETE", QStringLiteral("/datasets")), 409, QStringLiteral("BucketNotEmpty"));
    EXPECT_EQ(s3->request("HEAD", QStringLiteral("/scratch-1")).status, 404) << "HEAD errors carry no body";
}

TEST_F(GridS3, ListObjectsV2_PagesWithMaxKeysAndTokens_DelimiterGivesDatasets)
{
    QSet<QString> keys;
    QString token;
    int pages = 0;
    for (;;) {
        QList<QPair<QString, QString>> q{{QStringLiteral("list-type"), QStringLiteral("2")},
                                         {QStringLiteral("prefix"), QStringLiteral("fraud_jun/")},
                                         {QStringLiteral("max-keys"), QStringLiteral("7")}};
        if (!token.isEmpty()) {
            q.append({QStringLiteral("continuation-token"), token});
        }
        const HttpResult page = s3->get(QStringLiteral("/datasets"), q);
        ASSERT_EQ(page.status, 200) << page.body.toStdString();
        const QStringList pageKeys = xmlValues(page.body, QStringLiteral("Key"));
        EXPECT_LE(pageKeys.size(), 7);
        EXPECT_EQ(xmlValue(page.body, QStringLiteral("KeyCount")).toInt(), pageKeys.size());
        for (const QString &k : pageKeys) {
            EXPECT_FALSE(keys.contains(k)) << k.toStdString();
            keys.insert(k);
        }
        ++pages;
        if (xmlValue(page.body, QStringLiteral("IsTruncated")) != QLatin1String("true")) {
            break;
        }
        token = xmlValue(page.body, QStringLiteral("NextContinuationToken"));
        ASSERT_FALSE(token.isEmpty());
        ASSERT_LT(pages, 20);
    }
    const ListResult all = (*grid)->store().list("datasets", ListQuery{"fraud_jun/", {}, {}, {}, {}, 1000});
    EXPECT_EQ(keys.size(), int(all.objects.size()));
    EXPECT_EQ(pages, (int(all.objects.size()) + 6) / 7);

    const HttpResult datasets = s3->get(
        QStringLiteral("/datasets"),
        {{QStringLiteral("list-type"), QStringLiteral("2")}, {QStringLiteral("delimiter"), QStringLiteral("/")}});
    EXPECT_EQ(xmlValues(datasets.body, QStringLiteral("Prefix")).mid(1),
              (QStringList{QStringLiteral("consumer_img1/"),
                           QStringLiteral("fraud_jun/"),
                           QStringLiteral("fraud_may/"),
                           QStringLiteral("fraud_sim_base/"),
                           QStringLiteral("misc_base1/"),
                           QStringLiteral("public_set12/")}));
    // Common prefixes page too, and start-after skips.
    const HttpResult firstTwo = s3->get(QStringLiteral("/datasets"),
                                        {{QStringLiteral("list-type"), QStringLiteral("2")},
                                         {QStringLiteral("delimiter"), QStringLiteral("/")},
                                         {QStringLiteral("max-keys"), QStringLiteral("2")}});
    EXPECT_EQ(xmlValue(firstTwo.body, QStringLiteral("IsTruncated")), QStringLiteral("true"));
    const HttpResult rest = s3->get(
        QStringLiteral("/datasets"),
        {{QStringLiteral("list-type"), QStringLiteral("2")},
         {QStringLiteral("delimiter"), QStringLiteral("/")},
         {QStringLiteral("continuation-token"), xmlValue(firstTwo.body, QStringLiteral("NextContinuationToken"))}});
    EXPECT_EQ(xmlValues(rest.body, QStringLiteral("Prefix")).size(), 1 + 4);
    const HttpResult after =
        s3->get(QStringLiteral("/datasets"),
                {{QStringLiteral("list-type"), QStringLiteral("2")},
                 {QStringLiteral("prefix"), QStringLiteral("fraud_jun/")},
                 {QStringLiteral("start-after"), QStringLiteral("fraud_jun/train/part-00020.csv")}});
    for (const QString &k : xmlValues(after.body, QStringLiteral("Key"))) {
        EXPECT_GT(k, QStringLiteral("fraud_jun/train/part-00020.csv"));
    }
    expectS3Error(s3->get(QStringLiteral("/datasets"),
                          {{QStringLiteral("list-type"), QStringLiteral("2")},
                           {QStringLiteral("continuation-token"), QStringLiteral("!!")}}),
                  400,
                  QStringLiteral("InvalidArgument"));
    expectS3Error(s3->get(QStringLiteral("/datasets"),
                          {{QStringLiteral("list-type"), QStringLiteral("2")},
                           {QStringLiteral("max-keys"), QStringLiteral("ten")}}),
                  400,
                  QStringLiteral("InvalidArgument"));
}

TEST_F(GridS3, ListObjectsV1_PagesWithMarker)
{
    const HttpResult first = s3->get(
        QStringLiteral("/datasets"),
        {{QStringLiteral("prefix"), QStringLiteral("misc_base1/")}, {QStringLiteral("max-keys"), QStringLiteral("5")}});
    ASSERT_EQ(first.status, 200);
    const QStringList keys = xmlValues(first.body, QStringLiteral("Key"));
    ASSERT_EQ(keys.size(), 5);
    EXPECT_EQ(xmlValue(first.body, QStringLiteral("IsTruncated")), QStringLiteral("true"));
    const HttpResult second =
        s3->get(QStringLiteral("/datasets"),
                {{QStringLiteral("prefix"), QStringLiteral("misc_base1/")}, {QStringLiteral("marker"), keys.last()}});
    EXPECT_EQ(xmlValues(second.body, QStringLiteral("Key")).size(), 22 - 5) << "20 chunks + README + labels";
}

TEST_F(GridS3, VersionsDeleteMarkersAndVersioningStatus)
{
    const HttpResult status = s3->get(QStringLiteral("/datasets"), {{QStringLiteral("versioning"), QString()}});
    EXPECT_EQ(xmlValue(status.body, QStringLiteral("Status")), QStringLiteral("Enabled"));

    const HttpResult v1 = s3->request("PUT", QStringLiteral("/datasets/v/obj.txt"), {}, "one");
    const HttpResult v2 = s3->request("PUT", QStringLiteral("/datasets/v/obj.txt"), {}, "two!");
    ASSERT_EQ(v1.status, 200);
    const QByteArray id1 = v1.headers.value("x-amz-version-id");
    const QByteArray id2 = v2.headers.value("x-amz-version-id");
    ASSERT_FALSE(id1.isEmpty());
    EXPECT_NE(id1, id2);
    EXPECT_EQ(v1.headers.value("etag"), "\"" + QCryptographicHash::hash("one", QCryptographicHash::Md5).toHex() + "\"");
    const HttpResult del = s3->request("DELETE", QStringLiteral("/datasets/v/obj.txt"));
    EXPECT_EQ(del.status, 204);
    EXPECT_EQ(del.headers.value("x-amz-delete-marker"), "true");
    const HttpResult gone = s3->get(QStringLiteral("/datasets/v/obj.txt"));
    expectS3Error(gone, 404, QStringLiteral("NoSuchKey"));
    EXPECT_EQ(gone.headers.value("x-amz-delete-marker"), "true");
    const HttpResult old =
        s3->get(QStringLiteral("/datasets/v/obj.txt"), {{QStringLiteral("versionId"), QString::fromLatin1(id1)}});
    EXPECT_EQ(old.body, QByteArray("one"));
    expectS3Error(s3->get(QStringLiteral("/datasets/v/obj.txt"),
                          {{QStringLiteral("versionId"), QStringLiteral("nosuchversionid1234")}}),
                  404,
                  QStringLiteral("NoSuchVersion"));

    // ListObjectVersions pages one entry at a time through the marker, newest first.
    QStringList seen;
    QString keyMarker;
    QString versionMarker;
    for (int i = 0; i < 10; ++i) {
        QList<QPair<QString, QString>> q{{QStringLiteral("versions"), QString()},
                                         {QStringLiteral("prefix"), QStringLiteral("v/")},
                                         {QStringLiteral("max-keys"), QStringLiteral("1")}};
        if (!keyMarker.isEmpty()) {
            q.append({QStringLiteral("key-marker"), keyMarker});
            q.append({QStringLiteral("version-id-marker"), versionMarker});
        }
        const HttpResult page = s3->get(QStringLiteral("/datasets"), q);
        ASSERT_EQ(page.status, 200) << page.body.toStdString();
        seen << xmlValues(page.body, QStringLiteral("VersionId"));
        if (xmlValue(page.body, QStringLiteral("IsTruncated")) != QLatin1String("true")) {
            break;
        }
        keyMarker = xmlValue(page.body, QStringLiteral("NextKeyMarker"));
        versionMarker = xmlValue(page.body, QStringLiteral("NextVersionIdMarker"));
    }
    ASSERT_EQ(seen.size(), 3);
    EXPECT_EQ(seen[1], QString::fromLatin1(id2));
    EXPECT_EQ(seen[2], QString::fromLatin1(id1));
    EXPECT_EQ(seen[0], QString::fromLatin1(del.headers.value("x-amz-version-id")));

    // Deleting the marker by version id brings the object back.
    EXPECT_EQ(
        s3->request("DELETE", QStringLiteral("/datasets/v/obj.txt"), {{QStringLiteral("versionId"), seen[0]}}).status,
        204);
    EXPECT_EQ(s3->get(QStringLiteral("/datasets/v/obj.txt")).body, QByteArray("two!"));

    EXPECT_EQ(s3->request("PUT",
                          QStringLiteral("/datasets"),
                          {{QStringLiteral("versioning"), QString()}},
                          "<VersioningConfiguration><Status>Suspended</Status></VersioningConfiguration>")
                  .status,
              200);
    EXPECT_EQ(xmlValue(s3->get(QStringLiteral("/datasets"), {{QStringLiteral("versioning"), QString()}}).body,
                       QStringLiteral("Status")),
              QStringLiteral("Suspended"));
    expectS3Error(s3->request("PUT",
                              QStringLiteral("/datasets"),
                              {{QStringLiteral("versioning"), QString()}},
                              "<VersioningConfiguration><Status>Maybe</Status>"),
                  400,
                  QStringLiteral("MalformedXML"));
    ASSERT_EQ(s3->request("PUT", QStringLiteral("/plain")).status, 200);
    const HttpResult never = s3->get(QStringLiteral("/plain"), {{QStringLiteral("versioning"), QString()}});
    EXPECT_EQ(never.status, 200);
    EXPECT_TRUE(xmlValue(never.body, QStringLiteral("Status")).isEmpty());
}

TEST_F(GridS3, GetRangesHeadAndContentMd5)
{
    const auto object = (*grid)->store().head("datasets", "public_set12/images/frame_000001.jpg");
    ASSERT_TRUE(object);
    const QByteArray whole = s3->get(QStringLiteral("/datasets/public_set12/images/frame_000001.jpg")).body;
    ASSERT_EQ(whole.size(), object->size);
    EXPECT_EQ(QCryptographicHash::hash(whole, QCryptographicHash::Md5).toHex().toStdString(), object->etag);

    const HttpResult head = s3->request("HEAD", QStringLiteral("/datasets/public_set12/images/frame_000001.jpg"));
    EXPECT_EQ(head.status, 200);
    EXPECT_EQ(head.headers.value("content-length").toLongLong(), object->size);
    EXPECT_EQ(head.headers.value("etag"), QByteArray::fromStdString("\"" + object->etag + "\""));
    EXPECT_FALSE(head.headers.value("x-amz-version-id").isEmpty());
    EXPECT_FALSE(head.headers.value("last-modified").isEmpty());

    const HttpResult range = s3->request(
        "GET", QStringLiteral("/datasets/public_set12/images/frame_000001.jpg"), {}, {}, {{"Range", "bytes=100-4195"}});
    EXPECT_EQ(range.status, 206);
    EXPECT_EQ(range.body, whole.mid(100, 4096));
    EXPECT_EQ(range.headers.value("content-range"), "bytes 100-4195/" + QByteArray::number(object->size));
    const HttpResult suffix = s3->request(
        "GET", QStringLiteral("/datasets/public_set12/images/frame_000001.jpg"), {}, {}, {{"Range", "bytes=-10"}});
    EXPECT_EQ(suffix.body, whole.right(10));
    const HttpResult open =
        s3->request("GET", QStringLiteral("/datasets/fraud_jun/README.md"), {}, {}, {{"Range", "bytes=0-4095"}});
    EXPECT_EQ(open.status, 206) << "a range past the end is clipped";
    EXPECT_EQ(open.body.size(), (*grid)->store().head("datasets", "fraud_jun/README.md")->size);
    expectS3Error(
        s3->request("GET", QStringLiteral("/datasets/fraud_jun/README.md"), {}, {}, {{"Range", "bytes=99999999-"}}),
        416,
        QStringLiteral("InvalidRange"));

    const QByteArray body = "manifest line\n";
    const QByteArray md5 = QCryptographicHash::hash(body, QCryptographicHash::Md5).toBase64();
    EXPECT_EQ(s3->request("PUT", QStringLiteral("/datasets/m.jsonl"), {}, body, {{"Content-MD5", md5}}).status, 200);
    expectS3Error(
        s3->request(
            "PUT", QStringLiteral("/datasets/m.jsonl"), {}, body, {{"Content-MD5", "AAAAAAAAAAAAAAAAAAAAAA=="}}),
        400,
        QStringLiteral("BadDigest"));
    expectS3Error(s3->request("POST", QStringLiteral("/datasets/m.jsonl"), {{QStringLiteral("uploads"), QString()}}),
                  501,
                  QStringLiteral("NotImplemented"));
}

TEST_F(GridS3, Faults_SlowDownForNRequests_AndLatency)
{
    (*grid)->injectSlowDown(2);
    expectS3Error(s3->get(QStringLiteral("/")), 503, QStringLiteral("SlowDown"));
    expectS3Error(s3->get(QStringLiteral("/")), 503, QStringLiteral("SlowDown"));
    EXPECT_EQ(s3->get(QStringLiteral("/")).status, 200);
    (*grid)->setS3Latency(std::chrono::milliseconds(300));
    QElapsedTimer t;
    t.start();
    EXPECT_EQ(s3->get(QStringLiteral("/")).status, 200);
    EXPECT_GE(t.elapsed(), 280);
    (*grid)->setS3Latency(std::chrono::milliseconds(0));
    EXPECT_GE((*grid)->s3Requests(), 4);
    EXPECT_GE((*grid)->store().operationCounts().at("ListBuckets"), 2);
}

TEST_F(GridS3, DatalakePreset_SixDatasetsWithTheirTotals)
{
    std::int64_t total = 0;
    for (const DatasetSpec &d : datalakeDatasets()) {
        const ListResult objects =
            (*grid)->store().list("datasets", {d.name.toStdString() + "/", {}, {}, {}, {}, 1000});
        ASSERT_FALSE(objects.truncated);
        std::int64_t bytes = 0;
        for (const StoredObject &o : objects.objects) {
            bytes += o.size;
            EXPECT_GT(o.size, 0);
            EXPECT_LT(o.size, 4'000'000) << "files are realistic parts, not one blob";
        }
        EXPECT_EQ(bytes, d.totalBytes) << d.name.toStdString();
        EXPECT_GE(objects.objects.size(), 20u) << d.name.toStdString();
        total += bytes;
    }
    EXPECT_EQ(total, 290'200'000);
    const QStringList expected{QStringLiteral("fraud_jun"),
                               QStringLiteral("fraud_may"),
                               QStringLiteral("consumer_img1"),
                               QStringLiteral("public_set12"),
                               QStringLiteral("fraud_sim_base"),
                               QStringLiteral("misc_base1")};
    QStringList names;
    QList<int> revisions;
    for (const DatasetSpec &d : datalakeDatasets()) {
        names << d.name;
        revisions << d.revisions;
    }
    EXPECT_EQ(names, expected);
    EXPECT_EQ(revisions, (QList<int>{4, 2, 4, 7, 2, 1}));
    const auto sentiment = (*grid)->store().bucket("sentiment");
    ASSERT_TRUE(sentiment);
    EXPECT_EQ(sentiment->versioning, VersioningState::Never);
    EXPECT_GT(sentiment->currentObjects, 0);
}

TEST_F(GridS3, ApplyDatasetRevision_ReplaysHistory_AndEndsAtTheCurrentContent)
{
    auto snapshot = [&](const std::string &prefix) {
        std::map<std::string, std::string> out;
        for (const StoredObject &o : (*grid)->store().list("datasets", {prefix, {}, {}, {}, {}, 1000}).objects) {
            out[o.key] = o.etag;
        }
        return out;
    };
    const auto current = snapshot("public_set12/");
    EXPECT_FALSE((*grid)->applyDatasetRevision(QStringLiteral("public_set12"), 8));
    EXPECT_FALSE((*grid)->applyDatasetRevision(QStringLiteral("public_set12"), 0));
    EXPECT_FALSE((*grid)->applyDatasetRevision(QStringLiteral("nope"), 1));

    std::vector<std::map<std::string, std::string>> states;
    for (int k = 1; k <= 7; ++k) {
        ASSERT_TRUE((*grid)->applyDatasetRevision(QStringLiteral("public_set12"), k));
        states.push_back(snapshot("public_set12/"));
    }
    EXPECT_EQ(states.back(), current) << "the last revision is the preset's content";
    for (std::size_t k = 1; k < states.size(); ++k) {
        EXPECT_NE(states[k], states[k - 1]) << "revision " << k + 1 << " changes something";
        int added = 0;
        int removed = 0;
        int changed = 0;
        for (const auto &[key, etag] : states[k]) {
            const auto before = states[k - 1].find(key);
            added += before == states[k - 1].end() ? 1 : 0;
            changed += before != states[k - 1].end() && before->second != etag ? 1 : 0;
        }
        for (const auto &[key, etag] : states[k - 1]) {
            removed += states[k].count(key) ? 0 : 1;
        }
        EXPECT_LE(added + removed + changed, 120) << "a few objects per revision, not a rewrite";
        EXPECT_EQ(added, 1) << "one new data file per revision";
        EXPECT_GE(changed, 1) << "README.md changes every revision";
        if ((k + 1) % 2 == 0) {
            EXPECT_EQ(removed, 1) << "a staging file goes away in even revisions";
        }
    }
    // Commit manifests beside the data survive revisions.
    ASSERT_TRUE((*grid)->store().putObject("datasets", "public_set12/.strata/commits/abc.jsonl", "{}\n"));
    ASSERT_TRUE((*grid)->applyDatasetRevision(QStringLiteral("public_set12"), 3));
    EXPECT_TRUE((*grid)->store().head("datasets", "public_set12/.strata/commits/abc.jsonl"));
    ASSERT_TRUE((*grid)->store().deleteObject("datasets", "public_set12/.strata/commits/abc.jsonl")
                == StoreError::None);
    // Revision 1 again: old versions come back as new versions, nothing is lost.
    ASSERT_TRUE((*grid)->applyDatasetRevision(QStringLiteral("public_set12"), 1));
    EXPECT_EQ(snapshot("public_set12/"), states.front());
    const ListResult versions =
        (*grid)->store().listVersions("datasets", {"public_set12/README.md", {}, {}, {}, {}, 1000});
    EXPECT_EQ(versions.objects.size(), 8u + 2u) << "preset + 7 replayed + 3 + back to 1";
}

TEST(S3StoreApi, ThreadSafe_ConcurrentWritersAndReaders)
{
    S3Store store;
    ASSERT_EQ(store.createBucket("bkt", "1"), StoreError::None);
    ASSERT_EQ(store.setVersioning("bkt", true), StoreError::None);
    std::atomic<bool> stop{false};
    std::atomic<int> reads{0};
    std::thread reader([&] {
        while (!stop) {
            const ListResult r = store.list("bkt", {"k/", {}, {}, {}, {}, 1000});
            for (const StoredObject &o : r.objects) {
                EXPECT_EQ(o.etag, md5Hex(o.body()));
            }
            reads++;
        }
    });
    std::vector<std::thread> writers;
    for (int w = 0; w < 4; ++w) {
        writers.emplace_back([&store, w] {
            for (int i = 0; i < 200; ++i) {
                store.putObject(
                    "bkt", "k/" + std::to_string(i % 20), "w" + std::to_string(w) + "-" + std::to_string(i));
                if (i % 7 == 0) {
                    store.deleteObject("bkt", "k/" + std::to_string((i + 3) % 20));
                }
            }
        });
    }
    for (auto &t : writers) {
        t.join();
    }
    stop = true;
    reader.join();
    EXPECT_GT(reads.load(), 0);
    const auto info = store.bucket("bkt");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->objectCount, 800);
    const ListResult versions = store.listVersions("bkt", {"", {}, {}, {}, {}, 1000});
    ASSERT_FALSE(versions.truncated);
    const auto markers = std::count_if(versions.objects.begin(), versions.objects.end(), [](const StoredObject &o) {
        return o.deleteMarker;
    });
    EXPECT_EQ(markers, 4 * 29) << "one delete marker per seventh write";
    EXPECT_EQ(versions.objects.size(), 800u + 4u * 29u);
}

TEST(S3StoreApi, BucketWithoutUsage_SkipsTheWalkOverObjects)
{
    S3Store store;
    ASSERT_EQ(store.createBucket("usage", "27842394817204129340", "eu-west-1"), StoreError::None);
    ASSERT_EQ(store.setVersioning("usage", true), StoreError::None);
    for (int i = 0; i < 5; ++i) {
        ASSERT_TRUE(store.putObject("usage", "k" + std::to_string(i), std::string(10, 'x')));
    }
    const auto counted = store.bucket("usage");
    ASSERT_TRUE(counted);
    EXPECT_EQ(counted->objectCount, 5);
    EXPECT_EQ(counted->dataBytes, 50);
    // What every S3 request checks, without the usage walk (O(objects) per request).
    const auto plain = store.bucket("usage", false);
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->ownerAccountId, "27842394817204129340");
    EXPECT_EQ(plain->region, "eu-west-1");
    EXPECT_EQ(plain->versioning, VersioningState::Enabled);
    EXPECT_EQ(plain->objectCount, 0);
    EXPECT_EQ(plain->dataBytes, 0);
    EXPECT_FALSE(store.bucket("absent", false));
}

TEST(S3StoreApi, GeneratedContent_IsDeterministicAndRandomAccess)
{
    const ObjectContent c = ObjectContent::generated(7, 100'003, true);
    const std::string whole = c.read(0, c.size);
    ASSERT_EQ(whole.size(), 100'003u);
    EXPECT_EQ(c.read(12'345, 999), whole.substr(12'345, 999));
    EXPECT_EQ(c.read(100'000, 100), whole.substr(100'000));
    EXPECT_TRUE(c.read(100'003, 1).empty());
    EXPECT_EQ(whole.find_first_not_of("0123456789,.-\n"), std::string::npos) << "csv-like text";
    S3Store store;
    ASSERT_EQ(store.createBucket("gen", "1"), StoreError::None);
    ASSERT_TRUE(store.putContent("gen", "a.csv", c));
    EXPECT_EQ(store.head("gen", "a.csv")->etag, md5Hex(whole));
    StoreError error = StoreError::None;
    EXPECT_FALSE(store.head("gen", "b.csv", {}, &error));
    EXPECT_EQ(error, StoreError::NoSuchKey);
    EXPECT_FALSE(store.putObject("none", "x", "y", {}, &error));
    EXPECT_EQ(error, StoreError::NoSuchBucket);
    EXPECT_EQ(store.createBucket("ab", "1"), StoreError::InvalidBucketName);
}

TEST(S3StoreApi, LazyEtag_IsTheMd5OfTheBody_OncePerDistinctContent)
{
    S3Store store;
    ASSERT_EQ(store.createBucket("lazy", "1"), StoreError::None);
    ASSERT_EQ(store.setVersioning("lazy", true), StoreError::None);
    const ObjectContent first = ObjectContent::generated(41, 3 * 1024 * 1024 + 17, false);
    const ObjectContent other = ObjectContent::generated(42, 3 * 1024 * 1024 + 17, false);
    const auto put = store.putContent("lazy", "a.bin", first);
    ASSERT_TRUE(put);
    EXPECT_TRUE(put->etag.empty()) << "generated content is not hashed when written";
    // The same bytes again as a new version, and other bytes under another key.
    ASSERT_TRUE(store.putContent("lazy", "a.bin", first));
    ASSERT_TRUE(store.putContent("lazy", "b.bin", other));

    // S3's ETag of a single-part upload: the MD5 of the body, checked with Qt's own MD5.
    const auto md5 = [](const ObjectContent &c) {
        const std::string body = c.read(0, c.size);
        return QCryptographicHash::hash(QByteArray::fromStdString(body), QCryptographicHash::Md5).toHex().toStdString();
    };
    const ListResult versions = store.listVersions("lazy", {});
    ASSERT_EQ(versions.objects.size(), 3u);
    for (const StoredObject &o : versions.objects) {
        EXPECT_EQ(o.etag, md5(o.key == "a.bin" ? first : other)) << o.key << " " << o.versionId;
    }
    EXPECT_NE(versions.objects.front().etag, versions.objects.back().etag);
    EXPECT_EQ(store.head("lazy", "b.bin")->etag, md5(other));

    // Keys for the simulator's bookkeeping skip deleted objects.
    ASSERT_EQ(store.deleteObject("lazy", "b.bin"), StoreError::None);
    EXPECT_EQ(store.latestKeys("lazy", ""), std::vector<std::string>{"a.bin"});
    EXPECT_TRUE(store.latestKeys("lazy", "b").empty());
}
