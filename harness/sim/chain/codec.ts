// JSON encoding of chain objects that keeps bigints exact: a bigint is written as {"$big":"123"},
// an object shape no user-supplied string can produce.
export function encode(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? { $big: v.toString() } : v));
}

export function decode<T>(text: string): T {
  return JSON.parse(text, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === '$big') return BigInt((v as { $big: string }).$big);
    }
    return v;
  }) as T;
}

export const toHex = (text: string): string => Buffer.from(text, 'utf8').toString('hex');
export const fromHex = (hex: string): string => Buffer.from(hex, 'hex').toString('utf8');
