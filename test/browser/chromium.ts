// Which Chromium the browser test drives, so that `npm ci && npm test` needs no browser installed by
// hand: CHROMIUM_PATH when set (any Chromium or Chrome binary), else Debian's `chromium` when it is on
// PATH, else the Chromium that the devDependency @sparticuz/chromium ships inside its npm package
// (unpacked once into the system's temporary folder on first use).
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface ChromiumBinary {
  path: string;
  /** Where it came from, for messages. */
  source: 'CHROMIUM_PATH' | 'PATH' | '@sparticuz/chromium';
}

/** The Chromium to launch; throws when CHROMIUM_PATH names a file that is not there. */
export async function findChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumBinary> {
  const given = env.CHROMIUM_PATH?.trim();
  if (given !== undefined && given !== '') {
    if (!existsSync(given))
      throw new Error(
        `CHROMIUM_PATH is ${JSON.stringify(given)}, and there is no file there; unset it to use the packaged Chromium.`,
      );
    return { path: given, source: 'CHROMIUM_PATH' };
  }
  const onPath = executableOnPath('chromium', env.PATH ?? '');
  if (onPath !== undefined) return { path: onPath, source: 'PATH' };
  const { default: packaged } = await import('@sparticuz/chromium');
  return { path: await packaged.executablePath(), source: '@sparticuz/chromium' };
}

function executableOnPath(name: string, path: string): string | undefined {
  for (const folder of path.split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}
