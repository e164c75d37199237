// The Audit page's rows (web/www/pages/tables.js) under node's test runner: an action is one
// row, its outcome standing for its "started" entry; one still running shows "started".
//
//   node --test tests/web/unit/audit.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const { oneRowPerAction } = await import(path.join(repo, 'web/www/pages/tables.js'));

test('an action with an outcome is one row; a running one and entries without an action id stay', () => {
  const rows = [
    { action_id: 'a', outcome: 'succeeded', time: '2026-12-02T16:18:37Z' },
    { action_id: 'a', outcome: 'started', time: '2026-12-02T16:18:36Z' },
    { action_id: 'b', outcome: 'started', time: '2026-12-02T16:19:00Z' },
    { action_id: '', outcome: 'refused', time: '2026-12-02T16:20:00Z' },
    { action_id: 'c', outcome: 'failed', time: '2026-12-02T16:21:00Z' },
    { action_id: 'c', outcome: 'started', time: '2026-12-02T16:20:59Z' },
  ];
  assert.deepEqual(oneRowPerAction(rows).map((r) => `${r.action_id}:${r.outcome}`),
    ['a:succeeded', 'b:started', ':refused', 'c:failed']);
});
