// What a wallet keeps beside its transfers: tx notes, attributes, the address book, payment URIs and
// integrated addresses (wallet_rpc_server.cpp on_set_tx_notes … on_delete_address_book, wallet2's
// make_uri/parse_uri), with the real checks and messages (recorded from salvium-wallet-rpc v1.1.3c:
// test/sim/wallet-recorded.test.ts).
import { randomBytes } from 'node:crypto';
import { formatMoney } from '../common/format.js';
import { decodeAddress, encodeAddress, type DecodedAddress } from '../crypto/address.js';
import { toHex } from '../crypto/hex.js';
import { RpcError } from '../http/server.js';
import { bool, list, params, str, u64 } from '../http/params.js';
import { meta, type BookEntry } from '../wallet/state.js';
import { RESTRICTED, guard, need, notSyncing, type Define, type WalletRpcContext } from './context.js';
import { hexBytes } from './lookup.js';

const P = {
  setNotes: params({ txids: list(str()), notes: list(str()) }),
  getNotes: params({ txids: list(str()) }),
  setAttribute: params({ key: str(), value: str() }),
  getAttribute: params({ key: str() }),
  getBook: params({ entries: list(u64()) }),
  addBook: params({ address: str(), description: str() }),
  editBook: params({ index: u64(), set_address: bool(), address: str(), set_description: bool(), description: str() }),
  deleteBook: params({ index: u64() }),
  makeUri: params({ address: str(), amount: u64(), payment_id: str(), recipient_name: str(), tx_description: str() }),
  parseUri: params({ uri: str() }),
  makeIntegrated: params({ standard_address: str(), payment_id: str() }),
  splitIntegrated: params({ integrated_address: str() }),
};

/** get_account_address_from_str on the testnet. */
export function parseAddress(text: string): DecodedAddress | undefined {
  const d = decodeAddress(text);
  return d && d.coin === 'salvium' && d.network === 'testnet' ? d : undefined;
}

const wrongAddress = (text: string): RpcError => new RpcError(-2, `WALLET_RPC_ERROR_CODE_WRONG_ADDRESS: ${text}`);

function txids(list: string[]): string[] {
  return list.map((t) => {
    if (hexBytes(t) !== 32) throw new RpcError(-8, 'TX ID has invalid format');
    return t.toLowerCase();
  });
}

/** An address without its payment id (the address book keeps the id apart). */
const withoutId = (d: DecodedAddress): string =>
  encodeAddress({ ...d, type: d.type === 'integrated' ? 'standard' : d.type, paymentId: undefined });

function bookEntry(text: string, description: string, keepId?: string): BookEntry {
  const d = parseAddress(text);
  if (!d) throw wrongAddress(text);
  const paymentId = d.paymentId ? toHex(d.paymentId) : keepId;
  return { address: withoutId(d), description, ...(paymentId ? { paymentId } : {}) };
}

/** A row as get_address_book shows it: integrated again when it has a payment id. */
function shown(e: BookEntry): string {
  if (!e.paymentId) return e.address;
  const d = decodeAddress(e.address)!;
  return encodeAddress({ ...d, type: 'integrated', paymentId: Buffer.from(e.paymentId, 'hex') });
}

function notesAndAttributes(ctx: WalletRpcContext, def: Define): void {
  def(['set_tx_notes'], (raw) => {
    const p = P.setNotes.parse(raw);
    const w = guard(ctx);
    if (p.txids.length !== p.notes.length) throw new RpcError(-1, 'Different amount of txids and notes');
    txids(p.txids).forEach((t, i) => (meta(w).notes[t] = p.notes[i]!));
    return {};
  });
  def(['get_tx_notes'], (raw) => {
    const p = P.getNotes.parse(raw);
    const w = need(ctx);
    return { notes: txids(p.txids).map((t) => meta(w).notes[t] ?? '') };
  });
  def(['set_attribute'], (raw) => {
    const p = P.setAttribute.parse(raw);
    meta(guard(ctx)).attributes[p.key] = p.value;
    return {};
  });
  def(['get_attribute'], (raw) => {
    const p = P.getAttribute.parse(raw);
    const w = need(ctx);
    if (ctx.restricted) throw RESTRICTED();
    const value = meta(w).attributes[p.key];
    if (value === undefined) throw new RpcError(-45, 'Attribute not found.');
    return { value };
  });
}

