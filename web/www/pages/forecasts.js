// Capacity forecast: every container the engine forecasts (ONTAP and ANF volumes,
// aggregates, ANF capacity pools, StorageGRID buckets and tenants, cache targets), full soonest
// first, from the rows `strata get forecasts` prints (models/rows/forecastrows.h). The rows are
// a live resource: the feed re-reads them whenever the engine recomputes its forecasts.
import { h, clear, fmtBytes, fmtDuration, fmtNum, fmtTime, meter, chip, label } from '../util.js';
import { DataTable, card, errorBox } from '../table.js';

/// Rows growing towards a limit within this many days stand out.
export const SOON_DAYS = 30;

const KIND_LABELS = { volume: 'Volume', aggregate: 'Aggregate', pool: 'Capacity pool', bucket: 'Bucket', tenant: 'Tenant', cache_target: 'Cache target' };
const TREND_LABELS = { growing: 'Growing', full: 'Full', no_trend: 'No trend', too_little_data: 'Too little data' };
const TREND_KIND = { full: 'bad', growing: 'warn', no_trend: 'good', too_little_data: 'neutral' };

export function kindLabel(kind) {
  return KIND_LABELS[kind] || label(kind);
}

/// "critical" (full), "warning" (growing, full within SOON_DAYS), or null.
export function forecastSeverity(r) {
  if (r.trend === 'full') return 'critical';
  if (r.trend === 'growing' && r.days_to_full != null && r.days_to_full <= SOON_DAYS) return 'warning';
  return null;
}

/// What "full in" sorts by: full ones first, then growing ones by fill date, then the rest by
/// used fraction, highest first (the server's order, forecastAll()).
export function fullInSortValue(r) {
  if (r.trend === 'full') return -1e15 - (r.percent_used ?? 0);
  const at = r.full_at ? Date.parse(r.full_at) : NaN;
  if (r.trend === 'growing' && Number.isFinite(at)) return at;
  return 1e16 - (r.percent_used ?? -1) * 1e12;
}

function growthText(bytesPerDay) {
  if (bytesPerDay == null) return null;
  return (bytesPerDay > 0 ? '+' : '') + fmtBytes(bytesPerDay) + '/day';
}

// The span the samples cover; null under a minute (one sample, or two in a row).
function historySpanSeconds(r) {
  if (!r.history_from || !r.history_to) return null;
  const s = (Date.parse(r.history_to) - Date.parse(r.history_from)) / 1000;
  return s >= 60 ? s : null;
}

function usedCell(r) {
  const text = r.capacity_bytes == null ? `${fmtBytes(r.used_bytes)} · no limit` : `${fmtBytes(r.used_bytes)} / ${fmtBytes(r.capacity_bytes)}`;
  const sev = forecastSeverity(r);
  // A volume's capacity is its active file system (size less snapshot reserve), as on every page.
  const title = r.kind === 'volume' ? 'Of the active file system: the volume\'s size less its snapshot reserve' : null;
  return h('div', { class: 'used-cell' + (sev ? ' ' + sev : ''), title },
    r.capacity_bytes == null ? null : meter({ value: Math.max(0, r.used_bytes ?? 0), max: r.capacity_bytes, label: `${r.name}: ${text}`, warnAt: 85 }),
    h('span', { class: 'used-text used-long' }, text + (r.percent_used == null ? '' : ` (${fmtNum(r.percent_used, 1)} %)`)),
    // Phones: the bar and the percentage (the figures are in the bar's label and the wide layout).
    h('span', { class: 'used-text used-short' }, r.percent_used == null ? 'no limit' : `${fmtNum(r.percent_used, 1)} %`));
}

function fullInCell(r) {
  const sev = forecastSeverity(r);
  const title = r.full_at
    ? `${r.trend === 'full' ? 'Full since' : 'Full at'} ${fmtTime(r.full_at)}` + (r.full_earliest ? `; 95 % between ${fmtTime(r.full_earliest)} and ${r.full_latest ? fmtTime(r.full_latest) : 'never'}` : '')
    : null;
  const text = r.full_in || '—';
  return h('span', { title }, sev ? chip(text, sev === 'critical' ? 'bad' : 'warn') : text);
}

