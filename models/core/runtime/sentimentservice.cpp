#include "models/core/runtime/sentimentservice.h"

#include "connectors/http/curltransport.h"
#include "connectors/s3/s3client.h"
#include "connectors/sentiment/metrics.h"
#include "connectors/sentiment/sentence.h"
#include "models/core/domain/clock.h"
#include "models/core/domain/convert.h"
#include "models/core/runtime/engine.h"

#include <QDateTime>
#include <QMetaObject>
#include <QPointer>
#include <QSet>

#include <algorithm>
#include <chrono>
#include <future>
#include <limits>

namespace strata::core {

namespace {

constexpr int kMaxProblems = 50;
constexpr std::size_t kParallelReads = 8;
constexpr qint64 kDayMs = 24LL * 3600 * 1000;

double meanOf(qint64 sum, qint64 count)
{
    return count > 0 ? double(sum) / double(count) : 0.0;
}

} // namespace

QString sentimentLabelName(int label)
{
    return label > 0 ? QStringLiteral("positive") : label < 0 ? QStringLiteral("negative") : QStringLiteral("neutral");
}

struct SentimentService::CallData
{
    QString call;
    QString agent;
    QString team;
    QString model;
    qint64 callStartMs = 0;
    std::map<int, SentimentSentence> sentences; // by index
    std::string lastKey;                        // greatest object key read for this call
    qint64 lastEndMs = 0;                       // when its last known sentence ended (epoch ms)
};

/// The S3 client of one set of credentials; replaced whole on reconnect() while a poll may
/// still finish with the old one.
struct SentimentService::Connection
{
    std::unique_ptr<s3::S3Client> s3;
    http::CancelToken cancel;
};

SentimentService::SentimentService(Engine &engine, SentimentConfig config, QObject *parent)
    : SentimentService(engine, std::move(config), Options{}, parent)
{}

SentimentService::SentimentService(Engine &engine, SentimentConfig config, Options options, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_config(std::move(config))
    , m_options(options)
{
    qRegisterMetaType<QList<strata::core::SentimentSentence>>();
    m_status.bucket = m_config.bucket;
    m_status.prefix = m_config.prefix;
}

SentimentService::~SentimentService()
{
    stop();
}

qint64 SentimentService::nowMs() const
{
    return m_engine.clock().now().toMSecsSinceEpoch();
}

void SentimentService::start()
{
    {
        std::lock_guard lock(m_mutex);
        if (m_worker.joinable()) {
            return;
        }
        m_stopping = false;
        m_worker = std::thread([this] {
            workerLoop();
        });
    }
    reconnect();
}

void SentimentService::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        if (m_connection) {
            m_connection->cancel.cancel();
        }
    }
    m_wake.notify_all();
    if (m_worker.joinable()) {
        m_worker.join();
    }
}

void SentimentService::pollNow()
{
    {
        std::lock_guard lock(m_mutex);
        m_pollRequested = true;
    }
    m_wake.notify_all();
}

void SentimentService::reconnect()
{
    const QList<SourceConfig> sources = m_engine.sourceConfigs();
    const auto found = std::find_if(sources.cbegin(), sources.cend(), [this](const SourceConfig &s) {
        return s.name == m_config.source;
    });
    if (found == sources.cend() || found->kind != SourceKind::StorageGrid || found->s3Url.isEmpty()) {
        setConnection(nullptr,
                      tr("Sentiment: %1 is not a StorageGRID source with an S3 endpoint.").arg(m_config.source));
        return;
    }
    const SourceConfig source = *found;
    const bool own = m_config.s3Secret.kind != SecretRef::Kind::None;
    const SecretRef ref = own ? m_config.s3Secret : source.s3Secret;
    const QString accessKey = own ? m_config.s3AccessKey : source.s3AccessKey;
    QPointer<SentimentService> self(this);
    resolveSecret(ref, m_engine.credentials(), [self, source, accessKey](std::optional<QString> secret, QString error) {
        if (!self) {
            return;
        }
        if (!secret) {
            self->setConnection(nullptr,
                                error.isEmpty() ? tr("Sentiment: the S3 secret for %1 is not set.").arg(source.name)
                                                : tr("Sentiment: %1").arg(error));
            return;
        }
        http::TransportOptions t;
        t.caFile = ss(source.caFile);
        t.insecureSkipTlsVerify = source.insecureSkipTlsVerify;
        t.connectTimeout = std::chrono::seconds(5);
        t.totalTimeout = std::chrono::seconds(20);
        t.maxInFlight = static_cast<int>(kParallelReads);
        s3::S3Config c;
        c.endpoint = ss(source.s3Url);
        c.region = source.s3Region.isEmpty() ? std::string("us-east-1") : ss(source.s3Region);
        c.accessKey = ss(accessKey);
        c.secretKey = ss(*secret);
        c.pathStyle = source.s3PathStyle;
        c.timeoutMs = 20000;
        // The next poll is the retry: a failing endpoint must not hold back the 500 ms cadence.
        c.retry.maxAttempts = 1;
        auto connection = std::make_shared<Connection>();
        connection->s3 = std::make_unique<s3::S3Client>(std::move(c), std::make_shared<http::CurlTransport>(t));
        self->setConnection(std::move(connection), {});
    });
}

