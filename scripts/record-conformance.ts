// `npm run record-conformance -- [--bin-dir D] [--cache-dir D] [--out DIR] [--only GLOB]… [--allow-failures]`:
// run every example scenario (scenarios/*.yaml) on the real Salvium programs at difficulty 1, with
// the scenario runner, each on a testnet of its own in the chain state saltnet builds itself
// (restored from the chain-state cache when it holds it), and write the results as a recording
// (harness/diff/recording.ts) to
// fixtures/conformance/salvium-<version>/ — the corpus test/sim/conformance-recorded.test.ts holds
// the simulator to, and what `saltnet diff --against` compares with. For a new Salvium release,
// run it with the new programs: it writes a new folder beside the old one (the same release: the
// folder is replaced). A run where any scenario failed or errored is not written (each one is
// listed) unless --allow-failures. With --only (a glob of scenario files, repeatable) only those
// are run, and the recording's other scenarios are kept from the folder as it is (the same programs
// only): a new or changed example is recorded without running the whole corpus again.
//
// The programs: --bin-dir, else SALTNET_BIN_DIR or ../shared/salvium/ (scripts/real-binaries.ts).
// The cache: --cache-dir, else SALTNET_CACHE_DIR, else ~/.cache/saltnet.
import picomatch from 'picomatch';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { glob } from 'tinyglobby';
import { programInfo, rpcVersion, writeRecording } from '../harness/diff/recording.js';
import { runFiles } from '../harness/runner/run-scenarios.js';
import { isUnsuccessful, type ScenarioResult } from '../harness/scenario/types.js';
import { resolveCacheDir } from '../harness/common/cache-dir.js';
import { packageVersion } from '../harness/common/paths.js';
import { findRealBinaries } from './real-binaries.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const DIFFICULTY = 1;
/** Each scenario on its own testnet, restored from the cached chain state its `requires` asks for:
 * its answers do not depend on which scenarios ran before it, so a subset, or a recording with a
 * stale scenario left out, still compares step by step. */
const ISOLATION = 'fresh';
const say = (line: string): void => void process.stderr.write(`${line}\n`);

function options(): { binDir?: string; cacheDir?: string; out?: string; only: string[]; allowFailures: boolean } {
  const { values } = parseArgs({
    options: {
      'bin-dir': { type: 'string' },
      'cache-dir': { type: 'string' },
      out: { type: 'string' },
      only: { type: 'string', multiple: true },
      'allow-failures': { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  return {
    ...(values['bin-dir'] ? { binDir: values['bin-dir'] } : {}),
    ...(values['cache-dir'] ? { cacheDir: values['cache-dir'] } : {}),
    ...(values.out ? { out: values.out } : {}),
    only: values.only ?? [],
    allowFailures: values['allow-failures'] === true,
  };
}

async function binDirOf(given: string | undefined): Promise<string> {
  if (given) return resolve(given);
  const found = await findRealBinaries(root);
  if ('why' in found) throw new Error(`${found.why}; or pass --bin-dir`);
  return found.dir;
}

function folderSize(dir: string): { files: number; bytes: number } {
  const names = readdirSync(dir);
  return { files: names.length, bytes: names.reduce((n, f) => n + statSync(join(dir, f)).size, 0) };
}

/** Each scenario that failed or errored, with its first failure and where its artifacts are. */
function unsuccessful(results: readonly ScenarioResult[]): string[] {
  return results.filter(isUnsuccessful).map((r) => {
    const why = (r.failure?.message ?? r.steps.find((s) => s.status === 'failed')?.failure?.message ?? '').split(
      '\n',
      1,
    )[0];
    return `  ${r.status.padEnd(6)} ${relative(root, r.file)} — ${r.name}${why ? `: ${why}` : ''}${r.artifactDir ? `\n         artifacts: ${r.artifactDir}` : ''}`;
  });
}

async function main(): Promise<void> {
  const o = options();
  const binDir = await binDirOf(o.binDir);
  const program = await programInfo('salvium', binDir);
  if (!program.tag)
    throw new Error(
      `cannot tell the Salvium version from ${JSON.stringify(program.program)} (salviumd --version in ${binDir})`,
    );
  const out = resolve(o.out ?? join(root, 'fixtures', 'conformance', `salvium-${program.tag}`));
  const cacheDir = resolveCacheDir(o.cacheDir ? { cacheDir: o.cacheDir } : {});
  const every = (await glob('scenarios/*.yaml', { cwd: root, absolute: true })).sort();
  const chosen = picomatch(o.only.length ? o.only : ['**']);
  const files = every.filter((f) => chosen(relative(root, f)));
  if (!files.length) throw new Error(`no scenario in scenarios/ matches --only ${o.only.join(' ')}`);
  const keepFrom = o.only.length && existsSync(out) ? { keepFrom: out } : {};
  say(
    `record-conformance: ${files.length} scenarios on ${program.program} (${binDir}), difficulty ${DIFFICULTY}, isolation ${ISOLATION}, cache ${cacheDir}`,
  );
  const artifacts = mkdtempSync(join(tmpdir(), 'saltnet-record-'));
  let keep = false;
  try {
    const t0 = Date.now();
    const results = await runFiles(files, {
      backend: 'salvium',
      binDir,
      difficulty: DIFFICULTY,
      isolation: ISOLATION,
      workers: 1,
      bail: false,
      artifactsRoot: artifacts,
      cacheDir,
      log: (l) => say(`  ${l}`),
      hooks: {
        scenarioEnd: (r) =>
          say(`  ${r.status.padEnd(7)} ${relative(root, r.file)} — ${r.name} (${(r.ms / 1000).toFixed(1)} s)`),
      },
    });
    const secs = ((Date.now() - t0) / 1000).toFixed(0);
    const bad = unsuccessful(results);
    if (bad.length && !o.allowFailures) {
      keep = true;
      say(
        `record-conformance: nothing written: ${bad.length} of ${results.length} scenarios did not pass (${secs} s):\n${bad.join('\n')}\nrun it again, or pass --allow-failures to record them as they are`,
      );
      process.exitCode = 1;
      return;
    }
    if (bad.length)
      say(
        `record-conformance: recording ${bad.length} scenarios that did not pass (--allow-failures):\n${bad.join('\n')}`,
      );
    const saltnetVersion = packageVersion();
    const shown = out.startsWith(`${root}`) ? relative(root, out) : out;
    const rerun = `npm run record-conformance${o.out ? ` -- --out ${shown}` : ''}`;
    const m = await writeRecording(out, results, {
      root,
      backend: 'salvium',
      program,
      difficulty: DIFFICULTY,
      isolation: ISOLATION,
      saltnetVersion,
      recordedWith: rerun,
      ...keepFrom,
    });
    const size = folderSize(out);
    const steps = results.reduce((n, r) => n + r.steps.length, 0);
    say(
      `record-conformance: wrote ${shown}: ${m.scenarios.length} scenarios (${results.length} recorded now, ${steps} steps), ${size.files} files, ${(size.bytes / 1024).toFixed(0)} KiB; Salvium ${rpcVersion(results) ?? program.program}; the run took ${secs} s`,
    );
  } finally {
    if (!keep) rmSync(artifacts, { recursive: true, force: true });
    else say(`record-conformance: artifacts kept in ${artifacts}`);
  }
}

main().catch((err: unknown) => {
  say(`record-conformance: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(2);
});
