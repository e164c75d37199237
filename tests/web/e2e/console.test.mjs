// End-to-end browser test of the web console: the real strata-server (--demo) driven by Debian's
// Chromium through playwright-core. Screenshots of every dashboard go to STRATA_WEB_ARTIFACTS.
//
//   STRATA_SERVER=build/dev/app/server/strata-server STRATA_WEB_ARTIFACTS=/tmp/shots \
//     node tests/web/e2e/console.test.mjs
//
// Environment: STRATA_SERVER (required), STRATA_CHROMIUM (default /usr/bin/chromium),
// STRATA_WEB_ARTIFACTS (default ./web-artifacts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { axeFindings, describeFindings, findingsTable } from './axe.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const { chromium } = await import(path.join(repo, 'web/node_modules/playwright-core/index.mjs'));

const serverBin = process.env.STRATA_SERVER;
const chromiumBin = process.env.STRATA_CHROMIUM || '/usr/bin/chromium';
const artifacts = path.resolve(process.env.STRATA_WEB_ARTIFACTS || 'web-artifacts');
const password = 'e2e-' + Math.random().toString(36).slice(2, 12);
// Flags that work for Debian's Chromium in containers (ecosystem.md section 5).
const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

let server = null;
let serverLog = '';
let baseUrl = null;
let browser = null;
const pageErrors = [];
const t0 = Date.now();
const elapsed = () => ((Date.now() - t0) / 1000).toFixed(1) + ' s';

function startServer() {
  assert.ok(serverBin && fs.existsSync(serverBin), `STRATA_SERVER must name the strata-server binary (got ${serverBin})`);
  // A private HOME/XDG tree: the demo's history store and settings never touch the user's.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'strata-e2e-'));
  const env = { ...process.env, STRATA_DEMO_PASSWORD: password, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'), XDG_CACHE_HOME: path.join(home, '.cache'), QT_QPA_PLATFORM: 'offscreen' };
  server = spawn(serverBin, ['serve', '--demo', '--listen', '127.0.0.1:0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('strata-server printed no URL within 150 s:\n' + serverLog)), 150000);
    const onData = (chunk) => {
      serverLog += chunk.toString();
      const m = serverLog.match(/serving the web console on (https?:\/\/[^\s]+)/);
      if (m && !baseUrl) {
        baseUrl = m[1].replace(/\/$/, '');
        clearTimeout(timer);
        resolve(baseUrl);
      }
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', (c) => { serverLog += c.toString(); });
    server.on('exit', (code, signal) => {
      if (!baseUrl) { clearTimeout(timer); reject(new Error(`strata-server exited (${code ?? signal}) before serving:\n${serverLog}`)); }
    });
  });
}

async function newPage({ viewport = { width: 1280, height: 800 }, colorScheme = 'light', isMobile = false, storageState } = {}) {
  const context = await browser.newContext({ viewport, colorScheme, isMobile, hasTouch: isMobile, storageState });
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    // A refused WebSocket while the server restarts a poll is normal; script errors are not.
    if (m.type() === 'error' && !/WebSocket|Failed to load resource/.test(m.text())) pageErrors.push(m.text());
  });
  return page;
}

async function login(page, user, pass = password) {
  await page.goto(baseUrl + '/');
  await page.locator('#login-user').fill(user);
  await page.locator('#login-password').fill(pass);
  await page.locator('#login-submit').click();
}

async function shot(page, name) {
  // Every chart on view has drawn its data or says it has none: a picture of a chart still
  // loading shows an empty panel.
  await page.waitForFunction(() => [...document.querySelectorAll('.chart')]
    .every((c) => c.dataset.state !== 'loading' || c.parentElement.offsetParent === null), null, { timeout: 60000 });
  await page.waitForTimeout(400); // let charts finish their first draw
  const file = path.join(artifacts, name + '.png');
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

before(async () => {
  fs.mkdirSync(artifacts, { recursive: true });
  await startServer();
  browser = await chromium.launch({ executablePath: chromiumBin, args: chromiumArgs });
  console.log(`# server ${baseUrl} and browser up after ${elapsed()}`);
});

after(async () => {
  if (browser) await browser.close();
  if (server && server.exitCode == null) {
    server.kill('SIGTERM');
    await new Promise((r) => { const t = setTimeout(() => { server.kill('SIGKILL'); r(); }, 10000); server.on('exit', () => { clearTimeout(t); r(); }); });
  }
  fs.writeFileSync(path.join(artifacts, 'server.log'), serverLog);
  console.log(`# done after ${elapsed()}; screenshots in ${artifacts}`);
});

test('wrong password is refused with a message', async () => {
  const page = await newPage();
  await login(page, 'viewer', 'not-the-password');
  await page.locator('#login-error').filter({ hasText: /wrong user name or password|too many attempts/i }).waitFor({ timeout: 15000 });
  assert.equal(await page.locator('#app-view').isVisible(), false);
  await page.context().close();
});

test('viewer: dashboards, GPU chart, live update, refused action', async () => {
  const page = await newPage();
  await login(page, 'viewer');
  await page.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
  assert.equal(await page.locator('#user-role').textContent(), 'viewer');
  // The Overview is where a sign-in lands.
  await page.locator('nav.main-nav a[data-route="overview"][aria-current="page"]').waitFor({ state: 'attached', timeout: 20000 });

  // Utilization: project bars against quota and the allocation chart drawn by uPlot.
  await page.goto(baseUrl + '/#/utilization');
  await page.locator('#project-bars .bar-row').first().waitFor({ timeout: 60000 });
  assert.ok((await page.locator('#project-bars .bar-row').count()) >= 1);
  await page.locator('#chart-allocation canvas').waitFor({ timeout: 30000 });
  const box = await page.locator('#chart-allocation canvas').boundingBox();
  assert.ok(box && box.width > 200 && box.height > 100, 'allocation chart has a size');
  // Stacked by project (one filled band each) under the total quota, with a readout on hover.
  assert.ok(Number(await page.locator('#chart-allocation').getAttribute('data-stacked')) >= 2, 'a band per project');
  const legend = page.locator('#chart-allocation .u-legend .u-series');
  assert.ok(await legend.filter({ hasText: 'total quota' }).count() === 1, 'the quota is a line of its own');
  await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2);
  const readout = await legend.nth(1).locator('.u-value').innerText();
  assert.match(readout, /^\d+(\.\d+)?$/, 'hovering reads out a project\'s own GPUs: ' + readout);
  await page.locator('#live-pill[data-state="live"]').waitFor({ timeout: 30000 });
  // Every range from an hour to a year answers from the history store.
  for (const label of ['24h', '7d', '1y', '1h']) {
    const wait = page.waitForResponse((r) => r.url().includes('/api/v1/history/projects') && r.url().includes('range='), { timeout: 20000 });
    await page.locator('.segmented button', { hasText: label }).first().click();
    assert.equal((await wait).status(), 200, `history for ${label}`);
  }
  await page.locator('#cache-bars .bar-row').first().waitFor({ timeout: 30000 });
  await shot(page, 'utilization');

  // Live: the demo estate moves on its own (job utilization, states, cache loads). Without
  // reloading, a diff arrives over the WebSocket and a row on the Jobs page changes.
  await page.goto(baseUrl + '/#/jobs');
  await page.locator('#card-jobs tbody tr[data-key]').first().waitFor({ timeout: 30000 });
  await page.evaluate(() => {
    window.__e2eMarker = 'same page';
    window.__e2eDiffs = [];
    window.addEventListener('strata:diff', (e) => window.__e2eDiffs.push(e.detail));
  });
  const before = await page.locator('#card-jobs tbody').innerText();
  const liveStart = Date.now();
  await page.waitForFunction((prev) => {
    const jobsDiff = (window.__e2eDiffs || []).some((d) => d.resource === 'jobs');
    return jobsDiff && document.querySelector('#card-jobs tbody').innerText !== prev;
  }, before, { timeout: 120000, polling: 250 });
  assert.equal(await page.evaluate(() => window.__e2eMarker), 'same page', 'the page was not reloaded');
  console.log(`# live jobs diff shown ${((Date.now() - liveStart) / 1000).toFixed(1)} s after watching began`);

  // The connection drops: the page says so, reconnects with ?since=<last revision> and carries on
  // from there (the catch-up diffs follow in order; no reload).
  const sockets = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  const revision = await page.evaluate(() => { const r = window.strataLive.revision; window.strataLive.ws.close(); return r; });
  await page.locator('#live-pill[data-state="reconnecting"]').waitFor({ timeout: 5000 });
  await page.locator('#live-pill[data-state="live"]').waitFor({ timeout: 30000 });
  // The same feed (this server's): a feed id of another replica would make the server say "reload".
  const feed = await page.evaluate(() => window.strataLive.feed);
  assert.ok(/^[0-9a-f]{16}$/.test(feed), 'the hello names its feed: ' + feed);
  assert.ok(sockets.some((u) => u.endsWith('?since=' + revision + '&feed=' + feed)), 'reconnected with since=: ' + sockets.join(' '));
  await page.waitForFunction((r) => window.strataLive.revision > r, revision, { timeout: 60000, polling: 250 });
  assert.equal(await page.evaluate(() => window.__e2eMarker), 'same page', 'still no reload after reconnecting');
  await shot(page, 'jobs');

  // A viewer gets no action buttons, and the API refuses the action itself.
  assert.equal(await page.locator('#card-jobs button', { hasText: 'Delete' }).count(), 0);
  await page.locator('#read-only').waitFor();
  const refused = await page.evaluate(async () => {
    const s = await (await fetch('/api/v1/session')).json();
    const job = document.querySelector('#card-jobs tbody tr[data-key]').dataset.key;
    const body = JSON.stringify({ kind: 'job.delete', source: job.split('/')[0], job: job.split('/').slice(1).join('/') });
    const headers = { 'Content-Type': 'application/json', 'X-CSRF-Token': s.csrf_token };
    const preview = await fetch('/api/v1/actions/preview', { method: 'POST', headers, body });
    const run = await fetch('/api/v1/actions', { method: 'POST', headers, body });
    return [preview.status, run.status];
  });
  assert.deepEqual(refused, [403, 403]);

  for (const [route, ready] of [['sentiment', '#sentiment-kpis .kpi, #sentiment-kpis .error, #sentiment-kpis .notice'], ['datasets', '#card-datasets tbody tr[data-key]'],
    ['service-levels', '#card-service-levels tbody tr[data-key]'], ['audit', '#card-audit tbody tr']]) {
    await page.goto(baseUrl + '/#/' + route);
    await page.locator(ready).first().waitFor({ timeout: 30000 });
    if (route === 'sentiment') await liveSentences(page);
    assert.equal(await page.locator('#card-' + (route === 'sentiment' ? 'agents' : route === 'audit' ? 'audit' : route) + ' button', { hasText: /^(Delete|Evict|Commit|Change level|Cache on…)$/ }).count(), 0);
    await shot(page, route);
  }
  await page.locator('#logout').click();
  await page.locator('#login-view').waitFor({ state: 'visible' });
  assert.equal((await page.request.get(baseUrl + '/api/v1/jobs')).status(), 401, 'signed out: the API answers 401');
  await page.context().close();
});

