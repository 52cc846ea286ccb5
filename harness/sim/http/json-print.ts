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
export function escapeString(s: string): string {
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

/**
 * A string field's text already escaped (escapeString): printed as it is. An answer that holds large text assembled
 * from parts (the simulated wallet's blocks) escapes each part once, not the whole at each answer.
 */
export class Escaped {
  constructor(readonly text: string) {}
}

/**
 * Raw bytes in a string field (epee's blob fields: KV_SERIALIZE_CONTAINER_POD_AS_BLOB, e.g.
 * get_txpool_backlog's `backlog`): epee writes the bytes themselves, escaped as text is, so the
 * answer is not UTF-8. toEpeeJsonBody writes them so.
 */
export class Bytes {
  constructor(readonly data: Uint8Array) {}
}

/** Marks where Bytes go in the printed text (U+FFFF is a noncharacter: no answer holds it). */
const BYTES_MARK = '\uffff';

const BYTE_ESCAPES: Record<number, string> = {
  0x08: '\\b',
  0x0c: '\\f',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
  0x0b: '\\v',
  0x22: '\\"',
  0x5c: '\\\\',
  0x2f: '\\/',
};

/** The bytes escaped as epee escapes a string. */
function escapeBytes(data: Uint8Array): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  data.forEach((b, i) => {
    const esc = BYTE_ESCAPES[b];
    if (esc === undefined) return;
    parts.push(Buffer.from(data.subarray(from, i)), Buffer.from(esc, 'latin1'));
    from = i + 1;
  });
  parts.push(Buffer.from(data.subarray(from)));
  return Buffer.concat(parts);
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

function print(v: unknown, indent: number, bytes: Bytes[]): string {
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
  if (v instanceof Escaped) return `"${v.text}"`;
  if (v instanceof Bytes) {
    bytes.push(v);
    return `"${BYTES_MARK}${bytes.length - 1}${BYTES_MARK}"`;
  }
  if (Array.isArray(v)) {
    return `[${v
      .filter((e) => !isOmitted(e))
      .map((e) => print(e, indent, bytes))
      .join(',')}]`;
  }
  const entries = Object.keys(v as object)
    .filter((k) => !isOmitted((v as Record<string, unknown>)[k]))
    .sort(compareKeys);
  const pad = '  '.repeat(indent + 1);
  let out = '{\r\n';
  entries.forEach((k, i) => {
    out += `${pad}"${escapeString(k)}": ${print((v as Record<string, unknown>)[k], indent + 1, bytes)}`;
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
  return print(value, 0, []);
}

/** toEpeeJson's text, or its bytes when the value holds Bytes (then not UTF-8). */
export function toEpeeJsonBody(value: unknown): string | Buffer {
  const bytes: Bytes[] = [];
  const text = print(value, 0, bytes);
  if (bytes.length === 0) return text;
  const parts = text.split(BYTES_MARK);
  return Buffer.concat(
    parts.map((p, i) => (i % 2 === 0 ? Buffer.from(p, 'utf8') : escapeBytes(bytes[Number(p)]!.data))),
  );
}
