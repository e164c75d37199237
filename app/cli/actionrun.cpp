#include "app/cli/actionrun.h"

#include "models/core/runtime/engine.h"
#include "models/core/services/actions.h"
#include "models/core/services/capacityforecast.h"
#include "models/rows/levelrows.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#include <algorithm>

namespace strata::cli {

bool waitFor(const std::function<bool()> &done, QObject *context, int timeoutSeconds)
{
    if (done()) {
        return true;
    }
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    QTimer check;
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        if (done()) {
            loop.quit();
        }
    });
    Q_UNUSED(context)
    check.start(20);
    deadline.start(timeoutSeconds * 1000);
    loop.exec();
    return done();
}

int runAction(core::Engine &engine,
              const core::ActionRequest &request,
              const core::ActionPreview &preview,
              const ActionRun &run,
              QTextStream &out,
              QTextStream &err)
{
    auto fail = [&](const QString &message) {
        err << run.programName << ": " << message << '\n';
        return 1;
    };
    if (run.format == rows::Format::Json && run.dryRun) {
        out << QJsonDocument(QJsonObject{{QStringLiteral("preview"), rows::previewJson(preview)},
                                         {QStringLiteral("dry_run"), true}})
                   .toJson(QJsonDocument::Indented);
        return preview.allowed() ? 0 : 1;
    }
    if (run.format != rows::Format::Json) {
        rows::writePreview(preview, out);
    }
    if (run.dryRun) {
        out << QCoreApplication::translate("cli", "Dry run: nothing was changed.") << '\n';
        return preview.allowed() ? 0 : 1;
    }
    if (!preview.allowed()) {
        return fail(preview.blockedReason);
    }
    const core::Result<QString> submitted = engine.actions().submit(request);
    if (!submitted) {
        return fail(submitted.error().message);
    }
    const QString &id = *submitted;
    QString lastProgress;
    const QMetaObject::Connection progress =
        QObject::connect(&engine.actions(), &core::ActionManager::actionChanged, &engine, [&](const QString &changed) {
            const core::ActionRecord *r = engine.actions().find(changed);
            if (changed == id && r && !r->progress.text.isEmpty() && r->progress.text != lastProgress) {
                lastProgress = r->progress.text;
                err << "  "
                    << (r->progress.percent >= 0 ? QString::number(r->progress.percent) + QStringLiteral("% ")
                                                 : QString())
                    << r->progress.text << '\n';
                err.flush();
            }
        });
    const bool finished = waitFor(
        [&] {
            const core::ActionRecord *r = engine.actions().find(id);
            return r && r->state != core::ActionState::Running;
        },
        &engine,
        run.timeoutSeconds);
    QObject::disconnect(progress);
    const core::ActionRecord *record = engine.actions().find(id);
    if (!finished || !record) {
        return fail(
            QCoreApplication::translate("cli", "still running after %1 s; see the audit log").arg(run.timeoutSeconds));
    }
    const bool ok = record->state == core::ActionState::Succeeded;
    if (run.format == rows::Format::Json) {
        out << QJsonDocument(QJsonObject{{QStringLiteral("preview"), rows::previewJson(preview)},
                                         {QStringLiteral("action_id"), id},
                                         {QStringLiteral("state"), core::actionStateName(record->state)},
                                         {QStringLiteral("message"), record->message}})
                   .toJson(QJsonDocument::Indented);
    } else {
        out << (ok ? QCoreApplication::translate("cli", "Done: %1") : QCoreApplication::translate("cli", "Failed: %1"))
                   .arg(record->message)
            << '\n';
    }
    return ok ? 0 : 1;
}

bool refreshForecasts(core::Engine &engine, int timeoutMs)
{
    core::ForecastService &forecasts = engine.forecasts();
    forecasts.refresh();
    QDeadlineTimer deadline(timeoutMs);
    while (forecasts.isComputing() && !deadline.hasExpired()) {
        waitForSignal(&forecasts, &core::ForecastService::changed, int(std::max<qint64>(deadline.remainingTime(), 1)));
    }
    return !forecasts.isComputing();
}

} // namespace strata::cli
