#include "models/rows/chargebackrows.h"

#include <QJsonArray>
#include <QLocale>

#include <cmath>

namespace strata::rows {

namespace {

double roundedTo(double value, int decimals)
{
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

QString hoursText(double hours)
{
    return QLocale::c().toString(hours, 'f', 1);
}

double storageTotal(const QMap<QString, double> &byTier)
{
    double sum = 0;
    for (const double v : byTier) {
        sum += v;
    }
    return sum;
}

/// The most hours any of the line's volumes lacks samples for.
double storageMissing(const core::ChargebackLine &line)
{
    double most = 0;
    for (const core::ChargebackVolume &v : line.volumes) {
        most = std::max(most, v.missingHours);
    }
    return most;
}

QList<ResultSet::Column> tierColumns(const core::Chargeback &cb)
{
    QList<ResultSet::Column> columns;
    for (const QString &tier : cb.tiers) {
        columns.append({core::chargebackTierColumn(tier), QString()});
    }
    return columns;
}

QString lineProject(const core::ChargebackLine &line)
{
    return line.unattributed ? QStringLiteral("(unattributed)") : line.project;
}

void addChargebackRow(ResultSet &rs, const core::Chargeback &cb, const core::ChargebackLine &line, bool total)
{
    qint64 volumeCount = line.volumes.size();
    qint64 jobCount = line.jobs.size();
    if (total) {
        // A volume shared by projects counts once per line that pays for a part of it.
        for (const core::ChargebackLine &l : cb.lines) {
            volumeCount += l.volumes.size();
            jobCount += l.jobs.size();
        }
    }
    const double storage = storageTotal(line.storageGibHours);
    QVariantList values{total ? QStringLiteral("total")
                              : (line.unattributed ? QStringLiteral("unattributed") : QStringLiteral("project")),
                        line.source,
                        line.project,
                        cb.period.label,
                        roundedTo(line.gpuHoursAllocated, 3),
                        roundedTo(line.gpuHoursUsed, 3),
                        roundedTo(line.gpuHoursUtilizationUnknown, 3),
                        line.gpuPricePerHour >= 0 && !line.unattributed && !total ? QVariant(line.gpuPricePerHour)
                                                                                  : QVariant(),
                        roundedTo(storage, 3)};
    QStringList display{QString(),
                        line.source.isEmpty() ? QStringLiteral("-") : line.source,
                        total ? QStringLiteral("TOTAL") : lineProject(line),
                        QString(),
                        hoursText(line.gpuHoursAllocated),
                        hoursText(line.gpuHoursUsed),
                        QString(),
                        QString(),
                        hoursText(storage)};
    for (const QString &tier : cb.tiers) {
        values.append(roundedTo(line.storageGibHours.value(tier), 3));
        display.append(QString());
    }
    values << roundedTo(line.gpuCost, 2) << roundedTo(line.storageCost, 2) << roundedTo(line.cost, 2) << cb.currency
           << roundedTo(line.missingHours, 3) << roundedTo(line.gpuMissingHours, 3)
           << roundedTo(storageMissing(line), 3) << line.unpriced << volumeCount << jobCount << line.cachedCommits;
    display << QString() << QString() << formatMoney(cb.currency, line.cost) << QString()
            << hoursText(line.missingHours) << QString() << QString() << QString() << QString::number(volumeCount)
            << QString::number(jobCount) << QString();
    rs.addRow(values, display);
}

} // namespace

ResultSet chargebackRows(const core::Chargeback &cb, bool withTotal)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("line"), QString()},
                  {QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("project"), QStringLiteral("PROJECT")},
                  {QStringLiteral("period"), QString()},
                  {QStringLiteral("gpu_hours_allocated"), QStringLiteral("GPU-H ALLOCATED")},
                  {QStringLiteral("gpu_hours_used"), QStringLiteral("GPU-H USED")},
                  {QStringLiteral("gpu_hours_utilization_unknown"), QString()},
                  {QStringLiteral("gpu_price_per_hour"), QString()},
                  {QStringLiteral("storage_gib_hours"), QStringLiteral("STORAGE GiB-H")}};
    rs.columns += tierColumns(cb);
    rs.columns += QList<ResultSet::Column>{{QStringLiteral("gpu_cost"), QString()},
                                           {QStringLiteral("storage_cost"), QString()},
                                           {QStringLiteral("cost"), QStringLiteral("COST")},
                                           {QStringLiteral("currency"), QString()},
                                           {QStringLiteral("missing_hours"), QStringLiteral("MISSING H")},
                                           {QStringLiteral("gpu_missing_hours"), QString()},
                                           {QStringLiteral("storage_missing_hours"), QString()},
                                           {QStringLiteral("unpriced"), QString()},
                                           {QStringLiteral("volumes"), QStringLiteral("VOLUMES")},
                                           {QStringLiteral("jobs"), QStringLiteral("JOBS")},
                                           {QStringLiteral("cached_commits"), QString()}};
    for (const core::ChargebackLine &line : cb.lines) {
        addChargebackRow(rs, cb, line, false);
    }
    if (withTotal) {
        addChargebackRow(rs, cb, cb.total, true);
    }
    return rs;
}

