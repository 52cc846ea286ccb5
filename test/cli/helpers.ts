// Starting a long-running `saltnet` command (up, snapshot load) as a user would, and waiting for
// the JSON line it prints when the testnet is ready.
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { freePort, rpc, spawnSim, waitFor } from '../helpers/sim.js';

export const CLI = fileURLToPath(new URL('../../dist/harness/cli/main.js', import.meta.url));

export interface Started {
  proc: ResultPromise;
  ready: any;
  /** Everything it printed on stderr so far. */
  err(): string;
  /** The JSON lines it printed on stdout after the ready line, so far. */
  events(): any[];
}

/** Run `saltnet <args> --json` and wait (generously: the suite runs other testnets at once) for its ready line. */
export async function startUntilReady(
  args: string[],
  env: Record<string, string>,
  running: ResultPromise[],
  timeoutMs = 120_000,
): Promise<Started> {
  const proc = execa(process.execPath, [CLI, ...args, '--json'], {
    env,
    reject: false,
    buffer: false,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  running.push(proc);
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  // An exit before the ready line fails at once, with what it printed (not after the whole timeout).
  let exited: string | undefined;
  void proc.then(
    (r) => (exited = `saltnet exited (code ${r.exitCode}, signal ${r.signal ?? 'none'}) before it was ready:\n${err}`),
  );
  const line = await waitFor(
    'saltnet to be ready',
    async () => out.split('\n').find((l) => l.startsWith('{')) ?? (exited !== undefined ? 'exited' : undefined),
    timeoutMs,
    50,
  );
  if (line === 'exited') throw new Error(exited);
  const events = (): any[] =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .slice(1)
      .map((l) => JSON.parse(l));
  return { proc, ready: JSON.parse(line), err: () => err, events };
}

/**
 * The teardown after each test: end every command the test started (`signal`: SIGKILL, or SIGINT
 * to let it stop its testnet itself), then `saltnet down` for whatever a killed one left.
 */
export async function stopStarted(
  running: ResultPromise[],
  env: Record<string, string>,
  signal: 'SIGKILL' | 'SIGINT' = 'SIGKILL',
): Promise<void> {
  for (const p of running.splice(0)) {
    p.kill(signal);
    await p.catch(() => undefined);
  }
  await execa(process.execPath, [CLI, 'down'], { env, reject: false });
}

/**
 * An app's own wallet: a simulated wallet RPC of its own on the testnet's daemon (the testnet knows nothing of it),
 * a fresh wallet in `dir`. stopAll() (helpers/sim) ends it.
 */
export async function externalWallet(daemonPort: number, dir: string): Promise<{ port: number; address: string }> {
  const port = await freePort();
  spawnSim('salvium-wallet-rpc', [
    '--testnet',
    '--wallet-dir',
    dir,
    '--daemon-address',
    `127.0.0.1:${daemonPort}`,
    '--rpc-bind-ip',
    '127.0.0.1',
    '--rpc-bind-port',
    String(port),
    '--disable-rpc-login',
    '--non-interactive',
  ]);
  await waitFor('the app wallet RPC', async () => (await rpc(port, 'get_version')).result !== undefined, 60_000, 200);
  const created = await rpc(port, 'create_wallet', { filename: 'app', password: '', language: 'English' });
  if (created.error) throw new Error(`create_wallet: ${JSON.stringify(created.error)}`);
  return { port, address: (await rpc(port, 'get_address')).result.address as string };
}
