// Benchmark of the metric core: every measure at several cutoffs over 20,000 queries × 100 hits.
// Reports judged hits per second and the ratio against a straightforward reference in the same run.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Measure } from '../src/index.js';
import { built } from './built.js';
import { describeRatios, median } from './same-run.js';

const { evaluate, evaluateMeasures, parseMeasure, planMeasures } = built;

/** The cutoff evaluate() is timed at. */
const EVALUATE_K = 10;
/** Issue 36's workload: object hits `{ id, score }`, `{ id: grade }` judgments, k = 100. */
const OBJECTS_K = 100;
/** evaluate() on that workload must be at least this many times as fast as the build in BENCH_COMPARE_DIST. */
const SPEEDUP_TARGET = 1.25;
const COMPARE_DIST = process.env.BENCH_COMPARE_DIST || undefined;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);

const QUERY_COUNT = 20_000;
const HITS_PER_QUERY = 100;
const JUDGED_PER_QUERY = 30;
const MEASURE_NAMES = [
  'P@1',
  'P@3',
  'P@5',
  'P@10',
  'recall@5',
  'recall@10',
  'recall@100',
  'ndcg',
  'ndcg@5',
  'ndcg@10',
  'map',
  'map@10',
  'mrr',
  'rprec',
  'hit@1',
  'hit@5',
  'hit@10',
];

interface Query {
  hits: string[];
  relevant: Record<string, number>;
}

/** Deterministic data: a mulberry32 stream seeded per run. */
function generateQueries(seed = 7): Query[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const queries: Query[] = [];
  for (let queryIndex = 0; queryIndex < QUERY_COUNT; queryIndex++) {
    const hits: string[] = [];
    const seen = new Set<string>();
    while (hits.length < HITS_PER_QUERY) {
      const id = `doc-${Math.floor(random() * 1000)}`;
      if (!seen.has(id)) {
        seen.add(id);
        hits.push(id);
      }
    }
    const relevant: Record<string, number> = {};
    for (let judged = 0; judged < JUDGED_PER_QUERY; judged++)
      relevant[`doc-${Math.floor(random() * 1000)}`] = Math.floor(random() * 4);
    queries.push({ hits, relevant });
  }
  return queries;
}

/** The obvious implementation: each measure on its own, with array scans. */
function referenceMeasures(
  hits: string[],
  relevant: Record<string, number>,
  measures: Measure[],
): Record<string, number> {
  const relevantIds = Object.keys(relevant).filter((id) => (relevant[id] as number) >= 1);
  const grades = Object.values(relevant)
    .filter((grade) => grade > 0)
    .sort((a, b) => b - a);
  const values: Record<string, number> = {};
  for (const measure of measures) {
    const k = measure.k ?? hits.length;
    const top = hits.slice(0, k);
    const found = top.filter((id) => relevantIds.includes(id));
    let value = 0;
    switch (measure.name) {
      case 'precision':
        value = found.length / k;
        break;
      case 'recall':
        value = relevantIds.length === 0 ? 0 : found.length / relevantIds.length;
        break;
      case 'hit':
        value = found.length > 0 ? 1 : 0;
        break;
      case 'f1':
        break;
      case 'mrr': {
        const rank = top.findIndex((id) => relevantIds.includes(id));
        value = rank < 0 ? 0 : 1 / (rank + 1);
        break;
      }
      case 'map': {
        let hitsSoFar = 0;
        let sum = 0;
        top.forEach((id, index) => {
          if (relevantIds.includes(id)) sum += ++hitsSoFar / (index + 1);
        });
        value = relevantIds.length === 0 ? 0 : sum / relevantIds.length;
        break;
      }
      case 'ndcg': {
        const dcg = top.reduce((sum, id, index) => sum + Math.max(relevant[id] ?? 0, 0) / Math.log2(index + 2), 0);
        const ideal = grades
          .slice(0, measure.k ?? grades.length)
          .reduce((sum, grade, index) => sum + grade / Math.log2(index + 2), 0);
        value = ideal === 0 ? 0 : dcg / ideal;
        break;
      }
      case 'rprec': {
        const topR = hits.slice(0, relevantIds.length);
        value =
          relevantIds.length === 0 ? 0 : topR.filter((id) => relevantIds.includes(id)).length / relevantIds.length;
        break;
      }
    }
    values[measure.k === undefined ? measure.name : `${measure.name}@${measure.k}`] = value;
  }
  return values;
}

