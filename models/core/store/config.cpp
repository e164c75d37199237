#include "models/core/store/config.h"

#include "models/core/domain/translate.h"
#include "models/core/store/sourcerules.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>
#include <cmath>

namespace strata::core {

namespace {

constexpr int kMinimumIntervalSeconds = 5;

// For error messages; extend with every SourceKind.
QString knownKinds()
{
    return sourceKindName(SourceKind::Ontap) + QStringLiteral(", ") + sourceKindName(SourceKind::Kubernetes)
           + QStringLiteral(", ") + sourceKindName(SourceKind::Azure) + QStringLiteral(", ")
           + sourceKindName(SourceKind::StorageGrid);
}

QString quoted(const QString &text)
{
    return QLatin1Char('"') + text + QLatin1Char('"');
}

// Reads an optional whole number; false with `error` for a wrong type, a fraction or < minimum.
bool readInt(const QJsonObject &object, const QString &key, const QString &label, int minimum, int *out, QString *error)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull()) {
        return true;
    }
    const double number = value.toDouble(std::nan(""));
    if (!value.isDouble() || std::floor(number) != number || number < minimum || number > 1e9) {
        *error = QStringLiteral("%1 must be a whole number >= %2").arg(label).arg(minimum);
        if (value.isDouble()) {
            *error += QStringLiteral(" (got %1)").arg(number);
        }
        return false;
    }
    *out = static_cast<int>(number);
    return true;
}

bool readString(const QJsonObject &object, const QString &key, QString *out, QString *error)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull()) {
        return true;
    }
    if (!value.isString()) {
        *error = quoted(key) + QStringLiteral(" must be a string");
        return false;
    }
    *out = value.toString();
    return true;
}

bool readSecretRef(const QJsonValue &value,
                   SecretRef *ref,
                   QString *error,
                   const QString &key = QStringLiteral("password"))
{
    if (value.isUndefined() || value.isNull()) {
        *ref = {};
        return true;
    }
    if (value.isString()) {
        // Never echo the value: it is someone's password.
        *error = key == QLatin1String("password")
                     ? QStringLiteral("passwords are not stored in the config file; use {\"keychain\": ...}, "
                                      "{\"env\": ...} or {\"file\": ...}")
                     : QStringLiteral("secrets are not stored in the config file; \"%1\" must be {\"keychain\": "
                                      "...}, {\"env\": ...} or {\"file\": ...}")
                           .arg(key);
        return false;
    }
    const QString usage =
        QStringLiteral(
            "\"%1\" must be one of {\"keychain\": \"<key>\"}, {\"env\": \"<VARIABLE>\"} or {\"file\": \"<path>\"}")
            .arg(key);
    if (!value.isObject()) {
        *error = usage;
        return false;
    }
    const QJsonObject object = value.toObject();
    static const std::pair<QLatin1String, SecretRef::Kind> kinds[] = {
        {QLatin1String("keychain"), SecretRef::Kind::Keychain},
        {QLatin1String("env"), SecretRef::Kind::Env},
        {QLatin1String("file"), SecretRef::Kind::File},
    };
    SecretRef found;
    int count = 0;
    for (const auto &[key, kind] : kinds) {
        const QJsonValue v = object.value(key);
        if (v.isUndefined()) {
            continue;
        }
        ++count;
        if (!v.isString() || v.toString().isEmpty()) {
            *error = usage;
            return false;
        }
        found = SecretRef{kind, v.toString()};
    }
    if (count != 1) {
        *error = usage;
        return false;
    }
    *ref = found;
    return true;
}

// The StorageGRID keys (s3_url, s3_region, s3_access_key, s3_secret, s3_path_style) and
// dataset_roots (StorageGRID and ONTAP): their types; validateSource() has the rules.
bool readStorageGridKeys(const QJsonObject &object, SourceConfig *source, QString *error)
{
    if (!readString(object, QStringLiteral("s3_url"), &source->s3Url, error)
        || !readString(object, QStringLiteral("s3_region"), &source->s3Region, error)
        || !readString(object, QStringLiteral("s3_access_key"), &source->s3AccessKey, error)
        || !readSecretRef(
            object.value(QLatin1String("s3_secret")), &source->s3Secret, error, QStringLiteral("s3_secret"))) {
        return false;
    }
    const QJsonValue pathStyle = object.value(QLatin1String("s3_path_style"));
    if (!pathStyle.isUndefined() && !pathStyle.isNull() && !pathStyle.isBool()) {
        *error = QStringLiteral("\"s3_path_style\" must be true or false");
        return false;
    }
    source->s3PathStyle = pathStyle.toBool(true);
    const QJsonValue roots = object.value(QLatin1String("dataset_roots"));
    if (!roots.isUndefined() && !roots.isNull()) {
        if (!roots.isArray()) {
            *error = QStringLiteral("\"dataset_roots\" must be an array of strings");
            return false;
        }
        for (const QJsonValue &root : roots.toArray()) {
            if (!root.isString() || root.toString().isEmpty()) {
                *error = QStringLiteral("\"dataset_roots\" must be an array of strings");
                return false;
            }
            source->datasetRoots.append(root.toString());
        }
    }
    return true;
}

