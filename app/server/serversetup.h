#pragma once

#include "models/core/domain/error.h"

#include <QString>

namespace strata::core {
class ICredentialStore;
}
namespace strata::web {
struct WebServerOptions;
}

namespace strata::server {

/// The users file when neither --users, STRATA_USERS nor the config names one:
/// <AppDataLocation>/users.json (the folder is created).
QString defaultUsersPath();
/// Reads "HOST:PORT", ":PORT" or "PORT" ("[::1]:8443" for IPv6; "localhost" is 127.0.0.1) into
/// `options`' address and port; false, leaving them, when `text` is none of these.
bool parseListen(const QString &text, web::WebServerOptions *options);
/// A random password of 16 characters from an alphabet without look-alikes.
QString randomPassword();
/// The store `location` ready to open: a PostgreSQL URL without a password gets the store's
/// secret (STRATA_SECRET_STORE_PASSWORD or $STRATA_SECRETS_DIR/store/password) when one is set;
/// without one libpq's PGPASSWORD / PGPASSFILE apply. A SQLite path is returned as is.
core::Result<QString> withStorePassword(const QString &location, core::ICredentialStore &credentials);
/// The store named by --store (`option`), else STRATA_STORE, else the config file's "store",
/// with its password (withStorePassword()); empty when none is named.
core::Result<QString>
storeLocation(const QString &option, const QString &configPath, core::ICredentialStore &credentials);

} // namespace strata::server
