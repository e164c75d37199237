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

#include "models/core/domain/error.h"
#include "models/core/store/config.h"
#include "models/core/store/historystore.h"

#include <QByteArray>
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

/// Setting names, as the config file's keys.
inline constexpr QLatin1String kRateCardSetting{"rate_card"};
inline constexpr QLatin1String kCacheTargetsSetting{"cache_targets"};

/// Who writes a setting: the store's updated_by ("<user> on <replica>") and the audit entry.
struct SettingWriter
{
    QString user;    ///< OS user (desktop, CLI), "strata-server"
    QString replica; ///< replica id or "<host>/<pid>" (ActionManager::ownerId())
};

/// What a config file says about one setting.
struct SettingSeed
{
    QString name;       ///< kRateCardSetting, kCacheTargetsSetting
    QByteArray body;    ///< the config's value, rateCardSettingBody() / cacheTargetsSettingBody()
    QString configPath; ///< named in the audit entry when the value is applied again
};

/// Where the value a process starts with came from (adoptConfigSetting()).
enum class SettingOrigin
{
    Seeded,        ///< the store had none: the config's value, now stored
    Store,         ///< the store's value (the config's is unchanged since the store took it)
    ConfigChanged, ///< the config's value changed since the store took it: applied again
};

struct AdoptedSetting
{
    SharedSetting setting; ///< as stored now
    SettingOrigin origin = SettingOrigin::Store;
};

/// Compact JSON of RateCard::toJson() (keys sorted, so equal cards have equal bodies).
QByteArray rateCardSettingBody(const RateCard &card);
/// Compact JSON of the config's "cache_targets" array (cacheTargetsToJson()).
QByteArray cacheTargetsSettingBody(const QList<CacheTargetConfig> &targets);
/// Lower-case hex SHA-256 of `body` (SharedSetting::configHash).
QString settingBodyHash(const QByteArray &body);
/// A rate card from a stored body; Kind::Invalid naming the setting when it is not one.
Result<RateCard> rateCardFromSetting(const QByteArray &body);
/// Cache targets from a stored body, checked as the config file's (cacheTargetsFromJson(),
/// `sources` nullptr = no check of their clusters); Kind::Invalid naming the target.
Result<QList<CacheTargetConfig>> cacheTargetsFromSetting(const QByteArray &body, const QList<SourceConfig> *sources);
/// "rate card", "cache targets" (audit targets, messages); other names as they are.
QString settingDisplayName(const QString &name);

/// The start-up precedence rule for one setting on `store` (its own thread): seeds the store
/// with the config's value when it has none, applies it again (a write audited as `writer`)
/// when its hash differs from the stored configHash, else keeps the store's value (a stored
/// value no config file wrote takes the config's hash, its body unchanged). Retries a write
/// that lost a race with another process starting at once. The store's error otherwise.
Result<AdoptedSetting> adoptConfigSetting(IHistoryStore &store, const SettingSeed &seed, const SettingWriter &writer);

/// One edit of a shared setting (writeSharedSetting()).
struct SettingEdit
{
    QString name;
    QByteArray body;             ///< compact JSON
    qint64 expectedRevision = 0; ///< the revision the edit is based on; 0 = none stored yet
    QString configHash;          ///< kept as the stored configHash (an edit is not the config's)
    SettingWriter writer;
    QString how; ///< the audit entry's message: "desktop rate card dialog"
};

/// Writes `edit.body` as setting `edit.name` over revision `edit.expectedRevision`
/// (compare-and-set: a Kind::Conflict error when another write came first) with an audit entry
/// (kind "setting.<name>", revisions as from/to state) in the same transaction.
Result<SharedSetting> writeSharedSetting(IHistoryStore &store, const SettingEdit &edit);

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
