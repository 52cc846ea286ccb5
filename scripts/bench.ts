// `npm run bench`: prints the numbers the issues ask for. Nothing here asserts a time; it measures.
//   sim.mine1300     time for the simulator to mine 1300 blocks (default pace, and unthrottled)
//   sim.getBalance   1000 sequential get_balance calls against a wallet that mined those blocks
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cleanup, generateWallet, height, mineAcrossCarrot, post, rpc, startDaemon, startWalletRpc, stopAll, tempDir } from '../harness/sim/launch.js';

interface Row {
  name: string;
  value: string;
  note: string;
}
const rows: Row[] = [];
const report = (name: string, value: string, note = ''): void => {
  rows.push({ name, value, note });
  process.stdout.write(`${name.padEnd(34)} ${value.padStart(14)}  ${note}\n`);
};
const ms = (n: number): string => `${n.toFixed(1)} ms`;

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

async function mine1300(label: string, difficulty: number, env: Record<string, string>): Promise<void> {
  const dir = tempDir('saltnet-bench-');
  try {
    const d = await startDaemon(dir, { difficulty, env });
    const w = await generateWallet(join(dir, 'miner'), 'bench', d.port);
    const t0 = performance.now();
    const reached = await mineAcrossCarrot(d.port, w, 1301);
    const t = performance.now() - t0;
    report(`sim.mine1300.${label}`, ms(t), `difficulty ${difficulty}, reached ${reached}, ${(1300 / (t / 1000)).toFixed(0)} blocks/s incl. the HF10 address switch`);
    await d.stop();
  } finally {
    await stopAll();
    cleanup(dir);
  }
}

async function getBalance1000(): Promise<void> {
  const dir = tempDir('saltnet-bench-');
  try {
    const d = await startDaemon(dir, { difficulty: 1, env: { SALTNET_SIM_MIN_BLOCK_MS: '0' } });
    const w = await generateWallet(join(dir, 'w'), 'bench', d.port);
    await mineAcrossCarrot(d.port, w, 1301);
    const t0 = performance.now();
    const wr = await startWalletRpc(['--wallet-file', w.path, '--password', 'bench', '--log-file', join(dir, 'wrpc.log')], d.port);
    report('sim.walletRpc.firstScan', ms(performance.now() - t0), `start to ready, first scan of ${await height(d.port)} blocks all mined by this wallet`);
    await rpc(wr.port, 'refresh');
    const times: number[] = [];
    const all0 = performance.now();
    for (let i = 0; i < 1000; i++) {
      const s = performance.now();
      const r = await rpc(wr.port, 'get_balance', { asset_type: 'SAL1' });
      if (!r.result) throw new Error(JSON.stringify(r));
      times.push(performance.now() - s);
    }
    const total = performance.now() - all0;
    times.sort((a, b) => a - b);
    report('sim.getBalance.1000', ms(total), `p50 ${ms(quantile(times, 0.5))}, p95 ${ms(quantile(times, 0.95))}, max ${ms(times[times.length - 1] ?? 0)}`);
    const raw0 = performance.now();
    for (let i = 0; i < 1000; i++) await post(d.port, '/get_height', {});
    report('sim.daemon.getHeight.1000', ms(performance.now() - raw0), 'baseline: the cheapest daemon call, same client');
  } finally {
    await stopAll();
    cleanup(dir);
  }
}

async function main(): Promise<void> {
  process.stdout.write(`saltnet bench — node ${process.version}, ${new Date().toISOString()}\n\n`);
  await mine1300('defaultPace', 500, {});
  await mine1300('unthrottled', 1, { SALTNET_SIM_MIN_BLOCK_MS: '0' });
  await getBalance1000();
}

main().catch(async (err: unknown) => {
  await stopAll();
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
