// A wallet's accounts and subaddresses as wallet2 keeps them: labels[major][minor] lists the created
// ones (an account is its minor 0); receiving is detected within the lookahead window wallet2's
// expand_subaddresses fills (by default 50 accounts past the last one, 200 subaddresses past each
// account's last; reference: wallet2.cpp SUBADDRESS_LOOKAHEAD_*; the wallet CLI's
// --subaddress-lookahead major:minor sets another, kept in the keys file), plus, once the wallet was
// loaded from its files, the window carrot_and_legacy_account::generate_subaddress_map builds at every
// load: accounts 0..major and subaddresses 0..minor, both ends included. Receiving does not create
// anything (v1.1.3c's scan never expands the labels). Addresses are the real ones of both families
// (crypto/subaddress.ts); which family a listing shows follows the hard fork of the wallet's height
// (or of the entry's), as get_subaddress_as_str's Auto type does.
import { decodeAddress, encodeAddress, type AddressFamily, type DecodedAddress } from '../crypto/address.js';
import { toHex } from '../crypto/hex.js';
import {
  accountSpendKeys,
  isSubaddressOf,
  subaddressSpendKey,
  subaddressViewKey,
  type SubaddressBase,
} from '../crypto/subaddress.js';
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

/** Spend keys derived so far (hex → index), and per account how many minors (from 0) they cover. */
interface Table {
  byKey: Map<string, SubIndex>;
  done: number[];
}
interface Cache {
  addresses: Map<string, string>;
  tables: Partial<Record<AddressFamily, Table>>;
  /** Addresses found to be, or not to be, a subaddress of the wallet's keys (of any index). */
  ours: Map<string, boolean>;
}
const caches = new WeakMap<Wallet, Cache>();
const cacheOf = (w: Wallet): Cache => {
  let c = caches.get(w);
  if (!c) caches.set(w, (c = { addresses: new Map(), tables: {}, ours: new Map() }));
  return c;
};

/** The keys a family's subaddresses derive from. */
function baseOf(w: Wallet, family: AddressFamily): SubaddressBase {
  if (family === 'cn') return { family, spendPublic: w.keys.cn.spendPublic, viewSecret: w.keys.cn.viewSecret };
  const k = w.keys.carrot;
  return { family, spendPublic: k.spendPublic, viewSecret: k.viewSecret, generateAddress: k.generateAddress };
}

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
    const base = baseOf(w, family);
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
 * The lookahead window: per account (major), how many subaddresses (minors from 0) the wallet would detect a payment
 * to — expand_subaddresses' window (kept in the wallet's m_subaddresses), and load's generate_subaddress_map.
 */
function windowOf(w: Wallet): number[] {
  const labels = meta(w).labels;
  const la = lookaheadOf(w);
  const expanded = labels.length + la.major - 1;
  const atLoad = w.loaded ? la.major + 1 : 0;
  const counts: number[] = [];
  for (let major = 0; major < Math.max(expanded, atLoad); major++) {
    const created = labels[major]?.length;
    let count = major >= expanded ? 0 : created === undefined ? la.minor : created + la.minor - 1;
    if (major < atLoad) count = Math.max(count, la.minor + 1);
    counts.push(count);
  }
  return counts;
}

/** Minors derived per account in each round of a search: the low indices of every account come first. */
const ROUND = 8;

/**
 * The index of one of the wallet's subaddress spend keys within its lookahead window, if it is there. The keys are
 * derived as needed and kept (a real subaddress costs a hash and a scalar multiplication: the whole default window,
 * 10,000 keys, takes seconds): first the subaddresses created, then a round of minors over every account at a time.
 */
function findInWindow(w: Wallet, family: AddressFamily, spend: string): SubIndex | undefined {
  const counts = windowOf(w);
  const inWindow = (i: SubIndex): SubIndex | undefined =>
    i.major < counts.length && i.minor < counts[i.major]! ? i : undefined;
  const c = cacheOf(w);
  const t = (c.tables[family] ??= { byKey: new Map(), done: [] });
  const known = t.byKey.get(spend);
  if (known) return inWindow(known);
  const base = baseOf(w, family);
  const derive = (upTo: (major: number) => number): SubIndex | undefined => {
    counts.forEach((count, major) => {
      const from = t.done[major] ?? 0;
      const to = Math.min(count, upTo(major));
      if (to <= from) return;
      accountSpendKeys(base, major, from, to - from).forEach((k, i) => t.byKey.set(k, { major, minor: from + i }));
      t.done[major] = to;
    });
    const found = t.byKey.get(spend);
    return found && inWindow(found);
  };
  const labels = meta(w).labels;
  const created = derive((major) => labels[major]?.length ?? 0);
  if (created) return created;
  const widest = Math.max(0, ...counts);
  for (let upTo = ROUND; upTo - ROUND < widest; upTo += ROUND) {
    const found = derive(() => upTo);
    if (found) return found;
  }
  return undefined;
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
  // A wallet without Carrot keys (generate_from_keys) has no Carrot subaddresses.
  if (/^0+$/.test(keys.viewSecret)) return undefined;
  // The view key tells ours from others' in one multiplication; only ours are looked for in the window.
  const ours = cacheOf(w).ours;
  let mine = ours.get(text);
  if (mine === undefined) {
    if (ours.size > 20_000) ours.clear();
    ours.set(text, (mine = isSubaddressOf(baseOf(w, d.family), d.spendPublicKey, d.viewPublicKey)));
  }
  return mine ? findInWindow(w, d.family, spend) : undefined;
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
