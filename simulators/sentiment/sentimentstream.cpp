#include "simulators/sentiment/sentimentstream.h"

#include "simulators/common/text.h"
#include "simulators/storagegrid/s3store.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <random>

namespace strata::sim::sentiment {

namespace {

// What agents and customers say, by label (index label + 1).
const char *const kCustomer[3][8] = {
    {"I have been waiting on hold for forty minutes.",
     "This is the third time I am calling about the same problem.",
     "You charged my card twice this month.",
     "Nobody ever called me back like they promised.",
     "Honestly, this is really frustrating.",
     "The service keeps dropping every evening.",
     "I want to cancel if this is not fixed today.",
     "That makes no sense to me at all."},
    {"I am calling about my last invoice.",
     "My account number should be on the screen.",
     "I restarted the router this morning.",
     "It started on Tuesday, I think.",
     "Can you tell me what the next step is?",
     "I am using the mobile app.",
     "The email address is the same as before.",
     "Okay, let me check that."},
    {"Thank you, that is much clearer now.",
     "Great, it is working again.",
     "I really appreciate you sorting this out.",
     "That is exactly what I needed.",
     "You have been very helpful today.",
     "Perfect, thanks for your patience.",
     "Wonderful, the refund shows up already.",
     "That was quicker than I expected, thanks."},
};
const char *const kAgent[3][8] = {
    {"I am afraid that is not something I can change.",
     "Unfortunately the system does not let me do that.",
     "You will have to call the other department.",
     "I cannot see any record of that request.",
     "That is against our policy, sorry.",
     "There is nothing more I can do today.",
     "The outage is still ongoing, I have no date for you.",
     "I can't refund that charge."},
    {"Can I have your account number, please?",
     "Let me pull up your account.",
     "I am checking the line from here now.",
     "Could you confirm the address on file?",
     "I will put a note on the ticket.",
     "One moment while I look at the billing history.",
     "The ticket number is in the email I just sent.",
     "I see two charges on the twelfth."},
    {"Thank you for calling, how can I help you today?",
     "I am sorry about that, let me fix it right away.",
     "Good news, I have refunded the duplicate charge.",
     "The line looks healthy again from our side.",
     "I have credited your account for the trouble.",
     "Happy to help, is there anything else?",
     "I have escalated it and you will hear back within the hour.",
     "Thanks for your patience, everything is set."},
};

// Agent, team and how well the agent turns a call around (-0.2 .. +0.5).
struct Agent
{
    const char *name;
    const char *team;
    double skill;
};
const Agent kAgents[] = {
    {"Maya Okafor", "Billing", 0.45},
    {"Daniel Reyes", "Billing", 0.25},
    {"Priya Natarajan", "Billing", 0.35},
    {"Tom Becker", "Billing", -0.10},
    {"Lena Fischer", "Technical Support", 0.40},
    {"Samuel Adeyemi", "Technical Support", 0.15},
    {"Hiro Tanaka", "Technical Support", 0.30},
    {"Chloe Martin", "Technical Support", 0.05},
    {"Aisha Rahman", "Accounts", 0.35},
    {"Marco Rossi", "Accounts", 0.20},
    {"Julia Nowak", "Accounts", -0.05},
    {"Kwame Mensah", "Accounts", 0.30},
    {"Sofia Lindqvist", "Escalations", 0.50},
    {"Ravi Kumar", "Escalations", 0.10},
    {"Grace O'Neill", "Escalations", 0.25},
};

std::tm utc(std::int64_t epochMs)
{
    const std::time_t seconds = static_cast<std::time_t>(epochMs / 1000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    return tm;
}

// `epochMs` as UTC text in strftime's `format` (at most 63 characters long).
std::string utcText(std::int64_t epochMs, const char *format)
{
    const std::tm t = utc(epochMs);
    char buffer[64];
    return std::string(buffer, std::strftime(buffer, sizeof buffer, format, &t));
}

const char *labelName(int label)
{
    return label > 0 ? "positive" : label < 0 ? "negative" : "neutral";
}

int labelOf(double mood)
{
    return mood > 0.35 ? 1 : mood < -0.35 ? -1 : 0;
}

// `text` (UTF-8) as a JSON string the way nlohmann::json::dump() writes it: the two-character
// escapes for '"', '\\', \b, \f, \n, \r and \t, \u00xx for the other control characters, every
// other byte (UTF-8 included) as it is.
void appendSentimentJsonString(std::string &out, const std::string &text)
{
    out += '"';
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == '"' || c == '\\') {
            sim::appendJsonEscape(out, c, true);
        } else {
            out += ch;
        }
    }
    out += '"';
}

// `value` (finite, |value| < 1e9) rounded to `decimals` places (1..6) as a JSON number: the
// shortest decimal that reads back as that rounded double, with at least one fraction digit
// ("12.5", "3.0", "0.875", "-0.0"), which is what nlohmann::json writes for it.
void appendSentimentDecimal(std::string &out, double value, int decimals)
{
    std::int64_t scale = 1;
    for (int i = 0; i < decimals; ++i) {
        scale *= 10;
    }
    const double rounded = std::round(value * double(scale));
    if (std::signbit(rounded)) {
        out += '-';
    }
    const auto scaled = static_cast<std::int64_t>(std::fabs(rounded));
    out += std::to_string(scaled / scale);
    out += '.';
    std::string fraction = std::to_string(scaled % scale);
    fraction.insert(0, std::size_t(decimals) - fraction.size(), '0');
    while (fraction.size() > 1 && fraction.back() == '0') {
        fraction.pop_back();
    }
    out += fraction;
}

} // namespace

