// Every crafted archive (crafted-archives.ts) through the library's importSnapshot: refused with its
// code and a message naming the archive and what is wrong, the cache exactly as it was; or imported.
// A few go through `saltnet snapshot load` too, and a chain state dropped into the cache by hand is
// checked the same way before it is restored.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { importSnapshot } from '../../harness/index.js';
import { restoreChain } from '../../harness/testnet/chain/chain-check.js';
import { chainFiles, chainTar, manifestOf } from './craft.js';
import { CRAFTED_ARCHIVES, seedCache } from './crafted-archives.js';
import { cleanup, tempDir } from './helpers.js';

afterEach(cleanup);

const CLI = fileURLToPath(new URL('../../dist/harness/cli/main.js', import.meta.url));

/** Every path under `dir` with its size and sha256: what "the cache as it was" compares. */
function listing(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (abs: string, rel: string): void => {
    if (!existsSync(abs)) return;
    for (const name of readdirSync(abs)) {
      const p = join(abs, name);
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(p).isDirectory()) {
        out[`${r}/`] = 'dir';
        visit(p, r);
      } else out[r] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  visit(dir, '');
  return out;
}

describe('crafted archives', () => {
  it.each(CRAFTED_ARCHIVES.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const cache = tempDir('cache');
    const file = c.build(tempDir('crafted'), cache);
    const before = listing(cache);
    if ('imported' in c.outcome) {
      const m = await importSnapshot(cache, file, c.options);
      expect(m.key).toBe(c.outcome.imported);
      expect(readdirSync(join(cache, 'snapshots'))).toEqual([m.key]);
      return;
    }
    const err: unknown = await importSnapshot(cache, file, c.options).then(
      () => 'imported',
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ name: 'SnapshotError', code: c.outcome.refused });
    const message = (err as Error).message;
    expect(message.startsWith(`cannot import ${file}: `), message).toBe(true);
    for (const re of c.outcome.says) expect(message).toMatch(re);
    // Nothing of it in the cache, not even a temporary folder.
    const after = listing(cache);
    expect(Object.keys(after).filter((p) => !(p in before))).toEqual([]);
    expect(after).toEqual(before);
  });

  it('a gzip bomb is refused having read no more than its manifest allows, far short of 1 GiB', async () => {
    const c = CRAFTED_ARCHIVES.find((x) => x.id.startsWith('gzip bomb: 1 GiB of zeros'))!;
    const file = c.build(tempDir('crafted'), tempDir('unused'));
    expect(statSync(file).size).toBeLessThan(2 << 20);
    const err = (await importSnapshot(tempDir('cache'), file).catch((e: unknown) => e)) as Error;
    const over = /over ([\d.]+) MiB uncompressed/.exec(err.message);
    expect(over, err.message).not.toBeNull();
    expect(Number(over![1])).toBeLessThan(64);
  });
});

describe('saltnet snapshot load', () => {
  const load = (file: string, cache: string) =>
    execa(process.execPath, [CLI, 'snapshot', 'load', '--import-only', '--cache-dir', cache, file], {
      reject: false,
      env: { SALTNET_STATE_DIR: join(cache, 'state') },
    });

  it.each(['claims an existing key but holds height 7', 'a symlink', 'a key made from other programs'])(
    'refuses %s in one line, without a stack trace, the cache as it was',
    async (id) => {
      const c = CRAFTED_ARCHIVES.find((x) => x.id === id)!;
      const cache = tempDir('cache');
      const file = c.build(tempDir('crafted'), cache);
      const before = listing(cache);
      const r = await load(file, cache);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^saltnet: cannot import ${file.replace(/[.]/g, '\\.')}: `));
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(listing(cache)).toEqual(before);
    },
  );

  it('names a file that is not there, and one whose name is not UTF-8', async () => {
    const cache = tempDir('cache');
    const r = await load(join(cache, 'nope.tar.gz'), cache);
    expect(r.stderr).toBe(`saltnet: cannot import ${join(cache, 'nope.tar.gz')}: no such file`);
    const bad = await load(join(cache, 'caf\uFFFD.tar.gz'), cache);
    expect(bad.stderr).toMatch(/no such file; its name is not valid UTF-8/);
  });

  it('imports a genuine archive and prints its key', async () => {
    const cache = tempDir('cache');
    const c = CRAFTED_ARCHIVES.find((x) => x.id === 'a genuine chain state')!;
    const r = await load(c.build(tempDir('crafted'), cache), cache);
    expect(r.stderr + r.stdout).toContain((c.outcome as { imported: string }).imported);
    expect(r.exitCode).toBe(0);
  });
});

describe('a chain state in the cache', () => {
  it('is restored only when its chain has the height its manifest says; else it is set aside', async () => {
    const cache = tempDir('cache');
    const good = chainFiles('sim', 1201);
    const m = manifestOf(good, { height: 1201 });
    seedCache(cache, m, good);
    const r = await restoreChain(cache, m.key, tempDir('work'));
    expect(r).toMatchObject({ manifest: { key: m.key } });

    // Dropped in by hand (a CI cache restore, say): the key of the genuine one, a chain of height 7.
    const other = tempDir('cache2');
    const low = chainFiles('sim', 7);
    seedCache(other, { ...m, files: manifestOf(low, { height: 1201 }).files }, low);
    const bad = await restoreChain(other, m.key, tempDir('work2'));
    expect(bad).toMatchObject({ corrupt: expect.stringMatching(/holds height 7, its manifest says height 1201/) });
    expect(readdirSync(join(other, 'snapshots'))[0]).toMatch(new RegExp(`^${m.key}\\.corrupt-`));
  });
});

/** A 1 MiB tmpfs at a new folder, where this machine lets the tests mount one (root on Linux); else undefined. */
function smallDisk(): string | undefined {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
  const dir = tempDir('disk');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  mounted.push(dir);
  return dir;
}
const mounted: string[] = [];
afterEach(() => {
  for (const d of mounted.splice(0)) execFileSync('umount', [d]);
});

describe('a cache on a small disk', () => {
  const bigArchive = (): string => {
    const files = chainFiles('sim', 30_000);
    const m = manifestOf(files, { height: 30_000 });
    const file = join(tempDir('crafted'), 'big.tar.gz');
    writeFileSync(file, gzipSync(chainTar(m, files)));
    return file;
  };

  it('refuses an archive larger than the free space before writing, naming the folder and both sizes', async (t) => {
    const disk = smallDisk();
    if (!disk) return t.skip();
    const err = (await importSnapshot(disk, bigArchive()).catch((e: unknown) => e)) as Error;
    expect(err).toMatchObject({ code: 'NO_SPACE' });
    expect(err.message).toMatch(
      new RegExp(`need [\\d.]+ MiB in ${disk}/snapshots, and only [\\d.]+ (KiB|MiB|bytes) is free`),
    );
    expect(readdirSync(disk)).toEqual([]);
  });

  it('a disk that fills up while importing: the file being written is named, never a bare ENOSPC', async (t) => {
    const disk = smallDisk();
    if (!disk) return t.skip();
    // The space measured first is there; it is gone (taken by another writer) by the time the files are written.
    const err = (await importSnapshot(disk, bigArchive(), { freeBytes: async () => 2 ** 40 }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(err).toMatchObject({ code: 'WRITE_FAILED' });
    expect(err.message).toMatch(
      new RegExp(
        `writing ${disk}/snapshots/\\.tmp-[^ ]+/daemon/testnet/19/lmdb/sim-blocks\\.jsonl failed: no space left on the disk \\(ENOSPC\\)`,
      ),
    );
    expect(readdirSync(disk)).toEqual([]);
  });
});
