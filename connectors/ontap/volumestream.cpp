#include "connectors/ontap/volumestream.h"

#include <cstdint>
#include <limits>
#include <simdjson.h>
#include <string_view>
#include <utility>

namespace strata::ontap {

namespace od = simdjson::ondemand;

// Every reader below returns false for "leave this page to the DOM decoder": it never decides
// that a page is bad, only that it is not the plain shape it knows how to read exactly like
// from_json does. So it may be stricter than from_json, never laxer.
namespace {

// Unknown values are walked (not skipped) so that On-Demand validates them as the DOM parser
// would; the depth bound keeps that recursion off the stack's edge.
constexpr int kVolumeStreamMaxDepth = 64;

enum class VsPresence
{
    Null,
    Value,
    Bad
};

// ONTAP sends null for an unset field: read() treats it as absent, and so do we.
VsPresence vsPresence(od::value &v)
{
    od::json_type type{};
    if (v.type().get(type) != simdjson::SUCCESS) {
        return VsPresence::Bad;
    }
    if (type != od::json_type::null) {
        return VsPresence::Value;
    }
    bool isNull = false;
    return v.is_null().get(isNull) == simdjson::SUCCESS && isNull ? VsPresence::Null : VsPresence::Bad;
}

// Runs `read` on a value that is there; null (absent to from_json) succeeds without it.
template <class Read> bool vsIfPresent(od::value &v, Read read)
{
    switch (vsPresence(v)) {
    case VsPresence::Null:
        return true;
    case VsPresence::Bad:
        return false;
    case VsPresence::Value:
        break;
    }
    return read();
}

bool vsWalk(od::value v, int depth)
{
    if (depth > kVolumeStreamMaxDepth) {
        return false;
    }
    od::json_type type{};
    if (v.type().get(type) != simdjson::SUCCESS) {
        return false;
    }
    switch (type) {
    case od::json_type::array: {
        od::array array;
        if (v.get_array().get(array) != simdjson::SUCCESS) {
            return false;
        }
        for (auto element : array) {
            od::value item;
            if (std::move(element).get(item) != simdjson::SUCCESS || !vsWalk(item, depth + 1)) {
                return false;
            }
        }
        return true;
    }
    case od::json_type::object: {
        od::object object;
        if (v.get_object().get(object) != simdjson::SUCCESS) {
            return false;
        }
        for (auto entry : object) {
            od::field field;
            std::string_view key;
            if (std::move(entry).get(field) != simdjson::SUCCESS || field.unescaped_key().get(key) != simdjson::SUCCESS
                || !vsWalk(field.value(), depth + 1)) {
                return false;
            }
        }
        return true;
    }
    case od::json_type::number: {
        double number = 0;
        return v.get_double().get(number) == simdjson::SUCCESS;
    }
    case od::json_type::string: {
        std::string_view text;
        return v.get_string().get(text) == simdjson::SUCCESS;
    }
    case od::json_type::boolean: {
        bool flag = false;
        return v.get_bool().get(flag) == simdjson::SUCCESS;
    }
    case od::json_type::null:
        return vsPresence(v) == VsPresence::Null;
    }
    return false;
}

bool vsString(od::value v, std::string &out)
{
    return vsIfPresent(v, [&] {
        std::string_view text;
        if (v.get_string().get(text) != simdjson::SUCCESS) {
            return false;
        }
        out.assign(text);
        return true;
    });
}

// Integers only: a float or an out-of-range value goes to convert(), which has the rules for them.
template <class T> bool vsOptionalInteger(od::value v, std::optional<T> &out)
{
    return vsIfPresent(v, [&] {
        std::int64_t number = 0;
        if (v.get_int64().get(number) != simdjson::SUCCESS || number < std::int64_t(std::numeric_limits<T>::min())
            || number > std::int64_t(std::numeric_limits<T>::max())) {
            return false;
        }
        out = T(number);
        return true;
    });
}

bool vsOptionalDouble(od::value v, std::optional<double> &out)
{
    return vsIfPresent(v, [&] {
        od::json_type type{};
        double number = 0;
        if (v.type().get(type) != simdjson::SUCCESS || type != od::json_type::number
            || v.get_double().get(number) != simdjson::SUCCESS) {
            return false;
        }
        out = number;
        return true;
    });
}

// A plain (not optional) field keeps its value when the JSON has null, as read() does.
template <class T> bool vsPlain(od::value v, T &out, bool (*readOptional)(od::value, std::optional<T> &))
{
    std::optional<T> value;
    if (!readOptional(v, value)) {
        return false;
    }
    if (value) {
        out = *value;
    }
    return true;
}

template <class T> bool vsInteger(od::value v, T &out)
{
    return vsPlain(v, out, &vsOptionalInteger<T>);
}

bool vsDouble(od::value v, double &out)
{
    return vsPlain(v, out, &vsOptionalDouble);
}

bool vsBool(od::value v, bool &out)
{
    return vsIfPresent(v, [&] {
        return v.get_bool().get(out) == simdjson::SUCCESS;
    });
}

// Iterates an object's fields, handing each key (unescaped) and value to `onField`, which returns
// false to give up. A key seen twice gives up too: the DOM keeps only the last, we would merge.
// `known` lists the keys `onField` reads; other keys are walked and dropped.
template <class OnField>
bool vsFields(od::value v, int depth, std::initializer_list<std::string_view> known, OnField onField)
{
    if (depth > kVolumeStreamMaxDepth) {
        return false;
    }
    od::object object;
    if (v.get_object().get(object) != simdjson::SUCCESS) {
        return false;
    }
    std::uint32_t seen = 0;
    for (auto entry : object) {
        od::field field;
        std::string_view key;
        if (std::move(entry).get(field) != simdjson::SUCCESS || field.unescaped_key().get(key) != simdjson::SUCCESS) {
            return false;
        }
        int index = 0;
        for (std::string_view name : known) {
            if (name == key) {
                break;
            }
            ++index;
        }
        if (index == int(known.size())) {
            if (!vsWalk(field.value(), depth + 1)) {
                return false;
            }
            continue;
        }
        if (seen & (1u << index)) {
            return false;
        }
        seen |= 1u << index;
        if (!onField(index, field.value())) {
            return false;
        }
    }
    return true;
}

// An object the DOM decoder reaches through find(): null means absent, and a non-object is
// looked through (find() answers "absent" for any key below it), so it is only validated.
template <class OnField>
bool vsNested(od::value v, int depth, std::initializer_list<std::string_view> known, OnField onField)
{
    return vsIfPresent(v, [&] {
        od::json_type type{};
        if (v.type().get(type) != simdjson::SUCCESS) {
            return false;
        }
        if (type != od::json_type::object) {
            return vsWalk(v, depth);
        }
        return vsFields(v, depth, known, onField);
    });
}

// from_json(ObjectRef): an object (anything else throws) with optional name and uuid.
bool vsObjectRef(od::value v, int depth, ObjectRef &out)
{
    return vsFields(v, depth, {"name", "uuid"}, [&](int index, od::value field) {
        return vsString(field, index == 0 ? out.name : out.uuid);
    });
}

// readRef(): null or absent, or an ObjectRef with a name or a uuid.
bool vsRef(od::value v, int depth, std::optional<ObjectRef> &out)
{
    return vsIfPresent(v, [&] {
        ObjectRef ref;
        if (!vsObjectRef(v, depth, ref)) {
            return false;
        }
        if (!ref.name.empty() || !ref.uuid.empty()) {
            out = std::move(ref);
        }
        return true;
    });
}

bool vsAggregates(od::value v, int depth, std::vector<ObjectRef> &out)
{
    return vsIfPresent(v, [&] {
        od::array array;
        if (v.get_array().get(array) != simdjson::SUCCESS) {
            return false;
        }
        for (auto element : array) {
            od::value item;
            ObjectRef ref;
            if (std::move(element).get(item) != simdjson::SUCCESS || !vsObjectRef(item, depth + 1, ref)) {
                return false;
            }
            out.push_back(std::move(ref));
        }
        return true;
    });
}

bool vsMetricTriple(od::value v, int depth, double &read, double &write, double &total)
{
    return vsNested(v, depth, {"read", "write", "total"}, [&](int index, od::value field) {
        return vsDouble(field, index == 0 ? read : index == 1 ? write : total);
    });
}

bool vsMetric(od::value v, int depth, std::optional<VolumeMetric> &out)
{
    return vsIfPresent(v, [&] {
        // from_json sets metric for any non-null value, reading what it finds below an object.
        VolumeMetric metric;
        if (!vsNested(v, depth, {"timestamp", "iops", "throughput", "latency"}, [&](int index, od::value field) {
                switch (index) {
                case 0:
                    return vsString(field, metric.timestamp);
                case 1:
                    return vsMetricTriple(field, depth + 1, metric.readIops, metric.writeIops, metric.totalIops);
                case 2:
                    return vsMetricTriple(field,
                                          depth + 1,
                                          metric.readThroughputBps,
                                          metric.writeThroughputBps,
                                          metric.totalThroughputBps);
                default:
                    return vsMetricTriple(
                        field, depth + 1, metric.readLatencyUs, metric.writeLatencyUs, metric.totalLatencyUs);
                }
            })) {
            return false;
        }
        out = metric;
        return true;
    });
}

// from_json(json, Volume&) field by field; see dto.cpp for the rules this mirrors.
bool vsVolume(od::value v, Volume &out)
{
    constexpr int depth = 3; // root object, records array, record
    bool hasUuid = false;
    bool hasName = false;
    std::optional<std::int64_t> size;
    std::optional<std::int64_t> spaceSize;
    std::optional<ObjectRef> svm;
    const bool ok = vsFields(
        v,
        depth,
        {"uuid",
         "name",
         "svm",
         "aggregates",
         "state",
         "style",
         "type",
         "size",
         "space",
         "qos",
         "clone",
         "nas",
         "snapshot_count",
         "create_time",
         "metric"},
        [&](int index, od::value field) {
            switch (index) {
            case 0: // required: null is as bad as missing
                hasUuid = vsPresence(field) == VsPresence::Value && vsString(field, out.uuid);
                return hasUuid;
            case 1:
                hasName = vsPresence(field) == VsPresence::Value && vsString(field, out.name);
                return hasName;
            case 2:
                return vsRef(field, depth + 1, svm);
            case 3:
                return vsAggregates(field, depth + 1, out.aggregates);
            case 4:
                return vsString(field, out.state);
            case 5:
                return vsString(field, out.style);
            case 6:
                return vsString(field, out.type);
            case 7:
                return vsOptionalInteger(field, size);
            case 8:
                return vsNested(field,
                                depth + 1,
                                {"size", "used", "available", "percent_used", "snapshot"},
                                [&](int spaceIndex, od::value spaceField) {
                                    switch (spaceIndex) {
                                    case 0:
                                        return vsOptionalInteger(spaceField, spaceSize);
                                    case 1:
                                        return vsOptionalInteger(spaceField, out.usedBytes);
                                    case 2:
                                        return vsOptionalInteger(spaceField, out.availableBytes);
                                    case 3:
                                        return vsOptionalDouble(spaceField, out.percentUsed);
                                    default:
                                        return vsNested(
                                            spaceField,
                                            depth + 2,
                                            {"reserve_percent", "used"},
                                            [&](int snapshotIndex, od::value snapshotField) {
                                                return snapshotIndex == 0
                                                           ? vsInteger(snapshotField, out.snapshotReservePercent)
                                                           : vsInteger(snapshotField, out.snapshotUsedBytes);
                                            });
                                    }
                                });
            case 9:
                return vsNested(field, depth + 1, {"policy"}, [&](int, od::value policy) {
                    return vsRef(policy, depth + 2, out.qosPolicy);
                });
            case 10:
                return vsNested(field,
                                depth + 1,
                                {"is_flexclone", "parent_volume", "parent_snapshot"},
                                [&](int cloneIndex, od::value cloneField) {
                                    switch (cloneIndex) {
                                    case 0:
                                        return vsBool(cloneField, out.isFlexClone);
                                    case 1:
                                        return vsRef(cloneField, depth + 2, out.cloneParentVolume);
                                    default:
                                        return vsRef(cloneField, depth + 2, out.cloneParentSnapshot);
                                    }
                                });
            case 11:
                return vsNested(field, depth + 1, {"path"}, [&](int, od::value path) {
                    return vsString(path, out.nasPath);
                });
            case 12:
                return vsInteger(field, out.snapshotCount);
            case 13:
                return vsString(field, out.createTime);
            default:
                return vsMetric(field, depth + 1, out.metric);
            }
        });
    if (!ok || !hasUuid || !hasName) {
        return false;
    }
    if (svm) {
        out.svm = std::move(*svm);
    }
    if (size) {
        out.sizeBytes = *size;
    }
    if (out.sizeBytes == 0 && spaceSize) {
        out.sizeBytes = *spaceSize;
    }
    if (!out.percentUsed && out.usedBytes && out.sizeBytes > 0) {
        out.percentUsed = 100.0 * static_cast<double>(*out.usedBytes) / static_cast<double>(out.sizeBytes);
    }
    return true;
}

} // namespace

struct VolumePageDecoder::Impl
{
    od::parser parser;
};

VolumePageDecoder::VolumePageDecoder()
    : m_impl(std::make_unique<Impl>())
{}

VolumePageDecoder::~VolumePageDecoder() = default;

bool VolumePageDecoder::decode(std::string &body, std::vector<Volume> &out, std::string &next)
{
    const std::size_t before = out.size();
    const auto giveUp = [&] {
        out.erase(out.begin() + std::ptrdiff_t(before), out.end());
        return false;
    };
    body.reserve(body.size() + simdjson::SIMDJSON_PADDING);
    od::document doc;
    if (m_impl->parser.iterate(simdjson::padded_string_view(body.data(), body.size(), body.capacity())).get(doc)
        != simdjson::SUCCESS) {
        return giveUp();
    }
    od::value root;
    if (doc.get_value().get(root) != simdjson::SUCCESS) {
        return giveUp();
    }
    std::optional<std::string> href;
    const bool ok = vsFields(root, 1, {"records", "_links"}, [&](int index, od::value field) {
        if (index == 1) {
            // listAll reads _links.next.href only when both are objects, and href must be a string.
            return vsNested(field, 2, {"next"}, [&](int, od::value nextLink) {
                return vsNested(nextLink, 3, {"href"}, [&](int, od::value link) {
                    std::string text;
                    if (vsPresence(link) != VsPresence::Value || !vsString(link, text)) {
                        return false;
                    }
                    href = std::move(text);
                    return true;
                });
            });
        }
        od::array records;
        if (field.get_array().get(records) != simdjson::SUCCESS) {
            return false;
        }
        for (auto element : records) {
            od::value record;
            Volume volume;
            if (std::move(element).get(record) != simdjson::SUCCESS || !vsVolume(record, volume)) {
                return false;
            }
            out.push_back(std::move(volume));
        }
        return true;
    });
    // Anything after the collection object is malformed JSON to the DOM parser.
    const char *trailing = nullptr;
    if (!ok || doc.current_location().get(trailing) != simdjson::OUT_OF_BOUNDS) {
        return giveUp();
    }
    next = href.value_or(std::string());
    return true;
}

} // namespace strata::ontap