void SentimentService::setConnection(std::shared_ptr<Connection> connection, const QString &error)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_connection) {
            m_connection->cancel.cancel();
        }
        m_connection = std::move(connection);
        if (!error.isEmpty()) {
            m_status.state = SentimentStatus::State::Error;
            m_status.error = error;
        }
        m_pollRequested = true;
    }
    m_wake.notify_all();
    Q_EMIT statusChanged();
}

void SentimentService::workerLoop()
{
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        if (auto connection = m_connection) {
            lock.unlock();
            pollOnce(connection);
            lock.lock();
        }
        const auto interval = std::chrono::milliseconds(std::max(10, m_config.pollMilliseconds));
        m_wake.wait_for(lock, interval, [this] {
            return m_stopping || m_pollRequested;
        });
        m_pollRequested = false;
    }
}

void SentimentService::pollOnce(const std::shared_ptr<Connection> &connection)
{
    const qint64 started = nowMs();
    const std::string bucket = ss(m_config.bucket);
    const std::string prefix = ss(m_config.prefix);
    // What to list: everything (first poll, then every fullRelistMs); else the keys after the
    // newest one read (new calls) plus, per call still receiving sentences, the keys after its
    // last one (its keys sort before newer calls'), and every windowListMs the overlap window.
    struct Listing
    {
        std::string prefix;
        std::string startAfter;
    };
    std::vector<Listing> listings;
    bool full = false;
    bool window = false;
    {
        std::lock_guard lock(m_mutex);
        full = m_newestCallStartMs == 0 || started - m_lastFullListMs >= m_options.fullRelistMs;
        window = full || started - m_lastWindowListMs >= m_options.windowListMs;
        qint64 floorMs = full ? -1 : m_newestCallStartMs - m_options.overlapMs;
        if (m_droppedBeforeMs >= 0) {
            floorMs = std::max(floorMs, m_droppedBeforeMs + 1000);
        }
        if (window) {
            listings.push_back({prefix, floorMs >= 0 ? sentiment::keyFloor(prefix, floorMs) : std::string()});
        } else {
            listings.push_back({prefix, m_readKeys.empty() ? std::string() : *m_readKeys.rbegin()});
            for (const auto &[id, data] : m_calls) {
                if (!data->lastKey.empty() && started - data->lastEndMs <= m_options.openCallMs) {
                    const std::string callPrefix = sentiment::keyFloor(prefix, data->callStartMs) + '-' + ss(id) + '-';
                    listings.push_back({callPrefix, data->lastKey});
                }
            }
        }
    }

    QString error;
    QStringList problems;
    qint64 invalidLines = 0;
    qint64 objectsRead = 0;
    QList<SentimentSentence> arrived;
    std::vector<std::string> fresh;
    for (const Listing &l : listings) {
        auto listing = connection->s3->listAfter(bucket, l.prefix, l.startAfter, 1000000, nullptr, connection->cancel);
        if (!listing) {
            error = tr("Sentiment: listing %1/%2 failed: %3")
                        .arg(m_config.bucket, m_config.prefix, qs(listing.error().message));
            break;
        }
        std::lock_guard lock(m_mutex);
        for (const s3::ObjectInfo &object : *listing) {
            if (!m_readKeys.count(object.key)) {
                fresh.push_back(object.key);
            }
        }
    }
    std::sort(fresh.begin(), fresh.end());
    fresh.erase(std::unique(fresh.begin(), fresh.end()), fresh.end());
    if (error.isEmpty()) {
        // Reads are latency-bound (a cold start reads every call): kParallelReads GETs at a
        // time, ingested in key order.
        std::vector<std::future<connectors::Result<std::string>>> reads;
        for (std::size_t i = 0; i < fresh.size(); ++i) {
            if (i % kParallelReads == 0) {
                reads.clear();
                if (!error.isEmpty() || connection->cancel.isCancelled()) {
                    break;
                }
                for (std::size_t j = i; j < std::min(fresh.size(), i + kParallelReads); ++j) {
                    reads.push_back(std::async(std::launch::async, [&connection, &bucket, &key = fresh[j]] {
                        return connection->s3->getObject(bucket, key, {}, std::nullopt, connection->cancel);
                    }));
                }
            }
            const std::string &key = fresh[i];
            auto body = reads[i % kParallelReads].get();
            if (!error.isEmpty()) {
                continue; // the rest of this batch is only waited for
            }
            if (!body) {
                if (body.error().apiCode == "NoSuchKey") {
                    continue; // deleted between listing and reading
                }
                error = tr("Sentiment: reading %1 failed: %2").arg(qs(key), qs(body.error().message));
                continue;
            }
            const sentiment::ParseResult parsed = sentiment::parseJsonLines(*body);
            ++objectsRead;
            invalidLines += parsed.invalidLines;
            for (const sentiment::LineError &e : parsed.errors) {
                problems << tr("%1 line %2: %3").arg(qs(key)).arg(e.line).arg(qs(e.message));
            }
            if (parsed.invalidLines > static_cast<int>(parsed.errors.size())) {
                problems << tr("%1: %2 more malformed lines")
                                .arg(qs(key))
                                .arg(parsed.invalidLines - static_cast<int>(parsed.errors.size()));
            }
            const qint64 arrivedMs = nowMs();
            std::lock_guard lock(m_mutex);
            m_readKeys.insert(key);
            std::set<CallData *> touched;
            std::vector<std::pair<CallData *, int>> added;
            for (const sentiment::Sentence &in : parsed.sentences) {
                if (m_droppedBeforeMs >= 0 && in.callStartMs <= m_droppedBeforeMs) {
                    continue;
                }
                const QString callId = qs(in.call);
                auto &slot = m_calls[callId];
                if (!slot) {
                    slot = std::make_shared<CallData>();
                    slot->call = callId;
                    slot->agent = qs(in.agent);
                    slot->team = qs(in.team);
                    slot->model = qs(in.model);
                    slot->callStartMs = in.callStartMs;
                }
                SentimentSentence s;
                s.call = slot->call;
                s.agent = slot->agent;
                s.team = slot->team;
                s.agentSpeaking = in.speaker == sentiment::Speaker::Agent;
                s.index = in.index;
                s.start = in.start;
                s.end = in.end;
                s.callStartMs = slot->callStartMs;
                if (in.text) {
                    s.text = qs(*in.text);
                }
                s.label = sentiment::labelScore(in.label);
                s.confidence = in.confidence;
                s.model = in.model == ss(slot->model) ? slot->model : qs(in.model);
                if (in.groundTruth) {
                    s.groundTruth = sentiment::labelScore(*in.groundTruth);
                }
                s.arrivedMs = arrivedMs;
                // A sentence written again (a retried upload) replaces the first copy.
                if (slot->sentences.insert_or_assign(in.index, std::move(s)).second) {
                    ++m_sentenceCount;
                }
                m_newestCallStartMs = std::max(m_newestCallStartMs, slot->callStartMs);
                slot->lastKey = std::max(slot->lastKey, key);
                slot->lastEndMs = std::max<qint64>(slot->lastEndMs, in.endMs());
                touched.insert(slot.get());
                added.emplace_back(slot.get(), in.index);
            }
            for (CallData *call : touched) {
                qint64 sum = 0;
                qint64 n = 0;
                for (auto &[index, sentence] : call->sentences) {
                    sum += sentence.label;
                    ++n;
                    sentence.running = meanOf(sum, n);
                }
            }
            for (const auto &[call, index] : added) {
                arrived.append(call->sentences.at(index));
            }
            // Stay within the bound: drop the calls that started first, whole.
            while (m_sentenceCount > m_options.maxSentences && !m_calls.empty()) {
                auto oldest = std::min_element(m_calls.begin(), m_calls.end(), [](const auto &a, const auto &b) {
                    return a.second->callStartMs < b.second->callStartMs;
                });
                const qint64 size = static_cast<qint64>(oldest->second->sentences.size());
                m_sentenceCount -= size;
                m_status.droppedSentences += size;
                m_droppedBeforeMs = std::max(m_droppedBeforeMs, oldest->second->callStartMs);
                m_calls.erase(oldest);
            }
            if (m_droppedBeforeMs >= 0) {
                const std::string floor = sentiment::keyFloor(prefix, m_droppedBeforeMs + 1000);
                m_readKeys.erase(m_readKeys.begin(), m_readKeys.lower_bound(floor));
            }
        }
    }

    {
        std::lock_guard lock(m_mutex);
        const qint64 finished = nowMs();
        ++m_status.polls;
        m_status.lastPollMs = finished;
        m_status.lastPollDurationMs = finished - started;
        m_status.objectsRead += objectsRead;
        m_status.invalidLines += invalidLines;
        m_status.problems.append(problems);
        while (m_status.problems.size() > kMaxProblems) {
            m_status.problems.removeFirst();
        }
        m_status.sentences = m_sentenceCount;
        m_status.calls = static_cast<int>(m_calls.size());
        if (error.isEmpty()) {
            m_status.state = SentimentStatus::State::Ok;
            m_status.error.clear();
            m_status.lastSuccessMs = finished;
            if (full) {
                m_lastFullListMs = started;
            }
            if (window) {
                m_lastWindowListMs = started;
            }
        } else if (!connection->cancel.isCancelled()) {
            m_status.state = SentimentStatus::State::Error;
            m_status.error = error;
        }
    }
    QPointer<SentimentService> self(this);
    QMetaObject::invokeMethod(
        this,
        [self, arrived = std::move(arrived)] {
            if (!self) {
                return;
            }
            if (!arrived.isEmpty()) {
                Q_EMIT self->sentencesArrived(arrived);
            }
            Q_EMIT self->statusChanged();
        },
        Qt::QueuedConnection);
}

