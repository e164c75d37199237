// The rows of `clusters|nodes|projects|jobs|pvcs` (what `strata get` prints and the web API
// serves), built from an estate holding the TR-4858 states (no cluster needed; the CLI end to end
// runs in tests/integration).

#include "models/core/domain/estate.h"
#include "models/rows/computerows.h"
#include "models/rows/output.h"
#include "tests/models/computefixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <gtest/gtest.h>

using namespace strata;
using rows::ComputeFilter;

namespace {

QJsonObject computeRowNamed(const QJsonArray &array, const QString &name)
{
    for (const QJsonValue &v : array) {
        if (v.toObject().value(QStringLiteral("name")).toString() == name) {
            return v.toObject();
        }
    }
    return {};
}

QString computeRowsTable(const rows::ResultSet &rows)
{
    QString text;
    QTextStream out(&text);
    rows::write(rows, rows::Format::Table, out);
    return text;
}

} // namespace

TEST(ComputeRows, ProjectsJson_HasDocumentedKeysAndDecimalGpus)
{
    core::Estate estate;
    testsupport::state410().publish(estate);
    const QJsonArray projects = rows::toJson(rows::projectRows(estate, {}));
    ASSERT_EQ(projects.size(), 4);
    EXPECT_EQ(projects[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("team-a"));
    const QJsonObject a = computeRowNamed(projects, QStringLiteral("team-a"));
    for (const char *key : {"name",
                            "quota",
                            "allocated",
                            "in_quota",
                            "over_quota",
                            "pending",
                            "fair_share",
                            "running_jobs",
                            "queued_jobs",
                            "utilization"}) {
        EXPECT_TRUE(a.contains(QLatin1String(key))) << key;
    }
    EXPECT_EQ(a.value(QStringLiteral("allocated")).toDouble(), 8.0);
    EXPECT_EQ(a.value(QStringLiteral("quota")).toDouble(), 4.0);
    EXPECT_EQ(a.value(QStringLiteral("over_quota")).toDouble(), 4.0);
    const QJsonObject b = computeRowNamed(projects, QStringLiteral("team-b"));
    EXPECT_EQ(b.value(QStringLiteral("queued_jobs")).toInt(), 1);
    EXPECT_EQ(b.value(QStringLiteral("pending")).toDouble(), 2.0);
    EXPECT_EQ(computeRowNamed(projects, QStringLiteral("team-d")).value(QStringLiteral("allocated")).toDouble(), 0.0);

    // The table uses the document's allocated/quota notation.
    const QString text = computeRowsTable(rows::projectRows(estate, {}));
    EXPECT_TRUE(text.contains(QStringLiteral("8/4"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("0/8"))) << text.toStdString();
}

TEST(ComputeRows, JobsJson_FractionsStatusesAndTimes)
{
    core::Estate estate;
    testsupport::state49().publish(estate);
    const QJsonArray jobs = rows::toJson(rows::jobRows(estate, {}, testsupport::computeNow()));
    ASSERT_EQ(jobs.size(), 14);
    const QJsonObject b1 = computeRowNamed(jobs, QStringLiteral("b-1-g06"));
    for (const char *key : {"name",
                            "namespace",
                            "project",
                            "user",
                            "type",
                            "status",
                            "gpus_requested",
                            "gpus_allocated",
                            "node",
                            "image",
                            "age_seconds",
                            "wait_seconds",
                            "run_seconds",
                            "pending_reason",
                            "pvcs"}) {
        EXPECT_TRUE(b1.contains(QLatin1String(key))) << key;
    }
    EXPECT_DOUBLE_EQ(b1.value(QStringLiteral("gpus_requested")).toDouble(), 0.6);
    EXPECT_EQ(b1.value(QStringLiteral("status")).toString(), QStringLiteral("running"));
    EXPECT_EQ(b1.value(QStringLiteral("type")).toString(), QStringLiteral("interactive"));
    EXPECT_EQ(b1.value(QStringLiteral("namespace")).toString(), QStringLiteral("runai-team-b"));
    EXPECT_TRUE(b1.value(QStringLiteral("wait_seconds")).isNull());
    EXPECT_EQ(b1.value(QStringLiteral("run_seconds")).toInt(), 3600 - 3 * 60 - 5);
    EXPECT_EQ(b1.value(QStringLiteral("pvcs")).toArray(), QJsonArray{QStringLiteral("data")});

    const QJsonObject c4 = computeRowNamed(jobs, QStringLiteral("c-4-gg"));
    EXPECT_EQ(c4.value(QStringLiteral("status")).toString(), QStringLiteral("preempted"));
    EXPECT_EQ(c4.value(QStringLiteral("wait_seconds")).toInt(), 3000);
    EXPECT_TRUE(c4.value(QStringLiteral("run_seconds")).isNull());
    EXPECT_EQ(c4.value(QStringLiteral("pending_reason")).toString(),
              QStringLiteral("preempted by team-d reclaiming its quota"));

    // Stable order: source, project, name.
    EXPECT_EQ(jobs[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("a-1-1-jupyter"));
    EXPECT_EQ(jobs[13].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("d-2-gg"));

    const QString text = computeRowsTable(rows::jobRows(estate, {}, testsupport::computeNow()));
    EXPECT_TRUE(text.startsWith(QStringLiteral("NAME"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("0.6"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("Preempted"))) << text.toStdString();
}

// A placed job whose container cannot start (ImagePullBackOff) or keeps crashing carries the
// kubelet's reason in waiting_reason, so a page can show it failed; a queued
// job's reason stays in pending_reason.
TEST(ComputeRows, JobsJson_PlacedJobsCarryTheContainersWaitingReason)
{
    core::Estate estate;
    testsupport::ComputeState state = testsupport::state49();
    for (testsupport::JobDef &j : state.jobs) {
        if (j.name == QLatin1String("b-1-g06")) {
            j.status = core::JobStatus::ContainerCreating;
            j.pendingReason = QStringLiteral("ImagePullBackOff: Back-off pulling image \"nvcr.io/x:1\"");
        } else if (j.name == QLatin1String("a-1-g")) {
            j.pendingReason = QStringLiteral("CrashLoopBackOff: back-off 5m0s restarting failed container");
        }
    }
    state.publish(estate);
    const QJsonArray jobs = rows::toJson(rows::jobRows(estate, {}, testsupport::computeNow()));
    const QJsonObject b1 = computeRowNamed(jobs, QStringLiteral("b-1-g06"));
    EXPECT_EQ(b1.value(QStringLiteral("status")).toString(), QStringLiteral("container_creating"));
    EXPECT_EQ(b1.value(QStringLiteral("waiting_reason")).toString(),
              QStringLiteral("ImagePullBackOff: Back-off pulling image \"nvcr.io/x:1\""));
    EXPECT_EQ(b1.value(QStringLiteral("pending_reason")).toString(), QString());
    EXPECT_TRUE(computeRowNamed(jobs, QStringLiteral("a-1-g"))
                    .value(QStringLiteral("waiting_reason"))
                    .toString()
                    .startsWith(QLatin1String("CrashLoopBackOff")));
    const QJsonObject c4 = computeRowNamed(jobs, QStringLiteral("c-4-gg"));
    EXPECT_EQ(c4.value(QStringLiteral("waiting_reason")).toString(), QString());
    EXPECT_FALSE(c4.value(QStringLiteral("pending_reason")).toString().isEmpty());
    EXPECT_EQ(computeRowNamed(jobs, QStringLiteral("c-5-g")).value(QStringLiteral("waiting_reason")).toString(),
              QString());
}

TEST(ComputeRows, ProjectFilterLimitsJobsAndPvcsAndReportsUnknownNames)
{
    core::Estate estate;
    testsupport::state48().publish(estate);
    ComputeFilter filter;
    filter.projects = {QStringLiteral("team-b")};
    const rows::ResultSet jobs = rows::jobRows(estate, filter, testsupport::computeNow());
    EXPECT_EQ(jobs.values.size(), 4);
    const QJsonArray pvcs = rows::toJson(rows::pvcRows(estate, filter));
    ASSERT_EQ(pvcs.size(), 1);
    EXPECT_EQ(pvcs[0].toObject().value(QStringLiteral("namespace")).toString(), QStringLiteral("runai-team-b"));
    EXPECT_EQ(pvcs[0].toObject().value(QStringLiteral("storage_source")).toString(), QStringLiteral("ontap-ai"));
    EXPECT_TRUE(rows::unknownProjects(estate, filter).isEmpty());
    filter.projects << QStringLiteral("team-z");
    EXPECT_EQ(rows::unknownProjects(estate, filter), QStringList{QStringLiteral("team-z")});
    filter.sources = {QStringLiteral("other-cluster")};
    EXPECT_EQ(rows::jobRows(estate, filter, testsupport::computeNow()).values.size(), 0);
}

TEST(ComputeRows, ClustersAndNodes_TotalsPackingAndQuotaInvariant)
{
    core::Estate estate;
    testsupport::state48().publish(estate);
    const QJsonArray clusters = rows::toJson(rows::clusterRows(estate, {}));
    ASSERT_EQ(clusters.size(), 1);
    const QJsonObject c = clusters[0].toObject();
    EXPECT_EQ(c.value(QStringLiteral("gpus_total")).toDouble(), 16.0);
    EXPECT_EQ(c.value(QStringLiteral("gpus_allocated")).toDouble(), 16.0);
    EXPECT_TRUE(c.value(QStringLiteral("quota_matches_gpus")).toBool());
    EXPECT_EQ(c.value(QStringLiteral("running_jobs")).toInt(), 13);

    const QJsonArray nodes = rows::toJson(rows::nodeRows(estate, {}));
    ASSERT_EQ(nodes.size(), 2);
    EXPECT_EQ(nodes[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("dgx1-1"));
    const QJsonArray slots = nodes[0].toObject().value(QStringLiteral("gpu_slots")).toArray();
    EXPECT_TRUE(slots.contains(QStringLiteral("4:b-1-g06 0.6 + b-2-g04 0.4")));

    // A quota sum that differs from the GPUs is flagged in the table.
    auto s = testsupport::state48();
    s.quotas[QStringLiteral("team-d")] = 6000;
    s.publish(estate);
    EXPECT_FALSE(
        rows::toJson(rows::clusterRows(estate, {}))[0].toObject().value(QStringLiteral("quota_matches_gpus")).toBool());
    EXPECT_TRUE(computeRowsTable(rows::clusterRows(estate, {})).contains(QStringLiteral("14!")));
}

TEST(ComputeRows, CsvListsJoinWithCommas)
{
    core::Estate estate;
    auto s = testsupport::state48();
    s.pvcClaims = {QStringLiteral("data"), QStringLiteral("scratch")};
    s.publish(estate);
    QString text;
    QTextStream out(&text);
    ComputeFilter filter;
    filter.projects = {QStringLiteral("team-d")};
    rows::write(rows::jobRows(estate, filter, testsupport::computeNow()), rows::Format::Csv, out);
    EXPECT_TRUE(text.contains(QStringLiteral("\"data,scratch\""))) << text.toStdString();
}

TEST(ComputeRows, JobsTable_FailingContainerShowsItsReasonAndNumbersAlignRight)
{
    core::Estate estate;
    testsupport::ComputeState state = testsupport::state49();
    testsupport::JobDef pulling = testsupport::runningJob(
        QStringLiteral("a-9-pull"), QStringLiteral("team-a"), 500, core::JobType::Train, QStringLiteral("dgx1-1"), {7});
    pulling.status = core::JobStatus::ContainerCreating;
    pulling.pendingReason = QStringLiteral("ImagePullBackOff: Back-off pulling image \"nvcr.io/x:1\"");
    pulling.failureReason = QStringLiteral("ImagePullBackOff");
    state.jobs.push_back(pulling);
    state.publish(estate);
    const rows::ResultSet rs = rows::jobRows(estate, {}, testsupport::computeNow());

    const QJsonObject pull = computeRowNamed(rows::toJson(rs), QStringLiteral("a-9-pull"));
    EXPECT_EQ(pull.value(QStringLiteral("failure_reason")).toString(), QStringLiteral("ImagePullBackOff"));
    EXPECT_EQ(pull.value(QStringLiteral("reason")).toString(), QStringLiteral("ImagePullBackOff"));
    const QJsonObject c4 = computeRowNamed(rows::toJson(rs), QStringLiteral("c-4-gg"));
    EXPECT_EQ(c4.value(QStringLiteral("failure_reason")).toString(), QString());
    EXPECT_EQ(c4.value(QStringLiteral("reason")).toString(),
              QStringLiteral("preempted by team-d reclaiming its quota"));

    const QStringList lines = computeRowsTable(rs).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QString header = lines.value(0);
    QString pullLine;
    for (const QString &line : lines) {
        if (line.startsWith(QStringLiteral("a-9-pull "))) {
            pullLine = line;
        }
    }
    ASSERT_FALSE(pullLine.isEmpty());
    // REASON names the failure where it used to print "-".
    EXPECT_EQ(pullLine.mid(header.indexOf(QStringLiteral("REASON"))).trimmed(), QStringLiteral("ImagePullBackOff"))
        << pullLine.toStdString();
    // GPUS is numeric: each value ends where the header ends ("0.5" and "2" right-aligned).
    const qsizetype gpusEnd = header.indexOf(QStringLiteral("GPUS")) + 4;
    for (const QString &line : lines.mid(1)) {
        EXPECT_NE(line.at(gpusEnd - 1), QLatin1Char(' ')) << line.toStdString();
        EXPECT_EQ(line.at(gpusEnd), QLatin1Char(' ')) << line.toStdString();
    }
}
