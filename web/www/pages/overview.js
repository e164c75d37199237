// Overview: the managers' entry page. Per Kubernetes cluster its GPU tiles and allocation and
// utilization over the last day; a card per storage system (ONTAP cluster, Azure NetApp Files
// account, StorageGRID grid: used of capacity, throughput now, health); cache usage per target;
// and what needs attention. Every figure comes from the rows `strata get` prints (clusters,
// systems, cache-targets, attention) and the history store (history/projects?total=1, the
// cluster's sum the desktop charts too); each card and row opens the page of what it shows.
import * as api from '../api.js';
import { h, clear, fmtBytes, fmtGpus, fmtPct, fmtRate, meter, label } from '../util.js';
import { card, errorBox } from '../table.js';
import { TimeChart } from '../charts.js';

const DAY = 86400;
const HISTORY_REFRESH_MS = 120000;

// Where an object of the "Needs attention" list is shown in this console.
function attentionHref(a) {
  switch (a.kind) {
    case 'job': return '#/jobs';
    case 'volume': case 'pool': return '#/service-levels';
    case 'cluster': case 'cache_target': return '#/utilization';
    case 'alert': return '#/triage?system=storagegrid';
    case 'source': return `#/triage?system=${encodeURIComponent(a.system)}`;
    default: return '#/triage';
  }
}

function systemKindLabel(kind) {
  return { ontap: 'ONTAP cluster', azure: 'Azure NetApp Files account', storagegrid: 'StorageGRID grid' }[kind] || label(kind);
}

const SEVERITY_KIND = { critical: 'bad', error: 'bad', warning: 'warn' };

