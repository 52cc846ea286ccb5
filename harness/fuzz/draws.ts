// The steps a fuzz program is drawn from: each draw looks at the model (model.ts), returns the steps it adds (or
// undefined when it cannot be drawn now) and updates the model as a correct Salvium would change. A step the model
// says succeeds has no expectation (its whole answer is compared by the diff); one it says fails has
// `expect_error: {}` (any error: the diff compares its code and message). Most valuable first: payments.
import { partitionEpisode } from './network-draws.js';
import { badAddress, badIndex, badToken, tooMuch, unknownAsset, zero } from './error-draws.js';
import { account, addresses, attribute, book, integrated, notes, relabel, subaddress } from './upkeep-draws.js';
import { addressOf, amountText, on, SAL1, text, U32_MAX, wallets, type Draw } from './forms.js';
import type { Rng } from './rng.js';
import {
  asset,
  COIN,
  FEE_MAX,
  inputsFor,
  mineBlocks,
  newName,
  receive,
  refresh,
  spend,
  type TxModel,
  type WalletModel,
  type World,
} from './model.js';

/** A payment amount: small, at the edges (one atomic unit), or a fair part of what one output holds. */
function drawAmount(rng: Rng, part: bigint): bigint {
  const roomy = part > FEE_MAX * 2n ? part - FEE_MAX * 2n : 1n;
  return rng.weighted<bigint>([
    [1n, 2],
    [COIN / 100n, 2],
    [COIN / 2n, 3],
    [COIN, 3],
    [BigInt(rng.int(1, 1_000_000)) * 97n, 2],
    [roomy > COIN ? roomy : COIN / 3n, 1],
  ]);
}

function senders(world: World, a: string): WalletModel[] {
  return wallets(world).filter((w) => !w.held && (w.assets.get(a)?.free ?? 0) > 0);
}

function newTx(world: World, from: WalletModel, name: string, relayed: boolean, token = false): TxModel {
  const tx: TxModel = { name, from: from.name, to: new Set(), relayed, ...(token ? { token } : {}) };
  world.txs.push(tx);
  return tx;
}

/** A SAL1 payment to one or several wallets of the program (`transfer` or `transfer_split`). */
function payment(method: 'transfer' | 'transfer_split', maxDests: number, opts: { held?: boolean } = {}): Draw {
  return ({ rng, world }) => {
    const from = rng.pick(senders(world, SAL1).length ? senders(world, SAL1) : [undefined]);
    if (!from) return undefined;
    const h = asset(from, SAL1);
    const n = rng.int(1, maxDests);
    const dests = Array.from({ length: n }, () => {
      const to = rng.pick(wallets(world));
      return { to, address: addressOf(rng, to), amount: drawAmount(rng, h.part) };
    });
    const total = dests.reduce((s, d) => s + d.amount, 0n);
    // A split may need a transaction per 7 destinations, each with its inputs.
    const extra = method === 'transfer_split' ? Math.ceil(n / 7) : 0;
    const inputs = inputsFor({ ...h, dust: h.dust + extra }, total, true);
    if (inputs === undefined) return undefined;
    spend(h, inputs, total);
    h.dust += 1 + extra;
    const name = newName(world, 'tx');
    const tx = newTx(world, from, name, !opts.held);
    for (const d of dests) {
      tx.to.add(d.to.name);
      receive(d.to, SAL1, d.amount, tx);
    }
    const body: Record<string, unknown> =
      n === 1
        ? { to: dests[0]!.address, amount: amountText(dests[0]!.amount) }
        : { destinations: dests.map((d) => ({ to: d.address, amount: amountText(d.amount) })) };
    const save: Record<string, string> = {
      [name]: method === 'transfer' ? 'result.tx_hash' : 'result.tx_hash_list[0]',
    };
    if (opts.held) {
      body.do_not_relay = true;
      body[method === 'transfer' ? 'get_tx_metadata' : 'get_tx_metadata'] = true;
      const meta = newName(world, 'meta');
      save[meta] = method === 'transfer' ? 'result.tx_metadata' : 'result.tx_metadata_list[0]';
      tx.metadata = meta;
      from.held = name;
    }
    if (rng.chance(0.15)) body.priority = rng.int(0, 4);
    return [on(from.name, { [method]: body, save })];
  };
}

