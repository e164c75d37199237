// The CLI against the ONTAP simulator: in-process for detailed checks, and the real
// `strata-server` binary for exit codes and streams.

#include "app/cli/cli.h"
#include "demo/demoestate.h"
#include "models/rows/resources.h"
#include "tests/integration/simfixture.h"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>

#include <memory>
#include <optional>
#include <tuple>

using namespace strata;
using namespace strata::testsupport;

namespace {

class CliTest : public SimFixture
{
protected:
    QString configPath;

    void SetUp() override
    {
        SimFixture::SetUp();
        qputenv("STRATA_IT_ONTAP_PASSWORD", simulator->options().password.toUtf8());
        writeConfig({sourceJson(QStringLiteral("ontap-ai"), simulator->baseUrl())});
    }

    QJsonObject sourceJson(const QString &name, const QString &url) const
    {
        return QJsonObject{{QStringLiteral("name"), name},
                           {QStringLiteral("kind"), QStringLiteral("ontap")},
                           {QStringLiteral("url"), url},
                           {QStringLiteral("username"), simulator->options().username},
                           {QStringLiteral("password"),
                            QJsonObject{{QStringLiteral("env"), QStringLiteral("STRATA_IT_ONTAP_PASSWORD")}}},
                           {QStringLiteral("ca_file"), caFile}};
    }

    void writeConfig(const QJsonArray &sources)
    {
        configPath = dir.filePath(QStringLiteral("config.json"));
        QFile f(configPath);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QJsonDocument(QJsonObject{{QStringLiteral("sources"), sources}}).toJson());
    }

    struct Run
    {
        int code = -1;
        QString out;
        QString err;
    };

    struct BinaryRun
    {
        bool finished = false;
        int code = -1;
        QByteArray out;
        QString err;
    };

    /// `strata-server --config <configPath> ARGS` with the ONTAP password in its environment; a
    /// run still going after `timeoutMs` is killed and reported as not finished.
    BinaryRun runServerBinary(const QStringList &args, int timeoutMs = 60000)
    {
        BinaryRun r;
        const QString binary = QStringLiteral(STRATA_BINARY_DIR "/app/server/strata-server");
        EXPECT_TRUE(QFile::exists(binary)) << binary.toStdString();
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("STRATA_IT_ONTAP_PASSWORD"), simulator->options().password);
        process.setProcessEnvironment(env);
        process.start(binary, QStringList{QStringLiteral("--config"), configPath} + args);
        r.finished = process.waitForFinished(timeoutMs);
        if (!r.finished) {
            process.kill();
            process.waitForFinished();
        }
        r.code = process.exitCode();
        r.out = process.readAllStandardOutput();
        r.err = QString::fromUtf8(process.readAllStandardError());
        return r;
    }

    Run run(QStringList args)
    {
        Run r;
        QTextStream out(&r.out);
        QTextStream err(&r.err);
        args.prepend(configPath);
        args.prepend(QStringLiteral("--config"));
        r.code = cli::run(args, credentials, cli::Console{QStringLiteral("strata"), QStringLiteral("cli"), out, err});
        out.flush();
        err.flush();
        return r;
    }
};

} // namespace

TEST_F(CliTest, GetVolumesJson_ListsEveryVolumeWithTheDocumentedKeys)
{
    const Run r = run({QStringLiteral("get"), QStringLiteral("volumes"), QStringLiteral("-o"), QStringLiteral("json")});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &error);
    ASSERT_EQ(error.error, QJsonParseError::NoError) << r.out.left(200).toStdString();
    ASSERT_TRUE(doc.isArray());
    const QJsonArray volumes = doc.array();
    EXPECT_EQ(volumes.size(), simulator->volumeCount());
    bool found = false;
    for (const QJsonValue &value : volumes) {
        const QJsonObject v = value.toObject();
        for (const char *key :
             {"source", "id", "name", "svm", "state", "style", "size_bytes", "used_bytes", "available_bytes"}) {
            ASSERT_TRUE(v.contains(QLatin1String(key))) << key;
        }
        EXPECT_TRUE(v.value(QStringLiteral("size_bytes")).isDouble());
        if (v.value(QStringLiteral("name")).toString() == QLatin1String("chest_xray")) {
            found = true;
            const auto simVolume = simulator->volume(v.value(QStringLiteral("id")).toString());
            ASSERT_TRUE(simVolume);
            EXPECT_EQ(v.value(QStringLiteral("source")).toString(), QStringLiteral("ontap-ai"));
            EXPECT_EQ(v.value(QStringLiteral("svm")).toString(), QStringLiteral("svm_ai"));
        }
    }
    EXPECT_TRUE(found);
}

