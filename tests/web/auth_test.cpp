#include "web/auth.h"

#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTextStream>

#include <gtest/gtest.h>

#include <chrono>

using strata::testsupport::errorText;
using strata::testsupport::succeeded;
using namespace strata::web;
using strata::testsupport::ManualClock;
using namespace std::chrono_literals;

namespace {

// Tests hash with a low cost; one test checks the production default.
constexpr int kFast = 1000;

/// The users' clock: a date no wall clock gives, so a created date read from it is recognisable.
ManualClock &userStoreClock()
{
    static ManualClock clock(QDateTime(QDate(2019, 7, 4), QTime(9, 15, 30), Qt::UTC));
    return clock;
}

User user(const QString &name, Role role = Role::Viewer)
{
    User u;
    u.name = name;
    u.role = role;
    return u;
}

QFileDevice::Permissions ownerOnly()
{
    return QFileDevice::ReadOwner | QFileDevice::WriteOwner;
}

QFileDevice::Permissions groupOrOther()
{
    return QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther
           | QFileDevice::WriteOther | QFileDevice::ExeOther;
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(bytes);
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Unsets STRATA_NEW_PASSWORD (or sets it) for one test and restores it after.
class PasswordEnv
{
public:
    explicit PasswordEnv(const QByteArray *value)
        : m_had(qEnvironmentVariableIsSet("STRATA_NEW_PASSWORD"))
        , m_old(qgetenv("STRATA_NEW_PASSWORD"))
    {
        if (value) {
            qputenv("STRATA_NEW_PASSWORD", *value);
        } else {
            qunsetenv("STRATA_NEW_PASSWORD");
        }
    }
    ~PasswordEnv()
    {
        if (m_had) {
            qputenv("STRATA_NEW_PASSWORD", m_old);
        } else {
            qunsetenv("STRATA_NEW_PASSWORD");
        }
    }

private:
    bool m_had;
    QByteArray m_old;
};

struct CommandResult
{
    int code = -1;
    QString out;
    QString err;
};

CommandResult runUser(const QStringList &args, const QString &usersPath, const QString &stdinText = {})
{
    QString input = stdinText;
    QTextStream in(&input, QIODevice::ReadOnly);
    CommandResult r;
    QTextStream out(&r.out, QIODevice::WriteOnly);
    QTextStream err(&r.err, QIODevice::WriteOnly);
    r.code = runUserCommand(args, usersPath, in, out, err, userStoreClock(), kFast);
    out.flush();
    err.flush();
    return r;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Password hashes

TEST(PasswordHash, RoundTripAndEncoding)
{
    const QString encoded = hashPassword(QStringLiteral("correct horse"), kFast);
    const QStringList parts = encoded.split(u'$');
    ASSERT_EQ(parts.size(), 4);
    EXPECT_EQ(parts[0], QStringLiteral("pbkdf2-sha256"));
    EXPECT_EQ(parts[1], QStringLiteral("1000"));
    EXPECT_EQ(QByteArray::fromBase64(parts[2].toLatin1()).size(), 16);
    EXPECT_EQ(QByteArray::fromBase64(parts[3].toLatin1()).size(), 32);
    EXPECT_TRUE(verifyPassword(QStringLiteral("correct horse"), encoded));
    EXPECT_FALSE(encoded.contains(QStringLiteral("correct")));
}

TEST(PasswordHash, KnownVector)
{
    // RFC 7914 §11 PBKDF2-HMAC-SHA256 test vector (P="passwd", S="salt", c=1), first 32 bytes:
    // proves the derivation is the standard one, not just self-consistent.
    const QByteArray expected = QByteArray::fromHex("55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc");
    const QString encoded =
        QStringLiteral("pbkdf2-sha256$1$%1$%2")
            .arg(QString::fromLatin1(QByteArray("salt").toBase64()), QString::fromLatin1(expected.toBase64()));
    EXPECT_TRUE(verifyPassword(QStringLiteral("passwd"), encoded));
    EXPECT_FALSE(verifyPassword(QStringLiteral("passwe"), encoded));
}

TEST(PasswordHash, WrongPasswordFails)
{
    const QString encoded = hashPassword(QStringLiteral("s3cret-pass"), kFast);
    EXPECT_FALSE(verifyPassword(QStringLiteral("s3cret-pasS"), encoded));
    EXPECT_FALSE(verifyPassword(QString(), encoded));
    EXPECT_FALSE(verifyPassword(QStringLiteral("s3cret-pass "), encoded));
}

TEST(PasswordHash, UnicodePasswordRoundTrips)
{
    const QString password = QStringLiteral("pässwörd-日本語");
    const QString encoded = hashPassword(password, kFast);
    EXPECT_TRUE(verifyPassword(password, encoded));
    EXPECT_FALSE(verifyPassword(QStringLiteral("passwort-日本語"), encoded));
}

TEST(PasswordHash, SaltDiffersPerHash)
{
    const QString a = hashPassword(QStringLiteral("same password"), kFast);
    const QString b = hashPassword(QStringLiteral("same password"), kFast);
    EXPECT_NE(a.split(u'$')[2], b.split(u'$')[2]);
    EXPECT_NE(a.split(u'$')[3], b.split(u'$')[3]);
    EXPECT_TRUE(verifyPassword(QStringLiteral("same password"), a));
    EXPECT_TRUE(verifyPassword(QStringLiteral("same password"), b));
}

TEST(PasswordHash, MalformedEncodingsAreRejected)
{
    const QString good = hashPassword(QStringLiteral("password1"), kFast);
    ASSERT_TRUE(verifyPassword(QStringLiteral("password1"), good));
    const QStringList p = good.split(u'$');
    const QString thirtyOneBytes = QString::fromLatin1(QByteArray(31, 'x').toBase64());
    const QStringList bad = {
        QString(),
        QStringLiteral("password1"),
        QStringLiteral("pbkdf2-sha256"),
        QStringLiteral("pbkdf2-sha1$%1$%2$%3").arg(p[1], p[2], p[3]),
        QStringLiteral("pbkdf2-sha256$%1$%2").arg(p[1], p[2]),
        QStringLiteral("pbkdf2-sha256$%1$%2$%3$").arg(p[1], p[2], p[3]),
        QStringLiteral("pbkdf2-sha256$0$%1$%2").arg(p[2], p[3]),
        QStringLiteral("pbkdf2-sha256$-1000$%1$%2").arg(p[2], p[3]),
        QStringLiteral("pbkdf2-sha256$+1000$%1$%2").arg(p[2], p[3]),
        QStringLiteral("pbkdf2-sha256$abc$%1$%2").arg(p[2], p[3]),
        QStringLiteral("pbkdf2-sha256$99999999999$%1$%2").arg(p[2], p[3]),
        QStringLiteral("pbkdf2-sha256$%1$$%2").arg(p[1], p[3]),
        QStringLiteral("pbkdf2-sha256$%1$%2$").arg(p[1], p[2]),
        QStringLiteral("pbkdf2-sha256$%1$!!notbase64!!$%2").arg(p[1], p[3]),
        QStringLiteral("pbkdf2-sha256$%1$%2$%3").arg(p[1], p[2], thirtyOneBytes),
        QStringLiteral("PBKDF2-SHA256$%1$%2$%3").arg(p[1], p[2], p[3]),
    };
    for (const QString &encoded : bad) {
        EXPECT_FALSE(verifyPassword(QStringLiteral("password1"), encoded)) << qPrintable(encoded);
    }
}

TEST(PasswordHash, DefaultCostIsOwasp2023)
{
    const QString encoded = hashPassword(QStringLiteral("default cost"));
    const QStringList parts = encoded.split(u'$');
    ASSERT_EQ(parts.size(), 4);
    EXPECT_GE(parts[1].toInt(), 600000);
}

TEST(Roles, NamesRoundTripAndOrder)
{
    for (Role role : {Role::Viewer, Role::Operator, Role::Admin}) {
        EXPECT_EQ(roleFromName(roleName(role)), role);
    }
    EXPECT_EQ(roleName(Role::Operator), QStringLiteral("operator"));
    EXPECT_FALSE(roleFromName(QStringLiteral("root")).has_value());
    EXPECT_FALSE(roleFromName(QString()).has_value());
    EXPECT_LT(Role::Viewer, Role::Operator);
    EXPECT_LT(Role::Operator, Role::Admin);
}

// ---------------------------------------------------------------------------------------------
// UserStore

TEST(UserStore, MissingFileIsEmptyStore)
{
    QTemporaryDir dir;
    UserStore store(dir.filePath(QStringLiteral("users.json")), userStoreClock());
    EXPECT_TRUE(succeeded(store.load()));
    EXPECT_TRUE(store.users().isEmpty());
    EXPECT_FALSE(store.authenticate(QStringLiteral("admin"), QStringLiteral("whatever1")).has_value());
}

TEST(UserStore, AddAuthenticateReplaceRemoveReload)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("state/users.json"));
    UserStore store(path, userStoreClock());
    ASSERT_TRUE(store.load());
    QString error;
    ASSERT_TRUE(succeeded(store.addUser(QStringLiteral("alice"), QStringLiteral("alice-pass-1"), Role::Admin, kFast)));
    ASSERT_TRUE(succeeded(
        store.addUser(QStringLiteral("bob.ops@example"), QStringLiteral("bob-pass-1"), Role::Operator, kFast)));

    const auto alice = store.authenticate(QStringLiteral("alice"), QStringLiteral("alice-pass-1"));
    ASSERT_TRUE(alice.has_value());
    EXPECT_EQ(alice->role, Role::Admin);
    EXPECT_EQ(alice->created, userStoreClock().now()) << "dated by the store's clock";
    EXPECT_FALSE(store.authenticate(QStringLiteral("alice"), QStringLiteral("bob-pass-1")).has_value());
    EXPECT_FALSE(store.authenticate(QStringLiteral("ALICE"), QStringLiteral("alice-pass-1")).has_value());

    // The file holds hashes only.
    const QByteArray json = readFile(path);
    EXPECT_FALSE(json.contains("alice-pass-1"));
    EXPECT_FALSE(json.contains("bob-pass-1"));
    EXPECT_TRUE(json.contains("pbkdf2-sha256$1000$"));

    // Replace: new password and role, same creation date.
    const QDateTime created = alice->created;
    ASSERT_TRUE(succeeded(store.addUser(QStringLiteral("alice"), QStringLiteral("alice-pass-2"), Role::Viewer, kFast)));
    EXPECT_FALSE(store.authenticate(QStringLiteral("alice"), QStringLiteral("alice-pass-1")).has_value());
    ASSERT_TRUE(store.authenticate(QStringLiteral("alice"), QStringLiteral("alice-pass-2")).has_value());
    EXPECT_EQ(store.find(QStringLiteral("alice"))->role, Role::Viewer);
    EXPECT_EQ(store.find(QStringLiteral("alice"))->created, created);
    EXPECT_EQ(store.users().size(), 2);

    // Reload from disk in a fresh store.
    UserStore reloaded(path, userStoreClock());
    ASSERT_TRUE(succeeded(reloaded.load()));
    ASSERT_EQ(reloaded.users().size(), 2);
    EXPECT_EQ(reloaded.users()[0].name, QStringLiteral("alice")); // sorted by name
    EXPECT_EQ(reloaded.users()[1].name, QStringLiteral("bob.ops@example"));
    EXPECT_EQ(reloaded.find(QStringLiteral("bob.ops@example"))->role, Role::Operator);
    EXPECT_EQ(reloaded.find(QStringLiteral("alice"))->created, created);
    EXPECT_TRUE(reloaded.authenticate(QStringLiteral("alice"), QStringLiteral("alice-pass-2")).has_value());

    ASSERT_TRUE(succeeded(reloaded.removeUser(QStringLiteral("alice"))));
    EXPECT_FALSE(reloaded.find(QStringLiteral("alice")).has_value());
    EXPECT_FALSE(reloaded.authenticate(QStringLiteral("alice"), QStringLiteral("alice-pass-2")).has_value());
    error = errorText(reloaded.removeUser(QStringLiteral("alice")));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_TRUE(error.contains(QStringLiteral("alice")));

    UserStore third(path, userStoreClock());
    ASSERT_TRUE(third.load());
    ASSERT_EQ(third.users().size(), 1);
    EXPECT_EQ(third.users()[0].name, QStringLiteral("bob.ops@example"));
}

TEST(UserStore, FileIsOwnerOnlyEvenWhenItWasWorldReadable)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("users.json"));
    UserStore store(path, userStoreClock());
    ASSERT_TRUE(store.load());
    ASSERT_TRUE(succeeded(store.addUser(QStringLiteral("alice"), QStringLiteral("alice-pass-1"), Role::Admin, kFast)));
    EXPECT_EQ(QFileInfo(path).permissions() & (ownerOnly() | groupOrOther() | QFileDevice::ExeOwner), ownerOnly());

    // An existing file someone made 0644: the next save tightens it.
    ASSERT_TRUE(QFile::setPermissions(path, ownerOnly() | QFileDevice::ReadGroup | QFileDevice::ReadOther));
    ASSERT_TRUE(QFileInfo(path).permissions() & QFileDevice::ReadOther);
    ASSERT_TRUE(succeeded(store.addUser(QStringLiteral("bob"), QStringLiteral("bob-pass-1"), Role::Viewer, kFast)));
    EXPECT_EQ(QFileInfo(path).permissions() & (ownerOnly() | groupOrOther() | QFileDevice::ExeOwner), ownerOnly());
    ASSERT_TRUE(store.removeUser(QStringLiteral("bob")));
    EXPECT_EQ(QFileInfo(path).permissions() & (ownerOnly() | groupOrOther() | QFileDevice::ExeOwner), ownerOnly());
}

