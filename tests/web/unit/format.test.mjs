// The web console's formatters (web/www/util.js) under node's test runner: units as the C++
// formatters write them (the shared golden table tests/fixtures/units/format-cases.json, when
// present, plus cases of its own), API words as labels, and times in the reader's locale.
//
//   node --test tests/web/unit/format.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const util = await import(path.join(repo, 'web/www/util.js'));
const { fmtBytes, fmtRate, fmtMibps, fmtMoney, fmtHours, fmtTime, timeAxisLabels, label, failingReason, setLocale, UNKNOWN } = util;
const { fmtSpan, fmtGpuCount } = await import(path.join(repo, 'web/www/fields.js'));

// The golden table (shared with tests/core): {kind: "bytes"|"rate"|"money"|"hours"|"duration"|"gpus",
// value, text}, en locale; durations and GPUs are the field kinds of fields.js.
const golden = path.join(repo, 'tests/fixtures/units/format-cases.json');

test('units: the shared golden table', { skip: !fs.existsSync(golden) && 'tests/fixtures/units/format-cases.json not in this tree' }, () => {
  setLocale('en');
  const cases = JSON.parse(fs.readFileSync(golden, 'utf8'));
  assert.ok(Array.isArray(cases) && cases.length > 0, 'format-cases.json is a non-empty array');
  for (const c of cases) {
    assert.ok(['bytes', 'rate', 'money', 'hours', 'duration', 'gpus'].includes(c.kind), 'known kind: ' + JSON.stringify(c));
    const got = c.kind === 'bytes' ? fmtBytes(c.value) : c.kind === 'rate' ? fmtRate(c.value)
      : c.kind === 'money' ? fmtMoney(c.value, c.currency) : c.kind === 'duration' ? fmtSpan(c.value)
      : c.kind === 'gpus' ? fmtGpuCount(c.value) : fmtHours(c.value);
    assert.equal(got, c.text, `${c.kind} ${c.value}`);
  }
});

test('units: binary, adaptive per figure, digits by size', () => {
  setLocale('en');
  const bytes = [
    [0, '0 B'], [1023, '1,023 B'], [1024, '1.0 KiB'], [1536, '1.5 KiB'],
    [1048524, '1.0 MiB'], // 1,023.95 KiB rounds to 1,024: the next unit
    [212.6e6, '203 MiB'], // "212 MB are cached" is 203 MiB, not "0.00 TiB"
    [268435456000, '250 GiB'], // a 250 GiB volume reads the same on every page
    [2199023255552, '2.0 TiB'], [99.94 * 2 ** 30, '99.9 GiB'], [99.96 * 2 ** 30, '100 GiB'],
    [-1610612736, '-1.5 GiB'], [-0.2, '0 B'],
  ];
  for (const [v, t] of bytes) assert.equal(fmtBytes(v), t, `bytes ${v}`);
  for (const v of [null, undefined, NaN, Infinity, '12']) assert.equal(fmtBytes(v), UNKNOWN, `unknown ${v}`);
  assert.equal(fmtRate(16357785.6), '15.6 MiB/s');
  assert.equal(fmtRate(-1), UNKNOWN);
  // Service-level figures arrive in MiB/s: a 5,722 MiB/s cap is 5.6 GiB/s; 0.5 MiB/s is 512 KiB/s.
  assert.equal(fmtMibps(15.6), '15.6 MiB/s');
  assert.equal(fmtMibps(5722), '5.6 GiB/s');
  assert.equal(fmtMibps(0.5), '512 KiB/s');
  assert.equal(fmtMibps(null), UNKNOWN);
  // The reader's locale sets the separators.
  setLocale('de');
  assert.equal(fmtBytes(1536), '1,5 KiB');
  assert.equal(fmtBytes(1023), '1.023 B');
  setLocale('en');
});

test('labels: API words read as words', () => {
  assert.equal(label('s3_prefix'), 'S3 prefix');
  assert.equal(label('ontap_volume'), 'ONTAP volume');
  assert.equal(label('container_creating'), 'Container creating');
  assert.equal(label('at_cap'), 'At cap');
  assert.equal(label('no_node_fits'), 'No node fits'); // not listed: still words
  assert.equal(label('Standard'), 'Standard'); // not an API word: as it is
  assert.equal(label(''), '');
  assert.equal(label(null), '');
  assert.equal(failingReason('ImagePullBackOff: Back-off pulling image "x"'), 'ImagePullBackOff');
  assert.equal(failingReason('CrashLoopBackOff: back-off 5m0s'), 'CrashLoopBackOff');
  assert.equal(failingReason('OOMKilled'), 'OOMKilled');
  assert.equal(failingReason('ErrImagePull'), 'ErrImagePull');
  assert.equal(failingReason('PVC scratch is not bound (Pending)'), null);
  assert.equal(failingReason(''), null);
});

test('times: the reader\'s locale, 24 h where it uses it, never the US "12am 11/26"', () => {
  const t = '2026-11-26T00:05:20Z';
  const tz = process.env.TZ;
  process.env.TZ = 'UTC'; // node reads TZ per Date call on Linux
  try {
    setLocale('en-GB');
    assert.equal(fmtTime(t), '26 Nov 2026, 00:05:20');
    setLocale('de-DE');
    assert.match(fmtTime(t), /^26\. Nov\. 2026, 00:05:20$/);
    setLocale('en-US');
    assert.match(fmtTime(t), /^Nov 26, 2026, 12:05:20\sAM$/);
    assert.equal(fmtTime('not a time'), 'not a time');
    assert.equal(fmtTime(null), UNKNOWN);
    // A chart axis over a day: clock times, the date under the first tick of a new day.
    setLocale('en-GB');
    const s = Date.parse('2026-11-25T22:00:00Z') / 1000;
    assert.deepEqual(timeAxisLabels([s, s + 3600, s + 7200], 3600), ['22:00', '23:00', '00:00\n26 Nov']);
    assert.deepEqual(timeAxisLabels([s, s + 86400], 86400), ['25 Nov', '26 Nov']);
    setLocale('en-US');
    assert.match(timeAxisLabels([s], 3600)[0], /^10:00\sPM$/);
  } finally {
    if (tz == null) delete process.env.TZ; else process.env.TZ = tz;
    setLocale(undefined);
  }
});

test('labels: enumeration words inside free text, names left alone', () => {
  assert.equal(util.labelWords('Job bert-serve is container_creating: image x'), 'Job bert-serve is container creating: image x');
  assert.equal(util.labelWords('volume chest_xray is at_cap'), 'volume chest_xray is at cap');
  assert.equal(util.labelWords(null), '');
});

test('times: ticks under a minute apart carry seconds (no "09:12 09:12")', () => {
  const tz = process.env.TZ;
  process.env.TZ = 'UTC';
  try {
    setLocale('en-GB');
    const s = Date.parse('2026-11-26T09:12:00Z') / 1000;
    assert.deepEqual(timeAxisLabels([s, s + 20, s + 40], 20), ['09:12:00', '09:12:20', '09:12:40']);
  } finally {
    if (tz == null) delete process.env.TZ; else process.env.TZ = tz;
    setLocale(undefined);
  }
});
