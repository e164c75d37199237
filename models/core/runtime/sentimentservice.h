#pragma once

#include "models/core/store/config.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <array>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace strata::core {

class Engine;

/// One labelled sentence (docs/sentiment-schema.md). Labels are TR-4910 scores: +1 positive,
/// 0 neutral, -1 negative.
struct SentimentSentence
{
    QString call;
    QString agent;
    QString team;
    bool agentSpeaking = false; ///< speaker "agent" (else "customer")
    int index = 0;
    double start = 0; ///< seconds from the call's start
    double end = 0;
    qint64 callStartMs = 0;
    QString text; ///< null when the pipeline withheld it
    int label = 0;
    double confidence = 0;
    QString model;
    std::optional<int> groundTruth;
    double running = 0;   ///< mean label of sentences 0..index of the call (as known now)
    qint64 arrivedMs = 0; ///< when Strata read it (epoch ms)
};

/// "positive", "neutral", "negative" for +1, 0, -1.
QString sentimentLabelName(int label);

/// Label counts, indexed [negative, neutral, positive] (label + 1).
using SentimentCounts = std::array<qint64, 3>;

/// One call, as listed.
struct SentimentCall
{
    QString call;
    QString agent;
    QString team;
    qint64 callStartMs = 0;
    double duration = 0; ///< end of the last known sentence, seconds
    int sentences = 0;
    SentimentCounts counts{};
    double mean = 0;         ///< mean label of every sentence
    double customerMean = 0; ///< mean label of the customer's sentences (0 when none)
    double agentMean = 0;
    int lastLabel = 0;        ///< label of the last sentence
    bool live = false;        ///< its last sentence ended less than liveWindowMs ago
    int groundTruthCount = 0; ///< sentences with a human label
    QString model;
};

struct SentimentDayPoint
{
    qint64 dayMs = 0; ///< UTC midnight
    int calls = 0;
    qint64 sentences = 0;
    double mean = 0; ///< mean label of that day's sentences
};

/// One agent's record over everything in memory.
struct SentimentAgent
{
    QString agent;
    QString team;
    int calls = 0;
    qint64 sentences = 0;
    SentimentCounts counts{};
    double mean = 0;         ///< mean label of every sentence of their calls
    double customerMean = 0; ///< mean label of the customers' sentences (how callers felt)
    qint64 lastCallMs = 0;
    QList<SentimentDayPoint> trend; ///< per UTC day with calls, oldest first
};

struct SentimentBucket
{
    qint64 startMs = 0;
    SentimentCounts counts{};
    double mean = 0;
};

/// One team's label distribution over time buckets.
struct SentimentTeam
{
    QString team;
    SentimentCounts counts{}; ///< over the whole range
    QList<SentimentBucket> buckets;
};

struct SentimentLabelScores
{
    double precision = 0;
    double recall = 0;
    double f1 = 0;
    qint64 support = 0;
    qint64 predicted = 0;
};

/// Model quality where ground truth exists (TR-4910 "Validation results").
struct SentimentMetrics
{
    qint64 labeledSentences = 0;
    int labeledCalls = 0;
    std::array<SentimentLabelScores, 3> labels{}; ///< [negative, neutral, positive]
    double accuracy = 0;
    double macroF1 = 0;
    /// TR-4910's PIPELINE_SENTIMENT_METRIC: mean over labelled sentences of predicted - true
    /// (+1/0/-1 scores); > 0 = the model reads calls more positively than the human labels.
    double meanSentimentDifference = 0;
    double meanAbsoluteSentimentDifference = 0;
    /// confusion[truth + 1][predicted + 1]
    std::array<std::array<qint64, 3>, 3> confusion{};
    QStringList models; ///< models whose sentences were evaluated
};

struct SentimentSummary
{
    int calls = 0;
    int liveCalls = 0;
    qint64 sentences = 0;
    SentimentCounts counts{};
    double mean = 0;
    int agents = 0;
    int teams = 0;
};

/// Reader health: errors are shown, the data read so far stays.
struct SentimentStatus
{
    enum class State
    {
        Starting, ///< waiting for the secret or the first poll
        Ok,
        Error, ///< the last poll failed (see error); data is from the last good one
    };
    State state = State::Starting;
    QString error;        ///< last poll's failure ("S3 AccessDenied: ..."), empty when fine
    QStringList problems; ///< recent malformed lines: "<key> line <n>: <reason>" (newest last, <= 50)
    qint64 invalidLines = 0;
    qint64 objectsRead = 0;
    qint64 sentences = 0; ///< in memory
    int calls = 0;
    qint64 droppedSentences = 0; ///< evicted to stay within maxSentences
    qint64 polls = 0;
    qint64 lastPollMs = 0;    ///< epoch ms when the last poll finished
    qint64 lastSuccessMs = 0; ///< ... and the last good one
    qint64 lastPollDurationMs = 0;
    QString bucket;
    QString prefix;
};