// ONTAP sends no `space` for an offline volume (the simulator follows the real
// cluster here); its used/available/%used are unknown: null in JSON, "—" in the table, never 0.
TEST_F(CliTest, GetVolumes_OfflineVolumeHasNullSpaceInJsonAndDashInTheTable)
{
    const Run json =
        run({QStringLiteral("get"), QStringLiteral("volumes"), QStringLiteral("-o"), QStringLiteral("json")});
    ASSERT_EQ(json.code, 0) << json.err.toStdString();
    QJsonObject offline;
    for (const QJsonValue &value : QJsonDocument::fromJson(json.out.toUtf8()).array()) {
        if (value.toObject().value(QStringLiteral("name")).toString() == QLatin1String("mnist_legacy")) {
            offline = value.toObject();
        }
    }
    ASSERT_FALSE(offline.isEmpty()) << json.out.left(300).toStdString();
    EXPECT_EQ(offline.value(QStringLiteral("state")).toString(), QStringLiteral("offline"));
    EXPECT_TRUE(offline.value(QStringLiteral("used_bytes")).isNull()) << "unknown, not 0";
    EXPECT_TRUE(offline.value(QStringLiteral("available_bytes")).isNull());
    EXPECT_TRUE(offline.value(QStringLiteral("percent_used")).isNull());
    EXPECT_GT(offline.value(QStringLiteral("size_bytes")).toDouble(), 0) << "`size` is outside `space`";

    const Run table = run({QStringLiteral("get"), QStringLiteral("volumes")});
    ASSERT_EQ(table.code, 0) << table.err.toStdString();
    QString row;
    for (const QString &line : table.out.split(QLatin1Char('\n'))) {
        if (line.contains(QStringLiteral("mnist_legacy"))) {
            row = line;
        }
    }
    ASSERT_FALSE(row.isEmpty()) << table.out.toStdString();
    EXPECT_EQ(row.count(QChar(0x2014)), 4) << row.toStdString(); // USED, %USED, AVAILABLE, SNAPUSED
    EXPECT_FALSE(row.contains(QStringLiteral(" 0 B"))) << row.toStdString();
}

TEST_F(CliTest, GetSourcesTable_ShowsHealth)
{
    const Run r = run({QStringLiteral("get"), QStringLiteral("sources")});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    EXPECT_TRUE(r.out.startsWith(QStringLiteral("NAME"))) << r.out.toStdString();
    EXPECT_TRUE(r.out.contains(QStringLiteral("ontap-ai")));
    EXPECT_TRUE(r.out.contains(QStringLiteral(" ok ")));
    EXPECT_TRUE(r.out.contains(QStringLiteral("9.14.1")));
}

TEST_F(CliTest, GetSnapshotsCsv_OneRowPerSnapshotOfTheVolume)
{
    const auto v = simulator->volumeByName(QStringLiteral("svm_ai"), QStringLiteral("chest_xray"));
    ASSERT_TRUE(v);
    const Run r = run({QStringLiteral("get"),
                       QStringLiteral("snapshots"),
                       QStringLiteral("--volume"),
                       QStringLiteral("chest_xray"),
                       QStringLiteral("-o"),
                       QStringLiteral("csv")});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    const QStringList lines = r.out.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    ASSERT_FALSE(lines.isEmpty());
    EXPECT_TRUE(lines[0].startsWith(QStringLiteral("source,volume_id,volume,svm,id,name,created")));
    EXPECT_EQ(int(lines.size()) - 1, simulator->snapshotCount(v->uuid));
}

TEST_F(CliTest, FailingSource_ExitsNonZeroWithOneLineAndStillPrintsHealthyData)
{
    writeConfig({sourceJson(QStringLiteral("ontap-ai"), simulator->baseUrl()),
                 sourceJson(QStringLiteral("gone"), QStringLiteral("https://127.0.0.1:1"))});
    const Run r = run({QStringLiteral("get"),
                       QStringLiteral("volumes"),
                       QStringLiteral("-o"),
                       QStringLiteral("json"),
                       QStringLiteral("--timeout"),
                       QStringLiteral("60")});
    EXPECT_EQ(r.code, 1);
    const QStringList errLines = r.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(errLines.size(), 1) << r.err.toStdString();
    EXPECT_TRUE(errLines[0].startsWith(QStringLiteral("strata: source gone: "))) << r.err.toStdString();
    EXPECT_EQ(QJsonDocument::fromJson(r.out.toUtf8()).array().size(), simulator->volumeCount());
}

