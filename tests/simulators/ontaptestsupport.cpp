#include "tests/simulators/ontaptestsupport.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QNetworkRequest>
#include <QSslCertificate>
#include <QSslSocket>
#include <QThread>
#include <QTimer>
#include <QUrl>

namespace strata::testsupport::ontapsim {

const sim::TlsIdentity &sharedIdentity()
{
    static const sim::TlsIdentity identity = sim::TlsIdentity::generate(QStringLiteral("strata-sim-tests"));
    return identity;
}

sim::ontap::OntapSimulator::Options RunningSimulator::testOptions()
{
    sim::ontap::OntapSimulator::Options options;
    options.tls = sharedIdentity();
    options.password = QStringLiteral("t3st-pa55");
    options.jobDurationMin = std::chrono::milliseconds(40);
    options.jobDurationMax = std::chrono::milliseconds(80);
    options.tickInterval = std::chrono::milliseconds(0);
    return options;
}

RunningSimulator::RunningSimulator(sim::ontap::OntapSimulator::Options options)
    : m_thread(std::make_unique<sim::ServerThread>())
{
    m_simulator = sim::ontap::OntapSimulator::startOnThread(*m_thread, std::move(options), &m_error);
}

RunningSimulator::~RunningSimulator() = default;

QByteArray basicAuth(const QString &username, const QString &password)
{
    return "Basic " + (username + QLatin1Char(':') + password).toUtf8().toBase64();
}

QnamClient::QnamClient(const QString &baseUrl,
                       const QByteArray &caPem,
                       const QString &username,
                       const QString &password)
    : m_baseUrl(baseUrl)
    , m_ssl(QSslConfiguration::defaultConfiguration())
    , m_authorization(basicAuth(username, password))
{
    m_ssl.setCaCertificates(QSslCertificate::fromData(caPem, QSsl::Pem));
    m_ssl.setPeerVerifyMode(QSslSocket::VerifyPeer);
}

QnamClient::QnamClient(const sim::ontap::OntapSimulator &simulator)
    : QnamClient(
        simulator.baseUrl(), simulator.certificatePem(), simulator.options().username, simulator.options().password)
{}

HttpResult QnamClient::send(const QByteArray &method,
                            const QString &pathAndQuery,
                            const QByteArray &body,
                            const QList<QPair<QByteArray, QByteArray>> &headers,
                            int timeoutMs)
{
    QNetworkRequest request(QUrl::fromEncoded((m_baseUrl + pathAndQuery).toUtf8(), QUrl::StrictMode));
    request.setSslConfiguration(m_ssl);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    if (!m_authorization.isEmpty()) {
        request.setRawHeader("Authorization", m_authorization);
    }
    if (!m_accept.isEmpty()) {
        request.setRawHeader("Accept", m_accept);
    }
    if (!body.isEmpty()) {
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    }
    for (const auto &h : headers) {
        request.setRawHeader(h.first, h.second);
    }
    QElapsedTimer clock;
    clock.start();
    QNetworkReply *reply = m_nam.sendCustomRequest(request, method, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs, &loop, [reply] {
        reply->abort();
    });
    if (!reply->isFinished()) {
        loop.exec();
    }
    HttpResult result;
    result.elapsedMs = clock.elapsed();
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.body = reply->readAll();
    result.error = reply->error();
    result.errorString = reply->errorString();
    for (const auto &pair : reply->rawHeaderPairs()) {
        result.headers.insert(pair.first.toLower(), pair.second);
    }
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(result.body, &parseError);
    result.jsonValid = parseError.error == QJsonParseError::NoError && doc.isObject();
    result.json = doc.object();
    reply->deleteLater();
    return result;
}

HttpResult QnamClient::post(const QString &pathAndQuery, const QJsonObject &body)
{
    return send("POST", pathAndQuery, QJsonDocument(body).toJson(QJsonDocument::Compact));
}

HttpResult QnamClient::patch(const QString &pathAndQuery, const QJsonObject &body)
{
    return send("PATCH", pathAndQuery, QJsonDocument(body).toJson(QJsonDocument::Compact));
}

QString QnamClient::jobUuid(const HttpResult &result)
{
    return result.json.value(QStringLiteral("job")).toObject().value(QStringLiteral("uuid")).toString();
}

QJsonObject QnamClient::waitForJob(const QString &uuid, QStringList *states, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeoutMs) {
        const HttpResult r = get(QStringLiteral("/api/cluster/jobs/") + uuid);
        const QString state = r.json.value(QStringLiteral("state")).toString();
        if (states && !state.isEmpty() && (states->isEmpty() || states->back() != state)) {
            states->append(state);
        }
        if (state == QLatin1String("success") || state == QLatin1String("failure")) {
            return r.json;
        }
        QEventLoop loop;
        QTimer::singleShot(15, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return {};
}

RawClient::RawClient(quint16 port, const QByteArray &caPem, const QByteArray &authorization)
    : m_port(port)
    , m_caPem(caPem)
    , m_authorization(authorization)
{}

RawClient::RawClient(const sim::ontap::OntapSimulator &simulator)
    : RawClient(simulator.port(),
                simulator.certificatePem(),
                basicAuth(simulator.options().username, simulator.options().password))
{}

RawResult RawClient::request(const QByteArray &method, const QByteArray &target, const QByteArray &body, int timeoutMs)
{
    RawResult result;
    QElapsedTimer clock;
    clock.start();
    QSslSocket socket;
    QSslConfiguration config = socket.sslConfiguration();
    config.setCaCertificates(QSslCertificate::fromData(m_caPem, QSsl::Pem));
    config.setPeerVerifyMode(QSslSocket::VerifyPeer);
    socket.setSslConfiguration(config);

    QEventLoop loop;
    bool timedOut = false;
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, [&] {
        timedOut = true;
        loop.quit();
    });
    deadline.start(timeoutMs);

    auto headEnd = [&]() {
        return result.raw.indexOf("\r\n\r\n");
    };
    auto parse = [&] {
        const qsizetype end = headEnd();
        if (end < 0) {
            return;
        }
        const QList<QByteArray> lines = result.raw.left(end).split('\n');
        result.status = lines.value(0).split(' ').value(1).toInt();
        for (const QByteArray &line : lines) {
            if (line.toLower().startsWith("content-length:")) {
                result.contentLength = line.mid(15).trimmed().toLongLong();
            }
        }
        result.body = result.raw.mid(end + 4);
    };
    QObject::connect(&socket, &QSslSocket::encrypted, &loop, [&] {
        result.encrypted = true;
        QByteArray request = method + ' ' + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
        if (!m_authorization.isEmpty()) {
            request += "Authorization: " + m_authorization + "\r\n";
        }
        if (!body.isEmpty()) {
            request += "Content-Type: application/json\r\n";
        }
        request += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
        socket.write(request);
    });
    QObject::connect(&socket, &QSslSocket::readyRead, &loop, [&] {
        result.raw += socket.readAll();
        parse();
        if (result.complete()) {
            loop.quit();
        }
    });
    QObject::connect(&socket, &QSslSocket::disconnected, &loop, [&] {
        result.raw += socket.readAll();
        parse();
        result.closedByPeer = true;
        loop.quit();
    });
    QObject::connect(&socket, &QSslSocket::errorOccurred, &loop, [&](QAbstractSocket::SocketError error) {
        if (error == QAbstractSocket::RemoteHostClosedError) {
            result.closedByPeer = true;
        }
        loop.quit();
    });
    socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), m_port);
    loop.exec();
    result.timedOut = timedOut;
    result.elapsedMs = clock.elapsed();
    socket.abort();
    return result;
}

} // namespace strata::testsupport::ontapsim
