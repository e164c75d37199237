#pragma once

/// Forward declarations of the item models (models/item) the main window binds and the desktop
/// controller owns, for headers that only hold pointers to them.
namespace strata::models {
class ActivityModel;
class AksClusterModel;
class BucketModel;
class CacheTargetModel;
class CachedCommitModel;
class CommitModel;
class DatasetModel;
class ForecastTableModel;
class GridAlertModel;
class GridNodeModel;
class JobTableModel;
class ProjectTableModel;
class ServiceLevelTableModel;
class SnapshotListModel;
class SourceTableModel;
class TenantModel;
class TimelineModel;
class VolumeTableModel;
} // namespace strata::models
