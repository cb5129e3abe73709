// MiniSearch rather than Orama: a small, dependency-free, synchronous BM25 engine whose whole index
// lives in memory and builds in milliseconds, which is all a corpus of a few dozen sections needs.
import MiniSearch from 'minisearch';
import { chunkSections, type Chunk } from './chunk.js';
import { loadCorpus } from './corpus.js';

export interface Hit extends Chunk {
  /** BM25 score from MiniSearch; higher is better. Hits come in descending score order. */
  score: number;
}

type Field = 'content' | 'sectionTitle';

export interface RetrieverConfig {
  /** Chunk fields that are indexed and searched. */
  fields: Field[];
  /** Score multiplier per field (default 1). */
  boost: Partial<Record<Field, number>>;
  /**
   * Typo tolerance: below 1, a maximum edit distance as a fraction of the term length (0.2: one edit
   * per 5 letters); from 1, an absolute number of edits for every term; false for exact terms only.
   */
  fuzzy: number | false;
  /** Let the last letters of a query term be missing ("refund" matches "refunds", "refunded"). */
  prefix: boolean;
  /** OR: a chunk matching any query term is a candidate. AND: it must match all of them. */
  combineWith: 'OR' | 'AND';
  /** Number of hits returned when the caller does not ask for a number. */
  k: number;
}

/** The configuration the example ships with: section titles indexed and boosted, prefix and fuzzy matching. */
export const baselineConfig: RetrieverConfig = {
  fields: ['content', 'sectionTitle'],
  boost: { sectionTitle: 2 },
  fuzzy: 0.2,
  prefix: true,
  combineWith: 'OR',
  k: 10,
};

/**
 * A change that sounds like an improvement and is not: "tolerate more typos" by allowing two edits for
 * every query term. Short words then match unrelated ones ("order" ~ "other", "older"; "fee" ~ "free"),
 * and that noise pushes the right sections down. Used to show that the baseline gate catches a regression.
 */
export const degradedConfig: RetrieverConfig = {
  ...baselineConfig,
  fuzzy: 2,
};

// Words that carry no meaning in a question ("how do I ...") but, with prefix matching on, would match
// half the vocabulary ("do" → "documentation", "does", "dotted"); likewise single letters left over
// from "don't" or "year's".
const STOP_WORDS = new Set(
  (
    'a an and are as at be by can could do does did for from has have how i if in is it its me my ' +
    'of on or our should so that the their them then there this to us was we what when where which ' +
    'who why will with would you your'
  ).split(' '),
);

export interface Retriever {
  readonly config: RetrieverConfig;
  /** The `k` best chunks for `query`, best first. */
  retrieve(query: string, k?: number): Promise<Hit[]>;
}

export function createRetriever(chunks: Chunk[], config: RetrieverConfig = baselineConfig): Retriever {
  const index = new MiniSearch<Chunk>({
    fields: config.fields,
    processTerm: (term) => {
      const t = term.toLowerCase();
      return t.length < 2 || STOP_WORDS.has(t) ? null : t;
    },
    searchOptions: {
      boost: config.boost,
      fuzzy: config.fuzzy,
      prefix: config.prefix,
      combineWith: config.combineWith,
    },
  });
  index.addAll(chunks);
  const byId = new Map(chunks.map((c) => [c.id, c]));

  return {
    config,
    async retrieve(query, k = config.k) {
      return index
        .search(query)
        .slice(0, k)
        .map((result) => ({ ...(byId.get(result.id as string) as Chunk), score: result.score }));
    },
  };
}

/** The configurations by name, as `ORDERS_RETRIEVER` names them. */
export const configs = { baseline: baselineConfig, degraded: degradedConfig } as const;

export type ConfigName = keyof typeof configs;

/**
 * The configuration the environment asks for: `ORDERS_RETRIEVER=degraded` selects `degradedConfig`
 * (what `npm run demo:regression` does), unset or `baseline` selects `baselineConfig`. Any other
 * value is an error, so that a typo cannot silently test the baseline.
 */
export function configFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): RetrieverConfig {
  const name = env.ORDERS_RETRIEVER ?? 'baseline';
  if (!Object.hasOwn(configs, name)) {
    throw new Error(
      `ORDERS_RETRIEVER must be ${Object.keys(configs).join(' or ')} (or unset for baseline), found ${JSON.stringify(name)}`,
    );
  }
  return configs[name as ConfigName];
}

let defaultRetriever: Retriever | undefined;

/**
 * Searches the shipped corpus with the default chunking and the configuration `configFromEnv()`
 * selects (the baseline unless `ORDERS_RETRIEVER` says otherwise); the index is built on first use.
 */
export function retrieve(query: string, k?: number): Promise<Hit[]> {
  defaultRetriever ??= createRetriever(chunkSections(loadCorpus()), configFromEnv());
  return defaultRetriever.retrieve(query, k);
}