SentimentStatus SentimentService::status() const
{
    std::lock_guard lock(m_mutex);
    SentimentStatus s = m_status;
    // Live counts: a cold start's first poll reads for a while.
    s.sentences = m_sentenceCount;
    s.calls = static_cast<int>(m_calls.size());
    return s;
}

SentimentCall SentimentService::summarize(const CallData &data) const
{
    SentimentCall c;
    c.call = data.call;
    c.agent = data.agent;
    c.team = data.team;
    c.model = data.model;
    c.callStartMs = data.callStartMs;
    qint64 sum = 0, customerSum = 0, customerN = 0, agentSum = 0, agentN = 0;
    double lastEnd = 0;
    for (const auto &[index, s] : data.sentences) {
        ++c.counts[s.label + 1];
        sum += s.label;
        if (s.agentSpeaking) {
            agentSum += s.label;
            ++agentN;
        } else {
            customerSum += s.label;
            ++customerN;
        }
        lastEnd = std::max(lastEnd, s.end);
        c.groundTruthCount += s.groundTruth ? 1 : 0;
        c.lastLabel = s.label;
    }
    c.sentences = static_cast<int>(data.sentences.size());
    c.duration = lastEnd;
    c.mean = meanOf(sum, c.sentences);
    c.customerMean = meanOf(customerSum, customerN);
    c.agentMean = meanOf(agentSum, agentN);
    const qint64 lastEndMs = data.callStartMs + static_cast<qint64>(lastEnd * 1000.0);
    c.live = nowMs() - lastEndMs <= m_options.liveWindowMs;
    return c;
}

