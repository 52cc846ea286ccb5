// What a running step has at hand (the testnet, its clients, the scenario's wallets and scope), and
// the helpers every step kind uses to fail with a located message.
import type { DaemonClient } from '../../rpc/daemon.js';
import type { WalletClient } from '../../rpc/wallet.js';
import type { BackendSpec } from '../../coin/backends.js';
import { addressAt, type Testnet, type WalletHandle } from '../../testnet/testnet.js';
import { parseAmount } from '../../coin/amounts.js';
import type { Scope } from '../interpolate.js';
import type { MetadataServer } from '../metadata.js';
import type { StepFailure } from '../types.js';

export interface ScenarioWallet {
  handle: WalletHandle;
  /** A client of this scenario's own, so its exchanges go to this scenario's transcript. */
  client: WalletClient;
}

export interface StepContext {
  testnet: Testnet;
  spec: BackendSpec;
  /** Node n0's daemon (the scenario's own client: its exchanges go to the transcript). */
  daemon: DaemonClient;
  /** Every node's daemon by name (n0 is `daemon`). */
  nodes: Map<string, DaemonClient>;
  /** Scenario wallet name → its testnet wallet. */
  wallets: Map<string, ScenarioWallet>;
  scope: Scope;
  metadata: () => Promise<MetadataServer>;
  /** Folder the scenario file is in (metadata files are found relative to it, then to the cwd). */
  baseDir: string;
  /** Serve metadata files outside baseDir and the working directory (`--allow-files-outside`). */
  allowFilesOutside?: boolean;
  /**
   * When (Date.now()) this step started, the step before it (this one's for the first), and the first step: for kinds
   * that look at what happened since.
   */
  stepStartedAt?: number;
  previousStepStartedAt?: number;
  scenarioStartedAt?: number;
  /** Extra headers for the wallet request of the step with this index (RunnerOptions.replay). */
  replay?: (stepIndex: number) => Record<string, string> | undefined;
}

/** The request options of a step's wallet call: its replay headers, if any. */
export function replayOf(ctx: StepContext, step: { index: number }): { headers?: Record<string, string> } {
  const headers = ctx.replay?.(step.index);
  return headers ? { headers } : {};
}

/** A scenario failure inside a step (not a crash): reported in the step's result. */
export class StepFailed extends Error {
  /** What the step sent and got before it failed, when its kind reports that itself (a wait's last try). */
  exchange?: { request: unknown; response: unknown };
  constructor(readonly failure: StepFailure) {
    super(failure.message);
  }
}

export const fail = (message: string, extra: Partial<StepFailure> = {}): never => {
  throw new StepFailed({ message, ...extra });
};

/** The daemon of a node (default n0); an unknown node fails the step. */
export function daemonOf(ctx: StepContext, node: string | undefined): DaemonClient {
  if (node === undefined) return ctx.daemon;
  const d = ctx.nodes.get(node);
  if (!d)
    return fail(
      `no node named "${node}": this testnet has ${[...ctx.nodes.keys()].join(', ')} (a scenario asks for more with nodes: N)`,
    );
  return d;
}

export function walletOf(ctx: StepContext, name: string): ScenarioWallet {
  const w = ctx.wallets.get(name);
  if (!w) return fail(`no wallet named "${name}" in this scenario (declare it under wallets:)`);
  return w;
}

/** Refresh the scope's view of wallets and height before templates are resolved. */
export async function refreshScope(ctx: StepContext): Promise<void> {
  const height = await ctx.daemon.height();
  ctx.scope.height = height;
  const wallets: Record<string, unknown> = {};
  for (const [name, w] of ctx.wallets) {
    const view = {
      address: addressAt(ctx.spec, w.handle.addresses, height),
      cn: w.handle.addresses.cn,
      carrot: w.handle.addresses.carrot ?? '',
    };
    wallets[name] = view;
    ctx.scope[name] = view;
  }
  ctx.scope.wallets = wallets;
}

/** Every scenario wallet refreshes (a wallet sees new blocks only then); a wallet that cannot is left as it is. */
export async function refreshWallets(ctx: StepContext): Promise<void> {
  for (const w of ctx.wallets.values()) await w.client.raw('refresh').catch(() => undefined);
}

/** An amount as atomic units; a bad one fails the step. */
export const amount = (v: unknown, where: string): bigint => {
  try {
    return parseAmount(v, where);
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  }
};
