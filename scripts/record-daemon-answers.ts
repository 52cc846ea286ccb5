// Maintainer script: record what a real salviumd answers to a fixed list of requests on a fresh
// testnet at height 1201 (`saltnet up --backend salvium --difficulty 1`, nothing mined since), into
// fixtures/salvium-<version>/daemon-answers.json. test/sim/daemon-recorded.test.ts replays the same
// requests on the simulated daemon, in the same order, and compares the answers with saltnet diff's
// rules (random values by form, everything else exactly).
//
//   npm run build && node dist/scripts/record-daemon-answers.js http://127.0.0.1:<rpc port> v1.1.3c <a Carrot address>
//
// A request's params may name an earlier answer: "$<name>.<path>" (e.g. "$tplB.result.blocktemplate_blob")
// is replaced by the value at that path of the answer recorded under that name.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface DaemonRequest {
  /** A name later requests refer to ("$name.path"); unique. */
  name: string;
  /** JSON-RPC method, or a URI endpoint (`/get_info`). */
  method?: string;
  path?: string;
  params?: unknown;
}

export interface RecordedAnswer extends DaemonRequest {
  /** The JSON-RPC `{result}` / `{error}` (envelope left out), or a URI endpoint's body. */
  answer: unknown;
}

const HASH_1 = '1'.repeat(64);

/** The requests, read-only ones first, then the ones that change the daemon's state, in order. */
export function daemonRequests(address: string): DaemonRequest[] {
  const rpc = (name: string, method: string, params?: unknown): DaemonRequest => ({ name, method, params });
  const uri = (name: string, path: string, params: unknown = {}): DaemonRequest => ({ name, path, params });
  return [
    ...[0, 1, 815, 1100, 1120, 1199, 1200].map((h) => rpc(`block${h}`, 'get_block', { height: h })),
    rpc('blockByHash', 'getblock', { hash: '$block1200.result.block_header.hash' }),
    rpc('blockBadHash', 'get_block', { hash: 'zz' }),
    rpc('blockUnknownHash', 'get_block', { hash: HASH_1 }),
    rpc('blockTooHigh', 'get_block', { height: 100000 }),
    rpc('range', 'get_block_headers_range', { start_height: 1195, end_height: 1200 }),
    rpc('rangeReversed', 'getblockheadersrange', { start_height: 1200, end_height: 1199 }),
    rpc('rangePastTop', 'get_block_headers_range', { start_height: 0, end_height: 5000 }),
    rpc('headerNoHash', 'get_block_header_by_hash', {}),
    rpc('headerHashes', 'get_block_header_by_hash', { hashes: ['$block1200.result.block_header.hash'] }),
    rpc('headerBadHash', 'getblockheaderbyhash', { hash: 'zz' }),
    rpc('lastHeader', 'get_last_block_header'),
    ...[
      [0, 1],
      [1, 1],
      [1200, 1],
      [1100, 100],
      [1, 1200],
      [1300, 1],
      [0, 5000],
    ].map(([height, count]) => rpc(`coinbase${height}x${count}`, 'get_coinbase_tx_sum', { height, count })),
    rpc('supply', 'get_supply_info'),
    rpc('yield', 'get_yield_info'),
    rpc('yieldRaw', 'get_yield_info', { include_raw_data: true, from_height: 1195, to_height: 1198 }),
    ...distributionRequests(rpc),
    ...[
      'get_fee_estimate',
      'get_version',
      'hard_fork_info',
      'get_info',
      'get_block_count',
      'sync_info',
      'get_connections',
      'get_alternate_chains',
      'get_bans',
      'get_miner_data',
      'get_txpool_backlog',
      'flush_cache',
    ].map((m) => rpc(m, m)),
    rpc('pruneCheck', 'prune_blockchain', { check: true }),
    rpc('bannedNoAddress', 'banned'),
    rpc('bannedNot', 'banned', { address: '1.2.3.4' }),
    rpc('banBadHost', 'set_bans', { bans: [{ host: 'nonsense', ban: true, seconds: 100 }] }),
    rpc('banNoHost', 'set_bans', { bans: [{ ban: true, seconds: 100 }] }),
    ...readOnlyEndpoints(uri),
    // After /get_outs: v1.1.3c's histogram reads the output-reference table through a cursor only an
    // output lookup opens, and answers "Failed to get output histogram" before one (harness/sim/README.md).
    rpc('histogramAll', 'get_output_histogram'),
    rpc('histogram', 'get_output_histogram', { amounts: [100, 0], unlocked: true }),
    rpc('histogramRecent', 'get_output_histogram', { amounts: [0], recent_cutoff: 1 }),
    rpc('histogramMin', 'get_output_histogram', { amounts: [5], min_count: 1 }),
    ...statefulRequests(rpc, uri, address),
  ];
}

