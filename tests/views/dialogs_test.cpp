#include "models/core/runtime/sourceadmin.h"
#include "models/core/services/actions.h"
#include "models/core/store/config.h"
#include "views/actiondialog.h"
#include "views/sourcedialog.h"
#include "views/statusdelegate.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

using namespace strata;

namespace {

/// A preview like OntapSource's: names must be new and valid.
core::ActionPreview fakePreview(const core::ActionRequest &r)
{
    core::ActionPreview p;
    p.title = QStringLiteral("Create snapshot");
    p.target = QStringLiteral("svm/vol@") + r.name;
    p.fromState = QStringLiteral("2 snapshots");
    p.toState = QStringLiteral("3 snapshots");
    p.effects << QStringLiteral("ONTAP takes a snapshot.");
    if (r.kind == core::ActionKind::SnapshotDelete || r.kind == core::ActionKind::SnapshotRestore) {
        p.destructive = true;
        p.warnings << QStringLiteral("The snapshot cannot be recovered once deleted.");
    }
    if (r.kind == core::ActionKind::SnapshotCreate && r.name == QLatin1String("daily.0")) {
        p.blockedReason = QStringLiteral("vol already has a snapshot named \"daily.0\".");
    }
    return p;
}

QPushButton *okButton(QDialog &dialog)
{
    return dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
}

} // namespace

TEST(ActionDialog, Create_ValidatesNameLiveThroughThePreview)
{
    core::ActionRequest request;
    request.kind = core::ActionKind::SnapshotCreate;
    request.source = QStringLiteral("s");
    request.volumeId = QStringLiteral("v");
    request.name = QStringLiteral("strata_2026-11-22_1530");
    views::ActionDialog dialog(request, fakePreview);
    dialog.show();
    auto *name = dialog.findChild<QLineEdit *>(QStringLiteral("snapshotNameLineEdit"));
    ASSERT_TRUE(name);
    EXPECT_EQ(name->text(), QStringLiteral("strata_2026-11-22_1530"));
    EXPECT_TRUE(okButton(dialog)->isEnabled());
    EXPECT_EQ(okButton(dialog)->text(), QStringLiteral("Create"));
    EXPECT_EQ(dialog.findChild<QLabel *>(QStringLiteral("actionChangeLabel"))->text(),
              QStringLiteral("2 snapshots  →  3 snapshots"));

    name->setText(QStringLiteral("daily.0"));
    EXPECT_FALSE(okButton(dialog)->isEnabled());
    auto *blocked = dialog.findChild<QLabel *>(QStringLiteral("actionBlockedLabel"));
    EXPECT_TRUE(blocked->isVisible());
    EXPECT_TRUE(blocked->text().contains(QStringLiteral("already has a snapshot")));
    name->setText(QString());
    EXPECT_FALSE(okButton(dialog)->isEnabled());

    name->setText(QStringLiteral("before_upgrade"));
    dialog.findChild<QLineEdit *>(QStringLiteral("snapshotCommentLineEdit"))->setText(QStringLiteral("pre 9.15"));
    EXPECT_FALSE(blocked->isVisible());
    QSignalSpy confirmed(&dialog, &views::ActionDialog::confirmed);
    QTest::mouseClick(okButton(dialog), Qt::LeftButton);
    ASSERT_EQ(confirmed.count(), 1);
    const auto sent = confirmed.at(0).at(0).value<core::ActionRequest>();
    EXPECT_EQ(sent.name, QStringLiteral("before_upgrade"));
    EXPECT_EQ(sent.comment, QStringLiteral("pre 9.15"));
    EXPECT_EQ(dialog.result(), QDialog::Accepted);
}

