#include "web/auth.h"

#include "models/core/domain/clock.h"
#include "models/core/store/historystore.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageAuthenticationCode>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTextStream>

#include <algorithm>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <termios.h>
#include <unistd.h>

namespace strata::web {

namespace {

const QString kScheme = QStringLiteral("pbkdf2-sha256");
constexpr int kSaltBytes = 16;
constexpr int kHashBytes = 32;
constexpr int kTokenBytes = 32;
// A hash read from a tampered users file must not turn one login into minutes of CPU.
constexpr int kMaxIterations = 100'000'000;
constexpr int kMinPasswordLength = 8;

QByteArray randomBytes(int count)
{
    QByteArray bytes(count, Qt::Uninitialized);
    if (RAND_bytes(reinterpret_cast<unsigned char *>(bytes.data()), count) != 1) {
        // Without a working CSPRNG every salt, session id and CSRF token would be guessable.
        qFatal("strata-server: OpenSSL RAND_bytes failed");
    }
    return bytes;
}

QString randomToken()
{
    return QString::fromLatin1(
        randomBytes(kTokenBytes).toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

// The password's UTF-8 copy is wiped as soon as the derivation is done.
class SecretBytes
{
public:
    explicit SecretBytes(const QString &text)
        : m_bytes(text.toUtf8())
    {}
    ~SecretBytes() { OPENSSL_cleanse(m_bytes.data(), size_t(m_bytes.size())); }
    SecretBytes(const SecretBytes &) = delete;
    SecretBytes &operator=(const SecretBytes &) = delete;
    [[nodiscard]] const QByteArray &bytes() const { return m_bytes; }

private:
    QByteArray m_bytes;
};

QByteArray derive(const QString &password, const QByteArray &salt, int iterations)
{
    const SecretBytes secret(password);
    QByteArray out(kHashBytes, Qt::Uninitialized);
    if (PKCS5_PBKDF2_HMAC(secret.bytes().constData(),
                          int(secret.bytes().size()),
                          reinterpret_cast<const unsigned char *>(salt.constData()),
                          int(salt.size()),
                          iterations,
                          EVP_sha256(),
                          kHashBytes,
                          reinterpret_cast<unsigned char *>(out.data()))
        != 1) {
        return {};
    }
    return out;
}

QString encode(int iterations, const QByteArray &salt, const QByteArray &hash)
{
    return kScheme + u'$' + QString::number(iterations) + u'$' + QString::fromLatin1(salt.toBase64()) + u'$'
           + QString::fromLatin1(hash.toBase64());
}

struct Decoded
{
    int iterations = 0;
    QByteArray salt;
    QByteArray hash;
};

std::optional<QByteArray> strictBase64(const QString &text)
{
    if (text.isEmpty()) {
        return std::nullopt;
    }
    auto result = QByteArray::fromBase64Encoding(text.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!result || result.decoded.isEmpty()) {
        return std::nullopt;
    }
    return result.decoded;
}

std::optional<Decoded> decode(const QString &encoded)
{
    const QStringList parts = encoded.split(u'$');
    if (parts.size() != 4 || parts[0] != kScheme) {
        return std::nullopt;
    }
    // Digits only: toInt would also take "+5" or " 5", which hashPassword never writes.
    static const QRegularExpression digits(QStringLiteral("^[1-9][0-9]{0,9}$"));
    if (!digits.match(parts[1]).hasMatch()) {
        return std::nullopt;
    }
    bool ok = false;
    const qlonglong iterations = parts[1].toLongLong(&ok);
    if (!ok || iterations < 1 || iterations > kMaxIterations) {
        return std::nullopt;
    }
    const auto salt = strictBase64(parts[2]);
    const auto hash = strictBase64(parts[3]);
    if (!salt || !hash || hash->size() != kHashBytes) {
        return std::nullopt;
    }
    return Decoded{int(iterations), *salt, *hash};
}

bool validName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9._@-]{1,64}$"));
    return re.match(name).hasMatch();
}

} // namespace

QString roleName(Role role)
{
    switch (role) {
    case Role::Viewer:
        return QStringLiteral("viewer");
    case Role::Operator:
        return QStringLiteral("operator");
    case Role::Admin:
        return QStringLiteral("admin");
    }
    return QStringLiteral("viewer");
}

std::optional<Role> roleFromName(const QString &name)
{
    const QString n = name.trimmed().toLower();
    for (Role role : {Role::Viewer, Role::Operator, Role::Admin}) {
        if (n == roleName(role)) {
            return role;
        }
    }
    return std::nullopt;
}

QString sessionIdHash(const QString &id)
{
    return QString::fromLatin1(QCryptographicHash::hash(id.toLatin1(), QCryptographicHash::Sha256).toHex());
}

QString csrfTokenFor(const QString &id)
{
    return QString::fromLatin1(QMessageAuthenticationCode::hash(
                                   QByteArrayLiteral("strata-csrf-token-v1"), id.toLatin1(), QCryptographicHash::Sha256)
                                   .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

bool wellFormedSessionId(const QString &id)
{
    static const QRegularExpression shape(QStringLiteral("^[A-Za-z0-9_-]{43}$"));
    return shape.match(id).hasMatch();
}

QString hashPassword(const QString &password, int iterations)
{
    iterations = std::clamp(iterations, 1, kMaxIterations);
    const QByteArray salt = randomBytes(kSaltBytes);
    const QByteArray hash = derive(password, salt, iterations);
    if (hash.isEmpty()) {
        qFatal("strata-server: OpenSSL PKCS5_PBKDF2_HMAC failed");
    }
    return encode(iterations, salt, hash);
}

bool verifyPassword(const QString &password, const QString &encoded)
{
    const auto decoded = decode(encoded);
    if (!decoded) {
        return false;
    }
    const QByteArray actual = derive(password, decoded->salt, decoded->iterations);
    if (actual.size() != kHashBytes) {
        return false;
    }
    return CRYPTO_memcmp(actual.constData(), decoded->hash.constData(), kHashBytes) == 0;
}

// ---------------------------------------------------------------------------------------------
// UserStore

UserStore::UserStore(QString path, const core::IClock &clock)
    : m_path(std::move(path))
    , m_clock(clock)
{
    refreshDummyHash();
}

void UserStore::refreshDummyHash()
{
    // A real user's iteration count makes an unknown name cost exactly what a known one does;
    // the all-zero hash matches no password in practice.
    int iterations = 600000;
    if (!m_users.isEmpty()) {
        if (const auto decoded = decode(m_users.cbegin()->passwordHash)) {
            iterations = decoded->iterations;
        }
    }
    m_dummyHash = encode(iterations, randomBytes(kSaltBytes), QByteArray(kHashBytes, '\0'));
}

core::Status UserStore::load()
{
    if (m_path.isEmpty()) {
        return {}; // memory only: the shared store fills it (replaceAll)
    }
    m_users.clear();
    m_broken = false;
    QFile file(m_path);
    if (!file.exists()) {
        refreshDummyHash();
        return {};
    }
    const auto fail = [&](const QString &message) -> core::Status {
        m_users.clear();
        m_broken = true;
        refreshDummyHash();
        return core::fail(QStringLiteral("%1: %2").arg(m_path, message));
    };
    if (!file.open(QIODevice::ReadOnly)) {
        return fail(file.errorString());
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        return fail(QStringLiteral("not JSON (%1)").arg(parseError.errorString()));
    }
    if (!doc.isObject() || !doc.object().value(QStringLiteral("users")).isArray()) {
        return fail(QStringLiteral("expected {\"users\": [...]}"));
    }
    QHash<QString, User> users;
    const QJsonArray array = doc.object().value(QStringLiteral("users")).toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonObject o = array.at(i).toObject();
        User user;
        user.name = o.value(QStringLiteral("name")).toString();
        const auto role = roleFromName(o.value(QStringLiteral("role")).toString());
        user.passwordHash = o.value(QStringLiteral("password_hash")).toString();
        user.created = QDateTime::fromString(o.value(QStringLiteral("created")).toString(), Qt::ISODate);
        const QString where = QStringLiteral("user %1").arg(i + 1);
        if (!validName(user.name)) {
            return fail(where + QStringLiteral(": invalid or missing name"));
        }
        if (!role) {
            return fail(where + QStringLiteral(": role must be viewer, operator or admin"));
        }
        if (!decode(user.passwordHash)) {
            return fail(where + QStringLiteral(": password_hash is not a pbkdf2-sha256 hash"));
        }
        if (users.contains(user.name)) {
            return fail(where + QStringLiteral(": duplicate name %1").arg(user.name));
        }
        user.role = *role;
        user.created = user.created.isValid() ? user.created.toUTC() : QDateTime();
        users.insert(user.name, user);
    }
    m_users = users;
    refreshDummyHash();
    return {};
}

core::Status UserStore::save(const QHash<QString, User> &users) const
{
    if (m_path.isEmpty()) {
        return {}; // memory only: the write-through persists
    }
    QList<User> sorted = users.values();
    std::sort(sorted.begin(), sorted.end(), [](const User &a, const User &b) {
        return a.name < b.name;
    });
    QJsonArray array;
    for (const User &user : sorted) {
        array.append(QJsonObject{{QStringLiteral("name"), user.name},
                                 {QStringLiteral("role"), roleName(user.role)},
                                 {QStringLiteral("password_hash"), user.passwordHash},
                                 {QStringLiteral("created"), user.created.toUTC().toString(Qt::ISODate)}});
    }
    const QByteArray json = QJsonDocument(QJsonObject{{QStringLiteral("users"), array}}).toJson();

    const QFileInfo info(m_path);
    if (!QDir().mkpath(info.absolutePath())) {
        return core::fail(QStringLiteral("cannot create %1").arg(info.absolutePath()));
    }
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly)) {
        return core::fail(QStringLiteral("%1: %2").arg(m_path, file.errorString()));
    }
    // Set on the temporary file before the rename, so the hashes are never readable by others,
    // not even for a moment; QSaveFile would otherwise copy an existing file's looser mode.
    if (!file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
        file.cancelWriting();
        return core::fail(QStringLiteral("%1: cannot restrict permissions to 0600").arg(m_path));
    }
    if (file.write(json) != json.size() || !file.commit()) {
        return core::fail(QStringLiteral("%1: %2").arg(m_path, file.errorString()));
    }
    return {};
}

