// One estate, one moment, three front ends. The live demo estate is frozen into a support bundle;
// for every resource `strata --bundle F get R -o json` and the web console's GET /api/v1/R over
// the same bundle give equal rows field by field, and the desktop's item models over that estate
// show the same figures as those rows.

#include "web/auth.h"
#include "web/webserver.h"

#include "app/cli/cli.h"
#include "demo/demoestate.h"
#include "models/core/domain/clock.h"
#include "models/core/runtime/bundle.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/capacityforecast.h"
#include "models/core/services/historyservice.h"
#include "models/core/services/servicelevels.h"
#include "models/core/sources/source.h"
#include "models/core/store/credentialstore.h"
#include "models/core/store/historystore.h"
#include "models/item/aksclustermodel.h"
#include "models/item/cachemodels.h"
#include "models/item/datasetmodel.h"
#include "models/item/forecastmodel.h"
#include "models/item/gridmodels.h"
#include "models/item/jobtablemodel.h"
#include "models/item/projecttablemodel.h"
#include "models/item/roles.h"
#include "models/item/servicelevelmodel.h"
#include "models/item/timelinemodel.h"
#include "models/item/volumetablemodel.h"
#include "models/rows/resources.h"
#include "tests/support/qt/corestatus.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>

using strata::testsupport::succeeded;
using namespace strata;

