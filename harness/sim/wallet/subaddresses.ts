// A wallet's accounts and subaddresses as wallet2 keeps them: labels[major][minor] lists the created
// ones (an account is its minor 0); receiving is detected within the lookahead window wallet2's
// expand_subaddresses fills (by default 50 accounts past the last one, 200 subaddresses past each
// account's last; reference: wallet2.cpp SUBADDRESS_LOOKAHEAD_*; the wallet CLI's
// --subaddress-lookahead major:minor sets another, kept in the keys file), plus, once the wallet was
// loaded from its files, the window carrot_and_legacy_account::generate_subaddress_map builds at every
// load: accounts 0..major and subaddresses 0..minor, both ends included. Receiving does not create
// anything (v1.1.3c's scan never expands the labels). Addresses follow the simulator's derivation
// (crypto/subaddress.ts) for both families; which family a listing shows follows the hard fork of
// the wallet's height (or of the entry's), as get_subaddress_as_str's Auto type does.
import { decodeAddress, encodeAddress, type AddressFamily, type DecodedAddress } from '../crypto/address.js';
import { toHex } from '../crypto/hex.js';
import { accountSpendKeys, subaddressSpendKey, subaddressViewKey } from '../crypto/subaddress.js';
import { HF_CARROT, hardForkAt } from '../chain/constants.js';
import { RpcError } from '../http/server.js';
import { meta, type SubIndex, type Wallet } from './state.js';

export const LOOKAHEAD_MAJOR = 50;
export const LOOKAHEAD_MINOR = 200;

/** The wallet's lookahead: its keys file's, else wallet2's default. */
export function lookaheadOf(w: Wallet): { major: number; minor: number } {
  return w.keysFile.lookahead ?? { major: LOOKAHEAD_MAJOR, minor: LOOKAHEAD_MINOR };
}

/**
 * `--subaddress-lookahead major:minor` as simplewallet parses it (tools::parse_subaddress_lookahead): undefined when it
 * is not two numbers; a zero is parsed (wallet2 refuses it later).
 */
export function parseLookaheadArg(text: string): { major: number; minor: number } | undefined {
  const m = /^(\d+):(\d+)$/.exec(text);
  return m ? { major: Number(m[1]), minor: Number(m[2]) } : undefined;
}

/** wallet2's error::account_index_outofbound / address_index_outofbound. */
export const ACCOUNT_OUT_OF_BOUND = (): RpcError => new RpcError(-14, 'account index is out of bound');
export const ADDRESS_OUT_OF_BOUND = (): RpcError => new RpcError(-15, 'address index is out of bound');

interface Cache {
  addresses: Map<string, string>;
  tables: Partial<Record<AddressFamily, { bounds: string; byKey: Map<string, SubIndex> }>>;
}
const caches = new WeakMap<Wallet, Cache>();
const cacheOf = (w: Wallet): Cache => {
  let c = caches.get(w);
  if (!c) caches.set(w, (c = { addresses: new Map(), tables: {} }));
  return c;
};

const decodedCache = new Map<string, DecodedAddress | null>();
/** decodeAddress, remembered (a scan decodes the same output addresses for every wallet). */
export function decodeCached(text: string): DecodedAddress | null {
  let d = decodedCache.get(text);
  if (d === undefined) {
    if (decodedCache.size > 20_000) decodedCache.clear();
    decodedCache.set(text, (d = decodeAddress(text)));
  }
  return d;
}

/** The family get_subaddress_as_str's Auto type picks: Carrot from HF10 at `height` (0: the wallet's height). */
export function familyAt(w: Wallet, height = 0): AddressFamily {
  return hardForkAt(height > 0 ? height : w.state.height) >= HF_CARROT ? 'carrot' : 'cn';
}

/** The address of a subaddress in a family (by default the one the wallet's height shows). */
export function subaddress(w: Wallet, idx: SubIndex, family: AddressFamily = familyAt(w)): string {
  if (idx.major === 0 && idx.minor === 0) return w.keys[family].address;
  const key = `${family}/${idx.major}/${idx.minor}`;
  const cache = cacheOf(w).addresses;
  let text = cache.get(key);
  if (text === undefined) {
    const base = w.keys[family];
    const spend = subaddressSpendKey(base, idx.major, idx.minor);
    text = encodeAddress({
      network: 'testnet',
      family,
      type: 'subaddress',
      spendPublicKey: spend,
      viewPublicKey: subaddressViewKey(base, spend),
    });
    cache.set(key, text);
  }
  return text;
}

