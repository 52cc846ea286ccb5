// Secrets off the command line, as on the real programs (verified on Salvium v1.1.3c): the wallet
// password from `--password-file` (trailing line breaks removed, as wallet2 does), and the Digest
// login from `--rpc-login <user>` with the password read from stdin (one line, or up to EOF).
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient } from '../../harness/rpc/wallet.js';
import {
  cleanup,
  freePort,
  generateWallet,
  post,
  rpc,
  spawnSim,
  startDaemon,
  startWalletRpc,
  stopAll,
  tempDir,
  type CliWallet,
  type SimDaemon,
} from '../helpers/sim.js';

let dir: string;
let daemon: SimDaemon;
let alice: CliWallet;

beforeAll(async () => {
  dir = tempDir('saltnet-wallet-passwords-');
  daemon = await startDaemon(dir);
  alice = await generateWallet(join(dir, 'alice'), 'pw', daemon.port);
}, 60_000);

afterAll(async () => {
  await stopAll();
  if (dir) cleanup(dir);
});

const secretFile = (name: string, text: string): string => {
  const f = join(dir, name);
  writeFileSync(f, text);
  chmodSync(f, 0o600);
  return f;
};

const run = async (args: string[], input?: string): Promise<{ code: number | undefined; out: string }> => {
  const p = spawnSim(
    'salvium-wallet-rpc',
    ['--testnet', '--daemon-address', `127.0.0.1:${daemon.port}`, '--rpc-bind-port', String(await freePort()), ...args],
    input === undefined ? {} : { input },
  );
  const r = await p.proc;
  return { code: r.exitCode, out: p.output() };
};

describe('the simulated wallet RPC', () => {
  it('opens a wallet with --password-file, trailing line breaks removed', async () => {
    const r = await startWalletRpc(
      [
        '--wallet-file',
        alice.path,
        '--password-file',
        secretFile('pw-crlf', 'pw\r\n\n'),
        '--no-initial-sync',
        '--log-file',
        join(dir, 'pf.log'),
      ],
      daemon.port,
    );
    expect((await rpc(r.port, 'get_address')).result.address).toBe(alice.cn);
    await r.stop();
  });

  it('fails with the real lines on an unreadable password file, a wrong one, or --password with it', async () => {
    const missing = await run([
      '--wallet-file',
      alice.path,
      '--password-file',
      join(dir, 'none'),
      '--disable-rpc-login',
    ]);
    expect(missing.code).toBe(1);
    expect(missing.out).toContain('E Wallet initialization failed: the password file specified could not be read');
    const wrong = await run([
      '--wallet-file',
      alice.path,
      '--password-file',
      secretFile('pw-wrong', 'pw2\n'),
      '--disable-rpc-login',
    ]);
    expect(wrong.out).toContain('E Wallet initialization failed: invalid password');
    const both = await run([
      '--wallet-file',
      alice.path,
      '--password',
      'pw',
      '--password-file',
      secretFile('pw-ok', 'pw'),
      '--disable-rpc-login',
    ]);
    expect(both.out).toContain(
      "E Wallet initialization failed: can't specify more than one of --password and --password-file",
    );
  });

  it('reads the Digest password from stdin for --rpc-login <user>: one line, or up to the end of input', async () => {
    for (const input of ['s3cret-line\nignored\n', 's3cret-line']) {
      const r = await startWalletRpc(
        ['--wallet-dir', join(dir, 'wallets'), '--rpc-login', 'saltnet', '--log-file', join(dir, 'login.log')],
        daemon.port,
        { login: true, input },
      );
      expect((await post(r.port, '/json_rpc', { jsonrpc: '2.0', id: 1, method: 'get_version' })).status).toBe(401);
      const ok = createWalletClient(`http://127.0.0.1:${r.port}`, {
        auth: { username: 'saltnet', password: 's3cret-line' },
      });
      expect(await ok.version()).toBe(65564);
      await ok.close();
      const wrong = createWalletClient(`http://127.0.0.1:${r.port}`, {
        auth: { username: 'saltnet', password: 's3cret-line\nignored' },
      });
      await expect(wrong.version()).rejects.toThrow(/401/);
      await wrong.close();
      expect(r.output()).not.toContain('s3cret');
      await r.stop();
    }
  });

  it('refuses an empty --rpc-login user, as the real one does', async () => {
    const r = await run(['--wallet-dir', join(dir, 'wallets'), '--rpc-login', ':x'], '');
    expect(r.code).toBe(1);
    expect(r.out).toContain('E Username specified with --rpc-login cannot be empty');
  });
});

describe('the simulated wallet CLI', () => {
  it('restores a wallet with --password-file and opens it with the same file', async () => {
    const file = secretFile('cli-pw', 'cli-pass\n');
    const path = join(dir, 'restored');
    const restore = spawnSim(
      'salvium-wallet-cli',
      [
        '--testnet',
        '--restore-deterministic-wallet',
        '--electrum-seed',
        alice.seed.join(' '),
        '--restore-height',
        '0',
        '--generate-new-wallet',
        path,
        '--password-file',
        file,
        '--daemon-address',
        `127.0.0.1:${daemon.port}`,
        '--log-file',
        join(dir, 'restore.log'),
      ],
      { input: '\n0\nN\nexit\n' },
    );
    await restore.proc;
    expect(restore.output()).toContain(`Generated new legacy (CN) wallet: ${alice.cn}`);
    const r = await startWalletRpc(
      [
        '--wallet-file',
        path,
        '--password-file',
        file,
        '--no-initial-sync',
        '--log-file',
        join(dir, 'restored-rpc.log'),
      ],
      daemon.port,
    );
    expect((await rpc(r.port, 'get_address')).result.address).toBe(alice.cn);
    await r.stop();
    const wrong = await run(['--wallet-file', path, '--password', 'cli-pass\n', '--disable-rpc-login']);
    expect(wrong.out).toContain('invalid password');
  });
});
