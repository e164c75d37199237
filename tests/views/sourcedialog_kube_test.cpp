// The Sources dialog for a Kubernetes cluster: kubeconfig + context or API server URL + token,
// fields shown per kind, Prometheus URL validation, and contexts asked for (never read) by the view.

#include "models/core/store/config.h"
#include "views/sourcedialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include <gtest/gtest.h>

using namespace strata;

namespace {

QPushButton *okButtonSourcedialogKube(QDialog &dialog)
{
    return dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
}

template <class W> W *childSourcedialogKube(QDialog &dialog, const char *name)
{
    return dialog.findChild<W *>(QString::fromLatin1(name));
}

void chooseKubernetes(views::SourceDialog &dialog)
{
    auto *kind = childSourcedialogKube<QComboBox>(dialog, "sourceKindComboBox");
    kind->setCurrentIndex(kind->findData(core::sourceKindName(core::SourceKind::Kubernetes)));
}

} // namespace

TEST(SourceDialogKubernetes, FieldsFollowKindAndConnectionMode)
{
    views::SourceDialog dialog({});
    dialog.show();
    auto *kind = childSourcedialogKube<QComboBox>(dialog, "sourceKindComboBox");
    ASSERT_GE(kind->findData(core::sourceKindName(core::SourceKind::Kubernetes)), 0);
    auto *connectWith = childSourcedialogKube<QComboBox>(dialog, "sourceConnectComboBox");
    auto *kubeconfig = childSourcedialogKube<QLineEdit>(dialog, "sourceKubeconfigLineEdit");
    auto *context = childSourcedialogKube<QComboBox>(dialog, "sourceContextComboBox");
    auto *url = childSourcedialogKube<QLineEdit>(dialog, "sourceUrlLineEdit");
    auto *user = childSourcedialogKube<QLineEdit>(dialog, "sourceUsernameLineEdit");
    auto *password = childSourcedialogKube<QLineEdit>(dialog, "sourcePasswordLineEdit");
    auto *ca = childSourcedialogKube<QLineEdit>(dialog, "sourceCaFileLineEdit");
    auto *insecure = childSourcedialogKube<QCheckBox>(dialog, "sourceInsecureCheckBox");
    auto *prometheus = childSourcedialogKube<QLineEdit>(dialog, "sourcePrometheusLineEdit");
    auto *inventory = childSourcedialogKube<QSpinBox>(dialog, "sourceConfigIntervalSpinBox");
    ASSERT_TRUE(connectWith && kubeconfig && context && url && user && password && ca && insecure && prometheus
                && inventory);

    // ONTAP: no Kubernetes fields.
    EXPECT_TRUE(url->isVisible() && user->isVisible() && password->isVisible() && ca->isVisible());
    EXPECT_TRUE(inventory->isVisible());
    EXPECT_FALSE(connectWith->isVisible() || kubeconfig->isVisible() || context->isVisible());
    EXPECT_FALSE(prometheus->isVisible());

    QSignalSpy wanted(&dialog, &views::SourceDialog::contextsWanted);
    chooseKubernetes(dialog);
    // Kubeconfig first, as kubectl users expect; the view asks for the contexts.
    EXPECT_TRUE(connectWith->isVisible() && kubeconfig->isVisible() && context->isVisible());
    EXPECT_TRUE(prometheus->isVisible());
    EXPECT_FALSE(user->isVisible() || url->isVisible() || password->isVisible() || ca->isVisible());
    EXPECT_FALSE(insecure->isVisible() || inventory->isVisible());
    ASSERT_EQ(wanted.count(), 1);
    EXPECT_EQ(wanted.at(0).at(0).toString(), QString()); // the default $KUBECONFIG / ~/.kube/config

    connectWith->setCurrentIndex(connectWith->findData(QStringLiteral("url")));
    EXPECT_TRUE(url->isVisible() && password->isVisible() && ca->isVisible() && insecure->isVisible());
    EXPECT_FALSE(kubeconfig->isVisible() || context->isVisible() || user->isVisible());
    auto *form = dialog.findChild<QFormLayout *>();
    ASSERT_TRUE(form);
    auto *tokenLabel = qobject_cast<QLabel *>(form->labelForField(password));
    ASSERT_TRUE(tokenLabel);
    EXPECT_EQ(tokenLabel->text(), QStringLiteral("&Token:"));

    kind->setCurrentIndex(kind->findData(core::sourceKindName(core::SourceKind::Ontap)));
    EXPECT_TRUE(user->isVisible());
    EXPECT_FALSE(connectWith->isVisible() || prometheus->isVisible());
    EXPECT_EQ(tokenLabel->text(), QStringLiteral("&Password:"));
}