TEST(UserStore, RejectsInvalidNamesAndShortPasswords)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("users.json"));
    UserStore store(path, userStoreClock());
    ASSERT_TRUE(store.load());
    QString error;
    for (const QString &name : {QString(),
                                QStringLiteral("has space"),
                                QStringLiteral("semi;colon"),
                                QStringLiteral("slash/name"),
                                QStringLiteral("ünïcode"),
                                QString(65, u'a')}) {
        error.clear();
        error = errorText(store.addUser(name, QStringLiteral("long-enough"), Role::Viewer, kFast));
        EXPECT_FALSE(error.isEmpty()) << qPrintable(name);
        EXPECT_FALSE(error.isEmpty());
    }
    EXPECT_TRUE(succeeded(store.addUser(QString(64, u'a'), QStringLiteral("long-enough"), Role::Viewer, kFast)));

    error.clear();
    error = errorText(store.addUser(QStringLiteral("carol"), QStringLiteral("1234567"), Role::Viewer, kFast));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_TRUE(error.contains(QStringLiteral("8")));
    EXPECT_FALSE(error.contains(QStringLiteral("1234567"))); // the password never shows up in errors
    EXPECT_TRUE(succeeded(store.addUser(QStringLiteral("carol"), QStringLiteral("12345678"), Role::Viewer, kFast)));
    EXPECT_EQ(store.users().size(), 2);
}

