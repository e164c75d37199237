#pragma once

#include "models/core/planning/datasethub.h"
#include "models/core/sources/pollingsource.h"

#include <chrono>
#include <functional>
#include <memory>

class QThreadPool;

namespace strata::core {

class Estate;
class HistoryService;

/// StorageGRID source: the grid (management API) and its S3 dataset hub.
///
/// - Grid poll every config interval (grid management API as the grid administrator): health
///   summary, product and API version, grid name, nodes, active alerts and those resolved in the
///   last 7 days (asked with the API's timeTriggeredEarliest filter; an alert's key is the grid's
///   id, a fingerprint shared by its occurrences, plus "@<trigger time in ms>"), every tenant
///   (accounts-cache, completed by paging grid/accounts) with usage and buckets, the
///   active ILM policy, used/usable bytes and 7-day growth per tenant and bucket from
///   metric-query(-range) -> Estate::publishGrid. ILM and metrics are optional (a grid or user
///   without them still gets the rest).
/// - Hub poll every config interval when `s3Url` is set: the datasets under
///   SourceConfig::datasetRoots ("bucket/*": every top-level prefix; "bucket": the bucket;
///   "bucket/prefix/": that prefix), each dataset's commit manifests
///   (`<prefix>.strata/commits/<id>.jsonl`), whose headers are read once with a ranged GET and
///   cached by manifest key forever (commits are immutable) -> Estate::publishDatasets.
///   Dataset::sizeBytes/objectCount are those of the head commit (the newest commit that is no
///   other commit's parent).
/// - Action DatasetCommit: lists the dataset (object versions when the bucket is versioned),
///   writes a manifest whose id is its SHA-256, parent = the head. Idempotent: a retried
///   attempt first looks for a commit made since the first attempt with the same message,
///   author and parent.
///
/// Credentials: `password` is the grid administrator's; the S3 secret (SourceConfig::s3Secret)
/// comes separately through setS3Secret() (the Engine resolves it), and the hub polls only
/// once it is known.
class StorageGridSource final : public PollingSource
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StorageGridSource)

public:
    struct Deps
    {
        Estate &estate;
        IClock &clock;
        QThreadPool &pool;
        HistoryService *history = nullptr; ///< optional, unused for now
        QString user;                      ///< commit author of DatasetCommit
    };

    StorageGridSource(SourceConfig config, QString password, Deps deps, QObject *parent = nullptr);
    /// Logs the grid session out (see stop()).
    ~StorageGridSource() override;

    void start() override;
    /// Stops both polls and logs the grid session out (`DELETE /api/v<N>/authorize`, at most
    /// kLogoutTimeout, on Deps::pool) so that a one-shot run leaves no session open. Nothing is
    /// sent when no session is open. A later start() authorizes again.
    void stop() override;
    /// The S3 secret key (resolved by the Engine). Starts or resumes the hub poll. `error`
    /// non-empty: the secret cannot be read; the hub shows AuthRequired with it.
    void setS3Secret(const QString &secret, const QString &error = {}) override;

    // IActionExecutor
    [[nodiscard]] ActionPreview preview(const ActionRequest &request) const override;
    [[nodiscard]] std::function<ActionResult(const ActionContext &)> prepare(const ActionRequest &request) override;
    void afterSuccess(const ActionRequest &request) override;

    /// Compares two commits of a dataset (Dataset::id) by reading both manifests (each verified
    /// against its id) on the pool. `done(comparison, error)` runs on the GUI thread unless
    /// `context` is gone; `error` is empty on success.
    void diffCommits(const QString &datasetId,
                     const QString &fromId,
                     const QString &toId,
                     QObject *context,
                     std::function<void(CommitComparison comparison, QString error)> done);

    /// The Sources page's "Test": authorizes on the grid, reads its name, version and tenants,
    /// then (when `s3Url` is set) counts the datasets under the roots (no retries): "Connected
    /// to grid datalake (StorageGRID 11.8.0.2) in 42 ms: 2 tenants, 6 datasets." or the error.
    /// `done(ok, message)` on the GUI thread unless `context` is gone. The test's grid session is
    /// logged out afterwards.
    static void testConnection(const SourceConfig &config,
                               const QString &password,
                               const QString &s3Secret,
                               QThreadPool &pool,
                               QObject *context,
                               std::function<void(bool ok, QString message)> done);

    struct Connection;
    struct GridConnection;
    struct HeaderCache;

    /// Days of resolved alerts and of usage growth the grid poll reads.
    static constexpr int kHistoryDays = 7;
    /// Longest a logout may take (stop(), the destructor, a new password).
    static constexpr std::chrono::milliseconds kLogoutTimeout{3000};

protected:
    void describe(SourceStatus &status) const override;
    /// The grid administrator's password changed: logs the old session out (the grid poll is
    /// resumed after).
    void reconnect(const QString &password) override;

private:
    /// Posts a logout of the current grid session to the pool (no-op without a session).
    void logoutGrid();

    Deps m_deps;
    QString m_password;
    std::shared_ptr<GridConnection> m_grid;
    std::shared_ptr<Connection> m_connection; ///< null until the S3 secret is known
    std::shared_ptr<HeaderCache> m_headers;
    SystemPoller *m_gridPoller = nullptr;
    SystemPoller *m_hub = nullptr; ///< null without s3Url
    QString m_gridName;
    QString m_productVersion;
};

} // namespace strata::core
