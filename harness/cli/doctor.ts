// `saltnet doctor`: what this machine has for each backend, and what might get in the way.
import { readFileSync } from 'node:fs';
import { freemem, totalmem } from 'node:os';
import { basename } from 'node:path';
import type { CommandModule } from 'yargs';
import { CONFIG_OPTION, formatSource, givenFlags, KEYS, resolveConfig, type ResolvedConfig } from '../config/index.js';
import { isPortFree } from '../process/ports.js';
import { listRuns, resolveStateDir, stateDir } from '../process/registry.js';
import { binRootOf, listInstalled } from '../install/marker.js';
import { platformFor } from '../install/platform.js';
import { DEFAULT_TABLE_FILE, loadReleaseTable } from '../install/releases.js';
import { BACKENDS, type BackendName } from '../coin/backends.js';
import { binaryVersion, resolveBackend, type ResolvedBackend } from '../testnet/programs/binaries.js';
import { hugePagesNote, pagesFor, readHugePages } from '../testnet/programs/hugepages.js';
import { loadRandomx } from '../randomx/library.js';
import { randomxDir } from '../randomx/dataset-files.js';
import { resolveCacheDir } from '../common/cache-dir.js';
import { ownerAlive } from './runs.js';
import { datasetRows, describeDataset, NO_DATASET } from './randomx-datasets.js';

interface DoctorArgs {
  binDir?: string;
  config?: string;
  json: boolean;
}

export const doctorCommand: CommandModule<object, DoctorArgs> = {
  command: 'doctor',
  describe: 'check binaries, versions, ports and memory',
  builder: (y) =>
    y
      .option('bin-dir', { type: 'string', describe: 'folder with the Salvium binaries' })
      .option('config', CONFIG_OPTION)
      .option('json', { type: 'boolean', default: false }),
  handler: (argv) => doctor(argv),
};

type ConfigEntry = { value: unknown; source: string; unset?: string };

/** The resolved configuration, key by key: `{ value, source }` (value null: unset, `unset` says what that means). */
function configEntries(c: ResolvedConfig): Record<string, ConfigEntry> {
  const out: Record<string, ConfigEntry> = {};
  for (const k of KEYS) {
    let v: unknown = c.values;
    for (const seg of k.key.split('.')) v = (v as Record<string, unknown> | undefined)?.[seg];
    out[k.key] = {
      value: v ?? null,
      source: formatSource(c.sources[k.key]),
      ...(v === undefined && k.unset ? { unset: k.unset } : {}),
    };
  }
  return out;
}

interface ConfigReport {
  resolved?: ResolvedConfig;
  entries?: Record<string, ConfigEntry>;
  error?: string;
}

/**
 * A broken config file does not stop doctor (everything else is still worth seeing): the problem is
 * reported in place of the config section and the exit code is 1.
 */
