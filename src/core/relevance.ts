import { describeValue } from './describe.js';
import { documentKeyOf, isPlainKey } from './keys.js';
import type { EvaluateOptions, Relevance } from './types.js';

/** The annotations of one query, normalised once and reusable across cutoffs. */
export interface Judgments {
  /** Every judged id with its grade (grades ≤ 0 are judged non-relevant). */
  grades: Map<string, number>;
  /** Grade at or above which an id is relevant for the binary measures. */
  minGrade: number;
  /** Ids with grade ≥ minGrade, in annotation order. */
  relevantIds: string[];
  /** nDCG gains of the ideal ranking, highest first (positive gains only). */
  idealGains: ArrayLike<number>;
  gain: 'linear' | 'exponential';
  applyMinGradeToNdcg: boolean;
}

export type JudgmentOptions = Pick<
  EvaluateOptions,
  'minGrade' | 'gain' | 'applyMinGradeToNdcg' | 'granularity' | 'documentKey' | 'normalize'
>;

function idOf(raw: unknown, where: () => string): string | undefined {
  // Fast path: an id that starts with a visible character is neither blank nor in need of checks.
  if (typeof raw === 'string' && raw.length > 0 && raw.charCodeAt(0) > 32) return raw;
  if (raw === null || raw === undefined) return undefined;
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  if (typeof raw !== 'string') {
    throw new TypeError(
      `${where()} must be a string id, received ${describeValue(raw)}. Use the ids your hits' keys produce.`,
    );
  }
  return raw.trim() === '' ? undefined : raw;
}

function gradeOf(raw: unknown, where: string): number {
  if (typeof raw === 'number' && raw - raw === 0) return raw; // finite
  if (typeof raw !== 'number') {
    throw new TypeError(
      `${where} must be a number grade, received ${describeValue(raw)}. Use 1 for relevant, higher for more relevant, 0 for judged non-relevant.`,
    );
  }
  if (!Number.isFinite(raw)) {
    throw new RangeError(`${where} must be a finite grade, received ${raw}. Use a finite number such as 0, 1 or 2.`);
  }
  return raw;
}

/** Reads any accepted annotation shape into id → grade pairs, dropping null and blank ids (AI4J). */
function setBinary(grades: Map<string, number>, raw: unknown, where: () => string): void {
  const id = idOf(raw, where);
  if (id !== undefined) grades.set(id, 1);
}

function readGrades(relevant: Relevance): Map<string, number> {
  // A clean Map (parsed qrels are) is used as it is; everything else is copied into a new one.
  if (relevant instanceof Map && isCleanGradeMap(relevant)) return relevant as Map<string, number>;
  const grades = new Map<string, number>();
  if (Array.isArray(relevant)) {
    for (let index = 0; index < relevant.length; index++) {
      const raw: unknown = relevant[index];
      if (typeof raw === 'string' && raw.length > 0 && raw.charCodeAt(0) > 32) grades.set(raw, 1);
      else setBinary(grades, raw, () => `relevant[${index}]`);
    }
  } else if (relevant instanceof Set) {
    for (const raw of relevant) setBinary(grades, raw, () => 'an element of the relevant Set');
  } else if (relevant instanceof Map) {
    for (const [rawId, rawGrade] of relevant) {
      const id = idOf(rawId, () => 'a key of the relevant Map');
      const grade =
        typeof rawGrade === 'number' && rawGrade - rawGrade === 0
          ? rawGrade
          : gradeOf(rawGrade, `relevant.get(${describeValue(rawId)})`);
      if (id !== undefined) grades.set(id, grade);
    }
  } else if (
    relevant !== null &&
    typeof relevant === 'object' &&
    Object.getPrototypeOf(relevant) !== null &&
    !isPlainObject(relevant)
  ) {
    throw wrongRelevantType(relevant);
  } else if (relevant !== null && typeof relevant === 'object') {
    const record = relevant as Readonly<Record<string, unknown>>;
    for (const rawId in record) {
      if (!Object.prototype.hasOwnProperty.call(record, rawId)) continue;
      const rawGrade = record[rawId];
      const grade =
        typeof rawGrade === 'number' && rawGrade - rawGrade === 0
          ? rawGrade
          : gradeOf(rawGrade, `relevant[${JSON.stringify(rawId)}]`);
      const id = idOf(rawId, () => 'a key of relevant');
      if (id !== undefined) grades.set(id, grade);
    }
  } else {
    throw wrongRelevantType(relevant);
  }
  return grades;
}

