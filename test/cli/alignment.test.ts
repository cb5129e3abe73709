// eval and compare on runs whose ids never meet the judgments': a warning, or a refusal, never a silent 0.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as compareCommand from '../../src/cli/commands/compare.js';
import * as evalCommand from '../../src/cli/commands/eval.js';
import { runCommand } from './helpers.js';

const directory = mkdtempSync(join(tmpdir(), 'rag-matchers-alignment-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(directory, name);
  writeFileSync(path, text);
  return path;
}

const qrels = file('docs.qrels', ['q1 0 doc-1 1', 'q2 0 doc-2 1', 'q3 0 doc-3 1'].join('\n') + '\n');
// Every query ranks chunks of its judged document: 0 at chunk granularity, 1 at document granularity.
const chunkRun = file(
  'chunks.run',
  ['q1 Q0 doc-1#chunk-0 1 0.9 t', 'q2 Q0 doc-2#chunk-4 1 0.9 t', 'q3 Q0 doc-3#chunk-1 1 0.9 t'].join('\n') + '\n',
);
const alignedRun = file(
  'aligned.run',
  ['q1 Q0 doc-1 1 0.9 t', 'q2 Q0 doc-2 1 0.9 t', 'q3 Q0 doc-9 1 0.9 t'].join('\n') + '\n',
);
const strangerRun = file('stranger.run', ['Q-1 Q0 doc-1 1 0.9 t', 'Q-2 Q0 doc-2 1 0.9 t'].join('\n') + '\n');

describe('rag-matchers eval: ids that never meet', () => {
  it('warns on stderr, with the --granularity document hint, when most queries share no id', async () => {
    const result = await runCommand(evalCommand, ['--qrels', qrels, '--run', chunkRun, '-m', 'recall@10']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `warning: 3 of 3 queries in ${chunkRun} share no id with the judgments (q1, q2, q3)`,
    );
    expect(result.stderr).toContain('run ids look like "doc-1#chunk-0", judged ids like "doc-1"');
    expect(result.stderr).toContain('pass --granularity document');
    expect(result.stdout).toContain('recall@10  0.0000');
  });

  it('is quiet when the ids meet, or once --granularity document makes them meet', async () => {
    const aligned = await runCommand(evalCommand, ['--qrels', qrels, '--run', alignedRun, '-m', 'recall@10']);
    expect(aligned.stderr).toBe('');
    expect(aligned.stdout).toContain('recall@10  0.6667');
    const byDocument = await runCommand(evalCommand, [
      '--qrels',
      qrels,
      '--run',
      chunkRun,
      '-m',
      'recall@10',
      '--granularity',
      'document',
    ]);
    expect(byDocument.stderr).toBe('');
    expect(byDocument.stdout).toContain('recall@10  1.0000');
  });

  it('exits 2 with a clear message when no query id of the run is in the judgments', async () => {
    const result = await runCommand(evalCommand, ['--qrels', qrels, '--run', strangerRun]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `no query id of ${strangerRun} is in ${qrels}: the run has Q-1, Q-2, the judgments q1, q2, q3.`,
    );
    expect(result.stdout).toBe('');
  });

  it('exits 2 on an empty eval set', async () => {
    const empty = file('empty.jsonl', '');
    const result = await runCommand(evalCommand, ['--qrels', empty, '--run', alignedRun]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/holds no query: there is nothing to evaluate/);
  });
});

describe('rag-matchers compare: ids that never meet', () => {
  it('warns for the run that misses, not for the one that meets', async () => {
    const result = await runCommand(compareCommand, ['--qrels', qrels, alignedRun, chunkRun, '-m', 'recall@10']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`queries in ${chunkRun} share no id`);
    expect(result.stderr).not.toContain(`queries in ${alignedRun} share no id`);
    expect(result.stderr).toContain('pass --granularity document');
  });

  it('exits 2 when a run has no query of the judgments', async () => {
    const result = await runCommand(compareCommand, ['--qrels', qrels, alignedRun, strangerRun]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`no query id of ${strangerRun} is in ${qrels}`);
  });
});
