// Accounts, subaddresses, their labels and tags, and balances (wallet_rpc_server.cpp on_getbalance …
// on_set_account_tag_description), with the real checks and messages (recorded from
// salvium-wallet-rpc v1.1.3c: test/sim/wallet-recorded.test.ts).
import { decodeAddress } from '../crypto/address.js';
import { RpcError } from '../http/server.js';
import { bool, list, obj, params, str, u32 } from '../http/params.js';
import { accountBalance, getBalance } from '../wallet/balances.js';
import { meta, type Wallet } from '../wallet/state.js';
import {
  ACCOUNT_OUT_OF_BOUND,
  ADDRESS_OUT_OF_BOUND,
  addAccount,
  addSubaddress,
  familyAt,
  indexOfAddress,
  labelOf,
  numAccounts,
  numSubaddresses,
  setLabel,
  subaddress,
} from '../wallet/subaddresses.js';
import { guard, need, type Define, type WalletRpcContext } from './context.js';

const P = {
  balance: params({
    account_index: u32(),
    address_indices: list(u32()),
    asset_type: str(),
    all_accounts: bool(),
    all_assets: bool(),
    strict: bool(),
  }),
  address: params({ account_index: u32(), address_index: list(u32()), carrot: bool(true), cryptonote: bool(true) }),
  addressIndex: params({ address: str() }),
  createAddress: params({ account_index: u32(), count: u32(1), label: str() }),
  labelAddress: params({ index: obj({ major: u32(), minor: u32() }), label: str() }),
  accounts: params({ tag: str(), regexp: bool(), strict_balances: bool() }),
  createAccount: params({ label: str() }),
  labelAccount: params({ account_index: u32(), label: str() }),
  tagAccounts: params({ tag: str(), accounts: list(u32()) }),
  untagAccounts: params({ accounts: list(u32()) }),
  tagDescription: params({ tag: str(), description: str() }),
};

/** wallet2::get_account_tags: every account has a tag entry; a tag is registered while an account has it. */
export function accountTags(w: Wallet): { tags: string[]; descriptions: Record<string, string> } {
  const m = meta(w);
  while (m.accountTags.length < m.labels.length) m.accountTags.push('');
  for (const tag of m.accountTags) if (tag !== '' && !(tag in m.tagDescriptions)) m.tagDescriptions[tag] = '';
  for (const tag of Object.keys(m.tagDescriptions)) if (!m.accountTags.includes(tag)) delete m.tagDescriptions[tag];
  return { tags: m.accountTags, descriptions: m.tagDescriptions };
}

/** wallet2::set_account_tag: accounts in order, each checked as it comes (earlier ones stay tagged). */
function setAccountTag(w: Wallet, accounts: number[], tag: string): void {
  const { tags } = accountTags(w);
  for (const a of [...new Set(accounts)].sort((x, y) => x - y)) {
    if (a >= numAccounts(w)) throw new RpcError(-1, 'Account index out of bound');
    tags[a] = tag;
  }
  accountTags(w);
}

function getAddress(ctx: WalletRpcContext, raw: unknown): Record<string, unknown> {
  const p = P.address.parse(raw as never);
  const w = need(ctx);
  if (p.account_index >= numAccounts(w)) throw ACCOUNT_OUT_OF_BOUND();
  const count = numSubaddresses(w, p.account_index);
  const minors = p.address_index.length > 0 ? p.address_index : [...Array(count).keys()];
  const used = new Set(w.state.outputs.map((o) => `${o.subaddr?.major ?? 0}/${o.subaddr?.minor ?? 0}`));
  const addresses = minors.map((minor) => {
    if (minor >= count) throw ADDRESS_OUT_OF_BOUND();
    const idx = { major: p.account_index, minor };
    return {
      address: subaddress(w, idx),
      address_carrot: p.carrot ? subaddress(w, idx, 'carrot') : '',
      address_cn: p.cryptonote ? subaddress(w, idx, 'cn') : '',
      address_index: minor,
      label: labelOf(w, idx),
      used: used.has(`${idx.major}/${minor}`),
    };
  });
  return { address: subaddress(w, { major: p.account_index, minor: 0 }), addresses };
}

