import { describe, expect, it } from 'vitest';

import { parseBaseline } from '../../../src/baseline/file/read.js';
import { type BaselineFile, type SampleAudit } from '../../../src/baseline/file/types.js';
import { formatBaseline } from '../../../src/baseline/file/write.js';
import { describeConflict, formatMergedBaseline, mergeBaselineVersions } from '../../../src/baseline/three-way.js';
import { suiteNameOf } from '../../../src/recording/collected.js';
import { baselineFile, key } from './keyed.js';

const REFUNDS = 'test/orders.test.ts > refunds';
const SHIPPING = 'test/orders.test.ts > shipping';
const rerecord = (identity: { file: string; describe: readonly string[] }): string =>
  `re-record ${suiteNameOf(identity)}`;

const base = baselineFile({
  [REFUNDS]: { 'recall@5': { q1: 1, q2: 0.5, q3: 0 }, mrr: { q1: 1, q2: 0.5, q3: 0 } },
  [SHIPPING]: { 'recall@5': { s1: 1 } },
});

/** `base` with some samples set (a number) or removed (undefined). */
function edit(changes: Record<string, Record<string, Record<string, number | undefined>>>): BaselineFile {
  const file = structuredClone(base);
  for (const [name, measures] of Object.entries(changes)) {
    const suite = (file.suites[key(name)] ??= {});
    for (const [measure, samples] of Object.entries(measures)) {
      const row = (suite[measure] ??= {});
      for (const [question, value] of Object.entries(samples)) {
        if (value === undefined) delete row[question];
        else row[question] = value;
      }
    }
  }
  return file;
}

describe('mergeBaselineVersions', () => {
  it('takes the rows each side added, changed or removed when the other left them alone', () => {
    const ours = edit({ [REFUNDS]: { 'recall@5': { q4: 1, q2: 0.75 }, mrr: { q4: 0.5 } } });
    const theirs = edit({
      [REFUNDS]: { 'recall@5': { q0: 0.25, q3: undefined }, mrr: { q0: 1 } },
      'test/new.test.ts': { mrr: { n1: 1 } },
    });
    const merge = mergeBaselineVersions(base, ours, theirs);
    expect(merge.conflicts).toEqual([]);
    expect(merge.file).toEqual(
      baselineFile({
        [REFUNDS]: { 'recall@5': { q0: 0.25, q1: 1, q2: 0.75, q4: 1 }, mrr: { q0: 1, q1: 1, q2: 0.5, q3: 0, q4: 0.5 } },
        [SHIPPING]: { 'recall@5': { s1: 1 } },
        'test/new.test.ts': { mrr: { n1: 1 } },
      }),
    );
  });

  it('takes a change both sides made alike once, including a removal', () => {
    const both = edit({ [REFUNDS]: { 'recall@5': { q2: 1, q5: 0.5 }, mrr: { q3: undefined } } });
    const merge = mergeBaselineVersions(base, both, structuredClone(both));
    expect(merge).toEqual({ file: both, conflicts: [] });
  });

  it('reports a row changed differently on both sides, added with different values, or changed on one and removed on the other; the file keeps ours', () => {
    const ours = edit({ [REFUNDS]: { 'recall@5': { q2: 0.75, q9: 1 }, mrr: { q3: undefined } } });
    const theirs = edit({ [REFUNDS]: { 'recall@5': { q2: 0.25, q9: 0 }, mrr: { q3: 1 } } });
    const merge = mergeBaselineVersions(base, ours, theirs);
    const identity = { file: 'test/orders.test.ts', describe: ['refunds'] };
    expect(merge.conflicts).toEqual([
      { identity, question: 'q2', measure: 'recall@5', base: 0.5, ours: 0.75, theirs: 0.25 },
      { identity, question: 'q3', measure: 'mrr', base: 0, ours: undefined, theirs: 1 },
      { identity, question: 'q9', measure: 'recall@5', base: undefined, ours: 1, theirs: 0 },
    ]);
    expect(merge.file).toEqual(ours);
    expect(merge.conflicts.map(describeConflict)).toEqual([
      'test/orders.test.ts > refunds · q2 · recall@5: ours 0.75, theirs 0.25 (was 0.5)',
      'test/orders.test.ts > refunds · q3 · mrr: ours removed, theirs 1 (was 0)',
      'test/orders.test.ts > refunds · q9 · recall@5: ours 1, theirs 0 (new on both sides)',
    ]);
  });

  it('merges two versions that share no ancestor (both branches created the file) row by row', () => {
    const empty = baselineFile({});
    const merge = mergeBaselineVersions(
      empty,
      baselineFile({ [REFUNDS]: { mrr: { q1: 1 } } }),
      baselineFile({ [SHIPPING]: { mrr: { s1: 1 } } }),
    );
    expect(merge).toEqual({
      file: baselineFile({ [REFUNDS]: { mrr: { q1: 1 } }, [SHIPPING]: { mrr: { s1: 1 } } }),
      conflicts: [],
    });
  });
});

