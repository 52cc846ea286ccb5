// The simulated wallet RPC's JSON-RPC methods (reference §6, §7), with the real validation
// order, error codes and messages: the wallet's own state and files here, sending in
// transfers.ts, tokens in tokens.ts, what they share in context.ts.
import { join } from 'node:path';
import { decodeAddress } from '../crypto/address.js';
import { fromHex as bytesFromHex } from '../crypto/hex.js';
import { seedToWords, wordsToSeed } from '../crypto/mnemonic.js';
import { WALLET_RPC_VERSION } from '../common/version.js';
import { RpcError, type Handler } from '../http/server.js';
import { bool, list, params, str, u32, u64 } from '../http/params.js';
import { InvalidPassword, walletExists } from '../wallet/files.js';
import { isLanguage } from '../wallet/languages.js';
import { loadWallet, newWallet, primaryAddress, saveWallet, type Wallet } from '../wallet/state.js';
import { getBalance } from '../wallet/views.js';
import { RESTRICTED, doRefresh, need, type Define, type WalletRpcContext } from './context.js';
import { tokenMethods } from './tokens.js';
import { transferMethods } from './transfers.js';

export type { WalletRpcContext } from './context.js';

const P = {
  balance: params({
    account_index: u32(),
    address_indices: list(u32()),
    asset_type: str(),
    all_accounts: bool(),
    all_assets: bool(),
    strict: bool(),
  }),
  address: params({ account_index: u32(), address_index: list(u32()), carrot: bool(true), cryptonote: bool(true) }),
  refresh: params({ start_height: u64() }),
  createWallet: params({ filename: str(), password: str(), language: str() }),
  openWallet: params({ filename: str(), password: str(), autosave_current: bool(true) }),
  closeWallet: params({ autosave_current: bool(true) }),
  restore: params({
    filename: str(),
    password: str(),
    seed: str(),
    restore_height: u64(),
    language: str(),
    seed_offset: str(),
    autosave_current: bool(true),
  }),
  queryKey: params({ key_type: str() }),
  validate: params({ address: str(), any_net_type: bool(), allow_openalias: bool() }),
  startMining: params({ threads_count: u64(1n), do_background_mining: bool(), ignore_battery: bool() }),
};

function walletPath(ctx: WalletRpcContext, filename: string): string {
  if (!ctx.walletDir) throw new RpcError(-23, 'No wallet dir configured');
  if (filename.includes('/') || filename.includes('\\') || filename === '.' || filename === '..')
    throw new RpcError(-1, 'Invalid filename');
  return join(ctx.walletDir, filename);
}

function replaceWallet(ctx: WalletRpcContext, next: Wallet | null, autosave: boolean): void {
  if (ctx.wallet && autosave) saveWallet(ctx.wallet);
  ctx.wallet = next;
}

/** Version, balance, address, height, refresh, address validation, languages and mining. */
function walletStateMethods(ctx: WalletRpcContext, def: Define): void {
  def(['get_version'], () => ({ release: false, version: WALLET_RPC_VERSION }));
  def(['get_balance', 'getbalance'], (raw) => {
    const p = P.balance.parse(raw);
    return getBalance(need(ctx), p.asset_type, p.all_assets);
  });
  def(['get_address', 'getaddress'], (raw) => {
    const p = P.address.parse(raw);
    const w = need(ctx);
    if (p.account_index !== 0) throw new RpcError(-14, 'Account index is out of bound');
    if (p.address_index.some((i) => i !== 0)) throw new RpcError(-15, 'Address index is out of bound');
    const used = w.state.outputs.length > 0;
    return {
      address: primaryAddress(w),
      addresses: [
        {
          address: primaryAddress(w),
          address_carrot: p.carrot ? w.keys.carrot.address : '',
          address_cn: p.cryptonote ? w.keys.cn.address : '',
          address_index: 0,
          label: 'Primary account',
          used,
        },
      ],
    };
  });
  def(['get_height', 'getheight'], () => ({ height: need(ctx).state.height }));
  def(['refresh'], async (raw) => {
    P.refresh.parse(raw);
    const w = need(ctx, { mutating: true });
    const r = await doRefresh(ctx, w);
    return { blocks_fetched: r.blocksFetched, received_money: r.receivedMoney };
  });
  def(['validate_address'], (raw) => {
    const p = P.validate.parse(raw);
    const a = decodeAddress(p.address);
    const ok = !!a && a.coin === 'salvium' && (p.any_net_type || a.network === 'testnet');
    return {
      integrated: ok && a?.type === 'integrated',
      nettype: ok ? a?.network : '',
      openalias_address: '',
      subaddress: ok && a?.type === 'subaddress',
      valid: ok,
    };
  });
  def(['get_languages'], () => ({
    languages: [
      'Deutsch',
      'English',
      'Español',
      'Français',
      'Italiano',
      'Nederlands',
      'Português',
      'русский язык',
      '日本語',
      '简体中文 (中国)',
      'Esperanto',
      'Lojban',
    ],
    languages_local: [],
  }));
  def(['start_mining'], async (raw) => {
    P.startMining.parse(raw);
    const w = need(ctx, { mutating: true });
    const res = await ctx.daemon.post('/start_mining', {
      miner_address: w.keys.cn.address,
      threads_count: 1,
      do_background_mining: false,
      ignore_battery: true,
    });
    if (res.status !== 'OK') throw new RpcError(-1, "Couldn't start mining due to unknown error.");
    return {};
  });
  def(['stop_mining'], async () => {
    need(ctx, { mutating: true });
    const res = await ctx.daemon.post('/stop_mining', {});
    if (res.status !== 'OK') throw new RpcError(-1, "Couldn't stop mining due to unknown error.");
    return {};
  });
}

