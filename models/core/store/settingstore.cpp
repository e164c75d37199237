#include "models/core/store/settingstore.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QUuid>

#include <optional>
#include <vector>

namespace strata::core {

namespace {

/// How many times adoptConfigSetting() reads again after losing a write to another process.
constexpr int kAdoptAttempts = 4;

QString settingWriterName(const SettingWriter &writer)
{
    return writer.replica.isEmpty() ? writer.user : writer.user + QStringLiteral(" on ") + writer.replica;
}

std::optional<SharedSetting> settingNamed(const std::vector<SharedSetting> &all, const QString &name)
{
    for (const SharedSetting &s : all) {
        if (s.name == name) {
            return s;
        }
    }
    return std::nullopt;
}

} // namespace

QByteArray rateCardSettingBody(const RateCard &card)
{
    return QJsonDocument(card.toJson()).toJson(QJsonDocument::Compact);
}

QByteArray cacheTargetsSettingBody(const QList<CacheTargetConfig> &targets)
{
    return QJsonDocument(cacheTargetsToJson(targets)).toJson(QJsonDocument::Compact);
}

QString settingBodyHash(const QByteArray &body)
{
    return QString::fromLatin1(QCryptographicHash::hash(body, QCryptographicHash::Sha256).toHex());
}

namespace {

/// The JSON of a stored setting: an object (`array` false) or an array, else a Kind::Invalid
/// error naming the setting.
Result<QJsonDocument> settingDocument(const QByteArray &body, QLatin1String name, bool array)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error == QJsonParseError::NoError && (array ? doc.isArray() : doc.isObject())) {
        return doc;
    }
    return core::fail(Error::invalid(
        QString(name),
        QStringLiteral("the %1 %2 not a JSON %3%4")
            .arg(settingDisplayName(QString(name)),
                 array ? QStringLiteral("are") : QStringLiteral("is"),
                 array ? QStringLiteral("array") : QStringLiteral("object"),
                 error.error != QJsonParseError::NoError ? QStringLiteral(": ") + error.errorString() : QString())));
}

} // namespace

Result<RateCard> rateCardFromSetting(const QByteArray &body)
{
    const Result<QJsonDocument> doc = settingDocument(body, kRateCardSetting, false);
    return doc ? RateCard::fromJson(doc->object()) : Result<RateCard>(core::fail(doc.error()));
}

Result<QList<CacheTargetConfig>> cacheTargetsFromSetting(const QByteArray &body, const QList<SourceConfig> *sources)
{
    const Result<QJsonDocument> doc = settingDocument(body, kCacheTargetsSetting, true);
    return doc ? cacheTargetsFromJson(doc->array(), sources)
               : Result<QList<CacheTargetConfig>>(core::fail(doc.error()));
}

QString settingDisplayName(const QString &name)
{
    if (name == kRateCardSetting) {
        return QStringLiteral("rate card");
    }
    if (name == kCacheTargetsSetting) {
        return QStringLiteral("cache targets");
    }
    return name;
}

Result<SharedSetting> writeSharedSetting(IHistoryStore &store, const SettingEdit &edit)
{
    AuditEntry audit;
    audit.user = edit.writer.user;
    audit.replica = edit.writer.replica;
    audit.actionId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    audit.kind = QStringLiteral("setting.") + edit.name;
    audit.target = settingDisplayName(edit.name);
    audit.fromState = edit.expectedRevision > 0 ? QStringLiteral("revision %1").arg(edit.expectedRevision) : QString();
    audit.toState = QStringLiteral("revision %1").arg(edit.expectedRevision + 1);
    audit.outcome = QStringLiteral("succeeded");
    audit.message = edit.how;
    return store.putSharedSetting(
        SharedSetting{edit.name, edit.body, 0, {}, settingWriterName(edit.writer), edit.configHash},
        edit.expectedRevision,
        audit);
}

Result<AdoptedSetting> adoptConfigSetting(IHistoryStore &store, const SettingSeed &seed, const SettingWriter &writer)
{
    const QString hash = settingBodyHash(seed.body);
    for (int attempt = 0;; ++attempt) {
        Result<std::vector<SharedSetting>> all = store.sharedSettings();
        if (!all) {
            return core::fail(all.error());
        }
        const std::optional<SharedSetting> row = settingNamed(*all, seed.name);
        if (row && row->configHash == hash) {
            return AdoptedSetting{*row, SettingOrigin::Store};
        }
        Result<SharedSetting> written = SharedSetting{};
        SettingOrigin origin = SettingOrigin::Store;
        if (!row) {
            origin = SettingOrigin::Seeded;
            written = store.putSharedSetting(
                SharedSetting{seed.name, seed.body, 0, {}, settingWriterName(writer), hash}, 0, std::nullopt);
        } else if (row->configHash.isEmpty() || row->body == seed.body) {
            // Nothing to apply: the stored value stays and remembers which config value it has seen.
            SharedSetting keep = *row;
            keep.configHash = hash;
            written = store.putSharedSetting(keep, row->revision, std::nullopt);
        } else {
            origin = SettingOrigin::ConfigChanged;
            const QString how =
                seed.configPath.isEmpty()
                    ? QStringLiteral("the configured value changed since it was last applied")
                    : QStringLiteral("config file %1 changed since it was last applied").arg(seed.configPath);
            written = writeSharedSetting(store, {seed.name, seed.body, row->revision, hash, writer, how});
        }
        if (written) {
            return AdoptedSetting{*written, origin};
        }
        // Another process starting at once wrote first: read again and decide on its value.
        if (written.error().kind != Error::Kind::Conflict || attempt + 1 >= kAdoptAttempts) {
            return core::fail(written.error());
        }
    }
}

} // namespace strata::core
