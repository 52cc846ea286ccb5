// Program.stop says whether a stop was clean: a program that dies during its graceful part (the wallet's `store`)
// was not stopped cleanly, even though it is gone by the time the stop would signal it. A snapshot save relies on
// this to refuse a state that may not be whole.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSupervisor, type Supervisor } from '../../harness/process/supervisor.js';
import { Program, type Instance } from '../../harness/testnet/program.js';
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