TEST(ActionDialog, Delete_RequiresTypingTheSnapshotName)
{
    core::ActionRequest request;
    request.kind = core::ActionKind::SnapshotDelete;
    request.source = QStringLiteral("s");
    request.volumeId = QStringLiteral("v");
    request.snapshotId = QStringLiteral("snap-id");
    views::ActionDialog dialog(request, fakePreview, QStringLiteral("daily.0"));
    dialog.show();
    auto *confirm = dialog.findChild<QLineEdit *>(QStringLiteral("confirmNameLineEdit"));
    ASSERT_TRUE(confirm);
    EXPECT_FALSE(okButton(dialog)->isEnabled());
    EXPECT_FALSE(okButton(dialog)->isDefault()); // Enter must not delete
    EXPECT_TRUE(dialog.findChild<QLabel *>(QStringLiteral("actionWarningsLabel"))->isVisible());
    QTest::keyClicks(confirm, QStringLiteral("daily."));
    EXPECT_FALSE(okButton(dialog)->isEnabled());
    QTest::keyClicks(confirm, QStringLiteral("0"));
    EXPECT_TRUE(okButton(dialog)->isEnabled());
    EXPECT_EQ(okButton(dialog)->text(), QStringLiteral("Delete"));
    QSignalSpy confirmed(&dialog, &views::ActionDialog::confirmed);
    dialog.accept();
    EXPECT_EQ(confirmed.count(), 1);
}

TEST(SourceDialog, Add_KeepsThePasswordOutOfTheConfig)
{
    views::SourceDialog dialog({QStringLiteral("existing")});
    dialog.show();
    auto *name = dialog.findChild<QLineEdit *>(QStringLiteral("sourceNameLineEdit"));
    auto *url = dialog.findChild<QLineEdit *>(QStringLiteral("sourceUrlLineEdit"));
    auto *user = dialog.findChild<QLineEdit *>(QStringLiteral("sourceUsernameLineEdit"));
    auto *password = dialog.findChild<QLineEdit *>(QStringLiteral("sourcePasswordLineEdit"));
    ASSERT_TRUE(name && url && user && password);
    EXPECT_EQ(password->echoMode(), QLineEdit::Password);
    EXPECT_FALSE(okButton(dialog)->isEnabled());

    name->setText(QStringLiteral("existing"));
    url->setText(QStringLiteral("https://cluster1.example.com/"));
    user->setText(QStringLiteral("admin"));
    password->setText(QStringLiteral("s3cret"));
    EXPECT_FALSE(okButton(dialog)->isEnabled()) << "duplicate name accepted";
    name->setText(QStringLiteral("bad name"));
    EXPECT_FALSE(okButton(dialog)->isEnabled());
    name->setText(QStringLiteral("cluster1"));
    url->setText(QStringLiteral("cluster1"));
    EXPECT_FALSE(okButton(dialog)->isEnabled()) << dialog.validationError().toStdString();
    url->setText(QStringLiteral("https://cluster1.example.com/"));
    EXPECT_TRUE(okButton(dialog)->isEnabled()) << dialog.validationError().toStdString();

    auto *insecure = dialog.findChild<QCheckBox *>(QStringLiteral("sourceInsecureCheckBox"));
    auto *warning = dialog.findChild<QLabel *>(QStringLiteral("sourceInsecureWarningLabel"));
    EXPECT_FALSE(warning->isVisible());
    insecure->setChecked(true);
    EXPECT_TRUE(warning->isVisible());

    const core::SourceConfig config = dialog.config();
    EXPECT_EQ(config.name, QStringLiteral("cluster1"));
    EXPECT_EQ(config.url, QStringLiteral("https://cluster1.example.com"));
    EXPECT_TRUE(config.insecureSkipTlsVerify);
    EXPECT_EQ(config.password.kind, core::SecretRef::Kind::None);
    core::AppConfig app;
    app.sources << config;
    EXPECT_FALSE(app.toJson().contains("s3cret"));
    EXPECT_EQ(dialog.password(), QStringLiteral("s3cret"));

    QSignalSpy test(&dialog, &views::SourceDialog::testRequested);
    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("sourceTestButton")), Qt::LeftButton);
    ASSERT_EQ(test.count(), 1);
    EXPECT_EQ(test.at(0).at(1).toString(), QStringLiteral("s3cret"));
    dialog.setTestResult(false, QStringLiteral("TLS handshake failed"));
    EXPECT_EQ(dialog.findChild<QLabel *>(QStringLiteral("sourceTestResultLabel"))->text(),
              QStringLiteral("TLS handshake failed"));
}

