// ONTAP service levels end to end against the ONTAP simulator: a volume's QoS policy changed
// through the action manager (preview with caps, audit entry naming the volume, cool-down,
// idempotent repeat) and performance recorded into history without anyone watching.

#include "models/core/services/historyservice.h"
#include "models/core/services/servicelevels.h"
#include "models/core/sources/source.h"
#include "tests/integration/simfixture.h"
#include "tests/support/qt/corestatus.h"

using strata::testsupport::errorText;
using namespace strata;
using namespace strata::testsupport;

namespace {

class OntapServiceLevelTest : public SimFixture
{
protected:
    core::SystemClock clock;
    std::unique_ptr<core::HistoryService> history;
    std::unique_ptr<core::Engine> engine;

    void SetUp() override
    {
        SimFixture::SetUp();
        history = std::make_unique<core::HistoryService>(
            std::make_unique<core::SqlHistoryStore>(dir.filePath(QStringLiteral("h.sqlite")), clock));
        engine = std::make_unique<core::Engine>(
            core::Engine::Deps{clock, credentials, history.get(), QStringLiteral("tester")});
        engine->setSources({sourceConfig()});
        ASSERT_TRUE(waitFor([&] {
            return engine->allPolledOnce();
        }));
    }

    void TearDown() override
    {
        engine.reset();
        history.reset();
    }

    core::Ptr<core::Volume> volumeNamed(const QString &name)
    {
        for (const auto &v : engine->estate().volumes().all()) {
            if (v->name == name) {
                return v;
            }
        }
        return nullptr;
    }

    core::ActionRequest change(const core::Volume &v, const QString &policy) const
    {
        core::ActionRequest r(core::ActionKind::ServiceLevelChange, v.source, v.id);
        r.targetLevel = policy;
        return r;
    }

    const core::ActionRecord *run(const core::ActionRequest &request)
    {
        QString error;
        const auto idSubmitted = engine->actions().submit(request);
        const QString id = idSubmitted ? *idSubmitted : QString();
        if (!idSubmitted) {
            error = idSubmitted.error().message;
        }
        EXPECT_FALSE(id.isEmpty()) << error.toStdString();
        if (id.isEmpty()) {
            return nullptr;
        }
        EXPECT_TRUE(waitFor(
            [&] {
                return engine->actions().find(id)->state != core::ActionState::Running;
            },
            30000));
        return engine->actions().find(id);
    }
};

} // namespace

