#include "tests/simulators/kubetestsupport.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QNetworkRequest>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QTimer>
#include <QUrl>

namespace strata::testsupport::kubesim {

sim::kube::KubeSimulator::Options testOptions(sim::kube::KubeSimulator::Options::Preset preset)
{
    sim::kube::KubeSimulator::Options options;
    options.preset = preset;
    options.tls = ontapsim::sharedIdentity();
    options.token = QStringLiteral("test-token-0123");
    options.tickInterval = std::chrono::milliseconds(0);
    options.bookmarkInterval = std::chrono::milliseconds(0);
    options.startTime = QDateTime(QDate(2025, 6, 2), QTime(9, 0), Qt::UTC);
    return options;
}

RunningKube::RunningKube(sim::kube::KubeSimulator::Options options)
    : m_thread(std::make_unique<sim::ServerThread>())
{
    m_simulator = sim::kube::KubeSimulator::startOnThread(*m_thread, std::move(options), &m_error);
}

RunningKube::~RunningKube() = default;

KubeHttp::KubeHttp(const sim::kube::KubeSimulator &simulator)
    : m_client(simulator.baseUrl(), simulator.caPem(), QString(), QString())
{
    m_client.setAuthorization("Bearer " + simulator.token().toUtf8());
}

HttpResult KubeHttp::patch(const QString &pathAndQuery, const QByteArray &body, const QByteArray &contentType)
{
    return m_client.send("PATCH", pathAndQuery, body, {{QByteArrayLiteral("Content-Type"), contentType}});
}

WatchStream::WatchStream(const sim::kube::KubeSimulator &simulator, const QString &pathAndQuery)
{
    QNetworkRequest request(QUrl::fromEncoded((simulator.baseUrl() + pathAndQuery).toUtf8(), QUrl::StrictMode));
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    ssl.setCaCertificates(QSslCertificate::fromData(simulator.caPem(), QSsl::Pem));
    request.setSslConfiguration(ssl);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    request.setRawHeader("Authorization", "Bearer " + simulator.token().toUtf8());
    m_reply = m_nam.get(request);
    QObject::connect(m_reply, &QNetworkReply::readyRead, m_reply, [this] {
        read();
    });
    QObject::connect(m_reply, &QNetworkReply::finished, m_reply, [this] {
        read();
        m_finished = true;
    });
}

WatchStream::~WatchStream()
{
    if (m_reply) {
        m_reply->abort();
        delete m_reply;
    }
}

int WatchStream::status() const
{
    return m_reply ? m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() : 0;
}

void WatchStream::read()
{
    if (!m_reply || !m_reply->isOpen()) {
        return;
    }
    m_buffer += m_reply->readAll();
    for (;;) {
        const qsizetype nl = m_buffer.indexOf('\n');
        if (nl < 0) {
            break;
        }
        const QByteArray line = m_buffer.left(nl).trimmed();
        m_buffer.remove(0, nl + 1);
        if (!line.isEmpty()) {
            m_events.append(QJsonDocument::fromJson(line).object());
        }
    }
}

bool WatchStream::waitFor(const std::function<bool(const QList<QJsonObject> &)> &done, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    while (!done(m_events)) {
        if (m_finished || clock.elapsed() > timeoutMs) {
            return done(m_events);
        }
        QEventLoop loop;
        QTimer::singleShot(10, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return true;
}

bool WatchStream::waitForCount(int n, int timeoutMs)
{
    return waitFor(
        [n](const QList<QJsonObject> &events) {
            return events.size() >= n;
        },
        timeoutMs);
}

bool WatchStream::waitForEnd(int timeoutMs)
{
    waitFor(
        [this](const QList<QJsonObject> &) {
            return m_finished;
        },
        timeoutMs);
    return m_finished;
}

QStringList WatchStream::types(const QString &name) const
{
    QStringList out;
    for (const QJsonObject &e : m_events) {
        const QString n = e.value(QStringLiteral("object"))
                              .toObject()
                              .value(QStringLiteral("metadata"))
                              .toObject()
                              .value(QStringLiteral("name"))
                              .toString();
        if (name.isEmpty() || n == name) {
            out.append(e.value(QStringLiteral("type")).toString());
        }
    }
    return out;
}

} // namespace strata::testsupport::kubesim