function addressBook(ctx: WalletRpcContext, def: Define): void {
  const row = (book: BookEntry[], index: bigint): BookEntry => {
    if (index >= BigInt(book.length)) throw new RpcError(-12, `Index out of range: ${index}`);
    return book[Number(index)]!;
  };
  def(['get_address_book'], (raw) => {
    const p = P.getBook.parse(raw);
    const book = meta(notSyncing(ctx)).addressBook;
    const indices = p.entries.length > 0 ? p.entries : book.map((_, i) => BigInt(i));
    const entries = indices.map((i) => ({
      address: shown(row(book, i)),
      description: row(book, i).description,
      index: i,
    }));
    return { entries };
  });
  def(['add_address_book'], (raw) => {
    const p = P.addBook.parse(raw);
    const book = meta(guard(ctx)).addressBook;
    book.push(bookEntry(p.address, p.description));
    return { index: book.length - 1 };
  });
  def(['edit_address_book'], (raw) => {
    const p = P.editBook.parse(raw);
    const book = meta(guard(ctx)).addressBook;
    const old = row(book, p.index);
    const next = p.set_address ? bookEntry(p.address, old.description, old.paymentId) : { ...old };
    if (p.set_description) next.description = p.description;
    book[Number(p.index)] = next;
    return {};
  });
  def(['delete_address_book'], (raw) => {
    const p = P.deleteBook.parse(raw);
    const book = meta(guard(ctx)).addressBook;
    row(book, p.index);
    book.splice(Number(p.index), 1);
    return {};
  });
}

/** epee's conver_to_url_format: control and non-ASCII bytes and " !\"#$%&+,:;<>@[\\]^`{|}~" as %XX. */
export function urlEncode(text: string): string {
  const unsafe = new Set(' !"#$%&+,:;<>@[\\]^`{|}~');
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += byte <= 32 || byte >= 123 || unsafe.has(c) ? `%${byte.toString(16).toUpperCase().padStart(2, '0')}` : c;
  }
  return out;
}

/** epee's convert_from_url_format: each valid %XX decoded (UTF-8 bytes), anything else kept. */
export function urlDecode(text: string): string {
  const bytes: number[] = [];
  const src = Buffer.from(text, 'utf8');
  for (let i = 0; i < src.length; i++) {
    const pair = src.subarray(i + 1, i + 3).toString('latin1');
    if (src[i] === 0x25 && /^[0-9a-fA-F]{2}$/.test(pair)) {
      bytes.push(parseInt(pair, 16));
      i += 2;
    } else bytes.push(src[i]!);
  }
  return Buffer.from(bytes).toString('utf8');
}

/** cryptonote::parse_amount: decimal coins; zeros past the 8th decimal dropped, more decimals refused. */
export function parseAmount(text: string): bigint | undefined {
  let s = text.trim();
  const point = s.indexOf('.');
  let fraction = 0;
  if (point !== -1) {
    fraction = s.length - point - 1;
    while (fraction > 8 && s.endsWith('0')) {
      s = s.slice(0, -1);
      fraction--;
    }
    if (fraction > 8) return undefined;
    s = s.slice(0, point) + s.slice(point + 1);
  }
  if (s === '' || !/^\d+$/.test(s)) return undefined;
  const v = BigInt(s + '0'.repeat(8 - fraction));
  return v < 1n << 64n ? v : undefined;
}

function makeUri(p: ReturnType<typeof P.makeUri.parse>): string {
  const d = parseAddress(p.address);
  const fail = (why: string): never => {
    throw new RpcError(-11, `Cannot make URI from supplied parameters: ${why}`);
  };
  if (!d) fail(`wrong address: ${p.address}`);
  if (d?.paymentId && p.payment_id !== '') fail('A single payment id is allowed');
  if (p.payment_id !== '') fail('Standalone payment id deprecated, use integrated address instead');
  const fields: string[] = [];
  if (p.amount > 0n) fields.push(`tx_amount=${formatMoney(p.amount)}`);
  if (p.recipient_name !== '') fields.push(`recipient_name=${urlEncode(p.recipient_name)}`);
  if (p.tx_description !== '') fields.push(`tx_description=${urlEncode(p.tx_description)}`);
  return `salvium:${p.address}${fields.length > 0 ? `?${fields.join('&')}` : ''}`;
}