bool readBool(const QJsonObject &object, const QString &key, bool whenUnset, bool *out, QString *error)
{
    const QJsonValue value = object.value(key);
    if (!value.isUndefined() && !value.isNull() && !value.isBool()) {
        *error = quoted(key) + QStringLiteral(" must be true or false");
        return false;
    }
    *out = value.toBool(whenUnset);
    return true;
}

// Parses one entry of "sources"; `where` is "sources[3]" until the name is known.
bool parseSource(const QJsonValue &value, int index, SourceConfig *source, QString *error)
{
    if (!value.isObject()) {
        *error = QStringLiteral("sources[%1]: must be an object").arg(index);
        return false;
    }
    const QJsonObject object = value.toObject();
    const QString name = object.value(QLatin1String("name")).toString();
    const QString where =
        name.isEmpty() ? QStringLiteral("sources[%1]").arg(index) : QStringLiteral("source ") + quoted(name);
    if (const Status read = sourceFromJson(object, source); !read) {
        *error = where + QStringLiteral(": ") + read.error().message;
        return false;
    }
    const QList<Error> errors = validateSource(*source, SourceRules::File);
    if (!errors.isEmpty()) {
        // A file error names the key; the sentences written for a form do not.
        const Error &first = errors.first();
        const bool named = first.message.contains(quoted(first.field))
                           || (first.field.contains(QLatin1Char('_')) && first.message.contains(first.field));
        *error =
            where + QStringLiteral(": ") + (named ? QString() : first.field + QStringLiteral(": ")) + first.message;
        return false;
    }
    return true;
}

QJsonValue secretRefToJson(const SecretRef &ref)
{
    switch (ref.kind) {
    case SecretRef::Kind::None:
        return QJsonValue::Null;
    case SecretRef::Kind::Keychain:
        return QJsonObject{{QStringLiteral("keychain"), ref.value}};
    case SecretRef::Kind::Env:
        return QJsonObject{{QStringLiteral("env"), ref.value}};
    case SecretRef::Kind::File:
        return QJsonObject{{QStringLiteral("file"), ref.value}};
    }
    return QJsonValue::Null;
}

