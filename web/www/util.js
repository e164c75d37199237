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

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
export function fmtBytes(n) {
  if (n == null || Number.isNaN(n)) return '–';
  let v = Math.abs(n), i = 0;
  while (v >= 1024 && i < BYTE_UNITS.length - 1) { v /= 1024; i++; }
  const s = v >= 100 || i === 0 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
  return (n < 0 ? '-' : '') + s + ' ' + BYTE_UNITS[i];
}

export function fmtRate(bps) {
  return bps == null ? '–' : fmtBytes(bps) + '/s';
}

export function fmtNum(n, digits = 1) {
  if (n == null || Number.isNaN(n)) return '–';
  if (Number.isInteger(n)) return n.toLocaleString('en-US');
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export function fmtGpus(n) {
  return n == null ? '–' : fmtNum(Math.round(n * 100) / 100, 2);
}

export function fmtPct(n, digits = 0) {
  return n == null || Number.isNaN(n) ? '–' : n.toFixed(digits) + ' %';
}

export function fmtDuration(seconds) {
  if (seconds == null) return '–';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return s + ' s';
  if (s < 3600) return Math.floor(s / 60) + ' min';
  if (s < 86400) return Math.floor(s / 3600) + ' h ' + String(Math.floor((s % 3600) / 60)).padStart(2, '0') + ' min';
  return Math.floor(s / 86400) + ' d ' + Math.floor((s % 86400) / 3600) + ' h';
}

export function fmtTime(iso) {
  if (!iso) return '–';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return d.toLocaleString('en-GB', { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function fmtAgo(iso) {
  if (!iso) return '–';
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
  if (['failed', 'error', 'down', 'offline', 'negative', 'over'].includes(s)) return 'bad';
  return '';
}
