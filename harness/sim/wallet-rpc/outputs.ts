// The wallet's outputs themselves (wallet_rpc_server.cpp on_freeze, on_thaw, on_frozen,
// on_export/import_key_images, on_export/import_outputs, on_rescan_spent, on_rescan_blockchain,
// on_scan_tx), with the real checks and messages, recorded from salvium-wallet-rpc v1.1.3c
// (test/sim/wallet-recorded.test.ts). As on v1.1.3c: exporting every key image fails for Carrot
// outputs, a hot wallet cannot import outputs, and no signed key image parses.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { encode, decode } from '../chain/codec.js';
import { HF_CARROT, hardForkAt } from '../chain/constants.js';
import { RpcError } from '../http/server.js';
import { bool, list, obj, params, str, u32 } from '../http/params.js';
import { findTx } from '../wallet/chain-index.js';
import { resetScan, scanOneTx } from '../wallet/scan.js';
import { isWatchOnly, saveWallet, type OwnedOutput, type Wallet } from '../wallet/state.js';
import { RESTRICTED, doRefresh, guard, need, notSyncing, type Define, type WalletRpcContext } from './context.js';
import { hexBytes } from './lookup.js';

const P = {
  keyImage: params({ key_image: str() }),
  exportKeyImages: params({ all: bool() }),
  importKeyImages: params({ offset: u32(), signed_key_images: list(obj({ key_image: str(), signature: str() })) }),
  exportOutputs: params({ all: bool(), start: u32(), count: u32(0xffffffff) }),
  importOutputs: params({ outputs_data_hex: str() }),
  rescan: params({ hard: bool() }),
  scanTx: params({ txids: list(str()) }),
};

/** wallet2's magic in front of an outputs export (then its encrypted body). */
const OUTPUTS_MAGIC = Buffer.from('Salvium output export\x04', 'latin1');

function outputByKeyImage(w: Wallet, text: string, what: string): OwnedOutput {
  if (text === '') throw new RpcError(-1, `Must specify key image to ${what}`);
  if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new RpcError(-10, 'failed to parse key image');
  const o = w.state.outputs.find((x) => x.keyImage === text.toLowerCase());
  if (!o) throw new RpcError(-1, 'Key image not found');
  return o;
}

function freezing(ctx: WalletRpcContext, def: Define): void {
  def(['freeze'], (raw) => {
    const w = guard(ctx);
    outputByKeyImage(w, P.keyImage.parse(raw).key_image, 'freeze').frozen = true;
    return {};
  });
  def(['thaw'], (raw) => {
    const w = guard(ctx);
    delete outputByKeyImage(w, P.keyImage.parse(raw).key_image, 'thaw').frozen;
    return {};
  });
  def(['frozen'], (raw) => {
    const w = guard(ctx);
    return { frozen: outputByKeyImage(w, P.keyImage.parse(raw).key_image, 'check if frozen').frozen === true };
  });
}

const carrotEra = (o: OwnedOutput): boolean => hardForkAt(o.blockIndex) >= HF_CARROT;

function keyImages(ctx: WalletRpcContext, def: Define): void {
  def(['export_key_images'], (raw) => {
    const p = P.exportKeyImages.parse(raw);
    const outs = guard(ctx).state.outputs;
    // Without `all`, only the outputs whose key images were asked for (none in a wallet with its spend key).
    if (!p.all) return { offset: outs.length };
    if (outs.some(carrotEra))
      throw new RpcError(-1, 'get_tx_pub_key_from_received_outs is not relevant for Carrot txs');
    const signed = outs.map((o) => ({
      key_image: o.keyImage,
      signature: createHash('sha512').update(o.id).digest('hex'),
    }));
    return { offset: 0, signed_key_images: signed };
  });
  def(['import_key_images'], (raw) => {
    const p = P.importKeyImages.parse(raw);
    const w = need(ctx);
    if (ctx.restricted) throw RESTRICTED();
    notSyncing(ctx);
    for (const s of p.signed_key_images) {
      if (!/^[0-9a-fA-F]{64}$/.test(s.key_image)) throw new RpcError(-10, 'failed to parse key image');
      // As recorded: v1.1.3c parses no signature, whatever its length.
      throw new RpcError(-9, 'failed to parse signature');
    }
    const outs = w.state.outputs;
    if (p.offset > outs.length) throw new RpcError(-1, 'Offset larger than known outputs');
    if (p.offset === 0) return { height: 0, spent: 0, unspent: 0 };
    const counted = outs.slice(0, p.offset).filter((o) => !o.frozen);
    const sum = (spent: boolean): bigint => counted.filter((o) => o.spent === spent).reduce((s, o) => s + o.amount, 0n);
    return { height: outs[p.offset - 1]!.blockIndex, spent: sum(true), unspent: sum(false) };
  });
}

