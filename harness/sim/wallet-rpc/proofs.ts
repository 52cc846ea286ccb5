// Message signatures, tx keys and the tx, spend and reserve proofs (wallet_rpc_server.cpp on_sign …
// on_check_reserve_proof), with the real order of checks and messages, recorded from
// salvium-wallet-rpc v1.1.3c (test/sim/wallet-recorded.test.ts). As on v1.1.3c, a spend proof of a
// Carrot-era tx fails to generate its key images and a reserve proof over Carrot-era outputs fails to
// derive them; the proofs the simulator does make verify within the simulator (wallet/proofs.ts).
import { decodeAddress, encodeAddress, type DecodedAddress } from '../crypto/address.js';
import { HF_CARROT, hardForkAt } from '../chain/constants.js';
import { RpcError } from '../http/server.js';
import { bool, params, str, u32, u64 } from '../http/params.js';
import { accountBalance } from '../wallet/balances.js';
import { findTx, type FoundTx } from '../wallet/chain-index.js';
import {
  openReserveProof,
  reserveProof,
  signMessage,
  spendProof,
  txKey,
  txProof,
  verifyMessage,
} from '../wallet/proofs.js';
import { isWatchOnly, meta, type Wallet } from '../wallet/state.js';
import { indexOfAddress, numAccounts, subaddress } from '../wallet/subaddresses.js';
import { RESTRICTED, guard, need, notSyncing, type Define, type WalletRpcContext } from './context.js';
import { parseAddress } from './book.js';

const P = {
  sign: params({ data: str(), account_index: u32(), address_index: u32(), signature_type: str() }),
  verify: params({ data: str(), address: str(), signature: str() }),
  txKey: params({ txid: str() }),
  checkTxKey: params({ txid: str(), tx_key: str(), address: str() }),
  txProof: params({ txid: str(), address: str(), message: str() }),
  checkTxProof: params({ txid: str(), address: str(), message: str(), signature: str() }),
  spendProof: params({ txid: str(), message: str() }),
  checkSpendProof: params({ txid: str(), message: str(), signature: str() }),
  reserve: params({ all: bool(), account_index: u32(), amount: u64(), message: str() }),
  checkReserve: params({ address: str(), message: str(), signature: str() }),
};

const txidOf = (text: string): string => {
  if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new RpcError(-8, 'TX ID has invalid format');
  return text.toLowerCase();
};

const addressOf = (text: string): DecodedAddress => {
  const d = parseAddress(text);
  if (!d) throw new RpcError(-2, 'Invalid address');
  return d;
};

const sameKeys = (a: DecodedAddress, b: DecodedAddress | null): boolean =>
  !!b &&
  a.spendPublicKey.every((x, i) => x === b.spendPublicKey[i]) &&
  a.viewPublicKey.every((x, i) => x === b.viewPublicKey[i]);

/** What the tx pays an address (any of its forms), and how it stands on chain. */
async function paid(ctx: WalletRpcContext, txid: string, address: DecodedAddress, message: string) {
  const found = await findTx(ctx.daemon, txid);
  if (!found) throw new RpcError(-1, message);
  const received = found.tx.outputs
    .filter((o) => sameKeys(address, decodeAddress(o.address)))
    .reduce((s, o) => s + o.amount, 0n);
  const confirmations = found.inPool ? 0 : (await ctx.daemon.height()) - found.height;
  return { found, received, in_pool: found.inPool, confirmations };
}

/** The CN address (of a subaddress) a message signature is made for. */
const signer = (w: Wallet, major: number, minor: number): DecodedAddress =>
  decodeAddress(subaddress(w, { major, minor }, 'cn'))!;

function signatures(ctx: WalletRpcContext, def: Define): void {
  def(['sign'], (raw) => {
    const p = P.sign.parse(raw);
    const w = guard(ctx);
    if (!['', 'spend', 'view'].includes(p.signature_type)) throw new RpcError(-47, 'Invalid signature type requested');
    const mode = p.signature_type === 'view' ? 'view' : 'spend';
    return { signature: signMessage(p.data, signer(w, p.account_index, p.address_index), mode) };
  });
  def(['verify'], (raw) => {
    const p = P.verify.parse(raw);
    need(ctx);
    if (ctx.restricted) throw RESTRICTED();
    const a = parseAddress(p.address);
    if (!a) throw new RpcError(-2, '');
    const base = a.paymentId ? decodeAddress(encodeAddress({ ...a, type: 'standard', paymentId: undefined }))! : a;
    const mode = verifyMessage(p.data, base, p.signature);
    return mode
      ? { good: true, old: false, signature_type: mode, version: 2 }
      : { good: false, old: false, signature_type: 'spend', version: 0 };
  });
}

