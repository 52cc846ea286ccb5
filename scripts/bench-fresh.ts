// freshWallet({ unlocked }) at difficulty 500, as a vitest test file gets it: taken from the wallets the global setup
// keeps funded ahead (freshWallets, harness/vitest/funded.ts), against paid from the main wallet and mined until
// unlocked (the way every fresh wallet was funded before). The setup's state is built once (at difficulty 1) before
// the timed start, which restores it.
import { performance } from 'node:perf_hooks';
import type { TestnetOptions } from '../harness/testnet/testnet.js';
import { contextOf } from '../harness/vitest/context.js';
import { freshWallet } from '../harness/vitest/fresh-wallet.js';
import { startWithFresh } from '../harness/vitest/funded.js';
import { median, ms, type Report } from './bench-up.js';

const TEN = 10n * 100_000_000n;
const POOLED = 3;

export async function freshWallets(label: string, options: TestnetOptions, report: Report): Promise<void> {
  const opts: TestnetOptions = {
    progress: 'none',
    log: () => undefined,
    trapSignals: false,
    ...options,
    difficulty: 500,
  };
  const entries = [{ unlocked: TEN, count: POOLED }];
  // Built once per machine: not what is measured.
  await (await startWithFresh(opts, entries, () => undefined)).t.stop();
  const s0 = performance.now();
  const { t, funded } = await startWithFresh(opts, entries, () => undefined);
  const setup = performance.now() - s0;
  const ctx = contextOf(t, 1, undefined, funded);
  try {
    const took = async (): Promise<number> => {
      const a0 = performance.now();
      const w = await freshWallet(ctx, { unlocked: TEN });
      const d = performance.now() - a0;
      await w.stop();
      return d;
    };
    const pooled: number[] = [];
    for (let i = 0; i < POOLED; i++) pooled.push(await took());
    const h0 = await t.daemon.client.height();
    const paid: number[] = [];
    for (let i = 0; i < 3; i++) paid.push(await took());
    const blocks = (await t.daemon.client.height()) - h0;
    const list = (xs: number[]): string => xs.map((x) => ms(x)).join(', ');
    report(`fresh.${label}.setup`, ms(setup), `the global setup's start, ${POOLED} wallets of 10 SAL1 restored funded`);
    report(`fresh.${label}.pooled`, ms(median(pooled)), `median of ${POOLED}: ${list(pooled)}; nothing mined`);
    report(
      `fresh.${label}.paid`,
      ms(median(paid)),
      `median of 3: ${list(paid)} (the first after the setup waits for the RandomX dataset on real Salvium); ${blocks} blocks mined at 500`,
    );
  } finally {
    await t.stop();
  }
}