export function mount(main, ctx) {
  const { store, prefs } = ctx;
  const unsubs = [];
  const charts = new Map(); // cluster source -> {el, alloc, util, samples, note}
  let historyTimer = null;

  main.append(h('div', { class: 'page-head' }, h('h1', {}, 'Overview'),
    h('p', { class: 'muted small page-sub' }, 'GPU clusters, storage systems and caches at a glance; each card opens its page.')));

  const attentionCard = card('Needs attention', { id: 'card-attention', wide: true });
  const attentionList = h('ul', { class: 'attention', id: 'attention-list' });
  attentionCard.body.append(attentionList);
  const clusterGrid = h('div', { class: 'overview-clusters', id: 'overview-clusters' });
  const systemsCard = card('Storage systems', { id: 'card-systems', wide: true, subtitle: 'used of capacity, throughput now, health' });
  const systemsList = h('div', { class: 'overview-cards', id: 'system-cards' });
  systemsCard.body.append(systemsList);
  const cacheCard = card('Cache usage', { id: 'card-cache-usage', wide: true, subtitle: 'dataset cache targets' });
  const cacheList = h('div', { class: 'overview-cards', id: 'cache-cards' });
  cacheCard.body.append(cacheList);
  const grid = h('div', { class: 'grid' }, attentionCard.el);
  main.append(grid, clusterGrid, h('div', { class: 'grid' }, systemsCard.el, cacheCard.el));

  const goUtilization = (source) => {
    if (source) prefs.set('gpuSource', source);
    location.hash = '#/utilization';
  };

  // ---- Needs attention ---------------------------------------------------------------------
  unsubs.push(store.subscribe('attention', (rows, changed, err) => {
    if (err) { clear(attentionList, errorBox(err)); return; }
    attentionCard.el.querySelector('h2').textContent = rows.length ? `Needs attention (${rows.length})` : 'Needs attention';
    clear(attentionList, rows.length ? rows.map((a) => h('li', { class: 'attention-row', dataset: { key: a.key } },
      h('span', { class: 'sev-dot ' + (SEVERITY_KIND[a.severity] || ''), role: 'img', title: label(a.severity), 'aria-label': label(a.severity) }),
      h('a', { href: attentionHref(a), onclick: a.kind === 'cluster' || a.kind === 'cache_target' ? (e) => { e.preventDefault(); goUtilization(a.kind === 'cluster' ? a.source : ''); } : null }, a.subject),
      h('span', { class: 'muted small' }, ' ' + label(a.system)),
      h('span', { class: 'attention-message' }, ' — ' + a.message)))
      : h('li', { class: 'empty' }, 'Nothing needs attention.'));
  }));

  // ---- Clusters ----------------------------------------------------------------------------
  function clusterCard(c) {
    let entry = charts.get(c.source);
    if (entry) return entry;
    const title = c.name && c.name !== c.source ? `${c.source} (${c.name})` : c.source;
    const cc = card(title, { id: 'cluster-' + c.source, subtitle: c.version ? `Kubernetes ${c.version}` : null });
    cc.el.classList.add('cluster-card');
    const kpis = h('a', { class: 'kpis compact cluster-kpis', href: '#/utilization', onclick: (e) => { e.preventDefault(); goUtilization(c.source); } });
    cc.body.append(kpis);
    const allocHost = h('div', { class: 'overview-chart' });
    const utilHost = h('div', { class: 'overview-chart' });
    const note = h('p', { class: 'muted small' });
    cc.body.append(h('h3', {}, 'GPUs allocated, last 24 h (dashed: Σ quotas)'), allocHost, h('h3', {}, 'GPU utilization, last 24 h'), utilHost, note);
    const xRange = () => {
      const to = entry.to ?? Math.ceil(Date.now() / 1000);
      return [to - DAY, to];
    };
    const alloc = new TimeChart(allocHost, { height: 150, xRange, yFormat: (v) => fmtGpus(v), ariaLabel: `GPUs allocated on ${c.source} over the last 24 hours` });
    alloc.el.id = 'chart-alloc-' + c.source;
    const util = new TimeChart(utilHost, { height: 110, xRange, yRange: [0, 100], yFormat: (v) => fmtPct(v), ariaLabel: `GPU utilization on ${c.source} over the last 24 hours` });
    util.el.id = 'chart-util-' + c.source;
    entry = { el: cc.el, kpis, alloc, util, note, samples: null, to: null, live: c };
    charts.set(c.source, entry);
    clusterGrid.append(cc.el);
    loadHistory(c.source);
    return entry;
  }

  function renderClusterKpis(entry, c) {
    // Parts of one link (to the cluster's Utilization), not items of a list.
    const tile = (name, value, detail, kind = '') => h('div', { class: 'kpi ' + kind, id: `kpi-${c.source}-${name}` },
      h('span', { class: 'kpi-label' }, { gpus: 'GPUs allocated', util: 'GPU utilization', idle: 'Idle allocated GPUs', running: 'Running jobs', pending: 'Pending jobs', quota: 'Σ project quotas' }[name]),
      h('span', { class: 'kpi-value' }, value), h('span', { class: 'kpi-detail' }, detail));
    const quotaOk = c.quota_matches_gpus !== false;
    clear(entry.kpis,
      tile('gpus', `${fmtGpus(c.gpus_allocated)}/${fmtGpus(c.gpus_total)}`, `${fmtGpus(Math.max(0, c.gpus_total - c.gpus_allocated))} free`),
      tile('util', fmtPct(c.utilization), c.metrics_available ? 'mean over allocated GPUs' : 'no GPU metrics'),
      tile('idle', c.utilization == null ? '—' : fmtGpus(c.gpus_idle_allocated), 'below 10 % utilization', c.gpus_idle_allocated > 0 ? 'warn' : ''),
      tile('running', String(c.running_jobs), 'training and interactive'),
      tile('pending', String(c.pending_jobs), 'queued or preempted', c.pending_jobs > 0 ? 'warn' : ''),
      tile('quota', fmtGpus(c.quota_total), `${quotaOk ? '=' : '≠'} ${fmtGpus(c.gpus_total)} GPUs in the cluster`, quotaOk ? '' : 'warn'));
  }

  function renderClusterHistory(entry) {
    if (!entry.samples) return;
    // The store writes on change; the live cluster row ends the lines at the present.
    const rows = entry.samples.map((s) => [Math.floor(new Date(s.time).getTime() / 1000), s.allocated, s.quota, s.utilization == null ? null : s.utilization * 100]);
    const c = entry.live;
    const to = entry.to ?? Math.ceil(Date.now() / 1000);
    if (c) rows.push([to, c.gpus_allocated, c.quota_total, c.utilization]);
    const xs = rows.map((r) => r[0]);
    entry.alloc.update([{ label: 'allocated', stepped: true, fill: 'rgba(78,121,167,.15)' }, { label: 'Σ quotas', color: '#888', dash: [6, 4], stepped: true }],
      [xs, rows.map((r) => r[1]), rows.map((r) => r[2])], { empty: !xs.length });
    entry.util.update([{ label: 'utilization', color: '#59a14f' }], [xs, rows.map((r) => r[3])], { empty: !xs.length });
    const first = entry.samples.length ? new Date(entry.samples[0].time) : null;
    entry.note.textContent = first && (to - first.getTime() / 1000) < DAY - 600
      ? `Collecting since ${first.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}.` : '';
  }

  async function loadHistory(source) {
    const entry = charts.get(source);
    if (!entry) return;
    try {
      const samples = await api.get('history/projects', { source, range: DAY, total: 1 });
      entry.samples = samples || [];
      entry.to = null;
    } catch (err) {
      entry.samples = [];
      entry.note.textContent = 'History unavailable: ' + err.message;
    }
    renderClusterHistory(entry);
  }

  unsubs.push(store.subscribe('clusters', (rows, changed, err) => {
    if (err) { clear(clusterGrid, errorBox(err)); return; }
    const sorted = [...rows].sort((a, b) => a.source.localeCompare(b.source));
    for (const c of sorted) {
      const entry = clusterCard(c);
      entry.live = c;
      renderClusterKpis(entry, c);
      renderClusterHistory(entry);
    }
    for (const [source, entry] of charts) {
      if (!sorted.some((c) => c.source === source)) {
        entry.alloc.destroy();
        entry.util.destroy();
        entry.el.remove();
        charts.delete(source);
      }
    }
  }));
  historyTimer = setInterval(() => { for (const source of charts.keys()) loadHistory(source); }, HISTORY_REFRESH_MS);

  // ---- Storage systems ---------------------------------------------------------------------
  const sysCard = (s) => {
    const pct = s.percent_used;
    const grid = s.kind === 'storagegrid';
    const detail = [pct == null ? 'used of capacity unknown' : `${fmtPct(pct, 1)} used`];
    if (!grid) {
      detail.push(s.throughput_bytes_per_second == null ? 'throughput —' : `${fmtRate(s.throughput_bytes_per_second)} now`,
        s.volumes === 1 ? '1 volume' : `${s.volumes} volumes`);
    }
    if (s.kind === 'azure' && s.pools > 0) detail.push(`pools ${fmtBytes(s.pool_allocated_bytes)} of ${fmtBytes(s.pool_size_bytes)} allocated`);
    const href = grid ? '#/triage?system=storagegrid' : '#/utilization';
    const title = s.name === s.source ? s.name : `${s.name} (${s.source})`;
    return h('a', { class: 'ov-card status-' + s.status, href, dataset: { key: s.key }, id: `system-${s.source}-${s.name}` },
      h('span', { class: 'ov-title' }, title, h('small', { class: 'muted' }, ' · ' + systemKindLabel(s.kind))),
      h('span', { class: 'ov-value' }, s.used_bytes == null || s.capacity_bytes == null ? '—' : `${fmtBytes(s.used_bytes)} / ${fmtBytes(s.capacity_bytes)}`),
      meter({ value: s.used_bytes || 0, max: s.capacity_bytes || 0, warnAt: 85, label: `${title}: ${fmtBytes(s.used_bytes)} used of ${fmtBytes(s.capacity_bytes)}` }),
      h('span', { class: 'ov-detail' }, detail.join(' · ')),
      h('span', { class: 'ov-health ' + (s.status === 'ok' ? '' : s.status === 'critical' ? 'bad-text' : 'warn-text') }, s.health));
  };
  unsubs.push(store.subscribe('systems', (rows, changed, err) => {
    if (err) { clear(systemsList, errorBox(err)); return; }
    const order = { ontap: 0, azure: 1, storagegrid: 2 };
    const sorted = [...rows].sort((a, b) => (order[a.kind] ?? 9) - (order[b.kind] ?? 9) || a.source.localeCompare(b.source) || a.name.localeCompare(b.name));
    clear(systemsList, sorted.length ? sorted.map(sysCard) : h('p', { class: 'empty' }, 'No storage system is connected.'));
  }));

  // ---- Cache usage -------------------------------------------------------------------------
  unsubs.push(store.subscribe('cache-targets', (rows, changed, err) => {
    if (err) { clear(cacheList, errorBox(err)); return; }
    const sorted = [...rows].sort((a, b) => a.source.localeCompare(b.source) || a.name.localeCompare(b.name));
    clear(cacheList, sorted.length ? sorted.map((t) => {
      const pct = t.capacity_bytes ? (t.used_bytes / t.capacity_bytes) * 100 : null;
      const over = pct != null && pct >= t.high_watermark_percent;
      return h('a', { class: 'ov-card status-' + (t.problem ? 'critical' : over ? 'warning' : 'ok'), href: '#/utilization', dataset: { key: t.key }, id: 'cache-' + t.name },
        h('span', { class: 'ov-title' }, t.name, h('small', { class: 'muted' }, ' · ' + (t.volume || t.pvc))),
        // Capacity 0: claim and volume not joined yet; unknown, not "0 B / 0 B".
        h('span', { class: 'ov-value' }, t.capacity_bytes > 0 ? `${fmtBytes(t.used_bytes)} / ${fmtBytes(t.capacity_bytes)}` : '—'),
        meter({ value: t.used_bytes, max: t.capacity_bytes, warnAt: t.high_watermark_percent, label: `${t.name}: ${fmtBytes(t.used_bytes)} of ${fmtBytes(t.capacity_bytes)}` }),
        h('span', { class: 'ov-detail' }, `${pct == null ? 'capacity not known yet' : fmtPct(pct, 1) + ' used'} · ${fmtBytes(t.cached_bytes)} cached in ${t.cached_commits === 1 ? '1 commit' : `${t.cached_commits} commits`} · watermark ${t.high_watermark_percent}\u00a0%`),
        t.problem ? h('span', { class: 'ov-health bad-text' }, t.problem) : over ? h('span', { class: 'ov-health warn-text' }, 'above the high watermark') : null);
    }) : h('p', { class: 'empty' }, 'No cache targets configured.'));
  }));

  return () => {
    clearInterval(historyTimer);
    unsubs.forEach((u) => u());
    for (const entry of charts.values()) { entry.alloc.destroy(); entry.util.destroy(); }
  };
}
