// Columns from a resource's field list (GET /api/v1/fields/<resource>): the one list the desktop's
// table and `strata get` are built from. Each kind of figure is written by the formatter that
// follows the server's rules (models/core/domain/fieldschema.cpp, util.js), so a page shows what
// the desktop and the CLI show.
import { fmtBytes, fmtRate, fmtNum, fmtPct, UNKNOWN } from './util.js';

/// Seconds in their two largest units, as kubectl's ages and strata::core::formatDuration:
/// "45s", "3m 12s", "2h 05m", "3d 04h".
export function fmtSpan(seconds) {
  if (seconds == null || typeof seconds !== 'number' || !(seconds >= 0)) return UNKNOWN;
  const s = Math.floor(seconds);
  const two = (v) => String(v).padStart(2, '0');
  const [d, hr, m, sec] = [Math.floor(s / 86400), Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60), s % 60];
  if (d > 0) return `${d}d ${two(hr)}h`;
  if (hr > 0) return `${hr}h ${two(m)}m`;
  if (m > 0) return `${m}m ${two(sec)}s`;
  return `${sec}s`;
}

/// GPUs as strata::core::formatGpus: hundredths, trailing zeros dropped, no grouping ("0.6", "2").
export function fmtGpuCount(n) {
  if (n == null || typeof n !== 'number' || !Number.isFinite(n)) return UNKNOWN;
  return String(Math.round(n * 100) / 100);
}

export const TEXT = {
  text: (v) => (Array.isArray(v) ? v.join(', ') : v ?? ''),
  flag: (v) => (v == null ? UNKNOWN : v ? 'yes' : 'no'),
  count: (v) => fmtNum(v),
  bytes: (v) => fmtBytes(v),
  percent: (v) => fmtPct(v, 1),
  rate: (v) => fmtRate(v),
  iops: (v) => (v == null ? UNKNOWN : fmtNum(Math.round(v))),
  latency: (v) => (v == null ? UNKNOWN : fmtNum(v / 1000, 2) + ' ms'),
  duration: (v) => fmtSpan(v),
  gpus: (v) => fmtGpuCount(v),
};

/// A DataTable column for one field the server describes ({key, title, kind, column, wide, help}).
/// `custom` (optional) overrides parts of it (render, value, ...) for a field shown its own way.
export function fieldColumn(f, custom = {}) {
  const text = TEXT[f.kind] || TEXT.text;
  const numeric = f.kind !== 'text' && f.kind !== 'flag' && f.kind !== 'time';
  return {
    key: f.key,
    label: f.title,
    help: f.help || null,
    narrow: f.wide ? false : undefined,
    align: numeric ? 'right' : undefined,
    // Text sorts as text, figures by value (unknown first, as on the desktop).
    value: numeric ? (r) => (r[f.key] == null ? -Infinity : r[f.key]) : undefined,
    render: (r) => text(r[f.key]),
    ...custom,
  };
}

/// The table columns of a resource's field list, in its order; `custom` maps a key to overrides.
export function fieldColumns(fields, custom = {}) {
  return fields.filter((f) => f.column).map((f) => fieldColumn(f, custom[f.key]));
}
