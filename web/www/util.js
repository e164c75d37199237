// DOM and formatting helpers shared by every page. No page writes HTML strings: elements are
// built with h(), so row data (names, messages, transcripts) can never inject markup.

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v); // CSSOM: allowed by the CSP
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'value') el.value = v;
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// Units: one rule with the C++ side (strata::core::formatBytes/formatRate, models/core/domain/format.h)
// and the golden table tests/fixtures/units/format-cases.json that both test suites read:
// binary units (capacity and throughput as ONTAP System Manager and Azure show them); each figure
// takes the largest unit in which it is at least 1 (B, KiB, MiB, GiB, TiB, PiB); whole bytes
// below 1 KiB; one decimal below 100 in the unit, none from 100 on; a value that would round to
// 1,024 moves up a unit. Numbers follow the reader's locale. Unknown figures are an em dash.
const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
export const UNKNOWN = '—';
let LOCALE; // undefined: the browser's; tests pin one with setLocale()
const NUMBER_FORMATS = new Map();
function numberFormat(decimals) {
  if (!NUMBER_FORMATS.has(decimals)) {
    NUMBER_FORMATS.set(decimals, new Intl.NumberFormat(LOCALE, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }));
  }
  return NUMBER_FORMATS.get(decimals);
}
const roundTenths = (v) => Math.round(v * 10) / 10;

function binaryFigure(value, suffix) {
  let magnitude = Math.abs(value);
  let unit = 0;
  while (unit < BYTE_UNITS.length - 1) {
    const rounded = magnitude < 100 ? roundTenths(magnitude) : Math.round(magnitude);
    if (unit === 0 ? Math.round(magnitude) < 1024 : rounded < 1024) break;
    magnitude /= 1024;
    unit++;
  }
  const decimals = unit > 0 && roundTenths(magnitude) < 100 ? 1 : 0;
  const text = numberFormat(decimals).format(unit === 0 ? Math.round(magnitude) : magnitude) + ' ' + BYTE_UNITS[unit] + suffix;
  // "-0.0 KiB" is not a figure anyone reported: only non-zero negatives keep their sign.
  return value < 0 && Math.round(Math.abs(value)) !== 0 ? '-' + text : text;
}

/// Capacity in bytes: "512 B", "1.5 KiB", "212 MiB", "250 GiB", "2.0 TiB".
export function fmtBytes(n) {
  if (n == null || typeof n !== 'number' || !Number.isFinite(n)) return UNKNOWN;
  return binaryFigure(n, '');
}

/// Throughput in bytes per second: "15.6 MiB/s", "5.6 GiB/s"; unknown when negative.
export function fmtRate(bps) {
  if (bps == null || typeof bps !== 'number' || !Number.isFinite(bps) || bps < 0) return UNKNOWN;
  return binaryFigure(bps, '/s');
}

/// Hours (wall-clock, GPU-hours, GiB-hours) as strata::core::formatHours writes them: one decimal
/// always ("0.0", "5.9", "1,897.6").
export function fmtHours(n) {
  if (n == null || typeof n !== 'number' || !Number.isFinite(n)) return UNKNOWN;
  return numberFormat(1).format(Math.abs(n) < 0.05 ? 0 : n);
}

