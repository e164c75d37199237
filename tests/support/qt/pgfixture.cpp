#include "tests/support/qt/pgfixture.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>

#include <atomic>
#include <memory>
#include <mutex>

namespace strata::testsupport {

namespace {

QString pgDir()
{
    const QString fromEnv = qEnvironmentVariable("STRATA_PG_DIR");
    return fromEnv.isEmpty() ? QStringLiteral(STRATA_PG_DIR) : fromEnv;
}

/// Runs pg-fixture.sh `command`; its exit code and combined output.
std::pair<int, QString> runPgFixture(const QString &command)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QStringLiteral(STRATA_SOURCE_DIR "/tests/support/pg-fixture.sh"), {command, pgDir()});
    if (!process.waitForFinished(180'000)) {
        process.kill();
        process.waitForFinished();
        return {-1, QStringLiteral("pg-fixture.sh %1 did not finish in 180 s").arg(command)};
    }
    return {process.exitCode(), QString::fromLocal8Bit(process.readAll())};
}

struct SharedCluster
{
    std::mutex mutex;
    QString url;
    QString failure; ///< set once a start failed: later tests fail fast with the same reason
    bool startedHere = false;

    ~SharedCluster()
    {
        if (startedHere) {
            (void)runPgFixture(QStringLiteral("down"));
        }
    }
};

SharedCluster &sharedCluster()
{
    static SharedCluster instance;
    return instance;
}

/// Runs `sql` on the cluster's "postgres" database over a short-lived connection.
QString adminExec(const QString &adminUrl, const QString &sql)
{
    static std::atomic<int> counter{0};
    const QString name = QStringLiteral("pgfixture-admin-%1").arg(++counter);
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
        const QUrl url(adminUrl);
        db.setHostName(url.host());
        db.setPort(url.port());
        db.setUserName(url.userName());
        db.setPassword(url.password());
        db.setDatabaseName(url.path().mid(1));
        if (!db.open()) {
            error = db.lastError().text();
        } else if (QSqlQuery query(db); !query.exec(sql)) {
            error = query.lastError().text();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return error;
}

} // namespace

QString postgresUrl()
{
    SharedCluster &state = sharedCluster();
    std::lock_guard lock(state.mutex);
    if (!state.url.isEmpty()) {
        return state.url;
    }
    if (state.failure.isEmpty()) {
        const auto [status, output] = runPgFixture(QStringLiteral("up"));
        QFile urlFile(pgDir() + QStringLiteral("/url"));
        if (status == 0 && urlFile.open(QIODevice::ReadOnly)) {
            state.url = QString::fromUtf8(urlFile.readAll()).trimmed();
            state.startedHere = output.startsWith(QLatin1String("started "));
            if (!state.url.isEmpty()) {
                return state.url;
            }
        }
        state.failure =
            QStringLiteral("could not start a throwaway PostgreSQL (scripts/deps.sh --test installs it): ") + output;
    }
    ADD_FAILURE() << state.failure.toStdString();
    return {};
}

ScratchPostgresDatabase::ScratchPostgresDatabase()
{
    const QString admin = postgresUrl();
    if (admin.isEmpty()) {
        return;
    }
    static std::atomic<int> counter{0};
    m_name = QStringLiteral("strata_t_%1_%2").arg(QCoreApplication::applicationPid()).arg(++counter);
    if (const QString error = adminExec(admin, QStringLiteral("CREATE DATABASE %1").arg(m_name)); !error.isEmpty()) {
        ADD_FAILURE() << "CREATE DATABASE " << m_name.toStdString() << ": " << error.toStdString();
        m_name.clear();
        return;
    }
    QUrl url(admin);
    url.setPath(QLatin1Char('/') + m_name);
    m_url = url.toString();
}

ScratchPostgresDatabase::~ScratchPostgresDatabase()
{
    if (!m_name.isEmpty()) {
        (void)adminExec(postgresUrl(), QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_name));
    }
}

std::string storeBackendName(const testing::TestParamInfo<StoreBackend> &info)
{
    return info.param == StoreBackend::Postgres ? "Postgres" : "Sqlite";
}

ScratchStore::ScratchStore(StoreBackend backend)
    : m_backend(backend)
{
    if (backend == StoreBackend::Postgres) {
        m_database = std::make_unique<ScratchPostgresDatabase>();
    }
}

QString ScratchStore::location() const
{
    return m_backend == StoreBackend::Postgres ? m_database->url() : QStringLiteral(":memory:");
}

} // namespace strata::testsupport