TEST(SourceDialog, Edit_EmptyPasswordKeepsTheStoredOne)
{
    core::SourceConfig existing;
    existing.name = QStringLiteral("ontap-ai");
    existing.url = QStringLiteral("https://10.0.0.1");
    existing.username = QStringLiteral("admin");
    existing.password = {core::SecretRef::Kind::Keychain, core::credentialKey(QStringLiteral("ontap-ai"))};
    existing.configIntervalSeconds = 300;
    views::SourceDialog dialog({QStringLiteral("ontap-ai")});
    dialog.setSource(existing);
    dialog.show();
    EXPECT_TRUE(dialog.isEdit());
    EXPECT_TRUE(dialog.findChild<QLineEdit *>(QStringLiteral("sourceNameLineEdit"))->isReadOnly());
    EXPECT_TRUE(okButton(dialog)->isEnabled()) << dialog.validationError().toStdString();
    EXPECT_TRUE(dialog.password().isEmpty());
    EXPECT_EQ(dialog.config(), existing);
}

// Editing only the URL (or turning TLS verification off) would have tested
// with and saved the stored password for the new host.
TEST(SourceDialog, Edit_ChangedEndpointNeedsThePasswordAgain)
{
    core::SourceConfig existing;
    existing.name = QStringLiteral("ontap-ai");
    existing.url = QStringLiteral("https://10.0.0.1");
    existing.username = QStringLiteral("admin");
    existing.password = {core::SecretRef::Kind::Keychain, core::credentialKey(QStringLiteral("ontap-ai"))};
    views::SourceDialog dialog({QStringLiteral("ontap-ai")});
    dialog.setSource(existing);
    dialog.show();
    auto *url = dialog.findChild<QLineEdit *>(QStringLiteral("sourceUrlLineEdit"));
    auto *password = dialog.findChild<QLineEdit *>(QStringLiteral("sourcePasswordLineEdit"));
    auto *insecure = dialog.findChild<QCheckBox *>(QStringLiteral("sourceInsecureCheckBox"));
    ASSERT_TRUE(url && password && insecure);

    url->setText(QStringLiteral("https://10.0.0.2"));
    EXPECT_FALSE(okButton(dialog)->isEnabled());
    EXPECT_EQ(dialog.validationError(),
              QStringLiteral("the url of ontap-ai now points at https://10.0.0.2, so its password must be given again "
                             "(a stored secret never follows a changed endpoint or TLS setting)"));
    QSignalSpy test(&dialog, &views::SourceDialog::testRequested);
    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("sourceTestButton")), Qt::LeftButton);
    EXPECT_EQ(test.count(), 0) << "the stored password would be tested against the new host";
    EXPECT_EQ(dialog.findChild<QLabel *>(QStringLiteral("sourceTestResultLabel"))->text(), dialog.validationError());
    dialog.accept();
    EXPECT_NE(dialog.result(), QDialog::Accepted);

    password->setText(QStringLiteral("typed-again"));
    EXPECT_TRUE(okButton(dialog)->isEnabled()) << dialog.validationError().toStdString();

    password->clear();
    url->setText(QStringLiteral("https://10.0.0.1/"));
    EXPECT_TRUE(okButton(dialog)->isEnabled()) << dialog.validationError().toStdString();
    insecure->setChecked(true);
    EXPECT_FALSE(okButton(dialog)->isEnabled());
    EXPECT_TRUE(dialog.validationError().startsWith(QStringLiteral("ontap-ai now skips TLS verification")));
}

