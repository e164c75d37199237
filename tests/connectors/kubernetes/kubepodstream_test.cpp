// The streaming Pod decoder (podstream.h) against the DOM route (parseJsonBounded + parsePod):
// the kubernetes/api schema example Pod and KAI-Scheduler's example Pod (see
// tests/fixtures/kubernetes-objects/README.md), every one-field mutation of them, truncated,
// malformed and deeply nested input, and watch streams through WatchDecoder.
#include "connectors/http/jsonparse.h"
#include "connectors/kubernetes/client.h"
#include "connectors/kubernetes/podstream.h"
#include "tests/support/fixtures.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <regex>

using namespace strata;
using namespace strata::kubernetes;
using nlohmann::json;

namespace {

json podStreamFixture(const std::string &name)
{
    return json::parse(testsupport::fixture("kubernetes-objects/" + name));
}

std::vector<json> podStreamVendorPods()
{
    return {podStreamFixture("schema-example.core.v1.Pod.json"),
            podStreamFixture("kai-example-gpu-sharing_gpu-sharing.json")};
}

std::string podStreamList(const std::vector<json> &items, const std::string &rv = "4711")
{
    return json{{"kind", "PodList"}, {"apiVersion", "v1"}, {"metadata", {{"resourceVersion", rv}}}, {"items", items}}
        .dump();
}

/// What the DOM route makes of a list body: the pods parsePod() keeps and how many it skips
/// (nullopt when the body is refused as a whole).
struct PodStreamReference
{
    std::vector<PodDto> pods;
    std::size_t skipped = 0;
    std::string resourceVersion;
};

std::optional<PodStreamReference> podStreamDomList(const std::string &body)
{
    ListOptions options;
    auto page = KubeClient::listPageFrom(kPods, options, http::HttpResponse::withStatus(200, body));
    if (!page) {
        return std::nullopt;
    }
    PodStreamReference out;
    out.skipped = page->skipped.size();
    out.resourceVersion = page->resourceVersion;
    for (const json &item : page->items) {
        if (auto pod = parsePod(item)) {
            out.pods.push_back(std::move(*pod));
        } else {
            ++out.skipped;
        }
    }
    return out;
}

// The members parsePod() reads, and everything under labels, annotations, ownerReferences,
// resources, volume mounts, container states and conditions.
const std::regex kPodStreamReadPaths(
    "/metadata(/(name|namespace|uid|resourceVersion|creationTimestamp|deletionTimestamp|labels|annotations|"
    "ownerReferences)(/.*)?)?|/spec(/(nodeName|priorityClassName|schedulerName|volumes(/[0-9]+(/(name|"
    "persistentVolumeClaim)(/.*)?)?)?|(containers|initContainers)(/[0-9]+(/(image|command|args|resources|"
    "volumeMounts)(/.*)?)?)?))?|/status(/(phase|startTime|conditions|containerStatuses)(/.*)?)?");

/// `pod` without the members parsePod() does not read, but the first of each object (so that
/// unknown members are still walked): the schema example is 35 kB, mostly probes and affinity.
json podStreamReadPart(const json &pod)
{
    json out = pod;
    std::function<void(const json::json_pointer &, json &)> prune = [&](const json::json_pointer &at, json &node) {
        if (node.is_object()) {
            bool keptOther = false;
            for (auto it = node.begin(); it != node.end();) {
                const json::json_pointer member = at / it.key();
                if (std::regex_match(member.to_string(), kPodStreamReadPaths) || !keptOther) {
                    keptOther = keptOther || !std::regex_match(member.to_string(), kPodStreamReadPaths);
                    prune(member, it.value());
                    ++it;
                } else {
                    it = node.erase(it);
                }
            }
        } else if (node.is_array()) {
            for (std::size_t i = 0; i < node.size(); ++i) {
                prune(at / i, node[i]);
            }
        }
    };
    prune(json::json_pointer(), out);
    return out;
}

/// Every way of changing one value of `root` into another JSON type, or of removing it, as
/// whole documents.
void podStreamMutations(const json &root, const std::function<void(const json &)> &visit)
{
    const std::vector<json> replacements{
        json(), json(7), json(1.5), json(-3), json("x"), json("2"), json::object(), json::array(), json(true)};
    std::function<void(const json::json_pointer &, const json &)> walk = [&](const json::json_pointer &at,
                                                                             const json &node) {
        if (!at.empty()) {
            for (const json &replacement : replacements) {
                json changed = root;
                changed[at] = replacement;
                visit(changed);
            }
            json removed = root;
            const json::json_pointer parent = at.parent_pointer();
            if (removed[parent].is_object()) {
                removed[parent].erase(at.back());
            } else {
                removed[parent].erase(std::stoul(at.back()));
            }
            visit(removed);
        }
        if (node.is_object()) {
            for (const auto &[key, value] : node.items()) {
                walk(at / key, value);
            }
        } else if (node.is_array()) {
            for (std::size_t i = 0; i < node.size(); ++i) {
                walk(at / i, node[i]);
            }
        }
    };
    walk(json::json_pointer(), root);
}

std::vector<WatchEvent> podStreamWatch(const std::string &stream, bool decodePods, std::size_t *skipped)
{
    WatchOptions options;
    options.decodePods = decodePods;
    options.onSkipped = [skipped](const connectors::Error &) {
        ++*skipped;
    };
    WatchDecoder decoder(kPods, options);
    std::vector<WatchEvent> out;
    const WatchBatchHandler onBatch = [&out](std::vector<WatchEvent> &events) {
        std::move(events.begin(), events.end(), std::back_inserter(out));
        return true;
    };
    (void)decoder.feed(stream, onBatch);
    (void)decoder.end(http::HttpResponse::withStatus(200), onBatch);
    return out;
}

} // namespace

