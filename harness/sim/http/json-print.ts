// Writing JSON as epee does: keys sorted, CRLF line ends, 2-space indentation, its number formats.
import { RawNumber, classifyNumber } from './json-values.js';

/** `std::ostream << double` with the default flags (%g, precision 6). */
export function formatDouble(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const exp = Number(v.toExponential(5).split('e')[1] ?? '0');
  if (exp < -4 || exp >= 6) {
    const [mant = '', e = '0'] = v.toExponential(5).split('e');
    const m = mant.includes('.') ? mant.replace(/0+$/, '').replace(/\.$/, '') : mant;
    const en = Number(e);
    const abs = Math.abs(en);
    return `${m}e${en < 0 ? '-' : '+'}${abs < 10 ? '0' : ''}${abs}`;
  }
  const fixed = v.toFixed(Math.max(0, 5 - exp));
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

/** epee's transform_to_escape_sequence. */
function escapeString(s: string): string {
  return s.replace(/[\b\f\n\r\t\v"\\/]/g, (ch) => {
    switch (ch) {
      case '\b':
        return '\\b';
      case '\f':
        return '\\f';
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\t':
        return '\\t';
      case '\v':
        return '\\v';
      case '"':
        return '\\"';
      case '\\':
        return '\\\\';
      default:
        return '\\/';
    }
  });
}

/** std::map<std::string> order: UTF-8 byte order, i.e. code point order. */
function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

const isOmitted = (v: unknown): boolean =>
  v === undefined ||
  typeof v === 'function' ||
  typeof v === 'symbol' ||
  (Array.isArray(v) && !v.some((e) => !isOmitted(e)));

function printNumberLike(v: number | bigint | RawNumber): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v).toString() : formatDouble(v);
  const c = classifyNumber(v.text);
  return typeof c.value === 'bigint' ? c.value.toString() : formatDouble(c.value);
}

function print(v: unknown, indent: number): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return `"${escapeString(v)}"`;
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
    case 'bigint':
      return printNumberLike(v);
    case 'object':
      break;
    default:
      return 'null';
  }
  if (v instanceof RawNumber) return printNumberLike(v);
  if (Array.isArray(v)) {
    return `[${v
      .filter((e) => !isOmitted(e))
      .map((e) => print(e, indent))
      .join(',')}]`;
  }
  const entries = Object.keys(v as object)
    .filter((k) => !isOmitted((v as Record<string, unknown>)[k]))
    .sort(compareKeys);
  const pad = '  '.repeat(indent + 1);
  let out = '{\r\n';
  entries.forEach((k, i) => {
    out += `${pad}"${escapeString(k)}": ${print((v as Record<string, unknown>)[k], indent + 1)}`;
    if (i !== entries.length - 1) out += ',';
    out += '\r\n';
  });
  return `${out}${'  '.repeat(indent)}}`;
}

/**
 * Serialise like epee's store_t_to_json: keys sorted, 2-space indentation, CRLF line ends,
 * arrays on one line, empty arrays (and `undefined`) left out at every level, 64-bit integers
 * as plain numbers (bigints exactly), non-integer numbers as C++ streams print doubles.
 */
export function toEpeeJson(value: unknown): string {
  return print(value, 0);
}
