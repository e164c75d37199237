// Volumes: every ONTAP and Azure NetApp Files volume, kept live by the feed. The columns are the
// server's (GET /api/v1/fields/volumes): the one field list the desktop's Volumes table and
// `strata get volumes` are built from, so a field added there appears here unchanged. Each kind
// of figure is written by the formatter that follows the server's rules (fields.js).
import * as api from '../api.js';
import { h, clear, fmtBytes, fmtNum, rowKey } from '../util.js';
import { DataTable, card, errorBox } from '../table.js';
import { fieldColumns } from '../fields.js';

export function mount(main, ctx) {
  const unsubs = [];
  main.append(h('div', { class: 'page-head' }, h('h1', {}, 'Volumes')));
  const summary = h('div', { class: 'kpis', role: 'list', id: 'volume-summary', 'aria-label': 'Volumes' });
  const c = card('Volumes', { id: 'card-volumes', wide: true, subtitle: 'ONTAP and Azure NetApp Files' });
  const err = h('div');
  c.body.append(err);
  main.append(summary, h('div', { class: 'grid' }, c.el));
  let gone = false;
  api.get('fields/volumes').then(({ fields }) => {
    if (gone) return;
    const table = new DataTable(c.body, {
      caption: 'Volumes', rowKey, sort: { key: 'name' },
      emptyText: 'No volume: add an ONTAP cluster or an Azure NetApp Files account under Administration.',
      columns: fieldColumns(fields),
    });
    unsubs.push(ctx.store.subscribe('volumes', (rows, changed, e) => {
      if (e) { clear(err, errorBox(e)); return; }
      clear(err);
      table.setRows(rows, changed);
      const size = rows.reduce((a, v) => a + (v.size_bytes || 0), 0);
      const used = rows.reduce((a, v) => a + (v.used_bytes || 0), 0);
      const offline = rows.filter((v) => v.state !== 'online').length;
      const kpi = (l, v, d) => h('div', { class: 'kpi', role: 'listitem' }, h('span', { class: 'kpi-label' }, l), h('span', { class: 'kpi-value' }, v), h('span', { class: 'kpi-detail' }, d));
      clear(summary,
        kpi('Volumes', fmtNum(rows.length), offline ? `${fmtNum(offline)} not online` : 'all online'),
        kpi('Provisioned', fmtBytes(size), 'snapshot reserves included'),
        kpi('Used', fmtBytes(used), 'in the active file systems'));
    }));
  }, (e) => { if (!gone) clear(err, errorBox(e)); });
  return () => { gone = true; unsubs.forEach((u) => u()); };
}