TEST_F(OntapServiceLevelTest, QosPolicyChangeAppliesOnTheClusterAndIsAudited)
{
    const auto v = volumeNamed(QStringLiteral("chest_xray"));
    ASSERT_TRUE(v);
    ASSERT_EQ(v->qosPolicy, QStringLiteral("performance"));

    const core::ActionPreview preview = engine->actions().preview(change(*v, QStringLiteral("ai-training")));
    ASSERT_TRUE(preview.allowed()) << preview.blockedReason.toStdString();
    EXPECT_EQ(preview.title, QStringLiteral("Change QoS policy"));
    EXPECT_EQ(preview.target, QStringLiteral("svm_ai/chest_xray [volume %1]").arg(v->id));
    EXPECT_EQ(preview.fromState, QStringLiteral("QoS policy \"performance\""));
    EXPECT_EQ(preview.toState, QStringLiteral("QoS policy \"ai-training\""));
    const QString effects = preview.effects.join(QLatin1Char('\n'));
    // 4,000 MB/s is 3,814.7 MiB/s (3.7 GiB/s); no history yet at the first poll.
    EXPECT_TRUE(
        effects.contains(QStringLiteral("Throughput cap none → 3.7 GiB/s (no observed throughput history yet)")))
        << effects.toStdString();
    EXPECT_TRUE(effects.contains(QStringLiteral("→ 50,000"))) << effects.toStdString();

    const core::ActionRecord *record = run(change(*v, QStringLiteral("ai-training")));
    ASSERT_TRUE(record);
    ASSERT_EQ(record->state, core::ActionState::Succeeded) << record->message.toStdString();
    EXPECT_FALSE(record->reconciled);
    EXPECT_EQ(simulator->volume(v->id)->qosPolicy.name, QStringLiteral("ai-training"));
    ASSERT_TRUE(waitFor([&] {
        return volumeNamed(QStringLiteral("chest_xray"))->qosPolicy == QLatin1String("ai-training");
    })) << "the inventory is refreshed after the change";

    // Audit: started + succeeded, naming the volume by id.
    std::vector<core::AuditEntry> entries;
    bool read = false;
    history->auditLogOfKind(QStringLiteral("volume.service_level"), {}, engine.get(), [&](auto e) {
        entries = testsupport::valueOf(std::move(e));
        read = true;
    });
    ASSERT_TRUE(waitFor([&] {
        return read;
    }));
    ASSERT_EQ(entries.size(), 2U);
    EXPECT_EQ(entries[0].outcome, QStringLiteral("succeeded"));
    EXPECT_EQ(entries[1].outcome, QStringLiteral("started"));
    EXPECT_EQ(core::volumeIdFromAuditTarget(entries[0].target), v->id);
    EXPECT_EQ(entries[0].toState, QStringLiteral("QoS policy \"ai-training\""));
    EXPECT_EQ(entries[0].user, QStringLiteral("tester"));

    // The cool-down holds right away...
    const core::ActionPreview again = engine->actions().preview(change(*v, QStringLiteral("value")));
    EXPECT_TRUE(again.blockedReason.contains(QLatin1String("cool-down is 60 min")))
        << again.blockedReason.toStdString();
    // ...and without it, asking for the policy the volume already has changes nothing.
    core::RateCard card = core::RateCard::defaults();
    card.coolDownMinutes = 0;
    engine->setRateCard(card);
    const int patches = simulator->requestCount();
    const core::ActionRecord *repeat = run(change(*v, QStringLiteral("ai-training")));
    ASSERT_TRUE(repeat);
    EXPECT_EQ(repeat->state, core::ActionState::Succeeded) << repeat->message.toStdString();
    EXPECT_TRUE(repeat->reconciled);
    EXPECT_LE(simulator->requestCount() - patches, 4) << "a read, no PATCH job";

    // Removing the policy (ONTAP's "none").
    const core::ActionRecord *none = run(change(*v, QString()));
    ASSERT_TRUE(none);
    ASSERT_EQ(none->state, core::ActionState::Succeeded) << none->message.toStdString();
    EXPECT_TRUE(simulator->volume(v->id)->qosPolicy.name.isEmpty());
}

TEST_F(OntapServiceLevelTest, UnknownPolicyIsRefusedInThePreview)
{
    const auto v = volumeNamed(QStringLiteral("chest_xray"));
    ASSERT_TRUE(v);
    const core::ActionPreview preview = engine->actions().preview(change(*v, QStringLiteral("platinum")));
    EXPECT_EQ(preview.blockedReason,
              QStringLiteral("SVM svm_ai has no QoS policy \"platinum\" (create it on the cluster first)."));
    QString error = errorText(engine->actions().submit(change(*v, QStringLiteral("platinum"))));
    EXPECT_FALSE(error.isEmpty());
}

TEST_F(OntapServiceLevelTest, PerformanceIsRecordedIntoHistoryWithoutSubscribers)
{
    const auto v = volumeNamed(QStringLiteral("chest_xray"));
    ASSERT_TRUE(v);
    std::vector<core::VolumePerfSample> samples;
    ASSERT_TRUE(waitFor([&] {
        bool done = false;
        history->volumePerfHistory(
            v->source, v->id, {}, {}, engine.get(), [&](core::Result<std::vector<core::VolumePerfSample>> s) {
                samples = testsupport::valueOf(std::move(s));
                done = true;
            });
        waitFor([&] {
            return done;
        });
        return !samples.empty();
    })) << "the background perf poll records history";
    EXPECT_GT(samples.front().iops, 0);
    EXPECT_TRUE(engine->estate().volumePerf().all().empty()) << "views only get perf while they watch";
}
