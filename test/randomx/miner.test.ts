// saltnet's own RandomX miner over a fake librandomx (fake-lib.ts: a dataset of 4096 items whose content follows
// from the seed): the nonce offset and the difficulty check, the mode picked by cost, the dataset built in steps into
// a temporary cache folder, stopped and resumed, loaded by another miner, paused by a light search, waited for while
// another process builds it, and searches that are aborted or go stale.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  datasetPaths,
  finishDataset,
  finishedDataset,
  lockBuild,
  recordPartial,
} from '../../harness/randomx/dataset-files.js';
import {
  meetsDifficulty,
  nonceOffset,
  RandomxMiner,
  type DatasetStatus,
  type MinerOptions,
  type SearchResult,
} from '../../harness/randomx/miner.js';
import { FAKE_ITEMS, fakeDataset, fakeLib, fakeLightHash, type FakeLib } from './fake-lib.js';

const SEED = '5e'.repeat(32);
const NEVER = 1n << 250n;

const dirs: string[] = [];
const miners: RandomxMiner[] = [];
afterEach(async () => {
  for (const m of miners.splice(0)) await m.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'saltnet-randomx-'));
  dirs.push(d);
  return d;
}

function miner(lib: FakeLib, o: Partial<MinerOptions> & { dir: string }): RandomxMiner {
  const m = new RandomxMiner(lib, { seed: SEED, threads: 2, buildSteps: 8, ...o });
  miners.push(m);
  return m;
}

/** The first state (the current one included) that `pred` accepts. */
function until(m: RandomxMiner, pred: (s: DatasetStatus) => boolean): Promise<DatasetStatus> {
  return new Promise((resolve) => {
    if (pred(m.state)) return resolve(m.state);
    const off = m.onState((s) => {
      if (!pred(s)) return;
      off();
      resolve(s);
    });
  });
}

const ready = (m: RandomxMiner): Promise<DatasetStatus> => until(m, (s) => s.kind === 'ready');

function varint(n: number): Buffer {
  const out: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 0x80)) out.push((n % 0x80) | 0x80);
  out.push(n);
  return Buffer.from(out);
}

/** A hashing blob: major, minor and timestamp varints, the previous block's id, the nonce, a tree root, a count. */
function blob(major = 16, minor = 16, timestamp = 1_764_460_000): Buffer {
  const prev = Buffer.alloc(32, 0xa1);
  const root = Buffer.alloc(32, 0xb2);
  return Buffer.concat([varint(major), varint(minor), varint(timestamp), prev, Buffer.alloc(4), root, varint(3)]);
}

/** The blob with `nonce` where it goes. */
function withNonce(b: Buffer, nonce: number): Buffer {
  const c = Buffer.from(b);
  c.writeUInt32LE(nonce, nonceOffset(c));
  return c;
}

/** A hash (little-endian) of the 256-bit value `v`. */
const hashOf = (v: bigint): Buffer => Buffer.from(v.toString(16).padStart(64, '0'), 'hex').reverse();

describe('nonceOffset', () => {
  it('skips three varints of any length and the 32-byte previous id', () => {
    expect(nonceOffset(blob())).toBe(1 + 1 + 5 + 32);
    // a two-byte major version and a one-byte timestamp
    const b = blob(300, 16, 100);
    expect(nonceOffset(b)).toBe(2 + 1 + 1 + 32);
    expect(b.subarray(nonceOffset(b) - 32, nonceOffset(b)).equals(Buffer.alloc(32, 0xa1))).toBe(true);
  });

  it('a blob too short for a nonce: an error naming its size', () => {
    expect(() => nonceOffset(Buffer.alloc(38, 1))).toThrow('a hashing blob of 38 bytes has no room for a nonce at 35');
    expect(() => nonceOffset(Buffer.alloc(0))).toThrow('a hashing blob of 0 bytes');
    expect(nonceOffset(Buffer.alloc(39, 1))).toBe(35);
  });
});