TEST(UserStore, MalformedFileRefusesLoginsAndWrites)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("users.json"));
    const QString validHash = hashPassword(QStringLiteral("alice-pass-1"), kFast);
    const auto entry = [&](const QString &name, const QString &role, const QString &hash) {
        return QJsonObject{{QStringLiteral("name"), name},
                           {QStringLiteral("role"), role},
                           {QStringLiteral("password_hash"), hash},
                           {QStringLiteral("created"), QStringLiteral("2026-01-01T00:00:00Z")}};
    };
    const auto doc = [](const QJsonArray &users) {
        return QJsonDocument(QJsonObject{{QStringLiteral("users"), users}}).toJson();
    };
    const QList<QByteArray> malformed = {
        "not json",
        "[]",
        "{\"users\": 3}",
        doc({entry(QStringLiteral("bad name"), QStringLiteral("admin"), validHash)}),
        doc({entry(QStringLiteral("alice"), QStringLiteral("root"), validHash)}),
        doc({entry(QStringLiteral("alice"), QStringLiteral("admin"), QStringLiteral("plaintext-password"))}),
        doc({entry(QStringLiteral("alice"), QStringLiteral("admin"), validHash),
             entry(QStringLiteral("alice"), QStringLiteral("viewer"), validHash)}),
    };
    for (const QByteArray &bytes : malformed) {
        writeFile(path, bytes);
        UserStore store(path, userStoreClock());
        QString error = errorText(store.load());
        EXPECT_FALSE(error.isEmpty()) << bytes.constData();
        EXPECT_TRUE(error.contains(path)) << qPrintable(error);
        EXPECT_TRUE(store.users().isEmpty());
        EXPECT_FALSE(store.authenticate(QStringLiteral("alice"), QStringLiteral("alice-pass-1")).has_value());
        // A write would replace the broken file and lose whatever users it held.
        error = errorText(store.addUser(QStringLiteral("bob"), QStringLiteral("bob-pass-1"), Role::Admin, kFast));
        EXPECT_FALSE(error.isEmpty());
        EXPECT_EQ(readFile(path), bytes);
    }

    // The well-formed version of the same file loads.
    writeFile(path, doc({entry(QStringLiteral("alice"), QStringLiteral("admin"), validHash)}));
    UserStore store(path, userStoreClock());
    QString error;
    ASSERT_TRUE(succeeded(store.load()));
    const auto alice = store.authenticate(QStringLiteral("alice"), QStringLiteral("alice-pass-1"));
    ASSERT_TRUE(alice.has_value());
    EXPECT_EQ(alice->created, QDateTime(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC));
}

