import {
  compareEvaluations,
  type CompareEvaluationsOptions,
  type MeasureComparison,
  type RunComparison,
} from '../src/dataset/compare-runs.js';
import { alignColumns, andMore, fixed, formatNumber, formatP, plural, signed } from '../src/core/present.js';
import { utilsOf, type MatcherContext, type MatcherResult } from './support/context.js';
import { listIds } from './support/format.js';
import { hintOf } from './support/hint.js';
import { checkKnownOptions, checkOptions } from './support/options.js';
import { checkEvaluation, coverageNotes, queryLines, recordSetQuestions, setCall } from './support/set-matcher.js';
import { withUsageErrors } from './support/usage-error.js';

const NAME = 'toNotRegressFrom';
const ARGS = 'baseline, options';
const KNOWN = ['measures', 'tolerance', 'significance', 'test', 'resamples', 'seed'];
/** Questions listed per regressed measure. */
const SHOWN_QUESTIONS = 10;

/** The comparison's options (measures, tolerance, significance, test, resamples, seed); intervals are not drawn. */
export type NotRegressOptions = Omit<CompareEvaluationsOptions, 'confidence'>;

/** A change in a message (`-0.08`) or, with `fixed`, in a table column (`-0.0800`); a zero change keeps its `+`. */
function signedChange(value: number, format: (magnitude: number) => string = formatNumber): string {
  return signed(value, { format, signZero: true });
}

function comparisonTable(comparison: RunComparison, utils: ReturnType<typeof utilsOf>): string {
  const header = ['measure', 'baseline', 'now', 'change', 'wins/losses/ties', 'p', 'p (Holm)', ''];
  const rows = comparison.measures.map((entry) => [
    entry.measure,
    fixed(entry.meanBefore),
    fixed(entry.meanAfter),
    signedChange(entry.meanDifference, fixed),
    `${entry.wins}/${entry.losses}/${entry.ties}`,
    formatP(entry.p, 4),
    formatP(entry.adjustedP, 4),
    entry.regression ? '✗ regressed' : entry.improvement ? '✓ improved' : '✓',
  ]);
  const lines = alignColumns([header, ...rows], [false, true, true, true, true, true, true, false]);
  return lines
    .map((line, index) => (index > 0 && comparison.measures[index - 1]!.regression ? utils.RECEIVED_COLOR(line) : line))
    .join('\n');
}

function testDescription(comparison: RunComparison, entry: MeasureComparison | undefined): string {
  const method = entry?.method ?? comparison.test;
  const name =
    method === 'randomization-exact'
      ? 'exact paired randomization test'
      : method === 'randomization-monte-carlo'
        ? 'paired randomization test (Monte Carlo)'
        : method === 'sign-exact'
          ? 'exact sign test'
          : method.startsWith('paired-t')
            ? 'paired t-test'
            : method;
  const family = comparison.measures.filter((measure) => measure.wins + measure.losses > 0).length;
  const holm = family > 1 ? `, Holm-corrected across the ${family} measures with a changed query` : '';
  const rule =
    comparison.significance === undefined
      ? 'a regression is a drop of the mean beyond the tolerance'
      : `a regression is a drop beyond the tolerance with p (Holm) ≤ ${comparison.significance}`;
  return `p: ${name}${holm}; ${rule}.`;
}

/**
 * On the result of evaluateRun: no measure's mean fell from the baseline's (another evaluateRun
 * result on the same queries) by more than the tolerance — and, with `significance`, significantly
 * by a paired test. "The reranker must not make nDCG@10 worse than BM25 alone."
 */
export function toNotRegressFrom(
  this: MatcherContext,
  received: unknown,
  baseline: unknown,
  options?: NotRegressOptions,
): MatcherResult {
  const call = setCall(this, NAME, ARGS);
  const after = checkEvaluation(call, received);
  const before = checkEvaluation(call, baseline, 'baseline');
  const checked = checkOptions<NotRegressOptions>(call, options, '{ measures: ["ndcg@10"], tolerance: 0.01 }');
  checkKnownOptions(call, checked, KNOWN);
  const comparison: RunComparison = withUsageErrors(
    call,
    () => compareEvaluations(before, after, checked),
    (message) => message.replace(/^compareEvaluations: /, ''),
  );
  const pass = comparison.regressions.length === 0;
  const negated = this.isNot === true;
  // Each paired question records the declared measures once, then the compared ones (as the set matchers do).
  const paired = new Set(comparison.queryIds);
  recordSetQuestions(call, after, (queryId) =>
    paired.has(queryId)
      ? comparison.measures.map((entry) => ({
          measure: entry.measure,
          value: (after.perQuery[queryId] as Record<string, number>)[entry.measure] as number,
          pass: pass !== negated,
          ...(negated ? { negated } : {}),
          queryId,
        }))
      : [],
  );

  const message = () => {
    const utils = utilsOf(this);
    const regressed = comparison.measures.filter((entry) => entry.regression);
    const headline = negated
      ? `Expected a regression, but no measure fell beyond its tolerance (${comparison.measures.map((entry) => `${entry.measure} ${signedChange(entry.meanDifference)}`).join(', ')}).`
      : regressed
          .map(
            (entry) =>
              `${entry.measure} regressed: ${formatNumber(entry.meanBefore)} → ${utils.RECEIVED_COLOR(formatNumber(entry.meanAfter))} (${signedChange(entry.meanDifference)}; tolerance ${formatNumber(entry.tolerance)})`,
          )
          .join('\n');
    const sections = [hintOf(call), headline, comparisonTable(comparison, utils)];
    if (!negated) {
      for (const entry of regressed) {
        if (entry.worse.length === 0) continue;
        const shown = entry.worse.slice(0, SHOWN_QUESTIONS);
        const title = `Questions that got worse on ${entry.measure} (${entry.worse.length}, worst first):`;
        const lines = queryLines(
          shown.map((change) => ({
            queryId: change.queryId,
            text: `${formatNumber(change.before)} → ${formatNumber(change.after)}`,
          })),
        );
        if (entry.worse.length > SHOWN_QUESTIONS)
          lines.push(utils.DIM_COLOR(`  ${andMore(entry.worse.length - SHOWN_QUESTIONS)}`));
        sections.push([title, ...lines].join('\n'));
      }
    }
    const pairing = [`Paired on ${plural(comparison.queryIds.length, 'query', 'queries')}`];
    if (comparison.onlyBefore.length > 0)
      pairing.push(`${comparison.onlyBefore.length} only in the baseline (${listIds(comparison.onlyBefore)})`);
    if (comparison.onlyAfter.length > 0)
      pairing.push(`${comparison.onlyAfter.length} only now (${listIds(comparison.onlyAfter)})`);
    const notes = [`${pairing.join('; ')}.`, testDescription(comparison, comparison.measures[0])];
    const coverage = coverageNotes(after);
    if (coverage !== '') notes.push(coverage);
    sections.push(utils.DIM_COLOR(notes.join('\n')));
    return sections.filter((section) => section !== '').join('\n\n');
  };
  return { pass, message };
}