TEST_F(CliTest, WrongPassword_ExitsNonZeroNamingCredentials)
{
    qputenv("STRATA_IT_ONTAP_PASSWORD", "not-the-password");
    const Run r = run({QStringLiteral("get"), QStringLiteral("volumes")});
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(r.err.contains(QStringLiteral("ontap-ai"))) << r.err.toStdString();
    EXPECT_FALSE(r.err.contains(QStringLiteral("not-the-password"))) << "secrets never reach output";
}

TEST_F(CliTest, UsageErrors_ExitTwo)
{
    EXPECT_EQ(
        run({QStringLiteral("get"), QStringLiteral("volumes"), QStringLiteral("--source"), QStringLiteral("nope")})
            .code,
        2);
    EXPECT_EQ(run({QStringLiteral("get"), QStringLiteral("bananas")}).code, 2);
    EXPECT_EQ(run({QStringLiteral("get"), QStringLiteral("volumes"), QStringLiteral("-o"), QStringLiteral("xml")}).code,
              2);
    QJsonObject literal = sourceJson(QStringLiteral("ontap-ai"), simulator->baseUrl());
    literal.insert(QStringLiteral("password"), QStringLiteral("plaintext"));
    writeConfig({literal});
    const Run r = run({QStringLiteral("get"), QStringLiteral("volumes")});
    EXPECT_EQ(r.code, 2);
    EXPECT_FALSE(r.err.isEmpty());
}

TEST_F(CliTest, UnknownResourceOrCommand_IsNamedNotTheWholeUsage)
{
    const Run widgets = run({QStringLiteral("get"), QStringLiteral("widgets")});
    EXPECT_EQ(widgets.code, 2);
    EXPECT_TRUE(widgets.err.startsWith(QStringLiteral("strata: unknown resource \"widgets\"; get lists: sources, ")))
        << widgets.err.toStdString();
    EXPECT_FALSE(widgets.err.contains(QStringLiteral("usage:"))) << widgets.err.toStdString();

    const Run unknownVerb = run({QStringLiteral("forecast"), QStringLiteral("volumes")});
    EXPECT_EQ(unknownVerb.code, 2);
    EXPECT_TRUE(unknownVerb.err.startsWith(QStringLiteral("strata: unknown command \"forecast\"; commands: get, set")))
        << unknownVerb.err.toStdString();
    EXPECT_TRUE(unknownVerb.err.contains(QStringLiteral(", why, what-if (see"))) << unknownVerb.err.toStdString();
    // A resource typed without `get` is pointed at.
    EXPECT_TRUE(unknownVerb.err.trimmed().endsWith(QStringLiteral("; did you mean \"get forecasts\"?")))
        << unknownVerb.err.toStdString();
}

// A mistyped command or resource gets the nearest word, not only the whole list.
TEST_F(CliTest, MistypedCommandOrResource_SuggestsTheNearest)
{
    const Run verb = run({QStringLiteral("wht-if"), QStringLiteral("quota"), QStringLiteral("a=1")});
    EXPECT_EQ(verb.code, 2);
    EXPECT_TRUE(verb.err.contains(QStringLiteral("did you mean \"what-if\"?"))) << verb.err.toStdString();
    const Run resource = run({QStringLiteral("get"), QStringLiteral("forcasts")});
    EXPECT_EQ(resource.code, 2);
    EXPECT_TRUE(resource.err.contains(QStringLiteral("did you mean \"forecasts\"?"))) << resource.err.toStdString();
    const Run chargeback = run({QStringLiteral("get"), QStringLiteral("chargebak")});
    EXPECT_TRUE(chargeback.err.contains(QStringLiteral("did you mean \"chargeback\"?")))
        << chargeback.err.toStdString();
    const Run far = run({QStringLiteral("get"), QStringLiteral("widgets")});
    EXPECT_FALSE(far.err.contains(QStringLiteral("did you mean"))) << far.err.toStdString();
}