// Parses one entry of "cache_targets"; `sources` are the parsed sources (the target's cluster
// must be one of the Kubernetes sources).
bool parseCacheTarget(
    const QJsonValue &value, int index, const QList<SourceConfig> *sources, CacheTargetConfig *target, QString *error)
{
    QString where = QStringLiteral("cache_targets[%1]").arg(index);
    const auto fail = [&where, error](const QString &message) {
        *error = where + QStringLiteral(": ") + message;
        return false;
    };
    if (!value.isObject()) {
        return fail(QStringLiteral("must be an object"));
    }
    const QJsonObject object = value.toObject();
    QString message;
    if (!readString(object, QStringLiteral("name"), &target->name, &message)) {
        return fail(message);
    }
    // The name becomes part of Job, ConfigMap and label values (63 characters at most).
    static const QRegularExpression pattern(QStringLiteral("^[a-z0-9]([a-z0-9-]{0,28}[a-z0-9])?$"));
    if (target->name.isEmpty()) {
        return fail(QStringLiteral("missing \"name\""));
    }
    if (!pattern.match(target->name).hasMatch()) {
        return fail(QStringLiteral("invalid name %1 (lower-case letters, digits and '-', at most 30 characters)")
                        .arg(quoted(target->name)));
    }
    where = QStringLiteral("cache target ") + quoted(target->name);
    if (!readString(object, QStringLiteral("kubernetes_source"), &target->kubernetesSource, &message)
        || !readString(object, QStringLiteral("namespace"), &target->namespaceName, &message)
        || !readString(object, QStringLiteral("pvc"), &target->pvc, &message)
        || !readString(object, QStringLiteral("s3_credentials_secret"), &target->s3CredentialsSecret, &message)
        || !readString(object, QStringLiteral("loader_image"), &target->loaderImage, &message)
        || !readInt(object,
                    QStringLiteral("evict_after_days"),
                    QStringLiteral("evict_after_days"),
                    1,
                    &target->evictAfterDays,
                    &message)
        || !readInt(object,
                    QStringLiteral("high_watermark_percent"),
                    QStringLiteral("high_watermark_percent"),
                    50,
                    &target->highWatermarkPercent,
                    &message)) {
        return fail(message);
    }
    if (target->kubernetesSource.isEmpty()) {
        return fail(QStringLiteral("missing \"kubernetes_source\" (the cluster that mounts the cache volume)"));
    }
    const bool isCluster = !sources || std::any_of(sources->cbegin(), sources->cend(), [&](const SourceConfig &s) {
        return s.name == target->kubernetesSource && s.kind == SourceKind::Kubernetes;
    });
    if (!isCluster) {
        return fail(QStringLiteral("kubernetes_source %1 is not a configured kubernetes source")
                        .arg(quoted(target->kubernetesSource)));
    }
    if (target->namespaceName.isEmpty() || target->pvc.isEmpty()) {
        return fail(QStringLiteral("missing \"namespace\" or \"pvc\" (the claim through which the cluster mounts "
                                   "the cache volume)"));
    }
    if (target->s3CredentialsSecret.isEmpty() || target->loaderImage.isEmpty()) {
        return fail(QStringLiteral("\"s3_credentials_secret\" and \"loader_image\" cannot be empty"));
    }
    if (target->evictAfterDays > 365) {
        return fail(QStringLiteral("evict_after_days must be at most 365 (got %1)").arg(target->evictAfterDays));
    }
    if (target->highWatermarkPercent > 100) {
        return fail(
            QStringLiteral("high_watermark_percent must be at most 100 (got %1)").arg(target->highWatermarkPercent));
    }
    return true;
}

QJsonObject cacheTargetToJson(const CacheTargetConfig &target)
{
    return QJsonObject{
        {QStringLiteral("name"), target.name},
        {QStringLiteral("kubernetes_source"), target.kubernetesSource},
        {QStringLiteral("namespace"), target.namespaceName},
        {QStringLiteral("pvc"), target.pvc},
        {QStringLiteral("s3_credentials_secret"), target.s3CredentialsSecret},
        {QStringLiteral("loader_image"), target.loaderImage},
        {QStringLiteral("evict_after_days"), target.evictAfterDays},
        {QStringLiteral("high_watermark_percent"), target.highWatermarkPercent},
    };
}

// Parses "sentiment"; `sources` are the parsed sources (it names one of them).
bool parseSentiment(const QJsonValue &value, const QList<SourceConfig> &sources, SentimentConfig *out, QString *error)
{
    if (!value.isObject()) {
        *error = QStringLiteral("\"sentiment\" must be an object");
        return false;
    }
    const QJsonObject object = value.toObject();
    SentimentConfig parsed;
    QString detail;
    if (!readString(object, QStringLiteral("source"), &parsed.source, &detail)
        || !readString(object, QStringLiteral("bucket"), &parsed.bucket, &detail)
        || !readString(object, QStringLiteral("prefix"), &parsed.prefix, &detail)
        || !readString(object, QStringLiteral("s3_access_key"), &parsed.s3AccessKey, &detail)
        || !readSecretRef(
            object.value(QLatin1String("s3_secret")), &parsed.s3Secret, &detail, QStringLiteral("s3_secret"))
        || !readInt(
            object, QStringLiteral("poll_ms"), QStringLiteral("\"poll_ms\""), 100, &parsed.pollMilliseconds, &detail)) {
        *error = QStringLiteral("sentiment: ") + detail;
        return false;
    }
    if (parsed.pollMilliseconds > 60000) {
        *error = QStringLiteral("sentiment: \"poll_ms\" must be at most 60000");
        return false;
    }
    if (parsed.source.isEmpty()) {
        *error = QStringLiteral("sentiment: \"source\" (a StorageGRID source name) is required");
        return false;
    }
    const auto found = std::find_if(sources.cbegin(), sources.cend(), [&parsed](const SourceConfig &s) {
        return s.name == parsed.source;
    });
    if (found == sources.cend()) {
        *error = QStringLiteral("sentiment: source %1 is not configured").arg(quoted(parsed.source));
        return false;
    }
    if (found->kind != SourceKind::StorageGrid || found->s3Url.isEmpty()) {
        *error = QStringLiteral("sentiment: source %1 must be a StorageGRID source with an \"s3_url\"")
                     .arg(quoted(parsed.source));
        return false;
    }
    static const QRegularExpression bucketName(QStringLiteral("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$"));
    if (!bucketName.match(parsed.bucket).hasMatch()) {
        *error = QStringLiteral("sentiment: %1 is not a valid bucket name").arg(quoted(parsed.bucket));
        return false;
    }
    if (parsed.s3AccessKey.isEmpty() != (parsed.s3Secret.kind == SecretRef::Kind::None)) {
        *error =
            QStringLiteral("sentiment: \"s3_access_key\" and \"s3_secret\" go together (both unset = the source's)");
        return false;
    }
    *out = std::move(parsed);
    return true;
}

