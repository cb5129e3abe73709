import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { streamRunByQuery, TrecFormatError, type RunQueryGroup } from '../../../src/trec/index.js';

// Multi-byte characters of 2, 3 and 4 UTF-8 bytes, a CRLF line, a blank line, tabs, no final newline.
const RUN_TEXT =
  '\uFEFFfrage-ü Q0 doc-é 1 2.5 t\n' +
  'frage-ü Q0 文書-7 2 -1.5e-3 t\r\n' +
  '\n' +
  'q2\tQ0\t📄-1\t1\t7\tt\n' +
  'q3 Q0 plain 1 0 t';

// Worked out by hand from RUN_TEXT.
const EXPECTED_GROUPS: RunQueryGroup[] = [
  {
    queryId: 'frage-ü',
    entries: [
      { docId: 'doc-é', score: 2.5, rank: 1 },
      { docId: '文書-7', score: -0.0015, rank: 2 },
    ],
  },
  { queryId: 'q2', entries: [{ docId: '📄-1', score: 7, rank: 1 }] },
  { queryId: 'q3', entries: [{ docId: 'plain', score: 0, rank: 1 }] },
];

async function collect(groups: AsyncIterable<RunQueryGroup>): Promise<RunQueryGroup[]> {
  const collected: RunQueryGroup[] = [];
  for await (const group of groups) collected.push(group);
  return collected;
}

/** Collects groups until the stream throws; returns both. */
async function collectUntilError(
  groups: AsyncIterable<RunQueryGroup>,
): Promise<{ groups: RunQueryGroup[]; error: unknown }> {
  const collected: RunQueryGroup[] = [];
  try {
    for await (const group of groups) collected.push(group);
  } catch (error) {
    return { groups: collected, error };
  }
  return { groups: collected, error: undefined };
}

function splitBuffer(bytes: Buffer, cutPoints: number[]): Buffer[] {
  const chunks: Buffer[] = [];
  let start = 0;
  for (const cut of [...cutPoints, bytes.length]) {
    chunks.push(bytes.subarray(start, cut));
    start = cut;
  }
  return chunks;
}