TEST(KubePodStream, VendorPodsDecodeWithoutTheDomAndEqualParsePod)
{
    const std::vector<json> pods = podStreamVendorPods();
    const std::string body = podStreamList(pods);
    const auto reference = podStreamDomList(body);
    ASSERT_TRUE(reference);
    ASSERT_EQ(reference->pods.size(), 2u);

    PodStreamDecoder decoder;
    std::string text = body;
    std::vector<PodDto> decoded;
    std::string rv, token = "stale";
    ASSERT_TRUE(decoder.decodeList(text, decoded, rv, token)); // the plain shape: no fallback
    EXPECT_EQ(text, body);
    EXPECT_EQ(rv, "4711");
    EXPECT_EQ(token, "");
    ASSERT_EQ(decoded.size(), 2u);
    EXPECT_EQ(decoded[0], reference->pods[0]);
    EXPECT_EQ(decoded[1], reference->pods[1]);
    // What the fields hold (the schema example fills every field with placeholders).
    EXPECT_EQ(decoded[0].name, "nameValue");
    EXPECT_EQ(decoded[0].nodeName, "nodeNameValue");
    EXPECT_EQ(decoded[0].images.size(), 1u);
    EXPECT_EQ(decoded[1].gpuLimitMilli, 500); // gpu-fraction: "0.5"
    EXPECT_EQ(decoded[1].queue, reference->pods[1].queue);
    EXPECT_FALSE(decoded[1].queue.empty());

    for (const json &pod : pods) {
        for (const char *type : {"ADDED", "MODIFIED", "DELETED"}) {
            PodDto event;
            PodStreamDecoder::EventType kind{};
            ASSERT_TRUE(decoder.decodeEvent(json{{"type", type}, {"object", pod}}.dump(), kind, event)) << type;
            EXPECT_EQ(event, *parsePod(pod));
        }
    }
}

