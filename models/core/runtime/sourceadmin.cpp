#include "models/core/runtime/sourceadmin.h"

#include "models/core/runtime/engine.h"
#include "models/core/store/sourcerules.h"

#include <QPointer>

#include <algorithm>
#include <optional>
#include <utility>

namespace strata::core {

namespace {

// Credentials the server itself holds outside its secret store: a kubeconfig file (a
// Kubernetes source without a URL) or the service account's `az login` (Azure CLI).
bool usesServerCredentials(const SourceConfig &c)
{
    return (c.kind == SourceKind::Kubernetes && c.url.isEmpty() && !c.kubeconfigInSecret)
           || (c.kind == SourceKind::Azure && c.credentialSource == QLatin1String("azure_cli"));
}

// Whether `after` uses the server's own credentials exactly as the config file set them up in
// `before` (same file and context, or the same Azure endpoints and tenant).
bool sameServerCredentials(const SourceConfig &before, const SourceConfig &after)
{
    return usesServerCredentials(before) && before.kind == after.kind && before.kubeconfig == after.kubeconfig
           && before.kubeContext == after.kubeContext && before.credentialSource == after.credentialSource
           && before.url == after.url && before.authorityUrl == after.authorityUrl && before.tenantId == after.tenantId
           && before.caFile == after.caFile && before.insecureSkipTlsVerify == after.insecureSkipTlsVerify;
}

// Over the web a secret is given as itself and kept in the server's own store: a file,
// environment or keychain reference would read what the server holds into a request to
// wherever the admin points the source.
QList<Error> remoteErrors(const SourceEdit &edit, const SourceConfig *before)
{
    QList<Error> out;
    const SourceConfig &c = edit.config;
    const std::pair<QString, bool> secrets[] = {
        {QStringLiteral("password"),
         c.password.isSet() && edit.password.isEmpty() && !(before && before->password == c.password)},
        {QStringLiteral("s3_secret"),
         c.s3Secret.isSet() && edit.s3Secret.isEmpty() && !(before && before->s3Secret == c.s3Secret)},
    };
    for (const auto &[field, named] : secrets) {
        if (named) {
            out.append(Error::invalid(
                field,
                SourceAdmin::tr("%1 of source %2: give the secret itself; a source changed over the web keeps "
                                "its secrets in the server's secret store and cannot name a file, environment "
                                "variable or keychain entry")
                    .arg(field, c.name.left(64))));
        }
    }
    if (usesServerCredentials(c) && !(before && sameServerCredentials(*before, c))) {
        if (c.kind == SourceKind::Kubernetes) {
            out.append(Error::invalid(
                QStringLiteral("url"),
                SourceAdmin::tr("source %1 would use a kubeconfig file of the server; over the web give the "
                                "API server's url and a token (only the server's config file can name a "
                                "kubeconfig)")
                    .arg(c.name)));
        } else {
            out.append(Error::invalid(
                QStringLiteral("credential_source"),
                SourceAdmin::tr("source %1 would use the server's own Azure CLI login; over the web give a "
                                "service principal's client secret (only the server's config file can "
                                "choose azure_cli)")
                    .arg(c.name)));
        }
    }
    return out;
}

// Writes (value set) or deletes secrets one after the other, then `done(error)`: a failed write
// stops there; a failed deletion is reported but the others still go.
struct PendingSecret
{
    QString key;
    std::optional<QString> value; ///< nullopt = delete
    QString failure;              ///< the message, "%1" = the store's error
};

void storeSecretsInOrder(ICredentialStore &store,
                         QList<PendingSecret> pending,
                         const QString &failed,
                         std::function<void(QString)> done)
{
    if (pending.isEmpty()) {
        done(failed);
        return;
    }
    const PendingSecret next = pending.takeFirst();
    auto then = [&store, pending, failed, done, next](const QString &error) {
        const QString first = failed.isEmpty() && !error.isEmpty() ? next.failure.arg(error) : failed;
        if (!error.isEmpty() && next.value) {
            done(first);
            return;
        }
        storeSecretsInOrder(store, pending, first, done);
    };
    if (next.value) {
        store.write(next.key, *next.value, then);
    } else {
        store.remove(next.key, then);
    }
}

} // namespace

SourceConfig SourceEdit::effective() const
{
    SourceConfig out = config;
    if (!password.isEmpty()) {
        out.password = SecretRef{SecretRef::Kind::Keychain, credentialKey(config.name)};
    }
    if (!s3Secret.isEmpty()) {
        out.s3Secret = SecretRef{SecretRef::Kind::Keychain, credentialKey(config.name, QStringLiteral("s3_secret"))};
    }
    return out;
}

SourceAdmin::SourceAdmin(Engine &engine, Options options, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_options(std::move(options))
{}

SourceAdmin::~SourceAdmin() = default;

QList<Error> SourceAdmin::validateEdit(const SourceEdit &edit,
                                       const SourceConfig *before,
                                       const QStringList &takenNames,
                                       bool remote)
{
    QList<Error> out = remote ? remoteErrors(edit, before) : QList<Error>();
    SourceConfig after = edit.effective();
    // A stored secret meant something else under another kind (an ONTAP password is no
    // client secret) or as a kubeconfig instead of a token: it must be typed again.
    if (before && (before->kind != after.kind || before->kubeconfigInSecret != after.kubeconfigInSecret)) {
        if (edit.password.isEmpty() && after.password == before->password) {
            after.password = {};
        }
        if (edit.s3Secret.isEmpty() && after.s3Secret == before->s3Secret) {
            after.s3Secret = {};
        }
    }
    QList<Error> rules = validateSource(after, SourceRules::Entered);
    if (!before && isValidSourceName(after.name) && takenNames.contains(after.name)) {
        rules.prepend(Error::invalid(QStringLiteral("name"), tr("A source named %1 already exists.").arg(after.name)));
    }
    out += rules;
    if (before) {
        for (const SecretReentry &r : secretMustBeReentered(*before, after)) {
            const QString &typed = r.secret == QLatin1String("s3_secret") ? edit.s3Secret : edit.password;
            if (typed.isEmpty()) {
                out.append(Error::invalid(r.secret, r.message(after)));
            }
        }
    }
    return out;
}

QList<Error> SourceAdmin::check(const SourceEdit &edit) const
{
    const QList<SourceConfig> sources = m_engine.sourceConfigs();
    QStringList names;
    const SourceConfig *before = nullptr;
    for (const SourceConfig &s : sources) {
        names << s.name;
        if (s.name == edit.config.name) {
            before = &s;
        }
    }
    return validateEdit(edit, before, names, m_options.remote);
}

core::Status SourceAdmin::checkFile(const QList<SourceConfig> &sources) const
{
    return AppConfig::checkSources(m_options.configPath, sources);
}

void SourceAdmin::commit(const QList<SourceConfig> &sources, Outcome *outcome)
{
    m_engine.setSources(sources);
    outcome->applied = true;
    if (m_options.configPath.isEmpty()) {
        return;
    }
    if (const core::Status saved = AppConfig::saveSources(m_options.configPath, sources); saved) {
        outcome->saved = true;
    } else {
        outcome->status = Status::Failed;
        outcome->error = tr("The configuration could not be saved: %1").arg(saved.error().message);
    }
}

bool SourceAdmin::refusedReadOnly(const std::function<void(Outcome)> &done) const
{
    if (m_engine.readOnlyReason().isEmpty()) {
        return false;
    }
    Outcome outcome;
    outcome.status = Status::ReadOnly;
    outcome.error = m_engine.readOnlyReason();
    done(outcome);
    return true;
}

void SourceAdmin::apply(const SourceEdit &edit, std::function<void(Outcome)> done)
{
    if (refusedReadOnly(done)) {
        return;
    }
    Outcome outcome;
    outcome.fieldErrors = check(edit);
    if (!outcome.fieldErrors.isEmpty()) {
        outcome.status = Status::Invalid;
        done(outcome);
        return;
    }
    const SourceConfig next = edit.effective();
    QList<SourceConfig> sources = m_engine.sourceConfigs();
    bool unchanged = false;
    for (SourceConfig &c : sources) {
        if (c.name == next.name) {
            unchanged = c == next;
            c = next;
            outcome.replaced = true;
        }
    }
    if (!outcome.replaced) {
        sources.append(next);
    }
    if (const core::Status checked = checkFile(sources); !checked) {
        outcome.status = Status::Conflict;
        outcome.error = checked.error().message;
        done(outcome);
        return;
    }
    // Secrets first: the config names them only once they are stored.
    QList<PendingSecret> secrets;
    if (!edit.s3Secret.isEmpty()) {
        secrets.append({next.s3Secret.value,
                        edit.s3Secret,
                        tr("The S3 secret key of %1 could not be stored: %2").arg(next.name, QStringLiteral("%1"))});
    }
    if (!edit.password.isEmpty()) {
        secrets.append({next.password.value,
                        edit.password,
                        tr("The password of %1 could not be stored: %2").arg(next.name, QStringLiteral("%1"))});
    }
    const bool newSecret = !secrets.isEmpty();
    const QPointer<SourceAdmin> self(this);
    storeSecretsInOrder(m_engine.credentials(),
                        secrets,
                        {},
                        [self, outcome, sources, unchanged, newSecret, name = next.name, done](const QString &error) {
                            if (!self) {
                                return;
                            }
                            Outcome result = outcome;
                            if (!error.isEmpty()) {
                                result.status = Status::Failed;
                                result.error = error;
                                done(result);
                                return;
                            }
                            self->commit(sources, &result);
                            if (unchanged && newSecret) {
                                // Same settings, new secret: setSources kept the source running.
                                self->m_engine.reloadCredentials(name);
                            }
                            done(result);
                        });
}

void SourceAdmin::remove(const QString &name, std::function<void(Outcome)> done)
{
    if (refusedReadOnly(done)) {
        return;
    }
    Outcome outcome;
    QList<SourceConfig> sources = m_engine.sourceConfigs();
    const auto it = std::find_if(sources.begin(), sources.end(), [&name](const SourceConfig &s) {
        return s.name == name;
    });
    if (it == sources.end()) {
        outcome.status = Status::NotFound;
        outcome.error = tr("no source \"%1\"").arg(name.left(64));
        done(outcome);
        return;
    }
    // Only the secrets Strata stored under this source's own keys go; env and file secrets and
    // other keychain entries belong to the admin and may be shared.
    QList<PendingSecret> secrets;
    if (it->password == SecretRef{SecretRef::Kind::Keychain, credentialKey(name)}) {
        secrets.append({it->password.value,
                        std::nullopt,
                        tr("Source %1 was removed, but its password could not be deleted from the keychain: %2")
                            .arg(name, QStringLiteral("%1"))});
    }
    if (it->s3Secret == SecretRef{SecretRef::Kind::Keychain, credentialKey(name, QStringLiteral("s3_secret"))}) {
        secrets.append({it->s3Secret.value,
                        std::nullopt,
                        tr("Source %1 was removed, but its S3 secret key could not be deleted from the keychain: %2")
                            .arg(name, QStringLiteral("%1"))});
    }
    sources.erase(it);
    if (const core::Status checked = checkFile(sources); !checked) {
        outcome.status = Status::Conflict;
        outcome.error = checked.error().message;
        done(outcome);
        return;
    }
    commit(sources, &outcome);
    if (!outcome.ok()) {
        // The file still names the secrets: keep them.
        done(outcome);
        return;
    }
    storeSecretsInOrder(m_engine.credentials(), secrets, {}, [outcome, done](const QString &error) {
        Outcome result = outcome;
        result.error = error;
        done(result);
    });
}

} // namespace strata::core
