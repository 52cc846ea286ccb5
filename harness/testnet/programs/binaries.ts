// Where the programs come from: --bin-dir, then SALTNET_BIN_DIR, then PATH, then (real Salvium) the
// newest release `saltnet install` put in the cache; the simulator ships its own. `auto` picks real
// Salvium when found and otherwise the simulator, and says why.
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import which from 'which';
import { execa } from 'execa';
import { binRootOf, listInstalled } from '../../install/marker.js';
import { platformFor } from '../../install/platform.js';
import { AUTO_ORDER, backendSpec, type BackendChoice, type BackendSpec } from '../../coin/backends.js';

export interface ResolvedBackend {
  spec: BackendSpec;
  paths: { daemon: string; walletCli: string; walletRpc: string };
  /** Where the binaries were found, for messages. */
  source: string;
  /** One line a user can read: which backend and why. */
  reason: string;
}

export class MissingBinaryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MissingBinaryError';
  }
}

const isExecutable = (p: string): boolean => {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

function findInDir(dir: string, spec: BackendSpec): ResolvedBackend['paths'] | undefined {
  const paths = {
    daemon: join(dir, spec.binaries.daemon),
    walletCli: join(dir, spec.binaries.walletCli),
    walletRpc: join(dir, spec.binaries.walletRpc),
  };
  return Object.values(paths).every(isExecutable) ? paths : undefined;
}

/** The first folder on PATH with the daemon (which), when the wallet programs are beside it. */
function findOnPath(spec: BackendSpec): { dir: string; paths: ResolvedBackend['paths'] } | undefined {
  for (const daemon of which.sync(spec.binaries.daemon, { all: true, nothrow: true }) ?? []) {
    const paths = findInDir(dirname(daemon), spec);
    if (paths) return { dir: dirname(daemon), paths };
  }
  return undefined;
}

/** Where backend resolution looks for installed releases: `--cache-dir`, else SALTNET_CACHE_DIR, XDG, ~/.cache. */
export interface BackendResolveOptions {
  cacheDir?: string;
}

/** The newest release `saltnet install` put in the cache (real Salvium only; this machine's platform). */
function findInstalled(spec: BackendSpec, o: BackendResolveOptions): { dir: string; version: string } | undefined {
  if (spec.name !== 'salvium') return undefined;
  let platform;
  try {
    platform = platformFor();
  } catch {
    return undefined; // no Salvium build for this machine: nothing can be installed
  }
  const newest = listInstalled(binRootOf({ cacheDir: o.cacheDir }), platform)[0];
  return newest ? { dir: newest.binDir, version: newest.version } : undefined;
}

/** Where real programs were looked for, for the message that none were found. */
function whereLooked(spec: BackendSpec, o: BackendResolveOptions): string {
  const onPath = `${Object.values(spec.binaries).join(', ')} not found on PATH`;
  return spec.name === 'salvium'
    ? `${onPath}, and no release is installed in ${binRootOf({ cacheDir: o.cacheDir })}`
    : onPath;
}

/** Find real binaries for a backend, or explain exactly what is missing and how to fix it. */
function locate(spec: BackendSpec, binDir: string | undefined, o: BackendResolveOptions = {}): ResolvedBackend {
  const explicit = binDir ?? process.env.SALTNET_BIN_DIR;
  const label = binDir ? '--bin-dir' : 'SALTNET_BIN_DIR';
  if (explicit) {
    if (!existsSync(explicit)) throw new MissingBinaryError(`${label} ${explicit} does not exist`);
    const paths = findInDir(explicit, spec);
    if (!paths) {
      const missing = Object.values(spec.binaries).filter((b) => !isExecutable(join(explicit, b)));
      throw new MissingBinaryError(
        `${label} ${explicit} has no executable ${missing.join(', ')}: point it at the folder that holds ${Object.values(spec.binaries).join(', ')}`,
      );
    }
    return { spec, paths, source: `${label} ${explicit}`, reason: `${spec.name} binaries from ${label} ${explicit}` };
  }
  const found = findOnPath(spec);
  if (!found) {
    const installed = findInstalled(spec, o);
    const paths = installed && findInDir(installed.dir, spec);
    if (installed && paths) {
      const source = `the newest installed release, ${installed.version} in ${installed.dir}`;
      return { spec, paths, source, reason: `${spec.name} binaries from ${source}` };
    }
    throw new MissingBinaryError(`${whereLooked(spec, o)}: ${spec.installHint}`);
  }
  return {
    spec,
    paths: found.paths,
    source: `PATH (${found.dir})`,
    reason: `${spec.name} binaries from PATH (${found.dir})`,
  };
}

/** The programs of a backend that ships with saltnet (the simulator). */
function bundled(spec: BackendSpec, dir: string): ResolvedBackend {
  const paths = findInDir(dir, spec);
  if (!paths)
    throw new MissingBinaryError(
      `the ${spec.name} backend's programs in ${dir} are missing or not executable: ${spec.installHint}`,
    );
  return { spec, paths, source: spec.description, reason: `${spec.name} backend (${spec.description})` };
}

export function resolveBackend(
  name: BackendChoice,
  binDir?: string,
  opts: BackendResolveOptions = {},
): ResolvedBackend {
  if (name !== 'auto') {
    const spec = backendSpec(name);
    if (!spec.bundledBinDir) return locate(spec, binDir, opts);
    const b = bundled(spec, spec.bundledBinDir);
    // Said, not refused: a config file may give every command a folder that a `--backend sim` run has no use for.
    return binDir ? { ...b, reason: `${b.reason}; --bin-dir ${binDir} is not used: it ships with saltnet` } : b;
  }
  const last = AUTO_ORDER[AUTO_ORDER.length - 1]!;
  for (const candidate of AUTO_ORDER.slice(0, -1)) {
    try {
      const real = locate(backendSpec(candidate), binDir, opts);
      return { ...real, reason: `auto: picked ${backendSpec(candidate).description} (${real.source})` };
    } catch (err) {
      // asked for a folder that is wrong: say so, don't fall back silently
      if (binDir || process.env.SALTNET_BIN_DIR) throw err;
    }
  }
  const fallback = resolveBackend(last);
  const real = AUTO_ORDER.slice(0, -1).map((n) => backendSpec(n));
  const installable = real.some((s) => s.name === 'salvium');
  return {
    ...fallback,
    reason:
      `auto: no ${real.map((s) => s.binaries.daemon).join(' or ')} on PATH` +
      (installable ? ` and no Salvium release installed in ${binRootOf({ cacheDir: opts.cacheDir })}` : '') +
      `, picked ${fallback.spec.description} (${last} backend)`,
  };
}

/** The version line a program prints for --version (first non-empty line). */
export async function binaryVersion(path: string): Promise<string> {
  const r = await execa(path, ['--version'], { reject: false, timeout: 15_000, env: { TERM: 'dumb' } });
  const line = `${r.stdout}\n${r.stderr}`
    .split('\n')
    .map((l) => l.trim())
    .find((l) => /\(v?\d/.test(l) || /version/i.test(l));
  return line ?? `unknown (exit ${r.exitCode})`;
}