const transfer = payment('transfer', 1);
const severalDestinations = payment('transfer', 7);
const split = payment('transfer_split', 9);
const heldBack = payment('transfer', 2, { held: true });

/** relay_tx of the transaction a wallet holds back; sometimes twice (the same hash again). */
const relay: Draw = ({ rng, world }) => {
  const w = rng.pick(
    wallets(world)
      .filter((x) => x.held)
      .concat([undefined as never]),
  );
  if (!w) return undefined;
  const tx = world.txs.find((t) => t.name === w.held)!;
  tx.relayed = true;
  delete w.held;
  const step = on(w.name, { call: { method: 'relay_tx', params: { hex: `\${${tx.metadata!}}` } } });
  return rng.chance(0.3) ? [step, step] : [step];
};

/** sweep_all of every unlocked SAL1 output to a wallet of the program. */
const sweep: Draw = ({ rng, world }) => {
  const from = rng.pick(senders(world, SAL1).concat([undefined as never]));
  if (!from) return undefined;
  const h = asset(from, SAL1);
  const to = rng.pick(wallets(world).filter((w) => w !== from));
  const swept = h.part * BigInt(h.free);
  // At least the free outputs less a fee per transaction; dust and unlocked change may come along (not counted).
  const name = newName(world, 'tx');
  const tx = newTx(world, from, name, true);
  tx.to.add(to.name);
  receive(to, SAL1, swept > FEE_MAX * 2n ? swept - FEE_MAX * 2n : 0n, tx, h.max);
  h.max = h.max > swept ? h.max - swept : 0n;
  h.free = 0;
  h.dust++;
  return [on(from.name, { sweep_all: { to: addressOf(rng, to) }, save: { [name]: 'result.tx_hash_list[0]' } })];
};

/** A token held unlocked (requires.tokens, or made by the program and unlocked since) sent with transfer_split. */
const tokenPayment: Draw = ({ rng, world }) => {
  const from = rng.pick(
    wallets(world)
      .filter((w) => !w.held && [...w.assets.keys()].some((a) => a !== SAL1 && (w.assets.get(a)?.free ?? 0) > 0))
      .concat([undefined as never]),
  );
  if (!from) return undefined;
  const a = rng.pick([...from.assets.keys()].filter((x) => x !== SAL1 && from.assets.get(x)!.free > 0));
  const h = asset(from, a);
  const sal = asset(from, SAL1);
  // The ROLLUP pays the fees in SAL1 from one output at most and a random second.
  const feeInputs = inputsFor(sal, 0n, true);
  if (feeInputs === undefined) return undefined;
  const amount = rng.pick([1n, COIN, 5n * COIN, h.part / 2n]);
  const inputs = inputsFor({ ...h, dust: h.dust }, amount, false);
  if (inputs === undefined || amount < 1n) return undefined;
  spend(h, inputs, amount);
  h.dust++;
  spend(sal, feeInputs, 0n);
  sal.dust++;
  const to = rng.pick(wallets(world));
  const name = newName(world, 'tx');
  const tx = newTx(world, from, name, true, true);
  tx.to.add(to.name);
  receive(to, a, amount, tx);
  // A token goes to the primary address (Carrot): subaddresses and integrated ones too.
  return [
    on(from.name, {
      transfer_split: { to: addressOf(rng, to), amount: amountText(amount), asset: a },
      save: { [name]: 'result.tx_hash_list[0]' },
    }),
  ];
};

