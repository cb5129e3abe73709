// `rag-matchers update -- <command…>` and `rag-matchers prune -- <command…>`: run the command that runs
// the tests with RAG_BASELINE set for it alone. It is the form the reporters print on Windows, whose
// cmd and PowerShell do not take `RAG_BASELINE=update npm test`; it works in every shell.
import { spawn } from 'node:child_process';
import { EXIT_OK, EXIT_USAGE, processIO, type CommandIO } from '../io.js';

export type BaselineModeName = 'update' | 'prune';

function usage(mode: BaselineModeName): string {
  return `Usage: rag-matchers ${mode} -- <command that runs the tests>

Runs the command with RAG_BASELINE=${mode} set for it alone, in any shell (cmd,
PowerShell, sh): ${mode === 'update' ? 'the reporter records the run into the baseline' : 'the reporter records the run and removes what it found gone'}.
Leading NAME=value words set more variables the same way
(NODE_OPTIONS=--experimental-vm-modules npx jest). The command's exit code is this command's.

Example:
  npx rag-matchers ${mode} -- npm test
`;
}

/** A leading `NAME=value` word: an environment variable for the command. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Quotes an argument for the shell that runs it on Windows (cmd), where the command goes through a shell. */
function quoteForShell(argument: string): string {
  return /^[\w@%+=:,./\\-]+$/.test(argument) ? argument : `"${argument.replace(/"/g, '""')}"`;
}

export async function runWithBaselineMode(
  mode: BaselineModeName,
  args: readonly string[],
  io: CommandIO = processIO(),
): Promise<number> {
  const command = args[0] === '--' ? args.slice(1) : [...args];
  if (command.length === 0 || command[0] === '-h' || command[0] === '--help') {
    (command.length === 0 ? io.stderr : io.stdout).write(usage(mode));
    return command.length === 0 ? EXIT_USAGE : EXIT_OK;
  }
  const env: Record<string, string | undefined> = { ...(io.env ?? process.env), RAG_BASELINE: mode };
  // `NODE_OPTIONS=… npx jest` as a POSIX shell reads it: the printed commands carry such words, and
  // cmd and PowerShell cannot.
  while (command.length > 1 && ASSIGNMENT.test(command[0]!)) {
    const word = command.shift()!;
    const equals = word.indexOf('=');
    env[word.slice(0, equals)] = word.slice(equals + 1);
  }
  // npm, npx and pnpm are .cmd files on Windows: only a shell starts them there.
  const windows = process.platform === 'win32';
  const child = windows
    ? spawn(command.map(quoteForShell).join(' '), { env, stdio: 'inherit', shell: true })
    : spawn(command[0]!, command.slice(1), { env, stdio: 'inherit' });
  return new Promise((resolve) => {
    child.on('error', (error) => {
      io.stderr.write(`rag-matchers ${mode}: could not start '${command[0]!}': ${error.message}\n`);
      resolve(EXIT_USAGE);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal !== null ? 1 : 0)));
  });
}
