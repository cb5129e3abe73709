import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { JudgeError } from '../../../src/generation/judge.js';
import { extractJsonObject, openAiCompatibleJudge, retryAfterMs } from '../../../src/generation/openai-judge.js';

interface RecordedRequest {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

type Handler = (response: ServerResponse) => void;

interface FakeServer {
  baseUrl: string;
  requests: RecordedRequest[];
}

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A chat-completions server on 127.0.0.1; request n is answered by handlers[n] (the last one repeats). */
async function startServer(...handlers: Handler[]): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      requests.push({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: JSON.parse(text) as Record<string, unknown>,
      });
      const handler = handlers[Math.min(requests.length, handlers.length) - 1];
      handler?.(response);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests };
}

function reply(content: string): Handler {
  return (response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'x',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      }),
    );
  };
}

function status(code: number, body: string, headers: Record<string, string> = {}): Handler {
  return (response) => {
    response.writeHead(code, { 'content-type': 'application/json', ...headers });
    response.end(body);
  };
}

const neverAnswer: Handler = () => undefined;

const INPUT = {
  question: 'How many requests per minute are allowed?',
  answer: 'You can send 100 requests per minute per API key.',
  contexts: ['Each API key may send 100 requests per minute.', 'Extra requests return status 429.'],
};

async function judgeError(promise: Promise<unknown>): Promise<JudgeError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(JudgeError);
  return error as JudgeError;
}

