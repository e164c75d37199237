// Support bundles of the live demo estate (ONTAP, dgx, ai-lab with aks-gpu, datalake): every
// `get` listing answered from the opened bundle equals the live one at the moment of export,
// and the CLI's bundle export / --bundle get / bundle diff work end to end.

#include "app/cli/cli.h"
#include "demo/demoestate.h"
#include "models/core/domain/clock.h"
#include "models/core/runtime/bundle.h"
#include "models/core/runtime/engine.h"
#include "models/core/runtime/timeline.h"
#include "models/core/services/capacityforecast.h"
#include "models/core/services/historyservice.h"
#include "models/core/sources/source.h"
#include "models/core/store/credentialstore.h"
#include "models/core/store/historystore.h"
#include "models/rows/resources.h"
#include "tests/support/qt/corestatus.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTextStream>

#include <gtest/gtest.h>

using strata::testsupport::succeeded;
using namespace strata;

namespace {

constexpr int kBundleTimeoutMs = 60000;

template <class Pred> bool waitForBundle(Pred pred, int ms = kBundleTimeoutMs)
{
    QDeadlineTimer deadline(ms);
    while (!pred() && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return pred();
}

QString rowsText(core::Engine &engine, const QString &resource, const QDateTime &now)
{
    const std::optional<rows::ResultSet> rows = rows::resourceRows(engine, resource, {}, now);
    if (!rows) {
        return QStringLiteral("<unknown resource>");
    }
    QString text;
    QTextStream out(&text);
    rows::write(*rows, rows::Format::Json, out);
    out.flush();
    return text;
}

struct BundleCliRun
{
    int code = -1;
    QString out;
    QString err;
};

BundleCliRun runCli(const QStringList &args)
{
    core::InMemoryCredentialStore unused;
    BundleCliRun r;
    QTextStream out(&r.out);
    QTextStream err(&r.err);
    r.code = cli::run(args,
                      unused,
                      cli::Console{QStringLiteral("strata"), QStringLiteral("cli-test"), out, err},
                      cli::RunHooks{.answered = {}, .startDemo = strata::demo::startScopedForCommand});
    out.flush();
    err.flush();
    return r;
}

} // namespace

TEST(BundleRoundTrip, EveryGetListingFromTheBundleEqualsTheLiveOne)
{
    QString error;
    auto demoStarted = strata::demo::DemoEstate::start({});
    ASSERT_TRUE(succeeded(demoStarted));
    std::unique_ptr<demo::DemoEstate> demo = std::move(*demoStarted);
    core::SystemClock clock;
    core::HistoryService history(std::make_unique<core::SqlHistoryStore>(QStringLiteral(":memory:"), clock));
    core::Engine live({clock, demo->credentials(), &history, QStringLiteral("tester")});
    live.setRateCard(demo->config().rateCard);
    live.setCacheTargets(demo->config().cacheTargets);
    live.setSources(demo->config().sources);
    ASSERT_TRUE(waitForBundle([&] {
        return live.allPolledOnce();
    }));
    // Snapshots of every ONTAP volume, as `get snapshots` lists them.
    int pending = 0;
    for (const core::Ptr<core::Volume> &v : live.estate().volumes().all()) {
        if (core::Source *source = live.source(v->source); source && !v->isAnf()) {
            ++pending;
            source->snapshotProvider()->fetchSnapshots(v->id, [&pending](const QString &) {
                --pending;
            });
        }
    }
    ASSERT_TRUE(waitForBundle([&] {
        return pending == 0;
    }));

    // The live rows and the bundle come from the same moment: nothing runs in between.
    const QDateTime now = clock.now();
    QStringList resources = rows::resourceNames();
    resources.removeAll(QStringLiteral("schedules")); // the history store's, not the estate's
    QHash<QString, QString> liveRows;
    for (const QString &r : std::as_const(resources)) {
        liveRows.insert(r, rowsText(live, r, now));
    }
    std::optional<core::Bundle> bundle;
    core::BundleOptions options;
    options.now = now;
    options.user = QStringLiteral("tester");
    core::collectBundle(live, options, &live, [&](core::Bundle b, QString collectError) {
        EXPECT_TRUE(collectError.isEmpty()) << collectError.toStdString();
        bundle = std::move(b);
    });
    ASSERT_TRUE(waitForBundle([&] {
        return bundle.has_value();
    }));
    EXPECT_GT(bundle->estate.countOf(QStringLiteral("ontap-ai")), 10);
    EXPECT_GT(bundle->estate.countOf(QStringLiteral("dgx")), 10);
    EXPECT_GT(bundle->estate.countOf(QStringLiteral("datalake")), 10);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("demo.strata-bundle"));
    core::BundleWritten written;
    ASSERT_TRUE(succeeded(core::writeBundle(*bundle, path, &written)));
    const core::Result<core::Bundle> opened = core::openBundle(path);
    ASSERT_TRUE(opened) << opened.error().message.toStdString();
    EXPECT_TRUE(*opened == *bundle) << "the file holds exactly what was collected";

