// ONTAP file datasets: a volume named in dataset_roots is a dataset whose commits are its
// snapshots (oldest first = the parent chain), and a FlexClone of one of its snapshots counts as
// a cached commit in the hub. Against the ONTAP simulator's demo estate (chest_xray with its
// scheduled snapshots and the chest_xray_exp42 clone).

#include "models/core/datasethub.h"
#include "models/core/estate.h"
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
