#include "connectors/http/childprocess.h"

#include <array>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace strata::http {

namespace {

std::vector<char *> childArgvPointers(std::vector<std::string> &strings)
{
    std::vector<char *> pointers;
    pointers.reserve(strings.size() + 1);
    for (auto &s : strings) {
        pointers.push_back(s.data());
    }
    pointers.push_back(nullptr);
    return pointers;
}

} // namespace

ChildProcess runChildProcess(const std::vector<std::string> &argvIn,
                             const std::vector<std::string> *environment,
                             std::chrono::milliseconds timeout,
                             const CancelToken &cancel)
{
    ChildProcess result;
    if (argvIn.empty()) {
        result.startErrno = EINVAL;
        return result;
    }
    std::vector<std::string> args = argvIn;
    std::vector<char *> argv = childArgvPointers(args);
    std::vector<std::string> envStrings = environment ? *environment : std::vector<std::string>{};
    std::vector<char *> envp = childArgvPointers(envStrings);

    std::array<int, 2> out{-1, -1};
    std::array<int, 2> err{-1, -1};
    if (::pipe2(out.data(), O_CLOEXEC) != 0 || ::pipe2(err.data(), O_CLOEXEC) != 0) {
        result.startErrno = errno;
        for (int fd : {out[0], out[1], err[0], err[1]}) {
            if (fd >= 0) {
                ::close(fd);
            }
        }
        return result;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    pid_t pid = -1;
    const int spawned =
        ::posix_spawnp(&pid, args[0].c_str(), &actions, nullptr, argv.data(), environment ? envp.data() : environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    ::close(err[1]);
    if (spawned != 0) {
        ::close(out[0]);
        ::close(err[0]);
        result.startErrno = spawned;
        return result;
    }

    const auto deadline = std::chrono::steady_clock::now() + timeout;
    bool timedOut = false;
    bool cancelled = false;
    std::array<pollfd, 2> fds{pollfd{out[0], POLLIN, 0}, pollfd{err[0], POLLIN, 0}};
    int open = 2;
    while (open > 0) {
        if (cancel.isCancelled()) {
            cancelled = true;
            break;
        }
        if (timeout.count() > 0 && std::chrono::steady_clock::now() >= deadline) {
            timedOut = true;
            break;
        }
        const int ready = ::poll(fds.data(), fds.size(), 100);
        if (ready < 0 && errno != EINTR) {
            break;
        }
        for (auto &fd : fds) {
            if (fd.fd < 0 || !(fd.revents & (POLLIN | POLLHUP | POLLERR))) {
                continue;
            }
            std::array<char, 4096> buffer{};
            const ssize_t n = ::read(fd.fd, buffer.data(), buffer.size());
            if (n > 0) {
                std::string &target = fd.fd == out[0] ? result.stdoutText : result.stderrText;
                if (target.size() < kChildOutputLimit) {
                    target.append(buffer.data(), static_cast<std::size_t>(n));
                }
            } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
                fd.fd = -1;
                --open;
            }
        }
    }
    ::close(out[0]);
    ::close(err[0]);
    if (timedOut || cancelled) {
        ::kill(pid, SIGKILL);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (cancelled) {
        result.end = ChildProcess::End::Cancelled;
    } else if (timedOut) {
        result.end = ChildProcess::End::TimedOut;
    } else if (WIFEXITED(status)) {
        result.end = ChildProcess::End::Exited;
        result.exitCode = WEXITSTATUS(status);
    } else {
        result.end = ChildProcess::End::Signalled;
        result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    }
    return result;
}

} // namespace strata::http
