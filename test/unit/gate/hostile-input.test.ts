// Hostile input, round three (issue 34), at the level of the options check and the end of a run:
// report paths that name the baseline, each other or a source file; named pipes where a file belongs;
// a tolerance given in percent; a lock left as a folder; terminal escapes in annotations. Each message
// is quoted, and the fix it suggests is applied and clears it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { formatBaseline } from '../../../src/baseline/file/write.js';
import { workflowAnnotations } from '../../../src/gate/annotations.js';
import { finishRun } from '../../../src/gate/finish.js';
import { resolveReporterOptions } from '../../../src/gate/options.js';
import { validateReporterOptions } from '../../../src/gate/user-options.js';
import { parseMeasure } from '../../../src/core/measures.js';
import type { CollectedRun } from '../../../src/recording/collected.js';
import { summarize } from '../../../src/report/summary.js';
import { baselineFile } from '../baseline/keyed.js';
import { BASELINE, RUN } from '../report/fixture.js';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'rag-hostile-')));
  writeFileSync(join(root, 'rag-baseline.json'), formatBaseline(BASELINE));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const SOURCE = 'rag-matchers/vitest-reporter options';
const resolve = (options: object, env: Record<string, string> = {}) =>
  resolveReporterOptions(options, { rootDir: root, runner: 'vitest', env, source: SOURCE });

describe('report paths', () => {
  it.each([
    ['json', 'rag-baseline.json', 'the JSON report', 'rag-report.json'],
    ['markdown', 'rag-baseline.json', 'the Markdown report', 'rag-report.md'],
    ['html', 'rag-baseline.json', 'the HTML report', 'rag-report.html'],
    ['json', './test/../rag-baseline.json', 'the JSON report', 'rag-report.json'],
  ])('%s: %j names the baseline: refused, the baseline untouched', (option, given, title, example) => {
    const before = readFileSync(join(root, 'rag-baseline.json'), 'utf8');
    expect(() => resolve({ baseline: 'rag-baseline.json', [option]: given })).toThrow(
      `${SOURCE}: baseline and ${option} name one file, ${JSON.stringify(given)}: ${title} would overwrite the baseline. ` +
        `Give ${title} a file of its own, such as ${example}.`,
    );
    expect(readFileSync(join(root, 'rag-baseline.json'), 'utf8')).toBe(before);
    // The fix the message suggests.
    expect(resolve({ baseline: 'rag-baseline.json', [option]: example })[option as 'json']).toBe(join(root, example));
  });

  it('a symlink to the baseline is the baseline: the message names the real file', () => {
    symlinkSync('rag-baseline.json', join(root, 'report-link.json'));
    expect(() => resolve({ json: 'report-link.json' })).toThrow(
      `${SOURCE}: baseline and json name one file, "report-link.json" (${join(root, 'rag-baseline.json')}): the JSON report would overwrite the baseline.`,
    );
  });

  it('two reports at one path: refused rather than one silently lost', () => {
    expect(() => resolve({ json: 'out/report', markdown: 'out/report' })).toThrow(
      `${SOURCE}: json and markdown name one file, "out/report": the Markdown report would overwrite the JSON report. ` +
        'Give the Markdown report a file of its own, such as rag-report.md.',
    );
    expect(resolve({ json: 'out/report', markdown: 'rag-report.md' }).markdown).toBe(join(root, 'rag-report.md'));
  });

  it('an existing file that is not our report of that kind is refused (a test file); our own report is not', () => {
    mkdirSync(join(root, 'test'));
    writeFileSync(join(root, 'test', 'r.test.js'), "test('x', () => {});\n");
    expect(() => resolve({ markdown: 'test/r.test.js' })).toThrow(
      `${SOURCE}: markdown names "test/r.test.js", an existing file that is not the Markdown report rag-matchers writes, and a run would overwrite it. ` +
        'Name a new file such as rag-report.md, or delete this one if it is an old report.',
    );
    writeFileSync(join(root, 'package.json'), '{ "name": "x" }\n');
    expect(() => resolve({ json: 'package.json' })).toThrow(/json names "package.json", an existing file that is not/);
    // Reports rag-matchers wrote may be overwritten by the next run.
    writeFileSync(join(root, 'rag-report.md'), '### RAG retrieval quality\n\nNo retrieval regressions.\n');
    writeFileSync(join(root, 'rag-report.json'), '{ "generatedBy": "rag-matchers", "kind": "retrieval-report" }\n');
    writeFileSync(join(root, 'rag-report.html'), '<!doctype html><meta name="generator" content="rag-matchers">\n');
    expect(() =>
      resolve({ markdown: 'rag-report.md', json: 'rag-report.json', html: 'rag-report.html' }),
    ).not.toThrow();
  });

  it('a named pipe as the baseline or a report is refused at once, not read forever', () => {
    rmSync(join(root, 'rag-baseline.json'));
    execFileSync('mkfifo', [join(root, 'rag-baseline.json'), join(root, 'pipe.md')]);
    expect(() => resolve({})).toThrow(
      `${SOURCE}: baseline names "rag-baseline.json", which is a named pipe (FIFO), not a regular file; name a file such as rag-baseline.json.`,
    );
    expect(() => resolve({ baseline: 'eval/rag-baseline.json', markdown: 'pipe.md' })).toThrow(
      `${SOURCE}: markdown names "pipe.md", which is a named pipe (FIFO), not a regular file; name a file such as rag-report.md.`,
    );
    expect(resolve({ baseline: 'eval/rag-baseline.json' }).baselinePath).toBe(join(root, 'eval', 'rag-baseline.json'));
  });
});