describe('meetsDifficulty', () => {
  const MAX = (1n << 256n) - 1n;

  it('difficulty 1 accepts every hash; the largest hash fails at 2', () => {
    expect(meetsDifficulty(Buffer.alloc(32, 0xff), 1n)).toBe(true);
    expect(meetsDifficulty(Buffer.alloc(32, 0xff), 2n)).toBe(false);
    expect(meetsDifficulty(Buffer.alloc(32, 0), 1n << 200n)).toBe(true);
  });

  it('the boundary: hash · d < 2^256, the hash read little-endian', () => {
    for (const d of [3n, 500n, 1_000_003n]) {
      const under = (1n << 256n) / d; // floor: under · d ≤ 2^256 - 1
      expect(meetsDifficulty(hashOf(under), d)).toBe(true);
      expect(meetsDifficulty(hashOf(under + 1n), d)).toBe(false);
    }
    expect(meetsDifficulty(hashOf(MAX / 2n), 2n)).toBe(true);
    // the high byte is the last one: 0xff there is a large hash, 0xff in the first byte a small one
    const high = Buffer.alloc(32);
    high[31] = 0xff;
    const low = Buffer.alloc(32);
    low[0] = 0xff;
    expect(meetsDifficulty(high, 1000n)).toBe(false);
    expect(meetsDifficulty(low, 1000n)).toBe(true);
  });
});

describe('RandomxMiner.modeFor', () => {
  it('absent dataset: many blocks are worth the build (full), one block is not (light); a choice given wins', () => {
    const m = miner(fakeLib(), { dir: tmp() });
    expect(m.state.kind).toBe('absent');
    expect(m.modeFor(1000, 500)).toBe('full');
    expect(m.modeFor(1, 500)).toBe('light');
    expect(m.modeFor(1000, 500, 'light')).toBe('light');
    expect(m.modeFor(1, 500, 'full')).toBe('full');
  });

  it('ready dataset: full, unless light is asked for', async () => {
    const m = miner(fakeLib(), { dir: tmp() });
    const release = m.hold();
    await ready(m);
    release();
    expect(m.modeFor(1, 1)).toBe('full');
    // even where the measured rates would make light mode cheaper: the dataset is there already
    m.rates.light = 10_000;
    m.rates.full = 1;
    expect(m.modeFor(1, 1)).toBe('full');
    expect(m.modeFor(1, 500, 'light')).toBe('light');
  });
});

