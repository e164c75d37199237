#pragma once

#include "models/core/store/historystore.h"

#include <QDateTime>
#include <QString>

namespace strata::testsupport {

/// When the store tests' journal entries were submitted (UTC).
inline const QDateTime kJournalT0(QDate(2026, 3, 1), QTime(9, 0), Qt::UTC);

/// An open ("intended") journal entry of a service-level change with action id `id`, owned by
/// "host/100", submitted and last heartbeat at kJournalT0.
inline core::JournalEntry journalIntentEntry(const QString &id)
{
    core::JournalEntry e;
    e.actionId = id;
    e.idempotencyKey = QStringLiteral("key-") + id;
    e.source = QStringLiteral("ontap-ai");
    e.kind = QStringLiteral("volume.service_level");
    e.request = QStringLiteral("{}");
    e.user = QStringLiteral("alice");
    e.target = QStringLiteral("svm_ai/chest_xray");
    e.submitted = kJournalT0;
    e.phase = QStringLiteral("intended");
    e.owner = QStringLiteral("host/100");
    e.heartbeat = kJournalT0;
    return e;
}

} // namespace strata::testsupport
