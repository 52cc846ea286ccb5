// What a `mine` leaves in the simulated daemon's log, and what a failure after it reports. At the fast pace the
// simulator finds a block per request its clients make (harness/sim/README.md): a `mine: 1` logs a block or two past
// the one it asked for, as real Salvium does at difficulty 1 — not the dozens of `Found block` lines of a miner that
// went on while the harness's /stop_mining was on its way. A failure after a long mine shows the daemon's lines from
// before its thousands of `Found block` lines, those folded into one (they filled the whole in-memory tail, and the
// report said `daemon: (empty)`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ScenarioResult } from '../../harness/scenario/types.js';
import { outcomeOf, runScenarioTexts } from '../helpers/scenarios.js';
import { cleanup, tempDir } from '../helpers/sim.js';

let dir: string;
let results: Map<string, ScenarioResult>;

beforeAll(async () => {
  dir = tempDir('saltnet-mine-log-');
  results = await runScenarioTexts(
    dir,
    [
      ['three single mines', 'requires: { height: 1201 }\nsteps:\n  - mine: 1\n  - mine: 1\n  - mine: 1\n'],
      [
        'a failure after a long mine',
        `requires: { height: 1201 }
steps:
  - mine: 450
  - call: { path: /get_info }
    expect: { result.nettype: mainnet }
`,
      ],
    ],
    // The fast pace with no block for a minute but those the requests bring: the count of blocks does not depend on
    // how quickly this machine answers (by default a block also comes after 2 ms without a request).
    { daemonEnv: { SALTNET_SIM_MIN_BLOCK_MS: '60000' } },
  );
}, 150_000);
afterAll(() => cleanup(dir));

/** The Found block lines of each mining session (Miner thread was started … stopped) of a daemon log. */
function blocksPerSession(log: string): number[] {
  const sessions: number[] = [];
  for (const line of log.split('\n')) {
    if (/Miner thread was started \[0\]/.test(line)) sessions.push(0);
    else if (/Found block <[0-9a-f]+> at height/.test(line) && sessions.length) sessions[sessions.length - 1]!++;
  }
  return sessions;
}

// Each request the daemon receives while it mines lets it find a block: the height polls, the stop, and a request of
// another client in flight at the time (seen under a loaded machine) — a handful, where a miner that did not wait for
// requests logged 30 to 100.
it('a mine: 1 logs at most four blocks past the one it asked for', () => {
  expect(outcomeOf(results, 'three single mines')).toBe('passed');
  const r = results.get('three single mines')!;
  const log = readFileSync(join(r.artifactDir!, 'logs', 'daemon.log'), 'utf8');
  const mines = blocksPerSession(log).slice(-3);
  expect(mines).toHaveLength(3);
  for (const found of mines) {
    expect(found).toBeGreaterThanOrEqual(1);
    expect(found).toBeLessThanOrEqual(5);
  }
});

it("a failure after a long mine shows the daemon's lines before it, and the blocks it found in one line", () => {
  const r = results.get('a failure after a long mine')!;
  expect(r.status).toBe('failed');
  const tail = r.logTails?.daemon ?? [];
  expect(tail.length).toBeGreaterThan(0);
  const folded = tail.findIndex((l) => /^\[saltnet: \d+ × Found block, heights \d+–\d+\]$/.test(l));
  expect(folded, tail.join('\n')).toBeGreaterThan(0);
  expect(Number(/(\d+) ×/.exec(tail[folded]!)![1])).toBeGreaterThanOrEqual(450);
  expect(tail.slice(0, folded).some((l) => /core RPC server started ok|Starting p2p net loop/.test(l))).toBe(true);
});
