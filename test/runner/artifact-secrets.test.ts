// Every case of artifact-cases.ts: its scenario run (all in one `saltnet run` on the simulator), then
// its check of the artifact folder, the JUnit report and the output; and the modes every artifact has.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { slugify } from '../../harness/runner/artifacts.js';
import { cleanup, tempDir } from '../helpers/sim.js';
import { ARTIFACT_CASES, checkModes, type ArtifactRun } from './artifact-cases.js';

const CLI = fileURLToPath(new URL('../../dist/harness/cli/main.js', import.meta.url));

describe('what a run writes into its artifacts', () => {
  let dir: string;
  let output: string;
  let junit: string;
  beforeAll(async () => {
    dir = tempDir('saltnet-artifact-cases-');
    const files = ARTIFACT_CASES.map((c, i) => {
      writeFileSync(join(dir, `case-${i}.yaml`), c.scenario);
      return `case-${i}.yaml`;
    });
    const env = Object.assign(
      { SALTNET_SIM_HASHRATE: '250000', SALTNET_STATE_DIR: join(dir, 'state'), CI: '1' },
      ...ARTIFACT_CASES.map((c) => c.env ?? {}),
    ) as Record<string, string>;
    const args = [
      'run',
      ...files,
      '--backend',
      'sim',
      '--reporter',
      'junit',
      '--output',
      'j.xml',
      '--artifacts',
      'arts',
    ];
    const r = await execa(process.execPath, [CLI, ...args], { cwd: dir, env, reject: false, all: true });
    output = r.all ?? '';
    junit = readFileSync(join(dir, 'j.xml'), 'utf8');
  }, 240_000);
  afterAll(() => cleanup(dir));

  const runOf = (scenario: string): ArtifactRun => {
    const name = /^name: (.*)$/m.exec(scenario)![1]!;
    const root = join(dir, 'arts');
    const folder = join(
      root,
      readdirSync(root).find((d) => d.endsWith(`-${slugify(name)}`))!,
    );
    const walk = (d: string): string[] =>
      readdirSync(d).flatMap((f) => [join(d, f), ...(statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [])]);
    const files = [folder, ...walk(folder)].map((p) => {
      const st = statSync(p);
      return {
        path: relative(folder, p),
        folder: st.isDirectory(),
        mode: st.mode & 0o777,
        text: st.isDirectory() ? '' : readFileSync(p, 'utf8'),
      };
    });
    return { files, junit, output };
  };

  it.each(ARTIFACT_CASES.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const run = runOf(c.scenario);
    c.check(run);
    checkModes(run);
  });
});
