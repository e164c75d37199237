// Datasets, Jobs, Service levels and Audit: tables kept live by the feed; operators get action
// buttons (preview -> confirm -> run), viewers see the same tables read-only.
import * as api from '../api.js';
import { h, clear, fmtBytes, fmtGpus, fmtPct, fmtNum, fmtDuration, fmtTime, fmtAgo, chip, statusKind, shortId, rowKey } from '../util.js';
import { DataTable, card, errorBox } from '../table.js';
import { actionButton, openAction } from '../actions.js';

function head(main, title, ctx, tools = null) {
  main.append(h('div', { class: 'page-head' }, h('h1', {}, title),
    h('div', { class: 'page-tools' }, tools, ctx.canAct ? null : h('span', { class: 'chip', id: 'read-only' }, 'Read-only (viewer)'))));
}

function subscribeTable(ctx, resource, table, unsubs, errBox) {
  unsubs.push(ctx.store.subscribe(resource, (rows, changed, err) => {
    if (err) { clear(errBox, errorBox(err)); return; }
    clear(errBox);
    table.setRows(rows, changed);
  }));
}

// ---- Datasets ------------------------------------------------------------------------------
export function mountDatasets(main, ctx) {
  const { store } = ctx;
  const unsubs = [];
  head(main, 'Datasets', ctx);
  const grid = h('div', { class: 'grid' });
  main.append(grid);
  const dsCard = card('Datasets', { id: 'card-datasets', wide: true, subtitle: 'select a dataset for its commits' });
  const commitsCard = card('Commits', { id: 'card-commits', wide: true });
  const cachesCard = card('Cached commits', { id: 'card-caches', wide: true });
  grid.append(dsCard.el, commitsCard.el, cachesCard.el);
  const err = h('div');
  dsCard.body.append(err);
  let selected = null;

  const dsTable = new DataTable(dsCard.body, {
    caption: 'Datasets', rowKey, sort: { key: 'name' },
    onRowClick: (r) => select(r),
    columns: [
      { key: 'name', label: 'Dataset' },
      { key: 'source', label: 'Source' },
      { key: 'kind', label: 'Kind' },
      { key: 'commits', label: 'Commits', align: 'right' },
      { key: 'cached_commits', label: 'Cached', align: 'right' },
      { key: 'objects', label: 'Objects', align: 'right', render: (r) => fmtNum(r.objects) },
      { key: 'size_bytes', label: 'Size', align: 'right', render: (r) => fmtBytes(r.size_bytes) },
      { key: 'last_activity', label: 'Last activity', render: (r) => h('span', { title: fmtTime(r.last_activity) }, fmtAgo(r.last_activity)) },
    ],
    actions: ctx.canAct ? (r) => [
      actionButton('Commit', {
        title: `Commit dataset ${r.name}`,
        ariaLabel: `Commit dataset ${r.name}`,
        description: 'Writes a commit manifest of the dataset\'s current objects (pinned versions).',
        request: { kind: 'dataset.commit', source: r.source, dataset_id: r.id, dataset_source: r.source },
        fields: [{ name: 'comment', label: 'Message', value: '', placeholder: 'What changed', required: true }],
      }),
    ] : null,
  });
  subscribeTable(ctx, 'datasets', dsTable, unsubs, err);
  function select(r) {
    selected = r;
    for (const [k, entry] of dsTable.trs) {
      entry.tr.classList.toggle('selected', k === rowKey(r));
      entry.tr.setAttribute('aria-selected', String(k === rowKey(r)));
    }
    renderCommits();
  }
  // Start with the most recently active dataset's commits.
  unsubs.push(store.subscribe('datasets', (rows) => {
    if (selected || !rows.length) return;
    select([...rows].sort((a, b) => String(b.last_activity).localeCompare(String(a.last_activity)))[0]);
  }));

  const commitsTable = new DataTable(commitsCard.body, {
    caption: 'Commits', rowKey, sort: { key: 'time', dir: -1 },
    emptyText: 'Select a dataset above.',
    columns: [
      { key: 'time', label: 'Time', render: (r) => fmtTime(r.time) },
      { key: 'id', label: 'Commit', render: (r) => h('code', { title: r.id }, shortId(r.id)) },
      { key: 'message', label: 'Message' },
      { key: 'author', label: 'Author' },
      { key: 'objects', label: 'Objects', align: 'right', render: (r) => fmtNum(r.objects) },
      { key: 'bytes', label: 'Size', align: 'right', render: (r) => fmtBytes(r.bytes) },
      { key: 'cached_on', label: 'Cached on', value: (r) => (r.cached_on || []).join(', ') },
    ],
    actions: ctx.canAct ? (r) => [
      h('button', { type: 'button', class: 'btn small', 'aria-label': `Cache commit ${shortId(r.id)}`, onclick: () => cacheCommit(r) }, 'Cache on…'),
    ] : null,
  });

  function datasetOf(commit) {
    return store.rows('datasets').find((d) => d.source === commit.source && d.name === commit.dataset);
  }

  function cacheCommit(commit) {
    const targets = store.rows('cache-targets');
    const ds = datasetOf(commit);
    if (ds?.kind === 'ontap_volume') {
      // An ONTAP file dataset's commit is a snapshot: it is cached as a FlexClone of it.
      openAction({
        title: `Cache ${commit.dataset} @ ${commit.message || shortId(commit.id)} as a FlexClone`,
        description: 'Creates a FlexClone volume from the commit\'s snapshot: no copy, ready at once.',
        request: { kind: 'volume.clone', source: ds.source, volume_id: ds.id, snapshot_id: commit.id },
        fields: [{ name: 'name', label: 'Clone volume name', value: `${commit.dataset}_${String(commit.message || shortId(commit.id)).replace(/[^A-Za-z0-9_]/g, '_')}`.slice(0, 60), required: true }],
      });
      return;
    }
    openAction({
      title: `Cache ${commit.dataset} @ ${shortId(commit.id)}`,
      description: 'Loads the commit\'s exact object versions onto a cache target next to the GPUs.',
      request: { kind: 'cache.load', dataset_source: commit.source, dataset_id: ds?.id ?? commit.dataset, commit_id: commit.id },
      fields: [{ name: 'target', label: 'Cache target', type: 'select', options: targets.map((t) => [`${t.source}|${t.name}`, `${t.name} (${t.source}, ${fmtBytes(t.capacity_bytes - t.used_bytes)} free)`]), required: true }],
      map: (r) => {
        const [source, name] = String(r.target).split('|');
        const out = { ...r, source, cache_target: name };
        delete out.target;
        return out;
      },
    });
  }

  function renderCommits() {
    const rows = selected ? store.rows('commits').filter((c) => c.source === selected.source && c.dataset === selected.name) : [];
    commitsCard.el.querySelector('h2').textContent = selected ? `Commits of ${selected.name}` : 'Commits';
    commitsTable.setRows(rows);
  }
  unsubs.push(store.subscribe('commits', () => renderCommits()));
  store.ensure('cache-targets').catch(() => {});

  const cachesErr = h('div');
  cachesCard.body.append(cachesErr);
  const cachesTable = new DataTable(cachesCard.body, {
    caption: 'Cached commits', rowKey, sort: { key: 'dataset' },
    emptyText: 'No commit is cached.',
    columns: [
      { key: 'dataset', label: 'Dataset' },
      { key: 'commit', label: 'Commit', render: (r) => h('code', { title: r.commit }, shortId(r.commit)) },
      { key: 'target', label: 'Target' },
      { key: 'state', label: 'State', render: (r) => chip(r.state, statusKind(r.state)) },
      { key: 'progress_percent', label: 'Loaded', align: 'right', render: (r) => fmtPct(r.progress_percent) },
      { key: 'bytes_total', label: 'Size', align: 'right', render: (r) => fmtBytes(r.bytes_total) },
      { key: 'used_by', label: 'Used by', value: (r) => (r.used_by || []).join(', ') },
      { key: 'last_used', label: 'Last used', render: (r) => fmtAgo(r.last_used) },
      { key: 'evict_at', label: 'Eviction', render: (r) => (r.evict_at ? h('span', { title: r.evict_reason }, fmtTime(r.evict_at)) : '–') },
    ],
    actions: ctx.canAct ? (r) => [
      actionButton('Evict', {
        title: `Evict ${r.dataset} @ ${shortId(r.commit)} from ${r.target}`,
        ariaLabel: `Evict ${r.dataset} ${shortId(r.commit)} from ${r.target}`,
        request: (() => {
          const ds = store.rows('datasets').find((d) => d.name === r.dataset);
          return { kind: 'cache.evict', source: r.source, cache_target: r.target, commit_id: r.commit, dataset_source: ds?.source, dataset_id: ds?.id ?? r.dataset };
        })(),
      }, { danger: true }),
    ] : null,
  });
  subscribeTable(ctx, 'caches', cachesTable, unsubs, cachesErr);
  return () => unsubs.forEach((u) => u());
}

