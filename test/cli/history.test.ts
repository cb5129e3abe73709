import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { COMMANDS } from '../../src/cli/commands.js';
import * as history from '../../src/cli/commands/history.js';
import { baselineHistoryRepo } from '../browser/git-fixture.js';
import { runCommand } from './helpers.js';

let repo: ReturnType<typeof baselineHistoryRepo>;
let out: string;
beforeAll(() => {
  repo = baselineHistoryRepo();
  out = mkdtempSync(join(tmpdir(), 'rag-history-cli-'));
}, 60_000);
afterAll(() => {
  repo?.remove();
  if (out !== undefined) rmSync(out, { recursive: true, force: true });
});

describe('rag-matchers history', { timeout: 30_000 }, () => {
  it('is registered', async () => {
    expect(COMMANDS.history?.summary).toMatch(/baseline/);
    expect(typeof (await COMMANDS.history!.load()).run).toBe('function');
  });

  it('prints the table of moves per suite', async () => {
    const baseline = join(repo.dir, repo.path);
    const result = await runCommand(history, ['--baseline', baseline]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const last = repo.short(repo.shas[4]!);
    expect(result.stdout).toContain(`Baseline history of ${baseline}: 5 commits, 2025-01-01 → 2025-01-06\n`);
    expect(result.stdout).toContain(
      `\n  ${last}  2025-01-06  0.700             0.750 -0.250 n=4  Harder questions; drop mrr\n`,
    );
    expect(result.stdout).toContain(`\n  ${last}  2025-01-06  removed    1.000      Harder questions; drop mrr\n`);
  });

  it('filters by suite and measure (measure names in any accepted spelling) and limits the commits', async () => {
    const baseline = join(repo.dir, repo.path);
    const result = await runCommand(history, [
      '--baseline',
      baseline,
      '--suite',
      'orders',
      '--measure',
      'R@5',
      '--limit',
      '3',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(': 3 commits, 2025-01-04 → 2025-01-06\n');
    expect(result.stdout).toContain('  commit   date        recall@5          subject\n');
    expect(result.stdout).not.toContain('search.test.ts');
    expect(result.stdout).not.toContain('ndcg@10');
  });

  it('draws the history with --html: a chart per suite with a line per measure', async () => {
    const target = join(out, 'pages', 'history.html');
    const result = await runCommand(history, ['--baseline', join(repo.dir, repo.path), '--html', target]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Wrote ${target}\n`);
    const html = readFileSync(target, 'utf8');
    expect(html.match(/<svg class="chart history"/g)).toHaveLength(2);
    expect(html.match(/<path class="series"/g)).toHaveLength(4);
    // orders: ndcg@10 and recall@5 at all 5 versions; search: mrr at 2, recall@5 at 3.
    expect(html.match(/<circle class="mark point"/g)).toHaveLength(5 + 5 + 2 + 3);
    expect(html).not.toMatch(/<script|https?:\/\//);
  });

  it('fails with exit 2 and one clear line', async () => {
    const cases: [string[], RegExp][] = [
      [['--bogus'], /unknown option '--bogus'/],
      [['extra'], /unexpected argument 'extra'; name the baseline with --baseline <file>/],
      [['--limit', '0'], /--limit must be a whole number ≥ 1, got '0'/],
      [['--measure', 'recal@5'], /--measure: measure "recal@5" is not valid: .*\(also faithfulness, judge:<name>\)\n/],
      [['--baseline', join(out, 'no-such-dir', 'b.json')], /its directory does not exist/],
      [['--baseline', join(out, 'rag-baseline.json')], /is not inside a git repository/],
    ];
    for (const [args, message] of cases) {
      const result = await runCommand(history, args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.startsWith('rag-matchers history: ')).toBe(true);
      expect(result.stdout).toBe('');
    }
    expect(existsSync(join(out, 'no-such-dir'))).toBe(false);
  });

  it('prints help', async () => {
    const result = await runCommand(history, ['-h']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: rag-matchers history \[options\]/);
    expect(result.stdout).toContain('--baseline <file>  the baseline file (default rag-baseline.json)');
  });
});
