#pragma once

#include "models/core/domain/estate.h"
#include "models/core/domain/records.h"

#include <QString>

#include <memory>
#include <vector>

namespace strata::viewtests {

/// `count` synthetic volumes of `source`: names "vol_00000"..., every 7th offline, sizes that
/// sort differently as text and as bytes, SVMs "svm_a"/"svm_b".
inline std::shared_ptr<const core::KeyedList<core::Volume>> syntheticVolumes(const QString &source, int count)
{
    std::vector<core::Ptr<core::Volume>> items;
    items.reserve(std::size_t(count));
    for (int i = 0; i < count; ++i) {
        core::Volume v;
        v.source = source;
        v.id = source + QStringLiteral("-uuid-%1").arg(i);
        v.name = QStringLiteral("vol_%1").arg(i, 5, 10, QLatin1Char('0'));
        v.svm = i % 2 ? QStringLiteral("svm_a") : QStringLiteral("svm_b");
        v.state = i % 7 == 0 ? QStringLiteral("offline") : QStringLiteral("online");
        v.style = QStringLiteral("flexvol");
        v.type = QStringLiteral("rw");
        v.aggregate = QStringLiteral("aggr1");
        v.aggregateCount = 1;
        // 9 GiB, 10 GiB, 100 GiB...: "9.0 GiB" > "10.0 GiB" as text, not as bytes.
        v.sizeBytes = qint64((i % 13) + 1) * 9 * 1024 * 1024 * 1024LL + i;
        v.usedBytes = v.sizeBytes / 100 * (i % 100);
        v.availableBytes = v.sizeBytes - *v.usedBytes;
        v.percentUsed = double(i % 100);
        v.snapshotCount = i % 5;
        v.nasPath = QLatin1Char('/') + v.name;
        v.qosPolicy = i % 3 == 0 ? QStringLiteral("Gold") : QString();
        items.push_back(std::make_shared<const core::Volume>(std::move(v)));
    }
    return std::make_shared<const core::KeyedList<core::Volume>>(std::move(items));
}

} // namespace strata::viewtests
