// strata-server on PostgreSQL with the real binaries: `migrate --from-sqlite` moves an
// installation and refuses to move it twice; `serve --store` opens the database with the password
// from STRATA_SECRET_STORE_PASSWORD, records the demo's history there and answers /readyz; a
// wrong password stops it with an error that names the database but never the password.

#include "models/core/domain/clock.h"
#include "models/core/store/historystore.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/pgfixture.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <gtest/gtest.h>

using namespace strata;
using strata::testsupport::valueOf;

namespace {

const QString kPgServer = QStringLiteral(STRATA_BINARY_DIR "/app/server/strata-server");

class PostgresServerTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(home.isValid());
        ASSERT_FALSE(db.url().isEmpty());
        const QUrl admin(db.url());
        password = admin.password();
        QUrl bare = admin;
        bare.setPassword({});
        url = bare.toString();
        env.insert(QStringLiteral("HOME"), home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral(".config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral(".local/share")));
        env.insert(QStringLiteral("STRATA_SECRET_STORE_PASSWORD"), password);
        env.remove(QStringLiteral("PGPASSWORD"));
        env.remove(QStringLiteral("STRATA_STORE"));
    }

    void TearDown() override
    {
        if (server.state() != QProcess::NotRunning) {
            server.terminate();
            if (!server.waitForFinished(30000)) {
                server.kill();
                server.waitForFinished(10000);
            }
        }
    }

    struct Run
    {
        int code = -1;
        QString out;
        QString err;
    };

    Run run(const QStringList &arguments, const QProcessEnvironment &environment)
    {
        QProcess p;
        p.setProcessEnvironment(environment);
        p.start(kPgServer, arguments);
        Run r;
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
            return r;
        }
        r.code = p.exitCode();
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

    QTemporaryDir home;
    testsupport::ScratchPostgresDatabase db;
    QString url;      ///< without the password
    QString password; ///< the cluster's
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    QProcess server;
};

int httpStatus(const QString &address)
{
    QNetworkAccessManager net;
    QNetworkReply *reply = net.get(QNetworkRequest(QUrl(address)));
    QSignalSpy done(reply, &QNetworkReply::finished);
    done.wait(20000);
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    reply->deleteLater();
    return status;
}

} // namespace

TEST_F(PostgresServerTest, MigrateMovesTheSqliteStoreOnceAndSaysWhatItMoved)
{
    const QString file = home.filePath(QStringLiteral("history.sqlite"));
    {
        core::SystemClock clock;
        core::SqlHistoryStore sqlite(file, clock);
        ASSERT_TRUE(testsupport::succeeded(sqlite.open()));
        ASSERT_TRUE(sqlite.recordVolumeUsage(QStringLiteral("ontap-ai"),
                                             {{QStringLiteral("v1"), 1, 10}, {QStringLiteral("v2"), 2, 20}},
                                             QDateTime::currentDateTimeUtc()));
        core::AuditEntry audit;
        audit.actionId = QStringLiteral("a1");
        audit.source = QStringLiteral("ontap-ai");
        audit.kind = QStringLiteral("snapshot.create");
        audit.outcome = QStringLiteral("succeeded");
        ASSERT_GT(valueOf(sqlite.appendAudit(audit)), 0);
        ASSERT_TRUE(sqlite.putSharedSetting(core::SharedSetting{QStringLiteral("rate_card"),
                                                                QByteArrayLiteral("{\"currency\":\"EUR\"}"),
                                                                0,
                                                                {},
                                                                QStringLiteral("alice on desktop/1"),
                                                                {}},
                                            0,
                                            std::nullopt));
    }
    const Run moved =
        run({QStringLiteral("migrate"), QStringLiteral("--from-sqlite"), file, QStringLiteral("--to"), url}, env);
    ASSERT_EQ(moved.code, 0) << moved.out.toStdString() << moved.err.toStdString();
    EXPECT_TRUE(moved.out.contains(QRegularExpression(QStringLiteral("\\b2 volume capacity samples"))))
        << moved.out.toStdString();
    EXPECT_TRUE(moved.out.contains(QRegularExpression(QStringLiteral("\\b1 audit log entries \\(audit_log\\)"))))
        << moved.out.toStdString();
    EXPECT_TRUE(moved.out.contains(
        QRegularExpression(QStringLiteral("\\b1 shared settings: rate card, cache targets \\(setting\\)"))))
        << moved.out.toStdString();
    EXPECT_TRUE(moved.out.contains(QStringLiteral("moved 6 rows"))) << moved.out.toStdString();
    EXPECT_FALSE(moved.out.contains(password));
    {
        core::SystemClock clock;
        core::SqlHistoryStore moved(db.url(), clock);
        ASSERT_TRUE(testsupport::succeeded(moved.open()));
        const auto settings = moved.sharedSettings();
        ASSERT_TRUE(settings);
        ASSERT_EQ(settings->size(), 1U);
        EXPECT_EQ(settings->front().body, QByteArrayLiteral("{\"currency\":\"EUR\"}"));
        EXPECT_EQ(settings->front().updatedBy, QStringLiteral("alice on desktop/1"));
    }

    const Run again =
        run({QStringLiteral("migrate"), QStringLiteral("--from-sqlite"), file, QStringLiteral("--to"), url}, env);
    EXPECT_EQ(again.code, 2);
    EXPECT_TRUE(again.err.contains(QStringLiteral("migrate into an empty database"))) << again.err.toStdString();

    const Run usage = run({QStringLiteral("migrate"), QStringLiteral("--to"), url}, env);
    EXPECT_EQ(usage.code, 2);

    // Not a SQLite file (a truncated copy, the wrong file): a clear error, nothing written.
    const QString garbage = home.filePath(QStringLiteral("not-a-database.sqlite"));
    {
        QFile f(garbage);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(8192, 'x'));
    }
    testsupport::ScratchPostgresDatabase empty;
    QUrl emptyUrl(empty.url());
    emptyUrl.setPassword({});
    const Run broken = run({QStringLiteral("migrate"),
                            QStringLiteral("--from-sqlite"),
                            garbage,
                            QStringLiteral("--to"),
                            emptyUrl.toString()},
                           env);
    EXPECT_EQ(broken.code, 1) << broken.out.toStdString();
    EXPECT_TRUE(broken.err.contains(garbage)) << broken.err.toStdString();
    EXPECT_FALSE(broken.out.contains(QStringLiteral("moved")));
}

