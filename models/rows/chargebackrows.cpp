#include "models/rows/chargebackrows.h"

#include "models/core/planning/reportformat.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QLocale>
#include <QTextStream>

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
    return core::formatHours(hours, QLocale(QLocale::English, QLocale::UnitedStates));
}

double storageTotal(const QMap<QString, double> &byTier)
{
    double sum = 0;
    for (const double v : byTier) {
        sum += v;
    }
    return sum;
}

QString chargebackRowsTr(const char *text)
{
    return QCoreApplication::translate("strata::rows::Chargeback", text);
}

/// A column shown in tables: its key and, as its header, its label in capitals.
ResultSet::Column shownColumn(const char *key)
{
    const QString k = QLatin1String(key);
    return {k, chargebackColumnLabel(k).toUpper()};
}

QList<ResultSet::Column> tierColumns(const core::Chargeback &cb)
{
    QList<ResultSet::Column> columns;
    for (const QString &tier : cb.tiers) {
        columns.append({core::chargebackTierColumn(tier), QString()});
    }
    columns.append({core::chargebackUnpricedColumn(), QString()});
    return columns;
}

/// The values of tierColumns(): GiB-hours per card tier, then those at tiers the card lacks.
QVariantList tierValues(const core::Chargeback &cb, const QMap<QString, double> &byTier)
{
    QVariantList values;
    double unpriced = 0;
    for (auto it = byTier.begin(); it != byTier.end(); ++it) {
        if (!cb.tiers.contains(it.key())) {
            unpriced += it.value();
        }
    }
    for (const QString &tier : cb.tiers) {
        values.append(roundedTo(byTier.value(tier), 3));
    }
    values.append(roundedTo(unpriced, 3));
    return values;
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
    for (const QVariant &v : tierValues(cb, line.storageGibHours)) {
        values.append(v);
        display.append(QString());
    }
    values << roundedTo(line.gpuCost, 2) << roundedTo(line.storageCost, 2) << roundedTo(line.cost, 2) << cb.currency
           << roundedTo(line.missingHours, 3) << roundedTo(line.gpuMissingHours, 3)
           << roundedTo(line.storageMissingHours, 3) << line.unpriced << volumeCount << jobCount << line.cachedCommits;
    // The unattributed line holds no project, so it has no GPU coverage to lack.
    display << QString() << QString() << formatMoney(cb.currency, line.cost) << QString() << QString()
            << (line.unattributed ? QStringLiteral("-") : hoursText(line.gpuMissingHours))
            << hoursText(line.storageMissingHours) << QString() << QString::number(volumeCount)
            << QString::number(jobCount) << QString();
    rs.addRow(values, display);
}

} // namespace

ResultSet chargebackRows(const core::Chargeback &cb, bool withTotal)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("line"), QString()},
                  shownColumn("source"),
                  shownColumn("project"),
                  {QStringLiteral("period"), QString()},
                  shownColumn("gpu_hours_allocated"),
                  shownColumn("gpu_hours_used"),
                  {QStringLiteral("gpu_hours_utilization_unknown"), QString()},
                  {QStringLiteral("gpu_price_per_hour"), QString()},
                  shownColumn("storage_gib_hours")};
    rs.columns += tierColumns(cb);
    rs.columns += QList<ResultSet::Column>{{QStringLiteral("gpu_cost"), QString()},
                                           {QStringLiteral("storage_cost"), QString()},
                                           shownColumn("cost"),
                                           {QStringLiteral("currency"), QString()},
                                           {QStringLiteral("missing_hours"), QString()},
                                           shownColumn("gpu_missing_hours"),
                                           shownColumn("storage_missing_hours"),
                                           {QStringLiteral("unpriced"), QString()},
                                           shownColumn("volumes"),
                                           shownColumn("jobs"),
                                           {QStringLiteral("cached_commits"), QString()}};
    for (const core::ChargebackLine &line : cb.lines) {
        addChargebackRow(rs, cb, line, false);
    }
    if (withTotal) {
        addChargebackRow(rs, cb, cb.total, true);
    }
    return rs;
}

QString chargebackCsv(const core::Chargeback &cb)
{
    QString text;
    QTextStream out(&text);
    write(chargebackRows(cb), Format::Csv, out);
    out.flush();
    return text;
}

QString chargebackColumnLabel(const QString &key)
{
    static const QHash<QString, const char *> labels{
        {QStringLiteral("source"), QT_TRANSLATE_NOOP("strata::rows::Chargeback", "Source")},
        {QStringLiteral("project"), QT_TRANSLATE_NOOP("strata::rows::Chargeback", "Project")},
        {QStringLiteral("gpu_hours_allocated"), QT_TRANSLATE_NOOP("strata::rows::Chargeback", "GPU-h allocated")},
        {QStringLiteral("gpu_hours_used"), QT_TRANSLATE_NOOP("strata::rows::Chargeback", "GPU-h used")},
        {QStringLiteral("storage_gib_hours"), QT_TRANSLATE_NOOP("strata::rows::Chargeback", "Storage GiB-h")},
        {QStringLiteral("cost"), QT_TRANSLATE_NOOP("strata::rows::Chargeback", "Cost")},
        {QStringLiteral("gpu_missing_hours"), QT_TRANSLATE_NOOP("strata::rows::Chargeback", "GPU missing h")},
        {QStringLiteral("storage_missing_hours"), QT_TRANSLATE_NOOP("strata::rows::Chargeback", "Storage missing h")},
        {QStringLiteral("volumes"), QT_TRANSLATE_NOOP("strata::rows::Chargeback", "Volumes")},
        {QStringLiteral("jobs"), QT_TRANSLATE_NOOP("strata::rows::Chargeback", "Jobs")},
        {QStringLiteral("name"), QT_TRANSLATE_NOOP("strata::rows::Chargeback", "Volume")},
        {QStringLiteral("via"), QT_TRANSLATE_NOOP("strata::rows::Chargeback", "Via")},
        {QStringLiteral("share"), QT_TRANSLATE_NOOP("strata::rows::Chargeback", "Share")},
    };
    const char *label = labels.value(key);
    return label ? chargebackRowsTr(label) : QString();
}

