// What one question's retrieval cost: its wall-clock time and the calls it made, by kind
// ("embed", "rerank", …). Recorded beside the question's measures so reports can show latency and
// call counts next to quality. The contract is fixed here; `describeRetrieval` and the hand-written
// timing API both record through `recordRetrievalCost`.
import type { RecordingContext } from './sample.js';

/** One question's retrieval cost. */
export interface RetrievalCost {
  /** Wall-clock milliseconds the retrieval took. */
  latencyMs: number;
  /** Calls the retrieval made, by kind; a kind never counted is absent. */
  calls: Readonly<Record<string, number>>;
}

/**
 * Records one question's retrieval cost for the running test, under `queryId` (the question's id;
 * undefined: the test's question, as the matchers resolve it).
 */
export function recordRetrievalCost(
  cost: RetrievalCost,
  context: RecordingContext,
  queryId: string | undefined,
): void {
  void cost;
  void context;
  void queryId;
}
