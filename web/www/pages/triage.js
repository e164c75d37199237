// Triage: the merged timeline of every system (GET /api/v1/events, the rows `strata get events`
// prints), narrowed on the server by system, severity, time range and search. Repeats come as
// one row (an alert's firings: count, first and last seen), active alerts first, a page at a
// time ("Show more" reads the next). Re-read when the live feed says the timeline changed.
import * as api from '../api.js';
import { h, clear, fmtTime, fmtDateTime, chip, debounce, label } from '../util.js';
import { DataTable, card, errorBox } from '../table.js';

const SYSTEMS = [['', 'All systems'], ['ontap', 'ONTAP'], ['storagegrid', 'StorageGRID'], ['azure', 'Azure'],
  ['kubernetes', 'Kubernetes'], ['strata', 'Strata']];
const SEVERITIES = [['', 'All severities'], ['critical', 'Critical'], ['error', 'Errors and worse'], ['warning', 'Warnings and worse']];
const RANGES = [['1h', 'Last hour'], ['6h', 'Last 6 hours'], ['24h', 'Last 24 hours'], ['7d', 'Last 7 days'], ['', 'All time']];
const SEVERITY_KIND = { critical: 'bad', error: 'bad', warning: 'warn', info: '' };
const STATES = { active: 'Active', resolved: 'Resolved' };
export const TRIAGE_PAGE_ROWS = 50;

/// Newest first with active alerts on top: the server's order, as one sortable value.
export function triageTimeValue(r) {
  return (r.state === 'active' ? '1' : '0') + (r.time || '');
}

function select(id, label, options, value) {
  const el = h('select', { id, 'aria-label': label }, options.map(([v, text]) => h('option', { value: v }, text)));
  el.value = value;
  return el;
}

export function mount(main, ctx) {
  const params = new URLSearchParams((location.hash.split('?')[1]) || '');
  const system = select('triage-system', 'System', SYSTEMS, params.get('system') || '');
  const severity = select('triage-severity', 'Severity', SEVERITIES, params.get('severity') || '');
  const range = select('triage-range', 'Time range', RANGES, params.get('since') ?? '24h');
  const search = h('input', { id: 'triage-search', type: 'search', placeholder: 'Search title, message, object', 'aria-label': 'Search' });
  search.value = params.get('search') || '';
  main.append(h('div', { class: 'page-head' }, h('h1', {}, 'Triage'),
    h('div', { class: 'page-tools' }, system, severity, range, search)));
  const c = card('Timeline', { id: 'card-events', wide: true, subtitle: 'events, alerts, operations, scheduler decisions and changes: active alerts first, then newest; repeats as one row' });
  const err = h('div');
  c.body.append(err);
  main.append(h('div', { class: 'grid' }, c.el));
  const table = new DataTable(c.body, {
    caption: 'Triage timeline', rowKey: (r) => r.key || r.group || r.id, sort: { key: 'time', dir: -1 }, filter: false,
    emptyText: 'Nothing on the timeline for these filters.',
    columns: [
      // A phone shows the minute ("Dec 2, 3:12 PM"), so the title fits beside it.
      { key: 'time', label: 'Last seen', value: triageTimeValue, render: (r) => h('span', {},
        h('span', { class: 'long-form' }, fmtTime(r.time)), h('span', { class: 'short-form' }, fmtDateTime(r.time))) },
      { key: 'severity', label: 'Severity', value: (r) => label(r.severity), render: (r) => chip(label(r.severity), SEVERITY_KIND[r.severity] || '') },
      { key: 'state', label: 'State', value: (r) => STATES[r.state] || '', render: (r) => (r.state ? chip(STATES[r.state] || r.state, r.state === 'active' ? 'warn' : '') : '') },
      { key: 'count', label: 'Count', align: 'right', narrow: false, render: (r) => String(r.count ?? 1) },
      { key: 'system', label: 'System', value: (r) => label(r.system), narrow: false },
      { key: 'source', label: 'Source', narrow: false },
      { key: 'category', label: 'Category', value: (r) => label(r.category), narrow: false },
      { key: 'title', label: 'Title' },
      { key: 'object_name', label: 'Object', narrow: false },
      { key: 'first_seen', label: 'First seen', narrow: false, render: (r) => ((r.count ?? 1) > 1 ? fmtTime(r.first_seen) : '') },
      { key: 'message', label: 'Message', narrow: false },
    ],
  });
  let pages = 1;
  const more = h('button', { type: 'button', id: 'triage-more', class: 'secondary', hidden: true,
    onclick: () => { pages++; load(); } }, 'Show more');
  c.body.append(more);
  let generation = 0;
  async function load() {
    const mine = ++generation;
    const wanted = TRIAGE_PAGE_ROWS * pages;
    // One more than shown tells whether there is a next page.
    const query = { limit: wanted + 1 };
    if (system.value) query.system = system.value;
    if (severity.value) query.severity = severity.value;
    if (range.value) query.since = range.value;
    if (search.value.trim()) query.search = search.value.trim();
    try {
      const rows = (await api.get('events', query)) || [];
      if (mine !== generation) return; // a newer filter answered first
      more.hidden = rows.length <= wanted;
      table.setRows(rows.slice(0, wanted));
      clear(err);
    } catch (e) {
      clear(err, errorBox(e));
    }
  }
  const reload = debounce(load, 300);
  const firstPage = (fn) => () => { pages = 1; fn(); };
  for (const el of [system, severity, range]) el.addEventListener('change', firstPage(load));
  search.addEventListener('input', firstPage(reload));
  const unsub = ctx.store.subscribe('events', () => reload());
  load();
  return () => { unsub(); generation++; };
}
