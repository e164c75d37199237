// TR-4910 sentence records: strict JSON Lines parsing (a bad line is reported with its number and
// skipped), RFC 3339 times, object keys whose byte order is call-start order, and the quality
// metrics against ground truth computed by hand.

#include "connectors/sentiment/metrics.h"
#include "connectors/sentiment/sentence.h"

#include <gtest/gtest.h>

using namespace strata::sentiment;

namespace {

const std::string kGood =
    R"({"call":"c-1","agent":"Maya Okafor","team":"Billing","speaker":"customer","index":0,"start":0,"end":3.5,)"
    R"("call_start":"2026-11-22T09:14:03Z","text":"I was charged twice.","label":"negative","confidence":0.91,)"
    R"("model":"riva-sentiment-bert-base","ground_truth":"negative"})";

std::string replaced(std::string line, const std::string &from, const std::string &to)
{
    const auto pos = line.find(from);
    EXPECT_NE(pos, std::string::npos) << from;
    return line.replace(pos, from.size(), to);
}

} // namespace

TEST(SentimentParse, GoodLineRoundTrips)
{
    std::string error;
    const auto s = parseLine(kGood, &error);
    ASSERT_TRUE(s) << error;
    EXPECT_EQ(s->call, "c-1");
    EXPECT_EQ(s->agent, "Maya Okafor");
    EXPECT_EQ(s->team, "Billing");
    EXPECT_EQ(s->speaker, Speaker::Customer);
    EXPECT_EQ(s->index, 0);
    EXPECT_DOUBLE_EQ(s->end, 3.5);
    EXPECT_EQ(s->callStartMs, 1795338843000LL); // date -d 2026-11-22T09:14:03Z +%s
    EXPECT_EQ(s->text.value_or(""), "I was charged twice.");
    EXPECT_EQ(s->label, Label::Negative);
    EXPECT_DOUBLE_EQ(s->confidence, 0.91);
    EXPECT_EQ(s->groundTruth, Label::Negative);
    EXPECT_EQ(s->endMs(), 1795338846500LL);

    const auto again = parseLine(toJsonLine(*s), &error);
    ASSERT_TRUE(again) << error;
    EXPECT_EQ(*again, *s);
}

TEST(SentimentParse, OptionalFieldsMayBeAbsentOrNull)
{
    std::string line = replaced(kGood, R"("text":"I was charged twice.",)", "");
    line = replaced(line, R"("ground_truth":"negative")", R"("ground_truth":null)");
    std::string error;
    const auto s = parseLine(line, &error);
    ASSERT_TRUE(s) << error;
    EXPECT_FALSE(s->text);
    EXPECT_FALSE(s->groundTruth);
    EXPECT_EQ(toJsonLine(*s).find("text"), std::string::npos);
}

TEST(SentimentParse, BadLinesAreReportedWithTheirNumberAndSkipped)
{
    const std::string body = kGood + "\n"                                                            // 1 ok
                             + "{not json\n"                                                         // 2
                             + "\n"                                                                  // 3 blank
                             + replaced(kGood, R"("label":"negative")", R"("label":"angry")") + "\n" // 4
                             + replaced(kGood, R"("confidence":0.91)", R"("confidence":1.5)") + "\n" // 5
                             + replaced(kGood, R"("call":"c-1")", R"("call":"c/1")") + "\n"          // 6
                             + replaced(kGood, R"("index":0)", R"("index":"0")") + "\n"              // 7
                             + replaced(kGood, R"("end":3.5)", R"("end":-1)") + "\n"                 // 8
                             + replaced(kGood,
                                        R"("call_start":"2026-11-22T09:14:03Z")",
                                        R"("call_start":"2026-02-30T09:14:03Z")")
                             + "\n"                                                      // 9
                             + replaced(kGood, R"("speaker":"customer",)", "") + "\n"    // 10
                             + "[1,2]\n"                                                 // 11
                             + replaced(kGood, R"("index":0)", R"("index":7)") + "\r\n"; // 12 ok (CRLF)
    const ParseResult r = parseJsonLines(body);
    ASSERT_EQ(r.sentences.size(), 2u);
    EXPECT_EQ(r.sentences[1].index, 7);
    EXPECT_EQ(r.invalidLines, 9);
    ASSERT_EQ(r.errors.size(), 9u);
    const std::vector<std::pair<int, std::string>> expected = {
        {2, "not valid JSON"},
        {4, "\"label\" must be"},
        {5, "\"confidence\" must be 0..1"},
        {6, "\"call\" must be"},
        {7, "\"index\" must be"},
        {8, "\"end\" must be"},
        {9, "\"call_start\" must be an RFC 3339"},
        {10, "missing \"speaker\""},
        {11, "not a JSON object"},
    };
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(r.errors[i].line, expected[i].first);
        EXPECT_NE(r.errors[i].message.find(expected[i].second), std::string::npos)
            << r.errors[i].line << ": " << r.errors[i].message;
    }
}

TEST(SentimentParse, ManyBadLinesKeepACountButFewMessages)
{
    std::string body;
    for (int i = 0; i < 100; ++i) {
        body += "garbage\n";
    }
    body += std::string(kMaxLineBytes + 10, 'x');
    const ParseResult r = parseJsonLines(body);
    EXPECT_TRUE(r.sentences.empty());
    EXPECT_EQ(r.invalidLines, 101);
    EXPECT_EQ(r.errors.size(), kMaxLineErrors);
    EXPECT_EQ(parseJsonLines("").invalidLines, 0);
    EXPECT_EQ(parseJsonLines(std::string("\0\xff\n", 3)).invalidLines, 1);
}

