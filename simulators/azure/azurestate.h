#pragma once

// Internal to the Azure simulator: the state one AzureSimulator serves and the handlers that
// answer its requests. It lives on the simulator's thread. The member functions are defined by
// area, one file each (see the section comments below and README.md's file map).

#include "simulators/azure/azuremodel.h"
#include "simulators/azure/azuresimulator.h"
#include "simulators/common/httpfaults.h"
#include "simulators/common/httpserver.h"

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace strata::sim::azure {

// ANF limits the handlers enforce (README.md, "ANF limits").
inline constexpr int MaxVolumesPerPool = 500;
inline constexpr qint64 MinVolumeQuota = 100 * GiB;
inline constexpr qint64 MaxVolumeQuota = 100 * TiB;
inline constexpr qint64 MaxPoolSize = 2048 * TiB;

inline qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

inline QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

/// A /_sim/faults rule. Kinds beyond the common ones: lroFail and lroHang act on the next
/// long-running operation a matching request starts (it ends Failed with code/message, or never).
using FaultRule = HttpFaultRule;

inline bool isLroFault(const FaultRule &rule)
{
    return rule.kind == QLatin1String("lroFail") || rule.kind == QLatin1String("lroHang");
}

/// What the Azure simulator's rules may say (README.md, "Faults and control endpoints").
HttpFaultSyntax azureFaultSyntax();

struct ArmError
{
    QString code;
    QString message;
};

struct Operation
{
    QString id;
    QString resourceId;
    QString action;        ///< CREATE, UPDATE, DELETE, POOLCHANGE, REVERT
    QString runningStatus; ///< Creating, Deleting, InProgress
    QString busyKey;       ///< fileSystemId of the volume it works on (one operation per volume)
    qint64 startMs = 0;
    qint64 endMs = 0;
    qint64 durationMs = 0;
    bool done = false;
    bool hang = false;
    std::optional<ArmError> error; ///< set when Failed
    std::optional<ArmError> injected;
    std::function<std::optional<ArmError>()> apply; ///< on success; an error turns it into Failed
    std::function<void()> onFailed;
    std::function<std::optional<QJsonObject>()> result; ///< final resource (creates), else 204
};

/// One request in flight.
struct AzureExchange
{
    Request request;
    Responder responder;
    std::optional<FaultRule> fault;
    QStringList segs;
    QString apiVersion;
    bool write = false;
};

struct AzureState
{
    AzureState(AzureSimulator *simulator, const AzureSimulatorOptions &options)
        : sim(simulator)
        , opt(options)
        , rng(options.seed)
    {}

    AzureSimulator *sim;
    const AzureSimulatorOptions &opt;
    QString baseUrl;
    Rng rng;
    QStringList resourceGroups;
    std::vector<Account> accounts;
    std::vector<Pool> pools;
    std::vector<std::unique_ptr<Volume>> volumes;
    std::vector<ManagedCluster> clusters;
    std::map<QString, Operation> operations;
    int operationCounter = 0;
    QHash<QString, qint64> tokens; ///< access token -> expiry (ms)
    int tokenRequests = 0;
    int requests = 0;
    HttpFaultRules faults{azureFaultSyntax()};
    std::deque<qint64> reads;
    std::deque<qint64> writes;

    QString subPrefix() const { return QStringLiteral("/subscriptions/") + opt.subscriptionId; }
    QString rgPrefix(const QString &rg) const { return subPrefix() + QStringLiteral("/resourceGroups/") + rg; }
    double autoThroughput(const QString &level, qint64 quota) const { return mibpsPerTiB(level) * double(quota) / TiB; }

    // ---- estate.cpp: ARM ids, lookups and presets
    QString accountId(const QString &rg, const QString &a) const;
    QString poolId(const Pool &p) const;
    QString volumeId(const Volume &v) const;
    QString clusterId(const ManagedCluster &c) const;
    QString operationPath(const QString &opId) const;
    QString findRg(const QString &rg) const;
    Account *findAccount(const QString &rg, const QString &a);
    Pool *findPool(const QString &rg, const QString &a, const QString &p);
    Pool *findPoolByUuid(const QString &uuid);
    Volume *findVolume(const QString &rg, const QString &a, const QString &p, const QString &name);
    Volume *findVolumeByFsid(const QString &fsid);
    Volume *findVolumeAny(const QString &idOrFsid);
    ManagedCluster *findCluster(const QString &rg, const QString &name);
    std::vector<Volume *> volumesIn(const Pool &p);
    qint64 allocated(const Pool &p, const Volume *except = nullptr);
    bool busy(const QString &fsid) const;
    /// Segments of an ARM id by type name ("resourceGroups" -> "ai-lab-rg"), case-insensitive.
    static std::map<QString, QString> parseId(const QString &id);
    Pool &addPool(const QString &rg, const QString &account, const QString &name, const QString &level, qint64 size);
    Volume &addVolume(const Pool &pool, const QString &name, qint64 quota, const QString &mountIp, qint64 createdMs);
    void addSnapshot(Volume &v, const QString &name, qint64 createdMs);
    void buildPreset();
    bool removeVolume(const QString &fsid);

    // ---- arm.cpp: Azure Resource Manager: request intake, fault rules, auth, throttling, envelopes, routing
    void addArmHeaders(Response &r, const AzureExchange &ex);
    void send(const std::shared_ptr<AzureExchange> &ex, Response r);
    void sendArm(const std::shared_ptr<AzureExchange> &ex,
                 int status,
                 const QByteArray &body,
                 const QList<QPair<QByteArray, QByteArray>> &extra = {});
    void sendJson(const std::shared_ptr<AzureExchange> &ex,
                  int status,
                  const QJsonObject &o,
                  const QList<QPair<QByteArray, QByteArray>> &extra = {});
    void armError(const std::shared_ptr<AzureExchange> &ex,
                  int status,
                  const QString &code,
                  const QString &message,
                  const QList<QPair<QByteArray, QByteArray>> &extra = {});
    void notFound(const std::shared_ptr<AzureExchange> &ex, const QString &type, const QString &rg);
    void methodNotAllowed(const std::shared_ptr<AzureExchange> &ex);
    void invalidResourceType(const std::shared_ptr<AzureExchange> &ex, const QString &ns, const QString &type);
    /// A list page: items [skip, skip + pageSize) and a nextLink when more follow.
    void sendList(const std::shared_ptr<AzureExchange> &ex, const QJsonArray &items);
    /// The request body as a JSON object, or nullopt after answering 400 InvalidRequestContent.
    std::optional<QJsonObject> bodyObject(const std::shared_ptr<AzureExchange> &ex);
    /// The body of a POST action (poolChange, revert), or nullopt after answering 405 or 400.
    std::optional<QJsonObject> actionBody(const std::shared_ptr<AzureExchange> &ex);
    /// The body's "location", or empty after answering 400 LocationRequired.
    QString requireLocation(const std::shared_ptr<AzureExchange> &ex, const QJsonObject &body);
    /// Answers 409 CannotDeleteResource (an account or pool that still has children).
    void nestedResourcesExist(const std::shared_ptr<AzureExchange> &ex);
    /// Checks the bearer token; answers 401 and returns false when it is missing, unknown or expired.
    bool authorise(const std::shared_ptr<AzureExchange> &ex);
    /// ARM's per-principal budget (rolling hour); answers 429 and returns false when spent.
    bool admit(const std::shared_ptr<AzureExchange> &ex);
    void handle(const Request &request, const Responder &responder);
    void serveStatusFault(const std::shared_ptr<AzureExchange> &ex);
    void route(const std::shared_ptr<AzureExchange> &ex);
    QJsonObject subscriptionJson() const;
    void routeSubscriptionProvider(const std::shared_ptr<AzureExchange> &ex, const QStringList &rest);
    void routeResourceGroup(const std::shared_ptr<AzureExchange> &ex, const QStringList &rest);

    // ---- entra.cpp: Microsoft Entra ID: client-credentials token endpoint, OpenID discovery
    void aadError(const std::shared_ptr<AzureExchange> &ex,
                  int status,
                  const QString &error,
                  int code,
                  const QString &description);
    void serveOpenIdConfiguration(const std::shared_ptr<AzureExchange> &ex, const QString &authority, bool adfs);
    void serveToken(const std::shared_ptr<AzureExchange> &ex, const QString &tenant);
    static bool isTokenPath(const QStringList &segs);
    /// Serves the token endpoints, OpenID discovery and signing keys; false for any other path.
    bool routeEntra(const std::shared_ptr<AzureExchange> &ex);
    void revoke();

    // ---- lro.cpp: long-running operations (Azure-AsyncOperation, Location, operationResults)
    Operation &startOperation(const std::shared_ptr<AzureExchange> &ex,
                              const QString &resourceId,
                              const QString &action,
                              const QString &runningStatus);
    void finishOperation(const QString &id);
    QList<QPair<QByteArray, QByteArray>> lroHeaders(const Operation &op, const QString &apiVersion, bool location);
    QJsonObject operationJson(const Operation &op) const;
    void serveOperation(const std::shared_ptr<AzureExchange> &ex, const QString &opId);
    int running() const;

    // ---- anf.cpp: Microsoft.NetApp accounts and capacity pools
    QJsonObject accountJson(const Account &a) const;
    QJsonObject poolJson(Pool &p);
    QJsonObject volumeJson(const Volume &v) const;
    QJsonObject snapshotJson(const Volume &v, const Snapshot &s) const;
    void listAccounts(const std::shared_ptr<AzureExchange> &ex, const QString &rg);
    /// n: segments after .../netAppAccounts
    void routeNetApp(const std::shared_ptr<AzureExchange> &ex, const QString &rg, const QStringList &n);
    void
    accountRequest(const std::shared_ptr<AzureExchange> &ex, const QString &rg, const QString &name, Account *account);
    void poolRequest(const std::shared_ptr<AzureExchange> &ex, const Account &account, const QString &name, Pool *pool);

    // ---- anfvolumes.cpp: Microsoft.NetApp volumes, pool change, revert and snapshots
    void volumeRequest(const std::shared_ptr<AzureExchange> &ex, Pool &pool, const QString &name, Volume *volume);
    void anotherOperation(const std::shared_ptr<AzureExchange> &ex, const Volume &v);
    void poolChange(const std::shared_ptr<AzureExchange> &ex, Volume &volume);
    std::optional<ArmError> checkRoom(Pool &target, const Volume &volume);
    void revert(const std::shared_ptr<AzureExchange> &ex, Volume &volume);
    void snapshotRequest(const std::shared_ptr<AzureExchange> &ex, Volume &volume, const QString &name);

    // ---- monitor.cpp: Azure Monitor (Microsoft.Insights) volume metrics
    void metrics(const std::shared_ptr<AzureExchange> &ex, const Volume &volume);

    // ---- aks.cpp: Microsoft.ContainerService managed clusters, agent pools, credentials
    QJsonObject agentPoolProperties(const ManagedCluster &c, const AgentPool &p) const;
    QJsonObject clusterJson(const ManagedCluster &c) const;
    QByteArray kubeconfigFor(const ManagedCluster &c) const;
    void listClusters(const std::shared_ptr<AzureExchange> &ex, const QString &rg);
    /// n: segments after .../managedClusters
    void routeAks(const std::shared_ptr<AzureExchange> &ex, const QString &rg, const QStringList &n);

    // ---- control.cpp: control endpoints (/_sim) and fault rules
    QJsonObject stateJson() const;
    void handleControl(const std::shared_ptr<AzureExchange> &ex);
};

} // namespace strata::sim::azure
