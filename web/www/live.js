// The live feed (web/livefeed.h): one WebSocket, keyed diffs with a revision number. Reconnects
// with exponential backoff and ?since=<last revision>, so no diff is missed; when the server no
// longer keeps that far back it says "reload" and every loaded resource is re-read.

export class LiveFeed {
  constructor(store, onState) {
    this.store = store;
    this.onState = onState;
    this.revision = null;
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.stopped = true;
    this.state = 'connecting';
    this.lostAt = null;
    this.lastMessageAt = null;
    this.diffCount = 0;
  }

  setState(state, detail = '') {
    if (state === this.state && !detail) return;
    this.state = state;
    this.onState?.(state, detail);
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close(1000, 'logout');
    }
    this.ws = null;
    this.revision = null;
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const since = this.revision != null
      ? '?since=' + this.revision + (this.feed ? '&feed=' + encodeURIComponent(this.feed) : '') : '';
    return `${proto}//${location.host}/api/v1/live${since}`;
  }

  connect() {
    if (this.stopped) return;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (err) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    const firstConnect = this.revision == null;
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      this.lastMessageAt = Date.now();
      if (msg.type === 'hello') {
        this.feed = msg.feed;
        this.attempt = 0;
        this.lostAt = null;
        this.setState('live');
        if (firstConnect) {
          this.revision = msg.revision;
          // Rows loaded before the socket was up may predate this revision.
          this.store.reloadAll();
        }
      } else if (msg.type === 'diff') {
        if (this.revision != null && msg.revision <= this.revision) return;
        this.revision = msg.revision;
        this.diffCount++;
        this.store.applyDiff(msg);
        window.dispatchEvent(new CustomEvent('strata:diff', { detail: { resource: msg.resource, revision: msg.revision } }));
      } else if (msg.type === 'reload') {
        this.revision = msg.revision;
        this.store.reloadAll();
      }
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      if (ev.code === 1008 || ev.code === 4401 || ev.code === 4403) {
        // Session gone or refused: the app asks the server who we are.
        window.dispatchEvent(new CustomEvent('strata:unauthorized'));
      }
      this.scheduleReconnect();
    };
    ws.onerror = () => {};
  }

  scheduleReconnect() {
    if (this.stopped) return;
    if (this.lostAt == null) this.lostAt = Date.now();
    const down = (Date.now() - this.lostAt) / 1000;
    // "stale": the data on screen may be behind for more than a moment.
    this.setState(down > 20 || this.attempt >= 4 ? 'stale' : 'reconnecting');
    const delay = Math.min(15000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt++;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }
}
