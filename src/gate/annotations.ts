// GitHub Actions workflow commands that put the verdict's findings on the pull request's diff: one
// `::error` per question of the regressions section at its test (file and line when the runner reports
// the line), with every measure that fell, worst first; one `::error` per question of the new-or-gone
// section when its finding fails the run; a `::notice` per question of an improvement to record. Which
// findings are in which section, and which fail, is the verdict's (src/report/verdict.ts). What retrieval
// cost is one annotation per finding at its suite's file: an `::error` (first) when it fails the run (latency
// over its budget; calls per question changed with failOnCallChange), a `::notice` for a calls change that
// does not. GitHub keeps 10 errors and 10 notices per step, so each kind is capped and its last slot says
// how many more there are.
import { describeFinding, formatValue, plural } from '../report/wording.js';
import type { RunSummary, SummaryRow } from '../report/summary.js';
import type { FindingSection } from '../report/finding-kinds.js';
import { parseSuiteKey } from '../recording/collected.js';
import { visibleControls } from '../core/escape.js';
import { isAbsolute, relative } from 'node:path';
import { toPosixPath } from '../recording/collected.js';

/**
 * Whether a run prints annotations: under GitHub Actions, unless the reporter's `annotations` is false.
 * The matchers look up each test's asserting line only for such a run (or one whose samples a later
 * merge judges): elsewhere nothing shows it.
 */
export function annotationsShown(annotations: boolean, env: Record<string, string | undefined>): boolean {
  return annotations && env.GITHUB_ACTIONS === 'true';
}

/** GitHub shows at most this many annotations of one kind per step. */
const ANNOTATIONS_PER_KIND = 10;

interface Annotation {
  level: 'error' | 'notice';
  file?: string;
  line?: number;
  title: string;
  message: string;
  /** Worst first: the largest drop (or rise) over the question's measures. */
  weight: number;
}

/** A workflow command's message: %, CR and LF escaped (GitHub's rules for command data). */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value: as its message, plus ':' and ','. */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

// Question ids and file names are shown as the console shows them (visibleControls: ESC, BEL, U+202E,
// newlines as visible escapes) before GitHub's own escaping: the log and the annotation must not obey them.
function format(annotation: Annotation): string {
  const properties = [
    ...(annotation.file !== undefined ? [`file=${escapeProperty(visibleControls(annotation.file))}`] : []),
    ...(annotation.line !== undefined ? [`line=${annotation.line}`] : []),
    `title=${escapeProperty(visibleControls(annotation.title))}`,
  ];
  return `::${annotation.level} ${properties.join(',')}::${escapeData(visibleControls(annotation.message))}`;
}

/**
 * Where a question of a row was measured: its test's file and, when known, line; a describeRetrieval
 * question read from a labelled file, its line in that file.
 */
function placeOf(row: SummaryRow, sampleId: string): { file: string; line?: number } {
  const source = row.sources[row.sampleIds.indexOf(sampleId)];
  if (source?.line === undefined) return { file: row.file };
  return { file: source.lineFile ?? row.file, line: source.line };
}

/** The indexes of the verdict's findings in `section`. */
function sectionFindings(summary: RunSummary, section: FindingSection): number[] {
  return summary.verdict.sections.find((candidate) => candidate.section === section)?.findings ?? [];
}

/** One annotation per question of the findings' rows that have `status`, its measures' moves in one message. */
function perQuestion(summary: RunSummary, findings: readonly number[], status: 'regressed' | 'improved'): Annotation[] {
  const byQuestion = new Map<string, { row: SummaryRow; sampleId: string; moves: string[]; weight: number }>();
  for (const index of findings) {
    const finding = summary.findings[index]!;
    const row = summary.rows.find(
      (candidate) => candidate.suiteKey === finding.suiteKey && candidate.measure === finding.measure,
    );
    if (row?.status !== status) continue;
    for (const change of status === 'regressed' ? row.worse : row.better) {
      const key = JSON.stringify([row.suiteKey, change.sampleId]);
      const entry = byQuestion.get(key) ?? { row, sampleId: change.sampleId, moves: [], weight: 0 };
      entry.moves.push(`${row.measure} ${formatValue(change.before)} → ${formatValue(change.after)}`);
      entry.weight = Math.max(entry.weight, Math.abs(change.delta));
      byQuestion.set(key, entry);
    }
  }
  return [...byQuestion.values()].map(({ row, sampleId, moves, weight }) => ({
    level: status === 'regressed' ? 'error' : 'notice',
    ...placeOf(row, sampleId),
    title: status === 'regressed' ? `retrieval regressed: ${sampleId}` : `retrieval improved: ${sampleId}`,
    message: `${sampleId}: ${moves.join(', ')} (suite ${row.suite})${status === 'improved' ? ' — record it with RAG_BASELINE=update' : ''}`,
    weight,
  }));
}

