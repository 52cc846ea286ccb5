// The simulated daemon against what salviumd v1.1.3c answered to the same requests on a fresh
// testnet at height 1201 (recorded into fixtures/salvium-v1.1.3c/daemon-answers.json by
// scripts/record-daemon-answers.ts): blocks and their JSON, headers, coinbase sums, supply, yield,
// output histogram and distribution, outputs, transactions, the node's settings and bans, block
// templates, submit_block (a new block, an alternative one, one resubmitted), pruning. Each answer
// is compared with saltnet diff's rules: random values (hashes, keys, blobs, times) by their form,
// everything else exactly.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareAnswers } from '../../harness/diff/compare.js';
import { walletFromSeed } from '../../harness/sim/crypto/keys.js';
import { ask, daemonRequests, type RecordedAnswer } from '../../scripts/record-daemon-answers.js';
import { cleanup, height, mineAcrossCarrot, startDaemon, stopAll, tempDir, type SimDaemon } from '../helpers/sim.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const recording = JSON.parse(
  readFileSync(join(ROOT, 'fixtures', 'salvium-v1.1.3c', 'daemon-answers.json'), 'utf8'),
) as { address: string; height: number; answers: RecordedAnswer[] };

const miner = walletFromSeed(new Uint8Array(32).fill(7), 'testnet');

let dir: string;
let daemon: SimDaemon;
const sim = new Map<string, unknown>();
beforeAll(async () => {
  dir = tempDir('saltnet-recorded-');
  daemon = await startDaemon(dir);
  await mineAcrossCarrot(daemon.port, { cn: miner.cn.address, carrot: miner.carrot.address }, recording.height);
  expect(await height(daemon.port)).toBe(recording.height);
  // In order: later requests use earlier answers (a template's blob, a block's hash).
  for (const r of recording.answers) sim.set(r.name, await ask(`http://127.0.0.1:${daemon.port}`, r, sim));
}, 180_000);
afterAll(async () => {
  await stopAll();
  cleanup(dir);
});

describe('the recording', () => {
  it('holds the requests scripts/record-daemon-answers.ts sends, in its order', () => {
    const names = daemonRequests(recording.address).map((r) => r.name);
    expect(recording.answers.map((a) => a.name)).toEqual(names);
    expect(new Set(names).size, 'names are unique').toBe(names.length);
    expect(names.length).toBeGreaterThan(100);
  });
});

describe('the simulated daemon answers as salviumd v1.1.3c did', () => {
  it.each(recording.answers.map((a) => [a.name, a] as const))('%s', (name, a) => {
    const divergences = compareAnswers(sim.get(name), a.answer);
    expect(divergences, JSON.stringify({ request: a.method ?? a.path, params: a.params })).toEqual([]);
  });
});