// With the demo's support-center stream running, a live call's new sentences appear on screen
// as the feed delivers them (no reload, no polling).
async function liveSentences(page) {
  const summary = await page.evaluate(async () => {
    const r = await fetch('/api/v1/sentiment/summary');
    return r.ok ? r.json() : null;
  });
  if (!summary || !summary.live_calls) {
    console.log('# sentiment: no live call on this server, live sentence check skipped');
    return;
  }
  await page.locator('#sentences li').first().waitFor({ timeout: 30000 });
  // Record when each sentence first shows up on screen, against the moment it ended in the call
  // (the pipeline writes a sentence's object when it ends, so this bounds S3 -> reader -> feed -> page).
  await page.evaluate(() => {
    window.__e2eShown = [];
    const seen = new Set([...document.querySelectorAll('#sentences li')].map((li) => li.dataset.endMs + '/' + li.dataset.index));
    new MutationObserver(() => {
      // li.new: pushed by the feed (a call picked or loaded over HTTP is not counted).
      for (const li of document.querySelectorAll('#sentences li.new')) {
        const k = li.dataset.endMs + '/' + li.dataset.index;
        if (!seen.has(k)) { seen.add(k); window.__e2eShown.push(Date.now() - Number(li.dataset.endMs)); }
      }
    }).observe(document.querySelector('#sentences'), { childList: true });
  });
  await page.waitForFunction(() => window.__e2eShown.length >= 3, null, { timeout: 90000, polling: 200 });
  const delays = (await page.evaluate(() => window.__e2eShown)).sort((a, b) => a - b);
  console.log(`# sentiment: ${delays.length} new sentences on screen ${delays.map((d) => (d / 1000).toFixed(2)).join(', ')} s after they ended`);
  // Generous bound for a loaded test machine; the reader polls every 500 ms.
  assert.ok(delays[Math.floor(delays.length / 2)] < 5000, 'new sentences appear within seconds');
}

// API words that must never reach a page as they are: enumerations the rows carry.
const RAW_WORDS = /\b(s3_prefix|s3_bucket|ontap_volume|container_creating|at_cap|far_below|compute_bound|data_bound|auth_required)\b/;
// Columns that hold enumerations: any snake_case word there is a raw API value.
const ENUM_CELLS = 'td[data-col="kind"], td[data-col="status"], td[data-col="type"], td[data-col="flag"], td[data-col="state"], td[data-col="outcome"], td[data-col="health"]';

async function tablePage(page, route, ready) {
  await page.goto(baseUrl + '/#/' + route);
  await page.locator(ready).first().waitFor({ timeout: 30000 });
  await page.waitForTimeout(300);
}

async function assertLabels(page, route) {
  const { text, cells } = await page.evaluate((sel) => ({
    text: [...document.querySelectorAll('main table')].map((t) => t.innerText).join('\n'),
    cells: [...document.querySelectorAll(sel)].map((td) => td.innerText),
  }), ENUM_CELLS);
  assert.doesNotMatch(text, RAW_WORDS, `${route}: a raw API word in a table`);
  const raw = cells.filter((c) => /\b[a-z0-9]+_[a-z0-9_]+\b/.test(c));
  assert.deepEqual(raw, [], `${route}: snake_case values in enumeration columns`);
  assert.ok(cells.length > 0, `${route}: enumeration columns are tagged (data-col)`);
}

test('utilization: cache targets read "Loading…" until their cache poll has answered, never 0 B / 0 B', async () => {
  const page = await newPage();
  // The targets as the server publishes them from the configuration before the cluster's cache
  // poll has seen their PVCs (no phase, no problem, no figures); no live feed to replace them.
  await page.routeWebSocket(/\/api\/v1\/live/, () => {});
  await page.route(/\/api\/v1\/cache-targets/, async (route) => {
    const response = await route.fetch();
    const rows = (await response.json()).map((t) => ({ ...t, pvc_phase: '', volume: '', problem: '',
      capacity_bytes: 0, used_bytes: 0, cached_bytes: 0, cached_commits: 0 }));
    assert.ok(rows.length >= 1, 'the demo configures cache targets');
    await route.fulfill({ response, json: rows });
  });
  await login(page, 'viewer');
  await page.goto(baseUrl + '/#/utilization'); // the console lands on the Overview
  await page.locator('#cache-bars .bar-row').first().waitFor({ timeout: 60000 });
  const tiles = await page.locator('#cache-bars .bar-row').allInnerTexts();
  assert.ok(tiles.every((t) => /Loading…/.test(t) && /connecting/.test(t)), 'loading tiles: ' + tiles.join(' | '));
  assert.ok(tiles.every((t) => !/\b0 B\b/.test(t)), 'no 0 B before the first poll: ' + tiles.join(' | '));
  assert.equal(await page.locator('#kpi-cache .kpi-value').innerText(), '…');
  await page.context().close();
});

