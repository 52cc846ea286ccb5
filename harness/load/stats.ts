// The figures of a load's report that are arithmetic alone: percentiles (nearest rank) and the mix taken in turn.
import type { MixKind, Percentiles } from './types.js';

/** The nearest-rank percentiles of `values` (all 0 when there are none). */
export function percentiles(values: readonly number[]): Percentiles {
  if (values.length === 0) return { p50: 0, p90: 0, p99: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (q: number): number => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
  return { p50: rank(0.5), p90: rank(0.9), p99: rank(0.99), max: sorted[sorted.length - 1]! };
}

/** Seconds rounded to milliseconds, for the report. */
export const secondsOf = (ms: number): number => Math.round(ms) / 1000;

/**
 * The kind of the i-th transaction, sent by wallet i mod `wallets`: each wallet takes the mix's kinds in turn, from a
 * kind of its own, so that every wallet sends every kind (taken by i alone, a mix as long as the wallets are many
 * would give each wallet one kind, and its outputs of that kind would run out while the others' lie unused).
 */
export const kindAt = (mix: readonly MixKind[], i: number, wallets: number): MixKind =>
  mix[(Math.floor(i / wallets) + (i % wallets)) % mix.length]!;

/**
 * Inputs a transaction spends: the wallet's input selection takes two outputs where it holds two (wallet2, and the
 * simulator's Carrot selection after it), for privacy.
 */
export const INPUTS_PER_TX = 2;

/**
 * Outputs each wallet needs so that it never waits for its change: a transaction spends `inputs` outputs
 * (INPUTS_PER_TX by default), and its change (and what the others pay it) is spendable `spendableAge` blocks later;
 * half as many again for blocks that come late, and never more than the wallet sends in all (plus two). `tps` is the
 * rate of the transactions that spend these outputs.
 */
export function outputsNeeded(o: {
  tps: number;
  duration: number;
  wallets: number;
  spendableAge: number;
  blockSeconds: number;
  inputs?: number;
}): number {
  if (o.tps === 0) return 0;
  const perWallet = o.tps / o.wallets;
  const inAll = Math.ceil(perWallet * o.duration);
  const window = Math.ceil(perWallet * o.spendableAge * o.blockSeconds * 1.5);
  return Math.min(inAll, window) * (o.inputs ?? INPUTS_PER_TX) + 2;
}

/** The share of the mix's transactions that are of one of `kinds` (the mix is taken in turn). */
export const shareOf = (mix: readonly MixKind[], kinds: readonly MixKind[]): number =>
  mix.filter((k) => kinds.includes(k)).length / mix.length;
