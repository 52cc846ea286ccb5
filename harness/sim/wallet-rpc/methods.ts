// The simulated wallet RPC's JSON-RPC methods (reference §6, §7), with the real validation
// order, error codes and messages.
import { join } from 'node:path';
import { decodeAddress } from '../crypto/address.js';
import { fromHex as bytesFromHex } from '../crypto/hex.js';
import { seedToWords, wordsToSeed } from '../crypto/mnemonic.js';
import { WALLET_RPC_VERSION } from '../common/version.js';
import type { Logger } from '../common/log.js';
import { CARROT_MAX_OUTPUTS, HF_CARROT, HF_TOKENS, MAX_TOKEN_SUPPLY, MONEY_SUPPLY, tokenPrice } from '../chain/constants.js';
import { feeLevelForPriority } from '../chain/emission.js';
import { encode, toHex } from '../chain/codec.js';
import { RpcError, type Handler } from '../http/server.js';
import { bool, list, obj, params, str, u32, u64, u8 } from '../http/params.js';
import { buildCreateToken, buildSweep, buildTransfer, commit, spendable, type Built, type BuildContext } from '../wallet/build.js';
import type { DaemonClient } from '../wallet/daemon-client.js';
import { InvalidPassword, walletExists } from '../wallet/files.js';
import { isLanguage } from '../wallet/languages.js';
import { refresh, type ScanOptions } from '../wallet/scan.js';
import { loadWallet, newWallet, ownsAddress, primaryAddress, saveWallet, type Destination, type Wallet } from '../wallet/state.js';
import { getBalance, getTransfers } from '../wallet/views.js';

export interface WalletRpcContext {
  wallet: Wallet | null;
  daemon: DaemonClient;
  walletDir: string | undefined;
  restricted: boolean;
  scan: ScanOptions;
  log: Logger;
  /** Store the wallet and end the process shortly after answering. */
  stop: () => void;
}

const NO_WALLET = (): RpcError => new RpcError(-13, 'No wallet file');
const RESTRICTED = (): RpcError => new RpcError(-7, 'Command unavailable in restricted mode.');

const dest = obj({ amount: u64(), address: str(), asset_type: str() });
const transferShape = {
  destinations: list(dest),
  source_asset: str(),
  dest_asset: str(),
  tx_type: u8(),
  account_index: u32(),
  subaddr_indices: list(u32()),
  priority: u32(),
  ring_size: u64(),
  unlock_time: u64(),
  payment_id: str(),
  do_not_relay: bool(),
  get_tx_hex: bool(),
  get_tx_metadata: bool(),
};
const P = {
  balance: params({ account_index: u32(), address_indices: list(u32()), asset_type: str(), all_accounts: bool(), all_assets: bool(), strict: bool() }),
  address: params({ account_index: u32(), address_index: list(u32()), carrot: bool(true), cryptonote: bool(true) }),
  refresh: params({ start_height: u64() }),
  transfer: params({ ...transferShape, subtract_fee_from_outputs: list(u32()), get_tx_key: bool() }),
  transferSplit: params({ ...transferShape, get_tx_keys: bool() }),
  sweepAll: params({
    address: str(), account_index: u32(), subaddr_indices: list(u32()), subaddr_indices_all: bool(), priority: u32(), ring_size: u64(), outputs: u64(1n),
    unlock_time: u64(), payment_id: str(), get_tx_keys: bool(), below_amount: u64(), do_not_relay: bool(), get_tx_hex: bool(), get_tx_metadata: bool(), asset_type: str('SAL1'),
  }),
  sweepSingle: params({
    address: str(), priority: u32(), ring_size: u64(), outputs: u64(1n), unlock_time: u64(), payment_id: str(), get_tx_key: bool(), key_image: str(),
    do_not_relay: bool(), get_tx_hex: bool(), get_tx_metadata: bool(), asset_type: str('SAL1'),
  }),
  incoming: params({ transfer_type: str(), account_index: u32(), subaddr_indices: list(u32()) }),
  transfers: params({
    in: bool(), out: bool(), pending: bool(), failed: bool(), pool: bool(), filter_by_height: bool(), min_height: u64(), max_height: u64(500000000n),
    account_index: u32(), subaddr_indices: list(u32()), all_accounts: bool(),
  }),
  createToken: params({
    ticker: str(), supply: u64(), account_index: u32(), subaddr_indices: list(u32()), name: str(), url: str(), hash: str(), size: u64(),
    token_metadata_hex: str(), get_tx_keys: bool(), do_not_relay: bool(), get_tx_hex: bool(), get_tx_metadata: bool(),
  }),
  tokens: params({ regex: str() }),
  tokenInfo: params({ asset_type: str() }),
  createWallet: params({ filename: str(), password: str(), language: str() }),
  openWallet: params({ filename: str(), password: str(), autosave_current: bool(true) }),
  closeWallet: params({ autosave_current: bool(true) }),
  restore: params({ filename: str(), password: str(), seed: str(), restore_height: u64(), language: str(), seed_offset: str(), autosave_current: bool(true) }),
  queryKey: params({ key_type: str() }),
  validate: params({ address: str(), any_net_type: bool(), allow_openalias: bool() }),
  startMining: params({ threads_count: u64(1n), do_background_mining: bool(), ignore_battery: bool() }),
};

