// What the control endpoint of a running `saltnet up` does: one entry per request.
import type { LinkInfo } from '../network/links.js';
import { LINK_MODES, type LinkMode } from '../network/proxy.js';
import { summarize, type SnapshotSummary } from '../snapshot/manifest.js';
import { MAX_HEIGHT } from '../limits.js';
import type { AutomineChange, AutomineMode } from '../testnet/automine.js';
import type { FundResult } from '../testnet/faucet.js';
import { mineTarget, type MineRequest } from '../testnet/sync.js';
import type { Testnet } from '../testnet/types.js';
import { explorer } from '../ui/explorer.js';

export interface ControlRoute {
  /**
   * Answered at once even while another request runs (it neither stops programs nor mines itself). The others are
   * served one at a time, in the order they came (server.ts).
   */
  concurrent?: true;
  run(t: Testnet, body: unknown, env: { cacheDir: string }): Promise<unknown>;
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

const field = (body: unknown, key: string): unknown =>
  body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined;

const network = (t: Testnet): NetworkAnswer => ({ groups: t.groups(), links: t.links() });

/** The groups of a partition request: a list of lists of node names. */
function groupsOf(body: unknown): string[][] {
  const g = field(body, 'groups');
  if (!Array.isArray(g) || !g.every((x) => Array.isArray(x) && x.every((n) => typeof n === 'string')))
    throw new Error('groups must be a list of lists of node names, e.g. [["n0"], ["n1", "n2"]]');
  return g as string[][];
}

function linkOf(body: unknown): LinkBody {
  const [a, b, mode, delayMs] = ['a', 'b', 'mode', 'delayMs'].map((k) => field(body, k));
  if (typeof a !== 'string' || typeof b !== 'string') throw new Error('a link is named by its two nodes: a and b');
  if (mode !== undefined && !LINK_MODES.includes(mode as LinkMode))
    throw new Error(`mode must be one of ${LINK_MODES.join(', ')}`);
  if (
    delayMs !== undefined &&
    (typeof delayMs !== 'number' || !Number.isInteger(delayMs) || delayMs < 0 || delayMs > 600_000)
  )
    throw new Error('delayMs must be a whole number of milliseconds from 0 to 600000');
  return {
    a,
    b,
    ...(mode !== undefined ? { mode: mode as LinkMode } : {}),
    ...(delayMs !== undefined ? { delayMs } : {}),
  };
}
export const CONTROL_ROUTES: Record<string, ControlRoute> = {
  '/snapshot': {
    async run(t, body, { cacheDir }): Promise<SaveAnswer> {
      const key = field(body, 'key');
      if (typeof key !== 'string' || !key) throw new Error('no key');
      const m = await t.saveSnapshot(key);
      return { key, cacheDir, summary: summarize(m) };
    },
  },
  '/mine': {
    async run(t, body): Promise<MineAnswer> {
      const to = field(body, 'to');
      const blocks = field(body, 'blocks');
      const what: MineRequest = typeof to === 'number' ? { to } : { blocks: typeof blocks === 'number' ? blocks : 1 };
      const node = field(body, 'node');
      // On a partitioned testnet the node that mines may stand elsewhere than n0.
      const miner = typeof node === 'string' ? t.nodes.find((n) => n.name === node) : undefined;
      if (typeof node === 'string' && !miner)
        throw new Error(`no node named ${node}: this testnet has ${t.nodes.map((n) => n.name).join(', ')}`);
      const start = await (miner ? miner.client.height() : t.height());
      const target = mineTarget(what, start);
      if (target > MAX_HEIGHT)
        throw new Error(`mining to height ${target} would pass height ${MAX_HEIGHT}, the highest saltnet mines to`);
      if (target <= start) return { height: start, synced: [], already: true };
      const sync = field(body, 'sync') !== false;
      const height = await t.mine(what, { sync, ...(typeof node === 'string' ? { node } : {}) });
      return { height, synced: sync ? [...t.wallets().keys()] : [] };
    },
  },
  '/automine': {
    concurrent: true,
    run(t, body): Promise<AutomineAnswer> {
      const change = field(body, 'change') as AutomineChange | undefined;
      return Promise.resolve({ mode: change === undefined ? t.automine() : t.setAutomine(change) });
    },
  },
  '/ui': {
    concurrent: true,
    async run(t, body): Promise<UiAnswer> {
      const port = field(body, 'port');
      if (port !== undefined && (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535))
        throw new Error(`port must be a TCP port (1 to 65535), got ${JSON.stringify(port)}`);
      return { url: (await explorer(t, typeof port === 'number' ? { port } : {})).url };
    },
  },
  '/fund': {
    async run(t, body): Promise<FundAnswer> {
      const address = field(body, 'address');
      const amount = field(body, 'amount');
      const asset = field(body, 'asset');
      if (typeof address !== 'string' || !address) throw new Error('no address');
      if (typeof amount !== 'string' || !/^\d+$/.test(amount))
        throw new Error(`amount must be atomic units as a string of digits, got ${JSON.stringify(amount)}`);
      if (asset !== undefined && typeof asset !== 'string') throw new Error('asset must be a string');
      return t.fund({ address, amount: BigInt(amount), ...(asset ? { asset } : {}) });
    },
  },
  '/partition': {
    async run(t, body): Promise<NetworkAnswer> {
      await t.partition(groupsOf(body));
      return network(t);
    },
  },
  '/heal': {
    async run(t): Promise<NetworkAnswer> {
      await t.heal();
      return network(t);
    },
  },
  '/link': {
    async run(t, body): Promise<NetworkAnswer> {
      const { a, b, ...state } = linkOf(body);
      await t.setLink(a, b, state);
      return network(t);
    },
  },
  '/sync': {
    async run(t): Promise<NetworkAnswer> {
      await t.sync();
      return network(t);
    },
  },
};
