// Real vendor-side clients against the StorageGRID simulator: Debian's AWS CLI and s3cmd sign
// their S3 requests for real (a wrong secret is refused with SignatureDoesNotMatch), and the
// netapp.storagegrid Ansible collection reads grid and tenant information through the
// management API. Skipped when a client is missing unless STRATA_REQUIRE_ALL=1
// (scripts/deps.sh --test installs awscli, s3cmd and ansible).

#include "tests/simulators/storagegridtestsupport.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUrl>

#include <gtest/gtest.h>

#include <csignal>

using namespace strata::testsupport::gridsim;
using namespace strata::sim::storagegrid;

namespace {

struct ToolRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

QString requireTool(const QString &name)
{
    // Debian's packages live in /usr/bin; prefer them over user-level shims.
    QString path = QStandardPaths::findExecutable(name, {QStringLiteral("/usr/bin")});
    if (path.isEmpty()) {
        path = QStandardPaths::findExecutable(name);
    }
    return path;
}

class GridClients : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(dir.isValid());
        grid = std::make_unique<RunningGrid>();
        ASSERT_TRUE(grid->isRunning()) << grid->error().toStdString();
    }

    bool need(const QString &tool, QString *path)
    {
        *path = requireTool(tool);
        if (!path->isEmpty()) {
            return true;
        }
        if (qEnvironmentVariable("STRATA_REQUIRE_ALL") == QLatin1String("1")) {
            ADD_FAILURE() << tool.toStdString()
                          << " is required (STRATA_REQUIRE_ALL=1); scripts/deps.sh --test installs it";
        }
        return false;
    }

    ToolRun run(const QString &program, const QStringList &args, const QProcessEnvironment &env, int timeoutMs = 120000)
    {
        QProcess process;
        process.setProcessEnvironment(env);
        process.setWorkingDirectory(dir.path());
        process.start(program, args);
        ToolRun result;
        if (!process.waitForFinished(timeoutMs)) {
            process.kill();
            process.waitForFinished();
            result.err = "timed out";
            return result;
        }
        result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        result.out = process.readAllStandardOutput();
        result.err = process.readAllStandardError();
        return result;
    }

    QProcessEnvironment awsEnv(const QString &secret) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), dir.path());
        env.insert(QStringLiteral("AWS_CONFIG_FILE"), dir.filePath(QStringLiteral("aws-config")));
        env.insert(QStringLiteral("AWS_SHARED_CREDENTIALS_FILE"), dir.filePath(QStringLiteral("aws-credentials")));
        env.insert(QStringLiteral("AWS_ACCESS_KEY_ID"), (*grid)->options().s3AccessKey);
        env.insert(QStringLiteral("AWS_SECRET_ACCESS_KEY"), secret);
        env.insert(QStringLiteral("AWS_DEFAULT_REGION"), (*grid)->options().s3Region);
        env.insert(QStringLiteral("AWS_PAGER"), QString());
        env.insert(QStringLiteral("AWS_EC2_METADATA_DISABLED"), QStringLiteral("true"));
        env.insert(QStringLiteral("NO_PROXY"), QStringLiteral("127.0.0.1,localhost"));
        return env;
    }

    QStringList aws(const QStringList &args) const
    {
        return QStringList{QStringLiteral("--endpoint-url"),
                           (*grid)->s3Url(),
                           QStringLiteral("--output"),
                           QStringLiteral("json")}
               + args;
    }

    QTemporaryDir dir;
    std::unique_ptr<RunningGrid> grid;
};

} // namespace