QJsonObject sentimentToJson(const SentimentConfig &config)
{
    QJsonObject object{
        {QStringLiteral("source"), config.source},
        {QStringLiteral("bucket"), config.bucket},
        {QStringLiteral("prefix"), config.prefix},
    };
    if (config.pollMilliseconds != SentimentConfig{}.pollMilliseconds) {
        object.insert(QStringLiteral("poll_ms"), config.pollMilliseconds);
    }
    if (!config.s3AccessKey.isEmpty()) {
        object.insert(QStringLiteral("s3_access_key"), config.s3AccessKey);
    }
    if (config.s3Secret.kind != SecretRef::Kind::None) {
        object.insert(QStringLiteral("s3_secret"), secretRefToJson(config.s3Secret));
    }
    return object;
}

} // namespace

Status sourceFromJson(const QJsonObject &object, SourceConfig *source)
{
    SourceConfig parsed;
    QString message;
    const auto fail = [&message]() -> Status {
        return core::fail(Error::invalid({}, message));
    };
    if (!readString(object, QStringLiteral("name"), &parsed.name, &message)) {
        return fail();
    }
    const QJsonValue kind = object.value(QLatin1String("kind"));
    if (!kind.isString() || kind.toString().isEmpty()) {
        message = QStringLiteral("missing \"kind\" (known: %1)").arg(knownKinds());
        return fail();
    }
    const std::optional<SourceKind> parsedKind = sourceKindFromName(kind.toString());
    if (!parsedKind) {
        message = QStringLiteral("unknown kind %1 (known: %2)").arg(quoted(kind.toString()), knownKinds());
        return fail();
    }
    parsed.kind = *parsedKind;
    if (!readString(object, QStringLiteral("url"), &parsed.url, &message)
        || !readString(object, QStringLiteral("kubeconfig"), &parsed.kubeconfig, &message)
        || !readString(object, QStringLiteral("context"), &parsed.kubeContext, &message)
        || !readString(object, QStringLiteral("prometheus_url"), &parsed.prometheusUrl, &message)
        || !readString(object, QStringLiteral("username"), &parsed.username, &message)
        || !readSecretRef(object.value(QLatin1String("password")), &parsed.password, &message)
        || !readString(object, QStringLiteral("ca_file"), &parsed.caFile, &message)
        || !readBool(object, QStringLiteral("kubeconfig_in_secret"), false, &parsed.kubeconfigInSecret, &message)
        || !readString(object, QStringLiteral("subscription_id"), &parsed.subscriptionId, &message)
        || !readString(object, QStringLiteral("tenant_id"), &parsed.tenantId, &message)
        || !readString(object, QStringLiteral("client_id"), &parsed.clientId, &message)
        || !readString(object, QStringLiteral("authority_url"), &parsed.authorityUrl, &message)
        || !readString(object, QStringLiteral("credential_source"), &parsed.credentialSource, &message)
        || !readStorageGridKeys(object, &parsed, &message)
        || !readBool(
            object, QStringLiteral("insecure_skip_tls_verify"), false, &parsed.insecureSkipTlsVerify, &message)) {
        return fail();
    }
    const QJsonValue poll = object.value(QLatin1String("poll"));
    if (!poll.isUndefined() && !poll.isNull()) {
        if (!poll.isObject()) {
            message = QStringLiteral("\"poll\" must be an object");
            return fail();
        }
        const QJsonObject pollObject = poll.toObject();
        if (!readInt(pollObject,
                     QStringLiteral("config_seconds"),
                     QStringLiteral("poll.config_seconds"),
                     kMinimumIntervalSeconds,
                     &parsed.configIntervalSeconds,
                     &message)
            || !readInt(pollObject,
                        QStringLiteral("performance_seconds"),
                        QStringLiteral("poll.performance_seconds"),
                        kMinimumIntervalSeconds,
                        &parsed.perfIntervalSeconds,
                        &message)) {
            return fail();
        }
    }
    *source = std::move(parsed);
    return {};
}