SentimentSummary SentimentService::summary(qint64 rangeMs) const
{
    const qint64 from = rangeMs > 0 ? nowMs() - rangeMs : std::numeric_limits<qint64>::min();
    std::lock_guard lock(m_mutex);
    SentimentSummary out;
    QSet<QString> agents, teams;
    qint64 sum = 0;
    for (const auto &[id, data] : m_calls) {
        if (data->callStartMs < from) {
            continue;
        }
        const SentimentCall c = summarize(*data);
        ++out.calls;
        out.liveCalls += c.live ? 1 : 0;
        out.sentences += c.sentences;
        for (int i = 0; i < 3; ++i) {
            out.counts[i] += c.counts[i];
        }
        sum += c.counts[2] - c.counts[0];
        agents.insert(data->agent);
        teams.insert(data->team);
    }
    out.mean = meanOf(sum, out.sentences);
    out.agents = static_cast<int>(agents.size());
    out.teams = static_cast<int>(teams.size());
    return out;
}

QList<SentimentCall> SentimentService::calls(bool liveOnly, const QString &agent, int limit) const
{
    std::lock_guard lock(m_mutex);
    QList<SentimentCall> out;
    for (const auto &[id, data] : m_calls) {
        if (!agent.isEmpty() && data->agent != agent) {
            continue;
        }
        SentimentCall c = summarize(*data);
        if (liveOnly && !c.live) {
            continue;
        }
        out.append(std::move(c));
    }
    std::sort(out.begin(), out.end(), [](const SentimentCall &a, const SentimentCall &b) {
        return a.callStartMs != b.callStartMs ? a.callStartMs > b.callStartMs : a.call < b.call;
    });
    if (limit >= 0 && out.size() > limit) {
        out.resize(limit);
    }
    return out;
}

