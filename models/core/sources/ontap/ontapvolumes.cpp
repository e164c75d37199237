#include "models/core/sources/ontap/ontapvolumes.h"

#include "connectors/ontap/dto.h"
#include "models/core/domain/convert.h"
#include "models/core/planning/volumecapacity.h"

namespace strata::core {

namespace {

constexpr qint64 kOntapUnixEpochJulianDay = 2440588; // 1970-01-01

// Reads `count` decimal digits at `at`; false when any is not a digit.
bool ontapDigits(std::string_view text, std::size_t at, std::size_t count, int &out)
{
    int value = 0;
    for (std::size_t i = at; i < at + count; ++i) {
        const char c = text[i];
        if (c < '0' || c > '9') {
            return false;
        }
        value = value * 10 + (c - '0');
    }
    out = value;
    return true;
}

// Whether qs(utf8) == text, without building the QString for ASCII (each ASCII byte is its own
// UTF-16 unit at the same position, whatever follows it).
bool ontapSameText(const std::string &utf8, const QString &text)
{
    const QChar *units = text.constData();
    const qsizetype size = text.size();
    const qsizetype n = qsizetype(utf8.size());
    for (qsizetype i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(utf8[std::size_t(i)]);
        if (c >= 0x80) {
            return qs(utf8) == text;
        }
        if (i >= size || units[i].unicode() != c) {
            return false;
        }
    }
    return n == size;
}

bool ontapSameTime(const std::string &iso, const QDateTime &time)
{
    if (iso.empty()) {
        return !time.isValid();
    }
    if (const std::optional<qint64> ms = ontapTimeMs(iso)) {
        return time.isValid() && time.toMSecsSinceEpoch() == *ms;
    }
    return parseOntapTime(iso) == time;
}

// A FlexClone's "volume@snapshot" (or "volume"), empty for any other volume.
QString ontapCloneParent(const ontap::Volume &v)
{
    if (!v.isFlexClone || !v.cloneParentVolume) {
        return {};
    }
    QString out = qs(v.cloneParentVolume->name);
    if (v.cloneParentSnapshot) {
        out += QLatin1Char('@') + qs(v.cloneParentSnapshot->name);
    }
    return out;
}

// `previous`: the record the volume had (null when new). Its texts that did not change are shared,
// its id always: no second copy of them in the records or in what keeps their ids (history).
template <class Intern>
Volume ontapRecord(const ontap::Volume &v, const QString &source, const Volume *previous, Intern &&intern)
{
    const auto text = [previous](const std::string &utf8, QString Volume::*field) {
        return previous && ontapSameText(utf8, previous->*field) ? previous->*field : qs(utf8);
    };
    Volume out;
    out.source = source;
    out.id = text(v.uuid, &Volume::id);
    out.name = text(v.name, &Volume::name);
    out.svm = intern(v.svm.name);
    out.aggregate = v.aggregates.empty() ? QString() : intern(v.aggregates.front().name);
    out.aggregateCount = static_cast<int>(v.aggregates.size());
    out.state = intern(v.state);
    out.style = intern(v.style);
    out.type = intern(v.type);
    out.sizeBytes = v.sizeBytes;
    out.usedBytes = v.usedBytes;
    out.availableBytes = v.availableBytes;
    out.snapshotReservePercent = v.snapshotReservePercent;
    // ONTAP's own space.percent_used is a whole number (and absent before 9.9): one definition.
    out.percentUsed = volumeCapacity(out).percentUsed;
    out.snapshotUsedBytes = v.snapshotUsedBytes;
    out.snapshotCount = v.snapshotCount;
    out.qosPolicy = v.qosPolicy ? intern(v.qosPolicy->name) : QString();
    out.cloneParent = ontapCloneParent(v);
    out.nasPath = text(v.nasPath, &Volume::nasPath);
    out.created = parseOntapTime(v.createTime);
    return out;
}

} // namespace

std::optional<qint64> ontapTimeMs(std::string_view iso)
{
    // Anything but this one form (fractions, other separators, "24:00:00", leap seconds, wide
    // offsets) is left to Qt: declining is always safe, answering must match it.
    if (iso.size() != 20 && iso.size() != 25) {
        return std::nullopt;
    }
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!ontapDigits(iso, 0, 4, year) || iso[4] != '-' || !ontapDigits(iso, 5, 2, month) || iso[7] != '-'
        || !ontapDigits(iso, 8, 2, day) || iso[10] != 'T' || !ontapDigits(iso, 11, 2, hour) || iso[13] != ':'
        || !ontapDigits(iso, 14, 2, minute) || iso[16] != ':' || !ontapDigits(iso, 17, 2, second)) {
        return std::nullopt;
    }
    if (year < 1000 || hour > 23 || minute > 59 || second > 59 || !QDate::isValid(year, month, day)) {
        return std::nullopt;
    }
    int offsetSeconds = 0;
    if (iso.size() == 20) {
        if (iso[19] != 'Z') {
            return std::nullopt;
        }
    } else {
        int offsetHours = 0, offsetMinutes = 0;
        const char sign = iso[19];
        if ((sign != '+' && sign != '-') || !ontapDigits(iso, 20, 2, offsetHours) || iso[22] != ':'
            || !ontapDigits(iso, 23, 2, offsetMinutes) || offsetHours > 12 || offsetMinutes > 59) {
            return std::nullopt;
        }
        offsetSeconds = (offsetHours * 60 + offsetMinutes) * 60 * (sign == '-' ? -1 : 1);
    }
    const qint64 days = QDate(year, month, day).toJulianDay() - kOntapUnixEpochJulianDay;
    return (days * 86400 + hour * 3600 + minute * 60 + second - offsetSeconds) * 1000;
}