/// Reads TR-4910 sentence results (docs/sentiment-schema.md) from one S3 bucket incrementally
/// and answers the sentiment dashboards' questions.
///
/// A worker thread polls every SentimentConfig::pollMilliseconds (500 ms) with ListObjectsV2
/// start-after: the keys after the newest key read (new calls and the newest call's objects), and
/// for each call whose last sentence ended within openCallMs, the keys after its last one under
/// its own key prefix (an ongoing call's keys sort before newer calls'). Every windowListMs the
/// objects of all calls that started within overlapMs of the newest call are re-listed (late
/// objects), and every fullRelistMs the whole prefix. Keys already read are skipped, so every
/// object is read once. Queries never wait for S3: they
/// read the in-memory state under a mutex. Nothing here blocks the owner (GUI) thread.
///
/// Memory bound: at most maxSentences sentences (default 200,000, about 40 MB with transcripts);
/// beyond it the calls that started first are dropped whole and their objects are not read again.
///
/// Errors (403 AccessDenied, a bad signature, network, a missing bucket) make status() State::Error
/// with the reason; the sentences already read stay and the next poll retries. A malformed line is
/// skipped and reported in status().problems with its object key and line number.
class SentimentService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SentimentService)

public:
    struct Options
    {
        qint64 overlapMs = 15 * 60 * 1000;
        qint64 windowListMs = 5 * 1000; ///< how often the overlap window is re-listed
        qint64 fullRelistMs = 5 * 60 * 1000;
        /// A call whose last sentence ended less than this ago is followed by its own listing.
        qint64 openCallMs = 60 * 1000;
        qint64 maxSentences = 200000;
        qint64 liveWindowMs = 30 * 1000; ///< a call is live until its last sentence is this old
    };

    /// The source named in `config` must be a StorageGRID source of `engine` (its S3 endpoint,
    /// CA file and TLS settings are used). Call start() to begin.
    SentimentService(Engine &engine, SentimentConfig config, QObject *parent = nullptr);
    SentimentService(Engine &engine, SentimentConfig config, Options options, QObject *parent = nullptr);
    ~SentimentService() override;

    /// Resolves the S3 secret (the config's, else the source's) and starts polling.
    void start();
    /// Re-resolves the secret (rotated credentials) and polls with the new one.
    void reconnect();
    /// Poll now instead of at the next tick.
    void pollNow();
    void stop();

    [[nodiscard]] const SentimentConfig &config() const { return m_config; }
    [[nodiscard]] SentimentStatus status() const;

    /// Calls whose start is within [now - rangeMs, now] (rangeMs <= 0: all).
    [[nodiscard]] SentimentSummary summary(qint64 rangeMs) const;
    /// Calls, newest start first; `liveOnly`: only live calls; `agent` empty = all; at most `limit`.
    [[nodiscard]] QList<SentimentCall> calls(bool liveOnly, const QString &agent, int limit) const;
    [[nodiscard]] std::optional<SentimentCall> call(const QString &id) const;
    /// A call's sentences in index order, each with its running sentiment.
    [[nodiscard]] QList<SentimentSentence> sentences(const QString &id) const;
    /// Every agent with a call that started within the last `rangeMs` (0 = every call kept), by
    /// name: calls, sentences, counts and means cover that range, as summary(rangeMs) does;
    /// `trend` has every day kept.
    [[nodiscard]] QList<SentimentAgent> agents(qint64 rangeMs = 0) const;
    /// Per team (by name): counts of calls started within [now - rangeMs, now] in buckets of
    /// bucketMs aligned to the epoch (every bucket of the range present, empty ones too).
    [[nodiscard]] QList<SentimentTeam> teams(qint64 rangeMs, qint64 bucketMs) const;
    [[nodiscard]] SentimentMetrics metrics() const;

Q_SIGNALS:
    /// New sentences (owner thread), in arrival order; `running` is set.
    void sentencesArrived(const QList<strata::core::SentimentSentence> &sentences);
    void statusChanged();

private:
    struct CallData;
    struct Connection;
    void workerLoop();
    void pollOnce(const std::shared_ptr<Connection> &connection);
    void setConnection(std::shared_ptr<Connection> connection, const QString &error);
    [[nodiscard]] qint64 nowMs() const;
    SentimentCall summarize(const CallData &data) const;

    Engine &m_engine;
    SentimentConfig m_config;
    Options m_options;

    mutable std::mutex m_mutex; // guards everything below
    std::condition_variable m_wake;
    bool m_stopping = false;
    bool m_pollRequested = false;
    std::shared_ptr<Connection> m_connection;
    std::map<QString, std::shared_ptr<CallData>> m_calls;
    std::set<std::string> m_readKeys;
    qint64 m_newestCallStartMs = 0;
    qint64 m_droppedBeforeMs = -1; ///< calls starting at or before this were dropped
    qint64 m_lastFullListMs = 0;
    qint64 m_lastWindowListMs = 0;
    qint64 m_sentenceCount = 0;
    SentimentStatus m_status;
    std::thread m_worker;
};

} // namespace strata::core

Q_DECLARE_METATYPE(strata::core::SentimentSentence)
