// saltnet/vitest as a user has it: a temporary project with node_modules/saltnet (this repository:
// its package.json exports point at dist/, which the test run's global setup builds) and
// node_modules/vitest, the example project copied in, and the repository's vitest run on it as a
// separate process. Checked: the example passes; a failing test fails the run; and after a normal
// end, a wallet a test forgot to stop, a Ctrl-C to the whole process group, or a SIGTERM to vitest's main process
// alone, nothing
// saltnet started is left: every process the run registry recorded is dead, no process carries the
// run's SALTNET_STATE_DIR (the reapers included), and the testnet's and fresh wallets' folders are gone.
import type { ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasProcfs } from '../../harness/process/procfs.js';
import { isAlive, type RunRecord } from '../../harness/process/registry.js';
import { cleanup, runsIn, tempDir } from '../helpers/sim.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');
const EXAMPLE = join(ROOT, 'test/vitest/example');

let project: string;
let state: string;
const dirs: string[] = [];

beforeAll(() => {
  project = tempDir('saltnet-vitest-project-');
  state = tempDir('saltnet-vitest-state-');
  dirs.push(project, state);
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(ROOT, join(project, 'node_modules/saltnet'));
  symlinkSync(realpathSync(join(ROOT, 'node_modules/vitest')), join(project, 'node_modules/vitest'));
  cpSync(EXAMPLE, project, { recursive: true });
});
afterAll(() => {
  for (const d of dirs) cleanup(d);
});

/** Wait until `cond` holds or `ms` have passed (then the assertion after it says what is wrong). */
async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await sleep(50);
}

/** Pids of live processes whose environment holds `entry` (Linux: /proc/<pid>/environ). */
function processesWith(entry: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(entry) && isAlive(Number(name)))
        out.push(Number(name));
    } catch {
      /* gone, or not ours */
    }
  }
  return out;
}

interface Run {
  child: Pick<ChildProcess, 'pid' | 'exitCode' | 'kill'>;
  output(): string;
  /** Every run record seen while the run was going (latest version of each: records only grow). */
  seen: Map<string, RunRecord>;
  done: Promise<{ exitCode: number | undefined; signal: string | undefined; output: string; runs: RunRecord[] }>;
}

/** Start the repository's vitest on the temporary project, watching the run registry meanwhile. */
function vitest(args: string[]): Run {
  // The worker we run in is a vitest worker: its VITEST_* variables must not leak into the inner run.
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('VITEST') && k !== 'FORCE_COLOR' && k !== 'NODE_OPTIONS') env[k] = v;
  expect(env.SALTNET_CACHE_DIR, 'test/setup/build.ts sets a cache per test run').toBeTruthy();
  Object.assign(env, {
    SALTNET_BACKEND: 'sim',
    SALTNET_SIM_HASHRATE: '250000',
    SALTNET_STATE_DIR: state,
    CI: '1',
    NO_COLOR: '1',
  });
  const child = execa(process.execPath, [VITEST, 'run', '--root', project, '--reporter', 'verbose', ...args], {
    cwd: project,
    env,
    extendEnv: false,
    reject: false,
    all: true,
    buffer: true,
    detached: true,
  });
  let out = '';
  child.all?.on('data', (d: Buffer) => (out += d.toString()));
  const seen = new Map<string, RunRecord>();
  // A record lists the processes that run now; keep every one seen (a fresh wallet's RPC comes and goes between looks).
  const look = (): void => {
    for (const r of runsIn(state)) {
      const before = seen.get(r.runId)?.processes ?? [];
      seen.set(r.runId, {
        ...r,
        processes: [...before.filter((p) => !r.processes.some((q) => q.pid === p.pid)), ...r.processes],
      });
    }
  };
  const timer = setInterval(look, 20);
  const done = (async () => {
    const r = await child;
    clearInterval(timer);
    look();
    return { exitCode: r.exitCode, signal: r.signal, output: out, runs: [...seen.values()] };
  })();
  return { child, output: () => out, seen, done };
}

/** The folders a run record stands for: its workdir and, for a fresh wallet, the test file's folder around it. */
function foldersOf(r: RunRecord): string[] {
  const parent = dirname(r.workdir);
  return basename(parent).startsWith('saltnet-vitest-') ? [r.workdir, parent] : [r.workdir];
}

