// docs/sim-coverage.md's wallet section lists exactly the wallet RPC methods of the release saltnet
// targets (fixtures/salvium-v1.1.3c/wallet-rpc-methods.json, from src/wallet/wallet_rpc_server.h by
// scripts/wallet-rpc-methods.ts), and the simulated wallet RPC answers each as the page says: a
// modelled method with its own answer (never -32601 Method not found, never the refusal), a refused
// one with the refusal that names it and says to run it with --backend salvium.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_MODELLED_CODE } from '../../harness/sim/http/not-modelled.js';
import { extractMethods } from '../../scripts/wallet-rpc-methods.js';
import { cleanup, rpc, startDaemon, startWalletRpc, stopAll, tempDir, type SimWalletRpc } from '../helpers/sim.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SECTION = '## Wallet RPC (salvium-wallet-rpc)';

interface Row {
  method: string;
  status: string;
}

/** The rows of the wallet section's table: `| \`method\` | status | note |`. */
function coverageRows(doc: string, heading: string): Row[] {
  const start = doc.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`docs/sim-coverage.md has no "${heading}" section`);
  const rest = doc.slice(start + heading.length + 2);
  const end = rest.search(/\n## /);
  const rows: Row[] = [];
  for (const line of (end === -1 ? rest : rest.slice(0, end)).split('\n')) {
    const m = /^\|\s*`([^`]+)`\s*\|\s*([a-z]+)\s*\|/.exec(line);
    if (m) rows.push({ method: m[1]!, status: m[2]! });
  }
  return rows;
}

const fixture = JSON.parse(readFileSync(join(ROOT, 'fixtures/salvium-v1.1.3c/wallet-rpc-methods.json'), 'utf8')) as {
  methods: { name: string }[];
};
const rows = coverageRows(readFileSync(join(ROOT, 'docs/sim-coverage.md'), 'utf8'), SECTION);

describe('docs/sim-coverage.md: the wallet RPC', () => {
  it('lists every method of the release, in its order, once', () => {
    expect(rows.map((r) => r.method)).toEqual(fixture.methods.map((m) => m.name));
  });

  it('gives each one a status: modelled or refused', () => {
    expect(rows.filter((r) => r.status !== 'modelled' && r.status !== 'refused')).toEqual([]);
  });

  it('reads the table the script would write: MAP_JON_RPC entries of the /json_rpc map, aliases included', () => {
    const header = [
      'BEGIN_JSON_RPC_MAP("/json_rpc")',
      '  MAP_JON_RPC_WE("get_balance",        on_getbalance,         wallet_rpc::COMMAND_RPC_GET_BALANCE)',
      '  MAP_JON_RPC_WE("getbalance",         on_getbalance,         wallet_rpc::COMMAND_RPC_GET_BALANCE)',
      '  MAP_JON_RPC_WE_IF("sign",            on_sign,               wallet_rpc::COMMAND_RPC_SIGN, true)',
      'END_JSON_RPC_MAP()',
      'MAP_JON_RPC_WE("not_in_the_map", on_x, X)',
    ].join('\n');
    expect(extractMethods(header)).toEqual([
      { name: 'get_balance', handler: 'on_getbalance' },
      { name: 'getbalance', handler: 'on_getbalance' },
      { name: 'sign', handler: 'on_sign' },
    ]);
    expect(() => extractMethods('no map here')).toThrow(/BEGIN_JSON_RPC_MAP/);
  });
});

describe('the simulated wallet RPC answers every method as the page says', () => {
  let dir: string;
  let wallet: SimWalletRpc;

  beforeAll(async () => {
    dir = tempDir('saltnet-coverage-wallet-');
    const daemon = await startDaemon(dir);
    wallet = await startWalletRpc(['--wallet-dir', join(dir, 'wallets')], daemon.port);
    expect(await rpc(wallet.port, 'create_wallet', { filename: 'w', password: '', language: 'English' })).toEqual(
      expect.objectContaining({ result: {} }),
    );
  }, 120_000);

  afterAll(async () => {
    await stopAll();
    cleanup(dir);
  });

  it('answers a method the real program lacks with -32601', async () => {
    expect((await rpc(wallet.port, 'no_such_method', {})).error).toEqual({ code: -32601, message: 'Method not found' });
  });

  it('answers each listed method with empty params: its own answer, or the refusal naming it', async () => {
    // stop_wallet ends the program: last.
    const ordered = [
      ...rows.filter((r) => r.method !== 'stop_wallet'),
      ...rows.filter((r) => r.method === 'stop_wallet'),
    ];
    const wrong: string[] = [];
    for (const { method, status } of ordered) {
      const answer = await rpc(wallet.port, method, {});
      const code = answer?.error?.code as number | undefined;
      const message = String(answer?.error?.message ?? '');
      if (status === 'modelled' && (code === -32601 || code === NOT_MODELLED_CODE))
        wrong.push(`${method}: modelled, but answered ${code} ${message}`);
      if (
        status === 'refused' &&
        (code !== NOT_MODELLED_CODE || !message.includes(method) || !message.includes('--backend salvium'))
      )
        wrong.push(`${method}: refused, but answered ${JSON.stringify(answer?.error ?? answer?.result)}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
