#include "simulators/azure/azuresimulator.h"

#include "simulators/common/serverthread.h"

namespace strata::sim::azure {

struct AzureState
{
};

AzureSimulator::AzureSimulator(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_state(std::make_unique<AzureState>())
{}

AzureSimulator::~AzureSimulator() = default;

bool AzureSimulator::start()
{
    if (m_options.tls.isNull()) {
        m_options.tls = TlsIdentity::generate(QStringLiteral("strata-sim-azure"));
    }
    m_server = new HttpServer(this);
    m_server->setTlsConfiguration(m_options.tls.serverConfiguration());
    m_server->setHandler([this](const Request &request, const Responder &responder) {
        handle(request, responder);
    });
    if (!m_server->listen(m_options.address, m_options.port)) {
        m_error = m_server->errorString();
        return false;
    }
    m_port = m_server->port();
    m_baseUrl = m_server->baseUrl();
    return true;
}

AzureSimulator *AzureSimulator::startOnThread(ServerThread &thread, Options options, QString *error)
{
    return startSimulatorOnThread<AzureSimulator>(thread, std::move(options), error);
}

void AzureSimulator::handle(const Request &, const Responder &responder)
{
    responder.send(Response::json(404, R"({"error":{"code":"NotImplemented","message":"not yet"}})"));
}

} // namespace strata::sim::azure

namespace strata::sim::azure {
// Stubs until the full simulator lands.
QString AzureSimulator::accountId(const QString &) const
{
    return {};
}
QString AzureSimulator::poolId(const QString &, const QString &) const
{
    return {};
}
QString AzureSimulator::volumeId(const QString &, const QString &, const QString &) const
{
    return {};
}
QString AzureSimulator::managedClusterId(const QString &) const
{
    return {};
}
std::optional<QJsonObject> AzureSimulator::volume(const QString &) const
{
    return std::nullopt;
}
std::optional<QJsonObject> AzureSimulator::pool(const QString &) const
{
    return std::nullopt;
}
QList<QJsonObject> AzureSimulator::poolVolumes(const QString &) const
{
    return {};
}
bool AzureSimulator::deleteVolume(const QString &)
{
    return false;
}
void AzureSimulator::revokeTokens()
{}
int AzureSimulator::addFaultRule(const QJsonObject &, QString *)
{
    return -1;
}
void AzureSimulator::clearFaultRules()
{}
int AzureSimulator::requestCount() const
{
    return 0;
}
int AzureSimulator::tokenRequests() const
{
    return 0;
}
int AzureSimulator::operationCount() const
{
    return 0;
}
int AzureSimulator::runningOperations() const
{
    return 0;
}
double AzureSimulator::observedThroughputMibps(const QString &, const QDateTime &) const
{
    return 0;
}
QJsonObject AzureSimulator::state() const
{
    return {};
}
} // namespace strata::sim::azure