TEST(SourceDialogKubernetes, KubeconfigAndContextMakeTheConfig)
{
    views::SourceDialog dialog({});
    dialog.show();
    QSignalSpy wanted(&dialog, &views::SourceDialog::contextsWanted);
    childSourcedialogKube<QLineEdit>(dialog, "sourceNameLineEdit")->setText(QStringLiteral("dgx"));
    chooseKubernetes(dialog);
    EXPECT_FALSE(okButtonSourcedialogKube(dialog)->isEnabled()) << "accepted before the contexts were read";
    EXPECT_FALSE(childSourcedialogKube<QPushButton>(dialog, "sourceTestButton")->isEnabled());

    auto *kubeconfig = childSourcedialogKube<QLineEdit>(dialog, "sourceKubeconfigLineEdit");
    kubeconfig->setText(QStringLiteral("/home/me/.kube/dgx.yaml"));
    ASSERT_TRUE(wanted.wait(5000)) << "no contextsWanted after typing a path";
    EXPECT_EQ(wanted.last().at(0).toString(), QStringLiteral("/home/me/.kube/dgx.yaml"));
    EXPECT_FALSE(okButtonSourcedialogKube(dialog)->isEnabled());

    dialog.setContexts({}, {}, QStringLiteral("kubeconfig /home/me/.kube/dgx.yaml: cannot read"));
    EXPECT_FALSE(okButtonSourcedialogKube(dialog)->isEnabled());
    EXPECT_TRUE(dialog.validationError().contains(QStringLiteral("cannot read")))
        << dialog.validationError().toStdString();

    dialog.setContexts(
        {QStringLiteral("lab"), QStringLiteral("dgx-admin"), QStringLiteral("prod")}, QStringLiteral("dgx-admin"), {});
    auto *context = childSourcedialogKube<QComboBox>(dialog, "sourceContextComboBox");
    EXPECT_EQ(context->count(), 3);
    EXPECT_EQ(context->currentText(), QStringLiteral("dgx-admin")) << "current-context not preselected";
    EXPECT_TRUE(okButtonSourcedialogKube(dialog)->isEnabled()) << dialog.validationError().toStdString();
    EXPECT_TRUE(childSourcedialogKube<QPushButton>(dialog, "sourceTestButton")->isEnabled());

    context->setCurrentIndex(context->findText(QStringLiteral("prod")));
    childSourcedialogKube<QLineEdit>(dialog, "sourcePrometheusLineEdit")
        ->setText(QStringLiteral("http://prometheus.monitoring:9090/"));
    const core::SourceConfig config = dialog.config();
    EXPECT_EQ(config.kind, core::SourceKind::Kubernetes);
    EXPECT_EQ(config.kubeconfig, QStringLiteral("/home/me/.kube/dgx.yaml"));
    EXPECT_EQ(config.kubeContext, QStringLiteral("prod"));
    EXPECT_TRUE(config.url.isEmpty());
    EXPECT_TRUE(config.username.isEmpty());
    EXPECT_EQ(config.password.kind, core::SecretRef::Kind::None);
    EXPECT_EQ(config.prometheusUrl, QStringLiteral("http://prometheus.monitoring:9090"));
    EXPECT_TRUE(dialog.password().isEmpty());

    // A re-read keeps the user's choice when the file still has it.
    dialog.setContexts({QStringLiteral("prod"), QStringLiteral("dgx-admin")}, QStringLiteral("dgx-admin"), {});
    EXPECT_EQ(context->currentText(), QStringLiteral("prod"));

    QSignalSpy test(&dialog, &views::SourceDialog::testRequested);
    QTest::mouseClick(childSourcedialogKube<QPushButton>(dialog, "sourceTestButton"), Qt::LeftButton);
    ASSERT_EQ(test.count(), 1);
    EXPECT_EQ(test.at(0).at(0).value<core::SourceConfig>().kubeContext, QStringLiteral("prod"));
}