TEST(UserStore, UnknownUserDoesNotAuthenticate)
{
    QTemporaryDir dir;
    UserStore store(dir.filePath(QStringLiteral("users.json")), userStoreClock());
    ASSERT_TRUE(store.load());
    ASSERT_TRUE(succeeded(store.addUser(QStringLiteral("alice"), QStringLiteral("alice-pass-1"), Role::Admin, kFast)));
    EXPECT_FALSE(store.authenticate(QStringLiteral("mallory"), QStringLiteral("alice-pass-1")).has_value());
    EXPECT_FALSE(store.authenticate(QString(), QString()).has_value());
    EXPECT_FALSE(store.find(QStringLiteral("mallory")).has_value());
}

// ---------------------------------------------------------------------------------------------
// SessionManager

TEST(SessionManager, CreateAndFind)
{
    ManualClock clock;
    SessionManager sessions(clock);
    const Session a = sessions.create(user(QStringLiteral("alice"), Role::Operator));
    const Session b = sessions.create(user(QStringLiteral("alice"), Role::Operator));
    EXPECT_EQ(sessions.count(), 2);

    // 32 random bytes in base64url without padding: 43 characters of [A-Za-z0-9_-].
    static const QRegularExpression token(QStringLiteral("^[A-Za-z0-9_-]{43}$"));
    for (const QString &t : {a.id, a.csrfToken, b.id, b.csrfToken}) {
        EXPECT_TRUE(token.match(t).hasMatch()) << qPrintable(t);
    }
    EXPECT_NE(a.id, b.id);
    EXPECT_NE(a.csrfToken, b.csrfToken);
    EXPECT_NE(a.id, a.csrfToken);
    EXPECT_EQ(a.created, clock.now());

    clock.advance(10min);
    const auto found = sessions.find(a.id);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->user, QStringLiteral("alice"));
    EXPECT_EQ(found->role, Role::Operator);
    EXPECT_EQ(found->csrfToken, a.csrfToken);
    EXPECT_EQ(found->lastSeen, clock.now());
    EXPECT_FALSE(sessions.find(QStringLiteral("nope")).has_value());
    EXPECT_FALSE(sessions.find(QString()).has_value());

    sessions.remove(a.id);
    EXPECT_FALSE(sessions.find(a.id).has_value());
    EXPECT_TRUE(sessions.find(b.id).has_value());
}