describe('RandomxMiner: the dataset built, loaded, resumed', () => {
  it('a build writes <seed>.dataset (itemCount · 64 bytes) and its meta in steps; no partial, the lock released', async () => {
    const dir = tmp();
    const lib = fakeLib();
    const m = miner(lib, { dir });
    const events: DatasetStatus[] = [];
    m.onState((s) => events.push(s));
    const release = m.hold();
    await ready(m);
    await m.prepare();
    release();
    expect(m.state).toMatchObject({ kind: 'ready', source: 'built' });
    const p = datasetPaths(dir, SEED);
    expect(readFileSync(p.file).equals(fakeDataset(SEED))).toBe(true);
    expect(readFileSync(p.file).length).toBe(FAKE_ITEMS * 64);
    const meta = JSON.parse(readFileSync(p.meta, 'utf8'));
    expect(meta).toMatchObject({ seed: SEED, items: FAKE_ITEMS, threads: 2, library: 'fake-librandomx' });
    expect(meta.buildMs).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(Date.parse(meta.builtAt))).toBe(false);
    expect(existsSync(p.partial)).toBe(false);
    expect(existsSync(p.progress)).toBe(false);
    expect(existsSync(`${p.lock}.lock`)).toBe(false);
    const steps = events.filter((e) => e.kind === 'building').map((e) => (e as { done: number }).done);
    expect(steps).toEqual([0, 512, 1024, 1536, 2048, 2560, 3072, 3584, 4096]);
    expect(lib.initialised).toBe(FAKE_ITEMS);
    expect(lib.datasetBytes().equals(fakeDataset(SEED))).toBe(true);
  });

  it('another miner loads it from the folder (nothing built) and its full search agrees with light mode', async () => {
    const dir = tmp();
    const first = miner(fakeLib(), { dir });
    const r1 = first.hold();
    await ready(first);
    await first.prepare();
    r1();
    const lib = fakeLib();
    const m = miner(lib, { dir });
    const r2 = m.hold();
    await ready(m);
    r2();
    expect(m.state).toMatchObject({ kind: 'ready', source: 'cache' });
    expect(lib.initialised).toBe(0);
    expect(lib.datasetBytes().equals(fakeDataset(SEED))).toBe(true);
    const b = blob();
    const found = await m.search({ blob: b, nonceOffset: nonceOffset(b), difficulty: 50n, mode: 'full' });
    if (!('nonce' in found)) throw new Error('no nonce found');
    expect(meetsDifficulty(found.hash, 50n)).toBe(true);
    expect(found.hash.equals(fakeLightHash(SEED, withNonce(b, found.nonce)))).toBe(true);
    expect((await m.lightHash(withNonce(b, found.nonce))).equals(found.hash)).toBe(true);
    await m.close();
    expect(lib.live()).toBe(0);
  });

  it('a load nobody holds any more stops between two reads (a testnet stopped at once exits at once); a later hold loads it whole', async () => {
    const dir = tmp();
    const first = miner(fakeLib(), { dir });
    const r1 = first.hold();
    await ready(first);
    r1();
    const lib = fakeLib();
    const read = lib.readInto.bind(lib);
    let reads = 0;
    let release = (): void => undefined;
    // Released during the second round of reads (the first four start within hold()).
    lib.readInto = async (...a) => {
      if (++reads === 5) release();
      return read(...a);
    };
    // 4096 items of 64 bytes in reads of 1 KiB: 256 reads for the whole file.
    const m = miner(lib, { dir, readStep: 1024 });
    release = m.hold();
    await m.prepare();
    expect(m.state.kind).toBe('absent');
    expect(reads).toBeLessThanOrEqual(8);
    const again = m.hold();
    await ready(m);
    again();
    expect(m.state).toMatchObject({ kind: 'ready', source: 'cache' });
    expect(reads).toBeGreaterThanOrEqual(256);
    expect(lib.datasetBytes().equals(fakeDataset(SEED))).toBe(true);
  });

  it('a damaged dataset file: full mode disagrees with light mode; discardDataset removes it and a hold builds it', async () => {
    const dir = tmp();
    const p = datasetPaths(dir, SEED);
    writeFileSync(p.file, Buffer.alloc(FAKE_ITEMS * 64));
    const lib = fakeLib();
    const m = miner(lib, { dir });
    const r = m.hold();
    await ready(m);
    r();
    expect(m.state).toMatchObject({ kind: 'ready', source: 'cache' });
    const b = blob();
    const found = await m.search({ blob: b, nonceOffset: nonceOffset(b), difficulty: 1n, mode: 'full' });
    if (!('nonce' in found)) throw new Error('no nonce found');
    expect((await m.lightHash(withNonce(b, found.nonce))).equals(found.hash)).toBe(false);
    m.discardDataset();
    expect(m.state.kind).toBe('absent');
    expect(existsSync(p.file)).toBe(false);
    expect(finishedDataset(dir, SEED, FAKE_ITEMS)).toBeUndefined();
    const again = m.hold();
    await ready(m);
    again();
    expect(m.state).toMatchObject({ kind: 'ready', source: 'built' });
    expect(readFileSync(p.file).equals(fakeDataset(SEED))).toBe(true);
  });

  it('discardDataset removes the dataset, its meta and a partial build', async () => {
    const dir = tmp();
    const m = miner(fakeLib(), { dir });
    const r = m.hold();
    await ready(m);
    await m.prepare();
    r();
    const p = datasetPaths(dir, SEED);
    writeFileSync(p.partial, 'x');
    recordPartial(dir, SEED, 0);
    m.discardDataset();
    for (const f of [p.file, p.meta, p.partial, p.progress]) expect(existsSync(f), f).toBe(false);
    expect(m.state.kind).toBe('absent');
  });
});

