// Freeze (SIGSTOP) and thaw, and kill (SIGKILL), of each program at each phase: while the chain is
// built, while the testnet is up, during a scenario step, during a snapshot save. A frozen program
// is noticed (an `unresponsive` event, `saltnet status`, a clear message) and answers again once
// thawed; a killed one is started again on the same data; nothing hangs and no block or wallet is
// lost. Where a phase is too short to catch, a test-only stall of the simulator
// (SALTNET_SIM_TEST_STALL, harness/sim/README.md) holds a request open while the fault comes.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { alive, put, signal, until, type CliResult, type FaultCase, type FaultContext } from '../kit.js';

const frozen = (program: string) => (e: any) => e.event === 'unresponsive' && e.program === program;
const thawed = (program: string) => (e: any) => e.event === 'responsive' && e.program === program;

/** The testnet's height now, from `saltnet status --json`. */
async function height(ctx: FaultContext): Promise<number> {
  const r = await ctx.cli(['status', '--json']);
  return JSON.parse(r.stdout)[0]?.height as number;
}

/** After the fault: mining works, and the chain is no lower than it was (`before`). */
async function stillWhole(ctx: FaultContext, before: number): Promise<void> {
  const m = await ctx.cli(['mine', '1']);
  expect(m.code, m.out).toBe(0);
  const h = await height(ctx);
  if (!(h >= before + 1)) ctx.lost(`the chain was at ${before}, and after mining 1 block it is at ${h}`);
}

/** A line in a log of the testnet's workdir. */
const logSays = (workdir: string, log: string, re: RegExp) => (): true | undefined => {
  try {
    return re.test(readFileSync(join(workdir, 'logs', log), 'utf8')) || undefined;
  } catch {
    return undefined;
  }
};

/**
 * A line of the log written from now on: a predicate true once `re` matches more often than it does now (the log may
 * hold such lines already, as the wallet RPC's does its `store` when `up` built the chain state and saved it).
 */
function logSaysAgain(workdir: string, log: string, re: RegExp): () => true | undefined {
  const count = (): number => {
    try {
      return readFileSync(join(workdir, 'logs', log), 'utf8').match(new RegExp(re.source, 'g'))?.length ?? 0;
    } catch {
      return 0;
    }
  };
  const before = count();
  return () => (count() > before ? true : undefined);
}

const scenario = (ctx: FaultContext, steps: string): string =>
  put(join(ctx.dir, 's.yaml'), `name: fault\nrequires: { height: 30 }\nsteps:\n${steps}`);

/**
 * `saltnet run` of a scenario whose request `stall` (SALTNET_SIM_TEST_STALL, `<method>:<ms>`) holds in `program`: once
 * that program's log says the stall began, it is frozen (SIGSTOP) under it, and thawed when the run ends.
 */
async function frozenUnder(
  ctx: FaultContext,
  o: { steps: string; stall: string; program: string; what: string },
): Promise<{ r: CliResult; pid: number }> {
  const run = ctx.cli(['run', scenario(ctx, o.steps), '--backend', 'sim'], {
    env: { SALTNET_SIM_TEST_STALL: o.stall },
    timeoutMs: 45_000,
  });
  const workdir = await until('the testnet', () => ctx.runOrUndefined()?.workdir as string | undefined, 30_000);
  const stalled = new RegExp(`TEST stall ${o.stall.split(':')[0]}`);
  await until(o.what, logSays(workdir, `${o.program}.log`, stalled), 30_000);
  const pid = ctx.pid(o.program);
  signal(pid, 'SIGSTOP');
  return { r: await run.finally(() => signal(pid, 'SIGCONT')), pid };
}

// Slow blocks while the chain is built (a fresh cache: the case builds), so that a fault lands in the build.
const BUILD = (ctx: FaultContext): Record<string, string> => ({
  SALTNET_CACHE_DIR: join(ctx.dir, 'cache'),
  SALTNET_SIM_MIN_BLOCK_MS: '100',
});

