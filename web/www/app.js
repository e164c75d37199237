// Strata web console: session, navigation, live status, and the pages.
import * as api from './api.js';
import { h, clear, label } from './util.js';
import { Store } from './store.js';
import { LiveFeed } from './live.js';
import * as overview from './pages/overview.js';
import * as utilization from './pages/utilization.js';
import * as sentiment from './pages/sentiment.js';
import { mountDatasets, mountJobs, mountServiceLevels, mountAudit, actionLabel } from './pages/tables.js';
import * as admin from './pages/admin.js';
import * as triage from './pages/triage.js';
import * as forecasts from './pages/forecasts.js';
import * as chargeback from './pages/chargeback.js';
import * as volumes from './pages/volumes.js';

const ROUTES = {
  overview: { title: 'Overview', mount: overview.mount },
  utilization: { title: 'Utilization', mount: utilization.mount },
  chargeback: { title: 'Chargeback', mount: chargeback.mount },
  sentiment: { title: 'Sentiment', mount: sentiment.mount },
  datasets: { title: 'Datasets', mount: mountDatasets },
  jobs: { title: 'Jobs', mount: mountJobs },
  volumes: { title: 'Volumes', mount: volumes.mount },
  'service-levels': { title: 'Service levels', mount: mountServiceLevels },
  forecasts: { title: 'Forecast', mount: forecasts.mount },
  triage: { title: 'Triage', mount: triage.mount },
  audit: { title: 'Audit', mount: mountAudit },
  admin: { title: 'Administration', mount: admin.mount, role: 'admin' },
};

// UI preferences only (time range, cluster): never credentials or tokens.
const prefs = {
  get(k, d) {
    try { const v = localStorage.getItem('strata.' + k); return v == null ? d : JSON.parse(v); } catch { return d; }
  },
  set(k, v) {
    try { localStorage.setItem('strata.' + k, JSON.stringify(v)); } catch { /* private mode */ }
  },
};

const $ = (id) => document.getElementById(id);
let session = null;
let store = null;
let live = null;
let unmount = null;

function showLogin(message = '') {
  session = null;
  api.setCsrf(null);
  if (live) live.stop();
  if (unmount) { unmount(); unmount = null; }
  store = null;
  $('app-view').hidden = true;
  $('login-view').hidden = false;
  $('login-error').textContent = message;
  $('login-password').value = '';
  document.title = 'Sign in · Strata';
  ($('login-user').value ? $('login-password') : $('login-user')).focus();
}

function startApp(s) {
  session = s;
  api.setCsrf(s.csrf_token);
  $('login-view').hidden = true;
  $('app-view').hidden = false;
  $('user-name').textContent = s.user;
  $('user-role').textContent = s.role;
  $('user-role').className = 'chip role-' + s.role;
  for (const a of document.querySelectorAll('nav.main-nav a[data-role]')) a.hidden = a.dataset.role !== s.role;
  store = new Store();
  live = new LiveFeed(store, setLiveState);
  live.start();
  store.subscribe('sources', renderSourceBanner);
  route();
}

// Sources that are down or stale: every page's numbers are only as fresh as these.
function renderSourceBanner(rows) {
  const bad = (rows || []).filter((s) => (s.health && !['ok', 'unknown'].includes(s.health)) || s.stale);
  const banner = $('source-banner');
  banner.hidden = !bad.length;
  clear(banner, bad.length ? [h('strong', {}, bad.length === 1 ? '1 source needs attention: ' : `${bad.length} sources need attention: `),
    bad.map((s, i) => [i ? '; ' : '', h('span', { title: s.last_error || '' }, `${s.name} ${s.stale ? 'stale' : label(s.health).toLowerCase()}${s.last_error ? ' (' + s.last_error + ')' : ''}`)])] : []);
}

function setLiveState(state) {
  const pill = $('live-pill');
  pill.dataset.state = state;
  pill.querySelector('.pill-text').textContent = state;
  pill.title = { live: 'Receiving live updates', reconnecting: 'Connection lost; reconnecting', stale: 'No live updates for a while: data may be out of date', connecting: 'Connecting' }[state] || state;
}