    core::OfflineEngine offline(*opened, QStringLiteral("support"));
    EXPECT_EQ(offline.clock().now(), now);
    int compared = 0;
    for (const QString &r : std::as_const(resources)) {
        if (r == QLatin1String("service-levels") || r == QLatin1String("forecasts")) {
            continue; // below, once the statistics and forecasts were read from the bundle's history
        }
        const QString fromBundle = rowsText(offline.engine(), r, now);
        EXPECT_EQ(fromBundle.toStdString(), liveRows.value(r).toStdString()) << r.toStdString();
        EXPECT_GT(liveRows.value(r).size(), 10) << r.toStdString() << " has rows";
        ++compared;
    }
    EXPECT_EQ(compared, resources.size() - 2);
    // Service levels: the same volumes (their p95 flags come from statistics read later).
    const qsizetype liveLevels = liveRows.value(QStringLiteral("service-levels")).count(QStringLiteral("\"volume\""));
    EXPECT_GT(liveLevels, 0);
    EXPECT_EQ(rowsText(offline.engine(), QStringLiteral("service-levels"), now).count(QStringLiteral("\"volume\"")),
              liveLevels);

    // Forecasts: the same containers, each with the samples the bundle carried (volumes from its
    // volume usage, the other kinds from its container usage); the live service may have recorded
    // a newer sample since its last computation, so the figures themselves are not compared.
    const auto containers = [](core::Engine &engine) {
        std::map<QString, int> samples;
        for (const core::ContainerForecast &f : engine.forecasts().forecasts()) {
            samples[f.container.source + QLatin1Char('/') + core::containerKindName(f.container.kind) + QLatin1Char('/')
                    + f.container.id] = f.forecast.samples;
        }
        return samples;
    };
    const auto recompute = [](core::ForecastService &service) {
        bool changed = false;
        const QMetaObject::Connection c = QObject::connect(&service, &core::ForecastService::changed, [&changed] {
            changed = true;
        });
        service.refresh();
        const bool ok = waitForBundle([&changed] {
            return changed;
        });
        QObject::disconnect(c);
        return ok;
    };
    ASSERT_TRUE(recompute(live.forecasts()));
    ASSERT_TRUE(recompute(offline.engine().forecasts()));
    const std::map<QString, int> liveForecasts = containers(live);
    const std::map<QString, int> bundleForecasts = containers(offline.engine());
    ASSERT_FALSE(liveForecasts.empty());
    ASSERT_EQ(liveForecasts.size(), bundleForecasts.size());
    QSet<QString> kindsWithHistory;
    for (const auto &[key, liveSamples] : liveForecasts) {
        ASSERT_TRUE(bundleForecasts.contains(key)) << key.toStdString();
        if (liveSamples > 0) {
            EXPECT_GT(bundleForecasts.at(key), 0) << key.toStdString() << ": the bundle carried its history";
            kindsWithHistory.insert(key.section(QLatin1Char('/'), 1, 1));
        }
    }
    EXPECT_TRUE(kindsWithHistory.contains(QStringLiteral("volume")));
    EXPECT_TRUE(kindsWithHistory.contains(QStringLiteral("aggregate")));
    EXPECT_TRUE(kindsWithHistory.contains(QStringLiteral("bucket")));
    EXPECT_TRUE(kindsWithHistory.contains(QStringLiteral("cache_target")));
}

