// Support-center sentiment (TR-4910): a live call's sentences as they arrive, agents and their
// trend, label distribution over time per team, and model quality where ground truth exists.
import * as api from '../api.js';
import { h, clear, fmtNum, fmtPct, fmtDuration, fmtTime, chip, debounce } from '../util.js';
import { DataTable, card, errorBox } from '../table.js';
import { TimeChart, LABEL_COLORS, PALETTE } from '../charts.js';

const LABELS = ['positive', 'neutral', 'negative'];
const SENT_RANGES = [['1h', 3600], ['24h', 86400], ['7d', 604800], ['30d', 2592000]];

/// "positive" | 1 | +1 -> "positive"; 0 -> "neutral"; -1 -> "negative".
export function labelName(v) {
  if (v == null) return null;
  if (typeof v === 'string') return v.toLowerCase();
  return v > 0 ? 'positive' : v < 0 ? 'negative' : 'neutral';
}
/// {negative, neutral, positive} from an object or a [negative, neutral, positive] array.
export function counts(c) {
  if (!c) return { negative: 0, neutral: 0, positive: 0 };
  if (Array.isArray(c)) return { negative: c[0] || 0, neutral: c[1] || 0, positive: c[2] || 0 };
  return { negative: c.negative || 0, neutral: c.neutral || 0, positive: c.positive || 0 };
}
function ms(v) {
  if (v == null) return null;
  if (typeof v === 'number') return v > 1e11 ? v : v * 1000;
  const t = new Date(v).getTime();
  return Number.isNaN(t) ? null : t;
}
function fmtScore(v) {
  return v == null ? '—' : (v > 0 ? '+' : '') + v.toFixed(2);
}
function scoreKind(v) {
  return v == null ? '' : v > 0.15 ? 'good' : v < -0.15 ? 'bad' : 'warn';
}
function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds || 0));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/// A stacked bar of label counts.
export function distribution(c, label) {
  const n = counts(c);
  const total = n.positive + n.neutral + n.negative || 1;
  return h('div', { class: 'dist', role: 'img', 'aria-label': `${label}: ${n.positive} positive, ${n.neutral} neutral, ${n.negative} negative` },
    LABELS.map((l) => h('span', { class: 'dist-' + l, style: { width: (n[l] / total) * 100 + '%' }, title: `${l} ${n[l]}` })));
}

/// An inline SVG sparkline of values in -1..1.
function sparkline(values, label) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 100 24');
  svg.setAttribute('class', 'spark');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  const mid = document.createElementNS(NS, 'line');
  for (const [k, v] of Object.entries({ x1: 0, x2: 100, y1: 12, y2: 12, class: 'spark-zero' })) mid.setAttribute(k, v);
  svg.append(mid);
  if (values.length) {
    const pts = values.map((v, i) => `${values.length === 1 ? 50 : (i / (values.length - 1)) * 100},${12 - Math.max(-1, Math.min(1, v)) * 10}`);
    const line = document.createElementNS(NS, 'polyline');
    line.setAttribute('points', pts.join(' '));
    line.setAttribute('class', 'spark-line');
    svg.append(line);
  }
  return svg;
}

