// The daemon's pool of transactions: a Map by txid that also indexes the key images its transactions spend, so that
// checking a new transaction against the pool (ledger.ts validateTx) costs the same with 10 or 10,000 in it.
import type { Tx } from './types.js';

export class TxPool extends Map<string, Tx> {
  /** How many pooled transactions spend each key image (two can, until a block takes one). */
  private readonly spending = new Map<string, number>();

  // Map's own constructor would call set() before `spending` exists.
  constructor(entries?: Iterable<readonly [string, Tx]>) {
    super();
    for (const [txid, tx] of entries ?? []) this.set(txid, tx);
  }

  override set(txid: string, tx: Tx): this {
    const before = this.get(txid);
    if (before) this.unindex(before);
    super.set(txid, tx);
    for (const i of tx.inputs) this.spending.set(i.keyImage, (this.spending.get(i.keyImage) ?? 0) + 1);
    return this;
  }

  override delete(txid: string): boolean {
    const tx = this.get(txid);
    if (tx) this.unindex(tx);
    return super.delete(txid);
  }

  override clear(): void {
    super.clear();
    this.spending.clear();
  }

  /** Whether a pooled transaction spends this key image. */
  spends(keyImage: string): boolean {
    return this.spending.has(keyImage);
  }

  private unindex(tx: Tx): void {
    for (const i of tx.inputs) {
      const n = (this.spending.get(i.keyImage) ?? 0) - 1;
      if (n > 0) this.spending.set(i.keyImage, n);
      else this.spending.delete(i.keyImage);
    }
  }
}