/** Nothing of the run is left: the processes it recorded, its records, its reapers, its folders. */
async function nothingLeft(runs: RunRecord[]): Promise<void> {
  const dead = (p: { pid: number; startTime: string }): boolean => !isAlive(p.pid, p.startTime || undefined);
  const strays = (): number[] => (hasProcfs() ? processesWith(`SALTNET_STATE_DIR=${state}`) : []);
  // Signalled workers finish their exit a moment after vitest's main process, the kernel reaps
  // SIGKILLed processes a moment later, and a reaper exits within one poll (250 ms) of its
  // record's removal: wait for all that, then say precisely what is still there.
  await until(
    () =>
      runs.every((r) => r.processes.every(dead) && foldersOf(r).every((d) => !existsSync(d))) &&
      runsIn(state).length === 0 &&
      strays().length === 0,
    10_000,
  );
  for (const r of runs)
    for (const p of r.processes) expect(dead(p), `${p.name} (pid ${p.pid}) of run ${r.runId} is alive`).toBe(true);
  expect(runsIn(state).map((r) => r.runId)).toEqual([]);
  expect(strays()).toEqual([]);
  for (const r of runs)
    for (const d of foldersOf(r)) expect(existsSync(d), `folder ${d} of run ${r.runId}`).toBe(false);
}

const FAILING = `import { expect, inject, it } from 'vitest';
import { useFreshWallet } from 'saltnet/vitest';

const saltnet = inject('saltnet');
const carol = useFreshWallet(saltnet, { name: 'carol', unlocked: 100_000_000n });

it('expects a balance carol does not have', async () => {
  expect((await carol().client.balance('SAL1')).unlocked).toBe(1n);
});
`;

const LEAKY = `import { inject, it } from 'vitest';
import { freshWallet } from 'saltnet/vitest';

it('forgets to stop its fresh wallet', async () => {
  const w = await freshWallet(inject('saltnet'), { name: 'leaky' });
  console.log(\`LEAKY \${w.pid}\`);
});
`;

// vitest's defaults are 5 s per test and 10 s per hook: the setup file gave this file the context's.
const TIMEOUTS = `import { expect, inject, it } from 'vitest';

const saltnet = inject('saltnet');

it('runs with the timeouts the testnet needs', ({ task }) => {
  expect(saltnet.timeouts).toEqual({ test: 60_000, hook: 120_000 });
  expect(task.timeout).toBe(60_000);
  console.log('TIMEOUTS OK');
});
`;

const LOOP = `import { expect, inject, it } from 'vitest';
import { automine, freshWallet, fund } from 'saltnet/vitest';

const saltnet = inject('saltnet');

it('funds a fresh wallet with the faucet, then its transfer confirms by automine alone', async () => {
  await using dave = await freshWallet(saltnet, { name: 'dave' });
  const paid = await fund(saltnet, { address: dave.address, amount: 200_000_000n });
  expect(paid.amount).toBe('200000000');
  await dave.client.refresh();
  expect((await dave.client.balance('SAL1')).unlocked).toBe(200_000_000n);
  expect(await automine(saltnet, { mineOnTx: true })).toEqual({ mineOnTx: true, blockTime: 0 });
  const tx = await dave.client.call<{ tx_hash: string }>('transfer', {
    destinations: [{ address: saltnet.wallet.address, amount: 100_000_000n, asset_type: 'SAL1' }],
    source_asset: 'SAL1',
    dest_asset: 'SAL1',
    tx_type: 3,
  });
  for (let i = 0; ; i++) {
    await dave.client.refresh();
    const t = await dave.client.call<{ transfer: { height: number } }>('get_transfer_by_txid', { txid: tx.tx_hash });
    if (t.transfer.height > 0) break;
    if (i > 600) throw new Error('not mined');
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(await automine(saltnet, 'off')).toEqual({ mineOnTx: false, blockTime: 0 });
  console.log('LOOP OK');
});
`;

