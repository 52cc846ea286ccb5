// The simulated daemon's /json_rpc methods (reference §2.2): one entry each in daemonJsonRpcMethods.
import { CORE_RPC_VERSION } from '../common/version.js';
import { TESTNET_HARD_FORKS } from '../chain/constants.js';
import { currentFees, height, matchTokens, topBlock } from '../chain/ledger.js';
import type { Block } from '../chain/types.js';
import { RpcError, type Handler } from '../http/server.js';
import { bool, list, params, str, u32, u64, u8 } from '../http/params.js';
import { STATUS, blockHeader, hardForkInfo, info, type DaemonContext } from './views.js';

const heightParams = params({ height: u64(), fill_pow_hash: bool() });
const hashParams = params({ hash: str(), fill_pow_hash: bool() });
const powParams = params({ fill_pow_hash: bool() });
const hfParams = params({ version: u8() });
const genParams = params({ amount_of_blocks: u64(), wallet_address: str(), prev_block: str(), starting_nonce: u32() });
const tokensParams = params({ filter: str() });
const tokenInfoParams = params({ asset_type: str() });
const feeParams = params({ grace_blocks: u64() });

export function daemonJsonRpcMethods(ctx: DaemonContext): Map<string, Handler> {
  const l = ctx.ledger;
  const m = new Map<string, Handler>();
  const alias = (names: string[], h: Handler): void => names.forEach((n) => m.set(n, h));
  alias(['get_block_count', 'getblockcount'], () => ({ count: height(l), ...STATUS }));
  alias(['get_info'], () => info(ctx));
  // A list of one height (an object, or another count: -1); a height past the top answers the null
  // hash, as v1.1.3c does (on_getblockhash sets the error but returns true, so it is not sent).
  alias(['on_get_block_hash', 'on_getblockhash'], (raw) => {
    const heights = Array.isArray(raw) ? list(u64()).read(raw, 'params') : [];
    if (heights.length !== 1) throw new RpcError(-1, 'Wrong parameters, expected height');
    const h = heights[0]!;
    return h < BigInt(height(l)) ? (l.blocks[Number(h)] as Block).hash : '0'.repeat(64);
  });
  alias(['get_last_block_header', 'getlastblockheader'], (raw) => {
    const p = powParams.parse(raw);
    if (!ctx.offline) return { status: 'BUSY', untrusted: false };
    return { block_header: blockHeader(l, topBlock(l), p.fill_pow_hash), credits: 0, top_hash: '', ...STATUS };
  });
  alias(['get_block_header_by_height', 'getblockheaderbyheight'], (raw) => {
    const p = heightParams.parse(raw);
    const top = height(l) - 1;
    if (p.height > BigInt(top))
      throw new RpcError(-2, `Requested block height: ${p.height} greater than current top block height: ${top}`);
    return {
      block_header: blockHeader(l, l.blocks[Number(p.height)] as Block, p.fill_pow_hash),
      credits: 0,
      top_hash: '',
      ...STATUS,
    };
  });
  alias(['get_block_header_by_hash', 'getblockheaderbyhash'], (raw) => {
    const p = hashParams.parse(raw);
    const b = l.blocks.find((x) => x.hash === p.hash);
    if (!b) throw new RpcError(-5, `Internal error: can't get block by hash. Hash = ${p.hash}.`);
    return { block_header: blockHeader(l, b, p.fill_pow_hash), credits: 0, top_hash: '', ...STATUS };
  });
  alias(['hard_fork_info'], (raw) => {
    hfParams.parse(raw);
    return hardForkInfo(l, ctx.popped);
  });
  alias(['get_version'], () => ({
    current_height: height(l),
    hard_forks: TESTNET_HARD_FORKS.map((f) => ({ height: f.height, hf_version: f.version })),
    release: false,
    status: 'OK',
    target_height: 0,
    untrusted: false,
    version: CORE_RPC_VERSION,
  }));
  alias(['generateblocks'], (raw) => {
    genParams.parse(raw);
    if (!ctx.offline) return { status: 'BUSY', untrusted: false };
    throw new RpcError(-13, 'Regtest required when generating blocks');
  });
  alias(['get_tokens'], (raw) => ({ status: 'OK', tokens: matchTokens(l, tokensParams.parse(raw).filter) }));
  alias(['get_token_info'], (raw) => {
    const t = l.tokens.get(tokenInfoParams.parse(raw).asset_type);
    if (!t) {
      return {
        sal_token: { name: '', size: 0, supply: 0, url: '' },
        status: 'Token not found',
        'token.asset_type': '',
        'token.version': 0,
        token_type: 0,
      };
    }
    return {
      sal_token: { name: t.name, size: t.size, supply: t.supply, url: t.url },
      status: 'OK',
      'token.asset_type': t.ticker,
      'token.version': 1,
      token_type: 2,
    };
  });
  alias(['get_fee_estimate'], (raw) => {
    feeParams.parse(raw);
    const fees = currentFees(l);
    return { credits: 0, fee: fees[0], fees, quantization_mask: 1, status: 'OK', top_hash: '', untrusted: false };
  });
  return m;
}