QJsonObject sourceToJson(const SourceConfig &source)
{
    QJsonObject object{
        {QStringLiteral("name"), source.name},
        {QStringLiteral("kind"), sourceKindName(source.kind)},
        {QStringLiteral("insecure_skip_tls_verify"), source.insecureSkipTlsVerify},
        {QStringLiteral("poll"),
         QJsonObject{{QStringLiteral("config_seconds"), source.configIntervalSeconds},
                     {QStringLiteral("performance_seconds"), source.perfIntervalSeconds}}},
    };
    const std::pair<QString, const QString *> strings[] = {
        {QStringLiteral("url"), &source.url},
        {QStringLiteral("username"), &source.username},
        {QStringLiteral("kubeconfig"), &source.kubeconfig},
        {QStringLiteral("context"), &source.kubeContext},
        {QStringLiteral("prometheus_url"), &source.prometheusUrl},
        {QStringLiteral("ca_file"), &source.caFile},
        {QStringLiteral("subscription_id"), &source.subscriptionId},
        {QStringLiteral("tenant_id"), &source.tenantId},
        {QStringLiteral("client_id"), &source.clientId},
        {QStringLiteral("authority_url"), &source.authorityUrl},
        {QStringLiteral("credential_source"), &source.credentialSource},
        {QStringLiteral("s3_region"), &source.s3Region},
        {QStringLiteral("s3_access_key"), &source.s3AccessKey},
    };
    for (const auto &[key, value] : strings) {
        if (!value->isEmpty()) {
            object.insert(key, *value);
        }
    }
    if (source.password.kind != SecretRef::Kind::None) {
        object.insert(QStringLiteral("password"), secretRefToJson(source.password));
    }
    if (source.kubeconfigInSecret) {
        object.insert(QStringLiteral("kubeconfig_in_secret"), true);
    }
    if (!source.s3Url.isEmpty()) {
        object.insert(QStringLiteral("s3_url"), source.s3Url);
        object.insert(QStringLiteral("s3_path_style"), source.s3PathStyle);
    }
    if (source.s3Secret.kind != SecretRef::Kind::None) {
        object.insert(QStringLiteral("s3_secret"), secretRefToJson(source.s3Secret));
    }
    if (!source.datasetRoots.isEmpty()) {
        object.insert(QStringLiteral("dataset_roots"), QJsonArray::fromStringList(source.datasetRoots));
    }
    return object;
}