test('utilization: a quota what-if predicts queued jobs and offers the audited quota change', async () => {
  const page = await newPage();
  await login(page, 'operator');
  await page.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
  await page.goto(baseUrl + '/#/utilization');
  await page.locator('#gpu-source option[value="aks-gpu"]').waitFor({ state: 'attached', timeout: 60000 });
  await page.locator('#gpu-source').selectOption('aks-gpu');
  const quota = page.locator('#whatif-quota-ml-team');
  await quota.waitFor({ timeout: 60000 });
  assert.equal(await quota.inputValue(), '3', 'the input starts at the live quota');
  await quota.fill('5');
  await page.locator('#whatif-predict').click();
  const summary = page.locator('#whatif-summary');
  await summary.filter({ hasText: 'Nothing has changed' }).waitFor({ timeout: 30000 });
  assert.match(await summary.innerText(), /aks-gpu: quotas 3 → 5 of 3 GPUs/);
  const projectRow = page.locator('#whatif-result tbody tr[data-key="ml-team"]');
  assert.match(await projectRow.innerText(), /3 → 5/);
  const queued = page.locator('#whatif-result tbody tr').filter({ hasText: 'Stays queued' });
  assert.equal(await queued.count(), 2, 'the two queued ml-team jobs stay queued (the cluster has no free GPU)');
  await shot(page, 'utilization-whatif');
  await projectRow.locator('button', { hasText: 'Apply quota' }).click();
  const dialog = page.locator('#action-dialog');
  await dialog.locator('.preview h3').waitFor({ timeout: 30000 });
  assert.match(await dialog.locator('.preview').innerText(), /ml-team/, 'the preview names the project');
  await dialog.locator('button', { hasText: 'Cancel' }).click();
  await page.context().close();

  // On a phone in dark mode the card fits the width: its tables scroll inside it, the page does not.
  const phone = await newPage({ viewport: { width: 390, height: 844 }, colorScheme: 'dark', isMobile: true });
  await login(phone, 'viewer');
  await phone.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
  await phone.goto(baseUrl + '/#/utilization');
  await phone.locator('#gpu-source option[value="aks-gpu"]').waitFor({ state: 'attached', timeout: 60000 });
  await phone.locator('#gpu-source').selectOption('aks-gpu');
  await phone.locator('#whatif-quota-ml-team').fill('5');
  await phone.locator('#whatif-predict').click();
  await phone.locator('#whatif-summary').filter({ hasText: 'Nothing has changed' }).waitFor({ timeout: 30000 });
  await phone.locator('#card-whatif').scrollIntoViewIfNeeded();
  await phone.waitForTimeout(300);
  await phone.locator('#card-whatif').screenshot({ path: path.join(artifacts, 'utilization-whatif-phone-dark.png') });
  const overflow = await phone.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow} px`);
  await phone.context().close();
});

test('Volumes: the columns are the server\'s field list and each cell the API\'s figure, on a laptop and a dark phone', async () => {
  const page = await newPage();
  await login(page, 'viewer');
  await page.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
  await page.goto(baseUrl + '/#/volumes');
  await page.locator('#card-volumes tbody tr[data-key]').first().waitFor({ timeout: 30000 });
  const { fields, volumes } = await page.evaluate(async () => ({
    fields: (await (await fetch('/api/v1/fields/volumes')).json()).fields,
    volumes: await (await fetch('/api/v1/volumes')).json(),
  }));
  const headers = await page.locator('#card-volumes thead th button.sort').allInnerTexts();
  assert.deepEqual(headers, fields.filter((f) => f.column).map((f) => f.title), 'one column per table field, in the server\'s order');
  assert.ok(fields.some((f) => f.key === 'percent_used' && f.kind === 'percent'), 'kinds come with the fields');
  // An offline volume's unknown space reads "—" (never 0 B), and a known figure is the API's.
  const cell = (key, col) => page.locator(`#card-volumes tbody tr[data-key="${key}"] td[data-col="${col}"]`).innerText();
  const offline = volumes.find((v) => v.used_bytes == null);
  assert.ok(offline, 'the demo has a volume whose space is not reported');
  assert.equal(await cell(`${offline.source}/${offline.id}`, 'used_bytes'), '—');
  const known = volumes.find((v) => v.percent_used != null);
  assert.equal(await cell(`${known.source}/${known.id}`, 'percent_used'), known.percent_used.toFixed(1) + ' %');
  const rows = await page.locator('#card-volumes tbody tr[data-key]').count();
  assert.equal(rows, Math.min(volumes.length, 500), 'every volume is listed');
  await shot(page, 'volumes');
  await page.context().close();

  const phone = await newPage({ viewport: { width: 390, height: 844 }, colorScheme: 'dark', isMobile: true });
  await login(phone, 'viewer');
  await phone.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
  await phone.goto(baseUrl + '/#/volumes');
  await phone.locator('#card-volumes tbody tr[data-key]').first().waitFor({ timeout: 30000 });
  const shown = await phone.locator('#card-volumes thead th:visible').count();
  assert.equal(shown, fields.filter((f) => f.column && !f.wide).length, 'a phone shows the table fields not marked wide');
  await shot(phone, 'volumes-phone-dark');
  const overflow = await phone.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow} px`);
  await phone.context().close();
});

test('Jobs: the columns are the server\'s field list, durations and GPUs as the desktop writes them, on a laptop and a dark phone', async () => {
  const page = await newPage();
  await login(page, 'viewer');
  await page.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
  await page.goto(baseUrl + '/#/jobs');
  await page.locator('#card-jobs tbody tr[data-key]').first().waitFor({ timeout: 30000 });
  const { fields, jobs } = await page.evaluate(async () => ({
    fields: (await (await fetch('/api/v1/fields/jobs')).json()).fields,
    jobs: await (await fetch('/api/v1/jobs')).json(),
  }));
  const headers = await page.locator('#card-jobs thead th button.sort').allInnerTexts();
  assert.deepEqual(headers, fields.filter((f) => f.column).map((f) => f.title), 'one column per table field, in the server\'s order');
  assert.ok(fields.some((f) => f.key === 'age_seconds' && f.kind === 'duration'), 'kinds come with the fields');
  const cell = (key, col) => page.locator(`#card-jobs tbody tr[data-key="${key}"] td[data-col="${col}"]`).innerText();
  const running = jobs.find((j) => j.status === 'running' && j.gpus_allocated > 0 && j.age_seconds > 120);
  assert.ok(running, 'the demo has a running job');
  const key = `${running.source}/${running.namespace}/${running.name}`;
  assert.match(await cell(key, 'age_seconds'), /^\d+(s|m \d\ds|h \d\dm|d \d\dh)$/, 'an age reads as on the desktop ("2h 05m")');
  assert.match(await cell(key, 'gpus_requested'), /^[\d.]+ \/ [\d.]+$/, 'GPUs read allocated / requested');
  await shot(page, 'jobs-fields');
  await page.context().close();

  const phone = await newPage({ viewport: { width: 390, height: 844 }, colorScheme: 'dark', isMobile: true });
  await login(phone, 'viewer');
  await phone.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
  await phone.goto(baseUrl + '/#/jobs');
  await phone.locator('#card-jobs tbody tr[data-key]').first().waitFor({ timeout: 30000 });
  const shown = await phone.locator('#card-jobs thead th:visible').count();
  assert.ok(shown >= fields.filter((f) => f.column && !f.wide).length, 'a phone shows the table fields not marked wide');
  await shot(phone, 'jobs-phone-dark');
  await phone.context().close();
});

