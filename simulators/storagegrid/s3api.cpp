// The S3 endpoint of the StorageGRID simulator: SigV4 header authentication, path-style and
// virtual-hosted addressing, buckets, objects, listings and versioning over the S3Store.

#include "simulators/storagegrid/gridstate.h"
#include "simulators/storagegrid/sigv4.h"
#include "simulators/storagegrid/storagegridsimulator.h"

#include <QDateTime>
#include <QLocale>
#include <QRegularExpression>
#include <QTimeZone>
#include <QUrlQuery>

#include <charconv>

namespace strata::sim::storagegrid {

namespace {

const char *const S3Ns = "http://s3.amazonaws.com/doc/2006-03-01/";

std::string xmlEscape(const std::string &s)
{
    std::string out;
    out.reserve(s.size());
    for (const char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string element(const char *name, const std::string &value)
{
    return std::string("<") + name + ">" + xmlEscape(value) + "</" + name + ">";
}

QByteArray httpDate(std::int64_t ms)
{
    return QLocale::c()
        .toString(QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc()),
                  QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"))
        .toLatin1();
}

struct S3Call
{
    std::string bucket;
    std::string key;
    bool hasKey = false;
    std::map<std::string, std::string> params; ///< decoded query parameters
    bool has(const char *name) const { return params.count(name) != 0; }
    std::string param(const char *name) const
    {
        const auto it = params.find(name);
        return it == params.end() ? std::string() : it->second;
    }
};

std::optional<int> parseInt(const std::string &s)
{
    int value = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || ptr != s.data() + s.size()) {
        return std::nullopt;
    }
    return value;
}

std::string ownerXml(const QString &id, const QString &name)
{
    return "<Owner>" + element("ID", id.toStdString()) + element("DisplayName", name.toStdString()) + "</Owner>";
}

} // namespace

void StorageGridSimulator::handleS3(const Request &request, const Responder &responder)
{
    std::uint64_t requestNo = 0;
    std::int64_t latency = 0;
    bool slowDown = false;
    {
        std::lock_guard lock(m_state->mutex);
        m_state->s3Requests++;
        requestNo = ++m_state->requestCounter;
        latency = m_state->s3LatencyMs;
        if (m_state->slowDownRemaining > 0) {
            m_state->slowDownRemaining--;
            slowDown = true;
        }
    }
    const QByteArray requestId = QByteArray::number(qulonglong(stableHash("req", requestNo)), 16).toUpper().left(16);
    auto finish = [&](Response r) {
        r.headers.append(QPair<QByteArray, QByteArray>("x-amz-request-id", requestId));
        r.headers.append(
            {"Server", "StorageGRID/" + m_options.productVersion.section(QLatin1Char('-'), 0, 0).toLatin1()});
        r.delay = std::chrono::milliseconds(latency);
        responder.send(std::move(r));
    };
    auto error = [&](int status, const std::string &code, const std::string &message, const std::string &extra = {}) {
        Response r;
        r.status = status;
        r.headers.append(QPair<QByteArray, QByteArray>("Content-Type", "application/xml"));
        r.body = QByteArray::fromStdString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error>" + element("Code", code)
                                           + element("Message", message) + extra
                                           + element("RequestId", requestId.toStdString()) + "</Error>");
        finish(std::move(r));
    };
    auto xml = [&](int status, const std::string &body, QList<QPair<QByteArray, QByteArray>> headers = {}) {
        Response r;
        r.status = status;
        r.headers = headers;
        r.headers.append(QPair<QByteArray, QByteArray>("Content-Type", "application/xml"));
        r.body = QByteArray::fromStdString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + body);
        finish(std::move(r));
    };

    if (slowDown) {
        error(503, "SlowDown", "Please reduce your request rate.");
        return;
    }

