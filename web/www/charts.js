// Time-series charts on uPlot (bundled from npm, loaded as a classic script: window.uPlot).
import { h, fmtDateTime, timeAxisLabels } from './util.js';

export const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
export const LABEL_COLORS = { positive: '#2e9d5b', neutral: '#8a94a6', negative: '#d64545' };

function cssVar(name, fallback) {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

/// A time chart in `container`: series [{label, color, dash, stepped, fill, value}], data [xs(seconds), ...ys].
/// update() keeps the chart when the series are the same, else rebuilds it; its `bands`
/// ([{series: [upper, lower]}], 1-based series indexes) fill between two series (stacked areas).
export class TimeChart {
  constructor(container, { height = 220, yFormat = (v) => String(v), yRange = null, xRange = null, axisSize = 64, ariaLabel = 'chart' } = {}) {
    this.xRange = xRange; // () => [from, to] in seconds: the selected time range, whatever the data
    this.axisSize = axisSize;
    this.container = container;
    this.height = height;
    this.yFormat = yFormat;
    this.yRange = yRange;
    this.plot = null;
    this.signature = '';
    this.el = h('div', { class: 'chart', role: 'img', 'aria-label': ariaLabel });
    // Until the first data arrives the panel says so rather than stand empty.
    this.empty = h('p', { class: 'empty' }, 'Loading…');
    this.el.hidden = true;
    this.el.dataset.state = 'loading';
    container.append(this.el, this.empty);
    this.ro = new ResizeObserver(() => {
      if (this.plot) this.plot.setSize({ width: this.width(), height: this.height });
    });
    this.ro.observe(container);
  }

  width() {
    return Math.max(200, this.el.clientWidth || this.container.clientWidth - 28);
  }

  update(series, data, { empty = false, bands = null } = {}) {
    this.empty.textContent = 'No samples in this range yet.';
    this.el.dataset.state = empty ? 'empty' : 'drawn';
    this.empty.hidden = !empty;
    this.el.hidden = empty;
    const sig = series.map((s) => s.label + '|' + (s.color || '')).join(';') + (bands ? '|bands' : '');
    if (this.plot && sig === this.signature) {
      this.plot.setData(data);
      return;
    }
    this.signature = sig;
    if (this.plot) this.plot.destroy();
    const text = cssVar('--muted', '#667');
    const grid = cssVar('--grid', 'rgba(128,128,128,.2)');
    const fmt = this.yFormat;
    const U = window.uPlot;
    const opts = {
      width: this.width(),
      height: this.height,
      scales: { x: this.xRange ? { time: true, range: () => this.xRange() } : { time: true }, y: this.yRange ? { range: this.yRange } : { range: (u, min, max) => [Math.min(0, min ?? 0), max > 0 ? max * 1.1 : 1] } },
      axes: [
        // Time ticks in the reader's locale (uPlot's own are US "12am 11/26").
        { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 }, values: (u, splits, ax, space, incr) => timeAxisLabels(splits, incr) },
        { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 }, size: this.axisSize, values: (u, vals) => vals.map((v) => fmt(v)) },
      ],
      series: [
        { value: (u, v) => fmtDateTime(v == null ? null : v * 1000) },
        ...series.map((s, i) => ({
          label: s.label,
          stroke: s.color || PALETTE[i % PALETTE.length],
          width: s.width || 1.5,
          dash: s.dash,
          fill: s.fill,
          spanGaps: false,
          paths: s.bars && U.paths?.bars ? U.paths.bars({ size: [0.85, 48], align: 1 }) : s.stepped && U.paths?.stepped ? U.paths.stepped({ align: 1 }) : undefined,
          points: s.bars ? { show: false } : undefined,
          value: s.value || ((u, v) => (v == null ? '—' : fmt(v))),
        })),
      ],
      bands: bands || undefined,
      legend: { live: true },
      cursor: { drag: { x: true, y: false } },
    };
    this.plot = new U(opts, data, this.el);
  }

  destroy() {
    this.ro.disconnect();
    if (this.plot) this.plot.destroy();
    this.plot = null;
  }
}

/// Rows [{time, <group>, value...}] to uPlot columns: xs sorted, one array per group (null gaps).
export function pivot(rows, { groupOf, valueOf, timeOf = (r) => r.time }) {
  const times = new Set();
  const groups = new Map();
  for (const r of rows) {
    const t = Math.floor(new Date(timeOf(r)).getTime() / 1000);
    if (!Number.isFinite(t)) continue;
    times.add(t);
    const g = groupOf(r);
    if (!groups.has(g)) groups.set(g, new Map());
    groups.get(g).set(t, valueOf(r));
  }
  const xs = [...times].sort((a, b) => a - b);
  const names = [...groups.keys()].sort();
  const ys = names.map((g) => xs.map((t) => {
    const v = groups.get(g).get(t);
    return v == null ? null : v;
  }));
  return { xs, names, ys };
}

/// Carries each group's last value forward over gaps (step series sampled at different times).
export function fillForward(ys) {
  return ys.map((col) => {
    let last = null;
    return col.map((v) => (v == null ? last : (last = v)));
  });
}

/// Step series stacked bottom first, for stacked areas: `ys` are fillForward()ed columns (null
/// counts as 0), `tops[i][t]` is the sum of ys[0..i][t], so series i is drawn as the band between
/// tops[i - 1] and tops[i] (from 0 for the first) and tops[last] is the total.
export function stack(ys) {
  const tops = [];
  ys.forEach((col, i) => tops.push(col.map((v, t) => (v || 0) + (i ? tops[i - 1][t] : 0))));
  return tops;
}

/// GPUs allocated per project over time as stacked bands with the sum of the quotas as a line
/// (the data of the Utilization page's allocation chart). `history`: [{time, project, allocated,
/// quota}] (quota null or < 0: none). Returns {xs, names, raw, tops, quota, bands}: raw[i] is
/// project names[i]'s own GPUs (the readout), tops[i] the top of its band, quota the sum of the
/// quotas in force (null when no project has one), bands uPlot's fills between them.
export function stackedAllocation(history) {
  const alloc = pivot(history, { groupOf: (s) => s.project, valueOf: (s) => s.allocated });
  const raw = fillForward(alloc.ys).map((col) => col.map((v) => v || 0));
  const tops = stack(raw);
  const q = pivot(history, { groupOf: (s) => s.project, valueOf: (s) => (s.quota != null && s.quota >= 0 ? s.quota : null) });
  const qf = fillForward(q.ys);
  const anyQuota = qf.some((col) => col.some((v) => v != null));
  const quota = anyQuota ? alloc.xs.map((_, t) => qf.reduce((sum, col) => sum + (col[t] || 0), 0)) : null;
  // uPlot series 1..n are the bands bottom first: band i+1 fills down to band i.
  const bands = alloc.names.slice(1).map((_, i) => ({ series: [i + 2, i + 1] }));
  return { xs: alloc.xs, names: alloc.names, raw, tops, quota, bands };
}
