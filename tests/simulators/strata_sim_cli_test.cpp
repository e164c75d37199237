// strata-sim as a user runs it: prints where it listens and where the CA is, serves with the
// password from a file, and stops cleanly on SIGTERM.

#include "tests/simulators/ontaptestsupport.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <csignal>

using namespace strata::testsupport::ontapsim;

namespace {

QString strataSim()
{
    return QStringLiteral(STRATA_BINARY_DIR "/simulators/strata-sim");
}

} // namespace

TEST(StrataSimCli, Ontap_PrintsUrlAndCa_ServesAndStopsOnSigterm)
{
    if (!QFileInfo::exists(strataSim())) {
        if (qEnvironmentVariableIsSet("STRATA_REQUIRE_ALL")) {
            FAIL() << "strata-sim is not built: " << strataSim().toStdString();
        }
        GTEST_SKIP() << "strata-sim is not built (cmake --build ... --target strata-sim)";
    }
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString passwordFile = dir.filePath(QStringLiteral("password"));
    QFile password(passwordFile);
    ASSERT_TRUE(password.open(QIODevice::WriteOnly));
    password.write("from-a-file\n");
    password.close();
    const QString caPath = dir.filePath(QStringLiteral("ca.pem"));

    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(strataSim(),
                  {QStringLiteral("ontap"),
                   QStringLiteral("--volumes"),
                   QStringLiteral("60"),
                   QStringLiteral("--page-cap"),
                   QStringLiteral("25"),
                   QStringLiteral("--username"),
                   QStringLiteral("ops"),
                   QStringLiteral("--password-file"),
                   passwordFile,
                   QStringLiteral("--cert-out"),
                   caPath});
    ASSERT_TRUE(process.waitForStarted(5000));

    QByteArray output;
    QString url;
    const QRegularExpression listening(QStringLiteral("listening on (https://\\S+)/api"));
    QDeadlineTimer deadline(15000);
    while (url.isEmpty() && !deadline.hasExpired() && process.state() == QProcess::Running) {
        process.waitForReadyRead(200);
        output += process.readAll();
        const auto match = listening.match(QString::fromUtf8(output));
        if (match.hasMatch() && output.contains("Press Ctrl+C")) {
            url = match.captured(1);
        }
    }
    ASSERT_FALSE(url.isEmpty()) << output.toStdString();
    EXPECT_TRUE(output.contains(caPath.toUtf8())) << output.toStdString();
    EXPECT_TRUE(output.contains("60 volumes")) << output.toStdString();
    EXPECT_FALSE(output.contains("from-a-file")) << "the password is not echoed";

    QFile ca(caPath);
    ASSERT_TRUE(ca.open(QIODevice::ReadOnly));
    QnamClient client(url, ca.readAll(), QStringLiteral("ops"), QStringLiteral("from-a-file"));
    const HttpResult r = client.get(QStringLiteral("/api/storage/volumes?max_records=100"));
    EXPECT_EQ(r.status, 200) << r.body.toStdString();
    EXPECT_EQ(r.json.value(QStringLiteral("num_records")).toInt(), 25);
    EXPECT_TRUE(r.json.value(QStringLiteral("_links")).toObject().contains(QStringLiteral("next")));

    ::kill(pid_t(process.processId()), SIGTERM);
    EXPECT_TRUE(process.waitForFinished(5000));
    EXPECT_EQ(process.exitStatus(), QProcess::NormalExit);
    EXPECT_EQ(process.exitCode(), 0);
}

TEST(StrataSimCli, BadArguments_ExplainAndFail)
{
    if (!QFileInfo::exists(strataSim())) {
        GTEST_SKIP() << "strata-sim is not built";
    }
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(
        strataSim(),
        {QStringLiteral("ontap"), QStringLiteral("--volumes"), QStringLiteral("10"), QStringLiteral("--demo")});
    ASSERT_TRUE(process.waitForFinished(5000));
    EXPECT_NE(process.exitCode(), 0);
    EXPECT_TRUE(process.readAll().contains("exclusive"));

    process.start(strataSim(), {QStringLiteral("netbackup")});
    ASSERT_TRUE(process.waitForFinished(5000));
    EXPECT_NE(process.exitCode(), 0);
}
