// `auto` (and --backend salvium) finding what `saltnet install` put in the cache — after --bin-dir,
// SALTNET_BIN_DIR and PATH, before the simulator — and `doctor` saying so, or suggesting only
// install commands that work as they stand. The releases are fake: scripts that print a version.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ParsedOnly, saltnetCli } from '../../harness/cli/program.js';
import { installSalvium } from '../../harness/install/install.js';
import { MARKER_FILE } from '../../harness/install/marker.js';
import { platformFor } from '../../harness/install/platform.js';
import { resolveBackend } from '../../harness/testnet/programs/binaries.js';
import { CLI } from '../cli/helpers.js';
import { commandsOf, saltnetArgs } from '../docs/shell.js';
import { cleanupDirs, fakeLdd, PROGRAM_NAMES, tempDir, VERSION, writeProgramsFolder, writeTable } from './helpers.js';

const saved = { PATH: process.env.PATH, SALTNET_BIN_DIR: process.env.SALTNET_BIN_DIR };

beforeEach(() => {
  process.env.PATH = '/nonexistent'; // no salviumd on PATH, whatever this machine has
  delete process.env.SALTNET_BIN_DIR;
});
afterEach(() => {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  cleanupDirs();
});

/** A cache with fake releases of `versions` installed (--from a folder). */
async function cacheWith(versions: string[]): Promise<{ root: string; cache: string }> {
  const root = tempDir();
  const cache = join(root, 'cache');
  for (const v of versions) {
    const dir = writeProgramsFolder(join(root, `build-${v}`), `${v}-fake`);
    await installSalvium({ from: dir, cacheDir: cache, ldd: fakeLdd().ldd });
  }
  return { root, cache };
}

describe('backend resolution and installed releases', () => {
  it('auto picks the newest installed release (numeric order), and says which and why', async () => {
    const { cache } = await cacheWith(['v1.9.0', 'v1.10.0', 'v1.2.0']);
    const dir = join(cache, 'bin', 'salvium-v1.10.0');
    const r = resolveBackend('auto', undefined, { cacheDir: cache });
    expect(r.spec.name).toBe('salvium');
    expect(r.paths.daemon).toBe(join(dir, 'salviumd'));
    expect(r.reason).toBe(`auto: picked real Salvium (the newest installed release, v1.10.0 in ${dir})`);
    // --backend salvium finds it too
    expect(resolveBackend('salvium', undefined, { cacheDir: cache }).paths.walletRpc).toBe(
      join(dir, 'salvium-wallet-rpc'),
    );
  });

  it("an install in the earlier layout (the archive's top folder kept, <cache>/bin/salvium-V/salvium-V/) is still found", async () => {
    const { cache } = await cacheWith(['v1.1.3']);
    const dir = join(cache, 'bin', 'salvium-v1.1.3');
    // as an earlier saltnet left it: the programs one folder down, and the marker saying where
    mkdirSync(join(dir, 'salvium-v1.1.3'));
    for (const n of PROGRAM_NAMES) renameSync(join(dir, n), join(dir, 'salvium-v1.1.3', n));
    const marker = JSON.parse(readFileSync(join(dir, MARKER_FILE), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, MARKER_FILE), JSON.stringify({ ...marker, binDir: 'salvium-v1.1.3' }));
    const r = resolveBackend('auto', undefined, { cacheDir: cache });
    expect(r.paths.daemon).toBe(join(dir, 'salvium-v1.1.3', 'salviumd'));
    expect(r.reason).toBe(
      `auto: picked real Salvium (the newest installed release, v1.1.3 in ${join(dir, 'salvium-v1.1.3')})`,
    );
  });

  it('--bin-dir and SALTNET_BIN_DIR come first; a folder in the cache without a marker is not an install', async () => {
    const { root, cache } = await cacheWith(['v1.0.0']);
    const own = writeProgramsFolder(join(root, 'own'), 'v2.0.0');
    expect(resolveBackend('auto', own, { cacheDir: cache }).paths.daemon).toBe(join(own, 'salviumd'));
    process.env.SALTNET_BIN_DIR = own;
    expect(resolveBackend('auto', undefined, { cacheDir: cache }).reason).toContain(`SALTNET_BIN_DIR ${own}`);
    delete process.env.SALTNET_BIN_DIR;

    const empty = join(root, 'cache2');
    writeProgramsFolder(join(empty, 'bin', 'salvium-v9.0.0'), 'v9.0.0'); // made by hand: no marker
    const sim = resolveBackend('auto', undefined, { cacheDir: empty });
    expect(sim.spec.name).toBe('sim');
    expect(sim.reason).toBe(
      `auto: no salviumd on PATH and no Salvium release installed in ${join(empty, 'bin')}, picked the built-in simulator (sim backend)`,
    );
    expect(() => resolveBackend('salvium', undefined, { cacheDir: empty })).toThrow(
      `not found on PATH, and no release is installed in ${join(empty, 'bin')}: pass --bin-dir, set SALTNET_BIN_DIR, or install a release: \`saltnet install --from <archive or folder>\``,
    );
  });
});

