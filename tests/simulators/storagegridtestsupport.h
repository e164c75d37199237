#pragma once

#include "simulators/common/serverthread.h"
#include "simulators/storagegrid/storagegridsimulator.h"
#include "tests/simulators/ontaptestsupport.h"

#include <QDateTime>
#include <QList>
#include <QPair>
#include <QString>

#include <memory>

namespace strata::testsupport::gridsim {

using ontapsim::HttpResult;

/// Options for tests: the shared TLS identity, the given preset.
sim::storagegrid::StorageGridSimulator::Options
testOptions(sim::storagegrid::StorageGridSimulator::Options::Preset preset =
                sim::storagegrid::StorageGridSimulator::Options::Preset::Datalake);

/// A StorageGridSimulator on its own ServerThread for one test.
class RunningGrid
{
public:
    explicit RunningGrid(sim::storagegrid::StorageGridSimulator::Options options = testOptions());
    ~RunningGrid();

    sim::storagegrid::StorageGridSimulator *operator->() const { return m_simulator; }
    sim::storagegrid::StorageGridSimulator &operator*() const { return *m_simulator; }
    [[nodiscard]] bool isRunning() const { return m_simulator != nullptr; }
    [[nodiscard]] QString error() const { return m_error; }

private:
    std::unique_ptr<sim::ServerThread> m_thread;
    sim::storagegrid::StorageGridSimulator *m_simulator = nullptr;
    QString m_error;
};

/// Management API client (HTTPS pinned to the simulator's certificate).
class GridApi
{
public:
    explicit GridApi(const sim::storagegrid::StorageGridSimulator &simulator);
    /// POST /api/<version>/authorize; on success the token is sent from now on.
    HttpResult authorize(const QString &username,
                         const QString &password,
                         const QString &accountId = {},
                         const QString &version = QStringLiteral("v4"));
    /// Grid administrator login (root with the configured password). False on failure.
    bool loginGrid();
    /// Tenant root login. False on failure.
    bool loginTenant(const QString &accountId);
    HttpResult get(const QString &pathAndQuery) { return m_client.get(pathAndQuery); }
    HttpResult send(const QByteArray &method, const QString &pathAndQuery, const QByteArray &body = {})
    {
        return m_client.send(method, pathAndQuery, body);
    }
    void setToken(const QString &token) { m_client.setAuthorization("Bearer " + token.toLatin1()); }
    void clearToken() { m_client.setAuthorization({}); }

private:
    const sim::storagegrid::StorageGridSimulator &m_simulator;
    ontapsim::QnamClient m_client;
};

struct S3RequestOptions
{
    QString accessKey;         ///< default: the data-science key
    QString secretKey;         ///< default: its secret
    QDateTime signedAt;        ///< default: the simulator clock
    QString virtualHostBucket; ///< non-empty: Host "<bucket>.localhost:<port>", path without bucket
    bool unsignedPayload = false;
    QByteArray payloadHashOverride; ///< sent (and signed) instead of the real hash
    bool omitPayloadHash = false;   ///< no x-amz-content-sha256 at all
    bool anonymous = false;         ///< no Authorization header
};

/// An S3 client that signs with AWS SigV4 (Qt's HMAC, independent of the simulator's OpenSSL
/// verifier), path-style by default.
class S3Http
{
public:
    using Options = S3RequestOptions;
    explicit S3Http(const sim::storagegrid::StorageGridSimulator &simulator);

    /// `path` is decoded ("/datasets/fraud_jun/a b.csv"); query items are decoded name/value pairs.
    HttpResult request(const QByteArray &method,
                       const QString &path,
                       const QList<QPair<QString, QString>> &query = {},
                       const QByteArray &body = {},
                       QList<QPair<QByteArray, QByteArray>> headers = {},
                       const Options &options = {});
    HttpResult get(const QString &path, const QList<QPair<QString, QString>> &query = {})
    {
        return request("GET", path, query);
    }

private:
    const sim::storagegrid::StorageGridSimulator &m_simulator;
    ontapsim::QnamClient m_client;
};

/// The text of an XML element's first occurrence (<Code>...</Code>), or empty.
QString xmlValue(const QByteArray &xml, const QString &element);
/// Every occurrence's text.
QStringList xmlValues(const QByteArray &xml, const QString &element);

} // namespace strata::testsupport::gridsim
