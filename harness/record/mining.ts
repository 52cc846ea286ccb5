// Where blocks were mined between two requests of a recording. Mining through the daemon proxy
// (`/start_mining` … `/stop_mining`, which `saltnet mine` and the clients of a recording send) is an
// episode: the requests it makes meanwhile (height polls, mining status, popping overshoot) are
// part of it, not steps, and when the next other request arrives the episode ends as one `mine`
// step of the blocks it added. Blocks mined around the proxy are seen by polling the height and
// become a `mine` step before the next request.
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
  /** End an open episode (the session stops). */
  finish(): Promise<void>;
  close(): void;
}

export function trackMining(
  height: () => Promise<number>,
  mined: (blocks: number) => void,
  startHeight: number,
  pollMs = 250,
): MiningTracker {
  let accounted = startHeight;
  let observed = startHeight;
  let episode: { stopped: boolean } | undefined;
  const settle = async (): Promise<void> => {
    const h = await height();
    observed = Math.max(observed, h);
    if (h > accounted) mined(h - accounted);
    accounted = h;
  };
  const timer = setInterval(() => {
    if (episode) return;
    height().then(
      (h) => void (observed = h),
      () => undefined,
    );
  }, pollMs);
  timer.unref();
  return {
    async before(target, path, body) {
      const p = barePath(path);
      if (target === 'daemon') {
        if (p === '/start_mining') {
          if (!episode) await settle();
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
        if (episode.stopped) episode = undefined;
        await settle();
      } else if (observed !== accounted) await settle();
      return true;
    },
    async finish() {
      episode = undefined;
      await settle().catch(() => undefined);
    },
    close: () => clearInterval(timer),
  };
}
