// The public surface, pinned: every runtime export of every package entry, in the built package (ESM and
// CommonJS) and in the source entries. A name added to or dropped from an entry fails here until the list
// below, the docs and CHANGELOG.md say so. Needs `npm run build` (npm test builds first).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const built = (name: string) => resolve(root, 'dist', name);

const ROOT_EXPORTS = [
  'DEFAULT_TOLERANCE',
  'DatasetFormatError',
  'JsonlFormatError',
  'JudgeError',
  'KEY_RULES',
  'RetrieverError',
  'VALID_MEASURE_FORMS',
  'averagePrecision',
  'checkCitations',
  'compareEvaluations',
  'countCall',
  'defineRagOptions',
  'describeRetrieval',
  'detectAbstention',
  'documentKeyOf',
  'evaluate',
  'evaluateMeasures',
  'evaluateRun',
  'explainRanking',
  'extractCitations',
  'f1AtK',
  'faithfulness',
  'formatMeasure',
  'hitAtK',
  'isBinaryMeasure',
  'isRunEvaluation',
  'matchers',
  'measureValues',
  'ndcgAtK',
  'openAiCompatibleJudge',
  'parseEvalSetJsonl',
  'parseMeasure',
  'planMeasures',
  'precisionAtK',
  'rPrecision',
  'ragJestReporter',
  'ragVitestReporter',
  'readEvalSetFile',
  'recallAtK',
  'reciprocalRank',
  'runRetriever',
  'stableKey',
  'timeRetrieval',
  'validateJudgeResult',
  'withCallCount',
];

const LIBRARY_ENTRIES: Record<string, { source: string; dist: string; exports: string[] }> = {
  'rag-matchers': { source: 'src/index.ts', dist: 'index', exports: ROOT_EXPORTS },
  'rag-matchers/trec': {
    source: 'src/entries/trec.ts',
    dist: 'trec',
    exports: [
      'TrecFormatError',
      'formatEvalSetJsonl',
      'formatQrels',
      'formatRun',
      'formatRunJsonl',
      'fromQrels',
      'parseQrels',
      'parseRun',
      'parseRunColumns',
      'parseRunJsonl',
      'rankTrecRun',
      'readQrelsFile',
      'readRunColumnsFile',
      'readRunFile',
      'readRunJsonlFile',
      'runColumnDocId',
      'runFromColumns',
      'streamRunByQuery',
      'toQrels',
      'writeFileAtomic',
      'writeFileAtomicSync',
      'writeQrelsFile',
      'writeRunFile',
    ],
  },
  'rag-matchers/stats': {
    source: 'src/entries/stats.ts',
    dist: 'stats',
    exports: [
      'DEFAULT_CONFIDENCE',
      'DEFAULT_RESAMPLES',
      'DEFAULT_SEED',
      'bootstrapMeanInterval',
      'createRandom',
      'holmCorrection',
      'meanInterval',
      'nearestRankPercentile',
      'pairedComparison',
      'pairedRandomizationTest',
      'pairedTTest',
      'randomInt',
      'signTest',
      'wilsonInterval',
    ],
  },
  'rag-matchers/generation': {
    source: 'src/entries/generation.ts',
    dist: 'generation',
    exports: [
      'CHINESE_ABSTENTION_PHRASES',
      'CHINESE_STOP_WORDS',
      'DEFAULT_ABSTENTION_PHRASES',
      'DEFAULT_JUDGE_RUBRIC',
      'DEFAULT_MIN_OVERLAP',
      'DEFAULT_STOP_WORDS',
      'ENGLISH_ABSTENTION_PHRASES',
      'ENGLISH_STOP_WORDS',
      'buildJudgeMessages',
      'contentTerms',
      'extractJsonObject',
      'splitSentences',
    ],
  },
  'rag-matchers/report': {
    source: 'src/entries/report.ts',
    dist: 'report',
    exports: [
      'BASELINE_SCHEMA_VERSION',
      'BaselineError',
      'DEFAULT_BASELINE_PATH',
      'REPORT_SCHEMA_VERSION',
      'ReportFormatError',
      'TASK_META_KEY',
      'baselineFromRun',
      'emptyBaseline',
      'formatBaseline',
      'formatJsonReport',
      'mergeBaseline',
      'parseBaseline',
      'parseJsonReport',
      'readBaseline',
      'readBaselineSync',
      'renderConsole',
      'renderHtml',
      'renderJson',
      'renderMarkdown',
      'sampleIdOf',
      'suiteIdOf',
      'summarize',
      'updateBaseline',
      'validateBaseline',
      'validateJsonReport',
      'writeBaseline',
      'writeBaselineSync',
      'writeHtmlReport',
      'writeReports',
    ],
  },
};

