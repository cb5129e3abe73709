// `rag-matchers plan`: per suite × measure of a baseline, how many questions the gate's rule needs to catch
// a true drop of Δ in the mean with the power asked for, by resampling the row's own per-question values
// (src/core/question-plan.ts; the method is docs/statistics.md#question-count-plan).
import { readBaseline } from '../../baseline/file/read.js';
import { BaselineError } from '../../baseline/file/errors.js';
import { formatMeasure, parseMeasure } from '../../core/measures.js';
import { fixed, percent } from '../../core/present.js';
import { detectionPower, planQuestions, type QuestionPlan } from '../../core/question-plan.js';
import { DEFAULT_RESAMPLES, DEFAULT_SEED, resolveRegressionRule } from '../../core/regression-rule.js';
import { DEFAULT_BASELINE_PATH } from '../../gate/user-options.js';
import { parseSuiteKey, suiteNameOf } from '../../recording/collected.js';
import {
  choiceOption,
  flag,
  numberOption,
  parseCommandArgs,
  parseToleranceOption,
  stringList,
  stringOption,
} from '../args.js';
import { CommandError, EXIT_OK, processIO, reportFailure, usageError, type CommandIO } from '../io.js';
import { textTable } from '../render.js';

const DEFAULT_DELTA = 0.05;
const DEFAULT_POWER = 0.8;
const DEFAULT_SIMULATIONS = 1_000;
const DEFAULT_MAX_QUESTIONS = 10_000;

const USAGE = `Usage: rag-matchers plan [options]

Reads a baseline and says, per suite × measure, how many questions the gate's rule
needs to catch a true drop of the mean by --delta with probability --power. Each
count is estimated by simulating suites drawn from the row's own per-question
values, each question losing its value with probability delta / mean, and judging
them with the rule (tolerance, and the paired test when --significance is set).
Pass the rule your reporter uses.

Options:
      --baseline <file>       the baseline file (default ${DEFAULT_BASELINE_PATH})
      --delta <d>             the drop of the mean to catch (default ${DEFAULT_DELTA})
      --power <p>             the probability of catching it (default ${DEFAULT_POWER})
      --tolerance X[,MEASURE=Y]...
                              the rule's tolerance (default 0.01); per-measure
                              overrides as in the reporters: --tolerance 0.02,recall@5=0
      --significance <a>      the rule's significance (default: unset, tolerance alone)
      --test <name>           sign, randomization or t (default sign)
      --measure <name>        only this measure, e.g. hit@3 (repeatable)
      --simulations <n>       simulated suites per question count (default ${DEFAULT_SIMULATIONS})
      --max-questions <n>     the largest count searched (default ${DEFAULT_MAX_QUESTIONS})
      --seed <n>              seed of the simulations (default ${DEFAULT_SEED})
      --json                  print the plan as JSON
  -h, --help                  show this help

Example:
  rag-matchers plan --baseline rag-baseline.json --significance 0.05
`;

interface PlanRow {
  suite: string;
  measure: string;
  questions: number;
  mean: number;
  /** The estimated power with the questions the suite has now. */
  powerNow: number;
  plan: QuestionPlan;
}

