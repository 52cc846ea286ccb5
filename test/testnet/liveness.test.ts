// The liveness watch: a program stopped (SIGSTOP) is unresponsive once stopped for 3 s, and answers
// again once continued; one whose RPC does not answer while it idles is unresponsive after 20 s; one
// unresponsive for 60 s more is due a restart. (Deadlines scaled by the timeout factor: 0.1 here.)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { resetTimeoutFactor, setTimeoutFactor } from '../../harness/common/timeouts.js';
import { watchLiveness, type Unresponsive } from '../../harness/testnet/programs/liveness.js';
import { cleanup, fake } from '../process/helpers.js';

beforeAll(() => setTimeoutFactor(0.1));
afterAll(() => resetTimeoutFactor());
afterEach(() => cleanup());

/** A server that takes requests and never answers (a deadlocked RPC), or answers at once. */
async function server(answer: boolean): Promise<{ url: string; s: Server }> {
  const s = createServer((_req, res) => {
    if (answer) res.end('{}');
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/json_rpc`, s };
}

const until = async (what: string, ok: () => boolean, ms = 20_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

it('a stopped program is unresponsive, then answers again once continued; no restart while it recovers', async () => {
  const p = fake(['say:up', 'forever']);
  await p.waitForText('up', { timeoutMs: 5000 });
  const { url, s } = await server(true);
  const changes: (Unresponsive | undefined)[] = [];
  let due = 0;
  const w = watchLiveness({
    proc: p,
    probe: { url, body: '{}' },
    onChange: (u) => changes.push(u),
    onRestartDue: () => due++,
  });
  try {
    process.kill(p.pid, 'SIGSTOP');
    await until('unresponsive', () => changes.length === 1);
    expect(changes[0]!.reason).toMatch(/stopped \(SIGSTOP/);
    expect(w.unresponsive).toEqual(changes[0]);
    process.kill(p.pid, 'SIGCONT');
    await until('responsive', () => changes.length === 2);
    expect(changes[1]).toBeUndefined();
    expect(w.unresponsive).toBeUndefined();
    expect(due).toBe(0);
  } finally {
    process.kill(p.pid, 'SIGCONT');
    w.stop();
    s.close();
  }
});

it('a program whose RPC never answers while it idles is unresponsive, then due a restart', async () => {
  const p = fake(['say:up', 'forever']);
  await p.waitForText('up', { timeoutMs: 5000 });
  const { url, s } = await server(false);
  const changes: (Unresponsive | undefined)[] = [];
  const due: Unresponsive[] = [];
  const w = watchLiveness({
    proc: p,
    probe: { url, body: '{}' },
    onChange: (u) => changes.push(u),
    onRestartDue: (u) => due.push(u),
  });
  try {
    await until('unresponsive', () => changes.length === 1);
    expect(changes[0]!.reason).toMatch(/has not answered for \d+ s and it used no CPU/);
    await until('the restart', () => due.length === 1);
    expect(due[0]).toEqual(changes[0]);
  } finally {
    w.stop();
    s.closeAllConnections();
    s.close();
  }
});
