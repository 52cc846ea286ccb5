// Typed request parameters with epee's key-value deserialisation rules (reference §2.3):
//  * a missing field takes its default - there is no "missing parameter" error; `null` and an
//    empty array count as missing (epee's JSON reader stores neither);
//  * unknown fields are ignored; a params value that is not an object is ignored (all defaults);
//  * integers: JSON integers only (no `1.5`, no `1e8`, no negatives for unsigned fields), range
//    checked; uint64 fields also take all-digit strings ("123") and ISO-8601 UTC timestamps
//    ("2017-05-06T16:27:06Z", MyMonero compatibility in epee's converters); other widths do not;
//  * bool fields take only true/false, string fields only strings, lists only arrays (each element
//    checked), objects only objects.
// Any violation throws `InvalidParams` (JSON-RPC -32602, URI endpoints HTTP 400).
import { RawNumber, classifyNumber, isParsedObject, type Parsed } from './json-values.js';

export class InvalidParams extends Error {
  constructor(message = 'Invalid params') {
    super(message);
    this.name = 'InvalidParams';
  }
}

/** One request field: how to read it from the parsed body, and its default. */
export interface Field<T> {
  /** Read a present value (never `undefined`, `null` or `[]`: those mean "use the default"). */
  readonly read: (raw: Parsed, path: string) => T;
  /** A fresh default value. */
  readonly dflt: () => T;
}

export type FieldType<F> = F extends Field<infer T> ? T : never;

type Shape = Record<string, Field<unknown>>;
type ShapeType<S extends Shape> = { [K in keyof S]: FieldType<S[K]> };

/** Whether epee's storage would hold no entry for this value. */
export function isAbsent(raw: Parsed | undefined): raw is undefined | null | [] {
  return raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0);
}

function readField<T>(field: Field<T>, raw: Parsed | undefined, path: string): T {
  return isAbsent(raw) ? field.dflt() : field.read(raw, path);
}

const fail = (path: string, what: string): never => {
  throw new InvalidParams(`Invalid params: ${path || 'value'}: expected ${what}`);
};

const ISO_TIMESTAMP = /^(\d{4})-([01]\d)-([0-3]\d)T([0-2]\d):([0-5]\d):([0-5]\d)Z$/;

/** An integer as epee's converters would produce it for an integer field, or undefined. */
function integerOf(raw: Parsed, allowString: boolean): bigint | undefined {
  if (raw instanceof RawNumber) {
    const c = classifyNumber(raw.text);
    return c.kind === 'float' ? undefined : (c.value as bigint);
  }
  if (allowString && typeof raw === 'string') {
    if (/^[0-9]+$/.test(raw)) return BigInt(raw);
    const m = ISO_TIMESTAMP.exec(raw);
    if (m) {
      const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
      if (mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23) return BigInt(Date.UTC(y, mo - 1, d, h, mi, s) / 1000);
      return undefined;
    }
  }
  return undefined;
}

function unsigned(bits: number, allowString: boolean, what: string): (raw: Parsed, path: string) => bigint {
  const max = (1n << BigInt(bits)) - 1n;
  return (raw, path) => {
    const v = integerOf(raw, allowString);
    if (v === undefined || v < 0n || v > max) return fail(path, what);
    return v;
  };
}

const readU64 = unsigned(64, true, 'an unsigned 64-bit integer');
const readU32 = unsigned(32, false, 'an unsigned 32-bit integer');
const readU8 = unsigned(8, false, 'an unsigned 8-bit integer');

/** uint64 field (default 0n). Takes JSON integers 0..2^64-1 and all-digit strings. */
export const u64 = (dflt: bigint = 0n): Field<bigint> => ({ read: readU64, dflt: () => dflt });

/** uint32 field (default 0). */
export const u32 = (dflt: number = 0): Field<number> => ({
  read: (raw, path) => Number(readU32(raw, path)),
  dflt: () => dflt,
});

/** uint8 field (default 0). */
export const u8 = (dflt: number = 0): Field<number> => ({
  read: (raw, path) => Number(readU8(raw, path)),
  dflt: () => dflt,
});

/** bool field (default false): only `true`/`false`. */
export const bool = (dflt: boolean = false): Field<boolean> => ({
  read: (raw, path) => (typeof raw === 'boolean' ? raw : fail(path, 'a boolean')),
  dflt: () => dflt,
});

/** string field (default ""): only strings. */
export const str = (dflt: string = ''): Field<string> => ({
  read: (raw, path) => (typeof raw === 'string' ? raw : fail(path, 'a string')),
  dflt: () => dflt,
});

/** list field (default []): only arrays, every element read with `of`. */
export function list<T>(of: Field<T>): Field<T[]> {
  return {
    read: (raw, path) => {
      if (!Array.isArray(raw)) return fail(path, 'an array');
      return raw.map((e, i) => readField(of, e, `${path}[${i}]`));
    },
    dflt: () => [],
  };
}

function readShape<S extends Shape>(shape: S, raw: { [key: string]: Parsed } | undefined, path: string): ShapeType<S> {
  const out = {} as Record<string, unknown>;
  for (const key of Object.keys(shape)) {
    const field = shape[key] as Field<unknown>;
    const value = raw !== undefined && Object.prototype.hasOwnProperty.call(raw, key) ? raw[key] : undefined;
    out[key] = readField(field, value, path ? `${path}.${key}` : key);
  }
  return out as ShapeType<S>;
}

/** object field (default: every field at its default): only objects. */
export function obj<S extends Record<string, Field<unknown>>>(shape: S): Field<{ [K in keyof S]: FieldType<S[K]> }> {
  return {
    read: (raw, path) => (isParsedObject(raw) ? readShape(shape, raw, path) : fail(path, 'an object')),
    dflt: () => readShape(shape, undefined, ''),
  };
}

/** A method's parameters. `parse` takes the request's `params` (or a URI endpoint's body). */
export function params<S extends Record<string, Field<unknown>>>(
  shape: S,
): { parse(raw: Parsed | undefined): { [K in keyof S]: FieldType<S[K]> } } {
  return {
    parse: (raw) => readShape(shape, isParsedObject(raw) ? raw : undefined, ''),
  };
}

function signed(bits: number, what: string): (raw: Parsed, path: string) => bigint {
  const max = (1n << BigInt(bits - 1)) - 1n;
  return (raw, path) => {
    const v = integerOf(raw, false);
    if (v === undefined || v < -max - 1n || v > max) return fail(path, what);
    return v;
  };
}

const readI64 = signed(64, 'a signed 64-bit integer');
const readI8 = signed(8, 'a signed 8-bit integer');

/** int64 field (default 0n): JSON integers, negative ones too. */
export const i64 = (dflt: bigint = 0n): Field<bigint> => ({ read: readI64, dflt: () => dflt });

/** int8 field (default 0). */
export const i8 = (dflt: number = 0): Field<number> => ({
  read: (raw, path) => Number(readI8(raw, path)),
  dflt: () => dflt,
});
