// A save killed with SIGKILL at any moment leaves either no snapshot under <key> or a complete one
// (the old or the new), never half of one; the next save cleans up what the killed one left.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSnapshot, saveSnapshot } from '../../harness/snapshot/store.js';
import { cleanup, manifestInput, readTree, SAVE_CHILD, sleep, tempDir, writeTree } from './helpers.js';

const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  cleanup();
});

const KEY = 'sim-d500-h1201-1111aaaa2222';

/** A daemon-like folder of many small files in nested folders. */
function manyFiles(root: string, n: number, variant: string): string {
  const spec: Record<string, string> = {};
  for (let i = 0; i < n; i++)
    spec[`d${i % 7}/sub${i % 3}/f${i}.bin`] = `${variant}:${i}:`.padEnd(100 + (i % 50), variant);
  writeTree(root, spec);
  return root;
}

function startSave(
  cache: string,
  dir: string,
  marker: string,
  delayMs: number,
  variant: string,
): { child: ChildProcess; exited: Promise<void> } {
  const child = spawn(process.execPath, [SAVE_CHILD, cache, KEY, dir, marker, String(delayMs), variant], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  void exited.then(() => {
    if (stderr.trim()) console.error(stderr);
  });
  return { child, exited };
}

async function waitFor(file: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${file}`);
    await sleep(2);
  }
}

/** What is under KEY now: 'none', or the variant of a snapshot that loads completely. */
async function state(cache: string, sources: Record<string, string>): Promise<string> {
  const out = join(tempDir('out'), 'daemon');
  const r = await loadSnapshot({ cacheDir: cache, key: KEY, targets: { daemon: out } });
  if ('missing' in r) return 'none';
  if ('corrupt' in r) return `CORRUPT: ${r.corrupt}`;
  const variant = String(r.manifest.extra?.variant);
  expect(readTree(out)).toEqual(readTree(sources[variant] as string));
  return variant;
}

describe('an interrupted save', () => {
  it('killed mid-copy leaves no snapshot, and the next save succeeds and cleans the leftover', async () => {
    const cache = tempDir('cache');
    const src = manyFiles(join(tempDir('src'), 'A'), 200, 'A');
    const marker = join(tempDir('marker'), 'm');
    const { child, exited } = startSave(cache, src, marker, 20, 'A');
    await waitFor(marker);
    child.kill('SIGKILL');
    await exited;
    expect(child.signalCode).toBe('SIGKILL');
    const snaps = join(cache, 'snapshots');
    const left = readdirSync(snaps);
    expect(left).toEqual([expect.stringMatching(new RegExp(`^\\.tmp-${KEY}-${child.pid}-[0-9a-f]{8}$`))]);
    expect(existsSync(join(snaps, KEY))).toBe(false);
    expect(existsSync(join(snaps, left[0] as string, 'manifest.json'))).toBe(false);
    expect(await loadSnapshot({ cacheDir: cache, key: KEY, targets: {} })).toEqual({ missing: true });

    await saveSnapshot({
      cacheDir: cache,
      key: KEY,
      sources: [{ name: 'daemon', dir: src }],
      manifest: manifestInput({ extra: { variant: 'A' } }),
    });
    expect(readdirSync(snaps)).toEqual([KEY]);
    expect(await state(cache, { A: src })).toBe('A');
  });

  it('killed mid-copy over an existing snapshot leaves the old one intact', async () => {
    const cache = tempDir('cache');
    const a = manyFiles(join(tempDir('src'), 'A'), 50, 'A');
    const b = manyFiles(join(tempDir('src'), 'B'), 200, 'B');
    await saveSnapshot({
      cacheDir: cache,
      key: KEY,
      sources: [{ name: 'daemon', dir: a }],
      manifest: manifestInput({ extra: { variant: 'A' } }),
    });
    const marker = join(tempDir('marker'), 'm');
    const { child, exited } = startSave(cache, b, marker, 20, 'B');
    await waitFor(marker);
    child.kill('SIGKILL');
    await exited;
    expect(await state(cache, { A: a, B: b })).toBe('A');
  });

  it('killed at random moments (copy, manifest, rename aside, rename) never leaves half a snapshot', async () => {
    const cache = tempDir('cache');
    const a = manyFiles(join(tempDir('src'), 'A'), 40, 'A');
    const b = manyFiles(join(tempDir('src'), 'B'), 300, 'B');
    const sources = { A: a, B: b };
    const markers = tempDir('marker');
    // How long a save over an existing snapshot takes here, from the child's start marker to its end.
    await saveSnapshot({
      cacheDir: cache,
      key: KEY,
      sources: [{ name: 'daemon', dir: a }],
      manifest: manifestInput({ extra: { variant: 'A' } }),
    });
    const calib = startSave(cache, b, join(markers, 'calib'), 0, 'B');
    await calib.exited;
    const saveMs = Number(readFileSync(join(markers, 'calib.done'), 'utf8'));
    const seen: Record<string, number> = {};
    for (let i = 0; i < 12; i++) {
      await saveSnapshot({
        cacheDir: cache,
        key: KEY,
        sources: [{ name: 'daemon', dir: a }],
        manifest: manifestInput({ extra: { variant: 'A' } }),
      });
      const marker = join(markers, `m${i}`);
      const { child, exited } = startSave(cache, b, marker, 0, 'B');
      await waitFor(`${marker}.start`);
      await sleep(Math.round(((i + 0.5) / 12) * saveMs * 1.5));
      child.kill('SIGKILL');
      await exited;
      const s = await state(cache, sources);
      expect(s).toMatch(/^(none|A|B)$/);
      seen[s] = (seen[s] ?? 0) + 1;
    }
    console.log(`interrupted saves (a save takes ~${saveMs.toFixed(0)} ms): ${JSON.stringify(seen)}`);
    // The next save cleans everything the killed ones left.
    await saveSnapshot({
      cacheDir: cache,
      key: KEY,
      sources: [{ name: 'daemon', dir: b }],
      manifest: manifestInput({ extra: { variant: 'B' } }),
    });
    expect(readdirSync(join(cache, 'snapshots'))).toEqual([KEY]);
  });
});
