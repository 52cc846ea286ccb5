// The explorer's view of a running Testnet: its daemon and wallets through clients of the
// explorer's own (short deadlines, no crash recovery: a program restarting shows as a problem for
// a poll, not as a page that hangs), and its programs from the run record the testnet keeps; the view-only wallets
// apps register are opened on it (view-wallets.ts).
import { createDaemonClient } from '../rpc/daemon.js';
import { createWalletClient, type WalletClient } from '../rpc/wallet.js';
import type { ProgramStatus } from '../testnet/events.js';
import { addressAt } from '../testnet/mining/mining.js';
import type { Testnet } from '../testnet/types.js';
import type { UiSource } from './state.js';
import { viewWalletOpener } from './view-wallets.js';

export function testnetSource(t: Testnet, log?: (line: string) => void): UiSource & { close(): Promise<void> } {
  const daemon = createDaemonClient(t.daemon.url, { timeoutMs: 10_000 });
  const clients = new Map<string, WalletClient>();
  const clientOf = (url: string, auth?: { username: string; password: string }): WalletClient => {
    let c = clients.get(url);
    if (!c) clients.set(url, (c = createWalletClient(url, { timeoutMs: 10_000, ...(auth ? { auth } : {}) })));
    return c;
  };
  let height = t.readyHeight;
  return {
    runId: t.runId,
    backend: t.backend.spec.name,
    decimals: t.backend.spec.coin.decimals,
    daemon: {
      ...daemon,
      height: async () => (height = await daemon.height()),
    },
    wallets: () =>
      [...t.wallets().values()].map((w) => ({
        name: w.name,
        address: addressAt(t.backend.spec, w.addresses, height),
        client: clientOf(w.url, w.credentials),
      })),
    programs: () => {
      // The latest process of each program (a restart starts a new one); its state and restarts from the run record
      // where the testnet's events wrote them, from the process itself otherwise.
      const status = (t.supervisor.record.info?.programs ?? {}) as Record<string, ProgramStatus>;
      const crashes = t.crashes();
      const latest = new Map(t.supervisor.processes().map((p) => [p.name, p]));
      return [...latest.values()]
        .filter((p) => status[p.name] !== undefined || p.running)
        .map((p) => ({
          name: p.name,
          pid: p.pid,
          state: status[p.name]?.state ?? (p.running ? 'running' : 'stopped'),
          restarts: status[p.name]?.restarts ?? crashes.filter((c) => c.program === p.name && c.restart > 0).length,
          log: p.logFile,
        }));
    },
    automine: () => t.automine(),
    viewWallets: { coin: t.backend.spec.coin, opener: viewWalletOpener(t, log) },
    async close() {
      await daemon.close();
      for (const c of clients.values()) await c.close();
    },
  };
}