export const FREEZE_CASES: FaultCase[] = [
  {
    id: 'daemon frozen while up: unresponsive, status, mine refused at once; thawed: responsive, mines',
    kind: 'freeze',
    async run(ctx) {
      const u = await ctx.up();
      const pid = u.ready.daemon.pid as number;
      signal(pid, 'SIGSTOP');
      try {
        expect((await u.waitEvent(frozen('daemon'))).reason).toMatch(/SIGSTOP/);
        const st = await ctx.cli(['status']);
        expect(st.out).toMatch(/unresponsive/);
        expect(st.out).toMatch(new RegExp(`daemon pid ${pid} unresponsive since \\S+: it is stopped \\(SIGSTOP`));
        const m = await ctx.cli(['mine', '1']);
        expect(m.code).toBe(1);
        expect(m.out).toContain(`daemon (pid ${pid}) is not answering`);
      } finally {
        signal(pid, 'SIGCONT');
      }
      await u.waitEvent(thawed('daemon'));
      expect((await ctx.cli(['status'])).out).toMatch(/ running /);
      await stillWhole(ctx, u.ready.height);
    },
  },
  {
    id: 'wallet RPC frozen while up: snapshot save refused at once (defect 8); thawed: the save works',
    kind: 'freeze',
    async run(ctx) {
      const u = await ctx.up();
      const pid = u.ready.wallet.pid as number;
      const file = join(ctx.dir, 'k3.tar.gz');
      signal(pid, 'SIGSTOP');
      try {
        await u.waitEvent(frozen('wallet-rpc'));
        const s = await ctx.cli(['snapshot', 'save', file]);
        expect(s.code, s.out).toBe(1);
        expect(s.out).toContain(`wallet-rpc (pid ${pid}) is not answering: it is stopped (SIGSTOP`);
        expect(existsSync(file)).toBe(false);
      } finally {
        signal(pid, 'SIGCONT');
      }
      await u.waitEvent(thawed('wallet-rpc'));
      const s = await ctx.cli(['snapshot', 'save', file]);
      expect(s.code, s.out).toBe(0);
      ctx.inside(file);
    },
  },
  {
    id: 'deadlocked daemon RPC while up (alive, idle, silent): unresponsive within 20 s (scaled); answers again',
    kind: 'freeze',
    async run(ctx) {
      // A factor of 0.5: the 20 s of silence become 10 s.
      const u = await ctx.up(['--timeout-factor', '0.5'], { env: { SALTNET_SIM_TEST_DEADLOCK: '1' } });
      const pid = u.ready.daemon.pid as number;
      signal(pid, 'SIGUSR2');
      const e = await u.waitEvent(frozen('daemon'), 40_000);
      expect(e.reason).toMatch(/has not answered for \d+ s and it used no CPU/);
      signal(pid, 'SIGUSR2');
      await u.waitEvent(thawed('daemon'));
      // The wallet RPC waits on the daemon meanwhile, idle too: when it was found silent, it answers again next.
      if (u.events().some(frozen('wallet-rpc'))) await u.waitEvent(thawed('wallet-rpc'));
      await stillWhole(ctx, u.ready.height);
    },
  },
  {
    id: 'daemon frozen while the chain is built: noticed; thawed: the build goes on to ready',
    kind: 'freeze',
    async run(ctx) {
      const u = ctx.start(['--verbose'], { env: BUILD(ctx) });
      const pid = Number((await u.waitErr(/daemon ready at \S+ \(pid (\d+)\)/)).match(/pid (\d+)/)![1]);
      signal(pid, 'SIGSTOP');
      try {
        // …quoting what it last said, with where its whole log is.
        const lastLines = `\\n  its last lines \\(\\S+\\.log\\):\\n    \\S`;
        await u.waitErr(new RegExp(`daemon \\(pid ${pid}\\) is not answering: it is stopped[^\\n]*${lastLines}`));
      } finally {
        signal(pid, 'SIGCONT');
      }
      // Thawed, it is heard again; or, when the freeze came as the state was about to be saved, the save is refused
      // (said), and the build goes on with the daemon started again at the served difficulty.
      const again = `daemon \\(pid ${pid}\\) answers again`;
      const unsaved = `could not save snapshot \\S+: cannot save the state: daemon \\(pid ${pid}\\) is not answering`;
      await u.waitErr(new RegExp(`${again}|${unsaved}`));
      await u.whenReady();
      expect(u.ready.height).toBe(30);
    },
  },
  {
    id: 'wallet CLI frozen while it restores a wallet: noticed; thawed: the build goes on to ready',
    kind: 'freeze',
    async run(ctx) {
      // The CLI restores offline, beside the mining: it holds back the wallet's generation for 2 s, so it is under way
      // when it freezes.
      const u = ctx.start([], { env: { ...BUILD(ctx), SALTNET_SIM_TEST_STALL: 'wallet_cli_generate:2000' } });
      const pid = await ctx.waitPid('wallet-cli-main');
      signal(pid, 'SIGSTOP');
      try {
        await u.waitErr(new RegExp(`wallet-cli-main \\(pid ${pid}\\) is not answering: it is stopped`));
      } finally {
        signal(pid, 'SIGCONT');
      }
      await u.waitErr(new RegExp(`wallet-cli-main \\(pid ${pid}\\) answers again`));
      await u.whenReady();
    },
  },
  {
    id: 'daemon frozen during a scenario step: the step is an infrastructure error, at once',
    kind: 'freeze',
    async run(ctx) {
      // The step's request is held by the daemon; the daemon freezes under it.
      const { r, pid } = await frozenUnder(ctx, {
        steps: '  - mine: 1\n  - call: { method: get_block_count, on: daemon }\n',
        stall: 'get_block_count:20000',
        program: 'daemon',
        what: 'the stalled step',
      });
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/ERROR \(infrastructure\) at step 2/);
      expect(r.out).toContain(`the testnet's daemon (pid ${pid}) is not answering: it is stopped (SIGSTOP`);
    },
  },
  {
    id: "wallet RPC frozen during a checkpoint's store: the snapshot step is an infrastructure error naming it",
    kind: 'freeze',
    async run(ctx) {
      // A checkpoint of one node stops nothing: each wallet RPC is asked to store its wallet, and the scenario's own
      // (whose first store this is) freezes under it.
      const { r, pid } = await frozenUnder(ctx, {
        steps: '  - snapshot: before\n  - mine: 1\n',
        stall: 'store:3000',
        program: 'wallet-rpc-s1-main',
        what: 'the store under way',
      });
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/ERROR \(infrastructure\) at step 1/);
      expect(r.out).toContain(`wallet-rpc-s1-main (pid ${pid}) is not answering: it is stopped (SIGSTOP`);
    },
  },
  {
    id: 'wallet RPC frozen during snapshot save: the save fails naming it; the testnet goes on',
    kind: 'freeze',
    async run(ctx) {
      const u = await ctx.up([], { env: { SALTNET_SIM_TEST_STALL: 'store:3000' } });
      const file = join(ctx.dir, 'k3.tar.gz');
      const stored = logSaysAgain(u.ready.workdir, 'wallet-rpc.log', /TEST stall store/);
      const save = ctx.cli(['snapshot', 'save', file], { timeoutMs: 45_000 });
      await until('the store under way', stored, 45_000);
      const pid = ctx.pid('wallet-rpc');
      signal(pid, 'SIGSTOP');
      const s = await save.finally(() => signal(pid, 'SIGCONT'));
      expect(s.code, s.out).toBe(1);
      expect(s.out).toMatch(
        new RegExp(`wallet-rpc \\(pid ${pid}\\) is not answering|wallet-rpc: it stopped answering`),
      );
      expect(existsSync(file)).toBe(false);
      // The save goes on after its answer: it kills the frozen wallet RPC (no longer marked unresponsive then), and
      // starts the programs again. A mine request meanwhile waits for it (it is not refused as busy).
      await u.waitEvent((e) => e.event === 'stopped' && e.program === 'wallet-rpc');
      await stillWhole(ctx, u.ready.height);
    },
  },
];