/** create_token by main with a ticker of the program's own, edge metadata in its name and url. */
const createToken: Draw = ({ rng, world }) => {
  if (!world.canCreateTokens || world.createdTokens >= 2) return undefined;
  const main = world.wallets.get('main')!;
  const sal = asset(main, SAL1);
  const inputs = inputsFor(sal, 1000n * COIN, true);
  if (main.held || inputs === undefined) return undefined;
  spend(sal, inputs, 1000n * COIN);
  sal.dust++;
  const ticker = `C${++world.createdTokens}`;
  const supply = rng.pick([1, 21, 1000, 184_400_000]);
  const value: Record<string, unknown> = { ticker: `\${unique.${ticker}}`, supply, name: text(rng).slice(0, 60) };
  if (rng.chance(0.3)) value.url = rng.pick(['https://example.invalid/t.json', '', 'not a url <>']);
  const name = newName(world, 'tx');
  const tx = newTx(world, main, name, true);
  tx.to.add('main');
  // Its supply is locked for 60 blocks: programs are shorter, so it is not counted as spendable.
  world.tokens.set(`sal\${unique.${ticker}}`, tx);
  return [{ create_token: value, save: { [name]: 'result.tx_hash_list[0]' } }];
};

/** mine N blocks, every wallet refreshing after them (the default) or none (sync: false). */
const mine: Draw = ({ rng, world }) => {
  const blocks = rng.weighted([
    [1, 6],
    [2, 2],
    [3, 1],
  ]);
  const sync = rng.chance(0.7);
  mineBlocks(world, blocks);
  if (sync) for (const w of wallets(world)) refresh(world, w);
  return [sync ? { mine: blocks } : { mine: { blocks, sync: false } }];
};

/** Mine until what was received unlocks. */
const mineToUnlock: Draw = ({ world }) => {
  mineBlocks(world, 11);
  for (const w of wallets(world)) refresh(world, w);
  return [{ mine: 11 }];
};

const refreshStep: Draw = ({ rng, world }) => {
  const w = rng.pick(wallets(world));
  refresh(world, w);
  return [on(w.name, { call: { method: 'refresh' } })];
};

const autoRefreshOff: Draw = ({ rng, world }) => {
  const w = rng.pick(wallets(world));
  return [on(w.name, { call: { method: 'auto_refresh', params: { enable: false } } })];
};

/** get_balance of an asset the wallet surely holds (a result), surely never held (-1), or of every asset. */
const balance: Draw = ({ rng, world }) => {
  const w = rng.pick(wallets(world));
  const assets = [...w.assets.entries()].filter(([a]) => !a.includes('${'));
  const sure = assets.filter(([, h]) => h.held);
  const never = !w.assets.get(SAL1)?.held && !w.assets.get(SAL1)?.maybe;
  if (never) return [on(w.name, { get_balance: rng.chance(0.5) ? {} : { all_assets: true }, expect_error: {} })];
  if (!sure.length) return undefined;
  const [a] = rng.pick(sure);
  const params = rng.weighted<Record<string, unknown>>([
    [{}, 2],
    [{ asset_type: a }, 3],
    [{ asset_type: a, all_assets: true }, 1],
    [{ all_accounts: true }, 1],
    [{ account_index: 0, address_indices: [0] }, 1],
  ]);
  if (a !== SAL1 && !('asset_type' in params)) return undefined;
  return [on(w.name, { get_balance: params })];
};

/** get_transfers with a set of its groups, sometimes by height. */
const transfers: Draw = ({ rng, world }) => {
  const w = rng.pick(wallets(world));
  const groups = ['in', 'out', 'pending', 'failed', 'pool'].filter(() => rng.chance(0.5));
  const params: Record<string, unknown> = Object.fromEntries(groups.map((g) => [g, true]));
  if (rng.chance(0.15)) Object.assign(params, { filter_by_height: true, min_height: 0, max_height: U32_MAX });
  if (rng.chance(0.1)) params.all_accounts = true;
  return [on(w.name, { get_transfers: params })];
};

/** get_transfer_by_txid by the sender (found), by a wallet the model knows has it mined (found), or by a stranger. */
const byTxid: Draw = ({ rng, world }) => {
  const relayed = world.txs.filter((t) => t.relayed);
  if (!relayed.length) return undefined;
  const tx = rng.pick(relayed);
  const w = rng.pick(wallets(world));
  const params = { txid: `\${${tx.name}}` };
  const step = on(w.name, { call: { method: 'get_transfer_by_txid', params } });
  if (w.name === tx.from) return [step];
  if (tx.to.has(w.name)) {
    if (tx.minedAt !== undefined && w.seen >= tx.minedAt) return [step];
    return undefined; // in its pool view or not yet: depends on when it looked
  }
  return [{ ...step, expect_error: {} }];
};

