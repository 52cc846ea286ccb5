import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TxType } from '../../../harness/sim/chain/constants.js';
import {
  addToPool,
  height,
  matchTokens,
  newLedger,
  validateTx,
  type Ledger,
} from '../../../harness/sim/chain/ledger.js';
import { mineBlock, templateError } from '../../../harness/sim/chain/build.js';
import { BLOCKS_FILE, openChain, openChainLazily } from '../../../harness/sim/chain/store.js';
import { blocksFileHeight } from '../../../harness/sim/chain/height.js';
import type { Tx } from '../../../harness/sim/chain/types.js';
import { walletFromSeed } from '../../../harness/sim/crypto/keys.js';
import { cleanup, tempDir } from '../../helpers/sim.js';

const alice = walletFromSeed(new Uint8Array(32).fill(1), 'testnet');
const bob = walletFromSeed(new Uint8Array(32).fill(2), 'testnet');

function mineTo(l: Ledger, target: number): void {
  while (height(l) < target)
    mineBlock(l, height(l) < 1100 ? alice.cn.address : alice.carrot.address, 1_700_000_000 + height(l), 1n);
}

let n = 0;
/** A tx spending one coinbase output of block `index` to bob, with change back to alice. */
function spend(l: Ledger, index: number, o: Partial<Tx> = {}): Tx {
  const out = l.blocks[index]!.minerTx.outputs[0]!;
  const txid = `t${n++}`.padEnd(64, '0');
  const fee = 1_000_000n;
  const addr = (w: typeof alice): string => (height(l) >= 1100 ? w.carrot.address : w.cn.address);
  return {
    txid,
    type: TxType.TRANSFER,
    fee,
    burnt: 0n,
    sourceAsset: out.asset,
    destAsset: out.asset,
    paymentId: '0'.repeat(16),
    weight: 2384,
    timestamp: 0,
    unlockTime: 0,
    inputs: [{ outputId: out.id, keyImage: `ki-${out.id}`, amount: out.amount, asset: out.asset }],
    outputs: [
      { id: `${txid}:0`, address: addr(bob), amount: 100n, asset: out.asset },
      { id: `${txid}:1`, address: addr(alice), amount: out.amount - 100n - fee, asset: out.asset },
    ],
    ...o,
  };
}

/** A CREATE_TOKEN of `ticker` spending the coinbase outputs of `blocks`, burning `burnt`, its change to alice. */
function createToken(l: Ledger, ticker: string, blocks: number[], burnt = 1000n * 100_000_000n): Tx {
  const base = spend(l, blocks[0]!);
  const inputs = blocks.map((i) => l.blocks[i]!.minerTx.outputs[0]!);
  const sum = inputs.reduce((s, o) => s + o.amount, 0n);
  const txid = `c${ticker}${burnt}`.padEnd(64, '0');
  return {
    ...base,
    txid,
    type: TxType.CREATE_TOKEN,
    burnt,
    token: {
      ticker,
      supply: 10n,
      name: 'A b c',
      url: '',
      hash: '',
      size: 0n,
      metadataHex: '',
      creator: alice.carrot.address,
    },
    inputs: inputs.map((o) => ({ outputId: o.id, keyImage: `ki-${o.id}`, amount: o.amount, asset: o.asset })),
    outputs: [{ id: `${txid}:0`, address: alice.carrot.address, amount: sum - burnt - base.fee, asset: 'SAL1' }],
  };
}

describe('blocks', () => {
  it('two built on the same block, by the same miner in the same second, differ (as the real random miner tx key)', () => {
    const [a, b] = [newLedger(), newLedger()];
    const one = mineBlock(a, alice.cn.address, 1_700_000_000, 1n).block;
    const two = mineBlock(b, alice.cn.address, 1_700_000_000, 1n).block;
    expect(one.prevHash).toBe(two.prevHash);
    expect(one.hash).not.toBe(two.hash);
    expect(one.minerTx.txid).not.toBe(two.minerTx.txid);
  });
});