/** A file with a testnet of its own from the pool: it mines there, and the run's shared testnet does not move. */
const OWN = (n: number): string => `import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { acquireTestnet, connect, mine, type OwnTestnet } from 'saltnet/vitest';

const saltnet = inject('saltnet');
let own: OwnTestnet;
beforeAll(async () => {
  own = await acquireTestnet(saltnet);
  console.log('OWN ${n} ' + own.from + ' ' + own.waitedMs + ' ' + own.context.daemonUrl);
});
afterAll(() => own.release());

it('mines on a testnet of its own (file ${n})', async () => {
  expect(own.context.daemonUrl).not.toBe(saltnet.daemonUrl);
  const mine3 = await mine(own.context, 3);
  expect(mine3).toBe(own.context.height + 3);
  const shared = connect(saltnet);
  expect(await shared.daemon.height()).toBe(saltnet.height);
  await shared.close();
});
`;

// It holds a testnet of the pool too (and the pool starts the next one ahead): those go with the run as well.
const HELD = `import { inject, it } from 'vitest';
import { acquireTestnet, freshWallet } from 'saltnet/vitest';

it('holds a fresh wallet and a testnet of its own until the run is interrupted', async () => {
  const own = await acquireTestnet(inject('saltnet'));
  const w = await freshWallet(inject('saltnet'), { name: 'held' });
  console.log(\`HELD \${w.pid} \${own.context.runId}\`);
  await new Promise(() => undefined);
}, 600_000);
`;

describe('a real vitest run of the example project', () => {
  it('passes: the global setup starts the testnet, the tests inject it, fund a fresh wallet and transfer', async () => {
    const r = await vitest(['example.spec.ts']).done;
    expect(r.exitCode, r.output).toBe(0);
    expect(r.output).toContain('saltnet: testnet ready for the tests');
    expect(r.output).toContain('the testnet > is up at the height the global setup reached, with a funded main wallet');
    expect(r.output).toContain('a transfer between fresh wallets > alice starts with 10 SAL1 unlocked');
    expect(r.output).toContain(
      'a transfer between fresh wallets > alice sends 1 SAL1 to bob, who sees it once a block confirms it',
    );
    expect(r.output).toMatch(/Tests\s+3 passed \(3\)/);
    // What the registry showed while it ran: the testnet, and the two fresh wallets' own wallet RPCs.
    const names = r.runs.flatMap((x) => x.processes.map((p) => p.name));
    expect(names).toEqual(expect.arrayContaining(['daemon', 'wallet-rpc', 'wallet-rpc-alice', 'wallet-rpc-bob']));
    await nothingLeft(r.runs);
  }, 300_000);

  it('gives every test the timeouts the testnet needs (saltnet/vitest/setup) and says once what it tests on', async () => {
    writeFileSync(join(project, 'timeouts.spec.ts'), TIMEOUTS);
    try {
      const r = await vitest(['timeouts.spec.ts']).done;
      expect(r.exitCode, r.output).toBe(0);
      expect(r.output).toContain('TIMEOUTS OK');
      const line =
        'saltnet: testing on the built-in simulator at difficulty 500; tests may take 60 s, hooks 120 s (set SALTNET_BACKEND=salvium for real Salvium)';
      expect(r.output.split('\n').filter((l) => l.includes('saltnet: testing on'))).toEqual([line]);
      await nothingLeft(r.runs);
    } finally {
      cleanup(join(project, 'timeouts.spec.ts'));
    }
  }, 300_000);

  it('with freshWallets in saltnet.config.yaml, alice is a wallet funded ahead (nothing mined for her)', async () => {
    const config = join(project, 'saltnet.config.yaml');
    writeFileSync(config, 'difficulty: 500\nfreshWallets:\n  - { unlocked: 10 SAL1, count: 1 }\n');
    try {
      const r = await vitest(['example.spec.ts']).done;
      expect(r.exitCode, r.output).toBe(0);
      expect(r.output).toMatch(/saltnet: funded 1 fresh wallet ahead: restored with snapshot sim-d1-\S+-ahead-/);
      expect(r.output).toMatch(/Tests\s+3 passed \(3\)/);
      await nothingLeft(r.runs);
    } finally {
      rmSync(config, { force: true });
    }
  }, 300_000);

  it('fails when a test fails (two files, two workers funding from the main wallet at once), and still leaves nothing', async () => {
    writeFileSync(join(project, 'failing.spec.ts'), FAILING);
    try {
      const r = await vitest(['--maxWorkers=2']).done;
      expect(r.exitCode, r.output).toBe(1);
      expect(r.output).toContain('expects a balance carol does not have');
      expect(r.output).toMatch(/Tests\s+1 failed \| 3 passed \(4\)/);
      const names = r.runs.flatMap((x) => x.processes.map((p) => p.name));
      expect(names).toEqual(expect.arrayContaining(['wallet-rpc-alice', 'wallet-rpc-carol']));
      await nothingLeft(r.runs);
    } finally {
      cleanup(join(project, 'failing.spec.ts'));
    }
  }, 300_000);

  it('funds a fresh wallet with fund() and confirms its transfer with automine() (saltnet/vitest)', async () => {
    writeFileSync(join(project, 'loop.spec.ts'), LOOP);
    try {
      const r = await vitest(['loop.spec.ts']).done;
      expect(r.exitCode, r.output).toBe(0);
      expect(r.output).toContain('LOOP OK');
      await nothingLeft(r.runs);
    } finally {
      cleanup(join(project, 'loop.spec.ts'));
    }
  }, 300_000);

  it('gives each file a testnet of its own from the pool, the later ones started while earlier files ran', async () => {
    const files = [1, 2, 3].map((n) => join(project, `own-${n}.spec.ts`));
    files.forEach((f, i) => writeFileSync(f, OWN(i + 1)));
    try {
      const r = await vitest(['own-', '--maxWorkers=1']).done;
      expect(r.exitCode, r.output).toBe(0);
      expect(r.output).toMatch(/Tests\s+3 passed \(3\)/);
      const got = [...r.output.matchAll(/OWN (\d) (\w+) (\d+) (\S+)/g)].map((m) => ({ from: m[2], url: m[4] }));
      expect(got).toHaveLength(3);
      // Three testnets, none of them the shared one; the first started on demand, the others ahead.
      expect(new Set(got.map((g) => g.url)).size).toBe(3);
      expect(got.filter((g) => g.from === 'started')).toHaveLength(1);
      expect(r.output).toMatch(/saltnet: testnet pool: up to \d+ testnets? at once/);
      await nothingLeft(r.runs);
    } finally {
      for (const f of files) cleanup(f);
    }
  }, 300_000);

  it('stops a fresh wallet a test forgot to stop when its worker ends', async () => {
    writeFileSync(join(project, 'leaky.spec.ts'), LEAKY);
    try {
      const r = await vitest(['leaky.spec.ts']).done;
      expect(r.exitCode, r.output).toBe(0);
      expect(r.output).toMatch(/LEAKY \d+/);
      expect(r.runs.flatMap((x) => x.processes.map((p) => p.name))).toContain('wallet-rpc-leaky');
      await nothingLeft(r.runs);
    } finally {
      cleanup(join(project, 'leaky.spec.ts'));
    }
  }, 300_000);
});