// The dialog shows SourceAdmin's sentences under their fields, the same the web console
// answers for the same input (tests/web/sources_test.cpp, BadInputGetsTheDialogsFieldMessages...).
TEST(SourceDialog, BadInputShowsTheWebConsolesMessagesUnderTheirFields)
{
    views::SourceDialog dialog({});
    dialog.show();
    dialog.findChild<QLineEdit *>(QStringLiteral("sourceNameLineEdit"))->setText(QStringLiteral("lab"));
    dialog.findChild<QLineEdit *>(QStringLiteral("sourceUrlLineEdit"))->setText(QStringLiteral("cluster1"));
    QStringList fields;
    QStringList messages;
    for (const core::Error &e : dialog.fieldErrors()) {
        fields << e.field;
        messages << e.message;
    }
    EXPECT_EQ(fields, (QStringList{QStringLiteral("url"), QStringLiteral("username"), QStringLiteral("password")}));
    EXPECT_EQ(messages,
              (QStringList{QStringLiteral("The URL must look like https://cluster-mgmt.example.com."),
                           QStringLiteral("Enter a username."),
                           QStringLiteral("Enter the password.")}));
    auto *urlError = dialog.findChild<QLabel *>(QStringLiteral("sourceFieldError_url"));
    ASSERT_NE(urlError, nullptr);
    EXPECT_TRUE(urlError->isVisible());
    EXPECT_EQ(urlError->text(), messages.first());
    EXPECT_TRUE(dialog.findChild<QLabel *>(QStringLiteral("sourceFieldError_password"))->isVisible());
    // Shown under the field, not once more under the form.
    EXPECT_FALSE(dialog.findChild<QLabel *>(QStringLiteral("sourceValidationLabel"))->isVisible());
    EXPECT_FALSE(dialog.findChild<QLabel *>(QStringLiteral("sourceFieldError_s3_url"))->isVisible());

    dialog.findChild<QLineEdit *>(QStringLiteral("sourceUrlLineEdit"))->setText(QStringLiteral("https://cluster1"));
    EXPECT_FALSE(urlError->isVisible());
}

TEST(StatusDelegate, ColoursFollowLightAndDarkPalettes)
{
    QPalette light;
    light.setColor(QPalette::Window, QColor(0xf0, 0xf0, 0xf0));
    light.setColor(QPalette::Base, Qt::white);
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    EXPECT_FALSE(views::StatusDelegate::isDark(light));
    EXPECT_TRUE(views::StatusDelegate::isDark(dark));
    const QColor lightCritical = views::StatusDelegate::colorFor(QStringLiteral("critical"), light);
    const QColor darkCritical = views::StatusDelegate::colorFor(QStringLiteral("critical"), dark);
    ASSERT_TRUE(lightCritical.isValid());
    ASSERT_TRUE(darkCritical.isValid());
    // Readable on each background: darker red on light, lighter red on dark.
    EXPECT_LT(lightCritical.lightness(), darkCritical.lightness());
    EXPECT_NE(views::StatusDelegate::colorFor(QStringLiteral("warning"), light), lightCritical);
    EXPECT_FALSE(views::StatusDelegate::colorFor(QStringLiteral("ok"), light).isValid()); // keep the text colour
    EXPECT_TRUE(views::StatusDelegate::colorFor(QStringLiteral("ok"), light, true).isValid());
    EXPECT_EQ(views::StatusDelegate::colorFor(QStringLiteral("offline"), dark),
              dark.color(QPalette::Disabled, QPalette::Text));
}

TEST(StatusDelegate, ReEvaluatesOnPaletteChange)
{
    QTableView view;
    auto *delegate = new views::StatusDelegate(&view);
    view.setItemDelegate(delegate);
    QPalette dark = view.palette();
    dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x20));
    const int before = delegate->paletteGeneration();
    view.setPalette(dark);
    EXPECT_GT(delegate->paletteGeneration(), before);
    EXPECT_TRUE(delegate->darkPalette());
    QPalette light = view.palette();
    light.setColor(QPalette::Window, QColor(0xee, 0xee, 0xee));
    view.setPalette(light);
    EXPECT_FALSE(delegate->darkPalette());
}
