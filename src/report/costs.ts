// What retrieval cost, per suite: nearest-rank p50/p95 and max latency over its timed retrievals, calls per
// question by kind, the latency budget's verdict; and the findings it makes: a suite over its explicit
// budget (judged from MIN_TIMED_QUESTIONS timed questions), calls per question that changed since the
// baseline. Latency is never compared with the baseline's: the baseline's is kept for display only.
import { latencyStatistics, type LatencyStatistics } from '../core/latency.js';
import type { BaselineFile } from '../baseline/file/types.js';
import { own } from '../baseline/file/types.js';
import { sampleIdOf, suiteIdentityOf, suiteKeyOf, suiteNameOf, type CollectedCost } from '../recording/collected.js';
import type { LatencyBudget } from '../recording/sample.js';
import { FINDING_KINDS, type GateFinding } from './finding-kinds.js';
import { findingFails } from './verdict.js';

/** A suite is judged against its latency budget only from this many timed questions: fewer say too little of its p95. */
export const MIN_TIMED_QUESTIONS = 20;

/** How a suite stands against its latency budget. */
type BudgetStatus = 'none' | 'within' | 'over' | 'too-few';

export interface SuiteCost {
  suite: string;
  suiteKey: string;
  /** Questions timed (a repeated question counts once). */
  timed: number;
  /** Timed retrievals (each repeat of a question is one). */
  retrievals: number;
  latency: LatencyStatistics;
  /** Calls per question by kind (the mean over its timed questions; a question that made none counts 0), kinds in name order. */
  calls: { kind: string; perQuestion: number }[];
  /** The budget judged: the suite's own (recorded with its costs), else the reporter's `latency` option. */
  budget?: LatencyBudget;
  budgetStatus: BudgetStatus;
  /** The baseline's latency of this suite (display only: latency never gates against it). */
  baseline?: LatencyStatistics & { timed: number };
}

/** The latest recorded calls of each question of one suite, by question id. */
function callsByQuestion(costs: readonly CollectedCost[]): Map<string, Readonly<Record<string, number>>> {
  const calls = new Map<string, Readonly<Record<string, number>>>();
  for (const cost of costs) calls.set(sampleIdOf(cost), cost.cost.calls);
  return calls;
}

/** The run's costs by suite key, suites in the order their first cost was recorded. */
function costsBySuite(costs: readonly CollectedCost[]): Map<string, CollectedCost[]> {
  const bySuite = new Map<string, CollectedCost[]>();
  for (const cost of costs) {
    const key = suiteKeyOf(suiteIdentityOf(cost));
    const suite = bySuite.get(key);
    if (suite === undefined) bySuite.set(key, [cost]);
    else suite.push(cost);
  }
  return bySuite;
}

/** Each suite's cost, in suite name order. */
export function summarizeCosts(
  costs: readonly CollectedCost[],
  baseline: BaselineFile | undefined,
  defaultBudget: LatencyBudget | undefined,
  /** A renamed suite's key → its key in the baseline. */
  renamedFrom: ReadonlyMap<string, string> = new Map(),
): SuiteCost[] {
  const suites: SuiteCost[] = [];
  for (const [suiteKey, suiteCosts] of costsBySuite(costs)) {
    const calls = callsByQuestion(suiteCosts);
    const kinds = [...new Set([...calls.values()].flatMap((counts) => Object.keys(counts)))].sort();
    const budget =
      suiteCosts.find((cost) => cost.cost.latencyBudget !== undefined)?.cost.latencyBudget ?? defaultBudget;
    const latency = latencyStatistics(suiteCosts.map((cost) => cost.cost.latencyMs));
    const previous =
      baseline?.latency === undefined ? undefined : own(baseline.latency, renamedFrom.get(suiteKey) ?? suiteKey);
    suites.push({
      suite: suiteNameOf(suiteIdentityOf(suiteCosts[0]!)),
      suiteKey,
      timed: calls.size,
      retrievals: suiteCosts.length,
      latency,
      calls: kinds.map((kind) => ({
        kind,
        perQuestion: [...calls.values()].reduce((sum, counts) => sum + (counts[kind] ?? 0), 0) / calls.size,
      })),
      ...(budget !== undefined ? { budget } : {}),
      budgetStatus: budgetStatusOf(latency, budget, calls.size),
      ...(previous !== undefined ? { baseline: previous } : {}),
    });
  }
  return suites.sort((a, b) => (a.suite < b.suite ? -1 : a.suite > b.suite ? 1 : 0));
}

