// What the questions' rankings (schema 7's ranking rows) cost the baseline file: 4,000 questions × 4
// measures, each question keeping 10 ranked keys of 30 bytes and a 60-character text. Prints the file's
// size with and without the rankings (issue 33's bound: at most × 2) and the parse time as a same-run
// ratio: each round parses both files, in turn first, and the figure is the median of the rounds' own
// ratios with its interval (bound: at most × 2, met only when the whole interval is under it).
// Run: npx tsx bench/baseline-rankings.ts (BENCH_ROUNDS sets the rounds, default 21); part of `npm run bench`.
import { fileURLToPath } from 'node:url';
import { parseBaseline } from '../src/baseline/file/read.js';
import { createRecord, type BaselineFile, type QuestionRanking } from '../src/baseline/file/types.js';
import { formatBaseline } from '../src/baseline/file/write.js';
import { suiteKeyOf } from '../src/recording/collected.js';
import { describeRatios, median, medianInterval } from './same-run.js';

const QUESTIONS = 4000;
const MEASURES = ['hit@10', 'mrr@10', 'ndcg@10', 'recall@10'];
const KEYS = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21);

function baseline(withRankings: boolean, withAudits: boolean): BaselineFile {
  const key = suiteKeyOf({ file: 'test/retrieval.test.ts', describe: ['support questions'] });
  const suite = createRecord<Record<string, number>>();
  for (const measure of MEASURES) {
    const samples = createRecord<number>();
    for (let index = 0; index < QUESTIONS; index++)
      samples[`q${String(index).padStart(4, '0')}`] = ((index * 7919) % 1000) / 999;
    suite[measure] = samples;
  }
  const file: BaselineFile = { schemaVersion: 7, generatedBy: 'rag-matchers', suites: { [key]: suite } };
  // What the reporters write on a retrieval row (schema 4): the fingerprint of the question's judgments.
  if (withAudits)
    file.audits = {
      [key]: Object.fromEntries(
        MEASURES.map((measure) => [
          measure,
          Object.fromEntries(Object.keys(suite[measure]!).map((id) => [id, { labels: '5d1c0f9a' }])),
        ]),
      ),
    };
  if (!withRankings) return file;
  const rankings = createRecord<QuestionRanking>();
  for (let index = 0; index < QUESTIONS; index++) {
    const top = Array.from({ length: KEYS }, (_, rank) => {
      const hit = {
        key: `docs/section-${String(index).padStart(5, '0')}-${String(rank).padStart(2, '0')}.md#p1`
          .padEnd(30, 'x')
          .slice(0, 30),
      };
      return rank % 3 === 0 ? { ...hit, grade: rank === 0 ? 2 : 0 } : hit;
    });
    rankings[`q${String(index).padStart(4, '0')}`] = {
      text: `How do I change the billing address on question ${index}?`.padEnd(60, '.').slice(0, 60),
      top,
    };
  }
  file.rankings = { [key]: rankings };
  return file;
}

function parseMs(text: string): number {
  const start = process.hrtime.bigint();
  parseBaseline(text, 'rag-baseline.json');
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Both files parsed in every round, in turn first: each round's ratio (with ÷ without), and the times. */
function sameRunParses(without: string, withRankings: string): { ratios: number[]; before: number[]; after: number[] } {
  for (let warm = 0; warm < 3; warm++) {
    parseMs(without);
    parseMs(withRankings);
  }
  const before: number[] = [];
  const after: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      before.push(parseMs(without));
      after.push(parseMs(withRankings));
    } else {
      after.push(parseMs(withRankings));
      before.push(parseMs(without));
    }
  }
  return { ratios: after.map((ms, round) => ms / before[round]!), before, after };
}

export async function benchBaselineRankings(): Promise<void> {
  for (const withAudits of [true, false]) {
    const rowsOnly = formatBaseline(baseline(false, withAudits));
    const withRankings = formatBaseline(baseline(true, withAudits));
    const [bytesBefore, bytesAfter] = [Buffer.byteLength(rowsOnly), Buffer.byteLength(withRankings)];
    const { ratios, before, after } = sameRunParses(rowsOnly, withRankings);
    console.log(
      `${QUESTIONS} questions × ${MEASURES.length} measures × ${KEYS} keys of 30 bytes, 60-character texts, ${withAudits ? 'with judgments cells (as the reporters write them)' : 'without judgments cells (for scale only: a question the reporters keep a ranking for has its labels on every row)'}`,
    );
    const growth = bytesAfter / bytesBefore;
    // Issue 33's bound is on the file the reporters write; the other case has no target of its own.
    const verdict = withAudits ? `; target ≤ 2: ${growth <= 2 ? 'met' : 'NOT met'}` : '';
    console.log(`  size:  ${bytesBefore} → ${bytesAfter} bytes (× ${growth.toFixed(3)}${verdict})`);
    console.log(`  parse: ${median(before).toFixed(1)} → ${median(after).toFixed(1)} ms, medians of ${ROUNDS} rounds`);
    const parseRatio = withAudits
      ? describeRatios(ratios, 2, 'at most')
      : `${median(ratios).toFixed(3)} [${medianInterval(ratios).low.toFixed(3)}, ${medianInterval(ratios).high.toFixed(3)}]`;
    console.log(`  parse, with ÷ without rankings: ${parseRatio}`);
  }
  await Promise.resolve();
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await benchBaselineRankings();
