// How long a restore takes: ~6 MB in ~1000 files (a wallet-heavy state) and one 6 MB file (an
// LMDB data.mdb). Prints the numbers; the bound is loose because CI disks vary a lot (on a slow
// VM disk, `cp -r` of the same 1000 files takes about a second).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSnapshot, saveSnapshot } from '../../harness/snapshot/store.js';
import { cleanup, manifestInput, tempDir, writeTree } from './helpers.js';

afterEach(cleanup);

async function measure(label: string, spec: Record<string, Buffer>): Promise<number[]> {
  const cache = tempDir('cache');
  const src = join(tempDir('src'), 'daemon');
  writeTree(src, spec);
  const t0 = performance.now();
  const m = await saveSnapshot({
    cacheDir: cache,
    key: 'speed',
    sources: [{ name: 'daemon', dir: src }],
    manifest: manifestInput(),
  });
  const saveMs = performance.now() - t0;
  const out = tempDir('out');
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const r = await loadSnapshot({ cacheDir: cache, key: 'speed', targets: { daemon: join(out, `r${i}`) } });
    if (!('manifest' in r)) throw new Error(JSON.stringify(r));
    times.push(r.ms);
  }
  const mb = m.files.reduce((n, f) => n + f.size, 0) / 2 ** 20;
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `restore ${label} (${m.files.length} files, ${mb.toFixed(1)} MiB): median ${sorted[2]?.toFixed(0)} ms, ` +
      `min ${sorted[0]?.toFixed(0)} ms, max ${sorted[4]?.toFixed(0)} ms (save took ${saveMs.toFixed(0)} ms)`,
  );
  return sorted;
}

describe('restore speed', () => {
  it('~6 MB in 1000 files', async () => {
    const spec: Record<string, Buffer> = {};
    for (let i = 0; i < 1000; i++) spec[`d${i % 10}/s${i % 7}/f${i}.bin`] = randomBytes(6000 + (i % 400));
    const t = await measure('1000 files', spec);
    expect(t[2]).toBeLessThan(5000);
  });

  it('one 6 MB file', async () => {
    const t = await measure('one file', { 'testnet/lmdb/data.mdb': randomBytes(6 * 2 ** 20) });
    expect(t[2]).toBeLessThan(2000);
  });
});