Status AppConfig::parse(const QByteArray &json, AppConfig *config)
{
    QString message;
    const auto fail = [&message]() -> Status {
        return core::fail(Error::invalid({}, message));
    };

    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        message = QStringLiteral("invalid JSON at offset %1: %2").arg(parseError.offset).arg(parseError.errorString());
        return fail();
    }
    if (!document.isObject()) {
        message = QStringLiteral("the top level must be a JSON object");
        return fail();
    }
    const QJsonObject root = document.object();

    AppConfig parsed;
    const QJsonValue sources = root.value(QLatin1String("sources"));
    if (!sources.isUndefined() && !sources.isNull() && !sources.isArray()) {
        message = QStringLiteral("\"sources\" must be an array");
        return fail();
    }
    const QJsonArray sourceArray = sources.toArray();
    QHash<QString, int> indexByName;
    for (int i = 0; i < sourceArray.size(); ++i) {
        SourceConfig source;
        if (!parseSource(sourceArray.at(i), i, &source, &message)) {
            return fail();
        }
        if (const auto it = indexByName.constFind(source.name); it != indexByName.cend()) {
            message = QStringLiteral("source %1: duplicate name (sources[%2] and sources[%3])")
                          .arg(quoted(source.name))
                          .arg(*it)
                          .arg(i);
            return fail();
        }
        indexByName.insert(source.name, i);
        parsed.sources.append(std::move(source));
    }

    const QJsonValue history = root.value(QLatin1String("history"));
    if (!history.isUndefined() && !history.isNull()) {
        if (!history.isObject()) {
            message = QStringLiteral("\"history\" must be an object");
            return fail();
        }
        const QJsonObject historyObject = history.toObject();
        QString detail;
        if (!readString(historyObject, QStringLiteral("path"), &parsed.historyPath, &detail)
            || !readInt(historyObject,
                        QStringLiteral("retention_days"),
                        QStringLiteral("history.retention_days"),
                        1,
                        &parsed.historyRetentionDays,
                        &detail)) {
            message = detail.startsWith(QLatin1String("history.")) ? detail : QStringLiteral("history: ") + detail;
            return fail();
        }
    }

    if (const QJsonValue store = root.value(QLatin1String("store")); !store.isUndefined() && !store.isNull()) {
        if (!store.isString() || store.toString().trimmed().isEmpty()) {
            message = QStringLiteral("\"store\" must be a PostgreSQL URL or a SQLite path");
            return fail();
        }
        parsed.store = store.toString().trimmed();
        if (parsed.store.startsWith(QLatin1String("postgresql://"))
            || parsed.store.startsWith(QLatin1String("postgres://"))) {
            const QUrl url(parsed.store, QUrl::StrictMode);
            if (!url.isValid()) {
                message = QStringLiteral("\"store\" is not a valid URL");
                return fail();
            }
            // The config is not a secret store: name where the password goes, never echo it.
            if (!url.password().isEmpty() || QUrlQuery(url).hasQueryItem(QStringLiteral("password"))) {
                message = QStringLiteral("\"store\" holds a password: put it in STRATA_SECRET_STORE_PASSWORD or "
                                         "$STRATA_SECRETS_DIR/store/password instead");
                return fail();
            }
        }
    }

    const QJsonValue rateCard = root.value(QLatin1String("rate_card"));
    if (!rateCard.isUndefined() && !rateCard.isNull()) {
        if (!rateCard.isObject()) {
            message = QStringLiteral("\"rate_card\" must be an object");
            return fail();
        }
        Result<RateCard> card = RateCard::fromJson(rateCard.toObject());
        if (!card) {
            message = card.error().message;
            return fail();
        }
        parsed.rateCard = std::move(*card);
    }

    const QJsonValue cacheTargets = root.value(QLatin1String("cache_targets"));
    if (!cacheTargets.isUndefined() && !cacheTargets.isNull()) {
        Result<QList<CacheTargetConfig>> targets = cacheTargetsFromJson(cacheTargets, &parsed.sources);
        if (!targets) {
            message = targets.error().message;
            return fail();
        }
        parsed.cacheTargets = std::move(*targets);
    }

    const QJsonValue sentiment = root.value(QLatin1String("sentiment"));
    if (!sentiment.isUndefined() && !sentiment.isNull()) {
        SentimentConfig parsedSentiment;
        if (!parseSentiment(sentiment, parsed.sources, &parsedSentiment, &message)) {
            return fail();
        }
        parsed.sentiment = std::move(parsedSentiment);
    }

    if (config) {
        *config = std::move(parsed);
    }
    return {};
}

QJsonArray cacheTargetsToJson(const QList<CacheTargetConfig> &targets)
{
    QJsonArray array;
    for (const CacheTargetConfig &target : targets) {
        array.append(cacheTargetToJson(target));
    }
    return array;
}

Result<QList<CacheTargetConfig>> cacheTargetsFromJson(const QJsonValue &value, const QList<SourceConfig> *sources)
{
    if (!value.isArray()) {
        return core::fail(
            Error::invalid(QStringLiteral("cache_targets"), QStringLiteral("\"cache_targets\" must be an array")));
    }
    const QJsonArray array = value.toArray();
    QList<CacheTargetConfig> targets;
    QString message;
    for (int i = 0; i < array.size(); ++i) {
        CacheTargetConfig target;
        if (!parseCacheTarget(array.at(i), i, sources, &target, &message)) {
            return core::fail(Error::invalid(QStringLiteral("cache_targets"), message));
        }
        for (const CacheTargetConfig &other : std::as_const(targets)) {
            if (other.name == target.name) {
                return core::fail(
                    Error::invalid(QStringLiteral("cache_targets"),
                                   QStringLiteral("cache target %1: duplicate name").arg(quoted(target.name))));
            }
        }
        targets.append(std::move(target));
    }
    return targets;
}

