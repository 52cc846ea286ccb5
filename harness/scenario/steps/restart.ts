// restart: stop a program gracefully and start it again on the same ports and data.
import { z } from 'zod';
import { walletOf } from './context.js';
import { defineStep } from './kind.js';

export interface RestartAction {
  kind: 'restart';
  target: 'daemon' | 'wallet';
}

export const restartStep = defineStep<'restart', RestartAction>({
  key: 'restart',
  schema: z.enum(['daemon', 'wallet']).describe("restart a process: daemon or wallet (the step's wallet RPC)"),
  answersRpc: false,
  build: (v) => ({ kind: 'restart', target: v as 'daemon' | 'wallet' }),
  defaultName: (a) => `restart ${a.target}`,
  async run(ctx, step, a) {
    const request = {
      restart: a.target,
      ...(a.target === 'wallet' ? { wallet: step.wallet } : step.node ? { node: step.node } : {}),
    };
    if (a.target === 'daemon') await ctx.testnet.restart('daemon', step.node ?? 'n0');
    else await ctx.testnet.restart('wallet', walletOf(ctx, step.wallet).handle.name);
    return { request, response: { result: {} } };
  },
  docs: {
    note: "Stops the process gracefully and starts it again on the same ports and data: `daemon` (the step's `node:`, default n0; on a scenario of several nodes it reconnects to its peers before the next step), or `wallet` (the wallet RPC of the step's `wallet`). The chain and the wallet files are kept.",
  },
});
