// `saltnet doctor`: what this machine has for each backend, and what might get in the way.
import { freemem, totalmem } from 'node:os';
import type { CommandModule } from 'yargs';
import { isPortFree } from '../process/ports.js';
import { listRuns, stateDir } from '../process/registry.js';
import { BACKENDS, type BackendName } from '../testnet/backends.js';
import { binaryVersion, resolveBackend } from '../testnet/binaries.js';
import { ownerAlive } from './runs.js';

interface DoctorArgs {
  binDir?: string;
  json: boolean;
}

export const doctorCommand: CommandModule<object, DoctorArgs> = {
  command: 'doctor',
  describe: 'check binaries, versions, ports and memory',
  builder: (y) => y.option('bin-dir', { type: 'string', describe: 'folder with the Salvium binaries' }).option('json', { type: 'boolean', default: false }),
  handler: (argv) => doctor(argv),
};

async function doctor(argv: DoctorArgs): Promise<void> {
  const report: Record<string, unknown> = { node: process.version, platform: `${process.platform} ${process.arch}` };
  const backends: Record<string, unknown> = {};
  for (const name of Object.keys(BACKENDS) as BackendName[]) {
    try {
      const b = resolveBackend(name, name === 'salvium' ? argv.binDir : undefined);
      backends[name] = { found: true, source: b.source, daemon: b.paths.daemon, version: await binaryVersion(b.paths.daemon) };
    } catch (err) {
      backends[name] = { found: false, problem: err instanceof Error ? err.message : String(err) };
    }
  }
  report.backends = backends;
  report.auto = (() => {
    try {
      return resolveBackend('auto', argv.binDir).reason;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  })();
  const defaults = { 'salvium testnet RPC': 29081, 'salvium testnet ZMQ': 29082, 'monero testnet RPC': 28081 };
  const ports: Record<string, string> = {};
  for (const [k, p] of Object.entries(defaults)) ports[`${k} ${p}`] = (await isPortFree(p)) ? 'free' : 'in use (saltnet allocates its own ports, so this only matters to hand-started programs)';
  report.defaultPorts = ports;
  report.memory = { totalMiB: Math.round(totalmem() / 2 ** 20), freeMiB: Math.round(freemem() / 2 ** 20), note: 'a real Salvium miner needs ~256 MiB in light mode (MONERO_RANDOMX_UMASK=4, which saltnet sets) and ~2 GiB in full mode' };
  const runs = listRuns();
  report.runs = { stateDir: stateDir(), running: runs.filter(ownerAlive).length, stale: runs.filter((r) => !ownerAlive(r)).length };
  report.timeoutFactor = process.env.SALTNET_TIMEOUT_FACTOR ?? '1';
  if (argv.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const print = (k: string, v: unknown, indent = ''): void => {
    if (v && typeof v === 'object') {
      process.stdout.write(`${indent}${k}:\n`);
      for (const [kk, vv] of Object.entries(v)) print(kk, vv, `${indent}  `);
    } else process.stdout.write(`${indent}${k}: ${String(v)}\n`);
  };
  for (const [k, v] of Object.entries(report)) print(k, v);
}