// Never laxer than the DOM route: for every one-field change of the vendor pods, the decoder
// either leaves the page to the DOM route or returns exactly its records; and the list and
// watch paths of KubeClient give the same pods with decodePods as without.
TEST(KubePodStream, EveryMutationOfVendorPodsMatchesTheDomRoute)
{
    std::size_t variants = 0, decodedByStream = 0;
    PodStreamDecoder decoder;
    for (const json &vendorPod : podStreamVendorPods()) {
        const json pod = podStreamReadPart(vendorPod);
        podStreamMutations(pod, [&](const json &variant) {
            ++variants;
            const std::string body = podStreamList({variant, pod});
            const auto reference = podStreamDomList(body);
            ASSERT_TRUE(reference) << body;

            std::string text = body;
            std::vector<PodDto> decoded;
            std::string rv, token;
            if (decoder.decodeList(text, decoded, rv, token)) {
                ++decodedByStream;
                EXPECT_EQ(reference->skipped, 0u) << variant.dump();
                EXPECT_EQ(decoded, reference->pods) << variant.dump();
                EXPECT_EQ(rv, reference->resourceVersion);
            } else {
                EXPECT_TRUE(decoded.empty());
            }

            ListOptions typed;
            typed.decodePods = true;
            const auto page = KubeClient::listPageFrom(kPods, typed, http::HttpResponse::withStatus(200, body));
            ASSERT_TRUE(page);
            EXPECT_TRUE(page->items.empty());
            EXPECT_EQ(page->pods, reference->pods) << variant.dump();
            EXPECT_EQ(page->skipped.size(), reference->skipped) << variant.dump();

            std::size_t skippedTyped = 0, skippedDom = 0;
            const std::string line = json{{"type", "MODIFIED"}, {"object", variant}}.dump() + "\n";
            const auto typedEvents = podStreamWatch(line, true, &skippedTyped);
            const auto domEvents = podStreamWatch(line, false, &skippedDom);
            ASSERT_EQ(typedEvents.size(), domEvents.size()) << variant.dump();
            EXPECT_EQ(skippedTyped, skippedDom);
            if (!typedEvents.empty()) {
                ASSERT_TRUE(typedEvents[0].pod);
                EXPECT_EQ(*typedEvents[0].pod, *parsePod(domEvents[0].object)) << variant.dump();
            }
        });
    }
    EXPECT_GT(variants, 1000u) << "mutations";
    // Most changes (null, a removed field, a string where a string goes) keep the fast path.
    EXPECT_GT(decodedByStream * 5, variants);
}

TEST(KubePodStream, RepeatedKeysAndNonStringLabelsGoToTheDomRoute)
{
    PodStreamDecoder decoder;
    const std::vector<std::string> bodies{
        R"({"metadata":{"resourceVersion":"1"},"items":[{"metadata":{"name":"a","name":"b"}}]})",
        R"({"metadata":{"resourceVersion":"1"},"items":[{"metadata":{"name":"a","labels":{"user":"x","user":"y"}}}]})",
        R"({"metadata":{"resourceVersion":"1"},"items":[{"metadata":{"name":"a","labels":{"replicas":3}}}]})",
        R"({"metadata":{"resourceVersion":"1"},"items":[{"metadata":{"name":"a"},"status":{"containerStatuses":[{"lastState":{"terminated":{"exitCode":1.0}}}]}}]})",
    };
    const std::vector<std::string> names{"b", "a", "a", "a"};
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        std::string text = bodies[i];
        std::vector<PodDto> decoded;
        std::string rv, token;
        EXPECT_FALSE(decoder.decodeList(text, decoded, rv, token)) << bodies[i];
        ListOptions typed;
        typed.decodePods = true;
        const auto page = KubeClient::listPageFrom(kPods, typed, http::HttpResponse::withStatus(200, bodies[i]));
        ASSERT_TRUE(page);
        ASSERT_EQ(page->pods.size(), 1u);
        EXPECT_EQ(page->pods[0].name, names[i]); // nlohmann keeps the last of a repeated key
    }
    ListOptions typed;
    typed.decodePods = true;
    const auto page = KubeClient::listPageFrom(kPods, typed, http::HttpResponse::withStatus(200, bodies[2]));
    EXPECT_EQ(page->pods[0].labels.at("replicas"), "3");
}

