// Crash recovery on the simulator: a daemon or wallet RPC that dies at any phase — while the chain
// is built, once the testnet is up, in the middle of a scenario — is reported (program, signal,
// log tail) and started again on the same data and endpoint; only when its restarts are used up
// does the testnet fail, fast and by name. The same happens on real Salvium (test/real).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../harness/process/registry.js';
import { runScenario } from '../../harness/runner/api.js';
import { cleanup, tempDir } from '../helpers/sim.js';
import { startTestnet, type Testnet } from '../../harness/testnet/testnet.js';

const FAST = { SALTNET_SIM_HASHRATE: '250000' };
/** ~20 blocks/s: mining to 1201 takes about a minute, time enough to kill something mid-way. */
const SLOW = { SALTNET_SIM_HASHRATE: '10000' };
// A chain built at the served difficulty 500 (not at 1): at SLOW's hash rate that takes seconds, so a fault lands
// mid-build.
const AT_500 = { prefixDifficulty: 'same' as const };
const quiet = { progress: 'none' as const, trapSignals: false, backend: 'sim' as const };

/** One listener for both a testnet's lines and its verbose ones ("daemon ready at …" is one of the latter). */
const both = (l: (line: string) => void): { log: typeof l; detail: typeof l } => ({ log: l, detail: l });

/** The pid of the process whose command line contains `text`. */
function pidOf(text: string): number {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(text)) return Number(d);
    } catch {
      /* gone meanwhile */
    }
  }
  throw new Error(`no process with ${text} in its command line`);
}

/** A log that kills the first process whose pid the pattern captures, `delayMs` after the line. */
function killOn(pattern: RegExp, sig: NodeJS.Signals, delayMs: number, lines: string[]): (l: string) => void {
  let done = false;
  return (l) => {
    lines.push(l);
    const m = pattern.exec(l);
    if (!m || done) return;
    done = true;
    setTimeout(() => process.kill(Number(m[1]), sig), delayMs);
  };
}

