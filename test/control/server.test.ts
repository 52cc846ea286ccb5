// The control endpoint serves the requests that change the testnet one at a time, in the order they came: a later
// one waits (it is not refused) for the work before it, even work whose answer went out early because a program
// stopped answering. A request while a program does not answer is refused at once.
import { chmodSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { ask, requestCancel } from '../../harness/control/client.js';
import { MAX_BODY, startControlServer, type ControlServer } from '../../harness/control/server.js';
import type { ControlRoute, RouteEnv } from '../../harness/operations/operation.js';
import type { TestnetEvent } from '../../harness/testnet/events.js';
import type { MiningProgress, Testnet } from '../../harness/testnet/types.js';
import { BACKENDS } from '../../harness/coin/backends.js';
import {
  payFromMain,
  type FaucetDeps,
  type FundOptions,
  type FundRequest,
} from '../../harness/testnet/mining/faucet.js';

interface Fake {
  testnet: Testnet;
  silent: string[];
  emit(e: TestnetEvent): void;
  progress(p: MiningProgress): void;
}

function fakeTestnet(workdir: string): Fake {
  const listeners = new Set<(e: TestnetEvent) => void>();
  const watchers = new Set<(p: MiningProgress) => void>();
  // The faucet over a main wallet that holds nothing it is asked about: a request it refuses never gets that far.
  const faucet = {
    spec: BACKENDS.sim,
    daemon: { height: async () => 30 },
    main: { refresh: async () => undefined },
    mineTo: async (h: number) => h,
  } as unknown as FaucetDeps;
  const fake: Fake = {
    silent: [],
    emit: (e) => [...listeners].forEach((l) => l(e)),
    progress: (p) => [...watchers].forEach((l) => l(p)),
    testnet: {
      workdir,
      nodes: [{ name: 'n0' }],
      fund: (req: FundRequest, o?: FundOptions) => payFromMain(faucet, req, o),
      unresponsive: () => fake.silent,
      onEvent: (l: (e: TestnetEvent) => void) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      onProgress: (l: (p: MiningProgress) => void) => {
        watchers.add(l);
        return () => watchers.delete(l);
      },
    } as unknown as Testnet,
  };
  return fake;
}

/** A route whose runs end when the test says (`finish(i)`), logging when each started and ended. */
function gated(log: string[]) {
  const gates: (() => void)[] = [];
  let n = 0;
  const route: ControlRoute = {
    run: async () => {
      const i = n++;
      log.push(`start ${i}`);
      await new Promise<void>((ok) => (gates[i] = ok));
      log.push(`end ${i}`);
      return { i };
    },
  };
  const finish = async (i: number): Promise<void> => {
    await expect.poll(() => gates[i] !== undefined).toBe(true);
    gates[i]!();
  };
  return { route, finish };
}

let dir: string;
let server: ControlServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function serve(route: ControlRoute): Promise<Fake> {
  dir = mkdtempSync(join(tmpdir(), 'saltnet-control-'));
  const fake = fakeTestnet(dir);
  server = await startControlServer(fake.testnet, join(dir, 'cache'), { '/work': route });
  return fake;
}

const work = (what = 'work', o: { id?: string; signal?: AbortSignal } = {}) =>
  ask<{ i: number }>(server!.info, '/work', {}, what, o);

/** POST a raw body: the HTTP status and the error answered. */
async function post(path: string, body: string): Promise<{ status: number; error?: string }> {
  const res = await request(`${server!.info.url}${path}`, {
    method: 'POST',
    headers: { 'x-saltnet-token': readFileSync(server!.info.tokenFile, 'utf8'), 'content-type': 'application/json' },
    body,
  });
  const answer = (await res.body.json()) as { error?: string };
  return { status: res.statusCode, ...(answer.error !== undefined ? { error: answer.error } : {}) };
}

describe('control endpoint', () => {
  it('writes its token to a file of its own (0600), not through a symlink left at .control-token', async () => {
    dir = mkdtempSync(join(tmpdir(), 'saltnet-control-'));
    const target = join(dir, 'someone-elses-file');
    writeFileSync(target, 'theirs');
    chmodSync(target, 0o644);
    symlinkSync(target, join(dir, '.control-token'));
    server = await startControlServer(fakeTestnet(dir).testnet, join(dir, 'cache'));
    expect([readFileSync(target, 'utf8'), statSync(target).mode & 0o777]).toEqual(['theirs', 0o644]);
    const file = join(dir, '.control-token');
    expect([lstatSync(file).isSymbolicLink(), statSync(file).mode & 0o777]).toEqual([false, 0o600]);
    expect(readFileSync(file, 'utf8')).toMatch(/^[0-9a-f]{48}$/);
  });

  it('serves two requests at once one after the other, in order, both answered', async () => {
    const log: string[] = [];
    const g = gated(log);
    await serve(g.route);
    const a = work();
    await expect.poll(() => log).toEqual(['start 0']);
    const b = work();
    await new Promise((ok) => setTimeout(ok, 100));
    expect(log).toEqual(['start 0']); // the second waits for the first
    await g.finish(0);
    expect(await a).toEqual({ i: 0 });
    await g.finish(1);
    expect(await b).toEqual({ i: 1 });
    expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1']);
  });

  it('answers 503 when a program stops answering mid-work; a later request runs once that work has ended', async () => {
    const log: string[] = [];
    const g = gated(log);
    const fake = await serve(g.route);
    const a = work('save the testnet state');
    await expect.poll(() => log).toEqual(['start 0']);
    fake.silent = ['wallet-rpc (pid 7) is not answering: it is stopped'];
    fake.emit({ event: 'unresponsive', program: 'wallet-rpc', pid: 7, reason: 'it is stopped' } as TestnetEvent);
    await expect(a).rejects.toThrow(
      'cannot save the testnet state: the testnet does not answer: wallet-rpc (pid 7) is not answering: it is stopped',
    );
    // Refused at once while it does not answer.
    await expect(work('mine')).rejects.toThrow('cannot mine: the testnet does not answer: wallet-rpc (pid 7)');
    fake.silent = [];
    const b = work('mine'); // the first request's work still runs: this one waits for it, not refused
    await new Promise((ok) => setTimeout(ok, 100));
    expect(log).toEqual(['start 0']);
    await g.finish(0);
    await g.finish(1);
    expect(await b).toEqual({ i: 1 });
    expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1']);
  });
});

describe('control endpoint: progress', () => {
  const block = (height: number): MiningProgress => ({
    event: 'block',
    node: 'n0',
    height,
    start: 10,
    target: 12,
    ms: 5,
  });

  it('streams the progress told while a request runs to a client that asks for it, then the answer', async () => {
    const log: string[] = [];
    const g = gated(log);
    const fake = await serve(g.route);
    const heard: MiningProgress[] = [];
    const answer = ask<{ i: number }>(server!.info, '/work', {}, 'work', { onProgress: (p) => heard.push(p) });
    await expect.poll(() => log).toEqual(['start 0']);
    fake.progress(block(11));
    fake.progress({ event: 'dataset', state: 'building', percent: 40, etaMs: 9000 });
    await expect.poll(() => heard.length).toBe(2);
    fake.progress(block(12));
    await g.finish(0);
    expect(await answer).toEqual({ i: 0 });
    expect(heard).toEqual([block(11), { event: 'dataset', state: 'building', percent: 40, etaMs: 9000 }, block(12)]);
  });

  it('gives a client that asks for progress the error as a thrown error, and one that does not plain JSON', async () => {
    await serve({
      run: async () => {
        throw new Error('the daemon refused 3 blocks in a row');
      },
    });
    await expect(ask(server!.info, '/work', {}, 'mine', { onProgress: () => undefined })).rejects.toThrow(
      'cannot mine: the daemon refused 3 blocks in a row',
    );
    expect(await post('/work', '{}')).toEqual({ status: 500, error: 'the daemon refused 3 blocks in a row' });
  });
});

describe('control endpoint: cancelled work', () => {
  /** A route whose runs (named by their body's `name`) wait until their signal is aborted or `finish(name)`. */
  function cancellable(log: string[], commitOf?: string) {
    const gates = new Map<string, () => void>();
    const route: ControlRoute = {
      run: async (_t, body, env: RouteEnv) => {
        const name = String((body as { name?: unknown }).name);
        log.push(`start ${name}`);
        if (name === commitOf) env.commit(Promise.resolve({ txHashes: ['aa'] }));
        await new Promise<void>((ok) => {
          gates.set(name, ok);
          env.signal.addEventListener('abort', () => ok());
        });
        log.push(env.signal.aborted ? `aborted ${name}` : `end ${name}`);
        env.signal.throwIfAborted();
        return { name };
      },
    };
    const finish = async (name: string): Promise<void> => {
      await expect.poll(() => gates.has(name)).toBe(true);
      gates.get(name)!();
    };
    return { route, finish };
  }

  const run = (name: string, o: { id?: string; signal?: AbortSignal } = {}) =>
    ask<{ name: string }>(server!.info, '/work', { name }, name, o);

  it('aborts the work of a client that went away; a request given up while it waits never ends its work', async () => {
    const log: string[] = [];
    const c = cancellable(log);
    await serve(c.route);
    const giveUp = new AbortController();
    const a = run('a', { signal: giveUp.signal });
    await expect.poll(() => log).toEqual(['start a']);
    const waiting = new AbortController();
    const b = run('b', { signal: waiting.signal }); // queued behind the first, given up before its turn
    const next = run('next');
    await new Promise((ok) => setTimeout(ok, 100));
    waiting.abort();
    await expect(b).rejects.toThrow();
    giveUp.abort();
    await expect(a).rejects.toThrow();
    await c.finish('next');
    expect(await next).toEqual({ name: 'next' });
    expect(log.filter((l) => !l.endsWith(' b'))).toEqual(['start a', 'aborted a', 'start next', 'end next']);
    // Given up before its turn, it does not run (or, when its client's going was seen late, is aborted at once).
    expect([[], ['start b', 'aborted b']]).toContainEqual(log.filter((l) => l.endsWith(' b')));
  });

  it('/cancel gives up a request not past its point of no return; one past it is finished, and says what', async () => {
    const log: string[] = [];
    const c = cancellable(log, 'fund');
    await serve(c.route);
    const a = run('mine', { id: 'req-a' });
    await expect.poll(() => log).toEqual(['start mine']);
    expect(await requestCancel(server!.info, 'req-a')).toEqual({ state: 'cancelled' });
    await expect(a).rejects.toThrow('cannot mine: cancelled by its client before it was done');
    const b = run('fund', { id: 'req-b' });
    await expect.poll(() => log).toEqual(['start mine', 'aborted mine', 'start fund']);
    expect(await requestCancel(server!.info, 'req-b')).toEqual({ state: 'finishing', detail: { txHashes: ['aa'] } });
    await c.finish('fund');
    expect(await b).toEqual({ name: 'fund' });
    expect(log).toEqual(['start mine', 'aborted mine', 'start fund', 'end fund']);
    expect(await requestCancel(server!.info, 'req-b')).toEqual({ state: 'unknown' });
  });
});

describe('control endpoint: network waits', () => {
  it('gives partition, heal, link and sync the signal of their request: a client that goes away ends the wait', async () => {
    const g = gated([]);
    const fake = await serve(g.route);
    const waits: string[] = [];
    // Each waits (as for nodes that never connect) until its request's signal aborts.
    const waitFor =
      (name: string) =>
      (...args: unknown[]): Promise<void> => {
        const signal = (args.at(-1) as { signal?: AbortSignal } | undefined)?.signal;
        if (!signal) return Promise.reject(new Error(`${name} was given no signal`));
        return new Promise((_ok, no) =>
          signal.addEventListener('abort', () => {
            waits.push(`${name} aborted`);
            no(signal.reason as Error);
          }),
        );
      };
    Object.assign(fake.testnet, {
      nodes: [{ name: 'n0' }, { name: 'n1' }],
      partition: waitFor('partition'),
      heal: waitFor('heal'),
      setLink: waitFor('link'),
      sync: waitFor('sync'),
      links: () => [],
      groups: () => [['n0', 'n1']],
    });
    const calls: [string, string, object][] = [
      ['/partition', 'partition', { groups: [['n0'], ['n1']] }],
      ['/heal', 'heal', {}],
      ['/link', 'link', { a: 'n0', b: 'n1', mode: 'open' }],
      ['/sync', 'sync', {}],
    ];
    for (const [path, name, body] of calls) {
      const giveUp = new AbortController();
      const asked = ask(server!.info, path, body, name, { signal: giveUp.signal });
      await new Promise((ok) => setTimeout(ok, 100));
      giveUp.abort();
      await expect(asked).rejects.toThrow();
      await expect.poll(() => waits).toContain(`${name} aborted`);
    }
    // Nothing is left queued: the next request runs.
    const next = work();
    await g.finish(0);
    expect(await next).toEqual({ i: 0 });
  });
});

describe('control endpoint: bad requests', () => {
  it('answers a body over 64 KiB with a 413 that says so (not a reset connection)', async () => {
    await serve(gated([]).route);
    const big = JSON.stringify({ address: 'S'.repeat(MAX_BODY) });
    expect(await post('/fund', big)).toEqual({
      status: 413,
      error: `the request body is ${big.length} bytes, over the 65536 a control request may have (each is a small JSON object)`,
    });
    await expect(ask(server!.info, '/mine', { node: 'n'.repeat(70_000) }, 'mine')).rejects.toThrow(
      /^cannot mine: the request body is 70011 bytes, over the 65536/,
    );
  });

  it('refuses a field of the wrong type with a 400 naming it and what it takes: {"blocks":"5"} mines nothing', async () => {
    await serve(gated([]).route);
    expect(await post('/mine', '{"blocks":"5"}')).toEqual({
      status: 400,
      error: 'blocks must be a whole number of blocks (a JSON number) from 1 to 100000, got the string "5"',
    });
    expect(await post('/mine', '{"blocks":2.5}')).toMatchObject({
      status: 400,
      error: expect.stringMatching(/^blocks must/),
    });
    expect(await post('/mine', '{"blcoks":5}')).toEqual({
      status: 400,
      error: 'unknown field "blcoks" (did you mean blocks?); this request takes blocks, to, sync, node',
    });
    expect(await post('/fund', '{"address":"x","amount":1.5}')).toEqual({
      status: 400,
      error: expect.stringMatching(/^amount must be an amount: .* "1\.5 SAL1".*, got the number 1\.5$/),
    });
    expect(await post('/partition', '{"groups":"n0 n1"}')).toMatchObject({ status: 400 });
    expect(await post('/heal', '[]')).toEqual({
      status: 400,
      error: 'the request body must be a JSON object, got a list',
    });
  });

  it('echoes a long value cut short with its length: a 60 KB address, a 60 KB node name', async () => {
    await serve(gated([]).route);
    const address = `SC1T${'x'.repeat(60_000)}`;
    const funded = await post('/fund', JSON.stringify({ address, amount: '1' }));
    expect(funded).toEqual({
      status: 400,
      error: `"SC1T${'x'.repeat(96)}…" (60004 characters) is not an address (no known address prefix and length); this testnet takes CN testnet addresses (SaLvT…)`,
    });
    const mined = await post('/mine', JSON.stringify({ node: 'n'.repeat(60_000) }));
    expect(mined.status).toBe(400);
    expect(mined.error).toBe(`no node named "${'n'.repeat(100)}…" (60000 characters): this testnet has one node, n0`);
  });
});
