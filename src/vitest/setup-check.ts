// What the reporter reads of a finished Vitest run to tell tests that failed because the matchers
// were not registered (src/gate/setup-diagnosis.ts says what to add and where).
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import type { TestModule, Vitest } from 'vitest/node';
import { matchers } from '../../matchers/index.js';
import { toPosixPath } from '../recording/collected.js';
import type { FailedTestMessage, KnownMissTest, SetupDiagnosisInput, SetupPlace } from '../gate/setup-diagnosis.js';
import { moduleFileOf } from './collect.js';

const MATCHER_NAMES: ReadonlySet<string> = new Set(Object.keys(matchers));

/** A file path without its extension, symlinks followed: `rag-matchers/vitest` resolves to vitest.js or vitest.cjs. */
function sameFileKey(file: string): string {
  let real = file;
  try {
    real = realpathSync(file);
  } catch {
    // a path that does not exist compares as written
  }
  return real.replace(/\.[cm]?[jt]s$/, '');
}

/** Our setup entry as the project resolves it, to find it among resolved setupFiles. */
function setupEntryKey(root: string): string | undefined {
  try {
    return sameFileKey(createRequire(join(root, 'package.json')).resolve('rag-matchers/vitest'));
  } catch {
    return undefined;
  }
}

function holdsSetup(setupFiles: readonly string[] | undefined, entry: string | undefined): boolean {
  return (setupFiles ?? []).some(
    (file) => /[\\/]rag-matchers[\\/]/.test(file) || (entry !== undefined && sameFileKey(file) === entry),
  );
}

function configFileOf(config: { configFile?: string | false } | undefined, root: string): string | undefined {
  const file = config?.configFile;
  return typeof file === 'string' && file !== '' ? toPosixPath(relative(root, file)) : undefined;
}

/** The describe titles and name of a test, joined by ' > '. */
function testNameOf(test: { name: string; parent: { type: string; name?: string; parent?: unknown } }): string {
  const names = [test.name];
  for (let parent = test.parent as { type: string; name?: string; parent?: unknown }; parent.type === 'suite';) {
    names.unshift(parent.name ?? '');
    parent = parent.parent as typeof parent;
  }
  return names.join(' > ');
}

/** The names of the projects the root config defines inline (objects in `test.projects`, not paths). */
function inlineProjectNames(vitest: Vitest): Set<string> {
  const projects = (vitest.config as { projects?: unknown }).projects;
  const names = new Set<string>();
  if (!Array.isArray(projects)) return names;
  for (const entry of projects) {
    const name = (entry as { test?: { name?: unknown } } | null)?.test?.name;
    if (typeof name === 'string') names.add(name);
    else if (typeof (name as { label?: unknown } | undefined)?.label === 'string')
      names.add((name as { label: string }).label);
  }
  return names;
}

export function vitestSetupDiagnosisInput(vitest: Vitest, modules: readonly TestModule[]): SetupDiagnosisInput {
  const root = vitest.config.root;
  const entry = setupEntryKey(root);
  const failed: FailedTestMessage[] = [];
  const knownMisses: KnownMissTest[] = [];
  for (const module of modules) {
    const file = moduleFileOf(module, root);
    const project = module.project.name;
    for (const test of module.children.allTests()) {
      const result = test.result();
      const meta = test.meta() as Record<string, unknown>;
      if (result.state === 'failed')
        for (const error of result.errors ?? []) failed.push({ file, project, message: String(error.message ?? '') });
      else if (result.state === 'passed' && test.options.fails === true && meta.ragMatchers === undefined)
        knownMisses.push({ file, project, name: testNameOf(test) });
    }
  }
  const rootConfigFile = configFileOf(vitest.vite?.config as { configFile?: string | false } | undefined, root);
  const inlineNames = inlineProjectNames(vitest);
  const places: SetupPlace[] = vitest.projects.map((project) => {
    const inline = inlineNames.has(project.name);
    return {
      project: project.name,
      configFile: inline
        ? rootConfigFile
        : configFileOf(project.vite?.config as { configFile?: string | false } | undefined, root),
      hasSetup: holdsSetup(project.config.setupFiles, entry),
      inline,
    };
  });
  return {
    runner: 'vitest',
    matcherNames: MATCHER_NAMES,
    failed,
    knownMisses,
    root: { configFile: rootConfigFile, hasSetup: holdsSetup(vitest.config.setupFiles, entry) },
    places,
  };
}
