#include "models/core/domain/fieldschema.h"
#include "models/core/planning/jobfields.h"
#include "models/core/planning/volumefields.h"
#include "models/core/runtime/bundle.h"
#include "models/item/jobtablemodel.h"
#include "models/item/volumetablemodel.h"
#include "models/rows/computerows.h"
#include "models/rows/resources.h"

#include <gtest/gtest.h>

#include <variant>

using namespace strata;

namespace {

core::Volume offlineVolume()
{
    core::Volume v;
    v.source = QStringLiteral("c1");
    v.id = QStringLiteral("uuid-1");
    v.name = QStringLiteral("vol1");
    v.state = QStringLiteral("offline");
    v.sizeBytes = qint64(100) << 30;
    return v;
}

const QDateTime kJobNow(QDate(2026, 3, 1), QTime(12, 0), Qt::UTC);

core::Job fieldTestJob(const QString &name, core::JobStatus status)
{
    core::Job j;
    j.source = QStringLiteral("k8s");
    j.namespaceName = QStringLiteral("runai-team-a");
    j.id = j.namespaceName + QLatin1Char('/') + name;
    j.name = name;
    j.project = QStringLiteral("team-a");
    j.status = status;
    j.gpusRequested = 500;
    j.created = kJobNow.addSecs(-(2 * 3600 + 5 * 60));
    j.image = QStringLiteral("nvcr.io/nvidia/pytorch:24.05-py3");
    return j;
}

/// A running job at 87.34 % utilisation, a queued one, a placed one whose image cannot be
/// pulled and a finished one: every way a job's figures read differently.
std::vector<core::Ptr<core::Job>> fieldTestJobs()
{
    core::Job running = fieldTestJob(QStringLiteral("train-a"), core::JobStatus::Running);
    running.gpusAllocated = 500;
    running.node = QStringLiteral("dgx-1");
    running.started = kJobNow.addSecs(-192);
    running.gpuUtilization = 87.34;
    running.createdByCli = true;
    running.user = QStringLiteral("alice");
    core::Job queued = fieldTestJob(QStringLiteral("train-b"), core::JobStatus::Preempted);
    queued.gpusRequested = 2000;
    queued.type = core::JobType::Interactive;
    queued.pendingReason = QStringLiteral("preempted by team-b reclaiming its quota");
    core::Job pulling = fieldTestJob(QStringLiteral("serve-c"), core::JobStatus::ContainerCreating);
    pulling.gpusAllocated = 500;
    pulling.node = QStringLiteral("dgx-2");
    pulling.pendingReason = QStringLiteral("ImagePullBackOff: Back-off pulling image");
    pulling.failureReason = QStringLiteral("ImagePullBackOff");
    core::Job done = fieldTestJob(QStringLiteral("eval-d"), core::JobStatus::Succeeded);
    done.started = kJobNow.addSecs(-4 * 86400);
    done.finished = kJobNow.addSecs(-86400 + 3600);
    done.created = kJobNow.addSecs(-5 * 86400);
    std::vector<core::Ptr<core::Job>> jobs;
    for (const core::Job &j : {running, queued, pulling, done}) {
        jobs.push_back(std::make_shared<const core::Job>(j));
    }
    return jobs;
}

/// The keys of the fields of `fields` that a bundle stores (those with a stored member).
template <class Row> QStringList storedKeys(std::span<const core::Field<Row>> fields)
{
    QStringList out;
    for (const core::Field<Row> &f : fields) {
        if (!std::holds_alternative<std::monostate>(f.stored)) {
            out.append(QString::fromLatin1(f.key));
        }
    }
    return out;
}

} // namespace