// ---- Jobs ----------------------------------------------------------------------------------
export function mountJobs(main, ctx) {
  const unsubs = [];
  const summary = h('div', { class: 'kpis', role: 'list', id: 'job-kpis' });
  head(main, 'Jobs', ctx);
  main.append(summary);
  const c = card('Jobs', { id: 'card-jobs', wide: true });
  const err = h('div');
  c.body.append(err);
  // "Why pending? / Why idle?": the selected job's diagnosis (the JSON of `strata why -o json`).
  const why = card('Why?', { id: 'card-job-diagnosis', wide: true, subtitle: 'select a job' });
  main.append(h('div', { class: 'grid' }, c.el, why.el));
  let asked = 0;
  async function explain(r) {
    const mine = ++asked;
    clear(why.body, h('p', { class: 'muted' }, `Diagnosing ${r.namespace}/${r.name}…`));
    try {
      const d = await api.get(`jobs/${encodeURIComponent(r.source)}/${encodeURIComponent(r.namespace)}/${encodeURIComponent(r.name)}/diagnosis`);
      if (mine !== asked) return;
      const findings = (d.findings || []).map((f) => h('li', { class: 'diagnosis-finding', 'data-rule': f.rule }, f.summary,
        f.action ? h('div', { class: 'muted' }, f.action) : null));
      const evidence = d.status === 'running' ? h('p', { class: 'muted' }, [
        `GPU ${d.gpu_utilization == null ? 'unknown' : d.gpu_utilization + ' %'}`,
        d.volume ? ` · volume ${d.volume}: ${d.throughput_mbps ?? '?'} MB/s` + (d.cap_mbps != null ? ` of ${d.cap_mbps} MB/s cap` : '') + (d.latency_ms != null ? `, ${d.latency_ms} ms` : '') : '',
        d.cached ? ` · reads cached commit ${d.cached_commit}` : '',
      ].join('')) : null;
      clear(why.body,
        h('p', { id: 'job-diagnosis-verdict' }, chip(d.verdict.replace(/_/g, ' '), d.verdict === 'compute_bound' ? 'good' : 'warn'), ' ', h('strong', {}, d.headline)),
        evidence,
        findings.length ? h('ol', {}, findings) : null,
        d.next_action ? h('p', {}, h('strong', {}, 'Next: '), d.next_action) : null);
    } catch (e) {
      if (mine === asked) clear(why.body, errorBox(e));
    }
  }
  const table = new DataTable(c.body, {
    caption: 'Jobs', rowKey, sort: { key: 'project' },
    onRowClick: (r) => explain(r),
    columns: [
      { key: 'name', label: 'Job' },
      { key: 'project', label: 'Project' },
      { key: 'user', label: 'User' },
      { key: 'type', label: 'Type' },
      { key: 'status', label: 'Status', render: (r) => h('span', {}, chip(r.status, statusKind(r.status)), r.pending_reason ? h('small', { class: 'muted', title: r.pending_reason }, ' ' + r.pending_reason) : null) },
      { key: 'gpus_allocated', label: 'GPUs', align: 'right', render: (r) => `${fmtGpus(r.gpus_allocated)} / ${fmtGpus(r.gpus_requested)}` },
      { key: 'gpu_utilization', label: 'GPU util.', align: 'right', render: (r) => fmtPct(r.gpu_utilization) },
      { key: 'node', label: 'Node' },
      { key: 'age_seconds', label: 'Age', align: 'right', render: (r) => fmtDuration(r.age_seconds) },
      { key: 'source', label: 'Cluster' },
    ],
    actions: ctx.canAct ? (r) => [
      actionButton('Delete', {
        title: `Delete job ${r.name}`,
        ariaLabel: `Delete job ${r.name}`,
        request: { kind: 'job.delete', source: r.source, job: `${r.namespace}/${r.name}`, project: r.project },
      }, { danger: true }),
    ] : null,
  });
  unsubs.push(ctx.store.subscribe('jobs', (rows, changed, e) => {
    if (e) { clear(err, errorBox(e)); return; }
    table.setRows(rows, changed);
    const by = {};
    for (const j of rows) by[j.status] = (by[j.status] || 0) + 1;
    const gpus = rows.reduce((a, j) => a + (j.gpus_allocated || 0), 0);
    clear(summary, [['Jobs', fmtNum(rows.length), Object.entries(by).map(([k, v]) => `${v} ${k}`).join(' · ')],
      ['GPUs held', fmtGpus(gpus), 'by running jobs']].map(([l, v, d]) =>
      h('div', { class: 'kpi', role: 'listitem' }, h('span', { class: 'kpi-label' }, l), h('span', { class: 'kpi-value' }, v), h('span', { class: 'kpi-detail' }, d))));
  }));
  return () => unsubs.forEach((u) => u());
}

