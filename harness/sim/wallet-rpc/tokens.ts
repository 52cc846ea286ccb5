// The wallet RPC's token methods (reference §7): create_token with the real order of checks,
// get_tokens and get_token_info (both asked of the daemon).
import { HF_TOKENS, MAX_TOKEN_SUPPLY, MONEY_SUPPLY, tokenPrice } from '../chain/constants.js';
import { toHex } from '../chain/codec.js';
import { RpcError } from '../http/server.js';
import { bool, list, params, str, u32, u64 } from '../http/params.js';
import { buildCreateToken } from '../wallet/build.js';
import { buildContext, need, notSyncing, relay, splitResponse, type Define, type WalletRpcContext } from './context.js';

const P = {
  createToken: params({
    ticker: str(),
    supply: u64(),
    account_index: u32(),
    subaddr_indices: list(u32()),
    name: str(),
    url: str(),
    hash: str(),
    size: u64(),
    token_metadata_hex: str(),
    get_tx_keys: bool(),
    do_not_relay: bool(),
    get_tx_hex: bool(),
    get_tx_metadata: bool(),
  }),
  tokens: params({ regex: str() }),
  tokenInfo: params({ asset_type: str() }),
};

/** create_token, in the order of checks of §7.1. */
async function createToken(ctx: WalletRpcContext, raw: unknown): Promise<Record<string, unknown>> {
  const p = P.createToken.parse(raw as never);
  const w = need(ctx, { mutating: true });
  notSyncing(ctx);
  let hf: number;
  try {
    hf = await ctx.daemon.nextHardFork();
  } catch {
    throw new RpcError(0, ''); // the exception escapes the real handler
  }
  if (hf < HF_TOKENS) throw new RpcError(-7, 'Create_token is not available yet.');
  if (p.ticker === '') throw new RpcError(-7, 'Empty ticker is not allowed.');
  // std::toupper in the C locale: ASCII letters only; the length is the UTF-8 string's, in bytes.
  const ticker = p.ticker.replace(/[a-z]/g, (c) => c.toUpperCase());
  if (Buffer.byteLength(ticker, 'utf8') !== 4) throw new RpcError(-7, 'Asset type must be exactly 4 characters long.');
  if (!/^[A-Z0-9]{4}$/.test(ticker))
    throw new RpcError(-7, 'Asset type can only contain uppercase letters and digits.');
  if (ticker.startsWith('SAL')) throw new RpcError(-7, "Asset type cannot start with 'SAL'.");
  if (['SAL', 'SAL1', 'SAL2', 'BURN'].includes(ticker))
    throw new RpcError(-7, 'Asset type is reserved and cannot be used.');
  let existing: unknown[];
  try {
    existing = ((await ctx.daemon.jsonRpc('get_tokens', { filter: ticker })).tokens as unknown[] | undefined) ?? [];
  } catch {
    throw new RpcError(-7, 'Failed to get token data.');
  }
  if (existing.length > 0) throw new RpcError(-7, 'Token already exists.');
  if (p.supply < 1n || p.supply > MONEY_SUPPLY)
    throw new RpcError(-7, 'Supply amount must be between 1 and MONEY_SUPPLY.');
  if (p.hash !== '' && !/^[0-9a-fA-F]{64}$/.test(p.hash)) throw new RpcError(0, 'Invalid hash format.');
  if (p.supply > MAX_TOKEN_SUPPLY) {
    ctx.log.log(
      'E',
      'token_supply < 1 || token_supply > (MONEY_SUPPLY / COIN). THROW EXCEPTION: error::wallet_internal_error',
    );
    throw new RpcError(-1, `Token supply is limited to 1-${MAX_TOKEN_SUPPLY}`);
  }
  const metadataHex =
    p.token_metadata_hex !== ''
      ? p.token_metadata_hex
      : toHex(`{"name":"${p.name}","size":${p.size},"hash":"${p.hash}","url":"${p.url}"}`);
  if (metadataHex.length >= 2048 * 2) throw new RpcError(-1, 'Metadata too long (max 2048 bytes permitted)');
  if (metadataHex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(metadataHex)) {
    ctx.log.log(
      'E',
      '!epee::string_tools::parse_hexstr_to_binbuff(token_metadata_hex, metadata_blob). THROW EXCEPTION: error::wallet_internal_error',
    );
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
  const built = buildCreateToken(
    w,
    bctx,
    { ticker, supply: p.supply, name: text(meta.name), url: text(meta.url), hash: text(meta.hash), size, metadataHex },
    tokenPrice(ticker),
  );
  await relay(ctx, w, [built], p.do_not_relay, -1);
  return splitResponse([built], { getTxKeys: p.get_tx_keys, getTxHex: p.get_tx_hex, getTxMetadata: p.get_tx_metadata });
}

export function tokenMethods(ctx: WalletRpcContext, def: Define): void {
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
    return {
      asset_type: res['token.asset_type'],
      sal_token: res.sal_token,
      status: 'OK',
      token_type: res.token_type,
      version: res['token.version'],
    };
  });
}
