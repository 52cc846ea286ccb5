// The node itself (core_rpc_server.cpp, v1.1.3c), as an offline daemon answers: peers and
// connections (none), bans, sync state, alternative chains, pruning, caches, limits, log settings,
// updates, the bootstrap daemon. The pay-for-RPC methods are refused on purpose.
import { isIPv6 } from 'node:net';
import { height } from '../../chain/ledger.js';
import { RpcError, type Handler } from '../../http/server.js';
import { bool, i64, i8, list, obj, params, str, u32 } from '../../http/params.js';
import { notModelled } from '../../http/not-modelled.js';
import {
  DEFAULT_LIMIT_DOWN,
  DEFAULT_LIMIT_UP,
  STATUS,
  now,
  wide,
  type DaemonContext,
  type NodeState,
} from '../views.js';
import { ACCESS, type Methods } from './table.js';
import { altChains } from '../../chain/alt.js';
import type { Peer } from '../p2p-types.js';

const bansParams = params({ bans: list(obj({ host: str(), ip: u32(), ban: bool(), seconds: u32() })) });
const bannedParams = params({ address: str() });
const pruneParams = params({ check: bool() });
const levelParams = params({ level: i8() });
const categoriesParams = params({ categories: str() });
const limitParams = params({ limit_down: i64(), limit_up: i64() });
const outPeersParams = params({ set: bool(true), out_peers: u32() });
const inPeersParams = params({ set: bool(true), in_peers: u32() });
const bootstrapParams = params({ address: str(), username: str(), password: str(), proxy: str() });

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** An IPv4 address as epee's uint32 (first byte lowest), or undefined. */
function ipv4(s: string): number | undefined {
  const m = IPV4.exec(s);
  if (!m) return undefined;
  const b = m.slice(1).map(Number);
  if (b.some((x) => x > 255)) return undefined;
  return (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
}

const dotted = (ip: number): string => [0, 8, 16, 24].map((s) => (ip >>> s) & 0xff).join('.');

/** net::get_network_address: an IPv4 or IPv6 address (a port allowed), an onion or I2P host; its host text. */
function networkHost(s: string): string | undefined {
  const v4 = /^([\d.]+)(?::\d{1,5})?$/.exec(s);
  if (v4 && ipv4(v4[1]!) !== undefined) return v4[1];
  const v6 = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(s)?.[1] ?? s;
  if (isIPv6(v6)) return v6;
  if (/^[a-z2-7]{16,56}\.onion(:\d{1,5})?$/i.test(s) || /\.b32\.i2p(:\d{1,5})?$/i.test(s))
    return s.replace(/:\d+$/, '');
  return undefined;
}

/** An IPv4 subnet (`10.1.2.3/8` is `10.0.0.0/8`), as net::get_ipv4_subnet_address reads it. */
function subnet(s: string): { ip: number; mask: number; text: string } | undefined {
  const m = /^([\d.]+)\/(\d{1,2})$/.exec(s);
  if (!m || ipv4(m[1]!) === undefined || Number(m[2]) > 32) return undefined;
  const mask = Number(m[2]);
  const bits = mask === 0 ? 0 : (0xffffffff << (32 - mask)) >>> 0;
  const b = Buffer.alloc(4);
  b.writeUInt32BE((Buffer.from(m[1]!.split('.').map(Number)).readUInt32BE(0) & bits) >>> 0);
  const text = [...b].join('.');
  return { ip: ipv4(text)!, mask, text: `${text}/${mask}` };
}

function setBans(state: NodeState, raw: Parameters<Handler>[0]): Record<string, unknown> {
  for (const b of bansParams.parse(raw).bans) {
    let key: string | undefined;
    if (b.host) key = subnet(b.host)?.text ?? networkHost(b.host);
    else if (b.ip) key = dotted(b.ip);
    if (b.host && key === undefined) throw new RpcError(-1, 'Unsupported host/subnet type');
    if (key === undefined) throw new RpcError(-1, 'No ip/host supplied');
    if (b.ban) state.bans.set(key, now() + b.seconds);
    else state.bans.delete(key);
  }
  return STATUS;
}

/** get_bans: hosts (by name), then subnets; only bans that have not ended. */
function getBans(state: NodeState): Record<string, unknown> {
  const t = now();
  const live = [...state.bans].filter(([, end]) => end > t);
  const hosts = live.filter(([k]) => !k.includes('/')).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const nets = live
    .filter(([k]) => k.includes('/'))
    .map(([k, end]) => ({ s: subnet(k)!, end }))
    .sort((a, b) => a.s.ip - b.s.ip || a.s.mask - b.s.mask);
  const bans = [
    ...hosts.map(([host, end]) => ({ host, ip: ipv4(host) ?? 0, seconds: end - t })),
    ...nets.map(({ s, end }) => ({ host: s.text, ip: 0, seconds: end - t })),
  ];
  return { bans, ...STATUS };
}

function banned(state: NodeState, raw: Parameters<Handler>[0]): Record<string, unknown> {
  const host = networkHost(bannedParams.parse(raw).address);
  if (host === undefined) throw new RpcError(-1, 'Unsupported host type');
  const t = now();
  const ip = ipv4(host);
  const ends = [...state.bans]
    .filter(([k, end]) => end > t && (k === host || (ip !== undefined && k.includes('/') && inSubnet(ip, k))))
    .map(([, end]) => end);
  return ends.length
    ? { banned: true, seconds: Math.max(...ends) - t, status: 'OK' }
    : { banned: false, seconds: 0, status: 'OK' };
}

function inSubnet(ip: number, text: string): boolean {
  const s = subnet(text)!;
  return subnet(`${dotted(ip)}/${s.mask}`)?.ip === s.ip;
}

/** get_alternate_chains: one chain per alternative tip, its hashes newest first, from its main-chain parent. */
function alternateChains(ctx: DaemonContext): Record<string, unknown> {
  const chains = altChains(ctx.ledger, ctx.state.alt).map((c) => ({
    block_hash: c.tip.hash,
    block_hashes: c.hashes,
    difficulty: c.tip.cumulativeDifficulty,
    difficulty_top64: 0,
    height: c.tip.index,
    length: c.hashes.length,
    main_chain_parent_block: c.parent,
    wide_difficulty: wide(c.tip.cumulativeDifficulty),
  }));
  return { ...(chains.length ? { chains } : {}), ...STATUS };
}

/** A peer as get_connections and sync_info show it (connection_info of v1.1.3c). */
function connectionInfo(p: Peer): Record<string, unknown> {
  const t = Date.now();
  return {
    address: `${p.host}:${p.port}`,
    address_type: 1,
    avg_download: 0,
    avg_upload: 0,
    connection_id: p.connectionId,
    current_download: 0,
    current_upload: 0,
    height: p.height,
    host: p.host,
    incoming: p.incoming,
    ip: p.host,
    live_time: Math.floor((t - p.since) / 1000),
    local_ip: false,
    localhost: p.host === '127.0.0.1',
    peer_id: p.peerId,
    port: String(p.port),
    pruning_seed: 0,
    recv_count: p.recv,
    recv_idle_time: Math.floor((t - p.lastRecv) / 1000),
    rpc_credits_per_hash: 0,
    rpc_port: 0,
    send_count: p.sent,
    send_idle_time: Math.floor((t - p.lastSent) / 1000),
    state: 'normal',
    support_flags: 1,
  };
}

const connections = (ctx: DaemonContext): Record<string, unknown>[] => (ctx.p2p?.peers() ?? []).map(connectionInfo);

/** prune_blockchain: the seed of a random stripe of 8 (tools::make_pruning_seed), once; `check` only reports. */
function prune(state: NodeState, raw: Parameters<Handler>[0]): Record<string, unknown> {
  if (!pruneParams.parse(raw).check && state.pruningSeed === 0) state.pruningSeed = 384 + Math.floor(Math.random() * 8);
  return { pruned: state.pruningSeed !== 0, pruning_seed: state.pruningSeed, ...STATUS };
}

export function nodeMethods(m: Methods): void {
  const { ctx } = m;
  const { state } = ctx;
  m.add(
    ['get_connections'],
    () => {
      const list = connections(ctx);
      return { ...(list.length ? { connections: list } : {}), ...STATUS };
    },
    true,
  );
  m.add(['set_bans'], (raw) => setBans(state, raw), true);
  m.add(['get_bans'], () => getBans(state), true);
  m.add(['banned'], (raw) => banned(state, raw), true);
  m.add(
    ['sync_info'],
    () => {
      const peers = connections(ctx).map((info) => ({ info }));
      return {
        ...ACCESS,
        height: height(ctx.ledger),
        next_needed_pruning_seed: 1,
        overview: '[]',
        ...(peers.length ? { peers } : {}),
        ...STATUS,
        target_height: 0,
      };
    },
    true,
  );
  m.add(['get_alternate_chains'], () => alternateChains(ctx), true);
  m.add(['prune_blockchain'], (raw) => prune(state, raw), true);
  m.add(['flush_cache'], (raw) => (params({ bad_txs: bool(), bad_blocks: bool() }).parse(raw), STATUS), true);
  const why = 'the pay-for-RPC system is not simulated';
  for (const name of ['rpc_access_info', 'rpc_access_submit_nonce', 'rpc_access_pay'])
    m.add([name], notModelled(name, why));
  for (const name of ['rpc_access_tracking', 'rpc_access_data', 'rpc_access_account'])
    m.add([name], notModelled(name, why), true);
}

export function nodeEndpoints(m: Methods): void {
  const { ctx } = m;
  const { state } = ctx;
  m.add(['/get_alt_blocks_hashes'], () => {
    const hashes = [...state.alt.keys()].sort();
    return { ...(hashes.length ? { blks_hashes: hashes } : {}), ...ACCESS, ...STATUS };
  });
  m.add(['/get_peer_list'], () => STATUS, true);
  m.add(['/get_public_nodes'], () => STATUS);
  m.add(['/set_log_hash_rate'], () => ({ status: ctx.miner.active ? 'OK' : 'NOT MINING', untrusted: false }), true);
  m.add(
    ['/set_log_level'],
    (raw) => {
      const level = levelParams.parse(raw).level;
      return { status: level < 0 || level > 4 ? 'Error: log level not valid' : 'OK', untrusted: false };
    },
    true,
  );
  m.add(['/set_log_categories'], (raw) => ({ categories: categoriesParams.parse(raw).categories, ...STATUS }), true);
  m.add(
    ['/get_net_stats'],
    () => ({
      start_time: ctx.startTime,
      ...STATUS,
      total_bytes_in: 0,
      total_bytes_out: 0,
      total_packets_in: 0,
      total_packets_out: 0,
    }),
    true,
  );
  m.add(['/get_limit'], () => ({ limit_down: state.limits.down, limit_up: state.limits.up, ...STATUS }));
  m.add(['/set_limit'], (raw) => setLimit(state, raw), true);
  m.add(
    ['/out_peers'],
    (raw) => {
      const p = outPeersParams.parse(raw);
      if (p.set) state.outPeers = p.out_peers;
      return { out_peers: state.outPeers, ...STATUS };
    },
    true,
  );
  m.add(
    ['/in_peers'],
    (raw) => {
      const p = inPeersParams.parse(raw);
      if (p.set) state.inPeers = p.in_peers;
      return { in_peers: state.inPeers, ...STATUS };
    },
    true,
  );
  m.add(
    ['/update'],
    () => ({
      auto_uri: '',
      hash: '',
      path: '',
      status: 'Daemon is running offline',
      untrusted: false,
      update: false,
      user_uri: '',
      version: '',
    }),
    true,
  );
  m.add(
    ['/set_bootstrap_daemon'],
    (raw) => {
      state.bootstrapAddress = bootstrapParams.parse(raw).address;
      return { status: 'OK' };
    },
    true,
  );
}

/** on_set_limit: a positive limit sets it, -1 resets it, any other negative is refused. */
function setLimit(state: NodeState, raw: Parameters<Handler>[0]): Record<string, unknown> {
  const p = limitParams.parse(raw);
  for (const [v, key, dflt] of [
    [p.limit_down, 'down', DEFAULT_LIMIT_DOWN],
    [p.limit_up, 'up', DEFAULT_LIMIT_UP],
  ] as const) {
    if (v < -1n) return { limit_down: 0, limit_up: 0, status: 'Invalid parameter', untrusted: false };
    if (v > 0n) state.limits[key] = Number(v);
    else if (v === -1n) state.limits[key] = dflt;
  }
  return { limit_down: state.limits.down, limit_up: state.limits.up, ...STATUS };
}