/** The obvious evaluate(): every field of its result at one cutoff, each on its own, with array scans. */
function referenceEvaluate(hits: string[], relevant: Record<string, number>, k: number) {
  const relevantIds = Object.keys(relevant).filter((id) => (relevant[id] as number) >= 1);
  const judgedNonRelevant = Object.keys(relevant).filter(
    (id) => (relevant[id] as number) >= 0 && (relevant[id] as number) < 1,
  ).length;
  const grades = Object.values(relevant)
    .filter((grade) => grade > 0)
    .sort((a, b) => b - a);
  const top = hits.slice(0, k);
  const found = top.filter((id) => relevantIds.includes(id));
  const precisionAtK = found.length / k;
  const recallAtK = relevantIds.length === 0 ? 0 : found.length / relevantIds.length;
  const firstRank = top.findIndex((id) => relevantIds.includes(id));
  let hitsSoFar = 0;
  let precisionSum = 0;
  top.forEach((id, index) => {
    if (relevantIds.includes(id)) precisionSum += ++hitsSoFar / (index + 1);
  });
  const dcg = top.reduce((sum, id, index) => sum + Math.max(relevant[id] ?? 0, 0) / Math.log2(index + 2), 0);
  const ideal = grades.slice(0, k).reduce((sum, grade, index) => sum + grade / Math.log2(index + 2), 0);
  const topR = hits.slice(0, relevantIds.length);
  let nonRelevantAbove = 0;
  let bprefSum = 0;
  for (const id of hits) {
    if (relevantIds.includes(id)) {
      bprefSum +=
        nonRelevantAbove === 0
          ? 1
          : 1 - Math.min(nonRelevantAbove, relevantIds.length) / Math.min(judgedNonRelevant, relevantIds.length);
    } else if (id in relevant) nonRelevantAbove++;
  }
  return {
    k,
    evaluatedAtK: top.length,
    retrievedCount: hits.length,
    relevantCount: relevantIds.length,
    truePositiveCount: found.length,
    duplicateCount: hits.length - new Set(hits).size,
    precisionAtK,
    recallAtK,
    f1AtK: precisionAtK + recallAtK === 0 ? 0 : (2 * precisionAtK * recallAtK) / (precisionAtK + recallAtK),
    hitAtK: found.length > 0 ? 1 : 0,
    reciprocalRankAtK: firstRank < 0 ? 0 : 1 / (firstRank + 1),
    ndcgAtK: ideal === 0 ? 0 : dcg / ideal,
    averagePrecisionAtK: relevantIds.length === 0 ? 0 : precisionSum / relevantIds.length,
    rPrecision:
      relevantIds.length === 0 ? 0 : topR.filter((id) => relevantIds.includes(id)).length / relevantIds.length,
    bpref: relevantIds.length === 0 ? 0 : bprefSum / relevantIds.length,
    unmatchedRelevantIds: relevantIds.filter((id) => !hits.includes(id)),
  };
}

/** Same answers, or the ratio means nothing: every field of evaluate()'s result against the reference's. */
function checkAgainstReference(ours: object, theirs: ReturnType<typeof referenceEvaluate>, judgments: string): void {
  for (const [name, value] of Object.entries(theirs)) {
    const mine = (ours as Record<string, unknown>)[name];
    const same = Array.isArray(value)
      ? JSON.stringify(mine) === JSON.stringify(value)
      : Math.abs((mine as number) - value) <= 1e-12;
    if (!same) throw new Error(`bench: evaluate() from ${judgments} and its reference disagree on ${name}`);
  }
}

