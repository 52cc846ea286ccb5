// `saltnet record` on the real programs: the wallet app of test/record/client.mjs (a token, its
// listing, a SAL1 transfer to bob, a token transfer, a refused call) recorded against real Salvium;
// the scenario it writes replays green on real Salvium, and `saltnet diff` of it, the simulator
// against real Salvium, finds no divergence.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { CLI } from '../cli/helpers.js';
import { BIN_DIR, CACHE_DIR, describeReal, SIM_AGAINST_REAL } from './real.js';

const CLIENT = fileURLToPath(new URL('../record/client.mjs', import.meta.url));

describeReal('saltnet record on real Salvium', () => {
  const root = mkdtempSync(join(tmpdir(), 'saltnet-real-record-'));
  const env = { ...process.env, SALTNET_STATE_DIR: join(root, 'state'), NO_COLOR: '1', TICKER: 'RRC1' } as Record<
    string,
    string
  >;
  const cli = (args: string[]) =>
    execa(process.execPath, [CLI, ...args], { env, reject: false, all: true, timeout: 900_000 });
  // 1050 SAL1 for main keeps the testnet's funding in the default bucket (1100): 1-up's cached chain serves it.
  const real = ['--backend', 'salvium', '--bin-dir', BIN_DIR, '--difficulty', '1', '--cache-dir', CACHE_DIR];
  const file = join(root, 'recorded.yaml');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('records the wallet app; the scenario replays green on real Salvium', async () => {
    const t0 = Date.now();
    const rec = await cli([
      'record',
      ...real,
      '--unlocked',
      '1050',
      '--wallet',
      'bob',
      '--out',
      file,
      '--',
      process.execPath,
      CLIENT,
    ]);
    expect(rec.exitCode, rec.all).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('salvium backend');
    expect(text).toContain('expect_error: { code: -7, message: Token already exists. }');
    const replay = await cli(['run', file, ...real]);
    process.stderr.write(`real tier: record and replay took ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    expect(replay.exitCode, `${replay.all}\n--- the recorded scenario:\n${text}`).toBe(0);
  });

  it('saltnet diff of the recording, the simulator against real Salvium, finds no divergence', async () => {
    const output = join(root, 'diff.json');
    const r = await cli([
      'diff',
      file,
      ...SIM_AGAINST_REAL,
      '--artifacts',
      join(root, 'artifacts'),
      '--reporter',
      'json',
      '--output',
      output,
    ]);
    const report = JSON.parse(readFileSync(output, 'utf8')) as { ok: boolean; summary: { divergences: number } };
    expect(report.summary.divergences, r.all).toBe(0);
    expect(r.exitCode, r.all).toBe(0);
  });
});
