// Git conflict markers in a baseline file: those git's own line merge leaves, and those the merge driver
// (rag-matchers merge-baseline) leaves around the rows both sides changed. A file holding either is not
// JSON; the reader says which it is and how to resolve it instead of "unexpected token".

/** In the closing marker the merge driver writes, before the command that re-records the block's suite. */
const DRIVER_MARKER_TAG = 'rag-matchers merge-baseline';
const RERECORD = '; then re-record: ';

/** The three marker lines around one conflict the merge driver leaves. */
export function driverConflictMarkers(rerecordCommand: string): { open: string; separator: string; close: string } {
  return {
    open: '<<<<<<< ours',
    separator: '=======',
    close: `>>>>>>> theirs (${DRIVER_MARKER_TAG})${RERECORD}${rerecordCommand}`,
  };
}

/**
 * What is wrong and what to do, when `text` (the baseline at `path`) holds a conflict marker; else
 * undefined. `committed`: `path` is git's `<commit>:<file>`, a version in history (nothing to resolve).
 */
export function describeConflictMarkers(text: string, path: string, committed = false): string | undefined {
  const marker = /^(<{7}|={7}|>{7})(?:\s|$)/m.exec(text);
  if (marker === null) return undefined;
  const line = lineNumberAt(text, marker.index);
  if (committed)
    return `line ${line} holds a Git merge-conflict marker (${marker[1]}): this version was committed before its merge was resolved, so it holds no baseline. See it with git show ${path}`;
  const closes = [...text.matchAll(/^>{7} (.*)$/gm)].map((match) => match[1]!);
  const driverCommands = closes
    .filter((label) => label.includes(DRIVER_MARKER_TAG))
    .map((label) => label.slice(label.indexOf(RERECORD) + RERECORD.length));
  if (driverCommands.length > 0) {
    const commands = [...new Set(driverCommands)].join('; ');
    return `line ${line} holds a conflict the merge driver left (${marker[1]}): the same question was recorded differently on both branches. In each conflict keep one side's rows and delete the marker lines, then re-record just those suites: ${commands}`;
  }
  return `line ${line} holds a Git merge-conflict marker (${marker[1]}): git's line merge stopped here. To merge it without re-running anything, set up the rag-matchers merge driver once (docs/baselines-and-ci.md, "Merging baselines") and run git checkout -m ${path}; or take one side whole (git checkout --ours ${path}, or --theirs) and re-record what the other side changed with RAG_BASELINE=update.`;
}

function lineNumberAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
