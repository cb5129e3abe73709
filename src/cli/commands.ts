// One line per subcommand; each module exports `run(args): Promise<number>` (the exit code).
interface CommandModule {
  run(args: readonly string[]): Promise<number>;
}

export interface CommandEntry {
  summary: string;
  load: () => Promise<CommandModule>;
}

// No prototype: `rag-matchers constructor` or `__proto__` must be an unknown command, not Object's.
export const COMMANDS: Record<string, CommandEntry> = Object.create(null) as Record<string, CommandEntry>;
COMMANDS['eval'] = {
  summary: 'evaluate a run against qrels or an eval set (table, JSON or Markdown)',
  load: () => import('./commands/eval.js'),
};
COMMANDS['trec-eval'] = {
  summary: "drop-in for trec_eval 10 on every measure of its all_trec set ('trec-eval --help' lists them)",
  load: () => import('./commands/trec-eval.js'),
};
COMMANDS['compare'] = {
  summary: 'paired comparison of two runs: intervals, p-values, regressions',
  load: () => import('./commands/compare.js'),
};
COMMANDS['merge'] = {
  summary: 'combine the rag-shard-*.json reports of a sharded Jest run, compare with the baseline and gate',
  load: () => import('./commands/merge.js'),
};
COMMANDS['merge-baseline'] = {
  summary:
    "git's merge driver for rag-baseline.json: merges two branches' baselines row by row (merge-baseline %O %A %B)",
  load: () => import('./commands/merge-baseline.js'),
};
COMMANDS['report'] = {
  summary: 'draw the self-contained HTML report of a JSON report (charts, no network)',
  load: () => import('./commands/report.js'),
};
COMMANDS['history'] = {
  summary: "how each suite's measures moved over the baseline file's git history (--html draws it)",
  load: () => import('./commands/history.js'),
};
COMMANDS['plan'] = {
  summary: 'how many questions each suite of a baseline needs to catch a drop of the mean (--delta) at 80% power',
  load: () => import('./commands/plan.js'),
};
COMMANDS['update'] = {
  summary: 'run the tests with RAG_BASELINE=update set for that command alone, in any shell (update -- npm test)',
  load: async () => {
    const { runWithBaselineMode } = await import('./commands/baseline-mode.js');
    return { run: (args) => runWithBaselineMode('update', args) };
  },
};
COMMANDS['prune'] = {
  summary: 'run the tests with RAG_BASELINE=prune set for that command alone, in any shell (prune -- npm test)',
  load: async () => {
    const { runWithBaselineMode } = await import('./commands/baseline-mode.js');
    return { run: (args) => runWithBaselineMode('prune', args) };
  },
};
