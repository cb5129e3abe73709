// Hostile and careless servers on loopback: replies that quote the API key, credentials in baseUrl,
// huge bodies, loose score strings.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';

import { afterEach, describe, expect, it } from 'vitest';

import { JudgeError } from '../../../src/generation/judge.js';
import { openAiCompatibleJudge } from '../../../src/generation/openai-judge.js';

const API_KEY = 'sk-test-4f1c9e0b7a2d';
const INPUT = { question: 'q?', answer: 'a.', contexts: ['p.'] };

interface Seen {
  url: string | undefined;
  headers: IncomingMessage['headers'];
}

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function startServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    seen.push({ url: request.url, headers: request.headers });
    request.resume();
    request.on('end', () => handler(request, response));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function chatReply(content: string): (request: IncomingMessage, response: ServerResponse) => void {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
  };
}

async function judgeError(promise: Promise<unknown>): Promise<JudgeError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(JudgeError);
  return error as JudgeError;
}

/** Everything a failing test would print about the error. */
function printed(error: JudgeError): string {
  return [
    error.message,
    error.stack ?? '',
    error.reply ?? '',
    String((error.cause as Error | undefined)?.message ?? ''),
  ].join('\n');
}

describe('the API key never reaches an error or a result', () => {
  it('redacts the key a 401 body quotes, in the message and in error.reply', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: { message: `Incorrect API key provided: ${API_KEY}. You can find your API key at …` },
        }),
      );
    });
    const error = await judgeError(
      openAiCompatibleJudge({ baseUrl: `http://${server.origin}/v1`, model: 'm', apiKey: API_KEY }).judge(INPUT),
    );
    expect(error.kind).toBe('http');
    expect(printed(error)).not.toContain(API_KEY);
    expect(error.message).toContain('Incorrect API key provided: [redacted].');
    expect(error.reply).toContain('[redacted]');
  });

  it('redacts the key when the model repeats it, in a parse error and in the reason of a grade', async () => {
    const parrot = await startServer(chatReply(`I cannot grade this. Your key is ${API_KEY}`));
    const error = await judgeError(
      openAiCompatibleJudge({ baseUrl: `http://${parrot.origin}/v1`, model: 'm', apiKey: API_KEY }).judge(INPUT),
    );
    expect(error.kind).toBe('parse');
    expect(printed(error)).not.toContain(API_KEY);

    const leaky = await startServer(chatReply(JSON.stringify({ score: 0.5, reason: `graded with key ${API_KEY}` })));
    const result = await openAiCompatibleJudge({
      baseUrl: `http://${leaky.origin}/v1`,
      model: 'm',
      apiKey: API_KEY,
    }).judge(INPUT);
    expect(result).toEqual({ score: 0.5, reason: 'graded with key [redacted]' });
  });

  it('redacts the values of credential-like headers the server echoes', async () => {
    const server = await startServer((request, response) => {
      response.writeHead(400, { 'content-type': 'text/plain' });
      response.end(`bad request, headers were ${JSON.stringify(request.headers)}`);
    });
    const error = await judgeError(
      openAiCompatibleJudge({
        baseUrl: `http://${server.origin}/v1`,
        model: 'm',
        headers: { 'api-key': 'azure-9d8c7b6a5f' },
      }).judge(INPUT),
    );
    expect(printed(error)).not.toContain('azure-9d8c7b6a5f');
    expect(error.message).toContain('"api-key":"[redacted]"');
  });
});

/** A server that answers 400 quoting everything it was sent: the URL, every header, and each header's parts. */
function echoEverything(request: IncomingMessage, response: ServerResponse): void {
  const parts = Object.values(request.headers).flatMap((value) => String(value).split(/[\s;=]+/));
  response.writeHead(400, { 'content-type': 'text/plain' });
  response.end(
    `rejected ${request.url ?? ''} with headers ${JSON.stringify(request.headers)}; parts: ${parts.join(' | ')}`,
  );
}

