#include "simulators/azure/azurestate.h"

#include <QDateTime>
#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace strata::sim::azure {

void AzureState::metrics(const std::shared_ptr<AzureExchange> &ex, const Volume &volume)
{
    struct MetricInfo
    {
        const char *name;
        const char *localized;
        const char *unit;
    };
    static const MetricInfo known[] = {
        {"ReadThroughput", "Read throughput", "BytesPerSecond"},
        {"WriteThroughput", "Write throughput", "BytesPerSecond"},
        {"TotalThroughput", "Total throughput", "BytesPerSecond"},
        {"ReadIops", "Read iops", "CountPerSecond"},
        {"WriteIops", "Write iops", "CountPerSecond"},
        {"TotalIops", "Total iops", "CountPerSecond"},
        {"AverageReadLatency", "Average read latency", "MilliSeconds"},
        {"AverageWriteLatency", "Average write latency", "MilliSeconds"},
        {"VolumeLogicalSize", "Percentage Volume Consumed Size", "Bytes"},
        {"VolumeAllocatedSize", "Volume allocated size", "Bytes"},
        {"VolumeConsumedSizePercentage", "Percentage volume consumed size", "Percent"},
    };
    if (ex->request.method != "GET") {
        methodNotAllowed(ex);
        return;
    }
    const qint64 now = nowMs();
    qint64 from = now - 3600000;
    qint64 to = now;
    const QString timespan = ex->request.queryValue(QStringLiteral("timespan"));
    if (!timespan.isEmpty()) {
        const QStringList parts = timespan.split(QLatin1Char('/'));
        const QDateTime a = QDateTime::fromString(parts.value(0), Qt::ISODateWithMs);
        const QDateTime b = QDateTime::fromString(parts.value(1), Qt::ISODateWithMs);
        if (parts.size() != 2 || !a.isValid() || !b.isValid() || a >= b) {
            armError(
                ex,
                400,
                QStringLiteral("BadRequest"),
                QStringLiteral("Detected invalid timespan '%1'; expected '<start>/<end>' in ISO 8601.").arg(timespan));
            return;
        }
        from = a.toMSecsSinceEpoch();
        to = b.toMSecsSinceEpoch();
    }
    static const std::map<QString, int> intervals{{QStringLiteral("PT5M"), 5},
                                                  {QStringLiteral("PT15M"), 15},
                                                  {QStringLiteral("PT30M"), 30},
                                                  {QStringLiteral("PT1H"), 60},
                                                  {QStringLiteral("PT6H"), 360},
                                                  {QStringLiteral("PT12H"), 720},
                                                  {QStringLiteral("P1D"), 1440}};
    const QString interval = ex->request.queryValue(QStringLiteral("interval"), QStringLiteral("PT5M")).toUpper();
    const auto iv = intervals.find(interval);
    if (iv == intervals.end()) {
        armError(ex,
                 400,
                 QStringLiteral("BadRequest"),
                 QStringLiteral("Invalid interval '%1': Microsoft.NetApp volumes support PT5M, PT15M, PT30M, PT1H, "
                                "PT6H, PT12H and P1D.")
                     .arg(interval));
        return;
    }
    const qint64 step = qint64(iv->second) * 60000;
    const qint64 start = from - from % step;
    if ((to - start) / step > 20000) {
        armError(ex,
                 400,
                 QStringLiteral("BadRequest"),
                 QStringLiteral("The timespan and interval would return more than 20000 points."));
        return;
    }
    QStringList aggregations;
    for (const QString &a : ex->request.queryValue(QStringLiteral("aggregation"), QStringLiteral("Average"))
                                .split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        aggregations.append(a.trimmed().toLower());
    }
    QStringList names =
        ex->request.queryValue(QStringLiteral("metricnames")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (names.isEmpty()) {
        names.append(QStringLiteral("VolumeLogicalSize"));
    }
    QJsonArray value;
    for (const QString &rawName : names) {
        const QString name = rawName.trimmed();
        const MetricInfo *info = nullptr;
        for (const MetricInfo &m : known) {
            if (same(name, QLatin1String(m.name))) {
                info = &m;
            }
        }
        if (!info) {
            QStringList valid;
            for (const MetricInfo &m : known) {
                valid.append(QLatin1String(m.name));
            }
            armError(ex,
                     400,
                     QStringLiteral("BadRequest"),
                     QStringLiteral("Failed to find metric configuration for provider: Microsoft.NetApp, resource "
                                    "Type: netAppAccounts/capacityPools/volumes, metric: %1, Valid metrics: %2")
                         .arg(name, valid.join(QLatin1Char(','))));
            return;
        }
        QJsonArray data;
        for (qint64 t = start; t < to; t += step) {
            QJsonObject point{{QStringLiteral("timeStamp"), isoTime(t)}};
            std::vector<double> samples;
            for (qint64 u = t; u < t + step; u += 300000) {
                if (u + 300000 > now || u < volume.createdMs - volume.createdMs % 300000) {
                    continue;
                }
                const LoadSample s = sampleLoad(volume, opt.seed, u);
                const QString n = QLatin1String(info->name);
                double x = 0;
                if (n == QLatin1String("ReadThroughput")) {
                    x = s.readBps;
                } else if (n == QLatin1String("WriteThroughput")) {
                    x = s.writeBps;
                } else if (n == QLatin1String("TotalThroughput")) {
                    x = s.readBps + s.writeBps;
                } else if (n == QLatin1String("ReadIops")) {
                    x = s.readIops;
                } else if (n == QLatin1String("WriteIops")) {
                    x = s.writeIops;
                } else if (n == QLatin1String("TotalIops")) {
                    x = s.readIops + s.writeIops;
                } else if (n == QLatin1String("AverageReadLatency")) {
                    x = s.readLatencyMs;
                } else if (n == QLatin1String("AverageWriteLatency")) {
                    x = s.writeLatencyMs;
                } else if (n == QLatin1String("VolumeLogicalSize")) {
                    x = s.logicalSizeBytes;
                } else if (n == QLatin1String("VolumeAllocatedSize")) {
                    x = double(volume.usageThreshold);
                } else {
                    x = 100.0 * s.logicalSizeBytes / double(volume.usageThreshold);
                }
                samples.push_back(x);
            }
            if (!samples.empty()) {
                double sum = 0;
                for (double x : samples) {
                    sum += x;
                }
                for (const QString &a : aggregations) {
                    double x = sum / double(samples.size());
                    if (a == QLatin1String("maximum")) {
                        x = *std::max_element(samples.begin(), samples.end());
                    } else if (a == QLatin1String("minimum")) {
                        x = *std::min_element(samples.begin(), samples.end());
                    } else if (a == QLatin1String("total")) {
                        x = sum;
                    } else if (a == QLatin1String("count")) {
                        x = double(samples.size());
                    }
                    point.insert(a, std::round(x * 1000) / 1000);
                }
            }
            data.append(point);
        }
        value.append(QJsonObject{
            {QStringLiteral("id"),
             QString(volumeId(volume) + QStringLiteral("/providers/Microsoft.Insights/metrics/")
                     + QLatin1String(info->name))},
            {QStringLiteral("type"), QStringLiteral("Microsoft.Insights/metrics")},
            {QStringLiteral("name"),
             QJsonObject{{QStringLiteral("value"), QLatin1String(info->name)},
                         {QStringLiteral("localizedValue"), QLatin1String(info->localized)}}},
            {QStringLiteral("displayDescription"), QLatin1String(info->localized)},
            {QStringLiteral("unit"), QLatin1String(info->unit)},
            {QStringLiteral("timeseries"),
             QJsonArray{QJsonObject{{QStringLiteral("metadatavalues"), QJsonArray{}}, {QStringLiteral("data"), data}}}},
            {QStringLiteral("errorCode"), QStringLiteral("Success")},
        });
    }
    sendJson(ex,
             200,
             QJsonObject{
                 {QStringLiteral("cost"), double((to - start) / step) * double(names.size())},
                 {QStringLiteral("timespan"), QString(isoTime(from) + QLatin1Char('/') + isoTime(to))},
                 {QStringLiteral("interval"), interval},
                 {QStringLiteral("value"), value},
                 {QStringLiteral("namespace"), QStringLiteral("Microsoft.NetApp/netAppAccounts/capacityPools/volumes")},
                 {QStringLiteral("resourceregion"), volume.location}});
}

} // namespace strata::sim::azure