TEST(FieldSchema, EachKindWritesItsFigureAndAnUnknownOneAsADash)
{
    EXPECT_EQ(core::fieldText(core::FieldKind::Bytes, QVariant(qint64(250) << 30)), QStringLiteral("250 GiB"));
    EXPECT_EQ(core::fieldText(core::FieldKind::Percent, QVariant(87.34)), QStringLiteral("87.3 %"));
    EXPECT_EQ(core::fieldText(core::FieldKind::Rate, QVariant(10.0 * 1024 * 1024)), QStringLiteral("10.0 MiB/s"));
    EXPECT_EQ(core::fieldText(core::FieldKind::Latency, QVariant(420.0)), QStringLiteral("0.42 ms"));
    EXPECT_EQ(core::fieldText(core::FieldKind::Flag, QVariant(true)), QStringLiteral("yes"));
    for (const core::FieldKind kind : {core::FieldKind::Bytes, core::FieldKind::Percent, core::FieldKind::Count}) {
        EXPECT_EQ(core::fieldText(kind, QVariant()), QString::fromUtf16(core::kUnknownText));
    }
    EXPECT_EQ(core::fieldText(core::FieldKind::Text, QVariant()), QString());
}

TEST(FieldSchema, UnknownSortsFirstFiguresByValueTextWithoutCase)
{
    EXPECT_LT(core::compareFieldValues(QVariant(), QVariant(qint64(0))), 0);
    EXPECT_GT(core::compareFieldValues(QVariant(qint64(10)), QVariant(qint64(9))), 0);
    EXPECT_LT(core::compareFieldValues(QVariant(9.5), QVariant(qint64(10))), 0);
    EXPECT_LT(core::compareFieldValues(QVariant(QStringLiteral("alpha")), QVariant(QStringLiteral("Beta"))), 0);
    EXPECT_EQ(core::compareFieldValues(QVariant(QStringLiteral("a")), QVariant(QStringLiteral("a"))), 0);
}

TEST(FieldSchema, TheDesktopColumnsAndTheListingAreTheSameFieldsInTheSameOrder)
{
    // Every desktop column that is also listed appears in the listing's order, under the
    // listing's key, and the listing has exactly the Listed fields.
    const core::Volume v = offlineVolume();
    const rows::ResultSet rs = rows::volumeRows({std::make_shared<const core::Volume>(v)});
    QStringList listed;
    for (const core::Field<core::VolumeRow> &f : core::volumeFields()) {
        if (f.surfaces & core::Listed) {
            listed.append(QString::fromLatin1(f.key));
        }
    }
    QStringList keys;
    for (const rows::ResultSet::Column &c : rs.columns) {
        keys.append(c.key);
    }
    EXPECT_EQ(keys, listed);
    int last = -1;
    for (int c = 0; c < models::VolumeTableModel::ColumnCount; ++c) {
        const int at = keys.indexOf(QString::fromLatin1(models::VolumeTableModel::field(c)->key));
        if (at >= 0) {
            EXPECT_GT(at, last) << models::VolumeTableModel::field(c)->key;
            last = at;
        }
    }
    // What the CLI shows for the offline volume's unknown space is what the desktop shows.
    core::Estate estate;
    estate.publishVolumes(QStringLiteral("c1"),
                          std::make_shared<const core::KeyedList<core::Volume>>(
                              std::vector<core::Ptr<core::Volume>>{std::make_shared<const core::Volume>(v)}));
    models::VolumeTableModel model(estate);
    ASSERT_EQ(model.rowCount(), 1);
    const int usedAt = keys.indexOf(QStringLiteral("used_bytes"));
    EXPECT_EQ(rs.display.at(0).at(usedAt), model.index(0, models::VolumeTableModel::Used).data().toString());
    EXPECT_EQ(rs.display.at(0).at(usedAt), QString::fromUtf16(core::kUnknownText));
    EXPECT_TRUE(rs.values.at(0).at(usedAt).isNull());
    EXPECT_EQ(model.headerData(models::VolumeTableModel::Size, Qt::Horizontal, Qt::ToolTipRole).toString(),
              QStringLiteral("Provisioned size, snapshot reserve included"));
}