/** What Vitest and Jest print of a thrown error: message, stack, every own property, the cause chain. */
function serialized(error: unknown): string {
  return `${printed(error as JudgeError)}\n${inspect(error, { depth: null })}\n${JSON.stringify(error)}`;
}

describe('every credential the judge is given, in every form a server may quote it', () => {
  const BEARER_TOKEN = 'gw-token-5e6f7a8b9c';
  const COOKIE_SESSION = 'sess-0a1b2c3d4e';
  const BASIC_PASSWORD = 'basic-pw-778899';

  it('redacts the bare token of an Authorization header, cookie values and Basic credentials a server echoes', async () => {
    // Before: only the whole header value "Bearer <token>" was redacted; the bare token, cookies and
    // the decoded Basic password leaked into the message and error.reply.
    const server = await startServer(echoEverything);
    for (const headers of <Record<string, string>[]>[
      { Authorization: `Bearer ${BEARER_TOKEN}` },
      { Cookie: `theme=dark; session=${COOKIE_SESSION}` },
      { 'Proxy-Authorization': `Basic ${Buffer.from(`proxy-user-1:${BASIC_PASSWORD}`).toString('base64')}` },
    ]) {
      const error = await judgeError(
        openAiCompatibleJudge({ baseUrl: `http://${server.origin}/v1`, model: 'm', headers }).judge(INPUT),
      );
      expect(error.kind).toBe('http');
      const text = serialized(error);
      for (const secret of [BEARER_TOKEN, COOKIE_SESSION, BASIC_PASSWORD, 'proxy-user-1']) {
        expect(text).not.toContain(secret);
      }
      expect(text).toContain('[redacted]');
    }
  });

  it('redacts ?code= and ?pwd= of baseUrl in the URL every error prints, with no echo needed', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(503);
      response.end('busy');
    });
    const error = await judgeError(
      openAiCompatibleJudge({
        baseUrl: `http://${server.origin}/api?code=azfn-key-1234567&pwd=p4ss-word-99&api-version=1`,
        model: 'm',
        maxRetries: 0,
      }).judge(INPUT),
    );
    expect(error.message).toContain(
      `POST http://${server.origin}/api/chat/completions?code=[redacted]&pwd=[redacted]&api-version=1 answered HTTP 503`,
    );
    expect(serialized(error)).not.toMatch(/azfn-key-1234567|p4ss-word-99/);
  });

  it('redacts a key the model writes as the name of a dimension, and values passed in options.secrets', async () => {
    const reply = JSON.stringify({ score: 0.5, reason: 'signed tenant-secret-31', dimensions: { [API_KEY]: 1 } });
    const server = await startServer(chatReply(reply));
    const result = await openAiCompatibleJudge({
      baseUrl: `http://${server.origin}/v1`,
      model: 'm',
      apiKey: API_KEY,
      secrets: ['tenant-secret-31'],
    }).judge(INPUT);
    expect(result).toEqual({ score: 0.5, reason: 'signed [redacted]', dimensions: { '[redacted]': 1 } });
  });

  it('keeps the values of headers that carry no credential readable', async () => {
    const server = await startServer(echoEverything);
    const error = await judgeError(
      openAiCompatibleJudge({
        baseUrl: `http://${server.origin}/v1`,
        model: 'm',
        headers: { 'OpenAI-Beta-Version': 'assistants-v2', Authorization: `Bearer ${BEARER_TOKEN}` },
      }).judge(INPUT),
    );
    expect(error.message).toContain('"openai-beta-version":"assistants-v2"');
    expect(error.message).toContain('"authorization":"[redacted]"');
  });

  it('rejects options.secrets that is not a list of strings without echoing it', () => {
    expect(() =>
      openAiCompatibleJudge({
        baseUrl: 'http://127.0.0.1:1/v1',
        model: 'm',
        secrets: 'hunter2-x' as unknown as string[],
      }),
    ).toThrow(/^options\.secrets must be an array of strings \(values never to print\), or left out\.$/);
  });
});

