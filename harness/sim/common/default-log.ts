// Where a simulated wallet program logs when it is given no --log-file. The real wallet programs log
// next to their executable (epee's default log path), which for a release `saltnet install` put in
// place is in saltnet's cache folder. The simulated programs live in saltnet's package (under
// node_modules in a project that depends on it), so they log to the cache folder's logs/ instead:
// $SALTNET_CACHE_DIR, else $XDG_CACHE_HOME/saltnet (when absolute: the XDG spec ignores a relative
// one), else ~/.cache/saltnet, the folder saltnet's own cache uses (the simulator imports nothing
// from the rest of saltnet, so the rule is spelled out here too).
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { makeDirs } from './mkdir.js';

/** The cache folder's logs/ (not created). */
export function defaultLogDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SALTNET_CACHE_DIR) return join(resolve(env.SALTNET_CACHE_DIR), 'logs');
  const xdg = env.XDG_CACHE_HOME;
  const cache = xdg && isAbsolute(xdg) ? join(xdg, 'saltnet') : join(env.HOME || homedir(), '.cache', 'saltnet');
  return join(cache, 'logs');
}

/**
 * The log file of program `name` (e.g. `salvium-wallet-rpc`) without --log-file: `<cache>/logs/<name>.log`. Its folders
 * are made private (0700) as saltnet makes its cache; when they cannot be made the logger writes no file, as the real
 * programs do where their default log cannot be written.
 */
export function defaultLogFile(name: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = defaultLogDir(env);
  try {
    makeDirs(dir, 0o700);
  } catch {
    // createLogger finds it missing too, and logs to the console only
  }
  return join(dir, `${name}.log`);
}
