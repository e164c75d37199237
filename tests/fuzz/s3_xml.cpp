// S3 XML through the expat tree (parseXml) and S3Client's readers of it: ListObjectsV2 pages,
// ListObjectVersions, ListBuckets, GetBucketVersioning, HEAD headers and S3 error documents
// (see fuzztransport.h for the input format).
#include "connectors/s3/s3client.h"
#include "connectors/s3/s3xml.h"
#include "tests/fuzz/fuzztransport.h"

#include <cstddef>
#include <cstdint>
#include <memory>

using namespace strata;

namespace {

template <class Call> void withS3Client(std::string_view data, Call call)
{
    auto transport = std::make_shared<fuzz::ScriptedTransport>(data);
    s3::S3Config config;
    config.endpoint = "https://s3.example";
    config.accessKey = "AKIAFUZZ";
    config.secretKey = "secret";
    config.retry.maxAttempts = 2;
    config.sleeper = fuzz::fuzzNoSleep;
    s3::S3Client client(config, transport);
    (void)call(client);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view input = fuzz::fuzzBytes(data, size);
    (void)s3::parseXml(input);
    using C = s3::S3Client;
    withS3Client(input, [](C &c) {
        return c.listObjectsV2("datasets", "a/", "/");
    });
    withS3Client(input, [](C &c) {
        std::vector<std::string> prefixes;
        return c.listAll("datasets", "a/", "/", &prefixes);
    });
    withS3Client(input, [](C &c) {
        return c.listAfter("datasets", "a/", "a/1", 50);
    });
    withS3Client(input, [](C &c) {
        return c.listAllVersions("datasets", "a/");
    });
    withS3Client(input, [](C &c) {
        return c.headObject("datasets", "a/1");
    });
    withS3Client(input, [](C &c) {
        return c.getObject("datasets", "a/1", {}, std::make_pair(0LL, 9LL));
    });
    withS3Client(input, [](C &c) {
        return c.putObject("datasets", "a/1", "x");
    });
    withS3Client(input, [](C &c) {
        return c.deleteObject("datasets", "a/1");
    });
    withS3Client(input, [](C &c) {
        return c.bucketVersioning("datasets");
    });
    withS3Client(input, [](C &c) {
        return c.createBucket("datasets");
    });
    withS3Client(input, [](C &c) {
        return c.listBuckets();
    });
    return 0;
}