// ---- Service levels ------------------------------------------------------------------------
const ANF_LEVELS = ['Standard', 'Premium', 'Ultra'];

// The QoS policies in use on the volume's cluster (what an operator picks from), plus none.
function ontapPolicyField(ctx, r) {
  const policies = [...new Set(ctx.store.rows('service-levels')
    .filter((x) => x.source === r.source && x.container === r.container && x.kind !== 'azure' && x.level && x.level !== 'none').map((x) => x.level))].sort();
  const options = [...policies.map((p) => [p, p]), ['', 'none (remove the policy)']];
  const current = r.level && r.level !== 'none' ? r.level : '';
  return { name: 'level', label: 'QoS policy', type: 'select', options, value: options.find(([v]) => v !== current)?.[0] ?? '' };
}
export function mountServiceLevels(main, ctx) {
  const unsubs = [];
  head(main, 'Service levels', ctx);
  const c = card('Volumes by service level', { id: 'card-service-levels', wide: true, subtitle: 'throughput against the level\'s cap' });
  const err = h('div');
  c.body.append(err);
  main.append(h('div', { class: 'grid' }, c.el));
  const table = new DataTable(c.body, {
    caption: 'Service levels', rowKey, sort: { key: 'cap_used_percent', dir: -1 },
    columns: [
      { key: 'volume', label: 'Volume', render: (r) => h('span', { title: `${r.container}/${r.volume}` }, r.volume, h('small', { class: 'muted' }, ' ' + r.container)) },
      { key: 'source', label: 'System' },
      { key: 'level', label: 'Level', render: (r) => h('span', { title: r.level_detail }, r.level || 'none') },
      { key: 'observed_mibps', label: 'Now', align: 'right', render: (r) => (r.observed_mibps == null ? '–' : fmtNum(r.observed_mibps, 1) + ' MiB/s') },
      { key: 'p95_mibps', label: 'p95', align: 'right', render: (r) => (r.p95_mibps == null ? '–' : fmtNum(r.p95_mibps, 1) + ' MiB/s') },
      { key: 'cap_mibps', label: 'Cap', align: 'right', render: (r) => (r.cap_mibps == null ? (r.cap_iops ? fmtNum(r.cap_iops) + ' IOPS' : 'none') : fmtNum(r.cap_mibps, 1) + ' MiB/s') },
      { key: 'cap_used_percent', label: 'Of cap', align: 'right', render: (r) => (r.cap_used_percent == null ? '–' : chip(fmtPct(r.cap_used_percent), r.cap_used_percent >= 90 ? 'bad' : r.cap_used_percent >= 70 ? 'warn' : 'good')) },
      { key: 'flag', label: 'Flag', render: (r) => (r.flag ? h('span', { title: r.flag_reason }, chip(r.flag.replace(/_/g, ' '), 'warn')) : '') },
      { key: 'cost_per_month', label: 'Cost / month', align: 'right', render: (r) => (r.cost_per_month == null ? '–' : `${fmtNum(r.cost_per_month, 2)} ${r.currency || ''}`) },
    ],
    actions: ctx.canAct ? (r) => [
      actionButton('Change level', {
        title: `Change the service level of ${r.volume}`,
        ariaLabel: `Change the service level of ${r.volume}`,
        description: r.kind === 'azure' ? 'Moves the volume to a capacity pool of the chosen level (no downtime).' : 'Sets the volume\'s QoS policy group (policies of its SVM; none removes it).',
        request: { kind: 'volume.service_level', source: r.source, volume_id: r.volume_id },
        fields: [r.kind === 'azure'
          ? { name: 'level', label: 'Service level', type: 'select', options: ANF_LEVELS, value: ANF_LEVELS.find((l) => l !== r.level) }
          : ontapPolicyField(ctx, r)],
      }),
    ] : null,
  });
  subscribeTable(ctx, 'service-levels', table, unsubs, err);
  return () => unsubs.forEach((u) => u());
}

