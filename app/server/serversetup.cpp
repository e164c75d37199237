#include "app/server/serversetup.h"

#include "web/webserver.h"

#include "models/core/store/config.h"
#include "models/core/store/credentialstore.h"
#include "models/core/store/historystore.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QUrl>

#include <optional>

namespace strata::server {

QString defaultUsersPath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dir);
    return dir + QStringLiteral("/users.json");
}

bool parseListen(const QString &text, web::WebServerOptions *options)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    QString host = colon >= 0 ? text.left(colon) : QString();
    const QString portText = colon >= 0 ? text.mid(colon + 1) : text;
    bool ok = false;
    const uint port = portText.toUInt(&ok);
    if (!ok || port > 65535) {
        return false;
    }
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']'))) {
        host = host.mid(1, host.size() - 2);
    }
    if (!host.isEmpty()) {
        const QHostAddress address(host == QLatin1String("localhost") ? QStringLiteral("127.0.0.1") : host);
        if (address.isNull()) {
            return false;
        }
        options->address = address;
    }
    options->port = quint16(port);
    return true;
}

QString randomPassword()
{
    static const QString alphabet = QStringLiteral("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789");
    QString out;
    for (int i = 0; i < 16; ++i) {
        out += alphabet.at(int(QRandomGenerator::system()->bounded(quint32(alphabet.size()))));
    }
    return out;
}

core::Result<QString> withStorePassword(const QString &location, core::ICredentialStore &credentials)
{
    if (!core::SqlHistoryStore::isPostgresLocation(location)) {
        return location;
    }
    QUrl url(location, QUrl::StrictMode);
    if (!url.isValid()) {
        return core::fail(
            QStringLiteral("the store %1 is not a valid URL").arg(core::SqlHistoryStore::displayLocation(location)));
    }
    if (!url.password().isEmpty()) {
        return location;
    }
    QEventLoop loop;
    std::optional<QString> secret;
    QString error;
    credentials.read(core::credentialKey(QStringLiteral("store")), [&](std::optional<QString> s, QString e) {
        secret = std::move(s);
        error = std::move(e);
        loop.quit();
    });
    loop.exec();
    if (!error.isEmpty()) {
        return core::fail(QStringLiteral("the store's password: %1").arg(error));
    }
    if (secret) {
        url.setPassword(*secret, QUrl::DecodedMode);
    }
    return url.toString(QUrl::FullyEncoded);
}

core::Result<QString>
storeLocation(const QString &option, const QString &configPath, core::ICredentialStore &credentials)
{
    QString location = option.isEmpty() ? qEnvironmentVariable("STRATA_STORE") : option;
    if (location.isEmpty() && !configPath.isEmpty() && QFile::exists(configPath)) {
        core::AppConfig config;
        if (core::AppConfig::load(configPath, &config)) {
            location = config.store;
        }
    }
    return location.isEmpty() ? core::Result<QString>(QString()) : withStorePassword(location, credentials);
}

} // namespace strata::server
