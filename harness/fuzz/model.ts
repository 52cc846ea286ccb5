// What the generator knows of a program's testnet as it draws each step: each wallet's outputs (how many are
// surely unlocked, how much it may hold at most), the transactions sent and who is party to them, the addresses
// and tokens the program made, and the blocks mined. It is deliberately conservative: a step drawn as one that
// succeeds must succeed on any correct Salvium, and one drawn as an error must fail on any correct Salvium; what
// the model cannot tell is not drawn.
export const COIN = 100_000_000n;
/** The most one transaction's fee may be (a few inputs, up to 8 outputs): observed fees are near 0.0125 SAL1. */
export const FEE_MAX = COIN / 10n;
/** Blocks after its block until an output is spendable (CRYPTONOTE_DEFAULT_TX_SPENDABLE_AGE), plus one. */
export const UNLOCK_BLOCKS = 11;
/** Funding arrives as this many equal outputs (harness/testnet/mining/funding.ts FUNDING_OUTPUTS). */
export const FUNDED_OUTPUTS = 6;

/** An output the model counts on once it is unlocked: received in a mined block, seen by its wallet. */
interface Incoming {
  /** At least this much (exact for a payment; a sweep's is less its fee). */
  amount: bigint;
  /** The transaction that pays it: the output is in a block once that is. */
  tx: TxModel;
}

export interface AssetHolding {
  /** Outputs of at least `part` each that are surely unlocked for the wallet now. */
  free: number;
  part: bigint;
  /** The most the wallet may hold of the asset (anything it may have received counted). */
  max: bigint;
  incoming: Incoming[];
  /**
   * Outputs smaller than `part` the wallet may hold (change, small payments): the simulator takes the oldest outputs
   * first, so a send may use them too.
   */
  dust: number;
  /** The wallet has surely seen a mined output of the asset (get_balance of it answers a result, not -1). */
  held: boolean;
  /** The wallet may have seen one (held is false but a payment may be in its view): get_balance is not drawn. */
  maybe: boolean;
}

export interface WalletModel {
  name: string;
  assets: Map<string, AssetHolding>;
  /** Blocks mined by the program when the wallet last refreshed. */
  seen: number;
  /** Saved names of its subaddresses (minor index = position + 1). */
  subaddresses: string[];
  /** Saved names of its integrated addresses. */
  integrated: string[];
  /** Address book entries. */
  book: number;
  /** Accounts besides account 0. */
  accounts: number;
  /** A transaction built with do_not_relay and not relayed: no other send until it is (it may use the same outputs). */
  held?: string;
  attributes: Set<string>;
}

export interface TxModel {
  /** Saved name of its hash (or of its first hash, `transfer_split`). */
  name: string;
  from: string;
  to: Set<string>;
  /** Blocks mined by the program when it was mined; undefined: in the pool (or held back). */
  minedAt?: number;
  relayed: boolean;
  /** Saved name of its metadata (do_not_relay). */
  metadata?: string;
  /** A token transfer's token part reaches a block one block after its ROLLUP. */
  token?: boolean;
}

export interface World {
  wallets: Map<string, WalletModel>;
  txs: TxModel[];
  /** Blocks mined by the program's steps so far. */
  mined: number;
  /** Tokens the program may ask about (asset types), with the transaction that made each (none: before the steps). */
  tokens: Map<string, TxModel | undefined>;
  /** Saved names used so far (each is new). */
  names: number;
  /** Whether create_token may be drawn (the program is funded for it). */
  canCreateTokens: boolean;
  createdTokens: number;
  /** The program's nodes (1 to 3): with more than one, partitions are drawn. */
  nodes: number;
}

export function holding(part: bigint, free: number): AssetHolding {
  return { free, part, max: part * BigInt(free), incoming: [], dust: 0, held: free > 0, maybe: false };
}

export function newWallet(name: string, funded?: { asset: string; amount: bigint }[]): WalletModel {
  const assets = new Map<string, AssetHolding>();
  for (const f of funded ?? []) assets.set(f.asset, holding(f.amount / BigInt(FUNDED_OUTPUTS), FUNDED_OUTPUTS));
  return {
    name,
    assets,
    seen: 0,
    subaddresses: [],
    integrated: [],
    book: 0,
    accounts: 0,
    attributes: new Set(),
  };
}

export function asset(w: WalletModel, a: string): AssetHolding {
  let h = w.assets.get(a);
  if (!h) {
    h = { free: 0, part: COIN, max: 0n, incoming: [], dust: 0, held: false, maybe: false };
    w.assets.set(a, h);
  }
  return h;
}

export function newName(world: World, prefix: string): string {
  return `${prefix}${++world.names}`;
}

/**
 * How many of the wallet's free outputs a send of `amount` (plus its fee, paid in SAL1 when `feeHere`) surely
 * needs at most, or undefined when the wallet surely cannot pay it. The real selector may add an input at random,
 * and the simulator may take small old outputs first: both are counted.
 */
export function inputsFor(h: AssetHolding, amount: bigint, feeHere: boolean): number | undefined {
  const need = amount + (feeHere ? FEE_MAX : 0n);
  if (h.part <= 0n) return undefined;
  const k = Number((need + h.part - 1n) / h.part);
  const worst = k + 1 + h.dust;
  return h.free >= worst ? worst : undefined;
}

/** A send surely fails for want of money: more than the wallet can hold of the asset at all. */
export function surelyShort(h: AssetHolding | undefined, amount: bigint): boolean {
  return amount > (h?.max ?? 0n);
}

/** The wallet spent `inputs` of its free outputs and `amount` left it; its change is not counted on again. */
export function spend(h: AssetHolding, inputs: number, amount: bigint): void {
  h.free -= inputs;
  h.max -= amount;
  if (h.max < 0n) h.max = 0n;
}

/**
 * A payment of at least `amount` (at most `upper`) reaches the wallet by `tx` (in the pool until a block holds it).
 */
export function receive(w: WalletModel, a: string, amount: bigint, tx: TxModel, upper = amount): void {
  const h = asset(w, a);
  h.max += upper;
  h.incoming.push({ amount, tx });
  if (!h.held) h.maybe = true;
}

/** Blocks were mined: what is in the pool is in the first of them (a token transfer's token part in the second). */
export function mineBlocks(world: World, blocks: number): void {
  const first = world.mined + 1;
  for (const t of world.txs) {
    if (t.minedAt !== undefined || !t.relayed) continue;
    const at = t.token ? first + 1 : first;
    if (at <= world.mined + blocks) t.minedAt = at;
  }
  world.mined += blocks;
}

/** The wallet refreshed: what was mined is in its view; outputs old enough are unlocked. */
export function refresh(world: World, w: WalletModel): void {
  w.seen = world.mined;
  for (const h of w.assets.values()) {
    const still: Incoming[] = [];
    for (const i of h.incoming) {
      const minedAt = i.tx.minedAt;
      if (minedAt === undefined) {
        still.push(i);
        continue;
      }
      h.held = true;
      if (w.seen >= minedAt + UNLOCK_BLOCKS) {
        if (i.amount >= h.part) h.free++;
        else h.dust++;
      } else still.push(i);
    }
    h.incoming = still;
    h.maybe = h.incoming.length > 0 && !h.held;
  }
}
