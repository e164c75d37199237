#pragma once

#include "simulators/common/serverthread.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "tests/simulators/ontaptestsupport.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QString>

#include <functional>
#include <memory>

namespace strata::testsupport::kubesim {

using ontapsim::HttpResult;

/// Options for tests: the shared TLS identity, no timers (tests tick explicitly), a fixed start time.
sim::kube::KubeSimulator::Options testOptions(sim::kube::KubeSimulator::Options::Preset preset);

/// A KubeSimulator on its own ServerThread for one test.
class RunningKube
{
public:
    explicit RunningKube(sim::kube::KubeSimulator::Options options);
    ~RunningKube();

    sim::kube::KubeSimulator *operator->() const { return m_simulator; }
    sim::kube::KubeSimulator &operator*() const { return *m_simulator; }
    [[nodiscard]] bool isRunning() const { return m_simulator != nullptr; }
    [[nodiscard]] QString error() const { return m_error; }

private:
    std::unique_ptr<sim::ServerThread> m_thread;
    sim::kube::KubeSimulator *m_simulator = nullptr;
    QString m_error;
};

/// Bearer-token HTTPS client pinned to the simulator's certificate.
class KubeHttp
{
public:
    explicit KubeHttp(const sim::kube::KubeSimulator &simulator);
    HttpResult get(const QString &pathAndQuery) { return m_client.get(pathAndQuery); }
    HttpResult post(const QString &pathAndQuery, const QJsonObject &body) { return m_client.post(pathAndQuery, body); }
    HttpResult del(const QString &pathAndQuery) { return m_client.del(pathAndQuery); }
    /// PATCH with `contentType` (application/merge-patch+json by default).
    HttpResult patch(const QString &pathAndQuery,
                     const QByteArray &body,
                     const QByteArray &contentType = QByteArrayLiteral("application/merge-patch+json"));
    HttpResult send(const QByteArray &method, const QString &pathAndQuery, const QByteArray &body = {})
    {
        return m_client.send(method, pathAndQuery, body);
    }
    void setToken(const QByteArray &token) { m_client.setAuthorization("Bearer " + token); }

private:
    ontapsim::QnamClient m_client;
};

/// A watch request read line by line as events arrive.
class WatchStream
{
public:
    WatchStream(const sim::kube::KubeSimulator &simulator, const QString &pathAndQuery);
    ~WatchStream();

    /// Runs the event loop until `done(events)` holds or the stream ends or `timeoutMs` passes;
    /// returns whether `done` held.
    bool waitFor(const std::function<bool(const QList<QJsonObject> &)> &done, int timeoutMs = 10000);
    /// Waits until at least `n` events arrived.
    bool waitForCount(int n, int timeoutMs = 10000);
    /// Waits until the server ends the stream.
    bool waitForEnd(int timeoutMs = 10000);
    [[nodiscard]] const QList<QJsonObject> &events() const { return m_events; }
    [[nodiscard]] bool finished() const { return m_finished; }
    [[nodiscard]] int status() const;
    /// Event types in order ("ADDED", "MODIFIED", ...), optionally only for objects named `name`.
    [[nodiscard]] QStringList types(const QString &name = {}) const;

private:
    void read();

    QNetworkAccessManager m_nam;
    QPointer<QNetworkReply> m_reply;
    QByteArray m_buffer;
    QList<QJsonObject> m_events;
    bool m_finished = false;
};

} // namespace strata::testsupport::kubesim
