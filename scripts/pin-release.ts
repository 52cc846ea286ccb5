// Maintainer script: pin a Salvium release in fixtures/releases/salvium.json from the release's
// published hashes file (`sha256sum` format), so `saltnet install` can verify its archives.
//
//   npm run build && node dist/scripts/pin-release.js v1.1.3c ./hashes.txt
//   npm run build && node dist/scripts/pin-release.js v1.1.3c https://…/hashes.txt --asset linux-x86_64=<name>
//
// Works offline with a local file. Check the hashes file yourself first (release page, signature):
// whatever it says becomes what saltnet trusts. Review the diff before committing it.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { InstallError } from '../harness/install/errors.js';
import { pinRelease } from '../harness/install/pin.js';
import { PLATFORMS } from '../harness/install/platform.js';
import { DEFAULT_TABLE_FILE } from '../harness/install/releases.js';

const argv = await yargs(hideBin(process.argv))
  .scriptName('pin-release')
  .usage(
    '$0 <version> <hashes-file>\n\nWrite the pinned-table entry of a Salvium release from its hashes file (URL or local path).',
  )
  .version(false)
  .command('$0 <version> <hashes-file>', false)
  .positional('version', { type: 'string', demandOption: true, describe: 'release tag, e.g. v1.1.3c' })
  .positional('hashes-file', {
    type: 'string',
    demandOption: true,
    describe: 'URL or path of the sha256sum-format hashes file',
  })
  .option('table', { type: 'string', default: DEFAULT_TABLE_FILE, describe: 'the table file to update' })
  .option('asset', {
    type: 'string',
    array: true,
    default: [] as string[],
    describe: `<platform>=<asset name>; platform one of ${PLATFORMS.join(', ')}`,
  })
  .strict()
  .help()
  .parseAsync();

try {
  const out = await pinRelease({
    version: argv.version as string,
    hashesFile: argv.hashesFile as string,
    table: argv.table,
    assets: argv.asset,
  });
  process.stdout.write(`${out.replaced ? 'replaced' : 'added'} ${out.entry.version} in ${argv.table}:\n`);
  for (const a of out.entry.assets)
    process.stdout.write(`  ${(a.platform ?? '(no platform)').padEnd(14)} ${a.name}  ${a.sha256}\n`);
  for (const w of out.warnings) process.stderr.write(`warning: ${w}\n`);
} catch (err) {
  process.stderr.write(
    `pin-release: ${err instanceof InstallError || err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
}
