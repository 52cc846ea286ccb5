// The chain-state cache seen from a testnet: the key of the state a testnet would build (backend,
// binary hashes, the difficulty it is mined at, target height, funds, wallet seeds), restoring it
// into a workdir, and saving a workdir's state after a clean stop.
//
// A chain state is mined at difficulty 1 whatever difficulty the testnet serves (the prefix): the
// daemon checks a fixed difficulty when a block is added, never for the blocks it already stores,
// so a chain mined at 1 and restarted with `--fixed-difficulty 500` serves at 500 from its next
// block on. One snapshot serves every difficulty; `prefixDifficulty: 'same'` mines it at the
// served difficulty instead (a key of its own).
import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import { cacheKey, fileSha256, type CacheKeyInput } from '../../snapshot/key.js';
import type { Manifest, ManifestWallet } from '../../snapshot/manifest.js';
import { saveSnapshot } from '../../snapshot/store.js';
import { fundingAsset } from '../../coin/backends.js';
import type { ResolvedBackend } from '../programs/binaries.js';
import { fixtureWallet } from '../programs/fixture-wallets.js';
import {
  DEFAULT_LOOKAHEAD,
  formatLookahead,
  LOOKAHEAD_EXPECTED,
  parseLookahead,
  WALLET2_LOOKAHEAD,
} from '../programs/lookahead.js';
import type { MiningAddresses } from '../mining/mining.js';

/** Bump when the way a chain state is built changes (what is mined to whom, files kept): every snapshot is rebuilt. */
export const CHAIN_FORMAT_VERSION = 1;

const hashCache = new Map<string, Promise<Record<string, string>>>();

/** sha256 of each program (the simulator: of its code), computed once per process. */
export function binaryHashes(be: ResolvedBackend): Promise<Record<string, string>> {
  const id = `${be.spec.name}:${be.paths.daemon}:${be.paths.walletCli}:${be.paths.walletRpc}`;
  let p = hashCache.get(id);
  if (!p) {
    p = (async () => {
      if (be.spec.identity) return be.spec.identity();
      const out: Record<string, string> = {};
      for (const path of [be.paths.daemon, be.paths.walletCli, be.paths.walletRpc])
        out[basename(path)] = await fileSha256(path);
      return out;
    })();
    hashCache.set(id, p);
    p.catch(() => hashCache.delete(id));
  }
  return p;
}

/** How the chain state under a testnet is mined: at difficulty 1 (`cheap`), or at the served difficulty (`same`). */
export type PrefixMode = 'cheap' | 'same';
export const PREFIX_MODES = ['cheap', 'same'] as const satisfies readonly PrefixMode[];

/** The difficulty a `cheap` prefix is mined at. */
export const CHEAP_DIFFICULTY = 1;

export interface ChainSpec {
  /** The difficulty the daemon serves: every block mined after the testnet is ready is mined at it. */
  difficulty: number;
  /** The difficulty the chain state (the prefix) is mined at: 1, or `difficulty` with prefix mode `same`. */
  prefixDifficulty: number;
  height: number;
  /** Unlocked funds of the main wallet, atomic units of `asset`. */
  unlocked: bigint;
  asset: string;
  /** The seeds of the deterministic wallets, in order (miner, main). */
  seeds: string[];
  /**
   * The subaddress lookahead of the wallets in the state (`major:minor`): it is written in their keys files. Restored
   * through the wallet RPC they have wallet2's own (50:200).
   */
  lookahead: string;
}

/**
 * The chain state a testnet with these options builds: the backend's defaults filled in and the
 * fixture wallets' seeds (miner, main). `up` and `saltnet cache key` both take it from here, so the
 * key the command prints is the key `up` looks up.
 */
export function chainSpecFor(
  be: ResolvedBackend,
  o: {
    difficulty?: number;
    height?: number;
    unlocked?: bigint;
    prefixDifficulty?: PrefixMode;
    subaddressLookahead?: string;
    walletCreation?: 'cli' | 'rpc';
  },
): ChainSpec {
  const difficulty = o.difficulty ?? be.spec.difficulty;
  return {
    difficulty,
    prefixDifficulty: o.prefixDifficulty === 'same' ? difficulty : Math.min(CHEAP_DIFFICULTY, difficulty),
    height: o.height ?? be.spec.defaultHeight,
    unlocked: o.unlocked ?? be.spec.defaultUnlocked,
    asset: fundingAsset(be.spec),
    seeds: fixtureSeeds(),
    lookahead: lookaheadOf(o),
  };
}

