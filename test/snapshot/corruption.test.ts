// A snapshot that fails verification is reported, moved aside to <key>.corrupt-<time> and never
// used: the targets are not even created.
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CORRUPT_KEPT_MS,
  exportSnapshot,
  listCorrupt,
  listSnapshots,
  loadSnapshot,
  pruneSnapshots,
  saveSnapshot,
} from '../../harness/snapshot/store.js';
import { cleanup, flipByte, manifestInput, readTree, sampleSources, tempDir } from './helpers.js';

afterEach(cleanup);

const KEY = 'sim-d500-h1201-c0c0c0c0c0c0';

async function setup(cache = tempDir('cache'), key = KEY): Promise<{ cache: string; snap: string }> {
  const src = sampleSources(tempDir('src'));
  await saveSnapshot({
    cacheDir: cache,
    key,
    sources: [
      { name: 'daemon', dir: src.daemon },
      { name: 'wallets', dir: src.wallets },
    ],
    manifest: manifestInput(),
  });
  return { cache, snap: join(cache, 'snapshots', key) };
}

const cases: [string, (snap: string) => void, RegExp][] = [
  [
    'a flipped byte',
    (s) => flipByte(join(s, 'daemon/testnet/lmdb/data.mdb'), 123_456),
    /daemon\/testnet\/lmdb\/data\.mdb differs from the manifest \(sha256/,
  ],
  [
    'a truncated file',
    (s) => truncateSync(join(s, 'daemon/testnet/lmdb/data.mdb'), 1000),
    /data\.mdb has 1000 bytes, the manifest says 200000/,
  ],
  [
    'a longer file',
    (s) => appendFileSync(join(s, 'wallets/main'), 'x'),
    /wallets\/main has 9 bytes, the manifest says 8/,
  ],
  ['a missing file', (s) => rmSync(join(s, 'wallets/main.keys')), /missing file wallets\/main\.keys/],
  [
    'an extra file',
    (s) => writeFileSync(join(s, 'daemon/testnet/new.bin'), 'x'),
    /extra file daemon\/testnet\/new\.bin \(not in the manifest\)/,
  ],
  ['an extra top-level file', (s) => writeFileSync(join(s, 'README'), 'x'), /extra file README/],
  ['a symlink', (s) => symlinkSync('main', join(s, 'wallets/link')), /unexpected symlink wallets\/link/],
  [
    'a broken manifest',
    (s) => writeFileSync(join(s, 'manifest.json'), '{"formatVersion": 1, "key": '),
    /manifest\.json is not valid JSON/,
  ],
  [
    'a manifest that does not fit the schema',
    (s) => {
      const m = JSON.parse(readFileSync(join(s, 'manifest.json'), 'utf8'));
      m.files[0].sha256 = 'zz';
      m.height = 'high';
      writeFileSync(join(s, 'manifest.json'), JSON.stringify(m));
    },
    /manifest\.json does not fit the manifest schema: .*(height|files\.0\.sha256)/,
  ],
  [
    'a manifest with an unsafe path',
    (s) => {
      const m = JSON.parse(readFileSync(join(s, 'manifest.json'), 'utf8'));
      m.files[0].path = 'daemon/../../../etc/passwd';
      writeFileSync(join(s, 'manifest.json'), JSON.stringify(m));
    },
    /files\.0\.path: expected a relative POSIX path/,
  ],
  [
    "another key's manifest",
    (s) => {
      const m = JSON.parse(readFileSync(join(s, 'manifest.json'), 'utf8'));
      m.key = 'sim-d500-h1201-000000000000';
      writeFileSync(join(s, 'manifest.json'), JSON.stringify(m));
    },
    /manifest\.json is for key sim-d500-h1201-000000000000, not sim-d500-h1201-c0c0c0c0c0c0/,
  ],
  ['no manifest', (s) => rmSync(join(s, 'manifest.json')), /manifest\.json is missing/],
  [
    'a file in place of the folder',
    (s) => {
      rmSync(s, { recursive: true });
      writeFileSync(s, 'oops');
    },
    /is not a folder/,
  ],
];

describe('a corrupt snapshot is reported, moved aside and never used', () => {
  it.each(cases)('%s', async (_name, damage, problem) => {
    const { cache, snap } = await setup();
    damage(snap);
    const out = tempDir('out');
    mkdirSync(join(out, 'existing-empty'));
    const r = await loadSnapshot({
      cacheDir: cache,
      key: KEY,
      targets: { daemon: join(out, 'daemon'), wallets: join(out, 'existing-empty') },
    });
    if (!('corrupt' in r)) throw new Error(`expected corrupt, got ${JSON.stringify(r).slice(0, 200)}`);
    expect(r.corrupt).toMatch(problem);
    // Moved aside, kept for inspection; the key is free for a fresh save.
    expect(existsSync(snap)).toBe(false);
    const names = readdirSync(join(cache, 'snapshots'));
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^sim-d500-h1201-c0c0c0c0c0c0\.corrupt-\d{8}T\d{9}Z$/);
    expect(r.movedTo).toBe(join(cache, 'snapshots', names[0] as string));
    // Targets untouched: the new one not created, the empty one still empty, nothing else written.
    expect(readdirSync(out)).toEqual(['existing-empty']);
    expect(readTree(join(out, 'existing-empty'))).toEqual({ files: {}, dirs: [] });
    // The next load is a plain miss.
    expect(await loadSnapshot({ cacheDir: cache, key: KEY, targets: {} })).toEqual({ missing: true });
  });

  it('export refuses a corrupt snapshot too, and moves it aside', async () => {
    const { cache, snap } = await setup();
    flipByte(join(snap, 'wallets/main'));
    const file = join(tempDir('out'), 'snap.tar.gz');
    await expect(exportSnapshot(cache, KEY, file)).rejects.toMatchObject({
      code: 'CORRUPT',
      message: expect.stringMatching(/wallets\/main differs/),
    });
    expect(existsSync(file)).toBe(false);
    expect(existsSync(snap)).toBe(false);
  });
});

