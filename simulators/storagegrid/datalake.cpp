#include "simulators/storagegrid/gridstate.h"

#include <QDateTime>
#include <QTimeZone>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace strata::sim::storagegrid {

namespace {

// Shape of a dataset's current revision: data files of one kind plus small metadata files.
struct Layout
{
    const char *dataDir; ///< "train/" or "images/"
    const char *pattern; ///< printf pattern of data file names
    int files;           ///< data files in the last revision
    bool textual;        ///< csv (true) or binary images
    const char *mime;
};

Layout layoutOf(const std::string &name)
{
    if (name == "consumer_img1") {
        return {"images/", "img_%05d.jpg", 120, false, "image/jpeg"};
    }
    if (name == "public_set12") {
        return {"images/", "frame_%06d.jpg", 300, false, "image/jpeg"};
    }
    if (name == "fraud_may") {
        return {"train/", "part-%05d.csv", 36, true, "text/csv"};
    }
    if (name == "fraud_sim_base") {
        return {"sim/", "batch-%04d.csv", 30, true, "text/csv"};
    }
    if (name == "misc_base1") {
        return {"data/", "chunk-%04d.bin", 20, false, "application/octet-stream"};
    }
    return {"train/", "part-%05d.csv", 24, true, "text/csv"}; // fraud_jun
}

double unitNoise(std::uint64_t h)
{
    return double(h >> 11) / double(1ULL << 53);
}

} // namespace

std::uint64_t stableHash(const std::string &text, std::uint64_t salt)
{
    std::uint64_t h = 1469598103934665603ULL ^ salt;
    for (const char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ULL;
    }
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 32);
}

const std::vector<DatasetSpec> &datalakeDatasets()
{
    static const std::vector<DatasetSpec> datasets = {
        {QStringLiteral("fraud_jun"), 32'400'000, 4},
        {QStringLiteral("fraud_may"), 57'600'000, 2},
        {QStringLiteral("consumer_img1"), 27'300'000, 4},
        {QStringLiteral("public_set12"), 102'700'000, 7},
        {QStringLiteral("fraud_sim_base"), 45'100'000, 2},
        {QStringLiteral("misc_base1"), 25'100'000, 1},
    };
    return datasets;
}