function txKeys(ctx: WalletRpcContext, def: Define): void {
  def(['get_tx_key'], (raw) => {
    const p = P.txKey.parse(raw);
    const w = notSyncing(ctx);
    const txid = txidOf(p.txid);
    if (!meta(w).txKeys.includes(txid)) throw new RpcError(-24, 'No tx secret key is stored for this tx');
    return { tx_key: txKey(txid) };
  });
  def(['check_tx_key'], async (raw) => {
    const p = P.checkTxKey.parse(raw);
    const w = need(ctx);
    const txid = txidOf(p.txid);
    if (p.tx_key.length < 64 || p.tx_key.length % 64 !== 0 || !/^[0-9a-fA-F]*$/.test(p.tx_key))
      throw new RpcError(-25, 'Tx key has invalid format');
    const address = addressOf(p.address);
    const r = await paid(ctx, txid, address, 'Failed to get transaction from daemon');
    // As recorded: the key must be the tx's, unless the address is the wallet's own (it sees its outputs).
    const known = p.tx_key.slice(0, 64).toLowerCase() === txKey(txid) || indexOfAddress(w, p.address) !== undefined;
    return { confirmations: r.confirmations, in_pool: r.in_pool, received: known ? r.received : 0n };
  });
}

function txProofs(ctx: WalletRpcContext, def: Define): void {
  def(['get_tx_proof'], async (raw) => {
    const p = P.txProof.parse(raw);
    const w = notSyncing(ctx);
    const txid = txidOf(p.txid);
    const address = addressOf(p.address);
    await paid(ctx, txid, address, 'Failed to get transaction from daemon');
    const mine = indexOfAddress(w, p.address) !== undefined;
    if (!mine && !meta(w).txKeys.includes(txid))
      throw new RpcError(-1, "Tx secret key wasn't found in the wallet file.");
    return { signature: txProof(mine ? 'In' : 'Out', txid, address, p.message) };
  });
  def(['check_tx_proof'], async (raw) => {
    const p = P.checkTxProof.parse(raw);
    need(ctx);
    const txid = txidOf(p.txid);
    const address = addressOf(p.address);
    const r = await paid(ctx, txid, address, 'Failed to get transaction from daemon');
    // wallet2::check_tx_proof reads the version at the header's last character first (std::substr).
    const direction = p.signature.startsWith('Out') ? 'Out' : 'In';
    const header = `${direction}ProofV`;
    const at = header.length - 1;
    if (p.signature.length < at)
      throw new RpcError(
        -1,
        `basic_string::substr: __pos (which is ${at}) > this->size() (which is ${p.signature.length})`,
      );
    if (!p.signature.startsWith(header)) throw new RpcError(-1, 'Signature size mismatch with additional tx pubkeys');
    const expected = txProof(direction, txid, address, p.message);
    const good = p.signature === expected;
    if (!good && p.signature.startsWith(`${header}3`) && p.signature.length !== expected.length)
      throw new RpcError(-1, 'Wrong signature size');
    return good
      ? { confirmations: r.confirmations, good, in_pool: r.in_pool, received: r.received }
      : { confirmations: 0, good, in_pool: false, received: 0n };
  });
}

/** Whether an output or tx is of the Carrot era (from HF10), whose key images the v1.1.3c proofs cannot make. */
const carrotEra = (height: number): boolean => hardForkAt(height) >= HF_CARROT;