export function mount(main, ctx) {
  const { store, prefs } = ctx;
  const unsubs = [];
  const timers = [];
  let range = prefs.get('sentRange', 86400);
  let selectedCall = null;
  let follow = true;
  let sentences = new Map(); // index -> sentence of the selected call
  let callInfo = null;
  const knownCalls = new Set();

  const rangeGroup = h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': 'Time range' },
    SENT_RANGES.map(([label, secs]) => h('button', { type: 'button', role: 'radio', 'aria-checked': String(secs === range), dataset: { range: secs }, onclick: () => setRange(secs) }, label)));
  main.append(h('div', { class: 'page-head' }, h('h1', {}, 'Sentiment'), h('div', { class: 'page-tools' }, rangeGroup)));
  const kpis = h('div', { class: 'kpis', role: 'list', id: 'sentiment-kpis' });
  const grid = h('div', { class: 'grid' });
  main.append(kpis, grid);

  // ---- Live call ---------------------------------------------------------------------------
  const callSelect = h('select', { id: 'live-call', 'aria-label': 'Call' });
  const followBox = h('input', { type: 'checkbox', id: 'follow-call', checked: true });
  const liveCard = card('Live call', { id: 'card-live-call', wide: true, actions: [h('label', { for: 'live-call', class: 'inline' }, 'Call'), callSelect, h('label', { class: 'inline check' }, followBox, ' follow newest')] });
  const callHead = h('div', { class: 'call-head' });
  const callChartBox = h('div', { class: 'call-chart' });
  const sentenceList = h('ol', { class: 'sentences', id: 'sentences', 'aria-live': 'polite', 'aria-label': 'Sentences of the call' });
  liveCard.body.append(callHead, h('div', { class: 'call-split' }, h('div', { class: 'sentence-scroll', tabindex: 0, role: 'region', 'aria-label': 'Transcript' }, sentenceList), callChartBox));
  const callChart = new TimeChart(callChartBox, { height: 200, yRange: [-1, 1], yFormat: (v) => fmtScore(v), ariaLabel: 'Running sentiment of the call' });

  // ---- Agents ------------------------------------------------------------------------------
  // The KPIs and this table count the same calls: those started within the chosen range.
  const rangeLabel = () => (SENT_RANGES.find(([, secs]) => secs === range) || [`${range} s`])[0];
  const agentsSubtitle = () => `calls started in the last ${rangeLabel()} · daily trend of every day kept`;
  const agentsCard = card('Agents', { id: 'card-agents', wide: true, subtitle: agentsSubtitle() });
  const agentDetail = h('div', { class: 'agent-detail', 'aria-live': 'polite' });
  const agentsTable = new DataTable(agentsCard.body, {
    caption: 'Agents',
    rowKey: (r) => r.agent,
    sort: { key: 'mean', dir: 1 },
    emptyText: 'No calls read yet.',
    onRowClick: (r) => showAgent(r),
    columns: [
      { key: 'agent', label: 'Agent' },
      { key: 'team', label: 'Team' },
      { key: 'calls', label: 'Calls', align: 'right' },
      { key: 'mean', label: 'Mean', align: 'right', render: (r) => chip(fmtScore(r.mean), scoreKind(r.mean)) },
      { key: 'customer_mean', label: 'Customers', align: 'right', render: (r) => fmtScore(r.customer_mean) },
      { key: 'counts', label: 'Labels', value: (r) => counts(r.counts).negative / Math.max(1, r.sentences || 1), render: (r) => distribution(r.counts, r.agent) },
      { key: 'trend', label: 'Trend', value: (r) => (r.trend || []).slice(-1)[0]?.mean ?? null, render: (r) => sparkline((r.trend || []).map((p) => p.mean), `${r.agent}'s daily mean sentiment`) },
    ],
  });
  agentsCard.body.append(agentDetail);

  // ---- Teams -------------------------------------------------------------------------------
  const teamsCard = card('Distribution over time per team', { id: 'card-teams', wide: true, subtitle: 'share of sentences by label' });
  const teamCharts = new Map();

  // ---- Model quality -----------------------------------------------------------------------
  const metricsCard = card('Model quality against ground truth', { id: 'card-metrics', wide: true, subtitle: 'where people labelled sentences' });

  grid.append(liveCard.el, agentsCard.el, teamsCard.el, metricsCard.el);
  teamsCard.body.classList.add('team-grid');
  metricsCard.body.classList.add('metrics-body');

  // ---- Data --------------------------------------------------------------------------------
  function renderKpis(s) {
    const c = counts(s.counts);
    const items = [
      ['calls', 'Calls', fmtNum(s.calls), `started in the last ${rangeLabel()} · ${fmtNum(s.live_calls ?? 0)} live now`],
      ['sentences', 'Sentences', fmtNum(s.sentences), `${fmtNum(s.agents)} agents · ${fmtNum(s.teams)} teams`],
      ['mean', 'Mean sentiment', fmtScore(s.mean), '+1 positive … −1 negative', scoreKind(s.mean)],
      ['negative', 'Negative sentences', s.sentences ? fmtPct((c.negative / s.sentences) * 100, 1) : '—', `${fmtNum(c.negative)} of ${fmtNum(s.sentences)}`],
    ];
    clear(kpis, items.map(([id, label, value, detail, kind]) => h('div', { class: 'kpi ' + (kind || ''), role: 'listitem', id: 'kpi-' + id },
      h('span', { class: 'kpi-label' }, label), h('span', { class: 'kpi-value' }, value), h('span', { class: 'kpi-detail' }, detail))));
  }

  async function loadSummary() {
    try {
      const s = await api.get('sentiment/summary', { range });
      renderKpis(s);
      if (s.status?.state === 'error') kpis.append(h('p', { class: 'error', role: 'alert' }, 'Reading results failed: ' + s.status.error + ' (showing what was read before)'));
    } catch (err) {
      clear(kpis, errorBox(err));
    }
  }

  async function loadCalls() {
    let calls;
    try {
      calls = await api.get('sentiment/calls', { live: 1, limit: 50 });
    } catch (err) {
      clear(callHead, errorBox(err));
      return;
    }
    calls = (calls || []).slice().sort((a, b) => (ms(b.call_start) || 0) - (ms(a.call_start) || 0));
    for (const c of calls) knownCalls.add(c.call);
    const prev = selectedCall;
    clear(callSelect, calls.length ? calls.map((c) => h('option', { value: c.call }, `${c.agent} · ${c.team} · ${c.call}`)) : h('option', { value: '' }, 'No live call'));
    if (follow && calls.length && calls[0].call !== prev) selectCall(calls[0].call);
    else if (prev && calls.some((c) => c.call === prev)) callSelect.value = prev;
    else if (prev) {
      callSelect.prepend(h('option', { value: prev }, prev + ' (ended)'));
      callSelect.value = prev;
    } else if (calls.length) selectCall(calls[0].call);
    if (!calls.length && !prev) renderCall();
  }

  async function selectCall(id) {
    selectedCall = id;
    callSelect.value = id;
    sentences = new Map();
    callInfo = null;
    renderCall();
    if (!id) return;
    try {
      const c = await api.get('sentiment/call', { id });
      if (selectedCall !== id) return;
      callInfo = c;
      for (const s of c.sentences || []) sentences.set(s.index, s);
      renderCall();
    } catch (err) {
      clear(callHead, errorBox(err));
    }
  }

  function sentenceItem(s, fresh) {
    const l = labelName(s.label);
    const gt = labelName(s.ground_truth);
    return h('li', { class: 'sentence ' + (s.speaker === 'agent' ? 'agent' : 'customer') + (fresh && fresh.has(s.index) ? ' new' : ''), dataset: { index: s.index, endMs: (ms(s.call_start) || 0) + Math.round((s.end || 0) * 1000) } },
      h('span', { class: 'at' }, clock(s.start)),
      h('span', { class: 'who' }, s.speaker === 'agent' ? 'Agent' : 'Customer'),
      h('span', { class: 'text' }, s.text != null && s.text !== '' ? s.text : h('em', { class: 'muted' }, 'transcript withheld')),
      chip(l, statusKind(l)),
      h('span', { class: 'conf', title: 'model confidence' }, fmtPct((s.confidence || 0) * 100)),
      gt && gt !== l ? h('span', { class: 'gt', title: 'human label' }, 'human: ' + gt) : null);
  }

  function renderCall(fresh = null) {
    const list = [...sentences.values()].sort((a, b) => a.index - b.index);
    const first = list[0] || callInfo || {};
    if (!selectedCall) {
      clear(callHead, h('p', { class: 'empty' }, 'No call is live right now; the list updates as calls arrive.'));
    } else {
      const start = ms(callInfo?.call_start ?? first.call_start);
      const mean = list.length ? list.reduce((a, s) => a + scoreOf(s.label), 0) / list.length : null;
      const duration = list.length ? list[list.length - 1].end : 0;
      clear(callHead,
        h('div', { class: 'call-meta' },
          h('strong', {}, first.agent || callInfo?.agent || ''), ' · ', first.team || callInfo?.team || '', ' · ',
          h('code', {}, selectedCall), start ? ' · started ' + fmtTime(new Date(start).toISOString()) : '',
          ` · ${list.length} sentences · ${fmtDuration(duration)}`),
        h('div', { class: 'call-score' }, 'Mean ', chip(fmtScore(mean), scoreKind(mean)), ' · last ', list.length ? chip(labelName(list[list.length - 1].label), statusKind(labelName(list[list.length - 1].label))) : '—'));
    }
    clear(sentenceList, list.map((s) => sentenceItem(s, fresh)));
    sentenceList.parentElement.scrollTop = sentenceList.parentElement.scrollHeight;
    // Running mean over the call, plotted at each sentence's end time.
    const start = ms(callInfo?.call_start ?? first.call_start) || 0;
    let sum = 0;
    const xs = [], run = [], lab = [];
    list.forEach((s, i) => {
      sum += scoreOf(s.label);
      xs.push((start + (s.end || 0) * 1000) / 1000);
      run.push(s.running ?? sum / (i + 1));
      lab.push(scoreOf(s.label));
    });
    callChart.update([{ label: 'running mean', color: PALETTE[0], width: 2 }, { label: 'sentence', color: '#999', width: 1, dash: [2, 3] }], [xs, run, lab], { empty: !xs.length });
  }

  function scoreOf(label) {
    const l = labelName(label);
    return l === 'positive' ? 1 : l === 'negative' ? -1 : 0;
  }

  const refreshSoon = debounce(() => { loadSummary(); loadAgents(); }, 2000);
  unsubs.push(store.onStream('sentences', (rows) => {
    const fresh = new Set();
    let newCall = false;
    for (const s of rows) {
      if (!knownCalls.has(s.call)) { knownCalls.add(s.call); newCall = true; }
      if (s.call === selectedCall) { sentences.set(s.index, s); fresh.add(s.index); }
    }
    if (fresh.size) renderCall(fresh);
    if (newCall) loadCalls();
    refreshSoon();
  }));

  // The feed's sentiment_calls diffs: a call started or ended (live flag) -> refresh the picker.
  const callsSoon = debounce(() => loadCalls(), 500);
  unsubs.push(store.onStream('sentiment_calls', () => callsSoon()));

  async function loadAgents() {
    try {
      agentsTable.setRows((await api.get('sentiment/agents', { range })) || []);
    } catch (err) {
      clear(agentDetail, errorBox(err));
    }
  }

  let agentChart = null;
  async function showAgent(a) {
    clear(agentDetail, h('h3', {}, `${a.agent}'s recent calls`), h('p', { class: 'muted' }, 'Loading…'));
    let calls = [];
    try {
      calls = (await api.get('sentiment/calls', { agent: a.agent, limit: 20 })) || [];
    } catch (err) {
      clear(agentDetail, errorBox(err));
      return;
    }
    if (agentChart) agentChart.destroy();
    const chartBox = h('div', {});
    const list = h('div', {});
    clear(agentDetail, h('h3', {}, `${a.agent} (${a.team})`), chartBox, list);
    const trend = (a.trend || []).map((p) => [ms(p.day ?? p.day_ms ?? p.time) / 1000, p.mean]).filter(([t]) => t);
    agentChart = new TimeChart(chartBox, { height: 140, yRange: [-1, 1], yFormat: (v) => fmtScore(v), ariaLabel: `${a.agent}'s daily mean sentiment` });
    agentChart.update([{ label: 'daily mean', color: PALETTE[0], width: 2 }], [trend.map((p) => p[0]), trend.map((p) => p[1])], { empty: !trend.length });
    const t = new DataTable(list, {
      caption: `${a.agent}'s calls`, filter: false, rowKey: (r) => r.call, sort: { key: 'call_start', dir: -1 },
      onRowClick: (r) => { follow = false; followBox.checked = false; selectCall(r.call); liveCard.el.scrollIntoView({ behavior: 'smooth' }); },
      columns: [
        { key: 'call_start', label: 'Started', value: (r) => ms(r.call_start), render: (r) => fmtTime(new Date(ms(r.call_start)).toISOString()) },
        { key: 'call', label: 'Call', render: (r) => h('span', {}, r.call, r.live ? h('span', {}, ' ', chip('live', 'good')) : null) },
        { key: 'duration', label: 'Length', align: 'right', render: (r) => fmtDuration(r.duration) },
        { key: 'mean', label: 'Mean', align: 'right', render: (r) => chip(fmtScore(r.mean), scoreKind(r.mean)) },
        { key: 'customer_mean', label: 'Customer', align: 'right', render: (r) => fmtScore(r.customer_mean) },
        { key: 'counts', label: 'Labels', value: (r) => counts(r.counts).negative, render: (r) => distribution(r.counts, r.call) },
      ],
    });
    t.setRows(calls);
  }

  async function loadTeams() {
    const bucket = range <= 3600 ? 300 : range <= 86400 ? 3600 : range <= 604800 ? 21600 : 86400;
    let teams;
    try {
      const answer = await api.get('sentiment/teams', { range, bucket });
      teams = (Array.isArray(answer) ? answer : answer?.teams) || [];
    } catch (err) {
      clear(teamsCard.body, errorBox(err));
      teamCharts.forEach((c) => c.chart.destroy());
      teamCharts.clear();
      return;
    }
    const names = teams.map((t) => t.team).sort();
    for (const [name, c] of teamCharts) if (!names.includes(name)) { c.chart.destroy(); c.box.remove(); teamCharts.delete(name); }
    for (const t of teams.sort((a, b) => a.team.localeCompare(b.team))) {
      let c = teamCharts.get(t.team);
      if (!c) {
        const box = h('div', { class: 'team-chart' });
        const title = h('h3', {});
        box.append(title);
        teamsCard.body.append(box);
        c = { box, title, chart: new TimeChart(box, { height: 150, yRange: [0, 100], yFormat: (v) => fmtPct(v), ariaLabel: `Label shares of team ${t.team} over time` }) };
        teamCharts.set(t.team, c);
      }
      const n = counts(t.counts);
      clear(c.title, t.team, ' ', h('small', { class: 'muted' }, `${fmtNum(n.positive + n.neutral + n.negative)} sentences`), ' ', distribution(t.counts, t.team));
      const buckets = (t.buckets || []).map((b) => ({ t: ms(b.time ?? b.start ?? b.start_ms) / 1000, c: counts(b.counts ?? b) })).filter((b) => b.t).sort((a, b) => a.t - b.t);
      const xs = buckets.map((b) => b.t);
      const share = (b, l) => { const tot = b.c.positive + b.c.neutral + b.c.negative; return tot ? (b.c[l] / tot) * 100 : null; };
      // Stacked: each series is the cumulative share; the legend shows the band's own share.
      const neg = buckets.map((b) => share(b, 'negative'));
      const neu = buckets.map((b, i) => (neg[i] == null ? null : neg[i] + share(b, 'neutral')));
      const all = buckets.map((b, i) => (neg[i] == null ? null : 100));
      const own = (arrs, i) => (u, v, si, idx) => {
        if (idx == null || arrs[0][idx] == null) return '—';
        return fmtPct(arrs[0][idx] - (arrs[1] ? arrs[1][idx] : 0));
      };
      c.chart.update([
        { label: 'positive', color: LABEL_COLORS.positive, fill: LABEL_COLORS.positive, bars: true, value: own([all, neu]) },
        { label: 'neutral', color: LABEL_COLORS.neutral, fill: LABEL_COLORS.neutral, bars: true, value: own([neu, neg]) },
        { label: 'negative', color: LABEL_COLORS.negative, fill: LABEL_COLORS.negative, bars: true, value: own([neg]) },
      ], [xs, all, neu, neg], { empty: !xs.length });
    }
    if (!teams.length) clear(teamsCard.body, h('p', { class: 'empty' }, 'No calls in this range.'));
  }

  async function loadMetrics() {
    let m;
    try {
      m = await api.get('sentiment/metrics');
    } catch (err) {
      clear(metricsCard.body, errorBox(err));
      return;
    }
    const labels = m.labels || {};
    const get = (l, i) => (Array.isArray(labels) ? labels.find((x) => x.label === l) || labels[[2, 1, 0][i]] : labels[l]) || {};
    if (!m.labeled_sentences) {
      clear(metricsCard.body, h('p', { class: 'empty' }, 'No sentence carries a human label yet; precision and recall appear once ground truth arrives.'));
      return;
    }
    const rows = LABELS.map((l, i) => ({ label: l, ...get(l, i) }));
    const conf = Array.isArray(m.confusion) ? m.confusion : m.confusion?.matrix;
    clear(metricsCard.body,
      h('div', { class: 'kpis compact', role: 'list' },
        [['Mean sentiment difference', fmtScore(m.mean_sentiment_difference), m.mean_sentiment_difference > 0 ? 'model reads calls more positively than people' : m.mean_sentiment_difference < 0 ? 'model reads calls more negatively than people' : 'no bias'],
          ['Accuracy', fmtPct((m.accuracy || 0) * 100, 1), `macro F1 ${(m.macro_f1 || 0).toFixed(3)}`],
          ['Labelled', fmtNum(m.labeled_sentences), `sentences in ${fmtNum(m.labeled_calls)} calls`]].map(([l, v, d]) =>
          h('div', { class: 'kpi', role: 'listitem' }, h('span', { class: 'kpi-label' }, l), h('span', { class: 'kpi-value' }, v), h('span', { class: 'kpi-detail' }, d)))),
      h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Precision, recall and F1 per label' }, h('table', { class: 'data', id: 'metrics-table' },
        h('caption', { class: 'sr-only' }, 'Precision, recall and F1 per label'),
        h('thead', {}, h('tr', {}, ['Label', 'Precision', 'Recall', 'F1', 'Support', 'Predicted'].map((t, i) => h('th', { scope: 'col', class: i ? 'num' : '' }, t)))),
        h('tbody', {}, rows.map((r) => h('tr', {}, h('th', { scope: 'row' }, chip(r.label, statusKind(r.label))),
          h('td', { class: 'num' }, (r.precision ?? 0).toFixed(3)), h('td', { class: 'num' }, (r.recall ?? 0).toFixed(3)), h('td', { class: 'num' }, (r.f1 ?? 0).toFixed(3)),
          h('td', { class: 'num' }, fmtNum(r.support)), h('td', { class: 'num' }, fmtNum(r.predicted))))))),
      Array.isArray(conf) && conf.length === 3
        ? h('table', { class: 'data confusion' },
            h('caption', {}, 'Confusion (rows: human label, columns: model)'),
            h('thead', {}, h('tr', {}, h('td', {}), ['negative', 'neutral', 'positive'].map((l) => h('th', { scope: 'col', class: 'num' }, l)))),
            h('tbody', {}, ['negative', 'neutral', 'positive'].map((l, i) => h('tr', {}, h('th', { scope: 'row' }, l), conf[i].map((v, j) => h('td', { class: 'num' + (i === j ? ' diag' : '') }, fmtNum(v)))))))
        : null,
      m.models?.length ? h('p', { class: 'muted small' }, 'Models: ' + m.models.join(', ')) : null);
  }

  function setRange(secs) {
    range = secs;
    prefs.set('sentRange', secs);
    for (const b of rangeGroup.querySelectorAll('button')) b.setAttribute('aria-checked', String(Number(b.dataset.range) === secs));
    loadSummary();
    loadAgents();
    loadTeams();
    agentsCard.el.querySelector('.card-head .sub').textContent = agentsSubtitle();
  }

  callSelect.addEventListener('change', () => { follow = false; followBox.checked = false; selectCall(callSelect.value); });
  followBox.addEventListener('change', () => { follow = followBox.checked; if (follow) loadCalls(); });

  // A server without a sentiment reader answers 404: say so once instead of in every card.
  api.get('sentiment/summary', { range }).then(() => {
    loadSummary();
    loadCalls();
    loadAgents();
    loadTeams();
    loadMetrics();
    timers.push(setInterval(loadCalls, 10000));
    timers.push(setInterval(() => { loadTeams(); loadMetrics(); }, 30000));
  }, (err) => {
    if (err.status !== 404) { loadSummary(); return; }
    grid.hidden = true;
    rangeGroup.hidden = true;
    clear(kpis, h('div', { class: 'card wide notice', role: 'status' },
      h('h2', {}, 'Sentiment is not configured on this server'),
      h('p', {}, 'The sentiment dashboards read TR-4910 sentence results (JSON Lines) from a StorageGRID bucket. Add a "sentiment" section to the server\'s configuration file: {"source": "<StorageGRID source>", "bucket": "sentiment", "prefix": "calls/"}.')));
  });

  return () => {
    timers.forEach(clearInterval);
    unsubs.forEach((u) => u());
    callChart.destroy();
    if (agentChart) agentChart.destroy();
    teamCharts.forEach((c) => c.chart.destroy());
  };
}

function statusKind(l) {
  return l === 'positive' ? 'good' : l === 'negative' ? 'bad' : 'neutral';
}
