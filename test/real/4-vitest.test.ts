// The vitest integration on the real programs: the example project (test/vitest/example) run by a
// vitest of its own with saltnet/vitest's global setup on real Salvium — one testnet from the tier's
// cache, fresh wallets with their own wallet RPCs funded from the main wallet, a transfer between
// them — and nothing left afterwards. Then again at 500 with `freshWallets`: alice is a wallet funded ahead, paid
// once at difficulty 1 and cached (harness/vitest/funded.ts).
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { hasProcfs } from '../../harness/process/procfs.js';
import { BIN_DIR, CACHE_DIR, describeReal } from './real.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describeReal('saltnet/vitest on real Salvium', () => {
  const project = mkdtempSync(join(tmpdir(), 'saltnet-real-vitest-'));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  /** The example project run by a vitest of its own with this saltnet.config.yaml; then nothing of it is alive. */
  async function runExample(config: string): Promise<string> {
    if (!existsSync(join(project, 'node_modules'))) {
      mkdirSync(join(project, 'node_modules'));
      symlinkSync(ROOT, join(project, 'node_modules/saltnet'));
      symlinkSync(realpathSync(join(ROOT, 'node_modules/vitest')), join(project, 'node_modules/vitest'));
      cpSync(join(ROOT, 'test/vitest/example'), project, { recursive: true });
    }
    writeFileSync(
      join(project, 'saltnet.config.yaml'),
      `backend: salvium\nbinDir: ${BIN_DIR}\ncacheDir: ${CACHE_DIR}\n${config}`,
    );
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && !k.startsWith('VITEST') && k !== 'NODE_OPTIONS' && !k.startsWith('SALTNET_')) env[k] = v;
    const state = join(project, '.state');
    Object.assign(env, { SALTNET_STATE_DIR: state, NO_COLOR: '1', CI: '1' });
    const r = await execa(
      process.execPath,
      [
        join(ROOT, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--root',
        project,
        '--reporter',
        'verbose',
        '--testTimeout',
        '300000',
        '--hookTimeout',
        '600000',
      ],
      { cwd: project, env, extendEnv: false, reject: false, all: true, timeout: 900_000 },
    );
    expect(r.exitCode, r.all).toBe(0);
    expect(r.all).toContain('saltnet: testnet ready for the tests');
    expect(r.all).toMatch(/Tests\s+3 passed \(3\)/);
    // Nothing of the run is alive: no process carries its state dir (reapers exit within a poll).
    if (hasProcfs()) {
      const strays = (): string[] =>
        readdirSync('/proc').filter((d) => {
          try {
            return (
              /^\d+$/.test(d) &&
              readFileSync(`/proc/${d}/environ`, 'latin1').split('\0').includes(`SALTNET_STATE_DIR=${state}`)
            );
          } catch {
            return false;
          }
        });
      for (let i = 0; i < 100 && strays().length > 0; i++) await sleep(100);
      expect(strays()).toEqual([]);
    }
    return r.all ?? '';
  }

  it('runs the example project: testnet up, fresh wallets funded, a transfer seen; nothing left', async () => {
    // The real programs at difficulty 1, from the tier's cache (the default chain state 1-up built).
    await runExample('difficulty: 1\n');
  });

  it('at 500 with freshWallets, alice is a wallet funded ahead at difficulty 1 (cached), opened with the 2:20 lookahead', async () => {
    // saltnet's own RandomX miner with the tier's cached dataset: the one block bob's payment needs costs a second.
    const out = await runExample('difficulty: 500\nfreshWallets:\n  - { unlocked: 10 SAL1, count: 1 }\n');
    expect(out).toMatch(/funding the fresh wallets \(freshWallets\) at difficulty 1 \(once per machine\)/);
    expect(out).toMatch(/saltnet: funded 1 fresh wallet ahead: restored with snapshot salvium-d1-\S+-ahead-/);
    process.stderr.write(`real tier: ${/saltnet: funded 1 fresh wallet ahead in [^\n]+/.exec(out)?.[0] ?? ''}\n`);
  });
});
