#pragma once

#include "models/core/domain/error.h"
#include "models/core/store/historystore.h"

#include <QMutex>
#include <QString>

#include <deque>
#include <memory>
#include <vector>

class QLockFile;

namespace strata::core {

/// Audit entries on their way to the history store, kept in a file so none is lost while the
/// store is down or when the process ends before the store took them (HistoryService writes
/// every audit entry here first, then to the store, in order).
///
/// File format: JSON Lines, one compact object per entry in append order: {"t": ms since the
/// epoch UTC (absent when the entry has no time), "user", "action_id", "source", "kind",
/// "target", "from", "to", "outcome", "message", "replica", "closes_journal": true when the
/// entry is an action's outcome that also closes its journal row (absent otherwise)}. A line that does not parse (a
/// write cut short by a crash) is dropped on load. The file is created mode 0600 on the first
/// append and removed once every entry reached the store.
///
/// Entries read back from the file at load() are "uncertain": the store may already hold them
/// (the process ended between the store's commit and the spool's update), so they are written
/// only when IHistoryStore::containsAudit() says the store does not have them yet. Thread-safe.
class AuditSpool final
{
public:
    /// 16 MiB: about 40,000 entries, days of a busy server's audit log.
    static constexpr qint64 kDefaultMaxBytes = qint64(16) * 1024 * 1024;

    struct Pending
    {
        AuditEntry entry;
        bool uncertain = false; ///< the store may hold it already: check before writing
        /// An action's outcome: written with IHistoryStore::journalFinish() (the journal's close
        /// and the entry in one transaction, never twice) instead of appendAudit().
        bool closesJournal = false;
    };

    /// `path`: the spool file (its directory is created on the first append); `maxBytes` > 0:
    /// appends beyond it are refused.
    explicit AuditSpool(QString path, qint64 maxBytes = kDefaultMaxBytes);
    ~AuditSpool();
    AuditSpool(const AuditSpool &) = delete;
    AuditSpool &operator=(const AuditSpool &) = delete;

    /// Takes the file for this process (QLockFile "<path>.lock", held until destruction; the
    /// lock of a process that died is taken over): false when another running process holds
    /// it (replicas on one host each use their own spool: see HistoryService).
    bool tryLock();
    /// Reads the entries a previous process left (none when the file is absent); a Kind::Failed
    /// error when it exists but cannot be read.
    Status load();
    /// Adds `entry` at the end, on disk before returning. A Kind::Failed error ("the audit spool
    /// <path> is full (16 MiB of entries waiting for the history
    /// store)", or why the file cannot
    /// be written) when it cannot be kept: then the entry is lost and the caller must say so.
    Status append(const AuditEntry &entry, bool closesJournal = false);
    /// The first `count` entries, oldest first.
    [[nodiscard]] std::vector<Pending> front(int count) const;
    /// Removes the first `count` entries (they reached the store) and rewrites the file
    /// (atomically; removed when empty).
    Status dropFront(int count);
    /// Marks the first entry uncertain (a write of it failed: it may still have committed).
    void markFrontUncertain();
    [[nodiscard]] int size() const;
    [[nodiscard]] QString path() const { return m_path; }

private:
    Status rewriteLocked();

    QString m_path;
    qint64 m_maxBytes;
    std::unique_ptr<QLockFile> m_lock;
    mutable QMutex m_mutex;
    std::deque<Pending> m_pending;
    qint64 m_bytes = 0; ///< size of the file
};

/// The spool file of the history store at `location` ("<sqlite path>.audit-spool" next to a
/// SQLite file, "<AppDataLocation>/audit-spool-<hash of the URL>.jsonl" for PostgreSQL, so
/// entries only ever go to the store they were meant for); empty for ":memory:".
QString auditSpoolPathFor(const QString &location);

} // namespace strata::core
