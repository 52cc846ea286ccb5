// What the control endpoint of a running `saltnet up` does: one entry per request, each body checked
// strictly (body.ts) before anything is done.
import { z } from 'zod';
import type { LinkInfo } from '../network/links.js';
import { LINK_MODES, type LinkMode } from '../network/proxy.js';
import { partitionProblems, unknownNode } from '../network/topology.js';
import { assertKey } from '../snapshot/snapshot-dir.js';
import { summarize, type SnapshotSummary } from '../snapshot/manifest.js';
import { MAX_HEIGHT } from '../limits.js';
import { applyChange, type AutomineChange, type AutomineMode } from '../testnet/automine.js';
import { FaucetRefusal, type FundResult } from '../testnet/faucet.js';
import { mineTarget, type MineRequest } from '../testnet/sync.js';
import type { Testnet } from '../testnet/types.js';
import { explorer } from '../ui/explorer.js';
import { parseBody, RequestError } from './body.js';

/** What a route gets besides its body. */
export interface RouteEnv {
  /** Where snapshots are saved. */
  cacheDir: string;
  /** Aborted when the request is cancelled: its client went away, or asked for it (`/cancel`). */
  signal: AbortSignal;
  /**
   * From here on the request is not cancelled: it finishes, client or not. `what` settles to what a `/cancel` then
   * answers (the faucet's: the transactions it sent).
   */
  commit(what: Promise<unknown>): void;
}

export interface ControlRoute {
  /**
   * Answered at once even while another request runs (it neither stops programs nor mines itself). The others are
   * served one at a time, in the order they came (server.ts).
   */
  concurrent?: true;
  run(t: Testnet, body: unknown, env: RouteEnv): Promise<unknown>;
}

export interface SaveAnswer {
  key: string;
  cacheDir: string;
  summary: SnapshotSummary;
}

export interface MineBody {
  blocks?: number;
  to?: number;
  sync?: boolean;
  /** The node that mines (default n0). */
  node?: string;
}

/** The network after a partition, a heal or a link change. */
export interface NetworkAnswer {
  groups: string[][];
  links: LinkInfo[];
}

export interface LinkBody {
  a: string;
  b: string;
  mode?: LinkMode;
  delayMs?: number;
}

export interface MineAnswer {
  height: number;
  /** The wallets refreshed to that height. */
  synced: string[];
  /** `to` was not above the height: nothing mined. */
  already?: boolean;
}

export interface AutomineBody {
  /** The change; none: only the mode is answered. */
  change?: AutomineChange;
}

export interface AutomineAnswer {
  mode: AutomineMode;
}

export interface FundBody {
  address: string;
  /** Atomic units, as a decimal string (JSON has no big integers). */
  amount: string;
  asset?: string;
}

export type FundAnswer = FundResult;

export interface UiBody {
  /** The port to serve the explorer on, when it is not served yet (default: a free one). */
  port?: number;
}

export interface UiAnswer {
  url: string;
}

const whole = (min: number, max: number, what = 'a whole number'): z.ZodOptional<z.ZodInt> =>
  z.int().min(min).max(max).optional().describe(`${what} from ${min} to ${max}`);

const SCHEMAS = {
  snapshot: z.strictObject({ key: z.string().min(1).describe('a snapshot key (a non-empty string)') }),
  mine: z.strictObject({
    blocks: whole(1, MAX_HEIGHT, 'a whole number of blocks (a JSON number)'),
    to: whole(1, MAX_HEIGHT, 'a height (a whole JSON number)'),
    sync: z.boolean().optional().describe('true or false'),
    node: z.string().optional().describe('a node name, e.g. n1'),
  }),
  automine: z.strictObject({
    change: z.unknown().optional().describe('"off" or an object { mineOnTx?: boolean, blockTime?: seconds }'),
  }),
  ui: z.strictObject({ port: whole(1, 65535, 'a TCP port') }),
  fund: z.strictObject({
    address: z.string().min(1).describe('an address of the chain (a non-empty string)'),
    amount: z
      .string()
      .regex(/^\d+$/)
      .describe('atomic units as a string of digits, e.g. "100000000" (JSON has no big integers)'),
    asset: z.string().min(1).optional().describe("an asset type, e.g. SAL1 or a token's salTST1"),
  }),
  partition: z.strictObject({
    groups: z.array(z.array(z.string())).describe('a list of lists of node names, e.g. [["n0"], ["n1", "n2"]]'),
  }),
  link: z.strictObject({
    a: z.string().describe('a node name, e.g. n0'),
    b: z.string().describe('a node name, e.g. n1'),
    mode: z
      .enum(LINK_MODES)
      .optional()
      .describe(`one of ${LINK_MODES.join(', ')}`),
    delayMs: whole(0, 600_000, 'a whole number of milliseconds'),
  }),
  none: z.strictObject({}),
};

