#include "connectors/storagegrid/dto.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace strata::storagegrid {

using nlohmann::json;

namespace {

[[noreturn]] void bad(const std::string &field, const std::string &problem)
{
    throw std::invalid_argument("\"" + field + "\" " + problem);
}

const json *member(const json &object, const char *name)
{
    if (!object.is_object()) {
        return nullptr;
    }
    const auto it = object.find(name);
    if (it == object.end() || it->is_null()) {
        return nullptr;
    }
    return &*it;
}

std::string optString(const json &object, const char *name)
{
    const json *value = member(object, name);
    if (!value) {
        return {};
    }
    if (!value->is_string()) {
        bad(name, std::string("is a ") + value->type_name() + ", expected a string");
    }
    return value->get<std::string>();
}

std::string reqString(const json &object, const char *name)
{
    const json *value = member(object, name);
    if (!value) {
        bad(name, "is missing");
    }
    std::string text = optString(object, name);
    if (text.empty()) {
        bad(name, "is empty");
    }
    return text;
}

bool optBool(const json &object, const char *name)
{
    const json *value = member(object, name);
    if (!value) {
        return false;
    }
    if (!value->is_boolean()) {
        bad(name, std::string("is a ") + value->type_name() + ", expected true or false");
    }
    return value->get<bool>();
}

std::optional<std::int64_t> optCount(const json &object, const char *name)
{
    const json *value = member(object, name);
    if (!value) {
        return std::nullopt;
    }
    if (value->is_number_unsigned()) {
        const auto v = value->get<std::uint64_t>();
        if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            bad(name, "is out of range");
        }
        return static_cast<std::int64_t>(v);
    }
    if (value->is_number_integer()) {
        return value->get<std::int64_t>();
    }
    if (value->is_number_float()) {
        const double v = value->get<double>();
        if (!std::isfinite(v) || v != std::floor(v) || std::fabs(v) > 9.0e18) {
            bad(name, "is not a whole number");
        }
        return static_cast<std::int64_t>(v);
    }
    if (value->is_string()) {
        const std::string text = value->get<std::string>();
        char *end = nullptr;
        errno = 0;
        const long long v = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || errno != 0 || *end != '\0') {
            bad(name, "is \"" + text + "\", expected a whole number");
        }
        return static_cast<std::int64_t>(v);
    }
    bad(name, std::string("is a ") + value->type_name() + ", expected a number");
}

std::int64_t count(const json &object, const char *name)
{
    return optCount(object, name).value_or(0);
}

int smallCount(const json &object, const char *name)
{
    const std::int64_t v = count(object, name);
    if (v < 0 || v > std::numeric_limits<int>::max()) {
        bad(name, "is out of range");
    }
    return static_cast<int>(v);
}

const json &optObject(const json &object, const char *name)
{
    static const json empty = json::object();
    const json *value = member(object, name);
    if (!value) {
        return empty;
    }
    if (!value->is_object()) {
        bad(name, std::string("is a ") + value->type_name() + ", expected an object");
    }
    return *value;
}

const json &optArray(const json &object, const char *name)
{
    static const json empty = json::array();
    const json *value = member(object, name);
    if (!value) {
        return empty;
    }
    if (!value->is_array()) {
        bad(name, std::string("is a ") + value->type_name() + ", expected an array");
    }
    return *value;
}

void requireObject(const json &value, const char *what)
{
    if (!value.is_object()) {
        throw std::invalid_argument(std::string(what) + " is a " + value.type_name() + ", expected an object");
    }
}

double sampleNumber(const json &value, const char *what)
{
    if (value.is_number()) {
        return value.get<double>();
    }
    if (value.is_string()) {
        const std::string text = value.get<std::string>();
        char *end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0') {
            throw std::invalid_argument(std::string(what) + " \"" + text + "\" is not a number");
        }
        return v;
    }
    throw std::invalid_argument(std::string(what) + " is a " + value.type_name() + ", expected a number");
}