core::Status UserStore::validateNewUser(const QString &name, const QString &password)
{
    if (!validName(name)) {
        return core::fail(core::Error::invalid(
            {}, QStringLiteral("invalid user name \"%1\": 1-64 characters of A-Z a-z 0-9 . _ @ -").arg(name.left(80))));
    }
    if (password.size() < kMinPasswordLength) {
        return core::fail(core::Error::invalid(
            {}, QStringLiteral("the password must have at least %1 characters").arg(kMinPasswordLength)));
    }
    return {};
}

core::Status UserStore::addUser(const QString &name, const QString &password, Role role, int iterations)
{
    if (m_broken) {
        return core::fail(QStringLiteral("%1 could not be read; fix or remove it first").arg(m_path));
    }
    if (core::Status valid = validateNewUser(name, password); !valid) {
        return valid;
    }
    return addHashedUser(name, hashPassword(password, iterations), role);
}

core::Status UserStore::addHashedUser(const QString &name, const QString &passwordHash, Role role)
{
    if (m_broken) {
        return core::fail(QStringLiteral("%1 could not be read; fix or remove it first").arg(m_path));
    }
    if (!validName(name)) {
        return core::fail(core::Error::invalid(
            {}, QStringLiteral("invalid user name \"%1\": 1-64 characters of A-Z a-z 0-9 . _ @ -").arg(name.left(80))));
    }
    QHash<QString, User> users = m_users;
    User user;
    user.name = name;
    user.role = role;
    user.passwordHash = passwordHash;
    // A replaced user keeps the date the account was first created.
    const auto existing = m_users.constFind(name);
    if (existing != m_users.cend() && existing->created.isValid()) {
        user.created = existing->created;
    } else {
        const QDateTime now = m_clock.now().toUTC();
        user.created =
            QDateTime(now.date(), QTime(now.time().hour(), now.time().minute(), now.time().second()), Qt::UTC);
    }
    users.insert(name, user);
    if (core::Status saved = save(users); !saved) {
        return saved;
    }
    m_users = users;
    refreshDummyHash();
    if (m_writeThrough) {
        m_writeThrough(name, user);
    }
    return {};
}

