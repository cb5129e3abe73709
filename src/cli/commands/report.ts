// `rag-matchers report <report.json>`: draws the HTML report of a JSON report written by the reporters'
// `json` option (for instance a CI artifact), without running the tests again.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

import { parseJsonReport, ReportFormatError, renderHtml, writeHtmlReport, type HtmlRenderOptions } from '../../report/html.js';

const USAGE = `Usage: rag-matchers report <report.json> [options]

Draws the HTML report (summary table, means against the baseline, questions that
changed, distributions) of a JSON report written by the reporters' \`json\` option.
The page is one self-contained file: no script, no network.

Arguments:
  <report.json>        the JSON report; '-' reads it from standard input

Options:
  -o, --out <file>     where to write the HTML (default: the report's path with
                       .html instead of .json; '-' writes to standard output)
      --title <text>   the page's heading (default "RAG retrieval quality")
  -h, --help           show this help

Example:
  rag-matchers report rag-report.json --out rag-report.html
`;

export async function run(args: readonly string[], io: CommandIO = processIO()): Promise<number> {
  try {
    const parsed = parseFlags(args, {
      out: { type: 'string', short: 'o' },
      title: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (parsed.values.help === true) {
      io.stdout.write(USAGE);
      return 0;
    }
    if (parsed.positionals.length === 0) throw usageError('missing the JSON report to draw (e.g. rag-matchers report rag-report.json)');
    if (parsed.positionals.length > 1) throw usageError(`expected one JSON report, got ${parsed.positionals.length}: ${parsed.positionals.map((item) => `'${item}'`).join(', ')}`);
    const input = parsed.positionals[0]!;
    const out = lastString(parsed.values.out) ?? defaultOutput(input);
    const title = lastString(parsed.values.title);
    const options: HtmlRenderOptions = title === undefined ? {} : { title };

    const text = input === '-' ? await readAll(io.stdin) : await readFile(input);
    let report;
    try {
      report = parseJsonReport(text, input === '-' ? 'standard input' : input);
    } catch (error) {
      if (error instanceof ReportFormatError) throw new CommandFailure(error.message);
      throw error;
    }
    if (out === '-') {
      io.stdout.write(renderHtml(report, options));
      return 0;
    }
    try {
      await writeHtmlReport(out, report, options);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (typeof code === 'string') throw new CommandFailure(`cannot write '${out}': ${(error as Error).message}`);
      throw error;
    }
    io.stdout.write(`Wrote ${out} (${report.rows.length} row${report.rows.length === 1 ? '' : 's'}, ${report.counts.suites} suite${report.counts.suites === 1 ? '' : 's'})\n`);
    return 0;
  } catch (error) {
    return fail('report', io, error);
  }
}

function defaultOutput(input: string): string {
  if (input === '-') throw usageError("reading standard input needs --out <file> (or --out - for standard output)");
  const extension = path.extname(input);
  return extension.toLowerCase() === '.json' ? `${input.slice(0, -extension.length)}.html` : `${input}.html`;
}

async function readFile(file: string): Promise<string> {
  try {
    return await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new CommandFailure(`cannot read JSON report '${file}': ${reason}`);
  }
}

async function readAll(stream: AsyncIterable<string | Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

// ---- Flag parsing and output (kept in this module so it depends only on committed code) --------

/** Where the command writes; tests pass their own. Same shape as the other commands' CommandIO. */
export interface CommandIO {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
  stdin: AsyncIterable<string | Uint8Array>;
}

function processIO(): CommandIO {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin };
}

/** A failure reported as one line on stderr, exit 2; `hint` adds a pointer to --help. */
class CommandFailure extends Error {
  constructor(
    message: string,
    readonly hint = false,
  ) {
    super(message);
  }
}

const usageError = (message: string): CommandFailure => new CommandFailure(message, true);

function parseFlags<T extends ParseArgsConfig['options']>(args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    const option = /'([^']+)'/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined) throw usageError(`unknown option '${option}'`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option !== undefined && message.includes('argument missing')) throw usageError(`option '${option}' needs a value`);
    throw usageError(message.split('\n')[0] ?? message);
  }
}

function lastString(value: string | boolean | (string | boolean)[] | undefined): string | undefined {
  if (Array.isArray(value)) return value.length === 0 ? undefined : String(value[value.length - 1]);
  return typeof value === 'string' ? value : undefined;
}

function fail(command: string, io: CommandIO, error: unknown): number {
  if (!(error instanceof CommandFailure)) throw error;
  io.stderr.write(`rag-matchers ${command}: ${error.message}${error.hint ? `\nRun 'rag-matchers ${command} --help' for usage.` : ''}\n`);
  return 2;
}
