// `saltnet install`: put checked Salvium binaries in the cache and say where they are.
import { dirname } from 'node:path';
import type { CommandModule } from 'yargs';
import { installSalvium, type InstallOptions, type InstallResult } from '../install/install.js';
import { listInstalled } from '../install/marker.js';
import { trustFilePath } from '../install/trust.js';
import { Interrupted, SIGNAL_EXIT_CODES } from '../process/interrupt.js';

interface InstallArgs {
  version?: string;
  from?: string;
  mirror?: string;
  sha256?: string;
  trustOnFirstUse?: boolean;
  asset?: string;
  force: boolean;
  json: boolean;
  cacheDir?: string;
  releases?: string;
  checkHashesFile?: string;
}

/** A path as one shell word (quoted only when it needs to be). */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const HASH_FROM_WORDS: Record<InstallResult['hashFrom'], string> = {
  pinned: 'matches the pinned table',
  'sha256-option': 'matches --sha256',
  'trust-on-first-use': 'trust on first use',
  local: 'a local archive',
};

/** What `install` prints: where the programs are, what they print, the hash, and whether `up` picks them. */
export function describeInstall(r: InstallResult): string {
  const dir = shellWord(r.binDir);
  const binRoot = dirname(r.installDir);
  const lines = [
    `saltnet install: Salvium ${r.version} ${r.alreadyInstalled ? 'already installed ' : ''}in ${r.binDir}`,
    `  programs: ${r.programVersion}`,
    r.sha256
      ? `  sha256 ${r.sha256} (${HASH_FROM_WORDS[r.hashFrom]}; recorded in ${r.hashFrom === 'pinned' ? 'the marker' : trustFilePath(binRoot)})`
      : `  copied from the folder ${r.from} (program hashes in the marker)`,
  ];
  const newest = listInstalled(binRoot, r.platform)[0];
  lines.push(
    newest?.version === r.version
      ? `  \`saltnet up\` runs it (auto: the newest installed release, unless --bin-dir, SALTNET_BIN_DIR or PATH has salviumd)`
      : `  \`saltnet up\` runs the newer ${newest?.version ?? 'install'} first: pass --bin-dir ${dir} (or export SALTNET_BIN_DIR=${dir}) for this one`,
  );
  return lines.join('\n');
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Install with Ctrl-C, SIGTERM and SIGHUP heard: the first stops the install (the download, unpacking, a program's run)
 * and lets it remove its staging folder, then the command exits 130/143/129 saying so; a second exits at once (the
 * next install removes what is left). Returns undefined when interrupted.
 */
async function installUntilSignalled(o: InstallOptions): Promise<InstallResult | undefined> {
  const stop = new AbortController();
  const onSignal = (sig: NodeJS.Signals): void => {
    if (stop.signal.aborted) process.exit(SIGNAL_EXIT_CODES[sig] ?? 1);
    process.stderr.write(`saltnet install: ${sig} received, stopping (again to quit at once)\n`);
    stop.abort(new Interrupted(sig));
  };
  const listeners = SIGNALS.map((sig) => [sig, () => onSignal(sig)] as const);
  for (const [sig, l] of listeners) process.on(sig, l);
  try {
    return await installSalvium({ ...o, signal: stop.signal });
  } catch (err) {
    const reason: unknown = stop.signal.reason;
    if (!(reason instanceof Interrupted)) throw err;
    process.stderr.write(
      `saltnet install: interrupted by ${reason.signal}: nothing was installed, and its temporary files were removed\n`,
    );
    process.exitCode = reason.exitCode;
    return undefined;
  } finally {
    for (const [sig, l] of listeners) process.off(sig, l);
  }
}

export const installCommand: CommandModule<object, InstallArgs> = {
  command: 'install',
  describe: 'install real Salvium binaries into the cache (a release you have, or a download), checked',
  builder: (y) =>
    y
      // `--version` is saltnet's own version flag everywhere else; here it picks the release.
      .version(false)
      .option('version', {
        type: 'string',
        describe: 'release tag, e.g. v1.1.3c (default: the newest pinned; with --from: what the programs print)',
      })
      .option('from', {
        type: 'string',
        describe:
          'install this release archive (.tar.gz, .tgz, .tar, .zip) or folder of programs instead of downloading',
      })
      .option('mirror', {
        type: 'string',
        describe:
          'base URL (<base>/<version>/<asset>) or local folder to get the archive from (env SALTNET_RELEASE_MIRROR)',
      })
      .option('sha256', {
        type: 'string',
        describe: 'expected SHA-256 of the archive: installs a version that is not pinned',
      })
      .option('trust-on-first-use', {
        type: 'boolean',
        default: false,
        describe:
          'for a version that is not pinned: accept the archive, print its hash and record it for later installs',
      })
      .option('asset', { type: 'string', describe: 'archive file name, instead of the pinned one for this platform' })
      .option('force', { type: 'boolean', default: false, describe: 'install again even when installed' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON object' })
      .option('cache-dir', {
        type: 'string',
        describe: 'cache folder (default $SALTNET_CACHE_DIR, $XDG_CACHE_HOME/saltnet, ~/.cache/saltnet)',
      })
      .option('releases', {
        type: 'string',
        describe: 'release table file instead of the pinned one shipped with saltnet (env SALTNET_RELEASES_FILE)',
      })
      .option('check-hashes-file', {
        type: 'string',
        describe: "URL or path of the release's hashes file; it must list the archive with the same hash",
      }),
  handler: async (argv) => {
    const r = await installUntilSignalled({
      version: argv.version,
      from: argv.from,
      mirror: argv.mirror,
      sha256: argv.sha256,
      trustOnFirstUse: argv.trustOnFirstUse || undefined,
      asset: argv.asset,
      force: argv.force,
      cacheDir: argv.cacheDir,
      releasesFile: argv.releases,
      checkHashesFile: argv.checkHashesFile,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    if (!r) return;
    process.stdout.write(argv.json ? `${JSON.stringify(r)}\n` : `${describeInstall(r)}\n`);
  },
};
