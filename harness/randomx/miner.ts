// saltnet's own RandomX miner for one seed: it finds a nonce that meets a block's difficulty, in light mode (the
// 256 MiB cache: ~26 hashes/s a thread) or in full mode (the 2080 MiB dataset: ~250 hashes/s a thread with
// transparent huge pages), on as many threads as asked. The dataset comes from the cache folder (read in about half a
// second), or is built there in the background (about 30 s on two cores, once per machine: dataset-files.ts), and
// stays in memory for the life of the process: every testnet of a process mines with the same one.
//
// Mode by cost: a job of n blocks at difficulty d costs n·d/lightRate in light mode, and (what is left of the build)
// + n·d/fullRate in full mode; modeFor picks the cheaper. A light job pauses the build (both want the cores), which
// goes on once it is done.
import { openSync, closeSync, fsyncSync } from 'node:fs';
import {
  checkSeed,
  datasetPaths,
  finishDataset,
  finishedDataset,
  ITEM_BYTES,
  lockBuild,
  partialItems,
  readMeta,
  recordPartial,
  removeDataset,
} from './dataset-files.js';
import { FLAG_FULL_MEM, FLAG_LARGE_PAGES, type Address, type RandomxLib } from './library.js';

export type HashMode = 'light' | 'full';
/** How a job picks its mode: by cost, or as given. */
export type ModeChoice = 'auto' | HashMode;

/** Where the dataset is. */
export type DatasetStatus =
  | { kind: 'absent' }
  | { kind: 'loading' }
  | { kind: 'building'; done: number; total: number; startedAt: number; resumedFrom: number; elsewhere?: boolean }
  | { kind: 'ready'; source: 'cache' | 'built'; ms: number }
  | { kind: 'failed'; reason: string };

/** Hash rates (hashes per second and thread) before any is measured on this machine (two-core EPYC, v1.1.10). */
export const LIGHT_RATE = 26;
export const FULL_RATE = 250;
/** Building the dataset on one thread, before a build has been measured here (30 s on two). */
export const BUILD_MS_ONE_THREAD = 60_000;
/** The build goes in this many steps, each written to the partial file: a later build resumes from the last one. */
const BUILD_STEPS = 128;
/** How often, while a job waits for another process's build, the dataset file is looked for. */
const POLL_ELSEWHERE_MS = 1000;
/** One read of a dataset file: 32 MiB, some milliseconds from the page cache. */
const READ_STEP = 32 * 1024 * 1024;

export interface SearchJob {
  /** The block's hashing blob (get_block_template's blockhashing_blob). */
  blob: Buffer;
  /** Where its 4-byte nonce is (nonceOffset). */
  nonceOffset: number;
  difficulty: bigint;
  mode: HashMode;
  /** The first nonce to try (default 0). */
  startNonce?: number;
  signal?: AbortSignal;
  /** Asked about every `checkEveryMs` while hashing: true abandons the search (a stale template). */
  stale?: () => Promise<boolean>;
  checkEveryMs?: number;
}

export type SearchResult =
  { nonce: number; hash: Buffer; hashes: number; ms: number } | { stale: true; hashes: number };

export interface MinerOptions {
  /** The folder of datasets (dataset-files.ts randomxDir). */
  dir: string;
  /** The seed hash (hex), get_block_template's seed_hash. */
  seed: string;
  /** Hashing and build threads. */
  threads: number;
  /** Steps of a build (default BUILD_STEPS). */
  buildSteps?: number;
  /** How often the file of another process's build is looked for (default POLL_ELSEWHERE_MS). */
  pollMs?: number;
  /** Bytes of one read of a dataset file (default READ_STEP): a load nobody holds stops between two. */
  readStep?: number;
}

/** The nonce offset in a block's hashing blob: after the major, minor and timestamp varints and the 32-byte prev id. */
export function nonceOffset(blob: Buffer): number {
  let i = 0;
  for (let field = 0; field < 3; field++) {
    while (i < blob.length && blob[i]! & 0x80) i++;
    i++;
  }
  const at = i + 32;
  if (at + 4 > blob.length) throw new Error(`a hashing blob of ${blob.length} bytes has no room for a nonce at ${at}`);
  return at;
}

const TWO_256 = 1n << 256n;

/** Whether a RandomX hash (little-endian, 256 bits) meets `difficulty`: hash × difficulty < 2^256. */
export function meetsDifficulty(hash: Buffer, difficulty: bigint): boolean {
  const value = BigInt(`0x${Buffer.from(hash).reverse().toString('hex')}`);
  return value * difficulty < TWO_256;
}

