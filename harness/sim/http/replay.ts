// Draws the real programs make at random, as another run made them: `saltnet diff` and `saltnet fuzz` run the real
// side first and send each request of the simulator's side with the real side's draws for the same step in the
// `x-saltnet-replay` header (JSON), so both sides take the same branch where the real wallet flips a coin. Without
// the header the simulator draws for itself, as the real programs do.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomInt } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REPLAY_HEADER = 'x-saltnet-replay';

export interface Replay {
  /** Per tx of the answer, in its order: how many inputs the other side's tx spent. */
  inputs?: number[];
}

const current = new AsyncLocalStorage<Replay>();

function parse(req: IncomingMessage): Replay {
  const text = req.headers[REPLAY_HEADER];
  if (typeof text !== 'string') return {};
  try {
    const v = JSON.parse(text) as Replay;
    return Array.isArray(v.inputs) && v.inputs.every((n) => Number.isInteger(n)) ? { inputs: v.inputs } : {};
  } catch {
    return {};
  }
}

/** Run a request's handling with its replayed draws at hand. */
export const withReplay = <T>(req: IncomingMessage, fn: () => Promise<T>): Promise<T> => current.run(parse(req), fn);

/**
 * The wallet's coin between 1 and 2 inputs for the tx at `txIndex` of the answer being built: as the other side's tx
 * went when it spent 1 or 2 inputs, else at random.
 */
export function preferTwoInputs(txIndex: number): boolean {
  const n = current.getStore()?.inputs?.[txIndex];
  if (n === 1 || n === 2) return n === 2;
  return randomInt(2) === 1;
}