TEST(SessionManager, IdleExpiry)
{
    ManualClock clock;
    SessionManager sessions(clock, 1h, 24h);
    const Session s = sessions.create(user(QStringLiteral("alice")));
    // Activity keeps it alive past the idle timeout in total.
    for (int i = 0; i < 3; ++i) {
        clock.advance(59min);
        ASSERT_TRUE(sessions.find(s.id).has_value()) << i;
    }
    clock.advance(1h);
    EXPECT_FALSE(sessions.find(s.id).has_value());
    EXPECT_EQ(sessions.count(), 0);
}

TEST(SessionManager, AbsoluteExpiryDespiteActivity)
{
    ManualClock clock;
    SessionManager sessions(clock, 8h, 24h);
    const Session s = sessions.create(user(QStringLiteral("alice")));
    for (int i = 0; i < 23; ++i) {
        clock.advance(1h);
        ASSERT_TRUE(sessions.find(s.id).has_value()) << i;
    }
    clock.advance(59min);
    ASSERT_TRUE(sessions.find(s.id).has_value());
    clock.advance(1min);
    EXPECT_FALSE(sessions.find(s.id).has_value());
}

TEST(SessionManager, CreateDropsExpiredSessions)
{
    ManualClock clock;
    SessionManager sessions(clock, 1h, 24h);
    sessions.create(user(QStringLiteral("alice")));
    sessions.create(user(QStringLiteral("bob")));
    clock.advance(2h);
    sessions.create(user(QStringLiteral("carol")));
    EXPECT_EQ(sessions.count(), 1);
}

TEST(SessionManager, LastSeenIsHandedOutForWritingAtMostOncePerInterval)
{
    ManualClock clock;
    SessionManager sessions(clock);
    sessions.trackTouches(true);
    const Session s = sessions.create(user(QStringLiteral("alice")));
    // Requests within a minute of the last write ask for no write.
    for (int i = 0; i < 5; ++i) {
        clock.advance(10s);
        ASSERT_TRUE(sessions.find(s.id).has_value());
    }
    EXPECT_TRUE(sessions.takeTouched().empty());
    clock.advance(20s);
    ASSERT_TRUE(sessions.find(s.id).has_value());
    ASSERT_TRUE(sessions.find(s.id).has_value());
    const std::vector<Session> touched = sessions.takeTouched();
    ASSERT_EQ(touched.size(), 1U);
    EXPECT_EQ(touched[0].idHash, s.idHash);
    EXPECT_EQ(touched[0].lastSeen, clock.now());
    EXPECT_EQ(sessions.expiresAt(touched[0]), clock.now().addSecs(8 * 3600));
    // Written: quiet again until the next minute has passed.
    clock.advance(30s);
    ASSERT_TRUE(sessions.find(s.id).has_value());
    EXPECT_TRUE(sessions.takeTouched().empty());
}

TEST(SessionManager, ASessionFromAnotherReplicaIsKnownByTheHashOfItsCookie)
{
    ManualClock clock;
    SessionManager sessions(clock);
    const QString id = QStringLiteral("A").repeated(43);
    // What the store holds of it: the hash, never the id.
    Session stored;
    stored.idHash = sessionIdHash(id);
    stored.user = QStringLiteral("bob");
    stored.role = Role::Operator;
    stored.created = clock.now();
    stored.lastSeen = clock.now();
    sessions.adopt(stored);
    EXPECT_EQ(stored.idHash.size(), 64);
    EXPECT_NE(stored.idHash, id);

    const auto found = sessions.find(id);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->user, QStringLiteral("bob"));
    EXPECT_EQ(found->id, id);
    // The CSRF token follows from the id alone: every replica derives the same one.
    EXPECT_EQ(found->csrfToken, csrfTokenFor(id));
    EXPECT_NE(csrfTokenFor(id), csrfTokenFor(QStringLiteral("B").repeated(43)));
    EXPECT_TRUE(sessions.removeByHash(stored.idHash).has_value());
    EXPECT_FALSE(sessions.find(id).has_value());

    // An expired one is not taken.
    stored.lastSeen = clock.now().addSecs(-9 * 3600);
    sessions.adopt(stored);
    EXPECT_EQ(sessions.count(), 0);
}

