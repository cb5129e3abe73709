// Writers of TREC qrels and run files (atomic: temp file + rename).

import { writeFileAtomic } from '../files/atomic-write.js';
import type { Qrels, TrecRun } from './read.js';

export interface FormatRunOptions {
  /** Run tag written in the sixth column. */
  tag?: string;
}

const DEFAULT_RUN_TAG = 'rag-matchers';
const CHAR_SPACE = 32;

/** Formats qrels as `qid 0 docno rel` lines. Throws TypeError/RangeError for ids or grades TREC cannot hold. */
export function formatQrels(qrels: Qrels): string {
  let output = '';
  for (const [queryId, judgments] of qrels) {
    assertTrecColumn('formatQrels', 'query id', queryId, '');
    for (const [docId, grade] of judgments) {
      assertTrecColumn('formatQrels', 'doc id', docId, ` in query '${queryId}'`);
      assertFiniteNumber('formatQrels', 'grade', grade, ` of doc '${docId}' in query '${queryId}'`);
      output += `${queryId} 0 ${docId} ${formatNumber(grade)}\n`;
    }
  }
  return output;
}

/** Formats a run as `qid Q0 docno rank score tag` lines, in stored order with stored ranks. */
export function formatRun(run: TrecRun, options: FormatRunOptions = {}): string {
  const tag = options.tag ?? DEFAULT_RUN_TAG;
  assertTrecColumn('formatRun', 'tag', tag, '');
  let output = '';
  for (const [queryId, entries] of run) {
    assertTrecColumn('formatRun', 'query id', queryId, '');
    for (const { docId, rank, score } of entries) {
      assertTrecColumn('formatRun', 'doc id', docId, ` in query '${queryId}'`);
      assertInteger('formatRun', 'rank', rank, ` of doc '${docId}' in query '${queryId}'`);
      assertFiniteNumber('formatRun', 'score', score, ` of doc '${docId}' in query '${queryId}'`);
      output += `${queryId} Q0 ${docId} ${rank} ${formatNumber(score)} ${tag}\n`;
    }
  }
  return output;
}

/** Writes qrels atomically (temp file + rename). */
export async function writeQrelsFile(path: string, qrels: Qrels): Promise<void> {
  await writeFileAtomic(path, formatQrels(qrels));
}

/** Writes a run atomically (temp file + rename). */
export async function writeRunFile(path: string, run: TrecRun, options: FormatRunOptions = {}): Promise<void> {
  await writeFileAtomic(path, formatRun(run, options));
}

/** Shortest text that parses back to the same double (String() drops the sign of -0). */
function formatNumber(value: number): string {
  return Object.is(value, -0) ? '-0' : String(value);
}

function assertTrecColumn(caller: string, label: string, value: unknown, where: string): void {
  if (typeof value !== 'string') {
    throw new TypeError(`${caller}: ${label} ${String(value)}${where} must be a string; convert it with String()`);
  }
  if (value.length === 0 || containsSeparatorOrControl(value)) {
    throw new RangeError(
      `${caller}: ${label} ${JSON.stringify(value)}${where} is empty or contains whitespace/control characters, ` +
        `which TREC files use as separators; use a non-empty id without spaces (e.g. replace them with '_')`,
    );
  }
}

function containsSeparatorOrControl(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const charCode = value.charCodeAt(index);
    if (charCode <= CHAR_SPACE || charCode === 0x7f) return true;
  }
  return false;
}

function assertFiniteNumber(caller: string, label: string, value: unknown, where: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new RangeError(`${caller}: ${label} ${String(value)}${where} is not a finite number; give a finite number`);
  }
}

function assertInteger(caller: string, label: string, value: unknown, where: string): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new RangeError(`${caller}: ${label} ${String(value)}${where} is not an integer; give an integer rank`);
  }
}