describe('ledger consensus rules', () => {
  let l: Ledger;
  beforeAll(() => {
    l = newLedger();
    mineTo(l, 1210);
  });

  it('refuses coinbase outputs younger than 60 blocks and accepts them after', () => {
    expect(validateTx(l, spend(l, height(l) - 59))).toBe('input is locked');
    expect(validateTx(l, spend(l, height(l) - 60))).toBeNull();
  });

  it('rejects a double spend in the pool and after it is mined', () => {
    const a = spend(l, 900);
    expect(addToPool(l, a, 0)).toBeNull();
    expect(validateTx(l, spend(l, 900))).toBe('double spend');
    mineTo(l, height(l) + 1);
    expect(l.pool.size).toBe(0);
    expect(validateTx(l, spend(l, 900))).toBe('double spend');
  });

  it('requires Carrot outputs from HF10 and rejects SAL inputs from HF11', () => {
    const tx = spend(l, 901);
    tx.outputs[0]!.address = bob.cn.address;
    expect(validateTx(l, tx)).toBe('non-Carrot output after HF10');
    expect(validateTx(l, spend(l, 500))).toBe('SAL inputs are invalid from HF11');
  });

  it('refuses unbalanced amounts', () => {
    const tx = spend(l, 902);
    tx.outputs[1]!.amount += 1n;
    expect(validateTx(l, tx)).toMatch(/^overspend/);
  });

  it('creates a token only with the exact burn, lists it after one block, mints it to the creator', () => {
    const burn = 1000n * 100_000_000n;
    const make = (burnt: bigint): Tx =>
      createToken(l, 'ABCD', [903, 904, 905, 906, 907, 908, 909, 910, 911, 912], burnt);
    expect(validateTx(l, make(burn - 1n))).not.toBeNull();
    expect(validateTx(l, make(burn - 1n))).toMatch(/overspend|Invalid fee/);
    expect(addToPool(l, make(burn), 0)).toBeNull();
    expect(matchTokens(l, '')).toEqual([]);
    mineTo(l, height(l) + 1);
    expect(matchTokens(l, '')).toEqual(['salABCD']);
    expect(matchTokens(l, 'b c')).toEqual(['salABCD']); // names match too
    const mint = l.blocks[height(l) - 1]!.protocolTx.outputs.find((o) => o.asset === 'salABCD');
    expect(mint).toMatchObject({ address: alice.carrot.address, amount: 10n * 100_000_000n });
  });

  it('mines a token transfer only once the ROLLUP that pays its fee is on chain', () => {
    mineTo(l, height(l) + 60);
    const mint = l.blocks.flatMap((b) => b.protocolTx.outputs).find((o) => o.asset === 'salABCD')!;
    const fee = 1_239_160n;
    const coin = 100_000_000n;
    const token: Tx = {
      txid: 'tok'.padEnd(64, '0'),
      type: TxType.TRANSFER,
      fee,
      burnt: 0n,
      sourceAsset: 'salABCD',
      destAsset: 'salABCD',
      paymentId: '0'.repeat(16),
      weight: 1422,
      timestamp: 0,
      unlockTime: 0,
      inputs: [{ outputId: mint.id, keyImage: `ki-${mint.id}`, amount: mint.amount, asset: 'salABCD' }],
      // Token inputs pay no fee: the outputs add up to the inputs.
      outputs: [
        { id: 'tok:0', address: bob.carrot.address, amount: 3n * coin, asset: 'salABCD' },
        { id: 'tok:1', address: alice.carrot.address, amount: mint.amount - 3n * coin, asset: 'salABCD' },
      ],
    };
    const paying = spend(l, 913);
    const rollup: Tx = {
      ...paying,
      txid: 'rol'.padEnd(64, '0'),
      type: TxType.ROLLUP,
      sourceAsset: 'SAL1',
      destAsset: 'SAL1',
      burnt: fee,
      rollup: [token.txid],
      outputs: [
        {
          id: 'rol:0',
          address: alice.carrot.address,
          amount: paying.inputs[0]!.amount - paying.fee - fee,
          asset: 'SAL1',
        },
        { id: 'rol:1', address: alice.carrot.address, amount: 0n, asset: 'SAL1' },
      ],
    };
    expect(validateTx(l, { ...rollup, rollup: [] })).toBe('ROLLUP must include at least one paid TX entry');
    expect(addToPool(l, token, 0)).toBeNull();
    expect(addToPool(l, rollup, 0)).toBeNull();
    mineTo(l, height(l) + 1);
    expect(l.blocks[height(l) - 1]!.txs.map((t) => t.txid)).toEqual([rollup.txid]);
    expect(l.pool.has(token.txid)).toBe(true);
    mineTo(l, height(l) + 1);
    expect(l.blocks[height(l) - 1]!.txs.map((t) => t.txid)).toEqual([token.txid]);
    expect(l.pool.size).toBe(0);
  });

  it("drops a second creation of a ticker mined since from the pool when the next block's version changes", () => {
    expect(height(l)).toBeLessThan(1290);
    const first = createToken(l, 'TWIN', [914, 915, 916, 917, 918, 919, 920, 921, 922, 923]);
    const second = createToken(l, 'TWIN', [924, 925, 926, 927, 928, 929, 930, 931, 932, 933]);
    second.txid = `d${second.txid.slice(1)}`;
    expect(addToPool(l, first, 0)).toBeNull();
    expect(addToPool(l, second, 0)).toBeNull();
    mineTo(l, 1299);
    // One is mined; the other waits in the pool while the version stays 11.
    expect(l.pool.size).toBe(1);
    expect(matchTokens(l, 'TWIN')).toEqual(['salTWIN']);
    // Block 1299 makes the next block's version 12: the pool is checked again, and the second creation goes.
    mineTo(l, 1300);
    expect(l.pool.size).toBe(0);
  });

  it('stops a CN miner at HF10 and a Carrot miner before it', () => {
    const early = newLedger();
    expect(templateError(early, 'carrot')).toBe("Mining to Carrot wallet address, but Carrot isn't supported yet");
    expect(templateError(l, 'cn')).toBe('mining to CryptoNote wallet address, but Carrot wallet address is required');
    expect(templateError(l, 'carrot')).toBeNull();
  });

  it('shuts user transactions down during HF5', () => {
    const hf5 = newLedger();
    mineTo(hf5, 800);
    expect(validateTx(hf5, spend(hf5, 700))).toBe('HF shutdown: non-coinbase tx rejected');
  });
});

