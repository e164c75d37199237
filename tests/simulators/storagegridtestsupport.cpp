#include "tests/simulators/storagegridtestsupport.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageAuthenticationCode>
#include <QRegularExpression>
#include <QTimeZone>
#include <QUrl>

#include <algorithm>

namespace strata::testsupport::gridsim {

using sim::storagegrid::StorageGridSimulator;

StorageGridSimulator::Options testOptions(StorageGridSimulator::Options::Preset preset)
{
    StorageGridSimulator::Options options;
    options.preset = preset;
    options.tls = ontapsim::sharedIdentity();
    return options;
}

RunningGrid::RunningGrid(StorageGridSimulator::Options options)
    : m_thread(std::make_unique<sim::ServerThread>())
{
    m_simulator = StorageGridSimulator::startOnThread(*m_thread, std::move(options), &m_error);
}

RunningGrid::~RunningGrid() = default;

GridApi::GridApi(const StorageGridSimulator &simulator)
    : m_simulator(simulator)
    , m_client(simulator.managementUrl(), simulator.caPem(), {}, {})
{
    m_client.setAuthorization({});
}

HttpResult
GridApi::authorize(const QString &username, const QString &password, const QString &accountId, const QString &version)
{
    QJsonObject body{{QStringLiteral("username"), username},
                     {QStringLiteral("password"), password},
                     {QStringLiteral("cookie"), false},
                     {QStringLiteral("csrfToken"), false}};
    if (!accountId.isEmpty()) {
        body.insert(QStringLiteral("accountId"), accountId);
    }
    m_client.setAuthorization({});
    HttpResult r = m_client.post(QStringLiteral("/api/%1/authorize").arg(version), body);
    if (r.status == 200) {
        setToken(r.json.value(QStringLiteral("data")).toString());
    }
    return r;
}

bool GridApi::loginGrid()
{
    return authorize(QStringLiteral("root"), m_simulator.options().rootPassword).status == 200;
}

bool GridApi::loginTenant(const QString &accountId)
{
    for (const auto &t : m_simulator.tenants()) {
        if (t.id == accountId) {
            return authorize(QStringLiteral("root"), t.rootPassword, accountId).status == 200;
        }
    }
    return false;
}

S3Http::S3Http(const StorageGridSimulator &simulator)
    : m_simulator(simulator)
    , m_client(simulator.s3Url(), simulator.caPem(), {}, {})
{
    m_client.setAuthorization({});
}

namespace {

QByteArray awsEncode(const QString &text, bool keepSlash)
{
    return QUrl::toPercentEncoding(text, keepSlash ? QByteArrayLiteral("/~") : QByteArrayLiteral("~"));
}

QByteArray hmac(const QByteArray &key, const QByteArray &data)
{
    return QMessageAuthenticationCode::hash(data, key, QCryptographicHash::Sha256);
}

} // namespace

HttpResult S3Http::request(const QByteArray &method,
                           const QString &path,
                           const QList<QPair<QString, QString>> &query,
                           const QByteArray &body,
                           QList<QPair<QByteArray, QByteArray>> headers,
                           const Options &options)
{
    const auto &o = m_simulator.options();
    const QString accessKey = options.accessKey.isEmpty() ? o.s3AccessKey : options.accessKey;
    const QString secretKey = options.secretKey.isEmpty() ? o.s3SecretKey : options.secretKey;
    const QDateTime at = options.signedAt.isValid()
                             ? options.signedAt
                             : QDateTime::fromMSecsSinceEpoch(m_simulator.nowMs(), QTimeZone::utc());
    const QByteArray amzDate = at.toUTC().toString(QStringLiteral("yyyyMMddTHHmmssZ")).toLatin1();
    const QByteArray day = amzDate.left(8);

    QByteArray host = "127.0.0.1:" + QByteArray::number(m_simulator.s3Port());
    if (!options.virtualHostBucket.isEmpty()) {
        host = options.virtualHostBucket.toLatin1() + ".localhost:" + QByteArray::number(m_simulator.s3Port());
    }
    const QByteArray encodedPath = awsEncode(path, true);
    QList<QPair<QByteArray, QByteArray>> params;
    for (const auto &q : query) {
        params.append({awsEncode(q.first, false), awsEncode(q.second, false)});
    }
    std::sort(params.begin(), params.end());
    QByteArray canonicalQuery;
    for (const auto &p : params) {
        if (!canonicalQuery.isEmpty()) {
            canonicalQuery += '&';
        }
        canonicalQuery += p.first + '=' + p.second;
    }
    QByteArray payloadHash = options.unsignedPayload
                                 ? QByteArrayLiteral("UNSIGNED-PAYLOAD")
                                 : QCryptographicHash::hash(body, QCryptographicHash::Sha256).toHex();
    if (!options.payloadHashOverride.isEmpty()) {
        payloadHash = options.payloadHashOverride;
    }
    QList<QPair<QByteArray, QByteArray>> signedHeaders{{"host", host}, {"x-amz-date", amzDate}};
    if (!options.omitPayloadHash) {
        signedHeaders.append({"x-amz-content-sha256", payloadHash});
    }
    for (const auto &h : headers) {
        signedHeaders.append({h.first.toLower(), h.second.trimmed()});
    }
    std::sort(signedHeaders.begin(), signedHeaders.end());
    QByteArray canonicalHeaders;
    QByteArray signedNames;
    for (const auto &h : signedHeaders) {
        canonicalHeaders += h.first + ':' + h.second + '\n';
        if (!signedNames.isEmpty()) {
            signedNames += ';';
        }
        signedNames += h.first;
    }
    const QByteArray canonicalRequest = method + '\n' + encodedPath + '\n' + canonicalQuery + '\n' + canonicalHeaders
                                        + '\n' + signedNames + '\n' + payloadHash;
    const QByteArray scope = day + '/' + o.s3Region.toLatin1() + "/s3/aws4_request";
    const QByteArray stringToSign = "AWS4-HMAC-SHA256\n" + amzDate + '\n' + scope + '\n'
                                    + QCryptographicHash::hash(canonicalRequest, QCryptographicHash::Sha256).toHex();
    const QByteArray kDate = hmac("AWS4" + secretKey.toUtf8(), day);
    const QByteArray kRegion = hmac(kDate, o.s3Region.toLatin1());
    const QByteArray kService = hmac(kRegion, "s3");
    const QByteArray kSigning = hmac(kService, "aws4_request");
    const QByteArray signature = hmac(kSigning, stringToSign).toHex();

    QList<QPair<QByteArray, QByteArray>> send = headers;
    send.append({"Host", host});
    send.append({"x-amz-date", amzDate});
    if (!options.omitPayloadHash) {
        send.append({"x-amz-content-sha256", payloadHash});
    }
    if (!options.anonymous) {
        send.append({"Authorization",
                     "AWS4-HMAC-SHA256 Credential=" + accessKey.toLatin1() + '/' + scope
                         + ", SignedHeaders=" + signedNames + ", Signature=" + signature});
    }
    QByteArray target = encodedPath;
    if (!canonicalQuery.isEmpty()) {
        target += '?' + canonicalQuery;
    }
    return m_client.send(method, QString::fromLatin1(target), body, send);
}

QString xmlValue(const QByteArray &xml, const QString &element)
{
    const QStringList all = xmlValues(xml, element);
    return all.isEmpty() ? QString() : all.first();
}

QStringList xmlValues(const QByteArray &xml, const QString &element)
{
    QStringList out;
    const QRegularExpression re(QStringLiteral("<%1>([^<]*)</%1>").arg(element));
    auto it = re.globalMatch(QString::fromUtf8(xml));
    while (it.hasNext()) {
        QString v = it.next().captured(1);
        v.replace(QStringLiteral("&quot;"), QStringLiteral("\""))
            .replace(QStringLiteral("&lt;"), QStringLiteral("<"))
            .replace(QStringLiteral("&gt;"), QStringLiteral(">"))
            .replace(QStringLiteral("&apos;"), QStringLiteral("'"))
            .replace(QStringLiteral("&amp;"), QStringLiteral("&"));
        out << v;
    }
    return out;
}

} // namespace strata::testsupport::gridsim