test('Chargeback: this month per project with totals, a drill-down to jobs and volumes, on a laptop and a dark phone', async () => {
  const page = await newPage();
  await login(page, 'viewer');
  await page.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
  await page.goto(baseUrl + '/#/chargeback');
  const month = new Date().toISOString().slice(0, 7);
  assert.equal(await page.locator('#chargeback-month').inputValue(), month, 'the month picker starts at this month (UTC)');
  const teamA = page.locator('#card-chargeback tbody tr[data-key="dgx/team-a"]');
  await teamA.waitFor({ timeout: 60000 });
  // The demo's backfilled history gives every dgx project GPU-hours and a cost.
  const gpuHours = Number((await teamA.locator('td[data-col="gpu_hours_allocated"]').innerText()).replace(/,/g, ''));
  assert.ok(gpuHours > 0, `team-a has GPU-hours (${gpuHours})`);
  assert.match(await teamA.locator('td[data-col="cost"]').innerText(), /^\$[1-9][\d,]*\.\d\d$/);
  assert.equal(await page.locator('#card-chargeback tbody tr[data-key="unattributed"]').count(), 1, 'unattributed storage is its own line');
  assert.match(await page.locator('#card-chargeback tfoot').innerText(), /^Total/);
  assert.match(await page.locator('#kpi-missing').innerText(), /Hours without history/);
  // The page's CSV download is the server's, the same bytes as `strata get chargeback -o csv`.
  const csvHref = await page.locator('#chargeback-csv').getAttribute('href');
  const csv = await page.request.get(baseUrl + csvHref);
  assert.equal(csv.status(), 200, 'the CSV downloads');
  assert.match(csv.headers()['content-disposition'] || '', /attachment; filename="strata-chargeback-\d{4}-\d\d\.csv"/);
  assert.match(await csv.text(), /^line,source,project,period,gpu_hours_allocated,/);
  await shot(page, 'chargeback');
  await teamA.click();
  const detail = page.locator('#card-chargeback-detail');
  await detail.waitFor({ state: 'visible' });
  assert.match(await detail.locator('h2').innerText(), /team-a on dgx/);
  assert.ok(await detail.locator('tbody tr[data-key]').count() >= 2, 'the drill-down lists the project\'s volumes and jobs');
  await shot(page, 'chargeback-detail');
  // Another month: an earlier month answers (all hours missing), a refusal would show as an error.
  await page.locator('#chargeback-month').fill('2026-01');
  await page.locator('#chargeback-summary').filter({ hasText: '2026-01' }).waitFor({ timeout: 30000 });
  await page.context().close();

  for (const scheme of ['light', 'dark']) {
    const phone = await newPage({ viewport: { width: 390, height: 844 }, colorScheme: scheme, isMobile: true });
    await login(phone, 'viewer');
    await phone.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
    await phone.goto(baseUrl + '/#/chargeback');
    await phone.locator('#card-chargeback tbody tr[data-key="dgx/team-a"]').waitFor({ timeout: 60000 });
    await phone.locator('#card-chargeback tbody tr[data-key="dgx/team-a"]').click();
    await phone.locator('#card-chargeback-detail').waitFor({ state: 'visible' });
    const overflow = await phone.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `${scheme} phone: the page scrolls sideways by ${overflow} px`);
    await shot(phone, `chargeback-phone-${scheme}`);
    await phone.context().close();
  }
});

// Where a cell sits on a phone: its box, the viewport's width, and whether its own cell or a
// scroll box cuts it off (a clipped button cannot be reached by scrolling either).
async function phoneReach(locator) {
  return locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    let clippedBy = null;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX === 'visible') continue;
      const r = a.getBoundingClientRect();
      const scrolls = a.scrollWidth > a.clientWidth && /auto|scroll/.test(style.overflowX);
      // A scroll box may hold it past its edge (the reader scrolls there); anything else cuts it.
      if (!scrolls && (box.right > r.right + 0.5 || box.left < r.left - 0.5)) { clippedBy = a.tagName.toLowerCase() + '.' + a.className; break; }
    }
    return { left: box.left, right: box.right, width: box.width, vw: window.innerWidth, clippedBy };
  });
}

test('phone: Delete buttons and the chargeback\'s Cost stay in view while the other columns scroll', async () => {
  const page = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
  await login(page, 'operator');
  await page.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
  await tablePage(page, 'jobs', '#card-jobs tbody tr[data-key] button');
  const deletes = page.locator('#card-jobs tbody tr[data-key] button', { hasText: 'Delete' });
  assert.ok(await deletes.count() >= 1, 'an operator has Delete buttons');
  for (let i = 0; i < Math.min(3, await deletes.count()); i++) {
    const r = await phoneReach(deletes.nth(i));
    assert.equal(r.clippedBy, null, `Delete button ${i} is cut off by ${r.clippedBy}`);
    assert.ok(r.left >= 0 && r.right <= r.vw, `Delete button ${i} spans ${r.left.toFixed(0)}–${r.right.toFixed(0)} px of a ${r.vw} px phone`);
  }
  await shot(page, 'phone-jobs-operator');

  await page.goto(baseUrl + '/#/chargeback');
  const teamA = page.locator('#card-chargeback tbody tr[data-key="dgx/team-a"]');
  await teamA.waitFor({ timeout: 60000 });
  await page.waitForTimeout(300);
  for (const [what, cell] of [['Cost header', page.locator('#card-chargeback thead th[data-key="cost"]')],
    ['team-a\'s cost', teamA.locator('td[data-col="cost"]')]]) {
    const r = await phoneReach(cell);
    assert.equal(r.clippedBy, null, `${what} is cut off by ${r.clippedBy}`);
    assert.ok(r.left >= 0 && r.right <= r.vw, `${what} spans ${r.left.toFixed(0)}–${r.right.toFixed(0)} px of a ${r.vw} px phone`);
  }
  await shot(page, 'phone-chargeback-cost');
  await page.context().close();
});

test('phone: the navigation folds into a menu, nothing overflows sideways, labels not API words', async () => {
  const page = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
  await login(page, 'viewer');
  await page.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
  const pages = [['overview', '#system-cards .ov-card'], ['utilization', '#project-bars .bar-row'], ['sentiment', '#sentiment-kpis .kpi, #sentiment-kpis .error, #sentiment-kpis .notice'],
    ['datasets', '#card-datasets tbody tr[data-key]'], ['jobs', '#card-jobs tbody tr[data-key]'],
    ['service-levels', '#card-service-levels tbody tr[data-key]'], ['triage', 'main h1'], ['audit', '#card-audit tbody tr']];
  for (const [route, ready] of pages) {
    await tablePage(page, route, ready);
    const m = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, vw: window.innerWidth,
      bar: document.querySelector('.topbar').scrollWidth, navShown: getComputedStyle(document.querySelector('nav.main-nav')).display !== 'none' }));
    assert.ok(m.doc <= m.vw, `${route}: the page is ${m.doc} px wide on a ${m.vw} px phone`);
    assert.ok(m.bar <= m.vw, `${route}: the top bar is ${m.bar} px wide on a ${m.vw} px phone`);
    assert.equal(m.navShown, false, `${route}: the page links are folded away`);
    if (['datasets', 'jobs', 'service-levels'].includes(route)) await assertLabels(page, route);
    await shot(page, `phone-${route}`);
  }
  // Triage on a phone: when, how bad and what happened are on screen without scrolling sideways.
  await tablePage(page, 'triage', '#card-events tbody tr[data-key]');
  const title = await page.locator('#card-events tbody tr[data-key] td[data-col="title"]').first().boundingBox();
  assert.ok(title && title.x + 80 <= 390, `triage: the title column starts at ${title && Math.round(title.x)} px on a 390 px phone`);
  // The menu opens under its button, fits the screen and leads to a page (then folds again).
  await page.locator('#nav-toggle').click();
  const jobs = page.locator('nav.main-nav a[data-route="jobs"]');
  await jobs.waitFor({ state: 'visible' });
  const box = await jobs.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, 'menu entries fit the phone');
  assert.equal(await page.locator('#nav-toggle').getAttribute('aria-expanded'), 'true');
  await shot(page, 'phone-menu');
  await jobs.click();
  await page.locator('#card-jobs tbody tr[data-key]').first().waitFor({ timeout: 30000 });
  assert.equal(await page.locator('#nav-toggle').getAttribute('aria-expanded'), 'false');
  assert.equal(await page.locator('#nav-current').innerText(), 'Jobs');
  await page.context().close();
});

