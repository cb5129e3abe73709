import { plural } from '../core/present.js';
import { describeValue, truncateForMessage } from './describe.js';
import {
  JudgeError,
  validateJudgeResult,
  type JudgeErrorKind,
  type JudgeInput,
  type JudgeResult,
  type RagJudge,
} from './judge.js';
import { headerSecrets, judgeEndpoint, redactedCause, secretRedactor } from './secrets.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The response of a fetch, as far as the judge reads it. */
interface JudgeFetchResponse {
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  body: {
    cancel(): Promise<void>;
    getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(): Promise<void> };
  } | null;
  text(): Promise<string>;
}

/**
 * The fetch function the judge calls: the global one's type where the project has it (Node's or the
 * DOM's), else the shape the judge uses, so that these declarations need neither @types/node nor DOM.
 */
type JudgeFetch = typeof globalThis extends { fetch: infer GlobalFetch }
  ? GlobalFetch
  : (
      url: string,
      init: { method: string; headers: Record<string, string>; body: string; signal: unknown },
    ) => Promise<JudgeFetchResponse>;

export interface OpenAiCompatibleJudgeOptions {
  /** The API root that `/chat/completions` is appended to, e.g. "https://api.openai.com/v1", "http://localhost:11434/v1" (Ollama), "http://localhost:8080/v1" (llama.cpp). */
  baseUrl: string;
  /** Sent as "Authorization: Bearer …"; local servers usually need none. */
  apiKey?: string;
  model: string;
  /** Default "openai-compatible:<model>". */
  name?: string;
  /** Per request; a request that takes longer is aborted (and retried). Default 30000. */
  timeoutMs?: number;
  /** Retries after the first request, for 429, 5xx, timeouts and network errors. Default 3. */
  maxRetries?: number;
  /** Back-off before retry n is retryBaseDelayMs × 2^(n−1), unless the server sent Retry-After. Default 500. */
  retryBaseDelayMs?: number;
  /** Upper bound on any single wait, Retry-After included. Default 60000. */
  maxRetryDelayMs?: number;
  /** A rubric replacing DEFAULT_JUDGE_RUBRIC (the JSON reply format is still asked for), or a function building every message. */
  prompt?: string | ((input: JudgeInput) => ChatMessage[]);
  /** Send response_format { type: "json_object" }. Default true; turn off for a server that rejects it. */
  jsonMode?: boolean;
  /** Default 0, so repeated runs grade alike. */
  temperature?: number;
  /** Extra request headers (e.g. an organisation or gateway header). Their values are never printed (see `secrets`). */
  headers?: Record<string, string>;
  /** More values never to print, besides the API key, header values and credentials in baseUrl (e.g. a key the prompt function sends). */
  secrets?: readonly string[];
  /** Default: the global fetch. */
  fetch?: JudgeFetch;
  /** A response body larger than this many bytes is not read further and fails the judgement. Default 1048576 (1 MiB). */
  maxResponseBytes?: number;
}

export const DEFAULT_JUDGE_RUBRIC = [
  'You grade answers written by a retrieval-augmented assistant.',
  'Judge the answer only against the question and the retrieved passages, not against your own knowledge.',
  'faithfulness: every claim in the answer is stated in or directly implied by the passages.',
  'relevance: the answer addresses the question that was asked.',
  'completeness: the answer covers what the passages say about the question; when the passages do not contain the answer, saying so is complete and correct.',
  'The overall score is low if any claim is unsupported, whatever the other dimensions.',
].join('\n');

const REPLY_FORMAT =
  'Reply with a single JSON object and nothing else: {"score": <number from 0 to 1>, "reason": "<one or two sentences>", "dimensions": {"faithfulness": <0..1>, "relevance": <0..1>, "completeness": <0..1>}}';

const EXPECTED_REPLY = 'a JSON object {"score": 0..1, "reason": "...", "dimensions": {...}}';

