#pragma once

// The support-center sentiment stream of the demo (TR-4910: 560 conversations): a writer that
// plays the RIVA pipeline's output into the StorageGRID simulator's store as JSON Lines objects
// (docs/sentiment-schema.md). It writes its own JSON and keys (simulators share no code with the
// connectors that read them). Nothing here is Qt.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace strata::sim::storagegrid {
class S3Store;
}

namespace strata::sim::sentiment {

struct StreamOptions
{
    std::string bucket = "sentiment";
    std::string prefix = "calls/";
    std::uint64_t seed = 4910;     ///< same seed, same calls (relative to "now")
    int historicalCalls = 560;     ///< TR-4910's 560 conversations
    int historyDays = 30;          ///< spread over business hours of the last 30 days
    double groundTruthShare = 0.3; ///< calls whose sentences a reviewer labelled
    std::string model = "riva-sentiment-bert-base";
    /// Live calls: gap between the end of one sentence and the end of the next.
    std::chrono::milliseconds minGap{1000};
    std::chrono::milliseconds maxGap{3000};
    int concurrentLiveCalls = 2;
    /// Pause between one live call ending and the next starting on the same line.
    std::chrono::milliseconds betweenCalls{4000};
    /// Now, epoch milliseconds; empty = the system clock.
    std::function<std::int64_t()> clockMs;
};

/// One generated sentence, before it is written.
struct GeneratedSentence
{
    std::string call, agent, team;
    bool agentSpeaking = false;
    int index = 0;
    double start = 0, end = 0; ///< seconds from the call's start
    std::int64_t callStartMs = 0;
    std::string text;
    int label = 0; ///< -1 / 0 / +1
    double confidence = 0;
    std::optional<int> groundTruth;
};

/// A call's sentences, generated at once (live calls are then released sentence by sentence).
std::vector<GeneratedSentence> generateCall(std::uint64_t seed,
                                            int number,
                                            std::int64_t callStartMs,
                                            bool withGroundTruth,
                                            const StreamOptions &options,
                                            bool liveTiming);
/// One JSON line (no newline) in the schema's key order: start and end rounded to 0.01 s,
/// confidence to 0.001; byte for byte what nlohmann::ordered_json::dump() writes for the same
/// fields (strings must be UTF-8).
std::string jsonLine(const GeneratedSentence &sentence, const std::string &model);
/// "<prefix>yyyy/mm/dd/yyyymmddThhmmssZ-<call>-<seq 6 digits>.jsonl"
std::string streamKey(const std::string &prefix, std::int64_t callStartMs, const std::string &call, int seq);

/// Agents and teams of the demo support center: (agent, team).
const std::vector<std::pair<std::string, std::string>> &supportAgents();

class SentimentStream
{
public:
    /// `store` must outlive the stream; the bucket must exist.
    SentimentStream(storagegrid::S3Store &store, StreamOptions options = {});
    ~SentimentStream();
    SentimentStream(const SentimentStream &) = delete;
    SentimentStream &operator=(const SentimentStream &) = delete;

    /// Writes the historical calls (one object per call). Returns the sentences written.
    int writeHistory();
    /// Starts the live calls on a background thread (each sentence a new object when it ends).
    void start();
    void stop();

    [[nodiscard]] int liveSentencesWritten() const { return m_liveSentences.load(); }
    [[nodiscard]] int liveCallsStarted() const { return m_liveCalls.load(); }

private:
    void run();
    [[nodiscard]] std::int64_t now() const;

    storagegrid::S3Store &m_store;
    StreamOptions m_options;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    std::atomic<int> m_liveSentences{0};
    std::atomic<int> m_liveCalls{0};
};

} // namespace strata::sim::sentiment
