// The AKS cluster of the AiLab estate end to end: listClusterUserCredential hands out the
// kubeconfig of a KubeSimulator running the Aks preset, whose nodes match the gpupool.

#include "tests/simulators/azuretestsupport.h"
#include "tests/simulators/kubetestsupport.h"

#include <QJsonArray>

#include <gtest/gtest.h>

using namespace strata::testsupport;
using strata::sim::kube::KubeSimulator;

TEST(AzureAksTest, KubeconfigFromArmReachesTheAksPresetCluster)
{
    kubesim::RunningKube kube(kubesim::testOptions(KubeSimulator::Options::Preset::Aks));
    ASSERT_TRUE(kube.isRunning()) << kube.error().toStdString();
    auto options = azuresim::testOptions();
    options.aksKubeconfig = kube->kubeconfig(QStringLiteral("aks-gpu"));
    azuresim::RunningAzure azure(options);
    ASSERT_TRUE(azure.isRunning());
    azuresim::AzureHttp arm(*azure);
    ASSERT_TRUE(arm.login());

    const auto creds = arm.post(azuresim::AzureHttp::withApi(azure->managedClusterId(QStringLiteral("aks-gpu"))
                                                                 + QStringLiteral("/listClusterUserCredential"),
                                                             QStringLiteral("2025-07-01")),
                                {});
    ASSERT_EQ(creds.status, 200);
    const QByteArray yaml = QByteArray::fromBase64(creds.json.value(QStringLiteral("kubeconfigs"))
                                                       .toArray()
                                                       .first()
                                                       .toObject()
                                                       .value(QStringLiteral("value"))
                                                       .toString()
                                                       .toLatin1());
    EXPECT_TRUE(yaml.contains(kube->baseUrl().toUtf8()));

    kubesim::KubeHttp k8s(*kube);
    const auto nodes = k8s.get(QStringLiteral("/api/v1/nodes"));
    ASSERT_EQ(nodes.status, 200);
    const QJsonArray items = nodes.json.value(QStringLiteral("items")).toArray();
    ASSERT_EQ(items.size(), 4);
    int gpus = 0;
    QStringList gpuNodes;
    for (const QJsonValue &n : items) {
        const QJsonObject labels = n[QStringLiteral("metadata")][QStringLiteral("labels")].toObject();
        const int count = n[QStringLiteral("status")][QStringLiteral("capacity")][QStringLiteral("nvidia.com/gpu")]
                              .toString()
                              .toInt();
        gpus += count;
        if (labels.value(QStringLiteral("agentpool")).toString() == QLatin1String("gpupool")) {
            gpuNodes.append(n[QStringLiteral("metadata")][QStringLiteral("name")].toString());
            EXPECT_EQ(count, 1);
            EXPECT_EQ(labels.value(QStringLiteral("kubernetes.azure.com/agentpool")).toString(),
                      QStringLiteral("gpupool"));
            EXPECT_EQ(labels.value(QStringLiteral("node.kubernetes.io/instance-type")).toString(),
                      QStringLiteral("Standard_NC6s_v3"));
            EXPECT_EQ(labels.value(QStringLiteral("nvidia.com/gpu.product")).toString(),
                      QStringLiteral("Tesla-V100-PCIE-16GB"));
        } else {
            EXPECT_FALSE(labels.contains(QStringLiteral("nvidia.com/gpu.product")));
        }
    }
    EXPECT_EQ(gpus, 3);
    EXPECT_EQ(gpuNodes,
              (QStringList{QStringLiteral("aks-gpupool-38146290-vmss000000"),
                           QStringLiteral("aks-gpupool-38146290-vmss000001"),
                           QStringLiteral("aks-gpupool-38146290-vmss000002")}));
    EXPECT_EQ(kube->objectCount(QStringLiteral("jobs")), 0);
    EXPECT_TRUE(kube->object(QStringLiteral("queues"), {}, QStringLiteral("ml-team")).has_value());
}
