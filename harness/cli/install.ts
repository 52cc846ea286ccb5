// `saltnet install`: put verified Salvium binaries in the cache and say where they are.
import type { CommandModule } from 'yargs';
import { installSalvium, type InstallResult } from '../install/install.js';

interface InstallArgs {
  version?: string;
  mirror?: string;
  sha256?: string;
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

export function describeInstall(r: InstallResult): string {
  const dir = shellWord(r.binDir);
  return `saltnet install: Salvium ${r.version} ${r.alreadyInstalled ? 'already installed ' : ''}in ${r.binDir} (use --bin-dir ${dir} or export SALTNET_BIN_DIR=${dir})`;
}

export const installCommand: CommandModule<object, InstallArgs> = {
  command: 'install',
  describe: 'download and verify real Salvium binaries into the cache',
  builder: (y) =>
    y
      // `--version` is saltnet's own version flag everywhere else; here it picks the release.
      .version(false)
      .option('version', { type: 'string', describe: 'release tag, e.g. v1.1.3c (default: the newest pinned)' })
      .option('mirror', {
        type: 'string',
        describe:
          'base URL (<base>/<version>/<asset>) or local folder to get the archive from (env SALTNET_RELEASE_MIRROR)',
      })
      .option('sha256', {
        type: 'string',
        describe: 'expected SHA-256 of the archive: installs a version that is not pinned',
      })
      .option('asset', { type: 'string', describe: 'archive file name, instead of the pinned one for this platform' })
      .option('force', { type: 'boolean', default: false, describe: 'download and install again even when installed' })
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
    const r = await installSalvium({
      version: argv.version,
      mirror: argv.mirror,
      sha256: argv.sha256,
      asset: argv.asset,
      force: argv.force,
      cacheDir: argv.cacheDir,
      releasesFile: argv.releases,
      checkHashesFile: argv.checkHashesFile,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    process.stdout.write(argv.json ? `${JSON.stringify(r)}\n` : `${describeInstall(r)}\n`);
  },
};
