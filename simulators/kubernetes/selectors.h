#pragma once

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace strata::sim::kube {

/// A parsed `labelSelector` (equality- and set-based: `a=b`, `a==b`, `a!=b`, `a`, `!a`,
/// `a in (x,y)`, `a notin (x,y)`, comma = AND), as the API server accepts it.
class LabelSelector final
{
public:
    /// Parses `text`; nullopt and `error` set on a syntax error. Empty text matches everything.
    static std::optional<LabelSelector> parse(const std::string &text, std::string *error);
    [[nodiscard]] bool matches(const nlohmann::json &object) const;
    [[nodiscard]] bool empty() const { return m_requirements.empty(); }

private:
    enum class Op
    {
        Equals,
        NotEquals,
        In,
        NotIn,
        Exists,
        DoesNotExist,
    };
    struct Requirement
    {
        std::string key;
        Op op = Op::Equals;
        std::vector<std::string> values;
    };
    std::vector<Requirement> m_requirements;
};

/// A parsed `fieldSelector` (`f=v`, `f==v`, `f!=v`, comma = AND) over the fields the real server
/// supports for the resource: metadata.name and metadata.namespace everywhere, plus spec.nodeName,
/// status.phase, spec.schedulerName for pods and involvedObject.* / reason / type for events.
class FieldSelector final
{
public:
    /// nullopt and `error` ("field label not supported: x") when a field is not supported.
    static std::optional<FieldSelector> parse(const std::string &text, int resource, std::string *error);
    [[nodiscard]] bool matches(const nlohmann::json &object) const;
    [[nodiscard]] bool empty() const { return m_terms.empty(); }

private:
    struct Term
    {
        std::vector<std::string> path;
        std::string value;
        bool negate = false;
    };
    std::vector<Term> m_terms;
};

} // namespace strata::sim::kube