TEST(SourceDialogKubernetes, UrlAndTokenMakeTheConfigAndTheTokenStaysOut)
{
    views::SourceDialog dialog({});
    dialog.show();
    childSourcedialogKube<QLineEdit>(dialog, "sourceNameLineEdit")->setText(QStringLiteral("dgx"));
    chooseKubernetes(dialog);
    auto *connectWith = childSourcedialogKube<QComboBox>(dialog, "sourceConnectComboBox");
    connectWith->setCurrentIndex(connectWith->findData(QStringLiteral("url")));
    auto *url = childSourcedialogKube<QLineEdit>(dialog, "sourceUrlLineEdit");
    auto *token = childSourcedialogKube<QLineEdit>(dialog, "sourcePasswordLineEdit");
    url->setText(QStringLiteral("https://api.dgx.example.com:6443/"));
    EXPECT_FALSE(okButtonSourcedialogKube(dialog)->isEnabled()) << "accepted without a token";
    token->setText(QStringLiteral("eyJhbGciOi-token"));
    childSourcedialogKube<QLineEdit>(dialog, "sourceCaFileLineEdit")->setText(QStringLiteral("/etc/dgx/ca.crt"));
    EXPECT_TRUE(okButtonSourcedialogKube(dialog)->isEnabled()) << dialog.validationError().toStdString();

    const core::SourceConfig config = dialog.config();
    EXPECT_EQ(config.kind, core::SourceKind::Kubernetes);
    EXPECT_EQ(config.url, QStringLiteral("https://api.dgx.example.com:6443"));
    EXPECT_EQ(config.caFile, QStringLiteral("/etc/dgx/ca.crt"));
    EXPECT_TRUE(config.kubeconfig.isEmpty());
    EXPECT_TRUE(config.kubeContext.isEmpty());
    EXPECT_TRUE(config.username.isEmpty());
    EXPECT_EQ(dialog.password(), QStringLiteral("eyJhbGciOi-token"));
    core::AppConfig app;
    app.sources << config;
    EXPECT_FALSE(app.toJson().contains("eyJhbGciOi-token"));

    url->setText(QStringLiteral("api.dgx.example.com:6443"));
    EXPECT_FALSE(okButtonSourcedialogKube(dialog)->isEnabled());
}

TEST(SourceDialogKubernetes, BadPrometheusUrlIsRefused)
{
    views::SourceDialog dialog({});
    dialog.show();
    childSourcedialogKube<QLineEdit>(dialog, "sourceNameLineEdit")->setText(QStringLiteral("dgx"));
    chooseKubernetes(dialog);
    dialog.setContexts({QStringLiteral("dgx")}, QStringLiteral("dgx"), {});
    ASSERT_TRUE(okButtonSourcedialogKube(dialog)->isEnabled()) << dialog.validationError().toStdString();
    auto *prometheus = childSourcedialogKube<QLineEdit>(dialog, "sourcePrometheusLineEdit");
    for (const QString &bad :
         {QStringLiteral("prometheus:9090"), QStringLiteral("ftp://prometheus:9090"), QStringLiteral("http://")}) {
        prometheus->setText(bad);
        EXPECT_FALSE(okButtonSourcedialogKube(dialog)->isEnabled()) << bad.toStdString();
        EXPECT_TRUE(dialog.validationError().contains(QStringLiteral("Prometheus")))
            << dialog.validationError().toStdString();
    }
    prometheus->setText(QStringLiteral("https://rancher.example.com/k8s/clusters/c-1/prometheus"));
    EXPECT_TRUE(okButtonSourcedialogKube(dialog)->isEnabled()) << dialog.validationError().toStdString();
    prometheus->clear();
    EXPECT_TRUE(okButtonSourcedialogKube(dialog)->isEnabled()) << "Prometheus is optional";
}

TEST(SourceDialogKubernetes, EditKeepsTheStoredContextAndToken)
{
    core::SourceConfig kc;
    kc.name = QStringLiteral("dgx");
    kc.kind = core::SourceKind::Kubernetes;
    kc.kubeconfig = QStringLiteral("/home/me/.kube/config");
    kc.kubeContext = QStringLiteral("prod");
    kc.prometheusUrl = QStringLiteral("http://prom:9090");
    {
        views::SourceDialog dialog({kc.name});
        QSignalSpy wanted(&dialog, &views::SourceDialog::contextsWanted);
        dialog.setSource(kc);
        dialog.show();
        ASSERT_GE(wanted.count(), 1);
        EXPECT_EQ(wanted.last().at(0).toString(), kc.kubeconfig);
        dialog.setContexts({QStringLiteral("lab"), QStringLiteral("prod")}, QStringLiteral("lab"), {});
        EXPECT_EQ(dialog.config(), kc) << "the stored context was replaced by current-context";
        EXPECT_TRUE(okButtonSourcedialogKube(dialog)->isEnabled()) << dialog.validationError().toStdString();

        // The file lost the context: keep it visible and refuse, never switch clusters silently.
        dialog.setContexts({QStringLiteral("lab")}, QStringLiteral("lab"), {});
        EXPECT_EQ(dialog.config().kubeContext, QStringLiteral("prod"));
        EXPECT_FALSE(okButtonSourcedialogKube(dialog)->isEnabled());
    }

    core::SourceConfig url;
    url.name = QStringLiteral("dgx");
    url.kind = core::SourceKind::Kubernetes;
    url.url = QStringLiteral("https://api.dgx:6443");
    url.password = {core::SecretRef::Kind::Keychain, core::credentialKey(url.name)};
    views::SourceDialog dialog({url.name});
    dialog.setSource(url);
    dialog.show();
    EXPECT_TRUE(childSourcedialogKube<QLineEdit>(dialog, "sourcePasswordLineEdit")->isVisible());
    EXPECT_TRUE(okButtonSourcedialogKube(dialog)->isEnabled()) << dialog.validationError().toStdString();
    EXPECT_EQ(dialog.config(), url);
}