QDateTime parseOntapTime(const std::string &iso)
{
    if (iso.empty()) {
        return {};
    }
    if (const std::optional<qint64> ms = ontapTimeMs(iso)) {
        return QDateTime::fromMSecsSinceEpoch(*ms, Qt::UTC);
    }
    const QDateTime t = QDateTime::fromString(qs(iso), Qt::ISODate);
    return t.isValid() ? t.toUTC() : QDateTime();
}

Volume ontapVolumeRecord(const ontap::Volume &volume, const QString &source)
{
    return ontapRecord(volume, source, nullptr, [](const std::string &text) {
        return qs(text);
    });
}

bool ontapVolumeUnchanged(const ontap::Volume &v, const QString &source, const Volume &r)
{
    // The figures that move between polls first; then every other field ontapVolumeRecord() sets,
    // and the ones it leaves at their defaults (a record from elsewhere may have them set).
    return r.sizeBytes == v.sizeBytes && r.usedBytes == v.usedBytes && r.availableBytes == v.availableBytes
           && r.percentUsed == volumeCapacity(v.sizeBytes, v.snapshotReservePercent, v.usedBytes).percentUsed
           && r.snapshotUsedBytes == v.snapshotUsedBytes && r.snapshotCount == v.snapshotCount
           && r.snapshotReservePercent == v.snapshotReservePercent && r.aggregateCount == int(v.aggregates.size())
           && ontapSameText(v.uuid, r.id) && r.source == source && ontapSameText(v.name, r.name)
           && ontapSameText(v.svm.name, r.svm)
           && (v.aggregates.empty() ? r.aggregate.isEmpty() : ontapSameText(v.aggregates.front().name, r.aggregate))
           && ontapSameText(v.state, r.state) && ontapSameText(v.style, r.style) && ontapSameText(v.type, r.type)
           && (v.qosPolicy ? ontapSameText(v.qosPolicy->name, r.qosPolicy) : r.qosPolicy.isEmpty())
           && (v.isFlexClone && v.cloneParentVolume ? ontapCloneParent(v) == r.cloneParent : r.cloneParent.isEmpty())
           && ontapSameText(v.nasPath, r.nasPath) && ontapSameTime(v.createTime, r.created) && r.serviceLevel.isEmpty()
           && r.armId.isEmpty() && r.resourceGroup.isEmpty() && r.location.isEmpty() && r.protocols.isEmpty()
           && r.qosType.isEmpty() && r.throughputMibps == -1 && r.provisioningState.isEmpty();
}

