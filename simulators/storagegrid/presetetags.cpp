#include "simulators/storagegrid/s3store.h"

#include <algorithm>
#include <tuple>

namespace strata::sim::storagegrid {

const std::vector<PrecomputedEtag> &precomputedEtags()
{
    static const std::vector<PrecomputedEtag> etags = {
#include "simulators/storagegrid/presetetags.inc"
    };
    return etags;
}

const PrecomputedEtag *precomputedEtag(const ObjectContent &content)
{
    if (content.literal) {
        return nullptr;
    }
    const std::vector<PrecomputedEtag> &etags = precomputedEtags();
    const auto key = std::make_tuple(content.seed, content.size, content.textual);
    const auto it = std::lower_bound(etags.begin(), etags.end(), key, [](const PrecomputedEtag &e, const auto &k) {
        return std::make_tuple(e.seed, e.size, e.textual) < k;
    });
    if (it == etags.end() || std::make_tuple(it->seed, it->size, it->textual) != key) {
        return nullptr;
    }
    return &*it;
}

} // namespace strata::sim::storagegrid
