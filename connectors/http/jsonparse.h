#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace strata::http {

/// Deepest nesting of arrays and objects Strata accepts in a document another system sent. No
/// vendor document Strata reads comes near it (Kubernetes objects are about 10 deep); a deeper
/// one is an attack or a fault, and copying, dumping or destroying it recursively would
/// overflow the stack.
inline constexpr std::size_t kMaxJsonDepth = 256;

/// Why parseJsonBounded() failed.
struct JsonParseFailure
{
    std::size_t byte = 0; ///< 1-based position in the text where parsing stopped
    bool tooDeep = false; ///< nesting went past the limit (the text may be well-formed)
    std::string message;  ///< "malformed JSON at byte 12: ..." or "JSON nested deeper than 256 levels at byte 300"
};

/// Parses `text` as one JSON document, refusing nesting deeper than `maxDepth`. On failure
/// returns a discarded value (`is_discarded()`), as `json::parse(text, nullptr, false)` does,
/// and fills `failure` when given. Never throws. Parsing stops at the first level too deep, so a
/// hostile document costs no more memory than its first `maxDepth` levels.
nlohmann::json
parseJsonBounded(std::string_view text, JsonParseFailure *failure = nullptr, std::size_t maxDepth = kMaxJsonDepth);

} // namespace strata::http