    // Addressing: virtual-hosted when Host is "<bucket>.<suffix>[:port]", else path-style.
    S3Call call;
    const std::string target = request.target.toStdString();
    const auto q = target.find('?');
    std::string path = percentDecode(target.substr(0, q));
    if (q != std::string::npos) {
        std::size_t start = q + 1;
        while (start <= target.size()) {
            const auto amp = target.find('&', start);
            const std::string item = target.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
            if (!item.empty()) {
                const auto eq = item.find('=');
                call.params[percentDecode(item.substr(0, eq))] =
                    eq == std::string::npos ? std::string() : percentDecode(item.substr(eq + 1));
            }
            if (amp == std::string::npos) {
                break;
            }
            start = amp + 1;
        }
    }
    QString host = QString::fromLatin1(request.header("host"));
    host = host.section(QLatin1Char(':'), 0, 0).toLower();
    for (const QString &suffix : m_options.virtualHostSuffixes) {
        if (host.endsWith(QLatin1Char('.') + suffix)) {
            call.bucket = host.left(host.size() - suffix.size() - 1).toStdString();
            break;
        }
    }
    if (path.empty() || path[0] != '/') {
        error(400, "InvalidURI", "Couldn't parse the specified URI.");
        return;
    }
    if (call.bucket.empty()) {
        const auto slash = path.find('/', 1);
        call.bucket = path.substr(1, slash == std::string::npos ? std::string::npos : slash - 1);
        if (slash != std::string::npos) {
            call.key = path.substr(slash + 1);
            call.hasKey = !call.key.empty();
        }
    } else {
        call.key = path.substr(1);
        call.hasKey = !call.key.empty();
    }

    // Authentication.
    std::vector<std::pair<std::string, std::pair<std::string, QString>>> keys;
    {
        std::lock_guard lock(m_state->mutex);
        keys = m_state->s3Keys;
    }
    const SigV4Check auth = verifySigV4(
        request,
        [&keys](const std::string &accessKey) -> std::optional<std::string> {
            for (const auto &k : keys) {
                if (k.first == accessKey) {
                    return k.second.first;
                }
            }
            return std::nullopt;
        },
        nowMs(),
        std::chrono::duration_cast<std::chrono::milliseconds>(m_options.maxClockSkew).count());
    using R = SigV4Check::Result;
    switch (auth.result) {
    case R::Ok:
        break;
    case R::Anonymous:
        error(403, "AccessDenied", "Access Denied");
        return;
    case R::Malformed:
        error(400, "AuthorizationHeaderMalformed", auth.message);
        return;
    case R::UnsupportedAlgorithm:
        error(400, "InvalidArgument", auth.message);
        return;
    case R::MissingContentSha256:
        error(400, "InvalidRequest", auth.message);
        return;
    case R::ContentSha256Mismatch:
        error(400, "XAmzContentSHA256Mismatch", auth.message);
        return;
    case R::MissingDate:
        error(403, "AccessDenied", auth.message);
        return;
    case R::RequestTimeTooSkewed:
        error(403,
              "RequestTimeTooSkewed",
              auth.message,
              element("RequestTime", request.header("x-amz-date").toStdString())
                  + element("ServerTime", isoMs(nowMs()).toStdString())
                  + element("MaxAllowedSkewMilliseconds", std::to_string(m_options.maxClockSkew.count() * 60000)));
        return;
    case R::InvalidAccessKeyId:
        error(403, "InvalidAccessKeyId", auth.message, element("AWSAccessKeyId", auth.accessKey));
        return;
    case R::SignatureDoesNotMatch:
        error(403,
              "SignatureDoesNotMatch",
              auth.message,
              element("AWSAccessKeyId", auth.accessKey) + element("StringToSign", auth.stringToSign)
                  + element("CanonicalRequest", auth.canonicalRequest));
        return;
    }
    QString tenantId;
    for (const auto &k : keys) {
        if (k.first == auth.accessKey) {
            tenantId = k.second.second;
        }
    }
    QString tenantName;
    for (const TenantSpec &t : tenants()) {
        if (t.id == tenantId) {
            tenantName = t.name;
        }
    }

    std::string body = request.body.toStdString();
    if (auth.payloadHash.rfind("STREAMING-", 0) == 0) {
        const auto decoded = decodeAwsChunked(body);
        if (!decoded) {
            error(400, "IncompleteBody", "The request body is not a valid aws-chunked stream.");
            return;
        }
        body = *decoded;
    }
    const QByteArray method = request.method;
    auto count = [this](const char *operation) {
        m_store->countOperation(operation);
    };

    // ---- service ------------------------------------------------------------------------
    if (call.bucket.empty()) {
        if (method != "GET") {
            error(405, "MethodNotAllowed", "The specified method is not allowed against this resource.");
            return;
        }
        count("ListBuckets");
        std::string out = std::string("<ListAllMyBucketsResult xmlns=\"") + S3Ns + "\">"
                          + ownerXml(tenantId, tenantName) + "<Buckets>";
        for (const BucketInfo &b : m_store->buckets(tenantId.toStdString())) {
            StoredObject stamp;
            stamp.modifiedMs = b.creationMs;
            out +=
                "<Bucket>" + element("Name", b.name) + element("CreationDate", stamp.lastModifiedIso()) + "</Bucket>";
        }
        out += "</Buckets></ListAllMyBucketsResult>";
        xml(200, out);
        return;
    }

