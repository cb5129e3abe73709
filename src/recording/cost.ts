// What one question's retrieval cost: its wall-clock time and the calls it made, by kind
// ("embed", "rerank", …). Recorded beside the question's measures so reports can show latency and
// call counts next to quality. The contract is fixed here; `describeRetrieval` and the hand-written
// timing API both record through `recordRetrievalCost`.
import { describeValue } from '../core/describe.js';
import { COST_MEASURE, recordSample, type LatencyBudget, type RecordingContext } from './sample.js';

export type { LatencyBudget } from './sample.js';

/** One question's retrieval cost. */
export interface RetrievalCost {
  /** Wall-clock milliseconds the retrieval took. */
  latencyMs: number;
  /** Calls the retrieval made, by kind; a kind never counted is absent. */
  calls: Readonly<Record<string, number>>;
  /**
   * The suite's latency budget in milliseconds (nearest-rank p50/p95, max), when the test sets one: the
   * reporter judges the suite against it once it has enough timed questions (a reporter's `latency` option
   * is the budget of suites that set none).
   */
  latencyBudget?: LatencyBudget;
}

/**
 * Records one question's retrieval cost for the running test, under `queryId` (the question's id;
 * undefined: the test's question, as the matchers resolve it).
 */
export function recordRetrievalCost(cost: RetrievalCost, context: RecordingContext, queryId: string | undefined): void {
  checkCost(cost);
  if (queryId !== undefined && (typeof queryId !== 'string' || queryId === ''))
    throw new TypeError(
      `recordRetrievalCost: queryId must be a non-empty string or undefined, got ${describeValue(queryId)}.`,
    );
  const recorded =
    cost.latencyBudget === undefined
      ? { latencyMs: cost.latencyMs, calls: cost.calls }
      : {
          latencyMs: cost.latencyMs,
          calls: cost.calls,
          latencyBudget: checkLatencyBudget(cost.latencyBudget, 'cost.latencyBudget'),
        };
  recordSample(
    queryId === undefined
      ? { measure: COST_MEASURE, value: cost.latencyMs, cost: recorded }
      : { measure: COST_MEASURE, value: cost.latencyMs, queryId, cost: recorded },
    context,
  );
}

function checkCost(cost: RetrievalCost): void {
  if (cost === null || typeof cost !== 'object')
    throw new TypeError(`recordRetrievalCost: cost must be { latencyMs, calls }, got ${describeValue(cost)}.`);
  const { latencyMs, calls } = cost;
  if (typeof latencyMs !== 'number' || !Number.isFinite(latencyMs) || latencyMs < 0)
    throw new RangeError(
      `recordRetrievalCost: cost.latencyMs must be a finite number of milliseconds ≥ 0, got ${describeValue(latencyMs)}.`,
    );
  if (calls === null || typeof calls !== 'object' || Array.isArray(calls))
    throw new TypeError(
      `recordRetrievalCost: cost.calls must be an object of counts by kind ({ rerank: 1 }), got ${describeValue(calls)}.`,
    );
  for (const [kind, count] of Object.entries(calls))
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0)
      throw new RangeError(
        `recordRetrievalCost: cost.calls.${kind} must be a whole number ≥ 0, got ${describeValue(count)}.`,
      );
}

const BUDGET_KEYS = ['p50', 'p95', 'max'] as const;

/** A latency budget checked (`where` names it in the error): `{ p95: 300 }`, milliseconds > 0. */
export function checkLatencyBudget(budget: unknown, where: string): LatencyBudget {
  const shape = `an object of milliseconds such as { p95: 300 } (keys ${BUDGET_KEYS.join(', ')})`;
  if (budget === null || typeof budget !== 'object' || Array.isArray(budget))
    throw new TypeError(`${where} must be ${shape}, got ${describeValue(budget)}.`);
  const checked: LatencyBudget = {};
  for (const [key, limit] of Object.entries(budget)) {
    if (!(BUDGET_KEYS as readonly string[]).includes(key))
      throw new TypeError(`${where} has an unknown key ${JSON.stringify(key)}; it must be ${shape}.`);
    if (typeof limit !== 'number' || !Number.isFinite(limit) || limit <= 0)
      throw new RangeError(`${where}.${key} must be a number of milliseconds > 0, got ${describeValue(limit)}.`);
    checked[key as (typeof BUDGET_KEYS)[number]] = limit;
  }
  if (Object.keys(checked).length === 0)
    throw new TypeError(`${where} must set at least one of ${BUDGET_KEYS.join(', ')}.`);
  return checked;
}
