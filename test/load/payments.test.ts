// Paying a load's wallets ahead (harness/load/payments.ts), against a model of main: outputs that unlock 10 blocks
// after the block that made them, transactions of at most 7 outputs that each spend the fewest of main's largest
// unlocked outputs that pay them (at most 64), a request refused whole when one of its transactions cannot be paid.
// What it checks is the plan: how many rounds of spreading, and how many blocks the funding mines.
import { describe, expect, it } from 'vitest';
import { payAll, PAYMENT_OUTPUTS, type LoadPayment } from '../../harness/load/payments.js';
import { RpcError } from '../../harness/rpc/errors.js';
import type { Testnet } from '../../harness/testnet/types.js';

const COIN = 100_000_000n;
const FEE = 1_000_000n;
const SPENDABLE_AGE = 10;

interface Output {
  amount: bigint;
  /** The height from which it may be spent. */
  unlock: number;
}

/** A main wallet and its chain: `mined` blocks so far, and the requests it took (the outputs each paid main). */
function modelMain(outputs: bigint[]) {
  const m = {
    height: 2000,
    outputs: outputs.map((amount): Output => ({ amount, unlock: 0 })),
    mined: 0,
    selfPaid: [] as number[],
    paid: 0,
  };
  const payTx = (dests: { address: string; amount: bigint }[], spend: Output[]): boolean => {
    const need = dests.reduce((s, d) => s + d.amount, 0n) + FEE;
    const usable = spend.filter((o) => o.unlock <= m.height).sort((a, b) => (a.amount < b.amount ? 1 : -1));
    const inputs: Output[] = [];
    let sum = 0n;
    for (const o of usable.slice(0, 64)) {
      if (sum >= need) break;
      inputs.push(o);
      sum += o.amount;
    }
    if (sum < need) return false;
    for (const i of inputs) spend.splice(spend.indexOf(i), 1);
    const unlock = m.height + SPENDABLE_AGE;
    for (const d of dests) if (d.address === 'main') spend.push({ amount: d.amount, unlock });
    spend.push({ amount: sum - need, unlock });
    return true;
  };
  const call = async (method: string, params: { destinations: { address: string; amount: bigint }[] }) => {
    if (method !== 'transfer_split') throw new Error(`the model answers transfer_split only, not ${method}`);
    const next = [...m.outputs];
    for (let i = 0; i < params.destinations.length; i += PAYMENT_OUTPUTS)
      if (!payTx(params.destinations.slice(i, i + PAYMENT_OUTPUTS), next))
        throw new RpcError(-4, 'no input candidates provided', 'transfer_split', 'model');
    m.outputs = next;
    const self = params.destinations.filter((d) => d.address === 'main').length;
    if (self > 0) m.selfPaid.push(self);
    m.paid += params.destinations.length - self;
    return {};
  };
  const t = {
    backend: {
      spec: {
        name: 'sim',
        fundAsset: 'SAL1',
        feeMargin: COIN,
        spendableAge: SPENDABLE_AGE,
        coin: { decimals: 8, unit: 'SAL1' },
      },
    },
    wallet: {
      address: 'main',
      client: {
        call,
        balance: async () => {
          const all = m.outputs.reduce((s, o) => s + o.amount, 0n);
          const unlocked = m.outputs.filter((o) => o.unlock <= m.height).reduce((s, o) => s + o.amount, 0n);
          return { balance: all, unlocked, blocksToUnlock: 0 };
        },
      },
    },
    daemon: { client: { poolHashes: async () => [] } },
    mine: async (n: number) => {
      m.height += n;
      m.mined += n;
      return m.height;
    },
  } as unknown as Testnet;
  return { m, t };
}

const payments = (n: number): LoadPayment[] => Array.from({ length: n }, () => ({ address: 'w', amount: COIN }));

describe("paying a load's wallets ahead", () => {
  it('from a main of many mined outputs: the last round of spreading straight from them, a few blocks in all', async () => {
    // 335 outputs of a block's reward, as main holds on a fresh simulated testnet: 200 tx/s for 20 s from 32 wallets.
    const { m, t } = modelMain(Array.from({ length: 335 }, () => 12_370_000_000n));
    await payAll(t, payments(6080), 'SAL1');
    expect(m.paid).toBe(6080);
    // Every output main paid itself was one of the last round's (no round of larger outputs before it).
    const parts = Math.ceil(6080 / PAYMENT_OUTPUTS) * 2;
    expect(m.selfPaid.reduce((a, b) => a + b, 0)).toBe(parts);
    expect(m.mined).toBeLessThanOrEqual(3 * (SPENDABLE_AGE + 1));
  });

  it('from a main of a few large outputs: rounds from higher up the tree, each multiplying the outputs', async () => {
    const { m, t } = modelMain([10_000n * COIN, 10_000n * COIN, 10_000n * COIN, 10_000n * COIN]);
    await payAll(t, payments(6080), 'SAL1');
    expect(m.paid).toBe(6080);
    // A round a settle: far fewer blocks than a payment at a time would take (869 transactions).
    expect(m.mined).toBeLessThanOrEqual(8 * (SPENDABLE_AGE + 1));
  });

  it('says what main holds when it cannot pay, and pays nothing it cannot', async () => {
    const { m, t } = modelMain([5n * COIN]);
    await expect(payAll(t, payments(70), 'SAL1')).rejects.toThrow(
      /cannot fund the load's wallets \(70 outputs of 1 SAL1, 70 SAL1 in all\) from main: it answered -4 no input candidates provided; main holds 5 SAL1/,
    );
    expect(m.paid).toBe(0);
  });
});
