// Coins and outputs over /json_rpc (core_rpc_server.cpp and BlockchainLMDB, v1.1.3c): coinbase sums,
// the circulating supply, yield info, the output histogram and distribution, fee estimate, tokens.
import { DEFAULT_TX_SPENDABLE_AGE } from '../../chain/constants.js';
import { currentFees, height, matchTokens, type Ledger } from '../../chain/ledger.js';
import { assetOutputsUpTo, totalOutputs } from '../../chain/outputs.js';
import { coinbaseSum, supplyTally, yieldBlocks } from '../../chain/supply.js';
import { RpcError } from '../../http/server.js';
import { bool, list, params, str, u64 } from '../../http/params.js';
import { Bytes } from '../../http/json-print.js';
import { STATUS, wide, type DaemonContext, synced } from '../views.js';
import { ACCESS, type Methods } from './table.js';

const sumParams = params({ height: u64(), count: u64() });
const yieldParams = params({ from_height: u64(), to_height: u64(), include_raw_data: bool() });
const histogramParams = params({
  amounts: list(u64()),
  min_count: u64(),
  max_count: u64(),
  unlocked: bool(),
  recent_cutoff: u64(),
});
const distributionParams = params({
  amounts: list(u64()),
  from_height: u64(),
  to_height: u64(),
  rct_asset_type: str(),
  cumulative: bool(),
  binary: bool(true),
  compress: bool(),
});
const tokensParams = params({ filter: str() });
const tokenInfoParams = params({ asset_type: str() });
const feeParams = params({ grace_blocks: u64() });

function coinbaseTxSum(l: Ledger, raw: Parameters<typeof sumParams.parse>[0]): Record<string, unknown> {
  const p = sumParams.parse(raw);
  const n = BigInt(height(l));
  const base = { ...ACCESS, emission_amount_top64: 0, fee_amount_top64: 0, untrusted: false };
  if (p.height >= n || p.count > n)
    return {
      ...base,
      emission_amount: 0,
      fee_amount: 0,
      status: 'height or count is too large',
      wide_emission_amount: '',
      wide_fee_amount: '',
    };
  const s = coinbaseSum(l, Number(p.height), Number(p.count));
  return {
    ...base,
    emission_amount: s.emission,
    fee_amount: s.fees,
    status: 'OK',
    wide_emission_amount: wide(s.emission),
    wide_fee_amount: wide(s.fees),
  };
}

function yieldInfo(ctx: DaemonContext, raw: Parameters<typeof yieldParams.parse>[0]): Record<string, unknown> {
  const p = yieldParams.parse(raw);
  if (!synced(ctx)) return { status: 'BUSY', total_burnt: 0, total_staked: 0, total_yield: 0, yield_per_stake: 0 };
  const shown = yieldBlocks(ctx.ledger).filter(
    (y) =>
      !(p.from_height > 0n && BigInt(y.block_height) < p.from_height) &&
      !(p.to_height > 0n && BigInt(y.block_height) > p.to_height),
  );
  return {
    status: 'OK',
    // Nothing is ever staked: every block's slippage is burnt.
    total_burnt: shown.reduce((s, y) => s + y.slippage_total_this_block, 0n),
    total_staked: 0,
    total_yield: 0,
    yield_data: p.include_raw_data ? shown : [],
    yield_per_stake: 0,
  };
}

