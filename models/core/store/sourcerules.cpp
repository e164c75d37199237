#include "models/core/store/sourcerules.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QUrl>

namespace strata::core {

namespace {

class RuleText
{
    Q_DECLARE_TR_FUNCTIONS(strata::core::SourceRules)
};

bool isWebUrl(const QString &text)
{
    const QUrl url(text, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    return url.isValid() && !url.host().isEmpty()
           && (scheme == QLatin1String("https") || scheme == QLatin1String("http"));
}

// A dataset root of a StorageGRID source: "bucket", "bucket/*" or "bucket/prefix/" (S3 bucket
// naming: 3-63 of lower-case letters, digits, '.' and '-', alphanumeric at both ends).
bool isValidDatasetRoot(const QString &root)
{
    static const QRegularExpression bucketName(QStringLiteral("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$"));
    const qsizetype slash = root.indexOf(QLatin1Char('/'));
    if (!bucketName.match(slash < 0 ? root : root.left(slash)).hasMatch()) {
        return false;
    }
    if (slash < 0) {
        return true;
    }
    const QString rest = root.mid(slash + 1);
    if (rest == QLatin1String("*")) {
        return true;
    }
    return rest.endsWith(QLatin1Char('/')) && !rest.startsWith(QLatin1Char('/')) && !rest.contains(QLatin1String("//"))
           && !rest.contains(QLatin1Char('*'));
}

} // namespace

bool isValidSourceName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9._-]+$"));
    return pattern.match(name).hasMatch();
}

