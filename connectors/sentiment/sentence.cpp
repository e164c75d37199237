#include "connectors/sentiment/sentence.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace strata::sentiment {

namespace {

using json = nlohmann::json;

// Howard Hinnant's days_from_civil: proleptic Gregorian date to days since 1970-01-01.
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2 ? 1 : 0;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

struct Civil
{
    std::int64_t year;
    unsigned month, day, hour, minute, second;
};

Civil civilFromEpochMs(std::int64_t epochMs)
{
    std::int64_t seconds = epochMs / 1000;
    if (epochMs % 1000 < 0) {
        --seconds;
    }
    std::int64_t z = seconds / 86400;
    std::int64_t rem = seconds % 86400;
    if (rem < 0) {
        rem += 86400;
        --z;
    }
    z += 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    return {static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2 ? 1 : 0),
            m,
            d,
            static_cast<unsigned>(rem / 3600),
            static_cast<unsigned>(rem % 3600 / 60),
            static_cast<unsigned>(rem % 60)};
}

// An instant's civil fields as zero-padded text: the RFC 3339 time and the object keys spell the
// same fields with different separators.
struct CivilText
{
    std::string year, month, day, hour, minute, second;
};

CivilText civilTextFromEpochMs(std::int64_t epochMs)
{
    const Civil c = civilFromEpochMs(epochMs);
    const auto two = [](unsigned value) {
        return std::string{static_cast<char>('0' + value / 10 % 10), static_cast<char>('0' + value % 10)};
    };
    char year[24];
    std::snprintf(year, sizeof year, "%04lld", static_cast<long long>(c.year));
    return {year, two(c.month), two(c.day), two(c.hour), two(c.minute), two(c.second)};
}

bool digits(std::string_view text, std::size_t pos, std::size_t count, int *out)
{
    if (pos + count > text.size()) {
        return false;
    }
    int value = 0;
    for (std::size_t i = pos; i < pos + count; ++i) {
        if (text[i] < '0' || text[i] > '9') {
            return false;
        }
        value = value * 10 + (text[i] - '0');
    }
    *out = value;
    return true;
}

bool validName(const std::string &value, std::size_t maxBytes)
{
    if (value.empty() || value.size() > maxBytes) {
        return false;
    }
    for (unsigned char c : value) {
        if (c < 0x20 || c == 0x7f) {
            return false;
        }
    }
    return true;
}

// Reads a required member; false with `error` naming the key when missing or of another type.
const json *member(const json &object, const char *key, json::value_t type, std::string *error)
{
    const auto it = object.find(key);
    if (it == object.end()) {
        *error = std::string("missing \"") + key + "\"";
        return nullptr;
    }
    const bool numberWanted = type == json::value_t::number_float;
    if (numberWanted ? !it->is_number() : it->type() != type) {
        *error = std::string("\"") + key + "\" must be a "
                 + (numberWanted                            ? "number"
                    : type == json::value_t::string         ? "string"
                    : type == json::value_t::number_integer ? "whole number"
                                                            : "value");
        return nullptr;
    }
    return &*it;
}

} // namespace

std::string_view labelName(Label label)
{
    switch (label) {
    case Label::Positive:
        return "positive";
    case Label::Neutral:
        return "neutral";
    case Label::Negative:
        return "negative";
    }
    return "neutral";
}

std::optional<Label> labelFromName(std::string_view name)
{
    for (Label label : kLabels) {
        if (labelName(label) == name) {
            return label;
        }
    }
    return std::nullopt;
}

int labelScore(Label label)
{
    return static_cast<int>(label) - 1;
}

std::string_view speakerName(Speaker speaker)
{
    return speaker == Speaker::Agent ? "agent" : "customer";
}

bool isValidCallId(std::string_view id)
{
    if (id.empty() || id.size() > 64) {
        return false;
    }
    for (char c : id) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
                        || c == '_' || c == '-';
        if (!ok) {
            return false;
        }
    }
    return true;
}