type Rpc = (name: string, method: string, params?: unknown) => DaemonRequest;
type Uri = (name: string, path: string, params?: unknown) => DaemonRequest;

function distributionRequests(rpc: Rpc): DaemonRequest[] {
  const d = (name: string, params: Record<string, unknown>): DaemonRequest =>
    rpc(name, 'get_output_distribution', { amounts: [0], binary: false, ...params });
  return [
    d('distSal1', { rct_asset_type: 'SAL1', from_height: 1190 }),
    d('distSal1Cumulative', { rct_asset_type: 'SAL1', from_height: 1195, cumulative: true }),
    d('distSalStart', { rct_asset_type: 'SAL', from_height: 0, to_height: 5, cumulative: true }),
    d('distSalHf6', { rct_asset_type: 'SAL', from_height: 810, to_height: 820 }),
    d('distShort', { rct_asset_type: 'SAL1', from_height: 1198, to_height: 1200 }),
    d('distAmount', { amounts: [5], rct_asset_type: 'SAL1', from_height: 1195 }),
    d('distNoAsset', { rct_asset_type: '', from_height: 1195 }),
    d('distPastTop', { rct_asset_type: 'SAL1', from_height: 1300 }),
    d('distReversed', { rct_asset_type: 'SAL1', from_height: 1200, to_height: 1199 }),
  ];
}

function readOnlyEndpoints(uri: Uri): DaemonRequest[] {
  return [
    ...[
      '/get_height',
      '/get_info',
      '/get_alt_blocks_hashes',
      '/get_peer_list',
      '/get_public_nodes',
      '/set_log_hash_rate',
      '/get_net_stats',
      '/get_limit',
      '/update',
      '/get_transaction_pool',
      '/get_transaction_pool_hashes',
      '/get_transaction_pool_stats',
      '/mining_status',
    ].map((p) => uri(p, p)),
    uri('outPeers', '/out_peers', { set: false }),
    uri('inPeers', '/in_peers', { set: false }),
    uri('outs', '/get_outs', {
      outputs: [
        { amount: 0, index: 0 },
        { amount: 0, index: 1190 },
      ],
      get_txid: true,
    }),
    uri('outsSal1', '/get_outs', { outputs: [{ index: 3 }], asset_type: 'SAL1', get_txid: true }),
    uri('outsPastEnd', '/get_outs', { outputs: [{ amount: 0, index: 1208 }] }),
    uri('outsAmount', '/get_outs', { outputs: [{ amount: 5, index: 0 }] }),
    uri('txBadHash', '/get_transactions', { txs_hashes: ['zz'] }),
    uri('txShortHash', '/get_transactions', { txs_hashes: ['abcd'] }),
    uri('txMissed', '/gettransactions', { txs_hashes: [HASH_1] }),
    uri('txCoinbase', '/get_transactions', {
      txs_hashes: ['$block1200.result.miner_tx_hash', '$block1200.result.protocol_tx_hash'],
      decode_as_json: true,
    }),
    uri('logLevelBad', '/set_log_level', { level: 9 }),
    uri('logCategories', '/set_log_categories', { categories: '*:INFO' }),
    uri('limitBad', '/set_limit', { limit_down: -5 }),
    uri('bootstrap', '/set_bootstrap_daemon', { address: '' }),
  ];
}

