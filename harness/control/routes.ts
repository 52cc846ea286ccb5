// What the control endpoint of a running `saltnet up` does: one entry per request.
import { summarize, type SnapshotSummary } from '../snapshot/manifest.js';
import { MAX_HEIGHT } from '../limits.js';
import type { AutomineChange, AutomineMode } from '../testnet/automine.js';
import type { FundResult } from '../testnet/faucet.js';
import { mineTarget, type MineRequest } from '../testnet/sync.js';
import type { Testnet } from '../testnet/types.js';
import { explorer } from '../ui/explorer.js';

export interface ControlRoute {
  /** What the testnet is doing while it runs, for a request refused meanwhile ("busy saving a snapshot"). */
  busy: string;
  /** Answered at once even while another request runs (it neither stops programs nor mines itself). */
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

export const CONTROL_ROUTES: Record<string, ControlRoute> = {
  '/snapshot': {
    busy: 'saving a snapshot',
    async run(t, body, { cacheDir }): Promise<SaveAnswer> {
      const key = field(body, 'key');
      if (typeof key !== 'string' || !key) throw new Error('no key');
      const m = await t.saveSnapshot(key);
      return { key, cacheDir, summary: summarize(m) };
    },
  },
  '/mine': {
    busy: 'mining',
    async run(t, body): Promise<MineAnswer> {
      const to = field(body, 'to');
      const blocks = field(body, 'blocks');
      const what: MineRequest = typeof to === 'number' ? { to } : { blocks: typeof blocks === 'number' ? blocks : 1 };
      const start = await t.height();
      const target = mineTarget(what, start);
      if (target > MAX_HEIGHT)
        throw new Error(`mining to height ${target} would pass height ${MAX_HEIGHT}, the highest saltnet mines to`);
      if (target <= start) return { height: start, synced: [], already: true };
      const sync = field(body, 'sync') !== false;
      const height = await t.mine(what, { sync });
      return { height, synced: sync ? [...t.wallets().keys()] : [] };
    },
  },
  '/automine': {
    busy: 'switching automine',
    concurrent: true,
    run(t, body): Promise<AutomineAnswer> {
      const change = field(body, 'change') as AutomineChange | undefined;
      return Promise.resolve({ mode: change === undefined ? t.automine() : t.setAutomine(change) });
    },
  },
  '/ui': {
    busy: 'starting the explorer',
    concurrent: true,
    async run(t, body): Promise<UiAnswer> {
      const port = field(body, 'port');
      if (port !== undefined && (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535))
        throw new Error(`port must be a TCP port (1 to 65535), got ${JSON.stringify(port)}`);
      return { url: (await explorer(t, typeof port === 'number' ? { port } : {})).url };
    },
  },
  '/fund': {
    busy: 'funding',
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
};
