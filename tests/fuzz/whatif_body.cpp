// The web server's quota what-if body (POST /api/v1/what-if/quota, core::quotaChangesFromJson):
// whatever the JSON, the changes name only the cluster's projects, each once, with values in
// range, so their number never exceeds the cluster's projects. The cluster's projects are
// team-a..team-d plus the strings of the body's "projects" array (so inputs can name them).
#include "models/core/planning/quotawhatif.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace strata;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    const QJsonDocument doc = QJsonDocument::fromJson(bytes);
    if (!doc.isObject()) {
        return 0;
    }
    const QJsonObject body = doc.object();
    QSet<QString> projects{
        QStringLiteral("team-a"), QStringLiteral("team-b"), QStringLiteral("team-c"), QStringLiteral("team-d")};
    for (const QJsonValue &name : body.value(QStringLiteral("projects")).toArray()) {
        if (name.isString()) {
            projects.insert(name.toString());
        }
    }
    const auto changes = core::quotaChangesFromJson(body, QStringLiteral("k8s-ai"), projects);
    if (!changes) {
        if (changes.error().message.isEmpty()) {
            std::fprintf(stderr, "an error without a message\n");
            std::abort();
        }
        return 0;
    }
    QSet<QString> seen;
    for (const core::QuotaChange &change : *changes) {
        if (!projects.contains(change.project) || seen.contains(change.project)) {
            std::fprintf(stderr, "change for an unknown or repeated project\n");
            std::abort();
        }
        seen.insert(change.project);
        if ((!change.quota && !change.overQuotaWeight)
            || (change.quota && (*change.quota < 0 || *change.quota > 1000000000))
            || (change.overQuotaWeight && !(*change.overQuotaWeight >= 0 && *change.overQuotaWeight <= 1e6))) {
            std::fprintf(stderr, "a change out of range\n");
            std::abort();
        }
    }
    return 0;
}
