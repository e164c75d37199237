#pragma once

#include <QString>

#include <optional>

namespace strata::core {

/// Normalised severity, worst first. ONTAP EMS emergency/alert -> Critical, error -> Error,
/// notice/warning -> Warning... see severityFromSystem().
enum class TimelineSeverity
{
    Critical,
    Error,
    Warning,
    Info
};

QString timelineSeverityName(TimelineSeverity severity); ///< "critical", "error", "warning", "info"
std::optional<TimelineSeverity> timelineSeverityFromName(const QString &name);

/// A system's own severity word, normalised. ONTAP EMS (and Kubernetes, whose Warning events
/// arrive as "warning", Normal ones as "informational"): emergency/alert -> Critical, error ->
/// Error, warning/notice -> Warning, informational/debug/anything else -> Info. StorageGRID
/// alerts: critical -> Critical, major -> Error, minor -> Warning.
TimelineSeverity severityFromSystem(const QString &system, const QString &severity);

} // namespace strata::core
