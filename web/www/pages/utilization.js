// Utilization: GPUs per project against quota, allocation and utilization over time, GPUs held by
// idle jobs, storage capacity and throughput per system, cache targets and cached commits.
import * as api from '../api.js';
import { h, clear, fmtBytes, fmtGpus, fmtPct, fmtNum, fmtDuration, fmtRate, meter, chip, statusKind, shortId, rowKey, label, fmtDay, fmtDateTime } from '../util.js';
import { DataTable, card, errorBox } from '../table.js';
import { TimeChart, pivot, fillForward, stackedAllocation, PALETTE } from '../charts.js';
import { mountWhatIf } from './whatif.js';

export const RANGES = [
  ['1h', 3600], ['6h', 21600], ['24h', 86400], ['7d', 604800], ['30d', 2592000], ['1y', 31536000],
];
export const IDLE_UTILIZATION = 10;
// The quota line in the text colour, so it reads on the bands in light and dark mode.
const cssQuotaColor = () => getComputedStyle(document.documentElement).getPropertyValue('--text').trim() || '#444';
 // % below which an allocated GPU counts as idle (Run:ai's view)

export function mount(main, ctx) {
  const { store, prefs } = ctx;
  const unsubs = [];
  let range = prefs.get('range', 86400);
  let source = prefs.get('gpuSource', '');
  let history = [];
  let historyTimer = null;
  let historyLoaded = false;

  // Header: source and time range.
  const sourceSelect = h('select', { id: 'gpu-source', 'aria-label': 'GPU source' });
  const rangeGroup = h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': 'Time range' },
    RANGES.map(([label, secs]) => h('button', { type: 'button', role: 'radio', 'aria-checked': String(secs === range), dataset: { range: secs }, onclick: () => setRange(secs) }, label)));
  main.append(h('div', { class: 'page-head' }, h('h1', {}, 'Utilization'),
    h('div', { class: 'page-tools' }, h('label', { for: 'gpu-source', class: 'inline' }, 'Cluster'), sourceSelect, rangeGroup)));

  const kpis = h('div', { class: 'kpis', role: 'list' });
  main.append(kpis);
  const grid = h('div', { class: 'grid' });
  main.append(grid);

  const quotaCard = card('GPUs per project against quota', { id: 'card-quota', subtitle: 'allocated / guaranteed quota' });
  const allocCard = card('GPU allocation over time', { id: 'card-alloc', subtitle: 'stacked by project; dashed: total quota' });
  const utilCard = card('GPU utilization over time', { id: 'card-util', subtitle: 'mean over each project\'s allocated GPUs' });
  const idleCard = card('Idle allocated GPUs', { id: 'card-idle', subtitle: `running jobs below ${IDLE_UTILIZATION} % GPU utilization` });
  const storageCard = card('Storage per system', { id: 'card-storage', subtitle: 'capacity used and throughput now' });
  const storageMetric = h('select', { id: 'storage-metric', 'aria-label': 'Storage history shows' },
    h('option', { value: 'tput' }, 'Throughput'), h('option', { value: 'used' }, 'Capacity used'));
  const tputCard = card('Storage over time', { id: 'card-tput', actions: [storageMetric] });
  const cacheCard = card('Cache usage', { id: 'card-cache', wide: true, subtitle: 'dataset cache targets and cached commits' });
  const whatIfCard = card('What if quotas change', { id: 'card-whatif', wide: true, subtitle: 'which jobs would start, be preempted or stay queued' });
  grid.append(quotaCard.el, allocCard.el, utilCard.el, idleCard.el, whatIfCard.el, storageCard.el, tputCard.el, cacheCard.el);
  const whatIf = mountWhatIf(whatIfCard.body, ctx, () => source);

  const quotaList = h('div', { class: 'bars', id: 'project-bars' });
  quotaCard.body.append(quotaList, h('p', { class: 'legend' }, chip('in quota', 'good'), ' ', chip('over quota', 'over'), ' ', h('span', { class: 'legend-mark' }, '│ quota')));
  const selected = () => [Math.floor(Date.now() / 1000) - range, Math.ceil(Date.now() / 1000)];
  const allocChart = new TimeChart(allocCard.body, { height: 240, xRange: selected, yFormat: (v) => fmtGpus(v), ariaLabel: 'GPUs allocated per project over time' });
  allocChart.el.id = 'chart-allocation';
  const utilChart = new TimeChart(utilCard.body, { height: 240, xRange: selected, yFormat: (v) => fmtPct(v), yRange: [0, 100], ariaLabel: 'GPU utilization per project over time' });
  utilChart.el.id = 'chart-utilization';
  const historyNote = h('p', { class: 'muted small', 'aria-live': 'polite' });
  allocCard.body.append(historyNote);

  const idleTable = new DataTable(idleCard.body, {
    caption: 'Idle allocated GPUs',
    rowKey,
    filter: false,
    emptyText: 'No running job holds GPUs below the threshold.',
    sort: { key: 'gpus_allocated', dir: -1 },
    columns: [
      { key: 'name', label: 'Job', render: (r) => h('span', {}, r.name, h('small', { class: 'muted' }, ' ' + r.user)) },
      { key: 'project', label: 'Project' },
      { key: 'gpus_allocated', label: 'GPUs', align: 'right', render: (r) => fmtGpus(r.gpus_allocated) },
      { key: 'gpu_utilization', label: 'Util.', align: 'right', render: (r) => fmtPct(r.gpu_utilization) },
      { key: 'run_seconds', label: 'Running', align: 'right', render: (r) => fmtDuration(r.run_seconds) },
      { key: 'node', label: 'Node' },
    ],
  });

  const storageList = h('div', { class: 'bars', id: 'storage-bars' });
  storageCard.body.append(storageList);
  const tputChart = new TimeChart(tputCard.body, { height: 220, xRange: selected, axisSize: 84, yFormat: (v) => fmtRate(v), ariaLabel: 'Storage throughput per system over time' });
  tputChart.el.id = 'chart-throughput';
  storageMetric.addEventListener('change', () => renderVolumeHistory());
  const tputNote = h('p', { class: 'muted small' });
  tputCard.body.append(tputNote);

  const targetList = h('div', { class: 'bars', id: 'cache-bars' });
  cacheCard.body.append(h('h3', {}, 'Targets'), targetList, h('h3', {}, 'Cached commits'));
  const cachesTable = new DataTable(cacheCard.body, {
    caption: 'Cached commits',
    rowKey,
    emptyText: 'No commit is cached.',
    sort: { key: 'target' },
    columns: [
      { key: 'dataset', label: 'Dataset' },
      { key: 'commit', label: 'Commit', render: (r) => h('code', { title: r.commit }, shortId(r.commit)) },
      { key: 'target', label: 'Target' },
      { key: 'state', label: 'State', value: (r) => label(r.state), render: (r) => chip(label(r.state), statusKind(r.state)) },
      { key: 'progress_percent', label: 'Loaded', align: 'right', render: (r) => h('span', { class: 'loaded' }, meter({ value: r.bytes_done, max: r.bytes_total || 1, label: `${r.dataset} loaded` }), ' ', fmtPct(r.progress_percent)) },
      { key: 'bytes_total', label: 'Size', align: 'right', render: (r) => fmtBytes(r.bytes_total) },
      { key: 'used_by', label: 'Used by', value: (r) => (r.used_by || []).join(', ') },
      { key: 'evict_at', label: 'Evicted', render: (r) => (r.evict_at ? h('span', { title: r.evict_reason }, fmtDay(r.evict_at)) : '—') },
    ],
  });

  // ---- KPI strip ---------------------------------------------------------------------------
  const kpiData = {};
  for (const id of ['gpus', 'util', 'idle', 'over', 'storage', 'cache']) kpiData[id] = { label: '', value: '…', detail: '', kind: 'loading' };
  function kpi(id, label, value, detail, kind = '') {
    kpiData[id] = { label, value, detail, kind };
    renderKpis();
  }
  function renderKpis() {
    clear(kpis, Object.entries(kpiData).map(([id, k]) => h('div', { class: 'kpi ' + k.kind, role: 'listitem', id: 'kpi-' + id },
      h('span', { class: 'kpi-label' }, k.label), h('span', { class: 'kpi-value' }, k.value), h('span', { class: 'kpi-detail' }, k.detail))));
  }

  // ---- Projects (bars + live point on the charts) ------------------------------------------
  function renderProjects(rows) {
    const projects = rows.filter((p) => !source || p.source === source).sort((a, b) => a.name.localeCompare(b.name));
    clear(quotaList, projects.length ? projects.map((p) => {
      const over = p.quota != null && p.quota >= 0 && p.allocated > p.quota;
      return h('div', { class: 'bar-row', dataset: { key: rowKey(p) } },
        h('span', { class: 'bar-label' }, p.name, source ? null : h('small', { class: 'muted' }, ' ' + p.source)),
        meter({ value: p.allocated, max: Math.max(p.quota || 0, p.allocated, p.fair_share || 0), mark: p.quota, label: `${p.name}: ${fmtGpus(p.allocated)} GPUs allocated of ${p.quota ?? 'no'} quota` }),
        h('span', { class: 'bar-value ' + (over ? 'over-text' : '') }, `${fmtGpus(p.allocated)} / ${p.quota == null || p.quota < 0 ? '—' : fmtGpus(p.quota)}`),
        h('span', { class: 'bar-extra' }, fmtPct(p.utilization), p.pending ? h('small', { class: 'warn-text' }, ` +${fmtGpus(p.pending)} pending`) : null));
    }) : h('p', { class: 'empty' }, 'No projects on this cluster.'));
    const alloc = projects.reduce((s, p) => s + (p.allocated || 0), 0);
    const quota = projects.reduce((s, p) => s + (p.quota > 0 ? p.quota : 0), 0);
    const overCount = projects.filter((p) => p.over_quota > 0).length;
    const utilW = projects.reduce((s, p) => s + (p.utilization != null ? p.utilization * p.allocated : 0), 0);
    kpi('gpus', 'GPUs allocated', fmtGpus(alloc), `of ${fmtGpus(quota)} guaranteed`);
    kpi('util', 'Mean GPU utilization', alloc ? fmtPct(utilW / alloc) : '—', 'weighted by allocation');
    kpi('over', 'Projects over quota', String(overCount), `of ${projects.length}`, overCount ? 'warn' : '');
  }

  function appendLivePoint(rows) {
    // The live feed moves the right edge of the charts; the history store fills in the rest.
    const now = new Date().toISOString();
    for (const p of rows) {
      if (source && p.source !== source) continue;
      history.push({ time: now, project: p.name, allocated: p.allocated, quota: p.quota, utilization: p.utilization != null ? p.utilization / 100 : null });
    }
    const cutoff = Date.now() - range * 1000;
    history = history.filter((s) => new Date(s.time).getTime() >= cutoff);
    renderHistory();
  }

  let allocRaw = [];
  function renderHistory() {
    // Stacked: projects holding the same count get bands of their own (as lines they would lie on
    // one another); the readout gives each project's own GPUs, the top of the stack the total.
    const st = stackedAllocation(history);
    allocRaw = st.raw;
    const own = (u, v, si, idx) => (idx == null || allocRaw[si - 1] == null ? '—' : fmtGpus(allocRaw[si - 1][idx]));
    allocChart.el.dataset.stacked = String(st.names.length);
    allocChart.update(
      [...st.names.map((n, i) => ({ label: n, color: PALETTE[i % PALETTE.length], fill: PALETTE[i % PALETTE.length] + '99', stepped: true, value: own })),
        ...(st.quota ? [{ label: 'total quota', color: cssQuotaColor(), dash: [6, 4], width: 2, stepped: true }] : [])],
      [st.xs, ...st.tops, ...(st.quota ? [st.quota] : [])],
      { empty: !st.xs.length, bands: st.bands });
    const alloc = { names: st.names };
    const util = pivot(history, { groupOf: (s) => s.project, valueOf: (s) => (s.utilization == null ? null : s.utilization * 100) });
    utilChart.update(util.names.map((n, i) => ({ label: n, color: PALETTE[alloc.names.indexOf(n) >= 0 ? alloc.names.indexOf(n) % PALETTE.length : i] })), [util.xs, ...util.ys], { empty: !util.xs.length });
  }

  async function loadHistory() {
    clearTimeout(historyTimer);
    try {
      const rows = await api.get('history/projects', { source, range });
      history = rows || [];
      historyNote.textContent = history.length
        ? `Recorded since ${fmtDateTime(history[0].time)}; the chart follows live changes.`
        : 'Nothing recorded in this range yet; the chart follows live changes.';
    } catch (err) {
      history = [];
      historyNote.textContent = 'History unavailable: ' + err.message;
    }
    // The chart ends at the estate as it is now (the store records on its own schedule).
    historyLoaded = true;
    if (store.isLoaded('projects')) appendLivePoint(store.rows('projects'));
    else renderHistory();
    historyTimer = setTimeout(loadHistory, Math.min(300000, Math.max(60000, range * 1000 / 200)));
  }

  let volumeHistory = [];
  async function loadVolumeHistory() {
    // The history store answers per volume: read every volume's samples (a few at a time) and
    // add them up per system in buckets of about 1/300 of the range.
    const vols = store.rows('volumes');
    const grain = Math.max(300, Math.round(range / 300));
    const queue = [...vols];
    const results = [];
    let failed = null;
    async function worker() {
      while (queue.length) {
        const v = queue.shift();
        try {
          results.push([v, await api.get('history/volumes', { source: v.source, volume: v.id, range })]);
        } catch (err) {
          failed = err;
        }
      }
    }
    await Promise.all([worker(), worker(), worker(), worker()]);
    const perSystem = new Map(); // system -> Map(bucket -> {tput, used: Map(volume -> used)})
    for (const [v, answer] of results) {
      const sys = perSystem.get(v.source) || new Map();
      perSystem.set(v.source, sys);
      const cell = (t) => {
        const b = Math.floor(new Date(t).getTime() / 1000 / grain) * grain;
        if (!sys.has(b)) sys.set(b, { tput: new Map(), used: new Map() });
        return sys.get(b);
      };
      for (const p of answer?.perf || []) {
        if (p.throughput_bytes_per_second == null) continue;
        const c = cell(p.time);
        const acc = c.tput.get(v.id) || [0, 0];
        c.tput.set(v.id, [acc[0] + p.throughput_bytes_per_second, acc[1] + 1]);
      }
      for (const u of answer?.usage || []) cell(u.time).used.set(v.id, u.used_bytes);
    }
    volumeHistory = [];
    for (const [system, buckets] of perSystem) {
      const lastUsed = new Map();
      for (const b of [...buckets.keys()].sort((a, b2) => a - b2)) {
        const c = buckets.get(b);
        let tput = null;
        for (const [, [sum, n]] of c.tput) tput = (tput || 0) + sum / n;
        for (const [id, used] of c.used) lastUsed.set(id, used);
        const used = lastUsed.size ? [...lastUsed.values()].reduce((a, x) => a + x, 0) : null;
        volumeHistory.push({ time: b * 1000, system, tput, used });
      }
    }
    renderVolumeHistory();
    tputNote.textContent = failed ? 'Some volumes have no history: ' + failed.message
      : `${results.length} volumes, ${grain >= 3600 ? grain / 3600 + ' h' : grain / 60 + ' min'} buckets.`;
  }

  function renderVolumeHistory() {
    const showUsed = storageMetric.value === 'used';
    const rows = volumeHistory.filter((r) => (showUsed ? r.used : r.tput) != null);
    const p = pivot(rows, { groupOf: (r) => r.system, valueOf: (r) => (showUsed ? r.used : r.tput) });
    tputChart.yFormat = showUsed ? fmtBytes : fmtRate;
    tputChart.update(p.names.map((n, i) => ({ label: n + (showUsed ? ' used' : ''), color: PALETTE[i % PALETTE.length] })), [p.xs, ...(showUsed ? fillForward(p.ys) : p.ys)], { empty: !p.xs.length });
  }

  function setRange(secs) {
    range = secs;
    prefs.set('range', secs);
    for (const b of rangeGroup.querySelectorAll('button')) b.setAttribute('aria-checked', String(Number(b.dataset.range) === secs));
    loadHistory();
    loadVolumeHistory();
  }
  rangeGroup.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const i = RANGES.findIndex(([, s]) => s === range);
    const next = RANGES[(i + (e.key === 'ArrowRight' ? 1 : RANGES.length - 1)) % RANGES.length][1];
    setRange(next);
    rangeGroup.querySelector(`[data-range="${next}"]`).focus();
  });

  // ---- Subscriptions -----------------------------------------------------------------------
  let historyStarted = false;
  unsubs.push(store.subscribe('sources', (rows) => {
    const kube = rows.filter((s) => s.kind === 'kubernetes');
    const names = kube.map((s) => s.name);
    const prev = sourceSelect.value || source;
    clear(sourceSelect, h('option', { value: '' }, 'All clusters'), names.map((n) => h('option', { value: n }, n)));
    if (!source || (!names.includes(source) && source !== '')) source = names[0] || '';
    sourceSelect.value = names.includes(prev) ? prev : source;
    source = sourceSelect.value;
    if (!historyStarted) {
      historyStarted = true;
      loadHistory();
      store.ensure('volumes').then(loadVolumeHistory, () => {});
    }
  }));
  sourceSelect.addEventListener('change', () => {
    source = sourceSelect.value;
    prefs.set('gpuSource', source);
    renderProjects(store.rows('projects'));
    whatIf.render(store.rows('projects'));
    renderIdle(store.rows('jobs'));
    loadHistory();
  });

  let firstProjects = true;
  unsubs.push(store.subscribe('projects', (rows, changed, err) => {
    if (err) { clear(quotaList, errorBox(err)); return; }
    renderProjects(rows);
    whatIf.render(rows);
    if ((!firstProjects && changed) || (firstProjects && historyLoaded)) appendLivePoint(rows);
    firstProjects = false;
  }));

  function renderIdle(rows) {
    const idle = rows.filter((j) => (!source || j.source === source) && j.status === 'running' && j.gpus_allocated > 0 && j.gpu_utilization != null && j.gpu_utilization < IDLE_UTILIZATION);
    idleTable.setRows(idle);
    const gpus = idle.reduce((s, j) => s + j.gpus_allocated, 0);
    kpi('idle', 'Idle allocated GPUs', fmtGpus(gpus), `${idle.length} job${idle.length === 1 ? '' : 's'} below ${IDLE_UTILIZATION} %`, gpus ? 'warn' : '');
  }
  unsubs.push(store.subscribe('jobs', (rows, changed, err) => {
    if (err) { idleCard.body.prepend(errorBox(err)); return; }
    renderIdle(rows);
  }));

  let throughputBySource = new Map();
  function renderStorage() {
    const vols = store.rows('volumes');
    const bySource = new Map();
    for (const v of vols) {
      const s = bySource.get(v.source) || { used: 0, size: 0, count: 0 };
      // An offline volume reports no space (used_bytes null): it counts in neither total. The
      // size is the active file system's (usable_bytes: size less snapshot reserve), as % used.
      if (v.used_bytes != null) {
        s.used += v.used_bytes;
        s.size += v.usable_bytes ?? v.size_bytes ?? 0;
      }
      s.count++;
      bySource.set(v.source, s);
    }
    const names = [...bySource.keys()].sort();
    clear(storageList, names.length ? names.map((n) => {
      const s = bySource.get(n);
      const pct = s.size ? (s.used / s.size) * 100 : 0;
      return h('div', { class: 'bar-row', dataset: { key: n } },
        h('span', { class: 'bar-label' }, n, h('small', { class: 'muted' }, ` ${s.count} volumes`)),
        meter({ value: s.used, max: s.size, warnAt: 85, label: `${n}: ${fmtBytes(s.used)} used of ${fmtBytes(s.size)} usable` }),
        h('span', { class: 'bar-value' }, `${fmtBytes(s.used)} / ${fmtBytes(s.size)}`),
        h('span', { class: 'bar-extra' }, fmtPct(pct), throughputBySource.has(n) ? h('small', { class: 'muted' }, ' · ' + fmtRate(throughputBySource.get(n))) : null));
    }) : h('p', { class: 'empty' }, 'No storage systems.'));
    const used = names.reduce((a, n) => a + bySource.get(n).used, 0);
    const size = names.reduce((a, n) => a + bySource.get(n).size, 0);
    kpi('storage', 'Storage used', fmtBytes(used), `of ${fmtBytes(size)} in ${names.length} systems`);
  }
  unsubs.push(store.subscribe('volumes', (rows, changed, err) => { if (!err) renderStorage(); }));
  unsubs.push(store.subscribe('service-levels', (rows) => {
    throughputBySource = new Map();
    for (const r of rows) if (r.observed_mibps != null) throughputBySource.set(r.source, (throughputBySource.get(r.source) || 0) + r.observed_mibps * 1048576);
    renderStorage();
  }));

  // A target is published from the configuration before its cluster's cache poll has seen its
  // PVC: capacity and use are unknown then, not 0 B (the desktop shows "connecting…" likewise).
  // After that poll the PVC has a phase, or the target a problem (PVC missing, poll failed).
  const targetLoading = (t) => !t.pvc_phase && !t.problem;
  unsubs.push(store.subscribe('cache-targets', (rows, changed, err) => {
    if (err) { clear(targetList, errorBox(err)); return; }
    clear(targetList, rows.length ? rows.sort((a, b) => a.name.localeCompare(b.name)).map((t) => {
      if (targetLoading(t)) {
        return h('div', { class: 'bar-row loading', dataset: { key: rowKey(t) } },
          h('span', { class: 'bar-label' }, t.name, h('small', { class: 'muted' }, ` ${t.source}`)),
          meter({ value: 0, max: 1, label: `${t.name}: loading` }),
          h('span', { class: 'bar-value muted' }, 'Loading…'),
          h('span', { class: 'bar-extra muted' }, 'connecting'));
      }
      const pct = t.capacity_bytes ? (t.used_bytes / t.capacity_bytes) * 100 : 0;
      return h('div', { class: 'bar-row', dataset: { key: rowKey(t) } },
        h('span', { class: 'bar-label' }, t.name, h('small', { class: 'muted' }, ` ${t.volume}`)),
        meter({ value: t.used_bytes, max: t.capacity_bytes, warnAt: t.high_watermark_percent, label: `${t.name}: ${fmtBytes(t.used_bytes)} of ${fmtBytes(t.capacity_bytes)}` }),
        h('span', { class: 'bar-value' }, `${fmtBytes(t.used_bytes)} / ${fmtBytes(t.capacity_bytes)}`),
        h('span', { class: 'bar-extra' }, `${fmtPct(pct)} · ${fmtNum(t.cached_commits)} commits`, t.problem ? h('small', { class: 'bad-text' }, ' ' + t.problem) : null));
    }) : h('p', { class: 'empty' }, 'No cache targets configured.'));
    const waiting = rows.filter(targetLoading);
    if (rows.length && waiting.length === rows.length) {
      kpi('cache', 'Cached datasets', '…', `Loading ${[...new Set(waiting.map((t) => t.source))].join(', ')}…`, 'loading');
      return;
    }
    const cached = rows.reduce((a, t) => a + (t.cached_bytes || 0), 0);
    kpi('cache', 'Cached datasets', fmtBytes(cached), `${rows.reduce((a, t) => a + (t.cached_commits || 0), 0)} commits on ${rows.length} targets`);
  }));
  unsubs.push(store.subscribe('caches', (rows, changed, err) => {
    if (!err) cachesTable.setRows(rows, changed);
  }));

  return () => {
    clearTimeout(historyTimer);
    unsubs.forEach((u) => u());
    allocChart.destroy();
    utilChart.destroy();
    tputChart.destroy();
  };
}
