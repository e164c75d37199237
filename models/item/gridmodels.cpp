#include "models/item/gridmodels.h"

#include "models/item/datasetmodel.h"
#include "models/item/roles.h"

#include <QLocale>

namespace strata::models {

namespace {

QString formatTime(const QDateTime &t)
{
    return t.isValid() ? QLocale().toString(t.toLocalTime(), QLocale::ShortFormat) : QString();
}

QVariant rightAligned()
{
    return int(Qt::AlignRight | Qt::AlignVCenter);
}

} // namespace

// ---- GridNodeModel ----

GridNodeModel::GridNodeModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(parent)
{
    core::GridNodeDiff initial;
    initial.added = estate.gridNodes().all();
    applyDiff(initial);
    connect(&estate, &core::Estate::gridNodesChanged, this, [this](const core::GridNodeDiff &diff) {
        applyDiff(diff);
    });
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

int GridNodeModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GridNodeModel::data(const QModelIndex &index, int role) const
{
    const core::GridNode *n = recordAt(index.row());
    if (!n || index.column() < 0 || index.column() >= ColumnCount) {
        return {};
    }
    switch (role) {
    case KeyRole:
        return core::estateKey(*n);
    case SourceRole:
        return n->source;
    case IdRole:
        return n->id;
    case StatusRole:
        if (index.column() == State) {
            if (n->state == QLatin1String("connected")) {
                return QStringLiteral("ok");
            }
            return n->state == QLatin1String("administratively-down") ? QStringLiteral("offline")
                                                                      : QStringLiteral("critical");
        }
        if (index.column() == Severity) {
            return severityStatus(n->severity);
        }
        return QStringLiteral("ok");
    case RawValueRole:
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name:
            return n->name;
        case Site:
            return n->site;
        case Type:
            return typeText(n->type);
        case State:
            return n->state == QLatin1String("administratively-down") ? tr("administratively down") : n->state;
        case Severity:
            return n->severity;
        case Grid:
            return n->source;
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant GridNodeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Name:
        return tr("Node");
    case Site:
        return tr("Site");
    case Type:
        return tr("Type");
    case State:
        return tr("State");
    case Severity:
        return tr("Severity");
    case Grid:
        return tr("Grid");
    default:
        return {};
    }
}

// ---- GridAlertModel ----

GridAlertModel::GridAlertModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(parent)
{
    core::GridAlertDiff initial;
    initial.added = estate.gridAlerts().all();
    applyDiff(initial);
    connect(&estate, &core::Estate::gridAlertsChanged, this, [this](const core::GridAlertDiff &diff) {
        applyDiff(diff);
    });
}

int GridAlertModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GridAlertModel::data(const QModelIndex &index, int role) const
{
    const core::GridAlert *a = recordAt(index.row());
    if (!a || index.column() < 0 || index.column() >= ColumnCount) {
        return {};
    }
    switch (role) {
    case KeyRole:
        return core::estateKey(*a);
    case SourceRole:
        return a->source;
    case IdRole:
        return a->id;
    case StatusRole:
        if (a->resolved) {
            return QStringLiteral("succeeded");
        }
        return GridNodeModel::severityStatus(a->severity);
    case Qt::ToolTipRole:
        return a->description.isEmpty() ? a->summary : a->description;
    case RawValueRole:
        switch (index.column()) {
        case Severity:
            // Sorts critical > major > minor.
            return a->severity == QLatin1String("critical") ? 3
                   : a->severity == QLatin1String("major")  ? 2
                   : a->severity == QLatin1String("minor")  ? 1
                                                            : 0;
        case Started:
            return a->startsAt;
        case Resolved:
            return a->resolved ? a->endsAt : QDateTime();
        default:
            break;
        }
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (index.column()) {
        case Severity:
            return a->severity;
        case Name:
            return a->silenced ? tr("%1 (silenced)").arg(a->name) : a->name;
        case Summary:
            return a->summary;
        case Node:
            return a->node;
        case Site:
            return a->site;
        case Started:
            return formatTime(a->startsAt);
        case Resolved:
            return a->resolved ? formatTime(a->endsAt) : tr("active");
        case Grid:
            return a->source;
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant GridAlertModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Severity:
        return tr("Severity");
    case Name:
        return tr("Alert");
    case Summary:
        return tr("Summary");
    case Node:
        return tr("Node");
    case Site:
        return tr("Site");
    case Started:
        return tr("Started");
    case Resolved:
        return tr("Resolved");
    case Grid:
        return tr("Grid");
    default:
        return {};
    }
}

// ---- TenantModel ----

TenantModel::TenantModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(parent)
{
    core::TenantDiff initial;
    initial.added = estate.tenants().all();
    applyDiff(initial);
    connect(&estate, &core::Estate::tenantsChanged, this, [this](const core::TenantDiff &diff) {
        applyDiff(diff);
    });
}

QString TenantModel::growthText(const std::optional<qint64> &growth)
{
    if (!growth) {
        return {};
    }
    return core::formatBytesDelta(*growth);
}

int TenantModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TenantModel::data(const QModelIndex &index, int role) const
{
    const core::Tenant *t = recordAt(index.row());
    if (!t || index.column() < 0 || index.column() >= ColumnCount) {
        return {};
    }
    const QLocale locale;
    const double quotaUse = t->quotaBytes > 0 ? 100.0 * double(t->dataBytes) / double(t->quotaBytes) : -1.0;
    switch (role) {
    case KeyRole:
        return core::estateKey(*t);
    case SourceRole:
        return t->source;
    case IdRole:
        return t->id;
    case StatusRole:
        if (index.column() == QuotaUse && quotaUse >= 90.0) {
            return QStringLiteral("warning");
        }
        return QStringLiteral("ok");
    case Qt::ToolTipRole:
        if (index.column() == Name) {
            QString tip = t->description;
            if (!t->capabilities.isEmpty()) {
                tip += (tip.isEmpty() ? QString() : QStringLiteral("\n"))
                       + tr("Capabilities: %1").arg(t->capabilities.join(QStringLiteral(", ")));
            }
            return tip;
        }
        return {};
    case Qt::TextAlignmentRole:
        return index.column() >= Buckets && index.column() <= Growth ? rightAligned() : QVariant();
    case RawValueRole:
        switch (index.column()) {
        case Buckets:
            return t->bucketCount;
        case Objects:
            return t->objectCount;
        case Data:
            return t->dataBytes;
        case Quota:
            return t->quotaBytes;
        case QuotaUse:
            return quotaUse;
        case Growth:
            return t->growth7dBytes ? QVariant(*t->growth7dBytes) : QVariant();
        default:
            break;
        }
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name:
            return t->name;
        case Id:
            return t->id;
        case Buckets:
            return locale.toString(t->bucketCount);
        case Objects:
            return locale.toString(t->objectCount);
        case Data:
            return core::formatBytes(t->dataBytes);
        case Quota:
            return t->quotaBytes < 0 ? QStringLiteral("–") : core::formatBytes(t->quotaBytes);
        case QuotaUse:
            return quotaUse < 0 ? QString() : QString(locale.toString(quotaUse, 'f', 1) + QStringLiteral(" %"));
        case Growth:
            return growthText(t->growth7dBytes);
        case Grid:
            return t->source;
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant TenantModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Name:
        return tr("Tenant");
    case Id:
        return tr("Account id");
    case Buckets:
        return tr("Buckets");
    case Objects:
        return tr("Objects");
    case Data:
        return tr("Data");
    case Quota:
        return tr("Quota");
    case QuotaUse:
        return tr("Quota used");
    case Growth:
        return tr("Growth (7 days)");
    case Grid:
        return tr("Grid");
    default:
        return {};
    }
}

// ---- BucketModel ----

BucketModel::BucketModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(parent)
{
    core::BucketDiff initial;
    initial.added = estate.buckets().all();
    applyDiff(initial);
    connect(&estate, &core::Estate::bucketsChanged, this, [this](const core::BucketDiff &diff) {
        applyDiff(diff);
    });
}

int BucketModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BucketModel::data(const QModelIndex &index, int role) const
{
    const core::Bucket *b = recordAt(index.row());
    if (!b || index.column() < 0 || index.column() >= ColumnCount) {
        return {};
    }
    const QLocale locale;
    switch (role) {
    case KeyRole:
        return core::estateKey(*b);
    case SourceRole:
        return b->source;
    case IdRole:
        return b->id;
    case StatusRole:
        return QStringLiteral("ok");
    case Qt::TextAlignmentRole:
        return index.column() >= Objects && index.column() <= Growth ? rightAligned() : QVariant();
    case RawValueRole:
        switch (index.column()) {
        case Objects:
            return b->objectCount;
        case Data:
            return b->dataBytes;
        case Quota:
            return b->quotaBytes;
        case Growth:
            return b->growth7dBytes ? QVariant(*b->growth7dBytes) : QVariant();
        default:
            break;
        }
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name:
            return b->name;
        case Tenant:
            return b->tenantName.isEmpty() ? b->tenantId : b->tenantName;
        case Region:
            return b->region;
        case Versioning:
            return b->versioning ? tr("Enabled") : tr("Off");
        case Objects:
            return locale.toString(b->objectCount);
        case Data:
            return core::formatBytes(b->dataBytes);
        case Quota:
            return b->quotaBytes < 0 ? QStringLiteral("–") : core::formatBytes(b->quotaBytes);
        case Growth:
            return TenantModel::growthText(b->growth7dBytes);
        case Grid:
            return b->source;
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant BucketModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Name:
        return tr("Bucket");
    case Tenant:
        return tr("Tenant");
    case Region:
        return tr("Region");
    case Versioning:
        return tr("Versioning");
    case Objects:
        return tr("Objects");
    case Data:
        return tr("Data");
    case Quota:
        return tr("Quota");
    case Growth:
        return tr("Growth (7 days)");
    case Grid:
        return tr("Grid");
    default:
        return {};
    }
}

} // namespace strata::models