describe('tolerance', () => {
  it('above 1 is refused (a percentage slip), with the share it likely meant; that share is accepted', () => {
    expect(() => validateReporterOptions({ tolerance: { 'recall@1': 2 } }, SOURCE)).toThrow(
      `${SOURCE}: tolerance["recall@1"] must be at most 1 (an absolute drop in a mean between 0 and 1), got 2; a drop of 2 percentage points is 0.02.`,
    );
    expect(() => validateReporterOptions({ tolerance: 5 }, SOURCE)).toThrow(
      `${SOURCE}: tolerance must be at most 1 (an absolute drop in a mean between 0 and 1), got 5; a drop of 5 percentage points is 0.05.`,
    );
    expect(() => validateReporterOptions({ tolerance: 250 }, SOURCE)).toThrow(/got 250\.$/);
    expect(validateReporterOptions({ tolerance: { 'recall@1': 0.02 } }, SOURCE)).toEqual({
      tolerance: { 'recall@1': 0.02 },
    });
    expect(validateReporterOptions({ tolerance: 1 }, SOURCE)).toEqual({ tolerance: 1 });
  });
});

describe('a lock left as a folder', () => {
  it('names the lock and what to do, not "the baseline is a folder"; removing it clears it', async () => {
    const lock = join(root, '.rag-baseline.json.lock');
    mkdirSync(lock);
    const finish = async () => {
      const errors: string[] = [];
      const result = await finishRun(RUN, {
        rootDir: root,
        options: resolve({}, { RAG_BASELINE: 'update' }),
        print: () => {},
        printError: (text) => errors.push(text),
        color: false,
        env: {},
      });
      return { result, errors };
    };
    const blocked = await finish();
    expect(blocked.result.failed).toBe(true);
    expect(blocked.errors).toEqual([
      `rag-matchers: could not write the baseline rag-baseline.json: its lock ${lock} is a folder, not a lock file rag-matchers made; ` +
        `if no other run is updating the baseline, remove it (rm -r ${lock}) and run the update again.`,
    ]);
    rmSync(lock, { recursive: true });
    const cleared = await finish();
    expect(cleared.errors).toEqual([]);
    expect(cleared.result.baselineWritten).toBe(true);
  });
});

describe('annotations', () => {
  it('show terminal escapes in question ids and file names visibly, as the console does', () => {
    const file = 'test/\u202eevil.test.ts';
    const id = 'q\u001b[2J\u001b]0;pwned\u0007';
    const run: CollectedRun = {
      runner: 'vitest',
      samples: [{ file, describePath: [], test: 't', queryId: id, measure: 'recall@5', value: 0 }],
    };
    const baseline = baselineFile({ [file]: { 'recall@5': { [id]: 1 } } });
    const lines = workflowAnnotations(summarize(run, baseline, { tolerance: 0 }));
    expect(lines).toEqual([
      '::error file=test/\\u202eevil.test.ts,title=retrieval regressed%3A q\\x1b[2J\\x1b]0;pwned\\x07::' +
        'q\\x1b[2J\\x1b]0;pwned\\x07: recall@5 1.000 → 0.000 (suite test/\\u202eevil.test.ts)',
    ]);
    // eslint-disable-next-line no-control-regex -- no control character may reach the log
    expect(lines.join('')).not.toMatch(/[\u0000-\u001f\u007f\u202e]/);
  });
});

describe('did you mean', () => {
  it('a measure name one letter off names the measure, with its cutoff; the name it gives parses', () => {
    expect(() => parseMeasure('recal@5')).toThrow(
      'measure "recal@5" is not valid: unknown measure "recal" (did you mean "recall@5"?). Valid forms:',
    );
    expect(() => parseMeasure('ndgc')).toThrow('unknown measure "ndgc" (did you mean "ndcg"?).');
    expect(parseMeasure('recall@5')).toEqual({ name: 'recall', k: 5 });
    // Far from every name: no guess.
    expect(() => parseMeasure('constructor')).toThrow('unknown measure "constructor". Valid forms:');
    // The reporters' `measures` go through the same parser.
    expect(() => validateReporterOptions({ measures: ['recal@5'] }, SOURCE)).toThrow(/did you mean "recall@5"\?/);
  });

  it('a misspelt option names the option; the option it names is accepted', () => {
    expect(() => validateReporterOptions({ tolerence: 0.02 }, SOURCE)).toThrow(
      `${SOURCE}: unknown option "tolerence" (did you mean "tolerance"?); the options are baseline, tolerance,`,
    );
    expect(validateReporterOptions({ tolerance: 0.02 }, SOURCE)).toEqual({ tolerance: 0.02 });
  });

  it('RAG_BASELINE and RAG_PARTIAL name the value meant; that value is accepted', () => {
    expect(() => resolve({}, { RAG_BASELINE: 'updte' })).toThrow(
      'RAG_BASELINE must be "update" (record this run into the baseline) or "prune" (also remove obsolete entries), got "updte" (did you mean RAG_BASELINE=update?).',
    );
    expect(resolve({}, { RAG_BASELINE: 'update' }).mode).toBe('update');
    expect(() => resolve({}, { RAG_PARTIAL: 'yes' })).toThrow(/got "yes" \(did you mean RAG_PARTIAL=1\?\)\.$/);
    expect(() => resolve({}, { RAG_PARTIAL: 'off' })).toThrow(/got "off" \(did you mean RAG_PARTIAL=0\?\)\.$/);
    expect(() => resolve({}, { RAG_PARTIAL: 'ture' })).toThrow(/got "ture" \(did you mean RAG_PARTIAL=true\?\)\.$/);
    expect(resolve({}, { RAG_PARTIAL: '1' }).partial).toBe(true);
  });
});