Status AppConfig::load(const QString &path, AppConfig *config)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return core::fail(QStringLiteral("%1: cannot read: %2").arg(path, file.errorString()));
    }
    if (const Status parsed = parse(file.readAll(), config); !parsed) {
        return core::fail(Error::invalid({}, path + QStringLiteral(": ") + parsed.error().message));
    }
    return {};
}

QByteArray AppConfig::toJson() const
{
    QJsonArray sourceArray;
    for (const SourceConfig &source : sources) {
        sourceArray.append(sourceToJson(source));
    }
    QJsonObject history{{QStringLiteral("retention_days"), historyRetentionDays}};
    if (!historyPath.isEmpty()) {
        history.insert(QStringLiteral("path"), historyPath);
    }
    QJsonObject root{{QStringLiteral("sources"), sourceArray}, {QStringLiteral("history"), history}};
    if (!store.isEmpty()) {
        root.insert(QStringLiteral("store"), store);
    }
    // Untouched defaults stay out of the file, so a later release's prices reach the user.
    if (!(rateCard == RateCard::defaults())) {
        root.insert(QStringLiteral("rate_card"), rateCard.toJson());
    }
    if (!cacheTargets.isEmpty()) {
        root.insert(QStringLiteral("cache_targets"), cacheTargetsToJson(cacheTargets));
    }
    if (sentiment) {
        root.insert(QStringLiteral("sentiment"), sentimentToJson(*sentiment));
    }
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

namespace {

// Writes `json` to `path` atomically (QSaveFile) with mode 0600, creating the directory;
// `error` without the path.
bool writeConfigFile(const QString &path, const QByteArray &json, QString *error)
{
    const QString dir = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(dir)) {
        *error = QStringLiteral("cannot create directory %1").arg(dir);
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("cannot write: %1").arg(file.errorString());
        return false;
    }
    // Restrict the temporary file before writing; the rename keeps its mode.
    if (!file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
        file.cancelWriting();
        *error = QStringLiteral("cannot set permissions: %1").arg(file.errorString());
        return false;
    }
    if (file.write(json) != json.size() || !file.commit()) {
        *error = QStringLiteral("cannot write: %1").arg(file.errorString());
        return false;
    }
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return true;
}

// The file at `path` (an empty object when it is absent or empty) with "sources" replaced.
QByteArray withSources(const QString &path, const QList<SourceConfig> &sources)
{
    QJsonObject root;
    QFile file(path);
    if (!path.isEmpty() && file.open(QIODevice::ReadOnly)) {
        root = QJsonDocument::fromJson(file.readAll()).object();
    }
    QJsonArray array;
    for (const SourceConfig &source : sources) {
        array.append(sourceToJson(source));
    }
    root.insert(QStringLiteral("sources"), array);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

// Writes `json` to `path` when load() would accept it: writing something load() rejects would
// lock the user out at the next start. Errors name the file.
Status writeCheckedConfig(const QString &path, const QByteArray &json)
{
    if (const Status parsed = AppConfig::parse(json, nullptr); !parsed) {
        return core::fail(Error::invalid({}, path + QStringLiteral(": not saved: ") + parsed.error().message));
    }
    QString message;
    if (!writeConfigFile(path, json, &message)) {
        return core::fail(path + QStringLiteral(": ") + message);
    }
    return {};
}

} // namespace

Status AppConfig::save(const QString &path) const
{
    return writeCheckedConfig(path, toJson());
}

Status AppConfig::checkSources(const QString &path, const QList<SourceConfig> &sources)
{
    return parse(withSources(path, sources), nullptr);
}

Status AppConfig::saveSources(const QString &path, const QList<SourceConfig> &sources)
{
    return writeCheckedConfig(path, withSources(path, sources));
}

QString AppConfig::defaultPath()
{
    const QString fromEnvironment = qEnvironmentVariable("STRATA_CONFIG");
    if (!fromEnvironment.isEmpty()) {
        return fromEnvironment;
    }
    // GenericConfigLocation + our own folder: ConfigLocation would depend on the
    // organization/application names, which the CLI, the server and tests set differently.
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
           + QStringLiteral("/strata/config.json");
}

QString historyPathFor(const AppConfig &config)
{
    if (!config.store.isEmpty()) {
        return config.store;
    }
    if (!config.historyPath.isEmpty()) {
        return config.historyPath;
    }
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dir);
    return dir + QStringLiteral("/history.sqlite");
}

