// Temporary project folders for config tests: each is its own git root (a `.git` folder), so the
// upward search never wanders into /tmp or the real filesystem.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';
import { ConfigError, type ConfigProblem } from '../../harness/config/errors.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh folder with the given files (path → contents) and, unless `git: false`, a `.git` folder. */
export function project(files: Record<string, string> = {}, opts: { git?: boolean } = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'saltnet-config-'));
  made.push(root);
  if (opts.git !== false) mkdirSync(join(root, '.git'));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

/** The problems of a ConfigError thrown by `f` (fails the test when it does not throw one). */
export async function problemsOf(f: () => unknown): Promise<ConfigProblem[]> {
  try {
    await f();
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error('expected a ConfigError');
}
