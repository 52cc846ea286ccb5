// What an unexpected RPC error may mean in a scenario, where the answer alone does not say.
export interface ErrorHint {
  code: number;
  message: RegExp;
  hint: string;
}

export const ERROR_HINTS: readonly ErrorHint[] = [
  {
    code: -7,
    message: /^Token already exists\.$/,
    hint:
      'a ticker is taken once per chain: under --isolation shared another scenario on this testnet (or an earlier ' +
      'step, or an earlier run on a kept --workdir) may have created it. Write ticker: "${unique.ticker}" for a ' +
      "ticker of this scenario's own (from its name: give scenarios that run together different names; " +
      'sal${unique.ticker} is its asset type), or run with --isolation fresh',
  },
];

/** The hint for an error answer, if one applies. */
export function hintFor(e: { code: number; message: string }): string | undefined {
  return ERROR_HINTS.find((h) => h.code === e.code && h.message.test(e.message))?.hint;
}
