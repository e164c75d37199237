#include "connectors/http/jsonparse.h"

namespace strata::http {

namespace {

using Json = nlohmann::json;

// nlohmann's what() is "[json.exception.parse_error.101] parse error at line 1, column 9: <detail>";
// the byte offset is reported separately, so keep only the detail.
std::string jsonErrorDetail(const std::string &what)
{
    const auto position = what.find("column ");
    if (position != std::string::npos) {
        const auto colon = what.find(": ", position);
        if (colon != std::string::npos) {
            return what.substr(colon + 2);
        }
    }
    const auto bracket = what.find("] ");
    return bracket == std::string::npos ? what : what.substr(bracket + 2);
}
using DomSax = nlohmann::detail::json_sax_dom_parser<Json>;

// nlohmann's own DOM builder with a depth count in front: start_* returning false ends the
// parse there, before the level is allocated.
class BoundedDomSax : public DomSax
{
public:
    BoundedDomSax(Json &result, std::size_t maxDepth, JsonParseFailure *failure)
        : DomSax(result, /*allow_exceptions=*/false)
        , m_maxDepth(maxDepth)
        , m_failure(failure)
    {}

    bool start_object(std::size_t elements) { return enter() && DomSax::start_object(elements); }
    bool end_object()
    {
        --m_depth;
        return DomSax::end_object();
    }
    bool start_array(std::size_t elements) { return enter() && DomSax::start_array(elements); }
    bool end_array()
    {
        --m_depth;
        return DomSax::end_array();
    }
    template <class Exception> bool parse_error(std::size_t position, const std::string &token, const Exception &ex)
    {
        if (m_failure) {
            m_failure->byte = position;
            m_failure->tooDeep = false;
            m_failure->message =
                "malformed JSON at byte " + std::to_string(position) + ": " + jsonErrorDetail(ex.what());
        }
        return DomSax::parse_error(position, token, ex);
    }
    [[nodiscard]] bool tooDeep() const { return m_tooDeep; }

private:
    bool enter()
    {
        if (++m_depth <= m_maxDepth) {
            return true;
        }
        m_tooDeep = true;
        return false;
    }

    std::size_t m_maxDepth;
    std::size_t m_depth = 0;
    bool m_tooDeep = false;
    JsonParseFailure *m_failure;
};

} // namespace

nlohmann::json parseJsonBounded(std::string_view text, JsonParseFailure *failure, std::size_t maxDepth)
{
    Json result;
    BoundedDomSax sax(result, maxDepth, failure);
    bool ok = false;
    try {
        ok = Json::sax_parse(text.begin(), text.end(), &sax, nlohmann::detail::input_format_t::json, true);
    } catch (const std::exception &e) {
        // sax_parse itself does not throw with allow_exceptions=false; a bad_alloc might.
        if (failure) {
            failure->message = std::string("cannot parse JSON: ") + e.what();
        }
        return Json(Json::value_t::discarded);
    }
    if (sax.tooDeep()) {
        if (failure) {
            failure->tooDeep = true;
            failure->message = "JSON nested deeper than " + std::to_string(maxDepth) + " levels";
        }
        return Json(Json::value_t::discarded);
    }
    if (!ok || sax.is_errored()) {
        return Json(Json::value_t::discarded);
    }
    return result;
}

} // namespace strata::http