export function mount(main, ctx) {
  const unsubs = [];
  const kindSelect = h('select', { id: 'forecast-kind', 'aria-label': 'Kind' });
  const sourceSelect = h('select', { id: 'forecast-source', 'aria-label': 'Source' });
  main.append(h('div', { class: 'page-head' }, h('h1', {}, 'Capacity forecast'),
    h('p', { class: 'muted small page-sub' }, 'Every volume, aggregate, capacity pool, bucket, tenant and cache target, full soonest first: a robust trend over the last 30 days with its 95 % band.')));
  const kpis = h('div', { class: 'kpis', role: 'list', id: 'forecast-kpis' });
  const c = card('Full soonest', { id: 'card-forecasts', wide: true, subtitle: `full in ${SOON_DAYS} days or less stands out`, actions: [kindSelect, sourceSelect] });
  const err = h('div');
  c.body.append(err);
  main.append(kpis, h('div', { class: 'grid' }, c.el));

  const table = new DataTable(c.body, {
    caption: 'Capacity forecast', rowKey: (r) => r.key ?? `${r.source}/${r.kind}/${r.id}`, sort: { key: 'full_in' },
    emptyText: 'No container to forecast yet.',
    rowClass: (r) => ({ critical: 'row-bad', warning: 'row-warn' })[forecastSeverity(r)] || null,
    columns: [
      { key: 'name', label: 'Name', render: (r) => h('span', { title: `${kindLabel(r.kind)} ${r.name} (${r.source})` }, r.name) },
      { key: 'kind', label: 'Kind', narrow: false, value: (r) => kindLabel(r.kind) },
      { key: 'source', label: 'Source', narrow: false },
      { key: 'percent_used', label: 'Used / capacity', value: (r) => r.percent_used ?? (r.capacity_bytes == null ? -1 : null), render: usedCell },
      { key: 'growth_bytes_per_day', label: 'Growth / day', narrow: false, align: 'right',
        render: (r) => (r.growth_bytes_per_day == null ? '—' : h('span', { title: `95 %: ${growthText(r.growth_low_bytes_per_day)} to ${growthText(r.growth_high_bytes_per_day)}` }, growthText(r.growth_bytes_per_day))) },
      { key: 'full_in', label: 'Full in', value: fullInSortValue, render: fullInCell },
      { key: 'trend', label: 'Trend', value: (r) => TREND_LABELS[r.trend] || label(r.trend), render: (r) => chip(TREND_LABELS[r.trend] || label(r.trend), TREND_KIND[r.trend]) },
      { key: 'samples', label: 'History', narrow: false, align: 'right',
        render: (r) => {
          const span = historySpanSeconds(r);
          return h('span', { title: r.history_from ? `${fmtTime(r.history_from)} – ${fmtTime(r.history_to)}` : 'no samples yet' },
            `${fmtNum(r.samples)} sample${r.samples === 1 ? '' : 's'}` + (span != null ? ` · ${fmtDuration(span)}` : ''));
        } },
    ],
  });

  let all = [];
  const fillSelect = (select, values, allText, text) => {
    const current = select.value;
    clear(select, h('option', { value: '' }, allText), values.map((v) => h('option', { value: v }, text(v))));
    select.value = values.includes(current) ? current : '';
  };
  function render(changed = null) {
    fillSelect(kindSelect, [...new Set(all.map((r) => r.kind))].sort((a, b) => kindLabel(a).localeCompare(kindLabel(b))), 'All kinds', kindLabel);
    fillSelect(sourceSelect, [...new Set(all.map((r) => r.source))].sort(), 'All sources', (s) => s);
    const rows = all.filter((r) => (!kindSelect.value || r.kind === kindSelect.value) && (!sourceSelect.value || r.source === sourceSelect.value));
    table.setRows(rows, changed);
    const full = rows.filter((r) => r.trend === 'full').length;
    const soon = rows.filter((r) => forecastSeverity(r) === 'warning').length;
    const growing = rows.filter((r) => r.trend === 'growing').length;
    const next = rows.filter((r) => r.trend === 'growing' && r.full_at).sort((a, b) => Date.parse(a.full_at) - Date.parse(b.full_at))[0];
    const tile = (id, l, v, d, kind = '') => h('div', { class: 'kpi ' + kind, role: 'listitem', id: 'forecast-' + id },
      h('span', { class: 'kpi-label' }, l), h('span', { class: 'kpi-value' }, v), h('span', { class: 'kpi-detail' }, d));
    clear(kpis,
      tile('containers', 'Containers', fmtNum(rows.length), `${growing} growing`),
      tile('full', 'Full', fmtNum(full), 'at their limit now', full ? 'bad' : 'good'),
      tile('soon', `Full within ${SOON_DAYS} days`, fmtNum(soon), 'growing towards their limit', soon ? 'warn' : 'good'),
      tile('next', 'Next to fill', next ? next.name : '—', next ? `${kindLabel(next.kind)}, ${next.full_in}` : 'nothing is growing towards a limit'));
  }
  kindSelect.addEventListener('change', () => render());
  sourceSelect.addEventListener('change', () => render());
  unsubs.push(ctx.store.subscribe('forecasts', (rows, changed, e) => {
    if (e) { clear(err, errorBox(e)); return; }
    clear(err);
    all = rows;
    render(changed);
  }));
  return () => unsubs.forEach((u) => u());
}
