// Mining progress: a bar with height and ETA on a terminal, plain lines otherwise (CI logs).
import { SingleBar } from 'cli-progress';
import type { DatasetStatus } from '../../randomx/miner.js';

export interface Progress {
  update(height: number): void;
  done(height: number): void;
}

export type ProgressMode = 'bar' | 'lines' | 'none';

export function progressMode(requested: 'auto' | ProgressMode = 'auto'): ProgressMode {
  if (requested !== 'auto') return requested;
  return process.stderr.isTTY && process.env.CI === undefined ? 'bar' : 'lines';
}

/** Plain progress lines: one every 5 s. */
const LINE_EVERY_MS = 5000;
/** An ETA once mining has run this long and found this many blocks. */
const ETA_AFTER_MS = 3000;
const ETA_AFTER_BLOCKS = 5;

export function createProgress(
  label: string,
  start: number,
  target: number,
  mode: ProgressMode,
  log: (line: string) => void,
): Progress {
  const t0 = Date.now();
  const rate = (h: number): number => (h - start) / Math.max((Date.now() - t0) / 1000, 0.001);
  // The first blocks after a start are slow (the miner warms up): no ETA until the rate means something.
  const eta = (h: number): string => {
    const r = rate(h);
    const settled = Date.now() - t0 >= ETA_AFTER_MS && h - start >= ETA_AFTER_BLOCKS;
    return settled && r > 0 ? `${Math.max(0, Math.ceil((target - h) / r))}s` : '?';
  };
  if (mode === 'none') return { update: () => undefined, done: () => undefined };
  if (mode === 'bar') {
    const bar = new SingleBar(
      {
        format: `${label} |{bar}| {value}/{total} | {rate} blocks/s | ETA {etaText}`,
        stream: process.stderr,
        hideCursor: true,
        clearOnComplete: false,
      },
      undefined,
    );
    bar.start(target, start, { rate: '0', etaText: '?' });
    return {
      update: (h) => bar.update(Math.min(h, target), { rate: rate(h).toFixed(1), etaText: eta(h) }),
      done: (h) => {
        bar.update(Math.min(h, target), { rate: rate(h).toFixed(1), etaText: '0s' });
        bar.stop();
      },
    };
  }
  // The first line after LINE_EVERY_MS of mining: a build that takes two seconds prints none.
  let lastLine = t0;
  return {
    update(h) {
      if (Date.now() - lastLine < LINE_EVERY_MS) return;
      lastLine = Date.now();
      // A block or two past the target (trimmed afterwards) shows as the target, not as 1400%.
      const shown = Math.min(h, target);
      log(
        `${label}: height ${shown}/${target} (${Math.floor((100 * (shown - start)) / Math.max(target - start, 1))}%), ${rate(shown).toFixed(1)} blocks/s, ETA ${eta(shown)}`,
      );
    },
    done(h) {
      log(`${label}: height ${h} reached in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    },
  };
}

/** Lines for a RandomX dataset build: one every LINE_EVERY_MS with its share built and an estimate, and its end. */
export function datasetProgress(
  miner: { state: DatasetStatus; readyInMs(): number; onState(l: (s: DatasetStatus) => void): () => void },
  log: (line: string) => void,
): () => void {
  let last = Date.now();
  const off = miner.onState((s) => {
    if (s.kind === 'ready') {
      off();
      if (s.source === 'built') log(`saltnet: RandomX dataset built in ${(s.ms / 1000).toFixed(1)}s`);
      return;
    }
    if (s.kind === 'failed' || s.kind === 'absent') return void off();
    if (s.kind !== 'building' || Date.now() - last < LINE_EVERY_MS) return;
    last = Date.now();
    log(
      `saltnet: RandomX dataset ${Math.floor((100 * s.done) / s.total)}% built${s.elsewhere ? ' (by another saltnet)' : ''}, ETA ${Math.ceil(miner.readyInMs() / 1000)}s`,
    );
  });
  return off;
}
