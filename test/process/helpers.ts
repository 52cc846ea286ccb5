// Shared bits of the process supervisor's tests: fixture paths, temp dirs, process checks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAlive } from '../../harness/process/registry.js';
import type { ManagedProcess } from '../../harness/process/managed.js';
import { startProcess, type ManagedProcessOptions } from '../../harness/process/managed.js';

export const FAKE = fileURLToPath(new URL('./fixtures/fake.mjs', import.meta.url));
export const HARNESS = fileURLToPath(new URL('./fixtures/harness.mjs', import.meta.url));
export const NODE = process.execPath;

const dirs: string[] = [];
const procs: ManagedProcess[] = [];

export function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'saltnet-process-test-'));
  dirs.push(d);
  return d;
}

/** Start fake.mjs with `steps`, logging into a temp dir; stopped by cleanup(). */
export function fake(steps: string[], opts: Partial<ManagedProcessOptions> = {}): ManagedProcess {
  const p = startProcess({
    name: 'fake',
    command: NODE,
    args: [FAKE, ...steps],
    ...opts,
    logFile: opts.logFile ?? join(tempDir(), 'fake.log'),
  });
  procs.push(p);
  return p;
}

export function track(p: ManagedProcess): ManagedProcess {
  procs.push(p);
  return p;
}

/** Stop every process the test started (no grace) and remove the temp dirs. */
export async function cleanup(): Promise<void> {
  await Promise.all(procs.splice(0).map((p) => p.stop({ graceMs: 0 })));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Wait until none of `pids` is alive (zombies count as dead); returns how long it took, or throws. */
export async function waitGone(pids: number[], withinMs: number): Promise<number> {
  const start = Date.now();
  while (pids.some((p) => isAlive(p))) {
    if (Date.now() - start > withinMs)
      throw new Error(`still alive after ${withinMs} ms: ${pids.filter((p) => isAlive(p)).join(', ')}`);
    await sleep(25);
  }
  return Date.now() - start;
}
