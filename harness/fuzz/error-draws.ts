// The error paths a program draws: each must fail on any correct Salvium, so each step has `expect_error: {}`
// (the diff compares the code and the message); a payment of 0, which fails only without the fee, is drawn
// unrelayed from a wallet that can pay.
import { COIN, inputsFor, surelyShort } from './model.js';
import { addressOf, amountText, on, SAL1, U32_MAX, U64_MAX, wallets, type Draw } from './forms.js';

/** More than the wallet can hold at all. */
export const tooMuch: Draw = ({ rng, world }) => {
  const w = rng.pick(
    wallets(world)
      .filter((x) => !x.held)
      .concat([undefined as never]),
  );
  if (!w) return undefined;
  const h = w.assets.get(SAL1);
  const amount = rng.pick([(h?.max ?? 0n) + COIN, (h?.max ?? 0n) * 2n + 1n, BigInt(U64_MAX)]);
  if (!surelyShort(h, amount)) return undefined;
  const to = rng.pick(wallets(world));
  const method = rng.pick(['transfer', 'transfer_split'] as const);
  const amt = amount === BigInt(U64_MAX) ? U64_MAX : amountText(amount);
  return [on(w.name, { [method]: { to: addressOf(rng, to), amount: amt }, expect_error: {} })];
};

/** An address that is none, a CN address after Carrot, an address of another network, a truncated one. */
export const badAddress: Draw = ({ rng, world }) => {
  const w = rng.pick(wallets(world));
  const other = rng.pick(wallets(world));
  const to = rng.pick([
    'bogus',
    '',
    `\${${other.name}.cn}`,
    'SC1T',
    '<script>',
    '4AdUndXHHZ6cfufTMvppY6JwXNouMBzSkbLYfpAV5Usx3skxNgYeYTRj5UzqtReoS44qo9mtmXCqY45DJ852K5Jv2684Rge',
  ]);
  return [on(w.name, { transfer: { to, amount: '1 SAL1' }, expect_error: {} })];
};

/** An asset nobody made: a balance of it, a payment in it. */
export const unknownAsset: Draw = ({ rng, world }) => {
  const w = rng.pick(wallets(world));
  const a = rng.pick(['salQQQQ', 'XYZW', 'sal', 'SAL2', 'salqqqq']);
  if (rng.chance(0.5)) return [on(w.name, { get_balance: { asset_type: a }, expect_error: {} })];
  const to = rng.pick(wallets(world));
  return [
    on(w.name, { transfer_split: { to: `\${${to.name}.address}`, amount: '1 SAL1', asset: a }, expect_error: {} }),
  ];
};

/** Zero: a payment of nothing, a sweep into no outputs. */
export const zero: Draw = ({ rng, world }) => {
  const w = rng.pick(wallets(world));
  const to = rng.pick(wallets(world));
  if (rng.chance(0.5))
    return [on(w.name, { sweep_all: { to: `\${${to.name}.address}`, outputs: 0 }, expect_error: {} })];
  const h = w.assets.get(SAL1);
  const transfer = { to: `\${${to.name}.address}`, amount: 0 };
  // From HF10 a payment of 0 is built (its change becomes the amount): it fails only for want of the fee. Built
  // without relaying, so the wallet's outputs stay as the model has them.
  if (h && inputsFor(h, 0n, true) !== undefined) return [on(w.name, { transfer: { ...transfer, do_not_relay: true } })];
  if (h?.held || (h?.max ?? 0n) > 0n) return undefined;
  return [on(w.name, { transfer, expect_error: {} })];
};

/** Indices at and past their limits. */
export const badIndex: Draw = ({ rng, world }) => {
  const w = rng.pick(wallets(world));
  const i = rng.pick([w.accounts + 1, w.accounts + 7, U32_MAX]);
  return [
    on(w.name, {
      call: { method: rng.pick(['create_address', 'label_account']), params: { account_index: i, label: 'x' } },
      expect_error: {},
    }),
  ];
};

/** A ticker create_token refuses (before anything is paid). */
export const badToken: Draw = ({ rng }) => {
  const ticker = rng.pick(['', 'AB', 'ABCDE', 'SAL9', 'ab-c', 'ÄBCD']);
  return [{ create_token: { ticker, supply: 1, name: 'x' }, expect_error: {} }];
};
