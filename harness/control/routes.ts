// What the control endpoint of a running `saltnet up` does: one entry per request.
import { summarize, type SnapshotSummary } from '../snapshot/manifest.js';
import { MAX_HEIGHT } from '../limits.js';
import { mineTarget, type MineRequest } from '../testnet/sync.js';
import type { Testnet } from '../testnet/types.js';

export interface ControlRoute {
  /** What the testnet is doing while it runs, for a request refused meanwhile ("busy saving a snapshot"). */
  busy: string;
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
};
