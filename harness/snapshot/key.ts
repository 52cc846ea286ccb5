// Snapshot keys: everything that determines a chain state goes into one sha256 over a canonical
// JSON (sorted keys), shown behind a readable prefix: sim-d500-h1201-0123456789ab.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

export interface CacheKeyInput {
  backend: string;
  /** Binary name -> sha256 of that binary. */
  binaries: Record<string, string>;
  difficulty: number;
  height: number;
  /** The unlocked-balance requirement, as the user wrote it (e.g. "1001 SAL1"). */
  unlocked?: string;
  /** Seed identities (e.g. sha256 of the words), in wallet order. */
  walletSeeds: string[];
  /** The subaddress lookahead written in the wallets' keys files (`major:minor`). */
  lookahead?: string;
  /** The version of the procedure that builds the chain state; bump it to invalidate every snapshot. */
  formatVersion: number;
}

/** What a snapshot key may look like: it names a folder, so no dots, slashes or leading dash. */
export const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function isValidKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** JSON with object keys sorted at every depth; undefined members are left out (as JSON.stringify does). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} has no JSON form`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (typeof value === 'object') {
    const members = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${members.join(',')}}`;
  }
  throw new TypeError(`canonicalJson: a ${typeof value} has no JSON form`);
}

function check(input: CacheKeyInput): void {
  const bad = (what: string): never => {
    throw new TypeError(`cacheKey: ${what}`);
  };
  if (typeof input.backend !== 'string' || input.backend === '') bad('backend must be a non-empty string');
  for (const [f, v] of [
    ['difficulty', input.difficulty],
    ['height', input.height],
    ['formatVersion', input.formatVersion],
  ] as const) {
    if (!Number.isSafeInteger(v) || v < 0) bad(`${f} must be a non-negative integer (got ${String(v)})`);
  }
  if (typeof input.binaries !== 'object' || input.binaries === null || Array.isArray(input.binaries))
    bad('binaries must be an object');
  for (const [name, sha] of Object.entries(input.binaries))
    if (typeof sha !== 'string') bad(`binaries.${name} must be a string`);
  if (!Array.isArray(input.walletSeeds) || input.walletSeeds.some((s) => typeof s !== 'string'))
    bad('walletSeeds must be a list of strings');
  if (input.unlocked !== undefined && typeof input.unlocked !== 'string') bad('unlocked must be a string');
  if (input.lookahead !== undefined && typeof input.lookahead !== 'string') bad('lookahead must be a string');
}

/** The full sha256 (64 hex) behind a cache key. */
export function cacheKeyDigest(input: CacheKeyInput): string {
  check(input);
  const { backend, binaries, difficulty, height, unlocked, walletSeeds, lookahead, formatVersion } = input;
  return createHash('sha256')
    .update(
      canonicalJson({
        backend,
        binaries,
        difficulty,
        height,
        unlocked,
        walletSeeds,
        lookahead,
        formatVersion,
      }),
    )
    .digest('hex');
}

/** `<backend>-d<difficulty>-h<height>-<first 12 hex of the digest>`, e.g. sim-d500-h1201-0123456789ab. */
export function cacheKey(input: CacheKeyInput): string {
  const digest = cacheKeyDigest(input);
  const slug =
    input.backend
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 16) || 'x';
  return `${slug}-d${input.difficulty}-h${input.height}-${digest.slice(0, 12)}`;
}

/** The sha256 (lowercase hex) of a file, read as a stream. */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