// ---- Audit ---------------------------------------------------------------------------------
export function mountAudit(main, ctx) {
  head(main, 'Audit log', ctx);
  const c = card('Actions', { id: 'card-audit', wide: true, subtitle: 'who did what, from the desktop, the CLI, schedules and the web' });
  const err = h('div');
  c.body.append(err);
  main.append(h('div', { class: 'grid' }, c.el));
  const table = new DataTable(c.body, {
    caption: 'Audit log', rowKey: (r) => `${r.action_id || ''}/${r.time}/${r.outcome}`, sort: { key: 'time', dir: -1 },
    emptyText: 'No action yet.',
    columns: [
      { key: 'time', label: 'Time', render: (r) => fmtTime(r.time) },
      { key: 'user', label: 'User' },
      { key: 'action', label: 'Action' },
      { key: 'source', label: 'Source' },
      { key: 'target', label: 'Target' },
      { key: 'from', label: 'Change', value: (r) => (r.from || r.to ? `${r.from || '–'} → ${r.to || '–'}` : '') },
      { key: 'outcome', label: 'Outcome', render: (r) => chip(r.outcome, statusKind(r.outcome)) },
      { key: 'message', label: 'Message' },
    ],
  });
  let timer = null;
  async function load() {
    clearTimeout(timer);
    try {
      table.setRows((await api.get('audit', { limit: 500 })) || []);
      clear(err);
    } catch (e) {
      clear(err, errorBox(e));
    }
    timer = setTimeout(load, 5000);
  }
  const onAction = () => load();
  window.addEventListener('strata:action', onAction);
  load();
  return () => { clearTimeout(timer); window.removeEventListener('strata:action', onAction); };
}
