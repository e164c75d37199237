#pragma once

#include <QObject>
#include <QString>
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

/// Builds a `Simulator` from `options` on `thread` and starts it there (its `start()` returns
/// false and sets `errorString()` on failure). Returns it (owned by the thread), or nullptr with
/// `error` set. The shared body of every simulator's `startOnThread`.
template <class Simulator, class Options>
Simulator *startSimulatorOnThread(ServerThread &thread, Options options, QString *error)
{
    QString failure;
    QObject *root = thread.start([&]() -> QObject * {
        auto *simulator = new Simulator(std::move(options));
        if (!simulator->start()) {
            failure = simulator->errorString();
            delete simulator;
            return nullptr;
        }
        return simulator;
    });
    if (error) {
        *error = failure;
    }
    return static_cast<Simulator *>(root);
}

} // namespace strata::sim