const std::vector<std::pair<std::string, std::string>> &supportAgents()
{
    static const std::vector<std::pair<std::string, std::string>> agents = [] {
        std::vector<std::pair<std::string, std::string>> out;
        for (const Agent &a : kAgents) {
            out.emplace_back(a.name, a.team);
        }
        return out;
    }();
    return agents;
}

std::string streamKey(const std::string &prefix, std::int64_t callStartMs, const std::string &call, int seq)
{
    char suffix[24];
    std::snprintf(suffix, sizeof suffix, "-%06d.jsonl", seq);
    return prefix + utcText(callStartMs, "%Y/%m/%d/%Y%m%dT%H%M%SZ-") + call + suffix;
}

std::string jsonLine(const GeneratedSentence &s, const std::string &model)
{
    // Written straight into one string: a JSON DOM per sentence made the demo's 560 historical
    // calls (about 14,000 lines) its slowest start-up step.
    std::string line;
    line.reserve(320 + s.text.size());
    line += "{\"call\":";
    appendSentimentJsonString(line, s.call);
    line += ",\"agent\":";
    appendSentimentJsonString(line, s.agent);
    line += ",\"team\":";
    appendSentimentJsonString(line, s.team);
    line += s.agentSpeaking ? ",\"speaker\":\"agent\"" : ",\"speaker\":\"customer\"";
    line += ",\"index\":";
    line += std::to_string(s.index);
    line += ",\"start\":";
    appendSentimentDecimal(line, s.start, 2);
    line += ",\"end\":";
    appendSentimentDecimal(line, s.end, 2);
    line += ",\"call_start\":\"";
    line += utcText(s.callStartMs, "%Y-%m-%dT%H:%M:%SZ");
    line += "\",\"text\":";
    appendSentimentJsonString(line, s.text);
    line += ",\"label\":\"";
    line += labelName(s.label);
    line += "\",\"confidence\":";
    appendSentimentDecimal(line, s.confidence, 3);
    line += ",\"model\":";
    appendSentimentJsonString(line, model);
    if (s.groundTruth) {
        line += ",\"ground_truth\":\"";
        line += labelName(*s.groundTruth);
        line += '"';
    }
    line += '}';
    return line;
}

std::vector<GeneratedSentence> generateCall(std::uint64_t seed,
                                            int number,
                                            std::int64_t callStartMs,
                                            bool withGroundTruth,
                                            const StreamOptions &options,
                                            bool liveTiming)
{
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(number));
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::normal_distribution<double> noise(0.0, 0.35);
    const Agent &agent = kAgents[rng() % (sizeof kAgents / sizeof kAgents[0])];
    char id[32];
    std::snprintf(id, sizeof id, "sc-%05d", number);
    const int count = 10 + static_cast<int>(rng() % 31); // 10..40 sentences
    // Customers mostly call with a problem; a skilled agent turns the mood around.
    const double opening = -0.9 + 0.9 * unit(rng);
    const double turn = (agent.skill + 0.25) * 1.6;
    std::vector<GeneratedSentence> out;
    double clock = 0;
    bool agentTurn = true; // the agent greets
    const double minGap = options.minGap.count() / 1000.0;
    const double maxGap = std::max(minGap, options.maxGap.count() / 1000.0);
    for (int i = 0; i < count; ++i) {
        GeneratedSentence s;
        s.call = id;
        s.agent = agent.name;
        s.team = agent.team;
        s.callStartMs = callStartMs;
        s.index = i;
        s.agentSpeaking = agentTurn;
        const double progress = count > 1 ? double(i) / double(count - 1) : 1.0;
        const double mood = agentTurn ? 0.25 + agent.skill * 0.8 + noise(rng) : opening + turn * progress + noise(rng);
        const int truth = labelOf(mood);
        // The model is right about 84% of the time; its mistakes are near misses.
        int predicted = truth;
        if (unit(rng) > 0.84) {
            predicted = truth == 0 ? (unit(rng) < 0.5 ? -1 : 1) : (unit(rng) < 0.8 ? 0 : -truth);
        }
        s.label = predicted;
        s.confidence = predicted == truth ? 0.70 + 0.29 * unit(rng) : 0.40 + 0.30 * unit(rng);
        if (withGroundTruth) {
            s.groundTruth = truth;
        }
        const auto &texts = agentTurn ? kAgent : kCustomer;
        s.text = texts[predicted + 1][rng() % 8];
        if (liveTiming) {
            const double gap = minGap + (maxGap - minGap) * unit(rng);
            s.end = clock + gap;
            s.start = s.end - std::min(gap * 0.9, 0.8 + 1.7 * unit(rng));
        } else {
            s.start = clock + 0.2 + 1.3 * unit(rng);
            s.end = s.start + 1.5 + 4.5 * unit(rng);
        }
        s.start = std::round(s.start * 100) / 100;
        s.end = std::round(s.end * 100) / 100;
        clock = s.end;
        out.push_back(std::move(s));
        // Mostly alternating, sometimes one side says two sentences in a row.
        if (unit(rng) < 0.8) {
            agentTurn = !agentTurn;
        }
    }
    return out;
}

