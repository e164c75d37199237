// GET /api/v1/jobs/<source>/<ns>/<name>/diagnosis and /api/v1/diagnosis: the JSON of
// `strata why -o json` for a viewer.

#include "webfixture.h"

#include "models/core/domain/estate.h"
#include "models/core/planning/diagnosis.h"

#include <gtest/gtest.h>

using namespace strata;

namespace {

using DiagnosisApiTest = testsupport::WebFixture;

template <class T> std::shared_ptr<const core::KeyedList<T>> diagnosisListOf(std::vector<T> items)
{
    std::vector<core::Ptr<T>> out;
    for (T &item : items) {
        out.push_back(std::make_shared<const T>(std::move(item)));
    }
    return std::make_shared<const core::KeyedList<T>>(std::move(out));
}

} // namespace

TEST_F(DiagnosisApiTest, DiagnosisOfAJobIsWhatStrataWhyPrints)
{
    startServer();
    // A cluster the estate holds as a Kubernetes source would publish it: team-a at its fair share.
    core::GpuNode node;
    node.source = QStringLiteral("dgx");
    node.id = node.name = QStringLiteral("dgx1-1");
    node.ready = true;
    node.allocatable = node.allocated = 8000;
    core::Project project;
    project.source = node.source;
    project.id = project.name = QStringLiteral("team-a");
    project.quota = project.allocated = project.fairShare = 4000;
    core::Job job;
    job.source = node.source;
    job.namespaceName = QStringLiteral("runai-team-a");
    job.name = QStringLiteral("a-3-gg");
    job.id = QStringLiteral("runai-team-a/a-3-gg");
    job.project = project.name;
    job.status = core::JobStatus::Pending;
    job.gpusRequested = 2000;
    core::ComputePublish c;
    c.nodes = diagnosisListOf<core::GpuNode>({node});
    c.projects = diagnosisListOf<core::Project>({project});
    c.jobs = diagnosisListOf<core::Job>({job});
    c.pvcs = diagnosisListOf<core::Pvc>({});
    engine->estate().publishCompute(node.source, c);

    EXPECT_EQ(get(QStringLiteral("/api/v1/jobs/dgx/runai-team-a/a-3-gg/diagnosis"), Login{}).status, 401);
    const Login viewer = login(QStringLiteral("viewer"));
    const Reply r = get(QStringLiteral("/api/v1/jobs/dgx/runai-team-a/a-3-gg/diagnosis"), viewer);
    ASSERT_EQ(r.status, 200) << r.body.toStdString();
    const QJsonObject expected = core::diagnosisToJson(
        core::diagnoseJob(engine->estate(), QStringLiteral("dgx"), job.id, engine->clock().now()));
    EXPECT_EQ(r.json().object(), expected);
    EXPECT_EQ(r.json().object().value(QLatin1String("verdict")).toString(), QStringLiteral("pending"));
    EXPECT_EQ(r.json()
                  .object()
                  .value(QLatin1String("findings"))
                  .toArray()
                  .first()
                  .toObject()
                  .value(QLatin1String("rule"))
                  .toString(),
              QStringLiteral("fair_share"));

    const Reply query = get(QStringLiteral("/api/v1/diagnosis?source=dgx&job=runai-team-a%2Fa-3-gg"), viewer);
    ASSERT_EQ(query.status, 200);
    EXPECT_EQ(query.json().object(), expected);

    const Reply unknown = get(QStringLiteral("/api/v1/jobs/dgx/runai-team-a/nope/diagnosis"), viewer);
    EXPECT_EQ(unknown.status, 404);
    EXPECT_EQ(unknown.json().object().value(QLatin1String("verdict")).toString(), QStringLiteral("unknown_job"));
    EXPECT_EQ(get(QStringLiteral("/api/v1/diagnosis?source=dgx"), viewer).status, 400);
}
