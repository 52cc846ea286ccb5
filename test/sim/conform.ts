// Compare a simulator response with a recorded real one: same HTTP status; errors by exact code
// and message; results by shape (same keys at every level, same JSON types), with values that
// depend on randomness (hashes, keys, addresses, ids) compared by format only.
import { decodeAddress } from '../../harness/sim/crypto/address.js';

const HEX64 = /^[0-9a-f]{64}$/;
const HEX16 = /^[0-9a-f]{16}$/;

export type Mismatch = string;

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** Returns the list of mismatches (empty when the actual value conforms). */
export function conform(expected: unknown, actual: unknown, path = '$', exactStrings = true): Mismatch[] {
  const ek = kind(expected);
  const ak = kind(actual);
  if (ek !== ak) return [`${path}: expected ${ek}, got ${ak} (${JSON.stringify(actual)})`];
  if (ek === 'string') {
    const e = expected as string;
    const a = actual as string;
    if (HEX64.test(e)) return HEX64.test(a) ? [] : [`${path}: expected 64 hex chars, got ${JSON.stringify(a)}`];
    if (HEX16.test(e)) return HEX16.test(a) ? [] : [`${path}: expected 16 hex chars, got ${JSON.stringify(a)}`];
    const ea = decodeAddress(e);
    if (ea) {
      const aa = decodeAddress(a);
      return aa && aa.family === ea.family && aa.network === ea.network && aa.type === ea.type
        ? []
        : [`${path}: expected a ${ea.network} ${ea.family} address, got ${JSON.stringify(a)}`];
    }
    if (/^1\.1\.3c-\w{9}, based on Monero 0\.18\.4\.0-release$/.test(e))
      return /^1\.1\.3c-\w{9}, based on Monero 0\.18\.4\.0-release$/.test(a) ? [] : [`${path}: version ${a}`];
    if (/^0x[0-9a-f]+$/.test(e)) return /^0x[0-9a-f]+$/.test(a) ? [] : [`${path}: expected 0x-hex, got ${a}`];
    return exactStrings && e !== a ? [`${path}: expected ${JSON.stringify(e)}, got ${JSON.stringify(a)}`] : [];
  }
  if (ek === 'array') {
    const e = expected as unknown[];
    const a = actual as unknown[];
    const out: Mismatch[] = [];
    if (e.length === 0) return out;
    // Each actual element must match the shape of some recorded element.
    a.forEach((item, i) => {
      const tries = e.map((x) => conform(x, item, `${path}[${i}]`, exactStrings && kind(x) !== 'string'));
      if (!tries.some((t) => t.length === 0)) out.push(...(tries[0] ?? []));
    });
    return out;
  }
  if (ek === 'object') {
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    const out: Mismatch[] = [];
    for (const k of Object.keys(e)) if (!(k in a)) out.push(`${path}.${k}: missing`);
    for (const k of Object.keys(a)) if (!(k in e)) out.push(`${path}.${k}: unexpected key`);
    for (const k of Object.keys(e)) if (k in a) out.push(...conform(e[k], a[k], `${path}.${k}`, exactStrings));
    return out;
  }
  return []; // numbers and booleans: type only (values depend on the chain state)
}
