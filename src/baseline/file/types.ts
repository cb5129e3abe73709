// The baseline file: what each suite × measure measured per question, committed with the code so a pull
// request can be compared with it (paired, question by question).
//
// Format, schema version 3 (docs/baselines-and-ci.md): one JSON object whose "rows" list holds one
// sample per line, each row complete in itself — [file, describe path, question, measure, value], plus the
// project for a named Vitest project — after a fixed column-header row, with the separating comma at the
// start of each row's line:
//
//   {
//     "generatedBy": "rag-matchers",
//     "schemaVersion": 3,
//     "rows": [
//       ["file", "describe", "question", "measure", "value", "project"]
//       ,["test/orders.test.ts", ["orders API", "refunds"], "refund-window", "recall@5", 1]
//       ,["test/orders.test.ts", ["orders API", "refunds"], "refund-window", "recall@5", 0.5, "api"]
//     ]
//   }
//
// Why this layout: git merges line by line, and two changes conflict when they touch the same or adjacent
// lines. Adding a row inserts one line and changes no other (no trailing comma to add to the previous last
// line, no enclosing block to open), so two branches that recorded different questions merge under a plain
// `git merge` unless their rows are neighbours; the merge driver (rag-matchers merge-baseline) does the rest.
// Rows are sorted by suite (file, describe path, project), then question, then measure, in UTF-16
// code-unit order (RFC 8785's order), so a question's measures sit together.
//
// A sample id is the sample's queryId, else its test name; a repeat inside one suite × measure gets ` #2`,
// ` #3`, … (src/baseline/group.ts). Values are written with full precision (JavaScript's shortest
// round-trip form), so an unchanged question compares as exactly equal.
//
// Version 4 (written only when a row has one; else the file is version 3, byte for byte) adds a last,
// optional cell to retrieval rows — what the sample was measured against, SampleAudit — and a seventh
// column name, "judgments", to the header:
//
//       ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 0.5, {"labels": "3f9a0c21", "unjudged": 1}]
//
// Version 3 is read as it is (no audits: it compares as before and gains them on the next update). Versions
// 1 and 2 (rag-matchers before 0.1.0) are refused with the command that records a new file.
//
// Version 5 (written only when a question keeps its ranking; else 4 or 3, byte for byte as before) adds one
// row per question, ahead of its measures' rows: its measure cell is "" and its value cell what explains a
// move, QuestionRanking — the question's text and its top ranked hit keys in the retriever's order, a judged
// key as [key, grade], an unjudged one as its bare key:
//
//       ,["test/orders.test.ts", ["refunds"], "q1", "", {"text": "How long do refunds take?", "top": [["refunds#2", 2], "billing#1"]}]
//
// Why a row of its own rather than a cell on each measure's row: the ranking is the question's, not a
// measure's, so it is written once (a file of 4 measures per question would hold it 4 times otherwise), and
// a ranking that changed while every value held changes one line, which the merge driver takes from the side
// that changed it without touching the value rows (nor their label fingerprints).
//
// Version 6 (written only when a question keeps tags or the calls its retrieval made, or a suite its
// latency; else 5 or older, byte for byte as before) adds optional keys to the ranking cell: the
// question's tags (sorted, each once) and the calls its retrieval made, by kind (its "top" may then be
// empty); and one row per timed suite ahead of its first question, whose question cell is "" and
// measure cell "#latency", holding the suite's latency in milliseconds (nearest-rank; display only, it
// never gates):
//
//       ,["test/orders.test.ts", ["refunds"], "", "#latency", {"timed": 24, "p50": 41.2, "p95": 120.5, "max": 130.1}]
//       ,["test/orders.test.ts", ["refunds"], "q1", "", {"text": "How long do refunds take?", "top": ["billing#1"], "tags": ["billing"], "calls": {"rerank": 1}}]
//
// Tags describe the question; they are not measured, so a changed tag is neither a regression nor a
// difference that makes the file out of date (an update writes the new tags).
//
// Version 7 (written whenever a question keeps its ranking, tags or calls; a file without any stays 6, 4 or
// 3, byte for byte as before) writes a question's ranking row compactly: the question, then a list of its
// text (null when left out) and its top hits, a judged one as [key, grade], an unjudged one as its bare key,
// then, only when the question has tags or calls, an object of them; no spaces. It holds no suite cells: it
// belongs to the question whose rows follow it, in the suite of those rows:
//
//       ,["q1",["How long do refunds take?",["refunds#2",2],"billing#1"],{"tags":["billing"],"calls":{"rerank":1}}]
//       ,["test/orders.test.ts", ["refunds"], "q1", "mrr@10", 0.5, {"labels": "3f9a0c21"}]
//
// Why: the rankings are most of what the file grows by (4,000 questions × 4 measures × 10 keys of 30 bytes
// with 60-character texts: × 2.07 with version 6's rows, × 1.89 now), and of a ranking row the suite's cells,
// the measure cell "" and the object's keys were the part repeated on every row. The row after it names the
// suite, in a diff and in a conflict as in the file. A ranking row that is not followed by its question's row
// (a hand-resolved conflict that removed the question) is dropped when read, as an update drops the ranking
// of a question without values. Versions 3 to 6 are still read, brought to the same BaselineFile.