OntapVolumeList::OntapVolumeList(QString source, std::shared_ptr<const KeyedList<Volume>> previous)
    : m_source(std::move(source))
    , m_previous(std::move(previous))
    , m_byPosition(m_previous && m_previous->hasUniqueKeys())
{
    if (m_previous) {
        m_entries.reserve(m_previous->size());
    }
}

qsizetype OntapVolumeList::previousIndexOf(const ontap::Volume &volume) const
{
    if (!m_previous) {
        return -1;
    }
    const std::vector<Ptr<Volume>> &items = m_previous->items();
    if (m_byPosition && m_cursor < items.size()) {
        const Volume &candidate = *items[m_cursor];
        if (ontapSameText(volume.uuid, candidate.id) && candidate.source == m_source) {
            return qsizetype(m_cursor);
        }
    }
    return m_previous->indexOf(m_source + QLatin1Char('/') + qs(volume.uuid));
}

const QString &OntapVolumeList::intern(const std::string &text)
{
    auto it = m_texts.find(text);
    if (it == m_texts.end()) {
        it = m_texts.emplace(text, qs(text)).first;
    }
    return it->second;
}

void OntapVolumeList::add(const ontap::Volume &volume)
{
    Entry entry;
    entry.previousIndex = previousIndexOf(volume);
    const Volume *previous = nullptr;
    if (entry.previousIndex >= 0) {
        // A volume added or removed upstream shifts the rest: look for the next one after this.
        m_cursor = std::size_t(entry.previousIndex) + 1;
        const Ptr<Volume> &old = m_previous->items()[std::size_t(entry.previousIndex)];
        if (ontapVolumeUnchanged(volume, m_source, *old)) {
            entry.kept = old;
        }
        previous = old.get();
    }
    if (!entry.kept) {
        entry.fresh = std::make_shared<Volume>(ontapRecord(volume, m_source, previous, [this](const std::string &text) {
            return intern(text);
        }));
        ++m_converted;
    }
    m_entries.push_back(std::move(entry));
}

OntapVolumeList::Result OntapVolumeList::finish(const QSet<QString> &flexCacheIds)
{
    Result out;
    const auto isFlexCache = [&](const QString &id) {
        return !flexCacheIds.isEmpty() && flexCacheIds.contains(id);
    };
    std::vector<Ptr<Volume>> records;
    records.reserve(m_entries.size());
    out.usage.reserve(m_entries.size());
    // Which previous records some new one has the key of: the others may be gone.
    std::vector<bool> matched(m_previous ? m_previous->size() : 0, false);
    std::size_t matchedCount = 0;
    for (Entry &entry : m_entries) {
        Ptr<Volume> record;
        if (entry.kept) {
            const bool cache = isFlexCache(entry.kept->id);
            if (entry.kept->isFlexCache == cache) {
                record = std::move(entry.kept);
            } else {
                auto copy = std::make_shared<Volume>(*entry.kept);
                copy->isFlexCache = cache;
                record = std::move(copy);
                out.diff.changed.push_back(record);
            }
        } else {
            entry.fresh->isFlexCache = isFlexCache(entry.fresh->id);
            record = std::move(entry.fresh);
            (entry.previousIndex >= 0 ? out.diff.changed : out.diff.added).push_back(record);
        }
        if (entry.previousIndex >= 0 && !matched[std::size_t(entry.previousIndex)]) {
            matched[std::size_t(entry.previousIndex)] = true;
            ++matchedCount;
        }
        // An offline volume reports no space: no sample, rather than a false drop to 0.
        if (record->usedBytes) {
            out.usage.push_back(VolumeUsage{record->id, *record->usedBytes, record->sizeBytes});
        }
        records.push_back(std::move(record));
    }
    m_entries.clear();
    if (!m_previous) {
        out.volumes = keyed(std::move(records));
        return out;
    }
    out.volumes = std::make_shared<const KeyedList<Volume>>(std::move(records), *m_previous);
    if (matchedCount < m_previous->size()) {
        const std::vector<Ptr<Volume>> &items = m_previous->items();
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (matched[i]) {
                continue;
            }
            // A record repeating a key that another one matched is not gone: ask the new index.
            const QString key = estateKey(*items[i]);
            if (!out.volumes->find(key)) {
                out.diff.removed.append(key);
            }
        }
    }
    return out;
}

} // namespace strata::core
