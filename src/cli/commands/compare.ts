// `rag-matchers compare`: two runs on the same judged queries, paired: each run's mean with its
// interval, the difference, wins/losses/ties, p-values (Holm-corrected) and a regression verdict.
import { compareEvaluations, DEFAULT_TOLERANCE, type RunComparison } from '../../dataset/compare-runs.js';
import { evaluateRun, type RunEvaluation } from '../../dataset/evaluate-run.js';
import { DEFAULT_RESAMPLES, DEFAULT_SEED, type MeanInterval } from '../../core/stats.js';
import { choiceOption, flag, numberOption, parseCommandArgs, parseToleranceOption, stringOption } from '../args.js';
import {
  EVALUATION_HELP,
  EVALUATION_OPTIONS,
  loadQuerySet,
  loadRun,
  readEvaluationSettings,
  type OutputFormat,
} from '../inputs.js';
import { CommandError, EXIT_REGRESSION, processIO, reportFailure, usageError, type CommandIO } from '../io.js';
import { alignmentWarning, assertSomethingToEvaluate, measureAlignment } from '../alignment.js';
import { escapeConsole, escapeMarkdown } from '../../core/escape.js';
import { confidencePercent, fixed, formatP, plural, signed } from '../../core/present.js';
import { listSome, markdownTable, textTable, type Column } from '../render.js';

export const HELP = `Usage: rag-matchers compare --qrels FILE RUN_A RUN_B [-m MEASURE]... [options]

Compares run B with run A on the queries both evaluate: each mean with its interval,
B - A, wins/losses/ties per query, a paired test's p-value and the Holm-corrected
p-value across the measures. A regression: B's mean below A's by more than the
tolerance (and, with --significance, a Holm-corrected p-value at or below it).

  --qrels FILE   judgments: TREC qrels or a JSONL eval set
  RUN_A RUN_B    the baseline and the candidate: TREC or JSONL runs
${EVALUATION_HELP}
      --tolerance X[,MEASURE=Y]...  largest drop of a mean that is not a regression (default
                                  ${DEFAULT_TOLERANCE}); per-measure overrides: --tolerance 0.02,recall@5=0
      --significance A            also require p (Holm) <= A for a regression (e.g. 0.05)
      --test sign|randomization|t paired test (default sign: exact; randomization: seeded
                                  sign flips, exact up to 16 differing queries)
      --confidence C              interval of each mean (default 0.95; Wilson for hit@k,
                                  percentile bootstrap otherwise)
      --resamples N               randomization and bootstrap resamples (default ${DEFAULT_RESAMPLES})
      --seed N                    their seed (default ${DEFAULT_SEED}): same inputs, same figures
      --per-query                 list every query that got worse or better (default: 10 worst
                                  per regressed measure); JSON: all changes
      --fail-on-regression        exit 1 when a measure regressed
  -h, --help                      this help

A warning goes to stderr when most queries of a run share no id with the judgments.
Exit status: 0 ok; 1 regression with --fail-on-regression; 2 bad usage or input (an
empty set or run, or no query id of a run in the set).
`;