for (const scheme of ['light', 'dark']) {
  test(`laptop ${scheme}: labels, failing jobs in red, ONTAP throughput now, the page scrolls to the last row`, async () => {
    const page = await newPage({ viewport: { width: 1440, height: 900 }, colorScheme: scheme });
    await login(page, 'viewer');
    await page.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const dark = bg.match(/\d+/g).slice(0, 3).reduce((a, c) => a + Number(c), 0) < 3 * 128;
    assert.equal(dark, scheme === 'dark', `the ${scheme} scheme is followed (body ${bg})`);
    assert.equal(await page.locator('#nav-toggle').isVisible(), false, 'a laptop shows the page links, no menu button');

    // Datasets: the TR-4841 hub header, labels, and no "0 objects · 0 B" for snapshots.
    await tablePage(page, 'datasets', '#card-datasets tbody tr[data-key]');
    await page.locator('#hub-header #hub-cached .kpi-value').waitFor();
    assert.match(await page.locator('#hub-header').innerText(), /Datasets[\s\S]*NFS connected[\s\S]*Used by cached commits/);
    assert.match(await page.locator('#hub-cached .kpi-value').innerText(), /^[\d.,]+ (B|KiB|MiB|GiB|TiB) \/ [\d.,]+ (B|KiB|MiB|GiB|TiB|PiB)$/);
    await assertLabels(page, 'datasets');
    const fileDataset = page.locator('#card-datasets tbody tr[data-key]').filter({ hasText: 'ONTAP volume' }).first();
    if (await fileDataset.count()) {
      await fileDataset.click();
      await page.locator('#card-commits tbody tr[data-key]').first().waitFor({ timeout: 30000 });
      const figures = await page.locator('#card-commits tbody td[data-col="objects"], #card-commits tbody td[data-col="bytes"]').allInnerTexts();
      assert.ok(figures.length > 0 && figures.every((t) => t !== '0' && t !== '0 B'), 'snapshots: unknown, not zero: ' + figures.slice(0, 4).join(' '));
    }
    await shot(page, `laptop-${scheme}-datasets`);

    // Jobs: a job whose container cannot start is red with its reason, not a grey phase.
    await tablePage(page, 'jobs', '#card-jobs tbody tr[data-key]');
    await assertLabels(page, 'jobs');
    // The demo's aks-gpu ml-team/bert-serve asks for an image tag that does not exist.
    const failingKey = await page.waitForFunction(async () => {
      const rows = await (await fetch('/api/v1/jobs')).json();
      const j = rows.find((r) => /ImagePullBackOff|ErrImagePull|CrashLoopBackOff|OOMKilled/.test(r.waiting_reason || r.pending_reason || ''));
      return j ? j.key : null;
    }, null, { timeout: 60000, polling: 1000 }).then((h) => h.jsonValue());
    const chipOf = page.locator(`#card-jobs tbody tr[data-key="${failingKey}"] td[data-col="status"] .chip.bad`);
    await chipOf.filter({ hasText: /ImagePullBackOff|ErrImagePull|CrashLoopBackOff|OOMKilled/ }).waitFor({ timeout: 30000 });
    // Page-level scrolling: the table is not a box of its own; the last row scrolls into view.
    const scroll = await page.evaluate(() => {
      const box = document.querySelector('#card-jobs .scroll');
      window.scrollTo(0, document.documentElement.scrollHeight);
      const rows = document.querySelectorAll('#card-jobs tbody tr');
      const last = rows[rows.length - 1].getBoundingClientRect();
      return { boxClips: box.scrollHeight > box.clientHeight + 1, lastBottom: last.bottom, vh: window.innerHeight };
    });
    assert.equal(scroll.boxClips, false, 'the jobs table does not scroll inside a box');
    assert.ok(scroll.lastBottom <= scroll.vh, `the last job row is on screen after scrolling the page (${scroll.lastBottom} > ${scroll.vh})`);
    await shot(page, `laptop-${scheme}-jobs`);

    // Service levels: ONTAP volumes have a current throughput while the page is open.
    await tablePage(page, 'service-levels', '#card-service-levels tbody tr[data-key]');
    await assertLabels(page, 'service-levels');
    await page.waitForFunction(() => [...document.querySelectorAll('#card-service-levels tbody tr')]
      .some((tr) => /ontap/.test(tr.querySelector('td[data-col="source"]')?.innerText || '') && /\/s$/.test(tr.querySelector('td[data-col="observed_mibps"]')?.innerText || '')),
    null, { timeout: 60000, polling: 500 });
    const units = await page.locator('#card-service-levels tbody td[data-col="cap_mibps"]').allInnerTexts();
    assert.ok(units.every((t) => !/\bMB\/s|\bGB\/s/.test(t)), 'binary throughput units: ' + units.join(', '));
    await shot(page, `laptop-${scheme}-service-levels`);
    await page.context().close();
  });
}

// The Overview: a chart per cluster with the history the demo backfilled, a
// card per storage system and cache target with the figures of the rows `strata get systems`
// and `get cache-targets` print, "Needs attention", no raw API words, nothing wider than the screen.
for (const [name, viewport, isMobile, colorScheme] of [['laptop', { width: 1440, height: 900 }, false, 'light'],
  ['laptop-dark', { width: 1440, height: 900 }, false, 'dark'], ['phone', { width: 390, height: 844 }, true, 'light']]) {
  test(`${name}: the Overview shows clusters over time, storage systems, caches and what needs attention`, async () => {
    const page = await newPage({ viewport, isMobile, colorScheme });
    await login(page, 'viewer');
    await page.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
    assert.equal(await page.evaluate(() => location.hash), '', 'signed in at the default route');
    await page.locator('main h1', { hasText: 'Overview' }).waitFor({ timeout: 20000 });
    await page.locator('#system-cards .ov-card').first().waitFor({ timeout: 60000 });
    await page.locator('#cache-cards .ov-card').first().waitFor({ timeout: 60000 });
    await page.locator('#attention-list .attention-row').first().waitFor({ timeout: 60000 });

    const api = await page.evaluate(async () => {
      const get = async (p) => (await fetch('/api/v1/' + p)).json();
      const clusters = await get('clusters');
      const history = {};
      for (const c of clusters) history[c.source] = await get(`history/projects?source=${encodeURIComponent(c.source)}&range=86400&total=1`);
      return { systems: await get('systems'), targets: await get('cache-targets'), attention: await get('attention'), clusters, history };
    });
    // One chart per cluster, drawn, over history that reaches back most of the day.
    assert.ok(api.clusters.length >= 1, 'the demo has GPU clusters');
    for (const c of api.clusters) {
      await page.locator(`#chart-alloc-${c.source} canvas`).waitFor({ timeout: 30000 });
      const box = await page.locator(`#chart-alloc-${c.source} canvas`).boundingBox();
      assert.ok(box && box.width > 200 && box.height > 80, `${c.source}: the allocation chart has a size`);
      const h = api.history[c.source];
      assert.ok(h.length > 10, `${c.source}: ${h.length} cluster samples in the last 24 h`);
      const span = (Date.parse(h[h.length - 1].time) - Date.parse(h[0].time)) / 3600000;
      assert.ok(span > 20, `${c.source}: history spans ${span.toFixed(1)} h`);
      assert.ok(h.every((s) => s.project === c.source), 'the cluster total, not projects');
    }
    // Cards carry the rows' figures in the console's one unit system.
    const shown = await page.evaluate(async ({ systems, targets }) => {
      const { fmtBytes } = await import('/static/util.js');
      const text = (sel) => document.querySelector(sel)?.innerText.trim();
      return {
        systems: systems.map((s) => [text(`#system-${CSS.escape(s.source)}-${CSS.escape(s.name)} .ov-value`),
          s.used_bytes == null || s.capacity_bytes == null ? '—' : `${fmtBytes(s.used_bytes)} / ${fmtBytes(s.capacity_bytes)}`]),
        targets: targets.map((t) => [text(`#cache-${CSS.escape(t.name)} .ov-value`), t.capacity_bytes > 0 ? `${fmtBytes(t.used_bytes)} / ${fmtBytes(t.capacity_bytes)}` : '—']),
      };
    }, api);
    assert.deepEqual(new Set(api.systems.map((s) => s.kind)), new Set(['ontap', 'azure', 'storagegrid']), 'ONTAP, ANF and StorageGRID systems');
    for (const [got, want] of [...shown.systems, ...shown.targets]) assert.equal(got, want);
    assert.equal(await page.locator('#system-cards .ov-card').count(), api.systems.length);
    assert.equal(await page.locator('#cache-cards .ov-card').count(), api.targets.length);
    assert.equal(await page.locator('#attention-list .attention-row').count(), api.attention.length);
    const grid = api.systems.find((s) => s.kind === 'storagegrid');
    assert.match(await page.locator(`#system-${grid.source}-${grid.name}`).innerText(), /nodes? up/);

    // ONTAP polls performance while someone watches: the cluster's throughput now arrives live.
    const ontap = api.systems.find((s) => s.kind === 'ontap');
    await page.waitForFunction((id) => /\/s now/.test(document.getElementById(id)?.innerText || ''),
      `system-${ontap.source}-${ontap.name}`, { timeout: 90000, polling: 500 });

    // Labels, not API words; nothing wider than the screen.
    const m = await page.evaluate(() => ({ text: document.querySelector('main').innerText, doc: document.documentElement.scrollWidth, vw: window.innerWidth }));
    assert.doesNotMatch(m.text, RAW_WORDS);
    assert.doesNotMatch(m.text, /\b(storagegrid|cache_target|pending_while_idle|volume_full)\b/);
    assert.ok(m.doc <= m.vw, `the Overview is ${m.doc} px wide on a ${m.vw} px screen`);
    await shot(page, `${name}-overview`);

    // A card opens its page.
    await page.locator(`#system-${grid.source}-${grid.name}`).click();
    await page.waitForFunction(() => location.hash.startsWith('#/triage'), null, { timeout: 10000 });
    await page.context().close();
  });
}

