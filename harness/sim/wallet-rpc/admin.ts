// The wallet RPC's settings and modes (wallet_rpc_server.cpp on_auto_refresh, on_set_daemon,
// on_set_log_level, on_set_log_categories, on_*_background_sync, on_estimate_tx_size_and_weight,
// on_get_default_fee_priority, on_is_multisig), with the real checks and messages (recorded from
// salvium-wallet-rpc v1.1.3c: test/sim/wallet-recorded.test.ts); the rest of multisig is refused on purpose.
import { RpcError } from '../http/server.js';
import { notModelled } from '../http/not-modelled.js';
import { bool, list, params, str, u32 } from '../http/params.js';
import { deriveKey } from '../wallet/files.js';
import { meta, type Wallet } from '../wallet/state.js';
import { RESTRICTED, need, notSyncing, type Define, type WalletRpcContext } from './context.js';

const P = {
  autoRefresh: params({ enable: bool(true), period: u32() }),
  setDaemon: params({
    address: str(),
    username: str(),
    password: str(),
    trusted: bool(),
    ssl_support: str('autodetect'),
    ssl_private_key_path: str(),
    ssl_certificate_path: str(),
    ssl_ca_file: str(),
    ssl_allowed_fingerprints: list(str()),
    ssl_allow_any_cert: bool(),
    proxy: str(),
  }),
  logLevel: params({ level: u32() }),
  logCategories: params({ categories: str() }),
  estimate: params({ n_inputs: u32(), n_outputs: u32(), ring_size: u32(), rct: bool(true) }),
  setupSync: params({ background_sync_type: str(), wallet_password: str(), background_cache_password: str() }),
  stopSync: params({ wallet_password: str(), seed: str(), seed_offset: str() }),
};

const DEFAULT_AUTO_REFRESH_PERIOD = 20;
const MULTISIG_REFUSED = [
  'prepare_multisig',
  'make_multisig',
  'export_multisig_info',
  'import_multisig_info',
  'finalize_multisig',
  'exchange_multisig_keys',
  'get_multisig_key_exchange_booster',
  'sign_multisig',
  'submit_multisig',
];
const SYNC_TYPES = ['off', 'reuse-wallet-password', 'custom-background-password'];
const SSL_MODES = ['enabled', 'disabled', 'autodetect'];

/** wallet2's estimate_tx_size (estimate_rct_tx_size, ring size 16, Bulletproofs+, CLSAG, view tags) and weight. */
export function estimateTxSizeAndWeight(rct: boolean, inputs: number, ring: number, outputs0: number, extra = 44) {
  const mixin = (ring === 0 ? 16 : ring) - 1;
  const outputs = outputs0 === 1 ? 2 : outputs0;
  if (!rct)
    return { size: inputs * (mixin + 1) * 80 + extra + outputs, weight: inputs * (mixin + 1) * 80 + extra + outputs };
  let logPadded = 0;
  while (1 << logPadded < outputs) logPadded++;
  const size =
    7 +
    inputs * (1 + 6 + 4 + (mixin + 1) * 2 + 32) +
    outputs * (2 + 4 + 6 + 32) +
    extra +
    1 +
    (2 * (6 + logPadded) + 6) * 32 +
    3 +
    inputs * (32 * (mixin + 1) + 64) +
    outputs +
    32 * inputs +
    8 * outputs +
    32 * outputs +
    4 +
    32;
  if (outputs <= 2) return { size, weight: size };
  let log2 = 2;
  while (1 << log2 < outputs) log2++;
  const base = (32 * (6 + 7 * 2)) / 2;
  const bpSize = 32 * (6 + 2 * (6 + log2));
  return { size, weight: size + Math.floor(((base * (1 << log2) - bpSize) * 4) / 5) };
}

/** PRE_VALIDATE_BACKGROUND_SYNC and the wallet's password check. */
function syncWallet(ctx: WalletRpcContext): Wallet {
  if (ctx.restricted) throw RESTRICTED();
  const w = need(ctx);
  if (w.keysFile.fromKeys && !w.keysFile.fromKeys.spendSecret)
    throw new RpcError(-29, 'Watch-only wallet cannot enable background sync');
  return w;
}

const checkPassword = (w: Wallet, password: string): void => {
  if (!deriveKey(password, w.key).key.equals(w.key.key)) throw new RpcError(-22, 'Invalid password.');
};

