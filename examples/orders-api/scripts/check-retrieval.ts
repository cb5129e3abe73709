// Sanity check of the example's retriever against its labelled questions.
// Usage: npx tsx examples/orders-api/scripts/check-retrieval.ts [--verbose]
//
// Document-level scoring with a few lines of arithmetic, only to see that the data and the two configs
// behave as intended; the official numbers come from rag-matchers itself. A chunk keeps its rank slot;
// a later chunk of a document already seen gains nothing (the first chunk of a document counts).
import { chunkSections } from '../src/chunk.js';
import { loadCorpus } from '../src/corpus.js';
import { loadQuestions, type Question } from '../src/questions.js';
import { baselineConfig, createRetriever, degradedConfig, type RetrieverConfig } from '../src/retriever.js';

const verbose = process.argv.includes('--verbose');

/** Grades gained at each rank (1-based position = index + 1), documents collapsed. */
function gainsByRank(documentIds: string[], relevant: Record<string, number>): number[] {
  const seen = new Set<string>();
  return documentIds.map((doc) => {
    if (seen.has(doc)) return 0;
    seen.add(doc);
    return relevant[doc] ?? 0;
  });
}

function recallAt(gains: number[], relevant: Record<string, number>, k: number): number {
  const r = Object.values(relevant).filter((g) => g > 0).length;
  return r === 0 ? 0 : gains.slice(0, k).filter((g) => g > 0).length / r;
}

function ndcgAt(gains: number[], relevant: Record<string, number>, k: number): number {
  const dcg = (gs: number[]) => gs.slice(0, k).reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
  const ideal = dcg(
    Object.values(relevant)
      .filter((g) => g > 0)
      .sort((a, b) => b - a),
  );
  return ideal === 0 ? 0 : dcg(gains) / ideal;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

const sections = loadCorpus();
const chunks = chunkSections(sections);
const questions = loadQuestions();
const known = new Set(sections.map((s) => s.id));
for (const q of questions) {
  for (const id of Object.keys(q.relevant)) {
    if (!known.has(id)) throw new Error(`${q.id}: unknown section id "${id}"`);
  }
}
const answerable = questions.filter((q) => Object.keys(q.relevant).length > 0);
const kinds = [...new Set(questions.map((q) => q.kind))];

const countByKind = (qs: Question[]) =>
  kinds.map((kind) => `${qs.filter((q) => q.kind === kind).length} ${kind}`).join(', ');
console.log(
  `${sections.length} sections in ${new Set(sections.map((s) => s.file)).size} files, ${chunks.length} chunks`,
);
console.log(
  `${questions.length} questions (${countByKind(questions)}); scoring the ${answerable.length} answerable ones\n`,
);

async function score(name: string, config: RetrieverConfig) {
  const retriever = createRetriever(chunks, config);
  const rows: { q: Question; recall5: number; ndcg10: number; top: string[] }[] = [];
  for (const q of answerable) {
    const hits = await retriever.retrieve(q.query, 10);
    const gains = gainsByRank(
      hits.map((h) => h.documentId),
      q.relevant,
    );
    rows.push({
      q,
      recall5: recallAt(gains, q.relevant, 5),
      ndcg10: ndcgAt(gains, q.relevant, 10),
      top: hits.slice(0, 5).map((h) => h.id),
    });
  }
  const byKind = kinds
    .filter((kind) => kind !== 'no-answer')
    .map((kind) => {
      const rs = rows.filter((r) => r.q.kind === kind);
      return `${kind} ${mean(rs.map((r) => r.recall5)).toFixed(3)}`;
    });
  console.log(
    `${name.padEnd(9)} recall@5 ${mean(rows.map((r) => r.recall5)).toFixed(3)}  ` +
      `nDCG@10 ${mean(rows.map((r) => r.ndcg10)).toFixed(3)}   (recall@5 by kind: ${byKind.join(', ')})`,
  );
  if (verbose) {
    for (const r of rows.filter((row) => row.recall5 < 1)) {
      console.log(
        `  ${r.q.id} r@5=${r.recall5.toFixed(2)} "${r.q.query}" wants ${JSON.stringify(r.q.relevant)}\n      got ${r.top.join(', ')}`,
      );
    }
  }
  return rows;
}

const baseline = await score('baseline', baselineConfig);
const degraded = await score('degraded', degradedConfig);
const diff = baseline.map((b, i) => (degraded[i]?.recall5 ?? 0) - b.recall5);
console.log(
  `\ndegraded vs baseline on recall@5: ${diff.filter((d) => d > 0).length} better, ` +
    `${diff.filter((d) => d < 0).length} worse, ${diff.filter((d) => d === 0).length} tied`,
);
