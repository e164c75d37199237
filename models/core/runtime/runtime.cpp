#include "models/core/runtime/runtime.h"

#include "models/core/runtime/engine.h"
#include "models/core/runtime/sharedsettings.h"
#include "models/core/services/historyservice.h"
#include "models/core/store/auditspool.h"
#include "models/core/store/historystore.h"

#include <QDebug>
#include <QFileInfo>

namespace strata::core {

Runtime::~Runtime()
{
    m_settings.reset();
    if (m_retention) {
        m_clock->cancel(m_retention);
    }
}

void Runtime::keepRetention()
{
    m_history->applyRetention(m_clock->now().toUTC().addDays(-m_config.historyRetentionDays));
    m_retention = m_clock->callAfter(std::chrono::hours(24), m_history.get(), [this] {
        keepRetention();
    });
}

HistoryService *Runtime::history() const
{
    return m_historyError.isEmpty() ? m_history.get() : nullptr;
}

Result<std::unique_ptr<Runtime>> Runtime::build(RuntimeOptions options)
{
    std::unique_ptr<Runtime> r(new Runtime);
    if (options.clock) {
        r->m_clock = options.clock;
    }
    if (options.demo) {
        Result<std::shared_ptr<void>> demo = options.demo(&r->m_config, &r->m_credentials);
        if (!demo) {
            return core::fail(demo.error());
        }
        r->m_demo = std::move(*demo);
    } else {
        r->m_configPath = options.configPath.isEmpty() ? AppConfig::defaultPath() : options.configPath;
        const bool absent = options.configOptional && !QFileInfo::exists(r->m_configPath);
        // Refuse rather than later overwrite a file that could not be read.
        if (const Status loaded = absent ? Status() : AppConfig::load(r->m_configPath, &r->m_config); !loaded) {
            return core::fail(loaded.error());
        }
        r->m_credentials = options.credentials;
    }
    if (!r->m_credentials) {
        return core::fail(QStringLiteral("no credential store"));
    }

    if (options.history) {
        // The demo leaves no trace: its history (with the days it ships with) lives in its
        // temporary directory, or in memory when it names none.
        const bool inMemory = r->m_demo && r->m_config.historyPath.isEmpty() && r->m_config.store.isEmpty();
        QString location = options.store;
        if (location.isEmpty()) {
            location = inMemory ? QStringLiteral(":memory:") : historyPathFor(r->m_config);
        }
        r->m_history = std::make_unique<HistoryService>(std::make_unique<SqlHistoryStore>(location, *r->m_clock));
        r->m_historyError = r->m_history->openError();
        // Audit entries survive a store outage (and this process ending during one) in a spool.
        if (const QString spool = options.auditSpool.isEmpty() ? auditSpoolPathFor(location) : options.auditSpool;
            !spool.isEmpty() && r->m_historyError.isEmpty()) {
            if (const Status enabled = r->m_history->enableAuditSpool(spool); !enabled) {
                qWarning().noquote() << "audit entries are not spooled:" << enabled.error().message;
            }
        }
        if (r->m_historyError.isEmpty()) {
            // At start and then daily, for sessions left open.
            r->keepRetention();
        }
    }

    Engine::Deps deps{*r->m_clock, *r->m_credentials, r->history(), options.user};
    deps.runSchedules = options.runSchedules;
    deps.firstPollDeadline = options.firstPollDeadline;
    r->m_engine = std::make_unique<Engine>(deps);
    if (HistoryService *history = r->history()) {
        // The store's rate card and cache targets, shared with every process on it; the config's
        // seed it, or apply again once they changed (sharedsettings.h).
        r->m_settings = std::make_unique<SharedSettings>(
            *r->m_engine,
            *history,
            SettingWriter{options.user,
                          options.replicaId.isEmpty() ? r->m_engine->actions().ownerId() : options.replicaId});
        if (const Status adopted = r->m_settings->adopt(r->m_config, r->m_configPath); !adopted) {
            r->m_settingsError = adopted.error().message;
        }
    } else {
        r->m_engine->setRateCard(r->m_config.rateCard);
        r->m_engine->setCacheTargets(r->m_config.cacheTargets);
    }
    if (options.startSources) {
        r->m_engine->setSources(r->m_config.sources);
    }
    return r;
}

} // namespace strata::core