export class RandomxMiner {
  readonly seed: string;
  private state_: DatasetStatus = { kind: 'absent' };
  private cache: Address | undefined;
  private cacheReady: Promise<Address> | undefined;
  private dataset: Address | undefined;
  private preparing: Promise<void> | undefined;
  private readonly vms: Record<HashMode, Address[]> = { light: [], full: [] };
  private readonly listeners = new Set<(s: DatasetStatus) => void>();
  private pauses = 0;
  private users = 0;
  private resume: (() => void) | undefined;
  private closed = false;
  /** Measured hashes per second and thread, by mode (starting from the constants above). */
  readonly rates: Record<HashMode, number> = { light: LIGHT_RATE, full: FULL_RATE };

  constructor(
    private readonly lib: RandomxLib,
    private readonly o: MinerOptions,
  ) {
    this.seed = checkSeed(o.seed);
  }

  get state(): DatasetStatus {
    return this.state_;
  }

  get threads(): number {
    return this.o.threads;
  }

  /** Told of every change of the dataset's state (building progress included). */
  onState(listener: (s: DatasetStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(s: DatasetStatus): void {
    this.state_ = s;
    for (const l of this.listeners) l(s);
  }

  /**
   * Keep the dataset coming while held (by a testnet that may mine): it is loaded, or built in the background. A build
   * nobody holds stops between two steps, its progress kept on disk for the next (so a finished command exits).
   */
  hold(): () => void {
    this.users++;
    void this.prepare();
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (--this.users === 0) this.resume?.();
    };
  }

  /** Load the dataset from the cache folder, or build it there, once; resolves when it is ready or the build stops. */
  prepare(): Promise<void> {
    this.preparing ??= this.loadOrBuild()
      .catch((err: unknown) => {
        this.set({ kind: 'failed', reason: (err as Error).message });
      })
      .finally(() => {
        // Stopped before the end (nobody holds it): the next prepare goes on from the partial file.
        if (this.state_.kind === 'ready' || this.state_.kind === 'failed') return;
        this.preparing = undefined;
        this.set({ kind: 'absent' });
      });
    return this.preparing;
  }

  /** How long until the dataset is ready, as far as can be told now (0: it is). */
  readyInMs(): number {
    const s = this.state_;
    if (s.kind === 'ready') return 0;
    if (s.kind === 'failed') return Infinity;
    if (s.kind === 'loading') return 1000;
    const meta = readMeta(this.o.dir, this.seed);
    const fullMs = meta ? (meta.buildMs * meta.threads) / this.o.threads : BUILD_MS_ONE_THREAD / this.o.threads;
    if (s.kind === 'absent') return fullMs;
    const left = (s.total - s.done) / s.total;
    const built = s.done - s.resumedFrom;
    if (built <= 0 || s.elsewhere) return fullMs * left;
    return ((Date.now() - s.startedAt) / built) * (s.total - s.done);
  }

  /** The cheaper mode for a job of `blocks` blocks at `difficulty` (auto), or the one asked for. */
  modeFor(blocks: number, difficulty: number, choice: ModeChoice = 'auto'): HashMode {
    if (choice !== 'auto') return choice;
    if (this.state_.kind === 'ready') return 'full';
    const hashes = Math.max(blocks, 1) * difficulty;
    const lightMs = (hashes / (this.rates.light * this.o.threads)) * 1000;
    const fullMs = this.readyInMs() + (hashes / (this.rates.full * this.o.threads)) * 1000;
    return lightMs < fullMs ? 'light' : 'full';
  }

  /** Wait until the dataset is ready (it starts loading or building if it has not). */
  async datasetReady(signal?: AbortSignal): Promise<void> {
    const release = this.hold();
    try {
      while (this.state_.kind !== 'ready') {
        signal?.throwIfAborted();
        if (this.state_.kind === 'failed')
          throw new Error(`the RandomX dataset could not be made: ${this.state_.reason}`);
        void this.prepare();
        await new Promise<void>((resolve) => {
          const off = this.onState(() => {
            off();
            resolve();
          });
          signal?.addEventListener('abort', () => resolve(), { once: true });
        });
      }
    } finally {
      release();
    }
  }

  /** Find a nonce that meets the job's difficulty. A light job pauses the dataset build while it runs. */
  async search(job: SearchJob): Promise<SearchResult> {
    if (job.mode === 'full') await this.datasetReady(job.signal);
    else this.pauses++;
    try {
      const vms = await this.vmsFor(job.mode);
      const t0 = Date.now();
      let found: { nonce: number; hash: Buffer } | undefined;
      let stale = false;
      let hashes = 0;
      let lastCheck = t0;
      const start = job.startNonce ?? 0;
      const stride = vms.length;
      const worker = async (vm: Address, k: number): Promise<void> => {
        const input = Buffer.from(job.blob);
        const out = Buffer.alloc(32);
        for (let n = start + k; !found && !stale; n += stride) {
          if (job.signal?.aborted) return;
          input.writeUInt32LE(n >>> 0, job.nonceOffset);
          await this.lib.hash(vm, input, out);
          hashes++;
          if (!found && meetsDifficulty(out, job.difficulty)) found = { nonce: n >>> 0, hash: Buffer.from(out) };
          if (k === 0 && job.stale && Date.now() - lastCheck >= (job.checkEveryMs ?? 1000)) {
            lastCheck = Date.now();
            if (await job.stale()) stale = true;
          }
        }
      };
      await Promise.all(vms.map((vm, k) => worker(vm, k)));
      job.signal?.throwIfAborted();
      const ms = Date.now() - t0;
      if (ms > 200 && hashes > 0) this.rates[job.mode] = (this.rates[job.mode] + hashes / (ms / 1000) / stride) / 2;
      if (found) return { ...found, hashes, ms };
      return { stale: true, hashes };
    } finally {
      if (job.mode === 'light' && --this.pauses === 0) this.resume?.();
    }
  }

  /** The light-mode hash of a blob (to tell a wrong dataset from a refused block). */
  async lightHash(blob: Buffer): Promise<Buffer> {
    const [vm] = await this.vmsFor('light');
    const out = Buffer.alloc(32);
    await this.lib.hash(vm!, blob, out);
    return out;
  }

  /** The dataset on disk gave a hash the daemon refused: remove it, build it again. */
  discardDataset(): void {
    removeDataset(this.o.dir, this.seed);
    for (const vm of this.vms.full.splice(0)) this.lib.destroyVm(vm);
    this.preparing = undefined;
    this.set({ kind: 'absent' });
  }

  /** Stop a build (its progress stays on disk) and free the memory. */
  async close(): Promise<void> {
    this.closed = true;
    this.resume?.();
    await this.preparing;
    for (const vm of [...this.vms.light.splice(0), ...this.vms.full.splice(0)]) this.lib.destroyVm(vm);
    if (this.dataset) this.lib.releaseDataset(this.dataset);
    if (this.cache) this.lib.releaseCache(this.cache);
    this.dataset = this.cache = undefined;
  }

  private async vmsFor(mode: HashMode): Promise<Address[]> {
    const list = this.vms[mode];
    if (list.length === 0) {
      const cache = mode === 'light' ? await this.lightCache() : 0;
      const flags = mode === 'full' ? this.lib.flags | FLAG_FULL_MEM : this.lib.flags;
      for (let k = 0; k < this.o.threads; k++) list.push(this.lib.createVm(flags, cache, this.dataset ?? 0));
    }
    return list;
  }

  private lightCache(): Promise<Address> {
    this.cacheReady ??= (async () => {
      const cache = this.lib.allocCache(this.lib.flags);
      await this.lib.initCache(cache, Buffer.from(this.seed, 'hex'));
      this.cache = cache;
      return cache;
    })();
    return this.cacheReady;
  }

  private async allocDataset(): Promise<Address> {
    if (!this.dataset) {
      // The machine's reserved huge pages where there are enough free (no compaction, every page 2 MiB); otherwise
      // normal memory, advised before a byte is touched, which the kernel then backs with 2 MiB pages where it can.
      let dataset = await this.lib.tryAllocDataset(this.lib.flags | FLAG_FULL_MEM | FLAG_LARGE_PAGES);
      if (!dataset) {
        dataset = await this.lib.allocDataset(this.lib.flags | FLAG_FULL_MEM);
        this.lib.adviseHugePages(this.lib.datasetMemory(dataset), this.lib.itemCount * ITEM_BYTES);
      }
      // Another caller may have allocated one meanwhile: one dataset per miner.
      if (this.dataset) this.lib.releaseDataset(dataset);
      else this.dataset = dataset;
    }
    return this.dataset;
  }

  private async loadOrBuild(): Promise<void> {
    const items = this.lib.itemCount;
    for (;;) {
      if (this.closed || this.users === 0) return;
      const file = finishedDataset(this.o.dir, this.seed, items);
      if (file) return this.load(file);
      const unlock = await lockBuild(this.o.dir, this.seed);
      if (unlock) {
        try {
          // Another process may have finished it while this one waited for the lock.
          const done = finishedDataset(this.o.dir, this.seed, items);
          if (done) return await this.load(done);
          return await this.build();
        } finally {
          await unlock().catch(() => undefined);
        }
      }
      // Another process builds it: say how far it got, look again in a moment.
      const got = partialItems(this.o.dir, this.seed, items);
      this.set({ kind: 'building', done: got, total: items, startedAt: Date.now(), resumedFrom: got, elsewhere: true });
      await new Promise((r) => setTimeout(r, this.o.pollMs ?? POLL_ELSEWHERE_MS));
    }
  }

  private async load(file: string): Promise<void> {
    const t0 = Date.now();
    this.set({ kind: 'loading' });
    const memory = this.lib.datasetMemory(await this.allocDataset());
    // Given up when nobody holds it any more (a testnet stopped right after its start exits at once).
    const whole = await this.readRange(file, memory, 0, this.lib.itemCount * ITEM_BYTES, () => this.users === 0);
    if (whole) this.set({ kind: 'ready', source: 'cache', ms: Date.now() - t0 });
  }

  /**
   * Read bytes [from, to) of `file` into memory: four pieces at once on libuv's threads, each read in steps (READ_STEP:
   * some milliseconds each) so that `stop()` ends it between two; false if it did.
   */
  private async readRange(
    file: string,
    memory: Address,
    from: number,
    to: number,
    stop: () => boolean = () => false,
  ): Promise<boolean> {
    const fd = openSync(file, 'r');
    try {
      const piece = Math.ceil((to - from) / 4);
      const step = this.o.readStep ?? READ_STEP;
      const jobs: Promise<void>[] = [];
      for (let at = from; at < to; at += piece) {
        const end = Math.min(at + piece, to);
        jobs.push(
          (async () => {
            for (let pos = at; pos < end && !stop();) {
              const n = await this.lib.readInto(fd, memory + pos, Math.min(step, end - pos), pos);
              if (n <= 0) throw new Error(`${file} ends at ${pos} bytes, before ${to}`);
              pos += n;
            }
          })(),
        );
      }
      await Promise.all(jobs);
      return !stop();
    } finally {
      closeSync(fd);
    }
  }

  private async build(): Promise<void> {
    const items = this.lib.itemCount;
    const p = datasetPaths(this.o.dir, this.seed);
    const dataset = await this.allocDataset();
    const memory = this.lib.datasetMemory(dataset);
    const cache = await this.lightCache();
    const resumedFrom = partialItems(this.o.dir, this.seed, items);
    if (resumedFrom > 0) await this.readRange(p.partial, memory, 0, resumedFrom * ITEM_BYTES);
    const t0 = Date.now();
    const fd = openSync(p.partial, resumedFrom > 0 ? 'r+' : 'w', 0o600);
    try {
      const step = Math.ceil(items / (this.o.buildSteps ?? BUILD_STEPS));
      let done = resumedFrom;
      this.set({ kind: 'building', done, total: items, startedAt: t0, resumedFrom });
      while (done < items) {
        while (this.pauses > 0 && this.users > 0 && !this.closed) await new Promise<void>((r) => (this.resume = r));
        if (this.closed || this.users === 0) return;
        const count = Math.min(step, items - done);
        const share = Math.ceil(count / this.o.threads);
        const parts: Promise<void>[] = [];
        for (let at = done; at < done + count; at += share)
          parts.push(this.lib.initDataset(dataset, cache, at, Math.min(share, done + count - at)));
        await Promise.all(parts);
        const bytes = count * ITEM_BYTES;
        for (let w = 0; w < bytes;) {
          const n = await this.lib.writeFrom(fd, memory + done * ITEM_BYTES + w, bytes - w, done * ITEM_BYTES + w);
          if (n <= 0) throw new Error(`writing ${p.partial} failed`);
          w += n;
        }
        done += count;
        recordPartial(this.o.dir, this.seed, done);
        this.set({ kind: 'building', done, total: items, startedAt: t0, resumedFrom });
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    const ms = Date.now() - t0;
    finishDataset(this.o.dir, {
      seed: this.seed,
      items,
      buildMs: resumedFrom === 0 ? ms : Math.round((ms * items) / (items - resumedFrom)),
      threads: this.o.threads,
      builtAt: new Date().toISOString(),
      library: this.lib.path,
    });
    this.set({ kind: 'ready', source: 'built', ms });
  }
}

const miners = new Map<string, RandomxMiner>();

/** The process's miner for a seed (one dataset in memory per seed, whatever the number of testnets). */
export function minerFor(lib: RandomxLib, o: MinerOptions): RandomxMiner {
  const key = `${o.dir}\n${o.seed}`;
  let m = miners.get(key);
  if (!m) {
    m = new RandomxMiner(lib, o);
    miners.set(key, m);
  }
  return m;
}
