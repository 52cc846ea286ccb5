// Which values of an RPC answer `saltnet diff` compares exactly and which only by their form: one
// table of rules, first match wins; a value no rule matches is compared exactly. To teach the diff
// about another random or machine-dependent field, add a row to DIFF_RULES (and a case to
// test/diff/rules.test.ts).
import { BACKENDS } from '../coin/backends.js';
import { addressKindOf } from '../coin/coins.js';
import type { PathSegment } from '../common/path.js';

/**
 * How a value matched by a rule is compared (after its JSON type, which always has to match):
 * - `opaque`: random text (hashes, keys, addresses, URLs): the same shape (`opaqueShape`);
 * - `blob`: serialized data: the same shape, but hex of any length (each build encodes differently);
 * - `timestamp`: seconds or milliseconds since 1970: both in the same plausible range (other values, e.g. `unlock_time:
 * 0`, exactly);
 * - `count`: a number that depends on the machine: both non-negative integers;
 * - `near`: a size that depends on random parts of a transaction (decoy offsets are varints): within
 *   NEAR_PERCENT of each other;
 * - `any`: only the JSON type.
 */
export type Format = 'opaque' | 'blob' | 'timestamp' | 'count' | 'near' | 'any';

/** How far apart two `near` values may be, in percent of the larger. */
export const NEAR_PERCENT = 3;

export interface DiffRule {
  /** Shown with a divergence of a value it matched, e.g. `hash or key`. */
  name: string;
  /** Matches the nearest object key above the value (elements of a list take the list's key). */
  key?: RegExp;
  /** Matches the whole path from the answer's root, e.g. `^id$`. */
  path?: RegExp;
  /** Matches the value itself (tried on A's value, then on B's). */
  value?: (v: unknown) => boolean;
  format: Format;
  /** Why such a value differs between two runs of the same scenario. */
  why: string;
}

const HEX64 = /^[0-9a-fA-F]{64}$/;
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\/[^\s/]+/i;
const HOST_PORT = /^[\w.-]+:\d{1,5}$/;

/**
 * `salvium testnet carrot standard` for text that starts like an address of a backend's coin (prefix and length; no
 * checksum or key check): the coins' prefixes are BACKENDS'.
 */
export function addressKind(text: string): string | undefined {
  return addressKindOf(
    Object.values(BACKENDS).map((b) => b.coin),
    text,
  );
}

const isString = (v: unknown): v is string => typeof v === 'string';

/** The rules, most specific first. */
export const DIFF_RULES: readonly DiffRule[] = [
  { name: 'JSON-RPC id', path: /^id$/, format: 'any', why: 'the client numbers its requests' },
  {
    name: 'hash or key',
    key: /(^|_)(hash|hashes|hash_list|txid|txids|tx_id|tx_key|tx_keys|tx_key_list|key_image|key_images|k_image|pubkey|pub_key|public_key|spend_key|view_key|secret_key|signature|payment_id|view_tag|janus_anchor|anchor_enc|binding_tag|return_address_list)$/,
    format: 'opaque',
    why: 'derived from random keys and nonces',
  },
  {
    name: 'serialized data',
    key: /(^|_)(blob|blobs|blob_list|metadata|metadata_list|txset|multisig_info|hex|backlog|compressed_data)$/,
    format: 'blob',
    why: 'serialized transactions hold random keys',
  },
  {
    name: 'address',
    key: /(^|_)(address|addresses)$/,
    format: 'opaque',
    why: 'wallets a scenario creates have fresh keys; daemon addresses have free ports',
  },
  {
    name: 'timestamp',
    key: /^(time|timestamp|oldest|[a-z0-9_]+_time|[a-z0-9_]+_timestamp)$/,
    format: 'timestamp',
    why: 'wall-clock time',
  },
  {
    name: 'size',
    key: /^(weight|weight_list|blob_size|block_size|block_weight|long_term_weight|block_size_median|block_weight_median|bytes_(min|max|med|total))$/,
    format: 'near',
    why: "a transaction's size depends on its random decoys (offsets are varints): two runs of the same transfer differ by a few bytes",
  },
  {
    name: 'build version',
    value: (v) => isString(v) && / based on Monero /.test(v),
    format: 'opaque',
    why: 'names the build (its commit), which differs between any two builds',
  },
  {
    name: 'machine-dependent',
    key: /^(database_size|free_space|rpc_connections_count|num_unspent_outputs|speed|nonce)$/,
    format: 'count',
    why: 'disk, connections, hash rate, mining nonce or (num_unspent_outputs) an uninitialised value',
  },
  {
    name: 'encrypted amount',
    path: /ecdhInfo\[\d+\]\.amount$/,
    format: 'opaque',
    why: "a RingCT output's amount is encrypted with a random key",
  },
  {
    name: 'random bytes',
    key: /^(extra|key_offsets|return_address_change_mask)$/,
    format: 'count',
    why: "tx_extra holds random public keys, a ring's members are random decoys, return masks are random",
  },
  {
    name: 'newest ring member',
    key: /^max_used_block_height$/,
    format: 'count',
    why: "the block of a pool tx's newest ring member: its decoys are chosen at random",
  },
  {
    name: 'pruning stripe',
    key: /^pruning_seed$/,
    format: 'count',
    why: 'prune_blockchain keeps one of 8 stripes, chosen at random',
  },
  {
    name: 'output position',
    key: /^(global_index|output_indices|asset_type_output_indices)$/,
    format: 'count',
    why: "outputs are numbered in chain order, but a transaction's own outputs are shuffled, and a block holds transactions of one fee rate in the order of their fee per byte of actual weight, which their random decoys set: which output gets which number differs from run to run",
  },
  {
    name: 'vote window',
    key: /^(window|votes)$/,
    format: 'count',
    why: 'the daemon slides its hard-fork vote window back for every popped block (until it restarts), and how many blocks are popped after mining depends on how far the miner overshot',
  },
  {
    name: 'refresh progress',
    key: /^(blocks_fetched|received_money)$/,
    format: 'any',
    why: 'what a refresh finds depends on when the wallet RPC last refreshed on its own (every 20 s), which differs between two runs',
  },
  {
    name: 'port, pid or duration',
    key: /(^|_)(port|pid|ms|duration|elapsed|uptime|seconds)$/,
    format: 'count',
    why: "free ports, process ids and timings (a ban's seconds left) differ on every run",
  },
  {
    name: '64-hex hash',
    value: (v) => isString(v) && HEX64.test(v),
    format: 'opaque',
    why: 'hashes and keys are random',
  },
  {
    name: 'address',
    value: (v) => isString(v) && addressKind(v) !== undefined,
    format: 'opaque',
    why: 'wallets a scenario creates have fresh keys',
  },
  {
    name: 'URL',
    value: (v) => isString(v) && (URL_LIKE.test(v) || HOST_PORT.test(v)),
    format: 'opaque',
    why: 'servers listen on free ports',
  },
];

