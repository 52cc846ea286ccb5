// The order in which the real wallet lists its assets (`get_balance` with `all_assets`): wallet2's
// list_asset_types walks m_transfers_indices, a std::unordered_map<std::string, …>, so the order is
// libstdc++'s: std::hash<std::string> (64-bit murmur, seed 0xc70f6907) into 13 buckets from the first
// insertion, each new key put in front of its bucket's run (or of the whole list when its bucket is
// empty), growing to the next prime past twice the buckets when full. Loading the wallet file inserts
// the keys again in the saved (listed) order. Established on the real programs (README): live,
// assets received later are listed first; after a reload the order turns round (SAL1, salORD1).

const MASK = (1n << 64n) - 1n;
const MUL = 0xc6a4a7935bd1e995n;
const SEED = 0xc70f6907n;
const shiftMix = (v: bigint): bigint => v ^ (v >> 47n);
const mul = (a: bigint, b: bigint): bigint => (a * b) & MASK;

/** libstdc++'s std::_Hash_bytes on 64-bit Linux (what std::hash<std::string> returns). */
export function stdHash(text: string): bigint {
  const bytes = Buffer.from(text, 'utf8');
  const aligned = bytes.length & ~7;
  let h = SEED ^ mul(BigInt(bytes.length), MUL);
  for (let i = 0; i < aligned; i += 8) {
    h ^= mul(shiftMix(mul(bytes.readBigUInt64LE(i), MUL)), MUL);
    h = mul(h, MUL);
  }
  if (bytes.length & 7) {
    let tail = 0n;
    for (let i = bytes.length - 1; i >= aligned; i--) tail = (tail << 8n) | BigInt(bytes[i]!);
    h = mul(h ^ tail, MUL);
  }
  return shiftMix(mul(shiftMix(h), MUL));
}

const FAST_BUCKETS = [2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13];
const isPrime = (n: number): boolean => {
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return n >= 2;
};
/**
 * _Prime_rehash_policy::_M_next_bkt: the fast table, then the next prime (libstdc++'s list skips some primes above
 * 127).
 */
function nextBuckets(n: number): number {
  if (n < FAST_BUCKETS.length) return FAST_BUCKETS[n]!;
  let p = n;
  while (!isPrime(p)) p++;
  return p;
}

/** The iteration order of a std::unordered_map<std::string, …> after inserting `keys` in this order. */
export function unorderedMapOrder(keys: readonly string[]): string[] {
  let buckets = 1;
  let nextResize = 0;
  let list: string[] = [];
  const bucketOf = (k: string): number => Number(stdHash(k) % BigInt(buckets));
  // A key goes in front of the first key of its bucket, or in front of the whole list.
  const put = (into: string[], k: string): void => {
    const at = into.findIndex((x) => bucketOf(x) === bucketOf(k));
    into.splice(at < 0 ? 0 : at, 0, k);
  };
  for (const k of keys) {
    if (list.includes(k)) continue;
    const count = list.length + 1;
    if (count > nextResize) {
      // _M_need_rehash: an empty table starts at 11 elements' worth of buckets.
      const min = Math.max(count, nextResize === 0 ? 11 : 0);
      if (min >= buckets) {
        buckets = nextBuckets(Math.max(min + 1, buckets * 2));
        const old = list;
        list = [];
        for (const x of old) put(list, x);
      }
      nextResize = buckets;
    }
    put(list, k);
  }
  return list;
}
