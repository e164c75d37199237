// The shipped alert rules (packaging/prometheus/strata-alerts.yml) against the real exporter: the
// `strata-server serve --demo` binary's /metrics carries every metric family a rule names (so the
// rules cannot drift from the exporter), the console URL the rules link with, and Debian's
// `promtool check metrics` accepts the scrape. promtool's own rule tests are the ctest
// alert_rules_test (tests/alerts/).
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

namespace strata::test {
namespace {

const QString kAlertsServer = QStringLiteral(STRATA_BINARY_DIR "/app/server/strata-server");
const QString kAlertRules = QStringLiteral(STRATA_SOURCE_DIR "/packaging/prometheus/strata-alerts.yml");

/// The metric names the rules file mentions (expressions and annotation queries).
QSet<QString> metricsNamedByRules()
{
    QFile f(kAlertRules);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    QSet<QString> out;
    static const QRegularExpression name(QStringLiteral("\\bstrata_[a-z0-9_]+"));
    for (auto it = name.globalMatch(QString::fromUtf8(f.readAll())); it.hasNext();) {
        out.insert(it.next().captured(0));
    }
    return out;
}

QByteArray alertsHttpGet(QNetworkAccessManager &net, const QString &url, int *status)
{
    QNetworkReply *reply = net.get(QNetworkRequest(QUrl(url)));
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    *status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->readAll();
    reply->deleteLater();
    return body;
}

class AlertsDemoTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(home.isValid());
        env.insert(QStringLiteral("STRATA_DEMO_PASSWORD"), QStringLiteral("alerts-demo-password"));
        env.insert(QStringLiteral("HOME"), home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral(".config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral(".local/share")));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), home.filePath(QStringLiteral(".cache")));
        env.remove(QStringLiteral("STRATA_PUBLIC_URL"));
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

    /// Starts the demo server; its base URL, or empty (the test has failed) when it did not serve.
    QString startDemo(const QStringList &extra)
    {
        server.setProcessEnvironment(env);
        server.start(kAlertsServer,
                     QStringList{QStringLiteral("serve"),
                                 QStringLiteral("--demo"),
                                 QStringLiteral("--listen"),
                                 QStringLiteral("127.0.0.1:0")}
                         + extra);
        QByteArray out;
        static const QRegularExpression served(QStringLiteral("serving the web console on (https?://\\S+)"));
        QString base;
        const bool ok = QTest::qWaitFor(
            [&] {
                out += server.readAllStandardOutput();
                const QRegularExpressionMatch m = served.match(QString::fromUtf8(out));
                base = m.hasMatch() ? m.captured(1) : QString();
                return !base.isEmpty() || server.state() == QProcess::NotRunning;
            },
            150000);
        EXPECT_TRUE(ok && !base.isEmpty()) << out.toStdString() << server.readAllStandardError().toStdString();
        return base.endsWith(QLatin1Char('/')) ? base.chopped(1) : base;
    }

    QTemporaryDir home;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    QProcess server;
};

TEST_F(AlertsDemoTest, DemoMetrics_HaveEveryFamilyTheRulesName_TheConsoleUrl_AndPassPromtool)
{
    const QSet<QString> named = metricsNamedByRules();
    ASSERT_GE(named.size(), 10) << "no metric names read from " << kAlertRules.toStdString();
    const QString base = startDemo({QStringLiteral("--public-url"), QStringLiteral("https://strata.example.com/")});
    ASSERT_FALSE(base.isEmpty());

    // The families exist from the first scrape; the demo's compute and volumes need its first polls.
    QNetworkAccessManager net;
    QByteArray body;
    int status = 0;
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            body = alertsHttpGet(net, base + QStringLiteral("/metrics"), &status);
            return status == 200 && body.contains("\nstrata_project_gpus_idle_allocated{")
                   && body.contains("\nstrata_volume_throughput_cap_bytes_per_second{")
                   && body.contains("\nstrata_job_pending_seconds{");
        },
        120000))
        << status << '\n'
        << body.left(4000).toStdString();

    QSet<QString> families;
    for (const QByteArray &line : body.split('\n')) {
        if (line.startsWith("# TYPE ")) {
            families.insert(QString::fromLatin1(line.mid(7, line.indexOf(' ', 7) - 7)));
        }
    }
    for (const QString &metric : named) {
        EXPECT_TRUE(families.contains(metric))
            << "a rule names " << metric.toStdString() << ", /metrics has no such family";
    }
    // The rules' console links start with the configured URL (its trailing slash dropped).
    EXPECT_TRUE(body.contains("\nstrata_console_info{url=\"https://strata.example.com\"} 1\n"));

    const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
    if (promtool.isEmpty()) {
        if (qEnvironmentVariableIsSet("STRATA_REQUIRE_ALL")) {
            FAIL() << "promtool is needed (apt-get install prometheus) and STRATA_REQUIRE_ALL is set";
        }
        GTEST_SKIP() << "promtool is not installed (apt-get install prometheus)";
    }
    QProcess check;
    check.setProcessChannelMode(QProcess::MergedChannels);
    check.start(promtool, {QStringLiteral("check"), QStringLiteral("metrics")});
    ASSERT_TRUE(check.waitForStarted(10000));
    check.write(body);
    check.closeWriteChannel();
    ASSERT_TRUE(check.waitForFinished(30000));
    const QByteArray lint = check.readAll();
    EXPECT_EQ(check.exitCode(), 0) << lint.toStdString();
    EXPECT_TRUE(lint.trimmed().isEmpty()) << lint.toStdString();
}

TEST_F(AlertsDemoTest, PublicUrl_NotHttp_IsRefusedAtStart)
{
    QProcess bad;
    bad.setProcessEnvironment(env);
    bad.start(kAlertsServer,
              {QStringLiteral("serve"),
               QStringLiteral("--demo"),
               QStringLiteral("--listen"),
               QStringLiteral("127.0.0.1:0"),
               QStringLiteral("--public-url"),
               QStringLiteral("strata.example.com")});
    ASSERT_TRUE(bad.waitForFinished(60000));
    EXPECT_EQ(bad.exitCode(), 2);
    EXPECT_TRUE(bad.readAllStandardError().contains("--public-url wants an http(s) URL"));
}

} // namespace
} // namespace strata::test