core::Status UserStore::removeUser(const QString &name)
{
    if (m_broken) {
        return core::fail(QStringLiteral("%1 could not be read; fix or remove it first").arg(m_path));
    }
    if (!m_users.contains(name)) {
        return core::fail(
            core::Error::make(core::Error::Kind::NotFound, QStringLiteral("no user \"%1\"").arg(name.left(80))));
    }
    QHash<QString, User> users = m_users;
    users.remove(name);
    if (core::Status saved = save(users); !saved) {
        return saved;
    }
    m_users = users;
    refreshDummyHash();
    if (m_writeThrough) {
        m_writeThrough(name, std::nullopt);
    }
    return {};
}

void UserStore::applyRemote(const User &user)
{
    m_users.insert(user.name, user);
    refreshDummyHash();
}

void UserStore::forgetRemote(const QString &name)
{
    m_users.remove(name);
    refreshDummyHash();
}

void UserStore::replaceAll(const QList<User> &users)
{
    m_users.clear();
    for (const User &user : users) {
        m_users.insert(user.name, user);
    }
    m_broken = false;
    refreshDummyHash();
}

LoginCandidate UserStore::snapshot(const QString &name) const
{
    return LoginCandidate{find(name), m_dummyHash, !m_users.isEmpty()};
}

std::optional<User> LoginCandidate::authenticate(const QString &password) const
{
    if (!anyUsers) {
        return std::nullopt; // nothing to reveal: every name is unknown
    }
    if (!user) {
        (void)verifyPassword(password, dummyHash);
        return std::nullopt;
    }
    if (!verifyPassword(password, user->passwordHash)) {
        return std::nullopt;
    }
    return user;
}