/** Hold a build and let go of it once its first step is written; resolves when it has stopped. */
function stopAfterFirstStep(m: RandomxMiner): Promise<void> {
  return new Promise((resolve) => {
    let release: (() => void) | undefined;
    const off = m.onState((s) => {
      if (s.kind === 'building' && s.done > s.resumedFrom) release?.();
      if (s.kind === 'absent') {
        off();
        resolve();
      }
    });
    release = m.hold();
  });
}

describe('RandomxMiner: a build nobody holds stops, and goes on later', () => {
  it('released after its first step: a partial file and its record stay, state absent; a later hold resumes', async () => {
    const dir = tmp();
    const lib = fakeLib();
    const m = miner(lib, { dir });
    await stopAfterFirstStep(m);
    const p = datasetPaths(dir, SEED);
    expect(m.state.kind).toBe('absent');
    expect(existsSync(p.file)).toBe(false);
    expect(readFileSync(p.partial).length).toBe(512 * 64);
    expect(JSON.parse(readFileSync(p.progress, 'utf8'))).toEqual({ items: 512 });
    expect(existsSync(`${p.lock}.lock`)).toBe(false);
    expect(lib.initialised).toBe(512);

    const events: DatasetStatus[] = [];
    m.onState((s) => events.push(s));
    const r = m.hold();
    await ready(m);
    await m.prepare();
    r();
    expect(events.find((e) => e.kind === 'building')).toMatchObject({ done: 512, resumedFrom: 512 });
    expect(lib.initialised).toBe(FAKE_ITEMS); // the first 512 items were not built again

    const whole = tmp();
    const straight = miner(fakeLib(), { dir: whole });
    const r2 = straight.hold();
    await ready(straight);
    await straight.prepare();
    r2();
    expect(readFileSync(p.file).equals(readFileSync(datasetPaths(whole, SEED).file))).toBe(true);
    expect(existsSync(p.partial) || existsSync(p.progress)).toBe(false);
  });

  it('resumed by another process: the partial file is read into its memory, the rest built', async () => {
    const dir = tmp();
    await stopAfterFirstStep(miner(fakeLib(), { dir }));
    const lib = fakeLib();
    const m = miner(lib, { dir });
    const r = m.hold();
    const resumed = await until(m, (s) => s.kind === 'building');
    expect(resumed).toMatchObject({ done: 512, resumedFrom: 512 });
    await ready(m);
    r();
    expect(lib.initialised).toBe(FAKE_ITEMS - 512);
    expect(lib.datasetBytes().equals(fakeDataset(SEED))).toBe(true);
  });

  it('a light search pauses the build (no step while it hashes); the build goes on after it', async () => {
    const dir = tmp();
    const lib = fakeLib();
    const m = miner(lib, { dir, buildSteps: 16 });
    const b = blob();
    let progressed = false;
    const release = m.hold();
    const result = await new Promise<SearchResult>((resolve, reject) => {
      const off = m.onState((s) => {
        if (s.kind !== 'building' || s.done === 0) return;
        off();
        const before = lib.initialised;
        lib.onHash = () => {
          if (lib.initialised !== before || m.state.kind !== 'building' || m.state.done !== before) progressed = true;
        };
        m.search({
          blob: b,
          nonceOffset: nonceOffset(b),
          difficulty: NEVER,
          mode: 'light',
          stale: async () => lib.hashes >= 300,
          checkEveryMs: 0,
        }).then(resolve, reject);
      });
    });
    lib.onHash = undefined;
    expect(result).toMatchObject({ stale: true });
    expect(lib.hashes).toBeGreaterThanOrEqual(300);
    expect(progressed).toBe(false);
    expect(lib.initialised).toBe(256);
    await ready(m);
    release();
    expect(readFileSync(datasetPaths(dir, SEED).file).equals(fakeDataset(SEED))).toBe(true);
  });

  it('a full search on an absent dataset waits for the build, then finds', async () => {
    const dir = tmp();
    const m = miner(fakeLib(), { dir });
    const b = blob();
    const found = await m.search({ blob: b, nonceOffset: nonceOffset(b), difficulty: 20n, mode: 'full' });
    expect(m.state).toMatchObject({ kind: 'ready', source: 'built' });
    if (!('nonce' in found)) throw new Error('no nonce found');
    expect(found.hash.equals(fakeLightHash(SEED, withNonce(b, found.nonce)))).toBe(true);
  });
});