describe('streamRunByQuery', () => {
  const bytes = Buffer.from(RUN_TEXT, 'utf8');

  it('yields each query with its entries in file order from a single chunk', async () => {
    expect(await collect(streamRunByQuery(Readable.from([bytes])))).toEqual(EXPECTED_GROUPS);
  });

  it('gives the same groups for a cut at every byte offset (mid-line, mid-CRLF, mid-character, mid-BOM)', async () => {
    for (let cut = 0; cut <= bytes.length; cut++) {
      const groups = await collect(streamRunByQuery(Readable.from(splitBuffer(bytes, [cut]))));
      expect(groups, `cut at byte ${cut}`).toEqual(EXPECTED_GROUPS);
    }
  });

  it('gives the same groups when every byte is its own chunk', async () => {
    const oneByteChunks = [...bytes].map((byte) => Buffer.from([byte]));
    expect(await collect(streamRunByQuery(Readable.from(oneByteChunks)))).toEqual(EXPECTED_GROUPS);
  });

  it('gives the same groups for two cuts at every pair of offsets 3 bytes apart', async () => {
    for (let cut = 0; cut + 3 <= bytes.length; cut++) {
      const groups = await collect(streamRunByQuery(Readable.from(splitBuffer(bytes, [cut, cut + 3]))));
      expect(groups, `cuts at ${cut} and ${cut + 3}`).toEqual(EXPECTED_GROUPS);
    }
  });

  it('accepts an async iterable of strings split mid-line', async () => {
    async function* stringChunks(): AsyncGenerator<string> {
      yield RUN_TEXT.slice(0, 10);
      yield '';
      yield RUN_TEXT.slice(10, 40);
      yield RUN_TEXT.slice(40);
    }
    expect(await collect(streamRunByQuery(stringChunks()))).toEqual(EXPECTED_GROUPS);
  });

  it('accepts an async iterable of Uint8Array chunks', async () => {
    async function* byteChunks(): AsyncGenerator<Uint8Array> {
      for (let start = 0; start < bytes.length; start += 7) yield new Uint8Array(bytes.subarray(start, start + 7));
    }
    expect(await collect(streamRunByQuery(byteChunks()))).toEqual(EXPECTED_GROUPS);
  });

  it('yields nothing for an empty or blank source', async () => {
    expect(await collect(streamRunByQuery(Readable.from([])))).toEqual([]);
    expect(await collect(streamRunByQuery(Readable.from(['\n\r\n  \n'])))).toEqual([]);
  });

  it('yields a query as soon as the next one starts, before reading the rest of the source', async () => {
    const chunksPulled: number[] = [];
    async function* slowSource(): AsyncGenerator<string> {
      const chunks = ['q1 Q0 a 1 1 t\nq1 Q0 b 2 1 t\n', 'q2 Q0 c 1 1 t\n', 'q3 Q0 d 1 1 t\n', 'q4 Q0 e 1 1 t\n'];
      for (const [index, chunk] of chunks.entries()) {
        chunksPulled.push(index);
        yield chunk;
      }
    }
    const iterator = streamRunByQuery(slowSource());
    const first = await iterator.next();
    expect(first.value).toEqual({
      queryId: 'q1',
      entries: [
        { docId: 'a', score: 1, rank: 1 },
        { docId: 'b', score: 1, rank: 2 },
      ],
    });
    expect(chunksPulled).toEqual([0, 1]);
    await iterator.return(undefined);
  });

  it('destroys a Node stream when the consumer stops early', async () => {
    const source = Readable.from(['q1 Q0 a 1 1 t\nq2 Q0 b 1 1 t\n', 'q3 Q0 c 1 1 t\n']);
    for await (const group of streamRunByQuery(source)) {
      expect(group.queryId).toBe('q1');
      break;
    }
    expect(source.destroyed).toBe(true);
  });

  describe('when the run is not grouped by query', () => {
    const text = 'q1 Q0 a 1 1 t\nq1 Q0 b 2 1 t\nq2 Q0 c 1 1 t\nq1 Q0 d 3 1 t\n';

    it('throws a TrecFormatError naming the line and both query ids, after yielding the complete queries', async () => {
      const { groups, error } = await collectUntilError(streamRunByQuery(Readable.from([text]), { file: 'mixed.run' }));
      expect(groups.map((group) => group.queryId)).toEqual(['q1']);
      expect(error).toBeInstanceOf(TrecFormatError);
      const formatError = error as TrecFormatError;
      expect(formatError.lineNumber).toBe(4);
      expect(formatError.lineText).toBe('q1 Q0 d 3 1 t');
      expect(formatError.message).toContain(
        "mixed.run:4: run is not grouped by query: query 'q1' appears again after query 'q2'",
      );
      expect(formatError.message).toContain('earlier lines end on line 2');
      expect(formatError.message).toContain('sort -s -k1,1');
      expect(formatError.message).toContain('readRunFile()');
    });

    it('detects it across chunk boundaries too', async () => {
      const chunks = splitBuffer(Buffer.from(text), [5, 20, 41, 44]);
      const { error } = await collectUntilError(streamRunByQuery(Readable.from(chunks)));
      expect(error).toBeInstanceOf(TrecFormatError);
      expect((error as TrecFormatError).lineNumber).toBe(4);
    });
  });

  it('reports a malformed line with its line number counted across chunks', async () => {
    const chunks = ['q1 Q0 a 1 1 t\r', '\n\nq1 Q0 b 2', ' 1 t\nq1 Q0 c 3 x', 'yz t\n'];
    const { groups, error } = await collectUntilError(streamRunByQuery(Readable.from(chunks)));
    expect(groups).toEqual([]);
    expect(error).toBeInstanceOf(TrecFormatError);
    expect((error as TrecFormatError).message).toContain("<string>:4: score 'xyz' is not a number");
  });

  describe('reading a file by path', () => {
    let directory: string;

    beforeEach(async () => {
      directory = await mkdtemp(path.join(tmpdir(), 'rag-matchers-stream-'));
    });

    afterEach(async () => {
      await rm(directory, { recursive: true, force: true });
    });

    it('streams the groups of a file', async () => {
      const filePath = path.join(directory, 'run.txt');
      await writeFile(filePath, bytes);
      expect(await collect(streamRunByQuery(filePath))).toEqual(EXPECTED_GROUPS);
    });

    it('names the path in format errors', async () => {
      const filePath = path.join(directory, 'bad.run');
      await writeFile(filePath, 'q1 Q0 a 1 1\n');
      const { error } = await collectUntilError(streamRunByQuery(filePath));
      expect((error as Error).message).toContain(`${filePath}:1: expected 6 columns`);
    });

    it('rejects with ENOENT for a missing file', async () => {
      const { error } = await collectUntilError(streamRunByQuery(path.join(directory, 'missing.run')));
      expect(error).toMatchObject({ code: 'ENOENT' });
    });
  });
});
