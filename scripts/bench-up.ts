// `saltnet up` measured cold (an empty cache: build and save) then warm (restore), each phase
// reported: shared by the bench's simulator, Monero and real-Salvium parts.
import { performance } from 'node:perf_hooks';
import { startTestnet, type Testnet, type TestnetOptions } from '../harness/testnet/testnet.js';

export type Report = (name: string, value: string, note?: string) => void;

export const ms = (n: number): string => `${n.toFixed(1)} ms`;

/** Cold then warm `up` with these options (give them a cacheDir of their own); `describe` adds to each total's note. */
export async function upColdWarm(
  label: string,
  opts: TestnetOptions,
  report: Report,
  describe: (t: Testnet) => Promise<string>,
): Promise<{ cold: number; warm: number; coldPhases: Record<string, number> }> {
  const totals = { cold: 0, warm: 0 };
  let coldPhases: Record<string, number> = {};
  for (const kind of ['cold', 'warm'] as const) {
    const t0 = performance.now();
    const t = await startTestnet({ progress: 'none', log: () => undefined, trapSignals: false, ...opts });
    const total = performance.now() - t0;
    totals[kind] = total;
    if (kind === 'cold') coldPhases = { ...t.phases };
    for (const [phase, taken] of Object.entries(t.phases)) report(`up.${label}.${kind}.${phase}`, ms(taken));
    report(
      `up.${label}.${kind}.total`,
      ms(total),
      `snapshot ${t.snapshot.status}, height ${t.readyHeight}, ${await describe(t)}`,
    );
    const s0 = performance.now();
    await t.stop();
    report(`up.${label}.${kind}.stop`, ms(performance.now() - s0), 'every process stopped gracefully');
  }
  return { ...totals, coldPhases };
}