async function configReport(argv: DoctorArgs): Promise<ConfigReport> {
  try {
    const resolved = await resolveConfig({
      cwd: process.cwd(),
      argv: givenFlags(argv as unknown as Record<string, unknown>),
      env: process.env,
    });
    for (const n of resolved.notices) process.stderr.write(`saltnet: ${n}\n`);
    return { resolved, entries: configEntries(resolved) };
  } catch (err) {
    process.exitCode = 1;
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

async function doctor(argv: DoctorArgs): Promise<void> {
  const report: Record<string, unknown> = { node: process.version, platform: `${process.platform} ${process.arch}` };
  const cfg = await configReport(argv);
  report.configFile = cfg.resolved?.file ?? null;
  report.config = cfg.entries ?? { error: cfg.error };
  // The binaries doctor looks at are the ones `up` would use: --bin-dir, else the config file's binDir, else
  // SALTNET_BIN_DIR.
  const binDir = cfg.resolved?.values.binDir ?? argv.binDir;
  // Installed releases are looked for where `saltnet install` puts them: the cache folder.
  const where = { cacheDir: cfg.resolved?.values.cacheDir };
  const backends: Record<string, unknown> = {};
  for (const name of Object.keys(BACKENDS) as BackendName[]) {
    try {
      const b = resolveBackend(name, name === 'salvium' ? binDir : undefined, where);
      if (name === 'salvium' && binDir === undefined && cfg.entries?.binDir) cfg.entries.binDir.unset = runsFrom(b);
      backends[name] = {
        found: true,
        source: b.source,
        daemon: b.paths.daemon,
        version: await binaryVersion(b.paths.daemon),
      };
    } catch (err) {
      backends[name] = { found: false, problem: err instanceof Error ? err.message : String(err) };
      if (name === 'salvium' && binDir === undefined && cfg.entries?.binDir)
        cfg.entries.binDir.unset = `none found: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  report.backends = backends;
  report.install = installReport(where.cacheDir, (backends.salvium as { found: boolean }).found);
  report.randomx = await randomxReport(
    resolveCacheDir(where.cacheDir ? { cacheDir: where.cacheDir } : {}),
    cfg.resolved?.values.miner ?? 'auto',
  );
  report.auto = (() => {
    try {
      // printed under the key `auto`: the reason without its own `auto: `
      return resolveBackend('auto', binDir, where).reason.replace(/^auto: /, '');
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  })();
  const defaults = { 'salvium testnet RPC': 29081, 'salvium testnet ZMQ': 29082, 'monero testnet RPC': 28081 };
  const ports: Record<string, string> = {};
  for (const [k, p] of Object.entries(defaults))
    ports[`${k} ${p}`] = (await isPortFree(p))
      ? 'free'
      : 'in use (saltnet allocates its own ports, so this only matters to hand-started programs)';
  report.defaultPorts = ports;
  report.memory = {
    totalMiB: Math.round(totalmem() / 2 ** 20),
    freeMiB: Math.round(freemem() / 2 ** 20),
    note: 'a real Salvium miner needs ~256 MiB in light mode (MONERO_RANDOMX_UMASK=4, which saltnet sets) and ~2 GiB in full mode',
  };
  const pages = readHugePages();
  if (pages)
    report.hugePages = {
      ...pages,
      neededPerFullDaemon: pagesFor(1, pages.sizeKiB),
      note: hugePagesNote(1, pages),
    };
  report.runs = runsReport();
  report.timeoutFactor = process.env.SALTNET_TIMEOUT_FACTOR ?? '1';
  if (argv.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const print = (k: string, v: unknown, indent = ''): void => {
    if (Array.isArray(v)) {
      process.stdout.write(`${indent}${k}:\n`);
      for (const item of v) process.stdout.write(`${indent}  - ${String(item)}\n`);
    } else if (v && typeof v === 'object') {
      process.stdout.write(`${indent}${k}:\n`);
      for (const [kk, vv] of Object.entries(v)) print(kk, vv, `${indent}  `);
    } else process.stdout.write(`${indent}${k}: ${String(v)}\n`);
  };
  for (const [k, v] of Object.entries(report)) {
    if (k === 'configFile') continue;
    if (k === 'config') printConfig(cfg);
    else if (k === 'randomx') printRandomx(v as RandomxReport);
    else print(k, v);
  }
}

/**
 * What runs when no folder is given, found as `up` finds it (PATH, then the newest installed release): `salviumd,
 * salvium-wallet-cli and salvium-wallet-rpc from the newest installed release, v1.1.3c in <cache>/bin/salvium-v1.1.3c`.
 */
function runsFrom(b: ResolvedBackend): string {
  const names = Object.values(b.spec.binaries);
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)} from ${b.source}`;
}

/**
 * What `saltnet install` put in the cache, what the release table pins for this machine, and — when real Salvium is
 * not found — commands that get it and work as they stand (never `--version V` alone for a version nothing pins).
 */
function installReport(cacheDir: string | undefined, salviumFound: boolean): Record<string, unknown> {
  const binRoot = binRootOf({ cacheDir });
  let platform;
  try {
    platform = platformFor();
  } catch (err) {
    return { cache: binRoot, problem: err instanceof Error ? err.message : String(err) };
  }
  const installed = listInstalled(binRoot, platform).map(
    (r) => `${r.version} in ${r.binDir}: ${r.programVersion} (sha256 ${r.sha256 ?? 'of a folder copy'}, ${r.hashFrom})`,
  );
  const tableFile = process.env.SALTNET_RELEASES_FILE || DEFAULT_TABLE_FILE;
  let pinned: string[] = [];
  let tableProblem: string | undefined;
  try {
    pinned = loadReleaseTable(tableFile)
      .releases.filter((r) => r.assets.some((a) => a.platform === platform))
      .map((r) => r.version);
  } catch (err) {
    tableProblem = err instanceof Error ? err.message : String(err);
  }
  const hints = salviumFound
    ? []
    : [
        'saltnet install --from <release archive or folder>   # one you have, e.g. salvium-v1.1.3c-linux-x64-debian12.tar.gz',
        ...(pinned[0]
          ? [`saltnet install --version ${pinned[0]}   # pinned: downloaded and checked against the table`]
          : []),
        'saltnet install --version <version> --sha256 <hex>   # a download checked against a hash you trust (or --trust-on-first-use)',
      ];
  return {
    cache: binRoot,
    installed: installed.length ? installed : 'none',
    pinned: tableProblem ?? (pinned.length ? pinned.join(', ') : `none for ${platform} (${tableFile})`),
    ...(hints.length ? { 'to get real Salvium': hints } : {}),
  };
}

/**
 * The run registry: its folder, where that choice came from (SALTNET_STATE_DIR, SALTNET_CACHE_DIR or the default), and
 * its runs.
 */
function runsReport(): Record<string, unknown> {
  const { dir, source } = resolveStateDir();
  try {
    stateDir();
    const runs = listRuns();
    return {
      stateDir: dir,
      stateDirFrom: source,
      running: runs.filter(ownerAlive).length,
      stale: runs.filter((r) => !ownerAlive(r)).length,
    };
  } catch (err) {
    process.exitCode = 1;
    return { stateDir: dir, stateDirFrom: source, error: err instanceof Error ? err.message : String(err) };
  }
}

type RandomxReport = Awaited<ReturnType<typeof randomxReport>>;

/**
 * saltnet's own RandomX miner: whether librandomx loads (and from which file) or why not, and the datasets in the cache
 * folder, each with what it cost to build.
 */
async function randomxReport(cacheDirPath: string, choice: unknown) {
  const lib = loadRandomx();
  const datasets = await datasetRows(cacheDirPath);
  const file = 'missing' in lib ? undefined : loadedFile('librandomx');
  let miner =
    choice === 'saltnet'
      ? "saltnet's own mines the blocks after ready on real Salvium (miner: saltnet)"
      : "saltnet's own mines the blocks after ready on real Salvium above difficulty 1 (miner: auto)";
  if (choice === 'daemon') miner = "the daemon's own (miner: daemon)";
  else if ('missing' in lib)
    miner =
      choice === 'saltnet'
        ? 'miner: saltnet cannot mine without librandomx: a testnet on real Salvium fails to start'
        : "the daemon's own mines every block (saltnet's own needs librandomx)";
  return {
    library: 'missing' in lib ? null : lib.path,
    ...(file ? { libraryFile: file } : {}),
    ...('missing' in lib ? { missing: lib.missing } : {}),
    miner,
    datasetDir: randomxDir(cacheDirPath),
    datasets,
    ...(datasets.length ? {} : { note: 'missing' in lib ? 'none (none is built without librandomx)' : NO_DATASET }),
  };
}

/** The file of a shared library this process has loaded (Linux: /proc/self/maps), by the start of its name. */
function loadedFile(prefix: string): string | undefined {
  try {
    return readFileSync('/proc/self/maps', 'utf8')
      .split('\n')
      .map((l) => l.trim().split(/\s+/)[5])
      .find((f) => f !== undefined && basename(f).startsWith(prefix));
  } catch {
    return undefined;
  }
}

function printRandomx(r: RandomxReport): void {
  const lib = r.library
    ? `${r.library}${r.libraryFile && r.libraryFile !== r.library ? ` (${r.libraryFile})` : ''}`
    : `not loaded: ${r.missing}`;
  process.stdout.write(`randomx:\n  library: ${lib}\n  miner: ${r.miner}\n`);
  if (r.note) return void process.stdout.write(`  datasets in ${r.datasetDir}: ${r.note}\n`);
  process.stdout.write(`  datasets in ${r.datasetDir}:\n`);
  for (const d of r.datasets) process.stdout.write(`    - ${describeDataset(d)}\n`);
}

/** `  backend: sim   (config file /x/saltnet.config.yaml:2)`, one line per key. */
function printConfig(cfg: ConfigReport): void {
  if (!cfg.entries) {
    process.stdout.write(`config: ERROR\n${(cfg.error ?? '').replace(/^/gm, '  ')}\n`);
    return;
  }
  process.stdout.write(
    `config: ${cfg.resolved?.file ?? 'no saltnet.config.* file (searched from here up to the git root)'}\n`,
  );
  for (const [k, { value, source, unset }] of Object.entries(cfg.entries)) {
    const shown =
      value === null ? `(unset: ${unset ?? 'none'})` : Array.isArray(value) ? value.join(', ') : String(value);
    process.stdout.write(`  ${k}: ${shown}   (${source})\n`);
  }
}
