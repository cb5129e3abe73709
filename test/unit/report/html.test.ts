import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { renderJson, type JsonReport } from '../../../src/report/json.js';
import { changesChart, distributionChart, histogram, meansChart } from '../../../src/report/html/charts.js';
import { escapeHtml, truncate } from '../../../src/report/html/escape.js';
import { niceTicks, tickLabel } from '../../../src/report/html/svg.js';
import {
  parseJsonReport,
  renderHtml,
  ReportFormatError,
  validateJsonReport,
  writeHtmlReport,
} from '../../../src/report/html/run-report.js';
import { summarize } from '../../../src/report/summary.js';
import { HOSTILE_QUESTION, HOSTILE_SUITE, HOSTILE_TEST, realisticFixture } from '../../browser/fixture.js';
import { BASELINE, regressedRun, RUN } from './fixture.js';

/** Attributes of every `<tag …>` whose class list has all of `classes`. */
function elements(html: string, tag: string, ...classes: string[]): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  for (const match of html.matchAll(new RegExp(`<${tag}\\s([^>]*?)/?>`, 'g'))) {
    const attributes: Record<string, string> = {};
    for (const attribute of match[1]!.matchAll(/([\w:-]+)="([^"]*)"/g)) attributes[attribute[1]!] = attribute[2]!;
    const list = (attributes.class ?? '').split(/\s+/);
    if (classes.every((name) => list.includes(name))) found.push(attributes);
  }
  return found;
}

/** The `<svg class="chart kind">…</svg>` fragments of a page. */
function charts(html: string, kind: string): string[] {
  return [...html.matchAll(new RegExp(`<svg class="chart ${kind}"[\\s\\S]*?</svg>`, 'g'))].map((match) => match[0]);
}

const fixtureReport = (): JsonReport =>
  renderJson(summarize(RUN, BASELINE, { baselinePath: 'rag-baseline.json' }), RUN);