// --help names every command with its forms, and every resource `get` lists.
TEST_F(CliTest, Help_NamesEveryCommandAndResource)
{
    const Run help = run({QStringLiteral("--help")});
    EXPECT_EQ(help.code, 0);
    for (const char *word : {"why JOB",
                             "what-if quota",
                             "bundle export FILE",
                             "bundle diff A B",
                             "forecasts",
                             "get chargeback",
                             "set service-level",
                             "commit DATASET",
                             "cache|evict COMMIT"}) {
        EXPECT_TRUE(help.out.contains(QLatin1String(word))) << word << "\n" << help.out.toStdString();
    }
    for (const QString &resource : rows::resourceNames()) {
        EXPECT_TRUE(help.out.contains(resource)) << resource.toStdString();
    }
}

// The CLI links no simulator: `--demo` runs only where the binary hands run() the demo estate.
// Without that hook it is a clear usage error, not a crash.
TEST_F(CliTest, DemoWithoutTheBinarysDemoEstate_IsAUsageError)
{
    QString outText;
    QString errText;
    QTextStream out(&outText);
    QTextStream err(&errText);
    const int code = cli::run({QStringLiteral("--demo"), QStringLiteral("get"), QStringLiteral("sources")},
                              credentials,
                              cli::Console{QStringLiteral("strata"), QStringLiteral("cli"), out, err});
    err.flush();
    EXPECT_EQ(code, 2);
    EXPECT_TRUE(errText.startsWith(QStringLiteral("strata: cannot start the demo estate: "))) << errText.toStdString();
    EXPECT_TRUE(outText.isEmpty()) << outText.toStdString();
}

// A listing starts and polls only the sources its resource reads: `get volumes` on the demo runs
// ONTAP and Azure (ANF), not the Kubernetes clusters or StorageGRID, and waits for no past history.
TEST_F(CliTest, DemoVolumeListing_StartsAndPollsNoKubernetesSource)
{
    std::optional<core::DemoScope> scope;
    std::shared_ptr<demo::DemoEstate> estate;
    cli::RunHooks hooks;
    hooks.startDemo = [&](const core::DemoScope &asked, core::AppConfig *config, core::ICredentialStore **store) {
        scope = asked;
        core::Result<std::shared_ptr<void>> handle = demo::startScopedForCommand(asked, config, store);
        if (handle) {
            estate = std::static_pointer_cast<demo::DemoEstate>(*handle);
        }
        return handle;
    };
    QString outText;
    QString errText;
    QTextStream out(&outText);
    QTextStream err(&errText);
    const int code = cli::run({QStringLiteral("--demo"), QStringLiteral("get"), QStringLiteral("volumes")},
                              credentials,
                              cli::Console{QStringLiteral("strata"), QStringLiteral("cli"), out, err},
                              hooks);
    out.flush();
    err.flush();
    // An unstarted source that was polled would fail (it has no address) and exit 1.
    EXPECT_EQ(code, 0) << errText.toStdString();
    EXPECT_TRUE(errText.isEmpty()) << errText.toStdString();
    ASSERT_TRUE(scope);
    EXPECT_FALSE(scope->wants(core::SourceKind::Kubernetes));
    EXPECT_FALSE(scope->wants(core::SourceKind::StorageGrid));
    EXPECT_TRUE(scope->wants(core::SourceKind::Ontap));
    EXPECT_TRUE(scope->wants(core::SourceKind::Azure));
    EXPECT_FALSE(scope->history);
    ASSERT_TRUE(estate);
    EXPECT_EQ(estate->kubernetes(), nullptr);
    EXPECT_EQ(estate->aks(), nullptr);
    EXPECT_EQ(estate->grid(), nullptr);
    EXPECT_NE(estate->azure(), nullptr);
    // ONTAP's cache volumes and ANF's volumes are listed as with the whole estate.
    EXPECT_TRUE(outText.contains(QStringLiteral("cache_01"))) << outText.toStdString();
    EXPECT_TRUE(outText.contains(QStringLiteral("criteo-data"))) << outText.toStdString();
    EXPECT_FALSE(outText.contains(QStringLiteral("dgx"))) << outText.toStdString();

    // The whole estate for what reads every source.
    estate.reset();
    scope.reset();
    outText.clear();
    const int sources = cli::run({QStringLiteral("--demo"), QStringLiteral("get"), QStringLiteral("sources")},
                                 credentials,
                                 cli::Console{QStringLiteral("strata"), QStringLiteral("cli"), out, err},
                                 hooks);
    out.flush();
    EXPECT_EQ(sources, 0) << errText.toStdString();
    ASSERT_TRUE(scope);
    EXPECT_TRUE(scope->kinds.isEmpty());
    EXPECT_NE(estate->kubernetes(), nullptr);
    EXPECT_NE(estate->grid(), nullptr);
    EXPECT_TRUE(outText.contains(QStringLiteral("aks-gpu"))) << outText.toStdString();
}