TEST_F(PostgresServerTest, SettingsSetAndGetTheSharedRateCardOverTheRevisionItRead)
{
    env.insert(QStringLiteral("USER"), QStringLiteral("ops"));
    const QStringList store{QStringLiteral("--store"), url};
    const Run none =
        run(QStringList{QStringLiteral("settings"), QStringLiteral("get"), QStringLiteral("rate-card")} + store, env);
    EXPECT_EQ(none.code, 1) << none.err.toStdString();
    EXPECT_TRUE(none.err.contains(QStringLiteral("no rate card yet"))) << none.err.toStdString();

    const QString file = home.filePath(QStringLiteral("card.json"));
    const auto writeFile = [&](const QByteArray &json) {
        QFile f(file);
        return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(json) == json.size();
    };
    ASSERT_TRUE(writeFile(QByteArrayLiteral("{\"currency\": \"EUR\", \"cool_down_minutes\": 15}")));
    const QStringList set{
        QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("rate-card"), QStringLiteral("--file"), file};
    const Run stored = run(set + store, env);
    ASSERT_EQ(stored.code, 0) << stored.err.toStdString();
    EXPECT_TRUE(stored.out.contains(QStringLiteral("revision 1"))) << stored.out.toStdString();
    EXPECT_FALSE(stored.out.contains(password));

    const Run got =
        run(QStringList{QStringLiteral("settings"), QStringLiteral("get"), QStringLiteral("rate-card")} + store, env);
    ASSERT_EQ(got.code, 0) << got.err.toStdString();
    const QJsonObject card = QJsonDocument::fromJson(got.out.toUtf8()).object();
    EXPECT_EQ(card.value(QStringLiteral("currency")).toString(), QStringLiteral("EUR"));
    EXPECT_EQ(card.value(QStringLiteral("cool_down_minutes")).toInt(), 15);
    EXPECT_TRUE(card.contains(QStringLiteral("anf_per_gib_month"))) << "missing keys filled from the defaults";
    EXPECT_TRUE(got.err.contains(QStringLiteral("revision 1"))) << got.err.toStdString();

    // An edit based on an older revision is refused; a card that is not one never reaches the store.
    ASSERT_TRUE(writeFile(QByteArrayLiteral("{\"currency\": \"GBP\"}")));
    const Run stale = run(set + store + QStringList{QStringLiteral("--if-revision"), QStringLiteral("0")}, env);
    EXPECT_EQ(stale.code, 1);
    EXPECT_TRUE(stale.err.contains(QStringLiteral("changed meanwhile"))) << stale.err.toStdString();
    ASSERT_TRUE(writeFile(QByteArrayLiteral("{\"currency\": 5}")));
    const Run invalid = run(set + store, env);
    EXPECT_EQ(invalid.code, 2);
    EXPECT_TRUE(invalid.err.contains(QStringLiteral("currency"))) << invalid.err.toStdString();

    core::SystemClock clock;
    core::SqlHistoryStore reader(db.url(), clock);
    ASSERT_TRUE(testsupport::succeeded(reader.open()));
    const auto audit = valueOf(reader.auditLogOfKind(QStringLiteral("setting.rate_card"), {}));
    ASSERT_EQ(audit.size(), 1U);
    EXPECT_EQ(audit[0].user, QStringLiteral("ops"));
    EXPECT_FALSE(audit[0].replica.isEmpty());
    EXPECT_EQ(audit[0].message, QStringLiteral("strata-server settings set"));
}