TEST(FieldSchema, TheWebGetsEveryListedFieldWithItsKind)
{
    const std::optional<QJsonArray> fields = rows::resourceFields(QStringLiteral("volumes"));
    ASSERT_TRUE(fields.has_value());
    EXPECT_EQ(fields->size(), core::fieldCount(core::volumeFields(), core::Listed));
    EXPECT_EQ(fields->at(0).toObject().value(QLatin1String("key")).toString(), QStringLiteral("name"));
    EXPECT_FALSE(rows::resourceFields(QStringLiteral("pvcs")).has_value());
}

TEST(FieldSchema, ABundleStoresEveryStoredFieldOfAVolumeUnderItsKeyAndReadsItBack)
{
    core::Volume v = offlineVolume();
    v.state = QStringLiteral("online");
    v.usedBytes = qint64(40) << 30;
    v.availableBytes = qint64(55) << 30;
    v.percentUsed = 42.1;
    v.snapshotReservePercent = 5;
    v.snapshotUsedBytes = qint64(3) << 30;
    v.created = QDateTime(QDate(2026, 3, 1), QTime(12, 0), Qt::UTC);
    v.armId = QStringLiteral("/subscriptions/s/resourceGroups/rg/providers/Microsoft.NetApp/x");
    v.throughputMibps = 64.0;
    v.isFlexCache = true;
    const QJsonObject json = core::recordToJson(v);
    const QStringList stored = storedKeys(core::volumeFields());
    for (const QString &key : json.keys()) {
        EXPECT_TRUE(stored.contains(key)) << key.toStdString() << " is stored without a field";
    }
    EXPECT_EQ(json.value(QLatin1String("style")).toString(), v.style) << "the member, not the shown text";
    EXPECT_EQ(json.value(QLatin1String("snapshot_used_bytes")).toInteger(), v.snapshotUsedBytes);
    const core::Result<core::Volume> back = core::recordFromJson<core::Volume>(json);
    ASSERT_TRUE(back.hasValue());
    EXPECT_EQ(*back, v);
}

TEST(JobFields, ABundleStoresEveryMemberOfAJobUnderItsFieldsKeyAndReadsItBack)
{
    // Every member set, so a member the field list does not store is lost on the way back.
    core::Job job = fieldTestJob(QStringLiteral("train-a"), core::JobStatus::Running);
    job.user = QStringLiteral("alice");
    job.type = core::JobType::Interactive;
    job.gpusRequested = 1500;
    job.gpusAllocated = 1500;
    job.node = QStringLiteral("dgx-1");
    job.gpuIndices = QStringLiteral("0,1");
    job.image = QStringLiteral("nvcr.io/nvidia/pytorch:24.05-py3");
    job.command = {QStringLiteral("python"), QStringLiteral("train.py")};
    job.pvcs = {QStringLiteral("data"), QStringLiteral("ckpt")};
    job.pvcSubPaths = {QString(), QStringLiteral("run-7")};
    job.podName = QStringLiteral("train-a-0");
    job.started = kJobNow.addSecs(-192);
    job.finished = kJobNow.addSecs(-10);
    job.pendingReason = QStringLiteral("waiting");
    job.failureReason = QStringLiteral("CrashLoopBackOff");
    job.createdByCli = true;
    job.createdBy = QStringLiteral("cli");
    job.gpuUtilization = 87.5;
    const QJsonObject json = core::recordToJson(job);
    const QStringList stored = storedKeys(core::jobFields());
    for (const QString &key : json.keys()) {
        EXPECT_TRUE(stored.contains(key)) << key.toStdString() << " is stored without a field";
    }
    EXPECT_EQ(json.value(QLatin1String("status")).toString(), QStringLiteral("running")) << "the API name";
    EXPECT_EQ(json.value(QLatin1String("gpus_requested")).toInteger(), 1500) << "milli-GPUs, as bundles always held";
    const core::Result<core::Job> back = core::recordFromJson<core::Job>(json);
    ASSERT_TRUE(back.hasValue());
    EXPECT_EQ(*back, job);
}

