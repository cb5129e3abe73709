// Which run a recorded sample belongs to. The reporter (or the typed helper, as the config loads)
// publishes a stamp — the commit and a fingerprint of the declared measures — in the environment
// before the test workers start; every test that records a sample carries it (Vitest: in task.meta,
// so it travels in blob reports; Jest: in the shard report). A merge of shards compares each test
// file's stamp with its own, so a shard from another commit, or one recorded without the declared
// measures (a blob reporter given on the command line replaces the config's reporters), is named
// instead of judged.

/** The variable that carries the stamp to the workers. */
const RUN_STAMP_ENV = 'RAG_MATCHERS_RUN';
/** Where a Vitest test carries the stamp in its task.meta. */
export const RUN_META_KEY = 'ragMatchersRun';

/** The parts of a stamp: `<declaration fingerprint> <commit>` (either may be empty). */
export interface RunStamp {
  /** Fingerprint of the declared measures ('' when nothing is declared). */
  declaration: string;
  /** The commit the tests ran on, when known ('' otherwise). */
  commit: string;
}

function formatRunStamp(stamp: RunStamp): string {
  return `${stamp.declaration} ${stamp.commit}`;
}

export function parseRunStamp(text: unknown): RunStamp | undefined {
  if (typeof text !== 'string') return undefined;
  const space = text.indexOf(' ');
  if (space < 0) return undefined;
  return { declaration: text.slice(0, space), commit: text.slice(space + 1) };
}

/** Puts the stamp in the environment the test workers will inherit. */
export function publishRunStamp(stamp: RunStamp, env: Record<string, string | undefined> = process.env): void {
  env[RUN_STAMP_ENV] = formatRunStamp(stamp);
  if (env === process.env) processStamp = UNREAD;
}

// A worker's environment is fixed when it starts: read once (see publishedDeclaration).
const UNREAD = Symbol('unread');
let processStamp: string | undefined | typeof UNREAD = UNREAD;

/** The stamp published for this process's run, as text, or undefined when none was. */
export function publishedRunStamp(): string | undefined {
  if (processStamp === UNREAD) processStamp = process.env[RUN_STAMP_ENV] || undefined;
  return processStamp;
}