/** `saltnet doctor --json` with this cache (and release table), PATH without salviumd. */
async function doctor(cache: string, table?: string): Promise<Record<string, unknown>> {
  const root = tempDir();
  mkdirSync(join(root, 'empty'));
  const env: Record<string, string> = {
    PATH: join(root, 'empty'),
    HOME: root,
    SALTNET_CACHE_DIR: cache,
    SALTNET_STATE_DIR: join(root, 'state'),
    ...(table ? { SALTNET_RELEASES_FILE: table } : {}),
  };
  const r = await execa(process.execPath, [CLI, 'doctor', '--json'], {
    env,
    extendEnv: false,
    reject: false,
    cwd: root,
  });
  return JSON.parse(String(r.stdout)) as Record<string, unknown>;
}

describe('saltnet doctor', () => {
  it('with an installed release: salvium is found there, auto picks it, no install hints', async () => {
    const { cache } = await cacheWith(['v1.1.3']);
    const bin = join(cache, 'bin', 'salvium-v1.1.3');
    const d = await doctor(cache);
    expect(d.backends).toMatchObject({
      salvium: { found: true, daemon: join(bin, 'salviumd'), version: "salviumd: Salvium 'Fake' (v1.1.3-fake)" },
    });
    expect(d.auto).toBe(`picked real Salvium (the newest installed release, v1.1.3 in ${bin})`);
    expect(d.install).toEqual({
      cache: join(cache, 'bin'),
      installed: [`v1.1.3 in ${bin}: salviumd: Salvium 'Fake' (v1.1.3-fake) (sha256 of a folder copy, local)`],
      pinned: expect.stringMatching(/^none for /),
    });
  });

  it('binDir unset: the config section names the programs that run and the installed release they come from', async () => {
    const { cache } = await cacheWith(['v1.1.3']);
    const bin = join(cache, 'bin', 'salvium-v1.1.3');
    const config = (await doctor(cache)).config as Record<string, Record<string, unknown>>;
    expect(config.binDir).toEqual({
      value: null,
      source: 'default',
      unset: `salviumd, salvium-wallet-cli and salvium-wallet-rpc from the newest installed release, v1.1.3 in ${bin}`,
    });
    const none = (await doctor(join(tempDir(), 'cache'))).config as Record<string, Record<string, unknown>>;
    expect(none.binDir!.unset).toMatch(/^none found: salviumd, .* not found on PATH, and no release is installed in /);
  });

  it('without one: every hint parses as a saltnet command, and `--version V` alone only for a pinned V', async () => {
    const root = tempDir();
    const hintsOf = async (table: string): Promise<string[]> =>
      (((await doctor(join(root, 'cache'), table)).install as Record<string, unknown>)['to get real Salvium'] ??
        []) as string[];
    const check = async (hints: string[]): Promise<string[][]> => {
      const lines = hints.flatMap((h) => commandsOf(h).map((c) => saltnetArgs(c.words) ?? []));
      expect(lines).toHaveLength(hints.length);
      // a line that parses rejects with ParsedOnly (yargs may throw synchronously: hence the async wrapper)
      for (const args of lines)
        await expect((async () => saltnetCli(args, { parseOnly: true }).parseAsync())()).rejects.toBeInstanceOf(
          ParsedOnly,
        );
      return lines;
    };

    const none = await check(await hintsOf(writeTable(root, [])));
    expect(none.map((a) => a.slice(0, 2))).toEqual([
      ['install', '--from'],
      ['install', '--version'],
    ]);
    expect(none[1]).toContain('--sha256'); // nothing is pinned: --version needs a hash

    mkdirSync(join(root, 'pinned'));
    const table = writeTable(join(root, 'pinned'), [
      { name: 'x.tar.gz', bytes: Buffer.from('x'), platform: platformFor() },
    ]);
    const pinned = await check(await hintsOf(table));
    expect(pinned).toContainEqual(['install', '--version', VERSION]);
  });
});
