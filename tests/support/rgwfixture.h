#pragma once

#include <string>
#include <string_view>

namespace strata::testsupport {

/// Where the shared test Ceph RGW answers. Keys are the fixed test keys of scripts/rgw-up.sh.
struct RgwServer
{
    std::string endpoint; ///< "http://127.0.0.1:<port>"
    std::string accessKey;
    std::string secretKey;
    std::string region = "us-east-1";
};

/// The shared Ceph RGW for S3 tests, started on first use with tests/support/rgw-fixture.sh in
/// STRATA_RGW_DIR (default <build dir>/rgw), or reused when one already answers there (ctest's
/// `datalake_rgw_up` fixture starts it once for every test process; `datalake_rgw_down` stops
/// it). A process that started the server itself stops it at exit. When it cannot be started
/// (radosgw not installed, startup failure) this records a test failure with the script's
/// output and returns nullptr: callers must then return; RGW tests fail, never skip.
const RgwServer *rgw();

/// A fresh, DNS-compatible bucket name "<stem>-<pid>-<n>" (lower case, at most 63 characters),
/// unique across the concurrent test processes that share one RGW.
std::string uniqueBucketName(std::string_view stem);

} // namespace strata::testsupport
