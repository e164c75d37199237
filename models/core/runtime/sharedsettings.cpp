#include "models/core/runtime/sharedsettings.h"

#include "models/core/runtime/engine.h"
#include "models/core/runtime/replicas.h"
#include "models/core/services/historyservice.h"
#include "models/core/services/servicelevels.h"

#include <QLoggingCategory>
#include <QPointer>
#include <QTimer>

namespace strata::core {

namespace {

Q_LOGGING_CATEGORY(lcSettings, "strata.settings", QtInfoMsg)

} // namespace

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
