#pragma once

#include <QJsonObject>
#include <QList>
#include <QRegularExpression>
#include <QString>

#include <optional>
#include <random>

namespace strata::sim::ontap {

/// One fault-injection rule: which requests it hits and how they misbehave.
///
/// Over HTTP (`POST /_sim/faults`) a rule is JSON:
/// `{"method":"POST","path":"^/api/storage/volumes/[^/]+/snapshots$","kind":"status","status":503,
///   "message":"...","code":"...","latency_ms":0,"count":1,"probability":1.0}`.
struct FaultRule
{
    enum class Kind
    {
        Latency,   ///< answer normally after `latencyMs`
        Status,    ///< answer `status` (500/503/...) with an ONTAP error body; nothing is applied
        Reset,     ///< close the connection without answering; nothing is applied
        Truncate,  ///< apply the request, then send half the body and close
        Malformed, ///< apply the request, then send invalid JSON
        Stall,     ///< never answer; nothing is applied
        /// apply the request, send the status line, headers and the first half of the body
        /// (chunked), then go silent with the connection open: a cluster that hangs mid-answer
        StallBody,
        JobFailure,     ///< (mutations) the job ends in `failure` with `message`/`code`; nothing is applied
        ApplyThenReset, ///< (mutations) the job runs to completion and applies, then the connection is reset
    };

    int id = 0;     ///< assigned when added
    QString method; ///< "GET", "POST", ...; empty matches any
    QString path;   ///< regular expression searched in the normalised path; empty matches any
    Kind kind = Kind::Status;
    int latencyMs = 0; ///< Latency: the delay; other kinds: an extra delay before misbehaving
    int status = 503;
    QString message;          ///< Status/JobFailure message (a default is used when empty)
    QString code;             ///< ONTAP error code for Status/JobFailure (a default is used when empty)
    int count = -1;           ///< how many more requests it hits; -1 = forever
    double probability = 1.0; ///< chance of hitting a matching request
    int fired = 0;            ///< requests hit so far

    static QString kindName(Kind kind);
    static std::optional<Kind> kindFromName(const QString &name);
    /// Parses the JSON form; returns nullopt and sets `error` when invalid.
    static std::optional<FaultRule> fromJson(const QJsonObject &json, QString *error);
    [[nodiscard]] QJsonObject toJson() const;
    /// Whether the rule's kind can act on this kind of request (job kinds need a mutation).
    [[nodiscard]] bool appliesToMethod(const QByteArray &method) const;
};

/// An ordered list of rules; the first matching rule with hits left fires.
class FaultSet final
{
public:
    explicit FaultSet(quint64 seed = 7);

    int add(FaultRule rule);
    bool remove(int id);
    void clear();
    [[nodiscard]] QList<FaultRule> rules() const;
    /// The rule hitting this request (already counted), if any.
    std::optional<FaultRule> take(const QByteArray &method, const QString &path);

private:
    struct Entry
    {
        FaultRule rule;
        QRegularExpression regex;
    };
    QList<Entry> m_entries;
    int m_nextId = 1;
    std::mt19937_64 m_rng;
};

} // namespace strata::sim::ontap