// Both binaries hand the CLI their demo estate: `strata-server --demo get sources` lists the
// simulated systems.
TEST_F(CliTest, ServerBinary_DemoListsTheSimulatedSources)
{
    const QString binary = QStringLiteral(STRATA_BINARY_DIR "/app/server/strata-server");
    ASSERT_TRUE(QFile::exists(binary)) << binary.toStdString();
    QProcess process;
    process.start(binary,
                  {QStringLiteral("--demo"),
                   QStringLiteral("get"),
                   QStringLiteral("sources"),
                   QStringLiteral("-o"),
                   QStringLiteral("json")});
    ASSERT_TRUE(process.waitForFinished(120000));
    EXPECT_EQ(process.exitCode(), 0) << process.readAllStandardError().toStdString();
    QStringList names;
    for (const QJsonValue &v : QJsonDocument::fromJson(process.readAllStandardOutput()).array()) {
        names << v.toObject().value(QStringLiteral("name")).toString();
    }
    EXPECT_TRUE(names.contains(QStringLiteral("ontap-ai"))) << names.join(QLatin1Char(',')).toStdString();
    EXPECT_TRUE(names.contains(QStringLiteral("dgx"))) << names.join(QLatin1Char(',')).toStdString();
}

// `strata get forecasts` on the demo: its ONTAP volumes and cache targets have days of capacity
// history, so the Trident volumes the simulator grows get fill dates within their 8 to 58 days
// (demohistory.h), listed full soonest first with the documented keys.
TEST_F(CliTest, ServerBinary_DemoForecastsListGrowingVolumesFullSoonestFirst)
{
    const QString binary = QStringLiteral(STRATA_BINARY_DIR "/app/server/strata-server");
    QProcess process;
    process.start(binary,
                  {QStringLiteral("--demo"),
                   QStringLiteral("get"),
                   QStringLiteral("forecasts"),
                   QStringLiteral("-o"),
                   QStringLiteral("json")});
    ASSERT_TRUE(process.waitForFinished(120000));
    ASSERT_EQ(process.exitCode(), 0) << process.readAllStandardError().toStdString();
    const QJsonArray rows = QJsonDocument::fromJson(process.readAllStandardOutput()).array();
    ASSERT_FALSE(rows.isEmpty());
    const QStringList keys{QStringLiteral("source"),
                           QStringLiteral("kind"),
                           QStringLiteral("id"),
                           QStringLiteral("name"),
                           QStringLiteral("trend"),
                           QStringLiteral("used_bytes"),
                           QStringLiteral("capacity_bytes"),
                           QStringLiteral("percent_used"),
                           QStringLiteral("growth_bytes_per_day"),
                           QStringLiteral("growth_low_bytes_per_day"),
                           QStringLiteral("growth_high_bytes_per_day"),
                           QStringLiteral("full_at"),
                           QStringLiteral("full_earliest"),
                           QStringLiteral("full_latest"),
                           QStringLiteral("days_to_full"),
                           QStringLiteral("full_in"),
                           QStringLiteral("released_bytes"),
                           QStringLiteral("samples"),
                           QStringLiteral("history_from"),
                           QStringLiteral("history_to")};
    int growingTrident = 0;
    int cacheTargetsWithHistory = 0;
    double lastDays = -1;
    bool datesDone = false;
    for (const QJsonValue &v : rows) {
        const QJsonObject row = v.toObject();
        for (const QString &key : keys) {
            EXPECT_TRUE(row.contains(key)) << key.toStdString();
        }
        const QString name = row.value(QStringLiteral("name")).toString();
        const bool dated = row.value(QStringLiteral("trend")).toString() == QLatin1String("growing")
                           && !row.value(QStringLiteral("days_to_full")).isNull();
        if (dated) {
            EXPECT_FALSE(datesDone) << "a dated row after undated ones: " << name.toStdString();
            const double days = row.value(QStringLiteral("days_to_full")).toDouble();
            EXPECT_GE(days, lastDays) << name.toStdString();
            lastDays = days;
            EXPECT_LE(QDateTime::fromString(row.value(QStringLiteral("full_earliest")).toString(), Qt::ISODate),
                      QDateTime::fromString(row.value(QStringLiteral("full_at")).toString(), Qt::ISODate));
            if (name.startsWith(QLatin1String("svm_ai/trident_pvc_"))) {
                ++growingTrident;
                // The simulator keeps growing them live, so the date can only come sooner.
                EXPECT_LE(days, 60.0) << name.toStdString();
            }
        } else if (row.value(QStringLiteral("trend")).toString() != QLatin1String("full")) {
            datesDone = true;
        }
        if (row.value(QStringLiteral("kind")).toString() == QLatin1String("cache_target")
            && row.value(QStringLiteral("samples")).toInt() >= 6) {
            ++cacheTargetsWithHistory;
        }
    }
    EXPECT_GE(growingTrident, 3);
    EXPECT_EQ(cacheTargetsWithHistory, 3);
}

