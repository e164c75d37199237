// Sentiment sentence records (TR-4910 JSON Lines read from S3): parseJsonLines over the whole
// body, and the invariant that a valid sentence written with toJsonLine parses back equal.
#include "connectors/sentiment/sentence.h"
#include "tests/fuzz/fuzztransport.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace strata;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view input = fuzz::fuzzBytes(data, size);
    const sentiment::ParseResult result = sentiment::parseJsonLines(input);
    if (result.errors.size() > sentiment::kMaxLineErrors) {
        std::fprintf(stderr, "more line errors kept than kMaxLineErrors\n");
        std::abort();
    }
    for (const sentiment::Sentence &sentence : result.sentences) {
        const std::string line = sentiment::toJsonLine(sentence);
        std::string error;
        const auto again = sentiment::parseLine(line, &error);
        if (!again) {
            std::fprintf(stderr, "toJsonLine wrote a line that does not parse (%s): %s\n", error.c_str(), line.c_str());
            std::abort();
        }
        if (!(*again == sentence)) {
            std::fprintf(stderr, "a sentence changes on a toJsonLine/parseLine round trip: %s\n", line.c_str());
            std::abort();
        }
        (void)sentiment::objectKey("calls/", sentence.callStartMs, sentence.call, 0);
    }
    if (size < 64) {
        (void)sentiment::parseRfc3339(input);
    }
    return 0;
}
