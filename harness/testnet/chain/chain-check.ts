// A chain state is used only when its manifest describes it: before a cached state is restored and
// before an archive is imported, the key is computed again from what the manifest says it was built
// from (backend, the programs' hashes, difficulty, target height, funds, the fixture wallets), and
// the height is read from the chain itself (the simulator's blocks file, LMDB's `blocks` table).
// A state whose manifest does not match is set aside (restore) or refused (import), so that a
// crafted or damaged archive never replaces a cached chain.
import { join } from 'node:path';
import { cacheKey } from '../../snapshot/key.js';
import type { Manifest } from '../../snapshot/manifest.js';
import { importArchive, type ImportOptions } from '../../snapshot/import.js';
import { loadSnapshot, type LoadSnapshotResult } from '../../snapshot/load.js';
import { backendNames, backendSpec, type BackendName } from '../../coin/backends.js';
import { chainKeyOf, stateDirs } from './chain-cache.js';

/** The shape of a chain cache key (chain-cache.ts): `<backend>-d<difficulty>-h<target height>-<12 hex>`. */
const CHAIN_KEY = /^([a-z0-9]{1,16})-d(\d+)-h(\d+)-([0-9a-f]{12})$/;

const isBackend = (name: string): name is BackendName => (backendNames() as readonly string[]).includes(name);

/** The prefix fields of a chain key against the manifest: the first that differs, in words. */
function prefixProblem(m: Manifest, key: RegExpExecArray, target: number): string | undefined {
  const [, slug, d, h] = key;
  const backendSlug = m.backend.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (slug !== backendSlug) return `its key ${m.key} names backend ${slug}, its manifest says backend ${m.backend}`;
  if (Number(d) !== m.difficulty)
    return `its key ${m.key} says difficulty ${d}, its manifest says difficulty ${m.difficulty}`;
  if (Number(h) !== target) return `its key ${m.key} says height ${h}, its manifest says (extra.target) ${target}`;
  if (m.height < target)
    return `its manifest says height ${m.height}, below the height ${target} its key ${m.key} was built for`;
  return undefined;
}

/**
 * What is wrong with a chain state's manifest on its own, if anything: a backend saltnet does not know, or a chain
 * key (`sim-d1-h1201-…`) that is not the key of what the manifest says the state was built from.
 */
export function chainManifestProblem(m: Manifest): string | undefined {
  if (!isBackend(m.backend))
    return `its manifest says backend ${JSON.stringify(m.backend)}, which is none of ${backendNames().join(', ')}`;
  const key = CHAIN_KEY.exec(m.key);
  if (!key) return undefined; // a state saved from a running testnet (saved-…): its content is checked
  const target = m.extra?.target;
  const unlocked = m.extra?.unlocked;
  if (typeof target !== 'number' || typeof unlocked !== 'string')
    return `its manifest lacks extra.target and extra.unlocked, so its key ${m.key} cannot be computed again (it was not written by saltnet's chain cache)`;
  const prefix = prefixProblem(m, key, target);
  if (prefix) return prefix;
  const lookahead = m.extra?.lookahead;
  if (lookahead !== undefined && typeof lookahead !== 'string')
    return `its manifest's extra.lookahead is ${JSON.stringify(lookahead)}, not a major:minor string`;
  const computed = cacheKey(
    chainKeyOf({
      backend: m.backend,
      binaries: m.binaries,
      prefixDifficulty: m.difficulty,
      height: target,
      unlocked,
      ...(lookahead !== undefined ? { lookahead } : {}),
    }),
  );
  if (computed !== m.key)
    return `its key ${m.key} is not the key of what its manifest describes (${computed}): the programs' hashes (binaries), the funds (extra.unlocked), the wallets' lookahead (extra.lookahead) or the chain's format differ from what the key was made from`;
  return undefined;
}

/** The chain's height as the daemon would load it from the state's folder `dir`, compared with the manifest's. */
export async function chainContentProblem(dir: string, m: Manifest): Promise<string | undefined> {
  if (!isBackend(m.backend)) return chainManifestProblem(m);
  const { chainFile } = backendSpec(m.backend);
  const found = m.files.filter((f) => f.path.startsWith('daemon/') && f.path.endsWith(`/${chainFile.name}`));
  if (found.length > 1)
    return `it holds ${found.length} chains (${found.map((f) => f.path).join(', ')}), a chain state holds one`;
  const path = found[0]?.path;
  if (path === undefined && chainFile.absentHeight === undefined)
    return `it holds no chain (no daemon/…/${chainFile.name}), so its height ${m.height} cannot be checked`;
  let height: number;
  try {
    height = path === undefined ? chainFile.absentHeight! : await chainFile.height(join(dir, path));
  } catch (e) {
    return `its chain ${path} cannot be read: ${(e as Error).message.replace(`${join(dir, path ?? '')}: `, '')}`;
  }
  if (height !== m.height)
    return `its chain (${path ?? `no daemon/…/${chainFile.name}: the genesis block only`}) holds height ${height}, its manifest says height ${m.height}`;
  return undefined;
}

/** Both checks: the manifest's own, then the content's. */
export async function chainStateProblem(dir: string, m: Manifest): Promise<string | undefined> {
  return chainManifestProblem(m) ?? (await chainContentProblem(dir, m));
}

/**
 * Import a chain state archive (`saltnet snapshot load`, the library's importSnapshot): importArchive's checks of
 * every file, and the chain's: its key computed again, its height read from the chain. Refused archives leave the
 * cache as it was.
 */
export function importSnapshot(
  cacheDir: string,
  file: string,
  o: Omit<ImportOptions, 'checkManifest' | 'checkContent'> = {},
): Promise<Manifest> {
  return importArchive(cacheDir, file, {
    ...o,
    checkManifest: chainManifestProblem,
    checkContent: chainContentProblem,
  });
}

/**
 * Restore the chain state `key` into a workdir whose daemon and wallets folders are new or empty; a state whose
 * manifest does not describe it is corrupt (set aside, and built again).
 */
export function restoreChain(cacheDir: string, key: string, workdir: string): Promise<LoadSnapshotResult> {
  return loadSnapshot({ cacheDir, key, targets: stateDirs(workdir), check: chainStateProblem });
}
