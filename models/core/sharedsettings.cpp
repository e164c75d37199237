#include "models/core/sharedsettings.h"

#include "models/core/engine.h"
#include "models/core/historyservice.h"
#include "models/core/replicas.h"
#include "models/core/servicelevels.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QPointer>
#include <QTimer>
#include <QUuid>

namespace strata::core {

namespace {

Q_LOGGING_CATEGORY(lcSettings, "strata.settings", QtInfoMsg)

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

// ---------------------------------------------------------------------------------------------

SharedSettings::SharedSettings(Engine &engine, HistoryService &history, SettingWriter self, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_history(history)
    , m_self(std::move(self))
{}

SharedSettings::~SharedSettings() = default;

Status SharedSettings::adopt(const AppConfig &config, const QString &configPath)
{
    const std::vector<SettingSeed> seeds{
        {QString(kRateCardSetting), rateCardSettingBody(config.rateCard), configPath},
        {QString(kCacheTargetsSetting), cacheTargetsSettingBody(config.cacheTargets), configPath},
    };
    m_engine.setRateCard(config.rateCard);
    m_engine.setCacheTargets(config.cacheTargets);
    const Result<std::vector<AdoptedSetting>> adopted = m_history.adoptSettings(seeds, m_self);
    if (!adopted) {
        return core::fail(adopted.error());
    }
    for (const AdoptedSetting &a : *adopted) {
        m_known.insert(a.setting.name, a.setting);
        if (a.origin == SettingOrigin::Seeded || !apply(a.setting, config.sources)) {
            continue;
        }
        // An unchanged store is not news (one-shot CLI commands start here every time).
        if (a.origin == SettingOrigin::ConfigChanged) {
            qCInfo(lcSettings).noquote() << "the" << settingDisplayName(a.setting.name)
                                         << "changed in the config file: applied again as revision"
                                         << a.setting.revision;
        } else {
            qCDebug(lcSettings).noquote() << "the" << settingDisplayName(a.setting.name) << "from the store: revision"
                                          << a.setting.revision << "by" << a.setting.updatedBy;
        }
    }
    return {};
}

void SharedSettings::follow(ReplicaCoordinator &coordinator)
{
    m_self.replica = coordinator.replicaId();
    connect(&coordinator, &ReplicaCoordinator::settingsMayHaveChanged, this, &SharedSettings::refresh);
}

void SharedSettings::watch(std::chrono::milliseconds every)
{
    if (m_timer) {
        return;
    }
    m_history.listenForSharedStates(
        this,
        [this](const QString &payload) {
            if (payload.startsWith(QLatin1String("setting:"))) {
                refresh();
            }
        },
        [](bool) {});
    m_timer = new QTimer(this);
    m_timer->setInterval(every);
    connect(m_timer, &QTimer::timeout, this, &SharedSettings::refresh);
    m_timer->start();
}

void SharedSettings::refresh()
{
    if (m_reading) {
        m_readAgain = true;
        return;
    }
    m_reading = true;
    m_readAgain = false;
    m_history.sharedSettings(this, [this](Result<std::vector<SharedSetting>> all) {
        m_reading = false;
        if (!all) {
            qCDebug(lcSettings).noquote() << "cannot read the shared settings:" << all.error().message;
        } else {
            for (const SharedSetting &s : *all) {
                // Only newer: a read that started before one of our own writes answers older.
                if (s.revision <= m_known.value(s.name).revision) {
                    continue;
                }
                m_known.insert(s.name, s);
                if (apply(s, m_engine.sourceConfigs())) {
                    qCInfo(lcSettings).noquote() << "the" << settingDisplayName(s.name) << "changed: revision"
                                                 << s.revision << "by" << s.updatedBy;
                    Q_EMIT applied(s.name, s.revision);
                }
            }
        }
        if (m_readAgain) {
            refresh();
        }
    });
}

void SharedSettings::setRateCard(const RateCard &card,
                                 const QString &how,
                                 QObject *context,
                                 std::function<void(Status)> done)
{
    write(QString(kRateCardSetting), rateCardSettingBody(card), how, context, std::move(done));
}

void SharedSettings::setCacheTargets(const QList<CacheTargetConfig> &targets,
                                     const QString &how,
                                     QObject *context,
                                     std::function<void(Status)> done)
{
    const QByteArray body = cacheTargetsSettingBody(targets);
    const QList<SourceConfig> sources = m_engine.sourceConfigs();
    if (const auto checked = cacheTargetsFromSetting(body, &sources); !checked) {
        QMetaObject::invokeMethod(
            context,
            [done = std::move(done), error = checked.error()] {
                done(core::fail(error));
            },
            Qt::QueuedConnection);
        return;
    }
    write(QString(kCacheTargetsSetting), body, how, context, std::move(done));
}

std::optional<SharedSetting> SharedSettings::stored(const QString &name) const
{
    const auto it = m_known.constFind(name);
    return it == m_known.cend() ? std::nullopt : std::optional<SharedSetting>(*it);
}

void SharedSettings::write(
    const QString &name, const QByteArray &body, const QString &how, QObject *context, std::function<void(Status)> done)
{
    const SharedSetting known = m_known.value(name);
    QPointer<QObject> target(context);
    m_history.writeSharedSetting(SettingEdit{name, body, known.revision, known.configHash, m_self, how},
                                 this,
                                 [this, name, target, done = std::move(done)](Result<SharedSetting> written) {
                                     if (written && written->revision > m_known.value(name).revision) {
                                         m_known.insert(name, *written);
                                         if (apply(*written, m_engine.sourceConfigs())) {
                                             Q_EMIT applied(name, written->revision);
                                         }
                                     } else if (!written && written.error().kind == Error::Kind::Conflict) {
                                         refresh(); // show what the other writer stored
                                     }
                                     if (target && done) {
                                         done(written ? Status{} : Status(core::fail(written.error())));
                                     }
                                 });
}

bool SharedSettings::apply(const SharedSetting &setting, const QList<SourceConfig> &sources)
{
    if (setting.name == kRateCardSetting) {
        const Result<RateCard> card = rateCardFromSetting(setting.body);
        if (!card) {
            qCWarning(lcSettings).noquote()
                << QStringLiteral("the stored rate card (revision %1 by %2) is not applied: %3")
                       .arg(setting.revision)
                       .arg(setting.updatedBy, card.error().message);
            return false;
        }
        if (!(*card == m_engine.serviceLevels().rateCard())) {
            m_engine.setRateCard(*card);
        }
        return true;
    }
    if (setting.name == kCacheTargetsSetting) {
        const Result<QList<CacheTargetConfig>> targets = cacheTargetsFromSetting(setting.body, &sources);
        if (!targets) {
            qCWarning(lcSettings).noquote()
                << QStringLiteral("the stored cache targets (revision %1 by %2) are not applied: %3")
                       .arg(setting.revision)
                       .arg(setting.updatedBy, targets.error().message);
            return false;
        }
        if (*targets != m_engine.cacheTargets()) {
            m_engine.setCacheTargets(*targets);
        }
        return true;
    }
    return false; // a setting of a newer build: not ours to apply
}

} // namespace strata::core
