import { describeValue } from './describe.js';

export interface JudgeInput {
  question: string;
  answer: string;
  contexts: readonly string[];
}

export interface JudgeResult {
  /** 0 = fails the rubric entirely, 1 = meets it fully. */
  score: number;
  /** The judge's explanation, shown in failure messages. */
  reason: string;
  /** Optional sub-scores, each 0..1, e.g. { faithfulness: 1, relevance: 0.5 }. */
  dimensions?: Record<string, number>;
}

/** A model (or person, or rule set) that grades an answer. Implement it to plug in any provider. */
export interface RagJudge {
  /** Shown in messages and reports, e.g. "openai-compatible:gpt-4o-mini". */
  name: string;
  judge(input: JudgeInput): Promise<JudgeResult>;
}

/** 'too-large': the response body passed options.maxResponseBytes and was not read further. */
export type JudgeErrorKind = 'timeout' | 'http' | 'parse' | 'network' | 'too-large';

export interface JudgeErrorDetails {
  kind: JudgeErrorKind;
  judgeName: string;
  attempts: number;
  /** HTTP status of the last response, for kind 'http' (and 'parse' when a body came back). */
  status?: number;
  /** The model's reply or the response body, as received, for 'parse' and 'http'. */
  reply?: string;
  cause?: unknown;
}

/** A judge call that failed: timed out, got an HTTP error, could not reach the server, or got an unreadable reply. */
export class JudgeError extends Error {
  readonly kind: JudgeErrorKind;
  readonly judgeName: string;
  /** Requests made, retries included. */
  readonly attempts: number;
  readonly status?: number;
  readonly reply?: string;

  constructor(message: string, details: JudgeErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'JudgeError';
    this.kind = details.kind;
    this.judgeName = details.judgeName;
    this.attempts = details.attempts;
    if (details.status !== undefined) this.status = details.status;
    if (details.reply !== undefined) this.reply = details.reply;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isUnitScore(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1;
}

function validateDimensions(dimensions: unknown, judgeName: string): Record<string, number> {
  if (!isRecord(dimensions)) {
    throw new TypeError(
      `judge ${JSON.stringify(judgeName)} returned dimensions ${describeValue(dimensions)}; dimensions must be an object of numbers from 0 to 1, e.g. { "relevance": 0.5 }, or left out.`,
    );
  }
  const checked: Record<string, number> = {};
  for (const [name, value] of Object.entries(dimensions)) {
    if (!isUnitScore(value)) {
      throw new RangeError(
        `judge ${JSON.stringify(judgeName)} returned dimensions.${name} = ${describeValue(value)}; each dimension must be a finite number from 0 to 1 (divide a 0-10 grade by 10).`,
      );
    }
    // defineProperty, not assignment: a dimension named `__proto__` stays a dimension.
    Object.defineProperty(checked, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return checked;
}

/**
 * Checks what a judge returned and gives back a clean copy: `score` a finite number in [0, 1],
 * `reason` a string, `dimensions` (optional) an object of numbers in [0, 1]. Errors name the judge,
 * so a misbehaving custom judge is easy to find.
 */
export function validateJudgeResult(result: unknown, judgeName: string): JudgeResult {
  if (!isRecord(result)) {
    throw new TypeError(
      `judge ${JSON.stringify(judgeName)} returned ${describeValue(result)}; a judge must resolve to an object { score: 0..1, reason: string, dimensions?: {...} }.`,
    );
  }
  if (!isUnitScore(result.score)) {
    const problem = typeof result.score === 'number' ? RangeError : TypeError;
    throw new problem(
      `judge ${JSON.stringify(judgeName)} returned score ${describeValue(result.score)}; score must be a finite number from 0 to 1 (divide a 0-10 grade by 10).`,
    );
  }
  if (typeof result.reason !== 'string') {
    throw new TypeError(
      `judge ${JSON.stringify(judgeName)} returned reason ${describeValue(result.reason)}; reason must be a string explaining the score (it is shown when the check fails).`,
    );
  }
  const checked: JudgeResult = { score: result.score, reason: result.reason };
  if (result.dimensions !== undefined) checked.dimensions = validateDimensions(result.dimensions, judgeName);
  return checked;
}