describe('an interrupted vitest run leaves nothing', () => {
  let held: string;
  beforeAll(() => {
    held = join(project, 'held.spec.ts');
    writeFileSync(held, HELD);
  });
  afterAll(() => cleanup(held));

  /** Start the held spec and wait until its fresh wallet is up. */
  async function heldRun(): Promise<Run> {
    const run = vitest(['held.spec.ts']);
    await until(() => /HELD \d+/.test(run.output()) || run.child.exitCode !== null, 240_000);
    expect(run.output(), 'the held test did not start').toMatch(/HELD \d+/);
    return run;
  }

  it('Ctrl-C (SIGINT to the whole process group, as a terminal sends it)', async () => {
    const run = await heldRun();
    process.kill(-run.child.pid!, 'SIGINT');
    const r = await run.done;
    expect(r.exitCode ?? r.signal, r.output).toBe(130);
    expect(r.runs.flatMap((x) => x.processes.map((p) => p.name))).toEqual(
      expect.arrayContaining(['daemon', 'wallet-rpc-held']),
    );
    // The pool's testnet the file held was seen running, and goes with the rest.
    expect(r.runs.map((x) => x.runId)).toContain(r.output.match(/HELD \d+ (\S+)/)?.[1]);
    await nothingLeft(r.runs);
  }, 300_000);

  it("SIGTERM to vitest's main process alone (its worker is orphaned and must notice)", async () => {
    const run = await heldRun();
    run.child.kill('SIGTERM');
    const r = await run.done;
    expect(r.exitCode ?? r.signal, r.output).toBe(143);
    await nothingLeft(r.runs);
  }, 300_000);
});