describe('credentials in baseUrl', () => {
  it('appends /chat/completions to the path (not after the query), sends user:pass@ as Basic auth, and never prints either secret', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(503);
      response.end('overloaded');
    });
    const judge = openAiCompatibleJudge({
      baseUrl: `http://judge-user:pa55-w0rd-x@${server.origin}/openai/v1/?api-key=query-secret-77&api-version=2024-06-01`,
      model: 'm',
      maxRetries: 0,
    });
    const error = await judgeError(judge.judge(INPUT));
    expect(server.seen[0]!.url).toBe('/openai/v1/chat/completions?api-key=query-secret-77&api-version=2024-06-01');
    expect(server.seen[0]!.headers.authorization).toBe(
      `Basic ${Buffer.from('judge-user:pa55-w0rd-x').toString('base64')}`,
    );
    expect(error.message).toContain(
      `POST http://${server.origin}/openai/v1/chat/completions?api-key=[redacted]&api-version=2024-06-01 answered HTTP 503`,
    );
    for (const secret of ['pa55-w0rd-x', 'query-secret-77', 'judge-user']) expect(printed(error)).not.toContain(secret);
  });

  it('does not echo the credentials of a baseUrl it rejects', () => {
    expect(() =>
      openAiCompatibleJudge({ baseUrl: 'ftp://me:hunter2-secret@example.com/v1?token=tok-123456', model: 'm' }),
    ).toThrow(
      /options\.baseUrl must be an http\(s\) URL of the API root, got "ftp:\/\/\[redacted\]@example\.com\/v1\?\[redacted\]"/,
    );
  });
});

describe('response size limit', () => {
  it('stops reading a streamed body past maxResponseBytes (default 1 MiB) and fails without retrying', async () => {
    let written = 0;
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = (): void => {
        while (written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', pump);
            return;
          }
        }
        response.end();
      };
      response.on('close', () => (written = Number.POSITIVE_INFINITY));
      pump();
    });
    const error = await judgeError(
      openAiCompatibleJudge({ baseUrl: `http://${server.origin}/v1`, model: 'm' }).judge(INPUT),
    );
    expect(error.kind).toBe('too-large');
    expect(error.attempts).toBe(1);
    expect(error.message).toContain('with a body larger than 1048576 bytes; stopped reading it');
    expect(error.reply).toBeUndefined();
  });

  it('refuses a body whose Content-Length is over the limit before reading it', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(500, { 'content-length': '2000' });
      response.end('y'.repeat(2000));
    });
    const error = await judgeError(
      openAiCompatibleJudge({ baseUrl: `http://${server.origin}/v1`, model: 'm', maxResponseBytes: 1000 }).judge(INPUT),
    );
    expect(error).toMatchObject({ kind: 'too-large', status: 500 });
  });

  it('rejects a maxResponseBytes that is not a whole number', () => {
    expect(() =>
      openAiCompatibleJudge({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', maxResponseBytes: 1.5 }),
    ).toThrow(/options\.maxResponseBytes must be a whole number ≥ 0, got 1\.5/);
  });
});

describe('score strings', () => {
  it.each([
    ['"0.8"', 0.8],
    ['".5"', 0.5],
    ['"1"', 1],
    ['" 0.25 "', 0.25],
  ])('accepts the plain decimal %s', async (score, expected) => {
    const server = await startServer(chatReply(`{"score": ${score}, "reason": "r"}`));
    await expect(
      openAiCompatibleJudge({ baseUrl: `http://${server.origin}/v1`, model: 'm' }).judge(INPUT),
    ).resolves.toEqual({ score: expected, reason: 'r' });
  });

  it.each(['"0x1"', '"1e0"', '"+1"', '"Infinity"', '"0b1"', '"-0"', '"0.5 points"'])(
    'rejects %s with a parse error',
    async (score) => {
      const server = await startServer(chatReply(`{"score": ${score}, "reason": "r"}`));
      const error = await judgeError(
        openAiCompatibleJudge({ baseUrl: `http://${server.origin}/v1`, model: 'm' }).judge(INPUT),
      );
      expect(error.kind).toBe('parse');
      expect(error.message).toContain('score must be a finite number from 0 to 1');
    },
  );
});