// A first run without a config file says where it looked and what to do, and the desktop binary
// names an unknown command instead of trying to open a window without a display.
TEST_F(CliTest, DesktopBinary_NoConfigHintsAndUnknownCommandNeedsNoDisplay)
{
    const QString binary = QStringLiteral(STRATA_BINARY_DIR "/app/desktop/strata");
#ifndef STRATA_HAVE_DESKTOP
    GTEST_SKIP() << "this build has no desktop app (STRATA_BUILD_DESKTOP=OFF)";
#endif
    ASSERT_TRUE(QFile::exists(binary)) << binary.toStdString();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("empty-config")));
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    const auto runBinary = [&](const QStringList &args) {
        QProcess process;
        process.setProcessEnvironment(env);
        process.start(binary, args);
        EXPECT_TRUE(process.waitForFinished(60000));
        return std::make_pair(process.exitCode(), QString::fromUtf8(process.readAllStandardError()));
    };
    const auto [noConfigCode, noConfig] = runBinary({QStringLiteral("get"), QStringLiteral("volumes")});
    EXPECT_EQ(noConfigCode, 2);
    EXPECT_TRUE(noConfig.contains(QStringLiteral("no sources configured yet"))) << noConfig.toStdString();
    EXPECT_TRUE(noConfig.contains(dir.filePath(QStringLiteral("empty-config")))) << noConfig.toStdString();
    EXPECT_TRUE(noConfig.contains(QStringLiteral("strata --demo get volumes"))) << noConfig.toStdString();

    const auto [unknownCode, unknown] = runBinary({QStringLiteral("--demo"), QStringLiteral("forecast")});
    EXPECT_EQ(unknownCode, 2);
    EXPECT_TRUE(unknown.contains(QStringLiteral("unknown command \"forecast\""))) << unknown.toStdString();
    EXPECT_FALSE(unknown.contains(QStringLiteral("platform plugin"))) << unknown.toStdString();
}