std::optional<User> UserStore::find(const QString &name) const
{
    const auto it = m_users.constFind(name);
    if (it == m_users.cend()) {
        return std::nullopt;
    }
    return *it;
}

QList<User> UserStore::users() const
{
    QList<User> list = m_users.values();
    std::sort(list.begin(), list.end(), [](const User &a, const User &b) {
        return a.name < b.name;
    });
    return list;
}

std::optional<User> UserStore::authenticate(const QString &name, const QString &password) const
{
    return snapshot(name).authenticate(password);
}

// ---------------------------------------------------------------------------------------------
// SessionManager

SessionManager::SessionManager(core::IClock &clock, std::chrono::seconds idle, std::chrono::seconds absolute)
    : m_clock(clock)
    , m_idle(idle)
    , m_absolute(absolute)
{}

bool SessionManager::expired(const Session &session, const QDateTime &now) const
{
    return session.lastSeen.msecsTo(now) >= qint64(m_idle.count()) * 1000
           || session.created.msecsTo(now) >= qint64(m_absolute.count()) * 1000;
}

QDateTime SessionManager::expiresAt(const Session &session) const
{
    return std::min(session.created.addSecs(m_absolute.count()), session.lastSeen.addSecs(m_idle.count()));
}

Session SessionManager::create(const User &user)
{
    // Expired sessions are otherwise dropped only when their id comes back.
    const QDateTime now = m_clock.now();
    m_sessions.removeIf([&](const QHash<QString, Session>::iterator &it) {
        return expired(*it, now);
    });
    Session session;
    do {
        session.id = randomToken();
        session.idHash = sessionIdHash(session.id);
    } while (m_sessions.contains(session.idHash));
    session.user = user.name;
    session.role = user.role;
    session.csrfToken = csrfTokenFor(session.id);
    session.created = now;
    session.lastSeen = now;
    session.lastWritten = now;
    m_sessions.insert(session.idHash, session);
    return session;
}

