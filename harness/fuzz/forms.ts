// What the draws (draws.ts, error-draws.ts) share: a program's step as written, the context of a draw, text and
// amounts at the edges, the addresses of a wallet of the program.
import type { Rng } from './rng.js';
import { COIN, type WalletModel, type World } from './model.js';

/** One step of a program, as written in its scenario file. */
export type FuzzStep = Record<string, unknown>;

export interface DrawCtx {
  rng: Rng;
  world: World;
}

export type Draw = (c: DrawCtx) => FuzzStep[] | undefined;

export const SAL1 = 'SAL1';
export const U64_MAX = '18446744073709551615';
export const U32_MAX = 4294967295;

/** Text at the edges of what a label, note or description holds: empty, non-ASCII, markup, long, quotes. */
const EDGE_TEXT = [
  '',
  'a',
  'coffee',
  'Zürich café ☕',
  '日本語のラベル',
  '😀👍🏽',
  '<b>bold</b> & <script>alert(1)</script>',
  '"quoted" and \'single\'',
  'back\\slash',
  'tab\there',
  'line one\nline two',
  '  spaces around  ',
  'x'.repeat(255),
  'y'.repeat(1024),
  '%s %d {0} $HOME',
];

export const text = (rng: Rng): string => rng.pick(EDGE_TEXT);

/** What the shrinker puts in place of an edge text. */
export const EDGE_TEXT_PLAIN = 'a';

export const isEdgeText = (s: string): boolean => s !== EDGE_TEXT_PLAIN && s !== '' && EDGE_TEXT.includes(s);

/** A step run by `wallet` (main is the default and left out). */
export function on(wallet: string, step: FuzzStep): FuzzStep {
  return wallet === 'main' ? step : { wallet, ...step };
}

export const wallets = (world: World): WalletModel[] => [...world.wallets.values()];

/** An amount as a scenario writes it: whole or decimal SAL1, or atomic units. */
export function amountText(v: bigint): string | number {
  if (v % COIN === 0n) return `${v / COIN} SAL1`;
  if (v < 1000n) return Number(v);
  const whole = v / COIN;
  const frac = (v % COIN).toString().padStart(8, '0').replace(/0+$/, '');
  return `${whole}.${frac} SAL1`;
}

/** Where a payment to `w` goes: its address, its Carrot address, a subaddress or an integrated address it made. */
export function addressOf(rng: Rng, w: WalletModel): string {
  const forms: [string, number][] = [
    [`\${${w.name}.address}`, 4],
    [`\${${w.name}.carrot}`, 2],
  ];
  for (const s of w.subaddresses) forms.push([`\${${s}}`, 2]);
  for (const s of w.integrated) forms.push([`\${${s}}`, 2]);
  return rng.weighted(forms);
}
