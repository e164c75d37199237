// Headless deployment files checked by their real tools: the systemd unit with
// `systemd-analyze verify` and the offline `systemd-analyze security` assessment, its sysusers.d
// entry with `systemd-sysusers --root`, and the Helm chart with a real Helm 3 (`helm lint
// --strict`, `helm template`), the rendered manifests read back as YAML by python3.
// Each skips when its tool is missing, unless STRATA_REQUIRE_ALL is set
// (packaging/helm/install-helm.sh installs helm). The .deb's CPack settings are read from the
// configured build's CPackConfig.cmake by cmake itself, and the packages owning the Qt plugins
// the binaries load are looked up with dpkg-query.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLibraryInfo>
#include <QMap>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <gtest/gtest.h>

namespace strata::web::test {
namespace {

const QString kSourceDir = QStringLiteral(STRATA_SOURCE_DIR);

#define SKIP_OR_FAIL_WITHOUT(tool, hint)                                                                               \
    if (QStandardPaths::findExecutable(QStringLiteral(tool)).isEmpty()) {                                              \
        if (qEnvironmentVariableIsSet("STRATA_REQUIRE_ALL")) {                                                         \
            FAIL() << tool " is needed (" hint ") and STRATA_REQUIRE_ALL is set";                                      \
        }                                                                                                              \
        GTEST_SKIP() << tool " is not installed (" hint ")";                                                           \
    }

struct ToolRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

ToolRun run(const QString &program, const QStringList &arguments, const QByteArray &input = {}, const QString &cwd = {})
{
    QProcess process;
    if (!cwd.isEmpty()) {
        process.setWorkingDirectory(cwd);
    }
    process.start(QStandardPaths::findExecutable(program), arguments);
    ToolRun result;
    if (!process.waitForStarted(10000)) {
        result.err = process.errorString().toUtf8();
        return result;
    }
    if (!input.isEmpty()) {
        process.write(input);
    }
    process.closeWriteChannel();
    if (!process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished();
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

QByteArray readFilePackaging(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// ---- systemd ----

class SystemdUnit : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_template = readFilePackaging(kSourceDir + QStringLiteral("/packaging/systemd/strata-server.service.in"));
        ASSERT_FALSE(m_template.isEmpty());
    }

    /// The unit as CMake installs it, with ExecStart pointing at an executable that exists here
    /// (verify checks it): the built strata-server, else /bin/true.
    QString render(QByteArray text, const QString &name = QStringLiteral("strata-server.service"))
    {
        QString binary = QStringLiteral(STRATA_BINARY_DIR "/app/server/strata-server");
        if (!QFileInfo(binary).isExecutable()) {
            binary = QStandardPaths::findExecutable(QStringLiteral("true"));
        }
        text.replace("@STRATA_SERVER_BINARY@", binary.toUtf8());
        const QString path = m_dir.filePath(name);
        QFile f(path);
        EXPECT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(text);
        return path;
    }

    QTemporaryDir m_dir;
    QByteArray m_template;
};

TEST_F(SystemdUnit, Verify_AcceptsTheUnitWithoutWarnings)
{
    SKIP_OR_FAIL_WITHOUT("systemd-analyze", "apt-get install systemd");
    const ToolRun verify = run(QStringLiteral("systemd-analyze"), {QStringLiteral("verify"), render(m_template)});
    EXPECT_EQ(verify.exitCode, 0) << verify.err.toStdString();
    // Unknown keys are only warnings (exit 0): none may be printed.
    EXPECT_TRUE(verify.err.trimmed().isEmpty()) << verify.err.toStdString();
    EXPECT_TRUE(verify.out.trimmed().isEmpty()) << verify.out.toStdString();

    // The same check reports a misspelled hardening key and a missing binary.
    QByteArray misspelled = m_template;
    misspelled.replace("ProtectSystem=strict", "ProtectSystm=strict");
    const ToolRun bad = run(QStringLiteral("systemd-analyze"),
                            {QStringLiteral("verify"), render(misspelled, QStringLiteral("bad.service"))});
    EXPECT_TRUE(bad.err.contains("Unknown key 'ProtectSystm'")) << bad.err.toStdString();
    QByteArray missing = m_template;
    missing.replace("@STRATA_SERVER_BINARY@", "/nonexistent/strata-server");
    const ToolRun gone = run(QStringLiteral("systemd-analyze"),
                             {QStringLiteral("verify"), render(missing, QStringLiteral("gone.service"))});
    EXPECT_NE(gone.exitCode, 0);
}

TEST_F(SystemdUnit, SecurityAssessment_ExposureAtMostTwo)
{
    SKIP_OR_FAIL_WITHOUT("systemd-analyze", "apt-get install systemd");
    // --threshold is in tenths: exposure 2.0 ("OK") or better, else a non-zero exit.
    const ToolRun security = run(QStringLiteral("systemd-analyze"),
                                 {QStringLiteral("security"),
                                  QStringLiteral("--offline=yes"),
                                  QStringLiteral("--threshold=20"),
                                  render(m_template)});
    EXPECT_EQ(security.exitCode, 0) << security.out.toStdString() << security.err.toStdString();
    EXPECT_TRUE(security.out.contains("Overall exposure level for strata-server.service"))
        << security.out.toStdString();

    // Dropping the hardening raises the exposure over the threshold: the check can fail.
    QByteArray soft;
    for (const QByteArray &line : m_template.split('\n')) {
        if (line.startsWith("ExecStart") || line.startsWith('[') || line.startsWith("Type=")) {
            soft += line + '\n';
        }
    }
    const ToolRun weak = run(QStringLiteral("systemd-analyze"),
                             {QStringLiteral("security"),
                              QStringLiteral("--offline=yes"),
                              QStringLiteral("--threshold=20"),
                              render(soft, QStringLiteral("soft.service"))});
    EXPECT_NE(weak.exitCode, 0) << weak.out.toStdString();
}

TEST_F(SystemdUnit, Unit_RunsServeWithConfigStateAndCredentials)
{
    const QString unit = QString::fromUtf8(m_template);
    for (const char *line : {
             "ExecStart=@STRATA_SERVER_BINARY@ serve --config /etc/strata/config.json --users "
             "/var/lib/strata/users.json",
             "User=strata",
             "StateDirectory=strata",
             "ConfigurationDirectory=strata",
             "Environment=STRATA_SECRETS_DIR=%d",
             "ProtectSystem=strict",
             "NoNewPrivileges=yes",
             "CapabilityBoundingSet=",
             "LimitNOFILE=65536", // room for --max-connections
             "[Install]",
         }) {
        EXPECT_TRUE(unit.split(QLatin1Char('\n')).contains(QString::fromUtf8(line))) << line;
    }
}

TEST(SystemdSysusers, CreatesTheStrataSystemUserInAnImageRoot)
{
    SKIP_OR_FAIL_WITHOUT("systemd-sysusers", "apt-get install systemd");
    QTemporaryDir root;
    ASSERT_TRUE(root.isValid());
    ASSERT_TRUE(QDir(root.path()).mkpath(QStringLiteral("etc")));
    const ToolRun sysusers = run(QStringLiteral("systemd-sysusers"),
                                 {QStringLiteral("--root=") + root.path(),
                                  kSourceDir + QStringLiteral("/packaging/systemd/strata-server.sysusers.conf")});
    ASSERT_EQ(sysusers.exitCode, 0) << sysusers.err.toStdString();
    const QByteArray passwd = readFilePackaging(root.filePath(QStringLiteral("etc/passwd")));
    const QList<QByteArray> fields = passwd.trimmed().split(':');
    ASSERT_EQ(fields.size(), 7) << passwd.toStdString();
    EXPECT_EQ(fields[0], "strata");
    EXPECT_LT(fields[2].toInt(), 1000); // a system user
    EXPECT_EQ(fields[5], "/var/lib/strata");
    EXPECT_TRUE(fields[6].endsWith("nologin"));
}

// ---- Debian package (CPack) ----

/// `names` as CPackConfig.cmake (written by include(CPack) in every configured build) sets them,
/// read by cmake -P so the values are exactly what cpack sees. Empty on error (in `error`).
QMap<QString, QString> cpackConfigValues(const QStringList &names, QString *error)
{
    QTemporaryDir dir;
    QString script = QStringLiteral("include(\"" STRATA_BINARY_DIR "/CPackConfig.cmake\")\n");
    for (const QString &name : names) {
        script += QStringLiteral("message(\"%1=${%1}\")\n").arg(name);
    }
    const QString path = dir.filePath(QStringLiteral("read.cmake"));
    QFile f(path);
    if (!dir.isValid() || !f.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("cannot write %1").arg(path);
        return {};
    }
    f.write(script.toUtf8());
    f.close();
    const ToolRun cmake = run(QStringLiteral("cmake"), {QStringLiteral("-P"), path});
    if (cmake.exitCode != 0) {
        *error = QString::fromUtf8(cmake.err);
        return {};
    }
    QMap<QString, QString> values;
    for (const QString &line : QString::fromUtf8(cmake.err).split(QLatin1Char('\n'))) {
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq > 0 && names.contains(line.left(eq))) {
            values.insert(line.left(eq), line.mid(eq + 1));
        }
    }
    return values;
}

/// Package names of a Debian Depends field, without version constraints or alternatives' bars.
QStringList debDependsNames(const QString &field)
{
    QStringList names;
    for (const QString &clause : field.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        for (const QString &alternative : clause.split(QLatin1Char('|'), Qt::SkipEmptyParts)) {
            names.append(alternative.trimmed().section(QLatin1Char(' '), 0, 0).section(QLatin1Char('('), 0, 0));
        }
    }
    return names;
}

/// The installed package that owns `path` (dpkg-query -S), empty when none does.
QString debOwnerOf(const QString &path)
{
    const ToolRun query = run(QStringLiteral("dpkg-query"), {QStringLiteral("-S"), path});
    return query.exitCode == 0 ? QString::fromUtf8(query.out).section(QLatin1Char(':'), 0, 0).trimmed() : QString();
}

const QStringList kDebSettings{QStringLiteral("CPACK_GENERATOR"),
                               QStringLiteral("CPACK_DEBIAN_DEBUGINFO_PACKAGE"),
                               QStringLiteral("CPACK_STRIP_FILES"),
                               QStringLiteral("CPACK_DEBIAN_PACKAGE_SHLIBDEPS"),
                               QStringLiteral("CPACK_DEBIAN_PACKAGE_DEPENDS")};

bool cpackFlagOn(const QString &value)
{
    static const QStringList kTrue{
        QStringLiteral("1"), QStringLiteral("ON"), QStringLiteral("YES"), QStringLiteral("TRUE"), QStringLiteral("Y")};
    return kTrue.contains(value.toUpper());
}

TEST(DebPackage, StripsBinaries_DebugInfoSplitIntoDbgsym)
{
    SKIP_OR_FAIL_WITHOUT("cmake", "apt-get install cmake");
    QString error;
    const QMap<QString, QString> cpack = cpackConfigValues(kDebSettings, &error);
    ASSERT_FALSE(cpack.isEmpty()) << error.toStdString();
    EXPECT_EQ(cpack.value(QStringLiteral("CPACK_GENERATOR")), QStringLiteral("DEB"));
    // The DEB generator strips the ELF files of strata_*.deb and writes their debug info to
    // strata-dbgsym_*.ddeb; CPACK_STRIP_FILES would strip earlier and leave nothing to split.
    EXPECT_TRUE(cpackFlagOn(cpack.value(QStringLiteral("CPACK_DEBIAN_DEBUGINFO_PACKAGE"))));
    EXPECT_FALSE(cpackFlagOn(cpack.value(QStringLiteral("CPACK_STRIP_FILES"))));
    EXPECT_TRUE(cpackFlagOn(cpack.value(QStringLiteral("CPACK_DEBIAN_PACKAGE_SHLIBDEPS"))));
}

TEST(DebPackage, DependsOnTheQtPluginsShlibdepsCannotSee)
{
    SKIP_OR_FAIL_WITHOUT("cmake", "apt-get install cmake");
    QString error;
    const QMap<QString, QString> cpack = cpackConfigValues(kDebSettings, &error);
    ASSERT_FALSE(cpack.isEmpty()) << error.toStdString();
    const QStringList declared = debDependsNames(cpack.value(QStringLiteral("CPACK_DEBIAN_PACKAGE_DEPENDS")));
    EXPECT_TRUE(declared.contains(QStringLiteral("libqt6sql6-sqlite"))) << declared.join(u',').toStdString();
    EXPECT_TRUE(declared.contains(QStringLiteral("libsecret-1-0"))) << declared.join(u',').toStdString();

    // On this system: each plugin loaded at run time belongs to a declared package, or to the
    // package of a Qt library the binaries link (which dpkg-shlibdeps adds).
    SKIP_OR_FAIL_WITHOUT("dpkg-query", "a Debian system");
    const QString plugins = QLibraryInfo::path(QLibraryInfo::PluginsPath);
    const QString libraries = QLibraryInfo::path(QLibraryInfo::LibrariesPath);
    struct Plugin
    {
        QString file;
        QString linkedLibrary; ///< empty: only a declared dependency brings the plugin
        bool desktopOnly = false;
    };
    const QList<Plugin> loaded{
        {QStringLiteral("sqldrivers/libqsqlite.so"), {}},
        {QStringLiteral("tls/libqopensslbackend.so"), QStringLiteral("libQt6Network.so.6")},
        {QStringLiteral("platforms/libqxcb.so"), QStringLiteral("libQt6Gui.so.6"), true},
    };
    for (const Plugin &plugin : loaded) {
        const QString path = plugins + QLatin1Char('/') + plugin.file;
        if (!QFileInfo::exists(path)) {
            if (plugin.desktopOnly) {
                continue; // a headless build packages no desktop app
            }
            ADD_FAILURE() << path.toStdString() << " is missing: the build cannot have used it";
            continue;
        }
        const QString owner = debOwnerOf(path);
        if (owner.isEmpty()) {
            GTEST_SKIP() << "Qt here is not Debian's (no package owns " << path.toStdString() << ")";
        }
        const bool viaLinked =
            !plugin.linkedLibrary.isEmpty() && debOwnerOf(libraries + QLatin1Char('/') + plugin.linkedLibrary) == owner;
        EXPECT_TRUE(declared.contains(owner) || viaLinked)
            << path.toStdString() << " is in " << owner.toStdString() << ", which the .deb does not depend on";
    }
}

// ---- Helm ----

const QString kChart = kSourceDir + QStringLiteral("/packaging/helm/strata-server");

/// `helm template` with `sets`, the documents as JSON objects (python3's yaml reads the YAML).
QJsonArray renderChart(const QStringList &sets, QString *error)
{
    QStringList arguments{QStringLiteral("template"),
                          QStringLiteral("demo"),
                          kChart,
                          QStringLiteral("--namespace"),
                          QStringLiteral("strata"),
                          QStringLiteral("--api-versions"),
                          QStringLiteral("monitoring.coreos.com/v1")};
    for (const QString &set : sets) {
        arguments << QStringLiteral("--set") << set;
    }
    const ToolRun helm = run(QStringLiteral("helm"), arguments);
    if (helm.exitCode != 0) {
        *error = QString::fromUtf8(helm.err);
        return {};
    }
    const ToolRun python =
        run(QStringLiteral("python3"),
            {QStringLiteral("-c"),
             QStringLiteral("import sys, json, yaml\n"
                            "json.dump([d for d in yaml.safe_load_all(sys.stdin) if d], sys.stdout)")},
            helm.out);
    if (python.exitCode != 0) {
        *error = QString::fromUtf8(python.err);
        return {};
    }
    return QJsonDocument::fromJson(python.out).array();
}

QJsonObject documentOfKind(const QJsonArray &documents, const QString &kind)
{
    for (const QJsonValue &d : documents) {
        if (d.toObject().value(QStringLiteral("kind")).toString() == kind) {
            return d.toObject();
        }
    }
    return {};
}

QStringList kinds(const QJsonArray &documents)
{
    QStringList out;
    for (const QJsonValue &d : documents) {
        out.append(d.toObject().value(QStringLiteral("kind")).toString());
    }
    out.sort();
    return out;
}

class HelmChart : public ::testing::Test
{
protected:
    void SetUp() override
    {
        for (const char *tool : {"helm", "python3"}) {
            if (QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty()) {
                if (qEnvironmentVariableIsSet("STRATA_REQUIRE_ALL")) {
                    FAIL() << tool << " is needed (packaging/helm/install-helm.sh) and STRATA_REQUIRE_ALL is set";
                }
                GTEST_SKIP() << tool << " is not installed (packaging/helm/install-helm.sh)";
            }
        }
        const ToolRun yaml = run(QStringLiteral("python3"), {QStringLiteral("-c"), QStringLiteral("import yaml")});
        if (yaml.exitCode != 0) {
            if (qEnvironmentVariableIsSet("STRATA_REQUIRE_ALL")) {
                FAIL() << "python3-yaml is needed and STRATA_REQUIRE_ALL is set";
            }
            GTEST_SKIP() << "python3-yaml is not installed";
        }
    }
};

TEST_F(HelmChart, LintStrict_DefaultAndFullValues)
{
    const ToolRun plain = run(QStringLiteral("helm"), {QStringLiteral("lint"), QStringLiteral("--strict"), kChart});
    EXPECT_EQ(plain.exitCode, 0) << plain.out.toStdString() << plain.err.toStdString();
    const ToolRun full = run(
        QStringLiteral("helm"),
        {QStringLiteral("lint"),
         QStringLiteral("--strict"),
         kChart,
         QStringLiteral("--set"),
         QStringLiteral(
             "ingress.enabled=true,serviceMonitor.enabled=true,prometheusRule.enabled=true,tls.secretName=strata-tls,"
             "secrets.ontap-ai.password=pw,existingSecret=ext,"
             "existingSecretKeys[0]=k8s.ai.token")});
    EXPECT_EQ(full.exitCode, 0) << full.out.toStdString() << full.err.toStdString();
}

TEST_F(HelmChart, PostgresStore_UrlArgumentPasswordFromSecretReadyzRollingAndABudget)
{
    QString error;
    const QJsonArray docs = renderChart({QStringLiteral("store.url=postgresql://strata@pg-rw:5432/strata"),
                                         QStringLiteral("store.passwordSecret.name=pg-app"),
                                         QStringLiteral("replicaCount=3")},
                                        &error);
    ASSERT_FALSE(docs.isEmpty()) << error.toStdString();
    const QJsonObject deployment = documentOfKind(docs, QStringLiteral("Deployment"));
    EXPECT_EQ(deployment[QStringLiteral("spec")][QStringLiteral("replicas")].toInt(), 3);
    EXPECT_EQ(deployment[QStringLiteral("spec")][QStringLiteral("strategy")][QStringLiteral("type")].toString(),
              QStringLiteral("RollingUpdate"));
    const QJsonObject container = deployment[QStringLiteral("spec")][QStringLiteral("template")][QStringLiteral("spec")]
                                            [QStringLiteral("containers")]
                                                .toArray()
                                                .at(0)
                                                .toObject();
    QStringList args;
    for (const QJsonValue &a : container[QStringLiteral("args")].toArray()) {
        args.append(a.toString());
    }
    EXPECT_EQ(args.value(args.indexOf(QStringLiteral("--store")) + 1),
              QStringLiteral("postgresql://strata@pg-rw:5432/strata"));
    QJsonObject passwordEnv;
    for (const QJsonValue &e : container[QStringLiteral("env")].toArray()) {
        if (e[QStringLiteral("name")].toString() == QLatin1String("STRATA_SECRET_STORE_PASSWORD")) {
            passwordEnv = e.toObject();
        }
    }
    const QJsonObject ref = passwordEnv[QStringLiteral("valueFrom")][QStringLiteral("secretKeyRef")].toObject();
    EXPECT_EQ(ref[QStringLiteral("name")].toString(), QStringLiteral("pg-app"));
    EXPECT_EQ(ref[QStringLiteral("key")].toString(), QStringLiteral("password"));
    // Replicas are named after their pods and hold their sources for the lease time.
    EXPECT_EQ(args.value(args.indexOf(QStringLiteral("--lease-seconds")) + 1), QStringLiteral("10"));
    QString replicaIdField;
    for (const QJsonValue &e : container[QStringLiteral("env")].toArray()) {
        if (e[QStringLiteral("name")].toString() == QLatin1String("STRATA_REPLICA_ID")) {
            replicaIdField =
                e[QStringLiteral("valueFrom")][QStringLiteral("fieldRef")][QStringLiteral("fieldPath")].toString();
        }
    }
    EXPECT_EQ(replicaIdField, QStringLiteral("metadata.name"));
    EXPECT_EQ(container[QStringLiteral("readinessProbe")][QStringLiteral("httpGet")][QStringLiteral("path")].toString(),
              QStringLiteral("/readyz"));
    EXPECT_EQ(container[QStringLiteral("livenessProbe")][QStringLiteral("httpGet")][QStringLiteral("path")].toString(),
              QStringLiteral("/livez"));
    const QJsonObject budget = documentOfKind(docs, QStringLiteral("PodDisruptionBudget"));
    EXPECT_EQ(budget[QStringLiteral("spec")][QStringLiteral("minAvailable")].toInt(), 1);
    // The password is nowhere in the rendered manifests but as a reference.
    EXPECT_FALSE(QJsonDocument(docs).toJson().contains("STRATA_SECRET_STORE_PASSWORD\",\"value\""));

    // The default: SQLite on the volume, one replica, Recreate, no budget.
    const QJsonArray defaults = renderChart({}, &error);
    const QJsonObject single = documentOfKind(defaults, QStringLiteral("Deployment"));
    EXPECT_EQ(single[QStringLiteral("spec")][QStringLiteral("strategy")][QStringLiteral("type")].toString(),
              QStringLiteral("Recreate"));
    EXPECT_TRUE(documentOfKind(defaults, QStringLiteral("PodDisruptionBudget")).isEmpty());
}

TEST_F(HelmChart, Defaults_DeploymentServiceConfigMapAndClaim_NonRootReadOnly)
{
    QString error;
    const QJsonArray docs = renderChart({}, &error);
    ASSERT_FALSE(docs.isEmpty()) << error.toStdString();
    EXPECT_EQ(kinds(docs),
              (QStringList{QStringLiteral("ConfigMap"),
                           QStringLiteral("Deployment"),
                           QStringLiteral("PersistentVolumeClaim"),
                           QStringLiteral("Service")}));

    const QJsonObject deployment = documentOfKind(docs, QStringLiteral("Deployment"));
    const QJsonObject pod =
        deployment[QStringLiteral("spec")][QStringLiteral("template")][QStringLiteral("spec")].toObject();
    EXPECT_TRUE(pod[QStringLiteral("securityContext")][QStringLiteral("runAsNonRoot")].toBool());
    EXPECT_FALSE(pod[QStringLiteral("automountServiceAccountToken")].toBool(true));
    const QJsonObject container = pod[QStringLiteral("containers")].toArray().at(0).toObject();
    const QJsonObject security = container[QStringLiteral("securityContext")].toObject();
    EXPECT_TRUE(security[QStringLiteral("readOnlyRootFilesystem")].toBool());
    EXPECT_FALSE(security[QStringLiteral("allowPrivilegeEscalation")].toBool(true));
    EXPECT_EQ(security[QStringLiteral("capabilities")][QStringLiteral("drop")].toArray().at(0).toString(),
              QStringLiteral("ALL"));
    EXPECT_EQ(container[QStringLiteral("readinessProbe")][QStringLiteral("httpGet")][QStringLiteral("path")].toString(),
              QStringLiteral("/healthz"));
    EXPECT_EQ(
        container[QStringLiteral("readinessProbe")][QStringLiteral("httpGet")][QStringLiteral("scheme")].toString(),
        QStringLiteral("HTTP"));
    QStringList args;
    for (const QJsonValue &a : container[QStringLiteral("args")].toArray()) {
        args.append(a.toString());
    }
    EXPECT_EQ(args.mid(0, 5),
              (QStringList{QStringLiteral("serve"),
                           QStringLiteral("--config"),
                           QStringLiteral("/etc/strata/config.json"),
                           QStringLiteral("--listen"),
                           QStringLiteral("0.0.0.0:8080")}));
    EXPECT_FALSE(args.contains(QStringLiteral("--tls-cert")));
    // In-cluster clients reach it by the Service's names; other Host headers are refused.
    QStringList hosts;
    for (qsizetype i = args.indexOf(QStringLiteral("--allow-host")); i >= 0 && i + 1 < args.size();
         i = args.indexOf(QStringLiteral("--allow-host"), i + 1)) {
        hosts << args.at(i + 1);
    }
    EXPECT_TRUE(hosts.contains(QStringLiteral("demo-strata-server.strata.svc"))) << hosts.join(u' ').toStdString();
    EXPECT_TRUE(hosts.contains(QStringLiteral("demo-strata-server.strata.svc.cluster.local")));
    EXPECT_EQ(args.value(args.indexOf(QStringLiteral("--max-connections")) + 1), QStringLiteral("1000"));
    EXPECT_EQ(args.value(args.indexOf(QStringLiteral("--max-connections-per-client")) + 1), QStringLiteral("64"));

    // The config is valid JSON in the ConfigMap; no secrets volume without secrets.
    const QJsonObject configMap = documentOfKind(docs, QStringLiteral("ConfigMap"));
    QJsonParseError parse;
    QJsonDocument::fromJson(configMap[QStringLiteral("data")][QStringLiteral("config.json")].toString().toUtf8(),
                            &parse);
    EXPECT_EQ(parse.error, QJsonParseError::NoError);
    for (const QJsonValue &v : pod[QStringLiteral("volumes")].toArray()) {
        EXPECT_NE(v[QStringLiteral("name")].toString(), QStringLiteral("secrets"));
    }
}

TEST_F(HelmChart, Secrets_MountedAsSourceKindFiles_NotInTheConfigMap)
{
    QString error;
    const QJsonArray docs =
        renderChart({QStringLiteral("secrets.ontap-ai.password=s3cr3t-pw"),
                     QStringLiteral("secrets.datalake.s3_secret=s3-key"),
                     QStringLiteral("existingSecret=corp-secrets"),
                     QStringLiteral("existingSecretKeys[0]=k8s.ai.token"),
                     QStringLiteral("config.sources[0].name=ontap-ai"),
                     QStringLiteral("config.sources[0].kind=ontap"),
                     QStringLiteral("config.sources[0].password.keychain=strata/ontap-ai/password")},
                    &error);
    ASSERT_FALSE(docs.isEmpty()) << error.toStdString();
    const QJsonObject secret = documentOfKind(docs, QStringLiteral("Secret"));
    const QJsonObject data = secret[QStringLiteral("data")].toObject();
    EXPECT_EQ(QByteArray::fromBase64(data[QStringLiteral("ontap-ai.password")].toString().toLatin1()), "s3cr3t-pw");
    EXPECT_EQ(QByteArray::fromBase64(data[QStringLiteral("datalake.s3_secret")].toString().toLatin1()), "s3-key");

    const QJsonObject configMap = documentOfKind(docs, QStringLiteral("ConfigMap"));
    const QString config = configMap[QStringLiteral("data")][QStringLiteral("config.json")].toString();
    EXPECT_FALSE(config.contains(QStringLiteral("s3cr3t-pw")));
    const QJsonObject parsed = QJsonDocument::fromJson(config.toUtf8()).object();
    EXPECT_EQ(parsed[QStringLiteral("sources")][0][QStringLiteral("password")][QStringLiteral("keychain")].toString(),
              QStringLiteral("strata/ontap-ai/password"));

    const QJsonObject pod =
        documentOfKind(
            docs,
            QStringLiteral("Deployment"))[QStringLiteral("spec")][QStringLiteral("template")][QStringLiteral("spec")]
            .toObject();
    QStringList paths;
    for (const QJsonValue &v : pod[QStringLiteral("volumes")].toArray()) {
        if (v[QStringLiteral("name")].toString() != QLatin1String("secrets")) {
            continue;
        }
        for (const QJsonValue &source : v[QStringLiteral("projected")][QStringLiteral("sources")].toArray()) {
            for (const QJsonValue &item : source[QStringLiteral("secret")][QStringLiteral("items")].toArray()) {
                paths.append(source[QStringLiteral("secret")][QStringLiteral("name")].toString() + QLatin1Char(':')
                             + item[QStringLiteral("key")].toString() + QStringLiteral("->")
                             + item[QStringLiteral("path")].toString());
            }
        }
    }
    paths.sort();
    EXPECT_EQ(paths,
              (QStringList{QStringLiteral("corp-secrets:k8s.ai.token->k8s.ai/token"),
                           QStringLiteral("demo-strata-server:datalake.s3_secret->datalake/s3_secret"),
                           QStringLiteral("demo-strata-server:ontap-ai.password->ontap-ai/password")}));
    const QJsonObject container = pod[QStringLiteral("containers")].toArray().at(0).toObject();
    bool secretsDir = false;
    for (const QJsonValue &e : container[QStringLiteral("env")].toArray()) {
        if (e[QStringLiteral("name")].toString() == QLatin1String("STRATA_SECRETS_DIR")) {
            secretsDir = e[QStringLiteral("value")].toString() == QLatin1String("/var/run/strata/secrets");
        }
    }
    EXPECT_TRUE(secretsDir);
    bool mounted = false;
    for (const QJsonValue &m : container[QStringLiteral("volumeMounts")].toArray()) {
        mounted |= m[QStringLiteral("name")].toString() == QLatin1String("secrets")
                   && m[QStringLiteral("mountPath")].toString() == QLatin1String("/var/run/strata/secrets");
    }
    EXPECT_TRUE(mounted);
}

TEST_F(HelmChart, IngressServiceMonitorAndTls_WhenEnabled)
{
    QString error;
    const QJsonArray docs = renderChart({QStringLiteral("ingress.enabled=true"),
                                         QStringLiteral("ingress.host=strata.corp.example"),
                                         QStringLiteral("serviceMonitor.enabled=true"),
                                         QStringLiteral("tls.secretName=strata-tls")},
                                        &error);
    ASSERT_FALSE(docs.isEmpty()) << error.toStdString();
    EXPECT_TRUE(kinds(docs).contains(QStringLiteral("Ingress")));
    const QJsonObject monitor = documentOfKind(docs, QStringLiteral("ServiceMonitor"));
    const QJsonObject endpoint = monitor[QStringLiteral("spec")][QStringLiteral("endpoints")][0].toObject();
    EXPECT_EQ(endpoint[QStringLiteral("path")].toString(), QStringLiteral("/metrics"));
    EXPECT_EQ(endpoint[QStringLiteral("scheme")].toString(), QStringLiteral("https"));
    EXPECT_EQ(monitor[QStringLiteral("spec")][QStringLiteral("selector")][QStringLiteral("matchLabels")]
                     [QStringLiteral("app.kubernetes.io/instance")]
                         .toString(),
              QStringLiteral("demo"));

    const QJsonObject container =
        documentOfKind(docs, QStringLiteral("Deployment"))[QStringLiteral("spec")][QStringLiteral("template")]
                                                          [QStringLiteral("spec")][QStringLiteral("containers")][0]
                                                              .toObject();
    QStringList args;
    for (const QJsonValue &a : container[QStringLiteral("args")].toArray()) {
        args.append(a.toString());
    }
    EXPECT_TRUE(args.contains(QStringLiteral("/etc/strata/tls/tls.crt")));
    EXPECT_EQ(args.at(args.indexOf(QStringLiteral("--allow-origin")) + 1),
              QStringLiteral("https://strata.corp.example"));
    // Behind the Ingress every connection comes from the controller: no per-address cap below the total.
    EXPECT_EQ(args.value(args.indexOf(QStringLiteral("--max-connections-per-client")) + 1), QStringLiteral("1000"));
    EXPECT_EQ(
        container[QStringLiteral("readinessProbe")][QStringLiteral("httpGet")][QStringLiteral("scheme")].toString(),
        QStringLiteral("HTTPS"));
}

QStringList containerArgs(const QJsonArray &docs)
{
    const QJsonObject container =
        documentOfKind(docs, QStringLiteral("Deployment"))[QStringLiteral("spec")][QStringLiteral("template")]
                                                          [QStringLiteral("spec")][QStringLiteral("containers")][0]
                                                              .toObject();
    QStringList args;
    for (const QJsonValue &a : container[QStringLiteral("args")].toArray()) {
        args.append(a.toString());
    }
    return args;
}

/// The rules of a PrometheusRule document by alert name.
QMap<QString, QJsonObject> rulesByAlert(const QJsonObject &prometheusRule)
{
    QMap<QString, QJsonObject> out;
    for (const QJsonValue &group : prometheusRule[QStringLiteral("spec")][QStringLiteral("groups")].toArray()) {
        for (const QJsonValue &rule : group[QStringLiteral("rules")].toArray()) {
            out.insert(rule[QStringLiteral("alert")].toString(), rule.toObject());
        }
    }
    return out;
}

TEST_F(HelmChart, MetricsToken_FromASecretInTheEnvironmentAndSentByTheServiceMonitor)
{
    QString error;
    const QJsonArray docs = renderChart({QStringLiteral("serviceMonitor.enabled=true"),
                                         QStringLiteral("metrics.tokenSecret.name=strata-scrape"),
                                         QStringLiteral("metrics.tokenSecret.key=bearer")},
                                        &error);
    ASSERT_FALSE(docs.isEmpty()) << error.toStdString();
    const QJsonObject endpoint =
        documentOfKind(docs, QStringLiteral("ServiceMonitor"))[QStringLiteral("spec")][QStringLiteral("endpoints")][0]
            .toObject();
    EXPECT_EQ(endpoint[QStringLiteral("bearerTokenSecret")][QStringLiteral("name")].toString(),
              QStringLiteral("strata-scrape"));
    EXPECT_EQ(endpoint[QStringLiteral("bearerTokenSecret")][QStringLiteral("key")].toString(),
              QStringLiteral("bearer"));
    const QJsonObject container =
        documentOfKind(docs, QStringLiteral("Deployment"))[QStringLiteral("spec")][QStringLiteral("template")]
                                                          [QStringLiteral("spec")][QStringLiteral("containers")][0]
                                                              .toObject();
    QJsonObject ref;
    for (const QJsonValue &e : container[QStringLiteral("env")].toArray()) {
        if (e[QStringLiteral("name")].toString() == QLatin1String("STRATA_METRICS_TOKEN")) {
            ref = e[QStringLiteral("valueFrom")][QStringLiteral("secretKeyRef")].toObject();
        }
    }
    EXPECT_EQ(ref[QStringLiteral("name")].toString(), QStringLiteral("strata-scrape"));
    EXPECT_EQ(ref[QStringLiteral("key")].toString(), QStringLiteral("bearer"));

    // Without a token Secret neither is there.
    const QJsonArray open = renderChart({QStringLiteral("serviceMonitor.enabled=true")}, &error);
    ASSERT_FALSE(open.isEmpty()) << error.toStdString();
    EXPECT_FALSE(
        documentOfKind(open, QStringLiteral("ServiceMonitor"))[QStringLiteral("spec")][QStringLiteral("endpoints")][0]
            .toObject()
            .contains(QStringLiteral("bearerTokenSecret")));
}

TEST_F(HelmChart, PrometheusRule_IsThePlainRulesFile_WithThresholdsAndLabelsFromValues)
{
    // Defaults: exactly the groups of packaging/prometheus/strata-alerts.yml (one file for both).
    QString error;
    const QJsonArray docs = renderChart({QStringLiteral("prometheusRule.enabled=true")}, &error);
    ASSERT_FALSE(docs.isEmpty()) << error.toStdString();
    QFile plainFile(kSourceDir + QStringLiteral("/packaging/prometheus/strata-alerts.yml"));
    ASSERT_TRUE(plainFile.open(QIODevice::ReadOnly));
    const ToolRun plain =
        run(QStringLiteral("python3"),
            {QStringLiteral("-c"),
             QStringLiteral("import sys, json, yaml\njson.dump(yaml.safe_load(sys.stdin), sys.stdout)")},
            plainFile.readAll());
    ASSERT_EQ(plain.exitCode, 0) << plain.err.toStdString();
    const QJsonArray plainGroups = QJsonDocument::fromJson(plain.out).object()[QStringLiteral("groups")].toArray();
    ASSERT_FALSE(plainGroups.isEmpty());
    const QJsonObject rule = documentOfKind(docs, QStringLiteral("PrometheusRule"));
    EXPECT_EQ(rule[QStringLiteral("spec")][QStringLiteral("groups")].toArray(), plainGroups);
    EXPECT_EQ(rulesByAlert(rule).size(), 7);

    // Thresholds replace the default throughout the rule; extra labels join every alert.
    const QJsonArray tuned = renderChart({QStringLiteral("prometheusRule.enabled=true"),
                                          QStringLiteral("prometheusRule.labels.release=kps"),
                                          QStringLiteral("prometheusRule.alertLabels.team=platform"),
                                          QStringLiteral("prometheusRule.thresholds.StrataGpusIdle=6h"),
                                          QStringLiteral("prometheusRule.thresholds.StrataJobPendingUnderQuota=45"),
                                          QStringLiteral("prometheusRule.thresholds.StrataCapacityFullSoon=30"),
                                          QStringLiteral("prometheusRule.thresholds.StrataVolumeAtThroughputCap=0.8")},
                                         &error);
    ASSERT_FALSE(tuned.isEmpty()) << error.toStdString();
    const QJsonObject tunedRule = documentOfKind(tuned, QStringLiteral("PrometheusRule"));
    EXPECT_EQ(tunedRule[QStringLiteral("metadata")][QStringLiteral("labels")][QStringLiteral("release")].toString(),
              QStringLiteral("kps"));
    const QMap<QString, QJsonObject> rules = rulesByAlert(tunedRule);
    const auto expr = [&](const char *alert) {
        return rules.value(QString::fromLatin1(alert))[QStringLiteral("expr")].toString();
    };
    const auto annotation = [&](const char *alert, const char *key) {
        return rules.value(QString::fromLatin1(alert))[QStringLiteral("annotations")][QLatin1String(key)].toString();
    };
    EXPECT_TRUE(expr("StrataGpusIdle").contains(QStringLiteral("[6h]"))) << expr("StrataGpusIdle").toStdString();
    EXPECT_TRUE(expr("StrataGpusIdle").contains(QStringLiteral("offset 6h")));
    EXPECT_FALSE(expr("StrataGpusIdle").contains(QStringLiteral("4h")));
    EXPECT_EQ(annotation("StrataGpusIdle", "threshold"), QStringLiteral("6h"));
    EXPECT_TRUE(annotation("StrataGpusIdle", "description").endsWith(QStringLiteral("for 6h.")));
    EXPECT_TRUE(expr("StrataJobPendingUnderQuota").contains(QStringLiteral("> 45 * 60")));
    EXPECT_TRUE(
        annotation("StrataJobPendingUnderQuota", "description").contains(QStringLiteral("more than 45 minutes")));
    EXPECT_TRUE(expr("StrataCapacityFullSoon").contains(QStringLiteral("< 30 * 86400")));
    EXPECT_TRUE(expr("StrataVolumeAtThroughputCap").contains(QStringLiteral(">= 0.8\n")));
    // Untouched thresholds keep their defaults.
    EXPECT_EQ(rules.value(QStringLiteral("StrataSourceDown"))[QStringLiteral("for")].toString(), QStringLiteral("10m"));
    for (const QJsonObject &r : rules) {
        EXPECT_EQ(r[QStringLiteral("labels")][QStringLiteral("team")].toString(), QStringLiteral("platform"));
        EXPECT_FALSE(r[QStringLiteral("labels")][QStringLiteral("severity")].toString().isEmpty());
    }

    // The tuned rules still load in Prometheus (JSON is YAML to promtool).
    if (QStandardPaths::findExecutable(QStringLiteral("promtool")).isEmpty()) {
        if (qEnvironmentVariableIsSet("STRATA_REQUIRE_ALL")) {
            FAIL() << "promtool is needed (apt-get install prometheus) and STRATA_REQUIRE_ALL is set";
        }
        GTEST_SKIP() << "promtool is not installed (apt-get install prometheus)";
    }
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QFile tunedFile(dir.filePath(QStringLiteral("tuned.yml")));
    ASSERT_TRUE(tunedFile.open(QIODevice::WriteOnly));
    tunedFile.write(QJsonDocument(tunedRule[QStringLiteral("spec")].toObject()).toJson());
    tunedFile.close();
    const ToolRun check =
        run(QStringLiteral("promtool"), {QStringLiteral("check"), QStringLiteral("rules"), tunedFile.fileName()});
    EXPECT_EQ(check.exitCode, 0) << check.out.toStdString() << check.err.toStdString();
}

TEST_F(HelmChart, PublicUrl_FromTheValueElseTheIngressHost_ElseNone)
{
    QString error;
    const QStringList none = containerArgs(renderChart({}, &error));
    ASSERT_FALSE(none.isEmpty()) << error.toStdString();
    EXPECT_FALSE(none.contains(QStringLiteral("--public-url")));
    const QStringList ingress = containerArgs(renderChart(
        {QStringLiteral("ingress.enabled=true"), QStringLiteral("ingress.host=strata.corp.example")}, &error));
    EXPECT_EQ(ingress.value(ingress.indexOf(QStringLiteral("--public-url")) + 1),
              QStringLiteral("https://strata.corp.example"));
    const QStringList explicitUrl = containerArgs(renderChart(
        {QStringLiteral("ingress.enabled=true"), QStringLiteral("publicUrl=https://gpu.corp.example/strata")}, &error));
    EXPECT_EQ(explicitUrl.value(explicitUrl.indexOf(QStringLiteral("--public-url")) + 1),
              QStringLiteral("https://gpu.corp.example/strata"));
}

} // namespace
} // namespace strata::web::test