std::optional<std::int64_t> parseRfc3339(std::string_view text)
{
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (text.size() < 20 || !digits(text, 0, 4, &year) || text[4] != '-' || !digits(text, 5, 2, &month)
        || text[7] != '-' || !digits(text, 8, 2, &day) || (text[10] != 'T' && text[10] != 't')
        || !digits(text, 11, 2, &hour) || text[13] != ':' || !digits(text, 14, 2, &minute) || text[16] != ':'
        || !digits(text, 17, 2, &second)) {
        return std::nullopt;
    }
    static constexpr int monthDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12 || day < 1 || day > monthDays[month - 1] || hour > 23 || minute > 59 || second > 60) {
        return std::nullopt;
    }
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    if (month == 2 && day == 29 && !leap) {
        return std::nullopt;
    }
    std::size_t pos = 19;
    int millis = 0;
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        int scale = 100;
        const std::size_t first = pos;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
            millis += (text[pos] - '0') * scale;
            scale /= 10;
            ++pos;
        }
        if (pos == first) {
            return std::nullopt;
        }
    }
    int offsetMinutes = 0;
    if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
        ++pos;
    } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
        int oh = 0, om = 0;
        if (!digits(text, pos + 1, 2, &oh) || pos + 3 >= text.size() || text[pos + 3] != ':'
            || !digits(text, pos + 4, 2, &om) || oh > 23 || om > 59) {
            return std::nullopt;
        }
        offsetMinutes = (text[pos] == '-' ? -1 : 1) * (oh * 60 + om);
        pos += 6;
    } else {
        return std::nullopt;
    }
    if (pos != text.size()) {
        return std::nullopt;
    }
    const std::int64_t days = daysFromCivil(year, unsigned(month), unsigned(day));
    const std::int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + std::min(second, 59) - offsetMinutes * 60;
    return seconds * 1000 + millis;
}

std::string formatRfc3339(std::int64_t epochMs)
{
    const CivilText t = civilTextFromEpochMs(epochMs);
    return t.year + "-" + t.month + "-" + t.day + "T" + t.hour + ":" + t.minute + ":" + t.second + "Z";
}

std::string keyFloor(std::string_view prefix, std::int64_t epochMs)
{
    const CivilText t = civilTextFromEpochMs(epochMs);
    return std::string(prefix) + t.year + "/" + t.month + "/" + t.day + "/" + t.year + t.month + t.day + "T" + t.hour
           + t.minute + t.second + "Z";
}

std::string objectKey(std::string_view prefix, std::int64_t callStartMs, std::string_view call, int seq)
{
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "%06d", seq);
    return keyFloor(prefix, callStartMs) + "-" + std::string(call) + "-" + suffix + ".jsonl";
}

