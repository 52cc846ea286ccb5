// Faults on the real programs (the fault suite's chosen cases, test/faults): a cold `up` (its own
// small chain, so that the wallet CLI restores the fixture wallets) during which no command line on
// the machine ever shows a word of a seed (every /proc/<pid>/cmdline sampled every 20 ms), and whose
// logs hold none; then the real daemon and the real wallet RPC frozen with SIGSTOP while the testnet
// is up: each is noticed (an `unresponsive` event, `saltnet status`), a mine or a snapshot save is
// refused at once with the reason, and each answers again once continued.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { CLI, startUntilReady, type Started } from '../cli/helpers.js';
import { waitFor } from '../helpers/sim.js';
import { BIN_DIR, describeReal } from './real.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/wallets', import.meta.url));

/** Every run of three words of the fixture seeds: any of them on a command line or in a log is a leak. */
function seedPieces(): string[] {
  const out: string[] = [];
  for (const name of ['miner', 'main']) {
    const w = (JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as { seed: string }).seed.split(' ');
    for (let i = 0; i + 3 <= w.length; i++) out.push(w.slice(i, i + 3).join(' '));
  }
  return out;
}

/** Every command line on the machine now (but this process's own). */
function commandLines(): string[] {
  const out: string[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      out.push(readFileSync(`/proc/${name}/cmdline`, 'latin1').replaceAll('\0', ' '));
    } catch {
      /* gone */
    }
  }
  return out;
}

describeReal('faults on real Salvium', () => {
  const root = mkdtempSync(join(tmpdir(), 'saltnet-real-faults-'));
  const env = { ...process.env, SALTNET_STATE_DIR: join(root, 'state'), NO_COLOR: '1' } as Record<string, string>;
  const running: ResultPromise[] = [];
  const cli = (args: string[]) =>
    execa(process.execPath, [CLI, ...args], { env, reject: false, all: true, timeout: 300_000 });
  let u: Started;
  afterAll(async () => {
    for (const p of running) if (p.exitCode === null) p.kill('SIGINT');
    await Promise.all(running.map((p) => p.catch(() => undefined)));
    await cli(['down']);
    rmSync(root, { recursive: true, force: true });
  });

  it('a cold up restores the fixture wallets with no seed word on any command line, and none in a log', async () => {
    const pieces = seedPieces();
    const leaks = new Set<string>();
    let samples = 0;
    const sampler = setInterval(() => {
      samples++;
      for (const line of commandLines()) if (pieces.some((p) => line.includes(p))) leaks.add(line);
    }, 20);
    try {
      // Its own cache: a miss, so the wallet CLIs restore the wallets (height 30 at difficulty 1: about a minute).
      const args = ['up', '--backend', 'salvium', '--bin-dir', BIN_DIR, '--difficulty', '1'];
      u = await startUntilReady(
        [...args, '--height', '30', '--unlocked', '0', '--cache-dir', join(root, 'cache')],
        env,
        running,
        600_000,
      );
    } finally {
      clearInterval(sampler);
    }
    expect(u.ready.snapshot.status).toBe('built');
    expect(samples).toBeGreaterThan(100);
    expect([...leaks]).toEqual([]);
    const logs = join(u.ready.workdir, 'logs');
    for (const f of readdirSync(logs).filter((n) => n.startsWith('wallet-cli-'))) {
      const text = readFileSync(join(logs, f), 'utf8');
      expect(
        pieces.filter((p) => text.includes(p)),
        f,
      ).toEqual([]);
      if (!f.endsWith('-file.log')) expect(statSync(join(logs, f)).mode & 0o777, f).toBe(0o600);
    }
  }, 900_000);

  it('the daemon frozen: unresponsive, shown by status, mine refused at once; continued: answers, mines', async () => {
    const pid = u.ready.daemon.pid as number;
    process.kill(pid, 'SIGSTOP');
    try {
      const e = await waitFor('the unresponsive event', async () =>
        u.events().find((x) => x.event === 'unresponsive' && x.program === 'daemon'),
      );
      expect(e.reason).toMatch(/SIGSTOP/);
      expect((await cli(['status'])).all).toMatch(new RegExp(`daemon pid ${pid} unresponsive since`));
      const m = await cli(['mine', '1']);
      expect(m.exitCode).toBe(1);
      expect(m.all).toContain(`daemon (pid ${pid}) is not answering`);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await waitFor('the responsive event', async () =>
      u.events().find((x) => x.event === 'responsive' && x.program === 'daemon'),
    );
    const m = await cli(['mine', '1']);
    expect(m.exitCode, m.all).toBe(0);
  }, 300_000);

  it('the wallet RPC frozen: a snapshot save is refused at once naming it; continued: the save works', async () => {
    const pid = u.ready.wallet.pid as number;
    const file = join(root, 'k3.tar.gz');
    process.kill(pid, 'SIGSTOP');
    try {
      await waitFor('the unresponsive event', async () =>
        u.events().find((x) => x.event === 'unresponsive' && x.program === 'wallet-rpc'),
      );
      const s = await cli(['snapshot', 'save', file]);
      expect(s.exitCode).toBe(1);
      expect(s.all).toContain(`wallet-rpc (pid ${pid}) is not answering: it is stopped (SIGSTOP`);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await waitFor('the responsive event', async () =>
      u.events().find((x) => x.event === 'responsive' && x.program === 'wallet-rpc'),
    );
    const s = await cli(['snapshot', 'save', file]);
    expect(s.exitCode, s.all).toBe(0);
  }, 300_000);
});
