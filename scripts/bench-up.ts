// `saltnet up` measured cold (an empty cache: build and save) then warm (restore), each phase
// reported: shared by the bench's simulator, Monero and real-Salvium parts.
import { performance } from 'node:perf_hooks';
import { startTestnet, type Testnet, type TestnetOptions } from '../harness/testnet/testnet.js';

export type Report = (name: string, value: string, note?: string) => void;

export const ms = (n: number): string => `${n.toFixed(1)} ms`;

/** The middle of the values (of the two middle ones, their mean). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** One `up` with these options, each phase reported under `up.<name>`, then stopped; its time to ready. */
async function upOnce(
  name: string,
  opts: TestnetOptions,
  report: Report,
  describe: (t: Testnet) => Promise<string>,
): Promise<{ total: number; phases: Record<string, number> }> {
  const t0 = performance.now();
  const t = await startTestnet({ progress: 'none', log: () => undefined, trapSignals: false, ...opts });
  const total = performance.now() - t0;
  const phases = { ...t.phases };
  for (const [phase, taken] of Object.entries(phases)) report(`up.${name}.${phase}`, ms(taken));
  report(`up.${name}.total`, ms(total), `snapshot ${t.snapshot.status}, height ${t.readyHeight}, ${await describe(t)}`);
  const s0 = performance.now();
  await t.stop();
  report(`up.${name}.stop`, ms(performance.now() - s0), 'every process stopped gracefully');
  return { total, phases };
}

/**
 * Cold `up` with these options (give them a cacheDir of their own), then warm three times: `warm` is the best of the
 * three (the machine's load only ever adds time). `describe` adds to each total's note.
 */
export async function upColdWarm(
  label: string,
  opts: TestnetOptions,
  report: Report,
  describe: (t: Testnet) => Promise<string>,
): Promise<{ cold: number; warm: number; coldPhases: Record<string, number> }> {
  const cold = await upOnce(`${label}.cold`, opts, report, describe);
  const warm: number[] = [];
  for (let i = 1; i <= 3; i++) warm.push((await upOnce(`${label}.warm${i}`, opts, report, describe)).total);
  const best = Math.min(...warm);
  report(`up.${label}.warm.best`, ms(best), `best of 3 warm starts (${warm.map(ms).join(', ')})`);
  return { cold: cold.total, warm: best, coldPhases: cold.phases };
}