    const std::optional<BucketInfo> bucket = m_store->bucket(call.bucket, false);
    const std::string bucketExtra = element("BucketName", call.bucket);
    if (bucket && bucket->ownerAccountId != tenantId.toStdString()) {
        if (method == "PUT" && !call.hasKey && call.params.empty()) {
            error(409,
                  "BucketAlreadyExists",
                  "The requested bucket name is not available. The bucket namespace is shared by all users of "
                  "the system. Please select a different name and try again.",
                  bucketExtra);
        } else {
            error(403, "AccessDenied", "Access Denied");
        }
        return;
    }
    auto noSuchBucket = [&] {
        error(404, "NoSuchBucket", "The specified bucket does not exist", bucketExtra);
    };

    // ---- bucket ---------------------------------------------------------------------------
    if (!call.hasKey) {
        if (method == "PUT" && call.has("versioning")) {
            count("PutBucketVersioning");
            if (!bucket) {
                noSuchBucket();
                return;
            }
            static const QRegularExpression status(QStringLiteral("<Status>\\s*(Enabled|Suspended)\\s*</Status>"));
            const auto m = status.match(QString::fromStdString(body));
            if (!body.empty() && body.find("<VersioningConfiguration") != std::string::npos && m.hasMatch()) {
                m_store->setVersioning(call.bucket, m.captured(1) == QLatin1String("Enabled"));
                finish(Response::text(200, {}));
            } else {
                error(400,
                      "MalformedXML",
                      "The XML you provided was not well-formed or did not validate against our published schema.");
            }
            return;
        }
        if (method == "PUT" && call.params.empty()) {
            count("CreateBucket");
            if (bucket) {
                error(409,
                      "BucketAlreadyOwnedByYou",
                      "Your previous request to create the named bucket succeeded and you already own it.",
                      bucketExtra);
                return;
            }
            static const QRegularExpression location(QStringLiteral("<LocationConstraint>\\s*([^<\\s]*)\\s*<"));
            const auto m = location.match(QString::fromStdString(body));
            const std::string region = m.hasMatch() ? m.captured(1).toStdString() : m_options.s3Region.toStdString();
            const StoreError e = m_store->createBucket(call.bucket, tenantId.toStdString(), region);
            if (e == StoreError::InvalidBucketName) {
                error(400, "InvalidBucketName", "The specified bucket is not valid.", bucketExtra);
                return;
            }
            if (e == StoreError::BucketAlreadyExists) {
                error(409,
                      "BucketAlreadyOwnedByYou",
                      "Your previous request to create the named bucket succeeded and you already own it.",
                      bucketExtra);
                return;
            }
            finish(Response::text(200, {}).withHeader("Location", QByteArray::fromStdString("/" + call.bucket)));
            return;
        }
        if (!bucket) {
            count(method == "HEAD" ? "HeadBucket" : "BucketRequest");
            noSuchBucket();
            return;
        }
        if (method == "HEAD") {
            count("HeadBucket");
            finish(
                Response::text(200, {}).withHeader("x-amz-bucket-region", QByteArray::fromStdString(bucket->region)));
            return;
        }
        if (method == "DELETE" && call.params.empty()) {
            count("DeleteBucket");
            if (m_store->deleteBucket(call.bucket) == StoreError::BucketNotEmpty) {
                error(409, "BucketNotEmpty", "The bucket you tried to delete is not empty", bucketExtra);
                return;
            }
            Response r;
            r.status = 204;
            finish(r);
            return;
        }
        if (method != "GET") {
            error(405, "MethodNotAllowed", "The specified method is not allowed against this resource.");
            return;
        }
        if (call.has("location")) {
            count("GetBucketLocation");
            xml(200,
                std::string("<LocationConstraint xmlns=\"") + S3Ns + "\">"
                    + (bucket->region == "us-east-1" ? std::string() : xmlEscape(bucket->region))
                    + "</LocationConstraint>");
            return;
        }
        if (call.has("versioning")) {
            count("GetBucketVersioning");
            std::string out = std::string("<VersioningConfiguration xmlns=\"") + S3Ns + "\">";
            if (bucket->versioning == VersioningState::Enabled) {
                out += "<Status>Enabled</Status>";
            } else if (bucket->versioning == VersioningState::Suspended) {
                out += "<Status>Suspended</Status>";
            }
            xml(200, out + "</VersioningConfiguration>");
            return;
        }
        for (const char *unsupported : {"acl", "policy", "cors", "lifecycle", "tagging", "uploads", "replication"}) {
            if (call.has(unsupported)) {
                error(501,
                      "NotImplemented",
                      "A header or query you provided implies functionality that is not "
                      "implemented in this simulator.");
                return;
            }
        }
        // Listings.
        const bool urlEncode = call.param("encoding-type") == "url";
        if (call.has("encoding-type") && !urlEncode) {
            error(400, "InvalidArgument", "Invalid Encoding Method specified in Request");
            return;
        }
        auto enc = [urlEncode](const std::string &s) {
            return urlEncode ? awsUriEncode(s, true) : s;
        };
        ListQuery query;
        query.prefix = call.param("prefix");
        query.delimiter = call.param("delimiter");
        if (call.has("max-keys")) {
            const auto n = parseInt(call.param("max-keys"));
            if (!n || *n < 0) {
                error(400,
                      "InvalidArgument",
                      "Provided max-keys not an integer or within integer range",
                      element("ArgumentName", "max-keys") + element("ArgumentValue", call.param("max-keys")));
                return;
            }
            query.maxKeys = std::min(*n, 1000);
        }
        StoreError storeError = StoreError::None;
        if (call.has("versions")) {
            count("ListObjectVersions");
            query.keyMarker = call.param("key-marker");
            query.versionIdMarker = call.param("version-id-marker");
            if (!query.versionIdMarker.empty() && query.keyMarker.empty()) {
                error(400, "InvalidArgument", "A version-id marker cannot be specified without a key marker.");
                return;
            }
            const ListResult page = m_store->listVersions(call.bucket, query, &storeError);
            std::string out = std::string("<ListVersionsResult xmlns=\"") + S3Ns + "\">" + element("Name", call.bucket)
                              + element("Prefix", enc(query.prefix)) + element("KeyMarker", enc(query.keyMarker))
                              + element("VersionIdMarker", query.versionIdMarker)
                              + element("MaxKeys", std::to_string(query.maxKeys))
                              + (query.delimiter.empty() ? std::string() : element("Delimiter", enc(query.delimiter)))
                              + (urlEncode ? element("EncodingType", "url") : std::string())
                              + element("IsTruncated", page.truncated ? "true" : "false");
            if (page.truncated) {
                out += element("NextKeyMarker", enc(page.nextKeyMarker))
                       + element("NextVersionIdMarker", page.nextVersionIdMarker);
            }
            for (const StoredObject &o : page.objects) {
                if (o.deleteMarker) {
                    out += "<DeleteMarker>" + element("Key", enc(o.key)) + element("VersionId", o.versionId)
                           + element("IsLatest", o.isLatest ? "true" : "false")
                           + element("LastModified", o.lastModifiedIso()) + ownerXml(tenantId, tenantName)
                           + "</DeleteMarker>";
                } else {
                    out += "<Version>" + element("Key", enc(o.key)) + element("VersionId", o.versionId)
                           + element("IsLatest", o.isLatest ? "true" : "false")
                           + element("LastModified", o.lastModifiedIso()) + element("ETag", "\"" + o.etag + "\"")
                           + element("Size", std::to_string(o.size)) + ownerXml(tenantId, tenantName)
                           + element("StorageClass", "STANDARD") + "</Version>";
                }
            }
            for (const std::string &cp : page.commonPrefixes) {
                out += "<CommonPrefixes>" + element("Prefix", enc(cp)) + "</CommonPrefixes>";
            }
            xml(200, out + "</ListVersionsResult>");
            return;
        }
        const bool v2 = call.param("list-type") == "2";
        if (call.has("list-type") && !v2) {
            error(400, "InvalidArgument", "Invalid List Type specified in Request");
            return;
        }
        std::string token;
        if (v2) {
            count("ListObjectsV2");
            query.startAfter = call.param("start-after");
            if (call.has("continuation-token")) {
                token = call.param("continuation-token");
                const QByteArray decoded =
                    QByteArray::fromBase64(QByteArray::fromStdString(token), QByteArray::AbortOnBase64DecodingErrors);
                if (token.empty() || decoded.isEmpty() || !decoded.startsWith("sg1:")) {
                    error(400,
                          "InvalidArgument",
                          "The continuation token provided is incorrect",
                          element("ArgumentName", "continuation-token"));
                    return;
                }
                query.startAfter = decoded.mid(4).toStdString();
            }
        } else {
            count("ListObjects");
            query.startAfter = call.param("marker");
        }
        const ListResult page = m_store->list(call.bucket, query, &storeError);
        std::string out = std::string("<ListBucketResult xmlns=\"") + S3Ns + "\">" + element("Name", call.bucket)
                          + element("Prefix", enc(query.prefix));
        if (v2) {
            if (call.has("continuation-token")) {
                out += element("ContinuationToken", token);
            }
            if (call.has("start-after")) {
                out += element("StartAfter", enc(call.param("start-after")));
            }
            out += element("KeyCount", std::to_string(page.objects.size() + page.commonPrefixes.size()));
        } else {
            out += element("Marker", enc(query.startAfter));
        }
        out += element("MaxKeys", std::to_string(query.maxKeys))
               + (query.delimiter.empty() ? std::string() : element("Delimiter", enc(query.delimiter)))
               + (urlEncode ? element("EncodingType", "url") : std::string())
               + element("IsTruncated", page.truncated ? "true" : "false");
        if (page.truncated) {
            if (v2) {
                out +=
                    element("NextContinuationToken",
                            QByteArray("sg1:" + QByteArray::fromStdString(page.nextMarker)).toBase64().toStdString());
            } else if (!query.delimiter.empty()) {
                out += element("NextMarker", enc(page.nextMarker));
            }
        }
        for (const StoredObject &o : page.objects) {
            out += "<Contents>" + element("Key", enc(o.key)) + element("LastModified", o.lastModifiedIso())
                   + element("ETag", "\"" + o.etag + "\"") + element("Size", std::to_string(o.size))
                   + (v2 && call.param("fetch-owner") != "true" ? std::string() : ownerXml(tenantId, tenantName))
                   + element("StorageClass", "STANDARD") + "</Contents>";
        }
        for (const std::string &cp : page.commonPrefixes) {
            out += "<CommonPrefixes>" + element("Prefix", enc(cp)) + "</CommonPrefixes>";
        }
        xml(200, out + "</ListBucketResult>");
        return;
    }