function formatPassages(contexts: readonly string[]): string {
  if (contexts.length === 0) return '(no passages were retrieved)';
  return contexts.map((passage, index) => `[${index + 1}] ${passage}`).join('\n\n');
}

/** The messages sent for one judgement: the rubric and reply format as system message, the case as user message. */
export function buildJudgeMessages(input: JudgeInput, rubric: string = DEFAULT_JUDGE_RUBRIC): ChatMessage[] {
  return [
    { role: 'system', content: `${rubric}\n\n${REPLY_FORMAT}` },
    {
      role: 'user',
      content: `Question:\n${input.question}\n\nRetrieved passages:\n${formatPassages(input.contexts)}\n\nAnswer to grade:\n${input.answer}`,
    },
  ];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function parseRecord(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every balanced {...} of `text` as [start, end) in order of its "{", braces inside strings skipped, up
 * to the first "{" that is never closed. One pass with a stack, so a reply of nested braces costs time
 * linear in its size (rescanning from every "{" cost 27 s on 128 kB).
 */
function balancedBraceSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const open: number[] = [];
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
    } else if (character === '{') {
      open.push(spans.length);
      spans.push([index, -1]);
    } else if (open.length > 0) {
      // Quotes count only inside a brace: prose between objects is not JSON.
      if (character === '"') inString = true;
      else if (character === '}') spans[open.pop()!]![1] = index + 1;
    }
  }
  const firstUnclosed = open.length > 0 ? open[0]! : spans.length;
  return spans.slice(0, firstUnclosed);
}

/**
 * The first balanced {...} of `reply` that parses as an object. Objects nested in one that failed are
 * tried too, within a budget of the reply's length in parsed characters: the objects that are not
 * nested are disjoint, so all parsing together stays linear in the reply.
 */
function firstEmbeddedObject(reply: string): Record<string, unknown> | undefined {
  let nestedBudget = reply.length;
  let failedEnd = -1;
  for (const [start, end] of balancedBraceSpans(reply)) {
    const nested = start < failedEnd;
    if (nested) {
      nestedBudget -= end - start;
      if (nestedBudget < 0) continue;
    }
    const embedded = parseRecord(reply.slice(start, end));
    if (embedded) return embedded;
    if (!nested) failedEnd = end;
  }
  return undefined;
}

/**
 * The first JSON object in a model reply: the whole reply, else the body of a ``` fence, else the
 * first balanced {...} in surrounding prose that parses. Undefined when there is none.
 */
export function extractJsonObject(reply: string): Record<string, unknown> | undefined {
  const whole = parseRecord(reply.trim());
  if (whole) return whole;
  for (const fence of reply.matchAll(/```[\w-]*[ \t]*\r?\n?([\s\S]*?)```/g)) {
    const fenced = parseRecord((fence[1] ?? '').trim());
    if (fenced) return fenced;
  }
  return firstEmbeddedObject(reply);
}

/** "0.8", "1", ".5", " 0.75 ": digits with at most one decimal point; not "0x1", "1e0", "+1" or "Infinity". */
const PLAIN_DECIMAL = /^\s*(?:\d+(?:\.\d*)?|\.\d+)\s*$/;

/** Models often send "0.8" for 0.8, a missing reason, or dimensions: null; accept those, nothing looser. */
function normalizeReplyObject(object: Record<string, unknown>): Record<string, unknown> {
  const normalized: Record<string, unknown> = { ...object };
  if (typeof object.score === 'string' && PLAIN_DECIMAL.test(object.score)) {
    normalized.score = Number(object.score);
  }
  if (object.reason === undefined || object.reason === null) normalized.reason = '';
  if (object.dimensions === null) delete normalized.dimensions;
  return normalized;
}

