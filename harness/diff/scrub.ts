// What a recording keeps of a scenario's result, and the recording machine scrubbed from it: paths
// under the project root, the temporary folder and the home folder become `<root>`, `<tmp>` and `~`;
// loopback ports the run chose (a `127.0.0.1:<port>` the scenario file does not spell) and the numbers
// of `port`/`pid` fields and of the machine's `free_space`, `database_size` and hash rate (`speed`)
// become 0 — the diff compares all of them by form only.
import { homedir, tmpdir } from 'node:os';
import { sep } from 'node:path';
import type { ScenarioResult, StepResult } from '../scenario/types.js';

export interface Scrub {
  root: string;
  /** The scenario file's text: a `host:port` it spells is kept. */
  source: string;
}

const LOOPBACK_PORT = /\b(127\.0\.0\.1|localhost|\[::1\]):(\d{1,5})\b/g;
/** Numbers of the recording machine: its ports and pids, free disk, database file size, hash rate. */
const MACHINE_NUMBER = /(^|_)(port|pid)$|^(free_space|database_size|speed)$/;

export function scrubText(s: string, c: Scrub): string {
  let out = s;
  // The deepest folder first: a home inside the temporary folder (or a root inside the home) is named as itself.
  const folders: [string, string][] = [
    [c.root, '<root>'],
    [tmpdir(), '<tmp>'],
    [homedir(), '~'],
  ];
  for (const [from, to] of folders.sort((a, b) => b[0].length - a[0].length)) {
    if (from.length > 1) out = out.split(`${from}${sep}`).join(`${to}/`);
  }
  return out.replace(LOOPBACK_PORT, (whole, host: string) => (c.source.includes(whole) ? whole : `${host}:0`));
}

function scrubValue(v: unknown, c: Scrub, key?: string): unknown {
  if (typeof v === 'string') return scrubText(v, c);
  if ((typeof v === 'number' || typeof v === 'bigint') && key !== undefined && MACHINE_NUMBER.test(key)) return 0;
  if (Array.isArray(v)) return v.map((x) => scrubValue(x, c, key));
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .map(([k, x]) => [k, scrubValue(x, c, k)]),
    );
  return v;
}

function recordStep(s: StepResult, c: Scrub): Record<string, unknown> {
  return {
    index: s.index,
    name: s.name,
    action: s.action,
    status: s.status,
    ...(s.failure ? { failure: { message: scrubText(s.failure.message, c) } } : {}),
    ...(s.response !== undefined ? { response: scrubValue(s.response, c) } : {}),
  };
}

export function recordScenario(r: ScenarioResult, file: string, c: Scrub): Record<string, unknown> {
  return {
    file,
    name: r.name,
    status: r.status,
    backend: r.backend,
    ...(r.failure ? { failure: { message: scrubText(r.failure.message, c) } } : {}),
    steps: r.steps.map((s) => recordStep(s, c)),
  };
}
