// Admin: the console's users (add, change role or password, remove; every change audited on the
// server) and the sources (health; add, replace or remove, with secrets kept server-side). Only shown to admins; the server enforces the role.
import * as api from '../api.js';
import { h, clear, fmtTime, fmtAgo, chip, statusKind, label } from '../util.js';
import { DataTable, card, errorBox } from '../table.js';

export function mount(main, ctx) {
  const unsubs = [];
  main.append(h('div', { class: 'page-head' }, h('h1', {}, 'Administration')));
  const usersCard = card('Users', { id: 'card-users', wide: true, subtitle: 'who may sign in to this console, and their role' });
  const sourcesCard = card('Sources', { id: 'card-sources', wide: true, subtitle: 'the systems this server polls (secrets never leave the server)' });
  main.append(h('div', { class: 'grid' }, usersCard.el, sourcesCard.el));

  const usersErr = h('div');
  const status = h('p', { class: 'sub', role: 'status', 'aria-live': 'polite' });
  usersCard.body.append(usersErr);
  const users = new DataTable(usersCard.body, {
    caption: 'Users', rowKey: (r) => r.name, sort: { key: 'name' }, emptyText: 'No users.',
    columns: [
      { key: 'name', label: 'User' },
      { key: 'role', label: 'Role', render: (r) => chip(r.role, r.role === 'admin' ? 'warn' : 'ok') },
      { key: 'created', label: 'Created', render: (r) => h('span', { title: fmtTime(r.created) }, fmtAgo(r.created)) },
    ],
    actions: (r) => r.name === ctx.session.user ? [] : [
      h('button', {
        class: 'btn small danger', type: 'button', 'aria-label': `Remove user ${r.name}`,
        onclick: async () => {
          if (!confirm(`Remove user ${r.name}? Their sessions end at once.`)) return;
          try {
            await api.del('users/' + encodeURIComponent(r.name));
            status.textContent = `Removed ${r.name}.`;
            load();
          } catch (e) { clear(usersErr, errorBox(e)); }
        },
      }, 'Remove'),
    ],
  });

  const name = h('input', { id: 'new-user-name', name: 'name', required: true, autocomplete: 'off', pattern: '[A-Za-z0-9._@\\-]{1,64}' });
  const password = h('input', { id: 'new-user-password', name: 'password', type: 'password', required: true, minlength: '8', autocomplete: 'new-password' });
  const role = h('select', { id: 'new-user-role', name: 'role' },
    ['viewer', 'operator', 'admin'].map((r) => h('option', { value: r }, r)));
  const submit = h('button', { class: 'btn primary', type: 'submit' }, 'Add or update user');
  const form = h('form', {
    class: 'inline-form', 'aria-label': 'Add or update a user',
    onsubmit: async (ev) => {
      ev.preventDefault();
      submit.disabled = true;
      clear(usersErr);
      status.textContent = 'Saving…';
      try {
        const r = await api.post('users', { name: name.value.trim(), password: password.value, role: role.value });
        password.value = '';
        status.textContent = `${r.name} is now ${r.role}.`;
        load();
      } catch (e) {
        status.textContent = '';
        clear(usersErr, errorBox(e));
      } finally {
        submit.disabled = false;
      }
    },
  },
  h('label', { for: 'new-user-name' }, 'Name'), name,
  h('label', { for: 'new-user-password' }, 'Password (8+ characters)'), password,
  h('label', { for: 'new-user-role' }, 'Role'), role, submit);
  usersCard.body.append(form, status);

  async function load() {
    try {
      users.setRows((await api.get('users')) || []);
      clear(usersErr);
    } catch (e) { clear(usersErr, errorBox(e)); }
  }
  load();

  const sourcesErr = h('div');
  sourcesCard.body.append(sourcesErr);
  const sources = new DataTable(sourcesCard.body, {
    caption: 'Sources', rowKey: (r) => r.name, sort: { key: 'name' }, emptyText: 'No source is configured.',
    columns: [
      // Replicas sharing a store: which one polls the source (the others show what it shares).
      { key: 'name', label: 'Source', render: (r) => h('span', {}, r.name, r.polled_by ? h('small', { class: 'muted sub-line', title: 'The strata-server replica that polls this source' }, 'polled by ' + r.polled_by) : null) },
      { key: 'kind', label: 'Kind', value: (r) => label(r.kind) },
      { key: 'health', label: 'Health', value: (r) => (r.stale ? 'Stale' : label(r.health)), render: (r) => chip(r.stale ? 'Stale' : label(r.health), statusKind(r.stale ? 'stale' : r.health)) },
      { key: 'version', label: 'Version' },
      { key: 'last_success', label: 'Last poll', render: (r) => h('span', { title: fmtTime(r.last_success) }, fmtAgo(r.last_success)) },
      { key: 'last_error', label: 'Last error' },
    ],
    actions: (r) => [
      h('button', {
        class: 'btn small danger', type: 'button', 'aria-label': `Remove source ${r.name}`,
        onclick: async () => {
          if (!confirm(`Remove source ${r.name}? It is no longer polled and its stored secrets are deleted.`)) return;
          try {
            const res = await api.del('sources/' + encodeURIComponent(r.name));
            sourceStatus.textContent = `Removed ${r.name}` + (res && res.saved === false ? ' (in memory only: no config file).' : '.');
          } catch (e) { clear(sourcesErr, errorBox(e)); }
        },
      }, 'Remove'),
    ],
  });

  // Add or update: the config-file fields; secrets go to the server's credential store, never
  // into the config, and are not shown again (leave them empty to keep the stored ones).
  const sourceStatus = h('p', { class: 'sub', role: 'status', 'aria-live': 'polite' });
  // Each input carries its own error line: the server's sentence for that field (the same the
  // desktop dialog shows), announced through aria-describedby.
  const field = (id, label, attrs = {}) => {
    const error = h('span', { class: 'field-error', id: 'source-' + id + '-error', hidden: true });
    const input = h('input', { id: 'source-' + id, name: id, autocomplete: 'off', 'aria-describedby': 'source-' + id + '-error', ...attrs });
    return { input, error, cell: h('span', { class: 'field-cell' }, input, error), label: h('label', { for: 'source-' + id }, label) };
  };
  const kind = h('select', { id: 'source-kind', name: 'kind' },
    ['ontap', 'kubernetes', 'azure', 'storagegrid'].map((k) => h('option', { value: k }, label(k))));
  const f = {
    name: field('name', 'Name', { required: true, pattern: '[A-Za-z0-9._\\-]+' }),
    url: field('url', 'URL', { type: 'url', placeholder: 'https://cluster.example.com' }),
    username: field('username', 'User'),
    password: field('password', 'Password or secret', { type: 'password', autocomplete: 'new-password' }),
    ca_file: field('ca_file', 'CA file (server path)'),
    s3_url: field('s3_url', 'S3 URL', { type: 'url' }),
    s3_access_key: field('s3_access_key', 'S3 access key'),
    s3_secret: field('s3_secret', 'S3 secret', { type: 'password', autocomplete: 'new-password' }),
    dataset_roots: field('dataset_roots', 'Dataset roots (comma-separated)', { placeholder: 'bucket/*' }),
  };
  const gridOnly = h('fieldset', { class: 'inline-form' }, h('legend', {}, 'StorageGRID dataset hub'),
    ...['s3_url', 's3_access_key', 's3_secret', 'dataset_roots'].flatMap((k) => [f[k].label, f[k].cell]));
  // .inline-form's display: flex would beat the hidden attribute.
  const showGrid = () => { gridOnly.style.display = kind.value === 'storagegrid' ? '' : 'none'; };
  kind.addEventListener('change', showGrid);
  showGrid();
  const saveSource = h('button', { class: 'btn primary', type: 'submit' }, 'Add or update source');
  const sourceForm = h('form', {
    class: 'inline-form', 'aria-label': 'Add or update a source',
    onsubmit: async (ev) => {
      ev.preventDefault();
      const body = { kind: kind.value };
      for (const k of ['name', 'url', 'username', 'password', 'ca_file']) {
        const v = k === 'password' ? f[k].input.value : f[k].input.value.trim();
        if (v) body[k] = v;
      }
      if (kind.value === 'storagegrid') {
        for (const k of ['s3_url', 's3_access_key', 's3_secret']) {
          const v = k === 's3_secret' ? f[k].input.value : f[k].input.value.trim();
          if (v) body[k] = v;
        }
        const roots = f.dataset_roots.input.value.split(',').map((x) => x.trim()).filter(Boolean);
        if (roots.length) body.dataset_roots = roots;
      }
      saveSource.disabled = true;
      clear(sourcesErr);
      for (const x of Object.values(f)) {
        x.input.removeAttribute('aria-invalid');
        x.error.hidden = true;
        x.error.textContent = '';
      }
      sourceStatus.textContent = 'Saving…';
      try {
        const r = await api.post('sources', body);
        f.password.input.value = '';
        f.s3_secret.input.value = '';
        sourceStatus.textContent = `Saved ${r.name}` + (r.saved === false ? ' (in memory only: no config file).' : '.');
      } catch (e) {
        sourceStatus.textContent = '';
        // The server names each field it refused (a changed URL needs the password again, ...):
        // its sentence goes next to that field; the others (kind, Azure keys) above the form.
        const refused = e.errors && e.errors.length ? e.errors : (e.field ? [{ field: e.field, message: e.message }] : []);
        const placed = refused.filter((x) => f[x.field]);
        for (const x of placed) {
          const t = f[x.field];
          if (t.error.hidden) {
            t.error.textContent = x.message;
            t.error.hidden = false;
          }
          t.input.setAttribute('aria-invalid', 'true');
        }
        const elsewhere = refused.filter((x) => !f[x.field]).map((x) => x.message);
        if (!refused.length) clear(sourcesErr, errorBox(e));
        else if (elsewhere.length) clear(sourcesErr, errorBox(new Error(elsewhere.join(' '))));
        if (placed.length) f[placed[0].field].input.focus();
      } finally {
        saveSource.disabled = false;
      }
    },
  },
  h('label', { for: 'source-kind' }, 'Kind'), kind,
  ...['name', 'url', 'username', 'password', 'ca_file'].flatMap((k) => [f[k].label, f[k].cell]),
  gridOnly, saveSource);
  sourcesCard.body.append(sourceForm, sourceStatus);
  unsubs.push(ctx.store.subscribe('sources', (rows, changed, err) => {
    if (err) { clear(sourcesErr, errorBox(err)); return; }
    clear(sourcesErr);
    sources.setRows(rows, changed);
  }));
  return () => unsubs.forEach((u) => u());
}
