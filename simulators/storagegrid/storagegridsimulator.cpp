#include "simulators/storagegrid/storagegridsimulator.h"

#include "simulators/common/serverthread.h"
#include "simulators/storagegrid/gridstate.h"

#include <QDateTime>
#include <QLoggingCategory>

#include <chrono>

Q_LOGGING_CATEGORY(lcGridSim, "strata.sim.storagegrid", QtWarningMsg)

namespace strata::sim::storagegrid {

namespace {

QString uuidFrom(std::uint64_t a, std::uint64_t b)
{
    const QString h = QStringLiteral("%1%2")
                          .arg(QString::number(a, 16), 16, QLatin1Char('0'))
                          .arg(QString::number(b, 16), 16, QLatin1Char('0'));
    return h.mid(0, 8) + QLatin1Char('-') + h.mid(8, 4) + QLatin1Char('-') + h.mid(12, 4) + QLatin1Char('-')
           + h.mid(16, 4) + QLatin1Char('-') + h.mid(20, 12);
}

} // namespace

StorageGridSimulator::StorageGridSimulator(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_state(std::make_unique<GridState>())
{
    m_store = std::make_unique<S3Store>([this] {
        return nowMs();
    });
}

StorageGridSimulator::~StorageGridSimulator() = default;

StorageGridSimulator *StorageGridSimulator::startOnThread(ServerThread &thread, Options options, QString *error)
{
    return startSimulatorOnThread<StorageGridSimulator>(thread, std::move(options), error);
}

std::int64_t StorageGridSimulator::nowMs() const
{
    return QDateTime::currentMSecsSinceEpoch() + m_clockOffsetMs.load();
}

void StorageGridSimulator::advanceClock(std::chrono::milliseconds by)
{
    m_clockOffsetMs += by.count();
}

bool StorageGridSimulator::start()
{
    if (m_options.tls.isNull()) {
        m_options.tls = TlsIdentity::generate(QStringLiteral("storagegrid-sim"));
        if (m_options.tls.isNull()) {
            m_error = QStringLiteral("cannot generate a TLS identity");
            return false;
        }
    }
    {
        std::lock_guard lock(m_state->mutex);
        const std::uint64_t s = m_options.seed;
        m_state->siteId = uuidFrom(stableHash("site", s), stableHash("dc1", s));
        const struct
        {
            const char *name;
            const char *type;
            bool primary;
        } nodes[] = {{"dc1-adm1", "adminNode", true},
                     {"dc1-s1", "storageNode", false},
                     {"dc1-s2", "storageNode", false},
                     {"dc1-s3", "storageNode", false},
                     {"dc1-g1", "apiGatewayNode", false}};
        for (const auto &n : nodes) {
            m_state->nodes.push_back({uuidFrom(stableHash(n.name, s), stableHash(std::string(n.name) + n.type, s + 1)),
                                      QString::fromLatin1(n.name),
                                      QString::fromLatin1(n.type),
                                      n.primary});
        }
    }
    if (m_options.preset == Options::Preset::Datalake) {
        const QString science = addTenant({QStringLiteral("27842394817204129340"),
                                           QStringLiteral("data-science"),
                                           QStringLiteral("Data lake for the AI datasets (TR-4841)"),
                                           QStringLiteral("strata-sim-tenant"),
                                           2'000'000'000'000});
        const QString support = addTenant({QStringLiteral("61020483957721640118"),
                                           QStringLiteral("support-center"),
                                           QStringLiteral("Support-center sentiment analysis results (TR-4910)"),
                                           QStringLiteral("strata-sim-tenant"),
                                           -1});
        {
            std::lock_guard lock(m_state->mutex);
            m_state->s3Keys.push_back(
                {m_options.s3AccessKey.toStdString(), {m_options.s3SecretKey.toStdString(), science}});
            m_state->s3Keys.push_back(
                {m_options.s3AccessKey2.toStdString(), {m_options.s3SecretKey2.toStdString(), support}});
        }
        const std::string region = m_options.s3Region.toStdString();
        m_store->createBucket("datasets", science.toStdString(), region);
        m_store->setVersioning("datasets", true);
        for (const DatasetSpec &d : datalakeDatasets()) {
            applyDatasetRevision(d.name, d.revisions);
        }
        m_store->createBucket("sentiment", support.toStdString(), region);
        for (const DatasetObject &o : sentimentObjects(m_options.seed)) {
            m_store->putContent("sentiment", o.key, o.content, o.contentType);
        }
    }

    m_management = new HttpServer(this);
    m_management->setTlsConfiguration(m_options.tls.serverConfiguration());
    m_management->setHandler([this](const Request &request, const Responder &responder) {
        handleManagement(request, responder);
    });
    if (!m_management->listen(m_options.address, m_options.managementPort)) {
        m_error = QStringLiteral("management API: %1").arg(m_management->errorString());
        return false;
    }
    m_s3 = new HttpServer(this);
    if (m_options.s3Tls) {
        m_s3->setTlsConfiguration(m_options.tls.serverConfiguration());
    }
    m_s3->setMaxBodyBytes(256LL * 1024 * 1024);
    m_s3->setHandler([this](const Request &request, const Responder &responder) {
        handleS3(request, responder);
    });
    if (!m_s3->listen(m_options.address, m_options.s3Port)) {
        m_error = QStringLiteral("S3 endpoint: %1").arg(m_s3->errorString());
        return false;
    }
    const QString host = m_options.address == QHostAddress(QHostAddress::LocalHost) ? QStringLiteral("127.0.0.1")
                                                                                    : m_options.address.toString();
    m_managementUrl = QStringLiteral("https://%1:%2").arg(host).arg(m_management->port());
    m_s3Url = QStringLiteral("%1://%2:%3")
                  .arg(m_options.s3Tls ? QStringLiteral("https") : QStringLiteral("http"), host)
                  .arg(m_s3->port());
    return true;
}

quint16 StorageGridSimulator::managementPort() const
{
    return m_management ? m_management->port() : 0;
}

quint16 StorageGridSimulator::s3Port() const
{
    return m_s3 ? m_s3->port() : 0;
}

std::vector<TenantSpec> StorageGridSimulator::tenants() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->tenants;
}

QString StorageGridSimulator::addTenant(TenantSpec tenant)
{
    std::lock_guard lock(m_state->mutex);
    if (tenant.id.isEmpty()) {
        const std::uint64_t h = stableHash(tenant.name.toStdString(), m_options.seed + m_state->tenants.size());
        tenant.id = QStringLiteral("%1")
                        .arg(QString::number(h % 100000000000000000ULL), 17, QLatin1Char('0'))
                        .prepend(QStringLiteral("900"));
    }
    if (tenant.rootPassword.isEmpty()) {
        tenant.rootPassword = QStringLiteral("strata-sim-tenant");
    }
    m_state->tenants.push_back(tenant);
    return tenant.id;
}

bool StorageGridSimulator::applyDatasetRevision(const QString &name, int revision)
{
    const DatasetSpec *spec = nullptr;
    for (const DatasetSpec &d : datalakeDatasets()) {
        if (d.name == name) {
            spec = &d;
        }
    }
    if (!spec || revision < 1 || revision > spec->revisions || !m_store->bucket("datasets")) {
        return false;
    }
    const std::vector<DatasetObject> wanted = datasetObjects(*spec, revision, m_options.seed);
    const std::string prefix = name.toStdString() + "/";
    std::vector<std::string> present;
    // Keys only: the bytes' ETags are hashed when a client first lists or reads them.
    for (std::string &key : m_store->latestKeys("datasets", prefix)) {
        // Commit manifests (<prefix>.strata/...) live beside the data but are not part of it.
        if (key.compare(0, prefix.size() + 8, prefix + ".strata/") != 0) {
            present.push_back(std::move(key));
        }
    }
    for (const DatasetObject &o : wanted) {
        const auto current = m_store->latestContent("datasets", o.key);
        if (!current || !current->sameAs(o.content)) {
            m_store->putContent("datasets", o.key, o.content, o.contentType);
        }
    }
    for (const std::string &key : present) {
        const bool keep = std::any_of(wanted.begin(), wanted.end(), [&](const DatasetObject &o) {
            return o.key == key;
        });
        if (!keep) {
            m_store->deleteObject("datasets", key);
        }
    }
    return true;
}

void StorageGridSimulator::injectSlowDown(int count)
{
    std::lock_guard lock(m_state->mutex);
    m_state->slowDownRemaining = count;
}

void StorageGridSimulator::setS3Latency(std::chrono::milliseconds latency)
{
    std::lock_guard lock(m_state->mutex);
    m_state->s3LatencyMs = latency.count();
}

void StorageGridSimulator::addManagementFault(const QString &pathRegex, const QString &kind, int status, int count)
{
    std::lock_guard lock(m_state->mutex);
    m_state->faults.push_back({QRegularExpression(pathRegex), kind, status, count});
}

void StorageGridSimulator::revokeTokens()
{
    std::lock_guard lock(m_state->mutex);
    const std::int64_t now = nowMs();
    for (auto it = m_state->tokens.begin(); it != m_state->tokens.end(); ++it) {
        it->expiresMs = std::min(it->expiresMs, now - 1);
    }
}

int StorageGridSimulator::managementRequests() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->managementRequests;
}

int StorageGridSimulator::s3Requests() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->s3Requests;
}

int StorageGridSimulator::authorizations() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->authorizations;
}

int StorageGridSimulator::logouts() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->logouts;
}

} // namespace strata::sim::storagegrid
