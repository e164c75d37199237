#pragma once

#include <QObject>
#include <QThread>

#include <functional>
#include <memory>

namespace strata::sim {

/// Runs simulator objects on their own thread so the blocking connectors (and the GUI thread)
/// can talk to them in-process. `start(factory)` builds the objects on the new thread and
/// waits until they are listening; the destructor tears them down on that thread.
class ServerThread final
{
public:
    ServerThread();
    ~ServerThread();
    ServerThread(const ServerThread &) = delete;
    ServerThread &operator=(const ServerThread &) = delete;

    /// `factory` runs on the server thread and returns the root object (parent of everything it
    /// created) or nullptr on failure. Returns the root (owned by this ServerThread).
    QObject *start(const std::function<QObject *()> &factory);
    /// Runs `fn` on the server thread and waits for it (for tests poking simulator state).
    void runBlocking(const std::function<void()> &fn);
    [[nodiscard]] QThread *thread() { return &m_thread; }

private:
    QThread m_thread;
    QObject *m_root = nullptr;
    QObject *m_context = nullptr;
};

} // namespace strata::sim
