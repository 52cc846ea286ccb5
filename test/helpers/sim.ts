// Start the simulated programs as real processes on free loopback ports and talk to them over
// HTTP, for the simulator's own tests and benchmarks (the product's supervisor is harness/process).
// Every process started here is killed by stopAll().
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa, type ResultPromise } from 'execa';
import { freePorts } from '../../harness/process/ports.js';
import { listRuns, type RunRecord } from '../../harness/process/registry.js';

import { SIM_BIN_DIR } from '../../harness/sim/index.js';

export { SIM_BIN_DIR };

const running = new Set<ResultPromise>();

/** A free loopback port (the supervisor's allocator: ports it handed out recently are not reissued). */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}

export function tempDir(prefix = 'saltnet-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface Proc {
  proc: ResultPromise;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<{ exitCode: number | undefined; signal: string | undefined }>;
}

export function spawnSim(
  name: 'salviumd' | 'salvium-wallet-rpc' | 'salvium-wallet-cli',
  args: string[],
  opts: { env?: Record<string, string>; input?: string; cwd?: string } = {},
): Proc {
  let out = '';
  const proc = execa(join(SIM_BIN_DIR, name), args, {
    env: { TERM: 'dumb', SALTNET_SIM_BANNER_DELAY_MS: '100', ...opts.env },
    reject: false,
    all: true,
    buffer: false,
    ...(opts.input !== undefined ? { input: opts.input } : { stdin: 'ignore' }),
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
  });
  proc.all?.on('data', (d: Buffer) => (out += d.toString()));
  running.add(proc);
  void proc.finally(() => running.delete(proc));
  return {
    proc,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      const r = await proc;
      return { exitCode: r.exitCode, signal: r.signal };
    },
  };
}

export async function stopAll(): Promise<void> {
  await Promise.all(
    [...running].map(async (p) => {
      p.kill('SIGKILL');
      await p.catch(() => undefined);
    }),
  );
}

export interface HttpResult {
  status: number;
  text: string;
  json: any; // responses come in many shapes; callers check what they read
}

export async function post(
  port: number,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

export async function rpc(port: number, method: string, params?: unknown): Promise<any> {
  const r = await post(port, '/json_rpc', {
    jsonrpc: '2.0',
    id: '1',
    method,
    ...(params === undefined ? {} : { params }),
  });
  return r.json;
}

export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  everyMs = 50,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v as T;
    } catch (err) {
      last = err;
    }
    await sleep(everyMs);
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

export interface SimDaemon extends Proc {
  port: number;
  zmqPort: number;
  dataDir: string;
}

export interface DaemonOptions {
  difficulty?: number;
  env?: Record<string, string>;
  extra?: string[];
  /** Reuse ports (to restart a daemon where its wallets expect it). */
  port?: number;
  zmqPort?: number;
}

export async function startDaemon(dir: string, opts: DaemonOptions = {}): Promise<SimDaemon> {
  // Ports found free can be taken by another process before the daemon binds them: then it exits at once, and a
  // start on other free ports is tried (twice more); any other early exit fails with the daemon's output.
  for (let attempt = 1; ; attempt++) {
    const started = await startDaemonOnce(dir, opts);
    if ('port' in started) return started;
    const ours = opts.port === undefined && opts.zmqPort === undefined;
    if (!ours || attempt === 3 || !/in use|Error starting server|Failed to add TCP socket/.test(started.output))
      throw new Error(`the simulated daemon exited before it answered:\n${started.output}`);
  }
}

async function startDaemonOnce(dir: string, opts: DaemonOptions): Promise<SimDaemon | { output: string }> {
  const [freeRpc, freeZmq] = await freePorts(2);
  const port = opts.port ?? freeRpc!;
  const zmq = opts.zmqPort ?? freeZmq!;
  const dataDir = join(dir, 'daemon');
  const p = spawnSim(
    'salviumd',
    [
      '--testnet',
      '--offline',
      '--non-interactive',
      '--fixed-difficulty',
      String(opts.difficulty ?? 1),
      '--data-dir',
      dataDir,
      '--rpc-bind-ip',
      '127.0.0.1',
      '--rpc-bind-port',
      String(port),
      '--zmq-rpc-bind-port',
      String(zmq),
      '--log-file',
      join(dir, 'daemon.log'),
      ...(opts.extra ?? []),
    ],
    { ...(opts.env ? { env: opts.env } : {}) },
  );
  const exited = (): boolean => p.proc.exitCode !== null || p.proc.signalCode !== null;
  const up = await waitFor('daemon /get_info', async () =>
    exited() ? 'exited' : (await post(port, '/get_info', {})).json?.status === 'OK' && 'up',
  );
  if (up === 'exited') return { output: p.output() };
  return { ...p, port, zmqPort: zmq, dataDir };
}

export interface CliWallet {
  path: string;
  cn: string;
  carrot: string;
  seed: string[];
  output: string;
}

