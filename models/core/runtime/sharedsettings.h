#pragma once

// Settings that every process sharing a store uses from the store instead of its own config
// file: the rate card and the cache targets. strata-server replicas, a desktop app and the
// CLI on one store see one value; an edit made anywhere reaches the others within seconds.
//
// Precedence (like Grafana provisioning): at start the store's value is used. The config file's
// value seeds the store when the store has none, and a config value that changed since the store
// last took it (the store keeps its hash) is applied again, so an edited Helm ConfigMap or
// config.json still takes effect; an unchanged config file never overrides an edit made through
// the store.

#include "models/core/store/settingstore.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <chrono>
#include <functional>
#include <optional>
#include <vector>

class QTimer;

namespace strata::core {

class Engine;
class HistoryService;
class ReplicaCoordinator;

/// One process's view of the shared settings, applied to its Engine (Engine::setRateCard(),
/// Engine::setCacheTargets()) on the owner (GUI) thread; store I/O runs on the HistoryService's
/// thread. Changes made elsewhere are read when the store signals them (PostgreSQL NOTIFY
/// "strata_state", payload "setting:<name>") and on a fallback read every couple of seconds: a
/// replica follows its ReplicaCoordinator's (follow()), a process without one listens itself
/// (watch()). A stored value that does not parse (or names a cluster this process does not
/// know) is logged and not applied; the engine keeps what it had.
class SharedSettings final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SharedSettings)

public:
    SharedSettings(Engine &engine, HistoryService &history, SettingWriter self, QObject *parent = nullptr);
    ~SharedSettings() override;

    /// At start, blocking on the history thread: adoptConfigSetting() for the config's rate
    /// card and cache targets (`configPath` as their origin; empty in demo mode), then applies
    /// the results to the engine. When the store fails the engine gets the config's values and
    /// the store's error comes back.
    Status adopt(const AppConfig &config, const QString &configPath);
    /// Reads the store whenever `coordinator` was told of a setting change or runs its fallback
    /// read (ReplicaCoordinator::settingsMayHaveChanged()); writes name its replica id. The
    /// coordinator must outlive this object or be destroyed first.
    void follow(ReplicaCoordinator &coordinator);
    /// Without a coordinator (desktop app, a single server): listens on the store (PostgreSQL)
    /// and reads it every `every` in case a notification was missed or the store cannot notify
    /// (SQLite shared with the CLI). Takes the store's only listener: not with follow().
    void watch(std::chrono::milliseconds every = std::chrono::milliseconds(2000));
    /// Reads the store now and applies what changed since the last read (asynchronous).
    void refresh();

    /// Writes the rate card over the revision this process last read (a Kind::Conflict error
    /// when it changed elsewhere meanwhile: refresh() runs and the caller may try again), with
    /// an audit entry whose message is `how`; applied here once stored. `done(status)` on
    /// `context`'s thread.
    void setRateCard(const RateCard &card, const QString &how, QObject *context, std::function<void(Status)> done);
    /// As setRateCard(), for the cache targets (checked against the engine's sources first:
    /// Kind::Invalid, nothing written).
    void setCacheTargets(const QList<CacheTargetConfig> &targets,
                         const QString &how,
                         QObject *context,
                         std::function<void(Status)> done);

    /// The setting as last read or written here; nullopt when the store has none.
    [[nodiscard]] std::optional<SharedSetting> stored(const QString &name) const;

Q_SIGNALS:
    /// The engine took revision `revision` of setting `name` (read from the store or written here).
    void applied(const QString &name, qint64 revision);

private:
    void write(const QString &name,
               const QByteArray &body,
               const QString &how,
               QObject *context,
               std::function<void(Status)> done);
    /// Parses `setting` and hands it to the engine; false (logged) when it does not parse.
    bool apply(const SharedSetting &setting, const QList<SourceConfig> &sources);

    Engine &m_engine;
    HistoryService &m_history;
    SettingWriter m_self;
    QHash<QString, SharedSetting> m_known;
    QTimer *m_timer = nullptr;
    bool m_reading = false;
    bool m_readAgain = false;
};

} // namespace strata::core
