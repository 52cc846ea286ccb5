// A RandomxLib in plain JavaScript, small enough for unit tests: a dataset of a few thousand 64-byte items whose
// content is a function of the seed, in a Buffer of this process. An "address" is a region's base number plus an
// offset into its Buffer; readInto and writeFrom move bytes between a file and that Buffer as pread and pwrite would.
// A full VM's hash reads two items of the dataset in memory, a light VM's computes the same two items from the seed:
// they agree exactly when the dataset in memory is the seed's.
import { createHash } from 'node:crypto';
import { readSync, writeSync } from 'node:fs';
import { FLAG_FULL_MEM, type Address, type RandomxLib } from '../../harness/randomx/library.js';

export const FAKE_ITEMS = 4096;
const ITEM = 64;
/** Regions are this far apart: an address is base + offset, the offset below it. */
const REGION = 0x1000_0000;
/** RANDOMX_FLAG_LARGE_PAGES */
const LARGE_PAGES = 1;

const sha = (...parts: Buffer[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};

/** Item `i` of the dataset of `seed` (the key the cache was initialised with). */
export function fakeItem(seed: Buffer, i: number): Buffer {
  return Buffer.concat([sha(seed, u32(i), u32(0)), sha(seed, u32(i), u32(1))]);
}

/** The whole dataset of `seed`, as a finished build writes it. */
export function fakeDataset(seedHex: string, items = FAKE_ITEMS): Buffer {
  const seed = Buffer.from(seedHex, 'hex');
  return Buffer.concat(Array.from({ length: items }, (_, i) => fakeItem(seed, i)));
}

/** The hash of `input` given how item `i` is found (read from the dataset, or computed from the seed). */
function fakeHash(input: Buffer, item: (i: number) => Buffer, items: number): Buffer {
  const h0 = sha(input);
  return sha(h0, item(h0.readUInt32LE(0) % items), item(h0.readUInt32LE(4) % items));
}

/** The light-mode hash of `input` under `seedHex`, computed here (what the daemon would check). */
export function fakeLightHash(seedHex: string, input: Buffer, items = FAKE_ITEMS): Buffer {
  const seed = Buffer.from(seedHex, 'hex');
  return fakeHash(input, (i) => fakeItem(seed, i), items);
}

type Vm = { kind: 'light'; cache: Address } | { kind: 'full'; dataset: Address };

export interface FakeLib extends RandomxLib {
  /** Hashes computed so far. */
  hashes: number;
  /** Called after every hash (with the count so far): a test aborts or checks something there. */
  onHash?: (n: number) => void;
  /** Items initialised so far (every initDataset call adds its count). */
  initialised: number;
  /** randomx_alloc_dataset that may fail: 0 for RANDOMX_FLAG_LARGE_PAGES unless `hugePagesFree`. */
  tryAllocDataset(flags: number): Promise<Address>;
  /** Whether a dataset in reserved huge pages can be allocated (default false: none reserved). */
  hugePagesFree: boolean;
  /** The memory of the one dataset allocated (what full VMs read). */
  datasetBytes(): Buffer;
  /** Handles allocated and not released (caches, datasets, VMs). */
  live(): number;
}

/** Let the event loop turn, as a call on a libuv thread would. */
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

export function fakeLib(items = FAKE_ITEMS): FakeLib {
  let next = 1;
  const regions = new Map<Address, Buffer>();
  const caches = new Map<Address, Buffer | undefined>();
  const vms = new Map<Address, Vm>();
  const handle = (): Address => next++ * REGION;
  /** The Buffer and offset an address points into (the region must hold `len` bytes from there). */
  const at = (addr: Address, len: number): { buf: Buffer; off: number } => {
    const base = Math.floor(addr / REGION) * REGION;
    const buf = regions.get(base);
    const off = addr - base;
    if (!buf || off + len > buf.length) throw new Error(`fake RandomX: no memory at ${addr} for ${len} bytes`);
    return { buf, off };
  };
  const lib: FakeLib = {
    path: 'fake-librandomx',
    flags: 0,
    itemCount: items,
    hashes: 0,
    initialised: 0,
    allocCache: () => {
      const h = handle();
      caches.set(h, undefined);
      return h;
    },
    initCache: async (cache, key) => {
      await turn();
      caches.set(cache, Buffer.from(key));
    },
    releaseCache: (cache) => void caches.delete(cache),
    allocDataset: async () => {
      await turn();
      const h = handle();
      regions.set(h, Buffer.alloc(items * ITEM));
      return h;
    },
    hugePagesFree: false,
    tryAllocDataset: async (flags) => (flags & LARGE_PAGES && !lib.hugePagesFree ? 0 : lib.allocDataset(flags)),
    datasetMemory: (dataset) => dataset,
    initDataset: async (dataset, cache, start, count) => {
      const seed = caches.get(cache);
      if (!seed) throw new Error('fake RandomX: initDataset with a cache not initialised');
      await turn();
      const { buf, off } = at(dataset + start * ITEM, count * ITEM);
      for (let i = 0; i < count; i++) fakeItem(seed, start + i).copy(buf, off + i * ITEM);
      lib.initialised += count;
    },
    releaseDataset: (dataset) => void regions.delete(dataset),
    createVm: (flags, cache, dataset) => {
      const h = handle();
      vms.set(h, flags & FLAG_FULL_MEM ? { kind: 'full', dataset } : { kind: 'light', cache });
      return h;
    },
    destroyVm: (vm) => void vms.delete(vm),
    hash: async (vm, input, out) => {
      await turn();
      lib.hashSync(vm, input, out);
    },
    hashSync: (vm, input, out) => {
      const v = vms.get(vm);
      if (!v) throw new Error(`fake RandomX: no VM ${vm}`);
      let item: (i: number) => Buffer;
      if (v.kind === 'full') {
        item = (i) => {
          const { buf, off } = at(v.dataset + i * ITEM, ITEM);
          return buf.subarray(off, off + ITEM);
        };
      } else {
        const seed = caches.get(v.cache);
        if (!seed) throw new Error('fake RandomX: a light VM over a cache not initialised');
        item = (i) => fakeItem(seed, i);
      }
      fakeHash(input, item, items).copy(out);
      lib.hashes++;
      lib.onHash?.(lib.hashes);
    },
    adviseHugePages: () => false,
    readInto: async (fd, addr, len, offset) => {
      await turn();
      const { buf, off } = at(addr, len);
      return readSync(fd, buf, off, len, offset);
    },
    writeFrom: async (fd, addr, len, offset) => {
      await turn();
      const { buf, off } = at(addr, len);
      return writeSync(fd, buf, off, len, offset);
    },
    datasetBytes: () => {
      if (regions.size !== 1) throw new Error(`fake RandomX: ${regions.size} datasets allocated, not one`);
      return [...regions.values()][0]!;
    },
    live: () => caches.size + regions.size + vms.size,
  };
  return lib;
}
