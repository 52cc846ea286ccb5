// The pool's index of the key images its transactions spend, kept by every change of the pool (chain/tx-pool.ts).
import { describe, expect, it } from 'vitest';
import { TxType } from '../../../harness/sim/chain/constants.js';
import { emptyTx } from '../../../harness/sim/chain/ledger.js';
import { TxPool } from '../../../harness/sim/chain/tx-pool.js';
import type { Tx } from '../../../harness/sim/chain/types.js';

const spending = (txid: string, ...keyImages: string[]): Tx => {
  const tx = emptyTx(TxType.TRANSFER, txid, 0);
  tx.inputs = keyImages.map((keyImage) => ({ keyImage, outputId: `${keyImage}:0`, amount: 1n, asset: 'SAL1' }));
  return tx;
};

describe('the pool of transactions', () => {
  it('knows which key images its transactions spend, through set, replace, delete and clear', () => {
    const pool = new TxPool();
    pool.set('a', spending('a', 'k1', 'k2'));
    pool.set('b', spending('b', 'k2'));
    expect([pool.spends('k1'), pool.spends('k2'), pool.spends('k3')]).toEqual([true, true, false]);
    pool.delete('a');
    expect([pool.spends('k1'), pool.spends('k2')]).toEqual([false, true]);
    pool.set('b', spending('b', 'k3'));
    expect([pool.spends('k2'), pool.spends('k3')]).toEqual([false, true]);
    expect(new TxPool([['c', spending('c', 'k4')]]).spends('k4')).toBe(true);
    pool.clear();
    expect(pool.spends('k3')).toBe(false);
    expect(pool.size).toBe(0);
  });
});
