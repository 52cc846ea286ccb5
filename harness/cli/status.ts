// `saltnet status`: the registered runs, their endpoints and current heights.
import type { CommandModule } from 'yargs';
import { isAlive, listRuns } from '../process/registry.js';
import { createDaemonClient } from '../rpc/daemon.js';
import { ownerAlive, runInfo } from './runs.js';

export const statusCommand: CommandModule<object, { json: boolean }> = {
  command: 'status',
  describe: 'list testnets, their endpoints and heights',
  builder: (y) => y.option('json', { type: 'boolean', default: false }),
  handler: (argv) => status(argv),
};

async function status(argv: { json: boolean }): Promise<void> {
  const rows = [];
  for (const r of listRuns()) {
    const info = runInfo(r);
    let height: number | undefined;
    if (info.daemon && ownerAlive(r)) {
      const c = createDaemonClient(info.daemon, { timeoutMs: 3000 });
      height = await c.height().catch(() => undefined);
      await c.close();
    }
    rows.push({
      runId: r.runId,
      state: ownerAlive(r) ? 'running' : 'stale',
      backend: info.backend,
      height,
      daemon: info.daemon,
      wallet: info.wallet,
      addresses: info.addresses,
      workdir: info.workdir ?? r.workdir,
      processes: r.processes.map((p) => ({ name: p.name, pid: p.pid, alive: isAlive(p.pid, p.startTime) })),
    });
  }
  if (argv.json) {
    process.stdout.write(`${JSON.stringify(rows)}\n`);
    return;
  }
  if (rows.length === 0) process.stdout.write('no testnet is running\n');
  for (const r of rows) {
    process.stdout.write(`${r.runId}  ${r.state}  ${r.backend ?? '?'}  height ${r.height ?? '?'}\n  daemon ${r.daemon ?? '?'}\n  wallet ${r.wallet ?? '?'}\n  workdir ${r.workdir}\n`);
    for (const p of r.processes) process.stdout.write(`  ${p.name} pid ${p.pid} ${p.alive ? 'alive' : 'gone'}\n`);
  }
}
