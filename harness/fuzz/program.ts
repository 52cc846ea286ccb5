// A fuzz program: a scenario file drawn from a seed. Its wallets and funding (a profile), its steps drawn one by
// one from the model (draws.ts), its YAML (byte for byte the same for the same seed), and what keeps a shorter
// program valid: a step that uses a value saved by a step that is gone goes too (`prune`).
import YAML from 'yaml';
import { DRAWS } from './draws.js';
import type { FuzzStep } from './forms.js';
import { COIN, holding, newWallet, type World } from './model.js';
import { Rng } from './rng.js';

export interface FuzzProgram {
  seed: number;
  name: string;
  requires: {
    height: number;
    unlocked: Record<string, string>;
    tokens?: Record<string, { supply: number; name: string }>;
  };
  wallets: Record<string, { unlocked?: Record<string, string> }>;
  /** More than one node: the program draws partitions (network-draws.ts). */
  nodes?: number;
  steps: FuzzStep[];
}

export interface GenerateOptions {
  /** Steps to draw (the program has exactly this many). */
  steps: number;
}

/** Height at which tokens are active on Salvium (and Carrot addresses, from 1100): every program starts there. */
const START_HEIGHT = 1201;

/** A ticker of the program's own for the token it holds before its steps (programs of one run differ in seed). */
export function heldTicker(seed: number): string {
  return `Z${(Math.abs(seed) % 36 ** 3).toString(36).toUpperCase().padStart(3, '0')}`;
}

/** Names of the values a step uses (`${name}`; wallet and other dotted placeholders are not saved values). */
export function usedNames(step: FuzzStep): string[] {
  return [...JSON.stringify(step).matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!);
}

export function savedNames(step: FuzzStep): string[] {
  const save = step.save as Record<string, string> | undefined;
  return save ? Object.keys(save) : [];
}

/** The steps that stay valid: each uses only values saved by a step kept before it. */
export function prune(steps: readonly FuzzStep[]): FuzzStep[] {
  const have = new Set<string>();
  const out: FuzzStep[] = [];
  for (const s of steps) {
    if (!usedNames(s).every((n) => have.has(n))) continue;
    out.push(s);
    for (const n of savedNames(s)) have.add(n);
  }
  return out;
}

/** The wallets a program's steps name (as `wallet:` or in a placeholder). */
export function walletsUsed(steps: readonly FuzzStep[]): Set<string> {
  const names = new Set<string>();
  for (const s of steps) {
    if (typeof s.wallet === 'string') names.add(s.wallet);
    for (const m of JSON.stringify(s).matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\.(?:address|cn|carrot)\}/g))
      names.add(m[1]!);
  }
  return names;
}

const NETWORK_SALT = 0x6e6f6465;

/** Draw the program of `seed`. */
export function generateProgram(seed: number, o: GenerateOptions): FuzzProgram {
  const rng = new Rng(seed);
  // Drawn from a generator of its own, so that the programs of one-node seeds stay as they were drawn before.
  const network = new Rng(seed ^ NETWORK_SALT);
  const nodes = network.chance(0.15) ? network.int(2, 3) : 1;
  // A program of several nodes runs on a testnet of its own, whose `main` is the wallet that mined the chain and paid
  // the others: how many inputs each of those payments spent is the real wallet's coin, outside any step the diff
  // can replay. Such a program pays from a wallet it declares (w0) instead, and holds no token.
  const payer = nodes > 1 ? 'w0' : 'main';
  const tokens = rng.chance(0.3) && nodes === 1;
  const mainFunds = tokens ? 2400n : 60n;
  const program: FuzzProgram = {
    seed,
    name: `fuzz program ${seed}`,
    requires: { height: START_HEIGHT, unlocked: { SAL1: `${mainFunds} SAL1` } },
    wallets: {
      ...(nodes > 1 ? { w0: { unlocked: { SAL1: `${mainFunds} SAL1` } } } : {}),
      w1: { unlocked: { SAL1: '12 SAL1' } },
      w2: {},
    },
    ...(nodes > 1 ? { nodes } : {}),
    steps: [],
  };
  const world: World = {
    wallets: new Map([
      [payer, newWallet(payer, [{ asset: 'SAL1', amount: mainFunds * COIN }])],
      ['w1', newWallet('w1', [{ asset: 'SAL1', amount: 12n * COIN }])],
      ['w2', newWallet('w2')],
    ]),
    txs: [],
    mined: 0,
    tokens: new Map(),
    names: 0,
    canCreateTokens: tokens,
    createdTokens: 0,
    nodes,
  };
  if (tokens) {
    const ticker = heldTicker(seed);
    const supply = rng.pick([100, 1000, 184_400_000]);
    program.requires.tokens = { [ticker]: { supply, name: 'fuzz token' } };
    world.wallets.get('main')!.assets.set(`sal${ticker}`, holding(BigInt(supply) * COIN, 1));
    world.tokens.set(`sal${ticker}`, undefined);
  }
  const draws = DRAWS.map(([, d, w]) => [d, w] as const);
  const steps: FuzzStep[] = [];
  for (let tries = 0; steps.length < o.steps && tries < o.steps * 50; tries++) {
    const got = rng.weighted(draws)({ rng, world });
    if (got) steps.push(...got);
  }
  steps.length = Math.min(steps.length, o.steps);
  program.steps = steps;
  return program;
}

/** Name of the steps the conservation check reads (invariants.ts). */
export const BEFORE = 'invariant: balance before';
export const AFTER = 'invariant: balance after';

/**
 * The program with the steps the one-side checks read (invariants.ts): every wallet's accounts first; last, two
 * blocks (a token transfer's second part) and every wallet's accounts again.
 */
export function withInvariants(p: FuzzProgram): FuzzProgram {
  // On a testnet of its own (several nodes), main is the miner: the blocks pay it.
  const all = [...(p.nodes ? [] : ['main']), ...Object.keys(p.wallets)];
  const accounts = (w: string, name: string): FuzzStep => ({
    name: `${name} ${w}`,
    ...(w === 'main' ? {} : { wallet: w }),
    call: { method: 'get_accounts' },
  });
  return {
    ...p,
    steps: [...all.map((w) => accounts(w, BEFORE)), ...p.steps, { mine: 2 }, ...all.map((w) => accounts(w, AFTER))],
  };
}

/** The scenario file of a program, with `header` as its leading comment lines. */
export function programYaml(p: FuzzProgram, header: readonly string[] = []): string {
  const body: Record<string, unknown> = {
    name: p.name,
    tags: ['fuzz'],
    ...(p.nodes ? { nodes: p.nodes } : {}),
    requires: p.requires,
    ...(Object.keys(p.wallets).length ? { wallets: p.wallets } : {}),
    steps: p.steps,
  };
  const doc = new YAML.Document(body, { aliasDuplicateObjects: false });
  // Each step's value in flow style, as the example scenarios write it: one step, a line or two.
  const steps = doc.get('steps') as YAML.YAMLSeq<YAML.YAMLMap>;
  for (const step of steps.items)
    for (const pair of step.items) if (YAML.isCollection(pair.value)) pair.value.flow = true;
  if (header.length) doc.commentBefore = header.map((l) => ` ${l}`).join('\n');
  return doc.toString({ lineWidth: 0, flowCollectionPadding: true });
}