MetricSample parseSample(const json &pair)
{
    if (!pair.is_array() || pair.size() != 2) {
        throw std::invalid_argument("a sample is not a [time, \"value\"] pair");
    }
    return MetricSample{sampleNumber(pair[0], "sample time"), sampleNumber(pair[1], "sample value")};
}

std::map<std::string, std::string> stringMap(const json &object)
{
    std::map<std::string, std::string> out;
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (it->is_string()) {
            out.emplace(it.key(), it->get<std::string>());
        }
    }
    return out;
}

} // namespace

GridHealth parseGridHealth(const json &data)
{
    requireObject(data, "health");
    GridHealth h;
    const json &alarms = optObject(data, "alarms");
    h.alarmsCritical = smallCount(alarms, "critical");
    h.alarmsMajor = smallCount(alarms, "major");
    h.alarmsMinor = smallCount(alarms, "minor");
    h.alarmsNotice = smallCount(alarms, "notice");
    const json &alerts = optObject(data, "alerts");
    h.alertsCritical = smallCount(alerts, "critical");
    h.alertsMajor = smallCount(alerts, "major");
    h.alertsMinor = smallCount(alerts, "minor");
    const json &nodes = optObject(data, "nodes");
    h.nodesConnected = smallCount(nodes, "connected");
    h.nodesAdminDown = smallCount(nodes, "administratively-down");
    h.nodesUnknown = smallCount(nodes, "unknown");
    return h;
}

NodeHealth parseNodeHealth(const json &item)
{
    requireObject(item, "node");
    NodeHealth n;
    n.id = reqString(item, "id");
    n.name = reqString(item, "name");
    n.type = optString(item, "type");
    n.siteId = optString(item, "siteId");
    n.siteName = optString(item, "siteName");
    n.severity = optString(item, "severity");
    n.state = optString(item, "state");
    return n;
}

namespace {

// Fields both alert lists share.
Alert parseAlertCommon(const json &item)
{
    requireObject(item, "alert");
    Alert a;
    a.id = reqString(item, "id");
    a.name = optString(item, "name");
    const json &labels = optObject(item, "labels");
    a.labels = stringMap(labels);
    a.severity = optString(labels, "severity");
    a.instance = optString(labels, "instance");
    a.siteName = optString(labels, "site_name");
    if (a.name.empty()) {
        a.name = optString(labels, "alertname");
    }
    const json &annotations = optObject(item, "annotations");
    a.summary = optString(annotations, "summary");
    a.description = optString(annotations, "description");
    a.status = optString(item, "status");
    a.inhibited = optBool(item, "inhibited");
    return a;
}

} // namespace

Alert parseAlert(const json &item)
{
    Alert a = parseAlertCommon(item);
    a.startsAt = optString(item, "startsAt");
    a.silenced = optBool(item, "silenced");
    return a;
}

Alert parseResolvedAlert(const json &item)
{
    Alert a = parseAlertCommon(item);
    if (a.severity.empty()) {
        a.severity = optString(item, "severity");
    }
    if (a.instance.empty()) {
        a.instance = optString(item, "instance");
    }
    a.startsAt = optString(item, "startTime");
    a.endsAt = optString(item, "endTime");
    a.eventId = optCount(item, "eventId");
    return a;
}

Account parseAccount(const json &item)
{
    requireObject(item, "account");
    Account a;
    a.id = reqString(item, "id");
    a.name = reqString(item, "name");
    a.description = optString(item, "description");
    for (const json &capability : optArray(item, "capabilities")) {
        if (!capability.is_string()) {
            bad("capabilities", "holds a non-string");
        }
        a.capabilities.push_back(capability.get<std::string>());
    }
    const json &policy = optObject(item, "policy");
    a.quotaObjectBytes = optCount(policy, "quotaObjectBytes");
    a.useAccountIdentitySource = optBool(policy, "useAccountIdentitySource");
    a.allowPlatformServices = optBool(policy, "allowPlatformServices");
    a.allowSelectObjectContent = optBool(policy, "allowSelectObjectContent");
    a.objectCount = optCount(item, "objectCount");
    a.dataBytes = optCount(item, "dataBytes");
    return a;
}

