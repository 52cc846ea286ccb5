// Where saltnet keeps its cache: `--cache-dir`, else $SALTNET_CACHE_DIR, else
// $XDG_CACHE_HOME/saltnet, else ~/.cache/saltnet. Snapshots live in <cacheDir>/snapshots/<key>/.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { errnoWords } from './errno.js';
import { makeDirs } from './mkdir.js';

export interface CacheDirOptions {
  /** The `--cache-dir` option; relative paths are resolved against the working directory. */
  cacheDir?: string;
  /** The environment to read (default process.env); for tests. */
  env?: NodeJS.ProcessEnv;
}

/** Resolve the cache folder and create it (mode 0700) when it does not exist yet. */
export function cacheDir(opts: CacheDirOptions = {}): string {
  const dir = resolveCacheDir(opts);
  try {
    makeDirs(dir, 0o700);
  } catch (err) {
    const where = (err as NodeJS.ErrnoException).path;
    throw new Error(
      `the cache folder ${dir} cannot be created: ${errnoWords(err)}${where && where !== dir ? ` at ${where}` : ''}; give another --cache-dir (or SALTNET_CACHE_DIR)`,
      { cause: err },
    );
  }
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
