#include "views/jobdetailpanel.h"

#include "models/core/domain/estate.h"
#include "models/core/planning/diagnosis.h"
#include "models/item/jobtablemodel.h"
#include "views/diagnosisview.h"
#include "views/statusdelegate.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QUrl>
#include <QUrlQuery>
#include <QVBoxLayout>

#include <algorithm>

namespace strata::views {

using models::JobTableModel;

JobDetailPanel::JobDetailPanel(core::Estate *estate, QWidget *parent)
    : QWidget(parent)
    , m_estate(estate)
{
    setObjectName(QStringLiteral("jobDetailPanel"));
    m_titleLabel = new QLabel(this);
    m_titleLabel->setObjectName(QStringLiteral("jobTitleLabel"));
    QFont title = m_titleLabel->font();
    title.setBold(true);
    title.setPointSizeF(title.pointSizeF() * 1.15);
    m_titleLabel->setFont(title);
    m_titleLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName(QStringLiteral("jobStatusLabel"));
    m_statusLabel->setWordWrap(true);
    auto makeValue = [this](const QString &name) {
        auto *label = new QLabel(this);
        label->setObjectName(name);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        return label;
    };
    m_identityLabel = makeValue(QStringLiteral("jobIdentityLabel"));
    m_placementLabel = makeValue(QStringLiteral("jobPlacementLabel"));
    m_timingsLabel = makeValue(QStringLiteral("jobTimingsLabel"));
    m_reasonLabel = makeValue(QStringLiteral("jobReasonLabel"));
    m_volumesLabel = makeValue(QStringLiteral("jobVolumesLabel"));
    m_volumesLabel->setTextFormat(Qt::RichText);
    m_volumesLabel->setTextInteractionFlags(Qt::TextBrowserInteraction);
    connect(m_volumesLabel, &QLabel::linkActivated, this, [this](const QString &link) {
        const QUrl url(link);
        const QUrlQuery query(url);
        Q_EMIT volumeRequested(query.queryItemValue(QStringLiteral("source"), QUrl::FullyDecoded),
                               query.queryItemValue(QStringLiteral("id"), QUrl::FullyDecoded));
    });
    m_events = new QTreeWidget(this);
    m_events->setObjectName(QStringLiteral("jobEventsTreeWidget"));
    m_events->setRootIsDecorated(false);
    m_events->setHeaderLabels({tr("Time"), tr("Object"), tr("Reason"), tr("Message")});
    m_events->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_events->header()->setStretchLastSection(true);
    m_events->setAlternatingRowColors(true);

    auto *form = new QFormLayout();
    form->addRow(tr("Status:"), m_statusLabel);
    form->addRow(tr("Job:"), m_identityLabel);
    form->addRow(tr("Placement:"), m_placementLabel);
    form->addRow(tr("Times:"), m_timingsLabel);
    form->addRow(tr("Waiting because:"), m_reasonLabel);
    form->addRow(tr("Volumes:"), m_volumesLabel);
    m_diagnosisBox = new QGroupBox(this);
    m_diagnosisBox->setObjectName(QStringLiteral("jobDiagnosisBox"));
    m_diagnosis = new DiagnosisView(m_diagnosisBox);
    auto *diagnosisLayout = new QVBoxLayout(m_diagnosisBox);
    diagnosisLayout->addWidget(m_diagnosis);
    connect(
        m_diagnosis, &DiagnosisView::changeServiceLevelRequested, this, &JobDetailPanel::changeServiceLevelRequested);
    connect(m_diagnosis, &DiagnosisView::endSessionRequested, this, &JobDetailPanel::endSessionRequested);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_titleLabel);
    layout->addLayout(form);
    layout->addWidget(m_diagnosisBox);
    layout->addWidget(new QLabel(tr("Events of the job and its pods:"), this));
    layout->addWidget(m_events, 1);
    setJob(nullptr, {});
}

JobDetailPanel::~JobDetailPanel() = default;

bool JobDetailPanel::eventConcerns(const core::Event &event, const core::Job &job)
{
    // "Kind namespace/name"; the kind may be missing.
    const QString object = event.object.section(QLatin1Char(' '), -1);
    const QString ns = object.section(QLatin1Char('/'), 0, -2);
    const QString name = object.section(QLatin1Char('/'), -1);
    if (ns != job.namespaceName || name.isEmpty()) {
        return false;
    }
    return name == job.name || name == job.podName || name == QStringLiteral("pg-") + job.name
           || (event.object.startsWith(QLatin1String("Pod ")) && name.startsWith(job.name + QLatin1Char('-')));
}

