#include "demo/demoscenario.h"

#include "simulators/kubernetes/tr4858.h"

namespace strata::demo {

namespace {

namespace golden = sim::kube::tr4858;

const std::vector<golden::ScenarioStep> &steps()
{
    static const std::vector<golden::ScenarioStep> all = [] {
        std::vector<golden::ScenarioStep> out = golden::section49();
        const std::vector<golden::ScenarioStep> s410 = golden::section410();
        out.insert(out.end(), s410.begin(), s410.end());
        return out;
    }();
    return all;
}

} // namespace

DemoScenario::DemoScenario(QString source)
    : m_source(std::move(source))
{}

int DemoScenario::stepCount() const
{
    return int(steps().size());
}

QString DemoScenario::nextTitle() const
{
    if (atEnd()) {
        return {};
    }
    const golden::ScenarioStep &step = steps()[std::size_t(m_next)];
    return QStringLiteral("§%1 %2").arg(QString::fromStdString(step.section), QString::fromStdString(step.title));
}

QString DemoScenario::nextCommand() const
{
    return atEnd() ? QString() : QString::fromStdString(steps()[std::size_t(m_next)].cli);
}

core::ActionRequest DemoScenario::nextRequest() const
{
    core::ActionRequest r;
    if (atEnd()) {
        return r;
    }
    const golden::ScenarioStep &step = steps()[std::size_t(m_next)];
    r.source = m_source;
    if (step.op == golden::ScenarioStep::Op::Delete) {
        r.kind = core::ActionKind::JobDelete;
        r.jobIds << QString::fromStdString(golden::namespaceOf(step.job.project) + "/" + step.job.name);
        return r;
    }
    r.kind = core::ActionKind::JobSubmit;
    r.job.name = QString::fromStdString(step.job.name);
    r.job.project = QString::fromStdString(step.job.project);
    r.job.image = QString::fromStdString(step.job.image);
    r.job.gpus = step.job.gpus;
    r.job.type = step.job.kind == sim::kube::JobKind::Interactive ? core::JobType::Interactive : core::JobType::Train;
    r.job.user = QString::fromStdString(step.job.user);
    for (const std::string &c : step.job.command) {
        r.job.command << QString::fromStdString(c);
    }
    for (const std::string &a : step.job.args) {
        r.job.args << QString::fromStdString(a);
    }
    return r;
}

void DemoScenario::advance()
{
    if (!atEnd()) {
        ++m_next;
    }
}

core::GuidedScenario DemoScenario::remaining() const
{
    core::GuidedScenario out;
    for (DemoScenario walk = *this; !walk.atEnd(); walk.advance()) {
        out.append({walk.nextTitle(), walk.nextCommand(), walk.nextRequest()});
    }
    return out;
}

} // namespace strata::demo