export async function run(args: readonly string[], io: CommandIO = processIO()): Promise<number> {
  try {
    const parsed = parseCommandArgs(args, {
      baseline: { type: 'string' },
      delta: { type: 'string' },
      power: { type: 'string' },
      tolerance: { type: 'string' },
      significance: { type: 'string' },
      test: { type: 'string' },
      measure: { type: 'string', multiple: true },
      simulations: { type: 'string' },
      'max-questions': { type: 'string' },
      seed: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (flag(parsed, 'help')) {
      io.stdout.write(USAGE);
      return EXIT_OK;
    }
    if (parsed.positionals.length > 0)
      throw usageError(`unexpected argument '${parsed.positionals[0]}'; name the baseline with --baseline <file>`);
    const baselinePath = stringOption(parsed, 'baseline') ?? DEFAULT_BASELINE_PATH;
    if (baselinePath.trim() === '') throw usageError('--baseline needs a file path');
    const unit = { min: 0, minExclusive: true, max: 1, maxExclusive: true };
    const delta =
      numberOption('--delta', stringOption(parsed, 'delta'), { ...unit, maxExclusive: false, example: '0.05' }) ??
      DEFAULT_DELTA;
    const power = numberOption('--power', stringOption(parsed, 'power'), { ...unit, example: '0.8' }) ?? DEFAULT_POWER;
    const tolerance = parseToleranceOption(stringOption(parsed, 'tolerance'));
    const significance = numberOption('--significance', stringOption(parsed, 'significance'), {
      ...unit,
      example: '0.05',
    });
    const test = choiceOption('--test', stringOption(parsed, 'test'), ['sign', 'randomization', 't'] as const);
    const simulations =
      numberOption('--simulations', stringOption(parsed, 'simulations'), { integer: true, min: 1, example: '1000' }) ??
      DEFAULT_SIMULATIONS;
    const maxQuestions =
      numberOption('--max-questions', stringOption(parsed, 'max-questions'), {
        integer: true,
        min: 1,
        example: '10000',
      }) ?? DEFAULT_MAX_QUESTIONS;
    const seed =
      numberOption('--seed', stringOption(parsed, 'seed'), { integer: true, min: 0, max: 0xffffffff, example: '42' }) ??
      DEFAULT_SEED;
    const measures = new Set(stringList(parsed, 'measure').map(canonicalMeasure));
    const rule = resolveRegressionRule(
      {
        ...(tolerance !== undefined ? { tolerance } : {}),
        ...(significance !== undefined ? { significance } : {}),
        ...(test !== undefined ? { test } : {}),
        resamples: DEFAULT_RESAMPLES,
        seed,
      },
      'plan',
    );

    let baseline;
    try {
      baseline = await readBaseline(baselinePath);
    } catch (error) {
      if (error instanceof BaselineError) throw new CommandError(error.message);
      throw error;
    }
    if (baseline === undefined)
      throw new CommandError(`no baseline at '${baselinePath}' (record one with RAG_BASELINE=update)`);

    const options = { delta, power, simulations, maxQuestions };
    const rows: PlanRow[] = [];
    for (const [suiteKey, byMeasure] of Object.entries(baseline.suites)) {
      for (const [measure, samples] of Object.entries(byMeasure)) {
        if (measures.size > 0 && !measures.has(measure)) continue;
        const values = Object.values(samples);
        if (values.length === 0) continue;
        rows.push({
          suite: suiteNameOf(parseSuiteKey(suiteKey)),
          measure,
          questions: values.length,
          mean: values.reduce((sum, value) => sum + value, 0) / values.length,
          powerNow: detectionPower(values, measure, rule, options, values.length),
          plan: planQuestions(values, measure, rule, options),
        });
      }
    }
    rows.sort((a, b) => (a.suite < b.suite ? -1 : a.suite > b.suite ? 1 : a.measure < b.measure ? -1 : 1));

    if (flag(parsed, 'json')) {
      const settings = {
        delta,
        power,
        tolerance: rule.tolerance.default,
        ...(Object.keys(rule.tolerance.byMeasure).length > 0
          ? { toleranceByMeasure: { ...rule.tolerance.byMeasure } }
          : {}),
        significance: rule.significance ?? null,
        test: rule.test,
        simulations,
        maxQuestions,
        seed,
      };
      io.stdout.write(`${JSON.stringify({ settings, rows }, null, 2)}\n`);
      return EXIT_OK;
    }
    io.stdout.write(
      `Questions needed to catch a drop of ${delta} in a suite's mean with ${percent(power)} power\n` +
        `Rule: ${describeRule(rule)}; each row alone. ${simulations} simulated suites per count, seed ${seed}.\n\n`,
    );
    if (rows.length === 0) {
      io.stdout.write('The baseline has no rows to plan.\n');
      return EXIT_OK;
    }
    io.stdout.write(
      textTable(
        [
          { header: 'suite' },
          { header: 'measure' },
          { header: 'questions', numeric: true },
          { header: 'mean', numeric: true },
          { header: 'power now', numeric: true },
          { header: 'needed', numeric: true },
        ],
        rows.map((row) => [
          row.suite,
          row.measure,
          String(row.questions),
          fixed(row.mean, 3),
          percent(row.powerNow, 0),
          describePlan(row.plan),
        ]),
      ),
    );
    return EXIT_OK;
  } catch (error) {
    if (error instanceof RangeError) return reportFailure('plan', io, usageError(error.message));
    return reportFailure('plan', io, error);
  }
}

function describeRule(rule: ReturnType<typeof resolveRegressionRule>): string {
  const overrides = Object.entries(rule.tolerance.byMeasure).map(([measure, value]) => `${measure} ${value}`);
  const tolerance = `tolerance ${rule.tolerance.default}${overrides.length > 0 ? ` (${overrides.join(', ')})` : ''}`;
  return rule.significance === undefined
    ? `${tolerance} alone`
    : `${tolerance}, ${rule.test === 't' ? 'paired t' : rule.test} test at significance ${rule.significance}`;
}

function describePlan(plan: QuestionPlan): string {
  switch (plan.kind) {
    case 'needed':
      return String(plan.questions);
    case 'beyond':
      return `more than ${plan.maxQuestions}`;
    case 'never':
      return plan.reason === 'within-tolerance' ? 'never (Δ within the tolerance)' : 'never (mean below Δ)';
  }
}

function canonicalMeasure(name: string): string {
  try {
    return formatMeasure(parseMeasure(name));
  } catch (error) {
    throw usageError(`--measure: ${(error as Error).message}`);
  }
}