/** get_output_histogram: every output is RingCT, filed under amount 0. */
function histogram(ctx: DaemonContext, raw: Parameters<typeof histogramParams.parse>[0]): Record<string, unknown> {
  const p = histogramParams.parse(raw);
  const l = ctx.ledger;
  const base = { ...ACCESS, untrusted: false };
  if (ctx.restricted && p.amounts.length === 0)
    return { ...base, status: 'Restricted RPC will not serve histograms on the whole blockchain. Use your own node.' };
  const n = height(l);
  const spendableBlocks = n - DEFAULT_TX_SPENDABLE_AGE;
  // Without amounts: every amount the chain holds, i.e. 0 (all outputs are RingCT), when it has at least min_count.
  const asked = p.amounts.length ? p.amounts : BigInt(totalOutputs(l)) >= p.min_count ? [0n] : [];
  const entries = [...new Set(asked)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rows = entries.map((amount) => {
    const total = amount === 0n ? totalOutputs(l) : 0;
    let unlocked = 0;
    let recent = 0;
    if (p.unlocked || p.recent_cutoff > 0n) {
      unlocked = amount === 0n && spendableBlocks >= 0 ? totalOutputsUpTo(l, spendableBlocks) : 0;
      if (p.recent_cutoff > 0n) recent = recentOutputs(l, unlocked, Number(p.recent_cutoff));
    }
    return { amount, recent_instances: recent, total_instances: total, unlocked_instances: unlocked };
  });
  const histogram = rows.filter(
    (r) => BigInt(r.total_instances) >= p.min_count && (BigInt(r.total_instances) <= p.max_count || p.max_count === 0n),
  );
  return { ...base, histogram, status: 'OK' };
}

/** Outputs in blocks 0..h. */
function totalOutputsUpTo(l: Ledger, h: number): number {
  return h + 1 < height(l) ? (l.firstOutput[h + 1] ?? 0) : totalOutputs(l);
}

/** Of the first `count` outputs, how many at the end are in blocks stamped at or after `cutoff`. */
function recentOutputs(l: Ledger, count: number, cutoff: number): number {
  let recent = 0;
  for (let h = height(l) - 1; h >= 0 && recent < count; h--) {
    const inBlock = Math.min(totalOutputsUpTo(l, h), count) - (h > 0 ? (l.firstOutput[h] ?? 0) : 0);
    if (inBlock <= 0) continue;
    if (l.blocks[h]!.timestamp < cutoff) break;
    recent += inBlock;
  }
  return recent;
}

/** One amount's distribution (Blockchain::get_output_distribution and RpcHandler), or undefined: error -5. */
function distribution(l: Ledger, amount: bigint, asset: string, from: number, to: number) {
  const n = height(l);
  const start = amount === 0n ? Math.max(from, 1) : from;
  if (to < from || start >= n || to >= n) return undefined;
  if (amount !== 0n)
    return { start_height: start, base: 0, distribution: new Array<number>(to - start + 1).fill(0), spendable: 0 };
  const heights = Array.from({ length: to - start + 2 }, (_, i) => start - 1 + i);
  const cum = heights.map((h) => assetOutputsUpTo(l, asset, h));
  // The real code reads heights[size - 10], which with fewer than 10 heights is out of range: 0 here, as observed.
  const spendable = heights.length >= DEFAULT_TX_SPENDABLE_AGE ? cum[heights.length - DEFAULT_TX_SPENDABLE_AGE]! : 0;
  return { start_height: start, base: cum[0]!, distribution: cum.slice(1), spendable };
}

/** compress_integer_array: each number as a varint. */
function varints(values: number[]): Bytes {
  const out: number[] = [];
  for (let v of values) {
    do {
      out.push((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
      v = Math.floor(v / 128);
    } while (v > 0);
  }
  return new Bytes(Uint8Array.from(out));
}

/** The distribution as 64-bit little-endian numbers (KV_SERIALIZE_CONTAINER_POD_AS_BLOB). */
function uint64s(values: number[]): Bytes {
  const b = Buffer.alloc(values.length * 8);
  values.forEach((v, i) => b.writeBigUInt64LE(BigInt(v), i * 8));
  return new Bytes(b);
}

function outputDistribution(ctx: DaemonContext, raw: Parameters<typeof distributionParams.parse>[0]) {
  const p = distributionParams.parse(raw);
  const l = ctx.ledger;
  if (ctx.restricted && (p.amounts.length !== 1 || p.amounts[0] !== 0n))
    throw new RpcError(-19, 'Restricted RPC can only get output distribution for rct outputs. Use your own node.');
  const to = p.to_height > 0n ? Number(p.to_height) : height(l) - 1;
  const distributions = p.amounts.map((amount) => {
    const d = distribution(l, amount, p.rct_asset_type, Number(p.from_height), to);
    if (!d) throw new RpcError(-5, 'Failed to get output distribution');
    const values = p.cumulative ? d.distribution : d.distribution.map((v, i, a) => v - (i > 0 ? a[i - 1]! : d.base));
    const data = !p.binary
      ? { distribution: values }
      : p.compress
        ? { compressed_data: varints(values) }
        : { distribution: uint64s(values) };
    return {
      amount,
      base: d.base,
      binary: p.binary,
      compress: p.compress,
      ...data,
      num_spendable_global_outs: d.spendable,
      start_height: d.start_height,
    };
  });
  return { ...ACCESS, distributions, status: 'OK', untrusted: false };
}

export function supplyMethods(m: Methods): void {
  const { ctx } = m;
  const l = ctx.ledger;
  m.add(['get_coinbase_tx_sum'], (raw) => coinbaseTxSum(l, raw), true);
  m.add(['get_supply_info'], () => ({ height: height(l), status: 'OK', supply_tally: supplyTally(l) }));
  m.add(['get_yield_info'], (raw) => yieldInfo(ctx, raw));
  m.add(['get_output_histogram'], (raw) => histogram(ctx, raw));
  m.add(['get_output_distribution'], (raw) => outputDistribution(ctx, raw));
  m.add(['get_tokens'], (raw) => ({ status: 'OK', tokens: matchTokens(l, tokensParams.parse(raw).filter) }));
  m.add(['get_token_info'], (raw) => {
    const t = l.tokens.get(tokenInfoParams.parse(raw).asset_type);
    if (!t)
      return {
        sal_token: { name: '', size: 0, supply: 0, url: '' },
        status: 'Token not found',
        'token.asset_type': '',
        'token.version': 0,
        token_type: 0,
      };
    return {
      sal_token: { name: t.name, size: t.size, supply: t.supply, url: t.url },
      status: 'OK',
      'token.asset_type': t.ticker,
      'token.version': 1,
      token_type: 2,
    };
  });
  m.add(['get_fee_estimate'], (raw) => {
    feeParams.parse(raw);
    const fees = currentFees(l);
    // quantization_mask is left out at its default (1), as epee's KV_SERIALIZE_OPT stores it.
    return { ...ACCESS, fee: fees[0], fees, ...STATUS };
  });
}