// Capacity forecast: every container full soonest first, sorted by date not by the
// "full in" text, filters by kind and source, rows full within 30 days amber and full ones red;
// on a phone the table scrolls inside its card and its header stays whole.
for (const [name, viewport, isMobile, colorScheme] of [['laptop-light', { width: 1440, height: 900 }, false, 'light'],
  ['phone-dark', { width: 390, height: 844 }, true, 'dark']]) {
  test(`forecasts ${name}: the capacity forecast lists every container full soonest first`, async () => {
    const page = await newPage({ viewport, isMobile, colorScheme });
    await login(page, 'viewer');
    await page.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
    await page.goto(baseUrl + '/#/forecasts');
    await page.locator('main h1', { hasText: 'Capacity forecast' }).waitFor({ timeout: 20000 });
    // The forecasts follow the first poll of every source; the feed brings them to the open page.
    // (Polled from here: waitForFunction does not await an async predicate.)
    let api = [];
    for (const deadline = Date.now() + 120000; Date.now() < deadline; await page.waitForTimeout(1000)) {
      api = await page.evaluate(async () => {
        const rows = await (await fetch('/api/v1/forecasts')).json();
        const shown = document.querySelectorAll('#card-forecasts tbody tr[data-key]').length;
        return rows.length > 0 && shown === rows.length ? rows : [];
      });
      if (api.length > 0) break;
    }
    assert.ok(api.length > 0, 'the forecasts reach the page');
    assert.deepEqual(new Set(api.map((r) => r.kind)), new Set(['volume', 'aggregate', 'pool', 'bucket', 'tenant', 'cache_target']));

    // Default order: "full in" ascending, by date (the page's own sort key, stable over the API order).
    assert.equal(await page.locator('#card-forecasts th[data-key="full_in"]').getAttribute('aria-sort'), 'ascending');
    const expected = await page.evaluate(async (rows) => {
      const { fullInSortValue, forecastSeverity } = await import('/static/pages/forecasts.js');
      return {
        order: [...rows].sort((a, b) => fullInSortValue(a) - fullInSortValue(b)).map((r) => r.key),
        values: [...rows].map(fullInSortValue).sort((a, b) => a - b),
        warn: rows.filter((r) => forecastSeverity(r) === 'warning').map((r) => r.key).sort(),
        bad: rows.filter((r) => forecastSeverity(r) === 'critical').map((r) => r.key).sort(),
      };
    }, api);
    const keys = () => page.locator('#card-forecasts tbody tr[data-key]').evaluateAll((trs) => trs.map((tr) => tr.dataset.key));
    // Rows that tie (no date, same fill) may come in either order: compare the sort values.
    const valueOf = new Map(expected.order.map((k, i) => [k, expected.values[i]]));
    const inOrder = async () => assert.deepEqual((await keys()).map((k) => valueOf.get(k)), expected.values);
    await inOrder();
    const firstGrowing = api.filter((r) => r.trend === 'growing' && r.full_at).sort((a, b) => Date.parse(a.full_at) - Date.parse(b.full_at))[0];
    const order = await keys();
    for (const r of api.filter((x) => x.trend !== 'full' && !(x.trend === 'growing' && x.full_at))) {
      if (firstGrowing) assert.ok(order.indexOf(firstGrowing.key) < order.indexOf(r.key), `${firstGrowing.name} (growing) before ${r.name} (${r.trend})`);
    }
    // Highlighted rows: exactly those full (red) or growing to full within 30 days (amber).
    const classed = async (cls) => (await page.locator(`#card-forecasts tbody tr.${cls}`).evaluateAll((trs) => trs.map((tr) => tr.dataset.key))).sort();
    assert.deepEqual(await classed('row-warn'), expected.warn);
    assert.deepEqual(await classed('row-bad'), expected.bad);
    // The "full in" cell carries the server's text with its band.
    for (const r of api.slice(0, 5)) {
      assert.equal(await page.locator(`#card-forecasts tbody tr[data-key="${r.key}"] td[data-col="full_in"]`).innerText(), r.full_in);
    }
    // Labels, not API words.
    const words = await page.locator('#card-forecasts tbody td[data-col="kind"], #card-forecasts tbody td[data-col="trend"]').allInnerTexts();
    assert.deepEqual(words.filter((w) => /\b[a-z0-9]+_[a-z0-9_]+\b/.test(w)), []);

    // Sorting toggles by the header; a kind and a source filter narrow the rows.
    await page.locator('#card-forecasts th[data-key="full_in"] button').click();
    assert.equal(await page.locator('#card-forecasts th[data-key="full_in"]').getAttribute('aria-sort'), 'descending');
    const descending = await page.evaluate(async (rows) => {
      const { fullInSortValue } = await import('/static/pages/forecasts.js');
      const byKey = new Map(rows.map((r) => [r.key, r]));
      return [...document.querySelectorAll('#card-forecasts tbody tr[data-key]')].map((tr) => fullInSortValue(byKey.get(tr.dataset.key)));
    }, api);
    assert.ok(descending.every((v, i) => i === 0 || descending[i - 1] >= v), 'descending by date');
    await page.locator('#card-forecasts th[data-key="full_in"] button').click();
    await inOrder();
    await page.locator('#forecast-kind').selectOption('aggregate');
    const kinds = await page.locator('#card-forecasts tbody td[data-col="kind"]').allInnerTexts();
    assert.ok(kinds.length > 0 && kinds.every((k) => k === 'Aggregate'), 'only aggregates: ' + kinds.join(', '));
    await page.locator('#forecast-kind').selectOption('');
    const source = api.find((r) => r.kind === 'pool').source;
    await page.locator('#forecast-source').selectOption(source);
    assert.equal(await page.locator('#card-forecasts tbody tr[data-key]').count(), api.filter((r) => r.source === source).length);
    await page.locator('#forecast-source').selectOption('');
    assert.equal(await page.locator('#card-forecasts tbody tr[data-key]').count(), api.length);

    // Nothing wider than the screen: a wide table scrolls inside its card; its header is whole.
    const m = await page.evaluate(() => {
      const card = document.querySelector('#card-forecasts').getBoundingClientRect();
      const scroll = document.querySelector('#card-forecasts .scroll');
      const head = document.querySelector('#card-forecasts thead').getBoundingClientRect();
      const name = document.querySelector('#card-forecasts th[data-key="name"]').getBoundingClientRect();
      return { doc: document.documentElement.scrollWidth, vw: window.innerWidth, cardRight: card.right, cardTop: card.top,
        scrolls: scroll.scrollWidth > scroll.clientWidth, scrollRight: scroll.getBoundingClientRect().right,
        headTop: head.top, headHeight: head.height, nameLeft: name.left, nameHeight: name.height,
        tableRight: document.querySelector('#card-forecasts table').getBoundingClientRect().right };
    });
    assert.ok(m.doc <= m.vw, `the page is ${m.doc} px wide on a ${m.vw} px screen`);
    assert.ok(m.cardRight <= m.vw, `the card ends at ${m.cardRight} px on a ${m.vw} px screen`);
    assert.ok(m.scrollRight <= m.cardRight, 'the table scrolls inside its card');
    assert.ok(m.headTop >= m.cardTop && m.headHeight >= 20 && m.nameHeight >= 20, 'the table header is whole');
    assert.ok(m.scrolls || m.tableRight <= m.scrollRight, 'a table wider than its card scrolls sideways inside it');
    await page.evaluate(() => { document.querySelector('#card-forecasts .scroll').scrollLeft = 0; window.scrollTo(0, 0); });
    await shot(page, `forecasts-${name}`);

    // A live diff (as the feed delivers a recomputation) re-sorts and re-marks rows in place: one
    // container now full (red, among the full ones), one full in 12 days (amber) made sooner
    // than every real fill date (the demo's Trident volumes grow fast), so it comes right after.
    // `a` needs a limit to be full against (a bucket or tenant without a quota never is).
    const a = api.filter((r) => r.capacity_bytes != null && r.trend !== 'full').at(-1);
    const b = api.filter((r) => r.key !== a.key).at(-1);
    const day = 86400000;
    // Sooner than the soonest real one (the demo's history is drawn anew each run).
    const soonest = Math.min(0.5, ...api.filter((r) => r.days_to_full > 0 && r.key !== b.key).map((r) => r.days_to_full / 2));
    await page.evaluate(({ a, b, day, soonest }) => {
      const at = (d) => new Date(Date.now() + d * day).toISOString();
      window.strataLive.store.applyDiff({ resource: 'forecasts', upsert: [
        { ...a, trend: 'full', full_in: 'full', full_at: at(-1), days_to_full: null },
        { ...b, trend: 'growing', full_in: `in ${Math.max(1, Math.round(soonest * 24))} h`, full_at: at(soonest), full_earliest: at(soonest * 0.75), full_latest: at(soonest * 1.4), days_to_full: soonest,
          growth_bytes_per_day: 2 ** 31, growth_low_bytes_per_day: 2 ** 30, growth_high_bytes_per_day: 2 ** 32, capacity_bytes: b.capacity_bytes ?? 2 ** 40, percent_used: b.percent_used ?? 40 },
      ] });
    }, { a, b, day, soonest });
    const fullCount = expected.bad.length + 1;
    const afterDiff = await keys();
    assert.ok(afterDiff.indexOf(a.key) < fullCount, `${a.name} sorts among the full ones`);
    assert.equal(afterDiff[fullCount], b.key, `${b.name} fills first of the growing ones`);
    assert.deepEqual(await classed('row-bad'), [...expected.bad, a.key].sort());
    assert.ok((await classed('row-warn')).includes(b.key));
    assert.match(await page.locator(`#forecast-soon .kpi-value`).innerText(), /^[1-9]/);
    await shot(page, `forecasts-${name}-live-diff`);
    await page.context().close();
  });
}