QString formatMoney(const QString &currency, double amount)
{
    const QString text = QLocale::c().toString(amount, 'f', 2);
    if (currency == QLatin1String("USD")) {
        return QStringLiteral("$") + text;
    }
    return text + QLatin1Char(' ') + currency;
}

ResultSet chargebackVolumeRows(const core::Chargeback &cb, const core::ChargebackLine &line)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("volume_id"), QString()},
                  {QStringLiteral("name"), QStringLiteral("VOLUME")},
                  {QStringLiteral("via"), QStringLiteral("VIA")},
                  {QStringLiteral("share"), QStringLiteral("SHARE")},
                  {QStringLiteral("storage_gib_hours"), QStringLiteral("GiB-H")}};
    rs.columns += tierColumns(cb);
    rs.columns += QList<ResultSet::Column>{{QStringLiteral("cost"), QStringLiteral("COST")},
                                           {QStringLiteral("missing_hours"), QStringLiteral("MISSING H")}};
    for (const core::ChargebackVolume &v : line.volumes) {
        const double total = storageTotal(v.gibHours);
        QVariantList values{v.source, v.volumeId, v.name, v.via, roundedTo(v.share, 4), roundedTo(total, 3)};
        QStringList display{v.source,
                            QString(),
                            v.name,
                            v.via.isEmpty() ? QStringLiteral("-") : v.via,
                            QLocale::c().toString(v.share * 100, 'f', 0) + QLatin1Char('%'),
                            hoursText(total)};
        for (const QString &tier : cb.tiers) {
            values.append(roundedTo(v.gibHours.value(tier), 3));
            display.append(QString());
        }
        values << roundedTo(v.cost, 2) << roundedTo(v.missingHours, 3);
        display << formatMoney(cb.currency, v.cost) << hoursText(v.missingHours);
        rs.addRow(values, display);
    }
    return rs;
}

QJsonObject chargebackToJson(const core::Chargeback &cb)
{
    const ResultSet rows = chargebackRows(cb, true);
    const QJsonArray objects = toJson(rows);
    QJsonArray lines;
    for (qsizetype i = 0; i < cb.lines.size(); ++i) {
        const core::ChargebackLine &line = cb.lines[i];
        QJsonObject o = objects.at(i).toObject();
        o.insert(QStringLiteral("volume_list"), toJson(chargebackVolumeRows(cb, line)));
        QJsonArray jobs;
        for (const core::ChargebackJob &j : line.jobs) {
            jobs.append(QJsonObject{
                {QStringLiteral("id"), j.id},
                {QStringLiteral("status"), j.status},
                {QStringLiteral("gpus"), double(j.gpus) / 1000.0},
                {QStringLiteral("pvcs"), QJsonArray::fromStringList(j.pvcs)},
                {QStringLiteral("created"),
                 j.created.isValid() ? QJsonValue(j.created.toUTC().toString(Qt::ISODate)) : QJsonValue()},
                {QStringLiteral("finished"),
                 j.finished.isValid() ? QJsonValue(j.finished.toUTC().toString(Qt::ISODate)) : QJsonValue()}});
        }
        o.insert(QStringLiteral("job_list"), jobs);
        lines.append(o);
    }
    QJsonArray tiers;
    for (const QString &tier : cb.tiers) {
        tiers.append(QJsonObject{{QStringLiteral("key"), tier},
                                 {QStringLiteral("column"), core::chargebackTierColumn(tier)},
                                 {QStringLiteral("label"), core::chargebackTierLabel(tier)}});
    }
    return QJsonObject{
        {QStringLiteral("period"),
         QJsonObject{{QStringLiteral("label"), cb.period.label},
                     {QStringLiteral("from"), cb.period.from.toUTC().toString(Qt::ISODate)},
                     {QStringLiteral("to"), cb.period.to.toUTC().toString(Qt::ISODate)}}},
        {QStringLiteral("accounted_to"), cb.accountedTo.toUTC().toString(Qt::ISODate)},
        {QStringLiteral("hours"), roundedTo(cb.hours, 3)},
        {QStringLiteral("currency"), cb.currency},
        {QStringLiteral("tiers"), tiers},
        {QStringLiteral("lines"), lines},
        {QStringLiteral("total"), objects.at(objects.size() - 1)},
        {QStringLiteral("notes"), QJsonArray::fromStringList(cb.notes)},
    };
}

} // namespace strata::rows
