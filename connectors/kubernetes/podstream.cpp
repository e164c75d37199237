#include "connectors/kubernetes/podstream.h"

#include "connectors/kubernetes/podparts.h"

#include <array>
#include <cstdint>
#include <simdjson.h>
#include <utility>

namespace strata::kubernetes {

namespace od = simdjson::ondemand;

// Every reader returns false for "not the plain shape: leave it to the DOM route". A reader
// may be stricter than parsePod(), never laxer.
namespace {

// Unknown values are walked (not skipped) so that On-Demand checks them as the DOM parser
// does; the bound keeps that recursion shallow (parseJsonBounded allows 256).
constexpr int kPodStreamMaxDepth = 64;

bool psIsNull(od::value &v, bool &isNull)
{
    od::json_type type{};
    if (v.type().get(type) != simdjson::SUCCESS) {
        return false;
    }
    isNull = false;
    if (type == od::json_type::null) {
        // type() looks at the first byte only: "nul" or "nullx" must still fail.
        return v.is_null().get(isNull) == simdjson::SUCCESS && isNull;
    }
    return true;
}

// Each member of the object `v` to onMember(key, value), in text order; false when `v` is not
// an object, its text is bad or onMember says so.
template <class OnMember> bool psEachMember(od::value v, OnMember onMember)
{
    od::object object;
    if (v.get_object().get(object) != simdjson::SUCCESS) {
        return false;
    }
    for (auto entry : object) {
        od::field member;
        std::string_view key;
        if (std::move(entry).get(member) != simdjson::SUCCESS || member.unescaped_key().get(key) != simdjson::SUCCESS
            || !onMember(key, member.value())) {
            return false;
        }
    }
    return true;
}

// Each element of an array (null = empty) to onElement(value).
template <class OnElement> bool psElements(od::value v, OnElement onElement)
{
    bool isNull = false;
    if (!psIsNull(v, isNull)) {
        return false;
    }
    if (isNull) {
        return true;
    }
    od::array array;
    if (v.get_array().get(array) != simdjson::SUCCESS) {
        return false;
    }
    for (auto element : array) {
        od::value item;
        if (std::move(element).get(item) != simdjson::SUCCESS || !onElement(item)) {
            return false;
        }
    }
    return true;
}

// Appends one record per array element, read by read(element, record).
template <class T, class Read> bool psAppendEach(od::value v, std::vector<T> &out, Read read)
{
    return psElements(v, [&out, &read](od::value item) {
        out.emplace_back();
        return read(item, out.back());
    });
}

bool psWalk(od::value v, int depth)
{
    od::json_type type{};
    if (depth > kPodStreamMaxDepth || v.type().get(type) != simdjson::SUCCESS) {
        return false;
    }
    std::string_view text;
    double number = 0;
    bool flag = false;
    switch (type) {
    case od::json_type::object:
        return psEachMember(v, [depth](std::string_view, od::value member) {
            return psWalk(member, depth + 1);
        });
    case od::json_type::array:
        return psElements(v, [depth](od::value item) {
            return psWalk(item, depth + 1);
        });
    case od::json_type::string:
        return v.get_string().get(text) == simdjson::SUCCESS;
    case od::json_type::number:
        return v.get_double().get(number) == simdjson::SUCCESS;
    case od::json_type::boolean:
        return v.get_bool().get(flag) == simdjson::SUCCESS;
    case od::json_type::null:
        return psIsNull(v, flag) && flag;
    }
    return false;
}

// The members of an object whose keys are in `known` go to onMember(index, value); others are
// walked. A known key given twice is left to the DOM route (which keeps the last). null is an
// absent object (as parsePod's field() reads it): no member, *present = false.
template <std::size_t N, class OnMember>
bool psMembers(
    od::value v, int depth, const std::array<std::string_view, N> &known, OnMember onMember, bool *present = nullptr)
{
    static_assert(N <= 64);
    bool isNull = false;
    if (depth > kPodStreamMaxDepth || !psIsNull(v, isNull)) {
        return false;
    }
    if (present) {
        *present = !isNull;
    }
    if (isNull) {
        return true;
    }
    std::uint64_t seen = 0;
    return psEachMember(v, [&](std::string_view key, od::value member) {
        std::size_t index = 0;
        while (index < N && known[index] != key) {
            ++index;
        }
        if (index == N) {
            return psWalk(member, depth + 1);
        }
        if (seen & (std::uint64_t{1} << index)) {
            return false;
        }
        seen |= std::uint64_t{1} << index;
        return onMember(index, member);
    });
}

bool psText(od::value v, std::string &out)
{
    bool isNull = false;
    if (!psIsNull(v, isNull)) {
        return false;
    }
    if (isNull) {
        out.clear();
        return true;
    }
    std::string_view text;
    if (v.get_string().get(text) != simdjson::SUCCESS) {
        return false;
    }
    out.assign(text);
    return true;
}

bool psTextList(od::value v, std::vector<std::string> &out)
{
    out.clear();
    return psElements(v, [&out](od::value item) {
        std::string_view text;
        if (item.get_string().get(text) != simdjson::SUCCESS) {
            return false;
        }
        out.emplace_back(text);
        return true;
    });
}

// labels, annotations: string values only (parsePod would print a number or boolean as JSON).
bool psTextMap(od::value v, int depth, std::map<std::string, std::string> &out)
{
    out.clear();
    bool isNull = false;
    if (depth > kPodStreamMaxDepth || !psIsNull(v, isNull)) {
        return false;
    }
    if (isNull) {
        return true;
    }
    return psEachMember(v, [&out](std::string_view key, od::value member) {
        std::string_view text;
        return member.get_string().get(text) == simdjson::SUCCESS
               && out.emplace(std::string(key), std::string(text)).second;
    });
}

// resources.limits / requests: "nvidia.com/gpu" as a quantity string or an integer, in milli.
bool psGpuAmount(od::value v, int depth, std::int64_t &out)
{
    return psMembers(
        v, depth, std::array<std::string_view, 1>{"nvidia.com/gpu"}, [&out](std::size_t, od::value amount) {
            bool isNull = false;
            if (!psIsNull(amount, isNull)) {
                return false;
            }
            if (isNull) {
                return true;
            }
            std::string_view text;
            std::int64_t number = 0;
            if (amount.get_string().get(text) == simdjson::SUCCESS) {
                out = quantityMilli(text).value_or(out);
                return true;
            }
            // An integer reads as its digits would (long double holds any int64 exactly).
            if (amount.get_int64().get(number) == simdjson::SUCCESS) {
                out = quantityMilli(std::to_string(number)).value_or(out);
                return true;
            }
            return false;
        });
}

bool psMounts(od::value v, int depth, std::vector<PodMountParts> &out)
{
    return psElements(v, [&](od::value item) {
        PodMountParts mount;
        const bool ok = psMembers(item,
                                  depth + 1,
                                  std::array<std::string_view, 2>{"name", "subPath"},
                                  [&](std::size_t index, od::value text) {
                                      return psText(text, index == 0 ? mount.first : mount.second);
                                  });
        out.push_back(std::move(mount));
        return ok;
    });
}

bool psContainer(od::value v, int depth, PodContainerParts &out)
{
    bool present = false;
    const bool ok = psMembers(
        v,
        depth,
        std::array<std::string_view, 5>{"image", "command", "args", "resources", "volumeMounts"},
        [&](std::size_t index, od::value member) {
            switch (index) {
            case 0:
                return psText(member, out.image);
            case 1:
                return psTextList(member, out.command);
            case 2:
                return psTextList(member, out.args);
            case 3:
                return psMembers(member,
                                 depth + 1,
                                 std::array<std::string_view, 2>{"limits", "requests"},
                                 [&](std::size_t which, od::value amounts) {
                                     return psGpuAmount(
                                         amounts, depth + 2, which == 0 ? out.gpuLimitMilli : out.gpuRequestMilli);
                                 });
            default:
                return psMounts(member, depth + 1, out.mounts);
            }
        },
        &present);
    return ok && present; // parsePod skips a null container: rare, the DOM route does it
}

bool psSpec(od::value v, int depth, PodSpecParts &out)
{
    return psMembers(v,
                     depth,
                     std::array<std::string_view, 6>{
                         "nodeName", "priorityClassName", "schedulerName", "containers", "initContainers", "volumes"},
                     [&](std::size_t index, od::value member) {
                         std::string *const texts[] = {&out.nodeName, &out.priorityClassName, &out.schedulerName};
                         switch (index) {
                         case 0:
                         case 1:
                         case 2:
                             return psText(member, *texts[index]);
                         case 3:
                             return psAppendEach(member, out.containers, [depth](od::value item, auto &container) {
                                 return psContainer(item, depth + 2, container);
                             });
                         case 4:
                             return psAppendEach(
                                 member, out.initContainerMounts, [depth](od::value item, auto &mounts) {
                                     bool present = false;
                                     return psMembers(
                                                item,
                                                depth + 2,
                                                std::array<std::string_view, 1>{"volumeMounts"},
                                                [&](std::size_t, od::value list) {
                                                    return psMounts(list, depth + 3, mounts);
                                                },
                                                &present)
                                            && present;
                                 });
                         default:
                             return psElements(member, [&](od::value item) {
                                 std::string name, claim;
                                 bool present = false;
                                 const bool ok = psMembers(
                                                     item,
                                                     depth + 2,
                                                     std::array<std::string_view, 2>{"name", "persistentVolumeClaim"},
                                                     [&](std::size_t which, od::value field) {
                                                         if (which == 0) {
                                                             return psText(field, name);
                                                         }
                                                         return psMembers(field,
                                                                          depth + 3,
                                                                          std::array<std::string_view, 1>{"claimName"},
                                                                          [&](std::size_t, od::value text) {
                                                                              return psText(text, claim);
                                                                          });
                                                     },
                                                     &present)
                                                 && present;
                                 if (ok && !claim.empty()) {
                                     out.claimVolumes.emplace_back(std::move(name), std::move(claim));
                                 }
                                 return ok;
                             });
                         }
                     });
}

bool psContainerStatus(od::value v, int depth, PodContainerStatusParts &out)
{
    // state.waiting / state.terminated / lastState.terminated count only when they are objects.
    const auto reasonOf = [depth](od::value object,
                                  int levels,
                                  std::optional<std::string> &reason,
                                  std::string *message,
                                  std::optional<std::int64_t> *exitCode) {
        std::string reasonText, messageText;
        std::optional<std::int64_t> code;
        bool present = false;
        const bool ok = psMembers(
            object,
            depth + levels,
            std::array<std::string_view, 3>{"reason", "message", "exitCode"},
            [&](std::size_t index, od::value member) {
                if (index == 0) {
                    return psText(member, reasonText);
                }
                if (index == 1) {
                    return psText(member, messageText);
                }
                bool isNull = false;
                std::int64_t number = 0;
                if (!psIsNull(member, isNull)) {
                    return false;
                }
                if (!isNull) {
                    if (member.get_int64().get(number) != simdjson::SUCCESS) {
                        return false;
                    }
                    code = number;
                }
                return true;
            },
            &present);
        if (ok && present) {
            reason = std::move(reasonText);
            if (message) {
                *message = std::move(messageText);
            }
            if (exitCode) {
                *exitCode = code;
            }
        }
        return ok;
    };
    std::optional<std::string> waitingReason;
    std::string waitingMessage;
    bool present = false;
    const bool ok = psMembers(
        v,
        depth,
        std::array<std::string_view, 2>{"state", "lastState"},
        [&](std::size_t index, od::value member) {
            if (index == 0) {
                return psMembers(member,
                                 depth + 1,
                                 std::array<std::string_view, 2>{"waiting", "terminated"},
                                 [&](std::size_t which, od::value state) {
                                     return which == 0 ? reasonOf(state, 2, waitingReason, &waitingMessage, nullptr)
                                                       : reasonOf(state, 2, out.terminatedReason, nullptr, nullptr);
                                 });
            }
            return psMembers(
                member, depth + 1, std::array<std::string_view, 1>{"terminated"}, [&](std::size_t, od::value state) {
                    return reasonOf(state, 2, out.lastTerminatedReason, nullptr, &out.lastExitCode);
                });
        },
        &present);
    if (waitingReason) {
        out.waiting.emplace(std::move(*waitingReason), std::move(waitingMessage));
    }
    return ok && present;
}

bool psCondition(od::value v, int depth, Condition &out)
{
    bool present = false;
    return psMembers(
               v,
               depth,
               std::array<std::string_view, 5>{"type", "status", "reason", "message", "lastTransitionTime"},
               [&out](std::size_t index, od::value member) {
                   std::string *const targets[] = {
                       &out.type, &out.status, &out.reason, &out.message, &out.lastTransitionTime};
                   return psText(member, *targets[index]);
               },
               &present)
           && present;
}

bool psStatus(od::value v, int depth, PodParts &out)
{
    return psMembers(v,
                     depth,
                     std::array<std::string_view, 4>{"phase", "startTime", "containerStatuses", "conditions"},
                     [&](std::size_t index, od::value member) {
                         if (index < 2) {
                             return psText(member, index == 0 ? out.phase : out.startTime);
                         }
                         if (index == 2) {
                             return psAppendEach(member, out.containerStatuses, [depth](od::value item, auto &status) {
                                 return psContainerStatus(item, depth + 2, status);
                             });
                         }
                         return psAppendEach(member, out.conditions, [depth](od::value item, auto &condition) {
                             return psCondition(item, depth + 2, condition);
                         });
                     });
}

bool psMetadata(od::value v, int depth, PodParts &out)
{
    ObjectMeta &meta = out.meta;
    bool present = false;
    const bool ok = psMembers(
        v,
        depth,
        std::array<std::string_view, 9>{"name",
                                        "namespace",
                                        "uid",
                                        "resourceVersion",
                                        "creationTimestamp",
                                        "deletionTimestamp",
                                        "labels",
                                        "annotations",
                                        "ownerReferences"},
        [&](std::size_t index, od::value member) {
            std::string *const texts[] = {&meta.name,
                                          &meta.namespace_,
                                          &meta.uid,
                                          &meta.resourceVersion,
                                          &meta.creationTimestamp,
                                          &meta.deletionTimestamp};
            if (index < 6) {
                return psText(member, *texts[index]);
            }
            if (index == 6) {
                return psTextMap(member, depth + 1, meta.labels);
            }
            if (index == 7) {
                return psTextMap(member, depth + 1, meta.annotations);
            }
            return psElements(member, [&](od::value item) {
                std::string kind, name;
                bool object = false;
                if (!psMembers(
                        item,
                        depth + 2,
                        std::array<std::string_view, 2>{"kind", "name"},
                        [&](std::size_t which, od::value text) {
                            return psText(text, which == 0 ? kind : name);
                        },
                        &object)
                    || !object) {
                    return false;
                }
                if (!out.ownerJobName && kind == "Job") {
                    out.ownerJobName = std::move(name);
                }
                return true;
            });
        },
        &present);
    return ok && present;
}

// A Pod object; `needName` false for a bookmark (metadata.resourceVersion is what it carries).
bool psPod(od::value v, int depth, bool needName, PodDto &out)
{
    PodParts parts;
    bool present = false;
    bool hasMetadata = false;
    const bool ok = psMembers(
        v,
        depth,
        std::array<std::string_view, 3>{"metadata", "spec", "status"},
        [&](std::size_t index, od::value member) {
            switch (index) {
            case 0:
                hasMetadata = true;
                return psMetadata(member, depth + 1, parts);
            case 1:
                return psSpec(member, depth + 1, parts.spec);
            default:
                return psStatus(member, depth + 1, parts);
            }
        },
        &present);
    if (!ok || !present || (needName && (!hasMetadata || parts.meta.name.empty()))) {
        return false;
    }
    out = finishPod(std::move(parts));
    return true;
}

// Iterates `text` (with SIMDJSON_PADDING readable bytes past its end) as one document whose
// root is read by `read`; anything after the root is malformed JSON to the DOM parser too.
template <class Read>
bool psDocument(od::parser &parser, const char *text, std::size_t size, std::size_t capacity, Read read)
{
    od::document doc;
    od::value root;
    if (parser.iterate(simdjson::padded_string_view(text, size, capacity)).get(doc) != simdjson::SUCCESS
        || doc.get_value().get(root) != simdjson::SUCCESS || !read(root)) {
        return false;
    }
    const char *trailing = nullptr;
    return doc.current_location().get(trailing) == simdjson::OUT_OF_BOUNDS;
}

} // namespace

struct PodStreamDecoder::Impl
{
    od::parser parser;
    std::string line; ///< a watch line with the padding simdjson reads past its end
};

PodStreamDecoder::PodStreamDecoder()
    : m_impl(std::make_unique<Impl>())
{}

PodStreamDecoder::~PodStreamDecoder() = default;

bool PodStreamDecoder::decodeList(std::string &body,
                                  std::vector<PodDto> &out,
                                  std::string &resourceVersion,
                                  std::string &continueToken)
{
    const std::size_t before = out.size();
    std::string version, token;
    body.reserve(body.size() + simdjson::SIMDJSON_PADDING);
    const bool ok = psDocument(m_impl->parser, body.data(), body.size(), body.capacity(), [&](od::value root) {
        bool present = false;
        return psMembers(
                   root,
                   1,
                   std::array<std::string_view, 2>{"metadata", "items"},
                   [&](std::size_t index, od::value member) {
                       if (index == 0) {
                           bool object = false;
                           return psMembers(
                                      member,
                                      2,
                                      std::array<std::string_view, 2>{"resourceVersion", "continue"},
                                      [&](std::size_t which, od::value text) {
                                          return psText(text, which == 0 ? version : token);
                                      },
                                      &object)
                                  && object;
                       }
                       return psElements(member, [&](od::value item) {
                           out.emplace_back();
                           return psPod(item, 3, true, out.back());
                       });
                   },
                   &present)
               && present;
    });
    if (!ok) {
        out.erase(out.begin() + static_cast<std::ptrdiff_t>(before), out.end());
        return false;
    }
    resourceVersion = std::move(version);
    continueToken = std::move(token);
    return true;
}

bool PodStreamDecoder::decodeEvent(std::string_view line, EventType &type, PodDto &pod)
{
    std::string &text = m_impl->line;
    text.reserve(line.size() + simdjson::SIMDJSON_PADDING);
    text.assign(line);
    std::string typeName;
    PodDto object;
    bool hasObject = false;
    bool named = false;
    const bool ok = psDocument(m_impl->parser, text.data(), text.size(), text.capacity(), [&](od::value root) {
        bool present = false;
        return psMembers(
                   root,
                   1,
                   std::array<std::string_view, 2>{"type", "object"},
                   [&](std::size_t index, od::value member) {
                       if (index == 0) {
                           std::string_view name;
                           if (member.get_string().get(name) != simdjson::SUCCESS) {
                               return false;
                           }
                           typeName.assign(name);
                           return true;
                       }
                       hasObject = true;
                       return psPod(member, 2, false, object);
                   },
                   &present)
               && present;
    });
    named = !object.name.empty();
    if (!ok || !hasObject) {
        return false;
    }
    if (typeName == "BOOKMARK") {
        type = EventType::Bookmark;
    } else if (typeName == "ADDED" && named) {
        type = EventType::Added;
    } else if (typeName == "MODIFIED" && named) {
        type = EventType::Modified;
    } else if (typeName == "DELETED" && named) {
        type = EventType::Deleted;
    } else {
        return false;
    }
    pod = std::move(object);
    return true;
}

} // namespace strata::kubernetes
