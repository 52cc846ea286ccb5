// vitest globalSetup: typecheck everything (tests included), then compile harness/ to dist/ so that
// tests spawn the same JavaScript the `saltnet` package ships (the simulator runs as real processes).
// Every test run gets its own chain-state cache (SALTNET_CACHE_DIR, inherited by the workers and
// the processes they spawn): the first testnet of a run builds the snapshot, later ones restore
// it, and nothing is read from or left in the user's ~/.cache.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export default function setup(): () => void {
  // Both projects (sim, real) name this setup: build once per run.
  if (process.env.SALTNET_TEST_BUILT) return () => undefined;
  process.env.SALTNET_TEST_BUILT = '1';
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  // The programs the tests start run bundled, as `npm run build` leaves them (scripts/bundle.ts).
  execFileSync(process.execPath, [join(root, 'dist/scripts/bundle.js')], { cwd: root, stdio: 'inherit' });
  const cache = mkdtempSync(join(tmpdir(), 'saltnet-test-cache-'));
  process.env.SALTNET_CACHE_DIR = cache;
  return () => rmSync(cache, { recursive: true, force: true });
}