describe('openAiCompatibleJudge: replies', () => {
  it('posts a chat-completions request and returns the JSON grade', async () => {
    const server = await startServer(
      reply('{"score": 0.8, "reason": "All claims supported.", "dimensions": {"faithfulness": 1, "relevance": 0.6}}'),
    );
    const judge = openAiCompatibleJudge({ baseUrl: `${server.baseUrl}/`, apiKey: 'sk-test', model: 'tiny-model' });
    expect(judge.name).toBe('openai-compatible:tiny-model');
    await expect(judge.judge(INPUT)).resolves.toEqual({
      score: 0.8,
      reason: 'All claims supported.',
      dimensions: { faithfulness: 1, relevance: 0.6 },
    });

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.body).toMatchObject({
      model: 'tiny-model',
      temperature: 0,
      response_format: { type: 'json_object' },
    });
    const messages = request?.body.messages as { role: string; content: string }[];
    expect(messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(messages[0]?.content).toContain('"score"');
    expect(messages[1]?.content).toContain(INPUT.question);
    expect(messages[1]?.content).toContain(INPUT.answer);
    expect(messages[1]?.content).toContain('[2] Extra requests return status 429.');
  });

  it('reads a JSON object wrapped in ``` fences', async () => {
    const server = await startServer(reply('```json\n{"score": 0.5, "reason": "Partly supported."}\n```'));
    const judge = openAiCompatibleJudge({ baseUrl: server.baseUrl, model: 'm' });
    await expect(judge.judge(INPUT)).resolves.toEqual({ score: 0.5, reason: 'Partly supported.' });
  });

  it('reads a JSON object surrounded by prose, with braces inside its strings', async () => {
    const server = await startServer(
      reply('Here is my grade: {"score": "0.25", "reason": "Claims {x} unsupported."} Hope that helps.'),
    );
    const judge = openAiCompatibleJudge({ baseUrl: server.baseUrl, model: 'm', jsonMode: false });
    await expect(judge.judge(INPUT)).resolves.toEqual({ score: 0.25, reason: 'Claims {x} unsupported.' });
    expect(server.requests[0]?.body).not.toHaveProperty('response_format');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('fails a reply with no JSON object with a parse error that quotes it', async () => {
    const server = await startServer(reply('The answer looks good, I would give it 8/10.'));
    const error = await judgeError(
      openAiCompatibleJudge({ baseUrl: server.baseUrl, model: 'm', name: 'local' }).judge(INPUT),
    );
    expect(error).toMatchObject({
      kind: 'parse',
      attempts: 1,
      judgeName: 'local',
      status: 200,
      reply: 'The answer looks good, I would give it 8/10.',
    });
    expect(error.message).toContain('judge "local"');
    expect(error.message).toContain('expected the model to reply with a JSON object {"score": 0..1');
    expect(error.message).toContain('The answer looks good, I would give it 8/10.');
    expect(server.requests).toHaveLength(1);
  });

  it('fails a score outside 0..1 with a parse error naming the value', async () => {
    const server = await startServer(reply('{"score": 8, "reason": "Good."}'));
    const error = await judgeError(openAiCompatibleJudge({ baseUrl: server.baseUrl, model: 'm' }).judge(INPUT));
    expect(error.kind).toBe('parse');
    expect(error.message).toMatch(/returned score 8; score must be a finite number from 0 to 1/);
    expect(error.message).toContain('{\\"score\\": 8');
  });

  it('fails a body that is not a chat completion with a parse error quoting it', async () => {
    const server = await startServer(status(200, '<html>gateway</html>'));
    const error = await judgeError(openAiCompatibleJudge({ baseUrl: server.baseUrl, model: 'm' }).judge(INPUT));
    expect(error.kind).toBe('parse');
    expect(error.message).toContain('{"choices": [{"message": {"content": "..."}}]}');
    expect(error.message).toContain('<html>gateway</html>');
  });

  it('truncates a long reply in the message but keeps it whole on the error', async () => {
    const long = `no json here ${'x'.repeat(1000)}`; // 13 + 1000 characters, 300 shown
    const server = await startServer(reply(long));
    const error = await judgeError(openAiCompatibleJudge({ baseUrl: server.baseUrl, model: 'm' }).judge(INPUT));
    expect(error.reply).toBe(long);
    expect(error.message).toContain('(713 more characters)');
    expect(error.message.length).toBeLessThan(700);
  });
});

describe('openAiCompatibleJudge: timeouts and retries', () => {
  it('aborts a request the server never answers and retries it', async () => {
    const server = await startServer(neverAnswer);
    const judge = openAiCompatibleJudge({
      baseUrl: server.baseUrl,
      model: 'm',
      timeoutMs: 100,
      maxRetries: 1,
      retryBaseDelayMs: 0,
    });
    const error = await judgeError(judge.judge(INPUT));
    expect(error).toMatchObject({ kind: 'timeout', attempts: 2 });
    expect(error.message).toContain('within 100 ms');
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 429 at once when Retry-After is 0, whatever the back-off', async () => {
    const server = await startServer(
      status(429, '{"error": "slow down"}', { 'retry-after': '0' }),
      reply('{"score": 1, "reason": "Fine."}'),
    );
    const judge = openAiCompatibleJudge({ baseUrl: server.baseUrl, model: 'm', retryBaseDelayMs: 20_000 });
    const started = Date.now();
    await expect(judge.judge(INPUT)).resolves.toEqual({ score: 1, reason: 'Fine.' });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(2);
  });

  it('waits the seconds Retry-After asks for', async () => {
    const server = await startServer(
      status(503, 'busy', { 'retry-after': '1' }),
      reply('{"score": 1, "reason": "Fine."}'),
    );
    const judge = openAiCompatibleJudge({ baseUrl: server.baseUrl, model: 'm', retryBaseDelayMs: 0 });
    const started = Date.now();
    await judge.judge(INPUT);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after maxRetries + 1 server errors with an http error counting the attempts', async () => {
    const server = await startServer(status(500, '{"error": "model crashed"}'));
    const judge = openAiCompatibleJudge({ baseUrl: server.baseUrl, model: 'm', maxRetries: 3, retryBaseDelayMs: 1 });
    const error = await judgeError(judge.judge(INPUT));
    expect(error).toMatchObject({ kind: 'http', status: 500, attempts: 4 });
    expect(error.message).toContain('HTTP 500 Internal Server Error after 4 attempts');
    expect(error.message).toContain('model crashed');
    expect(server.requests).toHaveLength(4);
  });

  it('does not retry other 4xx and hints at the fix', async () => {
    const server = await startServer(status(404, '{"error": "model not found"}'));
    const error = await judgeError(
      openAiCompatibleJudge({ baseUrl: server.baseUrl, model: 'm', retryBaseDelayMs: 0 }).judge(INPUT),
    );
    expect(error).toMatchObject({ kind: 'http', status: 404, attempts: 1 });
    expect(error.message).toContain('Check options.baseUrl');
    expect(server.requests).toHaveLength(1);

    const unauthorised = await startServer(status(401, '{"error": "bad key"}'));
    const authError = await judgeError(
      openAiCompatibleJudge({ baseUrl: unauthorised.baseUrl, model: 'm' }).judge(INPUT),
    );
    expect(authError).toMatchObject({ kind: 'http', status: 401, attempts: 1 });
    expect(authError.message).toContain('Check options.apiKey');
  });

  it('retries a refused connection and reports a network error', async () => {
    const server = await startServer(neverAnswer);
    const closed = servers.pop() as Server;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const judge = openAiCompatibleJudge({ baseUrl: server.baseUrl, model: 'm', maxRetries: 2, retryBaseDelayMs: 0 });
    const error = await judgeError(judge.judge(INPUT));
    expect(error).toMatchObject({ kind: 'network', attempts: 3 });
    expect(error.message).toContain('is the server running');
  });
});

describe('openAiCompatibleJudge: prompts', () => {
  it('uses a rubric string in the system message and a function for full control', async () => {
    const server = await startServer(reply('{"score": 1, "reason": "ok"}'));
    await openAiCompatibleJudge({ baseUrl: server.baseUrl, model: 'm', prompt: 'Grade politeness only.' }).judge(INPUT);
    const messages = server.requests[0]?.body.messages as { content: string }[];
    expect(messages[0]?.content.startsWith('Grade politeness only.')).toBe(true);

    const custom = [{ role: 'user' as const, content: 'grade: 42' }];
    await openAiCompatibleJudge({ baseUrl: server.baseUrl, model: 'm', prompt: () => custom }).judge(INPUT);
    expect(server.requests[1]?.body.messages).toEqual(custom);
  });
});

describe('openAiCompatibleJudge: usage errors', () => {
  it('rejects bad options, naming them', () => {
    expect(() => openAiCompatibleJudge({ baseUrl: 'localhost:8080', model: 'm' })).toThrow(TypeError);
    expect(() => openAiCompatibleJudge({ baseUrl: 'localhost:8080', model: 'm' })).toThrow(
      /options\.baseUrl must be an http\(s\) URL.*"localhost:8080"/,
    );
    expect(() => openAiCompatibleJudge({ baseUrl: 'http://127.0.0.1:1/v1', model: '' })).toThrow(
      /options\.model must be the model name/,
    );
    expect(() => openAiCompatibleJudge({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', maxRetries: -1 })).toThrow(
      RangeError,
    );
    expect(() => openAiCompatibleJudge({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', maxRetries: 1.5 })).toThrow(
      /options\.maxRetries must be a whole number ≥ 0, got 1.5/,
    );
    expect(() => openAiCompatibleJudge({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', timeoutMs: 0 })).toThrow(
      /options\.timeoutMs must be > 0/,
    );
  });

  it('rejects bad judge input before any request', async () => {
    const server = await startServer(reply('{"score": 1, "reason": "ok"}'));
    const judge = openAiCompatibleJudge({ baseUrl: server.baseUrl, model: 'm' });
    await expect(judge.judge({ ...INPUT, answer: 42 as unknown as string })).rejects.toThrow(
      /input\.answer must be a string, got 42/,
    );
    await expect(judge.judge({ ...INPUT, contexts: [{ content: 'x' }] as unknown as string[] })).rejects.toThrow(
      /input\.contexts must be an array of passage strings/,
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('helpers', () => {
  it('extractJsonObject finds the object in plain, fenced and prose replies', () => {
    expect(extractJsonObject('{"score": 1}')).toEqual({ score: 1 });
    expect(extractJsonObject('```\n{"score": 0.5}\n```')).toEqual({ score: 0.5 });
    expect(extractJsonObject('<think>{not json}</think> {"score": 0}')).toEqual({ score: 0 });
    expect(extractJsonObject('[1, 2]')).toBeUndefined();
    expect(extractJsonObject('no object')).toBeUndefined();
  });

  it('extractJsonObject also finds an object nested in one that does not parse, and skips quotes in prose', () => {
    expect(extractJsonObject('Verdict: {grade: {"score": 0.5, "reason": "ok"}}')).toEqual({ score: 0.5, reason: 'ok' });
    expect(extractJsonObject('He said "see {x}" and then {"score": 1}')).toEqual({ score: 1 });
    expect(extractJsonObject('{"reason": "a } in a string", "score": 1} trailing')).toEqual({
      reason: 'a } in a string',
      score: 1,
    });
    expect(extractJsonObject('{never closed {"score": 1}')).toBeUndefined();
  });

  it('extractJsonObject takes linear time on a reply of nested braces (512 kB within 2 s)', () => {
    // Before, every "{" was scanned to its end: 128 kB took 27 s, 512 kB did not finish in 60 s.
    const half = 256 * 1024;
    for (const reply of ['{'.repeat(half) + '}'.repeat(half), '{"a":'.repeat(100_000) + 'tru' + '}'.repeat(100_000)]) {
      const started = performance.now();
      expect(extractJsonObject(reply)).toBeUndefined();
      expect(performance.now() - started).toBeLessThan(2_000);
    }
  });

  it('retryAfterMs reads seconds and HTTP dates', () => {
    expect(retryAfterMs('0')).toBe(0);
    expect(retryAfterMs('2')).toBe(2_000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:10 GMT', Date.UTC(2015, 9, 21, 7, 28, 0))).toBe(10_000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});
