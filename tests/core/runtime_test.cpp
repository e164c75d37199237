// Runtime: the start-up wiring the desktop app, strata-server and the CLI share.

#include "models/core/runtime/engine.h"
#include "models/core/runtime/runtime.h"
#include "models/core/runtime/sharedsettings.h"
#include "models/core/services/historyservice.h"
#include "models/core/services/servicelevels.h"
#include "models/core/store/credentialstore.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using strata::testsupport::errorText;
using strata::testsupport::succeeded;
using strata::testsupport::valueOf;
using namespace strata;

namespace {

void writeRuntimeConfig(const QString &path, const QByteArray &json)
{
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(json);
}

TEST(Runtime, ConfigFileGivesTheEngineItsSourcesAndTheHistoryStoreItsPath)
{
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("config.json"));
    const QString history = dir.filePath(QStringLiteral("history.sqlite"));
    writeRuntimeConfig(config,
                       QStringLiteral(R"({"sources": [{"name": "lab", "kind": "ontap", "url": "https://127.0.0.1:1"}],
                           "history": {"path": "%1", "retention_days": 7}})")
                           .arg(history)
                           .toUtf8());
    core::InMemoryCredentialStore secrets;
    core::RuntimeOptions options;
    options.configPath = config;
    options.credentials = &secrets;
    options.user = QStringLiteral("test");
    auto runtimeStarted = core::Runtime::build(options);
    ASSERT_TRUE(succeeded(runtimeStarted));
    const std::unique_ptr<core::Runtime> runtime = std::move(*runtimeStarted);
    EXPECT_FALSE(runtime->isDemo());
    EXPECT_EQ(runtime->configPath(), config);
    ASSERT_EQ(runtime->engine().sourceConfigs().size(), 1);
    EXPECT_EQ(runtime->engine().sourceConfigs().first().name, QStringLiteral("lab"));
    EXPECT_EQ(runtime->config().historyRetentionDays, 7);
    ASSERT_NE(runtime->history(), nullptr) << runtime->historyError().toStdString();
    EXPECT_EQ(runtime->engine().history(), runtime->history());
    EXPECT_TRUE(QFileInfo::exists(history));
    EXPECT_EQ(&runtime->engine().credentials(), &secrets);
}

TEST(Runtime, TheStoresRateCardWinsUntilTheConfigFilesOwnChanges)
{
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("config.json"));
    const QString history = dir.filePath(QStringLiteral("history.sqlite"));
    const auto configWithCurrency = [&](const QString &currency) {
        writeRuntimeConfig(config,
                           QStringLiteral(R"({"sources": [], "history": {"path": "%1"},
                               "rate_card": {"currency": "%2"}})")
                               .arg(history, currency)
                               .toUtf8());
    };
    core::InMemoryCredentialStore secrets;
    core::RuntimeOptions options;
    options.configPath = config;
    options.credentials = &secrets;
    options.user = QStringLiteral("test");
    const auto currencyAtStart = [&] {
        auto built = core::Runtime::build(options);
        EXPECT_TRUE(succeeded(built));
        if (!built) {
            return QString();
        }
        EXPECT_EQ((*built)->settings() != nullptr, options.history);
        EXPECT_TRUE((*built)->settingsError().isEmpty()) << (*built)->settingsError().toStdString();
        return (*built)->engine().serviceLevels().rateCard().currency;
    };

    configWithCurrency(QStringLiteral("EUR"));
    EXPECT_EQ(currencyAtStart(), QStringLiteral("EUR")) << "the config seeds an empty store";
    {
        // Another process edits the shared card.
        testsupport::ManualClock clock;
        core::SqlHistoryStore other(history, clock);
        ASSERT_TRUE(succeeded(other.open()));
        core::RateCard card = core::RateCard::defaults();
        card.currency = QStringLiteral("GBP");
        const auto stored = other.sharedSettings();
        ASSERT_TRUE(stored);
        ASSERT_EQ(stored->size(), 2U) << "rate card and cache targets";
        ASSERT_TRUE(core::writeSharedSetting(other,
                                             {QString(core::kRateCardSetting),
                                              core::rateCardSettingBody(card),
                                              1,
                                              stored->at(1).configHash,
                                              core::SettingWriter{QStringLiteral("ops"), QStringLiteral("cli")},
                                              QStringLiteral("test")}));
    }
    EXPECT_EQ(currencyAtStart(), QStringLiteral("GBP")) << "an unchanged config keeps the store's edit";
    EXPECT_EQ(currencyAtStart(), QStringLiteral("GBP"));
    configWithCurrency(QStringLiteral("CHF"));
    EXPECT_EQ(currencyAtStart(), QStringLiteral("CHF")) << "a changed config is applied again";
    options.history = false;
    configWithCurrency(QStringLiteral("SEK"));
    EXPECT_EQ(currencyAtStart(), QStringLiteral("SEK")) << "without a store: the config's";
}

