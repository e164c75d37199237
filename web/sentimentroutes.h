#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QUrlQuery>

namespace strata::core {
class SentimentService;
struct SentimentSentence;
struct SentimentCall;
} // namespace strata::core

namespace strata::web {

class WebServer;

/// The sentiment dashboards' API (TR-4910; docs/sentiment-schema.md), viewer role, all GET under
/// /api/v1/sentiment/. Times are RFC 3339 UTC strings, durations seconds, sentiment means are
/// -1..+1 (positive +1, neutral 0, negative -1), `counts` is {"positive","neutral","negative"}.
/// A bad parameter answers {"error": "<sentence>"}.
///
///   summary?range=S       S seconds back (60..31536000, default 86400): calls started in range
///                         {"range","calls","live_calls","sentences","mean","counts","agents",
///                          "teams","status":{"state":"starting|ok|error","error","problems":[..],
///                          "invalid_lines","objects_read","sentences","calls","dropped_sentences",
///                          "polls","last_poll","last_success","poll_duration_ms","bucket","prefix"}}
///   calls?live=1&agent=A&limit=N   newest call start first (limit 1..5000, default 100)
///                         [{"key","call","agent","team","call_start","duration","sentences",
///                           "counts","mean","customer_mean","agent_mean","last_label","live",
///                           "ground_truth_sentences","model"}]
///   call?id=ID            that call's row plus "sentences": [sentence rows in index order]
///   agents?range=S        agents with a call started in range (as summary); their figures cover
///                         the range, "trend" every day kept
///                         [{"key","agent","team","calls","sentences","counts","mean",
///                           "customer_mean","last_call","trend":[{"day":"2026-11-22","calls",
///                           "sentences","mean"}]}]
///   teams?range=S&bucket=B  range as above (default 30 days), bucket seconds (>= 60, default
///                         86400; widened so there are at most 1000 buckets)
///                         {"range","bucket","start","teams":[{"team","counts","buckets":
///                          [{"time","positive","neutral","negative","mean"}]}]}
///   metrics               {"labeled_sentences","labeled_calls","labels":{"positive":{"precision",
///                          "recall","f1","support","predicted"},"neutral":{..},"negative":{..}},
///                          "accuracy","macro_f1","mean_sentiment_difference",
///                          "mean_absolute_sentiment_difference","confusion":{"labels":
///                          ["negative","neutral","positive"],"matrix":[[truth negative: predicted
///                          negative, neutral, positive], ...]},"models":[..]}
///
/// Sentence row: {"key":"<call>/<index>","call","agent","team","speaker":"agent|customer",
/// "index","start","end","call_start","text" (absent when withheld),"label","confidence","model",
/// "ground_truth" (label or null),"running" (the call's mean up to this sentence)}.
///
/// Live: every new sentence is appended to the LiveFeed resource "sentences" (one row each, key
/// "<call>/<index>"), and the resource "sentiment_calls" (the live calls, rows as in calls?live=1)
/// is re-read after each batch.
void registerSentimentRoutes(WebServer &server, core::SentimentService &service);

/// The handler behind /api/v1/sentiment/<route> (also used by tests without a server).
QJsonValue sentimentRoute(core::SentimentService &service, const QString &route, const QUrlQuery &query);
QJsonObject sentimentSentenceJson(const core::SentimentSentence &sentence);
QJsonObject sentimentCallJson(const core::SentimentCall &call);

} // namespace strata::web