describe('renderHtml', () => {
  it('writes one self-contained page: no script, no remote reference, a policy that forbids both', () => {
    const html = renderHtml(realisticFixture().report);
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;;`,
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\s(?:src|href|xlink:href|action|poster|data)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/url\(|@import|<link|<iframe|<object|<embed/i);
    // Every href is an in-page anchor.
    for (const match of html.matchAll(/href="([^"]*)"/g)) expect(match[1]).toMatch(/^#suite-\d+$/);
  });

  it('escapes every string from the run: suite names, question ids, test names, the baseline path', () => {
    const { run, baseline } = realisticFixture(6);
    const summary = summarize(run, baseline, { baselinePath: '"><img src=x onerror=alert(1)>' });
    const html = renderHtml(renderJson(summary, run));
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('</title><script');
    expect(html).toContain(escapeHtml(HOSTILE_SUITE));
    expect(escapeHtml(HOSTILE_SUITE)).toBe(
      '&lt;script&gt;window.__pwned = &quot;suite&quot;&lt;/script&gt; &amp; &quot;quotes&quot;',
    );
    expect(html).toContain(escapeHtml(HOSTILE_QUESTION));
    expect(html).toContain(escapeHtml(HOSTILE_TEST));
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    // Raw quotes from the run never end an attribute: each attribute value is free of < and ".
    for (const match of html.matchAll(/<[a-z]+\s[^>]*>/g)) expect(match[0]).not.toMatch(/="[^"]*</);
  });

  it('says what the run did not judge, and in strict CI heads the page with it', () => {
    const strict = renderJson(summarize(RUN, BASELINE, { baselinePath: 'rag-baseline.json', strict: true }), RUN);
    const html = renderHtml(strict);
    expect(html).toContain('<section id="not-judged"><h2>Not judged by this run</h2>');
    expect(html).toContain(
      '<li>✗ 1 baseline question not judged: their test file did not run — test/other.test.ts › x — run the whole suite, <code>npx vitest run</code>, or set <code>RAG_PARTIAL=1</code> on a job that runs a deliberate subset</li>',
    );
    // The fixture regresses: the headline stays the regression; the section is there all the same.
    expect(html).toContain('<strong>Retrieval quality regressed in 1 suite × measure row</strong>');
    // Every other finding too, each under the heading that says what it is, with the command that accepts it.
    expect(html).toContain('<section id="regressions"><h2>Regressions</h2>');
    expect(html).toContain('<section id="changes"><h2>The baseline is out of date</h2>');
    expect(html).toContain('<section id="new-or-gone"><h2>Not in the baseline yet, or no longer produced</h2>');
    expect(html).toContain(
      '<li>✗ 1 question of suite test/orders.test.ts &gt; refunds (precision@5) in the baseline did not run although the test file ran: q1 — run <code>RAG_BASELINE=prune npx vitest run</code> and commit</li>',
    );
    const report = fixtureReport();
    expect(renderHtml(report)).toContain('<li>· 1 baseline question not judged');
  });

  it('lists every row in the summary table with its numbers', () => {
    const report = fixtureReport();
    const html = renderHtml(report);
    const rows = [...html.matchAll(/<tr class="status-(\w+)">([\s\S]*?)<\/tr>/g)];
    expect(rows.map((row) => row[1])).toEqual(report.rows.map((row) => row.status));
    const regressed = rows.find((row) => row[1] === 'regressed')![2]!;
    expect(regressed).toContain('>recall@5<');
    const row = report.rows.find((candidate) => candidate.status === 'regressed')!;
    expect(regressed).toContain(`>${row.interval.lower.toFixed(3)}–${row.interval.upper.toFixed(3)}<`);
    expect(regressed).toContain('>0.536<'); // (0.5 + 0 + 0.5 + 0.5 + 0.75 + 0.5 + 1) / 7
    expect(regressed).toContain('>1.000<'); // baseline mean
    expect(regressed).toContain('<span class="down">−0.464</span>');
    expect(html).toContain(
      '<span class="verdict failed">Failed</span> <strong>Retrieval quality regressed in 1 suite × measure row</strong>',
    );
    // The obsolete baseline row.
    expect(html).toContain('<h2>Baseline rows no longer produced</h2>');
    expect(html).toContain('<td>precision@5</td>');
  });

  it('draws per suite the means chart with a mean and interval per measure and the baseline where there is one', () => {
    const report = realisticFixture().report;
    const html = renderHtml(report);
    const means = charts(html, 'means');
    expect(means).toHaveLength(2);
    for (const [index, suite] of [
      'test/orders.test.ts > orders API',
      `test/search.test.ts > ${HOSTILE_SUITE}`,
    ].entries()) {
      const rows = report.rows.filter((row) => row.suite === suite);
      const chart = means[index]!;
      const dots = elements(chart, 'circle', 'mark', 'mean');
      const diamonds = elements(chart, 'path', 'mark', 'baseline');
      expect(dots.map((dot) => Number(dot['data-value']))).toEqual(rows.map((row) => row.mean));
      expect(diamonds.map((diamond) => Number(diamond['data-value']))).toEqual(rows.map((row) => row.baseline!.mean));
      // Positions are one linear map of the values: means and baselines share the axis.
      const points = [
        ...dots.map((dot) => [Number(dot['data-value']), Number(dot.cx)] as const),
        ...diamonds.map(
          (diamond) => [Number(diamond['data-value']), Number(/^M([\d.]+)/.exec(diamond.d!)![1])] as const,
        ),
      ];
      const [a, b] = [points[0]!, points.find((point) => Math.abs(point[0] - points[0]![0]) > 0.05)!];
      const slope = (b[1] - a[1]) / (b[0] - a[0]);
      expect(slope).toBeGreaterThan(100);
      for (const [value, x] of points) expect(Math.abs(a[1] + (value - a[0]) * slope - x)).toBeLessThan(0.3);
    }
  });

  it('draws a bar per changed question, worst drop first, lengths in proportion to the change', () => {
    const report = realisticFixture().report;
    const row = report.rows.find((candidate) => candidate.worse.length > 2 && candidate.better.length > 2)!;
    const chart = changesChart(row.suite, row)!;
    const bars = elements(chart, 'rect', 'mark', 'bar');
    const expected = [...row.worse.slice(0, 15), ...row.better.slice(0, 15).reverse()].map((change) => change.delta);
    expect(bars.map((bar) => Number(bar['data-value']))).toEqual(expected);
    expect(bars.filter((bar) => bar.class!.includes('worse'))).toHaveLength(Math.min(15, row.worse.length));
    const perUnit = Number(bars[0]!.width) / Math.abs(expected[0]!);
    bars.forEach((bar, index) =>
      expect(Math.abs(Number(bar.width) - Math.max(1, perUnit * Math.abs(expected[index]!)))).toBeLessThan(0.3),
    );
    // Worse bars end at zero where better bars start.
    const worse = bars[0]!;
    const better = bars[bars.length - 1]!;
    expect(Math.abs(Number(worse.x) + Number(worse.width) - Number(better.x))).toBeLessThan(0.15);
    expect(chart).toContain(`${row.worse[0]!.before.toFixed(3)} → ${row.worse[0]!.after.toFixed(3)}`);
  });

  it('caps the change chart per side and says so nowhere but the table, which lists up to the limit', () => {
    const report = realisticFixture().report;
    const row = report.rows.find((candidate) => candidate.worse.length >= 3)!;
    const chart = changesChart(row.suite, row, { maxPerSide: 2 })!;
    expect(elements(chart, 'rect', 'mark', 'worse')).toHaveLength(2);
    const html = renderHtml(report, { maxChartQuestions: 2, maxListedQuestions: 1 });
    expect(html).toContain('… and ');
  });

  it('has no change chart for a row where no question changed, and says why', () => {
    const report = fixtureReport();
    const unchanged = report.rows.find(
      (row) => row.status === 'unchanged' && row.worse.length === 0 && row.better.length === 0,
    )!;
    expect(changesChart(unchanged.suite, unchanged)).toBeUndefined();
    const html = renderHtml(report);
    expect(html).toContain(`<strong>${unchanged.measure}</strong>: no question changed`);
    const fresh = report.rows.find((row) => row.status === 'new')!;
    expect(html).toContain(`<strong>${fresh.measure}</strong>: new, no baseline to compare with`);
  });

  it('draws the distribution of per-question values: this run filled, the baseline on the same questions outlined', () => {
    const report = fixtureReport();
    const row = report.rows.find((candidate) => candidate.measure === 'recall@5')!;
    const chart = distributionChart(row.suite, row);
    const now = elements(chart, 'rect', 'mark', 'hist-now').map((bar) => Number(bar['data-value']));
    const before = elements(chart, 'rect', 'mark', 'hist-before').map((bar) => Number(bar['data-value']));
    // recall@5 values 0.5, 0, 0.5, 0.5, 0.75, 0.5, 1 → bins [0,0.1) 1, [0.5,0.6) 4, [0.7,0.8) 1, [0.9,1] 1; baseline all 1.
    expect(now).toEqual([1, 4, 1, 1]);
    expect(before).toEqual([7]);
    expect(now.reduce((sum, count) => sum + count, 0)).toBe(row.count);
    expect(renderHtml(report).match(/<svg class="chart distribution"/g)).toHaveLength(report.rows.length);
  });

  it('is deterministic and says so when nothing was recorded', () => {
    const report = realisticFixture(8).report;
    expect(renderHtml(report)).toBe(renderHtml(structuredClone(report)));
    const empty = renderJson(summarize({ runner: 'jest', samples: [] }, undefined));
    const html = renderHtml(empty);
    expect(html).toContain('No retrieval measures were recorded in this run.');
    expect(html).toContain('No baseline yet');
    expect(html).not.toContain('<svg');
  });

  it('shows the summary’s warnings, escaped, and draws a report written before warnings existed', () => {
    const report = { ...fixtureReport(), warnings: ['Holm makes p <0.05 unreachable for "recall@5"'] };
    expect(renderHtml(report)).toContain(
      '<p class="warning">⚠ Holm makes p &lt;0.05 unreachable for &quot;recall@5&quot;</p>',
    );
    const { warnings: _dropped, ...older } = report;
    expect(renderHtml(older as JsonReport)).not.toContain('class="warning"');
    expect(() => renderHtml({ ...report, warnings: [1] } as unknown as JsonReport)).toThrow(
      '"warnings" must be an array of strings, found [1].',
    );
  });

  it('shows invisible characters and trailing spaces in question ids, so look-alike ids differ here too', () => {
    // Before, "q\u200b1" and "q1 " were written raw and looked like "q1".
    const html = renderHtml(renderJson(regressedRun('s', ['q\u200b1', 'q1 '])));
    expect(html).toContain('<td>q\\u200b1</td>');
    expect(html).toContain('<td>q1\\x20</td>');
    expect(html).not.toContain('\u200b');
  });

  it('takes a title and escapes it', () => {
    const html = renderHtml(fixtureReport(), { title: 'Nightly <eval>' });
    expect(html).toContain('<title>Nightly &lt;eval&gt;</title>');
    expect(html).toContain('<h1>Nightly &lt;eval&gt;</h1>');
  });
});

describe('reading a JSON report', () => {
  it('round-trips through JSON text', () => {
    const report = fixtureReport();
    expect(parseJsonReport(JSON.stringify(report), 'r.json')).toEqual(report);
  });

  it('refuses what it cannot draw, naming the field', () => {
    const report = fixtureReport();
    const broken = structuredClone(report) as unknown as { rows: { mean: unknown; samples: { value: unknown }[] }[] };
    broken.rows[1]!.mean = 'high';
    expect(() => validateJsonReport(broken, 'r.json')).toThrow(
      new ReportFormatError('r.json: rows[1].mean must be a finite number, found "high".'),
    );
    const brokenSample = structuredClone(report) as unknown as typeof broken;
    brokenSample.rows[0]!.samples[2]!.value = null;
    expect(() => renderHtml(brokenSample as unknown as JsonReport)).toThrow(
      'rows[0].samples[2].value must be a finite number, found null',
    );
    expect(() => parseJsonReport('{"rows": [', 'r.json')).toThrow(/^r\.json: not valid JSON/);
    expect(() =>
      parseJsonReport('{"generatedBy": "rag-matchers", "schemaVersion": 1, "suites": {}}', 'rag-baseline.json'),
    ).toThrow('rag-baseline.json: not a rag-matchers JSON report');
    expect(() => parseJsonReport(JSON.stringify({ ...report, schemaVersion: 3 }), 'r.json')).toThrow(
      'newer rag-matchers (report schema version 3',
    );
    // A version-1 report has no verdict to draw.
    expect(() => parseJsonReport(JSON.stringify({ ...report, schemaVersion: 1 }), 'r.json')).toThrow(
      new ReportFormatError(
        'r.json: written by an earlier rag-matchers (report schema version 1, without the verdict this version draws); run the tests again to write a version-2 report.',
      ),
    );
    const noSection = structuredClone(report) as unknown as { verdict: { sections: { findings: unknown }[] } };
    noSection.verdict.sections[0]!.findings = [99];
    expect(() => validateJsonReport(noSection, 'r.json')).toThrow(
      `r.json: verdict.sections[0].findings must be an array of indexes below ${report.findings.length}, found [99].`,
    );
  });
});

describe('writeHtmlReport', () => {
  let directory: string | undefined;
  afterEach(() => {
    if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  });

  it('writes the rendered page, creating directories, leaving no temp file', async () => {
    directory = mkdtempSync(join(tmpdir(), 'rag-html-'));
    const report = fixtureReport();
    const target = join(directory, 'nested', 'deeper', 'report.html');
    await writeHtmlReport(target, report);
    expect(readFileSync(target, 'utf8')).toBe(renderHtml(report));
    await writeHtmlReport(target, report, { title: 'Second' });
    expect(readFileSync(target, 'utf8')).toContain('<h1>Second</h1>');
    expect(readdirSync(join(directory, 'nested', 'deeper'))).toEqual(['report.html']);
  });

  it('leaves an existing report untouched when the new one cannot be rendered', async () => {
    directory = mkdtempSync(join(tmpdir(), 'rag-html-'));
    const target = join(directory, 'report.html');
    await writeHtmlReport(target, fixtureReport());
    const before = readFileSync(target, 'utf8');
    await expect(
      writeHtmlReport(target, { ...fixtureReport(), rows: 'none' } as unknown as JsonReport),
    ).rejects.toThrow(ReportFormatError);
    expect(readFileSync(target, 'utf8')).toBe(before);
  });
});

describe('chart helpers', () => {
  it('escapes markup, quotes, control characters and lone surrogates', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
    expect(escapeHtml('a\u0000b\u001bc\td\ne')).toBe('a\ufffdb\ufffdc\td\ne');
    expect(escapeHtml('x\ud800y\udc00z 😀')).toBe('x\ufffdy\ufffdz 😀');
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('😀😀😀', 3)).toBe('😀😀😀');
  });

  it('chooses round ticks that cover the range', () => {
    expect(niceTicks(0, 1, 10).ticks).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    expect(niceTicks(-0.27, 0.13, 8)).toMatchObject({ lo: -0.3, hi: 0.15, step: 0.05 });
    expect(niceTicks(0, 7, 4).ticks).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(0.5, 0.5).ticks.length).toBeGreaterThan(1);
    expect(tickLabel(0.25, 0.25)).toBe('0.25');
    expect(tickLabel(-0, 0.1)).toBe('0.0');
    expect(tickLabel(4, 2)).toBe('4');
  });

  it('bins values with the upper edge in the last bin and the range widened to hold every value', () => {
    const bins = histogram([0, 0.05, 0.1, 0.99, 1], [1, 1]);
    expect(bins).toHaveLength(10);
    expect(bins.map((bin) => bin.now)).toEqual([2, 1, 0, 0, 0, 0, 0, 0, 0, 2]);
    expect(bins[9]!.before).toBe(2);
    const wide = histogram([-1, 3], []);
    expect(wide[0]!.lo).toBe(-1);
    expect(wide[9]!.hi).toBe(3);
    expect(wide[0]!.now + wide[9]!.now).toBe(2);
  });

  it('puts values above 1 on the means axis', () => {
    const report = fixtureReport();
    const row = { ...report.rows[0]!, mean: 3.5, interval: { ...report.rows[0]!.interval, lower: 2, upper: 4 } };
    const chart = meansChart('s', [row]);
    expect(chart).toContain('>4.0<');
  });
});