// In English (here the C locale) a count reads "38 objects", not "38 object(s)": the binary
// carries the English plural forms. Its job table names a failing container in REASON.
TEST_F(CliTest, DesktopBinary_EnglishPluralsAndFailingJobReason)
{
    const QString binary = QStringLiteral(STRATA_BINARY_DIR "/app/desktop/strata");
#ifndef STRATA_HAVE_DESKTOP
    GTEST_SKIP() << "this build has no desktop app (STRATA_BUILD_DESKTOP=OFF)";
#endif
    ASSERT_TRUE(QFile::exists(binary)) << binary.toStdString();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("plural-config")));
    env.insert(QStringLiteral("LANG"), QStringLiteral("C"));
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    env.remove(QStringLiteral("LANGUAGE"));
    const auto runBinary = [&](const QStringList &args) {
        QProcess process;
        process.setProcessEnvironment(env);
        process.start(binary, args);
        EXPECT_TRUE(process.waitForFinished(120000));
        return QString::fromUtf8(process.readAllStandardOutput());
    };
    const QString preview = runBinary({QStringLiteral("--demo"),
                                       QStringLiteral("cache"),
                                       QStringLiteral("fraud_may"),
                                       QStringLiteral("--target"),
                                       QStringLiteral("dgx-cache-1"),
                                       QStringLiteral("--dry-run")});
    EXPECT_TRUE(preview.contains(QStringLiteral("Copies 38 objects"))) << preview.toStdString();
    EXPECT_FALSE(preview.contains(QStringLiteral("(s)"))) << preview.toStdString();

    // The demo's bert-serve cannot pull its image (the simulator's ErrImagePull/ImagePullBackOff).
    const QString jobs = runBinary({QStringLiteral("--demo"), QStringLiteral("get"), QStringLiteral("jobs")});
    const QStringList lines = jobs.split(QLatin1Char('\n'));
    const qsizetype reasonColumn = lines.value(0).indexOf(QStringLiteral("REASON"));
    ASSERT_GT(reasonColumn, 0) << jobs.toStdString();
    QString bert;
    for (const QString &line : lines) {
        bert = line.startsWith(QStringLiteral("bert-serve ")) ? line : bert;
    }
    EXPECT_TRUE(bert.mid(reasonColumn).startsWith(QStringLiteral("ImagePullBackOff"))
                || bert.mid(reasonColumn).startsWith(QStringLiteral("ErrImagePull")))
        << jobs.toStdString();
}

TEST_F(CliTest, ServerBinary_PrintsJsonAndExitsZero)
{
    const BinaryRun r = runServerBinary(
        {QStringLiteral("get"), QStringLiteral("volumes"), QStringLiteral("-o"), QStringLiteral("json")});
    ASSERT_TRUE(r.finished);
    EXPECT_EQ(r.code, 0) << r.err.toStdString();
    EXPECT_EQ(QJsonDocument::fromJson(r.out).array().size(), simulator->volumeCount());
}

// A server that takes the connection and never answers (the kernel accepts it into the backlog;
// nothing reads it): the binary names that source after --timeout, prints what the healthy
// source returned and exits, rather than waiting for the stalled one.
TEST_F(CliTest, ServerBinary_StalledSourceIsNamedAndTheRestPrintedByTheDeadline)
{
    QTcpServer silent;
    ASSERT_TRUE(silent.listen(QHostAddress::LocalHost));
    writeConfig(
        {sourceJson(QStringLiteral("ontap-ai"), simulator->baseUrl()),
         sourceJson(QStringLiteral("stalled"), QStringLiteral("https://127.0.0.1:%1").arg(silent.serverPort()))});
    QElapsedTimer elapsed;
    elapsed.start();
    // Generous for ASan: the deadline is 3 s and the teardown watchdog 10 s.
    const BinaryRun r = runServerBinary({QStringLiteral("get"),
                                         QStringLiteral("volumes"),
                                         QStringLiteral("-o"),
                                         QStringLiteral("json"),
                                         QStringLiteral("--timeout"),
                                         QStringLiteral("3")},
                                        90000);
    ASSERT_TRUE(r.finished) << "strata-server get hung on a source that never answers";
    EXPECT_EQ(r.code, 1) << r.err.toStdString();
    EXPECT_TRUE(r.err.contains(QStringLiteral("strata-server: source stalled: no complete answer within 3 s")))
        << r.err.toStdString();
    EXPECT_FALSE(r.err.contains(QStringLiteral("source ontap-ai"))) << r.err.toStdString();
    EXPECT_EQ(QJsonDocument::fromJson(r.out).array().size(), simulator->volumeCount());
    EXPECT_LT(elapsed.elapsed(), 60000);
}

