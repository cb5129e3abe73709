// Baselines in tests are written with readable suite names (`file > describe > …`); the baseline keys
// suites by their structured identity. These helpers convert (the file is the part before the first ` > `).
import { BASELINE_SCHEMA_VERSION, type BaselineFile, type BaselineSuite } from '../../../src/baseline/file/types.js';
import { suiteKeyOf } from '../../../src/recording/collected.js';

/** The suite key of a readable name: `test/a.test.ts > refunds` → key of { file: 'test/a.test.ts', describe: ['refunds'] }. */
export function key(name: string): string {
  const [file, ...describe] = name.split(' > ');
  return suiteKeyOf({ file: file!, describe });
}

/** Suites by readable name → suites by key. */
export function keyed(suites: Record<string, BaselineSuite>): Record<string, BaselineSuite> {
  return Object.fromEntries(Object.entries(suites).map(([name, suite]) => [key(name), suite]));
}

/** A baseline of suites given by readable name. */
export function baselineFile(suites: Record<string, BaselineSuite>): BaselineFile {
  return { schemaVersion: BASELINE_SCHEMA_VERSION, generatedBy: 'rag-matchers', suites: keyed(suites) };
}
