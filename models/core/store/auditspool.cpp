#include "models/core/store/auditspool.h"

#include "models/core/domain/format.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QSaveFile>
#include <QSet>
#include <QStandardPaths>
#include <QSysInfo>
#include <QUrl>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

namespace strata::core {

namespace {

QByteArray spoolLine(const AuditEntry &e, bool closesJournal)
{
    QJsonObject o{
        {QStringLiteral("user"), e.user},
        {QStringLiteral("action_id"), e.actionId},
        {QStringLiteral("source"), e.source},
        {QStringLiteral("kind"), e.kind},
        {QStringLiteral("target"), e.target},
        {QStringLiteral("from"), e.fromState},
        {QStringLiteral("to"), e.toState},
        {QStringLiteral("outcome"), e.outcome},
        {QStringLiteral("message"), e.message},
        {QStringLiteral("replica"), e.replica},
    };
    if (e.time.isValid()) {
        o.insert(QStringLiteral("t"), e.time.toMSecsSinceEpoch());
    }
    if (closesJournal) {
        o.insert(QStringLiteral("closes_journal"), true);
    }
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

std::optional<AuditSpool::Pending> spoolEntry(const QByteArray &line)
{
    const QJsonDocument doc = QJsonDocument::fromJson(line);
    if (!doc.isObject()) {
        return std::nullopt;
    }
    const QJsonObject o = doc.object();
    AuditEntry e;
    if (o.contains(QStringLiteral("t"))) {
        e.time = QDateTime::fromMSecsSinceEpoch(qint64(o.value(QStringLiteral("t")).toDouble()), Qt::UTC);
    }
    e.user = o.value(QStringLiteral("user")).toString();
    e.actionId = o.value(QStringLiteral("action_id")).toString();
    e.source = o.value(QStringLiteral("source")).toString();
    e.kind = o.value(QStringLiteral("kind")).toString();
    e.target = o.value(QStringLiteral("target")).toString();
    e.fromState = o.value(QStringLiteral("from")).toString();
    e.toState = o.value(QStringLiteral("to")).toString();
    e.outcome = o.value(QStringLiteral("outcome")).toString();
    e.message = o.value(QStringLiteral("message")).toString();
    e.replica = o.value(QStringLiteral("replica")).toString();
    return AuditSpool::Pending{e, true, o.value(QStringLiteral("closes_journal")).toBool()};
}

/// The spools this process holds (QLockFile cannot tell them from a predecessor's).
QSet<QString> &heldSpools()
{
    static QSet<QString> held;
    return held;
}

QMutex &heldSpoolsMutex()
{
    static QMutex mutex;
    return mutex;
}

void syncToDisk(QFileDevice &file)
{
    file.flush();
#ifdef Q_OS_UNIX
    ::fsync(file.handle());
#endif
}

} // namespace

AuditSpool::AuditSpool(QString path, qint64 maxBytes)
    : m_path(std::move(path))
    , m_maxBytes(maxBytes)
{}

AuditSpool::~AuditSpool()
{
    if (m_lock) {
        QMutexLocker held(&heldSpoolsMutex());
        heldSpools().remove(m_path);
    }
}

bool AuditSpool::tryLock()
{
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    auto lock = std::make_unique<QLockFile>(m_path + QStringLiteral(".lock"));
    // Only a process that ended leaves a stale lock: a server holds its spool for weeks.
    lock->setStaleLockTime(0);
    QMutexLocker held(&heldSpoolsMutex());
    if (!lock->tryLock(0)) {
        // A container restarted in place runs as the same pid on the same host: its
        // predecessor's lock names "this" process, though no spool of this process holds it.
        qint64 pid = 0;
        QString host;
        QString app;
        if (lock->error() != QLockFile::LockFailedError || !lock->getLockInfo(&pid, &host, &app)
            || pid != QCoreApplication::applicationPid() || host != QSysInfo::machineHostName()
            || heldSpools().contains(m_path) || !lock->removeStaleLockFile() || !lock->tryLock(0)) {
            return false;
        }
    }
    heldSpools().insert(m_path);
    m_lock = std::move(lock);
    return true;
}

Status AuditSpool::load()
{
    QMutexLocker lock(&m_mutex);
    m_pending.clear();
    m_bytes = 0;
    QFile file(m_path);
    if (!file.exists()) {
        return {};
    }
    if (!file.open(QIODevice::ReadOnly)) {
        return fail(QStringLiteral("cannot read the audit spool %1: %2").arg(m_path, file.errorString()));
    }
    const QByteArray all = file.readAll();
    m_bytes = all.size();
    bool dropped = !all.isEmpty() && !all.endsWith('\n');
    for (const QByteArray &line : all.split('\n')) {
        if (const std::optional<Pending> p = spoolEntry(line)) {
            m_pending.push_back(*p);
        } else if (!line.isEmpty()) {
            dropped = true;
        }
    }
    // A line cut short by a crash would glue onto the next append: write the file back clean.
    return dropped ? rewriteLocked() : Status();
}

Status AuditSpool::append(const AuditEntry &entry, bool closesJournal)
{
    const QByteArray line = spoolLine(entry, closesJournal);
    QMutexLocker lock(&m_mutex);
    if (m_bytes + line.size() > m_maxBytes) {
        return fail(QStringLiteral("the audit spool %1 is full (%2 of entries waiting for the history store)")
                        .arg(m_path, formatBytes(m_maxBytes)));
    }
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    QFile file(m_path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Append)) {
        return fail(QStringLiteral("cannot write the audit spool %1: %2").arg(m_path, file.errorString()));
    }
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (file.write(line) != line.size()) {
        const QString why = file.errorString();
        // A partial line would glue onto the next one: put the file back as it was.
        file.resize(m_bytes);
        return fail(QStringLiteral("cannot write the audit spool %1: %2").arg(m_path, why));
    }
    syncToDisk(file);
    m_bytes += line.size();
    m_pending.push_back({entry, false, closesJournal});
    return {};
}

std::vector<AuditSpool::Pending> AuditSpool::front(int count) const
{
    QMutexLocker lock(&m_mutex);
    const auto n = std::min<std::size_t>(std::size_t(std::max(count, 0)), m_pending.size());
    return {m_pending.begin(), m_pending.begin() + std::ptrdiff_t(n)};
}

Status AuditSpool::dropFront(int count)
{
    QMutexLocker lock(&m_mutex);
    const auto n = std::min<std::size_t>(std::size_t(std::max(count, 0)), m_pending.size());
    if (n == 0) {
        return {};
    }
    m_pending.erase(m_pending.begin(), m_pending.begin() + std::ptrdiff_t(n));
    return rewriteLocked();
}

void AuditSpool::markFrontUncertain()
{
    QMutexLocker lock(&m_mutex);
    if (!m_pending.empty()) {
        m_pending.front().uncertain = true;
    }
}

int AuditSpool::size() const
{
    QMutexLocker lock(&m_mutex);
    return int(m_pending.size());
}

Status AuditSpool::rewriteLocked()
{
    if (m_pending.empty()) {
        QFile::remove(m_path);
        m_bytes = 0;
        return {};
    }
    QByteArray all;
    for (const Pending &p : m_pending) {
        all += spoolLine(p.entry, p.closesJournal);
    }
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly)) {
        return fail(QStringLiteral("cannot write the audit spool %1: %2").arg(m_path, file.errorString()));
    }
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (file.write(all) != all.size() || !file.commit()) {
        return fail(QStringLiteral("cannot write the audit spool %1: %2").arg(m_path, file.errorString()));
    }
    m_bytes = all.size();
    return {};
}

QString auditSpoolPathFor(const QString &location)
{
    if (location.isEmpty() || location == QLatin1String(":memory:")) {
        return {};
    }
    if (!SqlHistoryStore::isPostgresLocation(location)) {
        return location + QStringLiteral(".audit-spool");
    }
    // The password is no part of which store it is (and stays out of file names).
    QUrl url(location);
    url.setPassword(QString());
    const QByteArray key = QCryptographicHash::hash(url.toString().toUtf8(), QCryptographicHash::Sha256).toHex();
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/audit-spool-")
           + QString::fromLatin1(key.left(16)) + QStringLiteral(".jsonl");
}

} // namespace strata::core
