// The README's quick start, followed as a user of the package follows it, in a project of their own: the package in
// its node_modules (a link to this repository: `npm install` of the published package needs the registry), `npx saltnet
// up`, the faucet paying an app's own wallet (a wallet RPC of the app's, which the testnet knows nothing of), and the
// first scenario file run with `npx saltnet run`. The commands are the README's own, read from its blocks.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { externalWallet } from '../cli/helpers.js';
import { rpc, stopAll, waitFor } from '../helpers/sim.js';
import { blocksOf, ROOT, type Block } from './blocks.js';
import { commandsOf } from './shell.js';

/** The blocks of the README's quick start, in order. */
function quickStart(): Block[] {
  const all = blocksOf(join(ROOT, 'README.md'));
  const text = (b: Block): string => b.text;
  const first = all.findIndex((b) => text(b).includes('npm install --save-dev saltnet'));
  const last = all.findIndex((b, i) => i > first && /npx saltnet run \S+\.yaml/.test(text(b)));
  return all.slice(first, last + 1);
}

let project: string;
const running: ResultPromise[] = [];
const env = (): Record<string, string> => ({
  ...(process.env as Record<string, string>),
  SALTNET_STATE_DIR: join(project, '.state'),
  // A bare clone has no Salvium programs: `auto` picks the simulator there, as here.
  SALTNET_BACKEND: 'sim',
});
const npx = (args: string[]) =>
  execa('npx', ['--no-install', ...args], { cwd: project, env: env(), reject: false, all: true });

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'saltnet-quick-start-'));
  writeFileSync(join(project, 'package.json'), '{ "name": "my-app", "private": true, "type": "module" }\n');
});
afterAll(async () => {
  // `saltnet down` stops the testnet of that up (npx passes no signal on to it), then whatever is left goes.
  await npx(['saltnet', 'down']);
  for (const p of running) p.kill('SIGKILL');
  await Promise.all(running.map((p) => p.catch(() => undefined)));
  await stopAll();
  rmSync(project, { recursive: true, force: true });
});

describe("the README's quick start", { timeout: 300_000 }, () => {
  it('goes from nothing to a funded app wallet and a passing scenario', async () => {
    const blocks = quickStart();
    const commands = blocks.filter((b) => b.lang === 'sh').flatMap((b) => commandsOf(b.text).map((c) => c.words));
    expect(commands.map((w) => w.slice(0, 3).join(' '))).toEqual([
      'npm install --save-dev',
      'npx saltnet up',
      'npx saltnet fund',
      'npx saltnet run',
    ]);
    // npm install --save-dev saltnet: the package and its bin, as npm lays them out.
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(ROOT, join(project, 'node_modules', 'saltnet'));
    symlinkSync('../saltnet/dist/harness/cli/main.js', join(project, 'node_modules', '.bin', 'saltnet'));

    // npx saltnet up: left up, as in its own terminal.
    const up = execa('npx', ['--no-install', ...commands[1]!], {
      cwd: project,
      env: env(),
      reject: false,
      buffer: false,
      stdout: 'pipe',
    });
    running.push(up);
    let out = '';
    up.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor('saltnet up to be up', async () => /^saltnet is up/m.test(out) || undefined, 240_000, 100);
    const daemonPort = Number(/daemon RPC\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(out)![1]);

    // npx saltnet fund <your app's address> 100: the app's own wallet, on the testnet's daemon.
    const app = await externalWallet(daemonPort, join(project, 'app-wallet'));
    const fund = await npx(commands[2]!.map((w) => (w.startsWith('PLACEHOLDER_') ? app.address : w)));
    expect(fund.exitCode, fund.all).toBe(0);
    expect(fund.all).toMatch(/^paid 100 SAL1 to \S+ \(salvium testnet/m);
    await rpc(app.port, 'refresh');
    const balance = (await rpc(app.port, 'get_balance', { asset_type: 'SAL1' })).result.balances[0];
    expect(balance.unlocked_balance).toBe(100 * 100_000_000);

    // The first scenario, written as the README shows it, and run.
    const yaml = blocks.find((b) => b.lang === 'yaml')!;
    const file = /^# (\S+\.yaml)$/m.exec(yaml.text)![1]!;
    writeFileSync(join(project, file), yaml.text);
    const run = await npx(commands[3]!);
    expect(run.exitCode, run.all).toBe(0);
    expect(run.all).toMatch(/1 passed/);
  });
});