std::optional<SentimentCall> SentimentService::call(const QString &id) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_calls.find(id);
    if (it == m_calls.end()) {
        return std::nullopt;
    }
    return summarize(*it->second);
}

QList<SentimentSentence> SentimentService::sentences(const QString &id) const
{
    std::lock_guard lock(m_mutex);
    QList<SentimentSentence> out;
    const auto it = m_calls.find(id);
    if (it != m_calls.end()) {
        for (const auto &[index, s] : it->second->sentences) {
            out.append(s);
        }
    }
    return out;
}

QList<SentimentAgent> SentimentService::agents(qint64 rangeMs) const
{
    const qint64 from = rangeMs > 0 ? nowMs() - rangeMs : std::numeric_limits<qint64>::min();
    struct Day
    {
        int calls = 0;
        qint64 sentences = 0;
        qint64 sum = 0;
    };
    struct Acc
    {
        SentimentAgent agent;
        qint64 sum = 0, customerSum = 0, customerN = 0;
        std::map<qint64, Day> days;
    };
    std::lock_guard lock(m_mutex);
    std::map<QString, Acc> byAgent;
    for (const auto &[id, data] : m_calls) {
        Acc &acc = byAgent[data->agent];
        acc.agent.agent = data->agent;
        acc.agent.team = data->team;
        // The figures count the range's calls, as summary() does; the daily trend shows every
        // day kept, so a short range still has a trend to read.
        const bool inRange = data->callStartMs >= from;
        acc.agent.calls += inRange ? 1 : 0;
        acc.agent.lastCallMs = std::max(acc.agent.lastCallMs, data->callStartMs);
        const qint64 day = data->callStartMs - ((data->callStartMs % kDayMs) + kDayMs) % kDayMs;
        Day &d = acc.days[day];
        ++d.calls;
        for (const auto &[index, s] : data->sentences) {
            ++d.sentences;
            d.sum += s.label;
            if (!inRange) {
                continue;
            }
            ++acc.agent.counts[s.label + 1];
            ++acc.agent.sentences;
            acc.sum += s.label;
            if (!s.agentSpeaking) {
                acc.customerSum += s.label;
                ++acc.customerN;
            }
        }
    }
    QList<SentimentAgent> out;
    for (auto &[name, acc] : byAgent) {
        if (acc.agent.calls == 0) {
            continue;
        }
        acc.agent.mean = meanOf(acc.sum, acc.agent.sentences);
        acc.agent.customerMean = meanOf(acc.customerSum, acc.customerN);
        for (const auto &[day, d] : acc.days) {
            acc.agent.trend.append({day, d.calls, d.sentences, meanOf(d.sum, d.sentences)});
        }
        out.append(std::move(acc.agent));
    }
    return out;
}

