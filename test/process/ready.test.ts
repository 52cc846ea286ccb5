import { afterEach, describe, expect, it } from 'vitest';
import { ProcessExitedError, ReadinessTimeout } from '../../harness/process/errors.js';
import { httpProbe, tcpProbe, waitUntilReady } from '../../harness/process/ready.js';
import { freePorts } from '../../harness/process/ports.js';
import { resetTimeoutFactor, setTimeoutFactor } from '../../harness/common/timeouts.js';
import { cleanup, fake } from './helpers.js';

afterEach(async () => {
  resetTimeoutFactor();
  await cleanup();
});

describe('waitUntilReady', () => {
  it('a log line wins', async () => {
    const p = fake(['say:booting', 'sleep:150', 'say:RPC server initialized OK on port 1234', 'forever']);
    const r = await waitUntilReady(
      p,
      [
        { kind: 'log', patterns: [/never/, /RPC server initialized OK/] },
        { kind: 'probe', name: 'never', check: async () => false },
      ],
      { timeoutMs: 5000 },
    );
    expect(r.by).toBe('log: /RPC server initialized OK/');
    expect(r.ms).toBeGreaterThanOrEqual(100);
  });

  it('a line already printed before the call counts', async () => {
    const p = fake(['say:ready now', 'forever']);
    await p.waitForText('ready now', { timeoutMs: 5000 });
    expect((await waitUntilReady(p, [{ kind: 'log', patterns: ['ready now'] }], { timeoutMs: 5000 })).by).toBe(
      'log: "ready now"',
    );
  });

  it('a quiet prompt without newline counts as a log match', async () => {
    const p = fake(['raw:Enter the number: ', 'forever']);
    expect(
      (await waitUntilReady(p, [{ kind: 'log', patterns: [/Enter the number: $/] }], { timeoutMs: 5000 })).by,
    ).toBe('log: /Enter the number: $/');
  });

  it('an HTTP probe wins once the program listens (exceptions count as not yet)', async () => {
    const [port] = await freePorts(1);
    const p = fake(['sleep:300', `listen:${port}`, 'forever']);
    const probe = httpProbe(`http://127.0.0.1:${port}/get_info`, {
      name: 'get_info',
      everyMs: 50,
      ok: (status, body) => status === 200 && body === 'ok',
    });
    if (probe.kind !== 'probe') throw new Error('not a probe');
    let calls = 0;
    const counted = { ...probe, check: (s: AbortSignal) => (calls++, probe.check(s)) };
    const r = await waitUntilReady(p, [{ kind: 'log', patterns: ['never printed'] }, counted], { timeoutMs: 5000 });
    expect(r.by).toBe('get_info');
    expect(calls).toBeGreaterThan(1); // refused connections were retried
  });

  it('a TCP probe and a custom probe', async () => {
    const [port] = await freePorts(1);
    const p = fake([`listen:${port}`, 'forever']);
    expect((await waitUntilReady(p, [tcpProbe(port!, '127.0.0.1', { everyMs: 20 })], { timeoutMs: 5000 })).by).toBe(
      `tcp 127.0.0.1:${port}`,
    );
    let n = 0;
    const r = await waitUntilReady(
      p,
      [
        {
          kind: 'probe',
          name: 'third time',
          everyMs: 10,
          check: async () => {
            n++;
            if (n === 1) throw new Error('boom');
            return n >= 3;
          },
        },
      ],
      { timeoutMs: 5000 },
    );
    expect(r.by).toBe('third time');
    expect(n).toBe(3);
  });

  it('fails fast with the exit code and the last lines when the program exits first', async () => {
    const p = fake(['say:Loading blockchain', 'err:Error: failed to open LMDB', 'sleep:200', 'exit:1']);
    const t0 = Date.now();
    const err = (await waitUntilReady(
      p,
      [
        { kind: 'log', patterns: ['ready'] },
        { kind: 'probe', name: 'rpc', check: async () => false },
      ],
      { timeoutMs: 20_000 },
    ).catch((e: unknown) => e)) as ProcessExitedError;
    expect(Date.now() - t0).toBeLessThan(3000); // not the 20 s deadline
    expect(err).toBeInstanceOf(ProcessExitedError);
    expect(err.exit.code).toBe(1);
    expect(err.message).toMatch(/^fake exited with code 1 before it was ready/);
    expect(err.message).toContain('Error: failed to open LMDB');
    expect(err.message).toContain(p.logFile);
    expect(err.tail.slice(-2)).toEqual(['Loading blockchain', 'Error: failed to open LMDB']);
  });

  it('times out with ReadinessTimeout carrying the tail and the last probe error', async () => {
    const p = fake(['say:still syncing', 'forever']);
    const err = (await waitUntilReady(
      p,
      [
        {
          kind: 'probe',
          name: 'get_info',
          everyMs: 20,
          check: async () => {
            throw new Error('ECONNREFUSED');
          },
        },
      ],
      { timeoutMs: 300 },
    ).catch((e: unknown) => e)) as ReadinessTimeout;
    expect(err).toBeInstanceOf(ReadinessTimeout);
    expect(err.waitedMs).toBeGreaterThanOrEqual(290);
    expect(err.tail).toEqual(['still syncing']);
    expect(err.message).toMatch(/fake was not ready after \d+ ms \(waited for probe get_info \(last: ECONNREFUSED\)\)/);
  });

  it('scales the deadline by the timeout factor', async () => {
    const p = fake(['forever']);
    setTimeoutFactor(0.2);
    const t0 = Date.now();
    const err = (await waitUntilReady(p, [{ kind: 'log', patterns: ['never'] }], { timeoutMs: 2000 }).catch(
      (e: unknown) => e,
    )) as ReadinessTimeout;
    const took = Date.now() - t0;
    expect(err).toBeInstanceOf(ReadinessTimeout);
    expect(took).toBeGreaterThanOrEqual(390);
    expect(took).toBeLessThan(1500);
    expect(err.waitedMs).toBeLessThan(1500);
  });
});
