// Block reward and fee estimate (reference §4.3, §9).
import {
  FEE_REFERENCE_TX_WEIGHT,
  FULL_REWARD_ZONE,
  HF_CARROT,
  HF_TOKENS,
  MONEY_SUPPLY,
  TAIL_EMISSION,
  hardForkAt,
} from './constants.js';

/** base = (MONEY_SUPPLY − already_generated) >> 20, floored at the tail emission. */
export function baseReward(alreadyGenerated: bigint): bigint {
  const base = (MONEY_SUPPLY - alreadyGenerated) >> 20n;
  return base < TAIL_EMISSION ? TAIL_EMISSION : base;
}

export interface RewardSplit {
  miner: bigint;
  /** Burnt for stakers (`amount_burnt`) before HF10, staker share after. */
  stake: bigint;
  treasury: bigint;
}

/** Split of (base + fees) for the block at `blockIndex`. */
export function splitReward(blockIndex: number, base: bigint, fees: bigint): RewardSplit {
  const total = base + fees;
  if (hardForkAt(blockIndex) >= HF_TOKENS) {
    const treasury = total / 4n;
    const rest = total - treasury;
    const stake = rest / 5n;
    return { miner: rest - stake, stake, treasury };
  }
  void HF_CARROT; // HF10 keeps the 80/20 split; only the output type changes.
  const stake = total / 5n;
  return { miner: total - stake, stake, treasury: 0n };
}

/** Round up to two significant digits (Monero's round_money_up with 2 places). */
export function roundMoneyUp(value: bigint): bigint {
  if (value < 100n) return value;
  let scale = 1n;
  while (value / scale >= 100n) scale *= 10n;
  return ((value + scale - 1n) / scale) * scale;
}

/**
 * Per-byte fee levels (low, normal, medium, high) from the next block's base reward: Blockchain::
 * get_dynamic_base_fee_estimate_2021_scaling with both medians at the full-reward zone (Mfw = Mnw = Zm),
 * each rounded up to two significant digits: [520, 2100, 8300, 110000] on a young testnet.
 */
export function feeEstimate(nextBase: bigint): bigint[] {
  const zone = BigInt(FULL_REWARD_ZONE);
  const ref = FEE_REFERENCE_TX_WEIGHT;
  const low = (nextBase * ref) / (zone * zone);
  const normal = (4n * nextBase * ref) / (zone * zone);
  const medium = (16n * nextBase * ref) / (zone * zone);
  const high4 = 4n * medium;
  const scaled = (high4 * zone) / ((32n * ref * zone) / zone);
  const high = scaled > high4 ? scaled : high4;
  return [low, normal, medium, high].map(roundMoneyUp);
}

/** Fee level used for a wallet priority: 0/1 → 0, 2 → 1, 3 → 2, ≥4 → 3. */
export const feeLevelForPriority = (priority: number): number => (priority <= 1 ? 0 : Math.min(priority - 1, 3));

/**
 * The weight a Bulletproof+ over more than two outputs adds to the estimate (Monero's
 * estimate_tx_weight): the proof grows 64 bytes per doubling of the padded output count, and the
 * clawback charges 4/5 of what per-output proofs would have cost beyond it.
 */
function bulletproofExtra(outputs: number): number {
  let log = 1;
  while (2 ** log < outputs) log++;
  const proof = 32 * (6 + 2 * (6 + log));
  const clawback = Math.floor(((320 * 2 ** log - proof) * 4) / 5);
  return proof - 640 + clawback;
}

/** What each output beyond two adds to a Carrot tx's weight: 163 bytes each, 33 once, and the Bulletproof+ terms. */
const outputsBeyondTwo = (outputs: number): number =>
  outputs > 2 ? 163 * (outputs - 2) + 33 + bulletproofExtra(outputs) : 0;

/**
 * Estimated weight of a Carrot tx, matching the real wallet's fee arithmetic (520 per byte × 2383
 * for 1 input, 3573 for 2, 20233 for 16, two outputs; 3103 for one input and three outputs, 22642
 * for 16 inputs and 7 outputs, 10905 for 6 inputs and 8 outputs). `extraBytes` are tx_extra bytes
 * beyond Carrot's own fields (carrot_impl estimate_rct_tx_size_carrot counts each once).
 */
export function estimateWeight(inputs: number, outputs: number, extraBytes = 0): number {
  return 1193 + 1190 * inputs + outputsBeyondTwo(outputs) + extraBytes;
}

/**
 * The weight of a CryptoNote tx (before HF10), which is also what its fee pays for (520 per byte, as observed on
 * v1.1.3c): 1828 for one input and two outputs, 664 per more input; each output beyond two 145 bytes, 35 once, and the
 * Bulletproof+ terms (3196 for 2 inputs and 3 outputs, 4958 for 8).
 */
export function preCarrotWeight(inputs: number, outputs: number): number {
  const more = outputs > 2 ? 145 * (outputs - 2) + 35 + bulletproofExtra(outputs) : 0;
  return 1164 + 664 * inputs + more;
}

/** How much lighter than a SAL1 transfer of as many inputs and outputs a tx of another shape weighs on v1.1.3c. */
const LIGHTER = {
  transfer: 0,
  /**
   * A tx with no destination, its change alone (the SAL1 ROLLUP in front of token txs: 2289 with one input, 3464 with
   * two; a CREATE_TOKEN: 3454 with two inputs).
   */
  changeOnly: 95,
  /** A token's own tx (its fee is paid by the ROLLUP): 1422 with one input. */
  token: 962,
} as const;

export type WeightShape = keyof typeof LIGHTER;

/**
 * The weight the built tx reports: a little below the estimate for its inputs (as observed), and what the estimate
 * adds for its outputs (a 3-output tx of 2 inputs weighs 4280 on v1.1.3c, 720 above 2 outputs; 8 outputs, 2573),
 * less for a tx with no destination or a token's own tx, and one more per 8 bytes of a token's metadata. An integrated
 * address's payment id adds nothing: it takes the place of Carrot's dummy one.
 */
export function actualWeight(
  inputs: number,
  outputs: number,
  o: { shape?: WeightShape; metadataBytes?: number } = {},
): number {
  return (
    1207 +
    1177 * inputs +
    outputsBeyondTwo(outputs) +
    Math.ceil((o.metadataBytes ?? 0) / 8) -
    (inputs > 2 ? 6 * (inputs - 2) : 0) -
    LIGHTER[o.shape ?? 'transfer']
  );
}