export const KILL_CASES: FaultCase[] = [
  {
    id: 'daemon killed while up: crash event, started again on the same data',
    kind: 'kill',
    async run(ctx) {
      const u = await ctx.up();
      const pid = u.ready.daemon.pid as number;
      signal(pid, 'SIGKILL');
      expect(await u.waitEvent((e) => e.event === 'crash' && e.program === 'daemon')).toMatchObject({ restart: 1 });
      await u.waitEvent((e) => e.event === 'pid' && e.program === 'daemon' && e.reason === 'crash');
      await stillWhole(ctx, u.ready.height);
    },
  },
  {
    id: 'wallet RPC killed while up: started again, its wallet whole',
    kind: 'kill',
    async run(ctx) {
      const u = await ctx.up();
      signal(u.ready.wallet.pid as number, 'SIGKILL');
      await u.waitEvent((e) => e.event === 'pid' && e.program === 'wallet-rpc' && e.reason === 'crash');
      await stillWhole(ctx, u.ready.height);
      if (!existsSync(join(u.ready.workdir, 'wallets', 'main.keys'))) ctx.lost('the main wallet keys file');
    },
  },
  {
    id: 'daemon killed while the chain is built: started again, the build goes on to ready',
    kind: 'kill',
    async run(ctx) {
      const u = ctx.start(['--verbose'], { env: BUILD(ctx) });
      const pid = Number((await u.waitErr(/daemon ready at \S+ \(pid (\d+)\)/)).match(/pid (\d+)/)![1]);
      signal(pid, 'SIGKILL');
      await u.waitErr(new RegExp(`daemon \\(pid ${pid}\\) exited with signal SIGKILL`));
      await u.whenReady();
      expect(u.ready.height).toBe(30);
    },
  },
  {
    id: 'wallet CLI killed while it restores a wallet: up fails with the reason, nothing left running',
    kind: 'kill',
    async run(ctx) {
      // The CLI holds back the wallet's generation for 2 s (it restores offline): it is under way when it is killed.
      const u = ctx.start([], { env: { ...BUILD(ctx), SALTNET_SIM_TEST_STALL: 'wallet_cli_generate:2000' } });
      const pid = await ctx.waitPid('wallet-cli-main');
      signal(pid, 'SIGKILL');
      const exit = await u.exit(60_000);
      expect(exit.code).toBe(1);
      expect(u.err()).toMatch(/wallet CLI|wallet-cli-main/);
      expect(u.err()).toMatch(/up failed; logs kept in /);
    },
  },
  {
    id: 'daemon killed during a scenario step: started again, the read is repeated, the scenario passes',
    kind: 'kill',
    async run(ctx) {
      const file = scenario(ctx, '  - mine: 1\n  - call: { method: get_block_count, on: daemon }\n');
      const run = ctx.cli(['run', file, '--backend', 'sim'], {
        env: { SALTNET_SIM_TEST_STALL: 'get_block_count:2000' },
        timeoutMs: 45_000,
      });
      const workdir = await until('the testnet', () => ctx.runOrUndefined()?.workdir as string | undefined, 30_000);
      await until('the stalled step', logSays(workdir, 'daemon.log', /TEST stall get_block_count/), 30_000);
      signal(ctx.pid('daemon'), 'SIGKILL');
      const r = await run;
      expect(r.out).toMatch(/daemon \(pid \d+\) exited with signal SIGKILL/);
      expect(r.code, r.out).toBe(0);
    },
  },
  {
    id: 'wallet RPC killed during snapshot save: the save fails, says why; the testnet goes on',
    kind: 'kill',
    async run(ctx) {
      const u = await ctx.up([], { env: { SALTNET_SIM_TEST_STALL: 'store:3000' } });
      const file = join(ctx.dir, 'k3.tar.gz');
      const stored = logSaysAgain(u.ready.workdir, 'wallet-rpc.log', /TEST stall store/);
      const save = ctx.cli(['snapshot', 'save', file], { timeoutMs: 45_000 });
      await until('the store under way', stored, 45_000);
      signal(ctx.pid('wallet-rpc'), 'SIGKILL');
      const s = await save;
      expect(s.code, s.out).toBe(1);
      expect(s.out).toMatch(/not every program stopped cleanly/);
      expect(existsSync(file)).toBe(false);
      await stillWhole(ctx, u.ready.height);
    },
  },
  {
    id: 'saltnet up itself killed while up: its programs are reaped, its workdir lock dies with it',
    kind: 'kill',
    async run(ctx) {
      const workdir = join(ctx.dir, 'wd');
      const u = await ctx.up(['--workdir', workdir]);
      const pids = [u.ready.daemon.pid as number, u.ready.wallet.pid as number];
      u.proc.kill('SIGKILL');
      await until('the reaper', () => (pids.every((p) => !alive(p)) ? true : undefined), 15_000);
      const again = await ctx.up(['--workdir', workdir]);
      expect(again.ready.height).toBeGreaterThanOrEqual(30);
    },
  },
];