TEST_F(PostgresServerTest, ServeWithAStoreUrlRecordsThereAndIsReady)
{
    server.setProcessEnvironment(env);
    server.start(kPgServer,
                 {QStringLiteral("serve"),
                  QStringLiteral("--demo"),
                  QStringLiteral("--listen"),
                  QStringLiteral("127.0.0.1:0"),
                  QStringLiteral("--store"),
                  url});
    QByteArray out;
    QString base;
    static const QRegularExpression served(QStringLiteral("serving the web console on (https?://\\S+)/"));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            out += server.readAllStandardOutput();
            const QRegularExpressionMatch m = served.match(QString::fromUtf8(out));
            base = m.hasMatch() ? m.captured(1) : QString();
            return !base.isEmpty() || server.state() == QProcess::NotRunning;
        },
        150000))
        << server.readAllStandardError().toStdString();
    ASSERT_FALSE(base.isEmpty()) << out.toStdString() << server.readAllStandardError().toStdString();
    EXPECT_EQ(httpStatus(base + QStringLiteral("/readyz")), 200);
    EXPECT_EQ(httpStatus(base + QStringLiteral("/livez")), 200);

    // The demo's past (written before it serves) and its first polls are in PostgreSQL, read
    // back by another process: capacity from days ago, so the forecasts have a trend at once.
    core::SystemClock clock;
    core::SqlHistoryStore reader(db.url(), clock);
    ASSERT_TRUE(testsupport::succeeded(reader.open()));
    const QDateTime now = QDateTime::currentDateTimeUtc();
    EXPECT_FALSE(valueOf(reader.capacityHistory({}, now.addSecs(-24 * 3600))).empty())
        << "no past capacity in the database";
    EXPECT_FALSE(valueOf(reader.projectHistory(QStringLiteral("dgx"), {}, {}, now.addSecs(-3600))).empty())
        << "no past GPU allocation in the database";
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            return !valueOf(reader.capacityHistory(now.addSecs(-60), {})).empty();
        },
        60000))
        << "no live capacity sample reached the database";
}

TEST_F(PostgresServerTest, AWrongPasswordStopsTheServerWithoutShowingIt)
{
    QProcessEnvironment wrong = env;
    wrong.insert(QStringLiteral("STRATA_SECRET_STORE_PASSWORD"), QStringLiteral("Not-The-Password-77"));
    const QString config = home.filePath(QStringLiteral("config.json"));
    {
        QFile f(config);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(R"({"sources": []})");
    }
    // Configured: the store must open, or the replica would run without the shared schedules.
    const Run configured = run({QStringLiteral("serve"),
                                QStringLiteral("--config"),
                                config,
                                QStringLiteral("--listen"),
                                QStringLiteral("127.0.0.1:0"),
                                QStringLiteral("--store"),
                                url},
                               wrong);
    // The demo writes its past into the store before anything else, and stops there.
    const Run demo = run({QStringLiteral("serve"),
                          QStringLiteral("--demo"),
                          QStringLiteral("--listen"),
                          QStringLiteral("127.0.0.1:0"),
                          QStringLiteral("--store"),
                          url},
                         wrong);
    EXPECT_TRUE(configured.err.contains(QStringLiteral("history store unavailable"))) << configured.err.toStdString();
    EXPECT_TRUE(demo.err.contains(QStringLiteral("the demo estate could not start"))) << demo.err.toStdString();
    for (const Run &refused : {configured, demo}) {
        EXPECT_EQ(refused.code, 1) << refused.out.toStdString();
        EXPECT_TRUE(refused.err.contains(url)) << refused.err.toStdString();
        EXPECT_TRUE(refused.err.contains(QStringLiteral("password authentication failed")))
            << refused.err.toStdString();
        EXPECT_FALSE(refused.err.contains(QStringLiteral("Not-The-Password"))) << refused.err.toStdString();
        EXPECT_FALSE(refused.out.contains(QStringLiteral("Not-The-Password")));
    }
}

namespace {

/// The environment of a `strata-server user` run: `env` with the new password.
QProcessEnvironment withNewPassword(QProcessEnvironment environment, const QString &password)
{
    environment.insert(QStringLiteral("STRATA_NEW_PASSWORD"), password);
    return environment;
}

/// The web console users in the store at `location` (a failure recorded when it cannot be read).
std::vector<core::WebUserRecord> webUsersIn(const QString &location)
{
    core::SystemClock clock;
    core::SqlHistoryStore store(location, clock);
    EXPECT_TRUE(testsupport::succeeded(store.open()));
    auto users = store.webUsers();
    EXPECT_TRUE(users);
    return users ? *users : std::vector<core::WebUserRecord>{};
}

} // namespace

