// Type tests: one small project per typing surface (test/types/fixtures/<surface>), each compiled
// with its own tsconfig by `tsc -p` against the BUILT declarations (dist/*.d.ts, dist/*.d.cts) of
// the package linked into its node_modules, as a user's editor and CI see them.
//
// Each surface proves that correct calls compile and, through `// @ts-expect-error` lines, that a
// misspelt matcher or a wrong argument does not (an expected error that does not happen is itself an
// error: TS2578). The negative controls remove those comments and check that exactly those lines
// fail, with the expected error codes: the expectations hold for the right reason.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFixtureProject,
  describeRun,
  ensureBuilt,
  runTsc,
  snapshotPackage,
  type FixtureProject,
  type PackageSnapshot,
  type TscDiagnostic,
  type TscResult,
} from '../integration/support/index.js';

const FIXTURES = resolve(import.meta.dirname, 'fixtures');

interface Surface {
  name: string;
  /** What a user of this surface has installed besides rag-matchers. */
  packages: string[];
  /** False for a surface that types no matcher call (its controls are other lines). */
  matchers?: false;
}

const SURFACES: Surface[] = [
  // Vitest 4, ESM, "moduleResolution": "Bundler", `import 'rag-matchers/vitest'` in the setup file.
  { name: 'vitest', packages: ['vitest', 'typescript'] },
  // `import { expect } from '@jest/globals'`, ESM under NodeNext, `import 'rag-matchers/jest'`.
  { name: 'jest-globals', packages: ['@jest/globals', 'typescript'] },
  // @types/jest globals, "types": ["jest", "rag-matchers/jest"]; jest.config.ts typed by jest's Config.
  { name: 'jest-types', packages: ['@types/jest', 'jest', 'typescript'] },
  // CommonJS under Node16: dist/*.d.cts for rag-matchers, rag-matchers/jest; both Jest surfaces.
  { name: 'jest-cjs-node16', packages: ['@jest/globals', '@types/jest', 'typescript'] },
  // ESM under NodeNext with "types": ["rag-matchers/vitest"]: tsc resolves a "types" entry with the
  // "require" condition, so "./vitest" → "require" → "types" points at the ESM declarations.
  { name: 'vitest-types-field', packages: ['vitest', 'typescript'] },
  // "module": "commonjs" (node10 resolution ignores "exports"): found through "typesVersions".
  { name: 'jest-cjs-node10', packages: ['@jest/globals', '@types/jest', 'typescript'] },
  // "lib": ["ES2022"], "types": []: every entry without a runner, with neither DOM nor Node's types.
  { name: 'no-dom-no-node', packages: ['typescript'], matchers: false },
];

/** What each kind of `@ts-expect-error` line must fail with once the comment is removed. */
const EXPECTED_CODES: [RegExp, string][] = [
  [/typo in the (asymmetric )?matcher name/, 'TS2551'], // Property '…' does not exist … Did you mean '…'?
  [/k as a string/, 'TS2345'], // Argument of type 'string' is not assignable to parameter of type 'number'.
  [/min is required/, 'TS2554'], // Expected 3-4 arguments, but got 2.
  [/an unknown option/, 'TS2561'], // Object literal may only specify known properties, … Did you mean to write '…'?
  [/relevant must be ids or grades/, 'TS2345'],
  [/typo in a declared measure/, 'TS2322'], // Type '"recal@5"' is not assignable to type '"map" | "mrr" | … | `recall@${number}` | …'.
  [/typo in a target's measure/, 'TS2353'], // Object literal may only specify known properties, and ''recal@5'' does not exist …
  [/typo in the mean's measure/, 'TS2345'],
  [/received is not an array of hits/, 'TS2349'], // This expression is not callable. Type '{ …must be an array of hits…: number; }' …
  [/no key of values/, 'TS2339'], // Property 'ndcgAtK' does not exist on type 'MeasureValues'.
  [/no fetch here/, 'TS2304'], // Cannot find name 'fetch'.
  [/no process here/, 'TS2591'], // Cannot find name 'process'. Do you need to install type definitions for node? …
];

let snapshot: PackageSnapshot | undefined;
const projects: FixtureProject[] = [];
const results = new Map<string, TscResult>();
const controls = new Map<
  string,
  { result: TscResult; expected: { file: string; line: number; code: string; why: string }[] }
>();

/** A surface's project; `withoutExpectations` removes every `// @ts-expect-error` line and says where they were. */
function project(surface: Surface, withoutExpectations = false) {
  const created = createFixtureProject({
    fixture: join(FIXTURES, surface.name),
    links: { 'rag-matchers': snapshot!.dir },
    packages: surface.packages,
    name: `types-${surface.name}`,
  });
  projects.push(created);
  const expected: { file: string; line: number; code: string; why: string }[] = [];
  if (withoutExpectations) {
    for (const file of readdirSync(created.dir).filter((name) => name.endsWith('.ts'))) {
      const kept: string[] = [];
      for (const line of readFileSync(created.path(file), 'utf8').split('\n')) {
        const comment = /^\s*\/\/ @ts-expect-error (.*)$/.exec(line);
        if (comment) {
          const why = comment[1]!;
          const code = EXPECTED_CODES.find(([pattern]) => pattern.test(why))?.[1];
          if (code === undefined)
            throw new Error(`no expected error code for "@ts-expect-error ${why}" in ${surface.name}/${file}`);
          expected.push({ file, line: kept.length + 1, code, why });
        } else {
          kept.push(line);
        }
      }
      writeFileSync(created.path(file), kept.join('\n'));
    }
  }
  return { created, expected };
}

/** Runs tasks at most `limit` at a time (two cores; tsc is CPU-bound). */
async function limited<T>(tasks: (() => Promise<T>)[], limit = 2): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < tasks.length) {
        const index = next++;
        out[index] = await tasks[index]!();
      }
    }),
  );
  return out;
}

