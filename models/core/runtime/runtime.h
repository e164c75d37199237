#pragma once

#include "models/core/domain/clock.h"
#include "models/core/store/config.h"

#include <QString>

#include <chrono>
#include <functional>
#include <memory>

namespace strata::core {

class Engine;
class HistoryService;
class ICredentialStore;
class SharedSettings;

/// Starts the demo estate for a Runtime: sets `config` to its sources and `credentials` to the
/// in-memory store of their secrets. The returned handle owns both and keeps the simulators
/// running until released; why not on failure. demo::startForCommand and demo::starter() are
/// ones (core links no simulator: only the apps' main.cpp pass one).
using DemoStarter = std::function<Result<std::shared_ptr<void>>(AppConfig *config, ICredentialStore **credentials)>;

/// How much of the demo estate a one-shot command needs (the CLI's `--demo`): a listing starts
/// only the simulators behind the sources its resource reads, and no past history when it opens
/// no history store. The default is the whole estate.
struct DemoScope
{
    /// Kinds of the sources to start; empty = every one. The config still names every demo
    /// source (so `--source NAME` is checked as always); the ones left out are not started and
    /// must not be polled.
    QList<SourceKind> kinds;
    /// Record the estate's past hours of volume performance (demohistory.h). Off when the command
    /// opens no history store; Kubernetes clusters in scope still run from their past start.
    bool history = true;
    /// The demo's whole past (DemoEstate::Options::historyHours, as the desktop app and
    /// strata-server start it) instead of the day a one-shot command usually reads: a month's
    /// chargeback and the fill forecasts read days back, and should match the other two.
    bool fullHistory = false;

    /// Hours of past the demo estate begins with: the desktop app's and strata-server's (and a
    /// command's with fullHistory), and a one-shot command's otherwise (a command reads at most
    /// a day back: p95 over 24 h, `bundle export --hours 24`).
    static constexpr int kFullHistoryHours = 72;
    static constexpr int kOneShotHistoryHours = 25;
    [[nodiscard]] int historyHours() const { return fullHistory ? kFullHistoryHours : kOneShotHistoryHours; }

    /// True when a source of `kind` is in scope.
    [[nodiscard]] bool wants(SourceKind kind) const { return kinds.isEmpty() || kinds.contains(kind); }
};

/// What a Runtime is built from.
struct RuntimeOptions
{
    /// Set: run against the demo estate (history in memory, nothing saved). Unset: the config file.
    DemoStarter demo;
    /// The config file; empty = AppConfig::defaultPath(). Ignored with `demo`.
    QString configPath;
    /// A missing config file means "no sources yet" (the desktop's first start) instead of an error.
    bool configOptional = false;
    /// Secrets of the config file's sources (keychain, env/files); must outlive the Runtime.
    /// Required without `demo`.
    ICredentialStore *credentials = nullptr;
    /// Open the history store (historyPathFor(config); ":memory:" for the demo) and apply the
    /// config's retention at start and every 24 h. Off = no store (engine.history() is nullptr).
    bool history = true;
    /// The history store's location when set, overriding the config's (and, with `demo`, the
    /// in-memory one): a SQLite path or a PostgreSQL URL, its password included when it has one
    /// (SqlHistoryStore keeps it out of messages).
    QString store;
    /// The audit spool (HistoryService::enableAuditSpool()); empty = auditSpoolPathFor(the
    /// store). None for an in-memory store.
    QString auditSpool;
    QString user; ///< recorded in the audit log
    /// This process among replicas sharing a store (ReplicaCoordinator::Options::replicaId), named
    /// in the audit entry when a changed config value is applied to the shared settings at start;
    /// empty = the action journal's owner id ("<host>/<pid>").
    QString replicaId;
    bool runSchedules = false;
    std::chrono::milliseconds firstPollDeadline{0}; ///< Engine::Deps::firstPollDeadline
    /// Apply config().sources to the engine at once; off for callers that choose which to poll.
    bool startSources = true;
    /// The time of the engine, the history store and the retention schedule; nullptr = the
    /// system clock the Runtime owns. A given clock (tests: a ManualClock) must outlive it.
    IClock *clock = nullptr;
};

/// One application's start-up wiring, the same for the desktop app, strata-server and the CLI:
/// the config file or the demo estate → credentials → history store + retention → Engine (with
/// the rate card and cache targets the store shares, else the config's, and, unless told
/// otherwise, the config's sources). Owns all of it and tears it down in reverse order.
class Runtime
{
public:
    /// The demo starter's error when the demo estate does not start, AppConfig::load's one-line
    /// error naming the file when the config cannot be loaded. A history store that does not
    /// open is not an error: historyError() says why and the engine runs without one.
    static Result<std::unique_ptr<Runtime>> build(RuntimeOptions options);
    ~Runtime();
    Runtime(const Runtime &) = delete;
    Runtime &operator=(const Runtime &) = delete;

    [[nodiscard]] const AppConfig &config() const { return m_config; }
    /// The config file in use; empty in demo mode.
    [[nodiscard]] QString configPath() const { return m_configPath; }
    [[nodiscard]] bool isDemo() const { return m_demo != nullptr; }
    [[nodiscard]] Engine &engine() { return *m_engine; }
    [[nodiscard]] ICredentialStore &credentials() { return *m_credentials; }
    /// nullptr when not wanted or it did not open.
    [[nodiscard]] HistoryService *history() const;
    /// Why the wanted history store did not open; empty otherwise.
    [[nodiscard]] QString historyError() const { return m_historyError; }
    /// The rate card and cache targets shared through the history store (adopted from the
    /// config at build); nullptr without a store (the engine then has the config's values).
    [[nodiscard]] SharedSettings *settings() const { return m_settings.get(); }
    /// Why the shared settings could not be read or seeded at build (the engine then has the
    /// config's values); empty otherwise.
    [[nodiscard]] QString settingsError() const { return m_settingsError; }

private:
    Runtime() = default;
    /// Applies the config's retention now, then every 24 h of the clock.
    void keepRetention();

    // Declared in build order: destroyed engine first, the demo estate last.
    std::shared_ptr<void> m_demo;
    AppConfig m_config;
    QString m_configPath;
    ICredentialStore *m_credentials = nullptr;
    SystemClock m_systemClock;
    IClock *m_clock = &m_systemClock;
    std::unique_ptr<HistoryService> m_history;
    QString m_historyError;
    IClock::TimerId m_retention = 0;
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<SharedSettings> m_settings;
    QString m_settingsError;
};

} // namespace strata::core