TEST(SessionManager, RemoveUserEndsOnlyTheirSessions)
{
    ManualClock clock;
    SessionManager sessions(clock);
    const Session a1 = sessions.create(user(QStringLiteral("alice")));
    const Session a2 = sessions.create(user(QStringLiteral("alice")));
    const Session b = sessions.create(user(QStringLiteral("bob")));
    sessions.removeUser(QStringLiteral("alice"));
    EXPECT_FALSE(sessions.find(a1.id).has_value());
    EXPECT_FALSE(sessions.find(a2.id).has_value());
    EXPECT_TRUE(sessions.find(b.id).has_value());
    EXPECT_EQ(sessions.count(), 1);
}

// ---------------------------------------------------------------------------------------------
// LoginLimiter

TEST(LoginLimiter, FiveFailuresThenRetryAfterThenWindowPasses)
{
    ManualClock clock;
    LoginLimiter limiter(clock, 5, 5min);
    const QString client = QStringLiteral("10.0.0.1");
    const QString name = QStringLiteral("alice");
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(limiter.retryAfter(client, name), 0s) << i;
        limiter.recordFailure(client, name);
        clock.advance(10s);
    }
    // Failures at 0, 10, 20, 30, 40 s; now 50 s: the first leaves the window at 300 s.
    EXPECT_EQ(limiter.retryAfter(client, name), 250s);
    clock.advance(249s);
    EXPECT_EQ(limiter.retryAfter(client, name), 1s);
    clock.advance(500ms);
    EXPECT_EQ(limiter.retryAfter(client, name), 1s); // rounded up, never 0 while blocked
    clock.advance(500ms);
    EXPECT_EQ(limiter.retryAfter(client, name), 0s);
    // One more failure blocks again until the next-oldest (10 s) leaves.
    limiter.recordFailure(client, name);
    EXPECT_EQ(limiter.retryAfter(client, name), 10s);
}

TEST(LoginLimiter, SuccessClearsThatUsersFailuresFromThatClient)
{
    ManualClock clock;
    LoginLimiter limiter(clock, 5, 5min);
    const QString client = QStringLiteral("10.0.0.1");
    for (int i = 0; i < 4; ++i) {
        limiter.recordFailure(client, QStringLiteral("alice"));
    }
    limiter.recordSuccess(client, QStringLiteral("alice"));
    for (int i = 0; i < 4; ++i) {
        limiter.recordFailure(client, QStringLiteral("alice"));
    }
    EXPECT_EQ(limiter.retryAfter(client, QStringLiteral("alice")), 0s);
    limiter.recordFailure(client, QStringLiteral("alice"));
    EXPECT_GT(limiter.retryAfter(client, QStringLiteral("alice")), 0s);
}

TEST(LoginLimiter, OwnLoginDoesNotUnlockGuessesAtOtherNames)
{
    ManualClock clock;
    LoginLimiter limiter(clock, LoginLimits{5, 20, 100, 5min});
    const QString client = QStringLiteral("10.0.0.66");
    for (int i = 0; i < 19; ++i) {
        EXPECT_EQ(limiter.recordFailure(client, QStringLiteral("name%1").arg(i)), LoginLockout::None);
    }
    limiter.recordSuccess(client, QStringLiteral("mallory"));
    // Twenty different names from one client: the client is blocked for every name.
    EXPECT_EQ(limiter.recordFailure(client, QStringLiteral("e")), LoginLockout::Client);
    EXPECT_GT(limiter.retryAfter(client, QStringLiteral("f")), 0s);
    EXPECT_GT(limiter.retryAfter(client, QStringLiteral("mallory")), 0s);
    EXPECT_EQ(limiter.retryAfter(QStringLiteral("10.0.0.2"), QStringLiteral("f")), 0s);
}

TEST(LoginLimiter, FailuresFromOtherAddressesNeverLockAUserOut)
{
    ManualClock clock;
    LoginLimiter limiter(clock, LoginLimits{5, 20, 1000, 5min});
    // An attacker guessing alice's password from 20 addresses, five times each.
    for (int round = 0; round < 5; ++round) {
        for (int i = 0; i < 20; ++i) {
            const LoginLockout lockout =
                limiter.recordFailure(QStringLiteral("10.0.1.%1").arg(i), QStringLiteral("alice"));
            EXPECT_EQ(lockout, round == 4 ? LoginLockout::UserFromClient : LoginLockout::None);
        }
        clock.advance(1s);
    }
    // Each attacking address is locked out of alice, alice's own address is not.
    const auto wait = limiter.retryAfter(QStringLiteral("10.0.1.3"), QStringLiteral("alice"));
    EXPECT_GT(wait, 0s);
    EXPECT_LE(wait, 300s);
    EXPECT_EQ(limiter.retryAfter(QStringLiteral("10.0.2.1"), QStringLiteral("alice")), 0s);
    EXPECT_FALSE(limiter.hasRecentFailures(QStringLiteral("10.0.2.1")));
    EXPECT_TRUE(limiter.hasRecentFailures(QStringLiteral("10.0.1.3")));
    // The attacking address may still try other names (its own account, say).
    EXPECT_EQ(limiter.retryAfter(QStringLiteral("10.0.1.3"), QStringLiteral("bob")), 0s);
    clock.advance(5min);
    EXPECT_EQ(limiter.retryAfter(QStringLiteral("10.0.1.3"), QStringLiteral("alice")), 0s);
    EXPECT_FALSE(limiter.hasRecentFailures(QStringLiteral("10.0.1.3")));
}

