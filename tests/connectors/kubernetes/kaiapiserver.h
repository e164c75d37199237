#pragma once

// A scripted Kubernetes API server with KAI installed as its CRDs really are (fixture
// kubernetes-objects/kai-crds.json, from NVIDIA/KAI-Scheduler's deployments/kai-scheduler/crds):
// queues only in scheduling.run.ai/v2, podgroups only in scheduling.run.ai/v2alpha2. Discovery
// documents are derived from the CRDs the way kube-apiserver's apiextensions discovery does it
// (k8s.io/apiextensions-apiserver, pkg/apiserver/customresource_discovery_controller.go): a
// group's versions in Kubernetes version priority order (GA > beta > alpha, higher numbers
// first), the first of them preferred; per served version one APIResource (name = plural,
// singularName, namespaced = scope, kind, the CRD verbs, shortNames) plus "<plural>/status" when
// the version has the status subresource. Resources a version does not serve answer 404 with a
// NotFound Status, as the real server does.

#include "tests/support/fixtures.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <regex>
#include <string>
#include <tuple>
#include <vector>

namespace strata::kubernetes::test {

/// KAI's Queue and PodGroup CRDs (fixture, see kubernetes-objects/README.md).
inline nlohmann::json kaiCrds()
{
    return nlohmann::json::parse(testsupport::fixture("kubernetes-objects/kai-crds.json"));
}

/// Sort key of a version string in Kubernetes' priority order (smaller = higher priority).
inline std::tuple<int, int, int, std::string> kubeVersionPriorityKey(const std::string &version)
{
    static const std::regex re("^v([0-9]+)(?:(alpha|beta)([0-9]+))?$");
    std::smatch m;
    if (!std::regex_match(version, m, re)) {
        return {3, 0, 0, version}; // non-Kubernetes-like versions last, alphabetical
    }
    const int major = std::stoi(m[1].str());
    if (!m[2].matched) {
        return {0, -major, 0, {}};
    }
    const int level = m[2].str() == "beta" ? 1 : 2;
    return {level, -major, -std::stoi(m[3].str()), {}};
}

/// One resource of a served group version, as a CRD or a built-in group declares it.
struct ScriptedResource
{
    std::string group;
    std::string version;
    std::string plural;
    std::string singular;
    std::string kind;
    bool namespaced = true;
    std::vector<std::string> shortNames;
    bool statusSubresource = false;
};

/// The served resources of a cluster with KAI's CRDs plus `builtins` (non-core groups; the core
/// group /api/v1 is implied).
inline std::vector<ScriptedResource> kaiClusterResources(std::vector<ScriptedResource> builtins = {
                                                             {"batch", "v1", "jobs", "job", "Job", true, {}, true}})
{
    std::vector<ScriptedResource> out = std::move(builtins);
    for (const auto &crd : kaiCrds()) {
        const auto &spec = crd.at("spec");
        const auto &names = spec.at("names");
        for (const auto &version : spec.at("versions")) {
            if (!version.value("served", false)) {
                continue;
            }
            ScriptedResource r;
            r.group = spec.at("group").get<std::string>();
            r.version = version.at("name").get<std::string>();
            r.plural = names.at("plural").get<std::string>();
            r.singular = names.value("singular", std::string());
            r.kind = names.at("kind").get<std::string>();
            r.namespaced = spec.at("scope").get<std::string>() == "Namespaced";
            r.shortNames = names.value("shortNames", std::vector<std::string>{});
            r.statusSubresource = version.contains("subresources") && version["subresources"].contains("status");
            out.push_back(std::move(r));
        }
    }
    return out;
}

/// The discovery document for `path` ("/apis", "/apis/<group>", "/apis/<group>/<version>"), or
/// nullopt when `path` is not one of them (or names a group/version nothing serves).
inline std::optional<nlohmann::json> scriptedDiscoveryDocument(const std::string &path,
                                                               const std::vector<ScriptedResource> &resources)
{
    using nlohmann::json;
    auto versionsOf = [&](const std::string &group) {
        std::vector<std::string> versions;
        for (const auto &r : resources) {
            if (r.group == group && std::find(versions.begin(), versions.end(), r.version) == versions.end()) {
                versions.push_back(r.version);
            }
        }
        std::sort(versions.begin(), versions.end(), [](const std::string &a, const std::string &b) {
            return kubeVersionPriorityKey(a) < kubeVersionPriorityKey(b);
        });
        return versions;
    };
    auto groupJson = [&](const std::string &group) {
        const auto versions = versionsOf(group);
        json list = json::array();
        for (const auto &v : versions) {
            list.push_back({{"groupVersion", group + "/" + v}, {"version", v}});
        }
        return json{
            {"name", group},
            {"versions", list},
            {"preferredVersion", {{"groupVersion", group + "/" + versions.front()}, {"version", versions.front()}}}};
    };
    std::vector<std::string> groups;
    for (const auto &r : resources) {
        if (std::find(groups.begin(), groups.end(), r.group) == groups.end()) {
            groups.push_back(r.group);
        }
    }
    if (path == "/apis") {
        json list = json::array();
        for (const auto &g : groups) {
            list.push_back(groupJson(g));
        }
        return json{{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", list}};
    }
    static const std::regex groupPath("^/apis/([^/]+)$");
    static const std::regex versionPath("^/apis/([^/]+)/([^/]+)$");
    std::smatch m;
    if (std::regex_match(path, m, groupPath)) {
        if (std::find(groups.begin(), groups.end(), m[1].str()) == groups.end()) {
            return std::nullopt;
        }
        json g = groupJson(m[1].str());
        g["kind"] = "APIGroup";
        g["apiVersion"] = "v1";
        return g;
    }
    if (std::regex_match(path, m, versionPath)) {
        json list = json::array();
        for (const auto &r : resources) {
            if (r.group != m[1].str() || r.version != m[2].str()) {
                continue;
            }
            json entry{{"name", r.plural},
                       {"singularName", r.singular},
                       {"namespaced", r.namespaced},
                       {"kind", r.kind},
                       {"verbs", {"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"}}};
            if (!r.shortNames.empty()) {
                entry["shortNames"] = r.shortNames;
            }
            list.push_back(entry);
            if (r.statusSubresource) {
                list.push_back({{"name", r.plural + "/status"},
                                {"singularName", ""},
                                {"namespaced", r.namespaced},
                                {"kind", r.kind},
                                {"verbs", {"get", "patch", "update"}}});
            }
        }
        if (list.empty()) {
            return std::nullopt;
        }
        return json{{"kind", "APIResourceList"},
                    {"apiVersion", "v1"},
                    {"groupVersion", m[1].str() + "/" + m[2].str()},
                    {"resources", list}};
    }
    return std::nullopt;
}

/// The resource a collection path (list or watch) names, when the scripted cluster serves it:
/// "/api/v1/pods", "/api/v1/namespaces/x/pods", "/apis/<g>/<v>/<plural>",
/// "/apis/<g>/<v>/namespaces/x/<plural>". Core v1 resources are always served.
inline std::optional<ScriptedResource> scriptedCollection(const std::string &path,
                                                          const std::vector<ScriptedResource> &resources)
{
    static const std::regex core("^/api/v1/(?:namespaces/[^/]+/)?([a-z]+)$");
    static const std::regex grouped("^/apis/([^/]+)/([^/]+)/(?:namespaces/[^/]+/)?([a-z]+)$");
    std::smatch m;
    if (std::regex_match(path, m, core)) {
        ScriptedResource r;
        r.version = "v1";
        r.plural = m[1].str();
        return r;
    }
    if (std::regex_match(path, m, grouped)) {
        for (const auto &r : resources) {
            if (r.group == m[1].str() && r.version == m[2].str() && r.plural == m[3].str()) {
                return r;
            }
        }
    }
    return std::nullopt;
}

} // namespace strata::kubernetes::test