std::optional<Session> SessionManager::find(const QString &id)
{
    if (id.isEmpty()) {
        return std::nullopt;
    }
    const QString hash = sessionIdHash(id);
    const auto it = m_sessions.find(hash);
    if (it == m_sessions.end()) {
        return std::nullopt;
    }
    const QDateTime now = m_clock.now();
    if (expired(*it, now)) {
        m_touched.remove(hash);
        m_sessions.erase(it);
        return std::nullopt;
    }
    it->lastSeen = now;
    if (it->id.isEmpty()) {
        // Made on another replica: its id is known from this cookie on.
        it->id = id;
        it->csrfToken = csrfTokenFor(id);
    }
    if (m_trackTouches && it->lastWritten.secsTo(now) >= kTouchInterval.count()) {
        m_touched.insert(hash);
    }
    return *it;
}

std::optional<Session> SessionManager::removeByHash(const QString &idHash)
{
    m_touched.remove(idHash);
    const auto it = m_sessions.find(idHash);
    if (it == m_sessions.end()) {
        return std::nullopt;
    }
    Session removed = *it;
    m_sessions.erase(it);
    return removed;
}

std::optional<Session> SessionManager::remove(const QString &id)
{
    return removeByHash(sessionIdHash(id));
}

void SessionManager::adopt(const Session &session)
{
    if (session.idHash.isEmpty() || expired(session, m_clock.now())) {
        return;
    }
    const auto it = m_sessions.find(session.idHash);
    if (it == m_sessions.end()) {
        Session copy = session;
        copy.csrfToken = copy.id.isEmpty() ? QString() : csrfTokenFor(copy.id);
        copy.lastWritten = copy.lastSeen;
        m_sessions.insert(copy.idHash, copy);
        return;
    }
    if (session.lastSeen > it->lastSeen) {
        it->lastSeen = session.lastSeen;
    }
    it->lastWritten = std::max(it->lastWritten, session.lastSeen);
    if (it->id.isEmpty() && !session.id.isEmpty()) {
        it->id = session.id;
        it->csrfToken = csrfTokenFor(session.id);
    }
}

void SessionManager::removeUser(const QString &name)
{
    m_sessions.removeIf([&](const QHash<QString, Session>::iterator &it) {
        if (it->user != name) {
            return false;
        }
        m_touched.remove(it.key());
        return true;
    });
}

std::vector<Session> SessionManager::takeTouched()
{
    std::vector<Session> out;
    for (const QString &hash : std::as_const(m_touched)) {
        const auto it = m_sessions.find(hash);
        if (it != m_sessions.end()) {
            it->lastWritten = it->lastSeen;
            out.push_back(*it);
        }
    }
    m_touched.clear();
    return out;
}

// ---------------------------------------------------------------------------------------------
// LoginLimiter

LoginLimiter::LoginLimiter(core::IClock &clock, LoginLimits limits)
    : m_clock(clock)
    , m_limits(limits)
{
    m_limits.perUserAndClient = std::max(1, m_limits.perUserAndClient);
    m_limits.perClient = std::max(m_limits.perUserAndClient, m_limits.perClient);
    m_limits.global = std::max(1, m_limits.global);
}

LoginLimiter::LoginLimiter(core::IClock &clock, int maxFailures, std::chrono::seconds window)
    : LoginLimiter(clock, LoginLimits{maxFailures, 4 * maxFailures, 20 * maxFailures, window})
{}

