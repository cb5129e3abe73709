// Where a command writes, and how its failures become messages and exit codes.
// Commands take a CommandIO so tests can run them in-process and read what they printed.
import { DatasetFormatError } from '../dataset/errors.js';

export interface WritableLike {
  write(chunk: string): boolean;
  once?(event: 'drain', listener: () => void): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CommandIO {
  stdout: WritableLike;
  stderr: WritableLike;
  stdin: AsyncIterable<string | Uint8Array>;
  /** Environment (for NO_COLOR / CI checks); default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
}

export function processIO(): CommandIO {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

/** Exit codes shared by the commands. */
export const EXIT_OK = 0;
/** `compare --fail-on-regression` found a regression. */
export const EXIT_REGRESSION = 1;
/** Bad usage or bad input: unknown flag, unreadable file, malformed line. */
export const EXIT_USAGE = 2;

/** A failure with its exit code and a message for stderr. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_USAGE,
    /** Show "Run 'rag-matchers <command> --help'" after the message. */
    readonly showHelpHint = false,
  ) {
    super(message);
    this.name = 'CommandError';
  }
}

/** A bad flag or argument (exit 2, with a pointer to --help). */
export function usageError(message: string): CommandError {
  return new CommandError(message, EXIT_USAGE, true);
}

/** Turns file-system errors into one clear line: `cannot read run file 'x': no such file`. */
export function fileError(role: string, path: string, error: unknown): CommandError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'it is a directory'
          : error instanceof Error
            ? error.message
            : String(error);
  return new CommandError(`cannot read ${role} '${path}': ${reason}`, EXIT_USAGE);
}

/**
 * Prints a command's failure and returns its exit code. Known failures (usage, format errors) get
 * one clear message; anything else is a bug and is rethrown for main() to report.
 */
export function reportFailure(command: string, io: CommandIO, error: unknown): number {
  if (error instanceof CommandError) {
    const hint = error.showHelpHint ? `\nRun 'rag-matchers ${command} --help' for usage.` : '';
    io.stderr.write(`rag-matchers ${command}: ${error.message}${hint}\n`);
    return error.exitCode;
  }
  if (error instanceof DatasetFormatError) {
    io.stderr.write(`rag-matchers ${command}: ${error.message}\n`);
    return EXIT_USAGE;
  }
  throw error;
}