TEST(JobFields, DurationsAndGpusReadTheSameEverywhere)
{
    EXPECT_EQ(core::fieldText(core::FieldKind::Duration, QVariant(qint64(45))), QStringLiteral("45s"));
    EXPECT_EQ(core::fieldText(core::FieldKind::Duration, QVariant(qint64(192))), QStringLiteral("3m 12s"));
    EXPECT_EQ(core::fieldText(core::FieldKind::Duration, QVariant(qint64(2 * 3600 + 5 * 60))),
              QStringLiteral("2h 05m"));
    EXPECT_EQ(core::fieldText(core::FieldKind::Duration, QVariant(qint64(3 * 86400 + 4 * 3600))),
              QStringLiteral("3d 04h"));
    EXPECT_EQ(core::fieldText(core::FieldKind::Duration, QVariant()), QString::fromUtf16(core::kUnknownText));
    EXPECT_EQ(core::fieldText(core::FieldKind::Gpus, QVariant(0.6)), QStringLiteral("0.6"));
    EXPECT_EQ(core::fieldText(core::FieldKind::Gpus, QVariant(2.0)), QStringLiteral("2"));
    EXPECT_EQ(core::fieldText(core::FieldKind::Text, QVariant(QStringList{QStringLiteral("a"), QStringLiteral("b")})),
              QStringLiteral("a, b"));
}

TEST(JobFields, TheListingKeepsItsKeysAndTheCliItsHeaders)
{
    const rows::ResultSet rs = rows::jobRows(fieldTestJobs(), kJobNow);
    QStringList keys;
    QStringList headers;
    for (const rows::ResultSet::Column &c : rs.columns) {
        keys.append(c.key);
        if (!c.header.isEmpty()) {
            headers.append(c.header);
        }
    }
    QStringList expected{
        QStringLiteral("source"),         QStringLiteral("name"),           QStringLiteral("namespace"),
        QStringLiteral("status"),         QStringLiteral("age_seconds"),    QStringLiteral("node"),
        QStringLiteral("image"),          QStringLiteral("type"),           QStringLiteral("project"),
        QStringLiteral("user"),           QStringLiteral("gpus_requested"), QStringLiteral("gpus_allocated"),
        QStringLiteral("created_by_cli"), QStringLiteral("gpu_indices"),    QStringLiteral("created"),
        QStringLiteral("wait_seconds"),   QStringLiteral("run_seconds"),    QStringLiteral("gpu_utilization"),
        QStringLiteral("pending_reason"), QStringLiteral("pvcs"),           QStringLiteral("waiting_reason"),
        QStringLiteral("failure_reason"), QStringLiteral("reason")};
    keys.sort();
    expected.sort();
    EXPECT_EQ(keys, expected);
    EXPECT_EQ(headers.join(QLatin1Char(' ')),
              QStringLiteral("NAME STATUS AGE NODE IMAGE TYPE PROJECT USER GPUS CREATED-BY-CLI REASON"));
}