/** The nearest object key of a path (`result.tx_hash_list[0]` → `tx_hash_list`). */
export function nearestKey(path: readonly PathSegment[]): string | undefined {
  for (let i = path.length - 1; i >= 0; i--) if (typeof path[i] === 'string') return path[i] as string;
  return undefined;
}

/**
 * The rule for the value at `path` (formatted as `formatted`), given A's and B's values there; undefined:
 * compare exactly. Key and path rules come first, then value rules on A's value, then on B's.
 */
export function classify(
  path: readonly PathSegment[],
  formatted: string,
  a: unknown,
  b: unknown,
): DiffRule | undefined {
  const key = nearestKey(path);
  for (const r of DIFF_RULES) {
    if (r.value) {
      if (r.value(a) || r.value(b)) return r;
    } else if ((r.key && key !== undefined && r.key.test(key)) || (r.path && r.path.test(formatted))) {
      return r;
    }
  }
  return undefined;
}

/** The form of a random string: what two runs must agree on. */
export function opaqueShape(s: string): string {
  if (s === '') return 'empty';
  const address = addressKind(s);
  if (address) return `address (${address})`;
  if (URL_LIKE.test(s)) {
    try {
      const u = new URL(s);
      return `URL ${u.protocol}//${u.hostname}${u.port ? ':<port>' : ''}`;
    } catch {
      return 'URL';
    }
  }
  if (HOST_PORT.test(s)) return `${s.slice(0, s.lastIndexOf(':'))}:<port>`;
  if (/^0x[0-9a-fA-F]+$/.test(s)) return 'hex number';
  const hexCase = /^[0-9a-f]+$/.test(s)
    ? 'lowercase hex'
    : /^[0-9A-F]+$/.test(s)
      ? 'uppercase hex'
      : /^[0-9a-fA-F]+$/.test(s)
        ? 'mixed-case hex'
        : undefined;
  // Keys, hashes and ids have a fixed length; blobs do not (and are encoded differently by each build).
  if (hexCase) return s.length <= 128 ? `${hexCase}, ${s.length} chars` : hexCase;
  if (/^[1-9A-HJ-NP-Za-km-z]+$/.test(s)) return 'base58 text';
  return 'text';
}

const TS_SECONDS: readonly [number, number] = [946_684_800, 4_102_444_800]; // 2000 to 2100
const TS_MILLIS: readonly [number, number] = [TS_SECONDS[0] * 1000, TS_SECONDS[1] * 1000];

/** Whether two `near` values are within NEAR_PERCENT of each other. */
export function near(a: unknown, b: unknown): boolean {
  const [x, y] = [Number(a), Number(b)];
  if (!Number.isFinite(x) || !Number.isFinite(y)) return x === y;
  return Math.abs(x - y) * 100 <= NEAR_PERCENT * Math.max(Math.abs(x), Math.abs(y));
}

/** The form of a value under a rule's format; two values agree when their shapes are equal. */
export function shapeOf(format: Format, v: unknown): string {
  if (format === 'any') return 'any';
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n === 'number') {
    if (format === 'near') return 'a number';
    if (format === 'timestamp') {
      if (n >= TS_SECONDS[0] && n < TS_SECONDS[1]) return 'a time in seconds since 1970';
      if (n >= TS_MILLIS[0] && n < TS_MILLIS[1]) return 'a time in milliseconds since 1970';
      return String(v); // 0, an unlock height…: exactly
    }
    if (!Number.isInteger(n)) return 'a fractional number';
    return n < 0 ? 'a negative integer' : 'a non-negative integer';
  }
  if (typeof v === 'string') {
    if (format === 'timestamp') return Number.isNaN(Date.parse(v)) ? `"${v}"` : 'a date';
    const shape = opaqueShape(v);
    return format === 'blob' ? shape.replace(/, \d+ chars$/, '') : shape;
  }
  return typeof v;
}