function getAccounts(ctx: WalletRpcContext, raw: unknown): Record<string, unknown> {
  const p = P.accounts.parse(raw as never);
  const w = need(ctx);
  const { tags, descriptions } = accountTags(w);
  if (p.tag !== '' && !(p.tag in descriptions) && !p.regexp) throw new RpcError(-1, `Tag ${p.tag} is unregistered.`);
  const matches = (tag: string): boolean => {
    if (p.tag === '') return true;
    if (!p.regexp) return tag === p.tag;
    try {
      return new RegExp(`^(?:${p.tag})$`).test(tag);
    } catch (err) {
      throw new RpcError(-1, err instanceof Error ? err.message : String(err));
    }
  };
  const accounts = [];
  let total = 0n;
  let totalUnlocked = 0n;
  for (let major = 0; major < numAccounts(w); major++) {
    if (!matches(tags[major] ?? '')) continue;
    const b = accountBalance(w, major, 'SAL1', p.strict_balances);
    accounts.push({
      account_index: major,
      balance: b.balance,
      base_address: subaddress(w, { major, minor: 0 }),
      label: labelOf(w, { major, minor: 0 }),
      tag: tags[major] ?? '',
      unlocked_balance: b.unlocked,
    });
    total += b.balance;
    totalUnlocked += b.unlocked;
  }
  if (accounts.length === 0 && p.regexp) throw new RpcError(-1, `No matches for regex filter ${p.tag} .`);
  return { subaddress_accounts: accounts, total_balance: total, total_unlocked_balance: totalUnlocked };
}

function addressMethods(ctx: WalletRpcContext, def: Define): void {
  def(['get_address', 'getaddress'], (raw) => getAddress(ctx, raw));
  def(['get_address_index'], (raw) => {
    const p = P.addressIndex.parse(raw);
    const w = need(ctx);
    const a = decodeAddress(p.address);
    if (!a || a.coin !== 'salvium' || a.network !== 'testnet') throw new RpcError(-2, 'Invalid address');
    const index = indexOfAddress(w, p.address);
    if (!index) throw new RpcError(-2, "Address doesn't belong to the wallet");
    return { index };
  });
  def(['create_address'], (raw) => {
    const p = P.createAddress.parse(raw);
    const w = guard(ctx);
    if (p.count < 1 || p.count > 64) throw new RpcError(-1, 'Count must be between 1 and 64.');
    const indices = [...Array(p.count)].map(() => addSubaddress(w, p.account_index, p.label));
    const addresses = indices.map((minor) => subaddress(w, { major: p.account_index, minor }));
    return { address: addresses[0], address_index: indices[0], address_indices: indices, addresses };
  });
  def(['label_address'], (raw) => {
    const p = P.labelAddress.parse(raw);
    setLabel(guard(ctx), p.index, p.label);
    return {};
  });
}

function accountMethods(ctx: WalletRpcContext, def: Define): void {
  def(['get_accounts'], (raw) => getAccounts(ctx, raw));
  def(['create_account'], (raw) => {
    const p = P.createAccount.parse(raw);
    const w = guard(ctx);
    const major = addAccount(w, p.label);
    return { account_index: major, address: subaddress(w, { major, minor: 0 }, familyAt(w)) };
  });
  def(['label_account'], (raw) => {
    const p = P.labelAccount.parse(raw);
    setLabel(guard(ctx), { major: p.account_index, minor: 0 }, p.label);
    return {};
  });
  def(['get_account_tags'], () => {
    const { tags, descriptions } = accountTags(guard(ctx));
    const account_tags = Object.keys(descriptions)
      .sort()
      .map((tag) => ({
        accounts: tags.flatMap((t, i) => (t === tag ? [i] : [])),
        label: descriptions[tag],
        tag,
      }));
    return { account_tags };
  });
  def(['tag_accounts'], (raw) => {
    const p = P.tagAccounts.parse(raw);
    setAccountTag(guard(ctx), p.accounts, p.tag);
    return {};
  });
  def(['untag_accounts'], (raw) => {
    const p = P.untagAccounts.parse(raw);
    setAccountTag(guard(ctx), p.accounts, '');
    return {};
  });
  def(['set_account_tag_description'], (raw) => {
    const p = P.tagDescription.parse(raw);
    const { descriptions } = accountTags(guard(ctx));
    if (p.tag === '') throw new RpcError(-1, 'Tag must not be empty');
    if (!(p.tag in descriptions)) throw new RpcError(-1, 'Tag is unregistered');
    descriptions[p.tag] = p.description;
    return {};
  });
}

export function accountsMethods(ctx: WalletRpcContext, def: Define): void {
  def(['get_balance', 'getbalance'], (raw) => {
    const p = P.balance.parse(raw);
    return getBalance(need(ctx), {
      asset: p.asset_type,
      allAssets: p.all_assets,
      account: p.account_index,
      addressIndices: p.address_indices,
      allAccounts: p.all_accounts,
      strict: p.strict,
    });
  });
  addressMethods(ctx, def);
  accountMethods(ctx, def);
}