interface ResolvedOptions {
  name: string;
  /** Where requests go. */
  url: string;
  /** The URL as messages show it, secret query values replaced. */
  displayUrl: string;
  /** Basic credentials from a user:pass@ URL, sent in the authorization header (fetch refuses URLs with credentials). */
  basicCredentials: string | undefined;
  /** Replaces the API key and every other credential in a text that is about to be shown. */
  redact: (text: string) => string;
  maxResponseBytes: number;
  model: string;
  apiKey: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  retryBaseDelayMs: number;
  maxRetryDelayMs: number;
  buildMessages: (input: JudgeInput) => ChatMessage[];
  jsonMode: boolean;
  temperature: number;
  headers: Record<string, string>;
  fetch: typeof fetch;
}

function requireNonNegative(value: unknown, name: string, example: string, integer = false): void {
  const valid =
    typeof value === 'number' && Number.isFinite(value) && value >= 0 && (!integer || Number.isInteger(value));
  if (!valid) {
    throw new RangeError(
      `${name} must be ${integer ? 'a whole number' : 'a finite number'} ≥ 0, got ${describeValue(value)}; for example ${example}.`,
    );
  }
}

function resolveBaseUrl(baseUrl: unknown): ReturnType<typeof judgeEndpoint> {
  let parsed: URL | undefined;
  if (typeof baseUrl === 'string') {
    try {
      parsed = new URL(baseUrl);
    } catch {
      parsed = undefined;
    }
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    // Not echoed whole: a mistyped URL can still hold a key.
    const shown =
      typeof baseUrl === 'string'
        ? describeValue(baseUrl.replace(/^([^/?#]*\/\/)?[^/?#]*@/, '$1[redacted]@').replace(/[?#].*$/s, '?[redacted]'))
        : describeValue(baseUrl);
    throw new TypeError(
      `options.baseUrl must be an http(s) URL of the API root, got ${shown}; for example "https://api.openai.com/v1" or "http://localhost:11434/v1".`,
    );
  }
  return judgeEndpoint(parsed.href);
}

function resolvePrompt(prompt: unknown): (input: JudgeInput) => ChatMessage[] {
  if (prompt === undefined) return (input) => buildJudgeMessages(input);
  if (typeof prompt === 'string' && prompt.trim() !== '') return (input) => buildJudgeMessages(input, prompt);
  if (typeof prompt === 'function') return prompt as (input: JudgeInput) => ChatMessage[];
  throw new TypeError(
    `options.prompt must be a rubric string or a function (input) => messages, got ${describeValue(prompt)}; leave it out for DEFAULT_JUDGE_RUBRIC.`,
  );
}

function resolveOptions(options: OpenAiCompatibleJudgeOptions): ResolvedOptions {
  if (!isRecord(options)) {
    throw new TypeError(
      `options must be an object, got ${describeValue(options)}; for example { baseUrl: "http://localhost:11434/v1", model: "qwen2.5:7b" }.`,
    );
  }
  const endpoint = resolveBaseUrl(options.baseUrl);
  if (typeof options.model !== 'string' || options.model.trim() === '') {
    throw new TypeError(
      `options.model must be the model name the server knows, got ${describeValue(options.model)}; for example "gpt-4o-mini" or "qwen2.5:7b".`,
    );
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxRetries = options.maxRetries ?? 3;
  const retryBaseDelayMs = options.retryBaseDelayMs ?? 500;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
  requireNonNegative(timeoutMs, 'options.timeoutMs', '30000');
  if (timeoutMs === 0) throw new RangeError('options.timeoutMs must be > 0, got 0; for example 30000 (30 seconds).');
  requireNonNegative(maxRetries, 'options.maxRetries', '3', true);
  requireNonNegative(retryBaseDelayMs, 'options.retryBaseDelayMs', '500');
  requireNonNegative(maxRetryDelayMs, 'options.maxRetryDelayMs', '60000');
  const fetchImplementation = options.fetch ?? globalThis.fetch;
  if (typeof fetchImplementation !== 'function') {
    throw new TypeError(
      `options.fetch must be a fetch function, got ${describeValue(options.fetch)}; leave it out to use the global fetch.`,
    );
  }
  if (options.apiKey !== undefined && typeof options.apiKey !== 'string') {
    // The value itself is not echoed: it may be a secret.
    throw new TypeError(
      `options.apiKey must be a string, got a ${typeof options.apiKey}; leave it out for servers without authentication.`,
    );
  }
  const temperature = options.temperature ?? 0;
  requireNonNegative(temperature, 'options.temperature', '0');
  const maxResponseBytes = options.maxResponseBytes ?? 1_048_576;
  requireNonNegative(maxResponseBytes, 'options.maxResponseBytes', '1048576', true);
  const headers = options.headers ?? {};
  if (!isRecord(headers))
    throw new TypeError(`options.headers must be an object of header strings, got ${describeValue(headers)}.`);
  const secrets = options.secrets ?? [];
  if (!Array.isArray(secrets) || !secrets.every((secret) => typeof secret === 'string')) {
    // The values themselves are not echoed: they are secrets.
    throw new TypeError('options.secrets must be an array of strings (values never to print), or left out.');
  }
  return {
    name: options.name ?? `openai-compatible:${options.model}`,
    url: endpoint.url,
    displayUrl: endpoint.displayUrl,
    basicCredentials: endpoint.basicCredentials,
    redact: secretRedactor([
      options.apiKey,
      ...endpoint.secrets,
      ...headerSecrets(headers as Record<string, string>),
      ...secrets,
    ]),
    maxResponseBytes,
    model: options.model,
    apiKey: options.apiKey,
    timeoutMs,
    maxRetries,
    retryBaseDelayMs,
    maxRetryDelayMs,
    buildMessages: resolvePrompt(options.prompt),
    jsonMode: options.jsonMode ?? true,
    temperature,
    headers: headers as Record<string, string>,
    fetch: fetchImplementation,
  };
}

function requireJudgeInput(input: unknown, judgeName: string): JudgeInput {
  const where = `judge ${JSON.stringify(judgeName)}: input`;
  if (!isRecord(input)) {
    throw new TypeError(`${where} must be an object { question, answer, contexts }, got ${describeValue(input)}.`);
  }
  for (const field of ['question', 'answer'] as const) {
    if (typeof input[field] !== 'string') {
      throw new TypeError(
        `${where}.${field} must be a string, got ${describeValue(input[field])}; pass the ${field} text.`,
      );
    }
  }
  const contexts = input.contexts;
  if (!Array.isArray(contexts) || contexts.some((passage) => typeof passage !== 'string')) {
    throw new TypeError(
      `${where}.contexts must be an array of passage strings (possibly empty), got ${describeValue(contexts)}; map hit objects to their text first.`,
    );
  }
  return input as unknown as JudgeInput;
}

/** Milliseconds a Retry-After header asks for (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

type AttemptOutcome =
  | { type: 'response'; status: number; statusText: string; body: string; retryAfter: number | undefined }
  | { type: 'failure'; kind: Extract<JudgeErrorKind, 'timeout' | 'network'>; cause: unknown }
  | { type: 'too-large'; status: number; limit: number };

/** Thrown inside attemptRequest when a body passes the limit. */
class BodyTooLarge extends Error {}

/** The body as text, reading at most `limit` bytes; past that the stream is cancelled and BodyTooLarge thrown. */
async function readBodyWithin(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLarge();
  }
  if (response.body === null || typeof response.body?.getReader !== 'function') {
    const text = await response.text();
    if (Buffer.byteLength(text, 'utf8') > limit) throw new BodyTooLarge();
    return text;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function attemptRequest(options: ResolvedOptions, body: string): Promise<AttemptOutcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const response = await options.fetch(options.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(options.basicCredentials !== undefined
          ? { authorization: `Basic ${Buffer.from(options.basicCredentials, 'utf8').toString('base64')}` }
          : {}),
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        ...options.headers,
      },
      body,
      signal: controller.signal,
    });
    let text: string;
    try {
      text = await readBodyWithin(response, options.maxResponseBytes);
    } catch (error) {
      if (error instanceof BodyTooLarge)
        return { type: 'too-large', status: response.status, limit: options.maxResponseBytes };
      throw error;
    }
    return {
      type: 'response',
      status: response.status,
      statusText: response.statusText,
      body: text,
      retryAfter: retryAfterMs(response.headers.get('retry-after')),
    };
  } catch (cause) {
    return { type: 'failure', kind: controller.signal.aborted ? 'timeout' : 'network', cause };
  } finally {
    clearTimeout(timer);
  }
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

function httpHint(status: number, body: string, options: ResolvedOptions): string {
  if (status === 401 || status === 403) return ' Check options.apiKey.';
  if (status === 404) {
    return ` Check options.baseUrl (it usually ends in /v1, e.g. http://localhost:11434/v1 for Ollama) and that model ${JSON.stringify(options.model)} exists on the server.`;
  }
  if (status === 400 && /response_format|json_object/i.test(body))
    return ' The server may not support JSON mode: set jsonMode: false.';
  if (status === 429)
    return ' The server kept rate-limiting; raise maxRetries or retryBaseDelayMs, or run fewer judgements at once.';
  return '';
}

function httpError(
  outcome: Extract<AttemptOutcome, { type: 'response' }>,
  attempts: number,
  options: ResolvedOptions,
): JudgeError {
  const status = `${outcome.status}${outcome.statusText ? ` ${outcome.statusText}` : ''}`;
  const body = options.redact(outcome.body);
  return new JudgeError(
    options.redact(
      `judge ${JSON.stringify(options.name)}: POST ${options.displayUrl} answered HTTP ${status} after ${plural(attempts, 'attempt')}: ${truncateForMessage(body)}.${httpHint(outcome.status, body, options)}`,
    ),
    { kind: 'http', judgeName: options.name, attempts, status: outcome.status, reply: body },
  );
}

function tooLargeError(
  outcome: Extract<AttemptOutcome, { type: 'too-large' }>,
  attempts: number,
  options: ResolvedOptions,
): JudgeError {
  return new JudgeError(
    options.redact(
      `judge ${JSON.stringify(options.name)}: POST ${options.displayUrl} answered HTTP ${outcome.status} with a body larger than ${outcome.limit} bytes; stopped reading it. A chat completion is far smaller: check options.baseUrl, or raise options.maxResponseBytes.`,
    ),
    { kind: 'too-large', judgeName: options.name, attempts, status: outcome.status },
  );
}

function failureError(
  outcome: Extract<AttemptOutcome, { type: 'failure' }>,
  attempts: number,
  options: ResolvedOptions,
): JudgeError {
  const message =
    outcome.kind === 'timeout'
      ? `judge ${JSON.stringify(options.name)}: POST ${options.displayUrl} gave no complete response within ${options.timeoutMs} ms, ${plural(attempts, 'attempt')}; raise timeoutMs (local models can be slow) or check the server.`
      : `judge ${JSON.stringify(options.name)}: could not reach ${options.displayUrl} (${outcome.cause instanceof Error ? (outcome.cause.cause instanceof Error ? outcome.cause.cause.message : outcome.cause.message) : String(outcome.cause)}), ${plural(attempts, 'attempt')}; is the server running at that address?`;
  return new JudgeError(options.redact(message), {
    kind: outcome.kind,
    judgeName: options.name,
    attempts,
    cause: redactedCause(outcome.cause, options.redact),
  });
}

function parseError(
  problem: string,
  reply: string,
  status: number,
  attempts: number,
  options: ResolvedOptions,
  cause?: unknown,
): JudgeError {
  const shownReply = options.redact(reply);
  return new JudgeError(
    options.redact(
      `judge ${JSON.stringify(options.name)}: ${problem}; the reply was: ${JSON.stringify(truncateForMessage(shownReply))}`,
    ),
    {
      kind: 'parse',
      judgeName: options.name,
      attempts,
      status,
      reply: shownReply,
      cause: redactedCause(cause, options.redact),
    },
  );
}

/** The message content of a chat-completions body. */
function replyContent(body: string, status: number, attempts: number, options: ResolvedOptions): string {
  const parsed = parseRecord(body);
  const choices = parsed?.choices;
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  const message = isRecord(first) ? first.message : undefined;
  const content = isRecord(message) ? message.content : undefined;
  if (typeof content !== 'string') {
    throw parseError(
      'expected a chat-completions body {"choices": [{"message": {"content": "..."}}]} with text content',
      body,
      status,
      attempts,
      options,
    );
  }
  return content;
}

function judgementFrom(content: string, status: number, attempts: number, options: ResolvedOptions): JudgeResult {
  const object = extractJsonObject(content);
  if (!object)
    throw parseError(
      `expected the model to reply with ${EXPECTED_REPLY}, found no JSON object`,
      content,
      status,
      attempts,
      options,
    );
  try {
    return redactedResult(validateJudgeResult(normalizeReplyObject(object), options.name), options.redact);
  } catch (cause) {
    const problem = cause instanceof Error ? cause.message : String(cause);
    throw parseError(`expected ${EXPECTED_REPLY}, but ${problem}`, content, status, attempts, options, cause);
  }
}

/** The grade with every secret the model quoted replaced, in its reason and in the names of its dimensions. */
function redactedResult(result: JudgeResult, redact: (text: string) => string): JudgeResult {
  const redacted: JudgeResult = { ...result, reason: redact(result.reason) };
  if (result.dimensions !== undefined) {
    redacted.dimensions = Object.fromEntries(
      Object.entries(result.dimensions).map(([name, value]) => [redact(name), value]),
    );
  }
  return redacted;
}

function backoffMs(retry: number, retryAfter: number | undefined, options: ResolvedOptions): number {
  const wanted = retryAfter ?? options.retryBaseDelayMs * 2 ** (retry - 1);
  return Math.min(wanted, options.maxRetryDelayMs);
}

/**
 * A judge that asks any server speaking the OpenAI chat-completions protocol (OpenAI, Azure-style
 * gateways, vLLM, llama.cpp's server, Ollama's /v1) for a JSON grade. 429, 5xx, timeouts and network
 * errors are retried with exponential back-off (Retry-After wins when sent); other 4xx fail at once.
 * Every failure is a JudgeError saying what happened and how many requests were made.
 */
export function openAiCompatibleJudge(options: OpenAiCompatibleJudgeOptions): RagJudge {
  const resolved = resolveOptions(options);
  return {
    name: resolved.name,
    async judge(input: JudgeInput): Promise<JudgeResult> {
      const checkedInput = requireJudgeInput(input, resolved.name);
      const messages = resolved.buildMessages(checkedInput);
      if (!Array.isArray(messages) || messages.length === 0) {
        throw new TypeError(
          `judge ${JSON.stringify(resolved.name)}: options.prompt returned ${describeValue(messages)}; it must return a non-empty array of { role, content } messages.`,
        );
      }
      const body = JSON.stringify({
        model: resolved.model,
        messages,
        temperature: resolved.temperature,
        ...(resolved.jsonMode ? { response_format: { type: 'json_object' } } : {}),
      });
      const maxAttempts = resolved.maxRetries + 1;
      for (let attempt = 1; ; attempt += 1) {
        const outcome = await attemptRequest(resolved, body);
        if (outcome.type === 'too-large') throw tooLargeError(outcome, attempt, resolved);
        if (outcome.type === 'response' && outcome.status >= 200 && outcome.status < 300) {
          return judgementFrom(
            replyContent(outcome.body, outcome.status, attempt, resolved),
            outcome.status,
            attempt,
            resolved,
          );
        }
        const retryable = outcome.type === 'failure' || isRetryableStatus(outcome.status);
        if (!retryable || attempt >= maxAttempts) {
          throw outcome.type === 'failure'
            ? failureError(outcome, attempt, resolved)
            : httpError(outcome, attempt, resolved);
        }
        await sleep(backoffMs(attempt, outcome.type === 'response' ? outcome.retryAfter : undefined, resolved));
      }
    },
  };
}
