import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotError } from '../../harness/snapshot/errors.js';
import { cacheKey } from '../../harness/snapshot/key.js';
import {
  clearSnapshots,
  listSnapshots,
  loadSnapshot,
  removeSnapshot,
  saveSnapshot,
} from '../../harness/snapshot/store.js';
import { cleanup, manifestInput, readTree, sampleSources, tempDir, writeTree } from './helpers.js';

afterEach(cleanup);

const KEY = 'sim-d500-h1201-0123456789ab';
const noLock = (p: string): boolean => p.endsWith('/lock.mdb');

async function saveSample(cache: string, key = KEY, variant = 'A'): Promise<{ daemon: string; wallets: string }> {
  const src = sampleSources(tempDir('src'), variant);
  await saveSnapshot({
    cacheDir: cache,
    key,
    sources: [
      { name: 'daemon', dir: src.daemon },
      { name: 'wallets', dir: src.wallets },
    ],
    manifest: manifestInput({ extra: { variant } }),
    exclude: noLock,
  });
  return src;
}

function expectSameTree(restored: string, original: string, without: string[] = []): void {
  const want = readTree(original);
  for (const w of without) delete want.files[w];
  expect(readTree(restored)).toEqual(want);
}

describe('save and load', () => {
  it('round-trips nested folders, empty folders, file modes and odd names; exclude leaves files out', async () => {
    const cache = tempDir('cache');
    const src = await saveSample(cache);
    const snap = join(cache, 'snapshots', KEY);
    expect(readdirSync(join(cache, 'snapshots'))).toEqual([KEY]);
    const manifest = JSON.parse(readFileSync(join(snap, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      formatVersion: 1,
      key: KEY,
      backend: 'sim',
      height: 1201,
      difficulty: 500,
      extra: { variant: 'A' },
    });
    expect(manifest.files.map((f: { path: string }) => f.path)).not.toContain('daemon/testnet/lmdb/lock.mdb');
    expect(manifest.files.find((f: { path: string }) => f.path === 'daemon/bin/run.sh')).toMatchObject({
      mode: 0o755,
      size: 18,
    });

    const out = tempDir('out');
    const r = await loadSnapshot({
      cacheDir: cache,
      key: KEY,
      targets: { daemon: join(out, 'a', 'daemon'), wallets: join(out, 'wallets') },
    });
    if (!('manifest' in r)) throw new Error(`expected a hit, got ${JSON.stringify(r)}`);
    expect(r.ms).toBeGreaterThan(0);
    expect(r.manifest.files).toHaveLength(manifest.files.length);
    expectSameTree(join(out, 'a', 'daemon'), src.daemon, ['testnet/lmdb/lock.mdb']);
    expectSameTree(join(out, 'wallets'), src.wallets);
    expect(readTree(join(out, 'a', 'daemon')).dirs).toContain('testnet/empty-dir');
    // Nothing but the targets was written next to them (no staging leftovers).
    expect(readdirSync(out).sort()).toEqual(['a', 'wallets']);
    expect(readdirSync(join(out, 'a'))).toEqual(['daemon']);
  });

  it('restores only the sources named, into an existing empty folder, keeping that folder', async () => {
    const cache = tempDir('cache');
    const src = await saveSample(cache);
    const target = join(tempDir('out'), 'w');
    mkdirSync(target, { mode: 0o700 });
    const r = await loadSnapshot({ cacheDir: cache, key: KEY, targets: { wallets: target } });
    expect('manifest' in r).toBe(true);
    expectSameTree(target, src.wallets);
  });

  it('is a hit for the same cache key and a miss (nothing created) for any other', async () => {
    const cache = tempDir('cache');
    const input = {
      backend: 'sim',
      binaries: { salviumd: 'f'.repeat(64) },
      difficulty: 500,
      height: 1201,
      walletSeeds: ['s1'],
      formatVersion: 1,
    };
    await saveSample(cache, cacheKey(input));
    const out = tempDir('out');
    const hit = await loadSnapshot({
      cacheDir: cache,
      key: cacheKey({ ...input }),
      targets: { daemon: join(out, 'hit') },
    });
    expect('manifest' in hit).toBe(true);
    const miss = await loadSnapshot({
      cacheDir: cache,
      key: cacheKey({ ...input, height: 1300 }),
      targets: { daemon: join(out, 'miss') },
    });
    expect(miss).toEqual({ missing: true });
    expect(existsSync(join(out, 'miss'))).toBe(false);
    expect(await loadSnapshot({ cacheDir: tempDir('empty-cache'), key: KEY, targets: {} })).toEqual({ missing: true });
  });

  it('replaces an existing snapshot atomically: the old one stays loadable until the new one is in place', async () => {
    const cache = tempDir('cache');
    const a = await saveSample(cache, KEY, 'A');
    const b = sampleSources(tempDir('src'), 'B');
    const during: string[] = [];
    await saveSnapshot({
      cacheDir: cache,
      key: KEY,
      sources: [
        { name: 'daemon', dir: b.daemon },
        { name: 'wallets', dir: b.wallets },
      ],
      manifest: manifestInput({ extra: { variant: 'B' } }),
      exclude: noLock,
      onFile: async ({ done }) => {
        if (done !== 3) return;
        // Mid-save: the snapshot under KEY is still the complete old one.
        const out = join(tempDir('mid'), 'w');
        const r = await loadSnapshot({ cacheDir: cache, key: KEY, targets: { wallets: out } });
        during.push('manifest' in r ? String(r.manifest.extra?.variant) : JSON.stringify(r));
        expectSameTree(out, a.wallets);
      },
    });
    expect(during).toEqual(['A']);
    const out = join(tempDir('out'), 'w');
    const r = await loadSnapshot({ cacheDir: cache, key: KEY, targets: { wallets: out } });
    expect('manifest' in r && r.manifest.extra).toEqual({ variant: 'B' });
    expectSameTree(out, b.wallets);
    expect(readdirSync(join(cache, 'snapshots'))).toEqual([KEY]); // the old one is gone, no leftovers
  });

  it('refuses a non-empty target or a file, naming the folder, and touches nothing', async () => {
    const cache = tempDir('cache');
    await saveSample(cache);
    const out = tempDir('out');
    writeTree(join(out, 'daemon'), { 'mine.txt': 'user data' });
    writeFileSync(join(out, 'afile'), 'x');
    const err = await loadSnapshot({
      cacheDir: cache,
      key: KEY,
      targets: { wallets: join(out, 'fresh'), daemon: join(out, 'daemon') },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SnapshotError);
    expect((err as SnapshotError).code).toBe('TARGET_NOT_EMPTY');
    expect((err as Error).message).toContain(join(out, 'daemon'));
    await expect(loadSnapshot({ cacheDir: cache, key: KEY, targets: { daemon: join(out, 'afile') } })).rejects.toThrow(
      /exists and is not a folder/,
    );
    expect(readTree(join(out, 'daemon')).files).toEqual({ 'mine.txt': expect.any(String) });
    expect(readFileSync(join(out, 'daemon', 'mine.txt'), 'utf8')).toBe('user data');
    expect(readdirSync(out).sort()).toEqual(['afile', 'daemon']);
    expect(readdirSync(join(cache, 'snapshots'))).toEqual([KEY]); // the snapshot itself is fine
  });

  it('refuses unknown sources and overlapping targets', async () => {
    const cache = tempDir('cache');
    await saveSample(cache);
    const out = tempDir('out');
    await expect(
      loadSnapshot({ cacheDir: cache, key: KEY, targets: { daemon: join(out, 'd'), wallet: join(out, 'w') } }),
    ).rejects.toThrow(/has no source wallet \(it has: daemon, wallets\)/);
    await expect(
      loadSnapshot({ cacheDir: cache, key: KEY, targets: { daemon: join(out, 'd'), wallets: join(out, 'd', 'w') } }),
    ).rejects.toThrow(/overlap/);
    expect(readdirSync(out)).toEqual([]);
  });
});

describe('save errors', () => {
  it('rejects bad keys, bad source names, missing sources and bad manifest fields, leaving nothing behind', async () => {
    const cache = tempDir('cache');
    const src = sampleSources(tempDir('src'));
    const base = {
      cacheDir: cache,
      key: KEY,
      sources: [{ name: 'daemon', dir: src.daemon }],
      manifest: manifestInput(),
    };
    await expect(saveSnapshot({ ...base, key: '../x' })).rejects.toMatchObject({ code: 'BAD_KEY' });
    await expect(saveSnapshot({ ...base, key: '.tmp-x' })).rejects.toMatchObject({ code: 'BAD_KEY' });
    await expect(
      saveSnapshot({ ...base, sources: [{ name: 'manifest.json', dir: src.daemon }] }),
    ).rejects.toMatchObject({ code: 'BAD_SOURCE' });
    await expect(
      saveSnapshot({
        ...base,
        sources: [
          { name: 'a', dir: src.daemon },
          { name: 'a', dir: src.wallets },
        ],
      }),
    ).rejects.toMatchObject({ code: 'BAD_SOURCE' });
    await expect(saveSnapshot({ ...base, sources: [{ name: 'd', dir: join(src.daemon, 'nope') }] })).rejects.toThrow(
      /does not exist/,
    );
    await expect(saveSnapshot({ ...base, manifest: manifestInput({ height: -1 }) })).rejects.toMatchObject({
      code: 'BAD_MANIFEST',
    });
    await expect(
      saveSnapshot({ ...base, manifest: manifestInput({ binaries: { salviumd: 'nothex' } }) }),
    ).rejects.toThrow(/binaries\.salviumd/);
    expect(existsSync(join(cache, 'snapshots', KEY))).toBe(false);
    expect(existsSync(join(cache, 'snapshots')) ? readdirSync(join(cache, 'snapshots')) : []).toEqual([]);
  });

  it('refuses a symlink unless it is excluded, and removes its temporary folder', async () => {
    const cache = tempDir('cache');
    const src = sampleSources(tempDir('src'));
    symlinkSync('main', join(src.wallets, 'link'));
    const opts = {
      cacheDir: cache,
      key: KEY,
      sources: [{ name: 'wallets', dir: src.wallets }],
      manifest: manifestInput(),
    };
    await expect(saveSnapshot(opts)).rejects.toThrow(/link is a symlink; .*exclude it/);
    expect(readdirSync(join(cache, 'snapshots'))).toEqual([]);
    const m = await saveSnapshot({ ...opts, exclude: (p) => p === 'wallets/link' });
    expect(m.files.map((f) => f.path)).toEqual(['wallets/bob/bob.keys', 'wallets/main', 'wallets/main.keys']);
    // A source folder may itself be a symlink to a folder.
    const linked = join(tempDir('src'), 'linked');
    symlinkSync(src.daemon, linked);
    const m2 = await saveSnapshot({
      ...opts,
      sources: [{ name: 'daemon', dir: linked }],
      exclude: (p) => p.endsWith('lock.mdb'),
    });
    expect(m2.files).toHaveLength(8);
  });
});

describe('list, remove, clear, stale folders', () => {
  it('lists summaries, removes one, clears all (corrupt ones too)', async () => {
    const cache = tempDir('cache');
    expect(listSnapshots(cache)).toEqual([]);
    await saveSample(cache, 'sim-d500-h1201-aaaaaaaaaaaa');
    await saveSample(cache, 'sim-d500-h1300-bbbbbbbbbbbb');
    const list = listSnapshots(cache);
    expect(list.map((s) => s.key)).toEqual(['sim-d500-h1201-aaaaaaaaaaaa', 'sim-d500-h1300-bbbbbbbbbbbb']);
    expect(list[0]).toMatchObject({
      backend: 'sim',
      height: 1201,
      difficulty: 500,
      files: 11,
      createdAt: expect.stringMatching(/^\d{4}-/),
    });
    expect(list[0]?.size).toBeGreaterThan(200_000);
    expect(removeSnapshot(cache, 'sim-d500-h1201-aaaaaaaaaaaa')).toBe(true);
    expect(removeSnapshot(cache, 'sim-d500-h1201-aaaaaaaaaaaa')).toBe(false);
    expect(listSnapshots(cache).map((s) => s.key)).toEqual(['sim-d500-h1300-bbbbbbbbbbbb']);
    mkdirSync(join(cache, 'snapshots', 'sim-d500-h1300-bbbbbbbbbbbb.corrupt-20250101T000000000Z'));
    expect(clearSnapshots(cache)).toBe(2);
    expect(readdirSync(join(cache, 'snapshots'))).toEqual([]);
  });

  it('cleans temporary folders whose writer is dead or that went untouched for a minute, and keeps live ones', async () => {
    const cache = tempDir('cache');
    const snaps = join(cache, 'snapshots');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const mk = (name: string, ageMs = 0): string => {
      writeTree(join(snaps, name), { 'daemon/x': 'partial' });
      if (ageMs) utimesSync(join(snaps, name), new Date(Date.now() - ageMs), new Date(Date.now() - ageMs));
      return name;
    };
    const deadTmp = mk(`.tmp-${KEY}-${dead}-0badf00d`);
    const deadOld = mk(`.old-${KEY}-${dead}-0badf00e`);
    const liveFresh = mk(`.tmp-${KEY}-${process.pid}-0badf00f`);
    const liveOld = mk(`.tmp-other-${process.pid}-0badf010`, 120_000);
    expect(listSnapshots(cache)).toEqual([]);
    expect(readdirSync(snaps)).toEqual([liveFresh]);
    expect([deadTmp, deadOld, liveOld].some((n) => existsSync(join(snaps, n)))).toBe(false);
    // A save cleans too, and clearSnapshots leaves a live writer's folder alone.
    utimesSync(join(snaps, liveFresh), new Date(0), new Date(0));
    mk(`.tmp-${KEY}-${dead}-0badf011`);
    await saveSample(cache);
    expect(readdirSync(snaps)).toEqual([KEY]);
    const live = mk(`.tmp-${KEY}-${process.pid}-0badf012`);
    expect(clearSnapshots(cache)).toBe(1);
    expect(readdirSync(snaps)).toEqual([live]);
  });
});
