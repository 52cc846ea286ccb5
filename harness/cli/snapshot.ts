// `saltnet snapshot save <file> | load <file>`: a testnet's state in one file, to attach to a bug
// report and bring up elsewhere.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { exportSnapshot } from '../snapshot/archive.js';
import { importSnapshot } from '../testnet/chain/chain-check.js';
import { MAX_IMPORT_BYTES } from '../limits.js';
import { cacheDir } from '../common/cache-dir.js';
import { checkOutputPath } from '../common/output-file.js';
import { lockOutput } from '../process/output-lock.js';
import { removeSnapshot } from '../snapshot/store.js';
import { resolveBackend } from '../testnet/programs/binaries.js';
import { binaryHashes } from '../testnet/chain/chain-cache.js';
import { operate } from '../control/client.js';
import type { RunRecord } from '../process/registry.js';
import { controlOfRun, pickRun, runInfo } from './runs.js';
import { up, upOptions, type UpArgs } from './up.js';
import { numberOption } from '../config/numbers.js';
import { counted } from '../common/describe.js';

interface SaveArgs {
  file: string;
  run?: string;
  key?: string;
  cacheDir?: string;
}

const save: CommandModule<object, SaveArgs> = {
  command: 'save <file>',
  describe: 'save the running testnet (or a cached state, --key) to a .tar.gz file',
  builder: (y) =>
    y
      .positional('file', { type: 'string', demandOption: true, describe: 'the archive to write (.tar.gz)' })
      .option('run', { type: 'string', describe: 'which running testnet (see saltnet status)' })
      .option('key', { type: 'string', describe: 'export this cached state instead (see saltnet cache ls)' })
      .option('cache-dir', { type: 'string' }) as unknown as Argv<SaveArgs>,
  handler: async (a) => {
    const cdir = cacheDir(a.cacheDir ? { cacheDir: a.cacheDir } : {});
    const r = a.key ? undefined : pickRun(a.run);
    checkArchivePath(a.file, [cdir, ...(r ? [runInfo(r).workdir ?? r.workdir] : [])]);
    // One writer per output: a second save to the same file is refused now.
    const lock = await lockOutput(a.file, 'snapshot save', 'saltnet snapshot save');
    try {
      await saveTo(a, r);
    } finally {
      lock.release();
    }
  },
};

/**
 * Refused before anything stops: a folder, a path inside what the save reads (the cache, the testnet's workdir), or an
 * existing file that is not an archive (a scenario, a report: an archive never replaces it).
 */
function checkArchivePath(file: string, inputs: string[]): void {
  checkOutputPath('snapshot save', file, []);
  const abs = resolve(file);
  const inside = inputs.map((d) => resolve(d)).find((d) => abs === d || abs.startsWith(`${d}/`));
  if (inside)
    throw new Error(`snapshot save ${file} is inside ${inside}, which the save reads: write the archive elsewhere`);
  if (existsSync(abs) && !/\.(tar\.gz|tgz)$/.test(abs))
    throw new Error(
      `snapshot save ${file} exists and is not an archive (.tar.gz): it would be replaced; give another path`,
    );
}

async function saveTo(a: SaveArgs, r: RunRecord | undefined): Promise<void> {
  if (a.key || !r) {
    const m = await exportSnapshot(cacheDir(a.cacheDir ? { cacheDir: a.cacheDir } : {}), a.key ?? '', a.file);
    process.stdout.write(`wrote ${a.file}: ${m.key}, ${m.backend} height ${m.height}\n`);
    return;
  }
  const control = controlOfRun(r);
  const key = `saved-${runInfo(r).backend ?? 'x'}-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}-${randomBytes(3).toString('hex')}`;
  process.stderr.write(`saltnet: stopping the processes of ${r.runId} for a moment to save a consistent state\n`);
  const saved = await operate(control, 'snapshot', { key });
  try {
    const m = await exportSnapshot(saved.cacheDir, key, a.file);
    process.stdout.write(
      `wrote ${a.file}: ${m.backend} height ${m.height}, ${counted(m.files.length, 'file')}; bring it up with: saltnet snapshot load ${a.file}\n`,
    );
  } finally {
    removeSnapshot(saved.cacheDir, key);
  }
}

/** `--max-size`, in MiB: from 1 MiB to 1 TiB. */
const MAX_SIZE_RULE = { whole: true, min: 1, max: 2 ** 20, maxWhy: '1 TiB' };

type LoadArgs = UpArgs & { file: string; importOnly: boolean; maxSize?: number };

const load: CommandModule<object, LoadArgs> = {
  command: 'load <file>',
  describe: 'import a saved state into the cache and bring a testnet up from it',
  builder: (y) =>
    upOptions(y)
      .positional('file', {
        type: 'string',
        demandOption: true,
        describe: 'an archive written by saltnet snapshot save',
      })
      .option('import-only', {
        type: 'boolean',
        default: false,
        describe: 'only import it and print its key',
      })
      .option('max-size', {
        ...numberOption('max-size', MAX_SIZE_RULE, 'refuse an archive whose files add up to more MiB'),
        defaultDescription: String(MAX_IMPORT_BYTES / 2 ** 20),
      }) as unknown as Argv<LoadArgs>,
  handler: async (a: ArgumentsCamelCase<LoadArgs>) => {
    const dir = cacheDir(a.cacheDir ? { cacheDir: a.cacheDir } : {});
    const m = await importSnapshot(dir, a.file, {
      ...(a.maxSize !== undefined ? { maxBytes: a.maxSize * 2 ** 20, maxFileBytes: a.maxSize * 2 ** 20 } : {}),
    });
    process.stderr.write(`saltnet: imported ${a.file} as ${m.key} (${m.backend}, height ${m.height})\n`);
    if (a.importOnly) return void process.stdout.write(`${m.key}\n`);
    const backend = a.backend === 'auto' ? (m.backend as UpArgs['backend']) : a.backend;
    if (backend !== m.backend)
      throw new Error(`${a.file} holds a ${m.backend} chain; it cannot run on the ${backend} backend`);
    const be = resolveBackend(backend, a.binDir);
    const ours = await binaryHashes(be);
    if (JSON.stringify(ours) !== JSON.stringify(m.binaries)) {
      process.stderr.write(
        `saltnet: warning: ${a.file} was made with other ${m.backend} binaries (${m.binaryVersion ?? 'unknown version'}); it may not load\n`,
      );
    }
    // The difficulty the saved testnet served (a chain state serves any: --difficulty picks another).
    const difficulty = a.difficulty ?? (m.difficulty || undefined);
    await up(
      { ...a, backend, ...(difficulty ? { difficulty } : {}) },
      { snapshotKey: m.key, height: m.height, unlocked: 0n },
    );
  },
};

export const snapshotCommand: CommandModule = {
  command: 'snapshot <command>',
  describe: 'a testnet state in one file: save <file> | load <file>',
  builder: (y) =>
    y.command(save).command(load).demandCommand(1, 'say what to do: saltnet snapshot save <file> | load <file>'),
  handler: () => undefined,
};
