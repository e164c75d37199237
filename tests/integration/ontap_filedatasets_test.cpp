// ONTAP file datasets: a volume named in dataset_roots is a dataset whose commits are its
// snapshots (oldest first = the parent chain), and a FlexClone of one of its snapshots counts as
// a cached commit in the hub. Against the ONTAP simulator's demo estate (chest_xray with its
// scheduled snapshots and the chest_xray_exp42 clone). Caching one of its commits is a FlexClone
// of that snapshot, run from the hub without the Volumes page having loaded the snapshot list.

#include "models/core/domain/estate.h"
#include "models/core/planning/datasethub.h"
#include "models/core/services/actions.h"
#include "tests/integration/simfixture.h"

using namespace strata;

namespace {

class OntapFileDatasetsTest : public testsupport::SimFixture
{
protected:
    core::SystemClock clock;
    std::unique_ptr<core::Engine> engine;

    void TearDown() override { engine.reset(); }

    void start(const QStringList &roots)
    {
        engine = std::make_unique<core::Engine>(core::Engine::Deps{clock, credentials, nullptr, QStringLiteral("t")});
        core::SourceConfig c = sourceConfig();
        c.datasetRoots = roots;
        engine->setSources({c});
        ASSERT_TRUE(waitFor([&] {
            return engine->allPolledOnce();
        }));
    }
};

} // namespace

TEST_F(OntapFileDatasetsTest, SnapshotsAreCommitsAndTheCloneIsACachedCommit)
{
    start({QStringLiteral("svm_ai/chest_xray")});
    const auto datasets = engine->estate().datasets().all(QStringLiteral("ontap-ai"));
    ASSERT_EQ(datasets.size(), 1u);
    const core::Dataset &d = *datasets.front();
    EXPECT_EQ(d.kind, core::DatasetKind::OntapVolume);
    EXPECT_EQ(d.name, QStringLiteral("chest_xray"));
    EXPECT_EQ(d.volumeId, d.id);
    EXPECT_GT(d.commitCount, 1);
    EXPECT_GT(d.sizeBytes, 0);

    std::vector<core::Ptr<core::Commit>> commits = engine->estate().commits().all(QStringLiteral("ontap-ai"));
    ASSERT_EQ(int(commits.size()), d.commitCount);
    EXPECT_EQ(commits.front()->id, d.headCommit); // newest first
    for (std::size_t i = 0; i + 1 < commits.size(); ++i) {
        EXPECT_EQ(commits[i]->parent, commits[i + 1]->id);
        EXPECT_GE(commits[i]->time, commits[i + 1]->time);
        EXPECT_FALSE(commits[i]->manifestKey.isEmpty()); // the snapshot name
    }
    EXPECT_TRUE(commits.back()->parent.isEmpty());
    EXPECT_EQ(d.lastActivity, commits.front()->time);

    const core::HubSummary hub = core::summarize(engine->estate());
    const core::DatasetHubRow row = hub.rows.value(QStringLiteral("ontap-ai/") + d.id);
    EXPECT_EQ(row.cachedCommits, 1);
    EXPECT_EQ(row.targets, QStringList{QStringLiteral("svm_ai/chest_xray_exp42")});
}

TEST_F(OntapFileDatasetsTest, NoRootsNoDatasets)
{
    start({});
    EXPECT_TRUE(engine->estate().datasets().all(QStringLiteral("ontap-ai")).empty());
}

TEST_F(OntapFileDatasetsTest, CachingACommitIsAFlexCloneOfItsSnapshot)
{
    start({QStringLiteral("svm_ai/chest_xray")});
    const auto datasets = engine->estate().datasets().all(QStringLiteral("ontap-ai"));
    ASSERT_EQ(datasets.size(), 1u);
    const core::Dataset &d = *datasets.front();
    ASSERT_FALSE(engine->estate().hasSnapshots(d.source, d.volumeId)); // only the hub knows the snapshot
    const std::vector<core::Ptr<core::Commit>> commits = engine->estate().commits().all(d.source);
    // A snapshot that no clone uses yet (chest_xray_exp42 is a clone of one of them).
    QString usedSnapshot;
    for (const core::Ptr<core::Volume> &v : engine->estate().volumes().all(d.source)) {
        if (v->name == QStringLiteral("chest_xray_exp42")) {
            usedSnapshot = v->cloneParent.section(QLatin1Char('@'), 1);
        }
    }
    ASSERT_FALSE(usedSnapshot.isEmpty());
    const auto unused = std::find_if(commits.begin(), commits.end(), [&](const core::Ptr<core::Commit> &c) {
        return c->manifestKey != usedSnapshot;
    });
    ASSERT_NE(unused, commits.end());
    const core::Commit &older = **unused;

    core::ActionRequest request;
    request.kind = core::ActionKind::VolumeClone;
    request.source = d.source;
    request.volumeId = d.volumeId;
    request.snapshotId = older.id;
    request.name = QStringLiteral("chest_xray_hub_clone");
    const core::ActionPreview preview = engine->actions().preview(request);
    ASSERT_TRUE(preview.allowed()) << preview.blockedReason.toStdString();
    EXPECT_EQ(preview.target, QStringLiteral("svm_ai/chest_xray@") + older.manifestKey);

    QString error;
    const auto idSubmitted = engine->actions().submit(request);
    const QString id = idSubmitted ? *idSubmitted : QString();
    if (!idSubmitted) {
        error = idSubmitted.error().message;
    }
    ASSERT_FALSE(id.isEmpty()) << error.toStdString();
    ASSERT_TRUE(waitFor(
        [&] {
            return engine->actions().find(id)->state != core::ActionState::Running;
        },
        30000));
    const core::ActionRecord *rec = engine->actions().find(id);
    ASSERT_EQ(rec->state, core::ActionState::Succeeded) << rec->message.toStdString();

    // The next poll sees the clone, and the hub counts it as a second cached commit.
    ASSERT_TRUE(waitFor(
        [&] {
            return core::summarize(engine->estate()).rows.value(QStringLiteral("ontap-ai/") + d.id).cachedCommits == 2;
        },
        30000));
    const core::DatasetHubRow row = core::summarize(engine->estate()).rows.value(QStringLiteral("ontap-ai/") + d.id);
    EXPECT_TRUE(row.targets.contains(QStringLiteral("svm_ai/chest_xray_hub_clone")));

    // A commit id that is no snapshot of this volume is refused in the preview.
    request.snapshotId = QStringLiteral("00000000-0000-0000-0000-000000000000");
    request.name = QStringLiteral("chest_xray_hub_clone2");
    EXPECT_FALSE(engine->actions().preview(request).allowed());
}
