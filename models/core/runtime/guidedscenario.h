#pragma once

#include "models/core/domain/action.h"

#include <QList>
#include <QString>

namespace strata::core {

/// One step of a guided scenario that a user plays from a menu, such as the demo's TR-4858
/// walk-through: a real action request that goes through the action framework like any other.
struct GuidedStep
{
    /// What the step does, for a menu entry ("§4.9 team-d submits d-2-gg (2 GPUs)").
    QString title;
    /// The command the source document gives for it ("runai submit d-2-gg ... -p team-d").
    QString command;
    /// The request to preview and submit (source set).
    ActionRequest request;
};

using GuidedScenario = QList<GuidedStep>;

} // namespace strata::core