QList<Error> validateSource(const SourceConfig &c, SourceRules rules)
{
    const bool entered = rules == SourceRules::Entered;
    QList<Error> out;
    const auto fail = [&out](const char *field, const QString &message) {
        out.append(Error::invalid(QString::fromLatin1(field), message));
    };
    if (c.name.isEmpty()) {
        fail("name", RuleText::tr("Enter a name."));
    } else if (!isValidSourceName(c.name)) {
        fail("name", RuleText::tr("The name may only contain letters, digits, '.', '_' and '-'."));
    }

    switch (c.kind) {
    case SourceKind::Kubernetes:
        if (c.kubeconfigInSecret) {
            if (!c.password.isSet()) {
                fail("password",
                     RuleText::tr("\"kubeconfig_in_secret\" needs a \"password\" reference holding the kubeconfig"));
            }
            if (!c.kubeconfig.isEmpty()) {
                fail("kubeconfig", RuleText::tr("\"kubeconfig\" and \"kubeconfig_in_secret\" exclude each other"));
            }
        } else if (!c.url.isEmpty()) {
            // The API server's URL with a bearer token; without a URL the kubeconfig has both.
            if (!isWebUrl(c.url)) {
                fail("url", RuleText::tr("The URL must look like https://api.cluster.example.com:6443."));
            } else if (entered && !c.password.isSet()) {
                fail("password", RuleText::tr("Enter the bearer token."));
            }
        }
        if (!c.prometheusUrl.isEmpty() && !isWebUrl(c.prometheusUrl)) {
            fail("prometheus_url",
                 RuleText::tr("The Prometheus URL must look like http://prometheus.monitoring:9090."));
        }
        break;
    case SourceKind::Azure: {
        static const QRegularExpression guid(
            QStringLiteral("^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"));
        if (c.subscriptionId.isEmpty()) {
            fail("subscription_id", RuleText::tr("Enter the subscription id."));
        } else if (entered && !guid.match(c.subscriptionId).hasMatch()) {
            fail("subscription_id",
                 RuleText::tr("The subscription id looks like 00000000-0000-0000-0000-000000000000."));
        }
        const QString &credential = c.credentialSource;
        if (!credential.isEmpty() && credential != QLatin1String("client_secret")
            && credential != QLatin1String("azure_cli")) {
            fail("credential_source",
                 RuleText::tr("unknown credential_source \"%1\" (known: client_secret, azure_cli)").arg(credential));
        } else if (credential != QLatin1String("azure_cli")) {
            if (c.tenantId.isEmpty()) {
                fail("tenant_id", RuleText::tr("Enter the tenant id."));
            }
            if (c.clientId.isEmpty()) {
                fail("client_id", RuleText::tr("Enter the client id of the service principal."));
            }
            if (!c.password.isSet()) {
                fail("password", RuleText::tr("Enter the client secret."));
            }
        }
        if (!c.authorityUrl.isEmpty() && !isWebUrl(c.authorityUrl)) {
            fail("authority_url", RuleText::tr("The authority URL must look like https://login.microsoftonline.com."));
        }
        if (!c.url.isEmpty() && !isWebUrl(c.url)) {
            fail("url", RuleText::tr("The ARM URL must look like https://management.azure.com."));
        }
        break;
    }
    case SourceKind::StorageGrid:
        if (c.url.isEmpty()) {
            fail("url", RuleText::tr("Enter the URL of the grid's admin node."));
        } else if (!isWebUrl(c.url)) {
            fail("url", RuleText::tr("The admin node URL must look like https://admin.datalake.example."));
        }
        if (c.username.isEmpty()) {
            fail("username", RuleText::tr("Enter the grid administrator's username."));
        }
        if (!c.password.isSet()) {
            fail("password", RuleText::tr("Enter the password."));
        }
        if (c.s3Url.isEmpty()) {
            if (!c.datasetRoots.isEmpty()) {
                fail("dataset_roots",
                     RuleText::tr("\"dataset_roots\" needs \"s3_url\" (the S3 endpoint holding the datasets)"));
            }
            break;
        }
        if (!isWebUrl(c.s3Url)) {
            fail("s3_url", RuleText::tr("The S3 URL must look like https://s3.datalake.example:10443."));
        }
        if (c.s3AccessKey.isEmpty()) {
            fail("s3_access_key", RuleText::tr("Enter the S3 access key."));
        }
        if (!c.s3Secret.isSet()) {
            fail("s3_secret", RuleText::tr("Enter the S3 secret key."));
        }
        if (entered && c.datasetRoots.isEmpty()) {
            fail("dataset_roots", RuleText::tr("Enter at least one dataset root, e.g. datasets/*."));
        }
        for (const QString &root : c.datasetRoots) {
            if (!isValidDatasetRoot(root)) {
                fail("dataset_roots",
                     RuleText::tr("%1 is not a dataset root: use bucket/*, bucket or bucket/prefix/.").arg(root));
                break;
            }
        }
        break;
    case SourceKind::Ontap:
        if (c.url.isEmpty()) {
            fail("url", RuleText::tr("Enter the URL of the cluster management interface."));
        } else if (!isWebUrl(c.url)) {
            fail("url", RuleText::tr("The URL must look like https://cluster-mgmt.example.com."));
        }
        if (entered && c.username.isEmpty()) {
            fail("username", RuleText::tr("Enter a username."));
        }
        if (entered && !c.password.isSet()) {
            fail("password", RuleText::tr("Enter the password."));
        }
        break;
    }

    // Keys that belong to other kinds.
    if (c.kubeconfigInSecret && c.kind != SourceKind::Kubernetes) {
        fail("kubeconfig_in_secret", RuleText::tr("\"kubeconfig_in_secret\" is only for kubernetes sources"));
    }
    if (c.kind != SourceKind::Azure && !c.authorityUrl.isEmpty() && !isWebUrl(c.authorityUrl)) {
        fail("authority_url", RuleText::tr("The authority URL must look like https://login.microsoftonline.com."));
    }
    if (c.kind != SourceKind::StorageGrid
        && (!c.s3Url.isEmpty() || !c.s3Region.isEmpty() || !c.s3AccessKey.isEmpty() || c.s3Secret.isSet()
            || !c.s3PathStyle)) {
        fail("s3_url", RuleText::tr("the s3_* keys are only for storagegrid sources"));
    }
    if (c.kind != SourceKind::StorageGrid && c.kind != SourceKind::Ontap && !c.datasetRoots.isEmpty()) {
        fail("dataset_roots", RuleText::tr("\"dataset_roots\" is only for storagegrid and ontap sources"));
    }
    return out;
}

} // namespace strata::core
