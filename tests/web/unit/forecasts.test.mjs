// The Capacity forecast page's ordering and highlighting (web/www/pages/forecasts.js) under
// node's test runner: "full in" sorts by date (full first, then soonest, then the rest by used
// fraction), not by its text, and what stands out.
//
//   node --test tests/web/unit/forecasts.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const { fullInSortValue, forecastSeverity, kindLabel } = await import(path.join(repo, 'web/www/pages/forecasts.js'));

const row = (name, trend, extra = {}) => ({ name, trend, percent_used: 50, full_at: null, days_to_full: null, ...extra });

test('full in: full first, then by fill date, then the rest by used fraction, never by the text', () => {
  const rows = [
    row('flat-90', 'no_trend', { percent_used: 90, full_in: 'no trend' }),
    row('in-9-days', 'growing', { full_at: '2026-12-05T00:00:00Z', days_to_full: 9, full_in: 'in 9 days (7–12)' }),
    row('in-12-days', 'growing', { full_at: '2026-12-08T00:00:00Z', days_to_full: 12, full_in: 'in 12 days (9–17)' }),
    row('unlimited', 'growing', { percent_used: null, full_in: 'growing, no limit' }),
    row('in-5-h', 'growing', { full_at: '2026-11-26T17:00:00Z', days_to_full: 0.2, full_in: 'in 5 h' }),
    row('full', 'full', { percent_used: 100, full_at: '2026-11-20T00:00:00Z', full_in: 'full' }),
    row('new', 'too_little_data', { percent_used: 10, full_in: 'too little data' }),
    row('in-100-days', 'growing', { full_at: '2027-03-06T00:00:00Z', days_to_full: 100, full_in: 'in 100 days (80–130)' }),
  ];
  const order = [...rows].sort((a, b) => fullInSortValue(a) - fullInSortValue(b)).map((r) => r.name);
  assert.deepEqual(order, ['full', 'in-5-h', 'in-9-days', 'in-12-days', 'in-100-days', 'flat-90', 'new', 'unlimited']);
  // The text alone would put "in 100 days" before "in 12 days" and "full" after them.
  const byText = [...rows].sort((a, b) => a.full_in.localeCompare(b.full_in, 'en', { numeric: true })).map((r) => r.name);
  assert.notDeepEqual(byText, order);
});

test('full rows are critical, growing to full within 30 days a warning, the rest plain', () => {
  assert.equal(forecastSeverity(row('a', 'full', { percent_used: 100 })), 'critical');
  assert.equal(forecastSeverity(row('b', 'growing', { days_to_full: 29.9 })), 'warning');
  assert.equal(forecastSeverity(row('c', 'growing', { days_to_full: 30 })), 'warning');
  assert.equal(forecastSeverity(row('d', 'growing', { days_to_full: 30.1 })), null);
  assert.equal(forecastSeverity(row('e', 'growing', { percent_used: null })), null, 'no limit: nothing to fill');
  assert.equal(forecastSeverity(row('f', 'no_trend', { percent_used: 99 })), null);
  assert.equal(kindLabel('cache_target'), 'Cache target');
  assert.equal(kindLabel('pool'), 'Capacity pool');
});
