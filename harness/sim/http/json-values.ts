// The values epee's JSON reader produces (json.ts): objects, arrays, strings, booleans, and numbers
// kept exact as written, with epee's reading of each number (strtoull / strtoll / strtod).

/** A JSON number as written in the request, with epee's reading of it. */
export class RawNumber {
  #classified: Classified | undefined;

  constructor(readonly text: string) {}

  /** How epee stores it: `uint` (uint64), `int` (int64, written with a leading `-`) or `float` (double). */
  get kind(): NumberKind {
    return (this.#classified ??= classifyNumber(this.text)).kind;
  }

  /** The value epee stores: a bigint for `uint`/`int`, a number for `float`. */
  get value(): bigint | number {
    return (this.#classified ??= classifyNumber(this.text)).value;
  }

  toString(): string {
    return this.text;
  }
}

export type NumberKind = 'uint' | 'int' | 'float';

export type Parsed = null | boolean | string | RawNumber | Parsed[] | { [key: string]: Parsed };

export type ParsedObject = { [key: string]: Parsed };

export function isParsedObject(v: unknown): v is ParsedObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof RawNumber);
}

// ---------------------------------------------------------------------------------------------
// Number conversion (strtoull / strtoll / strtod on epee's number token)

const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
const DBL_MIN = 2.2250738585072014e-308;

interface Classified {
  kind: NumberKind;
  value: bigint | number;
  /** strtoX would set errno = ERANGE: epee refuses the document. */
  outOfRange: boolean;
}

const INT_PREFIX = /^[+-]?[0-9]+/;
const FLOAT_PREFIX = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/;

export function classifyNumber(text: string): Classified {
  const isFloat = /[.eE]/.test(text);
  if (isFloat) {
    const m = FLOAT_PREFIX.exec(text);
    if (!m) return { kind: 'float', value: 0, outOfRange: false };
    const value = Number(m[0]);
    const mantissaNonZero = /[1-9]/.test(m[0].replace(/[eE].*$/, ''));
    const outOfRange = !Number.isFinite(value) || (mantissaNonZero && Math.abs(value) < DBL_MIN);
    return { kind: 'float', value, outOfRange };
  }
  const signed = text.startsWith('-');
  const m = INT_PREFIX.exec(text);
  const value = m ? BigInt(m[0]) : 0n;
  if (signed) return { kind: 'int', value, outOfRange: value < I64_MIN || value > I64_MAX };
  return { kind: 'uint', value, outOfRange: value < 0n || value > U64_MAX };
}
