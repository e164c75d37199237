#include "models/item/gridmodels.h"

#include "models/item/datasetmodel.h"
#include "models/item/roles.h"
#include "models/item/timelinemodel.h"

#include <QLocale>

namespace strata::models {

namespace {

double tenantQuotaUse(const core::Tenant &t)
{
    return t.quotaBytes > 0 ? 100.0 * double(t.dataBytes) / double(t.quotaBytes) : -1.0;
}

QString formatTime(const QDateTime &t)
{
    return t.isValid() ? QLocale().toString(t.toLocalTime(), QLocale::ShortFormat) : QString();
}

} // namespace

// ---- GridNodeModel ----

GridNodeModel::GridNodeModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(ColumnCount, parent)
{
    follow(estate.gridNodes(), &estate, &core::Estate::gridNodesChanged);
}

QString GridNodeModel::typeText(const QString &type)
{
    if (type == QLatin1String("primaryAdminNode")) {
        return tr("Admin node (primary)");
    }
    if (type == QLatin1String("nonPrimaryAdminNode") || type == QLatin1String("adminNode")) {
        return tr("Admin node");
    }
    if (type == QLatin1String("storageNode")) {
        return tr("Storage node");
    }
    if (type == QLatin1String("gatewayNode") || type == QLatin1String("apiGatewayNode")) {
        return tr("Gateway node");
    }
    if (type == QLatin1String("archiveNode")) {
        return tr("Archive node");
    }
    return type;
}

QString GridNodeModel::severityStatus(const QString &severity)
{
    if (severity == QLatin1String("critical") || severity == QLatin1String("major")) {
        return QStringLiteral("critical");
    }
    if (severity == QLatin1String("minor")) {
        return QStringLiteral("warning");
    }
    return QStringLiteral("ok");
}

QVariant GridNodeModel::recordData(const core::GridNode &n, const QModelIndex &index, int role) const
{
    switch (role) {
    case StatusRole:
        if (index.column() == State) {
            if (n.state == QLatin1String("connected")) {
                return QStringLiteral("ok");
            }
            return n.state == QLatin1String("administratively-down") ? QStringLiteral("offline")
                                                                     : QStringLiteral("critical");
        }
        if (index.column() == Severity) {
            return severityStatus(n.severity);
        }
        return QStringLiteral("ok");
    default:
        return {};
    }
}

QVariant GridNodeModel::displayData(const core::GridNode &n, int column) const
{
    switch (column) {
    case Name:
        return n.name;
    case Site:
        return n.site;
    case Type:
        return typeText(n.type);
    case State:
        return n.state == QLatin1String("administratively-down") ? tr("administratively down") : n.state;
    case Severity:
        return n.severity;
    case Grid:
        return n.source;
    default:
        return {};
    }
}

QStringList GridNodeModel::columnTitles() const
{
    return {tr("Node"), tr("Site"), tr("Type"), tr("State"), tr("Severity"), tr("Grid")};
}

// ---- GridAlertModel ----

GridAlertModel::GridAlertModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(ColumnCount, parent)
{
    follow(estate.gridAlerts(), &estate, &core::Estate::gridAlertsChanged);
}

QVariant GridAlertModel::recordData(const core::GridAlert &a, const QModelIndex &, int role) const
{
    switch (role) {
    case StatusRole:
        if (a.resolved) {
            return QStringLiteral("succeeded");
        }
        return GridNodeModel::severityStatus(a.severity);
    case Qt::ToolTipRole:
        return a.description.isEmpty() ? a.summary : a.description;
    default:
        return {};
    }
}

std::optional<QVariant> GridAlertModel::sortData(const core::GridAlert &a, int column) const
{
    switch (column) {
    case Severity:
        // Sorts critical > error > warning.
        return int(core::TimelineSeverity::Info)
               - int(core::severityFromSystem(QStringLiteral("storagegrid"), a.severity));
    case Started:
        return a.startsAt;
    case Resolved:
        return a.resolved ? a.endsAt : QDateTime();
    default:
        return std::nullopt;
    }
}

QVariant GridAlertModel::displayData(const core::GridAlert &a, int column) const
{
    switch (column) {
    case Severity:
        // The timeline's scale: the same alert reads the same on Triage and here.
        return TimelineModel::severityLabel(core::severityFromSystem(QStringLiteral("storagegrid"), a.severity));
    case Name:
        return a.silenced ? tr("%1 (silenced)").arg(a.name) : a.name;
    case Summary:
        return a.summary;
    case Node:
        return a.node;
    case Site:
        return a.site;
    case Started:
        return formatTime(a.startsAt);
    case Resolved:
        return a.resolved ? formatTime(a.endsAt) : tr("active");
    case Grid:
        return a.source;
    default:
        return {};
    }
}

QStringList GridAlertModel::columnTitles() const
{
    return {
        tr("Severity"), tr("Alert"), tr("Summary"), tr("Node"), tr("Site"), tr("Started"), tr("Resolved"), tr("Grid")};
}

// ---- TenantModel ----

TenantModel::TenantModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(ColumnCount, parent)
{
    setNumericColumns({Buckets, Objects, Data, Quota, QuotaUse, Growth});
    follow(estate.tenants(), &estate, &core::Estate::tenantsChanged);
}

QString TenantModel::growthText(const std::optional<qint64> &growth)
{
    if (!growth) {
        return {};
    }
    return core::formatBytesDelta(*growth);
}

QVariant TenantModel::recordData(const core::Tenant &t, const QModelIndex &index, int role) const
{
    switch (role) {
    case StatusRole:
        if (index.column() == QuotaUse && tenantQuotaUse(t) >= 90.0) {
            return QStringLiteral("warning");
        }
        return QStringLiteral("ok");
    case Qt::ToolTipRole:
        if (index.column() == Name) {
            QString tip = t.description;
            if (!t.capabilities.isEmpty()) {
                tip += (tip.isEmpty() ? QString() : QStringLiteral("\n"))
                       + tr("Capabilities: %1").arg(t.capabilities.join(QStringLiteral(", ")));
            }
            return tip;
        }
        return {};
    default:
        return {};
    }
}

std::optional<QVariant> TenantModel::sortData(const core::Tenant &t, int column) const
{
    switch (column) {
    case Buckets:
        return t.bucketCount;
    case Objects:
        return t.objectCount;
    case Data:
        return t.dataBytes;
    case Quota:
        return t.quotaBytes;
    case QuotaUse:
        return tenantQuotaUse(t);
    case Growth:
        return t.growth7dBytes ? QVariant(*t.growth7dBytes) : QVariant();
    default:
        return std::nullopt;
    }
}

QVariant TenantModel::displayData(const core::Tenant &t, int column) const
{
    const QLocale locale;
    const double quotaUse = tenantQuotaUse(t);
    switch (column) {
    case Name:
        return t.name;
    case Id:
        return t.id;
    case Buckets:
        return locale.toString(t.bucketCount);
    case Objects:
        return locale.toString(t.objectCount);
    case Data:
        return core::formatBytes(t.dataBytes);
    case Quota:
        return t.quotaBytes < 0 ? QStringLiteral("–") : core::formatBytes(t.quotaBytes);
    case QuotaUse:
        return quotaUse < 0 ? QString() : QString(locale.toString(quotaUse, 'f', 1) + QStringLiteral(" %"));
    case Growth:
        return growthText(t.growth7dBytes);
    case Grid:
        return t.source;
    default:
        return {};
    }
}

QStringList TenantModel::columnTitles() const
{
    return {tr("Tenant"),
            tr("Account id"),
            tr("Buckets"),
            tr("Objects"),
            tr("Data"),
            tr("Quota"),
            tr("Quota used"),
            tr("Growth (7 days)"),
            tr("Grid")};
}

// ---- BucketModel ----

BucketModel::BucketModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(ColumnCount, parent)
{
    setNumericColumns({Objects, Data, Quota, Growth});
    follow(estate.buckets(), &estate, &core::Estate::bucketsChanged);
}

QVariant BucketModel::recordData(const core::Bucket &, const QModelIndex &, int role) const
{
    switch (role) {
    case StatusRole:
        return QStringLiteral("ok");
    default:
        return {};
    }
}

std::optional<QVariant> BucketModel::sortData(const core::Bucket &b, int column) const
{
    switch (column) {
    case Objects:
        return b.objectCount;
    case Data:
        return b.dataBytes;
    case Quota:
        return b.quotaBytes;
    case Growth:
        return b.growth7dBytes ? QVariant(*b.growth7dBytes) : QVariant();
    default:
        return std::nullopt;
    }
}

QVariant BucketModel::displayData(const core::Bucket &b, int column) const
{
    const QLocale locale;
    switch (column) {
    case Name:
        return b.name;
    case Tenant:
        return b.tenantName.isEmpty() ? b.tenantId : b.tenantName;
    case Region:
        return b.region;
    case Versioning:
        return b.versioning ? tr("Enabled") : tr("Off");
    case Objects:
        return locale.toString(b.objectCount);
    case Data:
        return core::formatBytes(b.dataBytes);
    case Quota:
        return b.quotaBytes < 0 ? QStringLiteral("–") : core::formatBytes(b.quotaBytes);
    case Growth:
        return TenantModel::growthText(b.growth7dBytes);
    case Grid:
        return b.source;
    default:
        return {};
    }
}

QStringList BucketModel::columnTitles() const
{
    return {tr("Bucket"),
            tr("Tenant"),
            tr("Region"),
            tr("Versioning"),
            tr("Objects"),
            tr("Data"),
            tr("Quota"),
            tr("Growth (7 days)"),
            tr("Grid")};
}

} // namespace strata::models