function parseUri(uri: string): Record<string, unknown> {
  const fail = (why: string): never => {
    throw new RpcError(-11, `Error parsing URI: ${why}`);
  };
  if (!uri.startsWith('salvium:')) fail(`URI has wrong scheme (expected "salvium:"): ${uri}`);
  const rest = uri.slice(8);
  const q = rest.indexOf('?');
  const address = q === -1 ? rest : rest.slice(0, q);
  const d = parseAddress(address);
  if (!d) fail(`URI has wrong address: ${address}`);
  const out = { address, amount: 0n, payment_id: '', recipient_name: '', tx_description: '' };
  const unknown: string[] = [];
  const body = q === -1 ? '' : rest.slice(q + 1);
  const seen = new Set<string>();
  for (const arg of body === '' ? [] : body.split('&')) {
    const kv = arg.split('=');
    if (kv.length !== 2) fail(`URI has wrong parameter: ${arg}`);
    const [k, v] = kv as [string, string];
    if (seen.has(k)) fail(`URI has more than one instance of ${k}`);
    seen.add(k);
    if (k === 'tx_amount') out.amount = parseAmount(v) ?? fail(`URI has invalid amount: ${v}`);
    else if (k === 'tx_payment_id') {
      if (d?.paymentId) fail('Separate payment id given with an integrated address');
      if (!/^[0-9a-fA-F]{64}$/.test(v)) fail(`Invalid payment id: ${v}`);
      out.payment_id = v;
    } else if (k === 'recipient_name') out.recipient_name = urlDecode(v);
    else if (k === 'tx_description') out.tx_description = urlDecode(v);
    else unknown.push(arg);
  }
  return { unknown_parameters: unknown, uri: out };
}

function integratedAddresses(ctx: WalletRpcContext, def: Define): void {
  def(['make_integrated_address'], (raw) => {
    const p = P.makeIntegrated.parse(raw);
    const w = need(ctx);
    if (p.payment_id !== '' && !/^[0-9a-fA-F]{16}$/.test(p.payment_id)) throw new RpcError(-5, 'Invalid payment ID');
    const paymentId = p.payment_id === '' ? new Uint8Array(randomBytes(8)) : Buffer.from(p.payment_id, 'hex');
    let base: DecodedAddress;
    // wallet2::get_integrated_address_as_str takes the Carrot main address whatever the height (recorded at height 1).
    if (p.standard_address === '') base = decodeAddress(w.keys.carrot.address)!;
    else {
      const d = parseAddress(p.standard_address);
      if (!d) throw new RpcError(-2, 'Invalid address');
      if (d.type === 'subaddress') throw new RpcError(-2, "Subaddress shouldn't be used");
      if (d.type === 'integrated') throw new RpcError(-2, 'Already integrated address');
      base = d;
    }
    return {
      integrated_address: encodeAddress({ ...base, type: 'integrated', paymentId }),
      payment_id: toHex(paymentId),
    };
  });
  def(['split_integrated_address'], (raw) => {
    const p = P.splitIntegrated.parse(raw);
    need(ctx);
    const d = parseAddress(p.integrated_address);
    if (!d) throw new RpcError(-2, 'Invalid address');
    if (!d.paymentId) throw new RpcError(-2, 'Address is not an integrated address');
    return { is_subaddress: false, payment_id: toHex(d.paymentId), standard_address: withoutId(d) };
  });
}

export function bookMethods(ctx: WalletRpcContext, def: Define): void {
  notesAndAttributes(ctx, def);
  addressBook(ctx, def);
  integratedAddresses(ctx, def);
  def(['make_uri'], (raw) => {
    const p = P.makeUri.parse(raw);
    need(ctx);
    return { uri: makeUri(p) };
  });
  def(['parse_uri'], (raw) => {
    const p = P.parseUri.parse(raw);
    need(ctx);
    return parseUri(p.uri);
  });
}
