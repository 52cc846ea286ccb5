// Fresh wallets funded ahead: the global setup's `freshWallets` option (or config key) names amounts and
// counts. Above difficulty 1 the setup restores a cached state in which that many wallets of each amount are paid
// (from main, in FUNDING_OUTPUTS outputs, as freshWallet's own funding pays) and unlocked: the payments are made once
// per machine at difficulty 1 (runner/funded-state-cache.ts, as for a run's scenarios). `freshWallet({ unlocked })` of
// such an amount then claims one of those wallets, copies its files into its own folder and opens it: no transfer, no
// block mined, no chain lock. When they are all claimed, or for any other amount, it pays from main (fundFresh).
//
// A claim is a file created with O_EXCL in the testnet's workdir, so two workers never take the same wallet. The
// wallets are encrypted with the testnet's wallet password (wallets/.password, mode 0600): the fresh wallet's RPC
// opens its copy with it over its loopback JSON-RPC, never on a command line.
import { copyFileSync, mkdirSync, openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { aheadState, paidAhead, startShared } from '../runner/funded-state-cache.js';
import { fundsAhead, type AheadPayment, type AheadWords } from '../runner/prepaid-wallets.js';
import { scaled } from '../common/timeouts.js';
import { createDaemonClient } from '../rpc/daemon.js';
import { createWalletClient, type WalletClient } from '../rpc/wallet.js';
import { backendSpec, type BackendSpec } from '../coin/backends.js';
import { fundFromWallet } from '../testnet/mining/funding.js';
import type { MiningAddresses } from '../testnet/mining/mining.js';
import { withChainLock } from './chain-lock.js';
import { resolveBackend } from '../testnet/programs/binaries.js';
import { readPasswordFile, walletPasswordFile } from '../testnet/programs/secrets.js';
import type { Testnet, TestnetOptions } from '../testnet/testnet.js';
import { unlockedAtomic } from '../config/unlocked.js';
import { formatAmountShort } from '../coin/amounts.js';
import type { ContextFunded, SaltnetContext } from './context.js';
import { counted } from '../common/describe.js';

/** Fresh wallets to keep funded ahead: `count` wallets holding `unlocked` (atomic units, or coins / "10 SAL1"). */
export interface FreshWalletsOption {
  unlocked: bigint | number | string;
  count: number;
}

const WORDS: AheadWords = {
  wallets: (n) => counted(n, 'fresh wallet'),
  the: 'the fresh wallets (freshWallets)',
  otherwise: 'by freshWallet as it is asked for them',
  later: 'later vitest runs hand these fresh wallets out funded',
};

/** The payments: wallet `fw<i>-<k>` holds the i-th amount (both counted from 1). */
export function freshPays(entries: FreshWalletsOption[], spec: BackendSpec): AheadPayment[] {
  const asset = spec.fundAsset;
  return entries.flatMap((e, i) => {
    const amount = typeof e.unlocked === 'bigint' ? e.unlocked : unlockedAtomic(e.unlocked, spec.name);
    if (amount <= 0n)
      throw new Error(`freshWallets[${i}].unlocked: expected an amount above 0, got ${String(e.unlocked)}`);
    if (!Number.isInteger(e.count) || e.count < 1)
      throw new Error(`freshWallets[${i}].count: expected a whole number >= 1, got ${String(e.count)}`);
    return Array.from({ length: e.count }, (_, k) => ({ wallet: `fw${i + 1}-${k + 1}`, asset, amount }));
  });
}

export interface FundedStart {
  t: Testnet;
  funded: ContextFunded[];
  /**
   * Restored from a cached state with the wallets funded ahead: the pool (useTestnet) starts its testnets on it too,
   * each handing out its own copies of the same wallets.
   */
  pooled?: { options: { snapshotKey: string; unlocked: bigint }; funded: ContextFunded[] };
}

/**
 * The global setup's testnet with its fresh wallets funded ahead (restored from the cache, built there once, else paid
 * on the testnet as it comes up; none at difficulty 1, where freshWallet's own funding costs about a second). What
 * the main wallet must hold comes out of `unlocked`: the wallets funded ahead are what freshWallet would have taken
 * from it anyway.
 */
export async function startWithFresh(
  opts: TestnetOptions,
  entries: FreshWalletsOption[] | undefined,
  log: (line: string) => void,
): Promise<FundedStart> {
  const { pays, unlocked } = freshPlan(opts, entries, log);
  // Created with the testnet's subaddress lookahead (2:20 by default): a claimed wallet opens in a fraction of the time
  const { t, ahead, from } = await startShared({ ...opts, unlocked }, pays, { log, words: WORDS, lookahead: true });
  if (pays.length > 0 && !fundsAhead(t.mining.difficulty))
    log(
      `saltnet: freshWallets: none funded ahead at difficulty ${t.mining.difficulty}, where freshWallet's own funding mines cheap blocks`,
    );
  const funded = new Map<string, string[]>();
  for (const p of pays) {
    if (!ahead.has(p.wallet)) continue;
    const key = p.amount.toString();
    funded.set(key, [...(funded.get(key) ?? []), p.wallet]);
  }
  const list = [...funded].map(([amount, wallets]) => ({ unlocked: amount, wallets }));
  return { t, funded: list, ...(from && list.length ? { pooled: { options: from, funded: list } } : {}) };
}

/**
 * What `saltnet cache build` builds for a vitest suite: the cached state in which the global setup with these
 * options finds its fresh wallets funded ahead, built when missing (paid at the prefix difficulty, no testnet served
 * after). Its key, or undefined when the setup funds none ahead (no freshWallets, difficulty 1, snapshots off).
 */
export async function buildFreshState(
  opts: TestnetOptions,
  entries: FreshWalletsOption[] | undefined,
  log: (line: string) => void,
): Promise<string | undefined> {
  const { pays, unlocked } = freshPlan(opts, entries, log);
  return pays.length ? aheadState({ ...opts, unlocked }, pays, { log, words: WORDS, lookahead: true }) : undefined;
}

/** The payments `freshWallets` asks for, and the main wallet's `unlocked`, checked to cover them all. */
function freshPlan(
  opts: TestnetOptions,
  entries: FreshWalletsOption[] | undefined,
  log: (line: string) => void,
): { pays: AheadPayment[]; unlocked: bigint } {
  const be = resolveBackend(opts.backend ?? 'auto', opts.binDir);
  let pays = entries?.length ? freshPays(entries, be.spec) : [];
  if (pays.length > 0 && opts.workdir) {
    // A kept workdir holds the wallets of the run before, spent by its tests: none is paid ahead there.
    log(`saltnet: freshWallets: none funded ahead on a workdir of your own (${opts.workdir}); freshWallet pays each`);
    pays = [];
  }
  const total = paidAhead(pays, be.spec.feeMargin);
  const unlocked = opts.unlocked ?? be.spec.defaultUnlocked;
  if (total > unlocked) {
    const unit = be.spec.coin.unit;
    throw new Error(
      `freshWallets: ${counted(pays.length, 'wallet')} funded ahead ${pays.length === 1 ? 'takes' : 'take'} ${formatAmountShort(total, unit)} with fees, more than unlocked (${formatAmountShort(unlocked, unit)}): raise unlocked in saltnet.config (or the global setup's options), or keep fewer or smaller wallets`,
    );
  }
  return { pays, unlocked };
}

/**
 * Claim a wallet funded ahead with exactly `amount` of the funding asset, and copy its files into `walletsDir` as
 * `name`: the password to open it with, or undefined when there is none (another amount or asset, all claimed).
 */
export function claimFunded(
  c: SaltnetContext,
  amount: bigint,
  asset: string | undefined,
  to: { walletsDir: string; name: string },
): string | undefined {
  if (asset !== undefined && asset !== c.spec.asset) return undefined;
  const entry = c.funded?.find((f) => f.unlocked === amount.toString());
  if (!entry) return undefined;
  const claims = join(c.workdir, 'fresh-claims');
  mkdirSync(claims, { recursive: true });
  for (const w of entry.wallets) {
    try {
      closeSync(openSync(join(claims, w), 'wx'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw err;
    }
    const from = join(c.workdir, 'wallets', w);
    copyFileSync(`${from}.keys`, join(to.walletsDir, `${to.name}.keys`));
    copyFileSync(from, join(to.walletsDir, to.name));
    return readPasswordFile(walletPasswordFile(c.workdir));
  }
  return undefined;
}

/** Send the funds from the main wallet, holding the chain lock, and wait until they are unlocked. */
export async function fundFresh(
  c: SaltnetContext,
  to: { client: WalletClient; addresses: MiningAddresses },
  amount: bigint,
  asset: string | undefined,
  name: string,
): Promise<void> {
  const spec = backendSpec(c.backend);
  const fundAsset = spec.fundAsset ? (asset ?? spec.fundAsset) : undefined;
  const daemon = createDaemonClient(c.daemonUrl);
  const main = createWalletClient(c.wallet.url, {
    timeoutMs: scaled(300_000),
    ...(c.wallet.credentials ? { auth: c.wallet.credentials } : {}),
  });
  try {
    await withChainLock(c, async () => {
      // Another worker's funding may have mined since the main wallet last looked.
      await main.refresh();
      try {
        await fundFromWallet({
          daemon,
          spec,
          from: main,
          to,
          minerAddresses: c.wallet.addresses,
          amount,
          timeoutMs: scaled(600_000),
          ...(c.mining ? { threads: c.mining.threads } : {}),
          ...(fundAsset ? { asset: fundAsset } : {}),
        });
      } catch (err) {
        const b = await main.balance(fundAsset ?? spec.fundAsset).catch(() => undefined);
        const held = b ? ` The main wallet holds ${b.unlocked} unlocked (${b.balance} in all).` : '';
        throw new Error(
          `funding ${name} with ${amount} ${fundAsset ?? 'atomic units'} from the main wallet failed: ${err instanceof Error ? err.message : String(err)}.${held} If it runs short, raise unlocked in saltnet.config (or the global setup's options), or fund fewer or smaller wallets.`,
          { cause: err },
        );
      }
    });
  } finally {
    await main.close().catch(() => undefined);
    await daemon.close().catch(() => undefined);
  }
}
