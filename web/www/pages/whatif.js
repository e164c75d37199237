// Quota what-if on the Utilization page: edit a cluster's project quotas (and KAI over-quota
// weights), ask the server which jobs would start, be preempted or stay queued
// (POST /api/v1/what-if/quota, the core allocator of `strata what-if quota`), and apply a quota
// through the audited project.quota action. Nothing changes until an action runs.
import * as api from '../api.js';
import { h, clear, fmtGpus, chip, label } from '../util.js';
import { DataTable, errorBox } from '../table.js';
import { openAction } from '../actions.js';

const OUTCOME_KIND = { preempted: 'bad', starts: 'good', stays_queued: 'warn', keeps_running: '' };
const beforeAfter = (a, b, fmt = fmtGpus) => (a === b ? fmt(b) : `${fmt(a)} → ${fmt(b)}`);

/// Fills `body` (a card's body). `cluster()` is the selected Kubernetes source ('' = all).
export function mountWhatIf(body, ctx, cluster) {
  const form = h('form', { class: 'whatif-form', id: 'whatif-form', 'aria-label': 'Quotas to try' });
  const summary = h('p', { class: 'muted small', id: 'whatif-summary', 'aria-live': 'polite' });
  const result = h('div', { id: 'whatif-result' });
  body.append(form, summary, result);
  result.append(h('h3', {}, 'Projects, now → predicted'));
  let inputs = new Map(); // project -> {quota, weight, row}
  let shownFor = null;
  let layout = null; // cluster and project names the inputs were built for

  const projectTable = new DataTable(result, {
    caption: 'Projects before and after',
    rowKey: (r) => r.project,
    filter: false,
    sort: { key: 'project' },
    columns: [
      { key: 'project', label: 'Project' },
      { key: 'quota_after', label: 'Quota', align: 'right', render: (r) => beforeAfter(r.quota_before, r.quota_after) },
      { key: 'allocated_after', label: 'Allocated', align: 'right', render: (r) => beforeAfter(r.allocated_before, r.allocated_after) },
      { key: 'fair_share_after', label: 'Fair share', align: 'right', render: (r) => beforeAfter(r.fair_share_before, r.fair_share_after) },
      { key: 'queued_after', label: 'Queued', align: 'right', render: (r) => beforeAfter(r.queued_before, r.queued_after, String) },
      { key: 'starts', label: 'Start', align: 'right' },
      { key: 'preempted', label: 'Preempted', align: 'right', render: (r) => (r.preempted ? chip(String(r.preempted), 'bad') : '0') },
    ],
    actions: ctx.canAct ? (r) => (r.quota_before !== r.quota_after ? [
      h('button', { type: 'button', class: 'btn small', 'aria-label': `Apply quota ${fmtGpus(r.quota_after)} to ${r.project}`, onclick: () => apply(r) }, 'Apply quota'),
    ] : []) : null,
  });
  result.append(h('h3', {}, 'Jobs that would change or stay queued'));
  const jobTable = new DataTable(result, {
    caption: 'Jobs that would change',
    rowKey: (r) => r.job,
    filter: false,
    emptyText: 'No job would start or be preempted.',
    sort: { key: 'outcome' },
    columns: [
      { key: 'name', label: 'Job' },
      { key: 'project', label: 'Project' },
      { key: 'gpus', label: 'GPUs', align: 'right', render: (r) => fmtGpus(r.gpus) },
      { key: 'outcome', label: 'Outcome', value: (r) => label(r.outcome), render: (r) => chip(label(r.outcome), OUTCOME_KIND[r.outcome] || '') },
      { key: 'node', label: 'Node', render: (r) => r.node || '—' },
      { key: 'reason', label: 'Reason', render: (r) => r.reason || '—' },
    ],
  });

  function apply(row) {
    openAction({
      title: `Change the quota of ${row.project}`,
      description: `Sets ${row.project}'s guaranteed GPUs on ${shownFor} from ${fmtGpus(row.quota_before)} to ${fmtGpus(row.quota_after)}.`,
      request: { kind: 'project.quota', source: shownFor, project: row.project, quota: row.quota_after },
    });
  }

  async function predict(e) {
    e?.preventDefault();
    const source = cluster();
    const quotas = {};
    const weights = {};
    for (const [project, f] of inputs) {
      if (f.quota.value !== '' && Number(f.quota.value) !== f.row.quota) quotas[project] = Number(f.quota.value);
      if (f.weight.value !== '') weights[project] = Number(f.weight.value);
    }
    summary.textContent = 'Predicting…';
    try {
      const w = await api.retryWhenBusy(() => api.post('what-if/quota', { source, quotas, weights }),
        (s) => { summary.textContent = `The server is busy with other predictions; trying again in ${s} s…`; });
      shownFor = w.cluster;
      const sums = `quotas ${beforeAfter(w.quota_total_before, w.quota_total_after)} of ${fmtGpus(w.capacity_gpus)} GPUs`;
      const mismatch = w.quota_total_after !== w.capacity_gpus ? ' (Run:ai expects the quotas to add up to the cluster\'s GPUs)' : '';
      const changes = w.jobs.filter((j) => j.outcome === 'starts' || j.outcome === 'preempted');
      summary.textContent = `${w.cluster}: ${sums}${mismatch}; spare GPUs split by ${w.spare_split === 'quota' ? 'quota' : 'over-quota weight'}. `
        + `${changes.filter((j) => j.outcome === 'starts').length} would start, ${changes.filter((j) => j.outcome === 'preempted').length} would be preempted. Nothing has changed.`;
      projectTable.setRows(w.projects);
      jobTable.setRows(w.jobs.filter((j) => j.outcome !== 'keeps_running'));
      result.hidden = false;
    } catch (err) {
      clear(summary, errorBox(err));
    }
  }

  /// Rebuilds the inputs from the live projects of the selected cluster, keeping typed values.
  function render(projects) {
    const source = cluster();
    const rows = projects.filter((p) => p.source === source).sort((a, b) => a.name.localeCompare(b.name));
    if (!source || !rows.length) {
      clear(form, h('p', { class: 'empty' }, source ? 'No projects on this cluster yet.' : 'Choose one cluster above to try other quotas.'));
      inputs = new Map();
      layout = null;
      result.hidden = true;
      summary.textContent = '';
      return;
    }
    // Live updates of the same projects keep the inputs (and the focus of someone typing).
    const signature = source + '|' + rows.map((p) => p.name).join(',');
    if (signature === layout) {
      for (const p of rows) inputs.get(p.name).row = p;
      return;
    }
    layout = signature;
    const typed = new Map([...inputs].map(([p, f]) => [p, { quota: f.quota.value, weight: f.weight.value }]));
    const keep = shownFor === source;
    inputs = new Map();
    const grid = h('div', { class: 'whatif-grid', role: 'group', 'aria-label': 'Quotas and over-quota weights' },
      h('span', { class: 'muted small' }, 'Project'), h('span', { class: 'muted small' }, 'Quota (GPUs)'), h('span', { class: 'muted small' }, 'Over-quota weight'));
    for (const p of rows) {
      const quota = h('input', { type: 'number', min: '0', step: '0.5', inputmode: 'decimal', id: `whatif-quota-${p.name}`, 'aria-label': `Quota of ${p.name} in GPUs`, value: keep && typed.has(p.name) ? typed.get(p.name).quota : String(p.quota ?? 0) });
      const weight = h('input', { type: 'number', min: '0', step: '0.5', inputmode: 'decimal', id: `whatif-weight-${p.name}`, 'aria-label': `Over-quota weight of ${p.name}`, placeholder: 'by quota', value: keep && typed.has(p.name) ? typed.get(p.name).weight : '' });
      inputs.set(p.name, { quota, weight, row: p });
      grid.append(h('label', { for: quota.id }, p.name), quota, weight);
    }
    const reset = h('button', { type: 'button', class: 'btn ghost' }, 'Reset');
    reset.addEventListener('click', () => {
      for (const f of inputs.values()) {
        f.quota.value = String(f.row.quota ?? 0);
        f.weight.value = '';
      }
      predict();
    });
    clear(form, grid, h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'btn primary', id: 'whatif-predict' }, 'Predict'), reset));
    if (!keep) {
      result.hidden = true;
      summary.textContent = 'Change quotas and press Predict: Strata runs the Run:ai/KAI queue rules on the live jobs. Nothing changes until you apply a quota.';
    }
  }
  form.addEventListener('submit', predict);
  result.hidden = true;
  return { render };
}