TEST(LoginLimiter, PastTheGlobalLimitOnlyAddressesThatFailedWait)
{
    ManualClock clock;
    LoginLimiter limiter(clock, LoginLimits{5, 20, 10, 5min});
    for (int i = 0; i < 9; ++i) {
        EXPECT_EQ(limiter.recordFailure(QStringLiteral("10.0.3.%1").arg(i), QStringLiteral("alice")),
                  LoginLockout::None);
    }
    EXPECT_EQ(limiter.retryAfter(QStringLiteral("10.0.3.0"), QStringLiteral("alice")), 0s);
    clock.advance(10s);
    EXPECT_EQ(limiter.recordFailure(QStringLiteral("10.0.3.9"), QStringLiteral("alice")), LoginLockout::Global);
    // Failing addresses wait until the first failures leave the window; new ones do not.
    EXPECT_EQ(limiter.retryAfter(QStringLiteral("10.0.3.0"), QStringLiteral("alice")), 290s);
    EXPECT_EQ(limiter.retryAfter(QStringLiteral("10.0.3.0"), QStringLiteral("bob")), 290s);
    EXPECT_EQ(limiter.retryAfter(QStringLiteral("10.0.4.1"), QStringLiteral("alice")), 0s);
    clock.advance(290s);
    EXPECT_EQ(limiter.retryAfter(QStringLiteral("10.0.3.9"), QStringLiteral("alice")), 0s);
}

// ---------------------------------------------------------------------------------------------
// strata-server user ...

TEST(UserCommand, AddListRemove)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("users.json"));
    {
        const QByteArray pw("env-password-1");
        PasswordEnv env(&pw);
        const auto r = runUser(
            {QStringLiteral("add"), QStringLiteral("alice"), QStringLiteral("--role"), QStringLiteral("admin")}, path);
        EXPECT_EQ(r.code, 0) << qPrintable(r.err);
        EXPECT_TRUE(r.out.contains(QStringLiteral("added user alice (admin)"))) << qPrintable(r.out);
        EXPECT_FALSE(r.out.contains(QStringLiteral("env-password-1")));
    }
    {
        PasswordEnv env(nullptr);
        const auto r = runUser({QStringLiteral("add"),
                                QStringLiteral("bob"),
                                QStringLiteral("--role=operator"),
                                QStringLiteral("--users"),
                                path},
                               QString(),
                               QStringLiteral("stdin-password-1\nignored second line\n"));
        EXPECT_EQ(r.code, 0) << qPrintable(r.err);
        EXPECT_TRUE(r.out.contains(QStringLiteral("added user bob (operator)")));
    }
    UserStore store(path, userStoreClock());
    ASSERT_TRUE(store.load());
    EXPECT_TRUE(store.authenticate(QStringLiteral("alice"), QStringLiteral("env-password-1")).has_value());
    EXPECT_TRUE(store.authenticate(QStringLiteral("bob"), QStringLiteral("stdin-password-1")).has_value());
    EXPECT_EQ(QFileInfo(path).permissions() & (ownerOnly() | groupOrOther()), ownerOnly());

    {
        const auto r = runUser({QStringLiteral("list")}, path);
        EXPECT_EQ(r.code, 0) << qPrintable(r.err);
        const QStringList lines = r.out.split(u'\n', Qt::SkipEmptyParts);
        ASSERT_EQ(lines.size(), 3) << qPrintable(r.out);
        EXPECT_TRUE(lines[0].startsWith(QStringLiteral("NAME")));
        EXPECT_TRUE(lines[0].contains(QStringLiteral("ROLE")));
        EXPECT_TRUE(lines[0].contains(QStringLiteral("CREATED")));
        EXPECT_TRUE(lines[1].startsWith(QStringLiteral("alice")));
        EXPECT_TRUE(lines[1].contains(QStringLiteral("admin")));
        EXPECT_TRUE(lines[2].startsWith(QStringLiteral("bob")));
        EXPECT_TRUE(lines[2].contains(QStringLiteral("operator")));
        EXPECT_TRUE(lines[1].contains(QStringLiteral("2019-07-04T09:15:30Z"))) << qPrintable(lines[1]);
        // Never a hash, salt or password.
        EXPECT_FALSE(r.out.contains(QStringLiteral("pbkdf2")));
        EXPECT_FALSE(r.out.contains(QStringLiteral("$")));
        for (const User &u : store.users()) {
            for (const QString &part : u.passwordHash.split(u'$').mid(2)) {
                EXPECT_FALSE(r.out.contains(part));
            }
        }
        EXPECT_FALSE(r.out.contains(QStringLiteral("password-1")));
    }
    {
        // Replace alice's role and password.
        const QByteArray pw("env-password-2");
        PasswordEnv env(&pw);
        const auto r = runUser(
            {QStringLiteral("add"), QStringLiteral("alice"), QStringLiteral("--role"), QStringLiteral("viewer")}, path);
        EXPECT_EQ(r.code, 0) << qPrintable(r.err);
        EXPECT_TRUE(r.out.contains(QStringLiteral("updated user alice (viewer)")));
    }
    {
        const auto r = runUser({QStringLiteral("remove"), QStringLiteral("bob")}, path);
        EXPECT_EQ(r.code, 0) << qPrintable(r.err);
        EXPECT_TRUE(r.out.contains(QStringLiteral("removed user bob")));
    }
    ASSERT_TRUE(store.load());
    ASSERT_EQ(store.users().size(), 1);
    EXPECT_EQ(store.users()[0].role, Role::Viewer);
    EXPECT_TRUE(store.authenticate(QStringLiteral("alice"), QStringLiteral("env-password-2")).has_value());
    {
        const auto r = runUser({QStringLiteral("remove"), QStringLiteral("bob")}, path);
        EXPECT_EQ(r.code, 1);
        EXPECT_TRUE(r.err.contains(QStringLiteral("bob")));
    }
}

