// Faults around the control endpoint of `up` as the CLI uses it: a node whose daemon was killed while
// it was partitioned off (it restarts with no peer, so it is not synchronized and its daemon answers
// BUSY to mining) is refused at once with what to do, and the endpoint goes on serving; `saltnet
// fund` interrupted before its payment is sent gives it up (nothing paid), and interrupted while
// it is being sent says which transaction the testnet goes on confirming. The simulator holds a
// wallet request open (SALTNET_SIM_TEST_STALL) so that the interruption lands where the case wants.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { signal, until, type FaultCase, type FaultContext } from '../kit.js';

const post = async (url: string, path: string, body: unknown = {}): Promise<any> =>
  (
    await fetch(`${url}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    })
  ).json();

/** `saltnet fund` of 1 SAL1 to the miner's address, interrupted (SIGINT) once the wallet RPC holds `method` open. */
async function fundInterruptedAt(
  ctx: FaultContext,
  u: Awaited<ReturnType<FaultContext['up']>>,
  method: string,
): Promise<{ code: number | undefined; err: string; stdout: string }> {
  const fund = ctx.startCli(['fund', u.ready.miner.addresses.cn as string, '1', '--json']);
  const log = join(u.ready.workdir as string, 'logs', 'wallet-rpc.log');
  await until(
    `the wallet RPC to hold ${method}`,
    () => {
      try {
        return readFileSync(log, 'utf8').includes(`TEST stall ${method}`) || undefined;
      } catch {
        return undefined;
      }
    },
    30_000,
  );
  signal(fund.proc.pid!, 'SIGINT');
  const r = await fund.result;
  return { code: r.code, err: fund.stderr(), stdout: r.stdout };
}

export const CONTROL_CASES: FaultCase[] = [
  {
    id: 'daemon of a partitioned node killed: mine on it refused at once (heal first); healed, it mines',
    kind: 'kill',
    async run(ctx) {
      const u = await ctx.up(['--nodes', '2']);
      const p = await ctx.cli(['partition', 'n0', 'n1']);
      expect(p.code, p.out).toBe(0);
      signal(u.ready.nodes[1].pid as number, 'SIGKILL');
      await u.waitEvent((e) => e.event === 'pid' && e.program === 'daemon-n1' && e.reason === 'crash');
      const refused = await ctx.cli(['mine', '1', '--node', 'n1']);
      expect(refused.code, refused.out).toBe(1);
      expect(refused.out).toMatch(/cannot mine: n1 is not synchronized: it has had no peer since its daemon started/);
      expect(refused.out).toMatch(/n0-n1 cut.*Heal first \(saltnet heal\)/);
      const healed = await ctx.cli(['heal']);
      expect(healed.code, healed.out).toBe(0);
      const mined = await ctx.cli(['mine', '1', '--node', 'n1']);
      expect(mined.code, mined.out).toBe(0);
      expect(mined.out).toMatch(/^height 31$/m);
    },
  },
  {
    id: 'saltnet fund interrupted before its payment is sent: given up, nothing paid, exit 130',
    kind: 'interrupt',
    async run(ctx) {
      const u = await ctx.up(['--unlocked', '5'], { env: { SALTNET_SIM_TEST_STALL: 'validate_address:3000' } });
      const r = await fundInterruptedAt(ctx, u, 'validate_address');
      expect(r.code, r.err).toBe(130);
      expect(r.err).toMatch(/interrupted before the payment was sent: the testnet gave it up, nothing was paid/);
      expect(JSON.parse(r.stdout.trim())).toEqual({ interrupted: true, state: 'cancelled' });
      // The endpoint serves one request at a time: once this mine is done, the given-up fund has ended.
      const m = await ctx.cli(['mine', '1']);
      expect(m.code, m.out).toBe(0);
      expect(u.err()).not.toMatch(/fund: sent/);
      // main sent nothing, in a block or not.
      const sent = await post(u.ready.wallet.url, '/json_rpc', {
        jsonrpc: '2.0',
        id: 1,
        method: 'get_transfers',
        params: { out: true, pending: true, pool: true, failed: true },
      });
      expect(sent.result).toBeDefined();
      expect(
        [sent.result.out, sent.result.pending, sent.result.pool].flatMap((x: unknown[] | undefined) => x ?? []),
      ).toEqual([]);
    },
  },
  {
    id: 'saltnet fund interrupted while its payment is sent: names the tx, exit 130; the testnet confirms it',
    kind: 'interrupt',
    async run(ctx) {
      const u = await ctx.up(['--unlocked', '5'], { env: { SALTNET_SIM_TEST_STALL: 'transfer_split:2000' } });
      const r = await fundInterruptedAt(ctx, u, 'transfer_split');
      expect(r.code, r.err).toBe(130);
      const said =
        /the payment was sent already \(tx ([0-9a-f]{64})\): the testnet goes on mining until \S+ can spend it/.exec(
          r.err,
        );
      expect(said, r.err).not.toBeNull();
      const tx = said![1]!;
      expect(JSON.parse(r.stdout.trim())).toEqual({
        interrupted: true,
        state: 'finishing',
        detail: { txHashes: [tx] },
      });
      // Mined, and buried under the 10 blocks that make it spendable, with no client waiting.
      const spendable = async (): Promise<true | undefined> => {
        const got = await post(u.ready.daemon.url, '/get_transactions', { txs_hashes: [tx] });
        const t = got.txs?.[0];
        if (!t || t.in_pool) return undefined;
        const info = await post(u.ready.daemon.url, '/get_info');
        return info.height >= t.block_height + 10 || undefined;
      };
      const end = Date.now() + 30_000;
      while (!(await spendable())) {
        if (Date.now() > end) throw new Error(`tx ${tx} was not confirmed and buried within 30 s`);
        await new Promise((ok) => setTimeout(ok, 200));
      }
      expect(u.err()).toContain(`(tx ${tx})`);
    },
  },
];
