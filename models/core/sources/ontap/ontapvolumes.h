#pragma once

#include "models/core/domain/keyed.h"
#include "models/core/domain/records.h"
#include "models/core/store/historystore.h"

#include <QDateTime>
#include <QSet>
#include <QString>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace strata::ontap {
struct Volume;
}

namespace strata::core {

/// An ONTAP time ("2024-03-01T10:00:00+02:00", ISO 8601 as the REST API writes it) in UTC;
/// invalid when empty or not ISO 8601. The same instant and UTC spec as
/// `QDateTime::fromString(text, Qt::ISODate).toUTC()`, without its cost for the usual form.
[[nodiscard]] QDateTime parseOntapTime(const std::string &iso);

/// Unix milliseconds of an ONTAP time of exactly the form "YYYY-MM-DDTHH:MM:SS" followed by "Z"
/// or "+HH:MM"/"-HH:MM" (offset at most 12:59), nullopt for anything else (parseOntapTime()
/// then asks Qt). Where it answers, it is parseOntapTime()'s instant.
[[nodiscard]] std::optional<qint64> ontapTimeMs(std::string_view iso);

/// The estate record of one ONTAP volume record (`isFlexCache` false: the FlexCache list is
/// read after the volumes).
[[nodiscard]] Volume ontapVolumeRecord(const ontap::Volume &volume, const QString &source);

/// Whether ontapVolumeRecord(volume, source) equals `record` in every field but `isFlexCache`,
/// decided on the decoded record (UTF-8) without converting it.
[[nodiscard]] bool ontapVolumeUnchanged(const ontap::Volume &volume, const QString &source, const Volume &record);

/// One inventory poll's volumes of an ONTAP source as estate records, built as the pages arrive
/// (at 50,000 volumes a steady poll changes about 15,000).
///
/// Equivalent to converting every record with ontapVolumeRecord(), setting `isFlexCache`, keeping
/// the previous poll's record (the same pointer) where it equals the new one and diffing with
/// diffOf() against `previous`; but a volume whose decoded fields match its previous record is
/// never converted, the previous record is found by position first (ONTAP lists volumes in the
/// same order each poll) and by key only when that fails, the diff is made while adding, and a
/// listing with the previous poll's keys in the same order shares its key index.
class OntapVolumeList
{
public:
    /// `previous`: the list the estate shows for `source` now (null before the first poll).
    OntapVolumeList(QString source, std::shared_ptr<const KeyedList<Volume>> previous);

    /// The next volume in the cluster's order.
    void add(const ontap::Volume &volume);
    /// Volumes added so far.
    [[nodiscard]] std::size_t size() const { return m_entries.size(); }
    /// Volumes converted so far (new, or changed since the previous poll).
    [[nodiscard]] std::size_t converted() const { return m_converted; }

    struct Result
    {
        std::shared_ptr<const KeyedList<Volume>> volumes;
        /// Against `previous`: what Estate::publishVolumes() takes while `previous` is current.
        Diff<Volume> diff;
        /// One capacity sample per volume that reports its used space, in list order.
        std::vector<VolumeUsage> usage;
    };
    /// The records, with `isFlexCache` set for the volumes whose uuid is in `flexCacheIds`.
    /// Call once, after the last add().
    [[nodiscard]] Result finish(const QSet<QString> &flexCacheIds);

private:
    struct Entry
    {
        Ptr<Volume> kept;              ///< the previous record, unchanged but for isFlexCache
        std::shared_ptr<Volume> fresh; ///< converted: new or changed
        qsizetype previousIndex = -1;  ///< its record in `previous`, -1 when none
    };
    [[nodiscard]] qsizetype previousIndexOf(const ontap::Volume &volume) const;
    [[nodiscard]] const QString &intern(const std::string &text);

    QString m_source;
    std::shared_ptr<const KeyedList<Volume>> m_previous;
    bool m_byPosition = false; ///< `previous` has unique keys: its i-th record is find()'s
    std::size_t m_cursor = 0;  ///< position in `previous` where the next volume is looked for first
    std::vector<Entry> m_entries;
    std::size_t m_converted = 0;
    /// SVM, aggregate, state, style, type and QoS policy take a few distinct values across tens
    /// of thousands of volumes: one shared QString each (about 15 MB less at 50,000).
    std::unordered_map<std::string, QString> m_texts;
};

} // namespace strata::core