TEST_F(CliTest, GermanLocale_DesktopBinaryLoadsItsEmbeddedCatalogue)
{
    const QString binary = QStringLiteral(STRATA_BINARY_DIR "/app/desktop/strata");
#ifndef STRATA_HAVE_DESKTOP
    GTEST_SKIP() << "this build has no desktop app (STRATA_BUILD_DESKTOP=OFF)";
#endif
    if (!QFile::exists(binary)) {
        if (qEnvironmentVariableIsSet("STRATA_REQUIRE_ALL")) {
            FAIL() << "missing " << binary.toStdString();
        }
        GTEST_SKIP() << "desktop app not built";
    }
    for (const auto &[lang, expected] :
         {std::pair{"de_DE.UTF-8", "keine Quelle namens"}, std::pair{"C", "no source named"}}) {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("LANGUAGE"));
        env.remove(QStringLiteral("LC_MESSAGES"));
        env.insert(QStringLiteral("LC_ALL"), QString::fromLatin1(lang));
        env.insert(QStringLiteral("LANG"), QString::fromLatin1(lang));
        process.setProcessEnvironment(env);
        process.start(binary,
                      {QStringLiteral("--config"),
                       configPath,
                       QStringLiteral("get"),
                       QStringLiteral("volumes"),
                       QStringLiteral("--source"),
                       QStringLiteral("nope")});
        ASSERT_TRUE(process.waitForFinished(60000));
        EXPECT_EQ(process.exitCode(), 2);
        const QString err = QString::fromUtf8(process.readAllStandardError());
        EXPECT_TRUE(err.contains(QLatin1String(expected))) << lang << ": " << err.toStdString();
    }
}

// `what-if quota` on the demo: the prediction for one cluster, its usage errors, and that it asks
// for --source when several GPU clusters answer.
TEST_F(CliTest, ServerBinary_DemoQuotaWhatIf)
{
    const QString binary = QStringLiteral(STRATA_BINARY_DIR "/app/server/strata-server");
    ASSERT_TRUE(QFile::exists(binary)) << binary.toStdString();
    const auto runDemo = [&](const QStringList &args) {
        QProcess process;
        process.start(binary, QStringList{QStringLiteral("--demo"), QStringLiteral("what-if")} + args);
        EXPECT_TRUE(process.waitForFinished(120000));
        return std::make_tuple(
            process.exitCode(), process.readAllStandardOutput(), QString::fromUtf8(process.readAllStandardError()));
    };
    const auto [code, out, err] = runDemo({QStringLiteral("quota"),
                                           QStringLiteral("ml-team=5"),
                                           QStringLiteral("--source"),
                                           QStringLiteral("aks-gpu"),
                                           QStringLiteral("-o"),
                                           QStringLiteral("json")});
    ASSERT_EQ(code, 0) << err.toStdString();
    const QJsonObject whatIf = QJsonDocument::fromJson(out).object();
    EXPECT_EQ(whatIf.value(QStringLiteral("cluster")).toString(), QStringLiteral("aks-gpu"));
    EXPECT_EQ(whatIf.value(QStringLiteral("capacity_gpus")).toDouble(), 3.0);
    EXPECT_EQ(whatIf.value(QStringLiteral("quota_total_after")).toDouble(), 5.0);
    const QJsonArray projects = whatIf.value(QStringLiteral("projects")).toArray();
    ASSERT_EQ(projects.size(), 1);
    EXPECT_EQ(projects[0].toObject().value(QStringLiteral("quota_before")).toDouble(), 3.0);
    EXPECT_EQ(projects[0].toObject().value(QStringLiteral("quota_after")).toDouble(), 5.0);
    int queued = 0;
    for (const QJsonValue &job : whatIf.value(QStringLiteral("jobs")).toArray()) {
        const QJsonObject j = job.toObject();
        if (j.value(QStringLiteral("outcome")).toString() == QLatin1String("stays_queued")) {
            ++queued;
            EXPECT_FALSE(j.value(QStringLiteral("reason")).toString().isEmpty());
        }
    }
    EXPECT_EQ(queued, projects[0].toObject().value(QStringLiteral("queued_after")).toInt());

    const auto [several, severalOut, severalErr] = runDemo({QStringLiteral("quota"), QStringLiteral("team-a=8")});
    EXPECT_EQ(several, 2);
    EXPECT_TRUE(severalErr.contains(QLatin1String("choose one with --source"))) << severalErr.toStdString();
    const auto [bad, badOut, badErr] = runDemo({QStringLiteral("quota"), QStringLiteral("team-a")});
    EXPECT_EQ(bad, 2);
    EXPECT_TRUE(badErr.contains(QLatin1String("\"team-a\" is not PROJECT=GPUS"))) << badErr.toStdString();
    const auto [unknown, unknownOut, unknownErr] = runDemo(
        {QStringLiteral("quota"), QStringLiteral("team-z=1"), QStringLiteral("--source"), QStringLiteral("dgx")});
    EXPECT_EQ(unknown, 1);
    EXPECT_TRUE(unknownErr.contains(QLatin1String("dgx has no project team-z"))) << unknownErr.toStdString();
}