void JobDetailPanel::setJob(core::Ptr<core::Job> job, const QDateTime &now)
{
    m_job = std::move(job);
    m_now = now;
    if (!m_job) {
        m_titleLabel->setText(tr("No job selected"));
        for (QLabel *l :
             {m_statusLabel, m_identityLabel, m_placementLabel, m_timingsLabel, m_reasonLabel, m_volumesLabel}) {
            l->clear();
        }
        m_events->clear();
        m_volumeLines.clear();
        m_diagnosisBox->hide();
        return;
    }
    const core::Job &j = *m_job;
    m_titleLabel->setText(j.name);
    const QString statusKey = j.failureReason.isEmpty() ? JobTableModel::statusKey(j.status) : QStringLiteral("failed");
    QPalette pal = m_statusLabel->palette();
    const QColor color = StatusDelegate::colorFor(
        statusKey == QLatin1String("preempted") ? QStringLiteral("warning") : statusKey, palette());
    pal.setColor(QPalette::WindowText, color.isValid() ? color : palette().color(QPalette::WindowText));
    m_statusLabel->setPalette(pal);
    m_statusLabel->setText(statusText());

    QStringList identity;
    identity << tr("project %1, namespace %2, cluster %3").arg(j.project, j.namespaceName, j.source);
    identity << tr("%1 job by %2")
                    .arg(j.type == core::JobType::Interactive ? tr("Interactive (non-preemptible)")
                                                              : tr("Training (preemptible)"),
                         j.user.isEmpty() ? tr("an unknown user") : j.user);
    identity << tr("image %1").arg(j.image);
    if (!j.command.isEmpty()) {
        identity << tr("command %1").arg(j.command.join(QLatin1Char(' ')));
    }
    identity << (j.createdByCli                           ? tr("submitted with the CLI")
                 : j.createdBy == QLatin1String("strata") ? tr("submitted from Strata")
                                                          : tr("submitted by another tool"));
    m_identityLabel->setText(identity.join(QLatin1Char('\n')));

    QStringList placement;
    // Explicit singular: the English text must read right without a loaded catalogue.
    placement << (j.gpusRequested == 1000 ? tr("1 GPU requested")
                                          : tr("%1 GPUs requested").arg(core::formatGpus(j.gpusRequested)));
    if (!j.node.isEmpty()) {
        placement << tr("on %1, GPU %2 (%3 allocated)")
                         .arg(j.node,
                              j.gpuIndices.isEmpty() ? QStringLiteral("?") : j.gpuIndices,
                              core::formatGpus(j.gpusAllocated));
    } else {
        placement << tr("not placed on a node");
    }
    if (j.gpuUtilization >= 0 && JobTableModel::isActive(j.status)) {
        placement << tr("GPU utilization %1 %").arg(QString::number(j.gpuUtilization, 'f', 0));
    }
    m_placementLabel->setText(placement.join(QLatin1Char('\n')));
    if (!j.failureReason.isEmpty()) {
        // Placed but stuck: the kubelet's full message, not "not waiting".
        m_reasonLabel->setText(j.pendingReason.isEmpty() ? j.failureReason : j.pendingReason);
    } else {
        m_reasonLabel->setText(JobTableModel::isQueued(j.status) ? (
                                   j.pendingReason.isEmpty() ? tr("the scheduler gave no reason yet") : j.pendingReason)
                                                                 : tr("not waiting"));
    }
    updateTimes(now);
    refreshRelated();
}

QString JobDetailPanel::statusText() const
{
    if (!m_job) {
        return {};
    }
    if (!m_job->failureReason.isEmpty()) {
        // The kubelet's message says what to fix (the image name, the crashing command).
        const QString detail = m_job->pendingReason.section(QStringLiteral(": "), 1);
        return detail.isEmpty() ? m_job->failureReason : tr("%1: %2").arg(m_job->failureReason, detail);
    }
    if (m_job->status == core::JobStatus::Preempted) {
        return tr("Preempted: paused to give GPUs back, waiting to run again");
    }
    return JobTableModel::statusText(m_job->status);
}

void JobDetailPanel::updateTimes(const QDateTime &now)
{
    m_now = now;
    if (!m_job) {
        return;
    }
    const core::Job &j = *m_job;
    QStringList parts;
    parts << tr("age %1").arg(JobTableModel::formatDuration(JobTableModel::ageSeconds(j, now)));
    const qint64 wait = JobTableModel::waitSeconds(j, now);
    if (wait >= 0) {
        parts << tr("waiting %1").arg(JobTableModel::formatDuration(wait));
    }
    const qint64 run = JobTableModel::runSeconds(j, now);
    if (run >= 0) {
        parts << tr("running %1").arg(JobTableModel::formatDuration(run));
    }
    if (j.created.isValid()) {
        parts << tr("created %1").arg(QLocale().toString(j.created.toLocalTime(), QLocale::ShortFormat));
    }
    m_timingsLabel->setText(parts.join(QStringLiteral(", ")));
}

QString JobDetailPanel::timingsText() const
{
    return m_timingsLabel->text();
}

