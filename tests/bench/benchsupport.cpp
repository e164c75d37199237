#include "benchsupport.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>
#include <QUrlQuery>

#include <algorithm>
#include <cmath>
#include <memory>

namespace strata::bench {

bool waitUntil(const std::function<bool()> &done, int timeoutMs)
{
    if (done()) {
        return true;
    }
    QEventLoop loop;
    QTimer check;
    check.setInterval(1);
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        if (done()) {
            loop.quit();
        }
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    check.start();
    loop.exec();
    return done();
}

double percentile(std::vector<double> values, double p)
{
    if (values.empty()) {
        return 0;
    }
    std::sort(values.begin(), values.end());
    const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
    return values[std::min(rank == 0 ? 0 : rank - 1, values.size() - 1)];
}

static QString procDir(qint64 pid)
{
    return pid == 0 ? QStringLiteral("/proc/self") : QStringLiteral("/proc/%1").arg(pid);
}

double procStatusMiB(qint64 pid, const char *field)
{
    QFile f(procDir(pid) + QStringLiteral("/status"));
    if (!f.open(QIODevice::ReadOnly)) {
        return -1;
    }
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith(field)) {
            return line.mid(static_cast<qsizetype>(qstrlen(field))).trimmed().split(' ').first().toDouble() / 1024.0;
        }
    }
    return -1;
}

int procOpenFiles(qint64 pid)
{
    const QDir dir(procDir(pid) + QStringLiteral("/fd"));
    if (!dir.exists()) {
        return -1;
    }
    return static_cast<int>(dir.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System).size());
}

QString originOf(const QUrl &base)
{
    return base.toString(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::StripTrailingSlash);
}

QUrl liveUrl(const QUrl &base, qint64 since)
{
    QUrl live = base;
    live.setScheme(base.scheme() == QLatin1String("https") ? QStringLiteral("wss") : QStringLiteral("ws"));
    live.setPath(QStringLiteral("/api/v1/live"));
    if (since >= 0) {
        live.setQuery(QStringLiteral("since=%1").arg(since));
    }
    return live;
}

void postLogin(QNetworkAccessManager &manager,
               const QUrl &base,
               const QString &user,
               const QString &password,
               std::function<void(const LoginAnswer &)> done)
{
    QNetworkRequest request(base.resolved(QUrl(QStringLiteral("/api/v1/login"))));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    request.setRawHeader("Origin", originOf(base).toLatin1());
    QNetworkReply *reply =
        manager.post(request,
                     QJsonDocument(QJsonObject{{QStringLiteral("user"), user}, {QStringLiteral("password"), password}})
                         .toJson(QJsonDocument::Compact));
    QObject::connect(reply, &QNetworkReply::finished, reply, [reply, done = std::move(done)] {
        LoginAnswer answer;
        answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        for (const auto &[name, value] : reply->rawHeaderPairs()) {
            if (name.compare("Set-Cookie", Qt::CaseInsensitive) == 0 && value.startsWith("strata_session=")) {
                const qsizetype end = value.indexOf(';');
                answer.session = QString::fromLatin1(value.mid(15, end < 0 ? -1 : end - 15));
            }
        }
        answer.csrfToken =
            QJsonDocument::fromJson(reply->readAll()).object().value(QStringLiteral("csrf_token")).toString();
        if (answer.status != 200) {
            answer.session.clear();
        }
        reply->deleteLater();
        done(answer);
    });
}

LoginAnswer
login(QNetworkAccessManager &manager, const QUrl &base, const QString &user, const QString &password, int timeoutMs)
{
    auto answer = std::make_shared<LoginAnswer>();
    auto finished = std::make_shared<bool>(false);
    postLogin(manager, base, user, password, [answer, finished](const LoginAnswer &a) {
        *answer = a;
        *finished = true;
    });
    waitUntil(
        [finished] {
            return *finished;
        },
        timeoutMs);
    return *answer;
}

} // namespace strata::bench
