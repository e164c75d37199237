#pragma once

#include "models/core/services/capacityforecast.h"
#include "models/rows/output.h"

namespace strata::rows {

/// `get forecasts` and the "full soonest" lists, in the order given (forecastAll(): full
/// soonest first). Keys: source, kind (containerKindName()), id, name, trend
/// (forecastTrendName()), used_bytes (the container's own row's figure, null when unknown),
/// capacity_bytes (null = no limit; a volume's active file system: its size less the snapshot
/// reserve), percent_used (of capacity_bytes, as the volume rows'; null),
/// growth_bytes_per_day (null unless the history had enough samples), growth_low_bytes_per_day,
/// growth_high_bytes_per_day (Sen's 95 % band), full_at, full_earliest, full_latest (UTC times,
/// null unless growing towards a limit within a century; full: when it was seen full),
/// days_to_full (number with one decimal, null as full_at), released_bytes (cache targets: bytes
/// of planned evictions counted in), samples, history_from, history_to (null without samples).
ResultSet forecastRows(const std::vector<core::ContainerForecast> &forecasts, const QDateTime &now);

/// "in 12 days (9–17)", "in 5 h", "full", "no trend", "growing, no limit", "too little data":
/// what the FULL IN column and the pages show for `forecast` seen at `now`.
QString forecastFullInText(const core::CapacityForecast &forecast, const QDateTime &now);

} // namespace strata::rows