void JobDetailPanel::refreshRelated()
{
    m_events->clear();
    m_volumeLines.clear();
    if (!m_job || !m_estate) {
        m_volumesLabel->clear();
        return;
    }
    const core::Job &j = *m_job;
    std::vector<core::Ptr<core::Event>> events;
    if (const auto list = m_estate->events().scope(j.source)) {
        for (const auto &e : list->items()) {
            if (eventConcerns(*e, j)) {
                events.push_back(e);
            }
        }
    }
    std::sort(events.begin(), events.end(), [](const auto &a, const auto &b) {
        return a->time > b->time;
    });
    QList<QTreeWidgetItem *> items;
    for (const auto &e : events) {
        auto *item = new QTreeWidgetItem(
            {QLocale().toString(e->time.toLocalTime(), QLocale::ShortFormat), e->object, e->name, e->message});
        item->setToolTip(3, e->message);
        if (e->severity == QLatin1String("warning") || e->severity == QLatin1String("error")) {
            item->setForeground(2, StatusDelegate::colorFor(QStringLiteral("warning"), palette(), true));
        }
        items << item;
    }
    m_events->addTopLevelItems(items);

    QStringList html;
    for (const QString &claim : j.pvcs) {
        const core::Ptr<core::Pvc> pvc =
            m_estate->pvcs().find(j.source, j.source + QLatin1Char('/') + j.namespaceName + QLatin1Char('/') + claim);
        if (!pvc) {
            m_volumeLines << claim + QStringLiteral(" → ?");
            html << tr("%1 (claim not found)").arg(claim.toHtmlEscaped());
            continue;
        }
        QString volumeName = pvc->backendVolume;
        if (!pvc->storageSource.isEmpty() && !pvc->storageVolumeId.isEmpty()) {
            if (const auto volume = m_estate->volume(pvc->storageSource, pvc->storageVolumeId)) {
                volumeName = volume->svm + QLatin1Char('/') + volume->name;
            }
        }
        const QString pv = pvc->pvName.isEmpty() ? tr("unbound") : pvc->pvName;
        QString line = claim + QStringLiteral(" → ") + pv;
        QString lineHtml = claim.toHtmlEscaped() + QStringLiteral(" → ") + pv.toHtmlEscaped();
        if (!volumeName.isEmpty()) {
            const QString target =
                pvc->storageSource.isEmpty() ? volumeName : pvc->storageSource + QStringLiteral(": ") + volumeName;
            line += QStringLiteral(" → ") + target;
            if (!pvc->storageSource.isEmpty() && !pvc->storageVolumeId.isEmpty()) {
                QUrl url(QStringLiteral("strata:volume"));
                QUrlQuery query;
                query.addQueryItem(QStringLiteral("source"), pvc->storageSource);
                query.addQueryItem(QStringLiteral("id"), pvc->storageVolumeId);
                url.setQuery(query);
                lineHtml += QStringLiteral(" → <a href=\"%1\">%2</a>")
                                .arg(url.toString().toHtmlEscaped(), target.toHtmlEscaped());
            } else {
                lineHtml += QStringLiteral(" → ") + target.toHtmlEscaped();
            }
        }
        line += QStringLiteral(" (%1, %2)").arg(core::formatBytes(pvc->capacityBytes), pvc->accessModes);
        m_volumeLines << line;
        html << lineHtml;
    }
    m_volumesLabel->setText(html.isEmpty() ? tr("none") : html.join(QStringLiteral("<br>")));
    refreshDiagnosis();
}

void JobDetailPanel::refreshDiagnosis()
{
    const core::Job &j = *m_job;
    const bool waiting = j.status == core::JobStatus::Pending || j.status == core::JobStatus::Preempted
                         || j.status == core::JobStatus::ContainerCreating;
    const bool underused =
        j.status == core::JobStatus::Running && j.gpusAllocated > 0 && j.gpuUtilization < core::kLowUtilizationPercent;
    if (!waiting && !underused) {
        m_diagnosisBox->hide();
        return;
    }
    m_diagnosisBox->setTitle(waiting ? tr("Why pending?") : tr("Why idle?"));
    const core::JobVolume where = core::jobVolume(*m_estate, j.source, j.id);
    const QString key = where.volumeId.isEmpty() ? QString() : where.source + QLatin1Char('/') + where.volumeId;
    if (key != m_historyKey) {
        m_historyKey = key;
        m_history.clear();
        if (underused && !key.isEmpty()) {
            Q_EMIT volumeHistoryWanted(where.source, where.volumeId);
        }
    }
    m_diagnosis->setDiagnosis(core::diagnoseJob(*m_estate, j.source, j.id, m_now, m_history));
    m_diagnosisBox->show();
}

void JobDetailPanel::setVolumeHistory(const QString &source,
                                      const QString &volumeId,
                                      std::vector<core::VolumePerfSample> samples)
{
    if (!m_job || source + QLatin1Char('/') + volumeId != m_historyKey) {
        return;
    }
    m_history = std::move(samples);
    refreshDiagnosis();
}

QStringList JobDetailPanel::eventLines() const
{
    QStringList lines;
    for (int i = 0; i < m_events->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = m_events->topLevelItem(i);
        lines << item->text(2) + QStringLiteral(": ") + item->text(3);
    }
    return lines;
}

QStringList JobDetailPanel::volumeLines() const
{
    return m_volumeLines;
}

} // namespace strata::views
