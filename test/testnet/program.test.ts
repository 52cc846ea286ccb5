// Program.stop says whether a stop was clean: a program that dies during its graceful part (the wallet's `store`)
// was not stopped cleanly, even though it is gone by the time the stop would signal it. A snapshot save relies on
// this to refuse a state that may not be whole. Program.recover holds a client's requests while a restart after a
// crash is under way.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePorts, PortTakenError } from '../../harness/process/ports.js';
import { tcpProbe } from '../../harness/process/probes.js';
import { createSupervisor, type Supervisor } from '../../harness/process/supervisor.js';
import { createEndpoint } from '../../harness/rpc/http.js';
import { Program, type Instance } from '../../harness/testnet/programs/program.js';
import { cleanup, tempDir } from '../helpers/sim.js';

let sup: Supervisor | undefined;
let dir: string | undefined;
afterEach(async () => {
  await sup?.stopAll();
  if (dir) cleanup(dir);
  sup = dir = undefined;
});

function program(beforeStop: (h: Instance) => Promise<void>): Program<Instance> {
  dir = tempDir('saltnet-program-');
  const s = (sup = createSupervisor({ workdir: dir, trapSignals: false, reaper: false }));
  const logFile = join(dir, 'p.log');
  return new Program<Instance>(
    {
      name: 'wallet-rpc',
      start: async () => ({ proc: s.start({ name: 'wallet-rpc', command: 'sleep', args: ['30'], logFile }) }),
      beforeStop,
      health: async () => true,
    },
    { log: () => undefined, onFatal: () => undefined, phase: () => 'while the testnet was up' },
  );
}

describe('Program.stop', () => {
  it('is clean when the graceful part works and the process stops', async () => {
    const p = program(async () => undefined);
    await p.start();
    expect(await p.stop()).toBeUndefined();
  });

  it('is not clean when the process dies during its graceful part', async () => {
    const p = program(async (h) => {
      process.kill(h.proc.pid, 'SIGKILL');
      await h.proc.exited;
      throw new Error('cannot reach http://127.0.0.1:1/json_rpc: other side closed');
    });
    await p.start();
    expect(await p.stop()).toBe(
      'its graceful stop failed (cannot reach http://127.0.0.1:1/json_rpc: other side closed)',
    );
  });
});

// A server that, like a wallet RPC serving a folder, listens before it is whole: it answers {"open":false} until
// POST /open (the harness's open_wallet after each start).
const SERVER = `
const http = require('node:http');
let open = false;
http.createServer((q, a) => { if (q.url === '/open') open = true; a.end(JSON.stringify({ open })); })
  .listen(Number(process.argv[1]), '127.0.0.1');`;

/** Until something accepts connections on the port (the harness's own TCP probe; binding it to ask would race). */
async function untilListening(port: number): Promise<void> {
  const listening = await tcpProbe(port, '127.0.0.1', { everyMs: 20 }).check(AbortSignal.timeout(10_000), () => {});
  if (!listening) throw new Error(`nothing listens on ${port} after 10 s`);
}

describe('Program.recover on an endpoint', () => {
  it('holds a request sent while the program is started again until that start is whole', async () => {
    dir = tempDir('saltnet-program-');
    const s = (sup = createSupervisor({ workdir: dir, trapSignals: false, reaper: false }));
    const [port] = await freePorts(1);
    const url = `http://127.0.0.1:${port}`;
    const p = new Program<Instance>(
      {
        name: 'wallet-rpc',
        start: async () => {
          const proc = s.start({
            name: 'wallet-rpc',
            command: process.execPath,
            args: ['-e', SERVER, String(port)],
            logFile: join(dir!, 'p.log'),
          });
          await untilListening(port!);
          await sleep(400); // listening, not yet whole
          await createEndpoint(url).post('/open', {});
          return { proc };
        },
        health: async () => true,
      },
      { log: () => undefined, onFatal: () => undefined, phase: () => 'while the testnet was up' },
    );
    const first = await p.start();
    const client = createEndpoint(url, { recover: p.recover });
    expect(await client.post('/', {})).toEqual({ open: true });
    process.kill(first.proc.pid, 'SIGKILL');
    await first.proc.exited;
    // The new process listens: a request now would reach it before it is whole.
    await untilListening(port!);
    expect(p.status).toBe('recovering');
    expect(await client.post('/', {})).toEqual({ open: true });
    await client.close();
  });
});

describe('Program.restart on the ports it keeps', () => {
  /** A program whose starts fail with PortTakenError as `taken` says (by start number, from 0). */
  function flaky(taken: (n: number) => boolean, lines: string[]): Program<Instance> {
    dir = tempDir('saltnet-program-');
    const s = (sup = createSupervisor({ workdir: dir, trapSignals: false, reaper: false }));
    const logFile = join(dir, 'p.log');
    let n = 0;
    return new Program<Instance>(
      {
        name: 'daemon',
        start: async () => {
          if (taken(n++)) throw new PortTakenError('the daemon could not bind P2P 12345');
          return { proc: s.start({ name: 'daemon', command: 'sleep', args: ['30'], logFile }) };
        },
        health: async () => true,
      },
      { log: (l) => void lines.push(l), onFatal: () => undefined, phase: () => 'while the testnet was up' },
    );
  }

  it('tries again when a port it keeps is taken a moment (a checkpoint of several nodes starts each again)', async () => {
    const lines: string[] = [];
    const p = flaky((n) => n === 1, lines);
    await p.start();
    const h = await p.restart();
    expect(h.proc.running).toBe(true);
    expect(lines).toEqual(['saltnet: daemon: the daemon could not bind P2P 12345; trying again in a second']);
  });

  it('gives up after three tries, saying it keeps its ports; a first start (free ports of its own) is not retried', async () => {
    const lines: string[] = [];
    const p = flaky((n) => n >= 1, lines);
    await p.start();
    await expect(p.restart()).rejects.toThrow(
      'the daemon could not bind P2P 12345 (tried 3 times): it keeps its ports on a restart, since its clients use them; free the port',
    );
    const first = flaky(() => true, []);
    await expect(first.start()).rejects.toThrow(/^the daemon could not bind P2P 12345$/);
  });
});
