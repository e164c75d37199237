// Chargeback: per project and calendar month (UTC), GPU-hours allocated and used, storage
// GiB-hours by tier and their cost from the rate card (GET /api/v1/chargeback, the core of
// `strata get chargeback`). Storage no project uses is its own line; hours without history are
// shown as missing, never as zero. A row opens the project's jobs, volumes and cached commits.
import * as api from '../api.js';
import { h, clear, chip, fmtHours, fmtMoney } from '../util.js';
import { DataTable, card, errorBox } from '../table.js';

const thisMonth = () => new Date().toISOString().slice(0, 7);
const hours = (n) => fmtHours(n ?? 0);


const lineKey = (r) => (r.line === 'unattributed' ? 'unattributed' : `${r.source}/${r.project}`);
const lineName = (r) => (r.line === 'unattributed' ? 'Unattributed storage' : r.project);

export function mount(main, ctx) {
  const { prefs } = ctx;
  let month = prefs.get('chargebackMonth', thisMonth());
  let report = null;
  let selected = null;

  const monthInput = h('input', { type: 'month', id: 'chargeback-month', value: month, max: thisMonth(), 'aria-label': 'Month (UTC)' });
  // The CSV finance gets from `strata get chargeback -o csv`, served by the server.
  const csvLink = h('a', { class: 'btn', id: 'chargeback-csv', download: '' }, 'Download CSV');
  const setCsvHref = () => { csvLink.href = '/api/v1/chargeback?' + new URLSearchParams({ month, format: 'csv' }); };
  setCsvHref();
  main.append(h('div', { class: 'page-head' }, h('h1', {}, 'Chargeback'),
    h('div', { class: 'page-tools' }, h('label', { for: 'chargeback-month', class: 'inline' }, 'Month'), monthInput, csvLink)));
  const kpis = h('div', { class: 'kpis', role: 'list', id: 'chargeback-kpis' });
  main.append(kpis);
  const grid = h('div', { class: 'grid' });
  main.append(grid);
  const linesCard = card('Per project', { id: 'card-chargeback', wide: true, subtitle: 'GPU-hours, storage GiB-hours and cost from the rate card' });
  const detailCard = card('Project detail', { id: 'card-chargeback-detail', wide: true });
  grid.append(linesCard.el, detailCard.el);
  detailCard.el.hidden = true;
  const summary = h('p', { class: 'muted small', id: 'chargeback-summary', 'aria-live': 'polite' });
  linesCard.body.append(summary);

  // Column words come with the report (one definition for the CLI, desktop and web), so the
  // table is built when the first one arrives.
  let table = null;
  let tfoot = null;
  const notes = h('ul', { class: 'muted small', id: 'chargeback-notes' });
  const tableSlot = h('div');
  linesCard.body.append(tableSlot, notes);
  const labelOf = (columns, key) => columns.find((c) => c.key === key)?.label || key;

  function ensureTable() {
    if (table) return;
    const label = (key) => labelOf(report.columns, key);
    table = new DataTable(tableSlot, {
      caption: 'Chargeback per project',
      rowKey: lineKey,
      filter: false,
      sort: { key: 'cost', dir: -1 },
      onRowClick: (r) => { selected = lineKey(r); renderDetail(); },
      columns: [
        { key: 'project', label: label('project'), value: lineName, render: (r) => h('span', {}, lineName(r), r.source ? h('small', { class: 'muted' }, ' ' + r.source) : null) },
        { key: 'gpu_hours_allocated', label: label('gpu_hours_allocated'), align: 'right', render: (r) => hours(r.gpu_hours_allocated) },
        { key: 'gpu_hours_used', label: label('gpu_hours_used'), align: 'right', narrow: false, render: (r) => hours(r.gpu_hours_used) },
        { key: 'storage_gib_hours', label: label('storage_gib_hours'), align: 'right', render: (r) => hours(r.storage_gib_hours) },
        { key: 'cost', label: label('cost'), align: 'right', render: (r) => fmtMoney(r.cost, r.currency) },
        { key: 'gpu_missing_hours', label: label('gpu_missing_hours'), align: 'right', narrow: false, render: (r) => (r.line === 'unattributed' ? '—' : missing(r.gpu_missing_hours)) },
        { key: 'storage_missing_hours', label: label('storage_missing_hours'), align: 'right', narrow: false, render: (r) => missing(r.storage_missing_hours) },
        { key: 'volumes', label: label('volumes'), align: 'right', narrow: false },
        { key: 'jobs', label: label('jobs'), align: 'right', narrow: false },
      ],
    });
    tfoot = h('tfoot');
    table.table.append(tfoot);
  }
  const missing = (n) => (n > 0 ? chip(hours(n), 'warn') : hours(0));

  function kpi(id, label, value, detail, kind = '') {
    return h('div', { class: 'kpi ' + kind, role: 'listitem', id: 'kpi-' + id },
      h('span', { class: 'kpi-label' }, label), h('span', { class: 'kpi-value' }, value), h('span', { class: 'kpi-detail' }, detail));
  }

  function render() {
    const t = report.total;
    const used = t.gpu_hours_allocated ? Math.round((100 * t.gpu_hours_used) / t.gpu_hours_allocated) : null;
    clear(kpis,
      kpi('cost', 'Cost', fmtMoney(t.cost, report.currency), `GPUs ${fmtMoney(t.gpu_cost, report.currency)}, storage ${fmtMoney(t.storage_cost, report.currency)}`),
      kpi('gpu', 'GPU-hours allocated', hours(t.gpu_hours_allocated), used == null ? 'no allocation' : `${used} % used (DCGM)`),
      kpi('storage', 'Storage GiB-hours', hours(t.storage_gib_hours), 'volumes provisioned, buckets stored'),
      kpi('missing', 'Hours without history', `GPU ${hours(t.gpu_missing_hours)} h, storage ${hours(t.storage_missing_hours)} h`, `at most, on a line, of the ${hours(report.hours)} h`, t.missing_hours > 0 ? 'warn' : ''));
    summary.textContent = `${report.coverage} Prices in ${report.currency} from the rate card. Select a line for its jobs and volumes.`;
    ensureTable();
    table.setRows(report.lines);
    clear(tfoot, h('tr', { class: 'total-row' },
      h('th', { scope: 'row' }, 'Total'),
      h('td', { class: 'num' }, hours(t.gpu_hours_allocated)),
      h('td', { class: 'num wide-only' }, hours(t.gpu_hours_used)),
      h('td', { class: 'num' }, hours(t.storage_gib_hours)),
      h('td', { class: 'num' }, fmtMoney(t.cost, report.currency)),
      h('td', { class: 'num wide-only' }, hours(t.gpu_missing_hours)),
      h('td', { class: 'num wide-only' }, hours(t.storage_missing_hours)),
      h('td', { class: 'num wide-only' }, String(t.volumes)),
      h('td', { class: 'num wide-only' }, String(t.jobs))));
    const unpriced = (t.unpriced || []).map((u) => (u === 'gpu' ? 'GPUs' : (report.tier_labels?.[u] || u)));
    clear(notes,
      t.missing_hours > 0 ? h('li', {}, 'Hours with no history (before it began, or while Strata did not poll) are counted as missing, not as zero.') : null,
      unpriced.length ? h('li', {}, `No price on the rate card for ${unpriced.join(', ')}: counted in hours, not in cost.`) : null,
      report.notes.map((n) => h('li', {}, n)));
    renderDetail();
  }

  function renderDetail() {
    const line = report?.lines.find((l) => lineKey(l) === selected);
    detailCard.el.hidden = !line;
    for (const tr of table.tbody.querySelectorAll('tr')) tr.classList.toggle('selected', tr.dataset.key === selected);
    if (!line) return;
    detailCard.el.querySelector('h2').textContent = line.line === 'unattributed' ? 'Unattributed storage' : `${line.project} on ${line.source}`;
    const body = detailCard.body;
    clear(body);
    const tiers = report.tiers.filter((x) => line[x.column] > 0)
      .map((x) => `${x.label} ${hours(line[x.column])} GiB-h`);
    if (line.storage_gib_hours_unpriced > 0) tiers.push(`no price on the rate card ${hours(line.storage_gib_hours_unpriced)} GiB-h`);
    body.append(h('p', { class: 'muted small' }, tiers.length
      ? 'Storage by tier: ' + tiers.join(', ')
      : 'No storage in this month.'));
    body.append(h('h3', {}, 'Volumes'));
    const volumeLabel = (key) => labelOf(report.volume_columns, key);
    new DataTable(body, {
      caption: 'Volumes of the line',
      rowKey: (v) => `${v.source}/${v.volume_id}`,
      filter: false,
      emptyText: 'No volume joins this project (Job → PVC → volume).',
      sort: { key: 'storage_gib_hours', dir: -1 },
      columns: [
        { key: 'name', label: volumeLabel('name'), render: (v) => h('span', {}, v.name, h('small', { class: 'muted' }, ' ' + v.source)) },
        { key: 'via', label: volumeLabel('via'), render: (v) => v.via || '—' },
        { key: 'share', label: volumeLabel('share'), align: 'right', render: (v) => `${Math.round(v.share * 100)} %` },
        { key: 'storage_gib_hours', label: volumeLabel('storage_gib_hours'), align: 'right', render: (v) => hours(v.storage_gib_hours) },
        { key: 'cost', label: volumeLabel('cost'), align: 'right', render: (v) => fmtMoney(v.cost, report.currency) },
        { key: 'missing_hours', label: volumeLabel('missing_hours'), align: 'right', narrow: false, render: (v) => hours(v.missing_hours) },
      ],
    }).setRows(line.volume_list);
    if (line.line !== 'unattributed') {
      body.append(h('h3', {}, 'Jobs in the month'));
      new DataTable(body, {
        caption: 'Jobs of the project',
        rowKey: (j) => j.id,
        filter: false,
        emptyText: 'No job of this project is known for the month.',
        sort: { key: 'id' },
        columns: [
          { key: 'id', label: 'Job' },
          { key: 'status', label: 'Status' },
          { key: 'gpus', label: 'GPUs', align: 'right' },
          { key: 'pvcs', label: 'PVCs', value: (j) => j.pvcs.join(', ') },
        ],
      }).setRows(line.job_list);
      body.append(h('h3', {}, 'Cached commits mounted'));
      body.append(line.cached_commits.length
        ? h('ul', { class: 'small' }, line.cached_commits.map((c) => h('li', {}, c)))
        : h('p', { class: 'empty' }, 'None this month.'));
    }
  }

  let generation = 0;
  async function load() {
    const mine = ++generation;
    summary.textContent = 'Loading…';
    try {
      const r = await api.get('chargeback', { month });
      if (mine !== generation) return;
      report = r;
      render();
    } catch (err) {
      if (mine !== generation) return;
      report = null;
      clear(kpis);
      if (table) { table.setRows([]); clear(tfoot); }
      detailCard.el.hidden = true;
      clear(summary, errorBox(err));
    }
  }

  monthInput.addEventListener('change', () => {
    if (!monthInput.value) return;
    month = monthInput.value;
    prefs.set('chargebackMonth', month);
    setCsvHref();
    selected = null;
    load();
  });
  load();
  // The current month grows while the page is open.
  const timer = setInterval(() => { if (month === thisMonth()) load(); }, 300000);
  return () => clearInterval(timer);
}