QList<QDateTime> LoginLimiter::recent(const QList<Failure> &failures, const QString *user) const
{
    const QDateTime now = m_clock.now();
    const qint64 windowMs = qint64(m_limits.window.count()) * 1000;
    QList<QDateTime> out;
    for (const Failure &f : failures) {
        if (f.time.msecsTo(now) < windowMs && (!user || f.user == *user)) {
            out.append(f.time);
        }
    }
    return out;
}

std::chrono::seconds LoginLimiter::wait(const QList<QDateTime> &recentFailures, int limit) const
{
    if (recentFailures.size() < limit) {
        return std::chrono::seconds(0);
    }
    // Allowed again once fewer than `limit` remain in the window.
    const qint64 windowMs = qint64(m_limits.window.count()) * 1000;
    const QDateTime freeAt = recentFailures.at(recentFailures.size() - limit).addMSecs(windowMs);
    const qint64 ms = m_clock.now().msecsTo(freeAt);
    return std::chrono::seconds(std::max<qint64>(1, (ms + 999) / 1000));
}

bool LoginLimiter::hasRecentFailures(const QString &client) const
{
    return !recent(m_byClient.value(client), nullptr).isEmpty();
}

std::chrono::seconds LoginLimiter::retryAfter(const QString &client, const QString &user) const
{
    const QList<Failure> failures = m_byClient.value(client);
    const QList<QDateTime> fromClient = recent(failures, nullptr);
    std::chrono::seconds out =
        std::max(wait(recent(failures, &user), m_limits.perUserAndClient), wait(fromClient, m_limits.perClient));
    if (!fromClient.isEmpty()) {
        QList<QDateTime> global;
        const qint64 windowMs = qint64(m_limits.window.count()) * 1000;
        const QDateTime now = m_clock.now();
        for (const QDateTime &t : m_global) {
            if (t.msecsTo(now) < windowMs) {
                global.append(t);
            }
        }
        // Past the global limit a failing address waits until the count drops or its own
        // failures leave the window, whichever comes first.
        const std::chrono::seconds globalWait = wait(global, m_limits.global);
        if (globalWait.count() > 0) {
            const qint64 ownMs = now.msecsTo(fromClient.last().addMSecs(windowMs));
            out = std::max(out, std::min(globalWait, std::chrono::seconds(std::max<qint64>(1, (ownMs + 999) / 1000))));
        }
    }
    return out;
}

void LoginLimiter::prune(const QString &client)
{
    const auto it = m_byClient.find(client);
    if (it == m_byClient.end()) {
        return;
    }
    const QDateTime now = m_clock.now();
    const qint64 windowMs = qint64(m_limits.window.count()) * 1000;
    it->removeIf([&](const Failure &f) {
        return f.time.msecsTo(now) >= windowMs;
    });
    if (it->isEmpty()) {
        m_byClient.erase(it);
    }
}

void LoginLimiter::pruneGlobal()
{
    const QDateTime now = m_clock.now();
    const qint64 windowMs = qint64(m_limits.window.count()) * 1000;
    while (!m_global.isEmpty() && m_global.first().msecsTo(now) >= windowMs) {
        m_global.removeFirst();
    }
}

void LoginLimiter::sweep()
{
    // Guesses from many addresses must not grow the table without bound.
    const QStringList keys = m_byClient.keys();
    for (const QString &key : keys) {
        prune(key);
    }
}

LoginLockout LoginLimiter::recordFailure(const QString &client, const QString &user)
{
    if (++m_recordedSinceSweep >= 1024) {
        m_recordedSinceSweep = 0;
        sweep();
    }
    prune(client);
    pruneGlobal();
    const QDateTime now = m_clock.now();
    QList<Failure> &failures = m_byClient[client];
    failures.append(Failure{now, user});
    m_global.append(now);
    if (recent(failures, &user).size() == m_limits.perUserAndClient) {
        return LoginLockout::UserFromClient;
    }
    if (failures.size() == m_limits.perClient) {
        return LoginLockout::Client;
    }
    if (m_global.size() == m_limits.global) {
        return LoginLockout::Global;
    }
    return LoginLockout::None;
}

