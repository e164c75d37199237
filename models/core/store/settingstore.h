#pragma once

// The shared settings as the store keeps them (the rate card and the cache targets): their
// bodies, the start-up precedence between a config file and the store, and audited edits.
// SharedSettings (models/core/runtime/sharedsettings.h) applies them to a running engine.

#include "models/core/domain/error.h"
#include "models/core/domain/ratecard.h"
#include "models/core/store/config.h"
#include "models/core/store/historystore.h"

#include <QByteArray>
#include <QLatin1String>
#include <QList>
#include <QString>

namespace strata::core {

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

} // namespace strata::core