function backgroundSyncMethods(ctx: WalletRpcContext, def: Define): void {
  def(['setup_background_sync'], (raw) => {
    const p = P.setupSync.parse(raw);
    const w = syncWallet(ctx);
    if (!SYNC_TYPES.includes(p.background_sync_type)) throw new RpcError(-1, 'Unknown background sync type');
    checkPassword(w, p.wallet_password);
    meta(w).backgroundSync = { type: p.background_sync_type, syncing: false };
    return {};
  });
  def(['start_background_sync'], () => {
    const w = syncWallet(ctx);
    const sync = meta(w).backgroundSync;
    if (!sync || sync.type === 'off')
      throw new RpcError(-1, 'must setup background sync first before using background sync');
    sync.syncing = true;
    return {};
  });
  def(['stop_background_sync'], (raw) => {
    const p = P.stopSync.parse(raw);
    const w = syncWallet(ctx);
    checkPassword(w, p.wallet_password);
    const sync = meta(w).backgroundSync;
    if (!sync || sync.type === 'off')
      throw new RpcError(-1, 'must setup background sync first before using background sync');
    sync.syncing = false;
    return {};
  });
}

function daemonAndLogMethods(ctx: WalletRpcContext, def: Define): void {
  def(['auto_refresh'], (raw) => {
    const p = P.autoRefresh.parse(raw);
    if (ctx.restricted) throw RESTRICTED();
    ctx.autoRefreshPeriod = p.enable ? p.period || DEFAULT_AUTO_REFRESH_PERIOD : 0;
    const period = ctx.autoRefreshPeriod;
    ctx.log.log('I', `Auto refresh now ${period ? `${period} seconds` : 'disabled'}`, { quiet: true });
    return {};
  });
  def(['set_daemon'], (raw) => {
    const p = P.setDaemon.parse(raw);
    if (ctx.restricted) throw RESTRICTED();
    need(ctx);
    for (const fp of p.ssl_allowed_fingerprints) {
      if (!/^([0-9a-fA-F]{2})*$/.test(fp))
        throw new RpcError(-38, 'ssl_allowed_fingerprints[] entries must be hex-encoded SHA-256 values');
      if (fp.length !== 64)
        throw new RpcError(-38, 'Each ssl_allowed_fingerprints[] entry must decode to exactly 32 bytes');
    }
    if (!SSL_MODES.includes(p.ssl_support)) throw new RpcError(-38, 'Invalid ssl support mode');
    const strong = p.ssl_allow_any_cert || p.ssl_allowed_fingerprints.length > 0 || p.ssl_ca_file !== '';
    if (p.ssl_support === 'enabled' && !strong)
      throw new RpcError(-38, 'SSL is enabled but no user certificate or fingerprints were provided');
    if (p.address !== '') ctx.setDaemon(p.address);
    return {};
  });
  def(['set_log_level'], (raw) => {
    const p = P.logLevel.parse(raw);
    if (ctx.restricted) throw RESTRICTED();
    if (p.level > 4) throw new RpcError(-44, 'Error: log level not valid');
    return {};
  });
  def(['set_log_categories'], (raw) => {
    const p = P.logCategories.parse(raw);
    if (ctx.restricted) throw RESTRICTED();
    return { categories: p.categories };
  });
}

export function adminMethods(ctx: WalletRpcContext, def: Define): void {
  daemonAndLogMethods(ctx, def);
  backgroundSyncMethods(ctx, def);
  def(['estimate_tx_size_and_weight'], (raw) => {
    const p = P.estimate.parse(raw);
    need(ctx);
    if (p.n_inputs === 0 || p.n_inputs > 0x7fffffff || p.n_outputs > 0x7fffffff || p.ring_size > 0x7fffffff)
      throw new RpcError(-1, 'Failed to determine size and weight');
    return estimateTxSizeAndWeight(p.rct, p.n_inputs, p.ring_size, p.n_outputs);
  });
  def(['get_default_fee_priority'], () => {
    need(ctx);
    return { priority: 1 };
  });
  def(['is_multisig'], () => {
    notSyncing(ctx);
    return { kex_is_done: false, multisig: false, ready: false, threshold: 0, total: 0 };
  });
  for (const m of MULTISIG_REFUSED) def([m], notModelled(m, 'multisig wallets are not simulated'));
}
