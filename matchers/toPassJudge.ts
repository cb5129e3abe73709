import { printExpected, printWithType } from './support/jest-utils.js';
import { describeValue } from '../src/core/describe.js';
import { contextTexts, type FaithfulnessContexts } from '../src/generation/faithfulness.js';
import { JudgeError, validateJudgeResult, type JudgeResult, type RagJudge } from '../src/generation/index.js';
import { formatNumber, plural } from '../src/core/present.js';
import { answerCall, checkAnswer, quote, recordScore } from './support/answer.js';
import { utilsOf, type MatcherContext, type MatcherResult } from './support/context.js';
import { hintOf, type MatcherCall } from './support/hint.js';
import { checkOptions, checkQueryId, checkTags } from './support/options.js';
import { checkThreshold, describeRequirement } from './support/threshold.js';
import { argumentError, usageError, withUsageErrors } from './support/usage-error.js';

const NAME = 'toPassJudge';
const ARGS = 'judge, options';

export interface PassJudgeOptions {
  /** The question the answer replies to; the judge grades against it. */
  question: string;
  /** The passages the answer was generated from: strings or hits with content/pageContent/text. Default none. */
  contexts?: FaithfulnessContexts;
  /** Least judge score (0..1) that passes. Required: a judge's scale has no natural default. */
  min: number;
  /** Groups the recorded sample under this question in reports and baselines. */
  queryId?: string;
  /** The question's tags (`['billing']`): reports give per-tag rows across suites. */
  tags?: readonly string[];
}

function checkJudge(call: MatcherCall, judge: unknown): RagJudge {
  const candidate = judge as Partial<RagJudge> | null;
  if (
    candidate === null ||
    typeof candidate !== 'object' ||
    typeof candidate.judge !== 'function' ||
    typeof candidate.name !== 'string' ||
    candidate.name.trim() === ''
  ) {
    throw usageError(
      call,
      `${printExpected('judge')} must be a RagJudge: { name: string, judge(input) => Promise<{ score, reason }> }, e.g. openAiCompatibleJudge({ … })`,
      printWithType('judge', judge, (value) => describeValue(value)),
    );
  }
  return candidate as RagJudge;
}

function checkQuestion(call: MatcherCall, question: unknown): string {
  if (typeof question !== 'string' || question.trim() === '') {
    const requirement = 'must be the question text the answer replies to';
    throw argumentError(call, 'options.question', requirement, question, 'question');
  }
  return question;
}

/** The passages as strings; left out or [] means none were retrieved (the judge is told so). */
function readContexts(call: MatcherCall, contexts: unknown): string[] {
  if (contexts === undefined || (Array.isArray(contexts) && contexts.length === 0)) return [];
  return withUsageErrors(call, () => contextTexts(contexts));
}

function judgeFailure(call: MatcherCall, judgeName: string, error: unknown): Error {
  const hint = hintOf(call);
  if (error instanceof JudgeError) {
    return new Error(
      `${hint}\n\nJudge ${JSON.stringify(error.judgeName)} failed (${error.kind}) after ${plural(error.attempts, 'attempt')}:\n${error.message}`,
      { cause: error },
    );
  }
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new Error(`${hint}\n\nJudge ${JSON.stringify(judgeName)} did not return a usable grade:\n${text}`, {
    cause: error,
  });
}

function dimensionsLine(dimensions: JudgeResult['dimensions']): string {
  if (dimensions === undefined || Object.keys(dimensions).length === 0) return '';
  return `Dimensions: ${Object.entries(dimensions)
    .map(([name, value]) => `${name} ${formatNumber(value)}`)
    .join(', ')}`;
}

/** What the promise exposes when read as a synchronous result, i.e. in asymmetric form. */
function refuseAsymmetricUse(call: MatcherCall, promise: Promise<MatcherResult>): void {
  Object.defineProperty(promise, 'pass', {
    get() {
      promise.catch(() => undefined);
      throw usageError(
        call,
        'toPassJudge is asynchronous and cannot be used in asymmetric form (expect.toPassJudge(…) inside toEqual)',
        'Assert on the answer itself: await expect(answer).toPassJudge(judge, { question, contexts, min }).',
      );
    },
  });
}

/**
 * Passes when the judge's score for the answer is at least `options.min`. Asynchronous: `await` it.
 * A judge that fails (JudgeError: timeout, HTTP, network, unreadable reply) or returns an invalid
 * grade fails the assertion with and without `.not`.
 */
export function toPassJudge(
  this: MatcherContext,
  received: unknown,
  judge: RagJudge,
  options: PassJudgeOptions,
): Promise<MatcherResult> {
  // Arguments are checked before anything is awaited, so a misuse throws even without `await`.
  const call = answerCall(this, NAME, ARGS);
  const answer = checkAnswer(call, received);
  const checkedJudge = checkJudge(call, judge);
  const checked = checkOptions<Partial<PassJudgeOptions>>(call, options ?? null);
  const question = checkQuestion(call, checked.question);
  const min = checkThreshold(call, checked.min, 'options.min');
  const queryId = checkQueryId(call, checked.queryId);
  const tags = checkTags(call, checked.tags);
  const contexts = readContexts(call, checked.contexts);
  const judgeName = checkedJudge.name;

  const run = async (): Promise<MatcherResult> => {
    let grade: JudgeResult;
    try {
      grade = validateJudgeResult(await checkedJudge.judge({ question, answer, contexts }), judgeName);
    } catch (error) {
      throw judgeFailure(call, judgeName, error);
    }
    const measure = `judge:${judgeName}`;
    const pass = recordScore(this, measure, grade.score, min, queryId, tags);
    const message = () => {
      const utils = utilsOf(this);
      const negated = this.isNot === true;
      const requirement = describeRequirement(min, negated);
      return [
        hintOf(call),
        `${measure} = ${utils.RECEIVED_COLOR(formatNumber(grade.score))}, ${utils.EXPECTED_COLOR(requirement)}` +
          (queryId === undefined ? '' : `  (query ${queryId})`),
        [`Reason: ${grade.reason.trim() === '' ? '(none given)' : grade.reason}`, dimensionsLine(grade.dimensions)]
          .filter((line) => line !== '')
          .join('\n'),
        utils.DIM_COLOR(`Question: ${quote(question)}\nAnswer: ${quote(answer)}\nPassages: ${contexts.length}`),
      ].join('\n\n');
    };
    return { pass, message };
  };
  const promise = run();
  refuseAsymmetricUse(call, promise);
  return promise;
}
