#pragma once

#include "connectors/kubernetes/dto.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

/// Decodes Pods straight from the API server's text into PodDto records, without building a
/// JSON document first (simdjson's On-Demand API). At 100,000 pods the DOM route spent a third
/// of Strata's CPU under churn building and freeing one nlohmann::json per watch event, and a
/// list held every pod's DOM until the last page (docs/benchmarks.md, "Kubernetes: list, watch
/// and churn").
///
/// Both entry points are strict: they return false ("leave it to the DOM route") for anything
/// but the plain shape they read exactly as parsePod() does: malformed or truncated text,
/// nesting deeper than 64 levels, a known key given twice, a known field of another JSON type
/// (null counts as absent, as for parsePod), a label or annotation that is not a string, a
/// non-integer exitCode or GPU amount that is a float, a pod without metadata.name. The caller
/// then decodes the same text with parseJsonBounded() and parsePod(), which accepts or rejects
/// it and words the error; whatever this decoder accepts, that route accepts with an equal
/// PodDto (tests/connectors/kubernetes/kubepodstream_test.cpp compares them).
namespace strata::kubernetes {

class PodStreamDecoder
{
public:
    PodStreamDecoder();
    ~PodStreamDecoder();
    PodStreamDecoder(const PodStreamDecoder &) = delete;
    PodStreamDecoder &operator=(const PodStreamDecoder &) = delete;

    /// A PodList page (GET /api/v1/pods): appends its items to `out` and sets the list's
    /// metadata.resourceVersion and metadata.continue ("" when absent). On false, `out`,
    /// `resourceVersion` and `continueToken` are unchanged. `body` may gain spare capacity
    /// (simdjson reads up to 64 bytes past the end); its text is not changed. Memory: about 6
    /// bytes of index per byte of the largest page, kept for the next one.
    bool
    decodeList(std::string &body, std::vector<PodDto> &out, std::string &resourceVersion, std::string &continueToken);

    enum class EventType
    {
        Added,
        Modified,
        Deleted,
        Bookmark,
    };

    /// One line of a watch stream ({"type": ..., "object": {...}}). ADDED, MODIFIED and DELETED
    /// need a pod with metadata.name; a BOOKMARK's pod carries only what its object has
    /// (resourceVersion, annotations). ERROR events are left to the DOM route (false).
    bool decodeEvent(std::string_view line, EventType &type, PodDto &pod);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace strata::kubernetes