std::optional<Sentence> parseLine(std::string_view line, std::string *error)
{
    std::string ignored;
    std::string &why = error ? *error : ignored;
    if (line.size() > kMaxLineBytes) {
        why = "line longer than " + std::to_string(kMaxLineBytes) + " bytes";
        return std::nullopt;
    }
    json object = json::parse(line.begin(), line.end(), nullptr, false);
    if (object.is_discarded()) {
        why = "not valid JSON";
        return std::nullopt;
    }
    if (!object.is_object()) {
        why = "not a JSON object";
        return std::nullopt;
    }
    Sentence s;
    const json *v = nullptr;
    using T = json::value_t;
    if (!(v = member(object, "call", T::string, &why))) {
        return std::nullopt;
    }
    s.call = v->get<std::string>();
    if (!isValidCallId(s.call)) {
        why = "\"call\" must be 1..64 characters of A-Z a-z 0-9 . _ -";
        return std::nullopt;
    }
    for (auto [key, out] : {std::pair{"agent", &s.agent}, std::pair{"team", &s.team}, std::pair{"model", &s.model}}) {
        if (!(v = member(object, key, T::string, &why))) {
            return std::nullopt;
        }
        *out = v->get<std::string>();
        if (!validName(*out, 200)) {
            why = std::string("\"") + key + "\" must be 1..200 bytes without control characters";
            return std::nullopt;
        }
    }
    if (!(v = member(object, "speaker", T::string, &why))) {
        return std::nullopt;
    }
    const auto speaker = v->get<std::string>();
    if (speaker == "agent") {
        s.speaker = Speaker::Agent;
    } else if (speaker == "customer") {
        s.speaker = Speaker::Customer;
    } else {
        why = "\"speaker\" must be \"agent\" or \"customer\"";
        return std::nullopt;
    }
    const auto index = object.find("index");
    if (index == object.end()) {
        why = "missing \"index\"";
        return std::nullopt;
    }
    if (!index->is_number_integer() || index->get<std::int64_t>() < 0 || index->get<std::int64_t>() >= 100000) {
        why = "\"index\" must be a whole number 0..99999";
        return std::nullopt;
    }
    s.index = index->get<int>();
    for (auto [key, out] : {std::pair{"start", &s.start}, std::pair{"end", &s.end}}) {
        if (!(v = member(object, key, T::number_float, &why))) {
            return std::nullopt;
        }
        *out = v->get<double>();
        if (!std::isfinite(*out) || *out < 0 || *out > 86400.0 * 7) {
            why = std::string("\"") + key + "\" must be seconds from the call's start, 0..604800";
            return std::nullopt;
        }
    }
    if (s.end < s.start) {
        why = "\"end\" is before \"start\"";
        return std::nullopt;
    }
    if (!(v = member(object, "call_start", T::string, &why))) {
        return std::nullopt;
    }
    s.callStart = v->get<std::string>();
    const auto callStartMs = parseRfc3339(s.callStart);
    if (!callStartMs) {
        why = "\"call_start\" must be an RFC 3339 time (\"2026-11-22T09:14:03Z\")";
        return std::nullopt;
    }
    s.callStartMs = *callStartMs;
    if (const auto text = object.find("text"); text != object.end() && !text->is_null()) {
        if (!text->is_string()) {
            why = "\"text\" must be a string";
            return std::nullopt;
        }
        s.text = text->get<std::string>();
    }
    if (!(v = member(object, "label", T::string, &why))) {
        return std::nullopt;
    }
    const auto label = labelFromName(v->get<std::string>());
    if (!label) {
        why = "\"label\" must be \"positive\", \"neutral\" or \"negative\"";
        return std::nullopt;
    }
    s.label = *label;
    if (!(v = member(object, "confidence", T::number_float, &why))) {
        return std::nullopt;
    }
    s.confidence = v->get<double>();
    if (!std::isfinite(s.confidence) || s.confidence < 0 || s.confidence > 1) {
        why = "\"confidence\" must be 0..1";
        return std::nullopt;
    }
    if (const auto truth = object.find("ground_truth"); truth != object.end() && !truth->is_null()) {
        const auto parsed = truth->is_string() ? labelFromName(truth->get<std::string>()) : std::nullopt;
        if (!parsed) {
            why = "\"ground_truth\" must be \"positive\", \"neutral\", \"negative\" or null";
            return std::nullopt;
        }
        s.groundTruth = parsed;
    }
    return s;
}

ParseResult parseJsonLines(std::string_view body)
{
    ParseResult result;
    int lineNumber = 0;
    std::size_t pos = 0;
    while (pos < body.size()) {
        std::size_t end = body.find('\n', pos);
        if (end == std::string_view::npos) {
            end = body.size();
        }
        std::string_view line = body.substr(pos, end - pos);
        pos = end + 1;
        ++lineNumber;
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        if (line.find_first_not_of(" \t") == std::string_view::npos) {
            continue;
        }
        std::string error;
        if (auto sentence = parseLine(line, &error)) {
            result.sentences.push_back(std::move(*sentence));
        } else {
            ++result.invalidLines;
            if (result.errors.size() < kMaxLineErrors) {
                result.errors.push_back({lineNumber, std::move(error)});
            }
        }
    }
    return result;
}

std::string toJsonLine(const Sentence &s)
{
    // nlohmann's default object sorts keys; ordered_json keeps the schema's order for readers.
    nlohmann::ordered_json o;
    o["call"] = s.call;
    o["agent"] = s.agent;
    o["team"] = s.team;
    o["speaker"] = speakerName(s.speaker);
    o["index"] = s.index;
    o["start"] = s.start;
    o["end"] = s.end;
    o["call_start"] = s.callStart;
    if (s.text) {
        o["text"] = *s.text;
    }
    o["label"] = labelName(s.label);
    o["confidence"] = s.confidence;
    o["model"] = s.model;
    if (s.groundTruth) {
        o["ground_truth"] = labelName(*s.groundTruth);
    }
    return o.dump(-1, ' ', false, json::error_handler_t::replace);
}

} // namespace strata::sentiment