function route() {
  if (!session) return;
  const name = (location.hash.replace(/^#\/?/, '') || 'overview').split('?')[0];
  // A page for another role (the server refuses its calls anyway) falls back to the Overview.
  const allowed = ROUTES[name] && (!ROUTES[name].role || ROUTES[name].role === session.role);
  const r = allowed ? ROUTES[name] : ROUTES.overview;
  const key = allowed ? name : 'overview';
  for (const a of document.querySelectorAll('nav.main-nav a')) {
    if (a.dataset.route === key) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  $('nav-current').textContent = r.title;
  setNavOpen(false);
  if (unmount) { unmount(); unmount = null; }
  const dlg = document.getElementById('action-dialog');
  if (dlg?.open) dlg.close(); // a running action keeps going; its toast still appears
  const main = $('main');
  clear(main);
  document.title = `${r.title} · Strata`;
  const ctx = { store, prefs, session, canAct: session.role === 'operator' || session.role === 'admin' };
  try {
    unmount = r.mount(main, ctx) || null;
  } catch (err) {
    console.error(err);
    main.append(h('p', { class: 'error', role: 'alert' }, 'This page failed to load: ' + err.message));
  }
  main.focus({ preventScroll: true });
}

async function onLogin(ev) {
  ev.preventDefault();
  const btn = $('login-submit');
  btn.disabled = true;
  $('login-error').textContent = '';
  try {
    const s = await api.post('login', { user: $('login-user').value.trim(), password: $('login-password').value });
    $('login-password').value = '';
    startApp(s);
  } catch (err) {
    if (err.status === 429) $('login-error').textContent = `Too many attempts. Try again in ${err.retryAfter || 'a few'} seconds.`;
    else if (err.status === 401) $('login-error').textContent = 'Wrong user name or password.';
    else $('login-error').textContent = 'Sign-in failed: ' + err.message;
    $('login-password').focus();
  } finally {
    btn.disabled = false;
  }
}

async function onLogout() {
  try { await api.post('logout', {}); } catch { /* the session may already be gone */ }
  showLogin('Signed out.');
}

let checking = false;
async function checkSession() {
  if (checking) return;
  checking = true;
  try {
    const s = await fetch('/api/v1/session', { credentials: 'same-origin', cache: 'no-store' });
    if (s.ok) {
      const body = await s.json();
      if (!session) startApp(body);
      else api.setCsrf(body.csrf_token);
    } else if (session || $('login-view').hidden) {
      showLogin(session ? 'Your session ended. Sign in again.' : '');
    }
  } catch {
    if (!session) showLogin('The server is not reachable.');
  } finally {
    checking = false;
  }
}

// Narrow screens: the page links fold into a menu (app.css shows the button under 1,240 px).
function setNavOpen(open) {
  document.querySelector('.topbar').classList.toggle('nav-open', open);
  $('nav-toggle').setAttribute('aria-expanded', String(open));
}

function init() {
  $('nav-toggle').addEventListener('click', () => setNavOpen($('nav-toggle').getAttribute('aria-expanded') !== 'true'));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && $('nav-toggle').getAttribute('aria-expanded') === 'true') { setNavOpen(false); $('nav-toggle').focus(); }
  });
  document.addEventListener('click', (e) => {
    if (!e.target.closest('.topbar')) setNavOpen(false);
  });
  $('login-form').addEventListener('submit', onLogin);
  $('logout').addEventListener('click', onLogout);
  window.addEventListener('hashchange', route);
  window.addEventListener('strata:unauthorized', () => { if (session) checkSession(); });
  // Toasts for finished actions, on any page.
  window.addEventListener('strata:action', (e) => {
    const r = e.detail;
    const t = h('div', { class: 'toast ' + (r.state === 'succeeded' ? 'good' : 'bad') }, `${r.kind ? actionLabel(r.kind) : 'Action'} ${label(r.state).toLowerCase()}${r.message ? ': ' + r.message : ''}`);
    $('toasts').append(t);
    setTimeout(() => t.remove(), 6000);
  });
  checkSession();
}

// For the console and the browser tests: the live connection (revision, state, reconnects).
Object.defineProperty(window, 'strataLive', { get: () => live });

init();
