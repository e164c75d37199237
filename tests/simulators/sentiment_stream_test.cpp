// The sentiment stream's JSON Lines writer (simulators/sentiment): it formats each line directly,
// so it is checked byte for byte against nlohmann::ordered_json's dump() of the same fields (the
// DOM the writer used before) for tricky strings and every rounded number it can write. The
// escape it shares with the ONTAP simulator's JsonWriter keeps that writer's bytes as they were.

#include "simulators/ontap/jsonwriter.h"
#include "simulators/sentiment/sentimentstream.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

using namespace strata::sim::sentiment;

namespace {

// The line as nlohmann's DOM writes it, in the schema's key order (docs/sentiment-schema.md).
std::string domSentimentLine(const GeneratedSentence &s, const std::string &model)
{
    const auto label = [](int l) {
        return l > 0 ? "positive" : l < 0 ? "negative" : "neutral";
    };
    const auto rounded = [](double value, double scale) {
        return std::round(value * scale) / scale;
    };
    const std::time_t seconds = static_cast<std::time_t>(s.callStartMs / 1000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char callStart[32];
    std::strftime(callStart, sizeof callStart, "%Y-%m-%dT%H:%M:%SZ", &tm);
    nlohmann::ordered_json line{{"call", s.call},
                                {"agent", s.agent},
                                {"team", s.team},
                                {"speaker", s.agentSpeaking ? "agent" : "customer"},
                                {"index", s.index},
                                {"start", rounded(s.start, 100)},
                                {"end", rounded(s.end, 100)},
                                {"call_start", std::string(callStart)},
                                {"text", s.text},
                                {"label", label(s.label)},
                                {"confidence", rounded(s.confidence, 1000)},
                                {"model", model}};
    if (s.groundTruth) {
        line["ground_truth"] = label(*s.groundTruth);
    }
    return line.dump();
}

GeneratedSentence plainSentence()
{
    GeneratedSentence s;
    s.call = "sc-00042";
    s.agent = "Grace O'Neill";
    s.team = "Escalations";
    s.agentSpeaking = true;
    s.index = 7;
    s.start = 12.34;
    s.end = 15.5;
    s.callStartMs = 1'795'000'000'000;
    s.text = "I can't refund that charge.";
    s.label = -1;
    s.confidence = 0.875;
    return s;
}

} // namespace

TEST(SentimentJsonLine, TrickyStringsAreWrittenAsNlohmannDoes)
{
    static const char controls[] = "nul \0 bell \a escape \x1b unit \x1f del \x7f";
    const std::vector<std::string> texts = {
        "",
        "He said \"cancel it\" and hung up.",
        R"(C:\calls\2026\a.wav and a trailing backslash \)",
        "tab\there, new\nline, return\r, feed\f, backspace\b",
        std::string(controls, sizeof controls - 1),
        "caf\xc3\xa9, \xe2\x82\xac 12, \xf0\x9f\x98\x80 and \xe6\x97\xa5\xe6\x9c\xac",
        "/slashes/ and 'quotes' and <tags> & \\u0041 written out",
    };
    for (const std::string &text : texts) {
        GeneratedSentence s = plainSentence();
        s.text = text;
        s.agent = text;
        EXPECT_EQ(jsonLine(s, "riva \"q\"\n"), domSentimentLine(s, "riva \"q\"\n")) << text;
        // And it is one line of valid JSON that reads back to the same text.
        const auto parsed = nlohmann::json::parse(jsonLine(s, "m"));
        EXPECT_EQ(parsed.at("text").get<std::string>(), text);
    }
}

TEST(SentimentJsonLine, EveryFieldAndLabelMatchesTheDom)
{
    for (int label = -1; label <= 1; ++label) {
        for (const std::optional<int> truth : {std::optional<int>(), std::optional<int>(-1), std::optional<int>(0)}) {
            GeneratedSentence s = plainSentence();
            s.label = label;
            s.agentSpeaking = label != 0;
            s.groundTruth = truth;
            s.index = label * 1000;
            EXPECT_EQ(jsonLine(s, "riva-sentiment-bert-base"), domSentimentLine(s, "riva-sentiment-bert-base"));
        }
    }
    // Lines the stream really writes (generateCall's numbers, not hand-picked ones).
    StreamOptions options;
    for (int number = 1; number <= 40; ++number) {
        for (const GeneratedSentence &s :
             generateCall(4910, number, 1'795'000'000'000, number % 3 == 0, options, number % 2 == 0)) {
            ASSERT_EQ(jsonLine(s, options.model), domSentimentLine(s, options.model)) << s.call << " " << s.index;
        }
    }
}

TEST(SentimentJsonLine, RoundedNumbersAreWrittenAsNlohmannDoes)
{
    // Times in hundredths of a second and confidences in thousandths, as the DOM rounded them:
    // every value a call can reach (and the neighbours of each, which round to it).
    GeneratedSentence s = plainSentence();
    for (int centi = 0; centi <= 60'000; centi += centi < 2'000 ? 1 : 7) {
        s.start = centi / 100.0;
        s.end = centi / 100.0 + 0.004;
        s.confidence = (centi % 1001) / 1000.0 - 0.0004;
        ASSERT_EQ(jsonLine(s, "m"), domSentimentLine(s, "m")) << centi;
    }
    for (const double odd : {-0.001, -0.004, -1.25, -12.345, 0.005, 0.015, 2.675, 1e-9}) {
        s.start = s.end = s.confidence = odd;
        EXPECT_EQ(jsonLine(s, "m"), domSentimentLine(s, "m")) << odd;
    }
}

TEST(SimJsonEscape, OntapWriterKeepsItsEscapes)
{
    // \b and \f as \u0008 and \u000c, as the ONTAP simulator always wrote them; both forms are JSON.
    const QString text = QStringLiteral("a\"b\\c\bd\fe\nf\rg\th\x01i\x1fj caf\u00e9");
    QByteArray out;
    strata::sim::ontap::JsonWriter::appendString(out, text);
    EXPECT_EQ(out.toStdString(), "\"a\\\"b\\\\c\\u0008d\\u000ce\\nf\\rg\\th\\u0001i\\u001fj caf\xc3\xa9\"");
    const QJsonDocument parsed = QJsonDocument::fromJson("{\"t\":" + out + "}");
    EXPECT_EQ(parsed.object().value(QStringLiteral("t")).toString(), text);
    // The same bytes through the ASCII path.
    out.clear();
    strata::sim::ontap::JsonWriter::appendString(out, QStringLiteral("x\by\x7f"));
    EXPECT_EQ(out.toStdString(), "\"x\\u0008y\x7f\"");
}
