import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { COMMANDS } from '../../src/cli/commands.js';
import * as report from '../../src/cli/commands/report.js';
import { renderHtml } from '../../src/report/html/run-report.js';
import { formatJsonReport } from '../../src/report/json.js';
import { realisticFixture } from '../browser/fixture.js';
import { runCommand } from './helpers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-report-cli-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function writeReport(name = 'rag-report.json'): string {
  const file = join(dir, name);
  writeFileSync(file, formatJsonReport(realisticFixture(10).report));
  return file;
}

describe('rag-matchers report', () => {
  it('is registered', async () => {
    expect(COMMANDS.report?.summary).toMatch(/HTML report/);
    expect(typeof (await COMMANDS.report!.load()).run).toBe('function');
  });

  it('draws the HTML next to the JSON report by default', async () => {
    const input = writeReport();
    const result = await runCommand(report, [input]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const output = join(dir, 'rag-report.html');
    expect(result.stdout).toBe(`Wrote ${output} (6 rows, 2 suites)\n`);
    const html = readFileSync(output, 'utf8');
    expect(html).toBe(renderHtml(realisticFixture(10).report));
    expect(html.match(/<svg class="chart means"/g)).toHaveLength(2);
  });

  it('writes where --out says, with a title, or to standard output with --out -, reading standard input with -', async () => {
    const input = writeReport('report.data');
    const target = join(dir, 'site', 'index.html');
    expect((await runCommand(report, [input, '--out', target, '--title', 'Nightly'])).code).toBe(0);
    expect(readFileSync(target, 'utf8')).toContain('<h1>Nightly</h1>');
    expect((await runCommand(report, [input])).code).toBe(0);
    expect(existsSync(join(dir, 'report.data.html'))).toBe(true);
    const piped = await runCommand(report, ['-', '-o', '-'], { stdin: readFileSync(input, 'utf8') });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(renderHtml(realisticFixture(10).report));
  });

  it('fails with exit 2 and one clear line on bad usage and bad input', async () => {
    const cases: [string[], RegExp][] = [
      [[], /^rag-matchers report: missing the JSON report to draw/],
      [['a.json', 'b.json'], /expected one JSON report, got 2/],
      [['--colour'], /unknown option '--colour'/],
      [[join(dir, 'nope.json')], /cannot read JSON report '.*nope\.json': no such file/],
      [['-'], /reading standard input needs --out <file>/],
    ];
    for (const [args, message] of cases) {
      const result = await runCommand(report, args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    }
    writeFileSync(join(dir, 'bad.json'), '{"rows": [');
    expect((await runCommand(report, [join(dir, 'bad.json')])).stderr).toMatch(/bad\.json: not valid JSON/);
    writeFileSync(join(dir, 'baseline.json'), '{"generatedBy":"rag-matchers","schemaVersion":1,"suites":{}}');
    const wrongKind = await runCommand(report, [join(dir, 'baseline.json')]);
    expect(wrongKind.code).toBe(2);
    expect(wrongKind.stderr).toContain('not a rag-matchers JSON report');
    expect(existsSync(join(dir, 'baseline.html'))).toBe(false);
  });

  it('names the file and the field when a value nests 20,000 levels deep', async () => {
    // Before: RangeError: Maximum call stack size exceeded (JSON.stringify of the value for the message).
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const file = join(dir, 'deep.json');
    writeFileSync(file, `{"generatedBy":"rag-matchers","kind":"retrieval-report","schemaVersion":${deep}}`);
    const result = await runCommand(report, [file]);
    expect(result.code).toBe(2);
    // Three levels spelled out, the fourth as {…}.
    expect(result.stderr).toBe(
      `rag-matchers report: ${file}: "schemaVersion" must be a whole number ≥ 1, found {"a":{"a":{"a":{…}}}}.\n`,
    );
  });

  it('prints help', async () => {
    const result = await runCommand(report, ['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: rag-matchers report <report\.json> \[options\]/);
    expect(result.stdout).toContain('--out <file>');
  });
});
