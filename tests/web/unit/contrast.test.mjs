// Colour contrast of the web console's style sheet (web/www/app.css) in light and dark, against
// WCAG 2.1 AA, for every state whether or not a page shows it at the moment (a role chip, a stale
// pill, a failed action): text 4.5:1 on its own background (a rule that sets both) or else on the
// panel and the page background; field and button outlines and the focus ring 3:1 (1.4.11).
// The browser test (tests/web/e2e, axe-core) checks the pages as they render.
//
//   node --test tests/web/unit/contrast.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const css = fs.readFileSync(path.resolve(here, '../../../web/www/app.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');

function declarations(body) {
  const out = {};
  for (const d of body.split(';')) {
    const i = d.indexOf(':');
    if (i > 0) out[d.slice(0, i).trim()] = d.slice(i + 1).trim();
  }
  return out;
}

// The custom properties: light from the first :root, dark overriding them under prefers-color-scheme.
const darkBlock = /@media\s*\(prefers-color-scheme:\s*dark\)\s*\{\s*:root\s*\{([^}]*)\}\s*\}/.exec(css);
const lightVars = declarations(/:root\s*\{([^}]*)\}/.exec(css)[1]);
const SCHEMES = { light: lightVars, dark: { ...lightVars, ...declarations(darkBlock[1]) } };

/// A colour value as [r, g, b] (0–255), or null when it is not one plain colour (a mix, a gradient,
/// transparent, currentColor...).
function resolve(value, vars, depth = 0) {
  if (value == null || depth > 8) return null;
  const v = value.trim();
  const ref = /^var\((--[\w-]+)\)$/.exec(v);
  if (ref) return resolve(vars[ref[1]], vars, depth + 1);
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(v);
  if (!hex) return null;
  const h = hex[1].length === 3 ? [...hex[1]].map((c) => c + c).join('') : hex[1];
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
}

function luminance(rgb) {
  const [r, g, b] = rgb.map((c) => { const s = c / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
const hexOf = (rgb) => '#' + rgb.map((c) => c.toString(16).padStart(2, '0')).join('');

// Every innermost rule (those inside @media blocks too), without the dark custom properties.
const rules = [...css.replace(darkBlock[0], '').matchAll(/([^{}]+)\{([^{}]*)\}/g)]
  .map((m) => ({ selector: m[1].trim().replace(/\s+/g, ' '), decls: declarations(m[2]) }))
  .filter((r) => !r.selector.startsWith(':root') && !r.selector.startsWith('@'));

test('the style sheet defines both schemes', () => {
  for (const name of ['--bg', '--panel', '--text', '--muted', '--good', '--warn', '--bad']) {
    assert.ok(resolve(`var(${name})`, SCHEMES.light) && resolve(`var(${name})`, SCHEMES.dark), name);
  }
});

test('text has 4.5:1 against its background in light and dark (WCAG 1.4.3)', () => {
  const failures = [];
  let pairs = 0;
  for (const rule of rules) {
    if (!rule.decls.color) continue;
    for (const [scheme, vars] of Object.entries(SCHEMES)) {
      const fg = resolve(rule.decls.color, vars);
      if (!fg) continue;
      const own = resolve(rule.decls['background-color'] ?? rule.decls.background, vars);
      const backgrounds = own ? [['its background', own]] : [['--panel', resolve('var(--panel)', vars)], ['--bg', resolve('var(--bg)', vars)]];
      for (const [where, bg] of backgrounds) {
        pairs++;
        const ratio = contrast(fg, bg);
        if (ratio < 4.5) failures.push(`${scheme}: ${rule.selector} — ${rule.decls.color} ${hexOf(fg)} on ${where} ${hexOf(bg)} is ${ratio.toFixed(2)}:1`);
      }
    }
  }
  assert.ok(pairs > 60, `only ${pairs} text/background pairs found: is the style sheet parsed?`);
  assert.deepEqual(failures, []);
});

test('field and button outlines and the focus ring have 3:1 against the panel and the page (WCAG 1.4.11)', () => {
  const failures = [];
  for (const [scheme, vars] of Object.entries(SCHEMES)) {
    for (const line of ['--control-border', '--focus']) {
      for (const bg of ['--panel', '--bg']) {
        const a = resolve(`var(${line})`, vars);
        const b = resolve(`var(${bg})`, vars);
        if (!a) { failures.push(`${scheme}: ${line} is not defined as a colour`); continue; }
        const ratio = contrast(a, b);
        if (ratio < 3) failures.push(`${scheme}: ${line} ${hexOf(a)} on ${bg} ${hexOf(b)} is ${ratio.toFixed(2)}:1`);
      }
    }
  }
  // The outlines of fields and buttons use it (the card border --border is far lighter).
  for (const selector of ['input, select', '.btn', '.segmented']) {
    const rule = rules.find((r) => r.selector === selector);
    assert.ok(rule, selector);
    assert.match(rule.decls.border ?? '', /var\(--control-border\)/, `${selector} outlines with --control-border`);
  }
  assert.deepEqual(failures, []);
});

test('text stays readable on a row or sentence that flashes as a live update arrives (the flash colour)', () => {
  // A page is read, and axe samples it, while a changed row or a new sentence flashes: every
  // text colour of the sheet keeps 4.5:1 on --flash, the background the flash starts from.
  const failures = [];
  for (const [scheme, vars] of Object.entries(SCHEMES)) {
    const flash = resolve('var(--flash)', vars);
    assert.ok(flash, `${scheme}: --flash is a colour`);
    for (const name of ['--text', '--muted', '--accent']) {
      const fg = resolve(`var(${name})`, vars);
      const ratio = contrast(fg, flash);
      if (ratio < 4.5) failures.push(`${scheme}: ${name} ${hexOf(fg)} on --flash ${hexOf(flash)} is ${ratio.toFixed(2)}:1`);
    }
  }
  assert.deepEqual(failures, []);
});
