// JSON for RPC traffic without losing precision: integers beyond 2^53 (atomic amounts, token
// supplies) parse as bigint; bigints serialise as plain JSON numbers.
import { isSafeNumber, parse, stringify } from 'lossless-json';

export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

export function parseJson(text: string): unknown {
  return parse(text, undefined, (value: string) => {
    if (/^-?\d+$/.test(value)) return isSafeNumber(value) ? Number(value) : BigInt(value);
    return Number(value);
  });
}

export function stringifyJson(value: unknown): string {
  return stringify(value) ?? 'null';
}

/** A number or bigint from an RPC answer as a bigint (amounts may exceed 2^53). */
export function toBigInt(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  throw new TypeError(`not an integer amount: ${String(v)}`);
}
