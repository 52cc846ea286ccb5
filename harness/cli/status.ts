// `saltnet status`: the registered runs, what each runs now (current pids, restarts, the last
// crash) and its height. A run is `running` only when its owner and every program it keeps are
// alive; otherwise it says which program is restarting, stopped for a save, failed, or gone.
import type { CommandModule } from 'yargs';
import { isSameProcess } from '../process/identity.js';
import { scanRuns, type RunRecord } from '../process/registry.js';
import { createDaemonClient } from '../rpc/daemon.js';
import type { ProgramStatus } from '../testnet/events.js';
import { operate, type AnswerOf } from '../control/client.js';
import type { LinkInfo } from '../network/links.js';
import { describeAutomine, type AutomineMode } from '../testnet/mining/automine.js';
import { isUpRun, ownerAlive, runInfo, type RunInfo } from './runs.js';

export const statusCommand: CommandModule<object, { json: boolean }> = {
  command: 'status',
  describe: 'list testnets, their endpoints, programs and heights',
  builder: (y) => y.option('json', { type: 'boolean', default: false }),
  handler: (argv) => status(argv),
};

interface ProgramRow extends Partial<ProgramStatus> {
  name: string;
  pid: number;
  alive: boolean;
}

/**
 * The programs a run keeps (from its record's info) and any other process it runs now (a wallet CLI during a build).
 */
function programRows(r: RunRecord): ProgramRow[] {
  const programs = ((r.info ?? {})['programs'] ?? {}) as Record<string, ProgramStatus>;
  const live = (pid: number): boolean => {
    const p = r.processes.find((x) => x.pid === pid);
    return p !== undefined && isSameProcess(p.pid, p, r.runId);
  };
  const rows: ProgramRow[] = Object.entries(programs).map(([name, p]) => ({
    name,
    ...p,
    alive: (p.state === 'running' || p.state === 'unresponsive') && live(p.pid),
  }));
  for (const p of r.processes)
    if (!rows.some((x) => x.pid === p.pid))
      rows.push({ name: p.name, pid: p.pid, alive: isSameProcess(p.pid, p, r.runId) });
  return rows;
}

function runState(r: RunRecord, rows: ProgramRow[]): string {
  if (!ownerAlive(r)) return 'stale';
  const kept = rows.filter((p) => p.state !== undefined);
  if (kept.some((p) => p.state === 'failed')) return 'failed';
  if (kept.some((p) => p.state === 'restarting')) return 'restarting';
  if (kept.some((p) => p.state === 'unresponsive')) return 'unresponsive';
  if (kept.some((p) => p.state === 'stopped')) return 'paused';
  if (kept.some((p) => !p.alive)) return 'degraded';
  return 'running';
}

function programLine(p: ProgramRow): string {
  const what =
    p.state === undefined
      ? p.alive
        ? 'alive'
        : 'gone'
      : p.state === 'running' && !p.alive
        ? 'gone (not restarted yet)'
        : p.state === 'unresponsive' && !p.alive
          ? 'gone (not restarted yet)'
          : p.state;
  const silent = p.unresponsive ? ` since ${p.unresponsive.since}: ${p.unresponsive.reason}` : '';
  const restarts = p.restarts ? `, restarted ${p.restarts} time${p.restarts === 1 ? '' : 's'}` : '';
  const crash = p.lastCrash
    ? `; last crash: pid ${p.lastCrash.pid} ${p.lastCrash.exit} at ${p.lastCrash.at} (log ${p.lastCrash.logFile})`
    : '';
  return `  ${p.name} pid ${p.pid} ${what}${silent}${restarts}${crash}\n`;
}

async function heightAt(url: string): Promise<number | undefined> {
  const c = createDaemonClient(url, { timeoutMs: 3000 });
  try {
    return await c.height().catch(() => undefined);
  } finally {
    await c.close();
  }
}

/** What the run's owner says it is doing now (automine, links), if it has a control endpoint and answers in 3 s. */
async function liveState(info: RunInfo, state: string): Promise<AnswerOf<'state'> | undefined> {
  if (!info.control || state === 'stale') return undefined;
  return operate(info.control, 'state', {}, { signal: AbortSignal.timeout(3000) }).catch(() => undefined);
}

/** What only the owner knows, as `status` prints it: the automine mode, the explorer, the links. */
interface OwnerView {
  ui?: string | undefined;
  automine?: AutomineMode | undefined;
  groups?: string[][] | undefined;
  links?: LinkInfo[] | undefined;
}

function ownerLines(r: OwnerView): string {
  const links = (r.links ?? []).map((l) => `${l.link} ${l.mode}${l.delayMs ? ` (delay ${l.delayMs} ms)` : ''}`);
  const split =
    r.groups && r.groups.length > 1 ? ` (partitioned: ${r.groups.map((g) => g.join(' ')).join(' | ')})` : '';
  return [
    ...(r.automine ? [`  automine ${describeAutomine(r.automine)}`] : []),
    ...(r.ui ? [`  explorer ${r.ui}`] : []),
    ...(links.length ? [`  links ${links.join(', ')}${split}`] : []),
  ]
    .map((l) => `${l}\n`)
    .join('');
}

async function status(argv: { json: boolean }): Promise<void> {
  const rows = [];
  const { runs, invalid } = scanRuns();
  for (const bad of invalid)
    process.stderr.write(`saltnet: ${bad.file} is not a valid run record (${bad.problem}): ignored\n`);
  for (const r of runs) {
    const info = runInfo(r);
    const programs = programRows(r);
    const state = runState(r, programs);
    let height: number | undefined;
    if (info.daemon && state !== 'stale') height = await heightAt(info.daemon);
    const live = await liveState(info, state);
    const nodes = [];
    for (const n of info.nodes ?? [])
      nodes.push({ ...n, height: state === 'stale' ? undefined : await heightAt(n.url) });
    rows.push({
      runId: r.runId,
      state,
      // Who holds it: `up` (down, mine, fund act on it) or a test run (it ends with its command).
      holder: isUpRun(r) ? 'up' : 'test',
      backend: info.backend,
      height,
      daemon: info.daemon,
      nodes,
      wallet: info.wallet,
      addresses: info.addresses,
      workdir: info.workdir ?? r.workdir,
      processes: programs,
      // The control endpoint (its bearer token in the 0600 file tokenFile), and what its owner says it does now.
      control: info.control,
      ui: info.ui,
      automine: live?.automine,
      groups: live?.groups,
      links: live?.links,
    });
  }
  if (argv.json) {
    process.stdout.write(`${JSON.stringify(rows)}\n`);
    return;
  }
  if (rows.length === 0) process.stdout.write('no testnet is running\n');
  for (const r of rows) {
    const hint = r.state === 'stale' ? ' (its saltnet died: `saltnet down` reaps what it left)' : '';
    const held = r.holder === 'test' ? '  (a test run: it ends with its command)' : '';
    process.stdout.write(
      `${r.runId}  ${r.state}${hint}  ${r.backend ?? '?'}  height ${r.height ?? '?'}${held}\n  daemon ${r.daemon ?? '?'}\n`,
    );
    if (r.nodes.length > 1)
      for (const n of r.nodes)
        process.stdout.write(`  node ${n.name} ${n.url}  height ${n.height ?? '?'}  (data dir ${n.dataDir})\n`);
    process.stdout.write(`  wallet ${r.wallet ?? '?'}\n  workdir ${r.workdir}\n`);
    process.stdout.write(ownerLines(r));
    for (const p of r.processes) process.stdout.write(programLine(p));
  }
}
