// A sortable, filterable table whose rows are updated in place by key (live diffs keep focus and
// scroll position; changed rows flash briefly).
import { h, clear } from './util.js';

// narrow: false = a detail column a phone leaves out (the row stays readable without scrolling).
function colClass(c) {
  return [c.align === 'right' ? 'num' : '', c.narrow === false ? 'wide-only' : ''].filter(Boolean).join(' ');
}

export class DataTable {
  /// columns: [{key, label, value(row) -> sortable, render(row) -> Node|string, align, width,
  /// narrow (false: hidden on phone-sized screens), help (the header's tooltip)}]
  /// actions(row) -> [Node] (operator buttons) or null; emptyText; filter: true for a search box;
  /// rowClass(row) -> a class for the row (e.g. 'row-warn') or null, kept current by updates.
  constructor(container, { columns, actions = null, emptyText = 'Nothing here.', filter = true, caption, sort, rowKey, onRowClick = null, limit = 500, rowClass = null }) {
    this.columns = columns;
    this.rowClass = rowClass;
    this.actions = actions;
    this.rowKey = rowKey;
    this.onRowClick = onRowClick;
    this.sortKey = sort?.key ?? columns[0].key;
    this.sortDir = sort?.dir ?? 1;
    this.query = '';
    this.limit = limit;
    this.rows = [];
    this.trs = new Map();
    this.emptyText = emptyText;

    this.tbody = h('tbody');
    this.ths = columns.map((c) => {
      const btn = h('button', { type: 'button', class: 'sort', title: c.help || null, onclick: () => this.sortBy(c.key) }, c.label);
      return h('th', { scope: 'col', class: colClass(c), style: c.width ? { width: c.width } : null, dataset: { key: c.key } }, btn);
    });
    const head = h('tr', {}, this.ths, actions ? h('th', { scope: 'col', class: 'actions-col' }, h('span', { class: 'sr-only' }, 'Actions')) : null);
    this.table = h('table', { class: 'data' }, caption ? h('caption', { class: 'sr-only' }, caption) : null, h('thead', {}, head), this.tbody);
    this.count = h('span', { class: 'count', 'aria-live': 'polite' });
    const tools = filter
      ? h('div', { class: 'table-tools' },
          h('input', { type: 'search', placeholder: 'Filter…', 'aria-label': 'Filter ' + (caption || 'rows'), oninput: (e) => { this.query = e.target.value.toLowerCase(); this.render(); } }),
          this.count)
      : null;
    // The page scrolls, not a box inside it (a fixed-height box cut the last row); wide tables
    // scroll sideways on narrow screens.
    this.root = h('div', { class: 'table-wrap' }, tools, h('div', { class: 'scroll' }, this.table));
    container.append(this.root);
    this.updateHeaders();
  }

  sortBy(key) {
    if (this.sortKey === key) this.sortDir = -this.sortDir;
    else { this.sortKey = key; this.sortDir = 1; }
    this.updateHeaders();
    this.render();
  }

  updateHeaders() {
    for (const th of this.ths) {
      const on = th.dataset.key === this.sortKey;
      th.setAttribute('aria-sort', on ? (this.sortDir > 0 ? 'ascending' : 'descending') : 'none');
    }
  }

  value(col, row) {
    return col.value ? col.value(row) : row[col.key];
  }

  setRows(rows, changed = null) {
    this.rows = rows;
    this.render(changed);
  }

  matches(row) {
    if (!this.query) return true;
    return this.columns.some((c) => {
      const v = this.value(c, row);
      return v != null && String(v).toLowerCase().includes(this.query);
    });
  }

