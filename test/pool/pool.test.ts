// The generic pool (harness/pool/pool.ts) with things that start when the test says so: what is
// started ahead, in which order, within which bounds, and what is stopped.
import { describe, expect, it } from 'vitest';
import { Pool, PoolClosedError, type PoolDefinition } from '../../harness/pool/pool.js';

interface Thing {
  id: number;
  kind: string;
}

/** A definition whose starts wait until `finish(id)`, or fail with `fail(id)`. */
function fake(capacity: number, starting = 1) {
  let next = 0;
  const pending = new Map<number, { ok: (t: Thing) => void; no: (e: Error) => void; kind: string }>();
  const started: string[] = [];
  const stopped: number[] = [];
  const logs: string[] = [];
  const def: PoolDefinition<string, Thing> = {
    start: (kind) =>
      new Promise((ok, no) => {
        const id = ++next;
        started.push(`${id}:${kind}`);
        pending.set(id, { ok, no, kind });
      }),
    stop: async (t) => void stopped.push(t.id),
    key: (kind) => kind,
    capacity,
    starting,
    log: (l) => logs.push(l),
  };
  const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
  return {
    pool: new Pool(def),
    started,
    stopped,
    logs,
    tick,
    async finish(id: number) {
      const p = pending.get(id)!;
      pending.delete(id);
      p.ok({ id, kind: p.kind });
      await tick();
    },
    async fail(id: number) {
      const p = pending.get(id)!;
      pending.delete(id);
      p.no(new Error(`start ${id} broke`));
      await tick();
    },
  };
}

describe('Pool', () => {
  it('hands over a thing started ahead at once, and starts the next one when a slot frees', async () => {
    const f = fake(2);
    f.pool.prepare('a');
    f.pool.prepare('b');
    f.pool.prepare('c');
    // One start at a time, in the order asked.
    expect(f.started).toEqual(['1:a']);
    await f.finish(1);
    expect(f.started).toEqual(['1:a', '2:b']);
    const a = await f.pool.acquire('a');
    expect(a).toMatchObject({ item: { id: 1 }, from: 'ready' });
    await f.finish(2);
    // Two live (a leased, b ready): c waits for a slot.
    expect(f.pool.stats()).toMatchObject({ leased: 1, ready: 1, starting: 0, queued: 1 });
    await a.release();
    expect(f.stopped).toEqual([1]);
    expect(f.started).toEqual(['1:a', '2:b', '3:c']);
    await f.finish(3);
    await f.pool.close();
    expect(f.stopped.sort()).toEqual([1, 2, 3]);
  });

  it('waits for a thing that is starting, and starts one itself when none was asked for', async () => {
    const f = fake(2);
    f.pool.prepare('a');
    const waiting = f.pool.acquire('a');
    await f.finish(1);
    expect(await waiting).toMatchObject({ item: { id: 1 }, from: 'starting' });
    const own = f.pool.acquire('z');
    await f.tick();
    expect(f.started).toEqual(['1:a', '2:z']);
    await f.finish(2);
    expect(await own).toMatchObject({ item: { id: 2, kind: 'z' }, from: 'started' });
    await f.pool.close();
  });

  it('an acquire that finds the pool full of unclaimed ready things stops one of them to make room', async () => {
    const f = fake(1);
    f.pool.prepare('a');
    await f.finish(1);
    const z = f.pool.acquire('z');
    await f.tick();
    expect(f.stopped).toEqual([1]);
    expect(f.logs.join('\n')).toMatch(/pool is full \(1\); stopping a ready one nobody asked for/);
    await f.finish(2);
    expect((await z).item.kind).toBe('z');
    await f.pool.close();
  });

  it('an acquire that finds the pool full of leases waits for a release', async () => {
    const f = fake(1);
    const first = f.pool.acquire('a');
    await f.finish(1);
    const a = await first;
    let got = false;
    const second = f.pool.acquire('a').then((l) => ((got = true), l));
    await f.tick();
    expect(got).toBe(false);
    expect(f.started).toEqual(['1:a']);
    await a.release();
    await f.finish(2);
    expect((await second).item.id).toBe(2);
    expect(got).toBe(true);
    await f.pool.close();
  });

  it('a start made ahead that fails is logged and dropped; the acquire then starts its own', async () => {
    const f = fake(2);
    f.pool.prepare('a');
    await f.fail(1);
    expect(f.logs.join('\n')).toMatch(/started in advance did not start: start 1 broke/);
    const a = f.pool.acquire('a');
    await f.tick();
    await f.finish(2);
    expect((await a).item.id).toBe(2);
    await f.pool.close();
  });

  it('the failure of a start an acquire waits on is that acquire’s, whoever started it', async () => {
    const f = fake(2);
    f.pool.prepare('b');
    const b = f.pool.acquire('b');
    const bFailed = expect(b).rejects.toThrow('start 1 broke');
    await f.fail(1);
    await bFailed;
    expect(f.logs).toEqual([]);
    const a = f.pool.acquire('a');
    const failed = expect(a).rejects.toThrow('start 2 broke');
    await f.tick();
    await f.fail(2);
    await failed;
    expect(f.pool.stats()).toMatchObject({ starting: 0, ready: 0, leased: 0 });
    await f.pool.close();
  });

  it('close stops what is ready, leased and starting (once started), and refuses what comes after', async () => {
    const f = fake(3, 3);
    f.pool.prepare('a', 3);
    await f.finish(1);
    await f.finish(2);
    const lease = await f.pool.acquire('a');
    const closing = f.pool.close();
    await f.tick();
    expect(f.stopped.sort()).toEqual([1, 2]);
    await f.finish(3); // the one still starting is stopped once it has started
    await closing;
    expect(f.stopped.sort()).toEqual([1, 2, 3]);
    await lease.release(); // nothing twice
    expect(f.stopped).toHaveLength(3);
    await expect(f.pool.acquire('a')).rejects.toThrow(PoolClosedError);
    expect(() => f.pool.prepare('a')).toThrow(/closed/);
  });

  it('a release twice stops once', async () => {
    const f = fake(1);
    const p = f.pool.acquire('a');
    await f.finish(1);
    const l = await p;
    await Promise.all([l.release(), l.release()]);
    expect(f.stopped).toEqual([1]);
    await f.pool.close();
  });
});
