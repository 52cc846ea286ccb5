// Money a transaction pays to the wallet, grouped as wallet2 records it (payment_details, and the pool's
// pool_payment_details): what the block scan (scan.ts) and the pool scan (pool.ts) share.
import type { SubIndex } from './state.js';

/** What a receiver reads as a payment id: it cannot read the sender's, so zeros. */
export const ZERO_PAYMENT_ID = '0'.repeat(16);

const subKey = (i: SubIndex): string => `${i.major}/${i.minor}`;
export const subOf = (o: { subaddr?: SubIndex }): SubIndex => o.subaddr ?? { major: 0, minor: 0 };

/** An output paid to the wallet: its amount, asset and subaddress. */
export interface Paid {
  amount: bigint;
  asset: string;
  address: string;
  subaddr?: SubIndex;
}

/**
 * Money received, as wallet2 records payment_details: one entry per subaddress and asset, whose
 * `amounts` lists every output of the tx to that subaddress (as recorded for two tokens minted in
 * one protocol tx). A receiver cannot read the sender's payment id (a Carrot integrated address's
 * too: tx_builder.cpp's "@TODO: payment ID"): zeros; a payment between two accounts of the same
 * wallet shows the tx's own.
 */
export function groupPayments<T extends Paid>(got: T[]): { sub: SubIndex; asset: string; outs: T[]; all: bigint[] }[] {
  const bySub = new Map<string, T[]>();
  for (const g of got) bySub.set(subKey(subOf(g)), [...(bySub.get(subKey(subOf(g))) ?? []), g]);
  const groups = [];
  for (const outs of bySub.values()) {
    const assets = [...new Set(outs.map((o) => o.asset))];
    for (const asset of assets)
      groups.push({
        sub: subOf(outs[0]!),
        asset,
        outs: outs.filter((o) => o.asset === asset),
        all: outs.map((o) => o.amount),
      });
  }
  return groups;
}