function spendProofs(ctx: WalletRpcContext, def: Define): void {
  const spent = async (txid: string): Promise<FoundTx> => {
    const found = await findTx(ctx.daemon, txid);
    if (!found)
      throw new RpcError(-1, 'daemon returned wrong response for gettransactions, wrong txs count = 0, expected 1');
    return found;
  };
  def(['get_spend_proof'], async (raw) => {
    const p = P.spendProof.parse(raw);
    if (ctx.restricted) throw RESTRICTED();
    const w = need(ctx);
    const found = await spent(txidOf(p.txid));
    const mine = new Set(w.state.outputs.map((o) => o.keyImage));
    const ours = found.tx.inputs.filter((i) => mine.has(i.keyImage));
    if (ours.length === 0) throw new RpcError(-1, "This tx wasn't generated by this wallet!");
    if (found.inPool || carrotEra(found.height)) throw new RpcError(-1, 'failed to generate key image');
    return {
      signature: spendProof(
        found.tx.txid,
        found.tx.inputs.map((i) => i.keyImage),
        p.message,
      ),
    };
  });
  def(['check_spend_proof'], async (raw) => {
    const p = P.checkSpendProof.parse(raw);
    if (ctx.restricted) throw RESTRICTED();
    need(ctx);
    const found = await spent(txidOf(p.txid));
    if (!p.signature.startsWith('SpendProofV1')) throw new RpcError(-1, 'Signature header check error');
    return {
      good:
        p.signature ===
        spendProof(
          found.tx.txid,
          found.tx.inputs.map((i) => i.keyImage),
          p.message,
        ),
    };
  });
}

function getReserveProof(ctx: WalletRpcContext, raw: unknown): Record<string, unknown> {
  const p = P.reserve.parse(raw as never);
  const w = guard(ctx);
  if (!p.all && p.account_index >= numAccounts(w)) throw new RpcError(-1, 'Account index is out of bound');
  if (isWatchOnly(w)) throw new RpcError(-1, 'Reserve proof can only be generated by a full wallet');
  const total = [...Array(numAccounts(w)).keys()].reduce((s, a) => s + accountBalance(w, a, 'SAL1', true).balance, 0n);
  if (total === 0n) throw new RpcError(-1, 'Zero balance');
  if (!p.all && accountBalance(w, p.account_index, 'SAL1', true).balance < p.amount)
    throw new RpcError(-1, 'Not enough balance in this account for the requested minimum reserve amount');
  // wallet2::is_spent(td, strict): an output a pending tx spends is still proved.
  const pending = (o: { spentBy?: string }): boolean =>
    w.state.outs.some((r) => r.txid === o.spentBy && r.state === 'pending');
  const outs = w.state.outputs.filter(
    (o) => (!o.spent || pending(o)) && !o.frozen && (p.all || (o.subaddr?.major ?? 0) === p.account_index),
  );
  if (!p.all && p.amount === 0n) throw new RpcError(-1, 'Proved amount must be greater than 0');
  if (outs.some((o) => carrotEra(o.blockIndex)))
    throw new RpcError(
      -1,
      "Normal tx pub key doesn't derive the expected output, while the additional tx pub keys are empty",
    );
  const entries = outs.map((o) => ({ id: o.id, amount: o.amount.toString(), keyImage: o.keyImage }));
  return { signature: reserveProof(decodeAddress(w.keys.cn.address)!, p.message, entries) };
}

async function checkReserveProof(ctx: WalletRpcContext, raw: unknown): Promise<Record<string, unknown>> {
  const p = P.checkReserve.parse(raw as never);
  if (ctx.restricted) throw RESTRICTED();
  need(ctx);
  const address = addressOf(p.address);
  if (address.type === 'subaddress') throw new RpcError(-1, 'Address must not be a subaddress');
  if (!/^ReserveProofV[12]/.test(p.signature)) throw new RpcError(-1, 'Signature header check error');
  const entries = openReserveProof(address, p.message, p.signature);
  if (entries === 'decoding') throw new RpcError(-1, 'Signature decoding error');
  if (entries === 'address') throw new RpcError(-1, "The given address isn't found in the proof");
  const res = await ctx.daemon.post('/is_key_image_spent', { key_images: entries.map((e) => e.keyImage) });
  const status = (res.spent_status as number[] | undefined) ?? [];
  const total = entries.reduce((s, e) => s + BigInt(e.amount), 0n);
  const spentSum = entries.reduce((s, e, i) => s + (status[i] ? BigInt(e.amount) : 0n), 0n);
  return { good: true, spent: spentSum, total };
}

export function proofMethods(ctx: WalletRpcContext, def: Define): void {
  signatures(ctx, def);
  txKeys(ctx, def);
  txProofs(ctx, def);
  spendProofs(ctx, def);
  def(['get_reserve_proof'], (raw) => getReserveProof(ctx, raw));
  def(['check_reserve_proof'], (raw) => checkReserveProof(ctx, raw));
}
