// Benchmark of faithfulness() on large passages: 1 MB of passages (ten of 100 kB) against a
// reference measured in the same run, the same text as a thousand passages of 1 kB, the size at which
// Intl.Segmenter is linear. Before passages were segmented in bounded pieces, one 128 kB passage took
// a second and 300 kB minutes; the ratio shows whether long passages still cost more per byte.
// Run: npx tsx bench/generation.ts   (npm run bench runs it after building)
import { pathToFileURL } from 'node:url';

import { built } from './built.js';

const { faithfulness } = built;

const PASSAGE_BYTES = 100_000;
const PASSAGE_COUNT = 10;
const BUDGET_MS = 1000;

const SENTENCES = [
  'Refunds are accepted within 30 days of purchase when the receipt is shown.',
  'Each API key may send 100 requests per minute; extra requests return status 429.',
  'Orders ship from the Rotterdam warehouse on weekdays before noon.',
  'Support answers e-mail within two business days, chat within ten minutes.',
  'Invoices list the VAT number, the order date and every line item.',
];

/** `length` characters of prose: numbered sentences, a paragraph break every eight. */
function prose(length: number, seed: number): string {
  let text = '';
  for (let index = seed; text.length < length; index += 1) {
    text += `${SENTENCES[index % SENTENCES.length]!.replace('.', ` (${index}).`)}${index % 8 === 7 ? '\n\n' : ' '}`;
  }
  return text.slice(0, length);
}

const ANSWER =
  'Refunds are accepted within 30 days of purchase. Each API key may send 100 requests per minute. The moon is made of cheese.';

function time(work: () => unknown): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

function bestOf(runs: number, work: () => unknown): number {
  let best = Infinity;
  for (let run = 0; run < runs; run += 1) best = Math.min(best, time(work));
  return best;
}

export async function benchGeneration(): Promise<void> {
  const large = Array.from({ length: PASSAGE_COUNT }, (_, index) => prose(PASSAGE_BYTES, index * 1000));
  const small = large.flatMap((passage) =>
    Array.from({ length: PASSAGE_BYTES / 1000 }, (_, index) => passage.slice(index * 1000, (index + 1) * 1000)),
  );
  const largeResult = faithfulness(ANSWER, large);
  const smallResult = faithfulness(ANSWER, small);
  if (largeResult.score !== smallResult.score)
    throw new Error(
      `bench: faithfulness disagrees between large (${largeResult.score}) and small (${smallResult.score}) passages`,
    );

  const largeMs = bestOf(3, () => faithfulness(ANSWER, large));
  const smallMs = bestOf(3, () => faithfulness(ANSWER, small));
  const megabytes = (PASSAGE_BYTES * PASSAGE_COUNT) / 1e6;
  console.log(
    `faithfulness: a 3-sentence answer against ${megabytes} MB of passages (score ${largeResult.score.toFixed(3)})`,
  );
  console.log(
    `  ${PASSAGE_COUNT} passages of ${PASSAGE_BYTES / 1000} kB, best of 3   ${largeMs.toFixed(0).padStart(6)} ms  ${largeMs < BUDGET_MS ? 'within' : 'OVER'} the ${BUDGET_MS} ms budget`,
  );
  console.log(`  reference: ${small.length} passages of 1 kB  ${smallMs.toFixed(0).padStart(6)} ms`);
  console.log(
    `  ratio                             ${(largeMs / smallMs).toFixed(2)}× the reference's time (1.00 = linear in the passage length)`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchGeneration();