describe('formatMergedBaseline', () => {
  it('is formatBaseline of the merged file when nothing conflicts', () => {
    const merge = mergeBaselineVersions(
      base,
      edit({ [REFUNDS]: { mrr: { q4: 1 } } }),
      edit({ [SHIPPING]: { mrr: { s1: 1 } } }),
    );
    expect(formatMergedBaseline(merge, rerecord)).toBe(formatBaseline(merge.file));
  });

  it("puts each suite's run of conflicting rows between markers, ours above theirs, the closing marker naming the suite's re-record command", () => {
    const ours = edit({
      [REFUNDS]: { 'recall@5': { q1: 0.5, q2: 0.75 }, mrr: { q2: 1 } },
      [SHIPPING]: { 'recall@5': { s1: 0 } },
    });
    const theirs = edit({
      [REFUNDS]: { 'recall@5': { q1: 0.25, q2: 0.25 }, mrr: { q2: undefined } },
      [SHIPPING]: { 'recall@5': { s1: 0.5 } },
    });
    const text = formatMergedBaseline(mergeBaselineVersions(base, ours, theirs), rerecord);
    const rows = text.split('\n').slice(5, -3);
    expect(rows).toEqual([
      '    ,["test/orders.test.ts", ["refunds"], "q1", "mrr", 1]',
      '<<<<<<< ours',
      '    ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 0.5]',
      '    ,["test/orders.test.ts", ["refunds"], "q2", "mrr", 1]',
      '    ,["test/orders.test.ts", ["refunds"], "q2", "recall@5", 0.75]',
      '=======',
      '    ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 0.25]',
      '    ,["test/orders.test.ts", ["refunds"], "q2", "recall@5", 0.25]',
      '>>>>>>> theirs (rag-matchers merge-baseline); then re-record: re-record test/orders.test.ts > refunds',
      '    ,["test/orders.test.ts", ["refunds"], "q3", "mrr", 0]',
      '    ,["test/orders.test.ts", ["refunds"], "q3", "recall@5", 0]',
      '<<<<<<< ours',
      '    ,["test/orders.test.ts", ["shipping"], "s1", "recall@5", 0]',
      '=======',
      '    ,["test/orders.test.ts", ["shipping"], "s1", "recall@5", 0.5]',
      '>>>>>>> theirs (rag-matchers merge-baseline); then re-record: re-record test/orders.test.ts > shipping',
    ]);
    // Keeping either side of every conflict leaves a baseline that reads.
    const keep = (side: 'ours' | 'theirs'): string =>
      side === 'ours'
        ? text.replace(/^=======\n[^]*?^>>>>>>> .*\n/gm, '').replace(/^<<<<<<< ours\n/gm, '')
        : text.replace(/^<<<<<<< ours\n[^]*?^=======\n/gm, '').replace(/^>>>>>>> .*\n/gm, '');
    expect(parseBaseline(keep('ours'), 'ours')).toEqual(ours);
    expect(parseBaseline(keep('theirs'), 'theirs')).toEqual(theirs);
  });
});

describe('mergeBaselineVersions over generated versions', () => {
  // Each row (value and audit together) by the three-way rule stated here: a side that left the row as
  // the ancestor had it takes the other side's; both alike take it; else it conflicts and the file keeps
  // ours. The merge applies these as a diff of ours (applyDiff), so this holds that application to the rule.
  type Cell = { value: number; audit?: SampleAudit } | undefined;
  const VALUES: Cell[] = [
    undefined,
    { value: 0 },
    { value: 0.5 },
    { value: 0.5, audit: { labels: 'aaaa' } },
    { value: 0.5, audit: { labels: 'bbbb', unjudged: 2 } },
    { value: 1, audit: { labels: 'aaaa' } },
  ];
  const ROWS = [
    [REFUNDS, 'recall@5', 'q1'],
    [REFUNDS, 'recall@5', 'q2'],
    [REFUNDS, 'mrr', 'q1'],
    [SHIPPING, 'recall@5', 's1'],
  ] as const;
  const same = (a: Cell, b: Cell): boolean => JSON.stringify(a) === JSON.stringify(b);

  function fileOf(cells: readonly Cell[]): BaselineFile {
    const file = baselineFile({});
    cells.forEach((cell, index) => {
      if (cell === undefined) return;
      const [suite, measure, question] = ROWS[index]!;
      ((file.suites[key(suite)] ??= {})[measure] ??= {})[question] = cell.value;
      if (cell.audit !== undefined) (((file.audits ??= {})[key(suite)] ??= {})[measure] ??= {})[question] = cell.audit;
    });
    return file;
  }

  function cellIn(file: BaselineFile, index: number): Cell {
    const [suite, measure, question] = ROWS[index]!;
    const value = file.suites[key(suite)]?.[measure]?.[question];
    if (value === undefined) return undefined;
    const audit = file.audits?.[key(suite)]?.[measure]?.[question];
    return audit === undefined ? { value } : { value, audit };
  }

  it('takes, per row, the side that changed it, and reports exactly the rows both changed differently', () => {
    let seed = 7;
    const pick = (): Cell => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return VALUES[seed % VALUES.length];
    };
    for (let trial = 0; trial < 300; trial++) {
      const [baseCells, ourCells, theirCells] = [0, 1, 2].map(() => ROWS.map(() => pick()));
      const merge = mergeBaselineVersions(fileOf(baseCells!), fileOf(ourCells!), fileOf(theirCells!));
      const conflicted = new Set(
        merge.conflicts.map((c) => JSON.stringify([c.question, c.measure, suiteNameOf(c.identity)])),
      );
      ROWS.forEach(([suite, measure, question], index) => {
        const [b, o, t] = [baseCells![index], ourCells![index], theirCells![index]];
        const expected = same(o, t) || same(b, t) ? o : same(b, o) ? t : o;
        expect(cellIn(merge.file, index)).toEqual(expected);
        const conflict = !same(o, t) && !same(b, t) && !same(b, o);
        expect(conflicted.has(JSON.stringify([question, measure, suite]))).toBe(conflict);
      });
    }
  });
});