test('operator: runs an action after its preview and finds it in the audit log', async () => {
  const page = await newPage();
  await login(page, 'operator');
  await page.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
  await page.goto(baseUrl + '/#/jobs');
  const row = page.locator('#card-jobs tbody tr[data-key]').filter({ has: page.locator('button', { hasText: 'Delete' }) }).first();
  await row.waitFor({ timeout: 30000 });
  const key = await row.getAttribute('data-key');
  const jobName = key.split('/').pop();
  await row.locator('button', { hasText: 'Delete' }).click();

  const dialog = page.locator('#action-dialog');
  await dialog.locator('.preview h3').waitFor({ timeout: 30000 });
  const previewText = await dialog.locator('.preview').innerText();
  assert.match(previewText, new RegExp(jobName), 'the preview names the job');
  await shot(page, 'action-preview');
  await dialog.locator('button', { hasText: 'Run' }).click();
  await dialog.locator('.progress-text').filter({ hasText: /^(Done|Failed)/ }).waitFor({ timeout: 90000 });
  const outcome = await dialog.locator('.progress-text').innerText();
  assert.match(outcome, /^Done/, 'the action succeeded: ' + outcome);
  await dialog.locator('button', { hasText: 'Close' }).click();

  // The live feed removes the job from the table without a reload.
  await page.locator(`#card-jobs tbody tr[data-key="${key}"]`).waitFor({ state: 'detached', timeout: 60000 });

  await page.goto(baseUrl + '/#/audit');
  const entry = page.locator('#card-audit tbody tr').filter({ hasText: 'Delete job' }).filter({ hasText: 'operator' }).filter({ hasText: jobName });
  await entry.filter({ hasText: 'Succeeded' }).first().waitFor({ timeout: 30000 });
  // One row for the action: its outcome stands for its "started" entry.
  assert.equal(await entry.count(), 1, 'one audit row for the action');
  await shot(page, 'audit-after-action');
  await page.context().close();
});

test('admin: adds a user from the Admin page, who then signs in with that role', async () => {
  const page = await newPage();
  await login(page, 'admin');
  await page.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
  await page.locator('nav.main-nav a[data-route="admin"]').click();
  await page.locator('#card-users tbody tr[data-key="viewer"]').waitFor({ timeout: 20000 });
  await page.locator('#new-user-name').fill('analyst');
  await page.locator('#new-user-password').fill('analyst-password-1');
  await page.locator('#new-user-role').selectOption('operator');
  await page.locator('#card-users button[type="submit"]').click();
  await page.locator('#card-users tbody tr[data-key="analyst"]').filter({ hasText: 'operator' }).waitFor({ timeout: 30000 });
  await page.locator('#card-sources tbody tr[data-key]').first().waitFor({ timeout: 20000 });
  await shot(page, 'admin');

  // A source the server refuses: each sentence (the desktop dialog's) next to its field.
  await page.locator('#source-name').fill('e2e-bad');
  await page.locator('#source-url').fill('https://cluster1.example.com');
  await page.locator('#card-sources form button[type="submit"]').click();
  await page.locator('#source-username-error').waitFor({ state: 'visible', timeout: 20000 });
  assert.equal(await page.locator('#source-username-error').innerText(), 'Enter a username.');
  assert.equal(await page.locator('#source-password-error').innerText(), 'Enter the password.');
  assert.equal(await page.locator('#source-username').getAttribute('aria-invalid'), 'true');
  assert.equal(await page.locator('#source-url-error').isVisible(), false);

  const other = await newPage();
  await login(other, 'analyst', 'analyst-password-1');
  await other.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
  assert.equal(await other.locator('#user-role').innerText(), 'operator');
  // Not an admin: no Admin page, and the users API refuses.
  assert.equal(await other.locator('nav.main-nav a[data-route="admin"]').isVisible(), false);
  const status = await other.evaluate(async () => (await fetch('/api/v1/users', { credentials: 'same-origin' })).status);
  assert.equal(status, 403);
  await other.context().close();

  await page.goto(baseUrl + '/#/audit');
  await page.locator('#card-audit tbody tr').filter({ hasText: 'Add user' }).filter({ hasText: 'analyst' }).first().waitFor({ timeout: 30000 });
  await page.context().close();
});

