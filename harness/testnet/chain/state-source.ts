// Where a testnet's chain state comes from: the workdir's own (reused), the cache (a hit), or
// nothing yet (a miss: built, then saved). One builder per cache key: a run that finds another
// building the same key waits for it, then restores its snapshot.
import { cacheDir as resolveCacheDir } from '../../common/cache-dir.js';
import { acquireKeyLock } from '../../snapshot/lock.js';
import type { ResolvedBackend } from '../programs/binaries.js';
import { chainKey, type ChainSpec } from './chain-cache.js';
import { restoreChain } from './chain-check.js';

/** How the chain state of this testnet came about. */
export interface SnapshotInfo {
  /**
   * hit: restored from the cache; built: a miss, built and saved; rebuilt: the cached one was corrupt; reused: the
   * workdir had a state; off: no cache.
   */
  status: 'hit' | 'built' | 'rebuilt' | 'reused' | 'off';
  key?: string;
  cacheDir?: string;
  /** Why the save failed (the testnet is up all the same). */
  saveError?: string;
  /**
   * The chain state the testnet started from: the difficulty its blocks were mined at and its height (unknown for a
   * reused workdir).
   */
  prefix?: { difficulty: number; height: number };
}

export interface StateChoice {
  snapshot: SnapshotInfo;
  /** Held while this run builds the key's state; released once it is saved (or the run failed). */
  releaseLock?: () => Promise<void>;
  restoreMs: number;
}

export interface ChooseStateOptions {
  backend: ResolvedBackend;
  chain: ChainSpec;
  workdir: string;
  /** The workdir already holds a state. */
  hadState: boolean;
  snapshots?: boolean;
  cacheDir?: string;
  snapshotKey?: string;
  signal: AbortSignal;
  log: (line: string) => void;
  /** Lines only a verbose run shows (a snapshot restored). */
  detail: (line: string) => void;
}

export async function chooseState(o: ChooseStateOptions): Promise<StateChoice> {
  if (o.hadState) return { snapshot: { status: 'reused' }, restoreMs: 0 };
  if (o.snapshots === false && !o.snapshotKey) return { snapshot: { status: 'off' }, restoreMs: 0 };
  const cdir = resolveCacheDir(o.cacheDir ? { cacheDir: o.cacheDir } : {});
  const key = o.snapshotKey ?? (await chainKey(o.backend, o.chain));
  let releaseLock: (() => Promise<void>) | undefined;
  if (!o.snapshotKey) {
    releaseLock = await acquireKeyLock(cdir, key, {
      signal: o.signal,
      onWait: () => o.log(`saltnet: another saltnet is building snapshot ${key}; waiting for it`),
    });
  }
  try {
    const t0 = Date.now();
    const r = await restoreChain(cdir, key, o.workdir);
    const restoreMs = Date.now() - t0;
    if ('manifest' in r) {
      o.detail(`saltnet: restored snapshot ${key} (height ${r.manifest.height}) in ${r.ms.toFixed(0)} ms`);
      await releaseLock?.();
      return {
        snapshot: {
          status: 'hit',
          key,
          cacheDir: cdir,
          prefix: { difficulty: r.manifest.difficulty, height: r.manifest.height },
        },
        restoreMs,
      };
    }
    if (o.snapshotKey)
      throw new Error(
        'corrupt' in r
          ? `snapshot ${key} is corrupt: ${r.corrupt}`
          : `no snapshot ${key} in ${cdir} (saltnet cache ls lists them)`,
      );
    if ('corrupt' in r) {
      o.log(
        `saltnet: snapshot ${key} is corrupt (${r.corrupt}); ${r.movedTo ? `moved aside to ${r.movedTo}; ` : ''}building it again`,
      );
      return {
        snapshot: { status: 'rebuilt', key, cacheDir: cdir },
        restoreMs,
        ...(releaseLock ? { releaseLock } : {}),
      };
    }
    o.log(`saltnet: no snapshot ${key} in ${cdir}: building it (once per machine)`);
    return { snapshot: { status: 'built', key, cacheDir: cdir }, restoreMs, ...(releaseLock ? { releaseLock } : {}) };
  } catch (err) {
    await releaseLock?.();
    throw err;
  }
}
