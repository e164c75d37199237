#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/// TR-4910 sentence-level sentiment results as the support-center pipeline writes them to S3:
/// one JSON object per line (JSON Lines), one line per sentence. docs/sentiment-schema.md is the
/// reference for writers; this header is the reference for the parser.
///
/// Line (keys in any order, unknown keys ignored so writers can add fields):
///   {"call":"c-20261122-0412","agent":"Maya Okafor","team":"Billing","speaker":"customer",
///    "index":3,"start":12.4,"end":15.9,"call_start":"2026-11-22T09:14:03Z",
///    "text":"I was charged twice.","label":"negative","confidence":0.91,
///    "model":"riva-sentiment-bert-base","ground_truth":"negative"}
/// Required: call, agent, team, speaker, index, start, end, call_start, label, confidence, model.
/// Optional: text (may be withheld for privacy), ground_truth (a human label; null = none).
namespace strata::sentiment {

enum class Label
{
    Negative = 0,
    Neutral = 1,
    Positive = 2,
};
inline constexpr std::array<Label, 3> kLabels = {Label::Positive, Label::Neutral, Label::Negative};

/// "positive", "neutral", "negative".
std::string_view labelName(Label label);
std::optional<Label> labelFromName(std::string_view name);
/// TR-4910's sentiment value: positive +1, neutral 0, negative -1.
int labelScore(Label label);

enum class Speaker
{
    Agent,
    Customer,
};
std::string_view speakerName(Speaker speaker); ///< "agent", "customer"

/// One labelled sentence.
struct Sentence
{
    std::string call;  ///< call id: 1..64 of [A-Za-z0-9._-] (it is part of object keys)
    std::string agent; ///< the support agent's display name, 1..200 bytes
    std::string team;  ///< the agent's team, 1..200 bytes
    Speaker speaker = Speaker::Customer;
    int index = 0;                   ///< 0-based position in the call, < 100000
    double start = 0;                ///< seconds from call start, >= 0
    double end = 0;                  ///< seconds from call start, >= start
    std::string callStart;           ///< RFC 3339 as written ("2026-11-22T09:14:03Z")
    std::int64_t callStartMs = 0;    ///< callStart as Unix epoch milliseconds
    std::optional<std::string> text; ///< absent when the pipeline withholds transcripts
    Label label = Label::Neutral;
    double confidence = 0; ///< 0..1
    std::string model;     ///< "riva-sentiment-bert-base", 1..200 bytes
    std::optional<Label> groundTruth;

    /// Epoch milliseconds at which the sentence ended (callStartMs + end seconds).
    [[nodiscard]] std::int64_t endMs() const { return callStartMs + static_cast<std::int64_t>(end * 1000.0); }
    bool operator==(const Sentence &) const = default;
};

/// A line that was skipped, with its 1-based line number and why.
struct LineError
{
    int line = 0;
    std::string message;
};

struct ParseResult
{
    std::vector<Sentence> sentences; ///< valid lines in file order
    std::vector<LineError> errors;   ///< invalid lines (never more than kMaxLineErrors kept)
    int invalidLines = 0;            ///< all invalid lines, also those past kMaxLineErrors
};
inline constexpr std::size_t kMaxLineErrors = 20;
/// Longest accepted line; a longer one is an error (and not copied around).
inline constexpr std::size_t kMaxLineBytes = 64 * 1024;

/// Parses a JSON Lines body. Blank lines (also a final one) are skipped silently; every other
/// line is validated strictly (types, ranges, enum values, call id characters, an RFC 3339
/// call_start); a bad line is reported with its number and skipped. Never throws.
ParseResult parseJsonLines(std::string_view body);
/// Validates one line (no trailing newline). The error has no line number.
std::optional<Sentence> parseLine(std::string_view line, std::string *error);
/// One line of JSON (keys in schema order, no newline). callStartMs is not written (callStart
/// is); text/ground_truth only when set.
std::string toJsonLine(const Sentence &sentence);

/// Parses RFC 3339 ("2026-11-22T09:14:03Z", "...03.250+01:00") to Unix epoch milliseconds.
std::optional<std::int64_t> parseRfc3339(std::string_view text);
/// "2026-11-22T09:14:03Z" (UTC, whole seconds).
std::string formatRfc3339(std::int64_t epochMs);
/// Call ids go into object keys: 1..64 characters of [A-Za-z0-9._-].
bool isValidCallId(std::string_view id);

/// Object key of the `seq`-th object (0-based) of a call:
/// "<prefix><yyyy>/<mm>/<dd>/<yyyymmddThhmmssZ>-<call>-<seq, 6 digits>.jsonl" (UTC dates of the
/// call's start). Byte order of keys = call start order, then call id, then seq.
std::string objectKey(std::string_view prefix, std::int64_t callStartMs, std::string_view call, int seq);
/// The smallest key prefix of calls that started at or after `epochMs`: every key of such a call
/// sorts after it (ListObjectsV2 start-after), every key of an earlier call sorts before it.
std::string keyFloor(std::string_view prefix, std::int64_t epochMs);

} // namespace strata::sentiment