TEST_F(GridClients, AwsCli_ListsCopiesAndReadsVersioning_WithPathStyle)
{
    QString awsPath;
    if (!need(QStringLiteral("aws"), &awsPath)) {
        GTEST_SKIP() << "aws (awscli) is not installed";
    }
    QFile config(dir.filePath(QStringLiteral("aws-config")));
    ASSERT_TRUE(config.open(QIODevice::WriteOnly));
    config.write("[default]\ns3 =\n    addressing_style = path\n");
    config.close();
    const QProcessEnvironment env = awsEnv((*grid)->options().s3SecretKey);

    ToolRun r = run(awsPath,
                    aws({QStringLiteral("s3api"),
                         QStringLiteral("list-objects-v2"),
                         QStringLiteral("--bucket"),
                         QStringLiteral("datasets"),
                         QStringLiteral("--prefix"),
                         QStringLiteral("fraud_jun/"),
                         QStringLiteral("--page-size"),
                         QStringLiteral("5")}),
                    env);
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    const QJsonArray contents = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("Contents")).toArray();
    const ListResult expected = (*grid)->store().list("datasets", {"fraud_jun/", {}, {}, {}, {}, 1000});
    ASSERT_EQ(contents.size(), int(expected.objects.size())) << "the CLI paged through 5-key pages";
    qint64 total = 0;
    for (const QJsonValue &v : contents) {
        total += v.toObject().value(QStringLiteral("Size")).toInteger();
    }
    EXPECT_EQ(total, 32'400'000);
    EXPECT_EQ(contents[0].toObject().value(QStringLiteral("ETag")).toString(),
              QString::fromStdString("\"" + expected.objects[0].etag + "\""));

    r = run(awsPath,
            aws({QStringLiteral("s3api"),
                 QStringLiteral("get-bucket-versioning"),
                 QStringLiteral("--bucket"),
                 QStringLiteral("datasets")}),
            env);
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    EXPECT_EQ(QJsonDocument::fromJson(r.out).object().value(QStringLiteral("Status")).toString(),
              QStringLiteral("Enabled"));

    // Upload and download through the high-level commands.
    QFile upload(dir.filePath(QStringLiteral("notes.txt")));
    ASSERT_TRUE(upload.open(QIODevice::WriteOnly));
    const QByteArray content = QByteArray("fraud_jun notes\n").repeated(1000);
    upload.write(content);
    upload.close();
    r = run(awsPath,
            aws({QStringLiteral("s3"),
                 QStringLiteral("cp"),
                 upload.fileName(),
                 QStringLiteral("s3://datasets/fraud_jun/notes.txt")}),
            env);
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    const auto stored = (*grid)->store().head("datasets", "fraud_jun/notes.txt");
    ASSERT_TRUE(stored);
    EXPECT_EQ(stored->body(), content.toStdString());
    r = run(awsPath,
            aws({QStringLiteral("s3"),
                 QStringLiteral("cp"),
                 QStringLiteral("s3://datasets/fraud_jun/README.md"),
                 dir.filePath(QStringLiteral("readme.md"))}),
            env);
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    QFile readme(dir.filePath(QStringLiteral("readme.md")));
    ASSERT_TRUE(readme.open(QIODevice::ReadOnly));
    EXPECT_EQ(readme.readAll().toStdString(), (*grid)->store().head("datasets", "fraud_jun/README.md")->body());
    r = run(awsPath,
            aws({QStringLiteral("s3api"),
                 QStringLiteral("list-object-versions"),
                 QStringLiteral("--bucket"),
                 QStringLiteral("datasets"),
                 QStringLiteral("--prefix"),
                 QStringLiteral("fraud_jun/notes")}),
            env);
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    EXPECT_EQ(QJsonDocument::fromJson(r.out).object().value(QStringLiteral("Versions")).toArray().size(), 1);

    const ToolRun wrong = run(awsPath,
                              aws({QStringLiteral("s3api"),
                                   QStringLiteral("list-objects-v2"),
                                   QStringLiteral("--bucket"),
                                   QStringLiteral("datasets")}),
                              awsEnv(QStringLiteral("wrong-secret")));
    EXPECT_NE(wrong.exitCode, 0);
    EXPECT_TRUE(wrong.err.contains("SignatureDoesNotMatch")) << wrong.err.toStdString();
    EXPECT_GE((*grid)->store().operationCounts().at("ListObjectsV2"), 2);
}

