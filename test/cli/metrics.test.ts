// `saltnet metrics` on a running `saltnet up` (the simulator): the text Prometheus reads, its JSON with --json, and
// the scrape config of docs/daily-loop.md doing what it says — Prometheus' GET /metrics with the token of its
// credentials_file as a bearer token, at the target `saltnet status --json` names.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { request } from 'undici';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../helpers/sim.js';
import { blocksOf, ROOT } from '../docs/blocks.js';
import { CLI, startUntilReady, stopStarted, type Started } from './helpers.js';

let state: string;
const env = (): Record<string, string> => ({ SALTNET_STATE_DIR: state, SALTNET_SIM_HASHRATE: '250000', CI: '1' });
const running: ResultPromise[] = [];
const saltnet = (args: string[]) => execa(process.execPath, [CLI, ...args], { env: env(), reject: false, all: true });
let up: Started;

beforeAll(async () => {
  state = tempDir('saltnet-state-');
  up = await startUntilReady(['up', '--backend', 'sim', '--height', '30', '--unlocked', '0'], env(), running);
}, 150_000);
afterAll(async () => {
  await stopStarted(running, env(), 'SIGINT');
  cleanup(state);
});

describe('saltnet metrics', { timeout: 60_000 }, () => {
  it("prints the running testnet's metrics in Prometheus' text format", async () => {
    await saltnet(['mine', '2']);
    const r = await saltnet(['metrics']);
    expect(r.exitCode, r.all).toBe(0);
    const height = Number(/^saltnet_height\{node="n0"\} (\d+)$/m.exec(r.stdout)?.[1]);
    expect(height).toBeGreaterThanOrEqual(up.ready.height + 2);
    expect(r.stdout).toMatch(/^saltnet_pool_transactions\{node="n0"\} 0$/m);
    expect(r.stdout).toMatch(/^saltnet_wallet_scan_lag_blocks\{wallet="main"\} 0$/m);
    // `mine` synced the main wallet through saltnet's own client: its requests are timed, by method.
    expect(r.stdout).toMatch(/^saltnet_rpc_request_seconds_count\{server="wallet",method="refresh"\} [1-9]/m);
  });

  it('--json prints the same metrics as JSON', async () => {
    const r = await saltnet(['metrics', '--json']);
    expect(r.exitCode, r.all).toBe(0);
    const metrics = JSON.parse(r.stdout) as { name: string; type: string }[];
    expect(metrics).toContainEqual(expect.objectContaining({ name: 'saltnet_height', type: 'gauge' }));
    expect(metrics).toContainEqual(
      expect.objectContaining({ name: 'saltnet_confirmation_seconds', type: 'histogram' }),
    );
  });

  it("the docs' Prometheus scrape config scrapes it, with the control endpoint saltnet status names", async () => {
    const block = blocksOf(join(ROOT, 'docs/daily-loop.md')).find((b) => b.text.includes('scrape_configs'));
    const job = (parseYaml(block!.text) as { scrape_configs: any[] }).scrape_configs[0];
    const control = JSON.parse((await saltnet(['status', '--json'])).stdout)[0].control as {
      url: string;
      tokenFile: string;
    };
    expect(job.authorization.credentials_file).toBe('/path/to/workdir/.control-token');
    expect(control.tokenFile).toMatch(/\/\.control-token$/);
    const target = (job.static_configs[0].targets[0] as string).replace('PORT', new URL(control.url).port);
    // As Prometheus does: the credentials file's content, trimmed, as a bearer token; GET of the metrics path.
    const res = await request(`http://${target}/metrics`, {
      headers: { authorization: `Bearer ${readFileSync(control.tokenFile, 'utf8').trim()}` },
    });
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toMatch(/^saltnet_height\{node="n0"\} \d+$/m);
  });
});
