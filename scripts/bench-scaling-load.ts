// The scaling bench's loads (bench-scaling.ts, docs/scaling.md): `saltnet load` at rising rates on the simulator, and
// at a few low rates on real Salvium with saltnet's CPU time against the programs' (/proc/<pid>/stat of each).
import { readdirSync, readFileSync } from 'node:fs';
import { runLoad } from '../harness/load/run.js';
import { startTestnet, type TestnetOptions } from '../harness/testnet/testnet.js';
import { cpuSeconds, push, shapes, type Point } from './bench-shape.js';
import type { Report } from './bench-up.js';

const quiet = { progress: 'none', log: () => undefined, trapSignals: false } as const;
/** Main's funds for the wallet, pool and load curves: enough for 1000 wallets of 10 SAL1, or 32 load wallets. */
export const RICH = 30_000n * 100_000_000n;

export const SIM_RATES = [20, 50, 100, 200, 400];
export const REAL_RATES = [1, 2, 5];
const SIM_SECONDS = 20;
const REAL_SECONDS = 20;
/** A wallet per this many tx/s (each wallet sends one at a time), at least 4 and at most 32 (what a load takes). */
export const walletsFor = (tps: number): number => Math.min(32, Math.max(4, Math.ceil(tps / 5)));

/**
 * CPU seconds of every process below this one by pid (the programs, and saltnet's reaper), sampled twice a second
 * until stopped: each pid's last sample counts, so a process that ends loses at most half a second. The tree is walked
 * through /proc/<pid>/task/<tid>/children, which costs far less than reading every process of the machine.
 */
class ChildCpu {
  private readonly last = new Map<number, { name: string; cpu: number }>();
  private readonly timer: NodeJS.Timeout;
  constructor() {
    this.sample();
    this.timer = setInterval(() => this.sample(), 500);
  }
  private sample(): void {
    const todo = childrenOf(process.pid);
    for (let pid = todo.pop(); pid !== undefined; pid = todo.pop()) {
      todo.push(...childrenOf(pid));
      const cpu = cpuSeconds(pid);
      if (cpu > 0) this.last.set(pid, { name: commOf(pid), cpu });
    }
  }
  /** Seconds by program name so far. */
  stop(): Map<string, number> {
    clearInterval(this.timer);
    this.sample();
    const by = new Map<string, number>();
    for (const { name, cpu } of this.last.values()) by.set(name, (by.get(name) ?? 0) + cpu);
    return by;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

function commOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '?';
  }
}

/** saltnet's own processes below the bench (its reaper): counted with saltnet, not with the programs. */
const SALTNET_PROCESSES = new Set(['saltnet-reaper']);

/** One load on a fresh testnet: its report's figures, and the CPU seconds of saltnet and of the programs. */
async function loadOnce(
  options: TestnetOptions,
  tps: number,
  seconds: number,
): Promise<{
  achieved: number;
  p99: number;
  p99s: number;
  sent: number;
  behind: number;
  rejected: number;
  why: string;
  saltnet: number;
  programs: Map<string, number>;
}> {
  const t = await startTestnet({ ...quiet, ...options });
  try {
    const cpu = new ChildCpu();
    const c0 = process.cpuUsage();
    const r = await runLoad(t, { tps, duration: seconds, wallets: walletsFor(tps) });
    const c = process.cpuUsage(c0);
    const all = cpu.stop();
    const own = [...all].filter(([name]) => SALTNET_PROCESSES.has(name)).reduce((a, [, v]) => a + v, 0);
    const programs = new Map([...all].filter(([name]) => !SALTNET_PROCESSES.has(name)));
    return {
      achieved: r.tps.achieved,
      p99: r.latency.blocks.p99,
      p99s: r.latency.seconds.p99,
      sent: r.counts.sent,
      behind: r.counts.behind,
      rejected: r.counts.rejected,
      why: [...new Set(r.rejections.map((x) => x.reason))].join('; '),
      saltnet: (c.user + c.system) / 1e6 + own,
      programs,
    };
  } finally {
    await t.stop();
  }
}

export async function tpsCurve(report: Report, cache: string, rates: readonly number[]): Promise<void> {
  const series: Record<string, Point[]> = {};
  for (const tps of rates) {
    const r = await loadOnce({ backend: 'sim', cacheDir: cache, unlocked: RICH }, tps, SIM_SECONDS);
    const programs = [...r.programs.values()].reduce((a, b) => a + b, 0);
    report(
      `scale.tps.sim.r${tps}`,
      `${r.achieved} tx/s`,
      `asked ${tps} for ${SIM_SECONDS} s from ${walletsFor(tps)} wallets: ${r.sent} sent, ${r.behind} behind, ${r.rejected} refused${r.why ? ` (${r.why})` : ''}; p99 ${r.p99} blocks (${r.p99s} s); CPU saltnet ${r.saltnet.toFixed(1)} s, programs ${programs.toFixed(1)} s`,
    );
    push(series, 'achieved', tps, r.achieved);
  }
  shapes(report, 'scale.tps.sim', series);
}

export async function realCurve(
  report: Report,
  binDir: string,
  cache: string,
  difficulties: readonly number[],
): Promise<void> {
  for (const difficulty of difficulties) {
    for (const tps of REAL_RATES) {
      // The daemon's own miner: the blocks' hashing is the programs' work, not saltnet's (its own RandomX miner would
      // count in the bench's process).
      const options = { backend: 'salvium', binDir, cacheDir: cache, difficulty, miner: 'daemon' } as const;
      const r = await loadOnce(options, tps, REAL_SECONDS);
      const programs = [...r.programs.values()].reduce((a, b) => a + b, 0);
      const each = [...r.programs.entries()].map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
      report(
        `scale.tps.salvium.d${difficulty}.r${tps}`,
        `${r.achieved} tx/s`,
        `asked ${tps} for ${REAL_SECONDS} s: ${r.sent} sent, ${r.behind} behind, ${r.rejected} refused${r.why ? ` (${r.why})` : ''}; p99 ${r.p99} blocks (${r.p99s} s)`,
      );
      report(
        `scale.tps.salvium.d${difficulty}.r${tps}.cpu`,
        `${((100 * r.saltnet) / programs).toFixed(1)} %`,
        `saltnet's CPU ${r.saltnet.toFixed(2)} s (the bench's process and its reaper) against the programs' ${programs.toFixed(1)} s (${each}); target ≤ 5 %`,
      );
    }
  }
}