  render(changed = null) {
    const col = this.columns.find((c) => c.key === this.sortKey) || this.columns[0];
    const rows = this.rows.filter((r) => this.matches(r));
    rows.sort((a, b) => {
      const x = this.value(col, a), y = this.value(col, b);
      if (x == null && y == null) return 0;
      if (x == null) return 1;
      if (y == null) return -1;
      return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), 'en', { numeric: true })) * this.sortDir;
    });
    const shown = rows.slice(0, this.limit);
    const seen = new Set();
    let prev = null;
    for (const row of shown) {
      const k = this.rowKey(row);
      seen.add(k);
      let entry = this.trs.get(k);
      if (!entry) {
        const tr = this.buildRow(row, k);
        if (changed && changed.has(k)) flash(tr);
        entry = { tr, row };
        this.trs.set(k, entry);
      } else if (entry.row !== row) {
        // Patch the cells in place: the row's buttons stay under the pointer and keep focus.
        const fresh = this.buildRow(row, k);
        const oldCells = [...entry.tr.children];
        const newCells = [...fresh.children];
        let differs = false;
        newCells.forEach((td, i) => {
          const old = oldCells[i];
          if (!old) { entry.tr.append(td); differs = true; return; }
          const isActions = old.classList.contains('actions-col');
          if (old.textContent === td.textContent && (isActions || old.innerHTML === td.innerHTML)) return;
          if (isActions && old.contains(document.activeElement)) return;
          old.replaceWith(td);
          differs = true;
        });
        entry.row = row;
        this.applyRowClass(entry.tr, row);
        if (differs && changed && changed.has(k)) flash(entry.tr);
      }
      const want = prev ? prev.nextSibling : this.tbody.firstChild;
      if (want !== entry.tr) this.tbody.insertBefore(entry.tr, want);
      prev = entry.tr;
    }
    for (const [k, entry] of this.trs) {
      if (!seen.has(k)) { entry.tr.remove(); this.trs.delete(k); }
    }
    for (const tr of [...this.tbody.querySelectorAll('tr.empty-row')]) tr.remove();
    if (!shown.length) {
      this.tbody.append(h('tr', { class: 'empty-row' }, h('td', { colspan: this.columns.length + (this.actions ? 1 : 0) }, this.rows.length ? 'No rows match the filter.' : this.emptyText)));
    }
    const noun = this.rows.length === 1 ? 'row' : 'rows';
    this.count.textContent = rows.length === this.rows.length ? `${rows.length} ${noun}` : `${rows.length} of ${this.rows.length} ${noun}`;
    if (rows.length > shown.length) this.count.textContent += ` (first ${shown.length} shown)`;
  }

  buildRow(row, k) {
    const tds = this.columns.map((c) => {
      const content = c.render ? c.render(row) : this.value(c, row);
      const plain = typeof content === 'string' || typeof content === 'number';
      return h('td', { class: colClass(c), dataset: { col: c.key }, title: plain && String(content).length > 24 ? String(content) : null }, content == null || content === '' ? '—' : content);
    });
    const tr = h('tr', { dataset: { key: k } }, tds);
    this.applyRowClass(tr, row);
    if (this.actions) {
      const btns = this.actions(row);
      tr.append(h('td', { class: 'actions-col' }, btns || ''));
    }
    if (this.onRowClick) {
      tr.classList.add('clickable');
      tr.tabIndex = 0;
      tr.addEventListener('click', (e) => { if (!e.target.closest('button')) this.onRowClick(row); });
      tr.addEventListener('keydown', (e) => { if (e.key === 'Enter' && e.target === tr) this.onRowClick(row); });
    }
    return tr;
  }

  applyRowClass(tr, row) {
    if (!this.rowClass) return;
    const want = this.rowClass(row) || '';
    if (tr.dataset.rowClass === want) return;
    if (tr.dataset.rowClass) tr.classList.remove(tr.dataset.rowClass);
    if (want) tr.classList.add(want);
    tr.dataset.rowClass = want;
  }

  destroy() {
    this.root.remove();
  }
}

export function flash(el) {
  el.classList.remove('flash');
  void el.offsetWidth;
  el.classList.add('flash');
}

export function card(title, { actions = null, id = null, wide = false, subtitle = null } = {}) {
  const body = h('div', { class: 'card-body' });
  const headId = id ? id + '-title' : null;
  const el = h('section', { class: 'card' + (wide ? ' wide' : ''), id, 'aria-labelledby': headId },
    h('header', { class: 'card-head' }, h('h2', { id: headId }, title), subtitle ? h('span', { class: 'sub' }, subtitle) : null, actions ? h('div', { class: 'card-actions' }, actions) : null),
    body);
  return { el, body };
}

export function errorBox(err) {
  return h('p', { class: 'error', role: 'alert' }, err?.message || String(err));
}

export { clear };
