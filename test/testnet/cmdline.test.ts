// No secret on a command line: any user can read /proc/<pid>/cmdline (`ps -ef`). A cold start with
// Digest login, through a --bin-dir of wrappers around the simulator that record every argv (the
// wallet CLIs have exited by the time `up` returns), then /proc/<pid>/cmdline of what runs, the
// logs, and the modes of the files that hold the secrets.
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, SIM_BIN_DIR, tempDir } from '../helpers/sim.js';
import { startTestnet, type Testnet, type WalletHandle } from '../../harness/testnet/testnet.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/wallets', import.meta.url));

const quiet = { progress: 'none' as const, log: () => undefined, trapSignals: false };

describe('secrets stay off command lines (sim, --login digest)', () => {
  let dir: string;
  let argvLog: string;
  let t: Testnet;
  let password: string;
  let login: string;
  let bob: WalletHandle;
  let bin: string;
  beforeAll(async () => {
    dir = tempDir('saltnet-cmdline-');
    bin = join(dir, 'bin');
    argvLog = join(dir, 'argv.log');
    mkdirSync(bin);
    for (const name of ['salviumd', 'salvium-wallet-cli', 'salvium-wallet-rpc']) {
      writeFileSync(
        join(bin, name),
        `#!/bin/sh\nprintf '%s\\n' "${name} $*" >> "${argvLog}"\nexec "${join(SIM_BIN_DIR, name)}" "$@"\n`,
      );
      chmodSync(join(bin, name), 0o755);
    }
    // Its own cache: a cold start, so the wallet CLIs restore the wallets.
    t = await startTestnet({
      ...quiet,
      backend: 'salvium',
      binDir: bin,
      workdir: join(dir, 'work'),
      cacheDir: join(dir, 'cache'),
      height: 20,
      unlocked: 0n,
      login: 'digest',
    });
    bob = await t.addWallet('bob');
    password = readFileSync(join(t.workdir, 'wallets', '.password'), 'utf8');
    login = t.wallet.credentials!.password;
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    if (dir) cleanup(dir);
  });

  it('started every program without a password in its argv', () => {
    expect(password).toMatch(/^[0-9a-f]{36}$/);
    expect(login).toMatch(/^[0-9a-f]{36}$/);
    const argv = readFileSync(argvLog, 'utf8');
    // the wallet CLIs (one per restored wallet), the daemon, the wallet RPCs of main and bob
    expect(argv.match(/^salvium-wallet-cli /gm)).toHaveLength(2);
    expect(argv.match(/^salvium-wallet-rpc /gm)!.length).toBeGreaterThanOrEqual(2);
    expect(argv).toContain('--password-file');
    expect(argv).toMatch(/--rpc-login saltnet( |$)/m);
    expect(argv).not.toContain(password);
    expect(argv).not.toContain(login);
  });

  it('restores the fixture wallets with no seed word on a command line, and none in the logs (0600)', () => {
    const argv = readFileSync(argvLog, 'utf8');
    expect(argv).toMatch(/^salvium-wallet-cli .*--restore-deterministic-wallet/m);
    expect(argv).not.toContain('--electrum-seed');
    for (const name of ['miner', 'main']) {
      const seed = (JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as { seed: string }).seed;
      const words = seed.split(' ');
      // Any three words of it in a row would be a leak.
      for (let i = 0; i + 3 <= words.length; i++) expect(argv).not.toContain(words.slice(i, i + 3).join(' '));
      const log = join(t.workdir, 'logs', `wallet-cli-${name}.log`);
      const text = readFileSync(log, 'utf8');
      for (let i = 0; i + 3 <= words.length; i++) expect(text, log).not.toContain(words.slice(i, i + 3).join(' '));
      expect(statSync(log).mode & 0o777, log).toBe(0o600);
    }
  });

  it('leaves no password in /proc/<pid>/cmdline of any process it runs', () => {
    const procs = t.supervisor.processes().filter((p) => p.running);
    expect(procs.map((p) => p.name).sort()).toEqual(['daemon', 'wallet-rpc', 'wallet-rpc-bob']);
    for (const p of procs) {
      const cmdline = readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').split('\0').join(' ');
      expect(cmdline, p.name).toContain('salvium');
      expect(cmdline, p.name).not.toContain(password);
      expect(cmdline, p.name).not.toContain(login);
    }
  });

  it('still logs in with Digest, and keeps the secrets in 0600 files and out of the logs', async () => {
    expect(await t.wallet.client.version()).toBe(65564);
    expect(await bob.client.version()).toBe(65564);
    for (const f of ['.password', '.rpc-login'])
      expect(statSync(join(t.workdir, 'wallets', f)).mode & 0o777, f).toBe(0o600);
    for (const f of readdirSync(join(t.workdir, 'logs'))) {
      const text = readFileSync(join(t.workdir, 'logs', f), 'utf8');
      expect(text, f).not.toContain(password);
      expect(text, f).not.toContain(login);
    }
  });

  it('makes the secret files 0600 again when a reused workdir has them looser', async () => {
    await t.stop();
    const wallets = join(dir, 'work', 'wallets');
    for (const f of ['.password', '.rpc-login']) chmodSync(join(wallets, f), 0o644);
    t = await startTestnet({
      ...quiet,
      backend: 'salvium',
      binDir: bin,
      workdir: join(dir, 'work'),
      cacheDir: join(dir, 'cache'),
      height: 20,
      unlocked: 0n,
      login: 'digest',
    });
    for (const f of ['.password', '.rpc-login']) expect(statSync(join(wallets, f)).mode & 0o777, f).toBe(0o600);
    expect(readFileSync(join(wallets, '.password'), 'utf8')).toBe(password);
  }, 60_000);
});