namespace {

// Where a secret is sent, as scheme://host:port (path and query do not change who receives it).
QString secretEndpoint(const QString &url, const QString &whenEmpty)
{
    const QString text = url.trimmed().isEmpty() ? whenEmpty : url.trimmed();
    const QUrl parsed(text, QUrl::StrictMode);
    if (!parsed.isValid() || parsed.host().isEmpty()) {
        return text;
    }
    const QString scheme = parsed.scheme().toLower();
    const int port = parsed.port(scheme == QLatin1String("https") ? 443 : scheme == QLatin1String("http") ? 80 : -1);
    return scheme + QStringLiteral("://") + parsed.host().toLower() + QLatin1Char(':') + QString::number(port);
}

QString secretEndpointField(const SourceConfig &c, const QString &field)
{
    if (field == QLatin1String("url")) {
        return c.url;
    }
    if (field == QLatin1String("authority_url")) {
        return c.authorityUrl;
    }
    return c.s3Url;
}

} // namespace

QList<SecretReentry> secretMustBeReentered(const SourceConfig &before, const SourceConfig &after)
{
    // The public cloud's endpoints stand for empty Azure URLs (AzureSource's defaults).
    const bool azure = after.kind == SourceKind::Azure;
    const QString arm = azure ? QStringLiteral("https://management.azure.com") : QString();
    const QString authority = azure ? QStringLiteral("https://login.microsoftonline.com") : QString();
    const auto moved = [&](const QString &field, const QString &whenEmpty) {
        return secretEndpoint(secretEndpointField(before, field), whenEmpty)
               != secretEndpoint(secretEndpointField(after, field), whenEmpty);
    };
    // The kubeconfig that is the secret carries its own server and CA.
    const bool ownTls = !(after.kind == SourceKind::Kubernetes && after.kubeconfigInSecret);
    const auto weakerTls = [&]() -> QString {
        if (!ownTls) {
            return {};
        }
        if (after.insecureSkipTlsVerify && !before.insecureSkipTlsVerify) {
            return QStringLiteral("insecure_skip_tls_verify");
        }
        if (after.caFile.trimmed() != before.caFile.trimmed()) {
            return QStringLiteral("ca_file");
        }
        return {};
    };
    QList<SecretReentry> out;
    if (after.password.kind != SecretRef::Kind::None && after.password == before.password) {
        QStringList fields;
        if (ownTls) {
            fields << QStringLiteral("url");
        }
        if (azure) {
            fields << QStringLiteral("authority_url");
        }
        QString changed;
        for (const QString &field : std::as_const(fields)) {
            if (moved(field, field == QLatin1String("url") ? arm : authority)) {
                changed = field;
                break;
            }
        }
        if (changed.isEmpty()) {
            changed = weakerTls();
        }
        if (!changed.isEmpty()) {
            out.append({QStringLiteral("password"), changed});
        }
    }
    if (after.s3Secret.kind != SecretRef::Kind::None && after.s3Secret == before.s3Secret) {
        QString changed = moved(QStringLiteral("s3_url"), QString()) ? QStringLiteral("s3_url") : weakerTls();
        if (!changed.isEmpty()) {
            out.append({QStringLiteral("s3_secret"), changed});
        }
    }
    return out;
}

QString SecretReentry::message(const SourceConfig &after) const
{
    const QString what = secret == QLatin1String("s3_secret")   ? tr("S3 secret key")
                         : after.kind == SourceKind::Azure      ? tr("client secret")
                         : after.kind == SourceKind::Kubernetes ? tr("token")
                                                                : tr("password");
    QString change;
    if (field == QLatin1String("insecure_skip_tls_verify")) {
        change = tr("%1 now skips TLS verification").arg(after.name);
    } else if (field == QLatin1String("ca_file")) {
        change = after.caFile.isEmpty() ? tr("%1 now trusts the system CAs instead of its CA file").arg(after.name)
                                        : tr("%1 now trusts the CA file %2").arg(after.name, after.caFile);
    } else {
        const QString url = QUrl(secretEndpointField(after, field)).toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery);
        change = tr("the %1 of %2 now points at %3").arg(field, after.name, url.isEmpty() ? tr("its default") : url);
    }
    return tr("%1, so its %2 must be given again (a stored secret never follows a changed endpoint or TLS setting)")
        .arg(change, what);
}

const SourceConfig *AppConfig::source(const QString &name) const
{
    for (const SourceConfig &candidate : sources) {
        if (candidate.name == name) {
            return &candidate;
        }
    }
    return nullptr;
}

} // namespace strata::core