namespace {

constexpr int kAgreeTimeoutMs = 60000;

template <class Pred> bool agreeWaitFor(Pred pred, int ms = kAgreeTimeoutMs)
{
    QDeadlineTimer deadline(ms);
    while (!pred() && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return pred();
}

/// Waits for `signal` of `object` after calling `trigger` (at most 10 s).
template <class Object, class Signal>
void agreeRefresh(Object &object, Signal signal, const std::function<void()> &trigger)
{
    bool changed = false;
    const QMetaObject::Connection c = QObject::connect(&object, signal, [&changed] {
        changed = true;
    });
    trigger();
    agreeWaitFor(
        [&changed] {
            return changed;
        },
        10000);
    QObject::disconnect(c);
}

/// The demo frozen into a bundle, the same bundle opened by a web server, shared by every test.
struct AgreeEstate
{
    QTemporaryDir dir;
    QString bundlePath;
    std::unique_ptr<core::OfflineEngine> offline;
    std::unique_ptr<web::UserStore> users;
    std::unique_ptr<web::WebServer> server;
    QNetworkAccessManager nam;
    QByteArray cookie;
    QString setupError;
};

AgreeEstate *g_agree = nullptr;

QString agreeSetUp(AgreeEstate &s)
{
    auto demoStarted = demo::DemoEstate::start({});
    if (!demoStarted) {
        return QStringLiteral("demo: ") + demoStarted.error().message;
    }
    std::unique_ptr<demo::DemoEstate> demo = std::move(*demoStarted);
    core::SystemClock clock;
    core::HistoryService history(std::make_unique<core::SqlHistoryStore>(QStringLiteral(":memory:"), clock));
    core::Engine live({clock, demo->credentials(), &history, QStringLiteral("tester")});
    live.setRateCard(demo->config().rateCard);
    live.setCacheTargets(demo->config().cacheTargets);
    live.setSources(demo->config().sources);
    if (!agreeWaitFor([&] {
            return live.allPolledOnce();
        })) {
        return QStringLiteral("the demo's sources did not all answer");
    }
    int pending = 0;
    for (const core::Ptr<core::Volume> &v : live.estate().volumes().all()) {
        if (core::Source *source = live.source(v->source); source && !v->isAnf()) {
            ++pending;
            source->snapshotProvider()->fetchSnapshots(v->id, [&pending](const QString &) {
                --pending;
            });
        }
    }
    agreeWaitFor([&] {
        return pending == 0;
    });
    std::optional<core::Bundle> bundle;
    QString collectError;
    core::BundleOptions options;
    options.now = clock.now();
    options.user = QStringLiteral("tester");
    core::collectBundle(live, options, &live, [&](core::Bundle b, QString why) {
        collectError = why;
        bundle = std::move(b);
    });
    if (!agreeWaitFor([&] {
            return bundle.has_value();
        })) {
        return QStringLiteral("no bundle");
    }
    if (!collectError.isEmpty()) {
        return collectError;
    }
    s.bundlePath = s.dir.filePath(QStringLiteral("agree.strata-bundle"));
    core::BundleWritten written;
    if (const core::Status w = core::writeBundle(*bundle, s.bundlePath, &written); !w) {
        return w.error().message;
    }
    const core::Result<core::Bundle> opened = core::openBundle(s.bundlePath);
    if (!opened) {
        return opened.error().message;
    }
    s.offline = std::make_unique<core::OfflineEngine>(*opened, QStringLiteral("support"));
    core::Engine &engine = s.offline->engine();
    // As `--bundle get` does: the statistics and forecasts are read from the bundle's history.
    agreeRefresh(engine.serviceLevels(), &core::ServiceLevels::changed, [&engine] {
        engine.serviceLevels().refreshStatistics();
    });
    agreeRefresh(engine.forecasts(), &core::ForecastService::changed, [&engine] {
        engine.forecasts().refresh();
    });

    s.users = std::make_unique<web::UserStore>(s.dir.filePath(QStringLiteral("users.json")), s.offline->clock());
    if (!succeeded(
            s.users->addUser(QStringLiteral("viewer"), QStringLiteral("viewer-password"), web::Role::Viewer, 1000))) {
        return QStringLiteral("no web user");
    }
    web::WebServerOptions webOptions;
    webOptions.address = QHostAddress::LocalHost;
    webOptions.port = 0;
    s.server = std::make_unique<web::WebServer>(engine, *s.users, webOptions);
    if (const core::Status l = s.server->listen(); !l) {
        return l.error().message;
    }
    return {};
}

QByteArray agreeHttp(AgreeEstate &s,
                     const QByteArray &method,
                     const QString &path,
                     const QByteArray &body = {},
                     QByteArray *setCookie = nullptr)
{
    QUrl url = s.server->url();
    url.setPath(path);
    QNetworkRequest r(url);
    r.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
    r.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
    if (!body.isEmpty()) {
        r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    }
    if (!s.cookie.isEmpty()) {
        r.setRawHeader("Cookie", s.cookie);
    }
    QNetworkReply *reply = s.nam.sendCustomRequest(r, method, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(30000, &loop, &QEventLoop::quit);
    loop.exec();
    const QByteArray out = reply->readAll();
    if (setCookie) {
        *setCookie = reply->rawHeader("Set-Cookie");
    }
    reply->deleteLater();
    return out;
}

QJsonArray webRows(AgreeEstate &s, const QString &resource)
{
    if (s.cookie.isEmpty()) {
        QByteArray setCookie;
        agreeHttp(s,
                  "POST",
                  QStringLiteral("/api/v1/login"),
                  QJsonDocument(QJsonObject{{QStringLiteral("user"), QStringLiteral("viewer")},
                                            {QStringLiteral("password"), QStringLiteral("viewer-password")}})
                      .toJson(QJsonDocument::Compact),
                  &setCookie);
        s.cookie = setCookie.left(setCookie.indexOf(';'));
    }
    return QJsonDocument::fromJson(agreeHttp(s, "GET", QStringLiteral("/api/v1/") + resource)).array();
}

QJsonArray cliRows(AgreeEstate &s, const QString &resource, QString *err)
{
    core::InMemoryCredentialStore unused;
    QString outText;
    QTextStream out(&outText);
    QTextStream errStream(err);
    cli::run({QStringLiteral("--bundle"),
              s.bundlePath,
              QStringLiteral("get"),
              resource,
              QStringLiteral("-o"),
              QStringLiteral("json")},
             unused,
             cli::Console{QStringLiteral("strata"), QStringLiteral("agree-test"), out, errStream});
    out.flush();
    errStream.flush();
    return QJsonDocument::fromJson(outText.toUtf8()).array();
}

bool agreeSameValue(const QJsonValue &a, const QJsonValue &b)
{
    if (a.isDouble() && b.isDouble()) {
        const double x = a.toDouble();
        const double y = b.toDouble();
        return x == y || std::abs(x - y) <= 1e-9 * std::max(std::abs(x), std::abs(y));
    }
    return a == b;
}

/// The first difference between `a` and `b` ("" when equal), naming row and field.
QString agreeDiff(const QJsonArray &a, const QJsonArray &b, const QString &aName, const QString &bName)
{
    if (a.size() != b.size()) {
        return QStringLiteral("%1 has %2 rows, %3 has %4").arg(aName).arg(a.size()).arg(bName).arg(b.size());
    }
    for (qsizetype i = 0; i < a.size(); ++i) {
        const QJsonObject x = a.at(i).toObject();
        const QJsonObject y = b.at(i).toObject();
        if (x.keys() != y.keys()) {
            return QStringLiteral("row %1: %2 keys %3, %4 keys %5")
                .arg(i)
                .arg(aName, x.keys().join(QLatin1Char(',')), bName, y.keys().join(QLatin1Char(',')));
        }
        for (auto it = x.constBegin(); it != x.constEnd(); ++it) {
            if (!agreeSameValue(it.value(), y.value(it.key()))) {
                return QStringLiteral("row %1 field %2: %3 %4, %5 %6")
                    .arg(i)
                    .arg(
                        it.key(),
                        aName,
                        QString::fromUtf8(QJsonDocument(QJsonArray{it.value()}).toJson(QJsonDocument::Compact)),
                        bName,
                        QString::fromUtf8(QJsonDocument(QJsonArray{y.value(it.key())}).toJson(QJsonDocument::Compact)));
            }
        }
    }
    return {};
}

class FrontendsAgreeTest : public ::testing::TestWithParam<QString>
{
protected:
    static void SetUpTestSuite()
    {
        g_agree = new AgreeEstate;
        g_agree->setupError = agreeSetUp(*g_agree);
    }
    static void TearDownTestSuite()
    {
        delete g_agree;
        g_agree = nullptr;
    }
    void SetUp() override { ASSERT_TRUE(g_agree->setupError.isEmpty()) << g_agree->setupError.toStdString(); }

    static core::Engine &engine() { return g_agree->offline->engine(); }
    static QDateTime now() { return g_agree->offline->clock().now(); }
    static QJsonArray coreRows(const QString &resource)
    {
        const std::optional<rows::ResultSet> rows = rows::resourceRows(engine(), resource, {}, now());
        return rows ? rows::toJson(*rows) : QJsonArray();
    }
};

QStringList agreeResources()
{
    QStringList out = rows::resourceNames();
    out.removeAll(QStringLiteral("schedules")); // the history store's, which a bundle does not carry
    return out;
}

TEST_P(FrontendsAgreeTest, CliAndWebGiveTheSameRowsFieldByField)
{
    const QString resource = GetParam();
    QString err;
    const QJsonArray cli = cliRows(*g_agree, resource, &err);
    QJsonArray web = webRows(*g_agree, resource);
    // The web adds each row's stable key for its keyed updates; the rows are otherwise the CLI's.
    for (qsizetype i = 0; i < web.size(); ++i) {
        QJsonObject row = web.at(i).toObject();
        if (i < cli.size() && !cli.at(i).toObject().contains(QLatin1String("key"))) {
            row.remove(QStringLiteral("key"));
        }
        web.replace(i, row);
    }
    EXPECT_FALSE(cli.isEmpty()) << resource.toStdString() << ": the CLI printed no rows; " << err.toStdString();
    const QString diff = agreeDiff(cli, web, QStringLiteral("the CLI"), QStringLiteral("the web"));
    EXPECT_TRUE(diff.isEmpty()) << resource.toStdString() << ": " << diff.toStdString();
    // And both are the shared core's rows for that moment.
    const QString coreDiff = agreeDiff(coreRows(resource), cli, QStringLiteral("the core"), QStringLiteral("the CLI"));
    EXPECT_TRUE(coreDiff.isEmpty()) << resource.toStdString() << ": " << coreDiff.toStdString();
}

INSTANTIATE_TEST_SUITE_P(EveryResource,
                         FrontendsAgreeTest,
                         ::testing::ValuesIn(agreeResources()),
                         [](const ::testing::TestParamInfo<QString> &info) {
                             return info.param.toStdString() == "cache-targets"    ? std::string("cache_targets")
                                    : info.param.toStdString() == "service-levels" ? std::string("service_levels")
                                                                                   : info.param.toStdString();
                         });

// ---- the desktop's models ----

/// How one model column shows one row field: its raw value (RawValueRole, else the display
/// text) compared with the JSON value, numbers within `tolerance` after dividing by `scale`.
struct AgreeField
{
    int column = 0;
    QString key;
    enum Kind
    {
        Text,
        CaselessText,
        Number,
        Time
    } kind = Number;
    double tolerance = 0.0;
    double scale = 1.0;
};

/// Every row of `model` is one row of `rows` (matched by `rowKey` and `modelKey`) and shows the
/// same value in each of `fields`; the counts are equal.
void expectModelMatchesRows(const QAbstractItemModel &model,
                            const QJsonArray &rows,
                            const std::function<QString(const QJsonObject &)> &rowKey,
                            const std::function<QString(const QAbstractItemModel &, int)> &modelKey,
                            const QList<AgreeField> &fields,
                            const char *what)
{
    QHash<QString, QJsonObject> byKey;
    for (const QJsonValue &v : rows) {
        const QString key = rowKey(v.toObject());
        EXPECT_FALSE(byKey.contains(key)) << what << ": two rows keyed " << key.toStdString();
        byKey.insert(key, v.toObject());
    }
    ASSERT_GT(model.rowCount(), 0) << what;
    EXPECT_EQ(model.rowCount(), rows.size()) << what << ": the desktop shows a different number of rows";
    for (int r = 0; r < model.rowCount(); ++r) {
        const QString key = modelKey(model, r);
        ASSERT_TRUE(byKey.contains(key)) << what << ": the desktop's row " << key.toStdString() << " is not a row";
        const QJsonObject row = byKey.value(key);
        for (const AgreeField &f : fields) {
            const QModelIndex index = model.index(r, f.column);
            const QVariant raw = index.data(models::RawValueRole);
            const QVariant shown = raw.isValid() ? raw : index.data(Qt::DisplayRole);
            const QJsonValue expected = row.value(f.key);
            const std::string where = std::string(what) + " " + key.toStdString() + " " + f.key.toStdString();
            switch (f.kind) {
            case AgreeField::Text:
                EXPECT_EQ(index.data(Qt::DisplayRole).toString().toStdString(), expected.toString().toStdString())
                    << where;
                break;
            case AgreeField::CaselessText:
                EXPECT_EQ(index.data(Qt::DisplayRole).toString().toLower().toStdString(),
                          expected.toString().toLower().toStdString())
                    << where;
                break;
            case AgreeField::Time:
                EXPECT_EQ(
                    shown.toDateTime().toUTC().toString(Qt::ISODate).toStdString(),
                    QDateTime::fromString(expected.toString(), Qt::ISODate).toUTC().toString(Qt::ISODate).toStdString())
                    << where;
                break;
            case AgreeField::Number:
                if (expected.isNull() || expected.isUndefined()) {
                    // "none" shows as no number, a dash or a negative sentinel
                    const QString text = shown.toString();
                    const bool none = !shown.isValid() || shown.isNull() || text.isEmpty()
                                      || text == QStringLiteral("—") || text == QStringLiteral("–")
                                      || (!raw.isValid() ? false : shown.toDouble() < 0);
                    EXPECT_TRUE(none) << where << " shows " << text.toStdString();
                } else {
                    EXPECT_NEAR(shown.toDouble() / f.scale, expected.toDouble(), f.tolerance) << where;
                }
                break;
            }
        }
    }
}

QString agreeSourceSlashName(const QJsonObject &row)
{
    return row.value(QLatin1String("source")).toString() + QLatin1Char('/')
           + row.value(QLatin1String("name")).toString();
}

std::function<QString(const QAbstractItemModel &, int)> agreeModelSourceSlash(int nameColumn)
{
    return [nameColumn](const QAbstractItemModel &m, int r) -> QString {
        const QModelIndex i = m.index(r, nameColumn);
        return i.data(models::SourceRole).toString() + QLatin1Char('/') + i.data(Qt::DisplayRole).toString();
    };
}

using DesktopAgreeTest = FrontendsAgreeTest;

TEST_F(DesktopAgreeTest, VolumesShowTheRowsFigures)
{
    using M = models::VolumeTableModel;
    M model(engine().estate());
    expectModelMatchesRows(
        model,
        coreRows(QStringLiteral("volumes")),
        [](const QJsonObject &r) -> QString {
            return r.value(QLatin1String("source")).toString() + QLatin1Char('/')
                   + r.value(QLatin1String("svm")).toString() + QLatin1Char('/')
                   + r.value(QLatin1String("name")).toString();
        },
        [](const QAbstractItemModel &m, int r) -> QString {
            return m.index(r, M::Name).data(models::SourceRole).toString() + QLatin1Char('/')
                   + m.index(r, M::Svm).data().toString() + QLatin1Char('/') + m.index(r, M::Name).data().toString();
        },
        {{M::Size, QStringLiteral("size_bytes")},
         {M::Used, QStringLiteral("used_bytes")},
         {M::PercentUsed, QStringLiteral("percent_used"), AgreeField::Number, 0.05},
         {M::Available, QStringLiteral("available_bytes")},
         {M::Snapshots, QStringLiteral("snapshot_count")}},
        "volumes");
}

TEST_F(DesktopAgreeTest, JobsShowTheRowsFigures)
{
    using M = models::JobTableModel;
    M model(engine().estate(), [] {
        return now();
    });
    expectModelMatchesRows(
        model,
        coreRows(QStringLiteral("jobs")),
        [](const QJsonObject &r) -> QString {
            return r.value(QLatin1String("source")).toString() + QLatin1Char('/')
                   + r.value(QLatin1String("project")).toString() + QLatin1Char('/')
                   + r.value(QLatin1String("name")).toString();
        },
        [](const QAbstractItemModel &m, int r) -> QString {
            return m.index(r, M::Name).data(models::SourceRole).toString() + QLatin1Char('/')
                   + m.index(r, M::Project).data().toString() + QLatin1Char('/')
                   + m.index(r, M::Name).data().toString();
        },
        {{M::Node, QStringLiteral("node"), AgreeField::Text},
         {M::User, QStringLiteral("user"), AgreeField::Text},
         {M::Image, QStringLiteral("image"), AgreeField::Text},
         {M::Age, QStringLiteral("age_seconds"), AgreeField::Number, 1.0}},
        "jobs");
}

TEST_F(DesktopAgreeTest, ProjectsShowTheRowsFigures)
{
    using M = models::ProjectTableModel;
    M model(engine().estate());
    expectModelMatchesRows(model,
                           coreRows(QStringLiteral("projects")),
                           agreeSourceSlashName,
                           agreeModelSourceSlash(M::Name),
                           {{M::Allocated, QStringLiteral("allocated"), AgreeField::Number, 0.001, 1000.0},
                            {M::Quota, QStringLiteral("quota"), AgreeField::Number, 0.001, 1000.0},
                            {M::Pending, QStringLiteral("pending"), AgreeField::Number, 0.001, 1000.0},
                            {M::Running, QStringLiteral("running_jobs")},
                            {M::Queued, QStringLiteral("queued_jobs")}},
                           "projects");
}

TEST_F(DesktopAgreeTest, DatasetsShowTheRowsFigures)
{
    using M = models::DatasetModel;
    M model(engine().estate());
    expectModelMatchesRows(model,
                           coreRows(QStringLiteral("datasets")),
                           agreeSourceSlashName,
                           agreeModelSourceSlash(M::Name),
                           {{M::CachedCommits, QStringLiteral("cached_commits")},
                            {M::Size, QStringLiteral("size_bytes")},
                            {M::Objects, QStringLiteral("objects")},
                            {M::Commits, QStringLiteral("commits")},
                            {M::LastActive, QStringLiteral("last_activity"), AgreeField::Time}},
                           "datasets");
}

TEST_F(DesktopAgreeTest, CacheTargetsShowTheRowsFigures)
{
    using M = models::CacheTargetModel;
    M model(engine().estate());
    expectModelMatchesRows(
        model,
        coreRows(QStringLiteral("cache-targets")),
        [](const QJsonObject &r) -> QString {
            return r.value(QLatin1String("name")).toString();
        },
        [](const QAbstractItemModel &m, int r) -> QString {
            return m.index(r, M::Name).data().toString();
        },
        {{M::Capacity, QStringLiteral("capacity_bytes")},
         {M::Used, QStringLiteral("used_bytes")},
         {M::Cached, QStringLiteral("cached_bytes")},
         {M::Commits, QStringLiteral("cached_commits")}},
        "cache-targets");
}

TEST_F(DesktopAgreeTest, TenantsAndBucketsShowTheRowsFigures)
{
    {
        using M = models::TenantModel;
        M model(engine().estate());
        expectModelMatchesRows(
            model,
            coreRows(QStringLiteral("tenants")),
            agreeSourceSlashName,
            [](const QAbstractItemModel &m, int r) -> QString {
                return m.index(r, M::Grid).data().toString() + QLatin1Char('/') + m.index(r, M::Name).data().toString();
            },
            {{M::Buckets, QStringLiteral("buckets")},
             {M::Objects, QStringLiteral("objects")},
             {M::Data, QStringLiteral("data_bytes")},
             {M::Quota, QStringLiteral("quota_bytes")}},
            "tenants");
    }
    {
        using M = models::BucketModel;
        M model(engine().estate());
        expectModelMatchesRows(
            model,
            coreRows(QStringLiteral("buckets")),
            agreeSourceSlashName,
            [](const QAbstractItemModel &m, int r) -> QString {
                return m.index(r, M::Grid).data().toString() + QLatin1Char('/') + m.index(r, M::Name).data().toString();
            },
            {{M::Objects, QStringLiteral("objects")}, {M::Data, QStringLiteral("data_bytes")}},
            "buckets");
    }
}

TEST_F(DesktopAgreeTest, AksClustersShowTheRowsFigures)
{
    using M = models::AksClusterModel;
    M model(engine().estate());
    expectModelMatchesRows(model,
                           coreRows(QStringLiteral("aks")),
                           agreeSourceSlashName,
                           agreeModelSourceSlash(M::Name),
                           {{M::ResourceGroup, QStringLiteral("resource_group"), AgreeField::Text},
                            {M::Location, QStringLiteral("location"), AgreeField::Text},
                            {M::Version, QStringLiteral("version"), AgreeField::Text},
                            {M::Nodes, QStringLiteral("nodes")}},
                           "aks");
}

TEST_F(DesktopAgreeTest, ServiceLevelsShowTheRowsFigures)
{
    using M = models::ServiceLevelTableModel;
    M model(&engine().serviceLevels());
    expectModelMatchesRows(
        model,
        coreRows(QStringLiteral("service-levels")),
        [](const QJsonObject &r) -> QString {
            return r.value(QLatin1String("source")).toString() + QLatin1Char('/')
                   + r.value(QLatin1String("volume")).toString();
        },
        [](const QAbstractItemModel &m, int r) -> QString {
            return m.index(r, M::Source).data().toString() + QLatin1Char('/') + m.index(r, M::Volume).data().toString();
        },
        {{M::Container, QStringLiteral("container"), AgreeField::Text},
         {M::Cost, QStringLiteral("cost_per_month"), AgreeField::Number, 0.005},
         {M::P95, QStringLiteral("p95_mibps"), AgreeField::Number, 0.05},
         {M::CapUse, QStringLiteral("cap_used_percent"), AgreeField::Number, 0.05}},
        "service-levels");
}

TEST_F(DesktopAgreeTest, ForecastsShowTheRowsFigures)
{
    using M = models::ForecastTableModel;
    M model(&engine().forecasts(), [] {
        return now();
    });
    const QJsonArray rows = coreRows(QStringLiteral("forecasts"));
    ASSERT_GT(rows.size(), 0);
    expectModelMatchesRows(
        model,
        rows,
        [](const QJsonObject &r) -> QString {
            return r.value(QLatin1String("source")).toString() + QLatin1Char('/')
                   + r.value(QLatin1String("name")).toString();
        },
        agreeModelSourceSlash(M::Name),
        {{M::History, QStringLiteral("samples")}, {M::Used, QStringLiteral("percent_used"), AgreeField::Number, 0.05}},
        "forecasts");
}

std::function<QString(const QAbstractItemModel &, int)> agreeModelSourceSlashId()
{
    return [](const QAbstractItemModel &m, int r) -> QString {
        const QModelIndex i = m.index(r, 0);
        return i.data(models::SourceRole).toString() + QLatin1Char('/') + i.data(models::IdRole).toString();
    };
}

QString agreeSourceSlashId(const QJsonObject &row)
{
    return row.value(QLatin1String("source")).toString() + QLatin1Char('/') + row.value(QLatin1String("id")).toString();
}

TEST_F(DesktopAgreeTest, StorageGridAlertsShowTheRowsFigures)
{
    using M = models::GridAlertModel;
    M model(engine().estate());
    expectModelMatchesRows(model,
                           coreRows(QStringLiteral("alerts")),
                           agreeSourceSlashId,
                           agreeModelSourceSlashId(),
                           {{M::Severity, QStringLiteral("severity"), AgreeField::CaselessText},
                            {M::Node, QStringLiteral("node"), AgreeField::Text},
                            {M::Started, QStringLiteral("starts_at"), AgreeField::Time}},
                           "alerts");
}

// The Triage page shows its timeline through the grouping proxy: one row per repeated alert or
// event, as `get events` and the web's events list.
TEST_F(DesktopAgreeTest, TriageTimelineShowsTheEventRows)
{
    using M = models::TimelineModel;
    M model(engine().timeline());
    models::TimelineFilterModel grouped;
    grouped.setSourceModel(&model);
    const QJsonArray rows = coreRows(QStringLiteral("events"));
    ASSERT_GT(rows.size(), 0);
    EXPECT_LT(grouped.rowCount(), model.rowCount()) << "the demo repeats alerts and events";
    expectModelMatchesRows(
        grouped,
        rows,
        [](const QJsonObject &r) -> QString {
            return r.value(QLatin1String("id")).toString();
        },
        [](const QAbstractItemModel &m, int r) -> QString {
            return m.index(r, 0).data(models::IdRole).toString();
        },
        {{M::Time, QStringLiteral("time"), AgreeField::Time},
         {M::Severity, QStringLiteral("severity"), AgreeField::CaselessText},
         {M::Count, QStringLiteral("count")},
         {M::FirstSeen, QStringLiteral("first_seen"), AgreeField::Time},
         {M::Title, QStringLiteral("title"), AgreeField::Text}},
        "events");
}

} // namespace