SentimentStream::SentimentStream(storagegrid::S3Store &store, StreamOptions options)
    : m_store(store)
    , m_options(std::move(options))
{}

SentimentStream::~SentimentStream()
{
    stop();
}

std::int64_t SentimentStream::now() const
{
    if (m_options.clockMs) {
        return m_options.clockMs();
    }
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

int SentimentStream::writeHistory()
{
    const std::int64_t nowMs = now();
    constexpr std::int64_t Day = 24LL * 3600 * 1000;
    const std::int64_t today = nowMs - nowMs % Day;
    std::mt19937_64 rng(m_options.seed);
    std::vector<std::int64_t> starts;
    while (static_cast<int>(starts.size()) < m_options.historicalCalls) {
        const std::int64_t day = today - static_cast<std::int64_t>(rng() % std::uint64_t(m_options.historyDays)) * Day;
        // Business hours 08:00-18:00 UTC, fewer calls at weekends.
        const std::int64_t at = day + 8 * 3600 * 1000 + static_cast<std::int64_t>(rng() % (10ULL * 3600 * 1000));
        const std::tm t = utc(at);
        const bool weekend = t.tm_wday == 0 || t.tm_wday == 6;
        if ((weekend && rng() % 3 != 0) || at > nowMs - 30 * 60 * 1000) {
            continue;
        }
        starts.push_back(at - at % 1000);
    }
    std::sort(starts.begin(), starts.end());
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int written = 0;
    for (int i = 0; i < static_cast<int>(starts.size()); ++i) {
        const bool truth = unit(rng) < m_options.groundTruthShare;
        const auto sentences = generateCall(m_options.seed, i + 1, starts[std::size_t(i)], truth, m_options, false);
        std::string body;
        for (const GeneratedSentence &s : sentences) {
            body += jsonLine(s, m_options.model) + '\n';
        }
        m_store.putObject(m_options.bucket,
                          streamKey(m_options.prefix, starts[std::size_t(i)], sentences.front().call, 0),
                          std::move(body),
                          "application/x-ndjson");
        written += static_cast<int>(sentences.size());
    }
    return written;
}

void SentimentStream::start()
{
    std::lock_guard lock(m_mutex);
    if (m_thread.joinable()) {
        return;
    }
    m_stopping = false;
    m_thread = std::thread([this] {
        run();
    });
}

void SentimentStream::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) {
        m_thread.join();
    }
}

void SentimentStream::run()
{
    struct Line
    {
        std::vector<GeneratedSentence> call;
        std::size_t next = 0;
        std::int64_t freeAt = 0;
    };
    std::vector<Line> lines(std::size_t(std::max(1, m_options.concurrentLiveCalls)));
    const std::int64_t begin = now();
    for (std::size_t i = 0; i < lines.size(); ++i) {
        lines[i].freeAt = begin + static_cast<std::int64_t>(i) * 7000;
    }
    std::mt19937_64 rng(m_options.seed ^ 0x51ED5EEDULL);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        lock.unlock();
        const std::int64_t t = now();
        std::int64_t wakeAt = t + 250;
        for (Line &line : lines) {
            if (line.call.empty() && t >= line.freeAt) {
                const int number = m_options.historicalCalls + ++m_liveCalls;
                line.call = generateCall(
                    m_options.seed, number, t - t % 1000, unit(rng) < m_options.groundTruthShare, m_options, true);
                line.next = 0;
            }
            while (!line.call.empty() && line.next < line.call.size()) {
                const GeneratedSentence &s = line.call[line.next];
                const std::int64_t due = s.callStartMs + static_cast<std::int64_t>(s.end * 1000.0);
                if (due > t) {
                    wakeAt = std::min(wakeAt, due);
                    break;
                }
                m_store.putObject(m_options.bucket,
                                  streamKey(m_options.prefix, s.callStartMs, s.call, s.index),
                                  jsonLine(s, m_options.model) + '\n',
                                  "application/x-ndjson");
                ++m_liveSentences;
                ++line.next;
            }
            if (!line.call.empty() && line.next >= line.call.size()) {
                line.call.clear();
                line.freeAt = t + m_options.betweenCalls.count();
            }
            if (line.call.empty()) {
                wakeAt = std::min(wakeAt, std::max(line.freeAt, t + 10));
            }
        }
        lock.lock();
        m_wake.wait_for(lock, std::chrono::milliseconds(std::max<std::int64_t>(1, wakeAt - now())), [this] {
            return m_stopping;
        });
    }
}

} // namespace strata::sim::sentiment
