#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QString>

#include <deque>
#include <functional>
#include <limits>

namespace strata::core {
class Engine;
}

namespace strata::web {

/// Live updates for the web console, as keyed diffs with a global revision number.
///
/// Wire protocol (JSON text frames, server -> client):
///   {"type":"hello","revision":N}                     after connect; then the catch-up diffs
///   {"type":"diff","revision":N,"resource":"jobs","upsert":[row...],"remove":["key"...]}
///   {"type":"reload","revision":N}                    `since` is older than the kept history:
///                                                     re-read every resource over HTTP
/// A row is exactly one element of GET /api/v1/<resource>; its key is row["key"] (the
/// WebServer adds it with web/api.h rowKey: "<source>/<id>" or the resource's natural key; rows
/// given to append() carry their own). Revisions increase by one per
/// diff; a client that saw revision r reconnects with ?since=r and receives r+1.. in order.
///
/// Estate publishes are coalesced (at most one diff per resource per `coalesceMs`); each diff is
/// serialized once and the same bytes are sent to every viewer.
class LiveFeed final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LiveFeed)

public:
    /// Rows of a resource right now (the same function serves GET /api/v1/<resource>).
    using RowSource = std::function<QJsonArray()>;

    explicit LiveFeed(core::Engine &engine, int coalesceMs = 200, int keptDiffs = 4096, QObject *parent = nullptr);
    ~LiveFeed() override;

    /// Registers a resource; `rows` is re-read when one of the estate signals the feed maps to
    /// it fires, or when markDirty(resource) is called.
    void addResource(const QString &resource, RowSource rows);
    /// Re-read a resource at the next coalescing tick (for features with their own data).
    void markDirty(const QString &resource);
    /// Publishes rows that are only ever added (e.g. sentiment sentences) without re-reading.
    /// rows() keeps the newest 20,000 of such a resource (viewers get every one as a diff).
    void append(const QString &resource, const QJsonArray &rows);

    /// Caps the kept history in bytes as well (default unlimited): the oldest diffs go first,
    /// and a client that needs them reloads.
    void setMaxKeptBytes(qint64 bytes) { m_maxKeptBytes = bytes; }
    /// Bytes of the diffs kept for catch-up.
    [[nodiscard]] qint64 keptBytes() const { return m_keptBytes; }

    [[nodiscard]] qint64 revision() const { return m_revision; }
    /// Serialized diffs after `since`, oldest first; false when `since` is older than the kept
    /// history (the client must reload) or newer than revision().
    bool diffsSince(qint64 since, QList<QByteArray> *out) const;
    [[nodiscard]] QJsonArray rows(const QString &resource) const;
    [[nodiscard]] QStringList resources() const;

Q_SIGNALS:
    /// One serialized diff message (sent as is to every connected viewer).
    void diffReady(qint64 revision, const QByteArray &message);

private:
    struct Resource;
    void flush();

    core::Engine &m_engine;
    int m_coalesceMs;
    int m_keptDiffs;
    qint64 m_revision = 0;
    std::deque<std::pair<qint64, QByteArray>> m_history;
    qint64 m_keptBytes = 0;
    qint64 m_maxKeptBytes = std::numeric_limits<qint64>::max();
    QHash<QString, std::shared_ptr<Resource>> m_resources;
    bool m_flushScheduled = false;
};

} // namespace strata::web