/// Money as strata::core::formatMoney writes it: "$1,234.50" for USD, "1,234.50 EUR" for any
/// other code; unknown when negative or missing (no price on the rate card).
export function fmtMoney(amount, currency) {
  if (amount == null || typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return UNKNOWN;
  const text = numberFormat(2).format(amount);
  return currency === 'USD' ? '$' + text : `${text} ${currency}`;
}

/// A throughput the API gives in MiB/s (observed_mibps, cap_mibps), in the unit that suits it.
export function fmtMibps(mibps) {
  return mibps == null || typeof mibps !== 'number' || mibps < 0 ? UNKNOWN : fmtRate(mibps * 1048576);
}

export function fmtNum(n, digits = 1) {
  if (n == null || typeof n !== 'number' || Number.isNaN(n)) return UNKNOWN;
  return n.toLocaleString(LOCALE, { maximumFractionDigits: Number.isInteger(n) ? 0 : digits, minimumFractionDigits: 0 });
}

export function fmtGpus(n) {
  return n == null ? '—' : fmtNum(Math.round(n * 100) / 100, 2);
}

export function fmtPct(n, digits = 0) {
  return n == null || Number.isNaN(n) ? '—' : n.toFixed(digits) + ' %';
}

export function fmtDuration(seconds) {
  if (seconds == null) return '—';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return s + ' s';
  if (s < 3600) return Math.floor(s / 60) + ' min';
  if (s < 86400) return Math.floor(s / 3600) + ' h ' + String(Math.floor((s % 3600) / 60)).padStart(2, '0') + ' min';
  return Math.floor(s / 86400) + ' d ' + Math.floor((s % 86400) / 3600) + ' h';
}

// Times: in the reader's locale (the browser's, so 24 h where the locale uses it), local time
// zone. ISO 8601 stays for machine output (the API, exports) and tooltips that quote it.
export function setLocale(locale) { LOCALE = locale; FORMATS.clear(); NUMBER_FORMATS.clear(); }
const FORMATS = new Map();
function dtf(kind) {
  if (!FORMATS.has(kind)) {
    const opts = {
      datetime: { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' },
      minute: { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' },
      time: { hour: '2-digit', minute: '2-digit' },
      second: { hour: '2-digit', minute: '2-digit', second: '2-digit' },
      day: { month: 'short', day: 'numeric' },
      month: { year: 'numeric', month: 'short' },
    }[kind];
    FORMATS.set(kind, new Intl.DateTimeFormat(LOCALE, opts));
  }
  return FORMATS.get(kind);
}
function asDate(t) {
  const d = t instanceof Date ? t : new Date(typeof t === 'number' ? t : String(t));
  return Number.isNaN(d.getTime()) ? null : d;
}

/// A moment with date and seconds: "26 Nov 2026, 09:05:20" (en-GB), "Nov 26, 2026, 09:05:20 AM" (en-US).
export function fmtTime(iso) {
  if (!iso) return UNKNOWN;
  const d = asDate(iso);
  return d ? dtf('datetime').format(d) : String(iso);
}

/// Shorter: "26 Nov, 09:05" (for chart legends and lists).
export function fmtDateTime(t) {
  const d = t == null ? null : asDate(t);
  return d ? dtf('minute').format(d) : UNKNOWN;
}

/// A day: "26 Nov".
export function fmtDay(t) {
  const d = t == null ? null : asDate(t);
  return d ? dtf('day').format(d) : UNKNOWN;
}

/// Labels for a time axis whose ticks are `incrSeconds` apart (uPlot's axis values callback):
/// clock times within a day (the date where it changes), days beyond, months beyond 28 days.
export function timeAxisLabels(splitsSeconds, incrSeconds) {
  let prevDay = null;
  return splitsSeconds.map((s) => {
    if (s == null) return '';
    const d = new Date(s * 1000);
    if (incrSeconds >= 28 * 86400) return dtf('month').format(d);
    if (incrSeconds >= 86400) return dtf('day').format(d);
    const day = d.toDateString();
    const text = dtf(incrSeconds < 60 ? 'second' : 'time').format(d);
    const withDay = prevDay !== null && day !== prevDay;
    prevDay = day;
    return withDay ? text + '\n' + dtf('day').format(d) : text;
  });
}

export function fmtAgo(iso) {
  if (!iso) return '—';
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return String(iso);
  const s = (Date.now() - t) / 1000;
  return s < 0 ? 'in ' + fmtDuration(-s) : fmtDuration(s) + ' ago';
}

export function shortId(id, n = 12) {
  return id && id.length > n ? id.slice(0, n) : id || '';
}

export function humanize(key) {
  return String(key).replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

// API words (enumerations the rows carry as snake_case) as a person reads them. Anything not
// listed still reads as words ("no_node_fits" -> "No node fits"): no raw value reaches a page.
const LABELS = {
  s3_prefix: 'S3 prefix', s3_bucket: 'S3 bucket', ontap_volume: 'ONTAP volume',
  ontap: 'ONTAP', azure: 'Azure NetApp Files', storagegrid: 'StorageGRID', kubernetes: 'Kubernetes',
  container_creating: 'Container creating', running: 'Running', pending: 'Pending', preempted: 'Preempted',
  succeeded: 'Succeeded', failed: 'Failed', unknown: 'Unknown', started: 'Started', refused: 'Refused', reconciled: 'Reconciled',
  train: 'Training', interactive: 'Interactive',
  at_cap: 'At cap', far_below: 'Far below cap', over_quota: 'Over quota', in_quota: 'In quota',
  compute_bound: 'Compute-bound', data_bound: 'Data-bound', input_pipeline: 'Input pipeline',
  storage_latency: 'Storage latency', storage_at_cap: 'Storage at cap', low_utilization: 'Low utilization',
  utilization_unknown: 'Utilization unknown', not_pending: 'Not pending', no_metrics: 'No metrics',
  incomplete: 'Not known yet', not_polled: 'Not polled yet',
  auth_required: 'Sign-in required', unreachable: 'Unreachable', degraded: 'Degraded', ok: 'OK',
  requested: 'Requested', loading: 'Loading', ready: 'Ready', evicting: 'Evicting', evicted: 'Evicted',
  info: 'Info', warning: 'Warning', error: 'Error', critical: 'Critical',
  event: 'Event', alert: 'Alert', scheduler: 'Scheduler', operation: 'Operation', change: 'Change', action: 'Action',
};
/// A human label for an API value ("s3_prefix" -> "S3 prefix"); '' for none.
export function label(value) {
  if (value == null || value === '') return '';
  const s = String(value);
  return LABELS[s] ?? (/^[a-z0-9]+(_[a-z0-9]+)+$/.test(s) ? humanize(s) : s);
}

/// Free text from the API (a diagnosis headline) with its enumeration words as words:
/// "Job x is container_creating" -> "Job x is container creating". Only listed words change, so
/// names (volumes, datasets) that contain underscores are left alone.
export function labelWords(text) {
  return String(text ?? '').replace(/\b[a-z0-9]+(?:_[a-z0-9]+)+\b/g, (w) => (LABELS[w] ? LABELS[w].toLowerCase() : w));
}

// Container states that mean a job cannot run (kubelet's waiting/terminated reasons), as
// Headlamp and Lens colour them.
const FAILING_REASONS = /\b(ImagePullBackOff|ErrImagePull|CrashLoopBackOff|OOMKilled|CreateContainerConfigError|CreateContainerError|InvalidImageName|RunContainerError|ErrImageNeverPull)\b/;
/// The failing reason word in a job's waiting/pending reason, or null.
export function failingReason(text) {
  const m = FAILING_REASONS.exec(String(text || ''));
  return m ? m[1] : null;
}

/// A row's identity: the feed's "key", else source/name-like fields.
export function rowKey(row) {
  if (row.key != null) return String(row.key);
  const id = row.id ?? row.name ?? row.volume_id ?? row.call;
  if (id == null) return JSON.stringify(row); // no natural key: the row itself
  return [row.source, row.namespace, id, row.target, row.commit].filter((x) => x != null).join('/');
}

export function debounce(fn, ms) {
  let t = null;
  return (...args) => { clearTimeout(t); t = setTimeout(() => fn(...args), ms); };
}

/// Bar showing `value` of `max`, optionally split at `mark` (quota) into in/over parts.
export function meter({ value, max, mark = null, label, warnAt = null }) {
  const total = Math.max(max || 0, value || 0, mark || 0) || 1;
  const bar = h('div', { class: 'meter', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': max ?? total, 'aria-valuenow': value ?? 0, 'aria-label': label });
  const v = value || 0;
  if (mark != null && mark >= 0 && v > mark) {
    bar.append(h('span', { class: 'fill in', style: { width: (mark / total) * 100 + '%' } }));
    bar.append(h('span', { class: 'fill over', style: { width: ((v - mark) / total) * 100 + '%' } }));
  } else {
    const cls = warnAt != null && max && v / max * 100 >= warnAt ? 'fill warn' : 'fill in';
    bar.append(h('span', { class: cls, style: { width: (v / total) * 100 + '%' } }));
  }
  if (mark != null && mark >= 0) bar.append(h('span', { class: 'mark', style: { left: Math.min(100, (mark / total) * 100) + '%' }, title: 'quota ' + mark }));
  return bar;
}

export function chip(text, kind) {
  return h('span', { class: 'chip ' + (kind || '') }, text);
}

export function statusKind(s) {
  s = String(s || '').toLowerCase();
  if (['running', 'ready', 'ok', 'online', 'succeeded', 'bound', 'positive', 'live'].includes(s)) return 'good';
  if (['pending', 'loading', 'queued', 'evicting', 'neutral', 'started', 'degraded', 'at_cap'].includes(s)) return 'warn';
  if (['failed', 'error', 'down', 'offline', 'negative', 'over', 'unreachable', 'auth_required'].includes(s)) return 'bad';
  return '';
}
