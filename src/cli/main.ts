#!/usr/bin/env node
// The `rag-matchers` command: dispatches to one module per subcommand (src/cli/commands/).
import { COMMANDS } from './commands.js';

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${await version()}\n`);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    process.stderr.write(`rag-matchers: unknown command '${name}'.\n\n${usage()}`);
    return 2;
  }
  const module = await command.load();
  return module.run(rest);
}

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return `Usage: rag-matchers <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun 'rag-matchers <command> --help' for a command's options.\n`;
}

async function version(): Promise<string> {
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  return (require('../package.json') as { version: string }).version;
}

const invokedDirectly =
  process.argv[1] !== undefined && /(?:^|[\\/])(?:main|cli)\.(?:c?js|ts)$|rag-matchers$/.test(process.argv[1]);
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`rag-matchers: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
