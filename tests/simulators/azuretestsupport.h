#pragma once

#include "simulators/azure/azuresimulator.h"
#include "simulators/common/serverthread.h"
#include "tests/simulators/ontaptestsupport.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace strata::testsupport::azuresim {

using ontapsim::HttpResult;

/// Options for tests: shared TLS identity, 100 ms long-running operations, no Retry-After waits.
sim::azure::AzureSimulator::Options
testOptions(sim::azure::AzureSimulator::Options::Preset preset = sim::azure::AzureSimulator::Options::Preset::AiLab);

/// An AzureSimulator on its own ServerThread for one test.
class RunningAzure
{
public:
    explicit RunningAzure(sim::azure::AzureSimulator::Options options = testOptions());
    ~RunningAzure();

    sim::azure::AzureSimulator *operator->() const { return m_simulator; }
    sim::azure::AzureSimulator &operator*() const { return *m_simulator; }
    [[nodiscard]] bool isRunning() const { return m_simulator != nullptr; }
    [[nodiscard]] QString error() const { return m_error; }

private:
    std::unique_ptr<sim::ServerThread> m_thread;
    sim::azure::AzureSimulator *m_simulator = nullptr;
    QString m_error;
};

/// HTTPS client pinned to the simulator's certificate; login() gets a bearer token by client
/// credentials. Paths may be absolute URLs of the simulator (nextLink, LRO headers).
class AzureHttp
{
public:
    explicit AzureHttp(const sim::azure::AzureSimulator &simulator);

    /// POST {authority}/oauth2/v2.0/token (authority "" = the simulator's tenant).
    HttpResult requestToken(const QString &secret, const QString &authority = {});
    /// Gets a token with the configured secret and sends it from now on. False on failure.
    bool login();
    void setToken(const QByteArray &token) { m_client.setAuthorization("Bearer " + token); }
    void clearToken() { m_client.setAuthorization({}); }

    HttpResult get(const QString &pathOrUrl) { return m_client.get(relative(pathOrUrl)); }
    HttpResult put(const QString &pathOrUrl, const QJsonObject &body);
    HttpResult post(const QString &pathOrUrl, const QJsonObject &body)
    {
        return m_client.post(relative(pathOrUrl), body);
    }
    HttpResult del(const QString &pathOrUrl) { return m_client.del(relative(pathOrUrl)); }

    /// Polls the Azure-AsyncOperation URL of an accepted request until a terminal status; returns
    /// the last status document (empty on timeout). `statuses` collects each status once, in order.
    QJsonObject waitForOperation(const HttpResult &accepted, QStringList *statuses = nullptr, int timeoutMs = 30000);

    /// "<path>?api-version=<v>" helper.
    static QString withApi(const QString &path, const QString &apiVersion = QStringLiteral("2025-06-01"));

private:
    QString relative(const QString &pathOrUrl) const;

    const sim::azure::AzureSimulator &m_simulator;
    ontapsim::QnamClient m_client;
};

} // namespace strata::testsupport::azuresim
