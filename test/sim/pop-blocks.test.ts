// /pop_blocks on the simulated daemon (as Blockchain::pop_blocks: never the genesis block, the
// popped blocks' txs back to the pool) and a wallet that detaches the popped blocks on its next
// refresh (as wallet2::detach_blockchain) — what saltnet's exact mining relies on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanup,
  generateWallet,
  height,
  mineAcrossCarrot,
  mineTo,
  post,
  rpc,
  startDaemon,
  startWalletRpc,
  stopAll,
  tempDir,
  type CliWallet,
  type SimDaemon,
  type SimWalletRpc,
} from '../helpers/sim.js';

let dir: string;
let daemon: SimDaemon;
let alice: CliWallet;
let wallet: SimWalletRpc;

const pop = async (n: number): Promise<any> => (await post(daemon.port, '/pop_blocks', { nblocks: n })).json;
const balance = async (): Promise<any> =>
  (await rpc(wallet.port, 'get_balance', { asset_type: 'SAL1' })).result.balances[0];
const walletHeight = async (): Promise<number> => (await rpc(wallet.port, 'get_height')).result.height;

beforeAll(async () => {
  dir = tempDir('saltnet-pop-');
  daemon = await startDaemon(dir, { difficulty: 1 });
  alice = await generateWallet(join(dir, 'alice'), 'pw', daemon.port);
  await mineAcrossCarrot(daemon.port, alice, 1230);
  wallet = await startWalletRpc(
    ['--wallet-file', alice.path, '--password', 'pw', '--log-file', join(dir, 'alice-rpc.log')],
    daemon.port,
  );
  await rpc(wallet.port, 'refresh');
}, 120_000);

afterAll(async () => {
  await stopAll();
  if (dir) cleanup(dir);
});

describe('/pop_blocks', () => {
  it('takes blocks off the top and answers the new height; the wallet detaches them and forgets their coinbase', async () => {
    const h = await height(daemon.port);
    const before = await balance();
    expect(await walletHeight()).toBe(h);
    const ins = (await rpc(wallet.port, 'get_transfers', { in: true })).result.in as any[];
    const popped = ins.filter((e) => e.height >= h - 3);
    expect(popped.map((e) => e.type)).toEqual(['block', 'block', 'block']);
    const hf0 = (await rpc(daemon.port, 'hard_fork_info')).result;
    expect(await pop(3)).toEqual({ height: h - 3, status: 'OK', untrusted: false });
    // As the real daemon (observed: window 1214 at height 1212 after 2 popped blocks): the vote
    // window slides back instead of shrinking (until the daemon restarts), and loses the popped votes.
    const hf1 = (await rpc(daemon.port, 'hard_fork_info')).result;
    expect([hf1.window, hf1.votes]).toEqual([hf0.window, hf0.votes - 3]);
    expect(await height(daemon.port)).toBe(h - 3);
    await rpc(wallet.port, 'refresh');
    expect(await walletHeight()).toBe(h - 3);
    const after = await balance();
    // The coinbase outputs of the three popped blocks (this wallet mined every block) are gone, and their entries.
    expect(BigInt(before.balance) - BigInt(after.balance)).toBe(popped.reduce((s, e) => s + BigInt(e.amount), 0n));
    const left = (await rpc(wallet.port, 'get_transfers', { in: true })).result.in as any[];
    expect(left.filter((e) => e.height >= h - 3)).toEqual([]);
    expect(readFileSync(join(dir, 'alice-rpc.log'), 'utf8')).toContain(
      `Detached blockchain on height ${h - 3}, transfers detached 3, blocks detached 3`,
    );
    // Mining on continues the shorter chain; the wallet follows it.
    expect(await mineTo(daemon.port, alice.carrot, h - 1)).toBe(h - 1);
    await rpc(wallet.port, 'refresh');
    expect(await walletHeight()).toBe(h - 1);
  });

  it("returns a popped block's transactions to the pool, and they are mined again", async () => {
    await mineTo(daemon.port, alice.carrot, (await height(daemon.port)) + 70);
    await rpc(wallet.port, 'refresh');
    const sent = await rpc(wallet.port, 'transfer', {
      destinations: [{ address: alice.carrot, amount: 100_000_000, asset_type: 'SAL1' }],
      source_asset: 'SAL1',
      dest_asset: 'SAL1',
      tx_type: 3,
    });
    expect(sent.error).toBeUndefined();
    expect(sent.result.tx_hash).toMatch(/^[0-9a-f]{64}$/);
    const h = await height(daemon.port);
    await mineTo(daemon.port, alice.carrot, h + 1);
    const header = (await rpc(daemon.port, 'get_block_header_by_height', { height: h })).result.block_header;
    expect(header.num_txes).toBe(1);
    expect((await post(daemon.port, '/get_transaction_pool', {})).json.transactions ?? []).toHaveLength(0);
    await pop((await height(daemon.port)) - h);
    const pool = (await post(daemon.port, '/get_transaction_pool', {})).json.transactions;
    expect(
      pool?.map((t: any) => t.id_hash),
      JSON.stringify(pool),
    ).toEqual([sent.result.tx_hash]);
    await mineTo(daemon.port, alice.carrot, h + 1);
    expect((await rpc(daemon.port, 'get_block_header_by_height', { height: h })).result.block_header.num_txes).toBe(1);
  });

  it('a new wallet whose blocks were popped under it before it scanned any follows the shorter chain', async () => {
    // A wallet created at the top (the simulator's refresh height is the daemon's height then), the top popped: its
    // refresh answers (it never stood below the chain it was made on) and it then stands at the daemon's height.
    const dirRpc = await startWalletRpc(
      ['--wallet-dir', join(dir, 'made'), '--log-file', join(dir, 'made-rpc.log')],
      daemon.port,
    );
    expect(
      (await rpc(dirRpc.port, 'create_wallet', { filename: 'fresh', password: 'pw', language: 'English' })).error,
    ).toBeUndefined();
    const h = await height(daemon.port);
    await pop(5);
    const answer = await rpc(dirRpc.port, 'refresh');
    expect(answer.error).toBeUndefined();
    expect((await rpc(dirRpc.port, 'get_height')).result.height).toBe(h - 5);
    // Mined on past where it was made, it follows.
    await mineTo(daemon.port, alice.carrot, h + 2);
    await rpc(dirRpc.port, 'refresh');
    expect((await rpc(dirRpc.port, 'get_height')).result.height).toBe(h + 2);
  });

  it('never pops the genesis block', async () => {
    const h = await height(daemon.port);
    expect((await pop(h + 10)).height).toBe(1);
    expect(await height(daemon.port)).toBe(1);
  });
});
