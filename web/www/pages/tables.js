// Datasets, Jobs, Service levels and Audit: tables kept live by the feed; operators get action
// buttons (preview -> confirm -> run), viewers see the same tables read-only.
import * as api from '../api.js';
import { h, clear, fmtBytes, fmtGpus, fmtPct, fmtNum, fmtTime, fmtAgo, fmtMibps, fmtMoney, chip, statusKind, shortId, rowKey, label, failingReason, labelWords, meter, UNKNOWN } from '../util.js';
import { DataTable, card, errorBox } from '../table.js';
import { actionButton, openAction } from '../actions.js';
import { fieldColumns } from '../fields.js';

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
  // The hub header of TR-4841 (as the desktop's Datasets page shows it), from the same rows.
  const hub = h('div', { class: 'kpis hub-header', role: 'list', id: 'hub-header', 'aria-label': 'Dataset hub' });
  const grid = h('div', { class: 'grid' });
  main.append(hub, grid);
  function renderHub() {
    const datasets = store.rows('datasets');
    const targets = store.rows('cache-targets');
    const size = datasets.reduce((a, d) => a + (d.size_bytes || 0), 0);
    const connected = targets.filter((t) => !t.problem).length;
    const cached = targets.reduce((a, t) => a + (t.cached_bytes || 0), 0);
    const capacity = targets.reduce((a, t) => a + (t.capacity_bytes || 0), 0);
    const commits = datasets.reduce((a, d) => a + (d.commits || 0), 0);
    const tile = (id, l, v, d, extra = null) => h('div', { class: 'kpi', role: 'listitem', id: 'hub-' + id },
      h('span', { class: 'kpi-label' }, l), h('span', { class: 'kpi-value' }, v), extra, h('span', { class: 'kpi-detail' }, d));
    clear(hub,
      tile('datasets', 'Datasets', fmtNum(datasets.length), `${fmtNum(commits)} commit${commits === 1 ? '' : 's'}`),
      tile('size', 'Size', fmtBytes(size), 'head commits, all datasets'),
      tile('nfs', 'NFS connected', fmtNum(connected), `of ${fmtNum(targets.length)} cache target${targets.length === 1 ? '' : 's'}`),
      tile('cached', 'Used by cached commits', `${fmtBytes(cached)} / ${fmtBytes(capacity)}`, capacity ? (cached > 0 && cached / capacity < 0.001 ? '< 0.1 %' : fmtPct((cached / capacity) * 100, 1)) + ' of cache capacity' : 'no cache target',
        capacity ? meter({ value: cached, max: capacity, label: 'Used by cached commits' }) : null));
  }
  unsubs.push(store.subscribe('datasets', renderHub));
  unsubs.push(store.subscribe('cache-targets', renderHub));
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
      { key: 'source', label: 'Source', narrow: false },
      { key: 'kind', label: 'Kind', value: (r) => label(r.kind) },
      { key: 'location', label: 'Location', narrow: false },
      { key: 'commits', label: 'Commits', narrow: false, align: 'right' },
      { key: 'cached_commits', label: 'Cached', align: 'right' },
      { key: 'objects', label: 'Objects', narrow: false, align: 'right', render: (r) => (r.objects == null ? h('span', { title: 'A volume: the source reports its used bytes, not objects' }, UNKNOWN) : fmtNum(r.objects)) },
      { key: 'size_bytes', label: 'Size', align: 'right', render: (r) => fmtBytes(r.size_bytes) },
      { key: 'last_activity', label: 'Last activity', narrow: false, render: (r) => h('span', { title: fmtTime(r.last_activity) }, fmtAgo(r.last_activity)) },
    ],
    actions: ctx.canAct ? (r) => [
      actionButton('Commit', {
        title: `Commit dataset ${r.name}`,
        what: `dataset ${r.name}`,
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
      { key: 'author', label: 'Author', narrow: false },
      { key: 'objects', label: 'Objects', narrow: false, align: 'right', render: (r) => (r.objects == null ? h('span', { title: 'The source does not report objects for a snapshot' }, UNKNOWN) : fmtNum(r.objects)) },
      { key: 'bytes', label: 'Size', align: 'right', render: (r) => (r.bytes == null ? h('span', { title: 'The source does not report the size of a snapshot' }, UNKNOWN) : fmtBytes(r.bytes)) },
      { key: 'cached_on', label: 'Cached on', narrow: false, value: (r) => (r.cached_on || []).join(', ') },
    ],
    actions: ctx.canAct ? (r) => [
      h('button', { type: 'button', class: 'btn small', 'aria-label': `Cache on… commit ${shortId(r.id)}`, onclick: () => cacheCommit(r) }, 'Cache on…'),
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
      { key: 'target', label: 'Target', narrow: false },
      { key: 'state', label: 'State', value: (r) => label(r.state), render: (r) => chip(label(r.state), statusKind(r.state)) },
      { key: 'progress_percent', label: 'Loaded', narrow: false, align: 'right', render: (r) => fmtPct(r.progress_percent) },
      { key: 'bytes_total', label: 'Size', align: 'right', render: (r) => fmtBytes(r.bytes_total) },
      { key: 'used_by', label: 'Used by', narrow: false, value: (r) => (r.used_by || []).join(', ') },
      { key: 'last_used', label: 'Last used', narrow: false, render: (r) => fmtAgo(r.last_used) },
      { key: 'evict_at', label: 'Eviction', narrow: false, render: (r) => (r.evict_at ? h('span', { title: r.evict_reason }, fmtTime(r.evict_at)) : '—') },
    ],
    actions: ctx.canAct ? (r) => [
      actionButton('Evict', {
        title: `Evict ${r.dataset} @ ${shortId(r.commit)} from ${r.target}`,
        what: `${r.dataset} ${shortId(r.commit)} from ${r.target}`,
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
// A job's state as Headlamp and Lens show it: a container that cannot start or keeps failing
// (ImagePullBackOff, CrashLoopBackOff, OOMKilled...) is red with its reason, whatever the phase.
function jobState(r) {
  const why = r.waiting_reason || r.pending_reason || '';
  const failing = failingReason(why);
  if (failing) return { text: failing, kind: 'bad', why };
  return { text: label(r.status), kind: statusKind(r.status), why };
}
function jobStatusCell(r) {
  const s = jobState(r);
  const detail = s.why && s.why !== s.text ? s.why.replace(new RegExp('^' + s.text + ':\\s*'), '') : '';
  return h('span', { class: 'job-status', title: s.why || null }, chip(s.text, s.kind), detail ? h('small', { class: 'muted' }, ' ' + detail) : null);
}
// The diagnosis quotes ONTAP/Azure figures in MB/s (10^6 B/s): shown in the console's binary unit.
function fmtMbps(mbps) {
  return fmtMibps(mbps * 1e6 / 1048576);
}

const JOB_TYPES = { train: 'Train', interactive: 'Interactive' };

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
      const findings = (d.findings || []).map((f) => h('li', { class: 'diagnosis-finding', 'data-rule': f.rule }, labelWords(f.summary),
        f.action ? h('div', { class: 'muted' }, f.action) : null));
      const evidence = d.status === 'running' ? h('p', { class: 'muted' }, [
        `GPU ${d.gpu_utilization == null ? 'unknown' : d.gpu_utilization + ' %'}`,
        d.volume ? ` · volume ${d.volume}: ${d.throughput_mbps == null ? 'unknown' : fmtMbps(d.throughput_mbps)}` + (d.cap_mbps != null ? ` of ${fmtMbps(d.cap_mbps)} cap` : '') + (d.latency_ms != null ? `, ${d.latency_ms} ms` : '') : '',
        d.cached ? ` · reads cached commit ${d.cached_commit}` : '',
      ].join('')) : null;
      clear(why.body,
        h('p', { id: 'job-diagnosis-verdict' }, (failingReason(d.headline) || (d.findings || []).some((f) => f.rule === 'image_pull') ? chip('Cannot start', 'bad') : chip(label(d.verdict), d.verdict === 'compute_bound' ? 'good' : 'warn')), ' ', h('strong', {}, labelWords(d.headline))),
        evidence,
        findings.length ? h('ol', {}, findings) : null,
        d.next_action ? h('p', {}, h('strong', {}, 'Next: '), d.next_action) : null);
    } catch (e) {
      if (mine === asked) clear(why.body, errorBox(e));
    }
  }
  // The columns are the server's (GET /api/v1/fields/jobs), in the order and with the titles of
  // the desktop's Jobs table and `strata get jobs`; a few are drawn their own way.
  const custom = {
    status: { value: (r) => jobState(r).text, render: (r) => jobStatusCell(r) },
    // kubectl's and the desktop's words (the field list's text), not the API's.
    type: { value: (r) => JOB_TYPES[r.type] || label(r.type), render: (r) => JOB_TYPES[r.type] || label(r.type) },
    gpus_requested: {
      render: (r) => h('span', { title: `${fmtGpus(r.gpus_allocated)} allocated of ${fmtGpus(r.gpus_requested)} requested` },
        `${fmtGpus(r.gpus_allocated)} / ${fmtGpus(r.gpus_requested)}`),
    },
  };
  let gone = false;
  api.get('fields/jobs').then(({ fields }) => {
    if (gone) return;
    const table = new DataTable(c.body, {
      caption: 'Jobs', rowKey, sort: { key: 'project' },
      onRowClick: (r) => explain(r),
      columns: fieldColumns(fields, custom),
      actions: ctx.canAct ? (r) => [
        actionButton('Delete', {
          title: `Delete job ${r.name}`,
          what: `job ${r.name}`,
          request: { kind: 'job.delete', source: r.source, job: `${r.namespace}/${r.name}`, project: r.project },
        }, { danger: true }),
      ] : null,
    });
    unsubs.push(ctx.store.subscribe('jobs', (rows, changed, e) => {
      if (e) { clear(err, errorBox(e)); return; }
      clear(err);
      table.setRows(rows, changed);
      const by = {};
      for (const j of rows) {
        const st = jobState(j);
        const t = st.kind === 'bad' && st.text !== label(j.status) ? st.text : st.text.toLowerCase(); // reasons keep their case
        by[t] = (by[t] || 0) + 1;
      }
      const gpus = rows.reduce((a, j) => a + (j.gpus_allocated || 0), 0);
      clear(summary, [['Jobs', fmtNum(rows.length), Object.entries(by).map(([k, v]) => `${v} ${k}`).join(' · ')],
        ['GPUs held', fmtGpus(gpus), 'by running jobs']].map(([l, v, d]) =>
        h('div', { class: 'kpi', role: 'listitem' }, h('span', { class: 'kpi-label' }, l), h('span', { class: 'kpi-value' }, v), h('span', { class: 'kpi-detail' }, d))));
    }));
  }, (e) => { if (!gone) clear(err, errorBox(e)); });
  return () => { gone = true; unsubs.forEach((u) => u()); };
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
      { key: 'source', label: 'System', narrow: false, render: (r) => h('span', { title: label(r.kind) }, r.source) },
      { key: 'level', label: 'Level', narrow: false, render: (r) => h('span', { title: r.level_detail }, r.level || 'None') },
      { key: 'observed_mibps', label: 'Now', align: 'right', render: (r) => fmtMibps(r.observed_mibps) },
      { key: 'p95_mibps', label: 'p95 (24 h)', narrow: false, align: 'right', render: (r) => fmtMibps(r.p95_mibps) },
      // One unit per column: the throughput cap, then the IOPS cap.
      { key: 'cap_mibps', label: 'Throughput cap', align: 'right', render: (r) => (r.cap_mibps == null ? '—' : fmtMibps(r.cap_mibps)) },
      { key: 'cap_iops', label: 'IOPS cap', narrow: false, align: 'right', render: (r) => (r.cap_iops == null ? '—' : fmtNum(r.cap_iops)) },
      { key: 'cap_used_percent', label: 'Of cap', align: 'right', render: (r) => (r.cap_used_percent == null ? '—' : chip(fmtPct(r.cap_used_percent), r.cap_used_percent >= 90 ? 'bad' : r.cap_used_percent >= 70 ? 'warn' : 'good')) },
      { key: 'flag', label: 'Flag', narrow: false, value: (r) => label(r.flag), render: (r) => (r.flag ? h('span', { title: r.flag_reason }, chip(label(r.flag), 'warn')) : '') },
      { key: 'cost_per_month', label: 'Cost / month', narrow: false, align: 'right', render: (r) => fmtMoney(r.cost_per_month, r.currency) },
    ],
    actions: ctx.canAct ? (r) => [
      actionButton('Change level', {
        title: `Change the service level of ${r.volume}`,
        what: `of ${r.volume}`,
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
const ACTION_LABELS = {
  'snapshot.create': 'Create snapshot', 'snapshot.delete': 'Delete snapshot', 'snapshot.restore': 'Restore snapshot',
  'volume.clone': 'Clone volume', 'volume.service_level': 'Change service level', 'job.submit': 'Submit job',
  'job.delete': 'Delete job', 'project.quota': 'Change quota', 'dataset.commit': 'Commit dataset',
  'cache.load': 'Cache commit', 'cache.evict': 'Evict commit', 'user.add': 'Add user', 'user.remove': 'Remove user',
};
// "job.delete" -> "Delete job" (the raw kind stays in the tooltip and the filter).
export function actionLabel(kind) {
  if (!kind) return '';
  if (ACTION_LABELS[kind]) return ACTION_LABELS[kind];
  const [what, verb] = String(kind).split('.');
  return verb ? label(verb.replace(/^./, (c) => c.toLowerCase())) + ' ' + String(what).replace(/_/g, ' ') : label(kind);
}
/// One row per action: the log keeps an action's "started" entry and its outcome; once the
/// outcome is in, the outcome stands for both (as the Azure activity log shows one operation).
export function oneRowPerAction(rows) {
  const finished = new Set(rows.filter((r) => r.action_id && r.outcome !== 'started').map((r) => r.action_id));
  return rows.filter((r) => !(r.outcome === 'started' && r.action_id && finished.has(r.action_id)));
}

export function mountAudit(main, ctx) {
  head(main, 'Audit log', ctx);
  const c = card('Actions', { id: 'card-audit', wide: true, subtitle: 'who did what, from the desktop, the CLI, schedules and the web: one row per action, its outcome once it has one' });
  const err = h('div');
  c.body.append(err);
  main.append(h('div', { class: 'grid' }, c.el));
  const table = new DataTable(c.body, {
    caption: 'Audit log', rowKey: (r) => `${r.action_id || ''}/${r.time}/${r.outcome}`, sort: { key: 'time', dir: -1 },
    emptyText: 'No action yet.',
    columns: [
      { key: 'time', label: 'Time', render: (r) => fmtTime(r.time) },
      { key: 'user', label: 'User', narrow: false },
      { key: 'action', label: 'Action', value: (r) => actionLabel(r.action), render: (r) => h('span', { title: r.action }, actionLabel(r.action)) },
      { key: 'source', label: 'Source', narrow: false },
      { key: 'target', label: 'Target' },
      { key: 'from', label: 'Change', narrow: false, value: (r) => (r.from || r.to ? `${r.from || '—'} → ${r.to || '—'}` : '') },
      { key: 'outcome', label: 'Outcome', value: (r) => label(r.outcome), render: (r) => chip(label(r.outcome), statusKind(r.outcome)) },
      { key: 'message', label: 'Message', narrow: false },
    ],
  });
  let timer = null;
  async function load() {
    clearTimeout(timer);
    try {
      table.setRows(oneRowPerAction((await api.get('audit', { limit: 500 })) || []));
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
