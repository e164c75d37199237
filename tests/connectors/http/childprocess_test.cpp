#include "connectors/http/childprocess.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>

using namespace std::chrono_literals;
using strata::http::CancelToken;
using strata::http::ChildProcess;
using strata::http::kChildOutputLimit;
using strata::http::runChildProcess;

TEST(ChildProcess, CapturesStdoutStderrAndExitStatus)
{
    const ChildProcess run = runChildProcess({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, nullptr, 10s, {});

    EXPECT_EQ(run.end, ChildProcess::End::Exited);
    EXPECT_EQ(run.exitCode, 3);
    EXPECT_EQ(run.stdoutText, "out\n");
    EXPECT_EQ(run.stderrText, "err\n");
}

TEST(ChildProcess, GivenEnvironmentReplacesTheInheritedOne)
{
    ::setenv("STRATA_CHILDPROCESS_INHERITED", "yes", 1);
    const std::vector<std::string> environment{"STRATA_CHILDPROCESS_GIVEN=given"};

    const ChildProcess replaced = runChildProcess(
        {"/bin/sh", "-c", "echo \"$STRATA_CHILDPROCESS_GIVEN/$STRATA_CHILDPROCESS_INHERITED\""}, &environment, 10s, {});
    const ChildProcess inherited =
        runChildProcess({"/bin/sh", "-c", "echo \"$STRATA_CHILDPROCESS_INHERITED\""}, nullptr, 10s, {});
    ::unsetenv("STRATA_CHILDPROCESS_INHERITED");

    EXPECT_EQ(replaced.stdoutText, "given/\n");
    EXPECT_EQ(inherited.stdoutText, "yes\n");
}

TEST(ChildProcess, MissingProgramIsNotStartedWithEnoent)
{
    const ChildProcess run = runChildProcess({"/nonexistent/strata-test/program"}, nullptr, 10s, {});

    EXPECT_EQ(run.end, ChildProcess::End::NotStarted);
    EXPECT_EQ(run.startErrno, ENOENT);
    EXPECT_EQ(run.exitCode, -1);
}

TEST(ChildProcess, EmptyArgvIsNotStarted)
{
    const ChildProcess run = runChildProcess({}, nullptr, 10s, {});

    EXPECT_EQ(run.end, ChildProcess::End::NotStarted);
    EXPECT_EQ(run.startErrno, EINVAL);
}

TEST(ChildProcess, TimeoutKillsTheChild)
{
    const auto started = std::chrono::steady_clock::now();
    const ChildProcess run = runChildProcess({"/bin/sh", "-c", "echo started; exec sleep 30"}, nullptr, 300ms, {});

    EXPECT_EQ(run.end, ChildProcess::End::TimedOut);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 20s);
}

TEST(ChildProcess, CancelledTokenKillsTheChild)
{
    CancelToken cancel;
    cancel.cancel();
    const auto started = std::chrono::steady_clock::now();

    const ChildProcess run = runChildProcess({"/bin/sh", "-c", "exec sleep 30"}, nullptr, 0ms, cancel);

    EXPECT_EQ(run.end, ChildProcess::End::Cancelled);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 20s);
}

TEST(ChildProcess, DeathBySignalIsReported)
{
    const ChildProcess run = runChildProcess({"/bin/sh", "-c", "kill -TERM $$"}, nullptr, 10s, {});

    EXPECT_EQ(run.end, ChildProcess::End::Signalled);
    EXPECT_EQ(run.signal, SIGTERM);
    EXPECT_EQ(run.exitCode, -1);
}

TEST(ChildProcess, OutputIsCappedButTheChildStillFinishes)
{
    // 6 MiB on stdout: more than the cap, and more than a pipe holds, so the child only exits
    // when the reader keeps draining past the cap.
    const ChildProcess run =
        runChildProcess({"/bin/sh", "-c", "head -c 6291456 /dev/zero; echo done >&2"}, nullptr, 30s, {});

    EXPECT_EQ(run.end, ChildProcess::End::Exited);
    EXPECT_EQ(run.exitCode, 0);
    EXPECT_GE(run.stdoutText.size(), kChildOutputLimit);
    EXPECT_LT(run.stdoutText.size(), kChildOutputLimit + 4096 + 1);
    EXPECT_EQ(run.stderrText, "done\n");
}
