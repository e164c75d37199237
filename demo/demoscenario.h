#pragma once

#include "models/core/runtime/guidedscenario.h"

#include <QString>

namespace strata::demo {

/// TR-4858's sections 4.9 and 4.10 as a sequence of actions to play against the demo's `dgx`
/// cluster (whose preset already ran section 4.8): team-d reclaims its quota, teams a, b and c
/// queue, team-d's jobs are deleted and the spare GPUs are shared in proportion to quota. Each
/// step is a real JobSubmit or JobDelete request that goes through the action framework, so the
/// GPU chart and the job queue move as in the paper.
class DemoScenario
{
public:
    explicit DemoScenario(QString source = QStringLiteral("dgx"));

    [[nodiscard]] int stepCount() const;
    /// 0-based index of the next step; stepCount() when all were played.
    [[nodiscard]] int nextIndex() const { return m_next; }
    [[nodiscard]] bool atEnd() const { return m_next >= stepCount(); }
    /// "§4.9 team-d submits d-2-gg (2 GPUs)" for the next step, empty at the end.
    [[nodiscard]] QString nextTitle() const;
    /// The paper's CLI line of the next step ("runai submit d-2-gg -i ... -g 2 -p team-d").
    [[nodiscard]] QString nextCommand() const;
    /// The request of the next step (source set); default-constructed at the end.
    [[nodiscard]] core::ActionRequest nextRequest() const;
    /// Moves to the following step (after the request was submitted).
    void advance();
    /// Every step from the next one on, as the desktop's Demo menu plays them.
    [[nodiscard]] core::GuidedScenario remaining() const;

private:
    QString m_source;
    int m_next = 0;
};

} // namespace strata::demo
