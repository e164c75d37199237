// Accessibility check of an open page with axe-core (web/package-lock.json pins it): its WCAG 2.0
// and 2.1 level A and AA rules (contrast, names, roles, "label in name" of WCAG 2.5.3, ...).
import fs from 'node:fs';
import path from 'node:path';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
// The findings that fail the check (axe's impact scale: minor, moderate, serious, critical).
export const BLOCKING = new Set(['critical', 'serious']);

let axeSource = null;
function source(repo) {
  if (axeSource) return axeSource;
  const file = path.join(repo, 'web/node_modules/axe-core/axe.min.js');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run scripts/deps.sh --test (npm ci in web/)`);
  axeSource = fs.readFileSync(file, 'utf8');
  return axeSource;
}

/// Runs axe on the page as it is now (or only on the elements `region`, a CSS selector, matches);
/// returns its critical and serious violations as [{id, impact, help, targets: [selector], summary}]
/// (one entry per rule, its failing elements listed).
export async function axeFindings(page, repo, region = null) {
  // Evaluated, not a <script> tag: the console's Content-Security-Policy refuses inline scripts,
  // and page.evaluate runs outside it.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(source(repo));
  const result = await page.evaluate(async ({ tags, region }) => {
    const r = await window.axe.run(region ? { include: [region] } : document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), impact: n.impact, summary: n.failureSummary })) }));
  }, { tags: AXE_TAGS, region });
  return result
    .map((v) => ({ ...v, nodes: v.nodes.filter((n) => BLOCKING.has(n.impact || v.impact)) }))
    .filter((v) => v.nodes.length > 0)
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target),
      summary: (v.nodes[0].summary || '').split('\n').filter(Boolean).slice(0, 3).join(' / ') }));
}

/// Findings as lines to read in a test log: rule, impact, how many elements, a few selectors.
export function describeFindings(where, findings) {
  return findings.map((f) => `${where}: ${f.impact} ${f.id} (${f.targets.length}×) ${f.help}\n`
    + `    ${f.targets.slice(0, 4).join('  |  ')}${f.targets.length > 4 ? `  | … ${f.targets.length - 4} more` : ''}\n`
    + `    ${f.summary}`).join('\n');
}

/// Counts of critical and serious findings (elements, not rules) per page and view, as a table.
export function findingsTable(counts, views) {
  const pages = [...new Set(counts.map((c) => c.page))];
  const cell = (page, view) => {
    const c = counts.find((x) => x.page === page && x.view === view);
    return c ? `${c.critical}/${c.serious}` : '';
  };
  const width = Math.max(4, ...pages.map((p) => p.length));
  const lines = [`${'page'.padEnd(width)}  ${views.map((v) => v.padStart(11)).join(' ')}   (critical/serious elements)`];
  for (const p of pages) lines.push(`${p.padEnd(width)}  ${views.map((v) => cell(p, v).padStart(11)).join(' ')}`);
  return lines.join('\n');
}
