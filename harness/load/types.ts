// The shapes of a load (saltnet load, Testnet traffic from wallets funded ahead): what it is asked for and what it
// reports. The generator is run.ts; its wallets wallets.ts; its transactions traffic.ts; what it watches on the
// chain (confirmations, the pool, its own blocks) watch.ts; the report's figures stats.ts.
import { z } from 'zod';

/**
 * The kinds of transaction a load sends, taken in turn: a transfer to the next wallet's address, or to a subaddress
 * of it; a transfer of the load's token to the next wallet (a backend with tokens); a sweep of one of the wallet's
 * deposit subaddresses (sweep_all of that subaddress alone) to one of the next wallet's, as an exchange sweeps its
 * deposits.
 */
export const MIX_KINDS = ['transfers', 'subaddresses', 'tokens', 'sweeps'] as const;
export type MixKind = (typeof MIX_KINDS)[number];

/** The most transactions a second a load is asked for. */
export const MAX_LOAD_TPS = 500;
/** The longest a load sends, in seconds. */
export const MAX_LOAD_SECONDS = 3600;
/** The most wallets a load sends from (each a wallet RPC of its own). */
export const MAX_LOAD_WALLETS = 32;
/** The most blocks a load mines: its wallets' funding, a block a second while it sends, and its drain. */
export const MAX_LOAD_BLOCKS = MAX_LOAD_SECONDS + 400;
/** The longest time between the blocks a load mines itself, in seconds. */
export const MAX_LOAD_BLOCK_TIME = 3600;

const positive = (max: number, what: string): z.ZodNumber =>
  z.number().positive().max(max).describe(`${what} above 0, at most ${max}`);

/**
 * What a load may be asked for (LoadOptions without its signal and log), each field described: the control
 * endpoint's body of the load operation, and what runLoad checks a library call against.
 */
export const LOAD_OPTIONS = z.strictObject({
  tps: positive(MAX_LOAD_TPS, 'transactions a second: a number'),
  duration: positive(MAX_LOAD_SECONDS, 'seconds: a number'),
  wallets: z
    .int()
    .min(1)
    .max(MAX_LOAD_WALLETS)
    .optional()
    .describe(`a whole number of wallets from 1 to ${MAX_LOAD_WALLETS}`),
  mix: z
    .array(z.enum(MIX_KINDS))
    .min(1)
    .optional()
    .describe(`a list of ${MIX_KINDS.join(', ')}`),
  blockTime: positive(
    MAX_LOAD_BLOCK_TIME,
    'seconds between the blocks the load mines when automine is off: a number',
  ).optional(),
});

/** The load could not fund its wallets: what main answered and holds, or what the testnet lacks. */
export class LoadSetupError extends Error {}

export interface LoadOptions {
  /** Transactions a second to send, spread evenly over the wallets. */
  tps: number;
  /** Seconds to send for. */
  duration: number;
  /** Wallets that send (default 4), funded ahead with enough outputs for the whole load. */
  wallets?: number;
  /** The kinds of transaction, taken in turn (default transfers only). */
  mix?: readonly MixKind[];
  /**
   * Seconds between the blocks the load mines itself when the testnet's automine is off (default 1). With automine on
   * (mine-on-tx or an interval), its blocks confirm the load's transactions and the load mines none while it sends.
   */
  blockTime?: number;
  /** Gives the load up: no more is sent, its wallets are closed, and it rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Lines of what the load is doing (funding, sending, waiting for the last confirmations). */
  detail?: (line: string) => void;
}

export interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface Rejection {
  /** Seconds since the load started sending. */
  at: number;
  wallet: string;
  kind: MixKind;
  /** What the wallet answered (an RPC error's code and message) or what went wrong. */
  reason: string;
}

export interface LoadReport {
  /** Transactions a second asked for, and achieved: those the wallets accepted over the time they took to send. */
  tps: { asked: number; achieved: number };
  /** Seconds asked for, and the seconds from the first send to the last answer (at least those asked for). */
  seconds: { asked: number; sending: number };
  wallets: number;
  mix: MixKind[];
  /** Who mined the blocks that confirmed them: the testnet's automine (in its words), or the load every blockTime s. */
  mining: { by: 'automine'; mode: string } | { by: 'load'; blockTime: number };
  /** Transactions scheduled, accepted by a wallet, confirmed in a block, rejected, and not sent in time. */
  counts: { scheduled: number; sent: number; confirmed: number; rejected: number; behind: number };
  /** Per kind of the mix: sent, confirmed and rejected. */
  byKind: Partial<Record<MixKind, { sent: number; confirmed: number; rejected: number }>>;
  /** From the wallet's answer to the block that holds it: blocks (1: the next block) and seconds. */
  latency: { blocks: Percentiles; seconds: Percentiles };
  /** The daemon's pool: its largest size, its size at the end, and one sample a second (seconds since the start). */
  pool: { max: number; end: number; samples: { at: number; size: number }[] };
  /** The chain's height as the load started sending and as it ended. */
  heights: { start: number; end: number };
  /**
   * Funding the wallets ahead: seconds, blocks, and outputs each wallet got (of the coin; of the load's token when
   * the mix has tokens; one in each of its deposit subaddresses when it has sweeps), and the token's asset.
   */
  setup: {
    seconds: number;
    blocks: number;
    outputsPerWallet: number;
    tokenOutputsPerWallet?: number;
    depositsPerWallet?: number;
    token?: string;
  };
  rejections: Rejection[];
  /** Transactions accepted but not in a block when the load stopped waiting, with where they are. */
  unconfirmed: { txHash: string; wallet: string; state: 'in the pool' | 'not in the pool' }[];
}
