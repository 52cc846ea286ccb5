// Paying a funding from one wallet to another (harness/testnet/mining/funding.ts sendFunding): a transaction spends at
// most 64 inputs and the paying wallet holds mostly coinbase outputs of about a block's reward, so a large funding goes
// in several transfers of six outputs each. On the simulator, which refuses a transfer needing more than 64 inputs with
// -18 as the real wallet does, a scenario wallet asking for 20000 SAL1 is funded, whether paid ahead or as its scenario
// starts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { RpcError } from '../../harness/rpc/errors.js';
import type { DaemonClient } from '../../harness/rpc/daemon.js';
import type { WalletClient } from '../../harness/rpc/wallet.js';
import { BACKENDS } from '../../harness/coin/backends.js';
import { FUNDING_TX_INPUTS, fundingTransfers, sendFunding } from '../../harness/testnet/mining/funding.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const SAL = BACKENDS.salvium;
const COIN = 100_000_000n;

describe('fundingTransfers', () => {
  it('one transfer while it fits, else as few as can carry it, as even as can be', () => {
    const most = SAL.typicalReward * FUNDING_TX_INPUTS;
    expect(most).toBe(4320n * COIN);
    expect(fundingTransfers(5n * COIN, most)).toEqual([5n * COIN]);
    expect(fundingTransfers(most, most)).toEqual([most]);
    const parts = fundingTransfers(20_000n * COIN, most);
    expect(parts).toHaveLength(5);
    expect(parts.reduce((a, b) => a + b, 0n)).toBe(20_000n * COIN);
    expect(parts.every((p) => p === 4000n * COIN)).toBe(true);
    const odd = fundingTransfers(most + 1n, most);
    expect(odd).toEqual([most / 2n + 1n, most / 2n]);
  });
});

/**
 * A paying wallet whose transfers carry at most `capacity` (more needs more than 64 of its outputs: -18, as the
 * simulator and the real wallet answer); it records each transfer's outputs.
 */
function payer(capacity: bigint) {
  const transfers: bigint[][] = [];
  const from = {
    refresh: async () => undefined,
    call: async (method: string, p: { destinations: { amount: bigint }[] }) => {
      expect(method).toBe('transfer');
      const amounts = p.destinations.map((d) => d.amount);
      if (amounts.reduce((a, b) => a + b, 0n) > capacity)
        throw new RpcError(-18, 'Transaction would be too large.  try /transfer_split.', 'transfer', 'http://x');
      transfers.push(amounts);
      return {};
    },
  } as unknown as WalletClient;
  const daemon = { height: async () => 1300 } as unknown as DaemonClient;
  const to = { cn: 'cn-bob', carrot: 'carrot-bob' };
  return { transfers, send: (amount: bigint) => sendFunding({ daemon, spec: SAL, from, to, asset: 'SAL1', amount }) };
}

describe('sendFunding', () => {
  it('pays 20000 SAL1 in five transfers of six outputs that a wallet of coinbase outputs can each build', async () => {
    // 64 outputs of 92.8 SAL1 (the reward from height 1200) carry 5939 SAL1.
    const w = payer(5939n * COIN);
    await w.send(20_000n * COIN);
    expect(w.transfers).toHaveLength(5);
    expect(w.transfers.every((t) => t.length === 6)).toBe(true);
    expect(w.transfers.flat().reduce((a, b) => a + b, 0n)).toBeGreaterThanOrEqual(20_000n * COIN);
  });

  it('splits a transfer the wallet still finds too large (smaller outputs) until each part fits', async () => {
    const w = payer(1500n * COIN);
    await w.send(8000n * COIN);
    expect(w.transfers.length).toBeGreaterThan(2);
    expect(w.transfers.every((t) => t.reduce((a, b) => a + b, 0n) <= 1500n * COIN)).toBe(true);
    expect(w.transfers.flat().reduce((a, b) => a + b, 0n)).toBeGreaterThanOrEqual(8000n * COIN);
  });
});

const SCENARIO = `name: a wallet funded with 20000 SAL1
requires: { height: 1201 }
wallets:
  bob: { unlocked: { SAL1: 20000 SAL1 } }
steps:
  - name: bob holds it all, unlocked
    wallet: bob
    get_balance: { asset_type: SAL1 }
    expect:
      result.balances[0].unlocked_balance: { gte: 20000 SAL1 }
  - name: in five transfers
    wallet: bob
    get_transfers: { in: true }
    expect:
      result.in: { length: 5 }
`;

describe('a scenario wallet of 20000 SAL1 (sim)', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('saltnet-funding-');
  });
  afterAll(() => cleanup(dir));

  it.each([
    ['paid as its scenario starts (difficulty 1)', 1],
    ['paid ahead (difficulty 500)', 500],
  ])(
    'is funded: %s',
    async (_how, difficulty) => {
      const file = join(dir, `big-${difficulty}.yaml`);
      writeFileSync(file, SCENARIO);
      const lines: string[] = [];
      const [r] = await runFiles([file], {
        backend: 'sim',
        isolation: 'shared',
        workers: 1,
        bail: false,
        cacheDir: join(dir, 'cache'),
        difficulty,
        artifactsRoot: join(dir, `artifacts-${difficulty}`),
        log: (l) => lines.push(l),
      });
      expect([r!.status, r!.failure?.message], lines.join('\n')).toEqual(['passed', undefined]);
      if (difficulty > 1) expect(lines.join('\n')).toMatch(/funded 1 scenario wallet ahead/);
    },
    180_000,
  );
});