TEST(KubePodStream, TruncatedAndMalformedListsAreAClearErrorNotACrash)
{
    const std::string body = podStreamList(podStreamVendorPods());
    PodStreamDecoder decoder;
    ListOptions typed;
    typed.decodePods = true;
    std::vector<std::size_t> cuts;
    for (std::size_t cut = 0; cut < body.size(); cut += 97) {
        cuts.push_back(cut);
    }
    for (std::size_t cut = body.size() - 40; cut < body.size(); ++cut) {
        cuts.push_back(cut);
    }
    for (const std::size_t cut : cuts) {
        std::string text = body.substr(0, cut);
        std::vector<PodDto> decoded;
        std::string rv = "kept", token;
        EXPECT_FALSE(decoder.decodeList(text, decoded, rv, token)) << cut;
        EXPECT_TRUE(decoded.empty());
        EXPECT_EQ(rv, "kept");
        const auto page =
            KubeClient::listPageFrom(kPods, typed, http::HttpResponse::withStatus(200, body.substr(0, cut)));
        ASSERT_FALSE(page) << cut;
        EXPECT_EQ(page.error().kind, connectors::Error::Kind::Parse);
        EXPECT_NE(page.error().message.find("List pods"), std::string::npos) << page.error().message;
    }
    for (const std::string &bad : {std::string(R"({"items":[{"metadata":{"name":"a"}}]} x)"),
                                   std::string("{\"items\":[{\"metadata\":{\"name\":\"a\tb\"}}]}"),
                                   std::string("{\"items\":[{\"metadata\":{\"name\":\"\xff\"}}]}"),
                                   std::string(R"({"items":[{"metadata":{"name":"a"},"spec":{"x":nul}}]})"),
                                   std::string(R"({"items":[{"metadata":{"name":"a"},"spec":{"x":[1,]}}]})")}) {
        std::string text = bad;
        std::vector<PodDto> decoded;
        std::string rv, token;
        EXPECT_FALSE(decoder.decodeList(text, decoded, rv, token)) << bad;
        EXPECT_FALSE(KubeClient::listPageFrom(kPods, typed, http::HttpResponse::withStatus(200, bad))) << bad;
    }
}

TEST(KubePodStream, DeepNestingIsSkippedAndAHugePageDecodes)
{
    std::size_t skipped = 0;
    const std::string deep = R"({"type":"ADDED","object":{"metadata":{"name":"a"},"spec":{"x":)"
                             + std::string(200'000, '[') + std::string(200'000, ']') + "}}}\n";
    const auto events = podStreamWatch(deep
                                           + R"({"type":"ADDED","object":{"metadata":{"name":"after"}}})"
                                             "\n",
                                       true,
                                       &skipped);
    EXPECT_EQ(skipped, 1u);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].pod->name, "after");

    std::vector<json> items;
    for (int i = 0; i < 20'000; ++i) {
        items.push_back(
            {{"metadata", {{"namespace", "ns-" + std::to_string(i % 20)}, {"name", "pod-" + std::to_string(i)}}},
             {"spec", {{"nodeName", "node-" + std::to_string(i % 400)}}},
             {"status", {{"phase", "Running"}}}});
    }
    std::string body = podStreamList(items);
    PodStreamDecoder decoder;
    std::vector<PodDto> decoded;
    std::string rv, token;
    ASSERT_TRUE(decoder.decodeList(body, decoded, rv, token));
    ASSERT_EQ(decoded.size(), 20'000u);
    EXPECT_EQ(decoded.back().key(), "ns-19/pod-19999");
    EXPECT_EQ(decoded.back().nodeName, "node-399");
}