void LoginLimiter::recordSuccess(const QString &client, const QString &user)
{
    if (auto it = m_byClient.find(client); it != m_byClient.end()) {
        it->removeIf([&](const Failure &f) {
            return f.user == user;
        });
    }
    prune(client);
}

// ---------------------------------------------------------------------------------------------
// strata-server user ...

namespace {

const char *const kUserUsage = "usage: strata-server user add NAME --role viewer|operator|admin [--users PATH]\n"
                               "       strata-server user remove NAME [--users PATH]\n"
                               "       strata-server user list [--users PATH]\n"
                               "The new password comes from STRATA_NEW_PASSWORD, else one line on stdin.\n";

// Turns terminal echo off while the password is typed, when `in` is an interactive terminal.
class EchoOff
{
public:
    explicit EchoOff(QTextStream &in)
    {
        auto *file = qobject_cast<QFile *>(in.device());
        if (!file || file->handle() < 0 || !isatty(file->handle())) {
            return;
        }
        m_fd = file->handle();
        if (tcgetattr(m_fd, &m_saved) != 0) {
            m_fd = -1;
            return;
        }
        termios quiet = m_saved;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        if (tcsetattr(m_fd, TCSAFLUSH, &quiet) != 0) {
            m_fd = -1;
        }
    }
    ~EchoOff()
    {
        if (m_fd >= 0) {
            tcsetattr(m_fd, TCSAFLUSH, &m_saved);
        }
    }
    EchoOff(const EchoOff &) = delete;
    EchoOff &operator=(const EchoOff &) = delete;
    [[nodiscard]] bool active() const { return m_fd >= 0; }

private:
    int m_fd = -1;
    termios m_saved{};
};

} // namespace

