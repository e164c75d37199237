#include "tests/simulators/azuretestsupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QThread>
#include <QUrl>

namespace strata::testsupport::azuresim {

sim::azure::AzureSimulator::Options testOptions(sim::azure::AzureSimulator::Options::Preset preset)
{
    sim::azure::AzureSimulator::Options options;
    options.preset = preset;
    options.tls = ontapsim::sharedIdentity();
    options.lroDuration = std::chrono::milliseconds(100);
    options.lroRetryAfterSeconds = 0;
    options.clientSecret = QStringLiteral("t3st-s3cret~with+special=chars");
    return options;
}

RunningAzure::RunningAzure(sim::azure::AzureSimulator::Options options)
    : m_thread(std::make_unique<sim::ServerThread>())
{
    m_simulator = sim::azure::AzureSimulator::startOnThread(*m_thread, std::move(options), &m_error);
}

RunningAzure::~RunningAzure() = default;

AzureHttp::AzureHttp(const sim::azure::AzureSimulator &simulator)
    : m_simulator(simulator)
    , m_client(simulator.baseUrl(), simulator.caPem(), {}, {})
{
    m_client.setAuthorization({});
}

QString AzureHttp::relative(const QString &pathOrUrl) const
{
    if (pathOrUrl.startsWith(m_simulator.baseUrl())) {
        return pathOrUrl.mid(m_simulator.baseUrl().size());
    }
    return pathOrUrl;
}

QString AzureHttp::withApi(const QString &path, const QString &apiVersion)
{
    return path + (path.contains(QLatin1Char('?')) ? QStringLiteral("&") : QStringLiteral("?"))
           + QStringLiteral("api-version=") + apiVersion;
}

HttpResult AzureHttp::requestToken(const QString &secret, const QString &authority)
{
    auto pct = [](const QString &value) {
        return QUrl::toPercentEncoding(value);
    };
    const QByteArray form =
        "client_id=" + pct(m_simulator.options().clientId) + "&client_secret=" + pct(secret)
        + "&grant_type=client_credentials&scope=" + pct(QStringLiteral("https://management.azure.com/.default"));
    const QString path = QLatin1Char('/') + (authority.isEmpty() ? m_simulator.options().tenantId : authority)
                         + QStringLiteral("/oauth2/v2.0/token");
    return m_client.send("POST",
                         path,
                         form,
                         {{QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/x-www-form-urlencoded")}});
}

bool AzureHttp::login()
{
    const HttpResult r = requestToken(m_simulator.options().clientSecret);
    const QString token = r.json.value(QStringLiteral("access_token")).toString();
    if (r.status != 200 || token.isEmpty()) {
        return false;
    }
    setToken(token.toLatin1());
    return true;
}

HttpResult AzureHttp::put(const QString &pathOrUrl, const QJsonObject &body)
{
    return m_client.send("PUT", relative(pathOrUrl), QJsonDocument(body).toJson(QJsonDocument::Compact));
}

QJsonObject AzureHttp::waitForOperation(const HttpResult &accepted, QStringList *statuses, int timeoutMs)
{
    const QString url = QString::fromUtf8(accepted.headers.value("azure-asyncoperation"));
    if (url.isEmpty()) {
        return {};
    }
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeoutMs) {
        const HttpResult r = get(url);
        const QString status = r.json.value(QStringLiteral("status")).toString();
        if (statuses && (statuses->isEmpty() || statuses->last() != status)) {
            statuses->append(status);
        }
        if (status == QLatin1String("Succeeded") || status == QLatin1String("Failed")
            || status == QLatin1String("Canceled") || r.status != 200) {
            return r.json;
        }
        QThread::msleep(20); // poll interval of this condition wait (ARM's async-operation polling)
    }
    return {};
}

} // namespace strata::testsupport::azuresim