function need(ctx: WalletRpcContext, opts: { mutating?: boolean } = {}): Wallet {
  if (!ctx.wallet) throw NO_WALLET();
  if (opts.mutating && ctx.restricted) throw RESTRICTED();
  return ctx.wallet;
}

async function buildContext(ctx: WalletRpcContext, priority: number): Promise<BuildContext> {
  const [hf, fees] = await Promise.all([ctx.daemon.nextHardFork(), ctx.daemon.fees()]);
  return { hf, feePerByte: fees[feeLevelForPriority(priority)] ?? fees[0] ?? 0n, now: Math.floor(Date.now() / 1000) };
}

/** Validate destinations as `validate_transfer` does: each address, then the list, then the payment id. */
function validateDestinations(dests: { amount: bigint; address: string; asset_type: string }[], paymentId: string): Destination[] {
  let integrated = 0;
  for (const d of dests) {
    const a = decodeAddress(d.address);
    if (!a || a.coin !== 'salvium' || a.network !== 'testnet') throw new RpcError(-2, `WALLET_RPC_ERROR_CODE_WRONG_ADDRESS: ${d.address}`);
    if (a.type === 'integrated') integrated++;
  }
  if (integrated > 1) throw new RpcError(-5, 'A single payment id is allowed per transaction');
  if (dests.length === 0) throw new RpcError(-20, 'Transaction has no destination');
  if (paymentId !== '') throw new RpcError(-5, 'Standalone payment IDs are obsolete. Use subaddresses or integrated addresses instead');
  return dests.map((d) => ({ address: d.address, amount: d.amount, asset: d.asset_type }));
}

/** Address family must match the fork (§6 transfer). */
function checkFamilies(dests: Destination[], hf: number): void {
  for (const d of dests) {
    const family = decodeAddress(d.address)?.family;
    if (hf >= HF_CARROT && family === 'cn') throw new RpcError(-4, 'CryptoNote address supplied, but Carrot is now active');
    if (hf < HF_CARROT && family === 'carrot') throw new RpcError(-4, 'Carrot address supplied, but Carrot not yet active');
  }
}

/**
 * The outputs count of a Carrot sweep (make_carrot_transaction_proposals_wallet2_sweep), checked
 * after the inputs: every sweep tx also gets a self-send change output, so at most 7 outputs go
 * to another wallet, and 8 to the wallet itself make 9 outputs. More than 8 is refused first.
 */
function checkSweepOutputs(w: Wallet, address: string, outputs: bigint): void {
  if (outputs > BigInt(CARROT_MAX_OUTPUTS)) throw new RpcError(-4, 'too many sweep destinations per transaction');
  if (outputs < BigInt(CARROT_MAX_OUTPUTS)) return;
  if (!ownsAddress(w, address)) throw new RpcError(-4, 'too many *outgoing* sweep destinations per tx, we also need 1 self-send output');
  throw new RpcError(-4, `get_carrot_default_tx_extra_size: n_outputs too high: ${outputs + 1n}`);
}