/** The times of `runs` repetitions, fastest first. */
function timesOf(runs: number, work: () => void): number[] {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

function bestOf(runs: number, work: () => void): number {
  return timesOf(runs, work)[0] as number;
}

function medianOf(times: readonly number[]): number {
  return times[Math.floor(times.length / 2)] as number;
}

export async function benchCore(): Promise<void> {
  const queries = generateQueries();
  const measures = MEASURE_NAMES.map(parseMeasure);
  // Planned once, as evaluateRun does: names, cutoffs and the result shape are worked out per run, not per query.
  const plan = planMeasures(measures);
  const judgedHits = QUERY_COUNT * HITS_PER_QUERY;

  // Judgments as parsed qrels and evaluateRun hold them: a Map per query.
  const asMaps = queries.map((query) => new Map(Object.entries(query.relevant)));

  // Same answers first: the reference must agree with the core on both shapes, or the ratio means nothing.
  queries.slice(0, 200).forEach((query, index) => {
    const theirs = referenceMeasures(query.hits, query.relevant, measures);
    for (const ours of [
      evaluateMeasures(query.hits, query.relevant, plan),
      evaluateMeasures(query.hits, asMaps[index] as Map<string, number>, plan),
    ]) {
      for (const name of Object.keys(theirs)) {
        if (Math.abs((ours[name] as number) - (theirs[name] as number)) > 1e-12)
          throw new Error(`bench reference disagrees on ${name}`);
      }
    }
  });

  // Best of twenty: on this shared machine a minute can run a third slower than the next; 2 s of repetitions find a quiet one.
  let checksum = 0;
  const oursFromMapsMs = bestOf(20, () => {
    queries.forEach((query, index) => {
      checksum += evaluateMeasures(query.hits, asMaps[index] as Map<string, number>, plan)['ndcg@10'] as number;
    });
  });
  const oursFromObjectsMs = bestOf(20, () => {
    for (const query of queries) checksum += evaluateMeasures(query.hits, query.relevant, plan)['ndcg@10'] as number;
  });
  const referenceMs = bestOf(2, () => {
    for (const query of queries)
      checksum += referenceMeasures(query.hits, query.relevant, measures)['ndcg@10'] as number;
  });

  // evaluate(): every measure and count of one query at one cutoff, as the matchers call it.
  queries.slice(0, 200).forEach((query, index) => {
    const theirs = referenceEvaluate(query.hits, query.relevant, EVALUATE_K);
    checkAgainstReference(evaluate(query.hits, query.relevant, EVALUATE_K), theirs, 'objects');
    checkAgainstReference(evaluate(query.hits, asMaps[index] as Map<string, number>, EVALUATE_K), theirs, 'Maps');
  });
  const evaluateFromObjectsTimes = timesOf(20, () => {
    for (const query of queries) checksum += evaluate(query.hits, query.relevant, EVALUATE_K).ndcgAtK;
  });
  const evaluateFromMapsTimes = timesOf(20, () => {
    queries.forEach((query, index) => {
      checksum += evaluate(query.hits, asMaps[index] as Map<string, number>, EVALUATE_K).ndcgAtK;
    });
  });
  // The commonest form in tests: an array of the relevant ids (grade 1 each), read in place too.
  const asIds = queries.map((query) => Object.keys(query.relevant).filter((id) => (query.relevant[id] as number) >= 1));
  queries.slice(0, 200).forEach((query, index) => {
    const ids = asIds[index] as string[];
    const theirs = referenceEvaluate(query.hits, Object.fromEntries(ids.map((id) => [id, 1])), EVALUATE_K);
    checkAgainstReference(evaluate(query.hits, ids, EVALUATE_K), theirs, 'ids');
  });
  const evaluateFromIdsTimes = timesOf(20, () => {
    queries.forEach((query, index) => {
      checksum += evaluate(query.hits, asIds[index] as string[], EVALUATE_K).ndcgAtK;
    });
  });
  const evaluateFromObjectsMs = evaluateFromObjectsTimes[0] as number;
  const evaluateFromMapsMs = evaluateFromMapsTimes[0] as number;
  // What reading the judgments costs before any evaluation: every { id: grade } object listed
  // (Object.keys and one read per id; built one key at a time they are dictionary-mode objects),
  // every Map iterated. Part of evaluate()'s time that no kernel can save.
  const listObjectsMs = bestOf(20, () => {
    for (const query of queries) {
      const ids = Object.keys(query.relevant);
      for (let index = 0; index < ids.length; index++) checksum += query.relevant[ids[index] as string] as number;
    }
  });
  const listMapsMs = bestOf(20, () => {
    for (const map of asMaps) {
      for (const id of map.keys()) checksum += id.length;
      for (const grade of map.values()) checksum += grade;
    }
  });
  const evaluateReferenceMs = bestOf(3, () => {
    for (const query of queries) checksum += referenceEvaluate(query.hits, query.relevant, EVALUATE_K).ndcgAtK;
  });

  const rate = (ms: number) => (judgedHits / (ms / 1000) / 1e6).toFixed(1);
  const met = (ms: number) => (judgedHits / (ms / 1000) >= 20e6 ? 'met' : 'NOT met');
  const line = (label: string, ms: number, note: string) =>
    console.log(
      `  ${label.padEnd(30)} ${ms.toFixed(1).padStart(8)} ms  ${rate(ms).padStart(6)} M judged hits/s  ${note}`,
    );
  console.log(
    `core: ${QUERY_COUNT} queries × ${HITS_PER_QUERY} hits (each hit a string object of its own), ${JUDGED_PER_QUERY} graded judgments each, ${measures.length} measures (${MEASURE_NAMES.join(', ')})`,
  );
  line(
    'judgments as Maps',
    oursFromMapsMs,
    `(as parsed qrels hold them; target ≥ 20 M judged hits/s: ${met(oursFromMapsMs)})`,
  );
  line('judgments as { id: grade }', oursFromObjectsMs, '(read in place, no copy)');
  line('reference (objects)', referenceMs, '(each measure on its own, array scans)');
  console.log(
    `  ratio: ${(referenceMs / oursFromObjectsMs).toFixed(1)}× the reference on the same objects, ${(referenceMs / oursFromMapsMs).toFixed(1)}× from Maps`,
  );
  console.log(
    `core: evaluate(hits, relevant, ${EVALUATE_K}) on the same queries: every measure and count, duplicates and unmatched relevant ids`,
  );
  const median = (times: readonly number[]) => `median ${rate(medianOf(times))} M/s`;
  line(
    'evaluate(), { id: grade }',
    evaluateFromObjectsMs,
    `(best of 20, ${median(evaluateFromObjectsTimes)}; target ≥ 20 M judged hits/s: ${met(evaluateFromObjectsMs)})`,
  );
  line(
    'evaluate(), Maps',
    evaluateFromMapsMs,
    `(best of 20, ${median(evaluateFromMapsTimes)}; target ≥ 20 M judged hits/s: ${met(evaluateFromMapsMs)})`,
  );
  line(
    'evaluate(), [relevant ids]',
    evaluateFromIdsTimes[0] as number,
    `(best of 20, ${median(evaluateFromIdsTimes)}; binary: the ids of grade ≥ 1, about ${Math.round(asIds.reduce((sum, ids) => sum + ids.length, 0) / QUERY_COUNT)} a query)`,
  );
  const budgetMs = (judgedHits / 20e6) * 1000;
  const share = (ms: number) =>
    `${Math.round((100 * ms) / budgetMs)}% of the ${budgetMs.toFixed(0)} ms the target allows`;
  const part = (label: string, ms: number, how: string) =>
    console.log(`    ${label.padEnd(28)} ${ms.toFixed(1).padStart(8)} ms  (${how}: ${share(ms)})`);
  part('listing the objects only', listObjectsMs, 'Object.keys and a read per id, no evaluation');
  part('iterating the Maps only', listMapsMs, 'keys() and values(), no evaluation');
  line('reference evaluate (objects)', evaluateReferenceMs, '(each field on its own, array scans)');
  const ratio = Math.min(evaluateReferenceMs / evaluateFromObjectsMs, evaluateReferenceMs / evaluateFromMapsMs);
  console.log(
    `  ratio: ${(evaluateReferenceMs / evaluateFromObjectsMs).toFixed(1)}× the reference from objects, ${(evaluateReferenceMs / evaluateFromMapsMs).toFixed(1)}× from Maps (target ≥ 3×: ${ratio >= 3 ? 'met' : 'NOT met'})`,
  );
  if (COMPARE_DIST === undefined)
    console.log(
      `  evaluate() on object hits, k = ${OBJECTS_K}: set BENCH_COMPARE_DIST=<another build's dist> for the same-run ratio (target ≥ ${SPEEDUP_TARGET}×)`,
    );
  else checksum += await benchAgainstBuild(queries, COMPARE_DIST);
  if (Number.isNaN(checksum)) throw new Error('unreachable');
}

/**
 * evaluate() on object hits `{ id, score }` with `{ id: grade }` judgments at k = 100, this build and the
 * build in `otherDist` alternately (in turn first), ROUNDS times: the speed-up is each round's own
 * ratio of their times, its median with an interval.
 */
async function benchAgainstBuild(queries: readonly Query[], otherDist: string): Promise<number> {
  const other = (await import(pathToFileURL(join(otherDist, 'index.js')).href)) as typeof built;
  const objectQueries = queries.map((query) => ({
    hits: query.hits.map((id, index) => ({ id, score: query.hits.length - index })),
    relevant: query.relevant,
  }));
  let checksum = 0;
  // CPU time (this is one thread): on a shared machine far steadier than wall time.
  const timeOf = (evaluate: typeof built.evaluate) => {
    const started = process.cpuUsage();
    for (const query of objectQueries) checksum += evaluate(query.hits, query.relevant, OBJECTS_K).ndcgAtK;
    const used = process.cpuUsage(started);
    return (used.user + used.system) / 1000;
  };
  for (const query of objectQueries.slice(0, 200)) {
    const mine = built.evaluate(query.hits, query.relevant, OBJECTS_K);
    const theirs = other.evaluate(query.hits, query.relevant, OBJECTS_K);
    if (JSON.stringify(mine) !== JSON.stringify(theirs))
      throw new Error('bench: evaluate() of this build and of BENCH_COMPARE_DIST disagree');
  }
  for (let warm = 0; warm < 3; warm++) {
    timeOf(built.evaluate);
    timeOf(other.evaluate);
  }
  const mineMs: number[] = [];
  const theirsMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      mineMs.push(timeOf(built.evaluate));
      theirsMs.push(timeOf(other.evaluate));
    } else {
      theirsMs.push(timeOf(other.evaluate));
      mineMs.push(timeOf(built.evaluate));
    }
  }
  const speedUps = mineMs.map((ms, round) => (theirsMs[round] as number) / ms);
  const rate = (ms: number) => ((QUERY_COUNT * HITS_PER_QUERY) / (ms / 1000) / 1e6).toFixed(1);
  console.log(
    `core: evaluate(hits, relevant, ${OBJECTS_K}), hits { id, score }, judgments { id: grade }, this build and ${otherDist} alternately:`,
  );
  console.log(
    `  median CPU: this build ${median(mineMs).toFixed(1)} ms (${rate(median(mineMs))} M judged hits/s), that build ${median(theirsMs).toFixed(1)} ms (${rate(median(theirsMs))} M/s)`,
  );
  console.log(`  speed-up, that build's time ÷ this build's: ${describeRatios(speedUps, SPEEDUP_TARGET, 'at least')}`);
  return checksum;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchCore();
