// GitHub Actions annotations: the format GitHub parses (escaped per its workflow-command rules), one per
// question at its test, worst first, capped at GitHub's 10 per kind with the last slot counting the rest.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workflowAnnotations, workspaceFolder } from '../../../src/gate/annotations.js';
import { finishRun } from '../../../src/gate/finish.js';
import { resolveReporterOptions } from '../../../src/gate/options.js';
import { formatBaseline } from '../../../src/baseline/file/write.js';
import type { CollectedSample } from '../../../src/recording/collected.js';
import { summarize } from '../../../src/report/summary.js';
import { BASELINE, RUN } from '../report/fixture.js';
import { baselineFile } from '../baseline/keyed.js';

/** Parses `::level prop=value,…::message` back into its parts, undoing GitHub's escapes. */
function parse(line: string): { level: string; properties: Record<string, string>; message: string } {
  const match = /^::(\w+) ([^:]*)::(.*)$/.exec(line);
  if (match === null) throw new Error(`not a workflow command: ${line}`);
  const unescape = (text: string) =>
    text.replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
  const properties = Object.fromEntries(
    match[2]!.split(',').map((pair) => {
      const [key, value] = pair.split('=') as [string, string];
      return [key, unescape(value)];
    }),
  );
  return { level: match[1]!, properties, message: unescape(match[3]!) };
}

describe('workflowAnnotations', () => {
  it('one error per regressed question at its test with every measure that fell, worst first; a notice per improvement', () => {
    const lines = workflowAnnotations(summarize(RUN, BASELINE)).map(parse);
    const errors = lines.filter((line) => line.level === 'error');
    // recall@5 fell on 6 questions (q2 by 1.0, the most); hit@5 fell on none.
    expect(errors).toHaveLength(6);
    expect(errors[0]).toEqual({
      level: 'error',
      properties: { file: 'test/orders.test.ts', title: 'retrieval regressed: q2' },
      message: 'q2: recall@5 1.000 → 0.000 (suite test/orders.test.ts > refunds)',
    });
    // A question id with ':' and ',' survives the property escaping.
    expect(errors.map((error) => error.properties.title)).toContain('retrieval regressed: q1: refunds after 30 days');
    const notices = lines.filter((line) => line.level === 'notice');
    expect(notices.map((notice) => notice.properties.title)).toEqual([
      'retrieval improved: q3',
      'retrieval improved: q4',
    ]);
    expect(notices[0]!.message).toBe(
      'q3: hit@5 0.000 → 1.000 (suite test/orders.test.ts > refunds) — record it with RAG_BASELINE=update',
    );
  });

  it('points at the line of the test when the runner reports it', () => {
    const run = { ...RUN, samples: RUN.samples.map((sample): CollectedSample => ({ ...sample, line: 12 })) };
    const first = parse(workflowAnnotations(summarize(run, BASELINE))[0]!);
    expect(first.properties).toEqual({ file: 'test/orders.test.ts', line: '12', title: 'retrieval regressed: q2' });
  });

  it("points at the question's line in its labelled file when describeRetrieval read it from one", () => {
    const run = {
      ...RUN,
      samples: RUN.samples.map((sample): CollectedSample => ({ ...sample, line: 4, lineFile: 'data/faq.jsonl' })),
    };
    const first = parse(workflowAnnotations(summarize(run, BASELINE))[0]!);
    expect(first.properties).toEqual({ file: 'data/faq.jsonl', line: '4', title: 'retrieval regressed: q2' });
  });

  it('caps each kind at 10: nine worst and a tenth that counts the rest', () => {
    const ids = Array.from({ length: 25 }, (_, index) => `q${index}`);
    const samples: CollectedSample[] = ids.map((id, index) => ({
      file: 'test/a.test.ts',
      describePath: [],
      test: id,
      queryId: id,
      measure: 'recall@5',
      value: 1 - (index + 1) / 100,
    }));
    const baseline = baselineFile({ 'test/a.test.ts': { 'recall@5': Object.fromEntries(ids.map((id) => [id, 1])) } });
    const lines = workflowAnnotations(summarize({ runner: 'vitest', samples }, baseline, { tolerance: 0 })).map(parse);
    expect(lines).toHaveLength(10);
    // The largest drop (q24, 0.25) first.
    expect(lines.slice(0, 9).map((line) => line.properties.title)).toEqual(
      ['q24', 'q23', 'q22', 'q21', 'q20', 'q19', 'q18', 'q17', 'q16'].map((id) => `retrieval regressed: ${id}`),
    );
    expect(lines[9]).toEqual({
      level: 'error',
      properties: { title: 'rag-matchers: 16 more questions' },
      message: '16 more questions than GitHub shows per step: see the job summary or the JSON report.',
    });
  });

  it('names each question new to the baseline when that fails the run (strict), at its test', () => {
    const lines = workflowAnnotations(summarize(RUN, BASELINE, { strict: true })).map(parse);
    expect(lines.map((line) => line.properties.title)).toContain('question not in the baseline: r1');
    expect(lines.map((line) => line.properties.title)).toContain('question missing from this run: gone');
  });
});

describe('finishRun under GitHub Actions', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'rag-annotations-'));
    writeFileSync(join(root, 'test-orders.txt'), '');
    writeFileSync(join(root, 'rag-baseline.json'), formatBaseline(BASELINE));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const finish = async (options: object, env: Record<string, string>) => {
    const annotations: string[] = [];
    await finishRun(RUN, {
      rootDir: root,
      options: resolveReporterOptions(options, { rootDir: root, runner: 'vitest', env }),
      print: () => {},
      printError: () => {},
      printAnnotations: (text) => annotations.push(...text.split('\n')),
      color: false,
      env,
    });
    return annotations;
  };

  it('prints them with GITHUB_ACTIONS=true, not elsewhere, and not with annotations: false', async () => {
    expect((await finish({}, { GITHUB_ACTIONS: 'true' })).length).toBe(8);
    expect(await finish({}, {})).toEqual([]);
    expect(await finish({ annotations: false }, { GITHUB_ACTIONS: 'true' })).toEqual([]);
  });
});

describe('file= relative to the repository root (the GitHub workspace)', () => {
  it('a package inside the workspace is its folder; the workspace itself, outside it or none is no prefix', () => {
    expect(workspaceFolder('/home/runner/work/shop/shop/packages/api', '/home/runner/work/shop/shop')).toBe(
      'packages/api/',
    );
    expect(workspaceFolder('/home/runner/work/shop/shop', '/home/runner/work/shop/shop')).toBe('');
    expect(workspaceFolder('/tmp/elsewhere', '/home/runner/work/shop/shop')).toBe('');
    expect(workspaceFolder('/home/runner/work/shop/shop/packages/api', undefined)).toBe('');
  });

  it('prefixes every file= with the folder', () => {
    const lines = workflowAnnotations(summarize(RUN, BASELINE), 'packages/api/').map(parse);
    expect(lines[0]!.properties.file).toBe('packages/api/test/orders.test.ts');
    expect(
      lines.every((line) => line.properties.file === undefined || line.properties.file.startsWith('packages/api/')),
    ).toBe(true);
  });
});
