// The report formats are one list of modules behind one interface (src/report/formats/): writeReports
// and the end of a run loop over it. A format made here, for the test only, is written by the same loop
// as the real ones, which is what "a new format is one module and one list entry" rests on.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { describeWriteError, finishRun } from '../../../src/gate/finish.js';
import { pathFormat, type ReportFormat, type ReportInput } from '../../../src/report/formats/report-format.js';
import { REPORT_CATALOGUE } from '../../../src/report/formats/catalogue.js';
import { REPORT_FORMATS, REPORT_PATH_OPTIONS } from '../../../src/report/formats/index.js';
import { REPORT_FILE_OPTIONS, validateReporterOptions } from '../../../src/gate/user-options.js';
import { resolveReporterOptions } from '../../../src/gate/options.js';
import { summarize } from '../../../src/report/summary.js';
import { writeReportsOf, type WriteReportsOptions } from '../../../src/report/write.js';
import { BASELINE, RUN, recallRun } from './fixture.js';

const SUMMARY = summarize(RUN, BASELINE, { baselinePath: 'rag-baseline.json' });

// A test-only format: each row's measure and question count, one per line.
const countsText = (input: ReportInput): string =>
  input.summary.rows.map((row) => `${row.measure} ${row.count}\n`).join('');
const countsFormat = pathFormat({
  name: 'counts',
  title: 'the counts report',
  exampleFile: 'rag-counts.txt',
  render: countsText,
});
// The rows of the fixture (test/unit/report/fixture.ts), in the summary's order: refunds hit@5 and
// recall@5 on 7 questions, returns | policy ndcg@10 on 1, shipping mrr on 3.
const COUNTS = 'hit@5 7\nrecall@5 7\nndcg@10 1\nmrr 3\n';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'rag-formats-'));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('the list of report formats', () => {
  it('holds JSON, Markdown, the step summary and HTML, in the order a run writes them', () => {
    expect(REPORT_FORMATS.map((format) => format.name)).toEqual(['json', 'markdown', 'githubStepSummary', 'html']);
    expect(REPORT_PATH_OPTIONS).toEqual(['json', 'markdown', 'html']);
  });

  it('is the catalogue: the same names in the same order, each with the catalogue’s title and example file', () => {
    expect(REPORT_FORMATS.map((format) => format.name)).toEqual(Object.keys(REPORT_CATALOGUE));
    for (const format of REPORT_FORMATS) {
      const entry = REPORT_CATALOGUE[format.name as keyof typeof REPORT_CATALOGUE];
      expect([format.title, format.path, format.exampleFile]).toEqual([entry.title, entry.path, entry.exampleFile]);
    }
  });

  it('has a reporter option, checked and resolved, for each format written to a path', () => {
    expect(REPORT_FORMATS.filter((format) => format.path).map((format) => [format.name, format.exampleFile])).toEqual(
      Object.entries(REPORT_FILE_OPTIONS),
    );
    for (const format of REPORT_FORMATS.filter((each) => each.path)) {
      expect(() => validateReporterOptions({ [format.name]: true })).toThrow(
        `rag-matchers reporter options: ${format.name} must be a file path such as "${format.exampleFile}", or false, got true.`,
      );
      const resolved = resolveReporterOptions(
        { [format.name]: `out/${format.exampleFile}` },
        { rootDir: directory, runner: 'vitest', env: {} },
      );
      expect(format.target({ options: resolved, rootDir: directory, env: {} })).toBe(
        path.join(directory, 'out', format.exampleFile),
      );
    }
  });
});

describe('a format added to the list', () => {
  it('is written by writeReports’ loop, next to the others, and named in the result', async () => {
    const options = {
      json: 'out/rag-report.json',
      counts: 'out/nested/rag-counts.txt',
      rootDir: directory,
      env: {},
    } as WriteReportsOptions;
    const written = await writeReportsOf([...REPORT_FORMATS, countsFormat], SUMMARY, RUN, options);
    expect(written).toEqual({
      json: path.join(directory, 'out/rag-report.json'),
      counts: path.join(directory, 'out/nested/rag-counts.txt'),
    });
    expect(readFileSync(path.join(directory, 'out/nested/rag-counts.txt'), 'utf8')).toBe(COUNTS);
    // Atomic: no temp file left beside it.
    expect(readdirSync(path.join(directory, 'out/nested'))).toEqual(['rag-counts.txt']);
  });

  it('is off when its option is absent or false, and a bad value names the option', async () => {
    expect(await writeReportsOf([countsFormat], SUMMARY, RUN, { rootDir: directory, env: {} })).toEqual({});
    expect(
      await writeReportsOf([countsFormat], SUMMARY, RUN, { counts: false, rootDir: directory } as WriteReportsOptions),
    ).toEqual({});
    await expect(
      writeReportsOf([countsFormat], SUMMARY, RUN, { counts: 3, rootDir: directory } as WriteReportsOptions),
    ).rejects.toThrow('counts must be a file path such as "rag-counts.txt" (or false for none), got 3.');
    expect(readdirSync(directory)).toEqual([]);
  });

  it('is written at the end of a run, and a failed write fails the run with one line naming it and its kind of file', async () => {
    // Turned on by an environment variable: the reporter options know only the real formats.
    const envFormat: ReportFormat = {
      ...countsFormat,
      path: false,
      target: ({ env }) => env.RAG_COUNTS,
    };
    const run = recallRun([1, 0.5]);
    writeFileSync(path.join(directory, 'a.test.ts'), '');
    const finish = async (env: Record<string, string>, fails = false): Promise<string[]> => {
      const errors: string[] = [];
      const result = await finishRun(run, {
        rootDir: directory,
        options: resolveReporterOptions({}, { rootDir: directory, runner: 'vitest', env }),
        print: () => {},
        printError: (text) => errors.push(text),
        color: false,
        env,
        formats: [envFormat],
      });
      expect(result.failed).toBe(fails);
      return errors;
    };

    const target = path.join(directory, 'counts.txt');
    expect(await finish({ RAG_COUNTS: target })).toEqual([]);
    expect(readFileSync(target, 'utf8')).toBe('recall@5 2\n');

    mkdirSync(path.join(directory, 'folder'));
    expect(await finish({ RAG_COUNTS: path.join(directory, 'folder') }, true)).toEqual([
      `rag-matchers: could not write the counts report ${path.join(directory, 'folder')}: it is a folder; name a file such as rag-counts.txt (EISDIR).`,
    ]);
  });
});

describe('describeWriteError', () => {
  const error = (code: string, message = `${code}: something`): Error => Object.assign(new Error(message), { code });

  it('suggests a file of the kind that was to be written when the path is a folder', () => {
    expect(describeWriteError(error('EISDIR'), 'rag-report.md')).toBe(
      'it is a folder; name a file such as rag-report.md (EISDIR).',
    );
    expect(describeWriteError(error('EISDIR'), 'rag-report.html')).toBe(
      'it is a folder; name a file such as rag-report.html (EISDIR).',
    );
  });

  it('says what other file-system codes mean, and gives the first line of any other error', () => {
    expect(describeWriteError(error('ENOSPC'), 'rag-report.md')).toBe('no space left on the device (ENOSPC).');
    expect(describeWriteError(new Error('renderHtml(report): rows must be an array\nmore'), 'x')).toBe(
      'renderHtml(report): rows must be an array.',
    );
    expect(describeWriteError('broken!', 'x')).toBe('broken!');
  });
});
