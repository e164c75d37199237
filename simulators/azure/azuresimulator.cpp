#include "simulators/azure/azuresimulator.h"

#include "simulators/azure/azurestate.h"
#include "simulators/common/serverthread.h"

#include <algorithm>

namespace strata::sim::azure {

AzureSimulator::AzureSimulator(Options options, QObject *parent)
    : SimulatorBase(parent)
    , m_options(std::move(options))
    , m_state(std::make_unique<AzureState>(this, m_options))
{}

AzureSimulator::~AzureSimulator() = default;

bool AzureSimulator::start()
{
    if (!ensureTls(m_options.tls,
                   QStringLiteral("strata-sim-azure"),
                   {QStringLiteral("localhost"), QStringLiteral("127.0.0.1")})) {
        return false;
    }
    m_state->buildPreset();
    if (!listen(m_options.address, m_options.port, &m_options.tls)) {
        return false;
    }
    // ARM ids, nextLinks and operation URLs always name the loopback address, whatever --host.
    m_baseUrl = m_server->baseUrl();
    m_state->baseUrl = m_baseUrl;
    return true;
}

AzureSimulator *AzureSimulator::startOnThread(ServerThread &thread, Options options, QString *error)
{
    return startSimulatorOnThread<AzureSimulator>(thread, std::move(options), error);
}

void AzureSimulator::handle(const Request &request, const Responder &responder)
{
    m_state->handle(request, responder);
}

QString AzureSimulator::accountId(const QString &account) const
{
    return m_state->accountId(m_options.resourceGroup, account);
}

QString AzureSimulator::poolId(const QString &account, const QString &pool) const
{
    return accountId(account) + QStringLiteral("/capacityPools/") + pool;
}

QString AzureSimulator::volumeId(const QString &account, const QString &pool, const QString &volume) const
{
    return poolId(account, pool) + QStringLiteral("/volumes/") + volume;
}

QString AzureSimulator::managedClusterId(const QString &name) const
{
    return m_state->rgPrefix(m_options.resourceGroup)
           + QStringLiteral("/providers/Microsoft.ContainerService/managedClusters/") + name;
}

std::optional<QJsonObject> AzureSimulator::volume(const QString &idOrFileSystemId) const
{
    return onOwnThread([&]() -> std::optional<QJsonObject> {
        if (Volume *v = m_state->findVolumeAny(idOrFileSystemId)) {
            return m_state->volumeJson(*v);
        }
        return std::nullopt;
    });
}

QList<AzureSimulator::PerfPoint> AzureSimulator::perfAt(qint64 atMs) const
{
    return onOwnThread([&] {
        QList<PerfPoint> out;
        const qint64 bucket = atMs - atMs % 300000;
        for (const auto &v : m_state->volumes) {
            if (v->createdMs > bucket) {
                continue;
            }
            const LoadSample s = sampleLoad(*v, m_options.seed, bucket);
            PerfPoint p;
            p.fileSystemId = v->fileSystemId;
            p.throughputBps = s.readBps + s.writeBps;
            p.iops = s.readIops + s.writeIops;
            p.latencyUs = p.iops > 0 ? 1000.0 * (s.readLatencyMs * s.readIops + s.writeLatencyMs * s.writeIops) / p.iops
                                     : 1000.0 * std::max(s.readLatencyMs, s.writeLatencyMs);
            p.capBps = v->capAt(bucket) * 1024.0 * 1024.0;
            out.append(p);
        }
        return out;
    });
}

std::optional<QJsonObject> AzureSimulator::pool(const QString &id) const
{
    return onOwnThread([&]() -> std::optional<QJsonObject> {
        for (Pool &p : m_state->pools) {
            if (same(m_state->poolId(p), id)) {
                return m_state->poolJson(p);
            }
        }
        return std::nullopt;
    });
}

QList<QJsonObject> AzureSimulator::poolVolumes(const QString &poolId) const
{
    return onOwnThread([&] {
        QList<QJsonObject> out;
        for (Pool &p : m_state->pools) {
            if (same(m_state->poolId(p), poolId)) {
                for (Volume *v : m_state->volumesIn(p)) {
                    out.append(m_state->volumeJson(*v));
                }
            }
        }
        return out;
    });
}

bool AzureSimulator::deleteVolume(const QString &idOrFileSystemId)
{
    return onOwnThread([&] {
        Volume *v = m_state->findVolumeAny(idOrFileSystemId);
        return v && m_state->removeVolume(v->fileSystemId);
    });
}

void AzureSimulator::revokeTokens()
{
    onOwnThread([&] {
        m_state->revoke();
    });
}

int AzureSimulator::addFaultRule(const QJsonObject &rule, QString *error)
{
    return onOwnThread([&] {
        return m_state->faults.add(rule, error);
    });
}

void AzureSimulator::clearFaultRules()
{
    onOwnThread([&] {
        m_state->faults.clear();
    });
}

int AzureSimulator::requestCount() const
{
    return onOwnThread([&] {
        return m_state->requests;
    });
}

int AzureSimulator::tokenRequests() const
{
    return onOwnThread([&] {
        return m_state->tokenRequests;
    });
}

int AzureSimulator::operationCount() const
{
    return onOwnThread([&] {
        return m_state->operationCounter;
    });
}

int AzureSimulator::runningOperations() const
{
    return onOwnThread([&] {
        return m_state->running();
    });
}

double AzureSimulator::observedThroughputMibps(const QString &idOrFileSystemId, const QDateTime &at) const
{
    return onOwnThread([&] {
        Volume *v = m_state->findVolumeAny(idOrFileSystemId);
        if (!v) {
            return 0.0;
        }
        const qint64 ms = at.toMSecsSinceEpoch();
        const LoadSample s = sampleLoad(*v, m_options.seed, ms - ms % 300000);
        return (s.readBps + s.writeBps) / (1024.0 * 1024.0);
    });
}

QJsonObject AzureSimulator::state() const
{
    return onOwnThread([&] {
        return m_state->stateJson();
    });
}

} // namespace strata::sim::azure
