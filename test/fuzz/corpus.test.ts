// The regression corpus (test/fuzz/corpus/*.yaml): each file is a divergence between the simulator and real Salvium
// v1.1.3c, cut down to the steps that show it, with the real programs' answers as its expectations. Every file passes
// on the simulator here; the real tier runs the same files on the real programs, so an expectation that is not what
// real Salvium answers fails there.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expandFiles } from '../../harness/cli/run.js';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CORPUS = join(ROOT, 'test/fuzz/corpus/*.yaml');
let dir: string;

beforeAll(() => {
  dir = tempDir('saltnet-corpus-');
});
afterAll(() => cleanup(dir));

it('every divergence of the regression corpus answers as real Salvium on the simulator', async () => {
  const files = await expandFiles([CORPUS]);
  const lines: string[] = [];
  expect(files.length).toBeGreaterThanOrEqual(2);
  const results = await runFiles(files, {
    backend: 'sim',
    isolation: 'shared',
    workers: 2,
    bail: false,
    artifactsRoot: join(dir, 'artifacts'),
    log: (l) => lines.push(l),
  });
  const failed = results.filter((r) => r.status !== 'passed');
  const why = (r: (typeof results)[number]): string => `${r.file}: ${r.failure?.message} ${r.failure?.actual ?? ''}`;
  expect(failed.map(why), lines.slice(-30).join('\n')).toEqual([]);
  expect(results).toHaveLength(files.length);
}, 300_000);