/** Submit built txs to the daemon (unless do_not_relay), then mark them pending. */
async function relay(ctx: WalletRpcContext, w: Wallet, built: Built[], doNotRelay: boolean, code: number): Promise<void> {
  if (doNotRelay) return;
  for (const b of built) {
    const res = await ctx.daemon.send(b.tx);
    if (!res.ok) {
      ctx.log.log('E', `Transaction rejected by daemon: ${res.reason}`);
      throw new RpcError(code, 'transaction was rejected by daemon');
    }
  }
  commit(w, built);
  saveWallet(w);
}

const sortedKeyImages = (b: Built): string[] => b.tx.inputs.map((i) => i.keyImage).sort().reverse();
const txHex = (b: Built): string => toHex(encode(b.tx));
const ZERO_KEY = '0'.repeat(64);

function singleResponse(b: Built, o: { getTxKey: boolean; getTxHex: boolean; getTxMetadata: boolean }): Record<string, unknown> {
  return {
    amount: b.amount,
    amounts_by_dest: { amounts: b.destAmounts },
    fee: b.fee,
    multisig_txset: '',
    spent_key_images: { key_images: sortedKeyImages(b) },
    tx_blob: o.getTxHex ? txHex(b) : '',
    tx_hash: b.tx.txid,
    tx_key: o.getTxKey ? ZERO_KEY : '',
    tx_metadata: o.getTxMetadata ? txHex(b) : '',
    unsigned_txset: '',
    weight: b.tx.weight,
  };
}

function splitResponse(built: Built[], o: { getTxKeys: boolean; getTxHex: boolean; getTxMetadata: boolean }): Record<string, unknown> {
  return {
    amount_list: built.map((b) => b.amount),
    amounts_by_dest_list: built.map((b) => ({ amounts: b.destAmounts })),
    fee_list: built.map((b) => b.fee),
    multisig_txset: '',
    spent_key_images_list: built.map((b) => ({ key_images: sortedKeyImages(b) })),
    tx_blob_list: o.getTxHex ? built.map(txHex) : [],
    tx_hash_list: built.map((b) => b.tx.txid),
    tx_key_list: o.getTxKeys ? built.map(() => ZERO_KEY) : [],
    tx_metadata_list: o.getTxMetadata ? built.map(txHex) : [],
    unsigned_txset: '',
    weight_list: built.map((b) => b.tx.weight),
  };
}

async function doRefresh(ctx: WalletRpcContext, w: Wallet): Promise<{ blocksFetched: number; receivedMoney: boolean }> {
  const r = await refresh(w, ctx.daemon, ctx.scan);
  for (const e of r.events) ctx.log.log('W', e);
  if (r.blocksFetched > 0 || r.receivedMoney) saveWallet(w);
  return r;
}

function walletPath(ctx: WalletRpcContext, filename: string): string {
  if (!ctx.walletDir) throw new RpcError(-23, 'No wallet dir configured');
  if (filename.includes('/') || filename.includes('\\') || filename === '.' || filename === '..') throw new RpcError(-1, 'Invalid filename');
  return join(ctx.walletDir, filename);
}

function replaceWallet(ctx: WalletRpcContext, next: Wallet | null, autosave: boolean): void {
  if (ctx.wallet && autosave) saveWallet(ctx.wallet);
  ctx.wallet = next;
}