describe('a snapshot set aside as corrupt is listed, and pruned', () => {
  it('listCorrupt names it with its key, when it was set aside and its size; pruneSnapshots removes only it', async () => {
    const { cache, snap } = await setup();
    flipByte(join(snap, 'wallets/main'));
    const r = await loadSnapshot({ cacheDir: cache, key: KEY, targets: {} });
    if (!('corrupt' in r)) throw new Error('expected corrupt');
    await setup(cache); // the key saved again, valid
    const [c, ...more] = listCorrupt(cache);
    expect(more).toEqual([]);
    expect(c).toMatchObject({ key: KEY, name: expect.stringMatching(/\.corrupt-/) });
    expect(join(cache, 'snapshots', c!.name)).toBe(r.movedTo);
    expect(c!.setAsideAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(c!.name).toBe(`${KEY}.corrupt-${c!.setAsideAt.replace(/[-:.]/g, '')}`);
    expect(c!.size).toBeGreaterThan(200_000);
    // Kept while it is recent; gone once it is older than that, or when asked outright. The valid one stays.
    expect(pruneSnapshots(cache, { olderThanMs: CORRUPT_KEPT_MS })).toEqual([]);
    expect(pruneSnapshots(cache, { olderThanMs: CORRUPT_KEPT_MS, now: Date.now() + CORRUPT_KEPT_MS + 1 })).toEqual([
      c!.name,
    ]);
    expect(listCorrupt(cache)).toEqual([]);
    expect(listSnapshots(cache).map((s) => s.key)).toEqual([KEY]);
    expect(existsSync(join(cache, 'snapshots', KEY, 'manifest.json'))).toBe(true);
  });

  it('a save removes those set aside more than a week ago, and keeps newer ones', async () => {
    const { cache } = await setup();
    const dir = join(cache, 'snapshots');
    const old = `${KEY}.corrupt-20200101T000000000Z`;
    const recent = `${KEY}.corrupt-${new Date().toISOString().replace(/[-:.]/g, '')}`;
    for (const n of [old, recent]) mkdirSync(join(dir, n, 'wallets'), { recursive: true });
    expect(listCorrupt(cache).map((c) => c.name)).toEqual([old, recent]);
    await setup(cache, 'sim-d1-h30-c1c1c1c1c1c1');
    expect(listCorrupt(cache).map((c) => c.name)).toEqual([recent]);
    expect(pruneSnapshots(cache)).toEqual([recent]);
  });
});
