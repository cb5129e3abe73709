// Names that are keys of Object.prototype: as a command, as query ids in JSON output, as judge dimensions.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

import * as evalCommand from '../../src/cli/commands/eval.js';
import { main } from '../../src/cli/main.js';
import { validateJudgeResult } from '../../src/generation/judge.js';
import { runCommand } from './helpers.js';

const directory = mkdtempSync(join(tmpdir(), 'rag-matchers-proto-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(directory, name);
  writeFileSync(path, text);
  return path;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('rag-matchers <Object.prototype key>', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    "says '%s' is an unknown command, with the usual help, exit 2",
    async (name) => {
      let stderr = '';
      vi.spyOn(process.stderr, 'write').mockImplementation(
        (chunk: string | Uint8Array) => ((stderr += String(chunk)), true),
      );
      expect(await main([name])).toBe(2);
      expect(stderr).toContain(`rag-matchers: unknown command '${name}'.`);
      expect(stderr).toMatch(/^ {2}eval +evaluate a run/m);
    },
  );
});

describe('rag-matchers eval --format json with query ids named like Object.prototype keys', () => {
  it('keeps __proto__, constructor and toString in perQuery', async () => {
    const qrels = file('proto.qrels', '__proto__ 0 d1 1\nconstructor 0 d2 1\ntoString 0 d3 1\n');
    const run = file(
      'proto.run',
      '__proto__ Q0 d1 1 3 r\nconstructor Q0 d9 1 3 r\ntoString Q0 d8 1 3 r\ntoString Q0 d3 2 2 r\n',
    );
    const result = await runCommand(evalCommand, ['--qrels', qrels, '--run', run, '--format', 'json', '-m', 'mrr']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout) as { perQuery: Record<string, unknown> };
    expect(Object.keys(document.perQuery)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(result.stdout).toContain('"__proto__": {\n      "mrr": 1\n    }');
    expect(result.stdout).toContain('"constructor": {\n      "mrr": 0\n    }');
    expect(result.stdout).toContain('"toString": {\n      "mrr": 0.5\n    }');
  });
});

describe('judge dimensions named like Object.prototype keys', () => {
  it('keeps a dimension named __proto__ as a dimension', () => {
    const result = validateJudgeResult(
      JSON.parse('{"score": 1, "reason": "r", "dimensions": {"__proto__": 0.5, "constructor": 1}}'),
      'j',
    );
    expect(Object.keys(result.dimensions!)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(result.dimensions, '__proto__')?.value).toBe(0.5);
    expect(Object.getPrototypeOf(result.dimensions)).toBe(Object.prototype);
  });
});