std::vector<DatasetObject> datasetObjects(const DatasetSpec &dataset, int revision, std::uint64_t seed)
{
    const std::string name = dataset.name.toStdString();
    const std::string prefix = name + "/";
    const Layout layout = layoutOf(name);
    const int last = dataset.revisions;
    std::vector<DatasetObject> out;

    // Metadata: README.md changes in every revision (its last form is part of the total).
    const std::int64_t readmeFinal = 1800 + std::int64_t(stableHash(name, seed) % 900);
    const std::int64_t readmeSize = readmeFinal - std::int64_t(last - revision) * 37;
    out.push_back(
        {prefix + "README.md",
         ObjectContent::generated(stableHash(prefix + "README.md", seed + std::uint64_t(revision)), readmeSize, true),
         "text/markdown"});
    const std::int64_t manifestSize = 4096 + std::int64_t(stableHash(name + "m", seed) % 4096);
    const std::string indexKey = prefix + (layout.textual ? "schema.json" : "labels.csv");
    out.push_back({indexKey,
                   ObjectContent::generated(stableHash(indexKey, seed), manifestSize, true),
                   layout.textual ? "application/json" : "text/csv"});

    // Data files: weights in [0.75, 1.25); the last file takes the rounding remainder so the
    // last revision adds up to the dataset's total exactly.
    const std::int64_t dataBytes = dataset.totalBytes - readmeFinal - manifestSize;
    std::vector<double> weights(std::size_t(layout.files));
    double sum = 0;
    for (int i = 0; i < layout.files; ++i) {
        weights[std::size_t(i)] = 0.75 + 0.5 * unitNoise(stableHash(name + std::to_string(i), seed));
        sum += weights[std::size_t(i)];
    }
    std::int64_t assigned = 0;
    for (int i = 0; i < layout.files; ++i) {
        const std::int64_t size = i + 1 == layout.files
                                      ? dataBytes - assigned
                                      : std::int64_t(double(dataBytes) * weights[std::size_t(i)] / sum);
        assigned += size;
        // The last (revisions - 1) data files arrive one per revision 2..last.
        const int addedAt = std::max(1, last - (layout.files - 1 - i));
        if (addedAt > revision) {
            continue;
        }
        char file[64];
        std::snprintf(file, sizeof file, layout.pattern, i + 1);
        const std::string key = prefix + layout.dataDir + file;
        // One file per revision is rewritten (same size, new bytes) until the last revision.
        const int rewrittenUntil = (i % 5 == 2) ? last : 0;
        const std::uint64_t variant = revision < rewrittenUntil ? std::uint64_t(revision) * 7919 : 0;
        out.push_back(
            {key, ObjectContent::generated(stableHash(key, seed) ^ variant, size, layout.textual), layout.mime});
    }

    // Scratch files that exist before even revisions and are removed by them.
    for (int r = 2; r <= last; r += 2) {
        if (revision < r) {
            const std::string key = prefix + "staging/tmp-" + std::to_string(r) + ".csv";
            out.push_back({key, ObjectContent::generated(stableHash(key, seed), 150'000 + r * 1000, true), "text/csv"});
        }
    }
    std::sort(out.begin(), out.end(), [](const DatasetObject &a, const DatasetObject &b) {
        return a.key < b.key;
    });
    return out;
}

std::vector<DatasetObject> sentimentObjects(std::uint64_t seed)
{
    std::vector<DatasetObject> out;
    for (int day = 1; day <= 14; ++day) {
        char key[64];
        std::snprintf(key, sizeof key, "results/2026-11-%02d/conversations.jsonl", day);
        out.push_back(
            {key, ObjectContent::generated(stableHash(key, seed), 40 * 560 + day * 311, true), "application/x-ndjson"});
        std::snprintf(key, sizeof key, "results/2026-11-%02d/summary.json", day);
        out.push_back({key, ObjectContent::generated(stableHash(key, seed), 2048 + day, true), "application/json"});
    }
    return out;
}

namespace {

// Alertmanager identifies an alert by the fingerprint of its labels, so every occurrence of one
// rule on one node has the same id.
QString alertFingerprint(const char *alertName, const QString &node, std::uint64_t seed)
{
    return QStringLiteral("%1").arg(
        QString::number(stableHash(std::string(alertName) + "/" + node.toStdString(), seed), 16), 16, QLatin1Char('0'));
}

} // namespace

std::vector<AlertInstance> modelAlerts(const StorageGridSimulatorOptions &options,
                                       const std::vector<GridNode> &nodes,
                                       std::int64_t fromMs,
                                       std::int64_t toMs,
                                       std::int64_t nowMs)
{
    std::vector<AlertInstance> out;
    auto nodeNamed = [&](const QString &name) {
        for (const GridNode &n : nodes) {
            if (n.name == name) {
                return n.name;
            }
        }
        return nodes.empty() ? QString() : nodes.back().name;
    };
    constexpr std::int64_t Cycle = 10 * 60 * 1000;
    constexpr std::int64_t Offset = 2 * 60 * 1000;
    constexpr std::int64_t Duration = 4 * 60 * 1000;
    const std::int64_t first = std::max<std::int64_t>(0, (fromMs - Offset - Duration) / Cycle);
    const std::int64_t lastCycle = std::min(toMs, nowMs) / Cycle;
    for (std::int64_t c = lastCycle; c >= first; --c) {
        const std::int64_t starts = c * Cycle + Offset;
        if (starts > nowMs || starts > toMs) {
            continue;
        }
        const std::int64_t ends = starts + Duration;
        if (ends < fromMs) {
            break;
        }
        AlertInstance a;
        a.id = alertFingerprint("NodeLowInstalledMemory", nodeNamed(QStringLiteral("dc1-s3")), options.seed);
        a.eventId = c * 4 + 1;
        a.name = QStringLiteral("Low installed node memory");
        a.alertName = QStringLiteral("NodeLowInstalledMemory");
        a.severity = QStringLiteral("major");
        a.node = nodeNamed(QStringLiteral("dc1-s3"));
        a.summary = QStringLiteral("Low installed node memory");
        a.description =
            QStringLiteral("The amount of installed memory on %1 is low: 24 GB installed, 32 GB needed.").arg(a.node);
        a.startsMs = starts;
        a.endsMs = ends > nowMs ? 0 : ends;
        out.push_back(a);
    }
    // One older critical alert, resolved.
    const std::int64_t netStart = (nowMs / Cycle) * Cycle - 2LL * 24 * 3600 * 1000;
    const std::int64_t netEnd = netStart + 25LL * 60 * 1000;
    if (netEnd >= fromMs && netStart <= toMs) {
        AlertInstance a;
        a.id = alertFingerprint("NodeNetworkConnectivityError", nodeNamed(QStringLiteral("dc1-g1")), options.seed);
        a.eventId = (netStart / Cycle) * 4 + 2;
        a.name = QStringLiteral("Node network connectivity error");
        a.alertName = QStringLiteral("NodeNetworkConnectivityError");
        a.severity = QStringLiteral("critical");
        a.node = nodeNamed(QStringLiteral("dc1-g1"));
        a.summary = QStringLiteral("Node network connectivity error");
        a.description = QStringLiteral("Network interface eth0 on %1 lost its link.").arg(a.node);
        a.startsMs = netStart;
        a.endsMs = netEnd;
        out.push_back(a);
    }
    // One resolved alert older than a week.
    const std::int64_t lowStart = (nowMs / Cycle) * Cycle - 9LL * 24 * 3600 * 1000;
    const std::int64_t lowEnd = lowStart + 60LL * 60 * 1000;
    if (lowEnd >= fromMs && lowStart <= toMs) {
        AlertInstance a;
        a.id = alertFingerprint("StorageLowObjectDataStorage", nodeNamed(QStringLiteral("dc1-s1")), options.seed);
        a.eventId = (lowStart / Cycle) * 4 + 3;
        a.name = QStringLiteral("Low object data storage");
        a.alertName = QStringLiteral("StorageLowObjectDataStorage");
        a.severity = QStringLiteral("minor");
        a.node = nodeNamed(QStringLiteral("dc1-s1"));
        a.summary = QStringLiteral("Low object data storage");
        a.description = QStringLiteral("The space available for object data on %1 is low.").arg(a.node);
        a.startsMs = lowStart;
        a.endsMs = lowEnd;
        out.push_back(a);
    }
    std::sort(out.begin(), out.end(), [](const AlertInstance &a, const AlertInstance &b) {
        return a.startsMs > b.startsMs;
    });
    return out;
}

QString isoMs(std::int64_t ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc()).toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ"));
}

std::optional<std::int64_t> parseTimeMs(const QString &text)
{
    bool ok = false;
    const double seconds = text.toDouble(&ok);
    if (ok && std::isfinite(seconds)) {
        return std::int64_t(std::llround(seconds * 1000));
    }
    QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!t.isValid()) {
        t = QDateTime::fromString(text, Qt::ISODate);
    }
    if (!t.isValid()) {
        return std::nullopt;
    }
    return t.toMSecsSinceEpoch();
}

} // namespace strata::sim::storagegrid
