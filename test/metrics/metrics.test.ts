// The metrics of a running testnet on the simulator, as Prometheus scrapes them (GET /metrics of the control endpoint,
// the token as a bearer token) and as the client asks them: heights and pool per node, a transfer's confirmation in
// seconds and blocks, transactions mined, the harness's own RPC latency by method (not the sampler's), wallets' scan
// lag and the programs' restarts.
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operate } from '../../harness/control/client.js';
import { startControlServer, type ControlServer } from '../../harness/control/server.js';
import { endMetrics } from '../../harness/metrics/metrics.js';
import { addressAt, startTestnet, type Testnet } from '../../harness/testnet/testnet.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const SAL1 = 100_000_000n;
let root: string;
let t: Testnet;
let server: ControlServer;

beforeAll(async () => {
  root = tempDir('saltnet-metrics-');
  t = await startTestnet({
    backend: 'sim',
    progress: 'none',
    trapSignals: false,
    daemonEnv: { SALTNET_SIM_HASHRATE: '250000' },
    log: () => undefined,
    cacheDir: `${root}/cache`,
    height: 300,
    unlocked: 10n * SAL1,
  });
  server = await startControlServer(t, `${root}/cache`);
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (t) await endMetrics(t);
  await t?.stop();
  cleanup(root);
});

const token = (): string => readFileSync(server.info.tokenFile, 'utf8');

async function scrape(headers: Record<string, string> = { authorization: `Bearer ${token()}` }) {
  const res = await request(`${server.info.url}/metrics`, { method: 'GET', headers });
  return { status: res.statusCode, type: String(res.headers['content-type']), text: await res.body.text() };
}

/** The value of a series (`name{a="b"}`, labels in the order prom-client writes them), or undefined. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function metric(series: string): Promise<number | undefined> {
  const r = await scrape();
  expect(r.status).toBe(200);
  return value(r.text, series);
}

const pay = async (amount: bigint): Promise<string> => {
  const h = await t.daemon.client.height();
  const r = await t.wallet.client.call<{ tx_hash: string }>('transfer', {
    destinations: [{ address: addressAt(t.backend.spec, t.wallet.addresses, h), amount, asset_type: 'SAL1' }],
    source_asset: 'SAL1',
    dest_asset: 'SAL1',
    tx_type: 3,
  });
  return r.tx_hash;
};

describe('GET /metrics', () => {
  it("answers Prometheus' text with the bearer token, and 403 without it", async () => {
    const r = await scrape();
    expect(r.status).toBe(200);
    expect(r.type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(r.text).toContain('# TYPE saltnet_height gauge');
    expect(value(r.text, 'saltnet_height{node="n0"}')).toBe(await t.height());
    expect(value(r.text, 'saltnet_pool_transactions{node="n0"}')).toBe(0);
    expect(value(r.text, 'saltnet_wallet_scan_lag_blocks{wallet="main"}')).toBe(0);
    expect((await scrape({})).status).toBe(403);
    expect((await scrape({ authorization: 'Bearer nope' })).status).toBe(403);
    // The token header the other requests use is taken as well.
    expect((await scrape({ 'x-saltnet-token': token() })).status).toBe(200);
  });

  it('a GET of a request that only POST serves is unknown, and the answer names GET /metrics', async () => {
    const res = await request(`${server.info.url}/mine`, { method: 'GET', headers: { 'x-saltnet-token': token() } });
    expect(res.statusCode).toBe(404);
    expect(((await res.body.json()) as { error: string }).error).toMatch(
      /the requests are POST .*\/mine.*; GET \/metrics/,
    );
  });

  it('a transfer is in the pool, then confirmed: pool 1 then 0, its time in seconds and blocks, txs mined', async () => {
    const h0 = await metric('saltnet_height{node="n0"}');
    expect(await metric('saltnet_confirmation_blocks_count')).toBe(0);
    await pay(SAL1);
    expect(await metric('saltnet_pool_transactions{node="n0"}')).toBe(1);
    await t.mine(1);
    const text = (await scrape()).text;
    expect(value(text, 'saltnet_height{node="n0"}')).toBe(h0! + 1);
    expect(value(text, 'saltnet_pool_transactions{node="n0"}')).toBe(0);
    expect(value(text, 'saltnet_confirmation_blocks_count')).toBe(1);
    expect(value(text, 'saltnet_confirmation_blocks_bucket{le="1"}')).toBe(1);
    expect(value(text, 'saltnet_confirmation_seconds_count')).toBe(1);
    expect(value(text, 'saltnet_confirmation_seconds_sum')).toBeGreaterThan(0);
    expect(value(text, 'saltnet_transactions_mined_total')).toBe(1);
    expect(value(text, 'saltnet_transactions_per_second')).toBeGreaterThan(0);
  });

  it("observes the harness's own RPC requests by server and method, and not the sampler's", async () => {
    await t.daemon.client.height();
    await t.wallet.client.height();
    const text = (await scrape()).text;
    expect(value(text, 'saltnet_rpc_request_seconds_count{server="daemon",method="get_height"}')).toBeGreaterThan(0);
    expect(value(text, 'saltnet_rpc_request_seconds_count{server="wallet",method="get_height"}')).toBeGreaterThan(0);
    expect(value(text, 'saltnet_rpc_request_seconds_count{server="wallet",method="transfer"}')).toBe(1);
    expect(text).not.toContain('method="get_block_headers_range"');
  });

  it("shows a wallet's scan lag until it syncs", async () => {
    // The wallet's own refreshes (a second after it starts, then every 20 s) would close the lag at their moment.
    await t.wallet.client.call('auto_refresh', { enable: false });
    try {
      await t.mine(2, { sync: false });
      expect(await metric('saltnet_wallet_scan_lag_blocks{wallet="main"}')).toBeGreaterThanOrEqual(1);
      await t.sync();
      expect(await metric('saltnet_wallet_scan_lag_blocks{wallet="main"}')).toBe(0);
    } finally {
      await t.wallet.client.call('auto_refresh', { enable: true });
    }
  });

  it('the client asks the same metrics, with their JSON', async () => {
    const r = await operate(server.info, 'metrics', {});
    expect(value(r.text, 'saltnet_height{node="n0"}')).toBe(await t.height());
    expect(r.metrics.map((m) => m.name)).toContain('saltnet_program_restarts_total');
  });

  it('counts a program restarted after a crash', async () => {
    expect(await metric('saltnet_program_restarts_total{program="wallet-rpc"}')).toBeUndefined();
    const pid = t.wallet.pid;
    process.kill(pid, 'SIGKILL');
    await expect.poll(() => t.wallet.pid !== pid && t.crashes().length > 0, { timeout: 60_000 }).toBe(true);
    const program = t.crashes()[0]!.program;
    expect(await metric(`saltnet_program_restarts_total{program="${program}"}`)).toBe(1);
  }, 90_000);
});