function isCleanGradeMap(relevant: ReadonlyMap<unknown, unknown>): boolean {
  for (const [id, grade] of relevant) {
    if (!isPlainKey(id)) return false;
    if (typeof grade !== 'number' || grade - grade !== 0) return false;
  }
  return true;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function wrongRelevantType(relevant: unknown): TypeError {
  const hint = typeof relevant === 'string' ? ` Wrap a single id in an array: [${JSON.stringify(relevant)}].` : '';
  return new TypeError(
    `relevant must be an array of ids, a Set of ids, a { id: grade } object or a Map of id → grade; received ${describeValue(relevant)}.${hint}`,
  );
}

/** Annotated ids in one Unicode normalisation form; spellings that meet keep the best grade. */
function normalizeIds(
  grades: Map<string, number>,
  form: NonNullable<JudgmentOptions['normalize']>,
): Map<string, number> {
  const normalized = new Map<string, number>();
  for (const [id, grade] of grades) {
    const key = id.normalize(form);
    const previous = normalized.get(key);
    if (previous === undefined || grade > previous) normalized.set(key, grade);
  }
  return normalized;
}

/** Collapses chunk-level annotations to documents; a document keeps its best grade. */
function bestGradePerDocument(grades: Map<string, number>, documentKey: (key: string) => string): Map<string, number> {
  const documents = new Map<string, number>();
  for (const [id, grade] of grades) {
    const documentId = documentKey(id);
    const previous = documents.get(documentId);
    if (previous === undefined || grade > previous) documents.set(documentId, grade);
  }
  return documents;
}

function validateMinGrade(minGrade: unknown): number {
  if (minGrade === undefined) return 1;
  if (typeof minGrade !== 'number' || !Number.isFinite(minGrade) || minGrade <= 0) {
    throw new RangeError(
      `minGrade must be a finite number > 0, received ${describeValue(minGrade)}. Use 1 (default) or the lowest grade that counts as relevant, e.g. 2.`,
    );
  }
  return minGrade;
}

export function gainOf(grade: number, gain: 'linear' | 'exponential'): number {
  return gain === 'exponential' ? 2 ** grade - 1 : grade;
}

/** How grades become relevance and gains: the part of the options every query shares. */
export interface JudgmentSettings {
  minGrade: number;
  gain: 'linear' | 'exponential';
  applyMinGradeToNdcg: boolean;
}

/** Validates the judgment options once (per call, not per annotation). */
const DEFAULT_SETTINGS: JudgmentSettings = Object.freeze({ minGrade: 1, gain: 'linear', applyMinGradeToNdcg: false });

export function readJudgmentSettings(options: JudgmentOptions = {}): JudgmentSettings {
  if (options.minGrade === undefined && options.gain === undefined && options.applyMinGradeToNdcg === undefined)
    return DEFAULT_SETTINGS;
  const minGrade = validateMinGrade(options.minGrade);
  const gain = options.gain ?? 'linear';
  if (gain !== 'linear' && gain !== 'exponential') {
    throw new RangeError(`gain must be 'linear' or 'exponential', received ${describeValue(gain)}.`);
  }
  return { minGrade, gain, applyMinGradeToNdcg: options.applyMinGradeToNdcg ?? false };
}

/**
 * Any accepted annotation shape as a clean id → grade Map (document ids under `granularity: 'document'`).
 * A clean Map (string ids, finite grades) is returned as it is: it is only read, never changed.
 */
export function readJudgedGrades(
  relevant: Relevance,
  options: Pick<JudgmentOptions, 'granularity' | 'documentKey' | 'normalize'> = {},
): Map<string, number> {
  const grades =
    options.normalize === undefined ? readGrades(relevant) : normalizeIds(readGrades(relevant), options.normalize);
  return options.granularity === 'document'
    ? bestGradePerDocument(grades, options.documentKey ?? documentKeyOf)
    : grades;
}

/** Normalises annotations (ids, Set, grade object or Map) for evaluation. */
export function prepareJudgments(relevant: Relevance, options: JudgmentOptions = {}): Judgments {
  const { minGrade, gain, applyMinGradeToNdcg } = readJudgmentSettings(options);
  const grades = readJudgedGrades(relevant, options);

  const relevantIds: string[] = [];
  const positiveGains: number[] = [];
  const ndcgFloor = applyMinGradeToNdcg ? minGrade : Number.MIN_VALUE;
  for (const [id, grade] of grades) {
    if (grade >= minGrade) relevantIds.push(id);
    if (grade >= ndcgFloor) positiveGains.push(gainOf(grade, gain));
  }
  const idealGains = positiveGains.sort((a, b) => b - a);
  return { grades, minGrade, relevantIds, idealGains, gain, applyMinGradeToNdcg };
}