TEST(Runtime, AMissingFileIsNoSourcesOnlyWhereOptionalAndABadOneIsRefusedNamingIt)
{
    QTemporaryDir dir;
    core::InMemoryCredentialStore secrets;
    core::RuntimeOptions options;
    options.configPath = dir.filePath(QStringLiteral("absent.json"));
    options.credentials = &secrets;
    options.history = false;
    QString error = errorText(core::Runtime::build(options));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_TRUE(error.contains(options.configPath)) << error.toStdString();

    options.configOptional = true;
    auto emptyStarted = core::Runtime::build(options);
    ASSERT_TRUE(succeeded(emptyStarted));
    const std::unique_ptr<core::Runtime> empty = std::move(*emptyStarted);
    EXPECT_TRUE(empty->engine().sourceConfigs().isEmpty());
    EXPECT_EQ(empty->history(), nullptr);

    options.configPath = dir.filePath(QStringLiteral("bad.json"));
    writeRuntimeConfig(options.configPath, R"({"sources": [{"name": "lab", "kind": "ontap"}]})");
    error = errorText(core::Runtime::build(options));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_TRUE(error.contains(QStringLiteral("bad.json"))) << error.toStdString();
    EXPECT_TRUE(error.contains(QStringLiteral("url"))) << error.toStdString();
}

TEST(Runtime, TheDemoHookSuppliesConfigAndSecretsAndKeepsNoHistoryOnDisk)
{
    auto estate = std::make_shared<core::InMemoryCredentialStore>();
    core::RuntimeOptions options;
    options.demo = [estate](core::AppConfig *config,
                            core::ICredentialStore **credentials) -> core::Result<std::shared_ptr<void>> {
        core::SourceConfig lab;
        lab.name = QStringLiteral("lab");
        lab.url = QStringLiteral("https://127.0.0.1:1");
        config->sources = {lab};
        *credentials = estate.get();
        return std::shared_ptr<void>(estate);
    };
    options.startSources = false;
    QString error;
    auto runtimeStarted = core::Runtime::build(options);
    ASSERT_TRUE(succeeded(runtimeStarted));
    const std::unique_ptr<core::Runtime> runtime = std::move(*runtimeStarted);
    EXPECT_TRUE(runtime->isDemo());
    EXPECT_TRUE(runtime->configPath().isEmpty());
    EXPECT_EQ(runtime->config().sources.size(), 1);
    EXPECT_TRUE(runtime->engine().sourceConfigs().isEmpty()) << "startSources = false";
    EXPECT_EQ(&runtime->credentials(), estate.get());
    ASSERT_NE(runtime->history(), nullptr) << runtime->historyError().toStdString();

    options.demo = [](core::AppConfig *, core::ICredentialStore **) -> core::Result<std::shared_ptr<void>> {
        return core::fail(QStringLiteral("no loopback"));
    };
    error = errorText(core::Runtime::build(options));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(error, QStringLiteral("no loopback"));
}

TEST(Runtime, RetentionRunsEveryDayOfTheGivenClockWithItsCutoff)
{
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("config.json"));
    writeRuntimeConfig(config,
                       QStringLiteral(R"({"sources": [], "history": {"path": "%1", "retention_days": 7}})")
                           .arg(dir.filePath(QStringLiteral("history.sqlite")))
                           .toUtf8());
    const QDateTime start(QDate(2021, 5, 10), QTime(6, 0), Qt::UTC);
    testsupport::ManualClock clock(start);
    core::InMemoryCredentialStore secrets;
    core::RuntimeOptions options;
    options.configPath = config;
    options.credentials = &secrets;
    options.clock = &clock;
    auto built = core::Runtime::build(options);
    ASSERT_TRUE(built) << built.error().message.toStdString();
    const std::unique_ptr<core::Runtime> runtime = std::move(*built);
    core::HistoryService *history = runtime->history();
    ASSERT_NE(history, nullptr) << runtime->historyError().toStdString();
    EXPECT_EQ(&runtime->engine().clock(), &clock);

    // 6.5 days before the start: inside 7 days now, outside them a day later.
    history->recordVolumeUsage(QStringLiteral("lab"), {{QStringLiteral("v1"), 10, 100}}, start.addSecs(-156 * 3600));
    auto samples = [&] {
        std::optional<std::vector<core::UsageSample>> got;
        QObject context;
        history->volumeUsage(QStringLiteral("lab"),
                             QStringLiteral("v1"),
                             {},
                             {},
                             &context,
                             [&](core::Result<std::vector<core::UsageSample>> s) {
                                 got = valueOf(std::move(s));
                             });
        EXPECT_TRUE(QTest::qWaitFor([&] {
            return got.has_value();
        }));
        return got.value_or(std::vector<core::UsageSample>{}).size();
    };
    EXPECT_EQ(samples(), 1u);
    clock.advance(std::chrono::hours(23));
    EXPECT_EQ(samples(), 1u);
    clock.advance(std::chrono::hours(1));
    EXPECT_EQ(samples(), 0u) << "a day of the clock later the cutoff is 6 days back";
    // And the day after: the schedule goes on.
    history->recordVolumeUsage(
        QStringLiteral("lab"), {{QStringLiteral("v1"), 10, 100}}, clock.now().addSecs(-156 * 3600));
    EXPECT_EQ(samples(), 1u);
    clock.advance(std::chrono::hours(24));
    EXPECT_EQ(samples(), 0u);
}

} // namespace