const network = (t: Testnet): NetworkAnswer => ({ groups: t.groups(), links: t.links() });

/** Node `name` of `t`, or a RequestError naming the nodes it has. */
function nodeOf(t: Testnet, name: string): Testnet['nodes'][number] {
  const why = unknownNode(name, t.nodes.length);
  if (why) throw new RequestError(why);
  return t.nodes.find((n) => n.name === name)!;
}

/** `f()`, its error a RequestError (a check of the request's values made elsewhere). */
function asRequestError<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    throw new RequestError(err instanceof Error ? err.message : String(err));
  }
}

export const CONTROL_ROUTES: Record<string, ControlRoute> = {
  '/snapshot': {
    async run(t, body, { cacheDir }): Promise<SaveAnswer> {
      const { key } = parseBody(SCHEMAS.snapshot, body);
      asRequestError(() => assertKey(key));
      const m = await t.saveSnapshot(key);
      return { key, cacheDir, summary: summarize(m) };
    },
  },
  '/mine': {
    async run(t, body, { signal }): Promise<MineAnswer> {
      const { blocks, to, sync = true, node } = parseBody(SCHEMAS.mine, body);
      if (blocks !== undefined && to !== undefined)
        throw new RequestError('give blocks or to, not both: how many blocks, or up to which height');
      const what: MineRequest = to !== undefined ? { to } : { blocks: blocks ?? 1 };
      // On a partitioned testnet the node that mines may stand elsewhere than n0.
      const miner = node !== undefined ? nodeOf(t, node) : undefined;
      const start = await (miner ? miner.client.height() : t.height());
      const target = mineTarget(what, start);
      if (target > MAX_HEIGHT)
        throw new RequestError(
          `mining to height ${target} would pass height ${MAX_HEIGHT}, the highest saltnet mines to`,
        );
      if (target <= start) return { height: start, synced: [], already: true };
      const height = await t.mine(what, { sync, signal, ...(node !== undefined ? { node } : {}) });
      return { height, synced: sync ? [...t.wallets().keys()] : [] };
    },
  },
  '/automine': {
    concurrent: true,
    run(t, body): Promise<AutomineAnswer> {
      const { change } = parseBody(SCHEMAS.automine, body) as { change?: AutomineChange };
      if (change === undefined) return Promise.resolve({ mode: t.automine() });
      asRequestError(() => applyChange(t.automine(), change));
      return Promise.resolve({ mode: t.setAutomine(change) });
    },
  },
  '/ui': {
    concurrent: true,
    async run(t, body): Promise<UiAnswer> {
      const { port } = parseBody(SCHEMAS.ui, body);
      return { url: (await explorer(t, port !== undefined ? { port } : {})).url };
    },
  },
  '/fund': {
    async run(t, body, { signal, commit }): Promise<FundAnswer> {
      const { address, amount, asset } = parseBody(SCHEMAS.fund, body);
      try {
        return await t.fund(
          { address, amount: BigInt(amount), ...(asset ? { asset } : {}) },
          // Cancelled up to the payment; once it is being sent, the faucet finishes (mines until it is spendable).
          { signal, onSend: (sending) => commit(sending.then((txHashes) => ({ txHashes }))) },
        );
      } catch (err) {
        if (err instanceof FaucetRefusal) throw new RequestError(err.message);
        throw err;
      }
    },
  },
  '/partition': {
    async run(t, body, { signal }): Promise<NetworkAnswer> {
      const { groups } = parseBody(SCHEMAS.partition, body);
      const problems = partitionProblems(groups, t.nodes.length);
      if (problems.length) throw new RequestError(`bad partition: ${problems.join('; ')}`);
      await t.partition(groups, { signal });
      return network(t);
    },
  },
  '/heal': {
    async run(t, body, { signal }): Promise<NetworkAnswer> {
      parseBody(SCHEMAS.none, body);
      await t.heal({ signal });
      return network(t);
    },
  },
  '/link': {
    async run(t, body, { signal }): Promise<NetworkAnswer> {
      const { a, b, mode, delayMs } = parseBody(SCHEMAS.link, body);
      if (mode === undefined && delayMs === undefined) throw new RequestError('say what to change: mode or delayMs');
      nodeOf(t, a);
      nodeOf(t, b);
      if (a === b) throw new RequestError(`a link joins two nodes; ${a} and ${b} are the same node`);
      await t.setLink(a, b, { ...(mode ? { mode } : {}), ...(delayMs !== undefined ? { delayMs } : {}) }, { signal });
      return network(t);
    },
  },
  '/sync': {
    async run(t, body, { signal }): Promise<NetworkAnswer> {
      parseBody(SCHEMAS.none, body);
      await t.sync({ signal });
      return network(t);
    },
  },
};
