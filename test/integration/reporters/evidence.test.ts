// What explains a move, with the real `vitest run`: one recording, then one CI run of a worse retriever.
// The baseline keeps each question's text and top 3 keys (its largest cutoff); the console, Markdown,
// JSON and HTML of the CI run show each regressed question's text and its ranking before → after.
// Worked by hand (relevant keys marked ✓, top 3 kept):
//   refund-window  before refund-policy✓ shipping-times refund-faq✓ → after shipping-times order-status refund-policy✓
//                  refund-faq left (was 3) · refund-policy 1 → 3; now above: shipping-times, order-status
//   refund-status  before refund-tracking✓ order-status returns → after order-status returns refund-faq✓
//                  refund-tracking left (was 1) · refund-faq new at 3; now above: order-status, returns
// Backs "Why is my gate red?" in docs/troubleshooting.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackageSnapshot } from '../support/project.js';
import {
  createReporterProject,
  explain,
  preparePackage,
  readJson,
  reporterOutput,
  runCli,
  runTests,
  type ReporterProject,
} from './support.js';

const WINDOW_TEXT = 'how long do I have to ask for a refund';
const WINDOW_MOVES = 'refund-faq left (was 3) · refund-policy 1 → 3; now above: shipping-times, order-status';
const WINDOW_BEFORE = 'before: 1 refund-policy ✓ · 2 shipping-times · 3 refund-faq ✓';
const WINDOW_AFTER = '1 shipping-times · 2 order-status · 3 refund-policy ✓';
const STATUS_MOVES = 'refund-tracking left (was 1) · refund-faq new at 3; now above: order-status, returns';

let pkg: PackageSnapshot;
let project: ReporterProject;

beforeAll(async () => {
  pkg = await preparePackage();
  project = createReporterProject('vitest', pkg);
  // The worse retriever also loses refund-status's relevant passage and brings in its other one.
  const data = JSON.parse(readFileSync(project.path('retrieval.json'), 'utf8')) as {
    retrievers: Record<string, Record<string, string[]>>;
  };
  data.retrievers.worse!['refund-status'] = ['order-status', 'returns', 'refund-faq'];
  writeFileSync(project.path('retrieval.json'), JSON.stringify(data));
}, 240_000);

afterAll(() => {
  project?.remove();
  pkg?.remove();
});

describe('a changed question shows its text and its ranking before → after', { timeout: 240_000 }, () => {
  it('is kept by the baseline and shown by the console, Markdown, JSON and HTML of a worse run', async () => {
    const recorded = await runTests(project, { env: { RAG_BASELINE: 'update' } });
    expect(recorded.exitCode, explain(recorded)).toBe(0);
    const baseline = readFileSync(project.path('rag-baseline.json'), 'utf8');
    expect(baseline).toContain('"schemaVersion": 7');
    expect(baseline).toContain(
      `,["refund-window",["${WINDOW_TEXT}",["refund-policy",1],"shipping-times",["refund-faq",1]]]\n    ,["`,
    );

    const worse = await runTests(project, { env: { CI: 'true', RETRIEVER: 'worse' } });
    expect(worse.exitCode, explain(worse)).toBe(1);
    const console = reporterOutput(project, worse);
    expect(console).toContain(`“${WINDOW_TEXT}”`);
    expect(console).toContain(WINDOW_MOVES);
    expect(console).toContain(WINDOW_BEFORE);
    expect(console).toContain(`after:  ${WINDOW_AFTER}`);
    expect(console).toContain(STATUS_MOVES);

    const markdown = readFileSync(project.path('rag-report.md'), 'utf8');
    expect(markdown).toContain(`<details><summary>“${WINDOW_TEXT}”: ${WINDOW_MOVES}</summary>`);
    expect(markdown).toContain(`after: ${WINDOW_AFTER}`);

    const report = readJson<{ findings: { kind: string; measure?: string; evidence?: Record<string, unknown> }[] }>(
      project,
      'rag-report.json',
    );
    const regression = report.findings.find(
      (finding) => finding.kind === 'regression' && finding.measure === 'ndcg@3',
    )!;
    expect(regression.evidence!['refund-status']).toEqual({
      text: 'where is my refund',
      before: [{ key: 'refund-tracking', grade: 1 }, { key: 'order-status' }, { key: 'returns' }],
      after: [{ key: 'order-status' }, { key: 'returns' }, { key: 'refund-faq', grade: 1 }],
      moves: {
        left: [{ key: 'refund-tracking', grade: 1, before: 1 }],
        entered: [{ key: 'refund-faq', grade: 1, after: 3 }],
        moved: [],
        nowAbove: ['order-status', 'returns'],
      },
    });

    const rendered = await runCli(project, ['report', 'rag-report.json', '--out', 'rag-report.html']);
    expect(rendered.exitCode, explain(rendered)).toBe(0);
    const html = readFileSync(project.path('rag-report.html'), 'utf8');
    expect(html).toContain(`<q>${WINDOW_TEXT}</q>`);
    expect(html).toContain('refund-faq left (was 3) · refund-policy 1 → 3; now above: shipping-times, order-status');
  });
});