export const numAccounts = (w: Wallet): number => meta(w).labels.length;
export const numSubaddresses = (w: Wallet, major: number): number => meta(w).labels[major]?.length ?? 0;

/** get_subaddress_label: '' for a subaddress that was never created. */
export const labelOf = (w: Wallet, idx: SubIndex): string => meta(w).labels[idx.major]?.[idx.minor] ?? '';

/**
 * The spend keys (hex) of a family's lookahead window, mapped to their index: built the first time
 * an address of that family is looked up (a few hundred ms), again when the window moves.
 */
function lookahead(w: Wallet, family: AddressFamily): Map<string, SubIndex> {
  const labels = meta(w).labels;
  const la = lookaheadOf(w);
  const bounds = `${w.loaded === true}/${la.major}:${la.minor}/${labels.map((l) => l.length).join(',')}`;
  const c = cacheOf(w);
  const cached = c.tables[family];
  if (cached?.bounds === bounds) return cached.byKey;
  const byKey = new Map<string, SubIndex>();
  // expand_subaddresses' window (kept in the wallet's m_subaddresses), and load's generate_subaddress_map.
  const expanded = labels.length + la.major - 1;
  const atLoad = w.loaded ? la.major + 1 : 0;
  for (let major = 0; major < Math.max(expanded, atLoad); major++) {
    const created = labels[major]?.length;
    let count = major >= expanded ? 0 : created === undefined ? la.minor : created + la.minor - 1;
    if (major < atLoad) count = Math.max(count, la.minor + 1);
    accountSpendKeys(w.keys[family], major, count).forEach((k, minor) => byKey.set(k, { major, minor }));
  }
  c.tables[family] = { bounds, byKey };
  return byKey;
}

/**
 * The subaddress an address (of either family; an integrated address counts as the wallet's own)
 * belongs to, if the wallet would detect a payment to it; undefined otherwise.
 */
export function indexOfAddress(w: Wallet, text: string): SubIndex | undefined {
  const d = decodeCached(text);
  if (!d || d.coin !== 'salvium' || d.network !== 'testnet') return undefined;
  const keys = w.keys[d.family];
  const spend = toHex(d.spendPublicKey);
  if (d.type !== 'subaddress') {
    if (spend !== keys.spendPublic || toHex(d.viewPublicKey) !== keys.viewPublic) return undefined;
    return { major: 0, minor: 0 };
  }
  if (spend === keys.spendPublic) return undefined;
  const idx = lookahead(w, d.family).get(spend);
  if (!idx) return undefined;
  return toHex(subaddressViewKey(keys, d.spendPublicKey)) === toHex(d.viewPublicKey) ? idx : undefined;
}

/** Whether an address is one of the wallet's (any subaddress it would detect, its own, or an integrated one). */
export const isOwnAddress = (w: Wallet, text: string): boolean => indexOfAddress(w, text) !== undefined;

/** add_subaddress: the next subaddress of an account, labelled. */
export function addSubaddress(w: Wallet, major: number, label: string): number {
  const labels = meta(w).labels;
  const account = labels[major];
  if (!account) throw ACCOUNT_OUT_OF_BOUND();
  account.push(label);
  return account.length - 1;
}

/** add_subaddress_account: a new account whose address (minor 0) has the label. */
export function addAccount(w: Wallet, label: string): number {
  const m = meta(w);
  m.labels.push([label]);
  m.accountTags.push('');
  return m.labels.length - 1;
}

/** set_subaddress_label, with wallet2's checks. */
export function setLabel(w: Wallet, idx: SubIndex, label: string): void {
  const account = meta(w).labels[idx.major];
  if (!account) throw ACCOUNT_OUT_OF_BOUND();
  if (idx.minor >= account.length) throw ADDRESS_OUT_OF_BOUND();
  account[idx.minor] = label;
}