TEST_F(GridClients, S3cmd_ListsPutsAndGets_AndWrongSecretIsRefused)
{
    QString s3cmd;
    if (!need(QStringLiteral("s3cmd"), &s3cmd)) {
        GTEST_SKIP() << "s3cmd is not installed";
    }
    const QUrl endpoint((*grid)->s3Url());
    const QString hostPort = QStringLiteral("%1:%2").arg(endpoint.host()).arg(endpoint.port());
    auto writeConfig = [&](const QString &name, const QString &secret) {
        const QString path = dir.filePath(name);
        QFile cfg(path);
        EXPECT_TRUE(cfg.open(QIODevice::WriteOnly));
        cfg.write(QStringLiteral("[default]\naccess_key = %1\nsecret_key = %2\nhost_base = %3\nhost_bucket = %3\n"
                                 "use_https = False\nsignature_v2 = False\nbucket_location = us-east-1\n")
                      .arg((*grid)->options().s3AccessKey, secret, hostPort)
                      .toUtf8());
        return path;
    };
    const QString good = writeConfig(QStringLiteral("s3cfg"), (*grid)->options().s3SecretKey);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), dir.path());

    ToolRun r =
        run(s3cmd,
            {QStringLiteral("-c"), good, QStringLiteral("ls"), QStringLiteral("s3://datasets/misc_base1/data/")},
            env);
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    EXPECT_EQ(r.out.count("s3://datasets/misc_base1/data/chunk-"), 20) << r.out.toStdString();

    QFile file(dir.filePath(QStringLiteral("label.csv")));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("id,label\n1,fraud\n2,ok\n");
    file.close();
    r = run(s3cmd,
            {QStringLiteral("-c"),
             good,
             QStringLiteral("put"),
             file.fileName(),
             QStringLiteral("s3://datasets/misc_base1/labels-extra.csv")},
            env);
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString() << r.out.toStdString();
    const auto stored = (*grid)->store().head("datasets", "misc_base1/labels-extra.csv");
    ASSERT_TRUE(stored);
    EXPECT_EQ(stored->body(), std::string("id,label\n1,fraud\n2,ok\n"));
    r = run(s3cmd,
            {QStringLiteral("-c"),
             good,
             QStringLiteral("get"),
             QStringLiteral("--force"),
             QStringLiteral("s3://datasets/fraud_may/README.md"),
             dir.filePath(QStringLiteral("may.md"))},
            env);
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    QFile may(dir.filePath(QStringLiteral("may.md")));
    ASSERT_TRUE(may.open(QIODevice::ReadOnly));
    EXPECT_EQ(may.readAll().toStdString(), (*grid)->store().head("datasets", "fraud_may/README.md")->body());

    const QString bad = writeConfig(QStringLiteral("s3cfg-bad"), QStringLiteral("wrong-secret"));
    r = run(s3cmd, {QStringLiteral("-c"), bad, QStringLiteral("ls"), QStringLiteral("s3://datasets/")}, env);
    EXPECT_NE(r.exitCode, 0);
    EXPECT_TRUE(QByteArray(r.err + r.out).contains("SignatureDoesNotMatch")) << r.err.toStdString();
}

