#pragma once

// Internal to the StorageGRID simulator: AWS Signature Version 4 verification of S3 requests
// (header authentication), written independently of any client-side signer.

#include "simulators/common/httpserver.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace strata::sim::storagegrid {

/// Outcome of checking one request's Authorization header.
struct SigV4Check
{
    enum class Result
    {
        Ok,
        Anonymous,             ///< no Authorization header (AccessDenied for S3)
        Malformed,             ///< AuthorizationHeaderMalformed / InvalidArgument
        UnsupportedAlgorithm,  ///< e.g. SigV2 "AWS AK:sig"
        MissingContentSha256,  ///< InvalidRequest: x-amz-content-sha256 is required
        ContentSha256Mismatch, ///< XAmzContentSHA256Mismatch
        MissingDate,           ///< AccessDenied: no x-amz-date / Date
        RequestTimeTooSkewed,
        InvalidAccessKeyId,
        SignatureDoesNotMatch,
    };
    Result result = Result::Anonymous;
    std::string accessKey;
    std::string region;
    std::string message;          ///< S3-style message for the error body
    std::string canonicalRequest; ///< what the server signed (SignatureDoesNotMatch bodies)
    std::string stringToSign;
    std::string payloadHash; ///< the x-amz-content-sha256 value
};

/// Lower-case hex SHA-256.
std::string sha256Hex(const std::string &data);
/// AWS URI encoding (RFC 3986 unreserved kept; '/' kept when `keepSlash`).
std::string awsUriEncode(const std::string &decoded, bool keepSlash);
/// Percent-decoding without '+' conversion (as S3 treats request targets).
std::string percentDecode(const std::string &encoded);

/// Verifies `request` (method, raw target, headers, body). `secretFor` returns the secret of an
/// access key or nullopt when unknown. `nowMs` is the server clock; `maxSkewMs` the allowed
/// difference to x-amz-date.
SigV4Check verifySigV4(const Request &request,
                       const std::function<std::optional<std::string>(const std::string &)> &secretFor,
                       std::int64_t nowMs,
                       std::int64_t maxSkewMs);

/// Decodes an aws-chunked body (STREAMING-* payloads): "<hex>[;chunk-signature=..]\r\n<data>\r\n"
/// ... "0[;...]\r\n[trailers]\r\n". Chunk signatures are not verified. nullopt when malformed.
std::optional<std::string> decodeAwsChunked(const std::string &body);

} // namespace strata::sim::storagegrid
