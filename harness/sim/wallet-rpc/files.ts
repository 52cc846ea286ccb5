// Wallet files and keys (wallet_rpc_server.cpp on_create_wallet … on_generate_from_keys, on_query_key,
// on_change_wallet_password): creating, restoring, generating, opening, closing and storing, with the
// real order of checks and messages (recorded from salvium-wallet-rpc v1.1.3c: test/sim/wallet-rpc.test.ts,
// test/sim/wallet-recorded.test.ts).
import { join } from 'node:path';
import { decodeAddress } from '../crypto/address.js';
import { fromHex as bytesFromHex } from '../crypto/hex.js';
import { seedToWords, wordsToSeed } from '../crypto/mnemonic.js';
import { RpcError } from '../http/server.js';
import { bool, params, str, u64 } from '../http/params.js';
import { deriveKey, InvalidPassword, walletExists } from '../wallet/files.js';
import { isLanguage } from '../wallet/languages.js';
import { isWatchOnly, loadWallet, newWallet, primaryAddress, saveWallet, type Wallet } from '../wallet/state.js';
import { RESTRICTED, guard, need, notSyncing, type Define, type WalletRpcContext } from './context.js';

const P = {
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
  fromKeys: params({
    restore_height: u64(),
    filename: str(),
    address: str(),
    spendkey: str(),
    viewkey: str(),
    password: str(),
    autosave_current: bool(true),
    language: str(),
  }),
  queryKey: params({ key_type: str() }),
  changePassword: params({ old_password: str(), new_password: str() }),
};

const isKey = (hex: string): boolean => /^[0-9a-fA-F]{64}$/.test(hex);

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

/** on_generate_from_keys, in its order of checks; no key is checked against the address (wallet2::generate). */
function generateFromKeys(ctx: WalletRpcContext, raw: unknown): Record<string, unknown> {
  const p = P.fromKeys.parse(raw as never);
  if (!ctx.walletDir) throw new RpcError(-23, 'No wallet dir configured');
  if (p.viewkey === '')
    throw new RpcError(-1, "field 'viewkey' is mandatory. Please provide a view key you want to restore from.");
  if (p.address === '') throw new RpcError(-1, "field 'address' is mandatory. Please provide a public address.");
  if (p.filename.includes('/')) throw new RpcError(-1, 'Invalid filename');
  const path = p.filename === '' ? null : join(ctx.walletDir, p.filename);
  if (path && walletExists(path)) throw new RpcError(-1, 'Wallet already exists.');
  const a = decodeAddress(p.address);
  if (!a || a.coin !== 'salvium' || a.network !== 'testnet') throw new RpcError(-1, 'Failed to parse public address');
  if (!isKey(p.viewkey)) throw new RpcError(-1, 'Failed to parse view key secret key');
  if (ctx.wallet && p.autosave_current) saveWallet(ctx.wallet);
  if (p.spendkey !== '' && !isKey(p.spendkey)) throw new RpcError(-1, 'Failed to parse spend key secret key');
  if (p.language !== '' && !isLanguage(p.language)) throw new RpcError(-1, 'The specified seed language is invalid.');
  const fromKeys = { address: p.address, spendSecret: p.spendkey.toLowerCase(), viewSecret: p.viewkey.toLowerCase() };
  const w = newWallet(path, p.password, {
    fromKeys,
    language: p.language || 'English',
    refreshFrom: Number(p.restore_height),
  });
  saveWallet(w);
  ctx.wallet = w;
  const info = p.spendkey
    ? 'Wallet has been generated successfully.'
    : 'Watch-only wallet has been generated successfully.';
  return { address: w.keys.cn.address, info };
}

function queryKey(ctx: WalletRpcContext, raw: unknown): Record<string, unknown> {
  const p = P.queryKey.parse(raw as never);
  const w = need(ctx);
  if (ctx.restricted) throw RESTRICTED();
  const watchOnly = isWatchOnly(w);
  const secret = (what: string, key: () => string): Record<string, unknown> => {
    if (watchOnly) throw new RpcError(-29, `The wallet is watch-only. Cannot retrieve ${what}.`);
    notSyncing(ctx);
    return { key: key() };
  };
  switch (p.key_type) {
    case 'mnemonic':
      if (watchOnly) throw new RpcError(-29, 'The wallet is watch-only. Cannot retrieve seed.');
      notSyncing(ctx);
      if (w.keysFile.seed === '') throw new RpcError(-1, 'Failed to get seed.');
      return { key: seedToWords(bytesFromHex(w.keysFile.seed)).join(' ') };
    case 'view_key':
      return { key: w.keys.cn.viewSecret };
    case 'spend_key':
      return secret('spend key', () => w.keys.cn.spendSecret);
    case 's_master':
      return secret('s_master key', () => w.keys.cn.spendSecret);
    case 'k_prove_spend':
      return secret('k_prove_spend key', () => w.keys.carrot.spendSecret);
    // A wallet generated from keys has no Carrot keys: zeros.
    case 's_view_balance':
      return { key: w.keys.carrot.viewBalance };
    case 'k_view_incoming':
      return { key: w.keys.carrot.viewSecret };
    case 'k_generate_image':
      return { key: w.keys.carrot.generateImage };
    case 's_generate_address':
      return { key: w.keys.carrot.generateAddress };
    default:
      throw new RpcError(0, `key_type ${p.key_type} not found`);
  }
}

function createAndRestore(ctx: WalletRpcContext, def: Define): void {
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
  def(['restore_deterministic_wallet'], (raw) => {
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
  def(['generate_from_keys'], (raw) => generateFromKeys(ctx, raw));
}

/** Creating, restoring, opening, closing and storing wallet files, their keys and password. */
export function fileMethods(ctx: WalletRpcContext, def: Define): void {
  createAndRestore(ctx, def);
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
  def(['query_key'], (raw) => queryKey(ctx, raw));
  def(['change_wallet_password'], (raw) => {
    const p = P.changePassword.parse(raw);
    const w = guard(ctx);
    if (!deriveKey(p.old_password, w.key).key.equals(w.key.key)) throw new RpcError(-22, 'Invalid original password.');
    w.key = deriveKey(p.new_password);
    saveWallet(w);
    ctx.log.log('I', 'Wallet password changed.');
    return {};
  });
}
