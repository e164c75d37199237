#pragma once

// What the live-feed benchmarks share: waiting in the event loop, percentiles, a process's
// memory and descriptors from /proc, and the browser's login to strata-server.

#include <QByteArray>
#include <QString>
#include <QUrl>

#include <functional>
#include <vector>

class QNetworkAccessManager;
class QNetworkReply;

namespace strata::bench {

/// Runs the event loop (sleeping in it) until `done` or `timeoutMs`; checks once a millisecond.
/// Returns done().
bool waitUntil(const std::function<bool()> &done, int timeoutMs);

/// The `p` quantile (0..1, nearest rank) of `values`; 0 when empty.
double percentile(std::vector<double> values, double p);

/// A field of /proc/<pid>/status in MiB ("VmRSS:", "VmHWM:"); pid 0 = this process. -1 when
/// the process or the field is gone.
double procStatusMiB(qint64 pid, const char *field);

/// Open descriptors of a process (entries of /proc/<pid>/fd); pid 0 = this process; -1 when gone.
int procOpenFiles(qint64 pid);

/// What POST /api/v1/login answered.
struct LoginAnswer
{
    int status = 0;    ///< HTTP status, 0 = no answer (connection error)
    QString session;   ///< the "strata_session" cookie, empty unless 200
    QString csrfToken; ///< "csrf_token" of the JSON body, for state-changing requests
};

/// Logs in as a browser does: POST /api/v1/login {"user","password"} on `base` (the server's
/// root URL) with its Origin. Calls `done` on `manager`'s thread when the answer is in.
void postLogin(QNetworkAccessManager &manager,
               const QUrl &base,
               const QString &user,
               const QString &password,
               std::function<void(const LoginAnswer &)> done);

/// postLogin(), waiting for the answer in the event loop (at most `timeoutMs`).
LoginAnswer
login(QNetworkAccessManager &manager, const QUrl &base, const QString &user, const QString &password, int timeoutMs);

/// "http://127.0.0.1:8080" for "http://127.0.0.1:8080/": what a browser sends as Origin.
QString originOf(const QUrl &base);

/// `base` with scheme ws(s) and path /api/v1/live (query `since` when >= 0).
QUrl liveUrl(const QUrl &base, qint64 since = -1);

} // namespace strata::bench
