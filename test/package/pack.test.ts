// What `npm pack` ships: what a user needs (the built entries, types, docs files) and nothing else.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface PackResult {
  files: { path: string }[];
  unpackedSize: number;
}

/**
 * What a user downloads and unpacks (source maps and the bundled @stdlib modules once were most of it).
 * 1.5 MB until the judged/missing accounting, shard stamps, annotations, the baseline merge driver,
 * judged@k and the typed measure names took it to 1.58 MB (both module formats and their declarations);
 * label fingerprints, repeated runs, the findings table and capped_recall to 1.70 MB, and trec_eval's whole
 * measure set to 1.83 MB; our own distribution functions instead of bundled stdlib brought it to 1.75 MB,
 * syntax-only minification to 1.69 MB, declarations shared by both formats to 1.54 MB; trec_eval's
 * preference and judgment-group measures, the rankings the baseline keeps (schema 5), held moves and
 * call-site lines to 1.62 MB; whitespace minification (names kept) brought it to 1.40 MB, and then
 * describeRetrieval, latency and calls, tags, ranking churn, sensitivity and the question-count plan
 * (baseline schema 6) took it to 1.57 MB, and the CommonJS built for the library's entries alone (not
 * the command's and the worker's) brought it to 1.51 MB; trec-eval reading the usual run and qrels line
 * from its bytes (both formats: the scanners are the library's) and its threads taking pieces of the
 * run in turn took it to 1.538 MB; trec-eval judging the run and the qrels as bytes with 32-bit grades
 * (2.4 MB less peak memory on 2 M lines, and the 0.65× memory target met), the Jest reporter's index of
 * its results and the workers told when no annotation needs the asserting line took it to 1.552 MB; a
 * later matcher taking the value its question's declared plan measured, the Jest sidecar's place read once
 * per call, annotations for what retrieval cost and a renamed suite's costs (7.1 kB), and trec-eval
 * comparing a line's query id with the line before's (1.2 kB) to 1.561 MB; the CommonJS build reading
 * JavaScript's built-ins once (src/intrinsics.ts: a chunk's reference to another's is `chunk….Math`,
 * 17 kB) to 1.578 MB.
 */
const MAX_UNPACKED_BYTES = 1_580_000;

describe('npm pack', () => {
  const [result] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8' }),
  ) as PackResult[];
  const paths = result!.files.map((file) => file.path).sort();

  it('ships every entry point in package.json exports, ESM and CommonJS, with declarations', () => {
    for (const entry of [
      'index',
      'vitest',
      'jest',
      'vitest-reporter',
      'jest-reporter',
      'trec',
      'stats',
      'generation',
      'report',
    ]) {
      for (const extension of ['js', 'cjs', 'd.ts', 'd.cts']) expect(paths).toContain(`dist/${entry}.${extension}`);
    }
    expect(paths).toContain('dist/cli.js');
    expect(paths).toContain('dist/trec-eval-worker.js'); // started by trec-eval on large runs
    expect(paths).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json']));
  });

  it('ships no tests, fixtures, sources, examples or benchmarks', () => {
    const unexpected = paths.filter(
      (path) => !path.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(path),
    );
    expect(unexpected).toEqual([]);
  });

  it(`unpacks to at most ${MAX_UNPACKED_BYTES} bytes, without source maps`, () => {
    expect(paths.filter((path) => path.endsWith('.map'))).toEqual([]);
    expect(result!.unpackedSize).toBeLessThanOrEqual(MAX_UNPACKED_BYTES);
  });

  it('ships each declaration chunk once, as .d.cts, which the ESM declarations import', () => {
    const esmDeclarations = paths.filter((path) => path.endsWith('.d.ts')).map((path) => path.slice('dist/'.length));
    const entryDeclarations = [
      ...['index', 'vitest', 'jest', 'vitest-reporter', 'jest-reporter', 'trec', 'stats', 'generation', 'report'],
      ...['cli', 'trec-eval-worker'],
    ].map((entry) => `${entry}.d.ts`);
    expect(esmDeclarations.filter((file) => !entryDeclarations.includes(file))).toEqual([]);
    expect(readFileSync('dist/vitest.d.ts', 'utf8')).toMatch(/from '\.\/types-[\w-]+\.cjs'/);
    expect(readFileSync('dist/report.d.ts', 'utf8')).toBe("export * from './report.cjs';\n");
  });

  it('every file that exports and bin point to is in the package', () => {
    expect(existsSync('dist/index.js')).toBe(true);
    const manifest = JSON.parse(
      execFileSync('node', ['-p', 'JSON.stringify(require("./package.json"))'], { encoding: 'utf8' }),
    ) as {
      exports: Record<string, string | Record<string, Record<string, string>>>;
      bin: Record<string, string>;
    };
    const targets = [
      ...Object.values(manifest.bin),
      ...Object.values(manifest.exports).flatMap((target) =>
        typeof target === 'string' ? [target] : Object.values(target).flatMap((condition) => Object.values(condition)),
      ),
    ].map((target) => target.replace(/^\.\//, ''));
    for (const target of targets) expect(paths, `${target} is missing from the package`).toContain(target);
  });
});