    // ---- object ---------------------------------------------------------------------------
    if (!bucket) {
        count("ObjectRequest");
        noSuchBucket();
        return;
    }
    const std::string keyExtra = element("Key", call.key);
    const std::string versionId = call.param("versionId");
    const bool versionedBucket = bucket->versioning != VersioningState::Never;
    if (call.has("uploads") || call.has("uploadId") || call.has("acl") || call.has("tagging")
        || request.headers.contains("x-amz-copy-source")) {
        error(501,
              "NotImplemented",
              "A header or query you provided implies functionality that is not implemented in this simulator.");
        return;
    }
    if (method == "PUT") {
        count("PutObject");
        const QByteArray contentMd5 = request.header("content-md5");
        if (!contentMd5.isEmpty()) {
            const QByteArray expected = QByteArray::fromHex(QByteArray::fromStdString(md5Hex(body))).toBase64();
            if (contentMd5 != expected) {
                error(400, "BadDigest", "The Content-MD5 you specified did not match what we received.", keyExtra);
                return;
            }
        }
        const std::string contentType = request.header("content-type").isEmpty()
                                            ? std::string("binary/octet-stream")
                                            : request.header("content-type").toStdString();
        const auto put = m_store->putObject(call.bucket, call.key, body, contentType);
        if (!put) {
            noSuchBucket();
            return;
        }
        Response r = Response::text(200, {});
        r.headers.clear();
        r.headers.append(QPair<QByteArray, QByteArray>("ETag", QByteArray::fromStdString("\"" + put->etag + "\"")));
        if (versionedBucket) {
            r.headers.append(
                QPair<QByteArray, QByteArray>("x-amz-version-id", QByteArray::fromStdString(put->versionId)));
        }
        finish(r);
        return;
    }
    if (method == "DELETE") {
        count("DeleteObject");
        std::string resultVersion;
        bool marker = false;
        m_store->deleteObject(call.bucket, call.key, versionId, &resultVersion, &marker);
        Response r;
        r.status = 204;
        if (versionedBucket && !resultVersion.empty()) {
            r.headers.append(
                QPair<QByteArray, QByteArray>("x-amz-version-id", QByteArray::fromStdString(resultVersion)));
        }
        if (marker) {
            r.headers.append(QPair<QByteArray, QByteArray>("x-amz-delete-marker", "true"));
        }
        finish(r);
        return;
    }
    if (method != "GET" && method != "HEAD") {
        error(405, "MethodNotAllowed", "The specified method is not allowed against this resource.");
        return;
    }
    count(method == "GET" ? "GetObject" : "HeadObject");
    StoreError storeError = StoreError::None;
    StoredObject marker;
    const auto object = m_store->head(call.bucket, call.key, versionId, &storeError, &marker);
    if (!object) {
        QList<QPair<QByteArray, QByteArray>> headers;
        if (!marker.versionId.empty()) {
            headers.append(QPair<QByteArray, QByteArray>("x-amz-delete-marker", "true"));
            headers.append(
                QPair<QByteArray, QByteArray>("x-amz-version-id", QByteArray::fromStdString(marker.versionId)));
        }
        Response r;
        std::string code = "NoSuchKey";
        std::string message = "The specified key does not exist.";
        r.status = 404;
        if (storeError == StoreError::NoSuchVersion) {
            code = "NoSuchVersion";
            message = "The specified version does not exist.";
            r.status = versionId == "null" || versionId.size() > 4 ? 404 : 400;
        } else if (storeError == StoreError::MethodNotAllowed) {
            code = "MethodNotAllowed";
            message = "The specified method is not allowed against this resource.";
            r.status = 405;
        }
        r.headers = headers;
        r.headers.append(QPair<QByteArray, QByteArray>("Content-Type", "application/xml"));
        r.body = QByteArray::fromStdString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error>" + element("Code", code)
                                           + element("Message", message) + keyExtra
                                           + element("RequestId", requestId.toStdString()) + "</Error>");
        finish(r);
        return;
    }
    Response r;
    r.status = 200;
    r.headers.append(QPair<QByteArray, QByteArray>("ETag", QByteArray::fromStdString("\"" + object->etag + "\"")));
    r.headers.append(QPair<QByteArray, QByteArray>("Last-Modified", httpDate(object->modifiedMs)));
    r.headers.append(QPair<QByteArray, QByteArray>("Content-Type", QByteArray::fromStdString(object->contentType)));
    r.headers.append(QPair<QByteArray, QByteArray>("Accept-Ranges", "bytes"));
    if (versionedBucket) {
        r.headers.append(
            QPair<QByteArray, QByteArray>("x-amz-version-id", QByteArray::fromStdString(object->versionId)));
    }
    std::int64_t from = 0;
    std::int64_t length = object->size;
    const QByteArray range = request.header("range").trimmed();
    if (!range.isEmpty()) {
        static const QRegularExpression re(QStringLiteral("^bytes=(\\d*)-(\\d*)$"));
        const auto m = re.match(QString::fromLatin1(range));
        bool satisfiable = m.hasMatch() && !(m.captured(1).isEmpty() && m.captured(2).isEmpty());
        if (satisfiable) {
            std::int64_t first = 0;
            std::int64_t last = object->size - 1;
            if (m.captured(1).isEmpty()) {
                const std::int64_t suffix = m.captured(2).toLongLong();
                first = std::max<std::int64_t>(0, object->size - suffix);
                satisfiable = suffix > 0;
            } else {
                first = m.captured(1).toLongLong();
                if (!m.captured(2).isEmpty()) {
                    last = std::min<std::int64_t>(last, m.captured(2).toLongLong());
                    satisfiable = m.captured(2).toLongLong() >= first;
                }
            }
            satisfiable = satisfiable && first < object->size;
            if (satisfiable) {
                from = first;
                length = last - first + 1;
                r.status = 206;
                r.headers.append(QPair<QByteArray, QByteArray>("Content-Range",
                                                               QByteArray("bytes ") + QByteArray::number(first) + '-'
                                                                   + QByteArray::number(last) + '/'
                                                                   + QByteArray::number(object->size)));
            }
        }
        if (!satisfiable) {
            error(416,
                  "InvalidRange",
                  "The requested range is not satisfiable",
                  element("RangeRequested", range.toStdString())
                      + element("ActualObjectSize", std::to_string(object->size)));
            return;
        }
    }
    // HEAD needs the full length for Content-Length; the server drops the body for HEAD.
    r.body = QByteArray::fromStdString(object->content.read(from, length));
    finish(r);
}

} // namespace strata::sim::storagegrid