TEST(UserCommand, UsageErrors)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("users.json"));
    const QByteArray pw("env-password-1");
    PasswordEnv env(&pw);
    const QList<QStringList> usageErrors = {
        {},
        {QStringLiteral("frobnicate")},
        {QStringLiteral("add")},
        {QStringLiteral("add"), QStringLiteral("alice")}, // no --role
        {QStringLiteral("add"), QStringLiteral("alice"), QStringLiteral("--role")},
        {QStringLiteral("add"), QStringLiteral("alice"), QStringLiteral("--role"), QStringLiteral("root")},
        {QStringLiteral("add"),
         QStringLiteral("alice"),
         QStringLiteral("bob"),
         QStringLiteral("--role"),
         QStringLiteral("admin")},
        {QStringLiteral("add"),
         QStringLiteral("alice"),
         QStringLiteral("--role"),
         QStringLiteral("admin"),
         QStringLiteral("--bogus")},
        {QStringLiteral("remove")},
        {QStringLiteral("list"), QStringLiteral("alice")},
        {QStringLiteral("list"), QStringLiteral("--role"), QStringLiteral("admin")},
        {QStringLiteral("list"), QStringLiteral("--users")},
    };
    for (const QStringList &args : usageErrors) {
        const auto r = runUser(args, path);
        EXPECT_EQ(r.code, 2) << qPrintable(args.join(u' '));
        EXPECT_TRUE(r.err.contains(QStringLiteral("usage:"))) << qPrintable(r.err);
    }
    // No users path at all.
    EXPECT_EQ(runUser({QStringLiteral("list")}, QString()).code, 2);
    EXPECT_FALSE(QFileInfo::exists(path));
}

TEST(UserCommand, Failures)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("users.json"));
    {
        const QByteArray pw("short");
        PasswordEnv env(&pw);
        const auto r = runUser(
            {QStringLiteral("add"), QStringLiteral("alice"), QStringLiteral("--role"), QStringLiteral("admin")}, path);
        EXPECT_EQ(r.code, 1);
        EXPECT_FALSE(r.err.contains(QStringLiteral("short")));
    }
    {
        PasswordEnv env(nullptr);
        const auto r =
            runUser({QStringLiteral("add"), QStringLiteral("alice"), QStringLiteral("--role"), QStringLiteral("admin")},
                    path,
                    QString());
        EXPECT_EQ(r.code, 1);
        EXPECT_TRUE(r.err.contains(QStringLiteral("password")));
    }
    {
        const QByteArray pw("long-enough-1");
        PasswordEnv env(&pw);
        const auto r = runUser(
            {QStringLiteral("add"), QStringLiteral("bad name"), QStringLiteral("--role"), QStringLiteral("admin")},
            path);
        EXPECT_EQ(r.code, 1);
    }
    EXPECT_FALSE(QFileInfo::exists(path));
    // A malformed users file is reported and left alone.
    writeFile(path, "{broken");
    {
        const QByteArray pw("long-enough-1");
        PasswordEnv env(&pw);
        const auto r = runUser(
            {QStringLiteral("add"), QStringLiteral("alice"), QStringLiteral("--role"), QStringLiteral("admin")}, path);
        EXPECT_EQ(r.code, 1);
        EXPECT_TRUE(r.err.contains(path));
    }
    EXPECT_EQ(runUser({QStringLiteral("list")}, path).code, 1);
    EXPECT_EQ(readFile(path), QByteArray("{broken"));
}
