#pragma once

#include "connectors/http/canceltoken.h"

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace strata::http {

/// What runChildProcess() left behind. Callers word their own errors from `end`: a missing
/// Azure CLI and a failing kubectl exec plugin say different things.
struct ChildProcess
{
    enum class End
    {
        Exited,     ///< ran to its end: exitCode holds the exit status
        Signalled,  ///< killed by a signal it did not get from us: signal holds it
        NotStarted, ///< pipes or posix_spawnp failed: startErrno says why (ENOENT: not found)
        TimedOut,   ///< still running at the timeout: killed with SIGKILL and reaped
        Cancelled,  ///< the cancel token fired first: killed with SIGKILL and reaped
    };

    End end = End::NotStarted;
    int exitCode = -1;      ///< 0-255 with End::Exited, else -1
    int signal = 0;         ///< the signal number with End::Signalled, else 0
    int startErrno = 0;     ///< errno with End::NotStarted, else 0
    std::string stdoutText; ///< what it printed, at most kChildOutputLimit bytes (the rest is dropped)
    std::string stderrText; ///< likewise for stderr
};

/// How much of each of stdout and stderr runChildProcess() keeps: a child gone wild must not
/// exhaust memory. It keeps reading (and dropping) past it so the child never blocks on a pipe.
inline constexpr std::size_t kChildOutputLimit = 4 * 1024 * 1024;

/// Runs argv[0] (looked up in PATH when it has no slash) with `argv` as its arguments, no shell,
/// stdin from /dev/null, stdout and stderr captured. `environment` ("NAME=value" entries), when
/// given, replaces the inherited environment. `timeout` <= 0 waits for ever. Cancellation and
/// the timeout are checked at least every 100 ms. Never throws; an empty `argv` is
/// End::NotStarted with EINVAL.
ChildProcess runChildProcess(const std::vector<std::string> &argv,
                             const std::vector<std::string> *environment,
                             std::chrono::milliseconds timeout,
                             const CancelToken &cancel);

} // namespace strata::http
