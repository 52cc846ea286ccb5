// Which config file applies: `--config <file>`, else SALTNET_CONFIG, else the nearest
// saltnet.config.* from the working directory upwards, stopping at the git root (a config above the
// repository belongs to something else) or at the filesystem root.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from './errors.js';

/** In the order they are looked for; two of them in one folder is an error, not a silent pick. */
export const CONFIG_FILE_NAMES = [
  'saltnet.config.yaml',
  'saltnet.config.yml',
  'saltnet.config.json',
  'saltnet.config.mjs',
  'saltnet.config.js',
  'saltnet.config.ts',
] as const;

export interface FoundConfig {
  file: string;
  /** How it was chosen: `flag --config`, `env SALTNET_CONFIG` or `search`. */
  via: 'flag --config' | 'env SALTNET_CONFIG' | 'search';
}

const isFile = (p: string): boolean => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/** The config file in `dir`, if any; throws a ConfigError naming both when there are several. */
export function configFileIn(dir: string): string | undefined {
  const hits = CONFIG_FILE_NAMES.map((n) => join(dir, n)).filter(isFile);
  if (hits.length > 1) {
    throw new ConfigError([
      {
        where: dir,
        path: '(file)',
        message: `more than one config file in this folder: ${hits.join(' and ')}; keep one (saltnet would not know which to use)`,
      },
    ]);
  }
  return hits[0];
}

/** Search from `cwd` upwards; the folder holding `.git` (a folder, or a file in worktrees) is the last one searched. */
export function searchConfigFile(cwd: string): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const hit = configFileIn(dir);
    if (hit) return hit;
    if (existsSync(join(dir, '.git'))) return undefined;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** The file given explicitly (relative to `cwd`), which must exist. */
function explicit(path: string, cwd: string, via: FoundConfig['via']): FoundConfig {
  const file = resolve(cwd, path);
  if (!isFile(file)) {
    const why = existsSync(file) ? 'it is not a file' : 'no such file';
    throw new ConfigError([{ where: via, path: '(file)', message: `cannot use ${file} as the config file: ${why}` }]);
  }
  return { file, via };
}

/** The config file to use, or undefined when there is none (every key then comes from defaults, env and flags). */
export function findConfigFile(opts: {
  cwd: string;
  flag?: string | undefined;
  env?: string | undefined;
}): FoundConfig | undefined {
  if (opts.flag) return explicit(opts.flag, opts.cwd, 'flag --config');
  if (opts.env) return explicit(opts.env, opts.cwd, 'env SALTNET_CONFIG');
  const file = searchConfigFile(opts.cwd);
  return file ? { file, via: 'search' } : undefined;
}
