// The subaddress lookahead on the real programs (docs/startup-profile.md), as test/sim/wallet-lookahead.test.ts holds
// the simulator to it: one fixture seed restored offline by the wallet CLI with `--subaddress-lookahead 2:20` and
// without it (wallet2's 50:200), each opened by an offline wallet RPC. The 50:200 copy makes the addresses; the 2:20
// copy knows accounts 0..2 and subaddresses 0..20 at load, and a created subaddress moves its window on.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fixtureWallet } from '../../harness/testnet/programs/fixture-wallets.js';
import { BIN_DIR, describeReal } from './real.js';

const NOT_MINE = { code: -2, message: "Address doesn't belong to the wallet" };

const freePort = (): Promise<number> =>
  new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });

describeReal('the subaddress lookahead on real Salvium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'saltnet-real-lookahead-'));
  const running: ResultPromise[] = [];
  const ports: Record<string, number> = {};
  const call = async (name: string, method: string, params: object = {}): Promise<any> =>
    (await (
      await fetch(`http://127.0.0.1:${ports[name]}/json_rpc`, {
        method: 'POST',
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method, params }),
      })
    ).json()) as any;

  /** The CLI restoring the fixture main seed offline into `name`, as saltnet's cold build does. */
  const restore = async (name: string, extra: string[]): Promise<void> => {
    const args = ['--testnet', '--offline', '--restore-deterministic-wallet', '--restore-height', '0'];
    const r = await execa(
      join(BIN_DIR, 'salvium-wallet-cli'),
      [...args, '--generate-new-wallet', join(dir, name), '--password-file', join(dir, 'pw')]
        .concat(['--log-file', join(dir, `${name}-cli.log`)])
        .concat(extra),
      { input: `${fixtureWallet('main').seed}\n\n1\n0\nY\nN\nexit\n`, reject: false, all: true, timeout: 300_000 },
    );
    expect(r.all).toContain('Generated new Carrot wallet');
  };

  const open = async (name: string): Promise<void> => {
    ports[name] = await freePort();
    const p = execa(
      join(BIN_DIR, 'salvium-wallet-rpc'),
      ['--testnet', '--offline', '--no-initial-sync', '--wallet-file', join(dir, name)]
        .concat(['--password-file', join(dir, 'pw'), '--rpc-bind-port', String(ports[name]), '--disable-rpc-login'])
        .concat(['--daemon-ssl', 'disabled', '--rpc-ssl', 'disabled', '--log-file', join(dir, `${name}-rpc.log`)]),
      { reject: false },
    );
    running.push(p);
    for (;;) {
      if (p.exitCode !== null) throw new Error(`the wallet RPC on ${name} ended (${p.exitCode})`);
      const ok = await call(name, 'get_version').catch(() => undefined);
      if (ok?.result) return;
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  beforeAll(async () => {
    writeFileSync(join(dir, 'pw'), 'pw\n');
    await Promise.all([restore('small', ['--subaddress-lookahead', '2:20']), restore('big', [])]);
    await Promise.all([open('small'), open('big')]);
  }, 900_000);

  afterAll(async () => {
    for (const p of running) if (p.exitCode === null) p.kill('SIGTERM');
    await Promise.all(running.map((p) => p.catch(() => undefined)));
    rmSync(dir, { recursive: true, force: true });
  });

  it('knows 0/20 and 2/0 at load, not 0/21, 0/25 or 3/0; after five created, 0/21 but not 0/25', async () => {
    await call('big', 'create_address', { account_index: 0, count: 30 });
    for (let i = 0; i < 3; i++) await call('big', 'create_account');
    const address = async (major: number, minor: number): Promise<string> =>
      (await call('big', 'get_address', { account_index: major, address_index: [minor] })).result.addresses[0].address;
    const index = async (addr: string): Promise<unknown> => {
      const r = await call('small', 'get_address_index', { address: addr });
      return r.error ?? r.result.index;
    };
    const [a20, a21, a25, b2, b3] = [
      await address(0, 20),
      await address(0, 21),
      await address(0, 25),
      await address(2, 0),
      await address(3, 0),
    ];
    expect(await index(a20)).toEqual({ major: 0, minor: 20 });
    expect(await index(b2)).toEqual({ major: 2, minor: 0 });
    for (const a of [a21, a25, b3]) expect(await index(a)).toEqual(NOT_MINE);
    await call('small', 'create_address', { account_index: 0, count: 5 });
    expect(await index(a21)).toEqual({ major: 0, minor: 21 });
    expect(await index(a25)).toEqual(NOT_MINE);
  }, 300_000);
});
