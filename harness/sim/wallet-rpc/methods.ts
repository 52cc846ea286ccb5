// The simulated wallet RPC's JSON-RPC methods: every method of the real salvium-wallet-rpc v1.1.3c
// (src/wallet/wallet_rpc_server.h; docs/sim-coverage.md), each modelled with the real validation order,
// error codes and messages, or refused on purpose (http/not-modelled.ts). This file holds the
// wallet's height, refresh, address validation, languages and mining, and registers the others by
// area: files.ts, accounts.ts, transfers.ts, lookup.ts, book.ts, proofs.ts, outputs.ts, relay.ts,
// tokens.ts, admin.ts; what they share is in context.ts.
import { decodeAddress } from '../crypto/address.js';
import { WALLET_RPC_VERSION } from '../common/version.js';
import { RpcError, type Handler } from '../http/server.js';
import { bool, params, str, u64 } from '../http/params.js';
import { LANGUAGES } from '../wallet/languages.js';
import { accountsMethods } from './accounts.js';
import { adminMethods } from './admin.js';
import { bookMethods } from './book.js';
import { doRefresh, need, type Define, type WalletRpcContext } from './context.js';
import { fileMethods } from './files.js';
import { lookupMethods } from './lookup.js';
import { outputMethods } from './outputs.js';
import { proofMethods } from './proofs.js';
import { relayMethods } from './relay.js';
import { tokenMethods } from './tokens.js';
import { transferMethods } from './transfers.js';

export type { WalletRpcContext } from './context.js';

const P = {
  refresh: params({ start_height: u64() }),
  validate: params({ address: str(), any_net_type: bool(), allow_openalias: bool() }),
  startMining: params({ threads_count: u64(1n), do_background_mining: bool(), ignore_battery: bool() }),
};

/** Version, height, refresh, address validation, languages and mining. */
function walletStateMethods(ctx: WalletRpcContext, def: Define): void {
  def(['get_version'], () => ({ release: false, version: WALLET_RPC_VERSION }));
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
  // As recorded: the English names, then the names in their own languages.
  def(['get_languages'], () => ({
    languages: LANGUAGES.map((l) => l.english),
    languages_local: LANGUAGES.map((l) => l.native),
  }));
  miningMethods(ctx, def);
}

function miningMethods(ctx: WalletRpcContext, def: Define): void {
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

export function walletMethods(ctx: WalletRpcContext): Map<string, Handler> {
  const m = new Map<string, Handler>();
  const def: Define = (names, h) => names.forEach((n) => m.set(n, h));
  for (const area of [
    walletStateMethods,
    fileMethods,
    accountsMethods,
    transferMethods,
    lookupMethods,
    bookMethods,
    proofMethods,
    outputMethods,
    relayMethods,
    tokenMethods,
    adminMethods,
  ])
    area(ctx, def);
  return m;
}