describe('RandomxMiner: another process builds', () => {
  it('the lock held elsewhere: building (elsewhere, its progress), then the file loaded when it appears', async () => {
    const dir = tmp();
    const p = datasetPaths(dir, SEED);
    const unlock = await lockBuild(dir, SEED);
    if (!unlock) throw new Error('the lock was not free');
    writeFileSync(p.partial, fakeDataset(SEED).subarray(0, 1024 * 64));
    recordPartial(dir, SEED, 1024);
    const lib = fakeLib();
    const m = miner(lib, { dir, pollMs: 5 });
    const r = m.hold();
    const s = await until(m, (x) => x.kind === 'building');
    expect(s).toMatchObject({ kind: 'building', elsewhere: true, done: 1024, total: FAKE_ITEMS, resumedFrom: 1024 });
    // that process finishes
    writeFileSync(p.partial, fakeDataset(SEED));
    finishDataset(dir, {
      seed: SEED,
      items: FAKE_ITEMS,
      buildMs: 1,
      threads: 1,
      builtAt: new Date().toISOString(),
      library: 'elsewhere',
    });
    await ready(m);
    r();
    await unlock();
    expect(m.state).toMatchObject({ kind: 'ready', source: 'cache' });
    expect(lib.initialised).toBe(0);
    expect(lib.datasetBytes().equals(fakeDataset(SEED))).toBe(true);
  });
});

describe('RandomxMiner.search: aborted or stale', () => {
  it('an abort mid-search rejects and stops hashing; the pause it took is given back', async () => {
    const dir = tmp();
    const lib = fakeLib();
    const m = miner(lib, { dir });
    const ac = new AbortController();
    lib.onHash = (n) => n === 5 && ac.abort();
    const b = blob();
    const job = { blob: b, nonceOffset: nonceOffset(b), difficulty: NEVER, mode: 'light' as const };
    await expect(m.search({ ...job, signal: ac.signal })).rejects.toThrow(/aborted/);
    expect(lib.hashes).toBeLessThanOrEqual(6);
    await expect(m.search({ ...job, signal: AbortSignal.abort() })).rejects.toThrow(/aborted/);
    expect(lib.hashes).toBeLessThanOrEqual(6);
    // no pause left behind: a build goes to the end
    const r = m.hold();
    await ready(m);
    r();
  });

  it('stale: the search ends with {stale: true} and the hashes it made', async () => {
    const lib = fakeLib();
    const m = miner(lib, { dir: tmp() });
    const b = blob();
    const res = await m.search({
      blob: b,
      nonceOffset: nonceOffset(b),
      difficulty: NEVER,
      mode: 'light',
      stale: async () => lib.hashes >= 10,
      checkEveryMs: 0,
    });
    expect(res).toEqual({ stale: true, hashes: lib.hashes });
    expect(lib.hashes).toBeGreaterThanOrEqual(10);
  });
});
