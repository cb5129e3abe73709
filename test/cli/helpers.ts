// Runs a command module in-process with captured stdout/stderr.
import { Readable } from 'node:stream';
import type { CommandIO } from '../../src/cli/io.js';

export interface Captured {
  io: CommandIO;
  stdout: () => string;
  stderr: () => string;
}

export function capture(options: { stdin?: string; stderrIsTTY?: boolean } = {}): Captured {
  let out = '';
  let err = '';
  const io: CommandIO = {
    stdout: { write: (chunk: string) => ((out += chunk), true) },
    stderr: { write: (chunk: string) => ((err += chunk), true), isTTY: options.stderrIsTTY ?? false, columns: 100 },
    stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    env: {},
  };
  return { io, stdout: () => out, stderr: () => err };
}

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCommand(
  module: { run(args: readonly string[], io?: CommandIO): Promise<number> },
  args: readonly string[],
  options: { stdin?: string; stderrIsTTY?: boolean } = {},
): Promise<CommandResult> {
  const captured = capture(options);
  const code = await module.run(args, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}
