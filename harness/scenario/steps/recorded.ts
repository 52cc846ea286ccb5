// Writing a recorded request as a readable wallet form (`saltnet record`): a form's value is used only
// when the runner, filling it in, sends exactly the recorded request again — so a recording always
// replays byte for byte. Each form's `fromRecorded` (kind.ts) builds its candidate with these.
import { isPlainObject } from '../../common/plain-object.js';
import type { BackendSpec } from '../../coin/backends.js';
import { fundingAsset } from '../../coin/backends.js';
import { formatAmountShort } from '../../coin/amounts.js';

/** JSON text with sorted keys, bigints and integral numbers alike: equal requests give equal text. */
export function canonical(v: unknown): string {
  if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) return `#${String(v)}`;
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isPlainObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

/** `candidate` when the runner would send exactly `params` for it. */
export function verified(
  candidate: Record<string, unknown> | undefined,
  build: (c: Record<string, unknown>) => Record<string, unknown>,
  params: unknown,
): Record<string, unknown> | undefined {
  if (!candidate) return undefined;
  try {
    return canonical(build({ ...candidate })) === canonical(params) ? candidate : undefined;
  } catch {
    return undefined;
  }
}

/** An amount as the readable form writes it: `10 SAL1` for the coin, atomic units otherwise. */
export function readableAmount(v: unknown, asset: string, spec: BackendSpec): unknown {
  if (asset !== fundingAsset(spec) || (typeof v !== 'number' && typeof v !== 'bigint')) return v;
  return formatAmountShort(BigInt(v), asset);
}

/** The request as written: the readable form of a method whose request is its params. */
export const asWritten = (p: Record<string, unknown>): Record<string, unknown> => p;
