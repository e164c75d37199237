// The Utilization page's allocation chart data (web/www/charts.js) under node's test runner:
// projects stacked bottom first (one band each, the top of the stack the total), the readout's
// own values, the sum of the quotas as a line, and uPlot's fills between the bands.
//
//   node --test tests/web/unit/charts.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const { stack, stackedAllocation } = await import(path.join(repo, 'web/www/charts.js'));

const at = (minute) => new Date(Date.UTC(2026, 10, 20, 10, minute)).toISOString();
const sample = (project, minute, allocated, quota) => ({ time: at(minute), project, allocated, quota });

test('four projects holding the same count get four bands, not four lines on one another', () => {
  const history = ['team-d', 'team-b', 'team-a', 'team-c'].map((p) => sample(p, 0, 2, 2));
  const st = stackedAllocation(history);
  assert.deepEqual(st.names, ['team-a', 'team-b', 'team-c', 'team-d']);
  assert.deepEqual(st.raw, [[2], [2], [2], [2]], 'the readout shows each project\'s own GPUs');
  assert.deepEqual(st.tops, [[2], [4], [6], [8]], 'each band sits on the ones below; the top is the total');
  assert.deepEqual(st.quota, [8]);
  assert.deepEqual(st.bands, [{ series: [2, 1] }, { series: [3, 2] }, { series: [4, 3] }]);
});

test('each project holds its last value until it changes; no quota, no line', () => {
  const history = [sample('a', 0, 1, 4), sample('a', 10, 3, 4), sample('b', 5, 0.5, -1), sample('b', 15, 1.5, 2)];
  const st = stackedAllocation(history);
  assert.equal(st.xs.length, 4);
  assert.deepEqual(st.raw, [[1, 1, 3, 3], [0, 0.5, 0.5, 1.5]]);
  assert.deepEqual(st.tops[1], [1, 1.5, 3.5, 4.5]);
  assert.deepEqual(st.quota, [4, 4, 4, 6]);
  assert.equal(stackedAllocation([sample('x', 0, 1, null)]).quota, null);
  assert.deepEqual(stackedAllocation([]).bands, []);
  assert.deepEqual(stack([[1, null, 2], [null, 1, 1]]), [[1, 0, 2], [1, 1, 3]]);
});