TEST_F(PostgresServerTest, UserCommandsWithAStoreChangeTheStoreTheReplicasShare)
{
    const Run added = run({QStringLiteral("user"),
                           QStringLiteral("add"),
                           QStringLiteral("alice"),
                           QStringLiteral("--role"),
                           QStringLiteral("admin"),
                           QStringLiteral("--store"),
                           url},
                          withNewPassword(env, QStringLiteral("alice-password")));
    ASSERT_EQ(added.code, 0) << added.out.toStdString() << added.err.toStdString();
    EXPECT_TRUE(added.out.contains(QStringLiteral("added user alice (admin)"))) << added.out.toStdString();
    const std::vector<core::WebUserRecord> stored = webUsersIn(db.url());
    ASSERT_EQ(stored.size(), 1U);
    EXPECT_EQ(stored[0].name, QStringLiteral("alice"));
    EXPECT_EQ(stored[0].role, QStringLiteral("admin"));
    EXPECT_TRUE(stored[0].passwordHash.startsWith(QLatin1String("pbkdf2-sha256$")));
    // No users file was written anywhere under HOME.
    QDirIterator files(home.path(), {QStringLiteral("users.json")}, QDir::Files, QDirIterator::Subdirectories);
    EXPECT_FALSE(files.hasNext()) << files.next().toStdString();

    // STRATA_STORE names the store as well as --store does.
    QProcessEnvironment viaEnv = env;
    viaEnv.insert(QStringLiteral("STRATA_STORE"), url);
    const Run listed = run({QStringLiteral("user"), QStringLiteral("list")}, viaEnv);
    ASSERT_EQ(listed.code, 0) << listed.err.toStdString();
    EXPECT_TRUE(listed.out.contains(QRegularExpression(QStringLiteral("alice\\s+admin")))) << listed.out.toStdString();

    const Run both = run({QStringLiteral("user"),
                          QStringLiteral("list"),
                          QStringLiteral("--users"),
                          home.filePath(QStringLiteral("users.json"))},
                         viaEnv);
    EXPECT_EQ(both.code, 2) << both.err.toStdString();

    const Run removed = run({QStringLiteral("user"), QStringLiteral("remove"), QStringLiteral("alice")}, viaEnv);
    ASSERT_EQ(removed.code, 0) << removed.err.toStdString();
    EXPECT_TRUE(webUsersIn(db.url()).empty());
    const Run unknown = run({QStringLiteral("user"), QStringLiteral("remove"), QStringLiteral("alice")}, viaEnv);
    EXPECT_EQ(unknown.code, 1);
}

TEST_F(PostgresServerTest, MigrateImportsTheUsersFileBesideTheSqliteFile)
{
    const QString file = home.filePath(QStringLiteral("history.sqlite"));
    const QString usersFile = home.filePath(QStringLiteral("users.json"));
    {
        core::SystemClock clock;
        core::SqlHistoryStore sqlite(file, clock);
        ASSERT_TRUE(testsupport::succeeded(sqlite.open()));
    }
    const Run added = run({QStringLiteral("user"),
                           QStringLiteral("add"),
                           QStringLiteral("carol"),
                           QStringLiteral("--role"),
                           QStringLiteral("operator"),
                           QStringLiteral("--users"),
                           usersFile},
                          withNewPassword(env, QStringLiteral("carol-password")));
    ASSERT_EQ(added.code, 0) << added.err.toStdString();

    const Run moved =
        run({QStringLiteral("migrate"), QStringLiteral("--from-sqlite"), file, QStringLiteral("--to"), url}, env);
    ASSERT_EQ(moved.code, 0) << moved.out.toStdString() << moved.err.toStdString();
    EXPECT_TRUE(moved.out.contains(QStringLiteral("1 web console users imported from %1").arg(usersFile)))
        << moved.out.toStdString();

    QFile json(usersFile);
    ASSERT_TRUE(json.open(QIODevice::ReadOnly));
    const QJsonObject carol =
        QJsonDocument::fromJson(json.readAll()).object().value(QLatin1String("users")).toArray().at(0).toObject();
    const std::vector<core::WebUserRecord> users = webUsersIn(db.url());
    ASSERT_EQ(users.size(), 1U);
    EXPECT_EQ(users[0].name, QStringLiteral("carol"));
    EXPECT_EQ(users[0].role, QStringLiteral("operator"));
    EXPECT_EQ(users[0].passwordHash, carol.value(QLatin1String("password_hash")).toString());
}
