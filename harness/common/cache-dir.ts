// Where saltnet keeps its cache: `--cache-dir`, else $SALTNET_CACHE_DIR, else
// $XDG_CACHE_HOME/saltnet, else ~/.cache/saltnet. Snapshots live in <cacheDir>/snapshots/<key>/.
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export interface CacheDirOptions {
  /** The `--cache-dir` option; relative paths are resolved against the working directory. */
  cacheDir?: string;
  /** The environment to read (default process.env); for tests. */
  env?: NodeJS.ProcessEnv;
}

/** Resolve the cache folder and create it (mode 0700) when it does not exist yet. */
export function cacheDir(opts: CacheDirOptions = {}): string {
  const dir = resolveCacheDir(opts);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** The cache folder cacheDir() would use, without creating it. */
export function resolveCacheDir(opts: CacheDirOptions = {}): string {
  const env = opts.env ?? process.env;
  if (opts.cacheDir) return resolve(opts.cacheDir);
  if (env.SALTNET_CACHE_DIR) return resolve(env.SALTNET_CACHE_DIR);
  // The XDG spec says a relative $XDG_CACHE_HOME is invalid and must be ignored.
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'saltnet');
  return join(env.HOME || homedir(), '.cache', 'saltnet');
}

/** <cacheDir>/snapshots */
export function snapshotsDir(cacheDirPath: string): string {
  return join(cacheDirPath, 'snapshots');
}
