// `saltnet record` end to end on the simulator: a small wallet app (client.mjs) runs against the
// proxies, the session becomes a scenario file, and that file replays green with `saltnet run`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, startUntilReady, stopStarted } from '../cli/helpers.js';
import type { ResultPromise } from 'execa';
import { cleanup, tempDir, waitFor } from '../helpers/sim.js';

const CLIENT = fileURLToPath(new URL('./client.mjs', import.meta.url));
let home: string;
const env = (): Record<string, string> => ({
  SALTNET_STATE_DIR: join(home, 'state'),
  SALTNET_CACHE_DIR: join(home, 'cache'),
  CI: '1',
});
const saltnet = (args: string[], extra: Record<string, string> = {}) =>
  execa(process.execPath, [CLI, ...args], { env: { ...env(), ...extra }, reject: false, cwd: home });

beforeAll(() => {
  home = tempDir('saltnet-record-');
});
afterAll(async () => {
  await saltnet(['down']);
  cleanup(home);
});

describe('saltnet record', () => {
  it('records a wallet app (token, listing, SAL1 and token transfers, a refused call) as a scenario that replays green', async () => {
    const out = join(home, 'session.yaml');
    const r = await saltnet([
      'record',
      '--backend',
      'sim',
      '--wallet',
      'bob',
      '--out',
      out,
      '--',
      process.execPath,
      CLIENT,
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/SALTNET_WALLET_BOB_URL=http:\/\/127\.0\.0\.1:\d+/);
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(
      /^# yaml-language-server: \$schema=.*scenario\.schema\.json\n# Recorded by `saltnet record` on \d{4}-\d\d-\d\dT.*, sim backend/,
    );
    const doc = parse(text);
    expect(doc.requires).toEqual({ height: 1201, unlocked: { SAL1: '1100 SAL1' } });
    expect(doc.wallets).toEqual({ bob: {} });
    const kinds = doc.steps.map((s: Record<string, unknown>) =>
      Object.keys(s).find((k) => !['name', 'wallet', 'expect', 'expect_error', 'save'].includes(k)),
    );
    // readable forms where they send the same request, mining as mine steps, nothing of the mining loop
    expect(kinds.slice(0, 3)).toEqual(['get_balance', 'create_token', 'mine']);
    expect(kinds).toContain('transfer');
    expect(kinds).toContain('transfer_split');
    expect(text).not.toMatch(/start_mining|stop_mining/);
    expect(doc.steps.find((s: any) => s.transfer).transfer).toEqual({ to: '${bob.address}', amount: '10 SAL1' });
    expect(doc.steps.find((s: any) => s.expect_error)).toMatchObject({
      create_token: { name: 'again' },
      expect_error: { code: -7, message: 'Token already exists.' },
    });
    // a value an answer produced and a later request sends: saved, then a placeholder
    const transfer = doc.steps.find((s: any) => s.transfer);
    expect(transfer.save).toMatchObject({ transfer_tx_hash: 'result.tx_hash' });
    expect(doc.steps.at(-1)).toMatchObject({
      call: { path: '/is_key_image_spent', params: { key_images: ['${transfer_key_images}'] } },
    });
    expect(text).not.toMatch(/SC1T[1-9A-HJ-NP-Za-km-z]{90,}/); // every address is a placeholder
    const replay = await saltnet(['run', out, '--backend', 'sim']);
    expect(replay.exitCode, replay.stdout + replay.stderr).toBe(0);
    expect(replay.stdout).toMatch(/1 passed, 0 failed/);
  }, 180_000); // two testnets (the recording's and the replay's): over a minute on a loaded machine

  it('writes what it recorded when the program fails, and exits with its code', async () => {
    const out = join(home, 'failing.yaml');
    const script = join(home, 'fail.mjs');
    writeFileSync(
      script,
      `await fetch(process.env.SALTNET_WALLET_URL + '/json_rpc', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'get_height' }) }); process.exit(3);\n`,
    );
    const r = await saltnet(['record', '--backend', 'sim', '--out', out, '--', process.execPath, script]);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('exited with code 3');
    expect(parse(readFileSync(out, 'utf8')).steps).toEqual([
      { call: { method: 'get_height' }, expect: { 'result.height': { type: 'number' } } },
    ]);
  });

  it('stops at Ctrl-C and writes the session; nothing keeps running', async () => {
    const out = join(home, 'interactive.yaml');
    const proc = execa(process.execPath, [CLI, 'record', '--backend', 'sim', '--out', out], {
      env: env(),
      reject: false,
      cwd: home,
    });
    let err = '';
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const url = await waitFor('the proxies', async () => /SALTNET_DAEMON_URL=(\S+)/.exec(err)?.[1], 60_000);
    await fetch(`${url}/get_info`, { method: 'POST', body: '{}' });
    proc.kill('SIGINT');
    const r = await proc;
    expect(r.exitCode).toBe(130);
    const doc = parse(readFileSync(out, 'utf8'));
    expect(doc.steps[0].call).toEqual({ path: '/get_info' });
    expect(doc.steps[0].expect['result.status']).toBe('OK');
    expect(doc.steps[0].expect['result.top_block_hash']).toEqual({ matches: '^[0-9a-f]{64}$' });
    const status = await saltnet(['status', '--json']);
    expect(JSON.parse(status.stdout)).toEqual([]);
  });

  it('says so at Ctrl-C when nothing was recorded, and writes no file', async () => {
    const out = join(home, 'empty.yaml');
    const proc = execa(process.execPath, [CLI, 'record', '--backend', 'sim', '--out', out], {
      env: env(),
      reject: false,
      cwd: home,
    });
    let err = '';
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    await waitFor('the proxies', async () => /Press Ctrl-C/.test(err) || undefined, 60_000);
    proc.kill('SIGINT');
    const r = await proc;
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toContain(
      `saltnet record: nothing was recorded: no request reached the proxies and no block was mined, so no scenario was written to ${out} (it would have no steps)`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('records an error that names its workdir as a pattern, and the replay (another workdir) passes', async () => {
    const out = join(home, 'paths.yaml');
    const script = join(home, 'open.mjs');
    writeFileSync(
      script,
      `await fetch(process.env.SALTNET_WALLET_URL + '/json_rpc', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'open_wallet', params: { filename: 'nope', password: '' } }) });\n`,
    );
    const r = await saltnet(['record', '--backend', 'sim', '--out', out, '--', process.execPath, script]);
    expect(r.exitCode, r.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toMatch(/saltnet-[a-z0-9]+-[0-9a-f]+/);
    expect(parse(text).steps[0].expect_error).toEqual({
      code: -1,
      message: { matches: '^Failed to open wallet : file not found ".+/wallets/nope\\.keys"$' },
    });
    const replay = await saltnet(['run', out, '--backend', 'sim']);
    expect(replay.exitCode, replay.stdout + replay.stderr).toBe(0);
  });

  it('--run: records on a running saltnet up, its main wallet only, with balances checked by type', async () => {
    const running: ResultPromise[] = [];
    try {
      const up = await startUntilReady(['up', '--backend', 'sim'], env(), running);
      const out = join(home, 'attached.yaml');
      const script = join(home, 'attached.mjs');
      writeFileSync(
        script,
        [
          "const call = (m, p) => fetch(process.env.SALTNET_WALLET_URL + '/json_rpc', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: m, params: p }) }).then((r) => r.json());",
          "await call('get_balance', { asset_type: 'SAL1' });",
          "await call('transfer', { destinations: [{ address: process.env.SALTNET_MINER_ADDRESS, amount: 200000000, asset_type: 'SAL1' }], source_asset: 'SAL1', dest_asset: 'SAL1', tx_type: 3 });",
          '',
        ].join('\n'),
      );
      const refused = await saltnet(['record', '--run', up.ready.runId, '--wallet', 'bob', '--out', out]);
      expect(refused.stderr).toContain("--wallet needs a testnet of the recording's own");
      const r = await saltnet(['record', '--run', up.ready.runId, '--out', out, '--', process.execPath, script]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain(`SALTNET_WALLET_URL=`);
      const doc = parse(readFileSync(out, 'utf8'));
      // main's history is not the replay's: it must hold at least what the session spent (here less than the default)
      expect(doc.requires).toEqual({ height: up.ready.height, unlocked: { SAL1: '1100 SAL1' } });
      expect(doc.wallets).toBeUndefined();
      expect(doc.steps[0]).toEqual({ get_balance: { asset_type: 'SAL1' }, expect: { result: { type: 'object' } } });
      expect(doc.steps[1].transfer).toEqual({ to: expect.stringMatching(/^SC1T/), amount: '2 SAL1' });
      expect(doc.steps[1].expect['result.tx_hash']).toEqual({ matches: '^[0-9a-f]{64}$' });
      // the testnet it recorded on is still up, and its run record still points at its own programs
      const status = JSON.parse((await saltnet(['status', '--json'])).stdout);
      expect(status.map((x: { runId: string }) => x.runId)).toEqual([up.ready.runId]);
    } finally {
      await stopStarted(running, env(), 'SIGINT');
    }
  }, 180_000);

  it('refuses an --out that exists (unless --force) before it starts anything', async () => {
    const out = join(home, 'taken.yaml');
    writeFileSync(out, 'mine\n');
    const r = await saltnet(['record', '--backend', 'sim', '--out', out]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('the file exists; give --force to replace it');
    expect(readFileSync(out, 'utf8')).toBe('mine\n');
    expect((await saltnet(['record', '--wallet', 'main', '--out', join(home, 'x.yaml')])).stderr).toContain(
      'every recording has a main wallet',
    );
    expect(existsSync(join(home, 'x.yaml'))).toBe(false);
  });
});
