// Progress lines after a second Ctrl-C: once the supervisor has started killing every process, a line saying that a
// program became ready (its answer was already on its way) would follow "killing every process now". The commands'
// progress log (harness/cli/progress-log.ts) stays quiet from then on; after the first signal it still speaks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/sim.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/killing-progress.mjs', import.meta.url));
const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'saltnet-progress-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the progress log after a second signal', { timeout: 60_000 }, () => {
  it('tells nothing once every process is being killed', async () => {
    const p = execa(process.execPath, [FIXTURE, tempDir()], {
      env: { SALTNET_STATE_DIR: tempDir() },
      reject: false,
      buffer: false,
      stdout: 'pipe',
      stderr: 'pipe',
    });
    let out = '';
    let err = '';
    p.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    await waitFor('the fixture to be ready', async () => out.includes('ready') || undefined, 20_000, 20);
    p.kill('SIGINT');
    await waitFor('the line told after the first signal', async () => err.includes('after signal 1') || undefined);
    p.kill('SIGINT');
    const r = await p;
    expect(r.exitCode, err).toBe(130);
    expect(err).toContain('SIGINT again, killing every process now');
    expect(err.slice(err.indexOf('killing every process now'))).not.toContain('daemon ready');
  });
});