TEST_F(GridClients, AnsibleCollection_ReadsGridAndTenantInfo)
{
    QString playbook;
    if (!need(QStringLiteral("ansible-playbook"), &playbook)) {
        GTEST_SKIP() << "ansible-playbook is not installed";
    }
    const QString caPath = dir.filePath(QStringLiteral("ca.pem"));
    QFile ca(caPath);
    ASSERT_TRUE(ca.open(QIODevice::WriteOnly) && ca.write((*grid)->caPem()) > 0);
    ca.close();
    QFile templ(QStringLiteral(STRATA_SOURCE_DIR "/tests/simulators/ansible/storagegrid_info.yml"));
    ASSERT_TRUE(templ.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(templ.readAll());
    const QUrl base((*grid)->managementUrl());
    const QString output = dir.filePath(QStringLiteral("out.json"));
    const TenantSpec science = (*grid)->tenants().front();
    const QHash<QString, QString> vars{{QStringLiteral("HOST"), base.host()},
                                       {QStringLiteral("PORT"), QString::number(base.port())},
                                       {QStringLiteral("PASSWORD"), (*grid)->options().rootPassword},
                                       {QStringLiteral("ACCOUNT"), science.id},
                                       {QStringLiteral("TENANT_PASSWORD"), science.rootPassword},
                                       {QStringLiteral("OUTPUT"), output}};
    for (auto it = vars.cbegin(); it != vars.cend(); ++it) {
        text.replace(QLatin1Char('@') + it.key() + QLatin1Char('@'), it.value());
    }
    QFile rendered(dir.filePath(QStringLiteral("play.yml")));
    ASSERT_TRUE(rendered.open(QIODevice::WriteOnly));
    rendered.write(text.toUtf8());
    rendered.close();
    QDir(dir.path()).mkpath(QStringLiteral("home"));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), dir.filePath(QStringLiteral("home")));
    env.insert(QStringLiteral("ANSIBLE_LOCAL_TEMP"), dir.filePath(QStringLiteral("local-tmp")));
    env.insert(QStringLiteral("ANSIBLE_REMOTE_TEMP"), dir.filePath(QStringLiteral("remote-tmp")));
    env.insert(QStringLiteral("ANSIBLE_NOCOLOR"), QStringLiteral("1"));
    env.insert(QStringLiteral("ANSIBLE_LOCALHOST_WARNING"), QStringLiteral("False"));
    env.insert(QStringLiteral("ANSIBLE_INVENTORY_UNPARSED_WARNING"), QStringLiteral("False"));
    env.insert(QStringLiteral("ANSIBLE_PYTHON_INTERPRETER"), QStringLiteral("/usr/bin/python3"));
    env.insert(QStringLiteral("ANSIBLE_CONFIG"), dir.filePath(QStringLiteral("none.cfg")));
    env.insert(QStringLiteral("REQUESTS_CA_BUNDLE"), caPath);
    env.insert(QStringLiteral("SSL_CERT_FILE"), caPath);
    const ToolRun r = run(playbook,
                          {QStringLiteral("-i"),
                           QStringLiteral("localhost,"),
                           QStringLiteral("-c"),
                           QStringLiteral("local"),
                           rendered.fileName()},
                          env,
                          180000);
    ASSERT_EQ(r.exitCode, 0) << r.out.toStdString() << r.err.toStdString();
    QFile out(output);
    ASSERT_TRUE(out.open(QIODevice::ReadOnly));
    const QJsonObject result = QJsonDocument::fromJson(out.readAll()).object();
    const QJsonObject gridInfo = result.value(QStringLiteral("grid")).toObject();
    const QJsonArray accounts =
        gridInfo.value(QStringLiteral("grid/accounts")).toObject().value(QStringLiteral("data")).toArray();
    ASSERT_EQ(accounts.size(), 2);
    EXPECT_EQ(gridInfo.value(QStringLiteral("grid/health"))
                  .toObject()
                  .value(QStringLiteral("data"))
                  .toObject()
                  .value(QStringLiteral("nodes"))
                  .toObject()
                  .value(QStringLiteral("connected"))
                  .toInt(),
              5);
    EXPECT_EQ(gridInfo.value(QStringLiteral("grid/health/topology"))
                  .toObject()
                  .value(QStringLiteral("data"))
                  .toObject()
                  .value(QStringLiteral("name")),
              QStringLiteral("datalake"));
    EXPECT_EQ(gridInfo.value(QStringLiteral("versions")).toObject().value(QStringLiteral("data")).toArray(),
              (QJsonArray{3, 4}));
    const QJsonObject org = result.value(QStringLiteral("org")).toObject();
    const QJsonArray containers =
        org.value(QStringLiteral("org/containers")).toObject().value(QStringLiteral("data")).toArray();
    ASSERT_EQ(containers.size(), 1);
    EXPECT_EQ(containers[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("datasets"));
    EXPECT_EQ(org.value(QStringLiteral("org/usage"))
                  .toObject()
                  .value(QStringLiteral("data"))
                  .toObject()
                  .value(QStringLiteral("dataBytes"))
                  .toInteger(),
              290'200'000);
    EXPECT_EQ((*grid)->authorizations(), 2);
}

