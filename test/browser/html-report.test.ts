// The HTML reports in a real browser: headless Chromium (CHROMIUM_PATH, Debian's `chromium`, or the one
// the devDependency @sparticuz/chromium ships: ./chromium.ts) opens the run report
// and the history page from disk, and the test checks the charts are drawn with the report's data, the
// stylesheet applied, nothing was fetched, nothing ran, no console errors; it saves screenshots under
// test-output/browser/. It never skips: a Chromium always comes with `npm ci`.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { historyBySuite, readBaselineHistory } from '../../src/report/history.js';
import { renderHistoryHtml, renderHtml } from '../../src/report/html/run-report.js';
import { HOSTILE_QUESTION, HOSTILE_SUITE, HOSTILE_TEST, realisticFixture } from './fixture.js';
import { baselineHistoryRepo } from './git-fixture.js';
import { findChromium } from './chromium.js';

const OUTPUT = resolve('test-output/browser');
const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let browser: Browser | undefined;

// The few DOM members the in-page checks use: the project's tsconfig leaves out the DOM library on
// purpose (src runs in Node), so the page is typed here rather than by adding `lib: dom` for everyone.
interface DomRect {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}
interface DomElement {
  getBoundingClientRect(): DomRect;
  getAttribute(name: string): string | null;
  readonly classList: ArrayLike<string>;
  readonly textContent: string | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  querySelector(selector: string): DomElement | null;
  getTotalLength(): number;
}
interface DomWindow {
  document: {
    querySelectorAll(selector: string): ArrayLike<DomElement>;
    querySelector(selector: string): DomElement | null;
    scripts: ArrayLike<unknown>;
    images: ArrayLike<unknown>;
    documentElement: { scrollWidth: number };
  };
  innerWidth: number;
  getComputedStyle(element: DomElement): { fill: string };
  __pwned?: string;
  ran?: number;
}

/** Launches Chromium once (playwright gives it a fresh temporary profile): see ./chromium.ts for which. */
async function launch(): Promise<Browser> {
  if (browser === undefined) {
    const chromiumBinary = await findChromium();
    browser = await chromium.launch({ executablePath: chromiumBinary.path, args: LAUNCH_ARGS, timeout: 60_000 });
  }
  return browser;
}

interface Opened {
  page: Page;
  /** Console errors and warnings, page errors, and any request other than the file itself. */
  problems: string[];
}

async function open(file: string): Promise<Opened> {
  const page = await (await launch()).newPage({ viewport: { width: 1280, height: 900 } });
  const url = pathToFileURL(file).href;
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    if (request.url() !== url) problems.push(`request: ${request.url()}`);
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, problems };
}

beforeAll(() => mkdirSync(OUTPUT, { recursive: true }));
afterAll(async () => {
  await browser?.close();
});