describe('crash recovery (sim)', () => {
  let root: string;
  beforeAll(() => {
    root = tempDir('saltnet-crash-');
  });
  afterAll(() => cleanup(root));

  it('restarts a daemon SIGKILLed while the chain is mined, and up still succeeds', async () => {
    const lines: string[] = [];
    const t = await startTestnet({
      ...quiet,
      ...AT_500,
      snapshots: false,
      daemonEnv: SLOW,
      height: 400,
      unlocked: 100n * 100_000_000n,
      ...both(killOn(/daemon ready at \S+ \(pid (\d+)\)/, 'SIGKILL', 2500, lines)),
    });
    try {
      expect(t.readyHeight).toBeGreaterThanOrEqual(400);
      expect(t.crashes()).toMatchObject([
        { program: 'daemon', exit: { signal: 'SIGKILL' }, during: 'while building the chain', restart: 1 },
      ]);
      expect(lines.join('\n')).toMatch(
        /saltnet: daemon \(pid \d+\) exited with signal SIGKILL while building the chain; starting it again on the same data \(restart 1 of 3\)/,
      );
      expect(lines.join('\n')).toMatch(/saltnet: daemon is running again \(pid \d+\)/);
      expect(await t.daemon.client.height()).toBeGreaterThanOrEqual(400);
    } finally {
      await t.stop();
    }
  }, 120_000);

  it('restarts a wallet RPC killed with SIGSEGV while the chain is mined (wallets created through the RPC)', async () => {
    // In this mode the wallet RPC restores the wallets, so it runs while the chain is mined.
    const workdir = join(root, 'rpc-mode');
    const lines: string[] = [];
    let killed = 0;
    const t = await startTestnet({
      ...quiet,
      ...AT_500,
      snapshots: false,
      walletCreation: 'rpc',
      workdir,
      daemonEnv: SLOW,
      height: 400,
      unlocked: 50n * 100_000_000n,
      ...both((l) => {
        lines.push(l);
        if (!/daemon ready/.test(l)) return;
        setTimeout(() => {
          killed = pidOf(`${workdir}/logs/wallet-rpc-file.log`);
          process.kill(killed, 'SIGSEGV');
        }, 3000);
      }),
    });
    try {
      expect(killed).toBeGreaterThan(0);
      expect(t.crashes()).toMatchObject([
        { program: 'wallet-rpc', pid: killed, exit: { signal: 'SIGSEGV' }, during: 'while building the chain' },
      ]);
      expect(t.wallet.pid).not.toBe(killed);
      expect((await t.wallet.client.balance('SAL1')).unlocked).toBeGreaterThanOrEqual(50n * 100_000_000n);
    } finally {
      await t.stop();
    }
  }, 120_000);

  describe('once up', () => {
    let t: Testnet;
    let lines: string[];
    beforeAll(async () => {
      lines = [];
      t = await startTestnet({ ...quiet, cacheDir: join(root, 'cache'), daemonEnv: FAST, log: (l) => lines.push(l) });
    }, 120_000);
    afterAll(async () => t?.stop());

    it('a wallet RPC killed with SIGSEGV is restarted on its endpoint, and calls go on', async () => {
      const before = t.wallet.pid;
      const balance = await t.wallet.client.balance('SAL1');
      process.kill(before, 'SIGSEGV');
      // The call meets a dead endpoint, waits for the restart, and is repeated (it only reads).
      expect(await t.wallet.client.balance('SAL1')).toEqual(balance);
      expect(t.wallet.pid).not.toBe(before);
      expect(isAlive(before)).toBe(false);
      const c = t.crashes().at(-1)!;
      expect(c).toMatchObject({
        program: 'wallet-rpc',
        pid: before,
        exit: { signal: 'SIGSEGV' },
        during: 'while the testnet was up',
      });
      expect(c.logFile).toMatch(/wallet-rpc\.log$/);
      expect(await t.health()).toEqual({ daemon: true, 'wallet-rpc': true });
    });

    it('a daemon killed with SIGKILL is restarted on its ports, and mining goes on', async () => {
      const before = t.daemon.pid;
      const h = await t.daemon.client.height();
      process.kill(before, 'SIGKILL');
      expect(await t.mine({ to: h + 3 })).toBeGreaterThanOrEqual(h + 3);
      expect(t.daemon.pid).not.toBe(before);
      expect(t.crashes().filter((c) => c.program === 'daemon')).toMatchObject([
        { pid: before, exit: { signal: 'SIGKILL' }, during: 'while the testnet was up', restart: 1 },
      ]);
      expect((await t.health()).daemon).toBe(true);
    });

    it('a scenario whose wallet RPC is killed mid-scenario still passes', async () => {
      const file = join(root, 'mid.yaml');
      writeFileSync(
        file,
        [
          'name: a wallet RPC dies between steps',
          'requires: { unlocked: { SAL1: 1 SAL1 } }',
          'steps:',
          '  - name: balance before',
          '    get_balance: { asset_type: SAL1 }',
          '    save: { before: "result.balances[0].unlocked_balance" }',
          '  - name: address',
          '    call: { method: get_address }',
          '    expect: { result.address: { matches: "^SC1" } }',
          '  - name: balance after',
          '    get_balance: { asset_type: SAL1 }',
          '    expect:',
          '      result.balances[0].unlocked_balance: "${before}"',
          '',
        ].join('\n'),
      );
      const killed: number[] = [];
      const r = await runScenario(file, {
        testnet: t,
        artifactsRoot: join(root, 'artifacts'),
        hooks: {
          step: (s) => {
            if (s.index !== 0) return;
            const w = [...t.wallets().values()].find((x) => x.name !== 'main')!;
            killed.push(w.pid);
            process.kill(w.pid, 'SIGSEGV');
          },
        },
      });
      expect(r.failure?.message).toBeUndefined();
      expect(r.status).toBe('passed');
      expect(killed).toHaveLength(1);
      expect(t.crashes().some((c) => c.pid === killed[0] && c.exit.signal === 'SIGSEGV')).toBe(true);
    }, 60_000);
  });

  it('fails fast, naming the program and its signal, once its restarts are used up', async () => {
    const lines: string[] = [];
    const t0 = Date.now();
    const err = await startTestnet({
      ...quiet,
      ...AT_500,
      snapshots: false,
      daemonEnv: SLOW,
      maxRestarts: 0,
      ...both(killOn(/daemon ready at \S+ \(pid (\d+)\)/, 'SIGKILL', 2500, lines)),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const kept = /logs kept in (\S+)\/logs/.exec(lines.join('\n'))?.[1];
    expect(kept).toBeDefined();
    cleanup(kept!);
    expect(err).toBeInstanceOf(Error);
    expect(String(err)).toMatch(/daemon exited with signal SIGKILL while building the chain/);
    expect(lines.join('\n')).toMatch(/no restarts left/);
    expect(Date.now() - t0).toBeLessThan(20_000);
  }, 60_000);
});
