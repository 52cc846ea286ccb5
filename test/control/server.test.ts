// The control endpoint serves the requests that change the testnet one at a time, in the order they came: a later
// one waits (it is not refused) for the work before it, even work whose answer went out early because a program
// stopped answering. A request while a program does not answer is refused at once.
import { chmodSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ask } from '../../harness/control/client.js';
import { startControlServer, type ControlServer } from '../../harness/control/server.js';
import type { ControlRoute } from '../../harness/control/routes.js';
import type { TestnetEvent } from '../../harness/testnet/events.js';
import type { Testnet } from '../../harness/testnet/types.js';

interface Fake {
  testnet: Testnet;
  silent: string[];
  emit(e: TestnetEvent): void;
}

function fakeTestnet(workdir: string): Fake {
  const listeners = new Set<(e: TestnetEvent) => void>();
  const fake: Fake = {
    silent: [],
    emit: (e) => [...listeners].forEach((l) => l(e)),
    testnet: {
      workdir,
      unresponsive: () => fake.silent,
      onEvent: (l: (e: TestnetEvent) => void) => {
        listeners.add(l);
        return () => listeners.delete(l);
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

const work = (what = 'work') => ask<{ i: number }>(server!.info, '/work', {}, what);

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