describe('HTML report in Chromium', { timeout: 90_000 }, () => {
  it('catches what it must catch: a blocked script, a remote image and a console error all show up as problems', async () => {
    const file = join(OUTPUT, 'self-check.html');
    writeFileSync(
      file,
      `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` +
        `<img src="https://example.invalid/x.png"><script>window.ran = 1</script><p>self-check</p>`,
    );
    const { page, problems } = await open(file);
    expect(await page.evaluate(() => (globalThis as unknown as DomWindow).ran)).toBeUndefined();
    expect(
      problems.some((problem) => problem.startsWith('console error') && problem.includes('Content Security Policy')),
    ).toBe(true);
    await page.close();
  });

  it('opens the run report: charts drawn with the data, styles applied, hostile strings shown as text, nothing fetched or run', async () => {
    const { report } = realisticFixture();
    const file = join(OUTPUT, 'report.html');
    writeFileSync(file, renderHtml(report));
    const { page, problems } = await open(file);

    const drawn = await page.evaluate(() => {
      const { document, getComputedStyle, innerWidth, __pwned } = globalThis as unknown as DomWindow;
      const charts = Array.from(document.querySelectorAll('svg.chart')).map((svg) => {
        const box = svg.getBoundingClientRect();
        const marks = Array.from(svg.querySelectorAll('.mark')).map((mark) => {
          const b = mark.getBoundingClientRect();
          return {
            className: mark.getAttribute('class') ?? '',
            value: Number(mark.getAttribute('data-value')),
            width: b.width,
            height: b.height,
            inside:
              b.left >= box.left - 1 && b.right <= box.right + 1 && b.top >= box.top - 1 && b.bottom <= box.bottom + 1,
            fill: getComputedStyle(mark).fill,
          };
        });
        return {
          kind: svg.classList[1] ?? '',
          width: box.width,
          height: box.height,
          marks,
          label: svg.getAttribute('aria-label') ?? '',
        };
      });
      return {
        charts,
        scripts: document.scripts.length,
        images: document.images.length,
        pwned: __pwned,
        headings: Array.from(document.querySelectorAll('h2')).map((h) => h.textContent ?? ''),
        questionCells: Array.from(document.querySelectorAll('td')).map((td) => td.textContent ?? ''),
        tooltip: document.querySelector('svg.chart.means g.row > title')?.textContent ?? '',
        overflow: document.documentElement.scrollWidth - innerWidth,
      };
    });

    // Nothing fetched, nothing run, nothing logged.
    expect(problems).toEqual([]);
    expect(drawn.scripts).toBe(0);
    expect(drawn.images).toBe(0);
    expect(drawn.pwned).toBeUndefined();
    // Hostile strings are visible as the text they are.
    expect(drawn.headings).toContain(`test/search.test.ts > ${HOSTILE_SUITE}`);
    expect(drawn.questionCells).toContain(HOSTILE_QUESTION);
    expect(drawn.questionCells).toContain(HOSTILE_TEST);

    // One means chart per suite, a mean dot per row with the row's value, filled by the stylesheet.
    const suites = [...new Set(report.rows.map((row) => row.suite))];
    const means = drawn.charts.filter((chart) => chart.kind === 'means');
    expect(means).toHaveLength(suites.length);
    means.forEach((chart, index) => {
      const rows = report.rows.filter((row) => row.suite === suites[index]);
      const dots = chart.marks.filter((mark) => mark.className.includes('mean'));
      expect(dots.map((dot) => dot.value)).toEqual(rows.map((row) => row.mean));
      for (const dot of dots) expect(dot.fill).toMatch(/^rgb\((198, 40, 40|46, 125, 50|96, 125, 139|21, 101, 192)\)$/);
    });
    // A change chart per row with changed questions, red bars for worse and green for better.
    const changed = report.rows.filter((row) => row.worse.length + row.better.length > 0);
    const changes = drawn.charts.filter((chart) => chart.kind === 'changes');
    expect(changes).toHaveLength(changed.length);
    const bars = changes.flatMap((chart) => chart.marks);
    expect(bars.length).toBe(
      changed.reduce((sum, row) => sum + Math.min(15, row.worse.length) + Math.min(15, row.better.length), 0),
    );
    for (const bar of bars)
      expect(bar.fill).toBe(bar.className.includes('worse') ? 'rgb(198, 40, 40)' : 'rgb(46, 125, 50)');
    // A distribution per row whose bars count every question.
    const distributions = drawn.charts.filter((chart) => chart.kind === 'distribution');
    expect(distributions).toHaveLength(report.rows.length);
    distributions.forEach((chart, index) => {
      const now = chart.marks.filter((mark) => mark.className.includes('hist-now'));
      expect(now.reduce((sum, mark) => sum + mark.value, 0)).toBe(report.rows[index]!.count);
    });
    // Every chart has a size, every mark is visible and inside its chart; the page fits the window.
    for (const chart of drawn.charts) {
      expect(chart.width, chart.label).toBeGreaterThan(200);
      expect(chart.height, chart.label).toBeGreaterThan(50);
      expect(chart.marks.length, chart.label).toBeGreaterThan(0);
      for (const mark of chart.marks) {
        expect(mark.width > 0 && mark.height > 0, `${chart.label}: ${mark.className}`).toBe(true);
        expect(mark.inside, `${chart.label}: ${mark.className} outside its chart`).toBe(true);
      }
    }
    expect(drawn.tooltip).toMatch(
      /^mrr: mean \d\.\d{3} \(95% interval \d\.\d{3}–\d\.\d{3}, 40 questions\) · baseline \d\.\d{3}/,
    );
    expect(drawn.overflow).toBeLessThanOrEqual(0);

    const screenshot = join(OUTPUT, 'report.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(statSync(screenshot).size).toBeGreaterThan(20_000);
    await page.close();
  });

  it('opens the history page: a line per measure through the versions, nothing fetched or run', async () => {
    const repo = baselineHistoryRepo();
    try {
      const history = await readBaselineHistory(repo.path, { cwd: repo.dir });
      const file = join(OUTPUT, 'history.html');
      writeFileSync(file, renderHistoryHtml(history, historyBySuite(history)));
      const { page, problems } = await open(file);
      const drawn = await page.evaluate(() => {
        const { document } = globalThis as unknown as DomWindow;
        return Array.from(document.querySelectorAll('svg.chart.history')).map((svg) => ({
          lines: Array.from(svg.querySelectorAll('path.series')).map((path) => path.getTotalLength()),
          points: Array.from(svg.querySelectorAll('circle.mark')).map((circle) =>
            Number(circle.getAttribute('data-value')),
          ),
          width: svg.getBoundingClientRect().width,
        }));
      });
      expect(problems).toEqual([]);
      expect(drawn).toHaveLength(2);
      // orders: ndcg@10 0.6 0.6 0.7 0.7 0.7 and recall@5 0.5 1 1 1 0.75.
      expect(drawn[0]!.points.map((value) => Number(value.toFixed(9)))).toEqual([
        0.6, 0.6, 0.7, 0.7, 0.7, 0.5, 1, 1, 1, 0.75,
      ]);
      for (const chart of drawn) {
        expect(chart.width).toBeGreaterThan(200);
        for (const length of chart.lines) expect(length).toBeGreaterThan(50);
      }
      const screenshot = join(OUTPUT, 'history.png');
      await page.screenshot({ path: screenshot, fullPage: true });
      expect(statSync(screenshot).size).toBeGreaterThan(10_000);
      await page.close();
    } finally {
      repo.remove();
    }
  });
});