QList<SentimentTeam> SentimentService::teams(qint64 rangeMs, qint64 bucketMs) const
{
    bucketMs = std::max<qint64>(bucketMs, 60 * 1000);
    const qint64 now = nowMs();
    rangeMs = rangeMs > 0 ? rangeMs : 30 * kDayMs;
    // At most 1000 buckets: a year in minutes would be a 500,000-point chart nobody can read.
    bucketMs = std::max(bucketMs, (rangeMs + 999) / 1000);
    const qint64 first = (now - rangeMs) - (((now - rangeMs) % bucketMs) + bucketMs) % bucketMs;
    const int bucketCount = static_cast<int>((now - first) / bucketMs) + 1;
    struct Acc
    {
        SentimentTeam team;
        std::vector<qint64> sums;
    };
    std::lock_guard lock(m_mutex);
    std::map<QString, Acc> byTeam;
    for (const auto &[id, data] : m_calls) {
        Acc &acc = byTeam[data->team];
        if (acc.team.team.isEmpty()) {
            acc.team.team = data->team;
            acc.sums.assign(bucketCount, 0);
            for (int i = 0; i < bucketCount; ++i) {
                acc.team.buckets.append({first + i * bucketMs, {}, 0});
            }
        }
        if (data->callStartMs < now - rangeMs || data->callStartMs > now) {
            continue;
        }
        const int b = static_cast<int>((data->callStartMs - first) / bucketMs);
        if (b < 0 || b >= bucketCount) {
            continue;
        }
        for (const auto &[index, s] : data->sentences) {
            ++acc.team.buckets[b].counts[s.label + 1];
            ++acc.team.counts[s.label + 1];
            acc.sums[b] += s.label;
        }
    }
    QList<SentimentTeam> out;
    for (auto &[name, acc] : byTeam) {
        for (int i = 0; i < bucketCount; ++i) {
            SentimentBucket &bucket = acc.team.buckets[i];
            bucket.mean = meanOf(acc.sums[i], bucket.counts[0] + bucket.counts[1] + bucket.counts[2]);
        }
        out.append(std::move(acc.team));
    }
    return out;
}

SentimentMetrics SentimentService::metrics() const
{
    sentiment::Evaluation evaluation;
    SentimentMetrics out;
    QSet<QString> models;
    const auto toLabel = [](int score) {
        return static_cast<sentiment::Label>(score + 1);
    };
    {
        std::lock_guard lock(m_mutex);
        for (const auto &[id, data] : m_calls) {
            bool labeled = false;
            for (const auto &[index, s] : data->sentences) {
                if (s.groundTruth) {
                    evaluation.add(toLabel(s.label), toLabel(*s.groundTruth));
                    labeled = true;
                    models.insert(s.model);
                }
            }
            out.labeledCalls += labeled ? 1 : 0;
        }
    }
    out.labeledSentences = evaluation.count();
    for (int i = 0; i < 3; ++i) {
        const sentiment::LabelScores s = evaluation.scores(static_cast<sentiment::Label>(i));
        out.labels[i] = {s.precision, s.recall, s.f1, s.support, s.predicted};
        for (int j = 0; j < 3; ++j) {
            out.confusion[i][j] = evaluation.confusion()[i][j];
        }
    }
    out.accuracy = evaluation.accuracy();
    out.macroF1 = evaluation.macroF1();
    out.meanSentimentDifference = evaluation.meanSentimentDifference();
    out.meanAbsoluteSentimentDifference = evaluation.meanAbsoluteSentimentDifference();
    out.models = QStringList(models.cbegin(), models.cend());
    out.models.sort();
    return out;
}

} // namespace strata::core