const OPTIONS = {
  ...EVALUATION_OPTIONS,
  qrels: { type: 'string' },
  tolerance: { type: 'string' },
  significance: { type: 'string' },
  test: { type: 'string' },
  confidence: { type: 'string' },
  resamples: { type: 'string' },
  seed: { type: 'string' },
  'per-query': { type: 'boolean' },
  'fail-on-regression': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const SHOWN_QUESTIONS = 10;

function intervalText(interval: MeanInterval | undefined): string {
  return interval === undefined ? '' : ` [${fixed(interval.lower)}, ${fixed(interval.upper)}]`;
}

function verdict(entry: RunComparison['measures'][number]): string {
  return entry.regression ? 'regressed' : entry.improvement ? 'improved' : 'no change beyond tolerance';
}

function testName(method: string): string {
  if (method === 'randomization-exact') return 'exact paired randomization test';
  if (method === 'randomization-monte-carlo') return 'paired randomization test';
  if (method === 'sign-exact') return 'exact sign test';
  if (method.startsWith('paired-t')) return 'paired t-test';
  return method;
}

interface CompareContext {
  qrelsPath: string;
  runA: string;
  runB: string;
  confidence: number;
  resamples: number;
  seed: number;
  perQuery: boolean;
}

function renderText(comparison: RunComparison, format: Exclude<OutputFormat, 'json'>, context: CompareContext): string {
  const table = format === 'markdown' ? markdownTable : textTable;
  const escape = format === 'markdown' ? escapeMarkdown : escapeConsole;
  const confidence = confidencePercent(context.confidence);
  const columns: Column[] = [
    { header: 'measure' },
    { header: `A (${confidence} interval)`, numeric: true },
    { header: `B (${confidence} interval)`, numeric: true },
    { header: 'B - A', numeric: true },
    { header: 'wins/losses/ties', numeric: true },
    { header: 'p', numeric: true },
    { header: 'p (Holm)', numeric: true },
    { header: 'verdict' },
  ];
  const rows = comparison.measures.map((entry) => [
    entry.measure,
    `${fixed(entry.meanBefore)}${intervalText(entry.intervalBefore)}`,
    `${fixed(entry.meanAfter)}${intervalText(entry.intervalAfter)}`,
    signed(entry.meanDifference, { digits: 4, signZero: true }),
    `${entry.wins}/${entry.losses}/${entry.ties}`,
    formatP(entry.p, 4),
    formatP(entry.adjustedP, 4),
    verdict(entry),
  ]);
  const bold = (text: string) => (format === 'markdown' ? `**${text}**` : text);
  const paired = plural(comparison.queryIds.length, 'paired query', 'paired queries');
  let output = `${bold('A')} = ${escape(context.runA)}, ${bold('B')} = ${escape(context.runB)}; ${paired} (${escape(context.qrelsPath)})\n\n`;
  output += table(columns, rows);

  for (const entry of comparison.measures) {
    const lists: [string, typeof entry.worse][] = [];
    if (entry.regression || (context.perQuery && entry.worse.length > 0)) lists.push(['got worse', entry.worse]);
    if (context.perQuery && entry.better.length > 0) lists.push(['got better', entry.better]);
    for (const [label, changes] of lists) {
      if (changes.length === 0) continue;
      const shown = context.perQuery ? changes : changes.slice(0, SHOWN_QUESTIONS);
      const order = label === 'got worse' ? 'worst first' : 'best first';
      output += `\n${bold(`Questions that ${label} on ${entry.measure}`)} (${changes.length}, ${order}):\n`;
      if (format === 'markdown') {
        output += table(
          [{ header: 'query' }, { header: 'A', numeric: true }, { header: 'B', numeric: true }],
          shown.map((change) => [change.queryId, fixed(change.before), fixed(change.after)]),
        );
      } else {
        const ids = shown.map((change) => escapeConsole(change.queryId));
        const width = Math.max(...ids.map((id) => id.length));
        output += shown
          .map((change, index) => `  ${ids[index]!.padEnd(width)}  ${fixed(change.before)} -> ${fixed(change.after)}\n`)
          .join('');
      }
      if (shown.length < changes.length)
        output += `  ... and ${changes.length - shown.length} more (--per-query lists all)\n`;
    }
  }

  const notes: string[] = [];
  if (comparison.onlyBefore.length > 0)
    notes.push(
      `${plural(comparison.onlyBefore.length, 'query', 'queries')} evaluated only in A, left out (${listSome(comparison.onlyBefore, 10, escape)})`,
    );
  if (comparison.onlyAfter.length > 0)
    notes.push(
      `${plural(comparison.onlyAfter.length, 'query', 'queries')} evaluated only in B, left out (${listSome(comparison.onlyAfter, 10, escape)})`,
    );
  const first = comparison.measures[0];
  const method = first === undefined ? comparison.test : testName(first.method);
  const randomised =
    first?.method === 'randomization-monte-carlo' ? ` (${context.resamples} resamples, seed ${context.seed})` : '';
  const family = comparison.measures.filter((entry) => entry.wins + entry.losses > 0).length;
  const holm = family > 1 ? `, Holm-corrected across the ${family} measures with a changed query` : '';
  notes.push(
    `p: ${method}${randomised}${holm}. Intervals: Wilson for hit@k, percentile bootstrap (${context.resamples} resamples, seed ${context.seed}) otherwise.`,
  );
  const tolerances = [...new Set(comparison.measures.map((entry) => entry.tolerance))];
  const rule = `Regression: B's mean below A's by more than ${tolerances.length === 1 ? tolerances[0] : 'the tolerance'}${comparison.significance === undefined ? '' : ` with p (Holm) <= ${comparison.significance}`}.`;
  notes.push(rule);
  notes.push(
    comparison.regressions.length === 0
      ? 'Verdict: no regression.'
      : `Verdict: ${comparison.regressions.length} regressed (${comparison.regressions.join(', ')}).`,
  );
  return `${output}\n${notes.join('\n')}\n`;
}

function comparisonJson(
  comparison: RunComparison,
  a: RunEvaluation,
  b: RunEvaluation,
  context: CompareContext,
): string {
  const measures = comparison.measures.map((entry) => ({
    measure: entry.measure,
    a: { mean: entry.meanBefore, interval: entry.intervalBefore },
    b: { mean: entry.meanAfter, interval: entry.intervalAfter },
    difference: entry.meanDifference,
    wins: entry.wins,
    losses: entry.losses,
    ties: entry.ties,
    p: Number.isFinite(entry.p) ? entry.p : null,
    pHolm: Number.isFinite(entry.adjustedP) ? entry.adjustedP : null,
    test: entry.method,
    tolerance: entry.tolerance,
    regression: entry.regression,
    improvement: entry.improvement,
    worse: context.perQuery ? entry.worse : entry.worse.slice(0, SHOWN_QUESTIONS),
    ...(context.perQuery ? { better: entry.better } : {}),
  }));
  const document = {
    runs: { a: context.runA, b: context.runB },
    qrels: context.qrelsPath,
    pairedQueries: comparison.queryIds.length,
    onlyA: comparison.onlyBefore,
    onlyB: comparison.onlyAfter,
    queries: { a: a.queries, b: b.queries },
    confidence: context.confidence,
    resamples: context.resamples,
    seed: context.seed,
    ...(comparison.significance === undefined ? {} : { significance: comparison.significance }),
    measures,
    regressions: comparison.regressions,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

export async function run(args: readonly string[], io: CommandIO = processIO()): Promise<number> {
  try {
    const parsed = parseCommandArgs(args, OPTIONS);
    if (flag(parsed, 'help')) {
      io.stdout.write(HELP);
      return 0;
    }
    const qrelsPath = stringOption(parsed, 'qrels');
    if (qrelsPath === undefined) throw usageError('--qrels FILE is required');
    if (parsed.positionals.length !== 2) {
      throw usageError(
        `expected two runs, RUN_A (baseline) and RUN_B (candidate), got ${parsed.positionals.length === 0 ? 'none' : parsed.positionals.map((file) => `'${file}'`).join(' ')}`,
      );
    }
    const [runA, runB] = parsed.positionals as [string, string];
    const settings = readEvaluationSettings(parsed);
    const tolerance = parseToleranceOption(stringOption(parsed, 'tolerance'));
    const significance = numberOption('--significance', stringOption(parsed, 'significance'), {
      min: 0,
      minExclusive: true,
      max: 1,
      maxExclusive: true,
      example: '0.05',
    });
    const test = choiceOption('--test', stringOption(parsed, 'test'), ['randomization', 'sign', 't'] as const);
    const confidence =
      numberOption('--confidence', stringOption(parsed, 'confidence'), {
        min: 0,
        minExclusive: true,
        max: 1,
        maxExclusive: true,
        example: '0.95',
      }) ?? 0.95;
    const resamples =
      numberOption('--resamples', stringOption(parsed, 'resamples'), {
        integer: true,
        min: 1,
        max: 10_000_000,
        example: '10000',
      }) ?? DEFAULT_RESAMPLES;
    const seed =
      numberOption('--seed', stringOption(parsed, 'seed'), {
        integer: true,
        min: 0,
        max: 2 ** 32 - 1,
        example: '42',
      }) ?? DEFAULT_SEED;

    const set = await loadQuerySet(qrelsPath, io, settings.grammar);
    const [runDataA, runDataB] = [await loadRun(runA, io, settings.grammar), await loadRun(runB, io, settings.grammar)];
    for (const [name, data] of [
      [runA, runDataA],
      [runB, runDataB],
    ] as const) {
      assertSomethingToEvaluate(set, data, qrelsPath, name);
      io.stderr.write(alignmentWarning(measureAlignment(set, data, settings.options), name));
    }
    let comparison: RunComparison;
    let evaluationA: RunEvaluation;
    let evaluationB: RunEvaluation;
    try {
      evaluationA = evaluateRun(set, runDataA, { ...settings.options, measures: settings.measures });
      evaluationB = evaluateRun(set, runDataB, { ...settings.options, measures: settings.measures });
      comparison = compareEvaluations(evaluationA, evaluationB, {
        tolerance,
        significance,
        test,
        confidence,
        resamples,
        seed,
      });
    } catch (error) {
      throw new CommandError((error as Error).message.replace(/^(evaluateRun|compareEvaluations): /, ''));
    }
    const context: CompareContext = {
      qrelsPath,
      runA,
      runB,
      confidence,
      resamples,
      seed,
      perQuery: flag(parsed, 'per-query'),
    };
    if (settings.format === 'json') io.stdout.write(comparisonJson(comparison, evaluationA, evaluationB, context));
    else io.stdout.write(renderText(comparison, settings.format, context));
    return flag(parsed, 'fail-on-regression') && comparison.regressions.length > 0 ? EXIT_REGRESSION : 0;
  } catch (error) {
    return reportFailure('compare', io, error);
  }
}
