#include "web/sentimentroutes.h"

#include "web/apierror.h"
#include "web/livefeed.h"
#include "web/webserver.h"

#include "models/core/runtime/sentimentservice.h"

#include <QDateTime>
#include <QHash>
#include <QHttpServerRequest>

namespace strata::web {

namespace {

constexpr qint64 kDay = 86400;
constexpr qint64 kYear = 365 * kDay;

QJsonValue iso(qint64 epochMs)
{
    if (epochMs <= 0) {
        return QJsonValue::Null;
    }
    return QDateTime::fromMSecsSinceEpoch(epochMs, Qt::UTC).toString(Qt::ISODate);
}

QJsonObject countsJson(const core::SentimentCounts &counts)
{
    return {{QStringLiteral("positive"), counts[2]},
            {QStringLiteral("neutral"), counts[1]},
            {QStringLiteral("negative"), counts[0]}};
}

// Whole seconds in [minimum, maximum]; `fallback` when absent; nullopt when malformed.
std::optional<qint64>
seconds(const QUrlQuery &query, const QString &key, qint64 fallback, qint64 minimum, qint64 maximum)
{
    if (!query.hasQueryItem(key)) {
        return fallback;
    }
    bool ok = false;
    const qint64 value = query.queryItemValue(key).toLongLong(&ok);
    if (!ok || value < minimum || value > maximum) {
        return std::nullopt;
    }
    return value;
}

QString stateName(core::SentimentStatus::State state)
{
    switch (state) {
    case core::SentimentStatus::State::Starting:
        return QStringLiteral("starting");
    case core::SentimentStatus::State::Ok:
        return QStringLiteral("ok");
    case core::SentimentStatus::State::Error:
        return QStringLiteral("error");
    }
    return QStringLiteral("error");
}

QJsonObject statusJson(const core::SentimentStatus &s)
{
    return {
        {QStringLiteral("state"), stateName(s.state)},
        {QStringLiteral("error"), s.error},
        {QStringLiteral("problems"), QJsonArray::fromStringList(s.problems)},
        {QStringLiteral("invalid_lines"), s.invalidLines},
        {QStringLiteral("objects_read"), s.objectsRead},
        {QStringLiteral("sentences"), s.sentences},
        {QStringLiteral("calls"), s.calls},
        {QStringLiteral("dropped_sentences"), s.droppedSentences},
        {QStringLiteral("polls"), s.polls},
        {QStringLiteral("last_poll"), iso(s.lastPollMs)},
        {QStringLiteral("last_success"), iso(s.lastSuccessMs)},
        {QStringLiteral("poll_duration_ms"), s.lastPollDurationMs},
        {QStringLiteral("bucket"), s.bucket},
        {QStringLiteral("prefix"), s.prefix},
    };
}

QJsonArray liveCallsJson(core::SentimentService &service)
{
    QJsonArray rows;
    for (const core::SentimentCall &c : service.calls(true, {}, 1000)) {
        rows.append(sentimentCallJson(c));
    }
    return rows;
}

} // namespace

QJsonObject sentimentSentenceJson(const core::SentimentSentence &s)
{
    QJsonObject row{
        {QStringLiteral("key"), QString(s.call + QLatin1Char('/') + QString::number(s.index))},
        {QStringLiteral("call"), s.call},
        {QStringLiteral("agent"), s.agent},
        {QStringLiteral("team"), s.team},
        {QStringLiteral("speaker"), s.agentSpeaking ? QStringLiteral("agent") : QStringLiteral("customer")},
        {QStringLiteral("index"), s.index},
        {QStringLiteral("start"), s.start},
        {QStringLiteral("end"), s.end},
        {QStringLiteral("call_start"), iso(s.callStartMs)},
        {QStringLiteral("label"), core::sentimentLabelName(s.label)},
        {QStringLiteral("confidence"), s.confidence},
        {QStringLiteral("model"), s.model},
        {QStringLiteral("ground_truth"),
         s.groundTruth ? QJsonValue(core::sentimentLabelName(*s.groundTruth)) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("running"), s.running},
    };
    if (!s.text.isNull()) {
        row.insert(QStringLiteral("text"), s.text);
    }
    return row;
}

QJsonObject sentimentCallJson(const core::SentimentCall &c)
{
    return {
        {QStringLiteral("key"), c.call},
        {QStringLiteral("call"), c.call},
        {QStringLiteral("agent"), c.agent},
        {QStringLiteral("team"), c.team},
        {QStringLiteral("call_start"), iso(c.callStartMs)},
        {QStringLiteral("duration"), c.duration},
        {QStringLiteral("sentences"), c.sentences},
        {QStringLiteral("counts"), countsJson(c.counts)},
        {QStringLiteral("mean"), c.mean},
        {QStringLiteral("customer_mean"), c.customerMean},
        {QStringLiteral("agent_mean"), c.agentMean},
        {QStringLiteral("last_label"), core::sentimentLabelName(c.lastLabel)},
        {QStringLiteral("live"), c.live},
        {QStringLiteral("ground_truth_sentences"), c.groundTruthCount},
        {QStringLiteral("model"), c.model},
    };
}

QJsonValue sentimentRoute(core::SentimentService &service, const QString &route, const QUrlQuery &query)
{
    if (route == QLatin1String("summary")) {
        const auto range = seconds(query, QStringLiteral("range"), kDay, 60, kYear);
        if (!range) {
            return apiErrorValue(ApiError::BadRequest,
                                 QStringLiteral("range must be seconds between 60 and 31536000."));
        }
        const core::SentimentSummary s = service.summary(*range * 1000);
        return QJsonObject{
            {QStringLiteral("range"), *range},
            {QStringLiteral("calls"), s.calls},
            {QStringLiteral("live_calls"), s.liveCalls},
            {QStringLiteral("sentences"), s.sentences},
            {QStringLiteral("mean"), s.mean},
            {QStringLiteral("counts"), countsJson(s.counts)},
            {QStringLiteral("agents"), s.agents},
            {QStringLiteral("teams"), s.teams},
            {QStringLiteral("status"), statusJson(service.status())},
        };
    }
    if (route == QLatin1String("calls")) {
        const auto limit = seconds(query, QStringLiteral("limit"), 100, 1, 5000);
        if (!limit) {
            return apiErrorValue(ApiError::BadRequest, QStringLiteral("limit must be a number between 1 and 5000."));
        }
        const QString live = query.queryItemValue(QStringLiteral("live"));
        const bool liveOnly = live == QLatin1String("1") || live == QLatin1String("true");
        QJsonArray rows;
        for (const core::SentimentCall &c :
             service.calls(liveOnly, query.queryItemValue(QStringLiteral("agent"), QUrl::FullyDecoded), int(*limit))) {
            rows.append(sentimentCallJson(c));
        }
        return rows;
    }
    if (route == QLatin1String("call")) {
        const QString id = query.queryItemValue(QStringLiteral("id"), QUrl::FullyDecoded);
        const auto c = service.call(id);
        if (!c) {
            return apiErrorValue(ApiError::NotFound, QStringLiteral("No call with id \"%1\".").arg(id.left(64)));
        }
        QJsonObject row = sentimentCallJson(*c);
        QJsonArray sentences;
        for (const core::SentimentSentence &s : service.sentences(id)) {
            sentences.append(sentimentSentenceJson(s));
        }
        row.insert(QStringLiteral("sentences"), sentences);
        return row;
    }
    if (route == QLatin1String("agents")) {
        // The same window as the summary's KPIs, so "Calls" means the same on both.
        const auto range = seconds(query, QStringLiteral("range"), kDay, 60, kYear);
        if (!range) {
            return apiErrorValue(ApiError::BadRequest,
                                 QStringLiteral("range must be seconds between 60 and 31536000."));
        }
        QJsonArray rows;
        for (const core::SentimentAgent &a : service.agents(*range * 1000)) {
            QJsonArray trend;
            for (const core::SentimentDayPoint &d : a.trend) {
                trend.append(QJsonObject{
                    {QStringLiteral("day"),
                     QDateTime::fromMSecsSinceEpoch(d.dayMs, Qt::UTC).date().toString(Qt::ISODate)},
                    {QStringLiteral("calls"), d.calls},
                    {QStringLiteral("sentences"), d.sentences},
                    {QStringLiteral("mean"), d.mean},
                });
            }
            rows.append(QJsonObject{
                {QStringLiteral("key"), a.agent},
                {QStringLiteral("agent"), a.agent},
                {QStringLiteral("team"), a.team},
                {QStringLiteral("calls"), a.calls},
                {QStringLiteral("sentences"), a.sentences},
                {QStringLiteral("counts"), countsJson(a.counts)},
                {QStringLiteral("mean"), a.mean},
                {QStringLiteral("customer_mean"), a.customerMean},
                {QStringLiteral("last_call"), iso(a.lastCallMs)},
                {QStringLiteral("trend"), trend},
            });
        }
        return rows;
    }
    if (route == QLatin1String("teams")) {
        const auto range = seconds(query, QStringLiteral("range"), 30 * kDay, 60, kYear);
        const auto bucket = seconds(query, QStringLiteral("bucket"), kDay, 60, kYear);
        if (!range || !bucket) {
            return apiErrorValue(ApiError::BadRequest,
                                 QStringLiteral("range and bucket must be seconds between 60 and 31536000."));
        }
        const QList<core::SentimentTeam> teams = service.teams(*range * 1000, *bucket * 1000);
        QJsonArray rows;
        qint64 start = 0;
        qint64 bucketMs = *bucket * 1000;
        for (const core::SentimentTeam &t : teams) {
            QJsonArray buckets;
            for (const core::SentimentBucket &b : t.buckets) {
                buckets.append(QJsonObject{
                    {QStringLiteral("time"), iso(b.startMs)},
                    {QStringLiteral("positive"), b.counts[2]},
                    {QStringLiteral("neutral"), b.counts[1]},
                    {QStringLiteral("negative"), b.counts[0]},
                    {QStringLiteral("mean"), b.mean},
                });
            }
            if (t.buckets.size() >= 2) {
                bucketMs = t.buckets[1].startMs - t.buckets[0].startMs;
            }
            if (!t.buckets.isEmpty()) {
                start = t.buckets.front().startMs;
            }
            rows.append(QJsonObject{
                {QStringLiteral("team"), t.team},
                {QStringLiteral("key"), t.team},
                {QStringLiteral("counts"), countsJson(t.counts)},
                {QStringLiteral("buckets"), buckets},
            });
        }
        return QJsonObject{
            {QStringLiteral("range"), *range},
            {QStringLiteral("bucket"), bucketMs / 1000},
            {QStringLiteral("start"), iso(start)},
            {QStringLiteral("teams"), rows},
        };
    }
    if (route == QLatin1String("metrics")) {
        const core::SentimentMetrics m = service.metrics();
        QJsonObject labels;
        for (int i = 0; i < 3; ++i) {
            const core::SentimentLabelScores &s = m.labels[i];
            labels.insert(core::sentimentLabelName(i - 1),
                          QJsonObject{
                              {QStringLiteral("precision"), s.precision},
                              {QStringLiteral("recall"), s.recall},
                              {QStringLiteral("f1"), s.f1},
                              {QStringLiteral("support"), s.support},
                              {QStringLiteral("predicted"), s.predicted},
                          });
        }
        QJsonArray matrix;
        for (const auto &row : m.confusion) {
            matrix.append(QJsonArray{row[0], row[1], row[2]});
        }
        return QJsonObject{
            {QStringLiteral("labeled_sentences"), m.labeledSentences},
            {QStringLiteral("labeled_calls"), m.labeledCalls},
            {QStringLiteral("labels"), labels},
            {QStringLiteral("accuracy"), m.accuracy},
            {QStringLiteral("macro_f1"), m.macroF1},
            {QStringLiteral("mean_sentiment_difference"), m.meanSentimentDifference},
            {QStringLiteral("mean_absolute_sentiment_difference"), m.meanAbsoluteSentimentDifference},
            {QStringLiteral("confusion"),
             QJsonObject{
                 {QStringLiteral("labels"),
                  QJsonArray{QStringLiteral("negative"), QStringLiteral("neutral"), QStringLiteral("positive")}},
                 {QStringLiteral("matrix"), matrix}}},
            {QStringLiteral("models"), QJsonArray::fromStringList(m.models)},
        };
    }
    return apiErrorValue(ApiError::NotFound, QStringLiteral("Unknown sentiment resource \"%1\".").arg(route.left(64)));
}

void registerSentimentRoutes(WebServer &server, core::SentimentService &service)
{
    for (const QString &route : {QStringLiteral("summary"),
                                 QStringLiteral("calls"),
                                 QStringLiteral("call"),
                                 QStringLiteral("agents"),
                                 QStringLiteral("teams"),
                                 QStringLiteral("metrics")}) {
        server.addGetRoute(QStringLiteral("sentiment/") + route,
                           Role::Viewer,
                           [&service, route](const QHttpServerRequest &request, const Session &) {
                               return sentimentRoute(service, route, request.query());
                           });
    }
    LiveFeed &feed = server.feed();
    feed.addResource(QStringLiteral("sentiment_calls"), [&service] {
        return liveCallsJson(service);
    });
    QObject::connect(&service,
                     &core::SentimentService::sentencesArrived,
                     &feed,
                     [&feed, &service](const QList<core::SentimentSentence> &sentences) {
                         // Only calls in progress are pushed: history (the first poll reads
                         // thousands of sentences) is read over HTTP, not broadcast to every viewer.
                         QHash<QString, bool> live;
                         QJsonArray rows;
                         for (const core::SentimentSentence &s : sentences) {
                             auto it = live.find(s.call);
                             if (it == live.end()) {
                                 const auto call = service.call(s.call);
                                 it = live.insert(s.call, call && call->live);
                             }
                             if (*it) {
                                 rows.append(sentimentSentenceJson(s));
                             }
                         }
                         feed.markDirty(QStringLiteral("sentiment_calls"));
                         if (!rows.isEmpty()) {
                             feed.append(QStringLiteral("sentences"), rows);
                         }
                     });
}

} // namespace strata::web
