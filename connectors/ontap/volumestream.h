#pragma once

#include "connectors/ontap/dto.h"

#include <memory>
#include <string>
#include <vector>

/// Decodes pages of GET /api/storage/volumes straight from the response text, without building
/// a JSON document first (simdjson's On-Demand API). At 50,000 volumes the DOM route spent most
/// of a poll's decode time allocating and freeing nodes; this one reads each value once into the
/// Volume records (docs/benchmarks.md, "ONTAP poll").
namespace strata::ontap {

class VolumePageDecoder
{
public:
    VolumePageDecoder();
    ~VolumePageDecoder();
    VolumePageDecoder(const VolumePageDecoder &) = delete;
    VolumePageDecoder &operator=(const VolumePageDecoder &) = delete;

    /// Appends the page's `records` to `out` exactly as from_json(json, Volume&) would decode
    /// them, and sets `next` to `_links.next.href` ("" when there is none).
    ///
    /// Returns false, with `out` and `next` unchanged, when the page is anything other than a
    /// well-formed collection object whose known fields all have their usual JSON types: malformed
    /// or truncated text, nesting deeper than 64 levels, a repeated known key, a wrong type, a
    /// missing uuid or name, an integer written as a float. The caller then decodes the page
    /// through nlohmann::json (from_json), which accepts or rejects it and words the error; a
    /// page this decoder accepts is one that route accepts with the same result.
    ///
    /// `body` may gain spare capacity (simdjson reads up to 64 bytes past the end); its text is
    /// not changed. Memory is bounded by the page: about 6 bytes of index per byte of text, kept
    /// for the next page.
    bool decode(std::string &body, std::vector<Volume> &out, std::string &next);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace strata::ontap