/** The export's body: the outputs, encrypted with a key of the wallet's (so another wallet cannot read it). */
const exportKey = (w: Wallet): Buffer =>
  createHash('sha256').update(`saltnet-sim outputs:${w.keys.cn.viewSecret}`).digest();

function outputFiles(ctx: WalletRpcContext, def: Define): void {
  def(['export_outputs'], (raw) => {
    const p = P.exportOutputs.parse(raw);
    const w = need(ctx);
    if (ctx.restricted) throw RESTRICTED();
    notSyncing(ctx);
    const start = p.all ? p.start : w.state.outputs.length;
    // wallet2::export_outputs reserves size - start entries: a start past the end overflows.
    if (start > w.state.outputs.length) throw new RpcError(-1, 'vector::reserve');
    const outs = w.state.outputs.slice(start).slice(0, p.count);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', exportKey(w), iv);
    const body = Buffer.concat([cipher.update(encode(outs.map((o) => o.id)), 'utf8'), cipher.final()]);
    return { outputs_data_hex: Buffer.concat([OUTPUTS_MAGIC, iv, cipher.getAuthTag(), body]).toString('hex') };
  });
  def(['import_outputs'], (raw) => {
    const p = P.importOutputs.parse(raw);
    const w = need(ctx);
    if (ctx.restricted) throw RESTRICTED();
    notSyncing(ctx);
    if (p.outputs_data_hex.length > 128 * 1024 * 1024) throw new RpcError(-26, 'outputs_data_hex is too large.');
    if (hexBytes(p.outputs_data_hex) === undefined) throw new RpcError(-26, 'Failed to parse hex.');
    const blob = Buffer.from(p.outputs_data_hex, 'hex');
    if (!blob.subarray(0, OUTPUTS_MAGIC.length).equals(OUTPUTS_MAGIC)) throw new RpcError(-1, 'Bad magic from outputs');
    const rest = blob.subarray(OUTPUTS_MAGIC.length);
    let ids: string[];
    try {
      const d = createDecipheriv('aes-256-gcm', exportKey(w), rest.subarray(0, 12)).setAuthTag(rest.subarray(12, 28));
      ids = decode<string[]>(Buffer.concat([d.update(rest.subarray(28)), d.final()]).toString('utf8'));
    } catch {
      throw new RpcError(-1, 'Failed to decrypt outputs: Unexpected ciphertext size');
    }
    if (ids.length > 0 && !isWatchOnly(w))
      throw new RpcError(-1, 'Failed to import outputs: Hot wallets cannot import outputs');
    return { num_imported: 0 };
  });
}

function rescans(ctx: WalletRpcContext, def: Define): void {
  def(['rescan_spent'], async () => {
    const w = guard(ctx);
    const res = await ctx.daemon.post('/is_key_image_spent', { key_images: w.state.outputs.map((o) => o.keyImage) });
    const status = (res.spent_status as number[] | undefined) ?? [];
    w.state.outputs.forEach((o, i) => (o.spent = (status[i] ?? 0) !== 0));
    saveWallet(w);
    return {};
  });
  def(['rescan_blockchain'], async (raw) => {
    P.rescan.parse(raw);
    const w = guard(ctx);
    resetScan(w);
    await doRefresh(ctx, w);
    return {};
  });
  def(['scan_tx'], async (raw) => {
    const p = P.scanTx.parse(raw);
    const w = guard(ctx);
    const txids = p.txids.map((t) => {
      if (hexBytes(t) !== 32) throw new RpcError(-8, 'TX ID has invalid format');
      return t.toLowerCase();
    });
    for (const txid of txids) {
      const found = await findTx(ctx.daemon, txid);
      if (!found) throw new RpcError(-1, 'Failed to get transaction from daemon');
      for (const e of scanOneTx(w, found.tx, found.height, found.timestamp, ctx.scan)) ctx.log.log('W', e);
    }
    saveWallet(w);
    return {};
  });
}

export function outputMethods(ctx: WalletRpcContext, def: Define): void {
  freezing(ctx, def);
  keyImages(ctx, def);
  outputFiles(ctx, def);
  rescans(ctx, def);
}
