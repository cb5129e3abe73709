// docs/cli.md and `--help` say which measures `rag-matchers trec-eval` prints, and neither may drift
// from the code: the docs' measure table and the help's measure list are the command's measures in
// trec_eval's order; every measure of the measure table with a trec_eval name is among them, with its
// library name beside it in the docs; nothing the command prints is called unsupported; and the
// command list of `rag-matchers --help` names no subset of measures that could go stale.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { COMMANDS } from '../../../src/cli/commands.js';
import { HELP } from '../../../src/cli/commands/trec-eval.js';
import { MEASURE_NAMES, MEASURE_TABLE, type MeasureDefinition } from '../../../src/core/measure-table.js';
import { parseMeasure } from '../../../src/core/measures.js';
import { SUPPORTED_TREC_MEASURES, planTrecMeasures } from '../../../src/trec/eval/measures.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const cliDocs = readFileSync(resolve(ROOT, 'docs/cli.md'), 'utf8');

/** The rows of docs/cli.md's trec-eval measure table: trec_eval name → library name ('' when none). */
function documentedMeasures(): Map<string, string> {
  const start = cliDocs.indexOf('<!-- trec-eval-measures:start -->');
  const end = cliDocs.indexOf('<!-- trec-eval-measures:end -->');
  expect(start).toBeGreaterThan(-1);
  const rows = cliDocs
    .slice(start, end)
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  return new Map(
    rows.map((line) => {
      const cells = line.split('|').map((cell) => cell.trim());
      return [cells[1]!.replaceAll('`', ''), cells[3]!.replaceAll('`', '')];
    }),
  );
}

/** The names after "Measures:" in `trec-eval --help`. */
function helpMeasures(): string[] {
  const line = HELP.split('\n').find((text) => text.startsWith('Measures: '));
  expect(line).toBeDefined();
  return line!.slice('Measures: '.length).split(', ');
}

/** The measure-table entries trec_eval prints, by trec_eval name (uncut and `_cut` names). */
function tableTrecNames(): Map<string, string> {
  const names = new Map<string, string>();
  for (const name of MEASURE_NAMES) {
    const definition: MeasureDefinition = MEASURE_TABLE[name];
    if (definition.trecName !== undefined) names.set(definition.trecName, name);
    if (definition.trecCutName !== undefined) names.set(definition.trecCutName, name);
  }
  return names;
}

describe('trec-eval measures in docs/cli.md and --help', () => {
  it("the docs' table lists the command's measures, in trec_eval's order", () => {
    expect([...documentedMeasures().keys()]).toEqual(SUPPORTED_TREC_MEASURES);
  });

  it("the help's measure list is the command's measures", () => {
    expect(helpMeasures()).toEqual(SUPPORTED_TREC_MEASURES);
  });

  it('every measure of the measure table with a trec_eval name is in both, with its library name in the docs', () => {
    const documented = documentedMeasures();
    for (const [trecName, canonical] of tableTrecNames()) {
      expect(helpMeasures()).toContain(trecName);
      const library = documented.get(trecName) ?? '';
      expect(library, `docs/cli.md's library cell of ${trecName}`).not.toBe('');
      expect(
        parseMeasure(library.replace('@k', '@10').replace('@p', '@0.5')).name,
        `${library} parses as ${canonical}`,
      ).toBe(canonical);
    }
  });

  it('every documented measure is one -m accepts', () => {
    for (const name of documentedMeasures().keys()) expect(() => planTrecMeasures([name])).not.toThrow();
  });

  it('no measure the command prints is called unsupported in the docs', () => {
    const section = cliDocs.slice(cliDocs.indexOf('## `rag-matchers trec-eval`'), cliDocs.indexOf('### Memory'));
    const prose = section
      .split('\n')
      .filter((line) => !line.startsWith('|'))
      .join('\n');
    const unsupportedSentences = prose
      .split(/(?<=[.;])\s/)
      .filter((sentence) => /unsupported|not supported|not computed|does not compute/i.test(sentence));
    for (const sentence of unsupportedSentences) {
      for (const name of SUPPORTED_TREC_MEASURES) expect(sentence).not.toMatch(new RegExp(`\`${name}\``));
    }
  });

  it('`rag-matchers --help` names no list of measures for trec-eval, only where to find them', () => {
    const summary = COMMANDS['trec-eval']!.summary;
    expect(summary).toContain('all_trec');
    expect(summary).toContain('trec-eval --help');
    for (const name of ['recip_rank', 'Rprec', 'ndcg']) expect(summary).not.toContain(name);
  });
});