export const BASELINE_SCHEMA_VERSION = 7;
/** The version a file whose suites keep their latency but whose questions keep no ranking is written in (6). */
export const LATENCY_SCHEMA_VERSION = 6;
/** The last version whose ranking rows carry their suite's cells, a measure cell "" and an object (5 and 6). */
export const OBJECT_RANKINGS_SCHEMA_VERSION = 6;
/** The version a file whose questions keep no ranking is written in (4 with an audit, else 3). */
export const AUDITS_SCHEMA_VERSION = 4;
/** The version a file without judgment audits is written in: the same bytes as before version 4. */
export const ROWS_ONLY_SCHEMA_VERSION = 3;
/** The oldest version read: 1 and 2 came before 0.1.0. */
export const OLDEST_READ_SCHEMA_VERSION = ROWS_ONLY_SCHEMA_VERSION;
export const BASELINE_GENERATED_BY = 'rag-matchers';

/** sampleId → value. */
export type BaselineSamples = Record<string, number>;
/** measure → samples. */
export type BaselineSuite = Record<string, BaselineSamples>;

/**
 * What a sample kept about its judgments (schema version 4, the row's last cell): the fingerprint of the
 * question's judgments as evaluated, and the first few hits in its measure's top k that had no judgment.
 */
export interface SampleAudit {
  /** The judgments' fingerprint (MetricSample.labels). */
  labels?: string;
  /** How many hits in the measure's top k had no judgment; absent when none. */
  unjudged?: number;
}

/** One ranked hit as the baseline keeps it: its key and, when it was judged, its grade. */
export interface RankedHit {
  key: string;
  grade?: number;
}

/** What explains a question's move (schema version 5): its text and its top ranked hits. */
export interface QuestionRanking {
  /** The test's name or the matcher's `query` option; absent when the reporter leaves texts out. */
  text?: string;
  /** The top hits in the retriever's order (empty when the reporter keeps no ranking). */
  top: RankedHit[];
  /** The question's tags (schema version 6), sorted, each once; absent when it has none. */
  tags?: string[];
  /** Schema version 6: the calls its retrieval made, by kind, when it was timed. */
  calls?: Record<string, number>;
}

/** A suite's latency as the baseline keeps it (schema version 6), in milliseconds: for display, never gating. */
export interface BaselineLatency {
  /** Questions timed. */
  timed: number;
  p50: number;
  p95: number;
  max: number;
}

/** The measure cell of a question's ranking row in versions 5 and 6 (version 7's ranking row has none). */
export const RANKING_ROW_MEASURE = '';

/** The measure cell of a suite's latency row (version 6; its question cell is ""): no measure starts with '#'. */
export const LATENCY_ROW_MEASURE = '#latency';

/** sampleId → audit. */
export type BaselineSampleAudits = Record<string, SampleAudit>;

export interface BaselineFile {
  /** BASELINE_SCHEMA_VERSION after a read, whatever version the file had; formatBaseline writes the current one. */
  schemaVersion: number;
  generatedBy: typeof BASELINE_GENERATED_BY;
  /** Suite key (suiteKeyOf: file, describe path, project) → measure → sampleId → value. */
  suites: Record<string, BaselineSuite>;
  /**
   * Suite key → measure → sampleId → what the sample kept about its judgments, for the samples that kept
   * anything (retrieval measures recorded by rag-matchers 0.x with schema version 4). Absent or partial for
   * older files: they gain audits on the next update.
   */
  audits?: Record<string, Record<string, BaselineSampleAudits>>;
  /** Suite key → sampleId → the question's ranking (schema version 5), for the questions that kept one. */
  rankings?: Record<string, Record<string, QuestionRanking>>;
  /** Suite key → the suite's latency (schema version 6), for the suites this run or an earlier one timed. */
  latency?: Record<string, BaselineLatency>;
}

/** An object without a prototype, so ids such as `constructor` or `__proto__` are plain keys. */
export function createRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** `record[key]` when it is the record's own property (so `constructor` on a plain object is not found), else undefined. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** A baseline with no suites. */
export function emptyBaseline(): BaselineFile {
  return { schemaVersion: BASELINE_SCHEMA_VERSION, generatedBy: BASELINE_GENERATED_BY, suites: createRecord() };
}

/** UTF-16 code-unit order (the default of Array.prototype.sort, and RFC 8785's key order), independent of locale. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortedKeys(record: object): string[] {
  return Object.keys(record).sort(compareKeys);
}

/** The first row of "rows": the column names, fixed, so that no sample row is ever the first (see the top). */
export const BASELINE_COLUMNS = ['file', 'describe', 'question', 'measure', 'value', 'project'] as const;
/** Version 4's header: a last, optional cell holds the sample's judgment audit (SampleAudit). */
export const BASELINE_AUDIT_COLUMNS = [...BASELINE_COLUMNS, 'judgments'] as const;