/** create_token, in the order of checks of §7.1. */
async function createToken(ctx: WalletRpcContext, raw: unknown): Promise<Record<string, unknown>> {
  const p = P.createToken.parse(raw as never);
  const w = need(ctx, { mutating: true });
  let hf: number;
  try {
    hf = await ctx.daemon.nextHardFork();
  } catch {
    throw new RpcError(0, ''); // the exception escapes the real handler
  }
  if (hf < HF_TOKENS) throw new RpcError(-7, 'Create_token is not available yet.');
  if (p.ticker === '') throw new RpcError(-7, 'Empty ticker is not allowed.');
  const ticker = p.ticker.toUpperCase();
  if ([...ticker].length !== 4) throw new RpcError(-7, 'Asset type must be exactly 4 characters long.');
  if (!/^[A-Z0-9]{4}$/.test(ticker)) throw new RpcError(-7, 'Asset type can only contain uppercase letters and digits.');
  if (ticker.startsWith('SAL')) throw new RpcError(-7, "Asset type cannot start with 'SAL'.");
  if (['SAL', 'SAL1', 'SAL2', 'BURN'].includes(ticker)) throw new RpcError(-7, 'Asset type is reserved and cannot be used.');
  let existing: unknown[];
  try {
    existing = ((await ctx.daemon.jsonRpc('get_tokens', { filter: ticker })).tokens as unknown[] | undefined) ?? [];
  } catch {
    throw new RpcError(-7, 'Failed to get token data.');
  }
  if (existing.length > 0) throw new RpcError(-7, 'Token already exists.');
  if (p.supply < 1n || p.supply > MONEY_SUPPLY) throw new RpcError(-7, 'Supply amount must be between 1 and MONEY_SUPPLY.');
  if (p.hash !== '' && !/^[0-9a-fA-F]{64}$/.test(p.hash)) throw new RpcError(0, 'Invalid hash format.');
  if (p.supply > MAX_TOKEN_SUPPLY) {
    ctx.log.log('E', 'token_supply < 1 || token_supply > (MONEY_SUPPLY / COIN). THROW EXCEPTION: error::wallet_internal_error');
    throw new RpcError(-1, `Token supply is limited to 1-${MAX_TOKEN_SUPPLY}`);
  }
  const metadataHex = p.token_metadata_hex !== '' ? p.token_metadata_hex : toHex(`{"name":"${p.name}","size":${p.size},"hash":"${p.hash}","url":"${p.url}"}`);
  if (metadataHex.length >= 2048 * 2) throw new RpcError(-1, 'Metadata too long (max 2048 bytes permitted)');
  if (metadataHex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(metadataHex)) {
    ctx.log.log('E', '!epee::string_tools::parse_hexstr_to_binbuff(token_metadata_hex, metadata_blob). THROW EXCEPTION: error::wallet_internal_error');
    throw new RpcError(-1, 'Failed to parse metadata hex');
  }
  let meta: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(metadataHex, 'hex').toString('utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    meta = parsed as Record<string, unknown>;
  } catch {
    throw new RpcError(-1, 'Metadata is not valid JSON');
  }
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  const size = typeof meta.size === 'number' && Number.isInteger(meta.size) && meta.size >= 0 ? BigInt(meta.size) : 0n;
  const bctx = await buildContext(ctx, 0);
  const built = buildCreateToken(w, bctx, { ticker, supply: p.supply, name: text(meta.name), url: text(meta.url), hash: text(meta.hash), size, metadataHex }, tokenPrice(ticker));
  await relay(ctx, w, [built], p.do_not_relay, -1);
  return splitResponse([built], { getTxKeys: p.get_tx_keys, getTxHex: p.get_tx_hex, getTxMetadata: p.get_tx_metadata });
}

