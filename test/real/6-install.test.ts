// `saltnet install --from <the release tarball>` into a cache of its own, then a plain `saltnet up`
// (no --backend, no --bin-dir, no SALTNET_BIN_DIR, no salviumd on PATH): auto picks the installed
// release and the real programs run. Short: height 20, nothing to unlock, difficulty 1. Skipped
// without the release tarball in ../shared/salvium/ (test/real/setup.ts hands it over).
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, startUntilReady } from '../cli/helpers.js';

const TARBALL = process.env.SALTNET_REAL_TARBALL ?? '';

describe.skipIf(!TARBALL)('saltnet install --from the release tarball, then a plain saltnet up', () => {
  const root = mkdtempSync(join(tmpdir(), 'saltnet-real-install-'));
  const cache = join(root, 'cache');
  // PATH without any folder that holds a salviumd (auto would pick that first)
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((d) => d && !existsSync(join(d, 'salviumd')))
    .join(delimiter);
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PATH: path,
    SALTNET_CACHE_DIR: cache,
    SALTNET_STATE_DIR: join(root, 'state'),
    NO_COLOR: '1',
  };
  delete env.SALTNET_BIN_DIR;
  const running: ResultPromise[] = [];
  afterAll(() => {
    for (const p of running) if (p.exitCode === null) p.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });
  let installed: { version: string; binDir: string; programVersion: string; sha256: string };

  it('installs the tarball: its programs link and run, their version and the hash are recorded', async () => {
    const r = await execa(process.execPath, [CLI, 'install', '--from', TARBALL, '--json'], { env, reject: false });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    installed = JSON.parse(String(r.stdout));
    expect(installed).toMatchObject({
      version: expect.stringMatching(/^v\d/),
      hashFrom: 'local',
      sha256: createHash('sha256').update(readFileSync(TARBALL)).digest('hex'),
      alreadyInstalled: false,
    });
    // e.g. "Salvium 'One' (v1.1.3c-bcd1c3b84, based on Monero 0.18.4.0-release)" installed as v1.1.3c
    expect(installed.programVersion).toMatch(/^Salvium .*\(v\d/);
    expect(installed.programVersion).toContain(`(${installed.version}`);
    expect(String(r.stderr)).toContain("3 program(s) match the release's own SHA256SUMS");
  });

  it('a plain `saltnet up` runs the installed programs', async () => {
    const t0 = Date.now();
    const u = await startUntilReady(
      ['up', '--height', '20', '--unlocked', '0', '--difficulty', '1'],
      env,
      running,
      600_000,
    );
    process.stderr.write(`real tier: install + up at height 20, cold, in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    try {
      expect(u.ready.backend).toBe('salvium');
      expect(u.ready.backendReason).toBe(
        `auto: picked real Salvium (the newest installed release, ${installed.version} in ${installed.binDir})`,
      );
      expect(readlinkSync(`/proc/${u.ready.daemon.pid}/exe`)).toBe(join(installed.binDir, 'salviumd'));
      expect(readlinkSync(`/proc/${u.ready.wallet.pid}/exe`)).toBe(join(installed.binDir, 'salvium-wallet-rpc'));
      const info = (await (
        await fetch(`${u.ready.daemon.url}/json_rpc`, {
          method: 'POST',
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'get_info' }),
        })
      ).json()) as { result: { version: string; height: number } };
      expect(installed.programVersion).toContain(info.result.version);
      expect(info.result.height).toBeGreaterThanOrEqual(20);
    } finally {
      u.proc.kill('SIGINT');
      const r = await u.proc;
      expect(r.exitCode === 130 || r.exitCode === 0, `exit ${r.exitCode}`).toBe(true);
    }
  });
});
