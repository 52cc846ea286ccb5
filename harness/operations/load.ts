// Traffic from wallets funded ahead (`saltnet load --tps 20 --duration 30`, the scenario step `load:`, runLoad()):
// sustained transactions at a rate, confirmed by the testnet's mining, and what they achieved (the generator is
// harness/load/).
import { suggest } from '../common/suggest.js';
import type { NumberRule } from '../config/numbers.js';
import { numberOption } from '../config/numbers.js';
import { LoadOptionsError, runLoad } from '../load/run.js';
import { LoadSetupError } from '../load/types.js';
import {
  LOAD_OPTIONS,
  MAX_LOAD_BLOCK_TIME,
  MAX_LOAD_BLOCKS,
  MAX_LOAD_SECONDS,
  MAX_LOAD_TPS,
  MAX_LOAD_WALLETS,
  MIX_KINDS,
  type LoadReport,
  type MixKind,
} from '../load/types.js';
import { RequestError } from './body.js';
import { defineOperation } from './operation.js';

const RULES = {
  tps: { whole: false, min: 0, minExclusive: true, max: MAX_LOAD_TPS },
  duration: { whole: false, min: 0, minExclusive: true, max: MAX_LOAD_SECONDS },
  wallets: { whole: true, min: 1, max: MAX_LOAD_WALLETS, maxWhy: 'each is a wallet RPC of its own' },
  blockTime: { whole: false, min: 0, minExclusive: true, max: MAX_LOAD_BLOCK_TIME },
} as const satisfies Record<string, NumberRule>;

/** `--mix transfers,tokens`: the kinds, each checked (a typo gets its did-you-mean). */
function mixOf(v: unknown): MixKind[] {
  const words = String(v)
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w !== '');
  if (words.length === 0) throw new Error(`--mix: name one or more of ${MIX_KINDS.join(', ')}, separated by commas`);
  for (const w of words)
    if (!(MIX_KINDS as readonly string[]).includes(w)) {
      const near = suggest(w, MIX_KINDS);
      throw new Error(
        `--mix: ${JSON.stringify(w)} is not a kind of transaction a load sends${near ? ` (did you mean ${near}?)` : ''}; the kinds are ${MIX_KINDS.join(', ')}`,
      );
    }
  return words as MixKind[];
}

const p = (q: { p50: number; p90: number; p99: number; max: number }, unit: string): string =>
  `p50 ${q.p50}${unit}, p90 ${q.p90}${unit}, p99 ${q.p99}${unit}, max ${q.max}${unit}`;

/** The report in words: the rate, latency, the pool, and every rejected or unconfirmed transaction. */
export function sayLoad(r: LoadReport): string {
  const mining =
    r.mining.by === 'load' ? `the load mined a block every ${r.mining.blockTime} s` : `automine (${r.mining.mode})`;
  const c = r.counts;
  return [
    `load: ${r.tps.achieved} tx/s achieved of ${r.tps.asked} asked, over ${r.seconds.sending} s from ${r.wallets} wallets (${r.mix.join(', ')}); confirmed by ${mining}`,
    `  sent      ${c.sent} of ${c.scheduled} scheduled: ${c.confirmed} confirmed, ${c.rejected} rejected, ${c.behind} not sent in time, ${r.unconfirmed.length} unconfirmed`,
    `  latency   ${p(r.latency.blocks, ' blocks')}`,
    `            ${p(r.latency.seconds, ' s')}`,
    `  pool      max ${r.pool.max}, at the end ${r.pool.end}`,
    `  chain     height ${r.heights.start} to ${r.heights.end}; funding the wallets took ${r.setup.seconds} s and ${r.setup.blocks} blocks`,
    ...r.rejections.map((x) => `  rejected  at ${x.at} s, ${x.wallet} (${x.kind}): ${x.reason}`),
    ...r.unconfirmed.map((u) => `  unconfirmed ${u.txHash} from ${u.wallet}: ${u.state}`),
  ].join('\n');
}

export const loadOperation = defineOperation({
  name: 'load',
  what: 'run the load',
  body: LOAD_OPTIONS,
  async run(t, body, { signal }): Promise<LoadReport> {
    try {
      return await runLoad(t, { ...body, signal });
    } catch (err) {
      if (err instanceof LoadOptionsError || err instanceof LoadSetupError) throw new RequestError(err.message);
      throw err;
    }
  },
  command: {
    usage: 'load',
    describe: 'send transactions at a steady rate from wallets funded ahead, and report the rate, latency and pool',
    options: {
      tps: { ...numberOption('tps', RULES.tps, 'transactions a second'), demandOption: true },
      duration: { ...numberOption('duration', RULES.duration, 'seconds to send for'), demandOption: true },
      wallets: numberOption('wallets', RULES.wallets, 'wallets that send, each funded ahead (default 4)'),
      mix: {
        type: 'string',
        describe: `the kinds of transaction, taken in turn: ${MIX_KINDS.join(',')} (default transfers)`,
      },
      'block-time': numberOption(
        'block-time',
        RULES.blockTime,
        'seconds between the blocks the load mines when automine is off (default 1)',
      ),
    },
    body: (a) => ({
      tps: a.tps as number,
      duration: a.duration as number,
      ...(a.wallets !== undefined ? { wallets: a.wallets as number } : {}),
      ...(a.mix !== undefined ? { mix: mixOf(a.mix) } : {}),
      ...(a.blockTime !== undefined ? { blockTime: a.blockTime as number } : {}),
    }),
    say: sayLoad,
  },
  step: {
    name: (v) => `load ${String(v.tps)} tx/s for ${String(v.duration)} s`,
    blocks: MAX_LOAD_BLOCKS,
    docs: {
      note: `Traffic: \`tps\` transactions a second for \`duration\` seconds from \`wallets\` wallets (default 4) funded ahead, the kinds of \`mix\` (${MIX_KINDS.join(', ')}; default transfers) in turn, confirmed by the testnet's automine, or by a block the load mines every \`blockTime\` seconds (default 1) when automine is off. The answer is \`{result: <the report>}\`: \`tps.achieved\`, \`counts\` (scheduled, sent, confirmed, rejected, behind), \`byKind\`, \`latency.blocks\` and \`latency.seconds\` (p50, p90, p99, max), \`pool\` (max, end, samples), \`rejections\`, \`unconfirmed\` (see docs/load.md).`,
      example: {
        steps: ['- load: { tps: 5, duration: 2, wallets: 2 }', '  expect:', '    result.counts.rejected: 0'].join('\n'),
      },
    },
  },
});
