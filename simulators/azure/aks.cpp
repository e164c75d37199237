#include "simulators/azure/azurestate.h"

#include <QJsonArray>

namespace strata::sim::azure {

QJsonObject AzureState::agentPoolProperties(const ManagedCluster &c, const AgentPool &p) const
{
    QJsonArray taints;
    for (const QString &t : p.nodeTaints) {
        taints.append(t);
    }
    return QJsonObject{
        {QStringLiteral("count"), p.count},
        {QStringLiteral("vmSize"), p.vmSize},
        {QStringLiteral("osDiskSizeGB"), 128},
        {QStringLiteral("osDiskType"), QStringLiteral("Managed")},
        {QStringLiteral("kubeletDiskType"), QStringLiteral("OS")},
        {QStringLiteral("maxPods"), p.maxPods},
        {QStringLiteral("type"), QStringLiteral("VirtualMachineScaleSets")},
        {QStringLiteral("enableAutoScaling"), false},
        {QStringLiteral("provisioningState"), QStringLiteral("Succeeded")},
        {QStringLiteral("powerState"), QJsonObject{{QStringLiteral("code"), QStringLiteral("Running")}}},
        {QStringLiteral("orchestratorVersion"), c.kubernetesVersion},
        {QStringLiteral("currentOrchestratorVersion"), c.kubernetesVersion},
        {QStringLiteral("enableNodePublicIP"), false},
        {QStringLiteral("nodeTaints"), taints},
        {QStringLiteral("mode"), p.mode},
        {QStringLiteral("osType"), QStringLiteral("Linux")},
        {QStringLiteral("osSKU"), QStringLiteral("Ubuntu")},
        {QStringLiteral("nodeImageVersion"), QStringLiteral("AKSUbuntu-2204gen2containerd-202411.12.0")},
        {QStringLiteral("enableFIPS"), false},
    };
}

QJsonObject AzureState::clusterJson(const ManagedCluster &c) const
{
    QJsonArray profiles;
    for (const AgentPool &p : c.agentPools) {
        QJsonObject o = agentPoolProperties(c, p);
        o.insert(QStringLiteral("name"), p.name);
        profiles.append(o);
    }
    return QJsonObject{
        {QStringLiteral("id"), clusterId(c)},
        {QStringLiteral("location"), c.location},
        {QStringLiteral("name"), c.name},
        {QStringLiteral("type"), QStringLiteral("Microsoft.ContainerService/ManagedClusters")},
        {QStringLiteral("sku"),
         QJsonObject{{QStringLiteral("name"), QStringLiteral("Base")},
                     {QStringLiteral("tier"), QStringLiteral("Free")}}},
        {QStringLiteral("identity"), QJsonObject{{QStringLiteral("type"), QStringLiteral("SystemAssigned")}}},
        {QStringLiteral("properties"),
         QJsonObject{
             {QStringLiteral("provisioningState"), QStringLiteral("Succeeded")},
             {QStringLiteral("powerState"), QJsonObject{{QStringLiteral("code"), QStringLiteral("Running")}}},
             {QStringLiteral("kubernetesVersion"), c.kubernetesVersion},
             {QStringLiteral("currentKubernetesVersion"), c.kubernetesVersion},
             {QStringLiteral("dnsPrefix"), c.dnsPrefix},
             {QStringLiteral("fqdn"), c.fqdn},
             {QStringLiteral("azurePortalFQDN"),
              QString(c.fqdn.section(QLatin1Char('.'), 0, 0) + QStringLiteral(".portal.hcp.")
                      + c.fqdn.section(QLatin1Char('.'), 2))},
             {QStringLiteral("agentPoolProfiles"), profiles},
             {QStringLiteral("nodeResourceGroup"),
              QStringLiteral("MC_%1_%2_%3").arg(c.resourceGroup, c.name, c.location)},
             {QStringLiteral("enableRBAC"), true},
             {QStringLiteral("supportPlan"), QStringLiteral("KubernetesOfficial")},
             {QStringLiteral("networkProfile"),
              QJsonObject{{QStringLiteral("networkPlugin"), QStringLiteral("azure")},
                          {QStringLiteral("loadBalancerSku"), QStringLiteral("standard")},
                          {QStringLiteral("serviceCidr"), QStringLiteral("10.0.0.0/16")},
                          {QStringLiteral("dnsServiceIP"), QStringLiteral("10.0.0.10")},
                          {QStringLiteral("outboundType"), QStringLiteral("loadBalancer")}}},
             {QStringLiteral("maxAgentPools"), 100},
         }},
    };
}

QByteArray AzureState::kubeconfigFor(const ManagedCluster &c) const
{
    if (same(c.name, QStringLiteral("aks-gpu")) && !opt.aksKubeconfig.isEmpty()) {
        return opt.aksKubeconfig;
    }
    const QString user = QStringLiteral("clusterUser_%1_%2").arg(c.resourceGroup, c.name);
    const QString token =
        QString::number(quint64(noise(opt.seed, c.name, 0, 7) * 1e18), 16).rightJustified(16, QLatin1Char('0'));
    return QStringLiteral("apiVersion: v1\n"
                          "clusters:\n"
                          "- cluster:\n"
                          "    certificate-authority-data: %1\n"
                          "    server: https://%2:443\n"
                          "  name: %3\n"
                          "contexts:\n"
                          "- context:\n"
                          "    cluster: %3\n"
                          "    user: %4\n"
                          "  name: %3\n"
                          "current-context: %3\n"
                          "kind: Config\n"
                          "preferences: {}\n"
                          "users:\n"
                          "- name: %4\n"
                          "  user:\n"
                          "    token: %5\n")
        .arg(QString::fromLatin1(opt.tls.certificatePem.toBase64()), c.fqdn, c.name, user, token)
        .toUtf8();
}

void AzureState::listClusters(const std::shared_ptr<AzureExchange> &ex, const QString &rg)
{
    QJsonArray items;
    for (const ManagedCluster &c : clusters) {
        if (rg.isEmpty() || same(c.resourceGroup, rg)) {
            items.append(clusterJson(c));
        }
    }
    sendList(ex, items);
}

void AzureState::routeAks(const std::shared_ptr<AzureExchange> &ex, const QString &rg, const QStringList &n)
{
    const QByteArray &method = ex->request.method;
    if (n.isEmpty()) {
        if (method != "GET") {
            methodNotAllowed(ex);
            return;
        }
        listClusters(ex, rg);
        return;
    }
    const ManagedCluster *c = findCluster(rg, n[0]);
    if (!c) {
        notFound(ex, QStringLiteral("Microsoft.ContainerService/managedClusters/%1").arg(n[0]), rg);
        return;
    }
    if (n.size() == 1) {
        if (method != "GET") {
            methodNotAllowed(ex);
            return;
        }
        sendJson(ex, 200, clusterJson(*c));
        return;
    }
    if (n.size() == 2
        && (same(n[1], QStringLiteral("listClusterUserCredential"))
            || same(n[1], QStringLiteral("listClusterAdminCredential")))) {
        if (method != "POST") {
            methodNotAllowed(ex);
            return;
        }
        const bool admin = same(n[1], QStringLiteral("listClusterAdminCredential"));
        sendJson(ex,
                 200,
                 QJsonObject{{QStringLiteral("kubeconfigs"),
                              QJsonArray{QJsonObject{
                                  {QStringLiteral("name"),
                                   admin ? QStringLiteral("clusterAdmin") : QStringLiteral("clusterUser")},
                                  {QStringLiteral("value"), QString::fromLatin1(kubeconfigFor(*c).toBase64())}}}}});
        return;
    }
    if (same(n[1], QStringLiteral("agentPools")) && n.size() <= 3) {
        if (method != "GET") {
            methodNotAllowed(ex);
            return;
        }
        auto poolJson = [&](const AgentPool &p) {
            return QJsonObject{
                {QStringLiteral("id"), QString(clusterId(*c) + QStringLiteral("/agentPools/") + p.name)},
                {QStringLiteral("name"), p.name},
                {QStringLiteral("type"), QStringLiteral("Microsoft.ContainerService/managedClusters/agentPools")},
                {QStringLiteral("properties"), agentPoolProperties(*c, p)}};
        };
        if (n.size() == 2) {
            QJsonArray items;
            for (const AgentPool &p : c->agentPools) {
                items.append(poolJson(p));
            }
            sendList(ex, items);
            return;
        }
        for (const AgentPool &p : c->agentPools) {
            if (same(p.name, n[2])) {
                sendJson(ex, 200, poolJson(p));
                return;
            }
        }
        notFound(
            ex, QStringLiteral("Microsoft.ContainerService/managedClusters/%1/agentPools/%2").arg(c->name, n[2]), rg);
        return;
    }
    invalidResourceType(ex,
                        QStringLiteral("Microsoft.ContainerService"),
                        QStringLiteral("managedClusters/") + n.mid(1).join(QLatin1Char('/')));
}

} // namespace strata::sim::azure
