// Which Chromium the browser test launches: CHROMIUM_PATH, else `chromium` on PATH, else the one inside
// the @sparticuz/chromium package, so a fresh machine needs no browser installed by hand.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { findChromium } from './chromium.js';

const folder = mkdtempSync(join(tmpdir(), 'rag-chromium-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('findChromium', () => {
  it('takes CHROMIUM_PATH first, and says so when it names no file', async () => {
    const given = join(folder, 'my-chrome');
    writeFileSync(given, '');
    expect(await findChromium({ CHROMIUM_PATH: given, PATH: '' })).toEqual({ path: given, source: 'CHROMIUM_PATH' });
    await expect(findChromium({ CHROMIUM_PATH: join(folder, 'nothing'), PATH: '' })).rejects.toThrow(
      `CHROMIUM_PATH is ${JSON.stringify(join(folder, 'nothing'))}, and there is no file there; unset it to use the packaged Chromium.`,
    );
  });

  it('then an executable `chromium` on PATH (Debian’s package)', async () => {
    const onPath = join(folder, 'chromium');
    writeFileSync(onPath, '#!/bin/sh\n');
    chmodSync(onPath, 0o755);
    expect(await findChromium({ CHROMIUM_PATH: '', PATH: `/nonexistent:${folder}` })).toEqual({
      path: onPath,
      source: 'PATH',
    });
  });

  it('else the Chromium shipped in the @sparticuz/chromium package', { timeout: 60_000 }, async () => {
    const found = await findChromium({ PATH: '/nonexistent' });
    expect(found.source).toBe('@sparticuz/chromium');
    expect(found.path).toMatch(/chromium$/);
  });
});
