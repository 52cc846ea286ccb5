// A real browser for the explorer's tests: Debian's `chromium` (apt-get install -y chromium; .ci/run
// installs it) driven by playwright-core, which downloads no browser of its own. Where none is found the
// tests skip with a message saying so; in CI (CI set) they must run, so there a missing browser fails.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { makeDirs } from '../../harness/common/mkdir.js';

/** Where the browser is: SALTNET_CHROMIUM, else Debian's. */
export const CHROMIUM = process.env['SALTNET_CHROMIUM'] ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why the browser tests cannot run here (undefined: they can). Throws in CI, where they must run. */
export function noBrowser(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const why = `no chromium at ${CHROMIUM} (apt-get install -y chromium, or set SALTNET_CHROMIUM): the browser tests are skipped`;
  if (process.env['CI']) throw new Error(`${why.split(':')[0]}, and CI must run the browser tests`);
  return why;
}

export interface Browser {
  page: Page;
  close(): Promise<void>;
}

/** A fresh headless chromium (a new --user-data-dir each time) with one page. */
export async function openBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'saltnet-chromium-'));
  // playwright passes the profile as --user-data-dir itself.
  const ctx: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 1400 },
  });
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  return {
    page,
    close: async () => {
      await ctx.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The folder the screenshots go to (.saltnet/screenshots/<name> in the checkout), made and printed. */
export function screenshotDir(name: string): string {
  const dir = resolve(import.meta.dirname, '../../.saltnet/screenshots', name);
  rmSync(dir, { recursive: true, force: true });
  makeDirs(dir);
  console.log(`explorer screenshots: ${dir}`);
  return dir;
}
