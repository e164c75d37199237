#pragma once

#include "models/core/domain/records.h"
#include "models/core/services/actions.h"
#include "models/core/store/config.h"

#include <QObject>

#include <functional>

namespace strata::core {

class IPerformanceProvider;
class ISnapshotProvider;

/// A running connection to one configured system: its pollers, its action executor and its
/// health. One subclass per SourceKind (OntapSource). Owned by the Engine.
class Source : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Source)

public:
    explicit Source(SourceConfig config, QObject *parent = nullptr)
        : QObject(parent)
        , m_config(std::move(config))
    {}

    [[nodiscard]] const SourceConfig &config() const { return m_config; }
    [[nodiscard]] QString name() const { return m_config.name; }

    /// Health, staleness and last error, worst-of over the pollers.
    [[nodiscard]] virtual SourceStatus status() const = 0;
    virtual void start() = 0;
    virtual void stop() = 0;
    /// Polls everything now.
    virtual void refresh() = 0;
    /// Credentials changed: resume pollers paused on authentication failure.
    virtual void setPassword(const QString &password) = 0;
    /// The actions it runs (every source kind implements IActionExecutor).
    [[nodiscard]] IActionExecutor *actionExecutor() { return dynamic_cast<IActionExecutor *>(this); }

    /// True once the inventory poll completed at least once (successfully or not).
    [[nodiscard]] virtual bool hasPolledOnce() const = 0;

    /// The config's cache targets. A Kubernetes source runs the loader and evictor Jobs of the
    /// targets on its cluster; the other kinds have none to run.
    virtual void setCacheTargets(const QList<CacheTargetConfig> &targets) { Q_UNUSED(targets) }
    /// The S3 secret key of a source with a dataset hub (StorageGRID), resolved apart from its
    /// password, or why it could not be read (`error`, then `secret` is empty). The other kinds
    /// have no S3 endpoint.
    virtual void setS3Secret(const QString &secret, const QString &error)
    {
        Q_UNUSED(secret)
        Q_UNUSED(error)
    }

    /// Its live volume performance feed, or null when the system has none (or polls it
    /// regardless of interest).
    [[nodiscard]] IPerformanceProvider *performanceProvider();
    /// Its volume snapshot listings, or null when the system has no volume snapshots.
    [[nodiscard]] ISnapshotProvider *snapshotProvider();

Q_SIGNALS:
    void statusChanged();
    /// The inventory poll finished (ok or not).
    void inventoryPolled(bool ok);

protected:
    SourceConfig m_config;
};

/// Capability of a source with live volume performance it polls only while someone watches
/// (ONTAP). Owner thread.
class IPerformanceProvider
{
public:
    virtual ~IPerformanceProvider() = default;
    /// Reference-counted interest in live performance data (a visible Volumes page).
    virtual void subscribePerformance() = 0;
    virtual void unsubscribePerformance() = 0;
};

/// Capability of a source whose volumes have snapshots (ONTAP, Azure NetApp Files). Owner thread.
class ISnapshotProvider
{
public:
    virtual ~ISnapshotProvider() = default;
    /// Reference-counted interest in one volume's snapshot list (a visible detail panel): polled
    /// every performance interval while watched.
    virtual void subscribeSnapshots(const QString &volumeId) = 0;
    virtual void unsubscribeSnapshots(const QString &volumeId) = 0;
    /// Fetches one volume's snapshots now: publishes them into the estate, then `done(error)` on
    /// the main thread (`error` empty on success, "source removed" when the source went
    /// meanwhile). `done` may be empty.
    virtual void fetchSnapshots(const QString &volumeId, std::function<void(QString error)> done) = 0;
};

inline IPerformanceProvider *Source::performanceProvider()
{
    return dynamic_cast<IPerformanceProvider *>(this);
}

inline ISnapshotProvider *Source::snapshotProvider()
{
    return dynamic_cast<ISnapshotProvider *>(this);
}

} // namespace strata::core
