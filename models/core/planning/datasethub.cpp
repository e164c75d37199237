#include "models/core/planning/datasethub.h"

#include "models/core/domain/estate.h"
#include "models/core/domain/translate.h"

#include <QSet>

#include <algorithm>
#include <cmath>

namespace strata::core {

namespace {

void newest(QDateTime &into, const QDateTime &candidate)
{
    if (candidate.isValid() && (!into.isValid() || candidate > into)) {
        into = candidate;
    }
}

QString datasetKey(const QString &source, const QString &id)
{
    return source + QLatin1Char('/') + id;
}

/// The ONTAP dataset volume's FlexClones (cloneParent "volume@snapshot").
std::vector<Ptr<Volume>> clonesOf(const Estate &estate, const Dataset &dataset)
{
    std::vector<Ptr<Volume>> out;
    const Ptr<Volume> parent = estate.volume(dataset.source, dataset.volumeId);
    if (!parent) {
        return out;
    }
    const QString prefix = parent->name + QLatin1Char('@');
    if (const auto volumes = estate.volumes().scope(dataset.source)) {
        for (const Ptr<Volume> &v : volumes->items()) {
            if (v->cloneParent.startsWith(prefix)) {
                out.push_back(v);
            }
        }
    }
    return out;
}

bool isUnder(const QString &subPath, const QString &path)
{
    return subPath == path || (subPath.startsWith(path) && subPath.at(path.size()) == QLatin1Char('/'));
}

LineageEntry jobEntry(const Job &job, const QString &pvc, const QString &subPath)
{
    LineageEntry e;
    e.targetSource = job.source;
    e.pvc = job.namespaceName + QLatin1Char('/') + pvc;
    e.subPath = subPath;
    e.job = job.id;
    e.project = job.project;
    e.jobStatus = job.status;
    e.started = job.started.isValid() ? job.started : job.created;
    e.finished = job.finished;
    return e;
}

QDateTime entryTime(const LineageEntry &e)
{
    return e.finished.isValid() ? e.finished : e.started;
}

void sortNewestFirst(QList<LineageEntry> &entries)
{
    std::stable_sort(entries.begin(), entries.end(), [](const LineageEntry &a, const LineageEntry &b) {
        const QDateTime ta = entryTime(a);
        const QDateTime tb = entryTime(b);
        if (ta.isValid() != tb.isValid()) {
            return ta.isValid();
        }
        if (ta != tb) {
            return ta > tb;
        }
        return a.job < b.job;
    });
}

} // namespace

QString HubSummary::headerText() const
{
    // Each figure in its own unit (format.h): TR-4841 prints one shared decimal unit, in which a
    // few hundred megabytes cached beside terabytes of cache read "0.00/6.60 TB", as if empty.
    const QString used =
        QObject::tr("%1 / %2 Used by cached commits").arg(formatBytes(cachedBytes), formatBytes(capacityBytes));
    const QString count =
        datasets == 1 ? QObject::tr("1 Dataset") : QObject::tr("%1 Datasets").arg(datasets); // TR-4841's wording
    return count + QStringLiteral(" | ") + formatBytes(totalBytes) + QStringLiteral(" | ")
           + QObject::tr("%1 NFS Connected").arg(targetsConnected) + QStringLiteral(" | ") + used;
}

QString datasetLocation(const Estate &estate, const Dataset &dataset)
{
    if (dataset.kind != DatasetKind::OntapVolume) {
        return dataset.bucket + QLatin1Char('/') + dataset.prefix;
    }
    if (const Ptr<Volume> volume = estate.volume(dataset.source, dataset.volumeId)) {
        return volume->svm.isEmpty() ? volume->name : volume->svm + QLatin1Char('/') + volume->name;
    }
    return dataset.volumeId;
}

HubSummary summarize(const Estate &estate)
{
    HubSummary s;
    for (const Ptr<Dataset> &d : estate.datasets().all()) {
        ++s.datasets;
        s.totalBytes += d->sizeBytes;
        s.totalObjects += d->objectCount;
        s.commits += d->commitCount;
        DatasetHubRow row;
        row.dataset = d;
        row.lastActivity = d->lastActivity;
        if (d->kind == DatasetKind::OntapVolume) {
            // On ONTAP a cached commit is a FlexClone of one of its snapshots.
            QSet<QString> snapshots;
            for (const Ptr<Volume> &clone : clonesOf(estate, *d)) {
                snapshots.insert(clone->cloneParent);
                row.cachedBytes += clone->usedBytes.value_or(0);
                row.targets.append(clone->svm + QLatin1Char('/') + clone->name);
                newest(row.lastActivity, clone->created);
            }
            row.cachedCommits = int(snapshots.size());
            row.targets.sort();
        }
        s.rows.insert(datasetKey(d->source, d->id), std::move(row));
    }

    for (const Ptr<CacheTarget> &t : estate.cacheTargets().all()) {
        ++s.targets;
        if (t->problem.isEmpty()) {
            ++s.targetsConnected;
        }
        s.cachedBytes += t->cachedBytes;
        s.capacityBytes += t->capacityBytes;
    }

    // Per dataset: distinct commits ready anywhere, and loading ones not ready anywhere.
    QHash<QString, QSet<QString>> ready;
    QHash<QString, QSet<QString>> loading;
    QHash<QString, QSet<QString>> targets;
    for (const Ptr<CachedCommit> &c : estate.cachedCommits().all()) {
        switch (c->state) {
        case CacheState::Ready:
            ++s.readyCommits;
            break;
        case CacheState::Requested:
        case CacheState::Loading:
            ++s.loadingCommits;
            break;
        case CacheState::Failed:
            ++s.failedCommits;
            break;
        case CacheState::Evicting:
            ++s.evictingCommits;
            break;
        case CacheState::Evicted:
            break;
        }
        const auto it = s.rows.find(datasetKey(c->datasetSource, c->datasetId));
        if (it == s.rows.end()) {
            continue; // its dataset is not (or no longer) published
        }
        const QString key = it.key();
        DatasetHubRow &row = it.value();
        if (c->state == CacheState::Ready) {
            ready[key].insert(c->commitId);
        } else if (c->state == CacheState::Requested || c->state == CacheState::Loading) {
            loading[key].insert(c->commitId);
        } else if (c->state == CacheState::Failed) {
            ++row.failedCommits;
        }
        if (c->state != CacheState::Evicted) {
            targets[key].insert(c->target);
            row.cachedBytes += c->state == CacheState::Ready ? c->bytesTotal : c->bytesDone;
        }
        newest(row.lastActivity, c->requested);
        newest(row.lastActivity, c->readyAt);
        newest(row.lastActivity, c->lastUsed);
    }
    for (auto it = s.rows.begin(); it != s.rows.end(); ++it) {
        const QSet<QString> r = ready.value(it.key());
        if (it->dataset->kind != DatasetKind::OntapVolume) {
            it->cachedCommits = int(r.size());
            it->targets = QStringList(targets.value(it.key()).cbegin(), targets.value(it.key()).cend());
            it->targets.sort();
        }
        int stillLoading = 0;
        for (const QString &commit : loading.value(it.key())) {
            stillLoading += r.contains(commit) ? 0 : 1;
        }
        it->loadingCommits = stillLoading;
    }
    return s;
}

QList<LineageEntry> lineage(const Estate &estate, const CachedCommit &cached)
{
    QList<LineageEntry> out;
    const Ptr<CacheTarget> target =
        estate.cacheTargets().find(cached.source, cached.source + QLatin1Char('/') + cached.target);
    const Ptr<Dataset> dataset =
        estate.datasets().find(cached.datasetSource, datasetKey(cached.datasetSource, cached.datasetId));
    auto fill = [&](LineageEntry &e) {
        e.datasetSource = cached.datasetSource;
        e.datasetId = cached.datasetId;
        e.datasetName = dataset ? dataset->name : cached.datasetName;
        e.commitId = cached.commitId;
        e.target = cached.target;
        e.targetSource = cached.source;
        if (target) {
            e.storageSource = target->storageSource;
            e.volumeName = target->volumeName;
        }
    };
    QSet<QString> seen;
    if (target && !cached.path.isEmpty()) {
        if (const auto jobs = estate.jobs().scope(cached.source)) {
            for (const Ptr<Job> &job : jobs->items()) {
                if (job->namespaceName != target->namespaceName) {
                    continue;
                }
                for (qsizetype i = 0; i < job->pvcs.size(); ++i) {
                    const QString subPath = i < job->pvcSubPaths.size() ? job->pvcSubPaths.at(i) : QString();
                    if (job->pvcs.at(i) != target->pvc || !isUnder(subPath, cached.path)) {
                        continue;
                    }
                    LineageEntry e = jobEntry(*job, target->pvc, subPath);
                    fill(e);
                    out.append(std::move(e));
                    seen.insert(job->id);
                    break;
                }
            }
        }
    }
    // Jobs that used it but are gone from the cluster (the state record remembers them).
    for (const QString &job : cached.usedBy) {
        if (seen.contains(job)) {
            continue;
        }
        seen.insert(job);
        LineageEntry e;
        fill(e);
        e.job = job;
        e.subPath = cached.path;
        if (target) {
            e.pvc = target->namespaceName + QLatin1Char('/') + target->pvc;
        }
        e.inEstate = false;
        out.append(std::move(e));
    }
    sortNewestFirst(out);
    return out;
}

QHash<QString, QStringList> flexCloneCopies(const Estate &estate)
{
    QHash<QString, QStringList> out;
    for (const Ptr<Dataset> &d : estate.datasets().all()) {
        if (d->kind != DatasetKind::OntapVolume) {
            continue;
        }
        const std::vector<Ptr<Volume>> clones = clonesOf(estate, *d);
        if (clones.empty()) {
            continue;
        }
        QHash<QString, QString> commitBySnapshot;
        for (const Ptr<Commit> &c : estate.commits().all(d->source)) {
            if (c->datasetId == d->id) {
                commitBySnapshot.insert(c->manifestKey, estateKey(*c));
            }
        }
        for (const Ptr<Volume> &clone : clones) {
            const QString commit = commitBySnapshot.value(clone->cloneParent.section(QLatin1Char('@'), 1));
            if (!commit.isEmpty()) {
                out[commit] << clone->svm + QLatin1Char('/') + clone->name;
            }
        }
    }
    for (QStringList &list : out) {
        list.sort();
    }
    return out;
}

QList<LineageEntry> datasetLineage(const Estate &estate, const QString &datasetSource, const QString &datasetId)
{
    QList<LineageEntry> out;
    const Ptr<Dataset> dataset = estate.datasets().find(datasetSource, datasetKey(datasetSource, datasetId));
    if (dataset && dataset->kind == DatasetKind::OntapVolume) {
        const std::vector<Ptr<Volume>> clones = clonesOf(estate, *dataset);
        if (clones.empty()) {
            return out;
        }
        QHash<QString, Ptr<Volume>> cloneById;
        for (const Ptr<Volume> &c : clones) {
            cloneById.insert(c->id, c);
        }
        // PVCs bound to a clone (any Kubernetes source), then the jobs mounting them.
        for (const Ptr<Pvc> &pvc : estate.pvcs().all()) {
            if (pvc->storageSource != datasetSource || !cloneById.contains(pvc->storageVolumeId)) {
                continue;
            }
            const Ptr<Volume> clone = cloneById.value(pvc->storageVolumeId);
            const QString snapshot = clone->cloneParent.mid(clone->cloneParent.indexOf(QLatin1Char('@')) + 1);
            // ONTAP commits are the dataset volume's snapshots; manifestKey holds the snapshot name.
            QString commitId;
            if (const auto commits = estate.commits().scope(datasetSource)) {
                for (const Ptr<Commit> &c : commits->items()) {
                    if (c->datasetId == datasetId && c->manifestKey == snapshot) {
                        commitId = c->id;
                    }
                }
            }
            if (const auto jobs = estate.jobs().scope(pvc->source)) {
                for (const Ptr<Job> &job : jobs->items()) {
                    if (job->namespaceName != pvc->namespaceName || !job->pvcs.contains(pvc->name)) {
                        continue;
                    }
                    LineageEntry e = jobEntry(*job, pvc->name, QString());
                    e.datasetSource = datasetSource;
                    e.datasetId = datasetId;
                    e.datasetName = dataset->name;
                    e.commitId = commitId.isEmpty() ? snapshot : commitId;
                    e.target = clone->name;
                    e.storageSource = clone->source;
                    e.volumeName = clone->svm + QLatin1Char('/') + clone->name;
                    out.append(std::move(e));
                }
            }
        }
        sortNewestFirst(out);
        return out;
    }
    for (const Ptr<CachedCommit> &c : estate.cachedCommits().all()) {
        if (c->datasetSource == datasetSource && c->datasetId == datasetId) {
            out.append(lineage(estate, *c));
        }
    }
    sortNewestFirst(out);
    return out;
}

QString CommitComparison::summary() const
{
    return tr("%1 added (%2), %3 removed (%4), %5 changed (%6), %7 unchanged")
        .arg(added.size())
        .arg(formatBytes(bytesAdded))
        .arg(removed.size())
        .arg(formatBytes(bytesRemoved))
        .arg(changed.size())
        .arg(formatBytes(bytesChanged))
        .arg(unchanged);
}

} // namespace strata::core
