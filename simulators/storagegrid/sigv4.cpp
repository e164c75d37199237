#include "simulators/storagegrid/sigv4.h"

#include "simulators/common/text.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <utility>
#include <vector>

namespace strata::sim::storagegrid {

namespace {

std::string toHex(const unsigned char *data, std::size_t size)
{
    static const char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(size * 2);
    for (std::size_t i = 0; i < size; ++i) {
        out += digits[data[i] >> 4];
        out += digits[data[i] & 15];
    }
    return out;
}

std::string hmac(const std::string &key, const std::string &data)
{
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    HMAC(EVP_sha256(),
         key.data(),
         int(key.size()),
         reinterpret_cast<const unsigned char *>(data.data()),
         data.size(),
         out,
         &length);
    return std::string(reinterpret_cast<const char *>(out), length);
}

// Header values are trimmed and inner runs of spaces collapse to one (SigV4 canonical form).
std::string canonicalValue(const std::string &value)
{
    std::string out;
    bool space = false;
    for (const char c : trimBlanks(value)) {
        if (c == ' ' || c == '\t') {
            space = true;
            continue;
        }
        if (space) {
            out += ' ';
            space = false;
        }
        out += c;
    }
    return out;
}

std::vector<std::string> split(const std::string &s, char sep)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t at = s.find(sep, start);
        parts.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos) {
            return parts;
        }
        start = at + 1;
    }
}

std::optional<std::int64_t> parseAmzDate(const std::string &v)
{
    // 20261122T183412Z
    if (v.size() != 16 || v[8] != 'T' || v[15] != 'Z') {
        return std::nullopt;
    }
    for (std::size_t i = 0; i < 15; ++i) {
        if (i != 8 && (v[i] < '0' || v[i] > '9')) {
            return std::nullopt;
        }
    }
    std::tm tm{};
    tm.tm_year = std::atoi(v.substr(0, 4).c_str()) - 1900;
    tm.tm_mon = std::atoi(v.substr(4, 2).c_str()) - 1;
    tm.tm_mday = std::atoi(v.substr(6, 2).c_str());
    tm.tm_hour = std::atoi(v.substr(9, 2).c_str());
    tm.tm_min = std::atoi(v.substr(11, 2).c_str());
    tm.tm_sec = std::atoi(v.substr(13, 2).c_str());
    return std::int64_t(timegm(&tm)) * 1000;
}

bool isHex64(const std::string &s)
{
    return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

} // namespace

std::string sha256Hex(const std::string &data)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(), nullptr);
    return toHex(digest, length);
}

std::string awsUriEncode(const std::string &decoded, bool keepSlash)
{
    static const char digits[] = "0123456789ABCDEF";
    std::string out;
    for (const char ch : decoded) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
            || c == '.' || c == '~' || (keepSlash && c == '/')) {
            out += char(c);
        } else {
            out += '%';
            out += digits[c >> 4];
            out += digits[c & 15];
        }
    }
    return out;
}

std::string percentDecode(const std::string &encoded)
{
    auto value = [](char c) -> int {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    };
    std::string out;
    for (std::size_t i = 0; i < encoded.size(); ++i) {
        if (encoded[i] == '%' && i + 2 < encoded.size()) {
            const int hi = value(encoded[i + 1]);
            const int lo = value(encoded[i + 2]);
            if (hi >= 0 && lo >= 0) {
                out += char(hi * 16 + lo);
                i += 2;
                continue;
            }
        }
        out += encoded[i];
    }
    return out;
}