function budgetStatusOf(latency: LatencyStatistics, budget: LatencyBudget | undefined, timed: number): BudgetStatus {
  if (budget === undefined) return 'none';
  if (timed < MIN_TIMED_QUESTIONS) return 'too-few';
  return overBudget(latency, budget).length > 0 ? 'over' : 'within';
}

function overBudget(latency: LatencyStatistics, budget: LatencyBudget): NonNullable<GateFinding['overBudget']> {
  const over: NonNullable<GateFinding['overBudget']> = [];
  for (const statistic of ['p50', 'p95', 'max'] as const) {
    const limit = budget[statistic];
    if (limit !== undefined && latency[statistic] > limit)
      over.push({ statistic, value: latency[statistic], budget: limit });
  }
  return over;
}

/** What costFindings reads of the settings. */
interface CostSettings {
  updatingBaseline: boolean;
  failOnRegression: boolean;
  failOnNew: boolean;
  strict: boolean;
  partial: boolean;
  failOnCallChange?: boolean;
}

/**
 * A `latency` finding per suite over its budget; a `calls` finding per suite × kind of call whose count
 * per question changed since the baseline (questions the baseline timed and this run timed again).
 */
export function costFindings(
  suites: readonly SuiteCost[],
  costs: readonly CollectedCost[],
  baseline: BaselineFile | undefined,
  settings: CostSettings,
  /** A renamed suite's key → its key in the baseline. */
  renamedFrom: ReadonlyMap<string, string> = new Map(),
): GateFinding[] {
  const findings: GateFinding[] = [];
  const finding = (fields: Omit<GateFinding, 'accept' | 'fails'>): GateFinding => ({
    ...fields,
    accept: FINDING_KINDS[fields.kind].accept,
    fails: findingFails(fields.kind, settings),
  });
  const bySuite = costsBySuite(costs);
  for (const suite of suites) {
    const where = { suite: suite.suite, suiteKey: suite.suiteKey };
    if (suite.budgetStatus === 'over')
      findings.push(
        finding({
          kind: 'latency',
          ...where,
          overBudget: overBudget(suite.latency, suite.budget!),
          timed: suite.timed,
        }),
      );
    const before =
      baseline?.rankings === undefined
        ? undefined
        : own(baseline.rankings, renamedFrom.get(suite.suiteKey) ?? suite.suiteKey);
    if (before === undefined) continue;
    const changes = new Map<string, { questions: string[]; callChanges: { before: number; after: number }[] }>();
    for (const [id, calls] of callsByQuestion(bySuite.get(suite.suiteKey) ?? [])) {
      const recorded = own(before, id)?.calls;
      if (recorded === undefined) continue;
      for (const kind of new Set([...Object.keys(recorded), ...Object.keys(calls)])) {
        const was = own(recorded, kind) ?? 0;
        const now = own(calls, kind) ?? 0;
        if (was === now) continue;
        const change = changes.get(kind) ?? { questions: [], callChanges: [] };
        change.questions.push(id);
        change.callChanges.push({ before: was, after: now });
        changes.set(kind, change);
      }
    }
    for (const kind of [...changes.keys()].sort())
      findings.push(finding({ kind: 'calls', ...where, callKind: kind, ...changes.get(kind)! }));
  }
  return findings;
}