// Every desktop column that is listed shows, for every job, the text `strata get jobs` prints
// for it: a second definition of a figure on either side fails here.
TEST(JobFields, TheDesktopShowsWhatTheCliPrintsForEveryJob)
{
    const std::vector<core::Ptr<core::Job>> jobs = fieldTestJobs();
    const rows::ResultSet rs = rows::jobRows(jobs, kJobNow);
    core::Estate estate;
    core::ComputePublish publish;
    publish.jobs = std::make_shared<const core::KeyedList<core::Job>>(jobs);
    estate.publishCompute(QStringLiteral("k8s"), std::move(publish));
    models::JobTableModel model(estate, [] {
        return kJobNow;
    });
    ASSERT_EQ(model.rowCount(), int(jobs.size()));
    QStringList keys;
    for (const rows::ResultSet::Column &c : rs.columns) {
        keys.append(c.key);
    }
    const int nameAt = keys.indexOf(QStringLiteral("name"));
    int compared = 0;
    for (qsizetype r = 0; r < rs.values.size(); ++r) {
        const QString name = rs.values.at(r).at(nameAt).toString();
        int row = -1;
        for (int m = 0; m < model.rowCount(); ++m) {
            if (model.index(m, models::JobTableModel::Name).data().toString() == name) {
                row = m;
            }
        }
        ASSERT_GE(row, 0) << name.toStdString();
        for (int c = 0; c < models::JobTableModel::ColumnCount; ++c) {
            const int at = keys.indexOf(QString::fromLatin1(models::JobTableModel::field(c)->key));
            if (at < 0) {
                continue;
            }
            EXPECT_EQ(model.index(row, c).data().toString().toStdString(), rs.display.at(r).at(at).toStdString())
                << name.toStdString() << " " << models::JobTableModel::field(c)->key;
            ++compared;
        }
    }
    EXPECT_EQ(compared, 4 * (models::JobTableModel::ColumnCount - 1)) << "every column but the queue position";

    const auto shown = [&](const QString &name, int column) {
        for (int m = 0; m < model.rowCount(); ++m) {
            if (model.index(m, models::JobTableModel::Name).data().toString() == name) {
                return model.index(m, column).data().toString();
            }
        }
        return QString();
    };
    EXPECT_EQ(shown(QStringLiteral("train-a"), models::JobTableModel::Status), QStringLiteral("Running"));
    EXPECT_EQ(shown(QStringLiteral("train-a"), models::JobTableModel::Gpus), QStringLiteral("0.5"));
    EXPECT_EQ(shown(QStringLiteral("train-a"), models::JobTableModel::GpuUtilization), QStringLiteral("87.3 %"));
    EXPECT_EQ(shown(QStringLiteral("train-a"), models::JobTableModel::Age), QStringLiteral("2h 05m"));
    EXPECT_EQ(shown(QStringLiteral("train-a"), models::JobTableModel::RunTime), QStringLiteral("3m 12s"));
    EXPECT_EQ(shown(QStringLiteral("train-a"), models::JobTableModel::WaitTime),
              QString::fromUtf16(core::kUnknownText));
    EXPECT_EQ(shown(QStringLiteral("train-b"), models::JobTableModel::Type), QStringLiteral("Interactive"));
    EXPECT_EQ(shown(QStringLiteral("train-b"), models::JobTableModel::QueuePosition), QStringLiteral("1"));
    EXPECT_EQ(shown(QStringLiteral("serve-c"), models::JobTableModel::Status), QStringLiteral("ImagePullBackOff"));
    EXPECT_EQ(shown(QStringLiteral("serve-c"), models::JobTableModel::PendingReason),
              QStringLiteral("ImagePullBackOff"));
    EXPECT_EQ(shown(QStringLiteral("eval-d"), models::JobTableModel::RunTime), QStringLiteral("3d 01h"));
    EXPECT_EQ(model.headerData(models::JobTableModel::QueuePosition, Qt::Horizontal).toString(),
              QStringLiteral("Queue #"));
    EXPECT_EQ(model.headerData(models::JobTableModel::Source, Qt::Horizontal).toString(), QStringLiteral("Cluster"));
}

TEST(JobFields, TheWebTableIsTheFieldListsWebColumns)
{
    const std::optional<QJsonArray> fields = rows::resourceFields(QStringLiteral("jobs"));
    ASSERT_TRUE(fields.has_value());
    EXPECT_EQ(fields->size(), core::fieldCount(core::jobFields(), core::Listed));
    QStringList columns;
    QStringList narrow;
    for (const QJsonValue &v : *fields) {
        const QJsonObject f = v.toObject();
        if (f.value(QLatin1String("column")).toBool()) {
            columns.append(f.value(QLatin1String("key")).toString());
            if (!f.value(QLatin1String("wide")).toBool()) {
                narrow.append(f.value(QLatin1String("key")).toString());
            }
        }
    }
    EXPECT_EQ(columns.join(QLatin1Char(' ')),
              QStringLiteral("name status age_seconds node type project user gpus_requested gpu_utilization source"));
    EXPECT_EQ(narrow.join(QLatin1Char(' ')), QStringLiteral("name status gpus_requested"));
}