export function walletMethods(ctx: WalletRpcContext): Map<string, Handler> {
  const m = new Map<string, Handler>();
  const def = (names: string[], h: Handler): void => names.forEach((n) => m.set(n, h));

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
  const transfer = async (raw: unknown, split: boolean): Promise<Record<string, unknown>> => {
    const p = split ? P.transferSplit.parse(raw as never) : P.transfer.parse(raw as never);
    const w = need(ctx, { mutating: true });
    const dests = validateDestinations(p.destinations, p.payment_id);
    const bctx = await buildContext(ctx, p.priority);
    checkFamilies(dests, bctx.hf);
    if (dests.some((d) => d.amount === 0n)) throw new RpcError(-46, 'destination amount is zero');
    const built = buildTransfer(w, bctx, { destinations: dests, sourceAsset: p.source_asset, txType: p.tx_type, split });
    await relay(ctx, w, built, p.do_not_relay, -4);
    if (split) return splitResponse(built, { getTxKeys: 'get_tx_keys' in p && p.get_tx_keys, getTxHex: p.get_tx_hex, getTxMetadata: p.get_tx_metadata });
    return singleResponse(built[0]!, { getTxKey: 'get_tx_key' in p && p.get_tx_key, getTxHex: p.get_tx_hex, getTxMetadata: p.get_tx_metadata });
  };
  def(['transfer'], (raw) => transfer(raw, false));
  def(['transfer_split'], (raw) => transfer(raw, true));
  def(['sweep_all'], async (raw) => {
    const p = P.sweepAll.parse(raw);
    const w = need(ctx, { mutating: true });
    const [d] = validateDestinations([{ amount: 0n, address: p.address, asset_type: p.asset_type }], p.payment_id);
    if (p.outputs < 1n) throw new RpcError(-16, 'Amount of outputs should be greater than 0.');
    const bctx = await buildContext(ctx, p.priority);
    checkFamilies([d!], bctx.hf);
    const inputs = spendable(w, p.asset_type, bctx.hf).filter((o) => p.below_amount === 0n || o.amount < p.below_amount);
    if (bctx.hf >= HF_CARROT) {
      // make_carrot_transaction_proposals_wallet2_sweep_all: the asset's transfers, the usable ones, then the outputs count.
      if (!w.state.assetsSeen.includes(p.asset_type)) throw new RpcError(-4, 'invalid asset_type specified to get_transfers');
      if (inputs.filter((o) => o.amount > 0n).length === 0) throw new RpcError(-4, 'make_carrot_transaction_proposals_wallet2_sweep_all: no usable transfers to sweep');
      checkSweepOutputs(w, p.address, p.outputs);
    } else if (inputs.length === 0) throw new RpcError(-4, 'No unlocked balance in the specified account');
    const built = buildSweep(w, bctx, { inputs, address: p.address, outputs: Number(p.outputs), asset: p.asset_type, code: -4 });
    await relay(ctx, w, built, p.do_not_relay, -4);
    return splitResponse(built, { getTxKeys: p.get_tx_keys, getTxHex: p.get_tx_hex, getTxMetadata: p.get_tx_metadata });
  });
  def(['sweep_single'], async (raw) => {
    const p = P.sweepSingle.parse(raw);
    const w = need(ctx, { mutating: true });
    if (p.outputs < 1n) throw new RpcError(-16, 'Amount of outputs should be greater than 0.');
    const [d] = validateDestinations([{ amount: 0n, address: p.address, asset_type: p.asset_type }], p.payment_id);
    if (!/^[0-9a-fA-F]{64}$/.test(p.key_image)) throw new RpcError(-10, 'failed to parse key image');
    const bctx = await buildContext(ctx, p.priority);
    checkFamilies([d!], bctx.hf);
    if (bctx.hf >= HF_CARROT) {
      // Salvium 1.1.3c's wallet2::create_transactions_single builds the Carrot sweep proposal with
      // every check below, then returns no transaction (the step that turns proposals into pending
      // txs is a TODO there): sweep_single can never send anything from HF10. Established on the
      // real programs (README, "Established on the real programs").
      if (p.outputs > BigInt(CARROT_MAX_OUTPUTS)) throw new RpcError(-4, 'too many sweep destinations per transaction');
      const owned = w.state.outputs.find((o) => o.keyImage === p.key_image.toLowerCase());
      if (!owned) throw new RpcError(-4, 'Key image not found');
      if (owned.spent || w.state.height < owned.unlockHeight) throw new RpcError(-4, 'make_carrot_transaction_proposals_wallet2_sweep: transfer not usable as an input');
      checkSweepOutputs(w, p.address, p.outputs);
      throw new RpcError(-1, 'No outputs found');
    }
    const output = w.state.outputs.find((o) => o.keyImage === p.key_image.toLowerCase() && !o.spent);
    if (!output || w.state.height < output.unlockHeight) throw new RpcError(-1, 'No outputs found');
    const built = buildSweep(w, bctx, { inputs: [output], address: p.address, outputs: Number(p.outputs), asset: output.asset, code: -1 });
    await relay(ctx, w, built, p.do_not_relay, -4);
    return singleResponse(built[0]!, { getTxKey: p.get_tx_key, getTxHex: p.get_tx_hex, getTxMetadata: p.get_tx_metadata });
  });
  def(['get_transfers'], (raw) => {
    const p = P.transfers.parse(raw);
    return getTransfers(need(ctx), {
      in: p.in, out: p.out, pending: p.pending, failed: p.failed, pool: p.pool,
      filterByHeight: p.filter_by_height, minHeight: p.min_height, maxHeight: p.max_height,
    });
  });
  def(['incoming_transfers'], (raw) => {
    const p = P.incoming.parse(raw);
    const w = need(ctx);
    // transfer_type has no default: a request without it is refused too.
    if (!['all', 'available', 'unavailable'].includes(p.transfer_type)) throw new RpcError(-6, 'Transfer type must be one of: all, available, or unavailable');
    // Only account 0, index 0 exists here (subaddresses are not simulated).
    const inAccount = p.account_index === 0 && (p.subaddr_indices.length === 0 || p.subaddr_indices.includes(0));
    const outs = w.state.outputs.filter((o) => inAccount && (p.transfer_type === 'all' || (p.transfer_type === 'available') === !o.spent));
    return {
      // The real entries carry no asset_type.
      transfers: outs.map((o) => ({
        amount: o.amount, block_height: o.blockIndex, frozen: false, global_index: o.globalIndex ?? 0, key_image: o.keyImage,
        pubkey: o.id.slice(0, 64), spent: o.spent, subaddr_index: { major: 0, minor: 0 }, tx_hash: o.txid, unlocked: w.state.height >= o.unlockHeight,
      })),
    };
  });
  def(['create_token'], (raw) => createToken(ctx, raw));
  def(['get_tokens'], async (raw) => {
    const p = P.tokens.parse(raw);
    need(ctx);
    try {
      const res = await ctx.daemon.jsonRpc('get_tokens', { filter: p.regex });
      return { tokens: (res.tokens as string[] | undefined) ?? [] };
    } catch {
      throw new RpcError(-1, 'Failed to get token data from wallet.');
    }
  });
  def(['get_token_info'], async (raw) => {
    const p = P.tokenInfo.parse(raw);
    need(ctx);
    let res: Record<string, unknown>;
    try {
      res = await ctx.daemon.jsonRpc('get_token_info', { asset_type: p.asset_type });
    } catch {
      throw new RpcError(-1, 'Failed to query daemon for token info');
    }
    if (res.status !== 'OK') throw new RpcError(-1, 'Failed to query daemon for token info');
    return { asset_type: res['token.asset_type'], sal_token: res.sal_token, status: 'OK', token_type: res.token_type, version: res['token.version'] };
  });
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
    const w = newWallet(path, p.password, { seed, language: p.language || 'English', refreshFrom: Number(p.restore_height) });
    saveWallet(w);
    replaceWallet(ctx, w, p.autosave_current);
    return { address: primaryAddress(w), info: 'Wallet has been restored successfully.', seed: p.seed, was_deprecated: false };
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
  def(['validate_address'], (raw) => {
    const p = P.validate.parse(raw);
    const a = decodeAddress(p.address);
    const ok = !!a && a.coin === 'salvium' && (p.any_net_type || a.network === 'testnet');
    return { integrated: ok && a?.type === 'integrated', nettype: ok ? a?.network : '', openalias_address: '', subaddress: ok && a?.type === 'subaddress', valid: ok };
  });
  def(['get_languages'], () => ({ languages: ['Deutsch', 'English', 'Español', 'Français', 'Italiano', 'Nederlands', 'Português', 'русский язык', '日本語', '简体中文 (中国)', 'Esperanto', 'Lojban'], languages_local: [] }));
  def(['start_mining'], async (raw) => {
    P.startMining.parse(raw);
    const w = need(ctx, { mutating: true });
    const res = await ctx.daemon.post('/start_mining', { miner_address: w.keys.cn.address, threads_count: 1, do_background_mining: false, ignore_battery: true });
    if (res.status !== 'OK') throw new RpcError(-1, "Couldn't start mining due to unknown error.");
    return {};
  });
  def(['stop_mining'], async () => {
    need(ctx, { mutating: true });
    const res = await ctx.daemon.post('/stop_mining', {});
    if (res.status !== 'OK') throw new RpcError(-1, "Couldn't stop mining due to unknown error.");
    return {};
  });
  return m;
}