BucketUsage parseBucketUsage(const json &item)
{
    requireObject(item, "bucket");
    BucketUsage b;
    b.name = reqString(item, "name");
    b.region = optString(item, "region");
    b.versioningEnabled = optBool(item, "versioningEnabled");
    b.objectCount = count(item, "objectCount");
    b.dataBytes = count(item, "dataBytes");
    b.quotaObjectBytes = optCount(item, "quotaObjectBytes");
    return b;
}

AccountUsage parseAccountUsage(const json &data)
{
    requireObject(data, "usage");
    AccountUsage u;
    u.calculationTime = optString(data, "calculationTime");
    u.objectCount = count(data, "objectCount");
    u.dataBytes = count(data, "dataBytes");
    const json &buckets = optArray(data, "buckets");
    for (std::size_t i = 0; i < buckets.size(); ++i) {
        try {
            u.buckets.push_back(parseBucketUsage(buckets[i]));
        } catch (const std::invalid_argument &e) {
            throw std::invalid_argument("bucket " + std::to_string(i + 1) + ": " + e.what());
        }
    }
    return u;
}

IlmPolicy parseIlmPolicy(const json &item)
{
    requireObject(item, "ILM policy");
    IlmPolicy p;
    p.id = optString(item, "id");
    p.name = reqString(item, "name");
    p.reason = optString(item, "reason");
    p.active = optBool(item, "active");
    for (const json &rule : optArray(item, "rules")) {
        if (rule.is_string()) {
            p.rules.push_back(rule.get<std::string>());
        } else if (rule.is_object()) {
            std::string id = optString(rule, "id");
            if (id.empty()) {
                id = optString(rule, "ruleId");
            }
            if (id.empty()) {
                id = optString(rule, "name");
            }
            p.rules.push_back(std::move(id));
        } else {
            bad("rules", "holds a " + std::string(rule.type_name()));
        }
    }
    const json *defaultRule = member(item, "defaultRule");
    if (defaultRule && defaultRule->is_string()) {
        p.defaultRule = defaultRule->get<std::string>();
    } else if (defaultRule && defaultRule->is_object()) {
        p.defaultRule = optString(*defaultRule, "id");
    }
    return p;
}

Container parseContainer(const json &item)
{
    requireObject(item, "container");
    Container c;
    c.name = reqString(item, "name");
    c.creationTime = optString(item, "creationTime");
    c.region = optString(item, "region");
    return c;
}

MetricResult parseMetricResult(const json &data)
{
    requireObject(data, "metric result");
    MetricResult r;
    r.resultType = reqString(data, "resultType");
    const json *result = member(data, "result");
    if (!result) {
        bad("result", "is missing");
    }
    if (r.resultType == "scalar") {
        MetricSeries series;
        series.samples.push_back(parseSample(*result));
        r.series.push_back(std::move(series));
        return r;
    }
    if (r.resultType != "vector" && r.resultType != "matrix") {
        bad("resultType", "is \"" + r.resultType + "\", expected vector, matrix or scalar");
    }
    if (!result->is_array()) {
        bad("result", std::string("is a ") + result->type_name() + ", expected an array");
    }
    const bool matrix = r.resultType == "matrix";
    for (std::size_t i = 0; i < result->size(); ++i) {
        const json &item = (*result)[i];
        try {
            requireObject(item, "series");
            MetricSeries series;
            series.labels = stringMap(optObject(item, "metric"));
            if (matrix) {
                const json *values = member(item, "values");
                if (!values || !values->is_array()) {
                    bad("values", "is missing or not an array");
                }
                series.samples.reserve(values->size());
                for (const json &pair : *values) {
                    series.samples.push_back(parseSample(pair));
                }
            } else {
                const json *value = member(item, "value");
                if (!value) {
                    bad("value", "is missing");
                }
                series.samples.push_back(parseSample(*value));
            }
            r.series.push_back(std::move(series));
        } catch (const std::invalid_argument &e) {
            throw std::invalid_argument("series " + std::to_string(i + 1) + ": " + e.what());
        }
    }
    return r;
}

} // namespace strata::storagegrid