TEST(StorageGridSimCli, PrintsUrlsAndCredentials_ServesBothPorts_StopsOnSigterm)
{
    const QString strataSim = QStringLiteral(STRATA_BINARY_DIR "/simulators/strata-sim");
    if (!QFileInfo::exists(strataSim)) {
        if (qEnvironmentVariableIsSet("STRATA_REQUIRE_ALL")) {
            FAIL() << "strata-sim is not built: " << strataSim.toStdString();
        }
        GTEST_SKIP() << "strata-sim is not built";
    }
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString caPath = dir.filePath(QStringLiteral("ca.pem"));
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(strataSim,
                  {QStringLiteral("storagegrid"),
                   QStringLiteral("--cert-out"),
                   caPath,
                   QStringLiteral("--password"),
                   QStringLiteral("grid-pass")});
    ASSERT_TRUE(process.waitForStarted(5000));
    QByteArray output;
    QDeadlineTimer deadline(60000);
    while (!output.contains("Press Ctrl+C") && !deadline.hasExpired() && process.state() == QProcess::Running) {
        process.waitForReadyRead(200);
        output += process.readAll();
    }
    ASSERT_TRUE(output.contains("Press Ctrl+C")) << output.toStdString();
    const auto management =
        QRegularExpression(QStringLiteral("Management API: (https://\\S+)/api/v4")).match(QString::fromUtf8(output));
    const auto s3 = QRegularExpression(QStringLiteral("S3 endpoint: (http://\\S+) ")).match(QString::fromUtf8(output));
    ASSERT_TRUE(management.hasMatch() && s3.hasMatch()) << output.toStdString();
    EXPECT_TRUE(output.contains("grid \"datalake\", 2 tenants")) << output.toStdString();
    EXPECT_TRUE(output.contains("root / grid-pass"));
    EXPECT_TRUE(output.contains("SGSIMDATASCIENCE0001 / strata-sim-s3-secret-datascience"));
    EXPECT_TRUE(output.contains(QByteArray("aws --endpoint-url " + s3.captured(1).toUtf8()))) << output.toStdString();

    QFile ca(caPath);
    ASSERT_TRUE(ca.open(QIODevice::ReadOnly));
    strata::testsupport::ontapsim::QnamClient api(management.captured(1), ca.readAll(), {}, {});
    api.setAuthorization({});
    const HttpResult versions = api.get(QStringLiteral("/api/versions"));
    EXPECT_EQ(versions.status, 200) << versions.body.toStdString();
    const HttpResult login = api.post(QStringLiteral("/api/v4/authorize"),
                                      QJsonObject{{QStringLiteral("username"), QStringLiteral("root")},
                                                  {QStringLiteral("password"), QStringLiteral("grid-pass")}});
    EXPECT_EQ(login.status, 200) << login.body.toStdString();
    strata::testsupport::ontapsim::QnamClient anonymous(s3.captured(1), {}, {}, {});
    anonymous.setAuthorization({});
    const HttpResult denied = anonymous.get(QStringLiteral("/datasets"));
    EXPECT_EQ(denied.status, 403);
    EXPECT_EQ(xmlValue(denied.body, QStringLiteral("Code")), QStringLiteral("AccessDenied"));

    ::kill(pid_t(process.processId()), SIGTERM);
    EXPECT_TRUE(process.waitForFinished(10000));
    EXPECT_EQ(process.exitStatus(), QProcess::NormalExit);
    EXPECT_EQ(process.exitCode(), 0);

    process.start(strataSim, {QStringLiteral("storagegrid"), QStringLiteral("--preset"), QStringLiteral("moon")});
    ASSERT_TRUE(process.waitForFinished(10000));
    EXPECT_NE(process.exitCode(), 0);
    EXPECT_TRUE(process.readAll().contains("datalake or empty"));
}