TEST(BundleRoundTrip, RelativeTimesOfGetEventsCountBackFromTheBundlesMoment)
{
    // A bundle made years ago: `--since 1h` means the hour before it was made, not before today.
    const QDateTime made(QDate(2022, 3, 14), QTime(15, 0), Qt::UTC);
    core::Bundle bundle;
    bundle.meta.created = made;
    bundle.meta.user = QStringLiteral("support");
    core::SourceConfig lab;
    lab.name = QStringLiteral("lab");
    lab.url = QStringLiteral("https://lab.example");
    bundle.sources = {lab};
    core::SourceStatus status;
    status.name = lab.name;
    status.url = lab.url;
    status.health = core::Health::Ok;
    bundle.statuses = {status};
    for (const auto &[id, minutesBefore] : {std::pair{"recent", 30}, std::pair{"older", 180}}) {
        core::TimelineEntry e;
        e.id = QLatin1String(id);
        e.time = made.addSecs(-60 * minutesBefore);
        e.system = QStringLiteral("ontap");
        e.source = lab.name;
        e.title = QLatin1String(id);
        bundle.events.append(core::timelineEntryToJson(e));
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("old.strata-bundle"));
    core::BundleWritten written;
    const core::Status wrote = core::writeBundle(bundle, path, &written);
    ASSERT_TRUE(wrote) << wrote.error().message.toStdString();

    const BundleCliRun events = runCli({QStringLiteral("--bundle"),
                                        path,
                                        QStringLiteral("get"),
                                        QStringLiteral("events"),
                                        QStringLiteral("--since"),
                                        QStringLiteral("1h"),
                                        QStringLiteral("-o"),
                                        QStringLiteral("json")});
    ASSERT_EQ(events.code, 0) << events.err.toStdString();
    const QJsonArray rows = QJsonDocument::fromJson(events.out.toUtf8()).array();
    ASSERT_EQ(rows.size(), 1) << events.out.toStdString();
    EXPECT_EQ(rows.at(0).toObject().value(QLatin1String("title")).toString(), QStringLiteral("recent"));
}

