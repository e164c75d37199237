#include "connectors/kubernetes/dto.h"

#include <nlohmann/json.hpp>

namespace strata::kubernetes {} // namespace strata::kubernetes