TEST(KubePodStream, WatchStreamCarriesDecodedPodsBookmarksAndExpiry)
{
    const json pod = podStreamFixture("kai-example-gpu-sharing_gpu-sharing.json");
    json moved = pod;
    moved["metadata"]["resourceVersion"] = "12";
    moved["spec"]["nodeName"] = "node-7";
    const std::string stream =
        json{{"type", "ADDED"}, {"object", pod}}.dump() + "\n" + json{{"type", "MODIFIED"}, {"object", moved}}.dump()
        + "\r\n"
        + R"({"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"15","annotations":{"k8s.io/initial-events-end":"true"}}}})"
          "\n"
        + json{{"type", "DELETED"}, {"object", moved}}.dump() + "\n";
    std::size_t skipped = 0;
    const auto events = podStreamWatch(stream, true, &skipped);
    EXPECT_EQ(skipped, 0u);
    ASSERT_EQ(events.size(), 4u);
    EXPECT_EQ(events[0].type, WatchEvent::Type::Added);
    EXPECT_EQ(*events[0].pod, *parsePod(pod));
    EXPECT_TRUE(events[0].object.is_null()); // no DOM kept
    EXPECT_EQ(events[1].type, WatchEvent::Type::Modified);
    EXPECT_EQ(events[1].pod->nodeName, "node-7");
    EXPECT_EQ(events[2].type, WatchEvent::Type::Bookmark);
    EXPECT_EQ(events[2].pod->resourceVersion, "15");
    EXPECT_EQ(events[3].type, WatchEvent::Type::Deleted);
    EXPECT_EQ(events[3].pod->key(), parsePod(pod)->key());

    WatchOptions options;
    options.decodePods = true;
    WatchDecoder decoder(kPods, options);
    const WatchBatchHandler ignore = [](std::vector<WatchEvent> &) {
        return true;
    };
    EXPECT_FALSE(decoder.feed(
        R"json({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","message":"too old resource version: 1 (20)","reason":"Expired","code":410}})json"
        "\n",
        ignore));
    const auto end = decoder.end(http::HttpResponse::withStatus(200), ignore);
    ASSERT_TRUE(end);
    EXPECT_EQ(*end, WatchEnd::Expired);
}

// With ListOptions::podPages a list hands each page's pods over as the page arrives (the source
// keeps them in a smaller form), starting again when the continue token expired mid-list, and
// the complete list then carries none.
TEST(KubePodStream, ListPagesHandTheirPodsOverAsTheyArrive)
{
    auto pageOf = [](std::vector<std::string> names, std::string rv, std::string token) {
        ListPage page;
        for (const std::string &name : names) {
            PodDto pod;
            pod.namespace_ = "ns";
            pod.name = name;
            page.pods.push_back(pod);
        }
        page.resourceVersion = std::move(rv);
        page.continueToken = std::move(token);
        return Result<ListPage>(std::move(page));
    };
    std::vector<std::pair<std::vector<std::string>, bool>> handed;
    ListOptions options;
    options.decodePods = true;
    options.podPages = [&handed](std::vector<PodDto> &&pods, bool first) {
        std::vector<std::string> names;
        for (const PodDto &pod : pods) {
            names.push_back(pod.name);
        }
        handed.emplace_back(std::move(names), first);
    };
    ListPager pager(kPods, options);
    EXPECT_FALSE(pager.take(pageOf({"a", "b"}, "10", "c1")));
    EXPECT_EQ(pager.next().continueToken, "c1");
    // The continue token expired: the list starts again from its first page.
    EXPECT_FALSE(pager.take(
        Result<ListPage>(connectors::fail(connectors::Error::make(connectors::Error::Kind::Api, "Expired", 410)))));
    EXPECT_TRUE(pager.next().continueToken.empty());
    EXPECT_FALSE(pager.take(pageOf({"a"}, "20", "c2")));
    auto done = pager.take(pageOf({"c"}, "21", ""));
    ASSERT_TRUE(done);
    ASSERT_TRUE(*done);
    EXPECT_TRUE((*done)->pods.empty());
    EXPECT_EQ((*done)->resourceVersion, "20");
    using Handed = std::vector<std::pair<std::vector<std::string>, bool>>;
    EXPECT_EQ(handed, (Handed{{{"a", "b"}, true}, {{"a"}, true}, {{"c"}, false}}));

    // Without it the list keeps every pod, as before.
    ListPager keeping(kPods, ListOptions{.decodePods = true});
    EXPECT_FALSE(keeping.take(pageOf({"a", "b"}, "10", "c1")));
    done = keeping.take(pageOf({"c"}, "11", ""));
    ASSERT_TRUE(done && *done);
    EXPECT_EQ((*done)->pods.size(), 3u);
}
