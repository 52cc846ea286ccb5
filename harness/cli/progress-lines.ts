// What a command says of the testnet's mining progress while its request runs (Testnet.onProgress): on a terminal a
// line per block, at most one a second, with the block's place in the job and an estimate; in a log (not a terminal)
// one every five seconds, so a short job says nothing; with --json every event as a JSON line on stderr, so that
// stdout holds the answer alone.
import type { MiningProgress } from '../testnet/types.js';

/** The least time between two lines: on a terminal, and in a log. */
const TERMINAL_EVERY_MS = 1000;
const LOG_EVERY_MS = 5000;

export function progressPrinter(
  what: string,
  o: { json: boolean; terminal: boolean; write: (line: string) => void },
): (p: MiningProgress) => void {
  if (o.json) return (p) => o.write(JSON.stringify(p));
  const every = o.terminal ? TERMINAL_EVERY_MS : LOG_EVERY_MS;
  let last = Date.now();
  return (p) => {
    if (Date.now() - last < every) return;
    last = Date.now();
    o.write(`saltnet: ${what}: ${progressWords(p)}`);
  };
}

/** A progress event in words: `block 3 of 10 (height 1204), ETA 8s`, or the dataset's state. */
export function progressWords(p: MiningProgress): string {
  if (p.event === 'dataset')
    return p.state === 'loading'
      ? "loading RandomX's dataset from the cache folder"
      : `waiting for RandomX's dataset: ${p.percent}% built, ETA ${Math.ceil(p.etaMs / 1000)}s (built once per machine)`;
  const k = Math.min(p.height, p.target) - p.start;
  const n = p.target - p.start;
  const eta = k > 0 && k < n ? `, ETA ${Math.ceil(((n - k) * p.ms) / k / 1000)}s` : '';
  return `block ${k} of ${n} (height ${p.height})${eta}`;
}