beforeAll(async () => {
  await ensureBuilt();
  snapshot = await snapshotPackage();
  const tasks = [
    ...SURFACES.map((surface) => async () => {
      results.set(surface.name, await runTsc(project(surface).created));
    }),
    ...SURFACES.map((surface) => async () => {
      const { created, expected } = project(surface, true);
      controls.set(surface.name, { result: await runTsc(created), expected });
    }),
  ];
  await limited(tasks);
}, 300_000);

afterAll(() => {
  for (const created of projects) created.remove();
  snapshot?.remove();
});

const brief = (diagnostics: TscDiagnostic[]) => diagnostics.map(({ file, line, code }) => ({ file, line, code }));

describe.each(SURFACES)('typing surface $name', ({ name, matchers }) => {
  it('compiles: correct calls type-check, every @ts-expect-error meets its error', () => {
    const result = results.get(name)!;
    expect(result.diagnostics).toEqual([]);
    expect(result.run.exitCode, describeRun(result.run)).toBe(0);
  });

  it('negative control: without the @ts-expect-error comments exactly those lines fail, with the expected codes', () => {
    const { result, expected } = controls.get(name)!;
    const controlled = matchers === false ? [/no fetch here/] : [/typo in the matcher name/, /k as a string/];
    for (const pattern of controlled) expect(expected.filter(({ why }) => pattern.test(why)).length).toBeGreaterThan(0);
    expect(result.run.exitCode, describeRun(result.run)).toBe(2);
    const byPlace = (a: { file: string; line: number }, b: { file: string; line: number }) =>
      a.file.localeCompare(b.file) || a.line - b.line;
    expect(brief(result.diagnostics).sort(byPlace)).toEqual(
      expected.map(({ file, line, code }) => ({ file, line, code })).sort(byPlace),
    );
    for (const diagnostic of result.diagnostics.filter(({ code }) => code === 'TS2551')) {
      expect(diagnostic.message).toMatch(
        /Property 'toHaveRecalAtK' does not exist on type .*\. Did you mean 'toHaveRecallAtK'\?/,
      );
    }
    for (const diagnostic of result.diagnostics.filter(({ code }) => code === 'TS2345')) {
      expect(diagnostic.message).toMatch(
        /Argument of type '(string|number|"recal@5")' is not assignable to parameter of type/,
      );
    }
    // A misspelt measure: the message lists the spellings, not a type's name.
    for (const diagnostic of result.diagnostics.filter(({ code }) => code === 'TS2322')) {
      expect(diagnostic.message).toMatch(
        /^Type '"(recal@5|ndgc@10)"' is not assignable to type '.*`recall@\$\{number\}`/,
      );
    }
    // Not hits: "This expression is not callable." and, on the next line, the type that says why.
    if (result.diagnostics.some(({ code }) => code === 'TS2349'))
      expect(result.run.stdout).toMatch(
        /TS2349: This expression is not callable\.\n.*must be an array of hits, rank 1 first/,
      );
  });
});
