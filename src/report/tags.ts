// Per-tag rows: for one measure at a time, every suite × question whose question carries the tag, across
// suites; their mean and interval, and the paired comparison with the baseline under the gate's own rule
// (tolerance, paired test, significance), so that a drop concentrated in one tag is found even when each
// suite's mean holds. Tag rows are one Holm family of their own: they are judged beside the suite rows,
// not instead of them, and a question counts once per tag and measure whatever its other tags.
import { compareIds } from '../baseline/compare.js';
import { comparePaired, judgeMoves, toleranceFor, valuesDiffer } from '../core/regression-rule.js';
import { intervalsOf, withRange, type RowIntervalWithMean } from './intervals.js';
import type { ResolvedSummaryOptions, SummaryRow, TagChange, TagRow } from './summary-model.js';

/** One suite × question of a tag row: where it is, its value now and in the baseline (undefined: not paired). */
interface TagUnit {
  suite: string;
  question: string;
  after: number;
  before: number | undefined;
}

/**
 * The tag rows of a run's summary rows, sorted by tag, then measure; [] when no question has a tag. A
 * question's tags are those of all its samples in its suite, whatever their measure.
 */
export function summarizeTags(rows: readonly SummaryRow[], settings: ResolvedSummaryOptions): TagRow[] {
  const tagsByQuestion = questionTags(rows);
  if (tagsByQuestion.size === 0) return [];
  const units = new Map<string, { tag: string; measure: string; units: TagUnit[] }>();
  for (const row of rows) {
    const relabelled = new Set((row.relabelled ?? []).map((change) => change.sampleId));
    row.sampleIds.forEach((id, index) => {
      const tags = tagsByQuestion.get(questionKey(row.suiteKey, id));
      if (tags === undefined) return;
      const before = relabelled.has(id) ? undefined : row.before[index];
      const unit: TagUnit = { suite: row.suite, question: id, after: row.values[index]!, before };
      for (const tag of tags) {
        const key = JSON.stringify([tag, row.measure]);
        let group = units.get(key);
        if (group === undefined) units.set(key, (group = { tag, measure: row.measure, units: [] }));
        group.units.push(unit);
      }
    });
  }
  const groups = [...units.values()];
  const ranges = groups.map((group) => withRange(group.units.map((unit) => unit.after)));
  // All tag rows' bootstraps together: a tag's measures share their length, so their resample indices.
  const intervals = intervalsOf(ranges, settings);
  const tagRows = groups.map((group, index) =>
    tagRowOf(group.tag, group.measure, group.units, intervals[index]!, settings),
  );
  tagRows.sort((a, b) => compareIds(a.tag, b.tag) || compareIds(a.measure, b.measure));
  const compared = tagRows.filter((row) => row.comparison !== undefined);
  const verdicts = judgeMoves(
    compared.map((row) => ({ measure: row.measure, move: row.comparison! })),
    settings,
  );
  compared.forEach((row, index) => {
    row.status = verdicts[index]!;
  });
  return tagRows;
}

function tagRowOf(
  tag: string,
  measure: string,
  units: readonly TagUnit[],
  { mean, ...interval }: RowIntervalWithMean,
  settings: ResolvedSummaryOptions,
): TagRow {
  const row: TagRow = {
    tag,
    measure,
    count: units.length,
    suites: new Set(units.map((unit) => unit.suite)).size,
    mean,
    interval,
    tolerance: toleranceFor(settings.tolerance, measure),
    status: 'new',
    worse: [],
  };
  const paired = units.filter((unit) => unit.before !== undefined);
  if (paired.length === 0) return row;
  const before = paired.map((unit) => unit.before!);
  const after = paired.map((unit) => unit.after);
  row.comparison = comparePaired(before, after, settings);
  row.delta = row.comparison.delta;
  row.baseline = { mean: row.comparison.meanBefore, count: paired.length };
  row.worse = paired
    .filter((unit) => unit.after < unit.before! && valuesDiffer(unit.before!, unit.after))
    .map((unit): TagChange => ({
      suite: unit.suite,
      sampleId: unit.question,
      before: unit.before!,
      after: unit.after,
      delta: unit.after - unit.before!,
    }))
    .sort((x, y) => x.delta - y.delta || compareIds(x.suite, y.suite) || compareIds(x.sampleId, y.sampleId));
  return row;
}

/** Suite key × question → the question's tags (the union over its samples in the suite), for tagged questions. */
function questionTags(rows: readonly SummaryRow[]): Map<string, string[]> {
  const sets = new Map<string, Set<string>>();
  for (const row of rows) {
    row.sources.forEach((source, index) => {
      if (source.tags === undefined) return;
      const key = questionKey(row.suiteKey, row.sampleIds[index]!);
      let set = sets.get(key);
      if (set === undefined) sets.set(key, (set = new Set()));
      for (const tag of source.tags) set.add(tag);
    });
  }
  return new Map([...sets].map(([key, set]) => [key, [...set]]));
}

function questionKey(suiteKey: string, id: string): string {
  return JSON.stringify([suiteKey, id]);
}
