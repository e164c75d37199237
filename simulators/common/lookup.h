#pragma once

#include <iterator>

namespace strata::sim {

/// The first element of `range` whose `member` equals `value`, or nullptr. Simulators keep
/// their records in plain lists (a few hundred at most, ordered as the vendor lists them), so a
/// linear scan is the lookup; this is the one place it is written.
template <class Range, class Record, class Field, class Value>
auto findBy(Range &range, Field Record::*member, const Value &value) -> decltype(&*std::begin(range))
{
    for (auto &record : range) {
        if (record.*member == value) {
            return &record;
        }
    }
    return nullptr;
}

} // namespace strata::sim