QString chargebackCoverageText(const core::Chargeback &cb)
{
    const core::ChargebackLine &t = cb.total;
    return chargebackRowsTr("%1: %2 h of the period so far, up to %3 UTC. Hours without history (missing, not "
                            "zero), the most on one line: GPU %4 h, storage %5 h.")
        .arg(cb.period.label,
             hoursText(cb.hours),
             cb.accountedTo.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")),
             hoursText(t.gpuMissingHours),
             hoursText(t.storageMissingHours));
}

QString formatMoney(const QString &currency, double amount)
{
    return core::formatMoney(amount, currency, QLocale(QLocale::English, QLocale::UnitedStates));
}

ResultSet chargebackVolumeRows(const core::Chargeback &cb, const core::ChargebackLine &line)
{
    ResultSet rs;
    rs.columns = {shownColumn("source"),
                  {QStringLiteral("volume_id"), QString()},
                  shownColumn("name"),
                  shownColumn("via"),
                  shownColumn("share"),
                  shownColumn("storage_gib_hours")};
    rs.columns += tierColumns(cb);
    // A volume's missing hours are storage hours: the same words as the lines' column.
    rs.columns += QList<ResultSet::Column>{
        shownColumn("cost"),
        {QStringLiteral("missing_hours"), chargebackColumnLabel(QStringLiteral("storage_missing_hours")).toUpper()}};
    for (const core::ChargebackVolume &v : line.volumes) {
        const double total = storageTotal(v.gibHours);
        QVariantList values{v.source, v.volumeId, v.name, v.via, roundedTo(v.share, 4), roundedTo(total, 3)};
        QStringList display{v.source,
                            QString(),
                            v.name,
                            v.via.isEmpty() ? QStringLiteral("-") : v.via,
                            QLocale::c().toString(v.share * 100, 'f', 0) + QLatin1Char('%'),
                            hoursText(total)};
        for (const QVariant &value : tierValues(cb, v.gibHours)) {
            values.append(value);
            display.append(QString());
        }
        values << roundedTo(v.cost, 2) << roundedTo(v.missingHours, 3);
        display << formatMoney(cb.currency, v.cost) << hoursText(v.missingHours);
        rs.addRow(values, display);
    }
    return rs;
}

namespace {

/// [{key, label}] of the columns a table shows, in order.
QJsonArray shownColumns(const ResultSet &rs)
{
    QJsonArray out;
    for (const ResultSet::Column &c : rs.columns) {
        if (!c.header.isEmpty()) {
            const QString label = chargebackColumnLabel(
                c.key == QLatin1String("missing_hours") ? QStringLiteral("storage_missing_hours") : c.key);
            out.append(QJsonObject{{QStringLiteral("key"), c.key}, {QStringLiteral("label"), label}});
        }
    }
    return out;
}

} // namespace

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
    QJsonObject tierLabels;
    for (const QString &tier : cb.total.storageGibHours.keys() + cb.tiers) {
        tierLabels.insert(tier, core::chargebackTierLabel(tier));
    }
    return QJsonObject{
        {QStringLiteral("period"),
         QJsonObject{{QStringLiteral("label"), cb.period.label},
                     {QStringLiteral("from"), cb.period.from.toUTC().toString(Qt::ISODate)},
                     {QStringLiteral("to"), cb.period.to.toUTC().toString(Qt::ISODate)}}},
        {QStringLiteral("accounted_to"), cb.accountedTo.toUTC().toString(Qt::ISODate)},
        {QStringLiteral("history_from"),
         cb.historyFrom.isValid() ? QJsonValue(cb.historyFrom.toUTC().toString(Qt::ISODate)) : QJsonValue()},
        {QStringLiteral("hours"), roundedTo(cb.hours, 3)},
        {QStringLiteral("currency"), cb.currency},
        {QStringLiteral("coverage"), chargebackCoverageText(cb)},
        {QStringLiteral("columns"), shownColumns(rows)},
        {QStringLiteral("volume_columns"), shownColumns(chargebackVolumeRows(cb, cb.total))},
        {QStringLiteral("tiers"), tiers},
        {QStringLiteral("tier_labels"), tierLabels},
        {QStringLiteral("lines"), lines},
        {QStringLiteral("total"), objects.at(objects.size() - 1)},
        {QStringLiteral("notes"), QJsonArray::fromStringList(cb.notes)},
    };
}

} // namespace strata::rows
