// The subaddress lookahead a wallet CLI writes into the keys file (`--subaddress-lookahead major:minor`), and what
// the wallet that loads it detects, as recorded from salvium-wallet-cli / salvium-wallet-rpc v1.1.3c (2026-11-26:
// one seed restored offline twice, with 2:20 and with the default 50:200; the 50:200 copy created the subaddresses,
// the 2:20 copy was asked get_address_index for them):
//   0/20 and 2/0 belong (load's generate_subaddress_map: accounts 0..2, subaddresses 0..20, both ends included);
//   0/21, 0/25 and 3/0 do not; after create_address count 5 (indices 1..5) 0/21 belongs and 0/25 still does not
//   (expand_subaddresses: up to the last created + 20 - 1 = 24).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanup,
  rpc,
  spawnSim,
  startDaemon,
  startWalletRpc,
  stopAll,
  tempDir,
  type SimDaemon,
  type SimWalletRpc,
} from '../helpers/sim.js';

const FAST = { SALTNET_SIM_MIN_BLOCK_MS: '0' };
const NOT_MINE = { code: -2, message: "Address doesn't belong to the wallet" };
let dir: string;
let daemon: SimDaemon;
let small: SimWalletRpc;
let big: SimWalletRpc;

const result = async (port: number, method: string, params?: unknown): Promise<any> => {
  const r = await rpc(port, method, params);
  if (r.error) throw new Error(`${method}: ${r.error.code} ${r.error.message}`);
  return r.result;
};

/** A wallet CLI generating `path` with these extra flags; its output and exit code. */
async function cli(path: string, extra: string[]): Promise<{ out: string; exitCode: number | undefined }> {
  const p = spawnSim(
    'salvium-wallet-cli',
    ['--testnet', '--generate-new-wallet', path, '--password', 'pw', '--daemon-address', `127.0.0.1:${daemon.port}`]
      .concat(['--log-file', `${path}.cli.log`])
      .concat(extra),
    { input: '1\nN\nexit\n' },
  );
  const r = await p.proc;
  return { out: p.output(), exitCode: r.exitCode };
}

beforeAll(async () => {
  dir = tempDir('saltnet-wallet-lookahead-');
  daemon = await startDaemon(dir, { env: FAST });
  const made = await cli(join(dir, 'small'), ['--subaddress-lookahead', '2:20']);
  const lines = made.out.split('\n');
  const at = lines.findIndex((l) => l.startsWith('NOTE: the following 25 words'));
  const seed = lines
    .slice(at + 2, at + 5)
    .join(' ')
    .trim();
  expect(seed.split(/\s+/)).toHaveLength(25);
  small = await startWalletRpc(['--wallet-file', join(dir, 'small'), '--password', 'pw'], daemon.port);
  big = await startWalletRpc(['--wallet-dir', join(dir, 'big')], daemon.port);
  await result(big.port, 'restore_deterministic_wallet', { filename: 'big', password: '', seed, restore_height: 0 });
}, 120_000);

afterAll(async () => {
  await stopAll();
  cleanup(dir);
});

describe('--subaddress-lookahead 2:20', () => {
  const address = async (major: number, minor: number): Promise<string> =>
    (await result(big.port, 'get_address', { account_index: major, address_index: [minor] })).addresses[0].address;
  const indexIn = async (port: number, addr: string): Promise<unknown> => {
    const r = await rpc(port, 'get_address_index', { address: addr });
    return r.error ?? r.result.index;
  };

  it('a loaded wallet knows accounts 0..2 and subaddresses 0..20, a created subaddress moves the window on', async () => {
    await result(big.port, 'create_address', { account_index: 0, count: 30 });
    for (let i = 0; i < 3; i++) await result(big.port, 'create_account', {});
    const [a20, a21, a25, b2, b3] = [
      await address(0, 20),
      await address(0, 21),
      await address(0, 25),
      await address(2, 0),
      await address(3, 0),
    ];
    expect(await indexIn(small.port, a20)).toEqual({ major: 0, minor: 20 });
    expect(await indexIn(small.port, b2)).toEqual({ major: 2, minor: 0 });
    for (const a of [a21, a25, b3]) expect(await indexIn(small.port, a)).toEqual(NOT_MINE);
    // wallet2's default (50:200), in the copy restored without the flag: all of them.
    expect(await indexIn(big.port, a25)).toEqual({ major: 0, minor: 25 });
    await result(small.port, 'create_address', { account_index: 0, count: 5 });
    expect(await indexIn(small.port, a21)).toEqual({ major: 0, minor: 21 });
    expect(await indexIn(small.port, a25)).toEqual(NOT_MINE);
  }, 60_000);

  it("an offline restore (as saltnet's cold build runs it) answers as v1.1.3c did, in order", async () => {
    const seed = (await result(big.port, 'query_key', { key_type: 'mnemonic' })).key as string;
    const p = spawnSim(
      'salvium-wallet-cli',
      ['--testnet', '--offline', '--restore-deterministic-wallet', '--restore-height', '0']
        .concat(['--generate-new-wallet', join(dir, 'offline'), '--password', 'pw', '--subaddress-lookahead', '2:20'])
        .concat(['--log-file', join(dir, 'offline.cli.log')]),
      { input: `${seed}\n\n1\n0\nY\nN\nexit\n` },
    );
    await p.proc;
    // Recorded from salvium-wallet-cli v1.1.3c with this very input (the prompts end without a line break).
    const expected = [
      'Restore height 0 is not yet reached. The current estimated height is 0',
      'Still apply restore height?  (Y/Yes/N/No): The daemon is not set up to background mine.',
      'With background mining enabled, the daemon will mine when idle and not on battery.',
      'Enabling this supports the network you are using, and makes you eligible for receiving new SALs',
      'Do you want to do it now? (Y/Yes/N/No): : Background mining not enabled. Set setup-background-mining to 1 to change.',
      'If you are new to Salvium, type "welcome" for a brief overview.',
      'Error: wallet failed to connect to daemon, because it is set to offline mode',
    ];
    const lines = p.output().split('\n');
    const at = lines.indexOf(expected[0]!);
    expect(lines.slice(at, at + expected.length)).toEqual(expected);
  }, 60_000);

  it('is refused unless it is two numbers, and a zero ends the CLI', async () => {
    const bad = await cli(join(dir, 'bad'), ['--subaddress-lookahead', '2-20']);
    expect(bad.out).toContain('Error: invalid format for subaddress lookahead; must be <major>:<minor>');
    expect(bad.exitCode).not.toBe(0);
    const zero = await cli(join(dir, 'zero'), ['--subaddress-lookahead', '0:20']);
    expect(zero.exitCode).not.toBe(0);
    expect(zero.out).not.toContain('Generated new');
  }, 60_000);
});
