// Where blocks were mined between two requests of a recording. Mining through the daemon proxy
// (`/start_mining` … `/stop_mining`, which `saltnet mine` and the clients of a recording send) is an
// episode: the requests it makes meanwhile (height polls, mining status, popping overshoot) are
// part of it, not steps, and when the next other request arrives the episode ends as one `mine`
// step. Blocks mined around the proxy are seen by polling the height and become a `mine` step
// before the next request.
//
// How many blocks an episode's step mines is what the app waited for, not what the daemon mined: a
// miner goes on between the app's last look at the height and its stop_mining (the simulator mines a
// block every few milliseconds, so a loop that waits for 10 may stop at 165), and a replay cannot
// repeat that. The app's height polls (/get_height, get_info, get_block_count,
// get_last_block_header) say what it saw; its last poll before stop_mining is the height it accepted,
// so the step mines that height minus the height when mining started (at most what the chain really
// gained, so that blocks the app popped stay popped). The blocks mined past it are popped before the
// app's next request goes on, so that the app goes on from the chain a replay has (a transfer's
// confirmations, what is unlocked). An episode without such a poll (the app mined for a while, or
// until something other than the height), or whose last poll saw no new block, keeps what the chain
// gained.
import { barePath, peekMethod } from './exchanges.js';

/** Daemon requests a mining episode makes: URI endpoints and JSON-RPC methods. */
export const EPISODE_PATHS = new Set([
  '/start_mining',
  '/stop_mining',
  '/mining_status',
  '/get_height',
  '/getheight',
  '/get_info',
  '/getinfo',
  '/pop_blocks',
]);
export const EPISODE_METHODS = new Set([
  'get_info',
  'get_block_count',
  'getblockcount',
  'get_last_block_header',
  'getlastblockheader',
  'get_block_header_by_height',
  'getblockheaderbyheight',
  'get_block',
  'getblock',
]);

export interface MiningTracker {
  /**
   * Before a request is forwarded: whether it is a step (false: part of a mining episode), after
   * settling the blocks mined since the last step. `mined(blocks)` is called for those.
   */
  before(target: string, path: string, body: Buffer): Promise<boolean>;
  /** A request's answer (the height polls of a mining episode are read from them). */
  answered(target: string, path: string, body: Buffer, answer: Buffer): void;
  /** End an open episode (the session stops). */
  finish(): Promise<void>;
  close(): void;
}

/** What a mining episode settles as: the blocks the app waited for, and those mined past them. */
export interface Mined {
  blocks: number;
  /** Blocks the daemon mined after the app's last height poll, before mining stopped: not replayed. */
  overshoot?: number;
  /** The overshoot was popped before the app went on (false: the daemon refused, the app saw a longer chain). */
  popped?: boolean;
}

export interface MiningTrackerOptions {
  /** The daemon's height now. */
  height: () => Promise<number>;
  /** Pop the top `n` blocks (an episode's overshoot). */
  pop: (n: number) => Promise<void>;
  /** Told of each settled episode, or blocks mined around the proxy. */
  mined: (m: Mined) => void;
  /** The height the session starts at. */
  startHeight: number;
  /** How often the height is looked at between requests, outside an episode (default 250 ms). */
  pollMs?: number;
}

/** The chain height a height poll's answer gives (`/get_height`, get_info, get_block_count, …), if it is one. */
export function polledHeight(path: string, body: Buffer, answer: Buffer): number | undefined {
  const p = barePath(path);
  const method = p === '/json_rpc' ? peekMethod(body) : undefined;
  if (p !== '/json_rpc' && !EPISODE_PATHS.has(p)) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(answer.toString('utf8'));
  } catch {
    return undefined;
  }
  const o = (p === '/json_rpc' ? (v as { result?: unknown } | null)?.result : v) as Record<string, unknown> | undefined;
  if (!o || typeof o !== 'object') return undefined;
  const n = (x: unknown): number | undefined =>
    Number.isSafeInteger(x) && (x as number) >= 0 ? (x as number) : undefined;
  if (['/get_height', '/getheight', '/get_info', '/getinfo'].includes(p) || method === 'get_info') return n(o.height);
  if (method === 'get_block_count' || method === 'getblockcount') return n(o.count);
  if (method === 'get_last_block_header' || method === 'getlastblockheader') {
    const h = n((o.block_header as Record<string, unknown> | undefined)?.height);
    return h === undefined ? undefined : h + 1;
  }
  return undefined;
}

export function trackMining(o: MiningTrackerOptions): MiningTracker {
  const { height, mined } = o;
  let accounted = o.startHeight;
  let observed = o.startHeight;
  /** `polled`: the height the app's last poll saw, while mining had not been stopped yet. */
  let episode: { stopped: boolean; polled?: number } | undefined;
  const settle = async (): Promise<void> => {
    let h = await height();
    observed = Math.max(observed, h);
    // A stopped episode whose app polled the height: what it waited for (see the header).
    const waited = episode?.stopped && episode.polled !== undefined ? Math.min(episode.polled, h) : h;
    if (waited > accounted) {
      const overshoot = h - waited;
      const popped =
        overshoot > 0 &&
        (await o.pop(overshoot).then(
          () => true,
          () => false,
        ));
      if (popped) h = observed = waited;
      mined({ blocks: waited - accounted, ...(overshoot > 0 ? { overshoot, popped } : {}) });
    } else if (h > accounted) mined({ blocks: h - accounted });
    accounted = h;
  };
  const timer = setInterval(() => {
    if (episode) return;
    height().then(
      (h) => void (observed = h),
      () => undefined,
    );
  }, o.pollMs ?? 250);
  timer.unref();
  return {
    async before(target, path, body) {
      const p = barePath(path);
      if (target === 'daemon') {
        if (p === '/start_mining') {
          // a new episode: the one before (if any) is settled first
          if (!episode || episode.stopped) await settle();
          episode = { stopped: false };
          return false;
        }
        if (episode && (EPISODE_PATHS.has(p) || (p === '/json_rpc' && EPISODE_METHODS.has(peekMethod(body) ?? '')))) {
          if (p === '/stop_mining') episode.stopped = true;
          return false;
        }
      }
      if (episode) {
        // Another request: the episode's blocks so far are one step (mining may go on, as a next one).
        await settle();
        if (episode.stopped) episode = undefined;
        else episode.polled = undefined;
      } else if (observed !== accounted) await settle();
      return true;
    },
    answered(target, path, body, answer) {
      if (target !== 'daemon' || !episode || episode.stopped) return;
      const h = polledHeight(path, body, answer);
      if (h !== undefined) episode.polled = h;
    },
    async finish() {
      await settle().catch(() => undefined);
      episode = undefined;
    },
    close: () => clearInterval(timer),
  };
}