SigV4Check verifySigV4(const Request &request,
                       const std::function<std::optional<std::string>(const std::string &)> &secretFor,
                       std::int64_t nowMs,
                       std::int64_t maxSkewMs)
{
    SigV4Check check;
    const std::string authorization = request.header("authorization").toStdString();
    if (authorization.empty()) {
        check.result = SigV4Check::Result::Anonymous;
        check.message = "Access Denied";
        return check;
    }
    const std::string algorithm = "AWS4-HMAC-SHA256";
    if (authorization.compare(0, algorithm.size(), algorithm) != 0) {
        check.result = SigV4Check::Result::UnsupportedAlgorithm;
        check.message = "Unsupported Authorization Type";
        return check;
    }
    std::string credential;
    std::string signedHeaders;
    std::string signature;
    for (const std::string &part : split(authorization.substr(algorithm.size()), ',')) {
        const std::string p = trimBlanks(part);
        const auto eq = p.find('=');
        if (eq == std::string::npos) {
            continue;
        }
        const std::string name = p.substr(0, eq);
        const std::string value = p.substr(eq + 1);
        if (name == "Credential") {
            credential = value;
        } else if (name == "SignedHeaders") {
            signedHeaders = value;
        } else if (name == "Signature") {
            signature = value;
        }
    }
    const std::vector<std::string> scope = split(credential, '/');
    if (credential.empty() || signedHeaders.empty() || signature.empty() || scope.size() != 5
        || scope[4] != "aws4_request" || scope[3] != "s3") {
        check.result = SigV4Check::Result::Malformed;
        check.message = "The authorization header is malformed; the Credential is mal-formed; expecting "
                        "\"<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request\".";
        return check;
    }
    check.accessKey = scope[0];
    check.region = scope[2];

    check.payloadHash = request.header("x-amz-content-sha256").toStdString();
    if (check.payloadHash.empty()) {
        check.result = SigV4Check::Result::MissingContentSha256;
        check.message = "Missing required header for this request: x-amz-content-sha256";
        return check;
    }
    const bool streaming = check.payloadHash.rfind("STREAMING-", 0) == 0;
    if (check.payloadHash != "UNSIGNED-PAYLOAD" && !streaming) {
        if (!isHex64(check.payloadHash)) {
            check.result = SigV4Check::Result::ContentSha256Mismatch;
            check.message = "x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-... or a valid sha256 value.";
            return check;
        }
        if (sha256Hex(request.body.toStdString()) != check.payloadHash) {
            check.result = SigV4Check::Result::ContentSha256Mismatch;
            check.message = "The provided 'x-amz-content-sha256' header does not match what was computed.";
            return check;
        }
    }

    std::string amzDate = request.header("x-amz-date").toStdString();
    if (amzDate.empty()) {
        check.result = SigV4Check::Result::MissingDate;
        check.message = "AWS authentication requires a valid Date or x-amz-date header";
        return check;
    }
    const auto signedAt = parseAmzDate(amzDate);
    if (!signedAt || amzDate.substr(0, 8) != scope[1]) {
        check.result = SigV4Check::Result::Malformed;
        check.message = "The authorization header is malformed; x-amz-date does not match the credential scope date.";
        return check;
    }
    if (std::llabs(*signedAt - nowMs) > maxSkewMs) {
        check.result = SigV4Check::Result::RequestTimeTooSkewed;
        check.message = "The difference between the request time and the current time is too large.";
        return check;
    }

    const std::optional<std::string> secret = secretFor(check.accessKey);
    if (!secret) {
        check.result = SigV4Check::Result::InvalidAccessKeyId;
        check.message = "The AWS Access Key Id you provided does not exist in our records.";
        return check;
    }

    // Canonical request.
    const std::string target = request.target.toStdString();
    const auto q = target.find('?');
    const std::string rawPath = target.substr(0, q);
    const std::string rawQuery = q == std::string::npos ? std::string() : target.substr(q + 1);
    std::string canonicalUri = awsUriEncode(percentDecode(rawPath), true);
    if (canonicalUri.empty()) {
        canonicalUri = "/";
    }
    std::vector<std::pair<std::string, std::string>> params;
    if (!rawQuery.empty()) {
        for (const std::string &item : split(rawQuery, '&')) {
            if (item.empty()) {
                continue;
            }
            const auto eq = item.find('=');
            const std::string name = percentDecode(item.substr(0, eq));
            const std::string value = eq == std::string::npos ? std::string() : percentDecode(item.substr(eq + 1));
            params.emplace_back(awsUriEncode(name, false), awsUriEncode(value, false));
        }
    }
    std::sort(params.begin(), params.end());
    std::string canonicalQuery;
    for (const auto &[name, value] : params) {
        if (!canonicalQuery.empty()) {
            canonicalQuery += '&';
        }
        canonicalQuery += name + '=' + value;
    }
    std::string canonicalHeaders;
    for (const std::string &name : split(signedHeaders, ';')) {
        if (!request.headers.contains(QByteArray::fromStdString(name))) {
            check.result = SigV4Check::Result::SignatureDoesNotMatch;
            check.message = "The request signature we calculated does not match the signature you provided. "
                            "Check your key and signing method.";
            return check;
        }
        canonicalHeaders +=
            name + ':' + canonicalValue(request.header(QByteArray::fromStdString(name)).toStdString()) + '\n';
    }
    check.canonicalRequest = request.method.toStdString() + '\n' + canonicalUri + '\n' + canonicalQuery + '\n'
                             + canonicalHeaders + '\n' + signedHeaders + '\n' + check.payloadHash;
    const std::string credentialScope = scope[1] + '/' + scope[2] + '/' + scope[3] + '/' + scope[4];
    check.stringToSign = algorithm + '\n' + amzDate + '\n' + credentialScope + '\n' + sha256Hex(check.canonicalRequest);
    const std::string kDate = hmac("AWS4" + *secret, scope[1]);
    const std::string kRegion = hmac(kDate, scope[2]);
    const std::string kService = hmac(kRegion, scope[3]);
    const std::string kSigning = hmac(kService, "aws4_request");
    const std::string expected = hmac(kSigning, check.stringToSign);
    if (toHex(reinterpret_cast<const unsigned char *>(expected.data()), expected.size()) != signature) {
        check.result = SigV4Check::Result::SignatureDoesNotMatch;
        check.message = "The request signature we calculated does not match the signature you provided. "
                        "Check your key and signing method.";
        return check;
    }
    check.result = SigV4Check::Result::Ok;
    return check;
}

std::optional<std::string> decodeAwsChunked(const std::string &body)
{
    std::string out;
    std::size_t pos = 0;
    for (;;) {
        const std::size_t lineEnd = body.find("\r\n", pos);
        if (lineEnd == std::string::npos) {
            return std::nullopt;
        }
        const std::string sizeField =
            body.substr(pos, body.find(';', pos) < lineEnd ? body.find(';', pos) - pos : lineEnd - pos);
        char *end = nullptr;
        const unsigned long long size = std::strtoull(sizeField.c_str(), &end, 16);
        if (sizeField.empty() || *end != '\0') {
            return std::nullopt;
        }
        pos = lineEnd + 2;
        if (size == 0) {
            return out; // trailers (checksums) follow; not needed
        }
        if (pos + size + 2 > body.size() || body.compare(pos + size, 2, "\r\n") != 0) {
            return std::nullopt;
        }
        out.append(body, pos, size);
        pos += size + 2;
    }
}

} // namespace strata::sim::storagegrid
