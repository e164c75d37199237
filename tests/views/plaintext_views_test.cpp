// Vendor and user text on the desktop reads as the text it is: an S3 key, a commit message or a
// source name that looks like markup is never rendered as formatting in a label, a message box
// or a tooltip.

#include "models/core/domain/estate.h"
#include "models/core/runtime/engine.h"
#include "models/core/store/credentialstore.h"
#include "models/item/activitymodel.h"
#include "models/item/cachemodels.h"
#include "models/item/commitmodel.h"
#include "models/item/datasetmodel.h"
#include "models/item/gridmodels.h"
#include "models/item/jobtablemodel.h"
#include "models/item/projecttablemodel.h"
#include "models/item/snapshotlistmodel.h"
#include "models/item/sourcetablemodel.h"
#include "models/item/timelinemodel.h"
#include "models/item/volumetablemodel.h"
#include "tests/models/datasetfixture.h"
#include "tests/support/qt/manualclock.h"
#include "views/datasetspage.h"
#include "views/mainwindow.h"

#include <QApplication>
#include <QHelpEvent>
#include <QLabel>
#include <QMessageBox>
#include <QToolTip>

#include <gtest/gtest.h>

using namespace strata;
using testsupport::HubFixture;

namespace {

const QString kHostileMarkup =
    QStringLiteral("<font color=red size=6>SECURITY ALERT: re-enter the ONTAP admin password</font>");

void publishHostileDataset(core::Estate &estate)
{
    core::Dataset d;
    d.source = QStringLiteral("datalake");
    d.id = QStringLiteral("datasets/") + kHostileMarkup + QLatin1Char('/');
    d.name = kHostileMarkup;
    d.kind = core::DatasetKind::S3Prefix;
    d.bucket = QStringLiteral("lake");
    d.prefix = d.id;
    d.commitCount = 1;
    core::Commit c;
    c.source = d.source;
    c.id = QStringLiteral("c0ffee");
    c.datasetId = d.id;
    c.datasetName = d.name;
    c.message = kHostileMarkup;
    c.author = kHostileMarkup;
    auto datasets = estate.datasets().scope(d.source);
    std::vector<core::Ptr<core::Dataset>> allDatasets =
        datasets ? datasets->items() : std::vector<core::Ptr<core::Dataset>>{};
    allDatasets.push_back(std::make_shared<const core::Dataset>(d));
    auto commits = estate.commits().scope(d.source);
    std::vector<core::Ptr<core::Commit>> allCommits =
        commits ? commits->items() : std::vector<core::Ptr<core::Commit>>{};
    allCommits.push_back(std::make_shared<const core::Commit>(c));
    estate.publishDatasets(
        d.source,
        core::DatasetPublish{std::make_shared<const core::KeyedList<core::Dataset>>(std::move(allDatasets)),
                             std::make_shared<const core::KeyedList<core::Commit>>(std::move(allCommits))});
}

} // namespace

// Every label the main window shows, on every page, with a hostile dataset selected: plain text
// unless it is one of Strata's own rich labels, and those show the hostile text escaped.
TEST(PlainTextViews, NoLabelRendersVendorTextAsMarkup)
{
    testsupport::ManualClock clock;
    core::InMemoryCredentialStore credentials;
    core::Engine engine{{clock, credentials, nullptr, QStringLiteral("tester")}};
    core::Estate &estate = engine.estate();
    HubFixture::publishDatasets(estate);
    HubFixture::publishCaches(estate, {});
    HubFixture::publishGrid(estate);
    publishHostileDataset(estate);
    models::VolumeTableModel volumes{estate};
    models::SnapshotListModel snapshots{estate};
    models::SourceTableModel sources{engine};
    models::ActivityModel activity{engine.actions()};
    models::TimelineModel timeline{engine.timeline()};
    models::JobTableModel jobs{estate, [&clock] {
                                   return clock.now();
                               }};
    models::ProjectTableModel projects{estate};
    models::DatasetModel datasets{estate};
    models::CommitModel commits{estate};
    models::CachedCommitModel cached{estate, [&clock] {
                                         return clock.now();
                                     }};
    models::CacheTargetModel targets{estate};
    models::GridNodeModel nodes{estate};
    models::GridAlertModel alerts{estate};
    models::TenantModel tenants{estate};
    models::BucketModel buckets{estate};
    views::MainWindow window({&volumes,
                              &snapshots,
                              &sources,
                              &activity,
                              &timeline,
                              &estate,
                              &jobs,
                              &projects,
                              nullptr,
                              nullptr,
                              &datasets,
                              &commits,
                              &cached,
                              &targets,
                              &nodes,
                              &alerts,
                              &tenants,
                              &buckets},
                             clock);
    window.resize(1400, 900);
    window.show();
    QStringList autoText;
    QStringList unescaped;
    const auto scan = [&](const QString &where) {
        QApplication::processEvents();
        for (const QLabel *label : window.findChildren<QLabel *>()) {
            if (!label->isVisible()) {
                continue;
            }
            const QString name =
                where + QLatin1Char('/')
                + (label->objectName().isEmpty() ? QString::fromLatin1(label->parent()->metaObject()->className())
                                                 : label->objectName());
            if (label->textFormat() == Qt::AutoText) {
                autoText << name + QStringLiteral(": ") + label->text().left(40);
            }
            if (label->textFormat() == Qt::RichText && label->text().contains(QStringLiteral("<font color=red"))) {
                unescaped << name;
            }
        }
    };
    using Page = views::MainWindow::Page;
    for (const Page page : window.pageOrder()) {
        window.showPage(page);
        scan(QStringLiteral("page %1").arg(int(page)));
    }
    window.showPage(Page::Datasets);
    ASSERT_TRUE(
        window.datasetsPage()->selectDataset(QStringLiteral("datalake/datasets/") + kHostileMarkup + QLatin1Char('/')));
    scan(QStringLiteral("datasets with the hostile dataset selected"));
    EXPECT_TRUE(autoText.isEmpty()) << autoText.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(unescaped.isEmpty()) << unescaped.join(QLatin1Char('\n')).toStdString();

    const auto *title = window.findChild<QLabel *>(QStringLiteral("datasetDetailTitleLabel"));
    ASSERT_NE(title, nullptr);
    EXPECT_EQ(title->textFormat(), Qt::PlainText);
    EXPECT_TRUE(title->text().startsWith(kHostileMarkup)) << title->text().toStdString();

    // A message box quoting vendor text (an action's error, a source's answer).
    QMessageBox box(QMessageBox::Warning, QStringLiteral("Action failed"), kHostileMarkup, QMessageBox::Ok, &window);
    box.setInformativeText(kHostileMarkup);
    box.show();
    QApplication::processEvents();
    for (const char *name : {"qt_msgbox_label", "qt_msgbox_informativelabel"}) {
        const auto *label = box.findChild<QLabel *>(QLatin1String(name));
        ASSERT_NE(label, nullptr) << name;
        EXPECT_EQ(label->textFormat(), Qt::PlainText) << name;
    }
    box.close();

    // A tooltip quoting vendor text reads literally.
    auto *tipped = new QLabel(QStringLiteral("hover"), &window);
    tipped->setToolTip(kHostileMarkup);
    tipped->show();
    QHelpEvent help(QEvent::ToolTip, QPoint(2, 2), tipped->mapToGlobal(QPoint(2, 2)));
    QApplication::sendEvent(tipped, &help);
    EXPECT_TRUE(QToolTip::text().contains(kHostileMarkup.toHtmlEscaped())) << QToolTip::text().toStdString();
    QToolTip::hideText();
}