/** Creating, restoring, opening, closing and storing wallet files, and their keys. */
function walletFileMethods(ctx: WalletRpcContext, def: Define): void {
  def(['create_wallet'], async (raw) => {
    const p = P.createWallet.parse(raw);
    if (!ctx.walletDir) throw new RpcError(-23, 'No wallet dir configured');
    const path = p.filename === '' ? null : walletPath(ctx, p.filename);
    if (!isLanguage(p.language)) throw new RpcError(-1, `Unknown language: ${p.language}`);
    if (path && walletExists(path)) throw new RpcError(-21, 'Cannot create wallet. Already exists.');
    const refreshFrom = await ctx.daemon.height().catch(() => 0);
    const w = newWallet(path, p.password, { language: p.language, refreshFrom });
    saveWallet(w);
    replaceWallet(ctx, w, true);
    return {};
  });
  def(['restore_deterministic_wallet'], async (raw) => {
    const p = P.restore.parse(raw);
    if (!ctx.walletDir) throw new RpcError(-23, 'No wallet dir configured');
    const path = p.filename === '' ? null : walletPath(ctx, p.filename);
    if (path && walletExists(path)) throw new RpcError(-21, 'Cannot create wallet. Already exists.');
    let seed: Uint8Array;
    try {
      seed = wordsToSeed(p.seed);
    } catch {
      throw new RpcError(-1, 'Electrum-style word list failed verification');
    }
    const w = newWallet(path, p.password, {
      seed,
      language: p.language || 'English',
      refreshFrom: Number(p.restore_height),
    });
    saveWallet(w);
    replaceWallet(ctx, w, p.autosave_current);
    return {
      address: primaryAddress(w),
      info: 'Wallet has been restored successfully.',
      seed: p.seed,
      was_deprecated: false,
    };
  });
  def(['open_wallet'], (raw) => {
    const p = P.openWallet.parse(raw);
    const path = walletPath(ctx, p.filename);
    let w: Wallet;
    try {
      w = loadWallet(path, p.password);
    } catch (err) {
      if (err instanceof InvalidPassword) throw new RpcError(-1, 'Failed to open wallet : Invalid password.');
      throw new RpcError(-1, `Failed to open wallet : file not found "${path}.keys"`);
    }
    replaceWallet(ctx, w, p.autosave_current);
    return {};
  });
  def(['close_wallet'], (raw) => {
    const p = P.closeWallet.parse(raw);
    need(ctx);
    replaceWallet(ctx, null, p.autosave_current);
    return {};
  });
  def(['store'], () => {
    saveWallet(need(ctx, { mutating: true }));
    return {};
  });
  def(['stop_wallet'], () => {
    if (ctx.wallet) saveWallet(ctx.wallet);
    setImmediate(ctx.stop);
    return {};
  });
  def(['query_key'], (raw) => {
    const p = P.queryKey.parse(raw);
    const w = need(ctx);
    if (ctx.restricted) throw RESTRICTED();
    if (p.key_type === 'mnemonic') return { key: seedToWords(bytesFromHex(w.keysFile.seed)).join(' ') };
    if (p.key_type === 'view_key') return { key: w.keys.cn.viewSecret };
    if (p.key_type === 'spend_key') return { key: w.keys.cn.spendSecret };
    throw new RpcError(-29, 'key_type ' + p.key_type + ' not found');
  });
}

export function walletMethods(ctx: WalletRpcContext): Map<string, Handler> {
  const m = new Map<string, Handler>();
  const def: Define = (names, h) => names.forEach((n) => m.set(n, h));
  walletStateMethods(ctx, def);
  walletFileMethods(ctx, def);
  transferMethods(ctx, def);
  tokenMethods(ctx, def);
  return m;
}
