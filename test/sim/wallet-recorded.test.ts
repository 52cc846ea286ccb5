// The simulated wallet RPC answers a fresh wallet's calls as salvium-wallet-rpc v1.1.3c did: the calls
// and answers of fixtures/salvium-v1.1.3c/wallet-rpc-fresh-wallet.json (recorded from
// salvium-wallet-rpc v1.1.3c, in that order, on one wallet made with create_wallet) are sent to a
// simulated wallet in the same state and compared as `saltnet diff` compares (harness/diff/compare.ts):
// the same keys, types, codes and messages, deterministic values equal, addresses, keys and hashes of
// the same form (the placeholders $SELF, $SELF_CN, $OTHER and $OTHER_INTEGRATED stand for the wallets' addresses in the
// calls and the answers). Errors of every method with bad input, accounts, tags, the address book, notes,
// attributes, URIs, integrated addresses, size estimates and settings.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareAnswers } from '../../harness/diff/compare.js';
import {
  cleanup,
  generateWallet,
  mineAcrossCarrot,
  rpc,
  startDaemon,
  startWalletRpc,
  stopAll,
  tempDir,
  type SimWalletRpc,
} from '../helpers/sim.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const recorded = JSON.parse(
  readFileSync(join(ROOT, 'fixtures/salvium-v1.1.3c/wallet-rpc-fresh-wallet.json'), 'utf8'),
) as { calls: { method: string; params: unknown; answer: unknown }[] };

const FAST = { SALTNET_SIM_MIN_BLOCK_MS: '0' };
let dir: string;
let wallet: SimWalletRpc;
let other: string;

beforeAll(async () => {
  dir = tempDir('saltnet-wallet-recorded-');
  const daemon = await startDaemon(dir, { env: FAST });
  const miner = await generateWallet(join(dir, 'miner'), 'pw', daemon.port);
  await mineAcrossCarrot(daemon.port, miner, 1213);
  other = miner.carrot;
  wallet = await startWalletRpc(['--wallet-dir', join(dir, 'wallets')], daemon.port);
  expect(
    (await rpc(wallet.port, 'create_wallet', { filename: 'w', password: '', language: 'English' })).result,
  ).toEqual({});
  expect((await rpc(wallet.port, 'refresh')).result).toBeDefined();
}, 180_000);

afterAll(async () => {
  await stopAll();
  cleanup(dir);
});

describe('a fresh wallet, call by call as recorded from salvium-wallet-rpc v1.1.3c', () => {
  it('answers every call as the real wallet RPC did', async () => {
    const a = (await rpc(wallet.port, 'get_address')).result.addresses[0];
    const params = { standard_address: other, payment_id: '0123456789abcdef' };
    const otherIntegrated = (await rpc(wallet.port, 'make_integrated_address', params)).result.integrated_address;
    const values: Record<string, string> = {
      $SELF: a.address_carrot,
      $SELF_CN: a.address_cn,
      $OTHER: other,
      $OTHER_INTEGRATED: otherIntegrated,
    };
    const fill = (v: unknown): unknown =>
      JSON.parse(JSON.stringify(v).replace(/\$(SELF_CN|SELF|OTHER_INTEGRATED|OTHER)/g, (m) => values[m]!));
    const divergences: string[] = [];
    for (const [i, c] of recorded.calls.entries()) {
      const answer = await rpc(wallet.port, c.method, fill(c.params));
      const actual = answer.error ? { error: answer.error } : { result: answer.result };
      for (const d of compareAnswers(fill(c.answer), actual))
        divergences.push(`#${i} ${c.method} ${JSON.stringify(c.params)}: ${d.path} ${d.a} ≠ ${d.b}`);
    }
    expect(divergences).toEqual([]);
  }, 120_000);
});
