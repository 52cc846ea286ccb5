// Salvium's transaction types (cryptonote::transaction_type, as the simulator models them) by number and by name, and
// the params of a wallet transfer of one asset: a token's, or SAL1 named as an asset, which the wallet sends as a
// TRANSFER whose source and destination asset are that asset; and the treasury's mint, which a miner tx pays beside
// the miner's reward.
import { TxType } from '../sim/index.js';

/** What a treasury mint pays, in atomic units (1 300 000 SAL1, in the blocks of the treasury's schedule). */
export { TREASURY_MINT } from '../sim/index.js';

/** Each transaction type's name by its number: 3 → 'transfer', 9 → 'create-token'. */
export const TX_TYPES: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries(TxType)
    .filter((e): e is [string, number] => typeof e[1] === 'number')
    .map(([name, n]) => [n, name.toLowerCase().replace(/_/g, '-')]),
);

/** The `transfer`/`transfer_split` params that send `destinations` in `asset` (source and destination asset both). */
export function assetTransfer<D>(
  destinations: D[],
  asset: string,
): { destinations: D[]; source_asset: string; dest_asset: string; tx_type: number } {
  return { destinations, source_asset: asset, dest_asset: asset, tx_type: TxType.TRANSFER };
}
