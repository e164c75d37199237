#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>

namespace strata::sim::kube {

/// Server-side printing (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`), as kubectl asks
/// for it: the columns the real server's printers (core/batch/storage) and the CRDs'
/// additionalPrinterColumns define, cells computed at simulated time `nowMs`.

/// `metav1.Table.columnDefinitions` of a resource.
nlohmann::json tableColumns(int resource);
/// One `rows[]` entry for `object`; `includeObject` is "None", "Metadata" (default) or "Object".
nlohmann::json tableRow(int resource,
                        const nlohmann::json &object,
                        std::int64_t nowMs,
                        const std::string &includeObject,
                        const std::string &apiVersion);
/// k8s.io/apimachinery duration.HumanDuration ("45s", "3m12s", "5h", "12d").
std::string humanDuration(std::int64_t ms);

} // namespace strata::sim::kube