function statefulRequests(rpc: Rpc, uri: Uri, address: string): DaemonRequest[] {
  return [
    rpc('ban', 'set_bans', {
      bans: [
        { host: '1.2.3.4', ban: true, seconds: 100 },
        { host: '10.1.2.3/8', ban: true, seconds: 200 },
        { ip: 16909060, ban: true, seconds: 300 },
      ],
    }),
    rpc('bans', 'get_bans'),
    rpc('bannedHost', 'banned', { address: '1.2.3.4' }),
    rpc('bannedInSubnet', 'banned', { address: '10.9.9.9' }),
    rpc('unban', 'set_bans', { bans: [{ host: '1.2.3.4', ban: false }] }),
    rpc('bansAfter', 'get_bans'),
    uri('limitSet', '/set_limit', { limit_down: 100, limit_up: -1 }),
    uri('limitGet', '/get_limit'),
    uri('limitReset', '/set_limit', { limit_down: -1 }),
    uri('outPeersSet', '/out_peers', { set: true, out_peers: 3 }),
    uri('outPeersGet', '/out_peers', { set: false }),
    rpc('tplBadReserve', 'get_block_template', { wallet_address: address, reserve_size: 256 }),
    rpc('tplBoth', 'get_block_template', { wallet_address: address, reserve_size: 2, extra_nonce: '00' }),
    rpc('tplBadAddress', 'get_block_template', { wallet_address: 'nonsense' }),
    rpc('tplBadNonce', 'get_block_template', { wallet_address: address, extra_nonce: 'zz' }),
    rpc('tplBadPrev', 'get_block_template', { wallet_address: address, prev_block: 'zz' }),
    rpc('tplUnknownPrev', 'get_block_template', { wallet_address: address, prev_block: HASH_1 }),
    rpc('tplA', 'get_block_template', { wallet_address: address }),
    rpc('tplB', 'getblocktemplate', { wallet_address: address, reserve_size: 8 }),
    rpc('tplNonce', 'get_block_template', { wallet_address: address, extra_nonce: '0011aabb' }),
    rpc('submitNone', 'submit_block', []),
    rpc('submitNotHex', 'submit_block', ['zz']),
    rpc('submitNoBlock', 'submitblock', ['00']),
    rpc('submitB', 'submit_block', ['$tplB.result.blocktemplate_blob']),
    rpc('countAfterB', 'get_block_count'),
    rpc('headerB', 'get_block_header_by_hash', { hash: '$submitB.result.block_id' }),
    rpc('submitA', 'submit_block', ['$tplA.result.blocktemplate_blob']),
    rpc('submitAAgain', 'submit_block', ['$tplA.result.blocktemplate_blob']),
    rpc('altChains', 'get_alternate_chains'),
    uri('altHashes', '/get_alt_blocks_hashes'),
    rpc('altBlock', 'get_block', { hash: '$submitA.result.block_id' }),
    rpc('infoAfter', 'get_info'),
    rpc('countAfterA', 'get_block_count'),
    rpc('prune', 'prune_blockchain'),
    rpc('pruneAgain', 'prune_blockchain', { check: true }),
  ];
}

/** The value at a dotted path (`result.block_header.hash`, `result.headers[0].hash`). */
function at(value: unknown, path: string): unknown {
  let cur = value;
  for (const seg of path.match(/[^.[\]]+/g) ?? []) cur = (cur as Record<string, unknown> | undefined)?.[seg];
  return cur;
}

/** The params with every "$name.path" replaced from the answers so far. */
export function resolveParams(params: unknown, answers: ReadonlyMap<string, unknown>): unknown {
  if (typeof params === 'string' && params.startsWith('$')) {
    const [name, ...rest] = params.slice(1).split('.');
    if (!answers.has(name!)) throw new Error(`${params}: no answer named ${name} before it`);
    return at(answers.get(name!), rest.join('.'));
  }
  if (Array.isArray(params)) return params.map((p) => resolveParams(p, answers));
  if (params && typeof params === 'object')
    return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, resolveParams(v, answers)]));
  return params;
}

/** Send one request to a daemon: the JSON-RPC result or error (without the envelope), or the endpoint's body. */
export async function ask(base: string, r: DaemonRequest, answers: ReadonlyMap<string, unknown>): Promise<unknown> {
  const params = resolveParams(r.params, answers);
  const body = r.method
    ? { jsonrpc: '2.0', id: '0', method: r.method, ...(params === undefined ? {} : { params }) }
    : params;
  const res = await fetch(`${base}${r.path ?? '/json_rpc'}`, { method: 'POST', body: JSON.stringify(body ?? {}) });
  const doc = JSON.parse(await res.text()) as Record<string, unknown>;
  if (!r.method) return doc;
  return doc.error !== undefined ? { error: doc.error } : { result: doc.result };
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [base, version, address] = process.argv.slice(2);
  if (!base || !version || !address) {
    process.stderr.write('usage: node dist/scripts/record-daemon-answers.js <daemon URL> <version> <Carrot address>\n');
    process.exit(2);
  }
  const answers = new Map<string, unknown>();
  const recorded: RecordedAnswer[] = [];
  for (const r of daemonRequests(address)) {
    const answer = await ask(base, r, answers);
    answers.set(r.name, answer);
    recorded.push({ ...r, answer });
  }
  const out = join(ROOT, 'fixtures', `salvium-${version}`, 'daemon-answers.json');
  mkdirSync(dirname(out), { recursive: true });
  const doc = {
    program: 'salviumd',
    version,
    recorded: new Date().toISOString(),
    height: 1201,
    address,
    answers: recorded,
  };
  writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
  process.stdout.write(`${out}: ${recorded.length} answers\n`);
}
