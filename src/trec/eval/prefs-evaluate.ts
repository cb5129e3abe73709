// trec-eval over preference judgments (`-R prefs`, `-R qrels_prefs`): the measures -m asks for, and
// each query measured through judged-run.ts (trec_eval's -l, -J and -N do not change preference
// measures). The qrels path (evaluate.ts) is a separate one and untouched by this.
import { evaluateJudgedRun, rankDocIds, type JudgedRunFlags } from './judged-run.js';
import { MeasureSpecError } from './measures.js';
import type { OutputStream } from './output.js';
import { countPreferences } from './prefs-counts.js';
import { PREFERENCE_COUNTS, PREFERENCE_MEASURES, preferenceValue, type PreferenceMeasure } from './prefs-measures.js';
import { parsePreferences, type PreferenceFormat } from './prefs-read.js';

/** trec_eval's preference sets: `all_prefs` (every measure) and `prefs` (its short list). */
const PREFERENCE_SETS: ReadonlyMap<string, readonly string[]> = new Map([
  ['all_prefs', ['runid', 'num_q', ...PREFERENCE_MEASURES]],
  [
    'prefs',
    [
      'runid',
      'num_q',
      'prefs_num_prefs_poss',
      'prefs_num_prefs_ful',
      'prefs_num_prefs_ful_ret',
      'prefs_simp',
      'prefs_pair',
      'prefs_avgjg',
    ],
  ],
]);

/** What the preference measures' -m flags ask for, in trec_eval's print order. */
export interface PreferencePlan {
  runid: boolean;
  numQ: boolean;
  measures: PreferenceMeasure[];
  warnings: string[];
}

/** The -m flags under -R prefs: preference measures and sets, runid and num_q. */
export function planPreferenceMeasures(requests: readonly string[], format: PreferenceFormat): PreferencePlan {
  if (requests.length === 0)
    throw new MeasureSpecError(
      `-R ${format} needs the measures named (trec_eval's default set reads qrels): -m all_prefs, -m prefs or -m prefs_simp …`,
    );
  const warnings: string[] = [];
  const chosen = new Set<string>();
  for (const request of requests) {
    const dot = request.indexOf('.');
    const name = dot === -1 ? request : request.slice(0, dot);
    const members = PREFERENCE_SETS.get(name);
    if (members !== undefined) {
      for (const member of members) chosen.add(member);
      continue;
    }
    if (name !== 'runid' && name !== 'num_q' && !(PREFERENCE_MEASURES as readonly string[]).includes(name)) {
      throw new MeasureSpecError(
        `measure '${name}' does not read preference judgments (-R ${format}); with it use ${[...PREFERENCE_SETS.keys(), 'runid', 'num_q', ...PREFERENCE_MEASURES].join(', ')}`,
      );
    }
    if (dot !== -1) warnings.push(`'${name}' takes no parameters: '${request.slice(dot)}' ignored, as trec_eval does.`);
    chosen.add(name);
  }
  return {
    runid: chosen.has('runid'),
    numQ: chosen.has('num_q'),
    measures: PREFERENCE_MEASURES.filter((measure) => chosen.has(measure)),
    warnings,
  };
}

/** What to evaluate: the files, the measures and the flags that apply to preferences. */
export interface PreferenceInvocation extends JudgedRunFlags {
  format: PreferenceFormat;
  plan: PreferencePlan;
}

/** Evaluates a run against preference judgments and writes trec_eval's lines to `stdout`. */
export async function evaluatePreferences(
  invocation: PreferenceInvocation,
  streams: { stdout: OutputStream; stdin: AsyncIterable<string | Uint8Array> },
): Promise<void> {
  const { plan, format, maxDocuments } = invocation;
  await evaluateJudgedRun(
    invocation,
    {
      parse: (text, file) => parsePreferences(text, file, format),
      runid: plan.runid,
      numQ: plan.numQ,
      rows: plan.measures.map((measure) => ({ label: measure, count: PREFERENCE_COUNTS.has(measure) })),
      measure(queryId, judgments, entries, runFile) {
        const ranked = rankDocIds(entries, maxDocuments, 'ascending', queryId, runFile);
        const counts = countPreferences(queryId, judgments, ranked);
        return plan.measures.map((measure) => preferenceValue(measure, counts));
      },
    },
    streams,
  );
}