/** The seeds of the wallets every chain state is built for: the fixture wallets miner and main. */
export function fixtureSeeds(): string[] {
  return [fixtureWallet('miner').seed, fixtureWallet('main').seed];
}

/** What a chain key is computed from, as a manifest records it (`extra.unlocked` is `unlocked`). */
export interface ChainKeyFields {
  backend: string;
  binaries: Record<string, string>;
  /** The difficulty the state is mined at, not the one it is served at: one key for every served difficulty. */
  prefixDifficulty: number;
  /** The target height (the state may be higher: funding mines more). */
  height: number;
  /** `<atomic units> <asset>`, e.g. `110000000000 SAL1`. */
  unlocked: string;
  /** Default: the fixture wallets' seeds. */
  seeds?: string[];
  /** The subaddress lookahead written in the wallets' keys files (`extra.lookahead`; absent in older manifests). */
  lookahead?: string;
}

export function chainKeyOf(f: ChainKeyFields): CacheKeyInput {
  return {
    backend: f.backend,
    binaries: f.binaries,
    difficulty: f.prefixDifficulty,
    height: f.height,
    unlocked: f.unlocked,
    walletSeeds: (f.seeds ?? fixtureSeeds()).map((s) => createHash('sha256').update(s).digest('hex')),
    // In the wallets' keys files: a state built with another lookahead is another state.
    ...(f.lookahead !== undefined ? { lookahead: f.lookahead } : {}),
    formatVersion: CHAIN_FORMAT_VERSION,
  };
}

/** The lookahead of the state's wallets: the option's (checked), or wallet2's own when the wallet RPC restores them. */
function lookaheadOf(o: { subaddressLookahead?: string; walletCreation?: 'cli' | 'rpc' }): string {
  if (o.walletCreation === 'rpc') return WALLET2_LOOKAHEAD;
  const text = o.subaddressLookahead ?? DEFAULT_LOOKAHEAD;
  const l = parseLookahead(text);
  if (!l) throw new Error(`subaddressLookahead: ${JSON.stringify(text)} is not ${LOOKAHEAD_EXPECTED}`);
  return formatLookahead(l);
}

export async function chainKeyInput(be: ResolvedBackend, c: ChainSpec): Promise<CacheKeyInput> {
  return chainKeyOf({
    backend: be.spec.name,
    binaries: await binaryHashes(be),
    prefixDifficulty: c.prefixDifficulty,
    height: c.height,
    unlocked: `${c.unlocked} ${c.asset}`,
    seeds: c.seeds,
    lookahead: c.lookahead,
  });
}

export async function chainKey(be: ResolvedBackend, c: ChainSpec): Promise<string> {
  return cacheKey(await chainKeyInput(be, c));
}

/** The folders of a workdir that make up its chain state. */
export function stateDirs(workdir: string): { daemon: string; wallets: string } {
  return { daemon: join(workdir, 'daemon'), wallets: join(workdir, 'wallets') };
}

/** Files that are not state: per-run credentials, locks, logs. */
export function excludeFromSnapshot(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name === '.rpc-login' || name === 'lock.mdb' || name.endsWith('.log') || /\.log-\d/.test(name);
}

export interface SaveChainInput {
  be: ResolvedBackend;
  binaryVersion?: string;
  difficulty: number;
  height: number;
  wallets: { name: string; addresses: MiningAddresses }[];
  extra?: Record<string, unknown>;
}

/** Save a workdir's state (its processes stopped cleanly) as snapshot `key`. */
export async function saveChain(cacheDir: string, key: string, workdir: string, s: SaveChainInput): Promise<Manifest> {
  const dirs = stateDirs(workdir);
  const wallets: ManifestWallet[] = s.wallets.map((w) => ({
    name: w.name,
    addresses: { cn: w.addresses.cn, ...(w.addresses.carrot ? { carrot: w.addresses.carrot } : {}) },
  }));
  return saveSnapshot({
    cacheDir,
    key,
    sources: [
      { name: 'daemon', dir: dirs.daemon },
      { name: 'wallets', dir: dirs.wallets },
    ],
    exclude: excludeFromSnapshot,
    manifest: {
      backend: s.be.spec.name,
      ...(s.binaryVersion ? { binaryVersion: s.binaryVersion } : {}),
      binaries: await binaryHashes(s.be),
      difficulty: s.difficulty,
      height: s.height,
      wallets,
      ...(s.extra ? { extra: s.extra } : {}),
    },
  });
}
