// SharedSettings between two processes on one SQLite store (a desktop app and a local
// strata-server, say): cache targets set in one reach the other's Engine on its fallback read;
// targets naming a cluster that is not a configured Kubernetes source are refused before they
// are written; and a stored value this process cannot use is read but not applied.

#include "models/core/runtime/engine.h"
#include "models/core/runtime/sharedsettings.h"
#include "models/core/services/historyservice.h"
#include "models/core/store/credentialstore.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"

#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using strata::testsupport::succeeded;
using namespace strata;

namespace {

struct SettingsProcess
{
    SettingsProcess(const QString &file, testsupport::ManualClock &clock, core::ICredentialStore &secrets)
        : history(std::make_unique<core::SqlHistoryStore>(file, clock))
        , engine({clock, secrets, nullptr, QStringLiteral("tester")})
        , settings(engine, history, core::SettingWriter{QStringLiteral("tester"), QStringLiteral("desk/1")})
    {}

    core::HistoryService history;
    core::Engine engine;
    core::SharedSettings settings;
};

core::SourceConfig settingsClusterSource()
{
    core::SourceConfig k8s;
    k8s.name = QStringLiteral("dgx");
    k8s.kind = core::SourceKind::Kubernetes;
    k8s.url = QStringLiteral("https://127.0.0.1:1");
    // No secret stored: the source never starts, but it is configured.
    k8s.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(QStringLiteral("dgx"))};
    return k8s;
}

core::CacheTargetConfig settingsCacheTarget(const QString &name, const QString &cluster)
{
    core::CacheTargetConfig target;
    target.name = name;
    target.kubernetesSource = cluster;
    target.namespaceName = QStringLiteral("ml");
    target.pvc = QStringLiteral("cache-") + name;
    return target;
}

core::Status setTargetsAndWait(SettingsProcess &p, const QList<core::CacheTargetConfig> &targets)
{
    std::optional<core::Status> result;
    p.settings.setCacheTargets(targets, QStringLiteral("test"), &p.engine, [&](core::Status s) {
        result = std::move(s);
    });
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            return result.has_value();
        },
        5000));
    return result.value_or(core::fail(QStringLiteral("no answer")));
}

} // namespace

TEST(SharedSettingsEngine, CacheTargetsSetInOneProcessReachTheOthersEngineAndBadOnesAreNotApplied)
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("history.sqlite"));
    testsupport::ManualClock clock;
    core::InMemoryCredentialStore secrets;
    core::AppConfig config;
    config.sources = {settingsClusterSource()};
    SettingsProcess a(file, clock, secrets);
    SettingsProcess b(file, clock, secrets);
    for (SettingsProcess *p : {&a, &b}) {
        ASSERT_TRUE(p->history.openError().isEmpty()) << p->history.openError().toStdString();
        p->engine.setSources(config.sources);
        ASSERT_TRUE(succeeded(p->settings.adopt(config, dir.filePath(QStringLiteral("config.json")))));
        EXPECT_TRUE(p->engine.cacheTargets().isEmpty());
    }
    b.settings.watch(std::chrono::milliseconds(100));

    const QList<core::CacheTargetConfig> targets{settingsCacheTarget(QStringLiteral("scratch"), QStringLiteral("dgx"))};
    const core::Status written = setTargetsAndWait(a, targets);
    ASSERT_TRUE(written) << written.error().message.toStdString();
    EXPECT_EQ(a.engine.cacheTargets(), targets);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return b.engine.cacheTargets() == targets;
        },
        5000));
    EXPECT_EQ(b.settings.stored(QString(core::kCacheTargetsSetting))->revision, 2);

    // Not a Kubernetes source here: refused before anything is written.
    const core::Status refused =
        setTargetsAndWait(a, {settingsCacheTarget(QStringLiteral("other"), QStringLiteral("ontap-ai"))});
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().kind, core::Error::Kind::Invalid);
    EXPECT_TRUE(refused.error().message.contains(QStringLiteral("ontap-ai"))) << refused.error().message.toStdString();
    EXPECT_EQ(a.settings.stored(QString(core::kCacheTargetsSetting))->revision, 2);

    // A process whose config knows another cluster stores targets on it: this one reads the
    // revision but keeps the targets it can use.
    testsupport::ManualClock otherClock;
    core::SqlHistoryStore other(file, otherClock);
    ASSERT_TRUE(succeeded(other.open()));
    ASSERT_TRUE(core::writeSharedSetting(
        other,
        {QString(core::kCacheTargetsSetting),
         core::cacheTargetsSettingBody({settingsCacheTarget(QStringLiteral("far"), QStringLiteral("elsewhere"))}),
         2,
         b.settings.stored(QString(core::kCacheTargetsSetting))->configHash,
         core::SettingWriter{QStringLiteral("ops"), QStringLiteral("cli")},
         QStringLiteral("test")}));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return b.settings.stored(QString(core::kCacheTargetsSetting))->revision == 3;
        },
        5000));
    EXPECT_EQ(b.engine.cacheTargets(), targets);
}