/** Questions new to, or missing from, the baseline, when they fail the run: one annotation each. */
function newOrMissing(summary: RunSummary): Annotation[] {
  const annotations: Annotation[] = [];
  const seen = new Set<string>();
  for (const index of sectionFindings(summary, 'new-or-gone')) {
    const finding = summary.findings[index]!;
    if (!finding.fails) continue;
    const missing = summary.verdict.clears[index] === 'prune';
    const file = finding.suiteKey === '' ? undefined : parseSuiteKey(finding.suiteKey).file;
    const row = summary.rows.find((candidate) => candidate.suiteKey === finding.suiteKey);
    for (const question of finding.questions ?? []) {
      const key = JSON.stringify([finding.suiteKey, question, missing]);
      if (seen.has(key)) continue;
      seen.add(key);
      annotations.push({
        level: 'error',
        ...(row !== undefined && !missing ? placeOf(row, question) : file !== undefined ? { file } : {}),
        title: missing ? `question missing from this run: ${question}` : `question not in the baseline: ${question}`,
        message: missing
          ? `${question} (suite ${finding.suite}) is in the baseline and its tests no longer produce it — RAG_BASELINE=prune removes it`
          : `${question} (suite ${finding.suite}) is not in the baseline — RAG_BASELINE=update records it`,
        weight: 0,
      });
    }
  }
  return annotations;
}

/** What retrieval cost, one annotation per finding at its suite's file; a failing one before any question. */
function costAnnotations(summary: RunSummary, level: 'error' | 'notice'): Annotation[] {
  const annotations: Annotation[] = [];
  for (const index of sectionFindings(summary, 'cost')) {
    const finding = summary.findings[index]!;
    if ((level === 'error') !== finding.fails) continue;
    const file = finding.suiteKey === '' ? undefined : parseSuiteKey(finding.suiteKey).file;
    annotations.push({
      level,
      ...(file !== undefined ? { file } : {}),
      title:
        finding.kind === 'latency'
          ? `latency over budget: ${finding.suite}`
          : `${finding.callKind ?? ''} calls per question changed: ${finding.suite}`,
      message: describeFinding(finding, (text) => text),
      weight: Number.MAX_VALUE,
    });
  }
  return annotations;
}

/** Up to `max` annotations, worst first; when there are more, the last slot says how many. */
function capped(annotations: Annotation[], max: number, what: string): Annotation[] {
  const sorted = [...annotations].sort((a, b) => b.weight - a.weight);
  if (sorted.length <= max) return sorted;
  const shown = sorted.slice(0, max - 1);
  const rest = sorted.length - shown.length;
  return [
    ...shown,
    {
      level: sorted[0]!.level,
      title: `rag-matchers: ${plural(rest, `more ${what}`)}`,
      message: `${plural(rest, `more ${what}`)} than GitHub shows per step: see the job summary or the JSON report.`,
      weight: 0,
    },
  ];
}

/**
 * The project root's folder inside the GitHub workspace (`packages/api/`), '' at its root or outside a
 * workspace: GitHub reads an annotation's `file=` relative to the repository's root, and a monorepo
 * package's test files are relative to the package.
 */
export function workspaceFolder(rootDir: string, workspace: string | undefined): string {
  if (workspace === undefined || workspace === '') return '';
  const folder = relative(workspace, rootDir);
  if (folder === '' || folder.startsWith('..') || isAbsolute(folder)) return '';
  return `${toPosixPath(folder)}/`;
}

/**
 * The workflow commands for a summary, errors then notices, each kind capped at `max`; each `file=` is
 * prefixed with `folder` (see workspaceFolder).
 */
export function workflowAnnotations(summary: RunSummary, folder = '', max = ANNOTATIONS_PER_KIND): string[] {
  const errors = [
    ...costAnnotations(summary, 'error'),
    ...perQuestion(summary, sectionFindings(summary, 'regressions'), 'regressed'),
    ...newOrMissing(summary),
  ];
  const notices =
    summary.verdict.mode === 'compare'
      ? [
          ...costAnnotations(summary, 'notice'),
          ...perQuestion(summary, sectionFindings(summary, 'changes'), 'improved'),
        ]
      : [];
  return [...capped(errors, max, 'question'), ...capped(notices, max, 'improved question')].map((annotation) =>
    format(annotation.file === undefined ? annotation : { ...annotation, file: `${folder}${annotation.file}` }),
  );
}