TEST(BundleRoundTrip, CliExportsGetsOfflineAndDiffs)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("estate.strata-bundle"));
    const BundleCliRun exported = runCli({QStringLiteral("--demo"),
                                          QStringLiteral("bundle"),
                                          QStringLiteral("export"),
                                          path,
                                          QStringLiteral("--hours"),
                                          QStringLiteral("6")});
    ASSERT_EQ(exported.code, 0) << exported.err.toStdString();
    EXPECT_TRUE(exported.out.startsWith(QStringLiteral("Wrote support bundle ") + path)) << exported.out.toStdString();
    EXPECT_TRUE(exported.out.contains(QStringLiteral("  ontap-ai: "))) << exported.out.toStdString();
    EXPECT_TRUE(exported.out.contains(QStringLiteral("  dgx: "))) << exported.out.toStdString();
    EXPECT_TRUE(exported.out.contains(QString::number(QFileInfo(path).size()) + QStringLiteral(" bytes, sha256 ")))
        << exported.out.toStdString();
    QString error;
    const core::Result<core::Bundle> bundle = core::openBundle(path);
    ASSERT_TRUE(bundle) << bundle.error().message.toStdString();
    EXPECT_EQ(bundle->meta.hours, 6);
    EXPECT_EQ(bundle->meta.user, QStringLiteral("cli-test"));
    EXPECT_FALSE(bundle->estate.snapshots.isEmpty()) << "every volume's snapshots are in";

    const BundleCliRun volumes = runCli({QStringLiteral("--bundle"),
                                         path,
                                         QStringLiteral("get"),
                                         QStringLiteral("volumes"),
                                         QStringLiteral("-o"),
                                         QStringLiteral("json")});
    ASSERT_EQ(volumes.code, 0) << volumes.err.toStdString();
    const QJsonArray rows = QJsonDocument::fromJson(volumes.out.toUtf8()).array();
    qsizetype expected = 0;
    for (const auto &list : bundle->estate.volumes) {
        expected += list.size();
    }
    EXPECT_EQ(rows.size(), expected);
    EXPECT_GT(rows.size(), 5);

    const BundleCliRun datasets =
        runCli({QStringLiteral("--bundle"), path, QStringLiteral("get"), QStringLiteral("datasets")});
    ASSERT_EQ(datasets.code, 0) << datasets.err.toStdString();
    EXPECT_TRUE(datasets.out.startsWith(QStringLiteral("7 Datasets | "))) << datasets.out.left(200).toStdString();

    // Forecasts from the bundle's history, as a server opening the bundle serves them.
    const BundleCliRun forecasts = runCli({QStringLiteral("--bundle"),
                                           path,
                                           QStringLiteral("get"),
                                           QStringLiteral("forecasts"),
                                           QStringLiteral("-o"),
                                           QStringLiteral("json")});
    ASSERT_EQ(forecasts.code, 0) << forecasts.err.toStdString();
    {
        core::OfflineEngine offline(*bundle, QStringLiteral("support"));
        core::ForecastService &service = offline.engine().forecasts();
        service.refresh();
        // The computation the engine started while loading lands first; the one asked for follows.
        ASSERT_TRUE(waitForBundle([&service] {
            return !service.isComputing() && service.computedAt().isValid();
        }));
        const auto served = offline.engine().forecasts().forecasts().size();
        EXPECT_GT(served, 10u);
        EXPECT_EQ(std::size_t(QJsonDocument::fromJson(forecasts.out.toUtf8()).array().size()), served)
            << forecasts.out.left(400).toStdString();
    }

    const BundleCliRun refused = runCli({QStringLiteral("--bundle"),
                                         path,
                                         QStringLiteral("set"),
                                         QStringLiteral("service-level"),
                                         QStringLiteral("chest_xray"),
                                         QStringLiteral("--to"),
                                         QStringLiteral("none")});
    EXPECT_EQ(refused.code, 2);
    EXPECT_TRUE(refused.err.contains(QStringLiteral("read-only"))) << refused.err.toStdString();

    const BundleCliRun same = runCli({QStringLiteral("bundle"), QStringLiteral("diff"), path, path});
    ASSERT_EQ(same.code, 0) << same.err.toStdString();
    EXPECT_EQ(same.out, QStringLiteral("No differences.\n"));

    // A second bundle with a volume less (as if it was deleted) diffs to exactly that.
    core::Bundle changed = *bundle;
    const QString ontap = QStringLiteral("ontap-ai");
    const core::Volume gone = changed.estate.volumes[ontap].takeLast();
    const QString path2 = dir.filePath(QStringLiteral("later.strata-bundle"));
    ASSERT_TRUE(succeeded(core::writeBundle(changed, path2, nullptr)));
    const BundleCliRun diff = runCli(
        {QStringLiteral("bundle"), QStringLiteral("diff"), path, path2, QStringLiteral("-o"), QStringLiteral("json")});
    ASSERT_EQ(diff.code, 0) << diff.err.toStdString();
    const QJsonArray changes =
        QJsonDocument::fromJson(diff.out.toUtf8()).object().value(QStringLiteral("changes")).toArray();
    ASSERT_EQ(changes.size(), 1) << diff.out.toStdString();
    EXPECT_EQ(changes[0].toObject().value(QStringLiteral("resource")).toString(), QStringLiteral("volumes"));
    EXPECT_EQ(changes[0].toObject().value(QStringLiteral("disappeared")).toArray(), QJsonArray{gone.id});

    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadWrite));
    file.resize(file.size() / 2);
    file.close();
    const BundleCliRun truncated =
        runCli({QStringLiteral("--bundle"), path, QStringLiteral("get"), QStringLiteral("jobs")});
    EXPECT_EQ(truncated.code, 2);
    EXPECT_TRUE(truncated.err.contains(QStringLiteral("the bundle is truncated or corrupt")))
        << truncated.err.toStdString();
}