TEST(SentimentParse, Rfc3339)
{
    EXPECT_EQ(parseRfc3339("1970-01-01T00:00:00Z"), 0);
    EXPECT_EQ(parseRfc3339("2026-11-22T10:14:03.250+01:00"), 1795338843250LL);
    EXPECT_EQ(parseRfc3339("2024-02-29T00:00:00Z"), 1709164800000LL);
    EXPECT_FALSE(parseRfc3339("2023-02-29T00:00:00Z"));
    EXPECT_FALSE(parseRfc3339("2026-11-22 09:14:03Z"));
    EXPECT_FALSE(parseRfc3339("2026-11-22T09:14:03"));
    EXPECT_FALSE(parseRfc3339("2026-11-22T09:14:03Zjunk"));
    EXPECT_EQ(formatRfc3339(1795338843999LL), "2026-11-22T09:14:03Z");
    EXPECT_EQ(formatRfc3339(0), "1970-01-01T00:00:00Z");
}

TEST(SentimentKeys, ByteOrderIsCallStartOrder)
{
    const std::int64_t t = 1795338843000LL; // 2026-11-22T09:14:03Z
    EXPECT_EQ(objectKey("calls/", t, "c-1", 3), "calls/2026/11/22/20261122T091403Z-c-1-000003.jsonl");
    EXPECT_EQ(keyFloor("calls/", t), "calls/2026/11/22/20261122T091403Z");
    // Same call: seq order; same second: call id order; later call (next day too) after.
    EXPECT_LT(objectKey("calls/", t, "c-1", 3), objectKey("calls/", t, "c-1", 10));
    EXPECT_LT(objectKey("calls/", t, "c-1", 999), objectKey("calls/", t + 1000, "a", 0));
    EXPECT_LT(objectKey("calls/", t + 1000, "zz", 0), objectKey("calls/", t + 86400000, "a", 0));
    // The floor sorts after every earlier call's key and before every key of calls at or after it.
    EXPECT_LT(objectKey("calls/", t - 1000, "zzzz", 999999), keyFloor("calls/", t));
    EXPECT_LT(keyFloor("calls/", t), objectKey("calls/", t, "-", 0));
    EXPECT_TRUE(isValidCallId("c-20261122.0412_x"));
    EXPECT_FALSE(isValidCallId(""));
    EXPECT_FALSE(isValidCallId(std::string(65, 'a')));
    EXPECT_FALSE(isValidCallId("a b"));
}

TEST(SentimentMetrics, PrecisionRecallF1ByHand)
{
    // truth -> predicted: P->P x3, P->N(eutral) x1, Neu->Neu x2, Neu->Neg x1, Neg->Neg x2, Neg->P x1
    Evaluation e;
    for (int i = 0; i < 3; ++i) {
        e.add(Label::Positive, Label::Positive);
    }
    e.add(Label::Neutral, Label::Positive);
    e.add(Label::Neutral, Label::Neutral);
    e.add(Label::Neutral, Label::Neutral);
    e.add(Label::Negative, Label::Neutral);
    e.add(Label::Negative, Label::Negative);
    e.add(Label::Negative, Label::Negative);
    e.add(Label::Positive, Label::Negative);
    ASSERT_EQ(e.count(), 10);
    // positive: TP 3, predicted 4 (3 + the negative one), support 4
    const LabelScores p = e.scores(Label::Positive);
    EXPECT_DOUBLE_EQ(p.precision, 3.0 / 4.0);
    EXPECT_DOUBLE_EQ(p.recall, 3.0 / 4.0);
    EXPECT_DOUBLE_EQ(p.f1, 0.75);
    // neutral: TP 2, predicted 3, support 3
    const LabelScores n = e.scores(Label::Neutral);
    EXPECT_DOUBLE_EQ(n.precision, 2.0 / 3.0);
    EXPECT_DOUBLE_EQ(n.recall, 2.0 / 3.0);
    // negative: TP 2, predicted 3, support 3
    const LabelScores g = e.scores(Label::Negative);
    EXPECT_DOUBLE_EQ(g.precision, 2.0 / 3.0);
    EXPECT_DOUBLE_EQ(g.recall, 2.0 / 3.0);
    EXPECT_DOUBLE_EQ(g.f1, 2.0 / 3.0);
    EXPECT_DOUBLE_EQ(e.accuracy(), 0.7);
    // differences (pred - truth): P->Neu -1, Neu->Neg -1, Neg->P +2 => 0 / 10; |.| = 4 / 10
    EXPECT_DOUBLE_EQ(e.meanSentimentDifference(), 0.0);
    EXPECT_DOUBLE_EQ(e.meanAbsoluteSentimentDifference(), 0.4);
    EXPECT_EQ(e.confusion()[int(Label::Negative)][int(Label::Positive)], 1);

    Evaluation empty;
    EXPECT_DOUBLE_EQ(empty.scores(Label::Positive).f1, 0.0);
    EXPECT_DOUBLE_EQ(empty.meanSentimentDifference(), 0.0);
}
