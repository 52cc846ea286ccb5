// A pool of ready things, as prool's acquire/release: what a caller will want next is started in
// the background (`prepare`) while earlier work runs, and `acquire` hands over a ready one at once.
// Things are throwaway: a released one is stopped, never handed out again, and its slot starts the
// next one that was asked for.
//
// Bounds: at most `capacity` things live at once (leased, ready and starting); at most `starting`
// of them start at once (a start is CPU-heavy). An `acquire` that finds no ready or starting thing
// of its kind starts one itself, first stopping a ready thing of another kind that nobody claimed
// when the pool is full, and otherwise waits for a release.
//
// A background start that fails is dropped: logged when nobody waits on it (the `acquire` that
// comes for it later starts one of its own), the failure of the `acquire` that waits on it
// otherwise. `close()` stops everything the pool holds, leases included.

export interface PoolDefinition<O, T> {
  start(options: O): Promise<T>;
  stop(item: T): Promise<void>;
  /** Things with the same key are interchangeable. */
  key(options: O): string;
  /** Live at once: leased, ready and starting (at least 1). */
  capacity: number;
  /** Starting at once (default 1). */
  starting?: number;
  log?: (line: string) => void;
  /** What one thing is called in log lines (default "testnet"). */
  noun?: string;
}

export interface Lease<T> {
  item: T;
  /** Milliseconds `acquire` waited. */
  waitedMs: number;
  /**
   * `ready`: started in the background and ready when asked; `starting`: started in the background, waited for;
   * `started`: started by this acquire.
   */
  from: 'ready' | 'starting' | 'started';
  /** Stop the thing and free its slot. */
  release(): Promise<void>;
}

export interface PoolStats {
  capacity: number;
  ready: number;
  starting: number;
  leased: number;
  /** Asked for with prepare and not started yet. */
  queued: number;
}

type State = 'starting' | 'ready' | 'leased' | 'stopped';

interface Entry<O, T> {
  key: string;
  options: O;
  state: State;
  /** An acquire waits on this one. */
  claimed: boolean;
  started: Promise<T>;
  item?: T;
}

export class PoolClosedError extends Error {}

export class Pool<O, T> {
  private readonly entries = new Set<Entry<O, T>>();
  private readonly queue: { key: string; options: O }[] = [];
  private readonly waiters: (() => void)[] = [];
  private closed = false;
  private readonly capacity: number;
  private readonly maxStarting: number;

  constructor(private readonly def: PoolDefinition<O, T>) {
    this.capacity = Math.max(1, Math.floor(def.capacity));
    this.maxStarting = Math.max(1, Math.floor(def.starting ?? 1));
  }

  stats(): PoolStats {
    const n = (s: State): number => [...this.entries].filter((e) => e.state === s).length;
    return {
      capacity: this.capacity,
      ready: n('ready'),
      starting: n('starting'),
      leased: n('leased'),
      queued: this.queue.length,
    };
  }

  /** Start one for `options` in the background, as soon as the bounds allow (in the order asked). */
  prepare(options: O, count = 1): void {
    if (this.closed) throw new PoolClosedError(`the ${this.noun} pool is closed`);
    for (let i = 0; i < count; i++) this.queue.push({ key: this.def.key(options), options });
    this.pump();
  }

  /** A thing for `options`: a ready one at once, else one that is starting, else one started now. */
  async acquire(options: O): Promise<Lease<T>> {
    const t0 = Date.now();
    const key = this.def.key(options);
    for (;;) {
      if (this.closed) throw new PoolClosedError(`the ${this.noun} pool is closed`);
      const ready = this.find(key, 'ready');
      if (ready) return this.lease(ready, t0, 'ready');
      const starting = this.find(key, 'starting');
      if (starting) {
        // Claimed: its failure is this acquire's (the caller may try again), not a line in the log.
        starting.claimed = true;
        await starting.started;
        if (starting.state !== 'ready') throw new PoolClosedError(`the ${this.noun} pool was closed while one started`);
        return this.lease(starting, t0, 'starting');
      }
      // Our own start replaces one that was asked for in advance.
      const q = this.queue.findIndex((x) => x.key === key);
      if (q >= 0) this.queue.splice(q, 1);
      if (this.live() < this.capacity || this.evictOne()) {
        const e = this.begin(key, options, true);
        await e.started; // a failure is the caller's
        if (e.state !== 'ready') throw new PoolClosedError(`the ${this.noun} pool was closed while one started`);
        return this.lease(e, t0, 'started');
      }
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
  }

  /** Stop everything: queued starts are dropped, starting ones stopped once started, ready and leased ones now. */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    for (const w of this.waiters.splice(0)) w();
    await Promise.all([...this.entries].map((e) => this.retire(e)));
  }

  private get noun(): string {
    return this.def.noun ?? 'testnet';
  }

  private live(): number {
    return [...this.entries].filter((e) => e.state !== 'stopped').length;
  }

  private find(key: string, state: State): Entry<O, T> | undefined {
    return [...this.entries].find((e) => e.key === key && e.state === state && !e.claimed);
  }

  private lease(e: Entry<O, T>, t0: number, from: Lease<T>['from']): Lease<T> {
    e.state = 'leased';
    let released: Promise<void> | undefined;
    return {
      item: e.item as T,
      waitedMs: Date.now() - t0,
      from,
      release: () => (released ??= this.retire(e)),
    };
  }

  /** Start one; `claimed`: an acquire waits on it. */
  private begin(key: string, options: O, claimed: boolean): Entry<O, T> {
    const e: Entry<O, T> = { key, options, state: 'starting', claimed, started: this.def.start(options) };
    this.entries.add(e);
    e.started.then(
      (item) => {
        e.item = item;
        if (e.state !== 'starting') return; // closed meanwhile: retire() stops it
        e.state = 'ready';
        this.pump(); // one fewer starting: the next queued one may start
      },
      (err: unknown) => {
        e.state = 'stopped';
        this.entries.delete(e);
        if (!e.claimed) this.def.log?.(`saltnet: a ${this.noun} started in advance did not start: ${messageOf(err)}`);
        this.wake();
      },
    );
    return e;
  }

  /** Stop `e` (once started) and free its slot. */
  private async retire(e: Entry<O, T>): Promise<void> {
    if (e.state === 'stopped') return;
    e.state = 'stopped';
    try {
      const item = e.item ?? (await e.started.catch(() => undefined));
      if (item !== undefined) await this.def.stop(item);
    } finally {
      this.entries.delete(e);
      this.wake();
    }
  }

  /** Stop a ready thing nobody claimed, to make room; false when there is none. */
  private evictOne(): boolean {
    const victim = [...this.entries].find((e) => e.state === 'ready' && !e.claimed);
    if (!victim) return false;
    this.def.log?.(`saltnet: the ${this.noun} pool is full (${this.capacity}); stopping a ready one nobody asked for`);
    void this.retire(victim).catch((err: unknown) => this.def.log?.(`saltnet: stopping it failed: ${messageOf(err)}`));
    return true;
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
    this.pump();
  }

  /** Start queued ones while the bounds allow. */
  private pump(): void {
    if (this.closed) return;
    const starting = (): number => [...this.entries].filter((e) => e.state === 'starting').length;
    while (this.queue.length > 0 && this.live() < this.capacity && starting() < this.maxStarting) {
      const { key, options } = this.queue.shift()!;
      this.begin(key, options, false).started.catch(() => undefined);
    }
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message.split('\n', 1)[0]! : String(err);
}