const REPORTERS: Record<string, { source: string; dist: string }> = {
  'rag-matchers/vitest-reporter': { source: 'src/vitest/reporter.ts', dist: 'vitest-reporter' },
  'rag-matchers/jest-reporter': { source: 'src/jest/reporter.ts', dist: 'jest-reporter' },
};

const keysOf = (module: object) => Object.keys(module).sort();

describe('package entries', () => {
  it('the root entry holds at most 60 runtime exports, and each name lives in one entry', () => {
    expect(ROOT_EXPORTS.length).toBeLessThanOrEqual(60);
    const all = Object.values(LIBRARY_ENTRIES).flatMap((entry) => entry.exports);
    expect(all.filter((name, index) => all.indexOf(name) !== index)).toEqual([]);
  });

  it('every library entry is in package.json exports, with types for import and require', () => {
    const manifest = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    for (const [name, { dist }] of Object.entries(LIBRARY_ENTRIES)) {
      const subpath = name === 'rag-matchers' ? '.' : `./${name.slice('rag-matchers/'.length)}`;
      expect(manifest.exports[subpath], subpath).toEqual({
        import: { types: `./dist/${dist}.d.ts`, default: `./dist/${dist}.js` },
        require: { types: `./dist/${dist}.d.cts`, default: `./dist/${dist}.cjs` },
      });
    }
  });

  for (const [name, entry] of Object.entries(LIBRARY_ENTRIES)) {
    describe(name, () => {
      it('source entry', async () => {
        expect(keysOf(await import(pathToFileURL(resolve(root, entry.source)).href))).toEqual(entry.exports);
      });
      it('built ESM', async () => {
        expect(keysOf(await import(pathToFileURL(built(`${entry.dist}.js`)).href))).toEqual(entry.exports);
      });
      it('built CommonJS', () => {
        expect(keysOf(require(built(`${entry.dist}.cjs`)) as object)).toEqual(entry.exports);
      });
    });
  }

  for (const [name, entry] of Object.entries(REPORTERS)) {
    it(`${name}: the reporter class is the default export (ESM) and module.exports (CommonJS)`, async () => {
      expect(keysOf(await import(pathToFileURL(resolve(root, entry.source)).href))).toEqual(['default']);
      const esm = (await import(pathToFileURL(built(`${entry.dist}.js`)).href)) as { default: unknown };
      expect(keysOf(esm)).toEqual(['default']);
      expect(typeof esm.default).toBe('function');
      expect(typeof require(built(`${entry.dist}.cjs`))).toBe('function');
    });
  }

  it('rag-matchers/vitest and rag-matchers/jest export nothing: they register the matchers', () => {
    // Loading them needs the runner (jest's throws outside Jest), so their built files are read instead.
    for (const file of ['vitest.js', 'jest.js'])
      expect(readFileSync(built(file), 'utf8'), file).not.toMatch(/^export\s/m);
    for (const file of ['vitest.cjs', 'jest.cjs'])
      expect(readFileSync(built(file), 'utf8'), file).not.toMatch(/\bmodule\.exports\s*=|\bexports\.\w+\s*=/);
  });
});
