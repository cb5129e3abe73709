// What schema 5's question rankings cost the baseline file: 4,000 questions × 4 measures, each question
// keeping 10 ranked keys of 30 bytes and a 60-character text. Prints the file's size and its parse time
// (median of 15 parses) with and without the rankings. Run: npx tsx bench/baseline-rankings.ts
import { parseBaseline } from '../src/baseline/file/read.js';
import { createRecord, type BaselineFile, type QuestionRanking } from '../src/baseline/file/types.js';
import { formatBaseline } from '../src/baseline/file/write.js';
import { suiteKeyOf } from '../src/recording/collected.js';

const QUESTIONS = 4000;
const MEASURES = ['hit@10', 'mrr@10', 'ndcg@10', 'recall@10'];
const KEYS = 10;

function baseline(withRankings: boolean, withAudits: boolean): BaselineFile {
  const key = suiteKeyOf({ file: 'test/retrieval.test.ts', describe: ['support questions'] });
  const suite = createRecord<Record<string, number>>();
  for (const measure of MEASURES) {
    const samples = createRecord<number>();
    for (let index = 0; index < QUESTIONS; index++)
      samples[`q${String(index).padStart(4, '0')}`] = ((index * 7919) % 1000) / 999;
    suite[measure] = samples;
  }
  const file: BaselineFile = { schemaVersion: 5, generatedBy: 'rag-matchers', suites: { [key]: suite } };
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

function medianParseMs(text: string): number {
  const times: number[] = [];
  for (let round = 0; round < 15; round++) {
    const start = process.hrtime.bigint();
    parseBaseline(text, 'rag-baseline.json');
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b)[7]!;
}

for (const withAudits of [false, true]) {
  const rowsOnly = formatBaseline(baseline(false, withAudits));
  const withRankings = formatBaseline(baseline(true, withAudits));
  const [bytesBefore, bytesAfter] = [Buffer.byteLength(rowsOnly), Buffer.byteLength(withRankings)];
  const [parseBefore, parseAfter] = [medianParseMs(rowsOnly), medianParseMs(withRankings)];
  console.log(
    `${QUESTIONS} questions × ${MEASURES.length} measures × ${KEYS} keys of 30 bytes, 60-character texts, ${withAudits ? 'with' : 'without'} judgments cells`,
  );
  console.log(`  size:  ${bytesBefore} → ${bytesAfter} bytes (× ${(bytesAfter / bytesBefore).toFixed(2)})`);
  console.log(
    `  parse: ${parseBefore.toFixed(1)} → ${parseAfter.toFixed(1)} ms, median of 15 (× ${(parseAfter / parseBefore).toFixed(2)})`,
  );
}
