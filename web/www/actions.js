// Operator actions: form -> POST /api/v1/actions/preview (effects, warnings, blocked reason) ->
// explicit confirmation -> POST /api/v1/actions -> poll /api/v1/actions/<id> until it ends.
// The server checks the role and CSRF token again; this dialog only shows what it answers.
import * as api from './api.js';
import { h, clear } from './util.js';

let dialog = null;

function ensureDialog() {
  if (dialog) return dialog;
  dialog = h('dialog', { id: 'action-dialog', 'aria-labelledby': 'action-title' });
  document.body.append(dialog);
  dialog.addEventListener('cancel', (e) => {
    if (dialog.dataset.busy === '1') e.preventDefault();
  });
  return dialog;
}

/// spec: {title, request: {...ActionRequest JSON}, fields: [{name, label, type: 'select'|'text', options, value, required}],
///        onDone(record)}
export function openAction(spec) {
  const dlg = ensureDialog();
  const form = h('form', { method: 'dialog', class: 'action-form' });
  const inputs = {};
  for (const f of spec.fields || []) {
    const id = 'af-' + f.name;
    let input;
    if (f.type === 'select') {
      input = h('select', { id, name: f.name, required: f.required }, f.options.map((o) => {
        const [value, label] = Array.isArray(o) ? o : [o, o];
        return h('option', { value, selected: value === f.value }, label);
      }));
    } else {
      input = h('input', { id, name: f.name, type: 'text', value: f.value ?? '', placeholder: f.placeholder, required: f.required, autocomplete: 'off' });
    }
    input.addEventListener('input', () => resetPreview());
    input.addEventListener('change', () => resetPreview());
    inputs[f.name] = input;
    form.append(h('div', { class: 'field' }, h('label', { for: id }, f.label), input, f.help ? h('small', {}, f.help) : null));
  }
  const previewBox = h('div', { class: 'preview', 'aria-live': 'polite' });
  const progress = h('div', { class: 'progress', hidden: true }, h('progress', { max: 100, 'aria-label': 'Action progress' }), h('span', { class: 'progress-text' }));
  const previewBtn = h('button', { type: 'button', class: 'btn' }, 'Preview');
  const runBtn = h('button', { type: 'button', class: 'btn primary', disabled: true }, 'Run');
  const closeBtn = h('button', { type: 'button', class: 'btn ghost' }, 'Cancel');
  let preview = null;
  let request = null;

  function buildRequest() {
    const r = { ...spec.request };
    for (const f of spec.fields || []) r[f.name] = inputs[f.name].value;
    return spec.map ? spec.map(r) : r;
  }

  function resetPreview() {
    preview = null;
    runBtn.disabled = true;
    clear(previewBox);
  }

  async function doPreview() {
    request = buildRequest();
    previewBtn.disabled = true;
    clear(previewBox, h('p', { class: 'muted' }, 'Asking the server what this will do…'));
    try {
      preview = await api.post('actions/preview', request);
      renderPreview(preview);
      runBtn.disabled = !!preview.blocked_reason;
      if (!preview.blocked_reason) runBtn.focus();
    } catch (err) {
      clear(previewBox, h('p', { class: 'error', role: 'alert' }, err.status === 403 ? 'Not allowed: ' + err.message : err.message));
    } finally {
      previewBtn.disabled = false;
    }
  }

  function renderPreview(p) {
    clear(previewBox,
      h('h3', {}, p.title || spec.title),
      p.target ? h('p', {}, h('strong', {}, 'Target: '), p.target) : null,
      p.from || p.to ? h('p', {}, h('strong', {}, 'Change: '), p.from || '—', ' → ', p.to || '—') : null,
      p.effects?.length ? h('ul', { class: 'effects' }, p.effects.map((e) => h('li', {}, e))) : null,
      p.warnings?.length ? h('div', { class: 'warnings', role: 'alert' }, h('strong', {}, 'Warning'), h('ul', {}, p.warnings.map((w) => h('li', {}, w)))) : null,
      p.blocked_reason ? h('p', { class: 'blocked', role: 'alert' }, h('strong', {}, 'Cannot run: '), p.blocked_reason) : null);
    if (p.destructive) runBtn.classList.add('danger');
  }

  async function doRun() {
    runBtn.disabled = true;
    previewBtn.disabled = true;
    dlg.dataset.busy = '1';
    progress.hidden = false;
    const bar = progress.querySelector('progress');
    const text = progress.querySelector('.progress-text');
    bar.removeAttribute('value');
    text.textContent = 'Submitting…';
    let record = null;
    try {
      const { id } = await api.post('actions', request);
      for (;;) {
        record = await api.get('actions/' + encodeURIComponent(id));
        if (record.progress != null && record.progress >= 0) bar.value = record.progress;
        text.textContent = (record.state || "") + (record.progress_text || record.message ? " — " + (record.progress_text || record.message) : "");
        if (record.state && record.state !== 'running') break;
        await new Promise((r) => setTimeout(r, 700));
      }
      const ok = record.state === 'succeeded';
      text.textContent = ok ? 'Done' + (record.message ? ': ' + record.message : '') : 'Failed: ' + (record.message || record.state);
      progress.classList.toggle('failed', !ok);
      if (ok) bar.value = 100;
      window.dispatchEvent(new CustomEvent('strata:action', { detail: record }));
      spec.onDone?.(record);
    } catch (err) {
      text.textContent = (err.status === 403 ? 'Not allowed: ' : 'Failed: ') + err.message;
      progress.classList.add('failed');
    } finally {
      dlg.dataset.busy = '0';
      closeBtn.textContent = 'Close';
      runBtn.hidden = true;
      previewBtn.hidden = true;
      closeBtn.focus();
    }
  }

  previewBtn.addEventListener('click', doPreview);
  runBtn.addEventListener('click', doRun);
  closeBtn.addEventListener('click', () => dlg.close());
  form.addEventListener('submit', (e) => { e.preventDefault(); doPreview(); });

  clear(dlg,
    h('h2', { id: 'action-title' }, spec.title),
    spec.description ? h('p', { class: 'muted' }, spec.description) : null,
    form, previewBox, progress,
    h('div', { class: 'dialog-buttons' }, closeBtn, previewBtn, runBtn));
  dlg.dataset.busy = '0';
  dlg.showModal();
  // Without fields there is nothing to fill in: show the preview straight away.
  if (!spec.fields?.length) doPreview();
  else Object.values(inputs)[0].focus();
}

/// A small button that opens an action (only rendered for operators). spec.what names what it acts
/// on ("job train-7"): its accessible name is the visible label followed by that, so a screen reader
/// tells the rows' buttons apart and speech input still finds the button by what it shows (WCAG 2.5.3).
export function actionButton(label, spec, { danger = false } = {}) {
  return h('button', { type: 'button', class: 'btn small' + (danger ? ' danger' : ''), 'aria-label': spec.what ? `${label} ${spec.what}` : null, onclick: () => openAction(spec) }, label);
}