// Accessibility (WCAG 2.1 A and AA, by axe-core): every page with its data loaded, and the panels
// and dialogs a click opens, in light and dark, on a laptop and a phone; as an admin (every page,
// every action button) and, where the pages differ, as a viewer. No critical or serious finding.
const A11Y_VIEWS = [['light', 1280], ['dark', 1280], ['light', 390], ['dark', 390]];
const cancelDialog = (page) => page.locator('#action-dialog button', { hasText: 'Cancel' }).click();
// [route, selector of its loaded data, [[what a click opens, open(page, phone) -> close() | false (not
// in this view), the region it adds (checked alone: the rest of the page was checked already)]]]
const A11Y_PAGES = [
  ['overview', '#system-cards .ov-card', [['menu', async (page, phone) => {
    if (!phone) return false;
    await page.locator('#nav-toggle').click();
    await page.locator('nav.main-nav a[data-route="jobs"]').waitFor({ state: 'visible' });
    return () => page.locator('#nav-toggle').click();
  }, '.topbar']]],
  ['utilization', '#project-bars .bar-row', [['what-if', async (page) => {
    await page.locator('#gpu-source option[value="aks-gpu"]').waitFor({ state: 'attached', timeout: 60000 });
    await page.locator('#gpu-source').selectOption('aks-gpu');
    await page.locator('#whatif-quota-ml-team').fill('5');
    await page.locator('#whatif-predict').click();
    await page.locator('#whatif-summary').filter({ hasText: 'Nothing has changed' }).waitFor({ timeout: 30000 });
  }, '#card-whatif']]],
  ['chargeback', '#card-chargeback tbody tr[data-key="dgx/team-a"]', [['detail', async (page) => {
    await page.locator('#card-chargeback tbody tr[data-key="dgx/team-a"]').click();
    await page.locator('#card-chargeback-detail tbody tr[data-key]').first().waitFor();
  }, '#card-chargeback-detail']]],
  ['sentiment', '#card-agents tbody tr[data-key]', [['agent', async (page) => {
    await page.locator('#card-agents tbody tr[data-key]').first().click();
    await page.locator('#card-agents .agent-detail table.data').waitFor({ timeout: 30000 });
  }, '#card-agents']]],
  ['datasets', '#card-datasets tbody tr[data-key]', [['commit dialog', async (page) => {
    await page.locator('#card-datasets tbody tr[data-key] button', { hasText: 'Commit' }).first().click();
    await page.locator('#action-dialog input').first().waitFor();
    return cancelDialog;
  }, '#action-dialog']]],
  ['jobs', '#card-jobs tbody tr[data-key]', [['why', async (page) => {
    await page.locator('#card-jobs tbody tr[data-key] td[data-col="name"]').first().click();
    await page.locator('#job-diagnosis-verdict').waitFor({ timeout: 30000 });
  }, '#card-job-diagnosis'], ['delete dialog', async (page) => {
    await page.locator('#card-jobs tbody tr[data-key] button', { hasText: 'Delete' }).first().click();
    await page.locator('#action-dialog .preview h3').waitFor({ timeout: 30000 });
    return cancelDialog;
  }, '#action-dialog']]],
  ['service-levels', '#card-service-levels tbody tr[data-key]', []],
  ['volumes', '#card-volumes tbody tr[data-key]', []],
  ['forecasts', '#card-forecasts tbody tr[data-key]', []],
  ['triage', '#card-events tbody tr[data-key]', []],
  ['audit', '#card-audit tbody tr', []],
  ['admin', '#card-sources tbody tr[data-key]', [['source errors', async (page) => {
    await page.locator('#source-name').fill('a11y-bad');
    await page.locator('#source-url').fill('https://cluster1.example.com');
    await page.locator('#card-sources form button[type="submit"]').click();
    await page.locator('#source-username-error').waitFor({ state: 'visible', timeout: 20000 });
  }, '#card-sources']]],
];
// A viewer sees the same pages without action buttons and with a "read-only" chip (checked on a
// light laptop and a dark phone).
const A11Y_VIEWER_PAGES = ['datasets', 'jobs', 'service-levels', 'audit'];
const A11Y_VIEWER_VIEWS = ['light-1280', 'dark-390'];
// The pages a manager and an admin read every day, saved in every view (the release notes' pictures).
const A11Y_SHOTS = ['overview', 'utilization', 'chargeback', 'volumes', 'forecasts', 'triage'];

test('accessibility: no critical or serious axe finding on any page, light and dark, laptop and phone', async () => {
  // One sign-in per user, its session shared by the views (sign-ins are queued and rate-limited).
  const sessions = {};
  for (const user of ['admin', 'viewer']) {
    const page = await newPage();
    await login(page, user);
    await page.locator('#app-view').waitFor({ state: 'visible', timeout: 20000 });
    sessions[user] = await page.context().storageState();
    await page.context().close();
  }
  // The four views run side by side (a context each); their results are reported in view order.
  async function runView([scheme, width]) {
    const phone = width < 600;
    const view = `${scheme}-${width}`;
    const counts = [];
    const failures = [];
    async function check(page, name, region = null) {
      const findings = await axeFindings(page, repo, region);
      const count = (impact) => findings.filter((f) => f.impact === impact).reduce((n, f) => n + f.targets.length, 0);
      counts.push({ page: name, view, critical: count('critical'), serious: count('serious') });
      if (findings.length) failures.push(describeFindings(`${name} [${view}]`, findings));
    }
    for (const user of A11Y_VIEWER_VIEWS.includes(view) ? ['admin', 'viewer'] : ['admin']) {
      if (user === 'admin') {
        const signIn = await newPage({ viewport: { width, height: phone ? 844 : 800 }, colorScheme: scheme, isMobile: phone });
        await signIn.goto(baseUrl + '/');
        await signIn.locator('#login-user').waitFor();
        await check(signIn, 'login');
        await signIn.context().close();
      }
      const page = await newPage({ viewport: { width, height: phone ? 844 : 800 }, colorScheme: scheme, isMobile: phone, storageState: sessions[user] });
      for (const [route, ready, extras] of A11Y_PAGES) {
        if (user === 'viewer' && !A11Y_VIEWER_PAGES.includes(route)) continue;
        await page.goto(baseUrl + '/#/' + route);
        await page.locator(ready).first().waitFor({ timeout: 90000 });
        await check(page, user === 'admin' ? route : `${route} (viewer)`);
        if (user === 'admin' && A11Y_SHOTS.includes(route)) await shot(page, `${route}-${view}`);
        if (route === 'overview') {
          // What the top bar says to a screen reader, phones included (they hide words from sight).
          const bar = await page.locator('header.topbar').ariaSnapshot();
          for (const [what, want] of [['the brand link is named', /link "Strata"/], ['the live state is read out', /status "[^"]*": (connecting|live|reconnecting|stale)\b/],
            ['the user is named', new RegExp(`Signed in as ${user} ${user}\\b`)]]) {
            if (!want.test(bar)) failures.push(`top bar [${view}]: ${what}; its accessibility tree:\n${bar}`);
          }
        }
        if (user !== 'admin') continue;
        for (const [extra, open, region] of extras) {
          const close = await open(page, phone);
          if (close === false) continue;
          await check(page, `${route} ${extra}`, region);
          if (close) await close(page);
        }
      }
      await page.context().close();
    }
    return { counts, failures };
  }
  const started = Date.now();
  const results = await Promise.all(A11Y_VIEWS.map(runView));
  const counts = results.flatMap((r) => r.counts);
  const failures = results.flatMap((r) => r.failures);
  console.log(`# accessibility: ${counts.length} checks in ${((Date.now() - started) / 1000).toFixed(1)} s\n`
    + findingsTable(counts, A11Y_VIEWS.map(([s, w]) => `${s}-${w}`)).replace(/^/gm, '# '));
  assert.equal(failures.length, 0, `critical or serious accessibility findings:\n${failures.join('\n')}`);
});

test('no script errors on any page', () => {
  assert.deepEqual(pageErrors, []);
});
