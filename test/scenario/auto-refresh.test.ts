// A scenario's wallets refresh when the runner refreshes them: their wallet RPC's own refresh (every 20 s) is off for
// the steps, and on again after, so it cannot scan a block that mining pops again at once
// (harness/runner/one-scenario.ts autoRefresh). Seen in the wallet RPCs' own log files, which say so on each change as
// the real one does.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runScenario } from '../../harness/runner/api.js';
import { startTestnet, type Testnet } from '../../harness/testnet/testnet.js';
import { cleanup, tempDir } from '../helpers/sim.js';

let root: string;
let t: Testnet;
beforeAll(async () => {
  root = tempDir('saltnet-auto-refresh-');
  t = await startTestnet({
    backend: 'sim',
    progress: 'none',
    trapSignals: false,
    cacheDir: join(root, 'cache'),
    daemonEnv: { SALTNET_SIM_HASHRATE: '250000' },
  });
}, 120_000);
afterAll(async () => {
  await t?.stop();
  cleanup(root);
});

/** The `Auto refresh now …` lines of every wallet RPC's own log file, by file. */
function autoRefreshLines(): Record<string, string[]> {
  const dir = join(t.workdir, 'logs');
  const out: Record<string, string[]> = {};
  for (const f of readdirSync(dir).filter((n) => /^wallet-rpc.*-file\.log$/.test(n)))
    out[f] = readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .map((l) => /Auto refresh now (.*)$/.exec(l)?.[1])
      .filter((l): l is string => l !== undefined);
  return out;
}

it("turns the wallets' own refresh off for the steps and on again after, outside the scenario's transcript", async () => {
  const file = join(root, 'a.yaml');
  writeFileSync(
    file,
    [
      'name: own refresh',
      'requires: { height: 1201 }',
      'wallets: { bob: {} }',
      'steps:',
      '  - call: { method: get_height }',
      '    save: { before: result.height }',
      '  - mine: { blocks: 1, sync: false }',
      '  - name: nothing refreshed the wallet since',
      '    call: { method: get_height }',
      '    expect: { result.height: "${before}" }',
      '',
    ].join('\n'),
  );
  const r = await runScenario(file, { testnet: t, artifactsRoot: join(root, 'artifacts') });
  expect(r.status, r.failure?.message).toBe('passed');
  const lines = autoRefreshLines();
  // The scenario's two wallets (its main and bob); the testnet's own main wallet, which no step reads, keeps its own.
  expect(lines).toEqual({
    'wallet-rpc-file.log': [],
    'wallet-rpc-s1-main-file.log': ['disabled', '20 seconds'],
    'wallet-rpc-s1-bob-file.log': ['disabled', '20 seconds'],
  });
  const transcript = readFileSync(join(r.artifactDir!, 'transcript.jsonl'), 'utf8');
  expect(transcript).not.toContain('auto_refresh');
});