int runUserCommand(const QStringList &args,
                   const QString &defaultUsersPath,
                   QTextStream &in,
                   QTextStream &out,
                   QTextStream &err,
                   const core::IClock &clock,
                   int iterations,
                   core::IHistoryStore *store)
{
    const auto usage = [&](const QString &problem) {
        if (!problem.isEmpty()) {
            err << "strata-server user: " << problem << "\n";
        }
        err << kUserUsage;
        err.flush();
        return 2;
    };
    const auto fail = [&](const QString &message) {
        err << "strata-server user: " << message << "\n";
        err.flush();
        return 1;
    };

    if (args.isEmpty()) {
        return usage({});
    }
    const QString verb = args.first();
    if (verb != QLatin1String("add") && verb != QLatin1String("remove") && verb != QLatin1String("list")) {
        return usage(QStringLiteral("unknown command \"%1\"").arg(verb));
    }
    QString usersPath = defaultUsersPath;
    QString roleText;
    QStringList positional;
    for (qsizetype i = 1; i < args.size(); ++i) {
        const QString &arg = args.at(i);
        const auto takeValue = [&](const QString &option, QString *value) {
            if (arg.startsWith(option + u'=')) {
                *value = arg.mid(option.size() + 1);
                return true;
            }
            if (i + 1 >= args.size()) {
                return false;
            }
            *value = args.at(++i);
            return true;
        };
        if (arg == QLatin1String("--users") || arg.startsWith(QLatin1String("--users="))) {
            if (!takeValue(QStringLiteral("--users"), &usersPath) || usersPath.isEmpty()) {
                return usage(QStringLiteral("--users needs a path"));
            }
            if (store) {
                return usage(QStringLiteral("the users live in the store the servers share, not in a file: drop "
                                            "--users (strata-server migrate imports a users.json)"));
            }
        } else if (verb == QLatin1String("add")
                   && (arg == QLatin1String("--role") || arg.startsWith(QLatin1String("--role=")))) {
            if (!takeValue(QStringLiteral("--role"), &roleText)) {
                return usage(QStringLiteral("--role needs a value"));
            }
        } else if (arg.startsWith(u'-') && arg.size() > 1) {
            return usage(QStringLiteral("unknown option %1").arg(arg));
        } else {
            positional.append(arg);
        }
    }
    if (usersPath.isEmpty() && !store) {
        return usage(QStringLiteral("no users file: pass --users PATH"));
    }
    const qsizetype wantPositional = verb == QLatin1String("list") ? 0 : 1;
    if (positional.size() != wantPositional) {
        return usage(wantPositional ? QStringLiteral("%1 takes exactly one user name").arg(verb)
                                    : QStringLiteral("list takes no user name"));
    }

    // With a shared store the users are read from it into a memory-only UserStore, and each
    // change is written back through it (one transaction, the user's sessions ending with it).
    UserStore users(store ? QString() : usersPath, clock);
    core::Status written;
    if (store) {
        const auto stored = store->webUsers();
        if (!stored) {
            return fail(stored.error().message);
        }
        QList<User> list;
        for (const core::WebUserRecord &r : *stored) {
            list.append(User{r.name, roleFromName(r.role).value_or(Role::Viewer), r.passwordHash, r.created});
        }
        users.replaceAll(list);
        users.setWriteThrough([&](const QString &name, const std::optional<User> &user) {
            if (user) {
                written = store->saveWebUser(
                    core::WebUserRecord{user->name, roleName(user->role), user->passwordHash, user->created},
                    clock.now());
            } else if (const auto removed = store->removeWebUser(name, clock.now()); !removed) {
                written = core::fail(removed.error());
            }
        });
    } else if (const core::Status loaded = users.load(); !loaded) {
        return fail(loaded.error().message);
    }

    if (verb == QLatin1String("list")) {
        const QList<User> listed = users.users();
        qsizetype nameWidth = 4;
        for (const User &u : listed) {
            nameWidth = std::max(nameWidth, u.name.size());
        }
        out << QStringLiteral("NAME").leftJustified(nameWidth + 2) << QStringLiteral("ROLE").leftJustified(10)
            << "CREATED\n";
        for (const User &u : listed) {
            out << u.name.leftJustified(nameWidth + 2) << roleName(u.role).leftJustified(10)
                << (u.created.isValid() ? u.created.toUTC().toString(Qt::ISODate) : QStringLiteral("-")) << "\n";
        }
        out.flush();
        return 0;
    }

    const QString name = positional.first();
    if (verb == QLatin1String("remove")) {
        if (const core::Status removed = users.removeUser(name); !removed) {
            return fail(removed.error().message);
        }
        if (!written) {
            return fail(written.error().message);
        }
        out << "removed user " << name << "\n";
        out.flush();
        return 0;
    }

    if (roleText.isEmpty()) {
        return usage(QStringLiteral("add needs --role viewer|operator|admin"));
    }
    const auto role = roleFromName(roleText);
    if (!role) {
        return usage(QStringLiteral("unknown role \"%1\" (viewer, operator or admin)").arg(roleText));
    }
    QString password;
    if (qEnvironmentVariableIsSet("STRATA_NEW_PASSWORD")) {
        password = qEnvironmentVariable("STRATA_NEW_PASSWORD");
    } else {
        const EchoOff echoOff(in);
        if (echoOff.active()) {
            err << "Password for " << name << ": ";
            err.flush();
        }
        password = in.readLine();
        if (echoOff.active()) {
            err << "\n";
            err.flush();
        }
        if (password.endsWith(u'\r')) {
            password.chop(1);
        }
    }
    if (password.isEmpty()) {
        return fail(QStringLiteral("no password: set STRATA_NEW_PASSWORD or give one line on stdin"));
    }
    const bool existed = users.find(name).has_value();
    if (const core::Status added = users.addUser(name, password, *role, iterations); !added) {
        return fail(added.error().message);
    }
    if (!written) {
        return fail(written.error().message);
    }
    out << (existed ? "updated user " : "added user ") << name << " (" << roleName(*role) << ")\n";
    out.flush();
    return 0;
}

} // namespace strata::web
