#include "simulators/kubernetes/selectors.h"

#include "simulators/common/text.h"
#include "simulators/kubernetes/resources.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace strata::sim::kube {

using nlohmann::json;

namespace {

// Splits on commas outside parentheses ("a in (x,y),b=c" -> 2 parts).
std::vector<std::string> splitTopLevel(const std::string &text)
{
    std::vector<std::string> out;
    std::string current;
    int depth = 0;
    for (char c : text) {
        if (c == '(') {
            depth++;
        } else if (c == ')') {
            depth--;
        }
        if (c == ',' && depth == 0) {
            out.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    out.push_back(current);
    return out;
}

std::vector<std::string> splitValues(const std::string &inner)
{
    std::vector<std::string> values;
    std::string current;
    for (char c : inner) {
        if (c == ',') {
            values.push_back(trimBlanks(current));
            current.clear();
        } else {
            current += c;
        }
    }
    values.push_back(trimBlanks(current));
    return values;
}

const json *label(const json &object, const std::string &key)
{
    const auto meta = object.find("metadata");
    if (meta == object.end()) {
        return nullptr;
    }
    const auto labels = meta->find("labels");
    if (labels == meta->end() || !labels->is_object()) {
        return nullptr;
    }
    const auto it = labels->find(key);
    return it == labels->end() ? nullptr : &*it;
}

} // namespace

std::optional<LabelSelector> LabelSelector::parse(const std::string &text, std::string *error)
{
    LabelSelector selector;
    if (trimBlanks(text).empty()) {
        return selector;
    }
    for (const std::string &rawPart : splitTopLevel(text)) {
        const std::string part = trimBlanks(rawPart);
        Requirement r;
        if (part.empty()) {
            *error = "found '', expected: !, identifier, or 'end of string'";
            return std::nullopt;
        }
        if (part[0] == '!') {
            r.key = trimBlanks(part.substr(1));
            r.op = Op::DoesNotExist;
        } else if (const auto paren = part.find('('); paren != std::string::npos) {
            const auto close = part.rfind(')');
            const std::string head = trimBlanks(part.substr(0, paren));
            const auto space = head.rfind(' ');
            if (close == std::string::npos || space == std::string::npos) {
                *error = "unable to parse requirement: " + part;
                return std::nullopt;
            }
            const std::string op = trimBlanks(head.substr(space + 1));
            r.key = trimBlanks(head.substr(0, space));
            if (op == "in") {
                r.op = Op::In;
            } else if (op == "notin") {
                r.op = Op::NotIn;
            } else {
                *error = "unable to parse requirement: " + part;
                return std::nullopt;
            }
            r.values = splitValues(part.substr(paren + 1, close - paren - 1));
        } else if (const auto ne = part.find("!="); ne != std::string::npos) {
            r.key = trimBlanks(part.substr(0, ne));
            r.op = Op::NotEquals;
            r.values = {trimBlanks(part.substr(ne + 2))};
        } else if (const auto eq = part.find('='); eq != std::string::npos) {
            r.key = trimBlanks(part.substr(0, eq));
            r.op = Op::Equals;
            const std::size_t skip = part.compare(eq, 2, "==") == 0 ? 2 : 1;
            r.values = {trimBlanks(part.substr(eq + skip))};
        } else {
            r.key = part;
            r.op = Op::Exists;
        }
        if (r.key.empty() || r.key.find_first_of(" \t!=") != std::string::npos) {
            *error = "unable to parse requirement: " + part;
            return std::nullopt;
        }
        selector.m_requirements.push_back(std::move(r));
    }
    return selector;
}

bool LabelSelector::matches(const json &object) const
{
    for (const Requirement &r : m_requirements) {
        const json *value = label(object, r.key);
        const std::string text = value && value->is_string() ? value->get<std::string>() : std::string();
        const bool in = value && std::find(r.values.begin(), r.values.end(), text) != r.values.end();
        switch (r.op) {
        case Op::Equals:
        case Op::In:
            if (!in) {
                return false;
            }
            break;
        case Op::NotEquals:
        case Op::NotIn:
            if (in) {
                return false;
            }
            break;
        case Op::Exists:
            if (!value) {
                return false;
            }
            break;
        case Op::DoesNotExist:
            if (value) {
                return false;
            }
            break;
        }
    }
    return true;
}

std::optional<FieldSelector> FieldSelector::parse(const std::string &text, int resource, std::string *error)
{
    FieldSelector selector;
    if (trimBlanks(text).empty()) {
        return selector;
    }
    std::vector<std::string> allowed{"metadata.name", "metadata.namespace"};
    if (resource == RPods) {
        allowed.insert(allowed.end(),
                       {"spec.nodeName",
                        "status.phase",
                        "spec.schedulerName",
                        "spec.serviceAccountName",
                        "status.podIP",
                        "spec.restartPolicy"});
    } else if (resource == REvents) {
        allowed.insert(allowed.end(),
                       {"involvedObject.kind",
                        "involvedObject.namespace",
                        "involvedObject.name",
                        "involvedObject.uid",
                        "involvedObject.apiVersion",
                        "involvedObject.resourceVersion",
                        "involvedObject.fieldPath",
                        "reason",
                        "reportingComponent",
                        "source",
                        "type"});
    } else if (resource == RNamespaces) {
        allowed.push_back("status.phase");
    } else if (resource == RNodes) {
        allowed.push_back("spec.unschedulable");
    } else if (resource == RJobs) {
        allowed.push_back("status.successful");
    }
    for (const std::string &rawPart : splitTopLevel(text)) {
        const std::string part = trimBlanks(rawPart);
        Term term;
        std::string field;
        if (const auto ne = part.find("!="); ne != std::string::npos) {
            field = trimBlanks(part.substr(0, ne));
            term.value = trimBlanks(part.substr(ne + 2));
            term.negate = true;
        } else if (const auto eq = part.find('='); eq != std::string::npos) {
            field = trimBlanks(part.substr(0, eq));
            const std::size_t skip = part.compare(eq, 2, "==") == 0 ? 2 : 1;
            term.value = trimBlanks(part.substr(eq + skip));
        } else {
            *error = "invalid selector: '" + text + "'; can't understand '" + part + "'";
            return std::nullopt;
        }
        if (std::find(allowed.begin(), allowed.end(), field) == allowed.end()) {
            *error = "field label not supported: " + field;
            return std::nullopt;
        }
        std::string piece;
        for (char c : field) {
            if (c == '.') {
                term.path.push_back(piece);
                piece.clear();
            } else {
                piece += c;
            }
        }
        term.path.push_back(piece);
        selector.m_terms.push_back(std::move(term));
    }
    return selector;
}

bool FieldSelector::matches(const json &object) const
{
    for (const Term &term : m_terms) {
        const json *cur = &object;
        for (const std::string &p : term.path) {
            if (!cur->is_object()) {
                cur = nullptr;
                break;
            }
            const auto it = cur->find(p);
            if (it == cur->end()) {
                cur = nullptr;
                break;
            }
            cur = &*it;
        }
        std::string value;
        if (cur && cur->is_string()) {
            value = cur->get<std::string>();
        } else if (cur && cur->is_boolean()) {
            value = cur->get<bool>() ? "true" : "false";
        } else if (cur && cur->is_number()) {
            value = cur->dump();
        }
        if ((value == term.value) == term.negate) {
            return false;
        }
    }
    return true;
}

} // namespace strata::sim::kube