export async function generateWallet(path: string, password: string, daemonPort: number): Promise<CliWallet> {
  const p = spawnSim(
    'salvium-wallet-cli',
    [
      '--testnet',
      '--generate-new-wallet',
      path,
      '--password',
      password,
      '--daemon-address',
      `127.0.0.1:${daemonPort}`,
      '--log-file',
      `${path}.cli.log`,
    ],
    { input: '1\nN\nexit\n' },
  );
  const r = await p.proc;
  const out = p.output();
  const cn = /Generated new legacy \(CN\) wallet: (\S+)/.exec(out)?.[1];
  const carrot = /Generated new Carrot wallet: (\S+)/.exec(out)?.[1];
  if (!cn || !carrot) throw new Error(`wallet CLI failed (exit ${r.exitCode}):\n${out}`);
  const lines = out.split('\n');
  const start = lines.findIndex((l) => l.startsWith('NOTE: the following 25 words'));
  const seed = lines
    .slice(start + 2, start + 5)
    .join(' ')
    .trim()
    .split(/\s+/);
  return { path, cn, carrot, seed, output: out };
}

export interface SimWalletRpc extends Proc {
  port: number;
}

/** `input`: written to its stdin, which is then closed (the password of `--rpc-login <user>`). */
export async function startWalletRpc(
  args: string[],
  daemonPort: number,
  opts: { env?: Record<string, string>; cwd?: string; login?: boolean; input?: string } = {},
): Promise<SimWalletRpc> {
  const port = await freePort();
  const p = spawnSim(
    'salvium-wallet-rpc',
    [
      '--testnet',
      '--daemon-address',
      `127.0.0.1:${daemonPort}`,
      '--rpc-bind-port',
      String(port),
      ...(opts.login ? [] : ['--disable-rpc-login']),
      ...args,
    ],
    {
      ...(opts.env ? { env: opts.env } : {}),
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
      ...(opts.input !== undefined ? { input: opts.input } : {}),
    },
  );
  await waitFor(
    'wallet RPC start',
    async () =>
      p.output().includes('Starting wallet RPC server') ||
      (p.proc.exitCode !== null && Promise.reject(new Error(p.output()))),
  );
  return { ...p, port };
}

export async function height(daemonPort: number): Promise<number> {
  return (await post(daemonPort, '/get_height', {})).json.height as number;
}

/**
 * `/start_mining`, tried again while the daemon answers `Failed, mining not started`: for a moment after its miner
 * stopped itself at HF10 (real Salvium and the simulator alike). A fast simulator can get there while a busy test
 * process is late to stop it short of 1100 (seen in an emulation of CI: mineTo 900, then start_mining refused).
 */
async function startMining(daemonPort: number, address: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    const status = (await post(daemonPort, '/start_mining', { miner_address: address, threads_count: 1 })).json.status;
    if (status === 'OK') return;
    if (status !== 'Failed, mining not started' || tries >= 50) throw new Error(`start_mining: ${status}`);
    await sleep(100);
  }
}

/**
 * Mine with `address` until the chain is `target` blocks high, then stop the miner and pop the
 * blocks it found past the target (as saltnet's own mining does), so stories land on exact heights.
 */
export async function mineTo(daemonPort: number, address: string, target: number): Promise<number> {
  if ((await height(daemonPort)) >= target) return height(daemonPort);
  await startMining(daemonPort, address);
  await waitFor(`height ${target}`, async () => (await height(daemonPort)) >= target, 120_000, 2);
  await post(daemonPort, '/stop_mining', {});
  const reached = await height(daemonPort);
  if (reached > target) await post(daemonPort, '/pop_blocks', { nblocks: reached - target });
  return height(daemonPort);
}

/** Mine across HF10: CN address to 1100 (the miner stops itself), then the Carrot address. */
export async function mineAcrossCarrot(
  daemonPort: number,
  w: { cn: string; carrot: string },
  target: number,
): Promise<number> {
  if ((await height(daemonPort)) < 1100) {
    await startMining(daemonPort, w.cn);
    await waitFor(
      'miner to stop itself at 1100',
      async () => (await post(daemonPort, '/mining_status', {})).json.active === false,
      120_000,
      // at the fast pace the simulated miner goes as fast as it is asked (harness/sim/README.md)
      2,
    );
  }
  return waitFor(
    'restart with the Carrot address',
    async () => {
      try {
        return await mineTo(daemonPort, w.carrot, target);
      } catch {
        return undefined;
      }
    },
    30_000,
    100,
  );
}

export function cleanup(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * listRuns() of another state dir (it reads SALTNET_STATE_DIR when called; synchronous, so nothing else sees the swap).
 */
export function runsIn(dir: string): RunRecord[] {
  const before = process.env.SALTNET_STATE_DIR;
  process.env.SALTNET_STATE_DIR = dir;
  try {
    return listRuns();
  } finally {
    if (before === undefined) delete process.env.SALTNET_STATE_DIR;
    else process.env.SALTNET_STATE_DIR = before;
  }
}
