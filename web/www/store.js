// Keyed rows per API resource, loaded on demand over HTTP and kept current by the live feed's
// diffs. Pages subscribe to a resource and get (rows, changedKeys) after every change.
import * as api from './api.js';
import { rowKey } from './util.js';

export class Store {
  constructor() {
    this.resources = new Map(); // name -> { rows: Map, loaded, loading: Promise, pending: [] }
    this.listeners = new Map(); // name -> Set(fn)
    this.streams = new Map(); // append-only resources (sentences): name -> Set(fn)
  }

  entry(name) {
    let e = this.resources.get(name);
    if (!e) {
      e = { rows: new Map(), loaded: false, loading: null, pending: [], error: null };
      this.resources.set(name, e);
    }
    return e;
  }

  rows(name) {
    return [...this.entry(name).rows.values()];
  }

  isLoaded(name) {
    return this.entry(name).loaded;
  }

  /// Loads a resource once (later calls return the same promise); live diffs keep it current.
  ensure(name) {
    const e = this.entry(name);
    if (e.loaded) return Promise.resolve(this.rows(name));
    if (!e.loading) e.loading = this.load(name);
    return e.loading;
  }

  async load(name) {
    const e = this.entry(name);
    try {
      const rows = await api.get(name);
      e.rows = new Map((rows || []).map((r) => [rowKey(r), r]));
      e.loaded = true;
      e.error = null;
      // Diffs that arrived while the GET was in flight are newer than or equal to its answer.
      const pending = e.pending;
      e.pending = [];
      for (const d of pending) this.applyRows(e, d);
      this.emit(name, null);
      return this.rows(name);
    } catch (err) {
      e.error = err;
      throw err;
    } finally {
      e.loading = null;
    }
  }

  /// Re-reads every resource already loaded (after the feed says "reload").
  reloadAll() {
    return Promise.allSettled([...this.resources.entries()].filter(([, e]) => e.loaded).map(([name]) => this.load(name)));
  }

  applyRows(e, diff) {
    const changed = new Set();
    for (const row of diff.upsert || []) {
      const k = rowKey(row);
      e.rows.set(k, row);
      changed.add(k);
    }
    for (const k of diff.remove || []) {
      e.rows.delete(String(k));
      changed.add(String(k));
    }
    return changed;
  }

  /// One live-feed diff message.
  applyDiff(diff) {
    const name = diff.resource;
    const stream = this.streams.get(name);
    if (stream) for (const fn of stream) fn(diff.upsert || [], diff);
    const e = this.resources.get(name);
    if (!e) return;
    if (!e.loaded) {
      if (e.loading) e.pending.push(diff);
      return;
    }
    const changed = this.applyRows(e, diff);
    this.emit(name, changed);
  }

  emit(name, changed) {
    const set = this.listeners.get(name);
    if (!set) return;
    const rows = this.rows(name);
    for (const fn of set) {
      try { fn(rows, changed); } catch (err) { console.error(err); }
    }
  }

  /// fn(rows, changedKeys|null) now (when loaded) and after every change; returns unsubscribe.
  subscribe(name, fn) {
    if (!this.listeners.has(name)) this.listeners.set(name, new Set());
    this.listeners.get(name).add(fn);
    const e = this.entry(name);
    if (e.loaded) fn(this.rows(name), null);
    else this.ensure(name).catch((err) => fn([], null, err));
    return () => this.listeners.get(name)?.delete(fn);
  }

  /// Append-only resources: fn(newRows) for every diff; returns unsubscribe.
  onStream(name, fn) {
    if (!this.streams.has(name)) this.streams.set(name, new Set());
    this.streams.get(name).add(fn);
    return () => this.streams.get(name)?.delete(fn);
  }

  clear() {
    this.resources.clear();
  }
}