/** The same question before and after the wallet RPC restarts: the answers must be the same. */
const restart: Draw = ({ rng, world }) => {
  const w = rng.pick(wallets(world));
  const held = w.assets.get(SAL1)?.held;
  const q = held && rng.chance(0.5) ? { get_balance: {} } : { get_transfers: { in: true, out: true, pending: true } };
  // A refresh first: the wallet may scan to the top as it opens again, and the two answers must see the same blocks.
  refresh(world, w);
  const r = on(w.name, { call: { method: 'refresh' } });
  return [r, on(w.name, q), on(w.name, { restart: 'wallet' }), on(w.name, q)];
};

/** get_tokens of a pattern, token info of an asset made by the program (or of one nobody made). */
const tokenQuery: Draw = ({ rng, world }) => {
  const made = [...world.tokens].filter(([, tx]) => !tx || tx.minedAt !== undefined).map(([a]) => a);
  if (rng.chance(0.5) || !made.length) return [{ get_tokens: { regex: rng.pick(['', '.*', 'Z', '[', 'ÄÖ']) } }];
  const a = rng.pick(made);
  return [{ call: { method: 'get_token_info', params: { asset_type: a } } }];
};

/**
 * What a payment app asks the daemon: a transaction of the program by its hash (in the pool, then in a block), the
 * pool, the top block, the fee estimate; and a block past any height (an error).
 */
const daemon: Draw = ({ rng, world }) => {
  const relayed = world.txs.filter((t) => t.relayed);
  const kind = rng.weighted([
    ['tx', relayed.length ? 4 : 0],
    ['pool', 2],
    ['top', 1],
    ['fee', 1],
    ['past', 2],
  ] as const);
  if (kind === 'tx') {
    const tx = rng.pick(relayed);
    return [{ call: { path: '/get_transactions', params: { txs_hashes: [`\${${tx.name}}`], decode_as_json: true } } }];
  }
  if (kind === 'pool') return [{ call: { path: '/get_transaction_pool_hashes' } }];
  if (kind === 'top') return [{ call: { on: 'daemon', method: 'get_last_block_header' } }];
  if (kind === 'fee') return [{ call: { on: 'daemon', method: 'get_fee_estimate' } }];
  const height = rng.pick([U32_MAX, 100_000, 4_294_967_296]);
  return [{ call: { on: 'daemon', method: 'get_block_header_by_height', params: { height } }, expect_error: {} }];
};

/** Every draw with its weight: payments first. */
export const DRAWS: readonly (readonly [string, Draw, number])[] = [
  ['transfer', transfer, 14],
  ['destinations', severalDestinations, 5],
  ['transfer_split', split, 5],
  ['sweep_all', sweep, 3],
  ['token transfer', tokenPayment, 4],
  ['create_token', createToken, 2],
  ['do_not_relay', heldBack, 3],
  ['relay_tx', relay, 6],
  ['mine', mine, 9],
  ['mine to unlock', mineToUnlock, 2],
  ['refresh', refreshStep, 4],
  ['auto_refresh off', autoRefreshOff, 1],
  ['get_balance', balance, 8],
  ['get_transfers', transfers, 8],
  ['get_transfer_by_txid', byTxid, 6],
  ['daemon', daemon, 4],
  ['subaddress', subaddress, 4],
  ['label', relabel, 2],
  ['account', account, 1],
  ['addresses', addresses, 2],
  ['integrated address', integrated, 2],
  ['address book', book, 3],
  ['notes', notes, 3],
  ['attribute', attribute, 2],
  ['restart', restart, 2],
  ['more than held', tooMuch, 3],
  ['bad address', badAddress, 3],
  ['unknown asset', unknownAsset, 2],
  ['zero', zero, 1],
  ['bad index', badIndex, 1],
  ['bad ticker', badToken, 1],
  ['token query', tokenQuery, 1],
  ['partition', partitionEpisode, 3],
];
