import { afterEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { ProcessExitedError, ReadinessTimeout } from '../../harness/process/errors.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpProbe, tcpProbe } from '../../harness/process/probes.js';
import { waitUntilReady } from '../../harness/process/ready.js';
import { freePorts } from '../../harness/process/ports.js';
import { resetTimeoutFactor, setTimeoutFactor } from '../../harness/common/timeouts.js';
import { cleanup, fake } from './helpers.js';

const servers: Server[] = [];

afterEach(async () => {
  resetTimeoutFactor();
  await cleanup();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** An HTTP server on a free loopback port answering every request with `status()`; its URL. */
async function rpc(status: () => number): Promise<string> {
  const s = createServer((_req, res) => {
    res.statusCode = status();
    res.end();
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

describe('waitUntilReady', () => {
  it('a log line alone: ready once it appears', async () => {
    const p = fake(['say:booting', 'sleep:150', 'say:RPC server initialized OK on port 1234', 'forever']);
    const r = await waitUntilReady(p, [{ kind: 'log', patterns: [/never/, /RPC server initialized OK/] }], {
      timeoutMs: 5000,
    });
    expect(r.by).toBe('log: /RPC server initialized OK/');
    expect(p.tail()).toContain('RPC server initialized OK on port 1234');
  });

  it('every strategy must hold: the log line and the RPC answering, named in order', async () => {
    const url = await rpc(() => 200);
    const p = fake(['say:booting', 'sleep:150', 'say:core RPC server started ok', 'forever']);
    const r = await waitUntilReady(
      p,
      [{ kind: 'log', patterns: [/core RPC server started ok/] }, httpProbe(`${url}/get_info`, { name: 'get_info' })],
      { timeoutMs: 5000 },
    );
    expect(r.by).toBe('log: /core RPC server started ok/ and get_info');
  });

  it('a program whose log line appeared but whose RPC does not answer is not ready', async () => {
    let answering = false;
    let refused = 0;
    let thirdRefusal: () => void = () => undefined;
    const refusedThrice = new Promise<void>((r) => (thirdRefusal = r));
    const url = await rpc(() => {
      if (answering) return 200;
      if (++refused === 3) thirdRefusal();
      return 503;
    });
    const p = fake(['say:Starting wallet RPC server', 'forever']);
    await p.waitForText('Starting wallet RPC server', { timeoutMs: 5000 });
    let settled = false;
    const ready = waitUntilReady(
      p,
      [
        { kind: 'log', patterns: [/Starting wallet RPC server/] },
        httpProbe(`${url}/json_rpc`, { name: 'json_rpc', everyMs: 20 }),
      ],
      { timeoutMs: 30_000 },
    ).finally(() => (settled = true));
    await refusedThrice;
    expect(settled).toBe(false); // the line is there, the RPC has said no three times: not ready
    answering = true;
    expect((await ready).by).toBe('log: /Starting wallet RPC server/ and json_rpc');
  });

  it('times out naming the RPC that never answered (not the line that appeared) and what it last said', async () => {
    const url = await rpc(() => 503);
    const p = fake(['say:Starting wallet RPC server', 'forever']);
    await p.waitForText('Starting wallet RPC server', { timeoutMs: 5000 });
    // Long enough for the probe's first requests to be answered (503) however busy the machine.
    const err = (await waitUntilReady(
      p,
      [
        { kind: 'log', patterns: [/Starting wallet RPC server/] },
        httpProbe(`${url}/json_rpc`, { name: 'json_rpc', everyMs: 20 }),
      ],
      { timeoutMs: 2000 },
    ).catch((e: unknown) => e)) as ReadinessTimeout;
    expect(err).toBeInstanceOf(ReadinessTimeout);
    expect(err.message).toMatch(/^fake was not ready after \d+ ms \(waited for probe json_rpc \(last: HTTP 503\)\)\n/);
    expect(err.tail).toEqual(['Starting wallet RPC server']);
  });

  it('an RPC nobody listens on: the timeout says it gave no answer', async () => {
    const [port] = await freePorts(1);
    const p = fake(['forever']);
    const err = (await waitUntilReady(p, [httpProbe(`http://127.0.0.1:${port}/get_info`, { everyMs: 20 })], {
      timeoutMs: 500,
    }).catch((e: unknown) => e)) as ReadinessTimeout;
    expect(err).toBeInstanceOf(ReadinessTimeout);
    expect(err.message).toContain(`(waited for probe http GET http://127.0.0.1:${port}/get_info (last: no answer))`);
  });

  it('a resource wait-on refuses (a URL without //) is named in the timeout', async () => {
    const p = fake(['forever']);
    const err = (await waitUntilReady(p, [httpProbe('http:127.0.0.1:1/get_info', { name: 'rpc', everyMs: 20 })], {
      timeoutMs: 300,
    }).catch((e: unknown) => e)) as ReadinessTimeout;
    expect(err).toBeInstanceOf(ReadinessTimeout);
    expect(err.message).toMatch(/waited for probe rpc \(last: Invalid resource "http-get:127\.0\.0\.1:1\/get_info"/);
  });

  it("which statuses count as an answer is the caller's (a Digest login answers 401)", async () => {
    const url = await rpc(() => 401);
    const p = fake(['forever']);
    const probe = httpProbe(`${url}/json_rpc`, { name: 'json_rpc', answers: [200, 401] });
    expect((await waitUntilReady(p, [probe], { timeoutMs: 5000 })).by).toBe('json_rpc');
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

  it('an HTTP probe succeeds once the program listens (refused connections are tried again)', async () => {
    const [port] = await freePorts(1);
    const p = fake(['sleep:300', `listen:${port}`, 'forever']);
    const probe = httpProbe(`http://127.0.0.1:${port}/get_info`, { name: 'get_info', everyMs: 50 });
    const r = await waitUntilReady(p, [probe], { timeoutMs: 5000 });
    expect(r.by).toBe('get_info');
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
    // Its line first: on two loaded cores the child can take longer than the 300 ms deadline to say it (CI once).
    await p.waitForText('still syncing', { timeoutMs: 10_000 });
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

describe('the probe thread', () => {
  // A command that has finished exits: the thread (wait-on) is started ahead and polls, but holds no process open.
  it('never keeps a process alive: warmed and never used, or once its probe has settled', async () => {
    const probes = new URL('../../dist/harness/process/probes.js', import.meta.url).href;
    const scripts = [
      `const m = await import(${JSON.stringify(probes)}); m.warmProbes();`,
      `const m = await import(${JSON.stringify(probes)}); await m.tcpProbe(1).check(AbortSignal.timeout(300), () => {});`,
    ];
    for (const script of scripts) {
      const r = await execa(process.execPath, ['--input-type=module', '-e', script], {
        timeout: 20_000,
        reject: false,
      });
      expect(r.timedOut, script).toBe(false);
      expect(r.exitCode, `${script}\n${r.stderr}`).toBe(0);
    }
  });
});