describe('chain store', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
  });
  afterAll(() => cleanup(dir));

  it('reloads the same chain, and cuts a torn last line instead of losing later blocks', () => {
    const { ledger, store } = openChain(dir);
    for (let i = 0; i < 20; i++) store.appendBlock(mineBlock(ledger, alice.cn.address, 1_700_000_000 + i, 1n).block);
    const top = ledger.blocks[19]!.hash;
    appendFileSync(join(dir, BLOCKS_FILE), '{"index":21,"hash":"tor');
    const again = openChain(dir);
    expect(height(again.ledger)).toBe(21);
    expect(again.ledger.blocks[19]!.hash).toBe(top);
    again.store.appendBlock(mineBlock(again.ledger, alice.cn.address, 1_800_000_000, 1n).block);
    expect(height(openChain(dir).ledger)).toBe(22);
    expect(readFileSync(join(dir, BLOCKS_FILE), 'utf8').split('\n').filter(Boolean)).toHaveLength(21);
  });

  it('opened lazily: the tip is read from the end of the file, the blocks load on demand, a torn line is cut', async () => {
    const lazyDir = tempDir();
    try {
      const { ledger, store } = openChain(lazyDir);
      for (let i = 0; i < 30; i++) store.appendBlock(mineBlock(ledger, alice.cn.address, 1_700_000_000 + i, 1n).block);
      const top = ledger.blocks[30]!.hash;
      appendFileSync(join(lazyDir, BLOCKS_FILE), '{"index":31,"hash":"tor');
      const lazy = openChainLazily(lazyDir);
      expect(lazy.loaded()).toBe(false);
      expect(lazy.tip()).toEqual({ height: 31, hash: top });
      expect(lazy.ledger.blocks).toHaveLength(1); // the genesis block alone until loaded
      expect(lazy.poolEmpty).toBe(true);
      const first = lazy.load();
      expect(lazy.load()).toBe(first);
      await first;
      expect(lazy.loaded()).toBe(true);
      expect(height(lazy.ledger)).toBe(31);
      expect(lazy.tip()).toEqual({ height: 31, hash: top });
      expect(readFileSync(join(lazyDir, BLOCKS_FILE), 'utf8').split('\n').filter(Boolean)).toHaveLength(30);
    } finally {
      cleanup(lazyDir);
    }
  });

  it('opened lazily with no block after genesis: loaded at once', async () => {
    const emptyDir = tempDir();
    try {
      const lazy = openChainLazily(emptyDir);
      expect(lazy.loaded()).toBe(true);
      expect(lazy.tip()).toEqual({ height: 1, hash: lazy.ledger.blocks[0]!.hash });
      await lazy.load();
    } finally {
      cleanup(emptyDir);
    }
  });
});

describe('the height of a stored chain, read without loading it', () => {
  const heightOf = (text: string): number => blocksFileHeight(Buffer.from(text));
  const line = (index: number, rest = '"hash":"h"}'): string => `{"index":${index},${rest}`;
  it('counts the lines in order up to a torn last one, as openChain loads them', () => {
    const three = [1, 2, 3].map((i) => line(i)).join('\n') + '\n';
    expect(heightOf('')).toBe(1);
    expect(heightOf(three)).toBe(4);
    expect(heightOf(three + '{"index":4,"hash":"tor')).toBe(4);
    // A last line cut right after its index's comma still is no block.
    expect(heightOf(three + '{"index":4,')).toBe(4);
    expect(heightOf(three + line(5))).toBe(4);
    expect(heightOf([1, 3].map((i) => line(i)).join('\n'))).toBe(2);
    // A line written with another key first is parsed whole.
    expect(heightOf(`${line(1)}\n{"hash":"h","index":2}\n`)).toBe(3);
    // A blank line ends the chain.
    expect(heightOf(`${line(1)}\n\n${line(2)}\n`)).toBe(2);
  });
});
